"""The rules core's fast paths, each benchmark asserting what it computed (never a speed floor):

- the dedicated random play-out loop in its 4-player, lazy-reshuffle form (the 2-player eager form
  is bench_playout.py), against totals pinned from commit 4e9f30e (the generic loop);
- batch scoring where the whole-board removal of single squares, pairs and triples does almost
  everything (sparse boards) and where flood fills do (dense boards), against scipy.

Run: pytest bench/bench_fast_paths.py --benchmark-only
"""
from __future__ import annotations

import numpy as np
import pytest
from bench_territory import scipy_scores

import rosen


def test_random_play_four_players_lazy(benchmark):
    stats = benchmark.pedantic(rosen.random_play, args=(200_000,),
                               kwargs=dict(seed=7, players=4, reshuffle="lazy", threads=1), rounds=2, iterations=1)
    benchmark.extra_info["games_per_second"] = 200_000 / benchmark.stats.stats.min
    # tests/test_randomplay_pinned.py: the same totals as the generic loop of 4e9f30e.
    assert (stats.red_wins, stats.white_wins, stats.draws, stats.plies, stats.blockades) == (
        106095, 93594, 311, 24312947, 53478)


def _boards(density: float, n: int = 10_000) -> np.ndarray:
    rng = np.random.default_rng(42)
    return rng.choice(np.array([0, 1, 2], dtype=np.int8), size=(n, 9, 9),
                      p=[1 - density, density / 2, density / 2])


@pytest.mark.parametrize("density", [0.4, 0.95], ids=["sparse", "dense"])
def test_batch_scoring_by_density(benchmark, density):
    boards = _boards(density)
    result = benchmark(rosen.score_boards, boards)
    benchmark.extra_info["boards_per_second"] = len(boards) / benchmark.stats.stats.mean
    assert (result.score[:300] == scipy_scores(boards[:300])).all()
    assert (result.tokens.sum(axis=1) == (boards != 0).sum(axis=(1, 2))).all()
