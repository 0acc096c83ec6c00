"""The observation encoder for learned agents, the 50-action numbering and the board's 8 symmetries.

Every plane and feature is listed in docs/encoding.md; the encoding is computed in C++
(``cpp/features/``) from public facts only (RULES.md R14: never the pile's order), from the mover's
view, and is fixed for a given :data:`ENCODER_VERSION`.

>>> import rosen
>>> pos = rosen.Position.new(seed=1)
>>> rosen.encode(pos).shape                         # one position: (channels, rank, file)
(35, 9, 9)
>>> rosen.encode([pos, pos], layout="flat").shape   # a batch: (N, features)
(2, 477)
>>> int(rosen.encode(pos)[plane_names().index("crown"), 4, 4])   # the crown on e5
1
>>> sym = rosen.symmetries()
>>> sym.names[1], int(sym.actions[1, 0])            # rot90 turns the card N1 into W1 (action 18)
('rot90', 18)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Dict, List, NamedTuple

import numpy as np

from . import _core
from .errors import ArgumentTypeError, InvalidArgumentError, as_array, check_choice, check_int, is_collection

__all__ = [
    "ACTIONS", "ENCODER_VERSION", "LAYOUTS", "ROW_FIELDS", "Symmetries", "action_index", "action_names", "encode", "feature_names",
    "plane_names", "positions_from_rows", "rows_from_positions", "symmetries", "transform", "transform_actions",
    "transform_encoded",
]

#: Version of the layouts; any change to a plane or feature increments it.
ENCODER_VERSION: int = _core._encoder_version
#: Number of actions: plays 0..23 (card id), heroes 24..47, draw 48, pass 49 -- the Move byte.
ACTIONS = 50
LAYOUTS = ("planes", "flat")
#: The state fields of a self-play record row (docs/encoding.md): name -> (dtype, shape of one row).
ROW_FIELDS: Dict[str, tuple] = {
    "tokens": (np.uint64, (2, 2)),
    "crown": (np.int8, ()),
    "hands": (np.uint32, (4,)),
    "discard": (np.uint32, ()),
    "pile": (np.uint32, ()),
    "heroes": (np.int8, (4,)),
    "to_move": (np.int8, ()),
    "players": (np.int8, ()),
    "reshuffle": (np.int8, ()),
}


def _row_arrays(rows: Mapping) -> dict:
    """The record fields as C-contiguous arrays of the spec's dtypes. Another integer dtype is
    accepted when every value fits (checked before narrowing, so 256 cannot wrap round to 0)."""
    out = {}
    for name, (dtype, _) in ROW_FIELDS.items():
        if name not in rows:
            raise InvalidArgumentError(f"{name}: missing from the rows (expected fields {', '.join(ROW_FIELDS)})", name)
        arr = as_array(rows[name], name, "an array (equal-length rows)")
        if arr.ndim == 0:  # ascontiguousarray would make it one row, and N = 1 would accept it
            raise InvalidArgumentError(f"{name}: expected an array with one entry per row, got a scalar", name)
        if arr.dtype != dtype:
            if arr.dtype.kind not in "iu":
                expected = np.dtype(dtype).name
                raise ArgumentTypeError(f"{name}: expected an integer array ({expected}), got dtype {arr.dtype}", name)
            info = np.iinfo(dtype)
            if arr.size and (int(arr.min()) < info.min or int(arr.max()) > info.max):
                raise InvalidArgumentError(f"{name}: values must fit {np.dtype(dtype).name}", name)
            arr = arr.astype(dtype)
        out[name] = np.ascontiguousarray(arr)
    # The row count is the one most fields agree on, so that the odd field out is the one named
    # (the core takes the first field's count and would blame every field after a short one).
    counts = Counter(arr.shape[0] for arr in out.values())
    rows_n = max(counts, key=lambda n: (counts[n], n))
    for name, arr in out.items():
        if arr.shape[0] != rows_n:
            raise InvalidArgumentError(f"{name}: expected {rows_n} rows like the other fields, got {arr.shape[0]}", name)
    return out


def _positions(items: Any, field: str = "items") -> list:
    if not is_collection(items):
        raise ArgumentTypeError(f"{field}: expected a Position, a sequence of Positions or a mapping of row arrays, "
                                f"got {type(items).__name__}{' of shape ()' if getattr(items, 'ndim', None) == 0 else ''}",
                                field)
    return list(items)


def encode(items: Any, layout: str = "planes", *, out: Any = None) -> np.ndarray:
    """Encode positions or record rows from the mover's view.

    ``items`` is a :class:`rosen.Position` (result without the batch axis), a sequence of
    positions, or a mapping of record-row arrays (a dict or an ``.npz`` file holding at least
    :data:`ROW_FIELDS`; bad rows raise an error naming the field and row). ``layout="planes"``
    gives int8 ``(N, 35, 9, 9)`` indexed ``[n, channel, rank - 1, file]``; ``layout="flat"``
    float32 ``(N, 477)``. ``out``, if given, is filled instead of a new array (C-contiguous, that
    dtype and shape). The C++ encoder runs with the GIL released.
    """
    check_choice("layout", layout, LAYOUTS)
    if out is not None and not isinstance(out, np.ndarray):
        raise ArgumentTypeError(f"out: expected a numpy array, got {type(out).__name__}", "out")
    if isinstance(items, _core.Position):
        if out is not None:
            shape = (len(plane_names()), 9, 9) if layout == "planes" else (len(feature_names()),)
            if out.shape != shape:  # checked here: the core sees the batch of one, out[None]
                raise InvalidArgumentError(f"out: expected shape {shape} for one position, got {out.shape}", "out")
        return _core._encode_positions([items], layout, None if out is None else out[None])[0]
    if isinstance(items, Mapping):
        return _core._encode_rows(_row_arrays(items), layout, out)
    return _core._encode_positions(_positions(items), layout, out)


def plane_names() -> List[str]:
    """Names of the planes layout's 35 channels, in order (docs/encoding.md)."""
    return _core._plane_names()


def feature_names() -> List[str]:
    """Names of the flat layout's 477 features, in order, e.g. ``hand.mover.N1``, ``crown.e5``."""
    return _core._feature_names()


def action_names() -> List[str]:
    """Move text of actions 0..49: ``N1``..``NW3``, ``H:N1``..``H:NW3``, ``draw``, ``pass``."""
    return _core._action_names()


@lru_cache(maxsize=1)
def _action_numbers() -> Dict[str, int]:
    return {name: i for i, name in enumerate(action_names())}


def action_index(move: Any) -> int:
    """The action number (0..49) of a move: a :class:`rosen.Move` or its text; a draw with its
    card (``draw:SE2``, as game records write it) is the draw, 48."""
    if isinstance(move, str):
        move = _core.Move(move)  # the core's parser: any case, a drawn card checked; a named error otherwise
    elif not isinstance(move, _core.Move):
        raise ArgumentTypeError(f"move: expected a rosen.Move or its text, got {type(move).__name__}", "move")
    return _action_numbers()["draw" if move.kind == "draw" else str(move)]


class Symmetries(NamedTuple):
    """The board's 8 symmetries as index maps; row k of each table is symmetry k, and entry i is
    where index i goes (its image). ``inverse[k]`` undoes symmetry k."""

    names: tuple          #: identity, rot90, rot180, rot270, flip_ew, flip_ns, diagonal, antidiagonal
    inverse: np.ndarray   #: int64 (8,)
    squares: np.ndarray   #: int64 (8, 81): square index rank * 9 + file
    cards: np.ndarray     #: int64 (8, 24): card id, direction turned, distance kept
    actions: np.ndarray   #: int64 (8, 50): plays and heroes through cards, draw and pass fixed
    features: np.ndarray  #: int64 (8, 477): the flat layout's features


@lru_cache(maxsize=None)
def _symmetries() -> Symmetries:
    names, *tables = _core._symmetries()
    for table in tables:
        table.flags.writeable = False  # shared by every caller
    return Symmetries(tuple(names), *tables)


def symmetries() -> Symmetries:
    """The 8 symmetries of the board (about e5); see :class:`Symmetries`."""
    return _symmetries()


def transform(position: Any, k: int) -> Any:
    """The position seen through symmetry ``k`` (0..7): board, crown and every card turned."""
    if not isinstance(position, _core.Position):
        raise ArgumentTypeError(f"position: expected a rosen.Position, got {type(position).__name__}", "position")
    return _core._transform(position, k)


def _gather(x: Any, k: int, images: np.ndarray, width: int, field: str) -> np.ndarray:
    """out[..., images[k][i]] = x[..., i] over the last axis, done as a gather by the inverse."""
    k = check_int("k", k, 0, 7)
    arr = as_array(x, field, "an array (equal-length rows)")
    if arr.ndim < 1 or arr.shape[-1] != width:
        raise InvalidArgumentError(f"{field}: expected a last axis of length {width}, got shape {arr.shape}", field)
    return arr[..., images[symmetries().inverse[k]]]


def transform_encoded(x: Any, k: int, layout: str = "planes") -> np.ndarray:
    """An encoding of positions turned by symmetry ``k``: equal to encoding the transformed
    positions, without them. ``x`` is ``(..., 35, 9, 9)`` for planes (every plane turns with the
    board) or ``(..., 477)`` for flat."""
    check_choice("layout", layout, LAYOUTS)
    sym = symmetries()
    if layout == "flat":
        return _gather(x, k, sym.features, sym.features.shape[1], "x")
    arr = as_array(x, "x", "an array (equal-length rows)")
    if arr.ndim < 2 or arr.shape[-2:] != (9, 9):
        raise InvalidArgumentError(f"x: expected planes of shape (..., 9, 9), got shape {arr.shape}", "x")
    flat = arr.reshape(arr.shape[:-2] + (81,))
    return _gather(flat, k, sym.squares, 81, "x").reshape(arr.shape)


def transform_actions(x: Any, k: int) -> np.ndarray:
    """Per-action values (a policy, visit counts, a legal mask: last axis 50) under symmetry ``k``."""
    return _gather(x, k, symmetries().actions, ACTIONS, "x")


def rows_from_positions(positions: Any) -> Dict[str, np.ndarray]:
    """The record-row state fields (:data:`ROW_FIELDS`) of a sequence of positions; the pile as a set."""
    return _core._rows_from_positions(_positions(positions, "positions"))


def positions_from_rows(rows: Mapping) -> list:
    """Record rows as positions (their pile's order unknown); each row is checked like :func:`encode`'s."""
    if not isinstance(rows, Mapping):
        raise ArgumentTypeError(f"rows: expected a mapping of row arrays, got {type(rows).__name__}", "rows")
    return _core._positions_from_rows(_row_arrays(rows))
