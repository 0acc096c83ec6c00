"""Players that do not search: uniformly random, and one-ply greedy."""
from __future__ import annotations

import random
from typing import Optional

from .._core import Move, Position
from ..errors import check_int
from .base import DecisionStats, legal_moves_of


class _SeededAgent:
    """Shared plumbing: a seeded generator, restarted by ``reset``."""

    name = "agent"

    def __init__(self, seed: int = 0) -> None:
        self._seed = check_int("seed", seed, 0)
        self._rng = random.Random(self._seed)
        self.last_stats: Optional[DecisionStats] = None

    @property
    def seed(self) -> int:
        """The generator's seed, restarted by ``reset`` (read-only: another seed is another agent)."""
        return self._seed

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def on_move(self, move: Move) -> None:
        pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomAgent(_SeededAgent):
    """A uniformly random legal move from a seeded generator."""

    name = "random"

    def choose(self, position: Position) -> Move:
        """A uniformly random legal move, drawn from the agent's seeded generator."""
        return self._rng.choice(legal_moves_of(position))


class GreedyAgent(_SeededAgent):
    """One ply of look-ahead: the move that maximises own score minus the opponent's right after it.

    A draw (or pass) changes no tokens, so it is worth the current difference; ties are broken by
    the seeded generator so that equal moves are not always taken in notation order.
    """

    name = "greedy"

    def choose(self, position: Position) -> Move:
        """The legal move with the largest own score minus the opponent's right after it (the mover's
        colour's view); ties are broken by the seeded generator."""
        moves = legal_moves_of(position)
        me = 0 if position.colour_to_move == "red" else 1
        best: list = []
        best_value = None
        for move in moves:
            scores = position.play(move).scores if move.kind in ("play", "hero") else position.scores
            value = scores[me] - scores[1 - me]
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[0] if len(best) == 1 else self._rng.choice(best)
