"""`bench`: a fixed, deterministic workload whose signature changes only when behaviour changes.

Five seeded deals (three 2-player, two 4-player) and a middle-game position with heroes are each
played for a few plies by the engine against itself, one thread, seed 0, a fixed iteration budget
per move, with tree reuse as in a game. The signature is a 64-bit FNV-1a hash of every search's chosen move, root visit counts
and tree size: any change in move generation, search or evaluation shows in it. ``nodes`` (the
iterations, as the protocol calls them) is fixed by the workload; ``nps`` is the only figure
that depends on the machine.
"""
from __future__ import annotations

import threading
import time
from typing import List, NamedTuple, Tuple

from .._core import Position
from ..search import iterations_per_second
from .options import hash_tree_size
from .protocol import Limits
from .search import SlicedSearch

#: (players, deal seed) of the bench games.
BENCH_DEALS: Tuple[Tuple[int, int], ...] = ((2, 1), (2, 2), (2, 3), (4, 1), (4, 2))
#: A middle game where heroes can strike, its pile of unknown order (plain draws come from seed 0).
BENCH_FENS: Tuple[str, ...] = ("9/9/2ww5/2rwr4/3rw4/4r4/9/9/9 e5 w N1,E1,S2 S1,W1,NE1 4 3 - *",)
BENCH_PLIES = 8
BENCH_ITERATIONS = 1000

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3


def fnv1a(data: bytes, h: int = _FNV_OFFSET) -> int:
    """64-bit FNV-1a of ``data``, continuing from ``h``."""
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


class BenchResult(NamedTuple):
    """What `bench` measured: one line per search, the totals and the signature."""

    lines: List[str]
    iterations: int
    signature: int
    seconds: float

    @property
    def nps(self) -> float:
        """Iterations per second over the whole workload (0 if no time was measured)."""
        return iterations_per_second(self.iterations, self.seconds * 1000.0)

    def summary(self) -> str:
        """The last line of `bench` (PROTOCOL.md: ``nodes`` is the protocol's word for iterations)."""
        return f"nodes {self.iterations} signature {self.signature:016x} nps {self.nps:.0f}"


def bench() -> BenchResult:
    """Run the bench workload."""
    lines: List[str] = []
    iterations, signature = 0, _FNV_OFFSET
    never = threading.Event()
    start = time.monotonic()
    games = [(f"players {p} seed {s}", Position.new(s, players=p)) for p, s in BENCH_DEALS]
    games += [(f"fen {k}", Position(text)) for k, text in enumerate(BENCH_FENS)]
    for name, position in games:
        searcher = SlicedSearch(threads=1, seed=0, max_tree_size=hash_tree_size(32, 1))
        for ply in range(BENCH_PLIES):
            if position.is_terminal:
                break
            snap = searcher.run(position, Limits(iterations=BENCH_ITERATIONS), never)
            visits = " ".join(f"{c.move}:{c.visits}" for c in snap.candidates)
            record = f"{position.fen(hide_pile_order=True)} {snap.best_move} {visits} tree {snap.root.tree_size}"
            signature = fnv1a(record.encode() + b"\n", signature)
            iterations += snap.root.iterations
            lines.append(f"info string bench {name} ply {ply} bestmove {snap.best_move} "
                         f"nodes {snap.root.iterations} tree {snap.root.tree_size}")
            # A deal's pile order is known, so a plain draw takes its top card; a '*' pile deals
            # from the position's seed. Either way the game is deterministic.
            position = position.play(snap.best_move)
    return BenchResult(lines, iterations, signature, time.monotonic() - start)


def run_bench() -> List[str]:
    """The lines `bench` writes, the summary last."""
    result = bench()
    return [*result.lines, result.summary()]
