"""Gymnasium spaces of the environments (imports gymnasium: the ``rosen[rl]`` extra).

The observation box is exact: each plane or feature between 0 and the most it can hold
(docs/encoding.md): counts of hero cards (4), hand cards (5), the supply (52) and the pile (24);
everything else is 0/1 (flat features are scaled to 0..1).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import require_extra

require_extra(__name__, "rl", "gymnasium")

from gymnasium import spaces  # after the check, which names the extra

from ..encoding import ACTIONS, feature_names, plane_names
from .vec import observation_shape

__all__ = ["action_mask_space", "action_space", "masked_observation_space", "observation_space"]

#: The most a broadcast plane holds, by name prefix; other planes are 0/1.
PLANE_MAXIMA = {"heroes.": 4, "hand_size.": 5, "supply": 52, "pile_size": 24, "territory.": 52, "gain.": 127}
# The derived flat features of encoder version 2 (docs/encoding.md) that leave [0, 1]: the
# bounds follow from the 52 tokens (R1): a territory or score of one colour is at most 52 squares
# or 52 * 52 points; a gain is at most that (a hero: the join plus the split).
FLAT_BOUNDS = {"score.own": (0.0, 27.04), "score.other": (0.0, 27.04), "score.difference": (-27.04, 27.04),
               "largest.": (0.0, 2.6), "gain.play.": (0.0, 54.08), "gain.hero.": (0.0, 108.16),
               "threat.": (0.0, 54.08)}


@lru_cache(maxsize=None)
def _plane_high() -> np.ndarray:
    high = np.ones(observation_shape("planes"), dtype=np.int8)
    for k, name in enumerate(plane_names()):
        for prefix, most in PLANE_MAXIMA.items():
            if name.startswith(prefix):
                high[k] = most
    high.flags.writeable = False
    return high


@lru_cache(maxsize=None)
def _flat_bounds() -> tuple:
    low, high = np.zeros(observation_shape("flat"), np.float32), np.ones(observation_shape("flat"), np.float32)
    for k, name in enumerate(feature_names()):
        for prefix, (lo, hi) in FLAT_BOUNDS.items():
            if name.startswith(prefix):
                low[k], high[k] = lo, hi
    low.flags.writeable = high.flags.writeable = False
    return low, high


def observation_space(layout: str) -> spaces.Box:
    """Box of one observation: int8 (35, 9, 9) planes or float32 (477,) flat, in [0, 1] but for
    the counts and derived features (their bounds: PLANE_MAXIMA, FLAT_BOUNDS)."""
    if layout == "flat":
        low, high = _flat_bounds()
        return spaces.Box(low.copy(), high.copy(), dtype=np.float32)
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
