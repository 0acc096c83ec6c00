"""Every public function, class, method and property of rosen has a docstring, because a user's
``help()`` (and an editor's hover) shows them: an undocumented name there says nothing at all.

Public means named in a public module's ``__all__`` (a module whose dotted path has no part
starting with ``_``), and, on such a class, a name not starting with ``_`` defined in the class
itself. Every module is imported, the optional extras' ones too (CI installs every extra), so
that none is skipped.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import rosen


def public_modules():
    """The dotted names of rosen's public modules, each one imported (an import error fails)."""
    def fail(name):
        raise ImportError(f"cannot import {name}")

    names = ["rosen"]  # the package itself: walk_packages yields only what is below it
    for info in pkgutil.walk_packages(rosen.__path__, prefix="rosen.", onerror=fail):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        importlib.import_module(info.name)
        names.append(info.name)
    return names


def public_members(cls):
    """(name, object) of the public functions, properties, static and class methods ``cls`` defines."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            yield name, value.__func__
        elif inspect.isfunction(value) or isinstance(value, property):
            yield name, value


def test_every_public_module_is_found():
    names = public_modules()
    assert {"rosen", "rosen.agents.mcts", "rosen.bench.report", "rosen.engine.client", "rosen.learning.train",
            "rosen.match.stats", "rosen.selfplay.generate", "rosen.web"} <= set(names)


def test_every_public_callable_has_a_docstring():
    missing = set()
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj):
                where = f"{obj.__module__}.{obj.__qualname__}"
                if inspect.getdoc(obj) is None:
                    missing.add(where)
                for member, value in public_members(obj):
                    if inspect.getdoc(value) is None:
                        missing.add(f"{where}.{member}")
            elif inspect.isfunction(obj) and inspect.getdoc(obj) is None:
                missing.add(f"{obj.__module__}.{obj.__qualname__}")
    assert not missing, "no docstring:\n" + "\n".join(sorted(missing))
