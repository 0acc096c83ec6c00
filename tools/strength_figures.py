#!/usr/bin/env python3
"""The measurements and pictures of docs/strength.md and docs/search.md, in one command.

    # the published curves, and the small example
    python tools/strength_figures.py --preset full --out runs/figures --img docs/img --threads 2
    python tools/strength_figures.py --preset small --out /tmp/figures --img docs/img

Three steps, each a plain `rosen bench` / `rosen strength` command (printed before it runs, so
any one can be rerun by hand):

1. depth, speed and solve rate against budget over the whole suite, default search against
   plain UCT (:data:`UCT`: random rollouts to the end), ``rosen bench --compare``;
2. speed against search threads (``rosen bench --threads``);
3. Elo against iterations for the default search and UCT against ``mcts:iterations=1000``
   (``rosen strength``). The ladder resumes: stopping and rerunning the same command loses no
   finished pair.

Reports go to ``--out`` (JSON, CSV, the ladder's JSON lines), pictures to ``--img`` (default
``OUT/img``; ``--img docs/img`` replaces the committed pictures the docs show).
"""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import List

from rosen.cli import main as rosen

#: Plain UCT, as docs/search.md means it: random rollouts to the end, no implicit minimax.
UCT = "mcts:rollout=random,rollout_cutoff=0,minimax_weight=0"
PRESETS = {
    "full": {"bench": "100,1000,10000,100000", "positions": None, "threads_budget": "100000",
             "threads": "1,2,4,8", "threads_positions": "40", "ladder": "100,300,1000,3000,10000,30000,100000",
             "games": "200"},
    "small": {"bench": "100,1000,10000", "positions": None, "threads_budget": "10000", "threads": "1,2",
              "threads_positions": "20", "ladder": "100,300,1000", "games": "40"},
}


def commands(preset: str, out: Path, img: Path, threads: int, seed: int) -> List[List[str]]:
    p = PRESETS[preset]
    suffix = "" if preset == "full" else "_small"
    positions = ["--positions", p["positions"]] if p["positions"] else []
    return [
        ["bench", "--compare", "mcts", UCT, "--iterations", p["bench"], *positions,
         "--json", str(out / "bench.json"), "--csv", str(out / "bench.csv"),
         "--plot", str(img / f"bench_depth{suffix}.png")],
        ["bench", "mcts", "--iterations", p["threads_budget"], "--threads", p["threads"],
         "--positions", p["threads_positions"], "--json", str(out / "threads.json"),
         "--plot", str(img / f"bench_threads{suffix}.png")],
        ["strength", "mcts", UCT, "--anchor", "mcts:iterations=1000", "--iterations", p["ladder"],
         "--games", p["games"], "--seed", str(seed), "--threads", str(threads), "--out", str(out / "ladder"),
         "--json", str(out / "ladder.json"), "--plot", str(img / f"elo_vs_iterations{suffix}.png")],
    ]


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), default="small")
    parser.add_argument("--out", default="runs/figures", help="directory of the reports (default runs/figures)")
    parser.add_argument("--img",
                        help="directory of the pictures (default OUT/img; docs/img replaces the committed ones)")
    parser.add_argument("--threads", type=int, default=2, help="games played at once by the ladder (default 2)")
    parser.add_argument("--seed", type=int, default=70000, help="first deal seed of the ladder (default 70000)")
    parser.add_argument("--steps", default="1,2,3", help="which steps to run (default all: 1,2,3)")
    args = parser.parse_args(argv)
    try:
        steps = {int(s) for s in args.steps.split(",")}
    except ValueError:
        steps = set()
    if not steps or not steps <= {1, 2, 3}:
        parser.error(f"--steps: expected step numbers 1, 2 or 3 separated by commas, got {args.steps!r}")
    out = Path(args.out)
    img = Path(args.img) if args.img else out / "img"
    # Step 3's options are checked before step 1 runs (minutes with --preset full).
    from rosen.errors import MAX_SEED

    if not 1 <= args.threads <= 256:
        parser.error(f"--threads: expected 1..256, got {args.threads}")
    if not 0 <= args.seed <= MAX_SEED // 2:
        parser.error(f"--seed: expected 0..{MAX_SEED // 2}, got {args.seed}")
    for option, path in (("--out", out), ("--img", img)):
        if path.exists() and not path.is_dir():
            parser.error(f"{option}: {str(path)!r} is a file, not a directory")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"{option}: cannot make {str(path)!r}: {exc.strerror}")
    for number, command in enumerate(commands(args.preset, out, img, args.threads, args.seed), 1):
        if number not in steps:
            continue
        print(f"== step {number}: rosen {shlex.join(command)}", flush=True)
        code = rosen(command)
        if code not in (0, 1):  # 1: some search failed, reported above; the other steps still run
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
