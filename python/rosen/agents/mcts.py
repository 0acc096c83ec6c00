"""The engine's own search as a player."""
from __future__ import annotations

from typing import Any, Dict, Optional

from .._core import Move, Position
from ..search import AUTO_EVALUATOR, Searcher, SearchResult, engine_evaluator
from .base import DecisionStats


class MCTSAgent:
    """Monte Carlo tree search through :class:`rosen.Searcher`, one searcher per agent.

    Keyword arguments are the fields of :class:`rosen.SearchParams` (checked there) and
    optionally ``evaluator``, a network to guide the search (as :class:`rosen.Searcher` takes it),
    or ``"auto"``: the shipped network of the game being played, as rosen's frontends choose it
    (``builtin`` with 2 players, ``builtin-team`` with 4; :func:`rosen.search.engine_evaluator`).
    The searcher is kept for the whole game so its tree is reused from move to move; ``reset``
    clears it between games. ``last_result`` holds the last full :class:`rosen.SearchResult`.
    """

    name = "mcts"

    def __init__(self, evaluator: Any = None, **params: Any) -> None:
        self._auto = isinstance(evaluator, str) and evaluator.lower() == AUTO_EVALUATOR
        self._searcher = Searcher(evaluator=None if self._auto else evaluator, **params)
        self._players: Optional[int] = None  # with "auto": the game the searcher's network is for
        self.params: Dict[str, Any] = dict(params, **({"evaluator": evaluator} if evaluator is not None else {}))
        self.last_stats: Optional[DecisionStats] = None
        self.last_result: Optional[SearchResult] = None

    def choose(self, position: Position) -> Move:
        """The best move of a search of ``position`` that reuses the tree kept from the earlier moves;
        sets ``last_result`` and ``last_stats``."""
        players = getattr(position, "players", None)  # not a position: the search names the error
        if self._auto and players in (2, 4) and players != self._players:
            params = {k: v for k, v in self.params.items() if k != "evaluator"}
            self._searcher = Searcher(evaluator=engine_evaluator(AUTO_EVALUATOR, players), **params)
            self._players = players
        result = self._searcher.search(position)
        self.last_result = result
        self.last_stats = DecisionStats(depth=result.depth, seldepth=result.seldepth, tree_size=result.tree_size,
                                        iterations=result.iterations, time_ms=result.time_ms)
        return result.best_move

    def reset(self) -> None:
        """Clear the searcher's tree and ``last_result`` / ``last_stats`` for a new game."""
        self._searcher.reset()
        self.last_stats = None
        self.last_result = None

    def on_move(self, move: Move) -> None:
        """Does nothing: the kept tree is reused anyway, as the searcher finds the next position in it
        by itself."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"MCTSAgent({args})"
