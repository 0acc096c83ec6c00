"""rosen.lovagok's layout: one job per module, imports one way, the public API and a cheap import."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from rosen import lovagok as lv

PACKAGE = Path(lv.__file__).parent
# Each module may import only the modules listed before it (notation is the leaf).
ORDER = ["notation", "ranking", "solver", "tables", "contests"]
PUBLIC = [
    "Result", "RESULTS", "NUM_RESULTS", "NOTHING", "KING", "TREASON", "parse_combination", "format_combination",
    "parse_roll", "parse_dice_cards", "strength", "compare", "beats", "p_beat", "distribution", "beat_utility",
    "Solver", "Option", "Advice", "advise", "CastleAttack", "attack_castle", "Tournament", "tournament",
    "topple_king", "BeatTable", "table", "DEFAULT_REROLLS",
]


def package_imports(module: str) -> set:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    return {node.module.split(".")[0] for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}


@pytest.mark.parametrize("index,module", list(enumerate(ORDER)))
def test_modules_import_only_the_ones_before_them(index, module):
    assert package_imports(module) <= set(ORDER[:index])


def test_every_module_is_in_the_order():
    assert sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__") == sorted(ORDER)


def test_public_api_is_unchanged_and_importable():
    assert lv.__all__ == PUBLIC
    assert all(hasattr(lv, name) for name in PUBLIC)
    assert callable(lv.strength) and callable(lv.table)  # functions, not the modules of the same job


def test_import_computes_no_table():
    code = ("import rosen.lovagok, rosen.lovagok.tables as t, rosen.lovagok.solver as s; "
            "assert t._card_set_table.cache_info().currsize == 0 and s._beat_solver.cache_info().currsize == 0")
    subprocess.run([sys.executable, "-c", code], check=True)
