"""Time management: how much of its clock the engine spends on one move (``go p1time ...``).

A Rosenkönig game is about 120 plies, and how far it has to run is written on the board: almost
every move of a side places a token, draws a card to place one later, or flips one, so the
moves a side has left are about proportional to the tokens left in the supply. From searched
self-play games (rosen's search against itself, 2 and 4 players) a side to move has, on average,
about ``1.21 * supply`` decisions left in the 2-player game, and a team about ``1.34 * supply``
in the 4-player game (a team shares one clock, p1 = the Red team).

The engine spends ``remaining / (moves left + 2)`` plus three quarters of the increment on a
move: the same share of what is left for each move still to come, with two moves in reserve
because a game can run longer than average. Never more than half of what is left, never less
than a millisecond, and a millisecond when there is only one legal move. A side whose
expectation was too low (a long game) still gets time on every move, a shrinking share of a
shrinking clock; the reserve and the half-of-what-is-left cap keep it from running out.
"""
from __future__ import annotations

import math
from typing import Optional

from .._core import Position
from .protocol import GoArgs, Limits

#: Decisions left per token in the supply, for the clock's owner: a player (2 players) or a team (4).
MOVES_PER_TOKEN = {2: 1.21, 4: 1.34}
#: Moves held in reserve beyond the expectation.
RESERVE_MOVES = 2
#: The share of the increment spent on the move it comes with.
INCREMENT_SHARE = 0.75


def moves_left(position: Position) -> int:
    """The decisions the side to move (its team, with 4 players) is expected to have left, this
    one included."""
    return max(1, math.ceil(MOVES_PER_TOKEN[position.players] * position.supply))


def allocate_time(remaining_ms: int, increment_ms: int, position: Position) -> int:
    """Milliseconds to spend on this move with ``remaining_ms`` on the clock and ``increment_ms``
    added after each move."""
    if remaining_ms <= 0:
        return 1
    if len(position.legal_moves()) <= 1:
        return 1  # nothing to choose: keep the time for later
    share = remaining_ms / (moves_left(position) + RESERVE_MOVES) + INCREMENT_SHARE * increment_ms
    return max(1, min(int(share), remaining_ms // 2))


def limits_for(go: GoArgs, position: Position, iteration_cap: Optional[int], default_iterations: int) -> Limits:
    """The limits of one ``go`` for the side to move: the clock's share (see
    :func:`allocate_time`), ``movetime`` if smaller, ``nodes`` and the Strength cap
    (``iteration_cap``) on iterations; with no limit at all, ``default_iterations``."""
    time_ms = go.movetime
    p1 = position.colour_to_move == "red"  # p1 is Red, or the Red team
    clock = go.p1time if p1 else go.p2time
    if clock is not None:
        budget = allocate_time(clock, go.p1inc if p1 else go.p2inc, position)
        time_ms = budget if time_ms is None else min(time_ms, budget)
    iterations = go.nodes
    if iteration_cap is not None:
        iterations = iteration_cap if iterations is None else min(iterations, iteration_cap)
    if iterations is None and time_ms is None and not go.infinite:
        iterations = default_iterations
    return Limits(iterations=iterations, time_ms=time_ms, infinite=go.infinite)
