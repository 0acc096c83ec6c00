"""The one game behind the single-game environments (PettingZoo AEC and Gymnasium): the C++ game
of ``cpp/env/game.h`` with its seeding, its observation layout and the information at the end.

Seeding is the :class:`~rosen.env.VecEnv`'s: ``reset(seed=s)`` starts the stream ``s`` at its
episode 0, each later ``reset()`` without a seed deals the stream's next episode, so a single env
reset with ``seed=s`` plays the same games as environment ``i`` of ``VecEnv(..., seed=s - i)``.
Never seeded, the stream is drawn from the env's ``np_random`` (operating-system entropy).
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np

from .. import _core
from ..encoding import LAYOUTS
from ..errors import InvalidArgumentError, check_choice, check_int, check_players

__all__ = ["SingleGame"]


def check_seed(seed: Any) -> Optional[int]:
    """A ``reset`` seed as a Python int (NumPy integers too), checked before Gymnasium's seeding
    sees it: its own error is neither a ValueError nor a TypeError, and it replaces the env's
    generator before a later check could refuse the seed."""
    if seed is None:
        return None
    if isinstance(seed, np.integer):
        seed = int(seed)
    return check_int("seed", seed, 0, 2**64 - 1)


class SingleGame:
    """A game, its seed stream and its layout; ``game`` is the C++ ``_EnvGame``."""

    def __init__(self, players: int, reshuffle: str, layout: str) -> None:
        self.players = check_players(players)
        self.layout = check_choice("layout", layout, LAYOUTS)
        self.game = _core._EnvGame(self.players, reshuffle)
        self.reshuffle = reshuffle
        self.stream: Optional[int] = None
        self.episode = 0
        self.started = False

    def reset(self, seed: Optional[int], np_random: np.random.Generator) -> None:
        """Deal the next game: episode 0 of a new stream ``seed``, else the stream's next episode."""
        if seed is not None:
            self.stream, self.episode = check_int("seed", seed, 0, 2**64 - 1), 0
        elif self.stream is None:
            self.stream, self.episode = int(np_random.integers(2**63)), 0
        else:
            self.episode += 1
        deal_seed, _ = _core._selfplay_seeds(self.stream, self.episode, 0)
        self.game.reset(deal_seed)
        self.started = True

    def observe(self, seat: int) -> np.ndarray:
        """The encoder's output from ``seat``'s view (a new array)."""
        return self.game.observe(seat, self.layout)

    def final_info(self) -> Dict[str, Any]:
        """What the infos hold once the game is over: scores (red, white), winner, why it ended, plies."""
        position = self.game.position
        reason = self.game.end_reason
        winner: Optional[str]
        if reason == "illegal_action":  # lost by forfeit: the side that chose it loses
            winner = "white" if self.game.rewards[0] < 0 else "red"
        else:
            winner = position.winner
        return {"scores": tuple(position.scores), "winner": winner, "end_reason": reason, "plies": self.game.plies}

    def render(self, render_mode: Optional[str]) -> Optional[str]:
        """The board and the hands as text for ``render_mode="ansi"`` (None for no render mode);
        the pile's order is never shown (R14)."""
        if render_mode is None:
            return None
        if not self.started:
            raise InvalidArgumentError("render_mode: call reset() before render()", "render_mode")
        return str(self.game.position)
