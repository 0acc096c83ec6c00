"""The committed stub python/rosen/_core_lovagok.pyi names exactly what _core.lovagok exports."""
import ast
import inspect
from pathlib import Path

import rosen
from rosen import _core

STUB = Path(rosen.__file__).with_name("_core_lovagok.pyi")


def stub_names(body):
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def test_stub_names_module_exports():
    tree = ast.parse(STUB.read_text())
    exported = {n for n in public(_core.lovagok) if not inspect.ismodule(getattr(_core.lovagok, n))}
    assert stub_names(tree.body) - {"Counts"} == exported


def test_stub_names_solver_members():
    tree = ast.parse(STUB.read_text())
    solver = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Solver")
    assert stub_names(solver.body) - {"__init__"} == public(_core.lovagok.Solver)
