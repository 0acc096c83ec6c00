"""Lovagok (Knatsch) dice: result notation, strength, and exact optimal play.

The rules are in LOVAGOK.md (ids L1-L12). The work is done by the compiled ``rosen._core.lovagok``;
this package parses and prints, checks arguments, and assembles the contests, one job per module
(imports run down this list; ``notation`` imports nothing else from the package):

* :mod:`.notation`: results, rolls and dice cards, parsed and printed; the shared argument checks;
* :mod:`.ranking`: the result of a roll (L4, L5) and how results compare (L6);
* :mod:`.solver`: optimal play for one attempt (``Solver``, ``p_beat``, ``distribution``, ``advise``);
* :mod:`.tables`: P(beat) for every target, re-roll count, dice count and card set (``table``);
* :mod:`.contests`: attacking a castle (L10), tournaments (L11), toppling the king (L12).

A bad argument raises a :class:`rosen.RosenError` whose ``field`` names it
(``"rerolls: expected 0..3, got 5"``); a wrong type is also a ``TypeError``.

A *result* is ``(size, value, further)``: the largest group of equal counted dice (ties to the
higher value) and the highest counted die outside it (L5). Results are written group first, then
the further die: ``"3332"`` is three 3s with a further 2, ``"555"`` three 5s and nothing else,
``"-"`` the empty result of a roll that showed only sixes. Every reachable result has a *rank*,
its index in increasing strength (``RESULTS[rank]``); utilities and tables are indexed by rank.

>>> p_beat("3332", rerolls=2)            # doctest: +ELLIPSIS
0.599...
>>> advise("3332", "552366", rerolls_left=2).best.keep
(5, 5)
"""
from __future__ import annotations

from .contests import CastleAttack, Tournament, attack_castle, topple_king, tournament
from .notation import (
    DEFAULT_REROLLS,
    KING,
    NOTHING,
    NUM_RESULTS,
    RESULTS,
    TREASON,
    Result,
    format_combination,
    parse_combination,
    parse_dice_cards,
    parse_roll,
)
from .ranking import beats, compare, strength
from .solver import Advice, Option, Solver, advise, beat_utility, distribution, p_beat
from .tables import BeatTable, table

# Not in __all__ but importable from here, as before the split: what the CLI, tests and type hints use.
from .contests import TOURNAMENT_MODELS  # noqa: F401
from .notation import MAX_DICE, MAX_REROLLS, CardsLike, ResultLike, RollLike, as_result, cards_of_mask  # noqa: F401
from .tables import beat_row, format_grid  # noqa: F401

__all__ = [
    "Result", "RESULTS", "NUM_RESULTS", "NOTHING", "KING", "TREASON", "parse_combination", "format_combination",
    "parse_roll", "parse_dice_cards", "strength", "compare", "beats", "p_beat", "distribution", "beat_utility",
    "Solver", "Option", "Advice", "advise", "CastleAttack", "attack_castle", "Tournament", "tournament",
    "topple_king", "BeatTable", "table", "DEFAULT_REROLLS",
]
