#!/usr/bin/env python3
"""Write the seed corpora fuzz/corpus/<target>/ from real positions, tests/golden and the docs'
examples. Deterministic: running it again gives the same files. ``python fuzz/make_corpus.py``
(after a change of an input layout, or to add seeds; commit the result)."""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import rosen  # noqa: E402


GENERATED_NAME = re.compile(r"[0-9a-f]{16}")


def write(target: str, items) -> None:
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    # Only the generated seeds (named by their hash) are replaced: a named seed is a finding's
    # reproducer (fuzz/corpus/<target>/<finding id>), some of them found by the fuzzer itself, and
    # stays (rmtree of the folder once deleted F2 and F4).
    for name in os.listdir(folder):
        if GENERATED_NAME.fullmatch(name):
            os.remove(os.path.join(folder, name))
    seen = set()
    for data in items:
        if data in seen:
            continue
        seen.add(data)
        with open(os.path.join(folder, hashlib.sha1(data).hexdigest()[:16]), "wb") as fh:
            fh.write(data)
    print(f"{target}: {len(seen)} files")


def walk(pos, plies, rng):
    moves = []
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(str(m))
        pos = pos.play(m)
    return pos, moves


def golden_fens():
    with open(os.path.join(ROOT, "tests", "golden", "deals.txt")) as fh:
        for line in fh:
            parts = line.split(maxsplit=2)
            if len(parts) == 3:
                yield parts[2].strip()


def position_corpus():
    rng = random.Random(16)
    items = []
    for fen in golden_fens():
        items.append(b"\0\0" + fen.encode())
    for seed, players in ((1, 2), (2, 2), (3, 4), (12345, 2)):
        start = rosen.Position.new(seed=seed, players=players)
        for plies in (0, 7, 25, 60):
            pos, _ = walk(start, plies, rng)
            nxt, moves = walk(pos, 4, rng)
            items.append(b"\0\0" + pos.fen().encode() + b"\n" + " ".join(moves).encode())
            items.append(b"\x02\0" + pos.fen(hide_pile_order=True).encode())  # lazy, pile hidden
    items.append(b"\x05\x00\x01\x07" + rosen.Position.new(seed=7).fen().encode())  # eager + seed
    items.append(b"\xe0\x04")  # no position: a four-player deal and a walk of 7 plies
    items.append(b"\0\0garbage\nN1 NE2 draw draw:N1 H:N1 pass")
    items.append(b"\0\x01\x02\x06\x03NE2\x00" + rosen.Position.new(seed=1).fen().encode())  # a pickle state
    return items


def _search_fields(**fields):
    """Encode search kwargs in fuzz_search's layout (small ints, floats as k/64, choices)."""
    from fuzz_search import FIELDS, STR_FIELDS, FLOAT_FIELDS
    out = b""
    for name in FIELDS:
        if name not in fields:
            out += b"\0"
            continue
        v = fields[name]
        out += b"\x01"
        if name in STR_FIELDS:
            out += b"\x01" + bytes([STR_FIELDS[name].index(v)])
        elif name in FLOAT_FIELDS:
            out += b"\x01\x01" + struct.pack("<H", int(round(v * 64)) + 32768)
        elif v <= 300:
            out += b"\x01" + struct.pack("<H", v)        # int_in(0, 300)
        else:
            out += b"\x04\x03" + struct.pack("<H", v + 1000)  # integer(): uint16 - 1000
    return out


def search_corpus():
    items = []
    for seed, flags, fields in (
            (1, 0, {}),
            (1, 0, dict(iterations=200, seed=3)),
            (2, 2 * 5, dict(iterations=100, threads=2, seed=1)),
            (3, 1, dict(iterations=150, rollout="random", reward="margin")),
            (4, 2 * 9, dict(iterations=120, rollout_cutoff=8, eval_scale=20.0, prior_weight=1.0)),
            (5, 32, dict(iterations=100, max_tree_size=2000, temperature=4.0)),
            (6, 64, dict(iterations=80, exploration=0.7, margin_weight=0.5, hero_cost=25.0, draw_value=2.0,
                         block_weight=1.0)),
            (7, 32 | 128, dict(iterations=50, threads=2)),
            (8, 2 * 15, dict(iterations=60, time_ms=20)),
            (9, 0, dict(iterations=0, time_ms=15)),
    ):
        items.append(bytes([seed, flags]) + _search_fields(**fields))
    return items


def score_corpus():
    rng = random.Random(5)
    boards = []
    for seed in range(6):
        pos, _ = walk(rosen.Position.new(seed=seed), rng.randrange(10, 120), rng)
        boards.append(np.asarray(pos.board, dtype=np.int8))
    items = []
    for n in (1, 2, 4):
        stack = np.stack(boards[:n])
        # int8, 3-d, n boards (a dimension byte b with b % 4 == 0 is b % 13 boards)
        dim = next(b for b in range(256) if b % 4 == 0 and b % 13 == n)
        items.append(bytes([0, 3, dim, 9, 9]) + stack.tobytes())
    items.append(bytes([0, 2, 9, 9]) + boards[3].tobytes())                 # one (9, 9) board
    items.append(bytes([6, 3 | 2 << 3, 32, 9, 9]) + np.stack(boards).tobytes())  # int64, 6 boards, transposed
    items.append(bytes([9, 3, 4, 9, 9]) + boards[0].tobytes())              # float32: TypeError
    items.append(bytes([0, 3 | 4 << 3, 28, 9, 9]) + np.stack(boards[:2]).tobytes())  # 2 boards, strided
    items.append(bytes([2, 3 | 8 << 3, 40, 9, 9]) + boards[2].tobytes())  # int16, nested lists
    return items


def lovagok_corpus():
    """Random inputs, kept when the call succeeded: a few per function."""
    import fuzz_lovagok as fl
    from _common import attempt as real_attempt

    rng = random.Random(7)
    items = []
    for index, (name, *_rest) in enumerate(fl.FUNCTIONS):
        if name in ("table.at", "table.view"):
            continue  # builds the whole table (a second); the fuzzer still reaches it
        found, tries = 0, 0
        while found < 3 and tries < 4000:
            tries += 1
            data = bytes([index]) + rng.randbytes(rng.randrange(4, 40))
            ok_calls = []

            def recording(fn, *a, **k):
                ok, res = real_attempt(fn, *a, **k)
                ok_calls.append(ok)
                return ok, res

            fl.attempt = recording
            try:
                fl.one_input(data)
            finally:
                fl.attempt = real_attempt
            if ok_calls and all(ok_calls):
                items.append(data)
                found += 1
    return items


def engine_corpus():
    sessions = [
        "ugi\nisready\nuginewgame\nposition startpos\ngo nodes 50\nquery legal\nquit",
        "position startpos seed 7 players 4\ngo nodes 30\nquery p1turn\nquery position",
        "setoption name Threads value 2\nsetoption name MultiPV value 3\nposition startpos seed 1\ngo nodes 60",
        "position startpos seed 1 moves NE2\nquery gameover\nquery result\ngo movetime 10",
        "position startpos\ngo infinite\nisready\nstop\nquery legal",
        "position startpos\ngo p1time 100 p2time 100 p1inc 5 p2inc 5",
        "setoption name Reshuffle value lazy\nsetoption name Seed value 42\nposition startpos\ngo",
        "position fen " + rosen.Position.new(seed=3).fen() + " moves draw\ngo nodes 20",
        "position fen " + rosen.Position.new(seed=3).fen(hide_pile_order=True) + "\nquery position",
        "go\nposition\nsetoption\nquery\nsetoption name Hash value 0\nfoo bar",
    ]
    rng = random.Random(3)
    pos, moves = walk(rosen.Position.new(seed=2), 30, rng)
    sessions.append("position startpos seed 2 moves " + " ".join(moves) + "\ngo nodes 40\nquery legal")
    return [b"\0" + s.encode() for s in sessions]


def regression_inputs():
    """The reproducers of the findings of issue 16 (docs/reliability.md), all fixed, kept in the
    corpora as named seeds (fuzz/corpus/<target>/<finding id>) so that every run checks them."""
    from _common import INTERESTING_FLOATS
    from fuzz_search import FIELDS
    fen = rosen.Position.new(seed=1).fen().encode()

    def search_float(name, v, **extra):
        out = bytes([1, 0])
        for field in FIELDS:
            if field == name:
                out += b"\x01\x01\x00" + bytes([INTERESTING_FLOATS.index(v)])
            elif field in extra:  # a small int field
                out += b"\x01\x01" + struct.pack("<H", extra[field])
            else:
                out += b"\0"
        return out

    board = np.zeros((9, 9), np.int8)
    board[4, 4] = 1
    return {
        "search": {"K1-temperature-1e-50": search_float("temperature", 1e-50, iterations=200),
                   "K1-draw-value-1e39": search_float("draw_value", 1e39, iterations=200),
                   "K1-eval-scale-1e-46": search_float("eval_scale", 1e-46, iterations=200, rollout_cutoff=1)},
        "position": {"K2-surrogate-move": b"\0\0" + fen + b"\nN\xff1",
                     "K5-unpickle-move-int-state": b"\0\x01\x01\x00\x01\x05" + fen},
        "score": {"K3-winners-single-board": bytes([0, 2, 9, 9]) + board.tobytes()},
        "lovagok": {"F1-result-further-zero": b"\x00\x00\x04\x00\x04\x00\x01\x00"},
    }


def main(argv=None) -> None:
    # No options; a parser so that --help (or a stray argument) explains instead of rewriting the corpus.
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    write("position", position_corpus())
    write("search", search_corpus())
    write("score", score_corpus())
    write("lovagok", lovagok_corpus())
    write("engine", engine_corpus())
    for target, files in regression_inputs().items():
        for name, data in files.items():
            with open(os.path.join(HERE, "corpus", target, name), "wb") as fh:
                fh.write(data)


if __name__ == "__main__":
    main()
