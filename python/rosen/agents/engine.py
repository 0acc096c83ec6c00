"""Any engine process speaking the rosen protocol (PROTOCOL.md) as a player."""
from __future__ import annotations

from typing import Any, Mapping, Optional

from .._core import Move, Position
from ..engine.client import Analysis, Command, EngineClient, EngineError
from ..errors import InvalidArgumentError, check_int
from .base import DecisionStats, legal_moves_of


class EngineAgent:
    """A match agent that asks an engine process for each move.

    ``EngineAgent("rosen engine", iterations=2000)`` or with ``time_ms``; ``options`` are set
    once (e.g. ``{"Seed": 3}``). Positions are sent with the pile order hidden (R14).
    """

    def __init__(self, command: Command, *, iterations: Optional[int] = None, time_ms: Optional[int] = None,
                 options: Optional[Mapping[str, Any]] = None, name: Optional[str] = None,
                 timeout: float = 30.0) -> None:
        if iterations is None and time_ms is None:
            raise InvalidArgumentError("iterations: give iterations or time_ms (or both)", "iterations")
        self.iterations = None if iterations is None else check_int("iterations", iterations, 1)
        self.time_ms = None if time_ms is None else check_int("time_ms", time_ms, 1)
        self.client = EngineClient(command, options=options, timeout=timeout)
        budget = ",".join(f"{key}={value}" for key, value in (("iterations", iterations), ("time_ms", time_ms))
                          if value is not None)
        # by default the agent spec that makes this agent (`engine:command=...,iterations=N`)
        self.name = name or f"engine:command={' '.join(self.client.command)},{budget}"
        self.last_stats: Optional[DecisionStats] = None
        self.last_info: Optional[Analysis] = None

    def choose(self, position: Position) -> Move:
        """The engine's move in ``position``; EngineError if it gives none or an illegal one."""
        legal_moves_of(position)  # a non-position or a finished game: an error naming the position
        result = self.client.play(position, iterations=self.iterations, time_ms=self.time_ms)
        if result.move is None or not position.is_legal(result.move):
            raise EngineError(f"engine: {self.name} answered {result.move} in {position.fen(hide_pile_order=True)}")
        self.last_info = result.info
        root = result.info.root
        self.last_stats = None if root is None else DecisionStats(
            depth=root.depth, seldepth=root.seldepth, tree_size=root.tree_size, iterations=root.iterations,
            time_ms=float(root.time_ms))
        return result.move

    def reset(self) -> None:
        """A new game: the engine forgets its tree."""
        self.client.new_game()

    def on_move(self, move: Move) -> None:
        """Nothing to do: every choose() sends the whole position."""

    def close(self) -> None:
        """Quit the engine process."""
        self.client.quit()

    def __enter__(self) -> "EngineAgent":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EngineAgent({self.name!r})"

