"""Gymnasium spaces of the environments (imports gymnasium: the ``rosen[rl]`` extra).

The observation box is exact: each plane or feature between 0 and the most it can hold
(docs/encoding.md): counts of hero cards (4), hand cards (5), the supply (52) and the pile (24);
everything else is 0/1 (flat features are scaled to 0..1).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from gymnasium import spaces

from ..encoding import ACTIONS, plane_names
from .vec import observation_shape

__all__ = ["action_mask_space", "action_space", "masked_observation_space", "observation_space"]

#: The most a broadcast plane holds, by name prefix; other planes are 0/1.
PLANE_MAXIMA = {"heroes.": 4, "hand_size.": 5, "supply": 52, "pile_size": 24}


@lru_cache(maxsize=None)
def _plane_high() -> np.ndarray:
    high = np.ones(observation_shape("planes"), dtype=np.int8)
    for k, name in enumerate(plane_names()):
        for prefix, most in PLANE_MAXIMA.items():
            if name.startswith(prefix):
                high[k] = most
    high.flags.writeable = False
    return high


def observation_space(layout: str) -> spaces.Box:
    """Box of one observation: int8 (31, 9, 9) planes or float32 (398,) flat in [0, 1]."""
    if layout == "flat":
        return spaces.Box(0.0, 1.0, observation_shape("flat"), dtype=np.float32)
    return spaces.Box(np.zeros_like(_plane_high()), _plane_high().copy(), dtype=np.int8)


def action_space() -> spaces.Discrete:
    """The 50 actions: 0..23 play, 24..47 hero, 48 draw, 49 pass (docs/encoding.md)."""
    return spaces.Discrete(ACTIONS)


def action_mask_space() -> spaces.Box:
    """int8 (50,) of 0/1, the dtype Gymnasium's masked sampling takes."""
    return spaces.Box(0, 1, (ACTIONS,), dtype=np.int8)


def masked_observation_space(layout: str) -> spaces.Dict:
    """PettingZoo's classic games' observation: ``{"observation": box, "action_mask": mask}``."""
    return spaces.Dict({"observation": observation_space(layout), "action_mask": action_mask_space()})
