"""Fuzz target: batch territory scoring (rosen.score_boards(array).winners()).

Input layout: byte 0 the dtype, byte 1 the number of dimensions (low 3 bits, mod 5) and layout flags, then one byte per
dimension (mostly 9s, to reach the valid shapes), then the array's bytes (cycled to fill it).

Oracle: score_boards returns or raises ValueError/TypeError; on success every field has shape
(N, 2) (or (2,) for one (9, 9) board), counts are non-negative and bounded by the 81 squares,
each colour's token count is what the board holds, and ``winners()`` is 0, 1 or 2 per board and
agrees with R12's order (score, then largest territory, then tokens).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":  # fuzzing: atheris instruments rosen before this module imports it
    from _atheris_main import fuzz_main
    sys.exit(fuzz_main(__file__))
from _common import Input, attempt, check  # noqa: E402

import numpy as np  # noqa: E402

import rosen  # noqa: E402

DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool", "float32", "float64",
          "complex64", "object", "U1", "S1", "datetime64[s]", "timedelta64[s]", "float16", "V1")


def _make(inp: Input):
    dtype = np.dtype(inp.choice(DTYPES))
    info = inp.byte()
    ndim = (info & 7) % 5
    layout = info >> 3
    shape = tuple(9 if b % 4 else b % 13 for b in (inp.byte() for _ in range(ndim)))
    size = int(np.prod(shape)) if shape else 1
    if size > 9 * 9 * 64:
        return None
    raw = inp.take(inp.remaining) or b"\0"
    # Mostly legal cell values 0..2, sometimes the bytes as they are.
    if layout & 1:
        cells = np.frombuffer((raw * (size // len(raw) + 1))[:size], dtype=np.uint8).astype(np.int64)
    else:
        cells = np.frombuffer((raw * (size // len(raw) + 1))[:size], dtype=np.uint8).astype(np.int64) % 3
    if dtype.kind in "USV":
        arr = cells.astype(str).astype(dtype) if dtype.kind != "V" else np.zeros(size, dtype)
    elif dtype.kind in "mM":
        arr = cells.astype(dtype)
    elif dtype.kind == "O":
        arr = np.array(list(cells), dtype=object)
    else:
        with np.errstate(all="ignore"):
            arr = cells.astype(dtype)
    arr = arr.reshape(shape)
    if layout & 2 and arr.ndim >= 2:
        arr = arr.swapaxes(-1, -2)      # not C-contiguous
    if layout & 4 and arr.ndim >= 1 and arr.shape[0] > 1:
        arr = arr[::2]                  # strided
    if layout & 8:
        arr = arr.tolist()              # a nested list, not an ndarray
    if layout & 16 and isinstance(arr, np.ndarray):
        arr = np.asfortranarray(arr)
    return arr


def _check(boards, scores) -> None:
    arr = np.asarray(boards).astype(np.int64)
    single = arr.ndim == 2
    if single:
        arr = arr[None]
    n = arr.shape[0]
    fields = [np.asarray(f) for f in scores]
    for f in fields:
        check(f.shape == ((2,) if single else (n, 2)), f"field shape {f.shape} for {n} boards")
    score, largest, tokens, count = (f.reshape(n, 2) for f in fields)
    check(bool((tokens[:, 0] == (arr == 1).sum(axis=(1, 2))).all()), "red token count")
    check(bool((tokens[:, 1] == (arr == 2).sum(axis=(1, 2))).all()), "white token count")
    check(bool((largest >= 0).all() and (largest <= tokens).all()), "largest territory out of range")
    check(bool((count >= 0).all() and (count <= tokens).all()), "territory count out of range")
    check(bool((score >= largest * largest).all() and (score <= tokens * tokens).all()), "score out of range")
    win = np.asarray(scores.winners())
    # One board: a 0-d array; N boards: shape (N,).
    check(win.size == n and (single or win.shape == (n,)), f"winners shape {win.shape}")
    key = np.stack([score, largest, tokens], axis=-1).reshape(n, 2, 3)
    for i, w in enumerate(win.reshape(n)):
        red, white = tuple(key[i, 0]), tuple(key[i, 1])
        want = 1 if red > white else 2 if white > red else 0
        check(int(w) == want, f"winners()[{i}] = {w}, expected {want} for {red} vs {white}")


def one_input(data: bytes) -> None:
    inp = Input(data)
    boards = _make(inp)
    if boards is None:
        return
    ok, scores = attempt(rosen.score_boards, boards)
    if ok:
        _check(boards, scores)
