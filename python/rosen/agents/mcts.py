"""The engine's own search as a player."""
from __future__ import annotations

import time
from types import MappingProxyType
from typing import Any, Dict, Mapping, Optional

from .._core import Move, Position
from ..engine.clock import allocate_time
from ..engine.protocol import MAX_MS
from ..errors import ArgumentTypeError, InvalidArgumentError, check_int
from ..search import AUTO_EVALUATOR, Searcher, SearchOptions, SearchResult, Unpack, engine_evaluator, is_auto
from .base import DecisionStats

#: What a move of an agent on a game clock loses outside its search (its own bookkeeping), in ms:
#: the clock's MoveOverhead for an agent that times itself (the engine's default, 10, is for a
#: frontend and a pipe between them).
AGENT_OVERHEAD_MS = 1
#: The options of a game clock (not search parameters).
CLOCK_OPTIONS = ("clock_ms", "increment_ms")
#: The agent's clock (a name of its own, so that tests can stand in a clock of their own).
_now = time.monotonic


def check_clock(clock_ms: Any, increment_ms: Any, params: Dict[str, Any]) -> Dict[str, Any]:
    """A game clock's options as :class:`MCTSAgent` takes them (errors name the option); returns
    the search parameters of ``params`` to build its searcher with: on a clock, a budget of 0
    (no limit of that kind) is left out, the clock being the budget."""
    if clock_ms is not None:
        check_int("clock_ms", clock_ms, 1, MAX_MS)
        params = {k: v for k, v in params.items() if not (k in ("iterations", "time_ms") and v == 0)}
        if "time_ms" in params:
            raise InvalidArgumentError("time_ms: a player on a game clock (clock_ms) decides each move's time; "
                                       "give one of them", "time_ms")
    check_int("increment_ms", increment_ms, 0, MAX_MS)
    if increment_ms and clock_ms is None:
        raise InvalidArgumentError("increment_ms: an increment goes with a game clock (clock_ms)", "increment_ms")
    return params


class MCTSAgent:
    """Monte Carlo tree search through :class:`rosen.Searcher`, one searcher per agent.

    Keyword arguments are the fields of :class:`rosen.SearchParams` (checked there) and
    optionally ``evaluator``, a network to guide the search (as :class:`rosen.Searcher` takes it),
    or ``"auto"``: the shipped network of the game being played, as rosen's frontends choose it
    (``builtin`` with 2 players, ``builtin-team`` with 4; :func:`rosen.search.engine_evaluator`).
    The searcher is kept for the whole game so its tree is reused from move to move; ``reset``
    clears it between games. ``last_result`` holds the last full :class:`rosen.SearchResult`.

    ``clock_ms`` puts the agent on a game clock instead of a budget per move: its whole game (its
    team's, with 4 players) gets ``clock_ms`` milliseconds plus ``increment_ms`` after each move,
    and each move's time is the engine's time management's share of what is left
    (:mod:`rosen.engine.clock`, as ``go p1time ...`` spends it with ``MoveOverhead`` 1: the agent
    times its own moves, so only its own bookkeeping is lost outside the search);
    ``clock_left_ms`` is what is left (below zero: the clock was overspent; nothing forfeits a
    game, and a match's records keep what each game left) and ``reset`` refills it. With
    ``clock_ms``, ``iterations`` (if given and not 0) caps each move's search too, and ``time_ms``
    is not taken. A clock is wall time: agents that share the cores (``rosen match --threads``)
    search less each.
    """

    name = "mcts"

    def __init__(self, evaluator: Any = None, *, clock_ms: Optional[int] = None, increment_ms: int = 0,
                 **search_params: Unpack[SearchOptions]) -> None:
        params = check_clock(clock_ms, increment_ms, dict(search_params))
        self._auto = is_auto(evaluator)
        self._searcher = Searcher(evaluator=None if self._auto else evaluator, **params)
        self._search_params = params  # an "auto" agent's searcher is built again for each game's network
        self._players: Optional[int] = None  # with "auto": the game the searcher's network is for
        self.clock_left_ms: Optional[float] = clock_ms
        self._move_cap = params.get("iterations", 0)  # on a clock: no cap unless one was given
        clock = {"clock_ms": clock_ms} if clock_ms is not None else {}
        clock.update({"increment_ms": increment_ms} if increment_ms else {})
        self._params: Dict[str, Any] = dict(params, **({"evaluator": evaluator} if evaluator is not None else {}),
                                            **clock)
        self.last_stats: Optional[DecisionStats] = None
        self.last_result: Optional[SearchResult] = None

    @property
    def params(self) -> Mapping[str, Any]:
        """The settings the agent was made with, as given (read-only: its searcher was made with them)."""
        return MappingProxyType(self._params)

    @property
    def clock_ms(self) -> Optional[int]:
        """The game clock's milliseconds, or None for a budget per move (read-only)."""
        return self._params.get("clock_ms")

    @property
    def increment_ms(self) -> int:
        """The clock's increment after each move (read-only)."""
        return self._params.get("increment_ms", 0)

    def choose(self, position: Position) -> Move:
        """The best move of a search of ``position`` that reuses the tree kept from the earlier moves;
        sets ``last_result`` and ``last_stats``."""
        started = _now()
        if self._auto and isinstance(position, Position) and position.players != self._players:
            self._searcher = Searcher(evaluator=engine_evaluator(AUTO_EVALUATOR, position.players),
                                      **self._search_params)
            self._players = position.players
        if self.clock_ms is None:
            result = self._searcher.search(position)
        else:
            if self.clock_left_ms is None:  # public and writable; reset() refills it
                raise ArgumentTypeError("clock_left_ms: expected the milliseconds left on the clock, got None",
                                        "clock_left_ms")
            share = allocate_time(max(0, int(self.clock_left_ms)), self.increment_ms, position, AGENT_OVERHEAD_MS) \
                if isinstance(position, Position) else 1  # not a position: the search names the error
            result = self._searcher.search(position, iterations=self._move_cap, time_ms=share)
            self.clock_left_ms += self.increment_ms - (_now() - started) * 1000.0
        self.last_result = result
        self.last_stats = DecisionStats(depth=result.depth, seldepth=result.seldepth, tree_size=result.tree_size,
                                        iterations=result.iterations, time_ms=result.time_ms)
        return result.best_move

    def reset(self) -> None:
        """Clear the searcher's tree and ``last_result`` / ``last_stats``, and refill the game clock,
        for a new game."""
        self._searcher.reset()
        self.clock_left_ms = self.clock_ms
        self.last_stats = None
        self.last_result = None

    def on_move(self, move: Move) -> None:
        """Does nothing: the kept tree is reused anyway, as the searcher finds the next position in it
        by itself."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"MCTSAgent({args})"
