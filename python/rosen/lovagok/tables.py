"""Lovagok tables: P(beat target) for every target, re-roll count, dice count and set of dice cards."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from .._core import lovagok as _lv
from ..errors import ArgumentTypeError, InvalidArgumentError, check_int, is_collection
from .notation import (
    DEFAULT_REROLLS,
    MAX_DICE,
    MAX_REROLLS,
    NUM_RESULTS,
    CardsLike,
    ResultLike,
    as_result,
    check_dice,
    check_rank_array,
    check_rerolls,
    parse_dice_cards,
)


@lru_cache(maxsize=32)
def _card_set_table(mask: int) -> np.ndarray:
    """``p[mask]`` of the whole table, shape (rerolls, dice, rank): ~1/32 of its work, kept per card set."""
    p = _lv.beat_table_for(mask)
    p.setflags(write=False)
    return p


def beat_row(rerolls: int = DEFAULT_REROLLS, dice: int = 6, dice_cards: CardsLike = ()) -> np.ndarray:
    """P(beat r) for every result rank r with these re-rolls, dice (0..6) and dice cards; read-only.

    One row of :func:`table`, built for the one card set only and cached per card set, so a castle's
    defender or the CLI's grid costs 1/32 of the table once.

    >>> float(beat_row(rerolls=2)[as_result("3332").rank])     # doctest: +ELLIPSIS
    0.599...
    """
    mask = parse_dice_cards(dice_cards)
    return _card_set_table(mask)[check_rerolls("rerolls", rerolls), check_dice(dice, low=0)]


class BeatTable:
    """P(beat target) for every target, re-roll count, dice count and set of dice cards.

    ``p[cards_mask, rerolls, dice, rank]``: ``cards_mask`` 0..31 (bit v-1 set = holds card v),
    ``rerolls`` 0..3, ``dice`` 0..6 dice at the start (0: the cards alone), ``rank`` the target's
    strength rank (``RESULTS[rank]``).
    """

    AXES = ("cards_mask", "rerolls", "dice", "target_rank")

    SHAPE = (32, MAX_REROLLS + 1, MAX_DICE + 1, NUM_RESULTS)

    def __init__(self, p: np.ndarray) -> None:
        if not isinstance(p, np.ndarray):
            raise ArgumentTypeError(f"p: expected a numpy array, got {type(p).__name__}", "p")
        if p.shape != self.SHAPE:
            raise InvalidArgumentError(f"p: expected shape {self.SHAPE}, got shape {p.shape}", "p")
        self.p = p

    def _row(self, rerolls: int, dice: int, dice_cards: CardsLike) -> np.ndarray:
        return self.p[parse_dice_cards(dice_cards), check_rerolls("rerolls", rerolls), check_dice(dice, low=0)]

    def at(self, target: ResultLike, rerolls: int = DEFAULT_REROLLS, dice: int = 6, dice_cards: CardsLike = ()) -> float:
        """One entry, addressed like :func:`p_beat` (``dice`` may be 0: the cards alone)."""
        return float(self._row(rerolls, dice, dice_cards)[as_result(target).rank])

    def view(self, rerolls: int = DEFAULT_REROLLS, dice_cards: CardsLike = (), dice: int = 6,
             sizes: Sequence[int] = (3, 4, 5)) -> str:
        """A readable grid per group size: rows are the group (111 .. 555), columns the further die."""
        return format_grid(self._row(rerolls, dice, dice_cards), sizes=sizes)

    def __repr__(self) -> str:
        return f"BeatTable(shape={self.p.shape}, axes={self.AXES})"


def format_grid(row: np.ndarray, sizes: Sequence[int] = (3, 4, 5)) -> str:
    """Format one row of P(beat rank) as grids: group down, further die (none, 1..5) across."""
    row = check_rank_array("row", row)
    if not is_collection(sizes):
        raise ArgumentTypeError(f"sizes: expected a sequence of group sizes 1..7, got {type(sizes).__name__}", "sizes")
    lines = []
    for size in [check_int("sizes", s, 1, 7) for s in sizes]:
        lines.append(f"{'target':<9}" + "".join(f"{h:>9}" for h in ("+none", "+1", "+2", "+3", "+4", "+5")))
        for value in range(1, 6):
            cells = []
            for further in (None, 1, 2, 3, 4, 5):
                rank = _lv.rank_of(size, value, further or 0)
                cells.append(f"{row[rank]:9.4f}" if rank >= 0 else f"{'':>9}")
            lines.append((f"{str(value) * size:<9}" + "".join(cells)).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def table() -> BeatTable:
    """Build the whole table (32 card sets x re-rolls 0..3 x dice 0..6 x every target) in one call."""
    return BeatTable(_lv.beat_table())
