"""The search keeps to its time while its tree grows (a ratio within one run, not a threshold in
milliseconds: the machine's speed does not matter, only how the slowest search compares)."""
from __future__ import annotations

import statistics
import time

import rosen

BUDGET_MS = 20
CROSSED = 4_300_000  # past 4 194 304 nodes, where the tree's arena once doubled


def test_a_growing_tree_does_not_stall_a_search():
    # The arena grew by doubling, copying the whole tree inside one iteration where neither the
    # clock nor `stop` is looked at: the search that carried the tree past 4 M nodes took 148 ms
    # of a 20 ms budget (past 8 M: 230-280 ms; past 33 M: 1.1 s), a move answered past its clock.
    searcher = rosen.Searcher(rosen.SearchParams(max_tree_size=20_000_000), evaluator="builtin")
    position = rosen.Position.new(1)
    took, started = [], time.monotonic()
    while True:
        t = time.perf_counter()
        result = searcher.search(position, time_ms=BUDGET_MS)  # the same position: the tree is kept
        took.append((time.perf_counter() - t) * 1000)
        if result.tree_size > CROSSED:
            break
        assert time.monotonic() - started < 240, f"the tree reached only {result.tree_size} nodes"
    assert max(took) < 4 * statistics.median(took), (max(took), statistics.median(took), len(took))
