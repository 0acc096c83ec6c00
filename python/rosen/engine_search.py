"""One `go` of the engine protocol: the MCTS search run in slices, so that the engine can report
progress between slices and stop it at once.

The C++ searcher keeps its tree between calls (tree reuse), so a search of N playouts done as
several slices grows one tree. Each slice gets its own random stream. With a playout budget and
no clock the slices are cut at fixed playout counts, so that a fixed Seed, one thread and
``go nodes N`` give the same search every time (PROTOCOL.md); a clock only decides when to stop.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from . import _core
from ._core import Position
from .search import SearchParams

#: Playouts per slice of a playout budget: a fraction of a second at tens of thousands of
#: playouts per second, so that progress lines come often enough.
NODE_SLICE = 2048
#: Milliseconds per slice of a clock or `infinite` search.
TIME_SLICE_MS = 100


@dataclass(frozen=True)
class Limits:
    """What ends a search: a playout budget, a time budget (ms), or neither (until `stop`)."""

    nodes: Optional[int] = None
    movetime: Optional[int] = None
    infinite: bool = False

    def __repr__(self) -> str:
        return f"Limits(nodes={self.nodes}, movetime={self.movetime}, infinite={self.infinite})"


@dataclass(frozen=True)
class MoveLine:
    """One root candidate, from the view of the side to move."""

    move: str
    visits: int
    winrate: float
    prior: float
    score: float
    pv: List[str] = field(default_factory=list)  #: this move's own line, cut at the first draw


@dataclass
class SearchSnapshot:
    """The state of a search after some slices: what an `info` line reports."""

    best_move: str
    moves: List[MoveLine]
    pv: List[str]
    depth: float = 0.0
    seldepth: int = 0
    playouts: int = 0
    tree: int = 0
    time_ms: float = 0.0
    winrate: float = 0.5
    score: float = 0.0

    @property
    def nps(self) -> float:
        """Playouts per second."""
        return self.playouts * 1000.0 / self.time_ms if self.time_ms > 0 else 0.0

    def info_lines(self, multipv: int) -> List[str]:
        """The root summary line, then one line per candidate (at most ``multipv``)."""
        pv = " ".join(self.pv)
        lines = [f"info depth {self.depth:.2f} seldepth {self.seldepth} nodes {self.playouts} nps {self.nps:.0f} "
                 f"time {self.time_ms:.0f} winrate {self.winrate:.4f} score {self.score:.2f} tree {self.tree} "
                 f"pv {pv}".rstrip()]
        for k, m in enumerate(self.moves[:multipv], 1):
            line_pv = " ".join(m.pv) or m.move
            lines.append(f"info multipv {k} move {m.move} visits {m.visits} winrate {m.winrate:.4f} "
                         f"score {m.score:.2f} prior {m.prior:.4f} pv {line_pv}")
        return lines

    def __repr__(self) -> str:
        return (f"SearchSnapshot(best_move={self.best_move!r}, playouts={self.playouts}, winrate={self.winrate:.3f}, "
                f"pv={' '.join(self.pv)!r})")


class SlicedSearch:
    """A persistent searcher (one per option set) that runs each `go` as a series of slices.

    ``run`` is called on the search thread; ``interrupt`` from any thread ends the running slice.
    """

    def __init__(self, *, threads: int, seed: int, max_nodes: int) -> None:
        # The search's own defaults for everything the engine has no option for. The C++
        # searcher is used directly: the Python Searcher has no per-call budget.
        params = SearchParams(threads=threads, seed=seed, max_nodes=max_nodes)
        self.key: Tuple[int, int, int] = (threads, seed, max_nodes)
        self._core = _core._Searcher(**params.as_dict())

    def run(self, position: Position, limits: Limits, stop: threading.Event,
            progress: Callable[[SearchSnapshot], None] = lambda s: None) -> SearchSnapshot:
        """Search until a limit is reached or ``stop`` is set; ``progress`` sees every slice.

        At least one slice runs, so a search stopped at once still returns a legal move.
        """
        start = time.monotonic()
        deadline = start + limits.movetime / 1000.0 if limits.movetime is not None else None
        playouts, depth_sum, seldepth, stream = 0, 0.0, 0, 0
        snapshot = None
        while stream == 0 or not stop.is_set():
            iterations, time_ms = 0, 0
            if limits.nodes is not None:
                if playouts >= limits.nodes:
                    break
                iterations = min(limits.nodes - playouts, NODE_SLICE)
            if deadline is not None:
                left_ms = math.ceil((deadline - time.monotonic()) * 1000.0)
                if left_ms <= 0 and stream > 0:
                    break
                time_ms = min(max(left_ms, 1), TIME_SLICE_MS)
            elif limits.nodes is None:
                time_ms = TIME_SLICE_MS
            raw = self._core.search(position, iterations=iterations, time_ms=time_ms, stream=stream)
            stream += 1
            playouts += raw.iterations
            depth_sum += raw.depth * raw.iterations
            seldepth = max(seldepth, raw.seldepth)
            snapshot = _snapshot(position, raw, playouts, depth_sum, seldepth, (time.monotonic() - start) * 1000.0)
            progress(snapshot)
        assert snapshot is not None
        return snapshot

    def interrupt(self) -> None:
        """End the running slice within an iteration (a no-op when none runs)."""
        self._core.stop()

    def reset(self) -> None:
        """Forget the tree (a new game)."""
        self._core.reset()

    def __repr__(self) -> str:
        threads, seed, max_nodes = self.key
        return f"SlicedSearch(threads={threads}, seed={seed}, max_nodes={max_nodes})"


def _snapshot(position: Position, raw, playouts: int, depth_sum: float, seldepth: int,
              time_ms: float) -> SearchSnapshot:
    moves = [MoveLine(m, v, w, p, s, list(line)) for (m, v, w, p, s), line in zip(raw.moves, raw.move_pvs)]
    # Stopped before the first playout, the best move is the policy's favourite (the root is
    # expanded before any playout). Without root moves at all, the first legal move keeps the
    # answer legal and reproducible.
    best = raw.best_move if moves else str(position.legal_moves()[0])
    return SearchSnapshot(best_move=best, moves=moves, pv=list(raw.pv) if moves else [],
                          depth=depth_sum / playouts if playouts else 0.0, seldepth=seldepth, playouts=playouts,
                          tree=raw.nodes, time_ms=time_ms, winrate=raw.winrate, score=raw.score)
