"""Reinforcement-learning environments (docs/rl.md), each on the C++ core and the one observation
encoder (docs/encoding.md), with the 50-action numbering and int8 legal-action masks.

========================  ==========================================================  ===========
:class:`VecEnv`           N games stepped together in C++ (EnvPool/pgx style)         NumPy only
:func:`aec_env`           PettingZoo AEC env (``raw_env`` unwrapped), 2 or 4 players  ``rosen[rl]``
``rosen/Rosenkoenig-v0``  Gymnasium single-agent env against an opponent              ``rosen[rl]``
``python_rosenkoenig``    OpenSpiel game, after ``import rosen.openspiel``            ``rosen[openspiel]``
========================  ==========================================================  ===========

Importing this package registers the Gymnasium id when Gymnasium is installed (Gymnasium 1.x
loads no plugin entry points); PettingZoo and Gymnasium are imported only when one of their envs
is asked for.

>>> from rosen.env import VecEnv
>>> VecEnv(2, layout="flat").reset().observation.shape
(2, 477)
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from .vec import VecEnv, VecStep

__all__ = ["GYM_ID", "RosenkoenigEnv", "VecEnv", "VecStep", "aec_env", "raw_env"]

#: The Gymnasium id of :class:`rosen.env.gym.RosenkoenigEnv`.
GYM_ID = "rosen/Rosenkoenig-v0"
_LAZY = {"aec_env": "aec", "raw_env": "aec", "RosenkoenigEnv": "gym"}


def _register_gymnasium() -> None:
    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="rosen.env.gym:RosenkoenigEnv")


if TYPE_CHECKING:  # the lazy names below, for type checkers and IDEs
    from .aec import aec_env, raw_env
    from .gym import RosenkoenigEnv
else:  # hidden from type checkers: a module __getattr__ would type every misspelt name as Any
    def __getattr__(name: str) -> object:
        if name in _LAZY:
            return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_register_gymnasium()
