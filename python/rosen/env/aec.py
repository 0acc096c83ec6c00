"""Rosenkönig as a PettingZoo AEC environment, in the style of PettingZoo's classic games.

Agents ``player_0 .. player_{n-1}`` in turn order (4 players: r1, w1, r2, w2, partners opposite,
R13). ``observe(agent)`` is ``{"observation": ..., "action_mask": ...}``: the one encoder
(docs/encoding.md) with that agent as its mover, and an int8 mask of its legal actions (all zeros
when it is not its turn). Rewards come at the end: +1 win, -1 loss, 0 draw, shared by a team; the
infos then hold ``scores`` (red, white), ``winner``, ``end_reason`` ("supply": R8, "blocked": R9,
"illegal_action") and ``plies``. An action in 0..49 that is not legal ends the game lost by
forfeit for the team that chose it (-1, the other team +1); an action that is not an int in
0..49, or not None for a finished agent, raises :class:`rosen.InvalidArgumentError` (or
:class:`rosen.ArgumentTypeError`) and changes nothing. The deal and every draw are chance, never an
action; nothing observed reveals the pile's order (R14).

>>> from rosen.env import aec_env
>>> env = aec_env(players=2)
>>> env.reset(seed=1)
>>> obs, reward, termination, truncation, info = env.last()
>>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_0', (35, 9, 9), 5)
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

from ..errors import require_extra

require_extra(__name__, "rl", "pettingzoo", "gymnasium")

from gymnasium.utils import seeding  # after the check, which names the extra
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..encoding import ACTIONS
from ..errors import ArgumentTypeError, InvalidArgumentError, check_choice
from .single import SingleGame, check_seed
from .spaces import action_space, masked_observation_space

__all__ = ["aec_env", "raw_env"]


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped env
    """The unwrapped AEC env; :func:`aec_env` wraps it as PettingZoo's classic games are."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "rosenkoenig_v0", "is_parallelizable": False,
                                "render_fps": 1}

    def __init__(self, players: int = 2, reshuffle: str = "eager", layout: str = "planes",
                 render_mode: Optional[str] = None) -> None:
        super().__init__()
        self._single = SingleGame(players, reshuffle, layout)
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self._single.players)]
        self.agents: List[str] = []
        self._seats = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: masked_observation_space(layout) for a in self.possible_agents}
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self._np_random: Optional[np.random.Generator] = None
        self._no_mask = np.zeros(ACTIONS, dtype=np.int8)
        self._no_mask.flags.writeable = False

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self._seat(agent)
        game = self._single.game
        mask = game.mask() if seat == game.current_player else self._no_mask.copy()
        return {"observation": self._single.observe(seat), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        seed = check_seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self._single.reset(seed, self._np_random)
        self.agents = self.possible_agents[:]
        self.rewards: Dict[str, float] = {a: 0 for a in self.agents}
        self._cumulative_rewards: Dict[str, float] = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self._single.game.current_player]

    def step(self, action: Any) -> None:
        if not self._single.started:
            raise InvalidArgumentError("action: call reset() before step()", "action")
        if not self.agents:  # every finished agent has taken its None step and left
            raise InvalidArgumentError("action: the game is over and every agent has left; call reset() to start "
                                       "another", "action")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidArgumentError(f"action: the game is over for {agent}; the only action of a finished "
                                           f"agent is None, got {action!r}", "action")
            return self._was_dead_step(action)
        game = self._single.game
        a = game.check_action(action)
        self._cumulative_rewards[agent] = 0
        if game.legal(a):
            game.step(a)
        else:
            game.forfeit()
        if game.done:
            info = self._single.final_info()
            for agent_name, reward in zip(self.agents, game.rewards):
                self.rewards[agent_name] = reward
                self.terminations[agent_name] = True
                self.infos[agent_name] = dict(info)
        else:
            self.agent_selection = self.agents[game.current_player]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        return self._single.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def _seat(self, agent: str) -> int:
        if not isinstance(agent, str):
            raise ArgumentTypeError(f"agent: expected an agent name such as {self.possible_agents[0]!r}, got "
                                    f"{type(agent).__name__}", "agent")
        seat = self._seats.get(agent)
        if seat is None:
            raise InvalidArgumentError(f"agent: expected one of {', '.join(self.possible_agents)}, got {agent!r}",
                                       "agent")
        if not self._single.started:
            raise InvalidArgumentError("agent: call reset() before observe()", "agent")
        return seat


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's order checks, with rosen's error for a step before reset."""

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise InvalidArgumentError("action: call reset() before step()", "action")
        super().step(action)

    def __str__(self) -> str:
        return str(self.env)


def aec_env(players: int = 2, reshuffle: str = "eager", layout: str = "planes",
            render_mode: Optional[str] = None) -> AECEnv:
    """The PettingZoo AEC env (``raw_env`` wrapped in PettingZoo's order checks): ``players`` 2 or 4,
    ``reshuffle`` "eager" or "lazy" (R7), ``layout`` "planes" or "flat" (docs/encoding.md),
    ``render_mode`` None or "ansi"."""
    return _OrderEnforcing(raw_env(players=players, reshuffle=reshuffle, layout=layout, render_mode=render_mode))
