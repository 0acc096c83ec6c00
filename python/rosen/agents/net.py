"""A network as a player, without search: one evaluation per move."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from .._core import Move, Position
from ..errors import RosenError, check_int
from .base import DecisionStats, legal_moves_of


class NetAgent:
    """Plays the legal action the network's policy rates highest (ties: the lowest action
    number), from one evaluation of the position: ``net:path=PATH``. ``path`` is a network file
    (docs/learning.md, "Network format"), a :class:`rosen.learning.Network` or a :class:`rosen.Evaluator`.
    Deterministic; ``seed`` is accepted (every agent spec takes one) and unused."""

    name = "net"

    def __init__(self, path: Any, seed: int = 0) -> None:
        from ..learning.evaluator import as_evaluator  # rosen.learning only for agents that use it

        try:
            self.evaluator = as_evaluator(path)
        except RosenError as exc:  # as_evaluator names its argument `evaluator`; here it is `path`
            raise exc.renamed("evaluator", "path") from None
        self.seed = check_int("seed", seed, 0)
        self.last_stats: Optional[DecisionStats] = None

    def choose(self, position: Position) -> Move:
        """The legal move the network's policy rates highest in ``position`` (ties: the lowest action
        number), from one evaluation; an error if the game is over."""
        legal_moves_of(position)  # a finished game is an error naming the position
        from ..encoding import action_names

        policy = self.evaluator.evaluate(position).policy  # 0 on illegal actions, > 0 on legal ones
        return Move(action_names()[int(np.argmax(policy))])

    def reset(self) -> None:
        """Does nothing: the agent keeps no state between games."""
        pass

    def on_move(self, move: Move) -> None:
        """Does nothing: each move is chosen from its position alone."""
        pass

    def __repr__(self) -> str:
        return f"NetAgent({self.evaluator!r})"
