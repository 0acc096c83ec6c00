"""A plain, slow, exact reference for Lovagok, independent of the engine (used only by tests).

Dice are ordered tuples of faces, every subset of positions may be re-rolled, every ordered
outcome of a roll is enumerated, and all arithmetic is in Fractions. Nothing here shares code
or indexing with rosen's C++ multiset DP.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from typing import Callable, Dict, Iterable, Optional, Tuple

Triple = Tuple[int, int, int]  # (size, value, further), further 0 = none; (0, 0, 0) = nothing


def ref_result(faces: Iterable[int], cards: Iterable[int] = ()) -> Triple:
    """L1, L4, L5 straight from the rulebook wording."""
    counted = [f for f in faces if f != 6] + list(cards)
    if not counted:
        return (0, 0, 0)
    tally = Counter(counted)
    size, value = max((n, v) for v, n in tally.items())  # larger group, then higher value
    others = [v for v in counted if v != value]
    return (size, value, max(others) if others else 0)


def ref_beats(a: Triple, b: Triple) -> bool:
    """L6: lexicographic, strictly."""
    return a > b


def attempt_value(utility: Callable[[Triple], Fraction], dice: int, rerolls: int, cards: Tuple[int, ...] = (),
                  binding: bool = False) -> Fraction:
    """Expectimax over every decision and every ordered roll.

    With ``binding=True`` dice once kept may never be re-rolled (the rule L2 says they may);
    used to show that non-binding keeping matters.
    """

    @lru_cache(maxsize=None)
    def node(locked: Tuple[int, ...], free: Tuple[int, ...], r: int) -> Fraction:
        best = utility(ref_result(locked + free, cards))
        if r == 0:
            return best
        pool = free if binding else tuple(sorted(locked + free))
        fixed = locked if binding else ()
        for m in range(1, len(pool) + 1):
            for positions in combinations(range(len(pool)), m):
                keep = tuple(sorted(fixed + tuple(x for i, x in enumerate(pool) if i not in positions)))
                best = max(best, roll(keep, m, r - 1))
        return best

    @lru_cache(maxsize=None)
    def roll(keep: Tuple[int, ...], m: int, r: int) -> Fraction:
        total = Fraction(0)
        for outcome in product(range(1, 7), repeat=m):
            shown = tuple(sorted(f for f in outcome if f != 6))
            total += node(keep, shown, r) if binding else node((), tuple(sorted(keep + shown)), r)
        return total / 6 ** m

    return roll((), dice, rerolls)


def policy_distribution(best_keep: Callable[[Tuple[int, ...], int], Optional[Tuple[int, ...]]], dice: int,
                        rerolls: int, cards: Tuple[int, ...] = ()) -> Dict[Triple, Fraction]:
    """Exact distribution of the final result when following ``best_keep(counted faces, r)``."""
    out: Dict[Triple, Fraction] = {}

    def visit(shown: Tuple[int, ...], r: int, p: Fraction) -> None:
        keep = best_keep(shown, r) if r > 0 else None
        if keep is None:
            key = ref_result(shown, cards)
            out[key] = out.get(key, Fraction(0)) + p
            return
        m = len(shown) - len(keep)
        for outcome in product(range(1, 7), repeat=m):
            visit(tuple(sorted(keep + tuple(f for f in outcome if f != 6))), r - 1, p / 6 ** m)

    for outcome in product(range(1, 7), repeat=dice):
        visit(tuple(sorted(f for f in outcome if f != 6)), rerolls, Fraction(1, 6 ** dice))
    return out


def one_die_all_policies(utility: Callable[[Triple], Fraction], rerolls: int, cards: Tuple[int, ...] = ()) -> Fraction:
    """Literally enumerate every deterministic policy of a one-die attempt and take the best.

    A policy says, for each face 1..5 and each number of re-rolls left, stop (0) or re-roll (1).
    """
    faces = range(1, 6)
    best = None
    for bits in product((0, 1), repeat=5 * rerolls):
        decide = {(f, r): bits[(r - 1) * 5 + f - 1] for f in faces for r in range(1, rerolls + 1)}

        def value(face: int, r: int) -> Fraction:
            if face == 6 or r == 0 or decide[(face, r)] == 0:
                return utility(ref_result((face,), cards))
            return sum((value(g, r - 1) for g in range(1, 7)), Fraction(0)) / 6

        v = sum((value(f, rerolls) for f in range(1, 7)), Fraction(0)) / 6
        best = v if best is None else max(best, v)
    return best
