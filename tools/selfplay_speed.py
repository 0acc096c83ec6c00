"""The speed figures of docs/selfplay.md: games per hour per core at 100, 800 and 3200
iterations, random-agent games per second in memory and to shards, the 2-thread speed-up, and
the Ray backend's overhead against the local one (a local Ray instance of 2 CPUs; needs the
rosen[ray] extra). The recording overhead is bench/bench_selfplay.py's.

    python tools/selfplay_speed.py            # about 15 s on two cores
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import statistics
import tempfile
import time

import rosen.selfplay as sp


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(argv=None) -> int:
    description = " ".join(__doc__.split("\n\n")[0].split())
    argparse.ArgumentParser(description=description).parse_args(argv)  # --help; no options
    try:
        import ray  # the rosen[ray] extra, for the last figure: checked before the others run
    except ImportError:
        print('selfplay_speed: the Ray figure needs Ray: pip install "rosen[ray]"', file=sys.stderr)
        return 2
    for iterations, games in ((100, 40), (800, 10), (3200, 4)):
        seconds, batch = timed(lambda: sp.generate(games, seed=1, agent=f"mcts:iterations={iterations}"))
        print(f"mcts:iterations={iterations}: {3600 * games / seconds:,.0f} games/hour/core, "
              f"{batch.num_rows / games:.0f} rows/game, {batch.iterations / batch.search_seconds:,.0f} iterations/s")
    # The first batch of a process also pays the kernel for mapping its rows' ~560 MB (about a
    # third of the speed); the figure is a warm one: the median of three batches after it.
    sp.generate(20_000, seed=1, agent="random")
    runs = []
    for _ in range(3):  # each batch is dropped before the next, so its memory is reused
        wall, batch = timed(lambda: sp.generate(20_000, seed=1, agent="random"))
        runs.append((wall, batch.seconds))
        del batch
    seconds = statistics.median(r[0] for r in runs)
    generation = statistics.median(r[1] for r in runs)
    print(f"random agent in memory: {20_000 / seconds:,.0f} games/s on one thread, warm "
          f"(C++ generation alone: {20_000 / generation:,.0f})")
    directory = tempfile.mkdtemp()
    try:
        seconds, _ = timed(lambda: sp.write_run(directory + "/random", 20_000, shard_games=1000, agent="random",
                                                fsync=False))
        print(f"random agent to uncompressed shards: {20_000 / seconds:,.0f} games/s on one thread")
        ratios = []
        for _ in range(3):
            one, _ = timed(lambda: sp.generate(16, seed=2, agent="mcts:iterations=400", threads=1))
            two, _ = timed(lambda: sp.generate(16, seed=2, agent="mcts:iterations=400", threads=2))
            ratios.append(one / two)
        print(f"2 threads against 1: {statistics.median(ratios):.2f}x (median of 3)")
        # Ray starts its workers at nice 15; on a machine with other work they would measure that
        # work, not Ray's overhead.
        os.environ.setdefault("RAY_worker_niceness", "0")

        kw = dict(games=40, shard_games=10, seed=3, agent="mcts:iterations=200", fsync=False)
        local, _ = timed(lambda: sp.write_run(directory + "/local", threads=2, **kw))
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        first, _ = timed(lambda: sp.write_run(directory + "/ray1", backend="ray", **kw))
        warm, _ = timed(lambda: sp.write_run(directory + "/ray2", backend="ray", **kw))
        same = (open(directory + "/local/manifest.jsonl").read() == open(directory + "/ray2/manifest.jsonl").read())
        print(f"40 games x 200 iterations in 4 shards: local (2 threads) {local:.2f} s, Ray {first:.2f} s "
              f"(first run) and {warm:.2f} s; identical manifests: {same}")
        ray.shutdown()
    finally:
        shutil.rmtree(directory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
