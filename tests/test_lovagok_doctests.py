"""The examples in rosen.lovagok's docstrings run and print what they claim."""
import doctest

from rosen import lovagok


def test_lovagok_docstring_examples():
    failures, tried = doctest.testmod(lovagok, optionflags=doctest.ELLIPSIS)
    assert tried >= 3 and failures == 0
