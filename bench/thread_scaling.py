#!/usr/bin/env python3
"""Two threads against one: random play and the search, in wall-clock time and in CPU time.

On a shared machine the wall-clock speed-up of a second thread depends on what else runs, so
the figure that says whether the code scales is measured in CPU time: the work done per CPU
second with two threads against one (``process_time`` counts every thread of the process).
``cpu_speedup = 2 * (work per CPU second, 2 threads) / (work per CPU second, 1 thread)`` is what
two threads would give on two free cores; 2.0 is perfect scaling. Reported, never asserted.

    python bench/thread_scaling.py            # about a minute
    python bench/thread_scaling.py --json
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

import rosen
from rosen.agents.spec import UCT_PARAMS


def measure(work, threads: int) -> tuple:
    """(work units per wall second, per CPU second) of one run of ``work(threads)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    units = work(threads)
    return units / (time.perf_counter() - wall), units / (time.process_time() - cpu)


def random_games(threads: int) -> int:
    return rosen.random_play(200_000, seed=3, threads=threads).games


def default_search(threads: int) -> int:
    return rosen.search(rosen.Position.new(seed=1), iterations=400_000, threads=threads, seed=1).iterations


def uct_search(threads: int) -> int:
    # Plain UCT as the `uct` agent plays it: random rollouts to the end, no implicit minimax.
    return rosen.search(rosen.Position.new(seed=1), iterations=200_000, threads=threads, seed=1,
                        **UCT_PARAMS).iterations


WORKS = {"random games": random_games, "default search": default_search, "plain UCT": uct_search}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3, help="alternating repetitions (default 3)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error(f"--reps: expected >= 1, got {args.reps}")
    rows = {}
    for name, work in WORKS.items():
        runs = {1: [], 2: []}
        for _ in range(args.reps):
            for threads in (1, 2):
                runs[threads].append(measure(work, threads))
        wall1, cpu1 = (statistics.median(r[i] for r in runs[1]) for i in (0, 1))
        wall2, cpu2 = (statistics.median(r[i] for r in runs[2]) for i in (0, 1))
        rows[name] = {"one_thread_per_s": wall1, "two_threads_per_s": wall2, "wall_speedup": wall2 / wall1,
                      "cpu_speedup": 2 * cpu2 / cpu1}
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| work | 1 thread /s | 2 threads /s | wall-clock speed-up | CPU-time speed-up |")
    print("|---|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {r['one_thread_per_s']:,.0f} | {r['two_threads_per_s']:,.0f} | {r['wall_speedup']:.2f}x | "
              f"{r['cpu_speedup']:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
