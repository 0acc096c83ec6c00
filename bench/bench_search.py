"""Search speed: iterations per second on one core from the 2-player start position (and the
team game's, for its rollouts).

Run with `pytest bench/bench_search.py --benchmark-only`. Each benchmark asserts its result, so
a broken fast path cannot look fast; speeds are reported (``extra_info``, printed with ``-s``),
never asserted: the machine is shared. Speed-ups are measured side by side with
bench/compare_commits.py.
"""
from __future__ import annotations

import rosen
from rosen.search import NODE_BYTES

START = rosen.Position.new(seed=1)
ITERATIONS = 100_000


def _search(rollout: str, threads: int = 1) -> rosen.SearchResult:
    return rosen.search(START, iterations=ITERATIONS, rollout=rollout, seed=1, threads=threads)


def test_search_random_rollouts_speed(benchmark):
    result = benchmark.pedantic(_search, args=("random",), rounds=3, iterations=1)
    assert result.iterations == ITERATIONS
    assert START.is_legal(result.best_move)
    assert ITERATIONS < result.tree_size <= 4 * ITERATIONS
    best_rate = ITERATIONS / benchmark.stats.stats.min
    benchmark.extra_info["iterations_per_second"] = best_rate
    print(f"\nrandom rollouts: {best_rate:,.0f} iterations/s, {result.tree_size} nodes of {NODE_BYTES} bytes")


def test_search_heuristic_rollouts_speed(benchmark):
    result = benchmark.pedantic(_search, args=("heuristic",), rounds=3, iterations=1)
    assert result.iterations == ITERATIONS
    assert START.is_legal(result.best_move)
    best_rate = ITERATIONS / benchmark.stats.stats.min
    benchmark.extra_info["iterations_per_second"] = best_rate
    print(f"\nheuristic rollouts: {best_rate:,.0f} iterations/s")


TEAM_START = rosen.Position.new(seed=1, players=4)
TEAM_ITERATIONS = 30_000


def _team_search() -> rosen.SearchResult:
    # The heuristic policy's rollouts to the end in the team game: the rollout half of the team
    # game's network search, measured without the network.
    return rosen.search(TEAM_START, iterations=TEAM_ITERATIONS, rollout_cutoff=0, seed=1)


def test_search_team_rollouts_speed(benchmark):
    result = benchmark.pedantic(_team_search, rounds=3, iterations=1)
    assert result.iterations == TEAM_ITERATIONS
    assert TEAM_START.is_legal(result.best_move)
    best_rate = TEAM_ITERATIONS / benchmark.stats.stats.min
    benchmark.extra_info["iterations_per_second"] = best_rate
    print(f"\nteam game, heuristic rollouts to the end: {best_rate:,.0f} iterations/s")


def test_search_random_rollouts_two_threads(benchmark):
    # Root parallelism on 2 threads; reported, never asserted faster (the machine is shared).
    result = benchmark.pedantic(_search, args=("random", 2), rounds=3, iterations=1)
    assert result.iterations == ITERATIONS and START.is_legal(result.best_move)
    print(f"\nrandom rollouts, 2 threads: {ITERATIONS / benchmark.stats.stats.min:,.0f} iterations/s")
