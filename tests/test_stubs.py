"""The committed type stubs (python/rosen/_core/*.pyi) name exactly what the compiled module exports:
every module-level name and every public member of every class."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import rosen
from rosen import _core

STUB_DIR = Path(rosen.__file__).parent / "_core"
MODULES = {"__init__.pyi": _core, "lovagok.pyi": _core.lovagok}
HELPERS = {"MoveLike", "Counts"}  # type aliases that exist only in the stubs


def names_in(body) -> set:
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and node.module is None:
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def exported(obj, dunder: set = frozenset()) -> set:
    return {n for n in dir(obj) if not n.startswith("_") or n in dunder}


@pytest.mark.parametrize("stub", sorted(MODULES))
def test_stub_names_module_exports(stub):
    module = MODULES[stub]
    tree = ast.parse((STUB_DIR / stub).read_text())
    in_stub = names_in(tree.body) - HELPERS
    in_module = {n for n in dir(module) if not n.startswith("__")}
    assert in_stub == in_module


@pytest.mark.parametrize("stub", sorted(MODULES))
def test_stub_names_class_members(stub):
    module = MODULES[stub]
    tree = ast.parse((STUB_DIR / stub).read_text())
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name)
        if issubclass(cls, BaseException):
            continue
        declared = {n for n in names_in(node.body) if not n.startswith("_")}
        assert declared == exported(cls), node.name
        for name in names_in(node.body):
            assert hasattr(cls, name), f"{node.name}.{name}"
        assert inspect.isclass(cls)


def _doc_parameters(obj, name: str):
    """Parameter names of a compiled function from pybind11's signature line, or None when the
    doc has none to read (an overloaded function, a property, a plain Python object)."""
    doc = (getattr(obj, "__doc__", None) or "").lstrip()
    first = doc.split("\n", 1)[0]
    if not first.startswith(f"{name}(") or "Overloaded function" in doc[:200]:
        return None
    inside, depth, params, current = first[len(name) + 1:], 0, [], ""
    for ch in inside:  # split the top level of "a: T, b: Dict[str, int] = ...) -> R" on commas
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            params.append(current)
            current = ""
        else:
            current += ch
    params.append(current)
    names = [p.split(":")[0].split("=")[0].strip().lstrip("*") for p in params if p.strip()]
    return [n for n in names if n not in ("self", "")]


@pytest.mark.parametrize("stub", sorted(MODULES))
def test_stub_parameter_names_match_the_compiled_signatures(stub):
    # A keyword call written from the stub must work: Move.__eq__'s parameter was once `arg0`.
    module = MODULES[stub]
    tree = ast.parse((STUB_DIR / stub).read_text())
    checked = 0
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name)
        for item in node.body:
            if not isinstance(item, ast.FunctionDef) or item.decorator_list:
                continue
            runtime = _doc_parameters(getattr(cls, item.name, None), item.name)
            if runtime is None:
                continue
            args = item.args
            declared = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"]
            assert declared == runtime, f"{node.name}.{item.name}: stub {declared}, compiled {runtime}"
            checked += 1
    assert checked > 0
