"""Rosenkönig as a single-agent Gymnasium env: the learner against an opponent.

``gym.make("rosen/Rosenkoenig-v0", opponent=...)`` after ``import rosen.env`` (which registers the
id; ``gym.make("rosen.env:rosen/Rosenkoenig-v0")`` imports it for you). The opponent is any agent
spec (``"random"``, ``"greedy"``, ``"mcts:iterations=200"``, ...; built afresh each episode), a
:class:`rosen.agents.Agent`, or a callable taking the position (pile order hidden, R14) and
returning a move (``rosen.Move``, its text or an action index). The learner plays colour ``seat``
(0 red, 1 white, None: drawn each episode; both seats of its colour in the 4-player game); every
observation is the learner's turn, the opponent's replies are played inside ``step``.

Reward +1/0/-1 at the end of the game. An action in 0..49 that is not legal ends the episode
(terminated) with reward ``illegal_action_reward`` (default -1, the loss) and
``info["illegal_action"] = True``; ``action_masks()`` (int8, the same as ``info["action_mask"]``)
lets masked policy-gradient libraries (sb3-contrib's MaskablePPO) avoid them. Anything else --
not an int, out of range, a step before ``reset`` or after the end -- raises and changes nothing.

>>> import gymnasium as gym
>>> import rosen.env
>>> env = gym.make("rosen/Rosenkoenig-v0", opponent="greedy", seat=0)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["seat"], int(env.unwrapped.action_masks().sum())
((35, 9, 9), 0, 5)
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Dict, Iterator, Optional, Tuple, Union

import numpy as np

from ..errors import require_extra

require_extra(__name__, "rl", "gymnasium")

import gymnasium  # after the check, which names the extra

from .. import _core
from ..agents.base import close_agents
from ..agents.spec import AgentSpec, parse_agent_spec
from ..encoding import action_index
from ..errors import ArgumentTypeError, InvalidArgumentError, check_choice, check_int, check_real
from .single import SingleGame, check_seed
from .spaces import action_space, observation_space

__all__ = ["RosenkoenigEnv"]

Opponent = Union[str, AgentSpec, Any, Callable[[_core.Position], Any]]


class RosenkoenigEnv(gymnasium.Env):
    """The learner (colour ``seat``) against ``opponent``; see the module's documentation."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, opponent: Opponent = "random", *, seat: Optional[int] = None, players: int = 2,
                 reshuffle: str = "eager", layout: str = "planes", illegal_action_reward: float = -1.0,
                 render_mode: Optional[str] = None) -> None:
        self._single = SingleGame(players, reshuffle, layout)
        self._spec: Optional[AgentSpec] = None
        self._agent: Any = None
        self._callable: Optional[Callable] = None
        if isinstance(opponent, (str, AgentSpec)):
            try:
                self._spec = opponent if isinstance(opponent, AgentSpec) else parse_agent_spec(opponent)
            except ValueError as exc:
                raise type(exc)(f"opponent: {exc}", "opponent") from None
        elif hasattr(opponent, "choose"):
            self._agent = opponent
        elif callable(opponent):
            self._callable = opponent
        else:
            raise ArgumentTypeError(f"opponent: expected an agent spec, an Agent or a callable, got "
                                    f"{type(opponent).__name__}", "opponent")
        self.seat = None if seat is None else check_int("seat", seat, 0, 1)
        self.illegal_action_reward = check_real("illegal_action_reward", illegal_action_reward)
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.observation_space = observation_space(layout)
        self.action_space = action_space()
        self._learner = 0  # the learner's colour this episode
        self._view = 0     # the seat whose observation is shown: the learner's last turn
        self._closed = False  # close() dropped the opponent the env built: step() needs a reset()

    # -- Gymnasium API -----------------------------------------------------------------------------

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> Tuple[np.ndarray, Dict]:
        seed = check_seed(seed)
        super().reset(seed=seed)
        self._single.reset(seed, self.np_random)
        self._learner = self.seat if self.seat is not None else int(self.np_random.integers(2))
        self._view = self._learner
        self._closed = False
        with self._needs_reset_on_failure():
            if self._spec is not None:
                # The last episode's agent gives its resource (an engine process) back first: the
                # env built it, so the env closes it (F66: one engine a reset was left running).
                close_agents(self._agent)
                self._agent = None
                # Its seed from np_random, not from the deal: deal_seed % 2**31 (an engine's `Seed`)
                # left the opponent about 16 deals to try against the hands on show, and the pile.
                self._agent = self._spec.build(int(self.np_random.integers(2**31)))
            if self._agent is not None:
                self._agent.reset()
            self._play_opponent()
        return self._observation(), self._info()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict]:
        game = self._single.game
        if not self._single.started:
            raise InvalidArgumentError("action: call reset() before step()", "action")
        if game.done:
            raise InvalidArgumentError("action: the episode is over; call reset() to start another", "action")
        if self._closed:
            raise InvalidArgumentError("action: the env was closed, its opponent with it; call reset() to play again",
                                       "action")
        a = game.check_action(action)
        if not game.legal(a):
            game.forfeit()
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_action_reward, True, False, info
        game.step(a)
        with self._needs_reset_on_failure():
            self._tell_agent()
            self._play_opponent()
        reward = float(game.rewards[self._learner]) if game.done else 0.0
        return self._observation(), reward, game.done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """int8 (50,): the learner's legal actions (all zeros once the episode is over)."""
        if not self._single.started:
            raise InvalidArgumentError("action_mask: call reset() before action_masks()", "action_mask")
        return self._single.game.mask()

    # gymnasium before 1.3 declares render() as returning a type variable (any frame type the caller
    # names), which no concrete answer matches for mypy; this env's frames are text (render_mode 'ansi').
    def render(self) -> Optional[str]:  # type: ignore[override]
        return self._single.render(self.render_mode)

    def close(self) -> None:
        """Close the opponent the env built from a spec (an engine agent's process); an agent or a
        callable passed in is the caller's to close. A closed env plays again after reset()."""
        if self._spec is not None:
            close_agents(self._agent)
            self._agent = None
            # The opponent is gone, so the episode cannot go on: step() asks for a reset() (it
            # played the learner's action and then called the closed opponent). The last
            # observation, mask and board stay readable.
            self._closed = True
        super().close()

    # -- the opponent ------------------------------------------------------------------------------

    def _play_opponent(self) -> None:
        game = self._single.game
        while not game.done and game.current_player % 2 != self._learner:
            position = game.position  # the public view: the pile's order hidden (R14)
            if self._agent is not None:
                choice = self._agent.choose(position)
            else:
                assert self._callable is not None  # the opponent is an agent (one built from a spec) or a callable
                choice = self._callable(position)
            try:
                game.step(self._action_of(choice))
            except ValueError as exc:
                raise InvalidArgumentError(f"opponent: chose {choice!r} in {position.fen()!r}: {exc}",
                                           "opponent") from None
            self._tell_agent()
        if not game.done:
            self._view = game.current_player

    @contextlib.contextmanager
    def _needs_reset_on_failure(self) -> Iterator[None]:
        # The opponent (its spec, reset, move or on_move) failed with the game dealt or moved on:
        # the episode cannot go on (the learner would move for the opponent), so it needs a
        # reset() as a new env does.
        try:
            yield
        except BaseException:
            self._single.started = False
            raise

    @staticmethod
    def _action_of(choice: Any) -> Any:
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            return choice
        return action_index(choice)

    def _tell_agent(self) -> None:
        if self._agent is not None:
            move = self._single.game.last_move
            assert move is not None  # told after a step
            self._agent.on_move(_core.Move(move))

    # -- what the learner sees ---------------------------------------------------------------------

    def _observation(self) -> np.ndarray:
        return self._single.observe(self._view)

    def _info(self) -> Dict[str, Any]:
        info: Dict[str, Any] = {"action_mask": self._single.game.mask(), "seat": self._learner}
        if self._single.game.done:
            info.update(self._single.final_info())
        return info
