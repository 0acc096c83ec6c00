"""A weaker player for people: the engine protocol's ``Strength`` levels around any agent."""
from __future__ import annotations

from typing import Optional

from .._core import Move, Position
from ..engine.strength import STRENGTH_MAX, level_move
from ..errors import ArgumentTypeError, check_int
from .base import Agent, DecisionStats


class LevelAgent:
    """``agent``'s moves, except that below level 10 a share of them, (10 - level) / 10, are
    uniformly random legal moves (:func:`rosen.engine.strength.level_move`: reproducible for a
    ``seed`` and a position, blind to the pile's order). The level's iteration cap is the wrapped
    agent's budget to set (``rosen play --level`` does); this class adds only the random moves."""

    def __init__(self, agent: Agent, level: int, seed: int = 0) -> None:
        if not isinstance(agent, Agent):
            raise ArgumentTypeError(f"agent: expected an agent (rosen.agents.Agent), got {type(agent).__name__}",
                                    "agent")
        self.agent = agent
        self.level = check_int("level", level, 1, STRENGTH_MAX)
        self.seed = check_int("seed", seed, 0)
        self.name = f"{agent.name}@level{self.level}"

    @property
    def last_stats(self) -> Optional[DecisionStats]:
        """The wrapped agent's figures for its last decision."""
        return self.agent.last_stats

    @last_stats.setter  # settable, as the Agent protocol's member is (a type checker holds it to that)
    def last_stats(self, value: Optional[DecisionStats]) -> None:
        self.agent.last_stats = value

    def choose(self, position: Position) -> Move:
        """The wrapped agent's move, or at the level's rate a random legal one."""
        return Move(level_move(str(self.agent.choose(position)), position, self.level, self.seed))

    def reset(self) -> None:
        """Reset the wrapped agent for a new game."""
        self.agent.reset()

    def on_move(self, move: Move) -> None:
        """Pass the move on to the wrapped agent."""
        self.agent.on_move(move)

    def close(self) -> None:
        """Close the wrapped agent if it holds a resource (an engine process)."""
        close = getattr(self.agent, "close", None)
        if close is not None:
            close()

    def __repr__(self) -> str:
        return f"LevelAgent({self.agent!r}, level={self.level}, seed={self.seed})"
