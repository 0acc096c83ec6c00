"""Time management: how much of its clock the engine spends on one move (``go p1time ...``).

A Rosenkönig game is about 120 plies, and how far it has to run is written on the board: almost
every move of a side places a token, draws a card to place one later, or flips one, so the
decisions a side has left are about proportional to the tokens left in the supply. A decision
is a turn with a choice; a turn with one legal move (a forced draw, play or pass: about one turn
in five with 2 players, two in five with 4) takes a millisecond and needs no share. In games of
the engine's own search against itself (the shipped networks, 1000 iterations a move; measured
by tools/clock_model.py) a side to move has, on average, about ``0.94 * supply`` decisions left
in the 2-player game, and a team about ``0.70 * supply`` in the 4-player game (a team shares one
clock, p1 = the Red team).

Each turn also loses time outside the search: the pipe, the frontend, a network between them.
The engine keeps ``MoveOverhead`` milliseconds (an engine option, 10 by default, as UCI
engines do), less the quarter of the increment that no share spends, back from the clock for
each turn still to come (``1.21 * supply`` turns, forced ones included; a team ``1.28 *
supply``) and two more, and a millisecond for each forced turn to come, and shares the rest:
``(remaining - kept) / (decisions left + 2)`` plus three quarters of the increment on a move
(a clock that cannot cover what is kept spends less of the increment too), the same share of
what is left for each decision still to come, with two in reserve because a game can run longer
than average. Never more than half of what the move's overhead leaves, never less than a
millisecond, and a millisecond when there is only one legal move. A side whose expectation was
too low (a long game) still gets time on every move, a shrinking share of a shrinking clock;
the reserve and the half-of-what-is-left cap keep it from running out.
"""
from __future__ import annotations

import math
from typing import Optional

from .._core import Position
from .protocol import GoArgs, Limits

#: Decisions (turns with more than one legal move) left per token in the supply, for the clock's
#: owner: a player (2 players) or a team (4).
DECISIONS_PER_TOKEN = {2: 0.94, 4: 0.70}
#: Turns of any kind (forced ones too) left per token in the supply, for the clock's owner.
TURNS_PER_TOKEN = {2: 1.21, 4: 1.28}
#: Decisions (and turns) held in reserve beyond the expectation.
RESERVE_DECISIONS = 2
#: The ``MoveOverhead`` option's default: milliseconds a turn loses outside the search.
MOVE_OVERHEAD_MS = 10
#: The share of the increment spent on the move it comes with.
INCREMENT_SHARE = 0.75


def _expected(per_token: dict, position: Position) -> int:
    """``per_token[players]`` times the supply, rounded up: at least this turn."""
    return max(1, math.ceil(per_token[position.players] * position.supply))


def decisions_left(position: Position) -> int:
    """The decisions (turns with a choice) the side to move (its team, with 4 players) is
    expected to have left, this one included."""
    return _expected(DECISIONS_PER_TOKEN, position)


def turns_left(position: Position) -> int:
    """The turns, forced or not, the side to move (its team) is expected to have left, this one
    included."""
    return _expected(TURNS_PER_TOKEN, position)


def allocate_time(remaining_ms: int, increment_ms: int, position: Position,
                  overhead_ms: int = MOVE_OVERHEAD_MS) -> int:
    """Milliseconds to spend on this move with ``remaining_ms`` on the clock, ``increment_ms``
    added after each move and ``overhead_ms`` lost outside the search on each turn."""
    if remaining_ms <= 0:
        return 1
    if len(position.legal_moves()) <= 1:
        return 1  # nothing to choose: keep the time for later
    turns, decisions = turns_left(position), decisions_left(position)
    # Kept back: what each turn loses outside the search, less the part of the increment no share
    # spends, and the millisecond of each forced turn to come.
    lost = max(0.0, overhead_ms - (1 - INCREMENT_SHARE) * increment_ms)
    kept = lost * (turns + RESERVE_DECISIONS) + max(0, turns - decisions)
    # Not clamped at 0: a clock that cannot cover what is kept spends less of the increment too.
    share = (remaining_ms - kept) / (decisions + RESERVE_DECISIONS) + INCREMENT_SHARE * increment_ms
    return max(1, min(int(share), (remaining_ms - overhead_ms) // 2))


def limits_for(go: GoArgs, position: Position, iteration_cap: Optional[int], default_iterations: int,
               overhead_ms: int = MOVE_OVERHEAD_MS) -> Limits:
    """The limits of one ``go`` for the side to move: the clock's share (see
    :func:`allocate_time`; ``overhead_ms`` is the MoveOverhead option), ``movetime`` if smaller,
    ``nodes`` and the Strength cap (``iteration_cap``) on iterations; with no limit at all,
    ``default_iterations``."""
    time_ms = go.movetime
    p1 = position.colour_to_move == "red"  # p1 is Red, or the Red team
    clock = go.p1time if p1 else go.p2time
    if clock is not None:
        budget = allocate_time(clock, go.p1inc if p1 else go.p2inc, position, overhead_ms)
        time_ms = budget if time_ms is None else min(time_ms, budget)
    iterations = go.nodes
    if iteration_cap is not None:
        iterations = iteration_cap if iterations is None else min(iterations, iteration_cap)
    if iterations is None and time_ms is None and not go.infinite:
        iterations = default_iterations
    return Limits(iterations=iterations, time_ms=time_ms, infinite=go.infinite)
