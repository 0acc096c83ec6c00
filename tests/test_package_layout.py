"""The shape of the Python package (issue 8): imports run one way, `import rosen` stays light,
each layer imports only what is below it, and the docs' examples run."""
from __future__ import annotations

import ast
import doctest
import importlib
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rosen
from package_modules import all_modules

PACKAGE = Path(rosen.__file__).parent
README = Path(__file__).resolve().parents[1] / "README.md"


def module_imports() -> dict:
    """Module name -> the rosen modules it imports (relative imports resolved)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(("rosen",) + path.relative_to(PACKAGE).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
                subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
                targets.update(subs or [target])
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        # A module importing from its own package's __init__ is not an edge of the layering.
        graph[name] = {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}
    return graph


def test_the_import_graph_has_no_cycle():
    graph = module_imports()
    state: dict = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                pytest.fail("import cycle: " + " -> ".join(path[path.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


@pytest.mark.parametrize("module, allowed", [
    ("rosen.errors", set()),                                   # a leaf
    ("rosen.engine.protocol", {"rosen._core", "rosen.errors"}),  # the vocabulary: core only
    # like python-chess's engine module; the errors (a leaf) for its checked arguments
    ("rosen.engine.client", {"rosen._core", "rosen.errors", "rosen.engine.protocol"}),
    ("rosen.agents.base", {"rosen._core", "rosen.errors", "rosen.search"}),
    ("rosen.match.game", {"rosen", "rosen._core", "rosen.agents.base", "rosen.errors", "rosen.search"}),
])
def test_layers_import_only_what_is_below_them(module, allowed):
    assert module_imports()[module] <= allowed


def test_import_rosen_stays_small_and_light():
    code = "import rosen, sys; print(' '.join(sorted(m for m in sys.modules if m.startswith(('rosen', 'torch', 'ray')))))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert loaded == {"rosen", "rosen._core", "rosen._core.lovagok", "rosen.encoding", "rosen.errors",
                      "rosen.randomplay", "rosen.search", "rosen.territory"}


@pytest.mark.parametrize("name", all_modules())
def test_module_doctests_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0


def readme_python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_python_examples_run():
    blocks = readme_python_blocks()
    assert len(blocks) >= 3
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - the project's own docs


def _annotations(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if arg is not None and arg.annotation is not None:
                    yield arg.annotation
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def test_the_package_is_python_3_9_code():
    # README: "Python 3.9+ for the engine alone". Under `from __future__ import annotations` an
    # `X | Y` annotation imports on 3.9 but typing.get_type_hints fails on it there (it did for
    # rosen.match.replay); Optional/Union read the same everywhere.
    unions = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path), feature_version=(3, 9))
        for ann in _annotations(tree):
            if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr) for n in ast.walk(ann)):
                unions.append(f"{path.relative_to(PACKAGE)}:{ann.lineno}")
    assert not unions, f"PEP 604 unions in annotations: {unions}"


def test_reliability_md_quotes_the_ci_commands_as_ci_runs_them():
    # docs/reliability.md's "CI" section prints the reliability stage's commands; it had drifted
    # from .ci/run (two test files and one test left out there were still in it)
    ci = [line for line in (README.parent / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    start = next(i for i, line in enumerate(ci) if line.startswith("python -m pip install atheris"))
    stage = "\n".join(ci[start:])
    section = (README.parent / "docs" / "reliability.md").read_text().split("\n## CI\n", 1)[1]
    quoted = re.search(r"```bash\n(.*?)\n```", section, flags=re.S).group(1)
    assert quoted == stage


def test_every_build_rounds_multiply_add_twice():
    # F103: GCC and Clang fuse a*b + c into one FMA wherever the target has one (ARM, Apple
    # silicon, -march=native); built that way every pinned search signature and the engine's bench
    # came out different. CI builds for x86-64-v2, which has no FMA, so no search here can show the
    # flag missing; docs/reliability.md, "Other compilers and CPUs", is the check that does.
    cmake = (README.parent / "CMakeLists.txt").read_text()
    flags = re.search(r'if\(CMAKE_CXX_COMPILER_ID MATCHES "GNU\|Clang"\)\n(.*?)\nendif\(\)', cmake, flags=re.S)
    assert flags and "add_compile_options(-ffp-contract=off)" in flags.group(1)
    assert not re.search(r"-ffast-math|-Ofast|-ffp-contract=(fast|on)", cmake)


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=README.parent, capture_output=True, text=True, timeout=60)


def test_the_sdist_holds_the_projects_files_and_not_what_its_commands_write():
    # The sdist is every file git does not ignore (scikit-build-core): a third-party wheel that
    # had been committed shipped in it, and so would the README's outputs (a network, curves,
    # match records, a self-play run) when run in the repository's root.
    if not (README.parent / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist holds no .git)")
    tracked = _git("ls-files").stdout.split()
    top = {path.split("/")[0] for path in tracked}
    assert top == {".ci", ".gitignore", "CMakeLists.txt", "LICENSE", "README.md", "pyproject.toml",
                   "bench", "cpp", "docs", "fuzz", "python", "tests", "tools"}, top
    assert not [path for path in tracked if path.endswith((".whl", ".tar.gz", ".zip"))]
    outputs = ["net.npz", "net2.npz", "curves.png", "a.jsonl", "games.jsonl", "run1/shard-0000.npz",
               "data1/shard.npz", "dist/rosen-0.1.0.tar.gz", "x.whl", "build/cp311/CMakeCache.txt",
               "python/rosen/_core.cpython-311-x86_64-linux-gnu.so"]
    checked = _git("check-ignore", "--no-index", "--verbose", "--non-matching", *outputs).stdout.splitlines()
    assert not [line for line in checked if line.startswith("::")], checked  # "::\tpath": no rule ignores it


def test_the_docs_pip_commands_work_with_the_pip_of_python_3_9():
    # README: "Python 3.9+ for the engine alone"; 3.9's and 3.10's bundled pip (23.0) refuse the
    # short -C (pip 23.1): the portable build's command failed there with "no such option: -C".
    texts = [README] + sorted((README.parent / "docs").glob("*.md"))
    short = [f"{path.name}: {line.strip()}" for path in texts for line in path.read_text().splitlines()
             if "pip install" in line and re.search(r"\s-C\b", line)]
    assert not short, short


def test_the_keywords_typeddict_and_the_lazy_evaluator_are_rosens_names():
    # `rosen.search` is the function, so the documented `rosen.search.SearchOptions` (as an
    # attribute) failed; the TypedDict is rosen.SearchOptions. dir(rosen) lacked the lazy Evaluator.
    from rosen.search import SearchOptions
    from rosen.selfplay.records import Shard

    assert rosen.SearchOptions is SearchOptions and "SearchOptions" in rosen.__all__
    assert {"Evaluator", "SearchOptions", "Position", "search"} <= set(dir(rosen))
    shard = Shard(rows={"game": np.zeros(3, np.int32), "ply": np.zeros(3, np.int16)}, metadata={"run": 1})
    assert repr(shard) == "Shard(rows=3, columns=2, metadata=['run'])"
