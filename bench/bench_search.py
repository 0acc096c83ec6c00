"""Search speed: iterations per second on one core from the 2-player start position.

Run with `pytest bench/bench_search.py --benchmark-only`. Each benchmark asserts its result, so
a broken fast path cannot look fast. Thresholds are for an optimised build (the default).
"""
from __future__ import annotations

import rosen
from rosen.search import NODE_BYTES

START = rosen.Position.new(seed=1)
ITERATIONS = 100_000


def _search(rollout: str) -> rosen.SearchResult:
    return rosen.search(START, iterations=ITERATIONS, rollout=rollout, seed=1, threads=1)


def test_search_random_rollouts_speed(benchmark):
    result = benchmark.pedantic(_search, args=("random",), rounds=3, iterations=1)
    assert result.iterations == ITERATIONS
    assert START.is_legal(result.best_move)
    best_rate = ITERATIONS / benchmark.stats.stats.min
    print(f"\nrandom rollouts: {best_rate:,.0f} iterations/s, {result.nodes} nodes of {NODE_BYTES} bytes")
    assert best_rate >= 200_000, f"{best_rate:,.0f} iterations/s, expected at least 200,000"


def test_search_heuristic_rollouts_speed(benchmark):
    result = benchmark.pedantic(_search, args=("heuristic",), rounds=3, iterations=1)
    assert result.iterations == ITERATIONS
    assert START.is_legal(result.best_move)
    best_rate = ITERATIONS / benchmark.stats.stats.min
    print(f"\nheuristic rollouts: {best_rate:,.0f} iterations/s")
    assert best_rate >= 30_000
