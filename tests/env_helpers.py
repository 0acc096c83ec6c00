"""Shared helpers of the RL environment tests (tests/test_env_*.py)."""
from __future__ import annotations

import warnings
from contextlib import contextmanager

import numpy as np

#: The two warnings PettingZoo's api_test gives any env with dict observations; PettingZoo itself
#: exempts its classic dict-observation games from them (pettingzoo/test/api_test.py: the lists
#: env_obs_dicts and env_obs_space, which name chess_v6, connect_four_v3, go_v5, ...).
PETTINGZOO_DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


@contextmanager
def warnings_as_errors(*allowed: str):
    """Every warning raised as an error, except those whose message starts with one of ``allowed``."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in allowed:
            warnings.filterwarnings("ignore", message=message)
        yield


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of an (N, 50) int8 mask, as int32."""
    return (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1).astype(np.int32)


def random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of one (50,) mask."""
    return int(rng.choice(np.flatnonzero(mask)))


def reordered(position, rng: np.random.Generator, rosen_module) -> tuple:
    """Two copies of ``position`` (pile order hidden) that differ only in the order of the draw
    pile: each with an explicit, different pile order."""
    cards = list(position.pile_cards)
    assert len(cards) >= 2, "the test needs a pile of two or more cards"
    first = list(rng.permutation(cards))
    second = first[1:] + first[:1]
    fields = position.fen(hide_pile_order=True).split(" ")
    assert fields[-1] == "*"
    return tuple(rosen_module.Position(" ".join(fields[:-1] + [",".join(order)]), reshuffle=position.reshuffle)
                 for order in (first, second))
