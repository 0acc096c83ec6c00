"""Learned evaluation speed (docs/learning.md): the C++ evaluator against the NumPy reference on
the same positions, and a search guided by a network against the heuristic search.

Run: pytest bench/bench_network.py --benchmark-only -s

Each benchmark asserts its result, so a broken fast path cannot look fast; speeds and ratios are
printed (and kept in ``extra_info``), never asserted: the machine is shared. The ratios are
taken within one run, so that both sides see the same machine load. The network is
random_network((128, 64)): its speed does not depend on what it learned.
"""
from __future__ import annotations

import random
import time

import numpy as np
import pytest

import rosen
from rosen.encoding import action_index
from rosen.learning import Evaluator, forward_numpy, random_network

NET = random_network(hidden=(128, 64), seed=0)
BATCH1 = 2000          # positions evaluated one call each
SEARCH_ITERATIONS = 20_000
#: Seconds per position, filled by the benchmarks of this module for the same-run ratios.
_seconds: dict = {}


@pytest.fixture(scope="module")
def reference_inputs(positions):
    """The NumPy reference's inputs, computed once (not timed): flat features and legal masks."""
    mask = np.zeros((len(positions), 50), dtype=bool)
    for i, pos in enumerate(positions):
        for move in pos.legal_moves():
            mask[i, action_index(move)] = True
    return rosen.encode(positions, layout="flat"), mask


def _report(benchmark, key: str, count: int, label: str) -> None:
    seconds = benchmark.stats.stats.min / count
    _seconds[key] = seconds
    benchmark.extra_info["positions_per_second"] = 1.0 / seconds
    print(f"\n{label}: {1.0 / seconds:,.0f} positions/s ({seconds * 1e6:.2f} us each)")


def test_cpp_evaluate_batch1(benchmark, positions):
    # One position per call, from Python: the engine's use (the search calls C++ directly).
    ev = Evaluator(NET)
    sample = positions[:BATCH1]

    def run():
        return [ev.evaluate(p).value for p in sample]

    values = benchmark.pedantic(run, rounds=5, iterations=1)
    assert len(values) == BATCH1 and all(0.0 <= v <= 1.0 for v in values)
    _report(benchmark, "cpp_batch1", BATCH1, "C++ evaluator, batch 1 (one Python call a position)")


def test_cpp_evaluate_10k_in_one_call(benchmark, positions):
    # Each position is still evaluated alone (no batched matrix product): the C++ cost itself.
    ev = Evaluator(NET)
    out = benchmark.pedantic(ev.evaluate, args=(positions,), rounds=5, iterations=1)
    assert out.policy.shape == (len(positions), 50)
    np.testing.assert_allclose(out.policy.sum(axis=1), 1, atol=1e-5)
    _report(benchmark, "cpp_10k", len(positions), "C++ evaluator, 10 000 positions in one call")


def test_numpy_reference_batch1(benchmark, positions, reference_inputs):
    features, mask = reference_inputs
    rows = range(BATCH1)

    def run():
        return [forward_numpy(NET, features[i], mask[i])[1] for i in rows]

    wdl = benchmark.pedantic(run, rounds=3, iterations=1)
    assert len(wdl) == BATCH1
    _report(benchmark, "numpy_batch1", BATCH1, "NumPy reference, batch 1 (features precomputed)")
    cpp = Evaluator(NET).evaluate(positions[:BATCH1])
    np.testing.assert_allclose(np.stack(wdl), cpp.wdl, atol=1e-5)
    if "cpp_batch1" in _seconds:
        ratio = _seconds["numpy_batch1"] / _seconds["cpp_batch1"]
        benchmark.extra_info["cpp_speedup"] = ratio
        print(f"C++ / NumPy reference at batch 1, same run: {ratio:.1f}x")


def test_numpy_reference_10k_batched(benchmark, positions, reference_inputs):
    features, mask = reference_inputs
    policy, _, _ = benchmark.pedantic(forward_numpy, args=(NET, features, mask), rounds=3, iterations=1)
    assert policy.shape == (len(positions), 50)
    _report(benchmark, "numpy_10k", len(positions), "NumPy reference, 10 000 positions batched (BLAS)")
    if "cpp_10k" in _seconds:
        ratio = _seconds["numpy_10k"] / _seconds["cpp_10k"]
        benchmark.extra_info["cpp_speedup"] = ratio
        print(f"C++ (one position at a time) / NumPy batched, same run: {ratio:.1f}x")


def _search_rate(positions, **kwargs) -> float:
    iterations, seconds = 0, 0.0
    for pos in positions:
        start = time.perf_counter()
        result = rosen.search(pos, iterations=SEARCH_ITERATIONS, seed=1, **kwargs)
        seconds += time.perf_counter() - start
        assert result.iterations == SEARCH_ITERATIONS and result.best_move in pos.legal_moves()
        iterations += result.iterations
    return iterations / seconds


@pytest.fixture(scope="module")
def search_positions(positions) -> list:
    """The 2-player start and positions 10, 30, 50 and 70 plies into seeded games."""
    out = [rosen.Position.new(seed=1)]
    for plies in (10, 30, 50, 70):
        pos = rosen.Position.new(seed=plies)
        rng = random.Random(plies)
        for _ in range(plies):
            pos = pos.play(rng.choice(pos.legal_moves()))
        out.append(pos)
    assert not any(p.is_terminal for p in out)
    return out


def test_network_search_against_heuristic_search(benchmark, search_positions):
    evaluator = Evaluator(NET)

    def run():
        return _search_rate(search_positions), _search_rate(search_positions, evaluator=evaluator)

    heuristic, guided = benchmark.pedantic(run, rounds=3, iterations=1)
    ratio = guided / heuristic
    benchmark.extra_info.update(heuristic_iterations_per_second=heuristic, network_iterations_per_second=guided,
                                ratio=ratio)
    print(f"\nsearch iterations/s: heuristic rollouts {heuristic:,.0f}, network (128, 64) {guided:,.0f}: "
          f"{ratio:.0%} of the heuristic's")
