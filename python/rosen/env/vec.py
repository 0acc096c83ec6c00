"""A batch of Rosenkönig games stepped together in C++ (``cpp/env/vec_env.h``), for throughput.

In the style of EnvPool and pgx: ``reset()`` and ``step(actions)`` take and return NumPy arrays
over ``num_envs`` games at once, with the GIL released. NumPy is all it needs (no Gymnasium).

>>> import numpy as np
>>> from rosen.env import VecEnv
>>> env = VecEnv(4, layout="flat", seed=7)
>>> out = env.reset()
>>> out.observation.shape, out.action_mask.dtype, out.current_player.tolist()
((4, 477), dtype('int8'), [0, 0, 0, 0])
>>> out = env.step(out.action_mask.argmax(axis=1))    # the first legal action of each game
>>> out.reward.shape, out.terminated.tolist()
((4, 2), [False, False, False, False])
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence, Union

import numpy as np

from .. import _core
from ..agents.spec import AgentSpec, parse_agent_spec
from ..encoding import ACTIONS, LAYOUTS, feature_names, plane_names
from ..errors import (ArgumentTypeError, InvalidArgumentError, RosenError, check_bool, check_choice, check_int,
                      check_players, is_collection)
from ..selfplay.generate import AGENTS, _core_agent, agent_spec

__all__ = ["VecEnv", "VecStep", "observation_shape"]

#: Gymnasium's names (``gymnasium.vector.AutoresetMode(value)``) of the two conventions.
AUTORESET_MODES = {True: "SameStep", False: "Disabled"}


def observation_shape(layout: str) -> tuple:
    """The shape of one observation: ``(35, 9, 9)`` for planes, ``(477,)`` for flat (the encoder's)."""
    if check_choice("layout", layout, LAYOUTS) == "planes":
        return (len(plane_names()), 9, 9)
    return (len(feature_names()),)


class VecStep(NamedTuple):
    """What :meth:`VecEnv.reset` and :meth:`VecEnv.step` return: row ``i`` is environment ``i``."""

    observation: np.ndarray     #: int8 (N, 35, 9, 9) planes or float32 (N, 477) flat, the current player's view
    action_mask: np.ndarray     #: int8 (N, 50): the current player's legal actions
    reward: np.ndarray          #: float32 (N, players), or (N,) with an opponent: the learner's
    terminated: np.ndarray      #: bool (N,): the game ended in this step (autoreset off: the game is over)
    truncated: np.ndarray       #: bool (N,): always False -- every game ends by the rules (R8, R9)
    current_player: np.ndarray  #: int32 (N,): the player to move (turn order), -1 in a finished game


def _streams(seed: Any, count: int, field: str = "seed") -> np.ndarray:
    """One seed stream per environment: ``seed + i`` for an int, or a sequence of ``count`` ints."""
    # A 0-d array is one number, as a NumPy scalar is.
    if isinstance(seed, (Sequence, np.ndarray)) and is_collection(seed):
        values = [check_int(f"{field}[{i}]", s, 0, 2**64 - 1) for i, s in enumerate(seed)]
        if len(values) != count:
            raise InvalidArgumentError(f"{field}: expected {count} seeds (one per environment), got {len(values)}", field)
        return np.array(values, dtype=np.uint64)
    base = check_int(field, seed, 0, 2**64 - count)
    return np.arange(base, base + count, dtype=np.uint64)


def _opponent(opponent: Any, players: int) -> Optional[dict]:
    """The opponent as the C++ batch takes it (kind, seed, search parameters and network), checked;
    ``evaluator=auto`` is the shipped network of a ``players``-player game."""
    if opponent is None:
        return None
    if not isinstance(opponent, (str, AgentSpec)):
        raise ArgumentTypeError(f"opponent: expected an agent spec such as 'greedy' or 'mcts:iterations=200', "
                                f"got {type(opponent).__name__} (the Gymnasium env also takes callables)", "opponent")
    try:
        spec = opponent if isinstance(opponent, AgentSpec) else parse_agent_spec(opponent)
        if spec.kind not in AGENTS:
            raise InvalidArgumentError(f"the VecEnv plays {', '.join(AGENTS)} in C++, got {spec.kind!r} "
                                       f"(the Gymnasium env takes any agent)", "opponent")
        agent = _core_agent(agent_spec(spec, players))
    except RosenError as exc:
        raise type(exc)(f"opponent: {exc}", "opponent") from None
    return {"kind": agent["agent"], "params": agent["params"], "seed": agent["agent_seed"],
            "network": agent.get("network")}


class VecEnv:
    """``num_envs`` games stepped together (docs/rl.md).

    Without an ``opponent`` the caller plays every seat: each step takes one action per game for
    the player to move, and rewards are per player, ``(N, players)``. With an ``opponent`` (an
    agent spec the C++ core plays: ``random``, ``greedy`` or ``mcts:iterations=N,...``) the caller
    is the learner, playing colour ``seat`` (0 red, 1 white, None: drawn per episode; both seats of
    the colour in the 4-player game); the opponent's replies are played inside ``step``, so every
    returned observation is the learner's turn, and the reward is the learner's, ``(N,)``.

    Rewards are +1/0/-1 (shared by a team), given in the step that ends the game. Autoreset is
    Gymnasium's ``SameStep`` (``metadata["autoreset_mode"]``): a row that ends a game reports its
    reward and ``terminated`` and already shows the next game. ``autoreset=False`` keeps a finished
    game over (``terminated`` stays True, its action must be -1) until ``reset(indices=...)``.

    Seeds: environment ``i`` follows the stream ``seed + i`` (or ``seed[i]`` for a sequence); its
    episode ``k`` is dealt as ``rosen.Position.new(d)`` with ``d`` self-play's deal seed of game
    ``k`` of a run seeded by the stream, and its draws come from that deal's card stream: the same
    games as a single env (:func:`rosen.env.aec_env`) reset with ``seed=stream`` and then without a
    seed, whatever ``num_envs``, the other environments or ``threads``.

    ``step`` and ``reset`` return fresh arrays (:class:`VecStep`), or fill ``out`` (a
    :class:`VecStep` of C-contiguous arrays of the right dtypes and shapes, e.g. a previous result)
    and return it. Bad actions raise before any game changes.
    """

    def __init__(self, num_envs: int, players: int = 2, opponent: Union[None, str, AgentSpec] = None, *,
                 layout: str = "planes", seed: Union[int, Sequence[int]] = 0, seat: Optional[int] = None,
                 reshuffle: str = "eager", autoreset: bool = True, threads: int = 1) -> None:
        num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
        players = check_players(players)
        check_choice("layout", layout, LAYOUTS)
        if seat is not None:
            seat = check_int("seat", seat, 0, 1)
        autoreset = check_bool("autoreset", autoreset)
        threads = check_int("threads", threads, 1, 256)
        self.num_envs = num_envs
        self.num_players = players
        self.layout = layout
        self.opponent = None if opponent is None else str(opponent)
        self.seat = seat
        self.reshuffle = reshuffle
        self.autoreset = autoreset
        self.threads = threads
        self.metadata = {"autoreset_mode": AUTORESET_MODES[autoreset], "render_modes": []}
        self.single_observation_shape = observation_shape(layout)
        self.num_actions = ACTIONS
        self._env = _core._VecEnv(players, reshuffle, _streams(seed, num_envs), layout, _opponent(opponent, players),
                                  -1 if seat is None else seat, autoreset, threads)

    def __repr__(self) -> str:
        opponent = f", opponent={self.opponent!r}" if self.opponent else ""
        return f"VecEnv({self.num_envs}, players={self.num_players}{opponent}, layout={self.layout!r})"

    def _outputs(self, out: Optional[VecStep]) -> VecStep:
        if out is not None:
            if not isinstance(out, VecStep):
                raise ArgumentTypeError(f"out: expected a VecStep of arrays, got {type(out).__name__}", "out")
            return out
        n = self.num_envs
        obs_dtype = np.int8 if self.layout == "planes" else np.float32
        reward_shape = (n,) if self.opponent else (n, self.num_players)
        return VecStep(np.empty((n,) + self.single_observation_shape, obs_dtype), np.empty((n, ACTIONS), np.int8),
                       np.empty(reward_shape, np.float32), np.empty(n, np.bool_), np.empty(n, np.bool_),
                       np.empty(n, np.int32))

    def reset(self, seed: Union[None, int, Sequence[int]] = None, *, indices: Optional[Sequence[int]] = None,
              out: Optional[VecStep] = None) -> VecStep:
        """Start a new game in every environment, or in those listed in ``indices``. With ``seed``
        (an int: streams ``seed + i``, or one seed per reset environment) each starts a new stream;
        without, each deals its stream's next episode. Every row is returned."""
        listed = None
        if indices is not None:
            listed = np.asarray(indices)
            if listed.ndim != 1 or (listed.size and listed.dtype.kind not in "iu"):
                raise ArgumentTypeError(f"indices: expected a sequence of ints, got {listed.dtype} of shape "
                                        f"{listed.shape}", "indices")
            if listed.dtype.kind == "u" and listed.size and listed.max() > np.iinfo(np.int64).max:
                # The core checks the range; this one index would read -1 after the cast to int64.
                k = int(np.argmax(listed > np.iinfo(np.int64).max))
                raise InvalidArgumentError(f"indices[{k}]: expected 0..{self.num_envs - 1}, got {listed[k]}", "indices")
            listed = np.ascontiguousarray(listed, dtype=np.int64)
        streams = None if seed is None else _streams(seed, self.num_envs if listed is None else len(listed))
        result = self._outputs(out)
        self._env.reset(listed, streams, *result)
        return result

    def step(self, actions: Any, *, out: Optional[VecStep] = None) -> VecStep:
        """Play one action per environment: an int array of shape (N,), each a legal action 0..49
        of the player to move (with autoreset off, -1 for a finished game)."""
        arr = np.asarray(actions)
        if arr.dtype.kind not in "iu":
            raise ArgumentTypeError(f"actions: expected an integer array of shape ({self.num_envs},), got dtype "
                                    f"{arr.dtype}", "actions")
        if arr.shape != (self.num_envs,):
            raise InvalidArgumentError(f"actions: expected shape ({self.num_envs},), got {arr.shape}", "actions")
        if arr.dtype != np.int32:
            if arr.size and (int(arr.min()) < -1 or int(arr.max()) >= ACTIONS):
                bad = int(np.flatnonzero((arr < -1) | (arr >= ACTIONS))[0])
                raise InvalidArgumentError(f"actions[{bad}]: expected an action 0..49, got {arr[bad]}", "actions")
            arr = arr.astype(np.int32)
        result = self._outputs(out)
        self._env.step(np.ascontiguousarray(arr), *result)
        return result

    def position(self, index: int) -> _core.Position:
        """Environment ``index``'s position as a player may know it (the pile's order hidden, R14)."""
        return self._env.position(index)

    def load(self, index: int, position: _core.Position) -> None:
        """Environment ``index`` goes on from ``position`` (of these rules): a pile of known order
        deals first, then the environment's card stream. The next ``step`` takes an action for it;
        for tests and for games from chosen positions (the episode counter is kept)."""
        if not isinstance(position, _core.Position):
            raise ArgumentTypeError(f"position: expected a rosen.Position, got {type(position).__name__}", "position")
        self._env.load(index, position)

    def info(self, index: int) -> dict:
        """Environment ``index``: its episode number, deal seed, plies, learner seat, end reason."""
        return self._env.info(index)

    def close(self) -> None:
        """Nothing to release; for the Gymnasium-style interface."""
