"""rosen: a fast engine for Rosenkönig (The Rose King) and Lovagok (Knatsch) dice contests.

The C++ core (``rosen._core``) owns all game logic; this package re-exports it with a few
conveniences. Positions are immutable: ``Position.play(move)`` returns a new position.

>>> import rosen
>>> pos = rosen.Position.new(seed=1)
>>> pos = pos.play(pos.legal_moves()[0])
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._core import Move, Position
from .encoding import ENCODER_VERSION, encode, symmetries
from .errors import (
    ArgumentTypeError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidMoveError,
    InvalidPositionError,
    RosenError,
)
from .randomplay import RandomPlayStats, random_play
# `search` is the function: `rosen.search` then names it, not the module (whose names are imported
# from it: `from rosen.search import engine_evaluator`); its TypedDict of the keywords is exported here.
from .search import MoveInfo, SearchOptions, Searcher, SearchParams, SearchResult, search
from .territory import BoardScores, score_boards

__version__ = "0.1.0"

if TYPE_CHECKING:  # what the lazy attribute below is, for type checkers and IDEs
    from .learning.evaluator import Evaluator
else:  # hidden from type checkers: a module __getattr__ would type every misspelt rosen.X as Any
    def __getattr__(name: str) -> object:
        # rosen.Evaluator loads rosen.learning on first use only, so that `import rosen` stays light.
        if name == "Evaluator":
            from .learning.evaluator import Evaluator

            return Evaluator
        raise AttributeError(f"module 'rosen' has no attribute {name!r}")

    def __dir__() -> list:
        return sorted(set(globals()) | {"Evaluator"})  # the lazy attribute too (tab completion)


__all__ = [
    "ArgumentTypeError",
    "BoardScores",
    "ENCODER_VERSION",
    "Evaluator",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Move",
    "MoveInfo",
    "Position",
    "RandomPlayStats",
    "RosenError",
    "SearchOptions",
    "SearchParams",
    "SearchResult",
    "Searcher",
    "encode",
    "random_play",
    "score_boards",
    "search",
    "symmetries",
]
