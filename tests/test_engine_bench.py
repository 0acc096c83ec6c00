"""`bench`: a deterministic signature pinned in tests/golden/engine_bench.txt.

A change of the signature is a change of behaviour (move generation, search, evaluation): if it
is meant, regenerate the golden file with `python tests/golden/regenerate.py` in its own commit.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import rosen
from engine_helpers import InProcessEngine
from rosen.engine.bench import BENCH_DEALS, BENCH_FENS, BENCH_PLIES, BENCH_ITERATIONS, fnv1a

GOLDEN = Path(__file__).parent / "golden" / "engine_bench.txt"


def test_bench_matches_the_golden_signature():
    eng = InProcessEngine()
    started = time.monotonic()
    assert eng.send("bench") == []  # on its own thread, as a search is (F68)
    assert eng.engine.wait(60)
    lines = eng.sink.lines
    assert time.monotonic() - started < 20  # about a second on one core; < 5 s is the aim
    summary = re.fullmatch(r"nodes (\d+) signature ([0-9a-f]{16}) nps (\d+)", lines[-1])
    assert summary, lines[-1]
    assert f"nodes {summary[1]} signature {summary[2]}\n" == GOLDEN.read_text()
    games = len(BENCH_DEALS) + len(BENCH_FENS)
    assert int(summary[1]) == (len(lines) - 1) * BENCH_ITERATIONS
    assert len(lines) - 1 <= games * BENCH_PLIES
    assert all(line.startswith("info string bench ") for line in lines[:-1])
    eng.close()


def test_bench_takes_no_arguments_and_changes_nothing():
    eng = InProcessEngine()
    eng.send("position startpos seed 4")
    assert eng.send("bench 5")[0].startswith("info string error: bench: takes no arguments")
    eng.send("bench")
    assert eng.send("query position")[0].endswith(" *")
    assert eng.engine.position.fen() == rosen.Position.new(4).hide_pile_order().fen()
    eng.close()


def test_fnv1a_known_values():
    # Published FNV-1a 64 test vectors.
    assert fnv1a(b"") == 0xCBF29CE484222325
    assert fnv1a(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a(b"foobar") == 0x85944171F73967E8
