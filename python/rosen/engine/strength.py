"""The engine's ``Strength`` levels (PROTOCOL.md: "a strength limit for weaker opponents").

A level caps the search's iterations (1..19; 20 is full strength) and, below 10, replaces the
searched move by a uniformly random legal one with some probability: capping the search alone
left no level a beginner could beat (12 iterations with the shipped network won 99% of its
games against ``greedy`` and against ``random``; docs/protocol.md has the measured scale).

The random choice is a pure function of the engine's seed, the level and the position's public
view, so it is reproducible (the same seed and position give the same move) and never depends on
the draw pile's order (R14).
"""
from __future__ import annotations

import random
from typing import Optional, overload

from .._core import Position
from ..errors import ArgumentTypeError, check_int

__all__ = ["STRENGTH_MAX", "strength_iterations", "random_move_share", "level_move"]

#: Full strength: no cap and no random moves.
STRENGTH_MAX = 20
#: Levels below this play some random moves: a share of (RANDOM_BELOW - level) / 10.
RANDOM_BELOW = 10


def strength_iterations(strength: int) -> Optional[int]:
    """The iteration cap of a Strength level, or None for full strength (20). Each step is about
    1.5 times the iterations of the one below (12 at 1, 461 at 10, 17 735 at 19)."""
    strength = check_int("strength", strength, 1, STRENGTH_MAX)
    if strength >= STRENGTH_MAX:
        return None
    return round(8 * 1.5 ** strength)


def random_move_share(strength: int) -> float:
    """The probability that a level plays a random legal move instead of its search's: 0.9 at 1,
    0.1 at 9, 0 from 10 on."""
    return max(0, RANDOM_BELOW - check_int("strength", strength, 1, STRENGTH_MAX)) / 10


@overload
def level_move(best: str, position: Position, strength: int, seed: int) -> str: ...
@overload
def level_move(best: None, position: Position, strength: int, seed: int) -> None: ...
def level_move(best: Optional[str], position: Position, strength: int, seed: int) -> Optional[str]:
    """The move a ``strength`` level plays where its search chose ``best`` (RULES.md notation;
    None: no move): ``best`` itself, or with :func:`random_move_share` a legal move drawn
    uniformly, as the seed and the position's public view decide."""
    if not isinstance(position, Position):
        raise ArgumentTypeError(f"position: expected a rosen.Position, got {type(position).__name__}", "position")
    share = random_move_share(check_int("strength", strength, 1, STRENGTH_MAX))
    if best is None or share == 0:
        return best
    rng = random.Random(f"{seed}/{strength}/{position.fen(hide_pile_order=True)}")
    if rng.random() >= share:
        return best
    legal = position.legal_moves()
    return str(legal[rng.randrange(len(legal))])
