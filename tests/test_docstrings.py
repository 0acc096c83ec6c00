"""Every public function, class, method and property of rosen has a docstring, because a user's
``help()`` (and an editor's hover) shows them: an undocumented name there says nothing at all.

Every public module (one whose dotted path has no part starting with ``_``) is checked. Its
public names are those in its ``__all__``; a module without ``__all__`` has as public names the
classes and functions it defines itself (whose ``__module__`` is the module's name) with a name
not starting with ``_``. On each such class, the public members are the functions, properties,
static methods and class methods it defines itself (not inherited) with a name not starting with
``_``. Each of these must have a docstring (``inspect.getdoc`` is not None). Every module is
imported, the optional extras' ones too (CI installs every extra), so that none is skipped.
"""
from __future__ import annotations

import importlib
import inspect
import re

from package_modules import all_modules


def public_modules():
    """The dotted names of rosen's public modules, each one imported (an import error fails)."""
    names = [name for name in all_modules() if not any(part.startswith("_") for part in name.split("."))]
    for name in names:
        importlib.import_module(name)
    return names


def public_names(module):
    """(name, object) of ``module``'s public names: those in its ``__all__``, or, if it has none,
    the classes and functions it defines itself with a name not starting with ``_``."""
    if hasattr(module, "__all__"):
        for name in module.__all__:
            yield name, getattr(module, name)
        return
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        if (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__ == module.__name__:
            yield name, value


def public_members(cls):
    """(name, object) of the public functions, properties, static and class methods ``cls`` defines,
    compiled ones (pybind11's) included."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            yield name, value.__func__
        elif inspect.isroutine(value) or isinstance(value, property):
            yield name, value


def undocumented(obj, name: str) -> bool:
    """Whether ``obj`` has no docstring of its own words: pybind11 gives a compiled method its
    signature line (``copy(self: ...) -> ...``) and a property an empty one, which say nothing."""
    lines = [line.strip() for line in (inspect.getdoc(obj) or "").splitlines()]
    return not [line for line in lines if line and not line.startswith(f"{name}(")
                and line != "Overloaded function." and not re.match(r"^\d+\. " + re.escape(name) + r"\(", line)]


def test_every_public_module_is_found():
    names = public_modules()
    assert {"rosen", "rosen.agents.mcts", "rosen.bench.report", "rosen.engine.client", "rosen.learning.train",
            "rosen.match.stats", "rosen.selfplay.generate", "rosen.web"} <= set(names)


def test_every_public_callable_has_a_docstring():
    missing = set()
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name, obj in public_names(module):
            if inspect.isclass(obj):
                where = f"{obj.__module__}.{obj.__qualname__}"
                if inspect.getdoc(obj) is None:
                    missing.add(where)
                for member, value in public_members(obj):
                    if undocumented(value, member):  # once `is None`, which an empty docstring passed
                        missing.add(f"{where}.{member}")
            elif inspect.isroutine(obj) and undocumented(obj, name):
                missing.add(f"{obj.__module__}.{obj.__qualname__}")
    assert not missing, "no docstring:\n" + "\n".join(sorted(missing))


def _later_lines_indent(doc: str) -> int:
    lines = [line for line in doc.splitlines()[1:] if line.strip()]
    return min((len(line) - len(line.lstrip()) for line in lines), default=0)


def test_the_texts_built_from_docstrings_read_the_same_under_python_3_13():
    # Python 3.13 strips the indentation common to a docstring's later lines when it compiles it,
    # earlier ones keep it. A docstring printed as written (argparse's RawDescriptionHelpFormatter)
    # or extended at run time must therefore have none: `rosen selfplay --help` lost its examples'
    # indentation under 3.13, and help(rosen.SearchParams) showed its Fields as a block apart.
    import rosen

    cli = [importlib.import_module(name) for name in public_modules() if name.startswith("rosen.cli.")]
    raw = [m for m in cli if "RawDescriptionHelpFormatter" in inspect.getsource(m)]
    assert {m.__name__.rsplit(".", 1)[1] for m in raw} >= {"selfplay", "match", "train"}
    for module in raw:
        assert _later_lines_indent(module.__doc__ or "") == 0, module.__name__
    assert _later_lines_indent(rosen.SearchParams.__doc__ or "") == 0
