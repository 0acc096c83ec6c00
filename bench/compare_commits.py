#!/usr/bin/env python3
"""Side-by-side speed of two versions of rosen on this machine, in one run.

Builds an old commit (default 4e9f30e) and the current working tree (tracked files plus
untracked files git does not ignore, uncommitted changes included) into two temporary
directories, then times both in alternating subprocesses, so that both see the same machine
load, and prints per benchmark the median of the paired ratios new/old with their min and max:

- random games per second, one thread (``rosen.random_play(games, seed, threads=1)``);
- batch scoring of 10 000 end-of-game boards (``rosen.score_boards``; the boards of
  bench/conftest.py: 2 000 seeded games played to the end, tiled five times);
- plain UCT's iterations per second: random rollouts played to the end, no implicit minimax
  (``rosen.search(pos, iterations=N, rollout="random", rollout_cutoff=0, minimax_weight=0,
  seed=...)`` -> ``.nps``; ``rollout_cutoff=0`` and ``minimax_weight=0`` because the defaults
  changed after 4e9f30e; ``minimax_weight`` is passed only to versions that have it);
- the default search's iterations per second (``rosen.search(pos, iterations=N)``);
- the same in the 4-player team game with the heuristic policy's rollouts played to the end
  (``rollout_cutoff=0``, and ``minimax_weight=0`` where the version has it: the defaults of
  4e9f30e, and the rollout half of the team game's network search), from
  ``rosen.Position.new(seed=1, players=4)``;
- only with ``--only network`` (an ``--old`` commit that ships the network): the default search
  with the shipped 2-player network (``evaluator="builtin"``).

Only APIs present in both versions are used. Every repetition also compares what the two
versions computed (random-play totals for the same seed, the scores of the boards) and stops
with an error if they differ: a faster core must play the same games. The searches are compared
by their iteration count only: a change may mean to change what they find, so equal searches
(a speed-up that claims "the same searches bit for bit") are shown otherwise, e.g. by the
engine's `bench` signature (tests/golden/engine_bench.txt).

From a fresh clone (needs git history that holds the old commit, a C++20 compiler and the build
requirements in the running Python: ``pip install numpy scikit-build-core pybind11 cmake ninja``)::

    python bench/compare_commits.py                  # 4e9f30e against the working tree
    python bench/compare_commits.py --old HEAD~3 --reps 9 --json out.json

The two builds take one to one and a half minutes each on two (busy) cores; the timing about two
minutes more with the default 7 repetitions.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# What one child process runs: import the rosen built into cfg["lib"] (and nothing else: the
# interpreter runs with -I -S, so no .pth file, such as an editable install's, can put another
# rosen first), time one benchmark once after a warm-up, print one JSON line.
CHILD = r"""
import json, statistics, sys, time
cfg = json.loads(sys.argv[1])
sys.path[:0] = [cfg["lib"]]
sys.path.extend(cfg["site"])
import numpy as np
import rosen
assert rosen.__file__.startswith(cfg["lib"]), rosen.__file__
bench, seed = cfg["bench"], cfg["seed"]
if bench == "random_play":
    rosen.random_play(2000, seed=seed + 1, threads=1)
    st = rosen.random_play(cfg["games"], seed=seed, threads=1)
    out = {"rate": st.games / st.seconds, "check": [st.red_wins, st.white_wins, st.draws, st.plies, st.blockades]}
elif bench == "score_boards":
    boards = np.load(cfg["boards"])
    rosen.score_boards(boards)
    times = []
    for _ in range(cfg["calls"]):
        t0 = time.perf_counter()
        res = rosen.score_boards(boards)
        times.append(time.perf_counter() - t0)
    out = {"rate": len(boards) / statistics.median(times),
           "check": [int(res.score.sum()), int(res.largest.sum()), int(res.tokens.sum()), int(res.count.sum())]}
elif bench == "boards":
    boards = []
    for s in range(2000):  # as bench/conftest.py: final_boards
        pos = rosen.Position.new(seed=s)
        while not pos.is_terminal:
            moves = pos.legal_moves()
            pos = pos.play(moves[(s * 7 + len(boards)) % len(moves)])
        boards.append(pos.board)
    np.save(cfg["boards"], np.ascontiguousarray(np.tile(np.stack(boards), (5, 1, 1))))
    out = {}
else:
    # Options a version does not have yet are left out (they name what was its default then).
    params = rosen.SearchParams()
    kwargs = {k: v for k, v in cfg["kwargs"].items() if k not in cfg["optional"] or hasattr(params, k)}
    pos = rosen.Position.new(seed=1, players=4 if bench == "uct_team" else 2)
    rosen.search(pos, iterations=2000, seed=seed + 1, **kwargs)
    res = rosen.search(pos, iterations=cfg["iterations"], seed=seed, **kwargs)
    out = {"rate": res.nps, "check": [res.iterations]}
print(json.dumps(out))
"""

# The search benchmarks' keyword arguments to rosen.search. The two "to the end" searches spell
# out 4e9f30e's defaults: later versions cut rollouts off, and since 63a0927 (30 Nov 2026) back up a
# static minimax value, so without these they would time a different search in each version.
SEARCH_KWARGS = {
    "uct_random": {"rollout": "random", "rollout_cutoff": 0, "minimax_weight": 0},  # plain UCT: the `uct` agent
    "uct_team": {"rollout_cutoff": 0, "minimax_weight": 0},
    "uct_default": {},
    "network": {"evaluator": "builtin"},
}
# Passed only to versions whose SearchParams have them (4e9f30e has no minimax_weight: it had none).
OPTIONAL_KWARGS = ["minimax_weight"]

BENCHES = [
    # key, label, unit
    ("random_play", "random games, one thread", "games/s"),
    ("score_boards", "batch scoring, 10 000 end-of-game boards", "boards/s"),
    ("uct_random", "plain UCT, random rollouts to the end", "iterations/s"),
    ("uct_default", "UCT, default search", "iterations/s"),
    ("uct_team", "UCT, team game, heuristic rollouts to the end", "iterations/s"),
    # Only when named in --only: commits before the shipped network (4e9f30e, the default --old) lack it.
    ("network", "the default search with the shipped network (evaluator=builtin)", "iterations/s"),
]
OPT_IN = {"network"}


def git(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True, **kw)


def export_commit(ref: str, dest: Path) -> str:
    sha = git("rev-parse", "--verify", f"{ref}^{{commit}}", text=True).stdout.strip()
    archive = git("archive", "--format=tar", sha).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        # The "data" filter where the Python has it (3.12 warns without one; 3.14 makes it the default).
        tar.extractall(dest, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return sha[:12]


def export_working_tree(dest: Path) -> str:
    names = git("ls-files", "-z", "--cached", "--others", "--exclude-standard").stdout.split(b"\0")
    for raw in names:
        if not raw:
            continue
        src = REPO / os.fsdecode(raw)
        if src.is_file():  # a tracked file deleted in the working tree is left out
            (dest / os.fsdecode(raw)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / os.fsdecode(raw))
    head = git("rev-parse", "--short=12", "HEAD", text=True).stdout.strip()
    dirty = git("status", "--porcelain", "--untracked-files=normal", text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def build(src: Path, lib: Path, log: Path) -> None:
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
           "--target", str(lib), str(src)]
    with open(log, "w") as out:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        sys.exit(f"building {src} failed; see {log}:\n" + log.read_text()[-3000:])


def child(cfg: dict) -> dict:
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", CHILD, json.dumps(cfg)], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        sys.exit(f"benchmark {cfg['bench']} of {cfg['lib']} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="4e9f30e", help="the old commit (default 4e9f30e)")
    ap.add_argument("--reps", type=int, default=7, help="alternating repetitions per benchmark (default 7)")
    ap.add_argument("--json", nargs="?", const="-", metavar="FILE",
                    help="also write the results as JSON to FILE (or to stdout, instead of the table)")
    ap.add_argument("--games", type=int, default=100_000, help="random games per repetition (default 100 000)")
    ap.add_argument("--iterations", type=int, default=50_000, help="UCT iterations per repetition (default 50 000)")
    ap.add_argument("--only", nargs="+", choices=[b[0] for b in BENCHES], help="run only these benchmarks")
    ap.add_argument("--keep", metavar="DIR", help="build into DIR and keep it (default: a temporary directory)")
    args = ap.parse_args(argv)
    # Every argument is checked before the builds (a minute or two each).
    for option, value in (("--reps", args.reps), ("--games", args.games), ("--iterations", args.iterations)):
        if value < 1:
            ap.error(f"{option}: expected >= 1, got {value}")
    if args.json and args.json != "-" and not Path(args.json).resolve().parent.is_dir():
        ap.error(f"--json: no directory {Path(args.json).resolve().parent} to write {args.json} into")
    try:
        git("rev-parse", "--verify", f"{args.old}^{{commit}}")
    except subprocess.CalledProcessError as exc:
        ap.error(f"--old: {args.old!r} is not a commit here ({exc.stderr.decode(errors='replace').strip()})")
    quiet = args.json == "-"

    def say(msg: str) -> None:
        if not quiet:
            print(msg, file=sys.stderr, flush=True)

    work = Path(args.keep).resolve() if args.keep else Path(tempfile.mkdtemp(prefix="rosen-compare-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        versions = {}
        for name in ("old", "new"):
            src, lib = work / f"{name}-src", work / f"{name}-lib"
            for d in (src, lib):
                shutil.rmtree(d, ignore_errors=True)
                d.mkdir()
            label = export_commit(args.old, src) if name == "old" else export_working_tree(src)
            say(f"building {name} ({label}) ...")
            t0 = time.perf_counter()
            build(src, lib, work / f"{name}-build.log")
            say(f"  built in {time.perf_counter() - t0:.0f} s")
            versions[name] = {"label": label, "lib": str(lib)}

        site = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
        boards = str(work / "boards.npy")
        child({"bench": "boards", "lib": versions["new"]["lib"], "site": site, "seed": 0, "boards": boards})

        selected = [b for b in BENCHES if (b[0] in args.only if args.only else b[0] not in OPT_IN)]
        results = {}
        for key, label, unit in selected:
            say(f"timing {label} ...")
            rates = {"old": [], "new": []}
            for rep in range(args.reps):
                order = ("old", "new") if rep % 2 == 0 else ("new", "old")
                checks = {}
                for name in order:
                    cfg = {"bench": key, "lib": versions[name]["lib"], "site": site, "seed": 1000 + rep,
                           "games": args.games, "iterations": args.iterations, "boards": boards, "calls": 25,
                           "kwargs": SEARCH_KWARGS.get(key, {}), "optional": OPTIONAL_KWARGS}
                    out = child(cfg)
                    rates[name].append(out["rate"])
                    checks[name] = out["check"]
                if checks["old"] != checks["new"]:
                    sys.exit(f"{label}: the versions disagree (old {checks['old']}, new {checks['new']})")
            ratios = [n / o for n, o in zip(rates["new"], rates["old"])]
            results[key] = {
                "label": label, "unit": unit,
                "old_median": statistics.median(rates["old"]), "new_median": statistics.median(rates["new"]),
                "ratio_median": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
                "old": rates["old"], "new": rates["new"],
            }

        report = {"old": versions["old"]["label"], "new": versions["new"]["label"], "reps": args.reps,
                  "games": args.games, "iterations": args.iterations, "results": results}
        if args.json and args.json != "-":
            Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
        if quiet:
            print(json.dumps(report, indent=2))
        else:
            print(f"old {report['old']}  vs  new {report['new']}: median of {args.reps} paired runs, new/old")
            print()
            print("| benchmark | old | new | new/old median | min | max |")
            print("|---|---|---|---|---|---|")
            for r in results.values():
                print(f"| {r['label']} ({r['unit']}) | {r['old_median']:,.0f} | {r['new_median']:,.0f} "
                      f"| **{r['ratio_median']:.2f}x** | {r['ratio_min']:.2f}x | {r['ratio_max']:.2f}x |")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
