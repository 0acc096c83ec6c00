"""Batch territory scoring of many boards at once (RULES.md R10-R12)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import _core
from .errors import ArgumentTypeError, InvalidArgumentError, as_array


class BoardScores(NamedTuple):
    """Per-board results; every field is an int32 array of shape (N, 2) -- (2,) for one (9, 9)
    board --: column 0 red, 1 white."""

    score: np.ndarray    #: sum of n*n over the colour's territories (R11)
    largest: np.ndarray  #: size of the largest territory
    tokens: np.ndarray   #: number of tokens of the colour
    # mypy refuses a field that shadows tuple.count; at run time the field wins, as it always has.
    #: number of territories
    count: np.ndarray  # type: ignore[assignment]

    def winners(self) -> np.ndarray:
        """Per board: 1 if red wins, 2 if white wins, 0 for a draw, by R12's tie-breaks. For the
        result of one ``(9, 9)`` board, a 0-d array (``int(...)`` gives the number)."""
        key = np.stack([self.score, self.largest, self.tokens], axis=-1)  # (..., 2, 3)
        diff = key[..., 0, :] - key[..., 1, :]                             # (..., 3): red minus white
        first = np.argmax(diff != 0, axis=-1)  # the first criterion that differs
        decisive = np.take_along_axis(diff, first[..., None], axis=-1)[..., 0]
        return np.where(decisive > 0, 1, np.where(decisive < 0, 2, 0)).astype(np.int8)


def score_boards(boards: npt.ArrayLike) -> BoardScores:
    """Score many boards in C++ with the GIL released.

    ``boards`` is an integer array of shape ``(N, 9, 9)`` (or ``(9, 9)`` for one board) with
    ``boards[n, rank - 1, file]`` the square at that file (a = 0) and rank; 0 is empty, 1 a red
    token, 2 a white token -- the layout of ``Position.board``. A bool array is one colour's mask:
    its True squares score as red tokens. Territories are symmetric under flips, so an array laid
    out rank 9 first scores the same.
    """
    arr = as_array(boards, "boards", "an integer array")
    if arr.dtype.kind not in "biu":
        raise ArgumentTypeError(f"boards: expected an integer array (int8 preferred), got dtype {arr.dtype}", "boards")
    single = arr.ndim == 2
    if single:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1:] != (9, 9):
        raise InvalidArgumentError(f"boards: expected shape (N, 9, 9) or (9, 9), got {np.shape(boards)}", "boards")
    if arr.dtype != np.int8:
        # Check before narrowing, so that 257 cannot wrap round to a red token.
        if arr.size and (arr.min() < 0 or arr.max() > 2):
            raise InvalidArgumentError("boards: values must be 0 (empty), 1 (red) or 2 (white)", "boards")
        arr = arr.astype(np.int8)
    result = BoardScores(*_core._score_boards(np.ascontiguousarray(arr)))
    if single:
        result = BoardScores(*(field[0] for field in result))
    return result
