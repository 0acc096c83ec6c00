"""Random playouts (fresh seeded deal, uniformly random legal moves to the end, scored) and move
generation + apply, on one core.

Run: pytest bench --benchmark-only
"""
from __future__ import annotations

import rosen

GAMES = 100_000


def test_random_games_per_second_one_core(benchmark):
    stats = benchmark.pedantic(rosen.random_play, args=(GAMES,), kwargs=dict(seed=1, threads=1), rounds=3,
                               iterations=1)
    benchmark.extra_info["games_per_second"] = GAMES / benchmark.stats.stats.min
    assert stats.games == GAMES and stats.red_wins + stats.white_wins + stats.draws == GAMES
    assert 100 < stats.mean_plies < 130


def test_random_games_per_second_two_threads(benchmark):
    stats = benchmark.pedantic(rosen.random_play, args=(GAMES,), kwargs=dict(seed=1, threads=2), rounds=3,
                               iterations=1)
    benchmark.extra_info["games_per_second"] = GAMES / benchmark.stats.stats.min
    assert stats.games == GAMES


def test_movegen_and_apply_perft(benchmark):
    # perft is move generation + apply (+ the R9 check) at every node, nothing else.
    pos = rosen.Position.new(seed=0).hide_pile_order()
    nodes = benchmark(pos.perft, 5)
    benchmark.extra_info["leaves_per_second"] = nodes / benchmark.stats.stats.min
    assert nodes == pos.perft(5) == 38_981  # the golden count (tests/golden/perft.json has depth 4)
