"""Self-play speed on one core: random-agent games per second (in memory, and written to shards),
and MCTS self-play iterations per second against plain searches of the same positions.

Run with `pytest bench/bench_selfplay.py --benchmark-only -s`. Speeds are reported (extra_info,
printed), never asserted: the machine is shared. A row is about 345 bytes (docs/selfplay.md;
visits alone are 200), a random game about 82 rows, so shards take about 28 KB per game.
"""
from __future__ import annotations

import itertools
import shutil

import numpy as np
import pytest

import rosen
from rosen import _core
from rosen.selfplay import generate, write_run

GAMES = 20_000
MCTS = "mcts:iterations=800"
MCTS_GAMES = 2
_runs = itertools.count()


def test_selfplay_random_games_per_second(benchmark):
    batch = benchmark.pedantic(generate, args=(GAMES,), kwargs=dict(agent="random", seed=1), rounds=3, iterations=1)
    assert len(batch.games) == GAMES and 60 * GAMES < batch.num_rows < 100 * GAMES
    rate = GAMES / benchmark.stats.stats.min
    benchmark.extra_info["games_per_second"] = rate
    print(f"\nrandom self-play in memory: {rate:,.0f} games/s ({batch.num_rows / GAMES:.0f} rows per game, "
          f"C++ generation alone {GAMES / batch.seconds:,.0f} games/s)")


def test_selfplay_random_to_shards_games_per_second(benchmark, tmp_path):
    def run():
        path = tmp_path / f"run{next(_runs)}"
        entries = write_run(path, GAMES, shard_games=1000, agent="random", seed=1, fsync=False)
        size = sum(p.stat().st_size for p in path.iterdir())
        shutil.rmtree(path)
        return entries, size

    entries, size = benchmark.pedantic(run, rounds=3, iterations=1)
    assert sum(e["games"] for e in entries) == GAMES and len(entries) == GAMES // 1000
    rate = GAMES / benchmark.stats.stats.min
    benchmark.extra_info["games_per_second"] = rate
    print(f"\nrandom self-play to uncompressed shards (1000 games each, sha256, no fsync): {rate:,.0f} games/s, "
          f"{size / GAMES / 1000:.1f} KB per game")


@pytest.fixture(scope="module")
def mcts_batch():
    return generate(MCTS_GAMES, agent=MCTS, seed=1)


def test_selfplay_mcts_iterations_per_second(benchmark, mcts_batch):
    batch = benchmark.pedantic(generate, args=(MCTS_GAMES,), kwargs=dict(agent=MCTS, seed=1), rounds=3, iterations=1)
    assert batch.rows["visits"].tobytes() == mcts_batch.rows["visits"].tobytes()
    rate = batch.iterations / benchmark.stats.stats.min
    outside = 1 - batch.search_seconds / batch.seconds
    benchmark.extra_info["iterations_per_second"] = rate
    benchmark.extra_info["share_outside_search"] = outside
    print(f"\nmcts self-play ({MCTS}): {rate:,.0f} iterations/s over the whole call, "
          f"{outside:.1%} of the C++ time outside Searcher::search")


def _decisions(batch):
    """(game start, position, stream) of every recorded decision, in order."""
    out = []
    for game in batch.games:
        pos = rosen.Position.new(game["seed"])
        first = True
        for ply, move in enumerate(game["moves"]):
            if len(pos.legal_moves()) > 1:
                out.append((first, pos, _core._selfplay_seeds(1, game["game"], ply)[1]))
                first = False
            pos = pos.play(move)
    return out


def test_plain_search_of_the_selfplay_positions(benchmark, mcts_batch):
    # The same searches as self-play makes (positions, budgets, streams, one tree per game),
    # called one by one: what self-play's iterations per second are compared with.
    decisions = _decisions(mcts_batch)
    searcher = _core._Searcher({"iterations": 800})

    def run():
        visits = []
        for first, pos, stream in decisions:
            if first:
                searcher.reset()
            result = searcher.search(pos, iterations=800, time_ms=0, stream=stream)
            visits.append(sum(v for _, v, *_ in result.moves))
        return visits

    visits = benchmark.pedantic(run, rounds=3, iterations=1)
    assert visits == mcts_batch.rows["visits"].sum(axis=1).tolist()
    rate = mcts_batch.iterations / benchmark.stats.stats.min
    benchmark.extra_info["iterations_per_second"] = rate
    assert np.all(mcts_batch.rows["full_search"])
    print(f"\nplain Searcher.search on the same {len(decisions)} positions: {rate:,.0f} iterations/s")
