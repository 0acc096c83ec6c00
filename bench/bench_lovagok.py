"""Lovagok speed: run with ``pytest bench/bench_lovagok.py --benchmark-only``.

Each benchmark checks its answer (so a broken fast path cannot look fast) and its budget.
"""
import threading
import time

import numpy as np

from rosen import lovagok as lv
from rosen._core import lovagok as core

P_BEAT_3332 = 0.5991674554517  # 6 dice, 2 re-rolls; cross-checked by tests against simulation


def test_p_beat_6_dice_2_rerolls(benchmark):
    """A single exact p_beat through the public API: budget 0.2 ms."""
    p = benchmark(lv.p_beat, "3332", rerolls=2, dice=6)
    assert abs(p - P_BEAT_3332) < 1e-12
    assert benchmark.stats.stats.median < 0.2e-3


def test_p_beat_core_6_dice_2_rerolls(benchmark):
    """The compiled call alone, without parsing."""
    rank = lv.Result.parse("3332").rank
    p = benchmark(core.p_beat, rank, 2, 6, 0)
    assert abs(p - P_BEAT_3332) < 1e-12


def test_complete_table(benchmark):
    """All 166 targets x re-rolls 0..3 x dice 0..6 x all 32 dice-card sets, one core: budget 3 s."""
    t = benchmark.pedantic(lv.table, rounds=3, iterations=1)
    assert t.p.shape == (32, 4, 7, lv.NUM_RESULTS)
    assert abs(t.at("3332") - P_BEAT_3332) < 1e-12
    assert np.all(np.diff(t.p, axis=1) >= -1e-12)
    assert benchmark.stats.stats.max < 3.0


def test_table_releases_the_gil(benchmark):
    """While one thread builds the table, another Python thread keeps running."""

    def build_and_count():
        ticks = 0
        done = threading.Event()
        worker = threading.Thread(target=lambda: (core.beat_table(), done.set()))
        worker.start()
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)
        worker.join()
        return ticks

    ticks = benchmark.pedantic(build_and_count, rounds=1, iterations=1)
    # With the GIL held the main thread would get ~1 tick; released it ticks every millisecond.
    assert ticks > 20


def test_castle_attack(benchmark):
    """Two attacker solves and two distributions; the defender's row (~8 ms) is cached after the first call."""
    attack = benchmark(lv.attack_castle, "3332")
    assert attack.p_take > attack.p_take_naive


def test_tournament_6_players(benchmark):
    """Five later players x 166 leaders, each a solve plus a distribution."""
    t = benchmark.pedantic(lv.tournament, args=(6,), kwargs=dict(champion=3), rounds=3, iterations=1)
    assert abs(t.p_win.sum() - 1) < 1e-12
