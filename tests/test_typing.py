"""The typing promise (``py.typed``, the compiled module's stubs, the package's annotations) as a
user's type checker sees it: the README's Python examples type-check under ``mypy --strict``, and
the usual mistakes -- a misspelt name or search parameter, a value of the wrong type, writing to an
immutable field -- are flagged before they run. (tests/test_stubs.py holds the stubs to the
compiled module's names and parameters.)"""
from __future__ import annotations

import ast
import importlib
import re
import sys
import typing
from pathlib import Path

import pytest
from mypy import api as mypy_api

import rosen

search_module = importlib.import_module("rosen.search")  # the module; rosen.search is the function

ROOT = Path(__file__).resolve().parent.parent
# Modules without type information that the README's examples import (OpenSpiel ships none).
CONFIG = "[mypy]\n\n[mypy-pyspiel.*]\nignore_missing_imports = True\n"

# Each line ends in the error code mypy must report there; "ok" lines must pass. Every mistake
# below raises at run time; a type checker should say so first.
MISTAKES = '''\
import rosen
from rosen.agents import Agent, LevelAgent, MCTSAgent, RandomAgent
from rosen.search import SearchOptions

pos = rosen.Position.new(seed=1)
rosen.Positon.new(seed=1)                              # attr-defined
rosen.serch(pos, iterations=10)                        # attr-defined
rosen.search(pos, iterationz=10)                       # call-arg
rosen.search(pos, iterations="many")                   # arg-type
rosen.search(pos, rollout=3)                           # arg-type
rosen.Searcher(threadz=2)                              # call-arg
rosen.SearchParams(seed=1).replace(sead=2)             # call-arg
MCTSAgent(iteratons=5)                                 # call-arg
params = rosen.SearchParams(time_ms=5)
params.iterations = 3                                  # misc
from rosen.env import VecEnvv                          # attr-defined
rosen.search(pos, iterations=10, rollout="random", minimax_values="network")  # ok
MCTSAgent(evaluator="auto", clock_ms=100, iterations=0)  # ok
level: Agent = LevelAgent(RandomAgent(1), 3)           # ok
rosen.score_boards([[0] * 9] * 9)                      # ok
word = "random"
rosen.search(pos, rollout=word)                        # ok
opts: SearchOptions = {"iterations": 10, "seed": 1}
rosen.search(pos, **opts)                              # ok


class Mine(Agent):  # an explicit subclass that sets the protocol's members
    def __init__(self) -> None:
        self.name = "mine"                             # ok
        self.last_stats = None                         # ok

    def choose(self, position: rosen.Position) -> rosen.Move:
        return position.legal_moves()[0]

    def reset(self) -> None:
        pass

    def on_move(self, move: rosen.Move) -> None:
        pass


mine: Agent = Mine()                                   # ok
'''


def run_mypy(tmp_path: Path, files: dict, monkeypatch) -> dict:
    """mypy --strict over ``files`` (name -> source): {file name: [(line, code), ...]}. Run from
    ``tmp_path``: mypy puts the working directory on its search path, and from the repository's
    python/ folder it would read the package as the user's own code."""
    monkeypatch.chdir(tmp_path)
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    (tmp_path / "mypy.ini").write_text(CONFIG)
    out, err, status = mypy_api.run([
        "--strict", "--config-file", str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / ".mypy_cache"),
        "--no-error-summary", "--show-error-codes", "--no-color-output", *(str(tmp_path / name) for name in files)])
    assert status in (0, 1), f"mypy failed to run: {err or out}"
    found: dict = {name: [] for name in files}
    for line in out.splitlines():
        m = re.match(r"(.+?):(\d+): error: .*\[([a-z-]+)\]$", line)
        assert m is not None or ": note:" in line, line
        if m:
            found.setdefault(Path(m.group(1)).name, []).append((int(m.group(2)), m.group(3)))
    return found


def readme_examples() -> dict:
    """The README's Python blocks as files. A block may go on from an earlier one (the README reads
    top to bottom), so each starts with the imports the earlier ones made."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 8
    return {f"readme_{i:02d}.py": "import numpy as np\nimport rosen\n" + block for i, block in enumerate(blocks)}


def test_readme_examples_and_the_usual_mistakes_under_mypy_strict(tmp_path, monkeypatch):
    files = {"mistakes.py": MISTAKES, **readme_examples()}
    found = run_mypy(tmp_path, files, monkeypatch)
    assert set(found) == set(files), f"errors outside the checked files: {found}"
    for name in files:
        if name != "mistakes.py":
            assert found[name] == [], f"{name} (README.md's Python example) does not type-check:\n{files[name]}"
    expected = []
    for number, line in enumerate(MISTAKES.splitlines(), 1):
        m = re.search(r"#\s*([a-z-]+)$", line)  # an error code ending the line; "ok" or prose is none
        if m and m.group(1) != "ok":
            expected.append((number, m.group(1)))
    assert sorted(set(found["mistakes.py"])) == expected


def _class_fields(name: str) -> dict:
    """{field: annotation} of the read-only properties SearchParams declares for type checkers."""
    tree = ast.parse(Path(search_module.__file__).read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    block = next(n for n in cls.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    return {f.name: ast.unparse(f.returns) for f in block.body if isinstance(f, ast.FunctionDef)}


def test_search_options_and_search_params_fields_follow_the_cores_table():
    types = {"int": int, "float": float, "str": str}
    hints = typing.get_type_hints(search_module.SearchOptions)
    names = [p.name for p in search_module.PARAMS]
    assert list(hints) == names
    assert hints == {p.name: types[p.type] for p in search_module.PARAMS}
    assert _class_fields("SearchParams") == {p.name: p.type for p in search_module.PARAMS}
    # and every field reads back at run time, as the types say
    params = rosen.SearchParams()
    for p in search_module.PARAMS:
        assert type(getattr(params, p.name)) is types[p.type], p.name


def test_the_public_signatures_resolve_at_run_time():
    # typing.get_type_hints (and inspect.signature(eval_str=True), pydantic, autodoc) evaluate the
    # annotations: a name imported for type checkers alone made them raise NameError.
    from rosen.agents import MCTSAgent
    for function in (rosen.search, rosen.Searcher.__init__, rosen.SearchParams.__init__, rosen.SearchParams.replace,
                     MCTSAgent.__init__, rosen.score_boards, rosen.random_play, rosen.encode):
        hints = typing.get_type_hints(function)
        assert "return" in hints, function
    if sys.version_info >= (3, 11):
        assert typing.get_type_hints(rosen.search)["kwargs"] == typing.Unpack[search_module.SearchOptions]


def test_the_signatures_resolve_before_3_11_without_typing_extensions(monkeypatch):
    # README: "Python 3.9+ for the engine alone", whose install has no typing_extensions: Unpack was
    # None there, and typing.get_type_hints of every **kwargs signature raised TypeError.
    assert search_module.Unpack is search_module._typed_kwargs()  # the module's is the function's choice
    monkeypatch.setattr(sys, "version_info", (3, 9, 18, "final", 0))
    monkeypatch.setitem(sys.modules, "typing_extensions", None)  # an import of it raises ImportError
    unpack = search_module._typed_kwargs()
    assert unpack[search_module.SearchOptions] is typing.Any

    def f(**kwargs: "unpack[search_module.SearchOptions]") -> None:  # noqa: F821 - read from the locals below
        pass

    assert typing.get_type_hints(f, localns={"unpack": unpack, "search_module": search_module}) == {
        "kwargs": typing.Any, "return": type(None)}


def test_the_package_type_checks(tmp_path, monkeypatch):
    # `mypy -p rosen` with the project's settings (pyproject.toml: this checkout's python/ folder,
    # OpenSpiel and PettingZoo without type information): it found 80 errors inside the package, each
    # a None or a type the code's own annotations did not allow (F94).
    monkeypatch.chdir(tmp_path)
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
                                     str(tmp_path / ".mypy_cache"), "--no-color-output", "-p", "rosen"])
    assert status == 0, out + err
