"""Lovagok ranking: the strength of a roll (L4, L5) and how results compare (L6).

>>> strength("555436"), strength("66", dice_cards=(2, 4))     # 6 = blank (L1); cards count (L4)
(Result('5554'), Result('42'))
>>> beats("3334", "3332"), beats("3332", "3332"), compare("555", "5551")   # a tie does not beat
(True, False, -1)
"""
from __future__ import annotations

from .._core import lovagok as _lv
from .notation import (
    RESULTS,
    CardsLike,
    Result,
    ResultLike,
    RollLike,
    as_result,
    counts_of,
    parse_dice_cards,
    parse_roll,
)


def strength(dice: RollLike, dice_cards: CardsLike = ()) -> Result:
    """The result of the dice showing plus dice cards (L4, L5): ``strength("555436") == Result.parse("5554")``."""
    faces = parse_roll(dice, "dice")
    return RESULTS[_lv.rank_of_counts(counts_of(faces), parse_dice_cards(dice_cards))]


def compare(a: ResultLike, b: ResultLike) -> int:
    """-1, 0 or 1 as ``a`` is weaker than, equal to or stronger than ``b`` (L6)."""
    ra, rb = as_result(a, "a").rank, as_result(b, "b").rank
    return (ra > rb) - (ra < rb)


def beats(a: ResultLike, b: ResultLike) -> bool:
    """True when ``a`` is strictly stronger than ``b``: an equal result does not beat (L6)."""
    return compare(a, b) > 0
