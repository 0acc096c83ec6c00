"""Reference opponents, searched in C++ (cpp/classic/): the peer's alpha-beta and a sound expectimax.

Both value leaves alike, from the mover's colour (a 4-player team shares it, R13):
``own points - opponent's points + hero_weight * (own heroes - opponent's heroes)`` (R11), a
finished game +-1 000 000 or 0 (R12). Neither reads the pile's order (R14): the root's is hidden
before anything else.

- :class:`AlphaBetaAgent` is the algorithm of the strongest Rosenkoenig program we know (a Python
  alpha-beta searcher from a 2024 thesis), re-implemented: fixed-depth alpha-beta minimax, no
  move ordering, no transposition table, and a draw expanded by ONE sampled card per node.
- :class:`ExpectimaxAgent` is the sound version: every draw averaged over all cards the pile can
  yield, Star1/Star2 pruning, iterative deepening, move ordering and a transposition table.

See docs/classic.md for exactly what each computes.

>>> import rosen
>>> agent = AlphaBetaAgent(depth=3, seed=1)
>>> pos = rosen.Position.new(seed=2)
>>> agent.choose(pos) in pos.legal_moves(), agent.last_stats.depth
(True, 3.0)
"""
from __future__ import annotations

from typing import Any, Optional

from .. import _core
from .._core import Move, Position
from ..search import _SHORT_MS, optional_evaluator, run_interruptibly
from .base import DecisionStats, legal_moves_of


def _setting(name: str) -> Any:
    """A read-only attribute for one of the agent's settings: the C++ searcher was made with them,
    so a changed one would be reported (``repr``) but never searched."""
    return property(lambda self: self._settings[name], doc=f"The agent's {name} (read-only).")


class _ClassicAgent:
    """Shared plumbing: one C++ searcher per agent, its settings, its last result and stats."""

    name = "classic"

    def __init__(self, searcher, **settings: Any) -> None:
        self._searcher = searcher
        self._settings = settings
        self.last_stats: Optional[DecisionStats] = None
        self.last_value: Optional[float] = None  #: the last search's value, from the mover's colour

    def choose(self, position: Position) -> Move:
        legal_moves_of(position)  # a non-position or a finished game: an error naming the position
        result = self._search(position)
        self.last_value = result.value
        self.last_stats = DecisionStats(depth=float(result.depth), seldepth=result.depth, iterations=result.nodes,
                                        time_ms=result.time_ms)
        return Move(result.best_move)

    def _search(self, position: Position) -> Any:
        # A searcher that can be stopped, in the main thread, on a long budget: a Ctrl-C ends it at
        # once (rosen.search.run_interruptibly) instead of when the search would have ended.
        if not self._long():
            return self._searcher.search(position)
        return run_interruptibly(lambda: self._searcher.search(position), self._searcher.stop, "rosen-classic",
                                 withdraw=self._searcher.clear_stop)

    def _long(self) -> bool:
        return False  # the peer's alpha-beta: a fixed depth, milliseconds at the depths it plays

    def reset(self) -> None:
        self._searcher.reset()
        self.last_stats = None
        self.last_value = None

    def on_move(self, move: Move) -> None:
        pass


class AlphaBetaAgent(_ClassicAgent):
    """The peer's alpha-beta: ``depth`` plies (1..20; every play, hero, draw and pass is one),
    moves in the core's legal order, no table; a draw executes one card sampled from the cards the
    pile can yield, a different sample at every node and search (reproducible from ``seed``).
    ``last_stats.iterations`` counts the positions searched."""

    name = "alphabeta"

    def __init__(self, depth: int = 7, hero_weight: int = 30, seed: int = 0) -> None:
        super().__init__(_core._AlphaBeta(depth=depth, hero_weight=hero_weight, seed=seed),
                         depth=depth, hero_weight=hero_weight, seed=seed)

    depth, hero_weight, seed = _setting("depth"), _setting("hero_weight"), _setting("seed")

    def __repr__(self) -> str:
        return f"AlphaBetaAgent(depth={self.depth}, hero_weight={self.hero_weight}, seed={self.seed})"


class ExpectimaxAgent(_ClassicAgent):
    """A sound expectimax with one budget: ``depth`` plies (1..20) or ``time_ms`` (iterative
    deepening plays the deepest completed iteration). ``tt_mb`` sizes the transposition table
    (0 = none), kept from move to move and cleared by ``reset``. ``seed`` is accepted like every
    agent's; the search uses no random numbers. ``evaluator`` (a network file path, ``builtin``, a
    :class:`rosen.learning.Network` or a :class:`rosen.Evaluator`) values the unfinished leaves by
    the network instead of the evaluation: ``(2 * win probability - 1) * 1000`` from the root's
    colour, a finished game +-1000 (docs/classic.md, "With a network")."""

    name = "expectimax"

    def __init__(self, depth: Optional[int] = None, time_ms: Optional[int] = None, hero_weight: int = 30,
                 seed: int = 0, tt_mb: int = 16, evaluator: Any = None) -> None:
        loaded, network = optional_evaluator(evaluator)
        super().__init__(_core._Expectimax(depth=depth, time_ms=time_ms, hero_weight=hero_weight, seed=seed,
                                           tt_mb=tt_mb, network=network),
                         depth=depth, time_ms=time_ms, hero_weight=hero_weight, seed=seed, tt_mb=tt_mb,
                         evaluator=loaded)

    depth, time_ms, hero_weight = _setting("depth"), _setting("time_ms"), _setting("hero_weight")
    seed, tt_mb, evaluator = _setting("seed"), _setting("tt_mb"), _setting("evaluator")

    def _long(self) -> bool:
        return self.time_ms is None or self.time_ms > _SHORT_MS  # a depth's time is unknown; as Searcher's

    def __repr__(self) -> str:
        budget = f"depth={self.depth}" if self.depth is not None else f"time_ms={self.time_ms}"
        network = f", evaluator={self.evaluator!r}" if self.evaluator is not None else ""
        return f"ExpectimaxAgent({budget}, hero_weight={self.hero_weight}, seed={self.seed}, tt_mb={self.tt_mb}{network})"
