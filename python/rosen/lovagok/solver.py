"""Lovagok optimal play for one attempt (L1, L2, L4): Solver for any utility, p_beat, distribution, advise.

>>> round(p_beat("3332", rerolls=3), 6)                 # an organiser's three re-rolls (L3)
0.68279
>>> [str(o) for o in advise("3332", "552366", rerolls_left=2).options[:2]]
['keep 55, re-roll 2: 0.478395', 'keep 552, re-roll 1: 0.398148']
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

from .._core import lovagok as _lv
from .notation import (
    DEFAULT_REROLLS,
    MAX_REROLLS,
    NUM_RESULTS,
    RESULTS,
    CardsLike,
    ResultLike,
    RollLike,
    as_result,
    cards_of_mask,
    check_dice,
    check_rank_array,
    check_rerolls,
    counts_of,
    faces_of,
    parse_dice_cards,
    parse_roll,
)


def beat_utility(target: ResultLike) -> np.ndarray:
    """Utility array for "end strictly stronger than target": 1 above the target's rank, else 0."""
    rank = as_result(target).rank
    return (np.arange(NUM_RESULTS) > rank).astype(float)


def p_beat(target: ResultLike, rerolls: int = DEFAULT_REROLLS, dice: int = 6, dice_cards: CardsLike = ()) -> float:
    """Probability that an optimally playing roller ends strictly stronger than ``target``.

    ``rerolls`` 0..3 (two normally, L2; three for an organiser, Champion or Catapult, L3),
    ``dice`` 1..6 at the start, ``dice_cards`` the roller's dice cards (L4).
    """
    rank = as_result(target).rank
    return _lv.p_beat(rank, check_rerolls("rerolls", rerolls), check_dice(dice), parse_dice_cards(dice_cards))


def distribution(target: ResultLike, rerolls: int = DEFAULT_REROLLS, dice: int = 6,
                 dice_cards: CardsLike = ()) -> np.ndarray:
    """Distribution of the final result (indexed by rank) when playing optimally to beat ``target``."""
    check_rerolls("rerolls", rerolls)
    return Solver.to_beat(target, dice_cards=dice_cards, max_rerolls=rerolls).distribution(rerolls=rerolls, dice=dice)


@dataclass(frozen=True)
class Option:
    """One choice after a roll: stop (``keep is None``) or keep these faces and re-roll ``reroll`` dice."""

    keep: Optional[Tuple[int, ...]]
    reroll: int
    probability: float

    def __str__(self) -> str:
        what = "stop" if self.keep is None else f"keep {''.join(map(str, self.keep)) or 'nothing'}, re-roll {self.reroll}"
        return f"{what}: {self.probability:.6f}"


@dataclass(frozen=True)
class Advice:
    """The optimal choice after a roll and the value of every alternative, best first."""

    roll: Tuple[int, ...]
    rerolls_left: int
    best: Option
    options: Tuple[Option, ...]

    def __str__(self) -> str:
        lines = [f"roll {''.join(map(str, self.roll))}, {self.rerolls_left} re-roll(s) left",
                 f"best: {self.best}"]
        lines += [f"  {o}" for o in self.options]
        return "\n".join(lines)


class Solver:
    """Optimal play for any utility over final results (indexed by rank) with one set of dice cards.

    ``Solver(utility)`` solves once for 0..``max_rerolls`` re-rolls; then ``value``, ``distribution``
    and ``advise`` are lookups. ``Solver.to_beat(target)`` is the usual "beat this combination".
    """

    def __init__(self, utility: npt.ArrayLike, dice_cards: CardsLike = (), max_rerolls: int = MAX_REROLLS) -> None:
        u = check_rank_array("utility", utility)
        self._mask = parse_dice_cards(dice_cards)
        self._max_rerolls = check_rerolls("max_rerolls", max_rerolls)
        self._utility = u
        self._core = _lv.Solver(u, self._mask, self._max_rerolls)
        # advise's ties are relative to the reachable utilities' spread, as the engine's are.
        self._low, self._spread = self._core.low, (self._core.high - self._core.low) or 1.0

    @classmethod
    def to_beat(cls, target: ResultLike, dice_cards: CardsLike = (), max_rerolls: int = MAX_REROLLS) -> "Solver":
        """A solver whose utility is 1 for results strictly stronger than ``target``."""
        return cls(beat_utility(target), dice_cards=dice_cards, max_rerolls=max_rerolls)

    @property
    def dice_cards(self) -> Tuple[int, ...]:
        """The dice cards solved for, as card values in increasing order (empty for none)."""
        return cards_of_mask(self._mask)

    @property
    def max_rerolls(self) -> int:
        """The most re-rolls solved for: the lookups accept ``rerolls`` (``rerolls_left``) up to it."""
        return self._max_rerolls

    @property
    def utility(self) -> np.ndarray:
        """A copy of the utility, one value per result rank."""
        return self._utility.copy()

    def _rerolls(self, field: str, r: int) -> int:
        return check_rerolls(field, r, self._max_rerolls)

    def value(self, rerolls: int = DEFAULT_REROLLS, dice: int = 6) -> float:
        """Expected utility of a whole attempt under optimal play."""
        return self._core.value(check_dice(dice), self._rerolls("rerolls", rerolls))

    def distribution(self, rerolls: int = DEFAULT_REROLLS, dice: int = 6) -> np.ndarray:
        """Probability of each final result (indexed by rank) under the optimal policy."""
        return self._core.distribution(check_dice(dice), self._rerolls("rerolls", rerolls))

    def best_keep(self, roll: RollLike, rerolls_left: int) -> Optional[Tuple[int, ...]]:
        """Faces to keep (highest first) after ``roll``, or None to stop."""
        keep = self._core.best_keep(counts_of(parse_roll(roll)), self._rerolls("rerolls_left", rerolls_left))
        return None if keep is None else faces_of(keep)

    def advise(self, roll: RollLike, rerolls_left: int) -> Advice:
        """The optimal keep after ``roll`` and the expected utility of stopping and of every distinct keep."""
        faces = parse_roll(roll)
        r = self._rerolls("rerolls_left", rerolls_left)
        counts = counts_of(faces)
        n = sum(counts)
        options = [Option(None if k is None else faces_of(k), 0 if k is None else n - sum(k), v)
                   for k, v in self._core.options(counts, r)]
        best_counts = self._core.best_keep(counts, r)
        best_keep = None if best_counts is None else faces_of(best_counts)
        best = next(o for o in options if o.keep == best_keep)
        # Best first, then by value; rounding (relative to the reachable utilities' spread, as the
        # engine's tie is) makes float noise a tie, and the stable sort keeps the engine's tie order.
        options.remove(best)
        options.sort(key=lambda o: -round((o.probability - self._low) / self._spread, 12))
        options.insert(0, best)
        return Advice(roll=faces, rerolls_left=r, best=best, options=tuple(options))

    def __repr__(self) -> str:
        return f"Solver(dice_cards={self.dice_cards}, max_rerolls={self._max_rerolls})"


@lru_cache(maxsize=512)
def _beat_solver(rank: int, mask: int, max_rerolls: int) -> Solver:
    """Solvers are immutable once built, so a frontend advising roll after roll reuses one."""
    return Solver(beat_utility(RESULTS[rank]), dice_cards=cards_of_mask(mask), max_rerolls=max_rerolls)


def advise(target: ResultLike, roll: RollLike, rerolls_left: int, dice_cards: CardsLike = ()) -> Advice:
    """What to keep after ``roll`` to beat ``target`` with ``rerolls_left`` re-rolls to come.

    >>> str(advise("3332", "552366", rerolls_left=2).best)   # doctest: +ELLIPSIS
    'keep 55, re-roll 2: 0.4...'
    """
    faces = parse_roll(roll)
    r = check_rerolls("rerolls_left", rerolls_left)
    return _beat_solver(as_result(target).rank, parse_dice_cards(dice_cards), r).advise(faces, r)
