"""The examples in rosen.lovagok's docstrings (the package and each of its modules) run and print what they claim."""
import doctest

import pytest

from rosen import lovagok
from rosen.lovagok import contests, notation, ranking, solver, tables


@pytest.mark.parametrize("module", [lovagok, notation, ranking, solver, tables, contests], ids=lambda m: m.__name__)
def test_lovagok_docstring_examples(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried >= 1 and failures == 0
