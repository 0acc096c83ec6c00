"""One `go` of the engine protocol: the MCTS search run in slices, so that the engine can report
progress between slices and stop it at once.

The C++ searcher keeps its tree between calls (tree reuse), so a search of N iterations done as
several slices grows one tree. Each slice gets its own random stream. With an iteration budget
and no clock the slices are cut at fixed iteration counts, so that a fixed Seed, one thread and
``go nodes N`` give the same search every time (PROTOCOL.md); a clock only decides when to stop.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

from .. import _core
from .._core import Position
from ..search import SearchParams, iterations_per_second
from .protocol import CandidateInfo, Limits, SearchInfo

#: Iterations per slice of an iteration budget: a fraction of a second at tens of thousands of
#: iterations per second, so that progress lines come often enough.
ITERATION_SLICE = 2048
#: Milliseconds per slice of a clock or `infinite` search.
TIME_SLICE_MS = 100


@dataclass(frozen=True)
class SearchSnapshot:
    """The state of a search after some slices: the best move and what the `info` lines report."""

    best_move: str
    root: SearchInfo
    candidates: Tuple[CandidateInfo, ...]

    def info_lines(self, multipv: int) -> List[str]:
        """The root summary line, then one line per candidate (at most ``multipv``)."""
        return [self.root.format(), *(c.format() for c in self.candidates[:multipv])]


class SlicedSearch:
    """A persistent searcher (one per option set) that runs each `go` as a series of slices.

    ``run`` is called on the search thread; ``interrupt`` from any thread (the progress callback
    included) ends the running slice and the run, as ``stop`` does.
    """

    def __init__(self, *, threads: int, seed: int, max_tree_size: int, evaluator: Optional[Any] = None) -> None:
        # The search's own defaults for everything the engine has no option for; the network
        # (an Evaluator, EvalFile) guides the search if there is one.
        params = SearchParams(threads=threads, seed=seed, max_tree_size=max_tree_size)
        self.key: Tuple[int, int, int, Optional[Any]] = (threads, seed, max_tree_size, evaluator)
        self._interrupted = False
        self._core = _core._Searcher(params.as_dict(), network=evaluator._core if evaluator is not None else None)

    def run(self, position: Position, limits: Limits, stop: threading.Event,
            progress: Callable[[SearchSnapshot], None] = lambda s: None,
            started: Optional[float] = None) -> SearchSnapshot:
        """Search until a limit is reached or ``stop`` is set; ``progress`` sees every slice.
        ``started`` (``time.monotonic()``) is when the move's time began, if before this call.

        At least one slice runs, so a search stopped at once still returns a legal move.
        """
        # ``stop`` is the authority here; an interrupt left over from the last `go` must not
        # end this one's first slice.
        self._core.clear_stop()
        self._interrupted = False
        # Moving the kept tree to a new position is abandoned by a stop but does not watch the
        # clock: under a time limit it may take at most half of the move's time; by iterations
        # alone, or until `stop`, the tree is always kept.
        if limits.time_ms is not None:
            self._core.limit_reuse(limits.time_ms)
        start = time.monotonic() if started is None else started
        deadline = start + limits.time_ms / 1000.0 if limits.time_ms is not None else None
        done, depth_sum, seldepth, stream = 0, 0.0, 0, 0
        snapshot = None
        # An interrupt ends the run, not only its slice: called between slices (from `progress`),
        # it once stopped every later slice at its start, and a budget of iterations never filled.
        while stream == 0 or not (stop.is_set() or self._interrupted):
            iterations, time_ms = 0, 0
            if limits.iterations is not None:
                if done >= limits.iterations:
                    break
                iterations = min(limits.iterations - done, ITERATION_SLICE)
            if deadline is not None:
                left_ms = math.ceil((deadline - time.monotonic()) * 1000.0)
                if left_ms <= 0 and stream > 0:
                    break
                time_ms = min(max(left_ms, 1), TIME_SLICE_MS)
            elif limits.iterations is None:
                time_ms = TIME_SLICE_MS
            raw = self._core.search(position, iterations=iterations, time_ms=time_ms, stream=stream)
            stream += 1
            done += raw.iterations
            depth_sum += raw.depth * raw.iterations
            seldepth = max(seldepth, raw.seldepth)
            snapshot = _snapshot(position, raw, done, depth_sum, seldepth, (time.monotonic() - start) * 1000.0)
            progress(snapshot)
        assert snapshot is not None
        return snapshot

    def interrupt(self) -> None:
        """End the running slice within an iteration, and the run with it."""
        self._interrupted = True
        self._core.stop()

    def reset(self) -> None:
        """Forget the tree (a new game)."""
        self._core.reset()

    def __repr__(self) -> str:
        threads, seed, max_tree_size, evaluator = self.key
        with_network = f", evaluator={evaluator!r}" if evaluator is not None else ""
        return f"SlicedSearch(threads={threads}, seed={seed}, max_tree_size={max_tree_size}{with_network})"


def _snapshot(position: Position, raw, iterations: int, depth_sum: float, seldepth: int,
              time_ms: float) -> SearchSnapshot:
    candidates = tuple(CandidateInfo(multipv=k, move=m, visits=v, winrate=round(w, 4), score=round(s, 2),
                                     prior=round(p, 4), pv=tuple(line))
                       for k, (m, v, w, p, s, line) in enumerate(raw.moves, 1))
    # Stopped before the first iteration, the best move is the policy's favourite (the root is
    # expanded before any iteration). Without root moves at all, the first legal move keeps the
    # answer legal and reproducible.
    best = raw.best_move if candidates else str(position.legal_moves()[0])
    root = SearchInfo(depth=round(depth_sum / iterations, 2) if iterations else 0.0, seldepth=seldepth,
                      iterations=iterations, nps=round(iterations_per_second(iterations, time_ms)),
                      time_ms=round(time_ms), winrate=round(raw.winrate, 4), score=round(raw.score, 2),
                      tree_size=raw.tree_size, pv=tuple(raw.pv) if candidates else ())
    return SearchSnapshot(best_move=best, root=root, candidates=candidates)
