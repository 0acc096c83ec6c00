"""The interface every player implements, and what a searching player reports per decision.

This module is the leaf of :mod:`rosen.agents`: the game loop (:mod:`rosen.match.game`) and the
other agents import it, and it imports only the core.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Protocol, runtime_checkable

from .._core import Move, Position
from ..errors import ArgumentTypeError, InvalidArgumentError
from ..search import iterations_per_second


@dataclass(frozen=True)
class DecisionStats:
    """What a searching agent reports about one decision (the engine protocol's analysis figures)."""

    depth: float = 0.0       #: mean plies inside the tree per iteration
    seldepth: int = 0        #: the deepest
    tree_size: int = 0       #: nodes in the search tree(s), including those kept by tree reuse
    iterations: int = 0      #: playouts of this decision
    time_ms: float = 0.0

    @property
    def nps(self) -> float:
        """Iterations per second of this decision (:func:`rosen.search.iterations_per_second`)."""
        return iterations_per_second(self.iterations, self.time_ms)


@runtime_checkable
class Agent(Protocol):
    """A player. ``choose`` gets positions whose draw-pile order is hidden (R14) and returns a
    legal move; a plain ``draw`` is dealt by whoever runs the game. ``reset`` and ``on_move``
    may be no-ops; ``last_stats`` is None for agents that do not search."""

    name: str
    last_stats: Optional[DecisionStats]

    def choose(self, position: Position) -> Move:
        """A legal move in ``position`` (which is not terminal)."""

    def reset(self) -> None:
        """Forget everything about the previous game."""

    def on_move(self, move: Move) -> None:
        """Told every move actually played (draws as ``draw:<card>``), by any player."""


def legal_moves_of(position: Position) -> list:
    """The legal moves, or an error naming the position when it is none or the game is over."""
    if not isinstance(position, Position):
        raise ArgumentTypeError(f"position: expected a rosen.Position, got {type(position).__name__}", "position")
    moves = position.legal_moves()
    if not moves:
        raise InvalidArgumentError("position: the game is over, there is no move to choose", "position")
    return moves


def close_agents(*agents: object) -> None:
    """Give back what agents hold (an engine process): each one's ``close()``, if it has one, and
    a kill of its engine if ``close()`` fails -- a broken engine must not keep the others open."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is None:
            continue
        try:
            close()
        except Exception:  # noqa: BLE001 - closing goes on to the next agent
            kill = getattr(getattr(agent, "client", None), "kill", None)
            if kill is not None:
                kill()
