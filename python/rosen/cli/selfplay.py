"""``rosen selfplay``: searched self-play games written as training records (docs/selfplay.md).

Three forms:

    rosen selfplay --games N --agent SPEC --out DIR [--shard-games K] [--backend local|ray]
    rosen selfplay inspect FILE_OR_DIR
    rosen selfplay verify DIR
"""
# The line "Three forms:" keeps the examples indented in --help under Python 3.13 too, which strips
# the indentation common to a docstring's later lines (were they all examples, all of it).
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from typing import Any, Dict, List

from ..errors import RosenError
from ..selfplay import FORMAT_VERSION, read_manifest, write_run
from ..selfplay.records import read_run
from ..selfplay.backends import BackendError
from ..selfplay.inspect import describe
from ..selfplay.verify import verify_run
from . import _args


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``selfplay`` subcommand, with its actions ``inspect`` and ``verify``, to ``sub``."""
    p = sub.add_parser("selfplay", help="play searched self-play games into training records (or inspect/verify them)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    _args.add_deal_seed(p, "seed of the run: game i is dealt and played from (seed, i) (default 0)")
    p.add_argument("--first-game", type=int, default=0, help="index of the first game (default 0)")
    _args.add_rules(p)
    p.add_argument("--agent", default="mcts:iterations=800",
                   help="random, greedy, mcts:<rosen.SearchParams keys> or uct[:iterations=N] (default mcts:iterations=800)")
    _args.add_threads(p, "worker threads (local backend) or threads per Ray task; the output does not depend on it")
    p.add_argument("--out", help="run directory (created; rerunning the same command resumes it)")
    p.add_argument("--shard-games", type=int, default=1000, help="games per shard file (default 1000)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: this process; ray: one Ray task per shard (pip install \"rosen[ray]\")")
    p.add_argument("--ray-address", default=None,
                   help="Ray cluster to use: 'auto' ($RAY_ADDRESS, else the cluster `ray start` runs on this "
                        "machine), 'HOST:PORT', 'ray://HOST:10001' (default: $RAY_ADDRESS, else a new Ray instance "
                        "on this machine, shut down after the run)")
    p.add_argument("--max-in-flight", type=int, default=0,
                   help="Ray: shards in flight at once (default: twice the cluster's CPUs)")
    g = p.add_argument_group("exploration (each off by default; docs/selfplay.md)")
    g.add_argument("--temperature", type=float, default=1.0, help="move choice ~ visits^(1/T) (default 1)")
    g.add_argument("--temperature-plies", type=int, default=0, help="plies played with the temperature (default 0)")
    g.add_argument("--dirichlet-alpha", type=float, default=0.3, help="root noise Dirichlet alpha (default 0.3)")
    g.add_argument("--dirichlet-fraction", type=float, default=0.0, help="root noise weight (default 0: off)")
    g.add_argument("--full-search-probability", type=float, default=1.0,
                   help="playout-cap randomisation: share of full searches (default 1: all)")
    g.add_argument("--cheap-iterations", type=int, default=100, help="iterations of a cheap search (default 100)")
    g.add_argument("--record-cheap", action="store_true", help="write rows of cheap searches too (weight 0)")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: only when stderr is a terminal)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(run=run)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    i = actions.add_parser("inspect", help="schema, counts and result shares of a shard or a run directory")
    i.add_argument("path", metavar="FILE", help="a shard-NNNNN.npz file or a run directory")
    i.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    i.set_defaults(run=run_inspect)
    v = actions.add_parser("verify", help="replay every game and check every row against the engine, and the hashes")
    v.add_argument("path", metavar="DIR", help="a run directory")
    v.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    v.set_defaults(run=run_verify)


class _Progress:
    """One status line on stderr: games, rows, games/s and the time left."""

    def __init__(self, total: int, stream=None) -> None:
        # sys.stderr as it is now, not as it was when this module was imported
        self.total, self.stream, self.start = total, stream or sys.stderr, time.monotonic()
        self.games_before = self.rows_before = 0  # finished shards
        self.games = self.rows = 0
        self.resumed = 0  # games written before this call (not counted in the rate)

    def resume(self, entries: List[Dict[str, Any]]) -> None:
        """Start from the shards a resumed run has already written."""
        self.games_before = self.games = self.resumed = sum(e["games"] for e in entries)
        self.rows_before = self.rows = sum(e["rows"] for e in entries)

    def shard_progress(self, games: int, rows: int) -> None:
        self.games, self.rows = self.games_before + games, self.rows_before + rows
        self.draw()

    def shard_done(self, entry: Dict[str, Any]) -> None:
        self.games_before += entry["games"]
        self.rows_before += entry["rows"]
        self.games, self.rows = self.games_before, self.rows_before
        self.draw()

    def draw(self) -> None:
        seconds = time.monotonic() - self.start
        rate = (self.games - self.resumed) / seconds if seconds > 0 else 0.0
        eta = (self.total - self.games) / rate if rate > 0 else float("inf")
        self.stream.write(f"\r{_args.bar(self.games, self.total)} {self.games}/{self.total} games  "
                          f"{self.rows} rows  {rate:,.1f} games/s  ETA {eta:,.0f}s ")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    """Write (or resume) the self-play run in ``--out`` and print a summary as text or ``--json``;
    returns 0, or 130 after Ctrl-C (the finished shards are kept)."""
    if not args.out:
        raise ValueError("--out: expected the run directory to write (e.g. --out selfplay-run)")
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    progress = _Progress(args.games)
    if show and os.path.isfile(os.path.join(args.out, "run.json")):
        try:  # a resumed run: the bar starts at the shards already written
            progress.resume(read_manifest(args.out))
        except (RosenError, OSError):
            pass  # another run's directory, or a damaged one: write_run says what is wrong with it
    options = {}
    if args.backend == "ray":
        options = {"address": args.ray_address, "max_in_flight": args.max_in_flight}
    elif args.ray_address is not None or args.max_in_flight:
        raise ValueError("--backend: --ray-address and --max-in-flight need --backend ray")
    start = time.monotonic()
    # Ray's driver prints worker deaths and other cluster news to stdout from a thread of its own;
    # stdout is this command's result (--json), so during the run that news goes to stderr.
    quiet_stdout = contextlib.redirect_stdout(sys.stderr) if args.backend == "ray" else contextlib.nullcontext()
    try:
        with quiet_stdout:
            entries = write_run(args.out, args.games, shard_games=args.shard_games, seed=args.seed,
                                first_game=args.first_game, players=args.players, reshuffle=args.reshuffle,
                                agent=args.agent, threads=args.threads, temperature=args.temperature,
                                temperature_plies=args.temperature_plies, dirichlet_alpha=args.dirichlet_alpha,
                                dirichlet_fraction=args.dirichlet_fraction,
                                full_search_probability=args.full_search_probability,
                                cheap_iterations=args.cheap_iterations, record_cheap=args.record_cheap,
                                backend=args.backend, backend_options=options,
                                on_shard=progress.shard_done if show else None,
                                on_progress=progress.shard_progress if show else None)
    except RosenError as exc:
        if exc.field == "path":  # write_run's directory is --out here
            raise type(exc)("out" + str(exc)[len("path"):], "out") from None
        if exc.field == "address":  # the Ray backend's address is --ray-address here
            raise exc.renamed("address", "ray_address") from None
        raise
    except OSError as exc:  # the disk filled up, the directory vanished...: finished shards stay valid
        raise ValueError(f"--out: writing {args.out!r} failed: {exc.strerror or exc}; finished shards are kept, "
                         "rerun the command to resume") from None
    except BackendError as exc:  # a Ray worker or node lost beyond its retries
        raise ValueError(f"--backend: {exc}; finished shards are kept, rerun the command to resume") from None
    except KeyboardInterrupt:
        if show:
            sys.stderr.write("\n")
        print(f"rosen selfplay: interrupted; finished shards are kept in {args.out!r}; "
              "run the same command again to resume", file=sys.stderr)
        return 130
    if show:
        sys.stderr.write("\n")
    seconds = time.monotonic() - start
    summary = {"out": args.out, "format_version": FORMAT_VERSION, "shards": len(entries),
               "games": sum(e["games"] for e in entries), "rows": sum(e["rows"] for e in entries),
               "seconds": round(seconds, 3), "backend": args.backend, "threads": args.threads}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['games']} games, {summary['rows']} rows in {summary['shards']} shard(s) in {args.out} "
              f"({seconds:.1f} s this run; format version {FORMAT_VERSION})")
    return 0


def run_inspect(args: argparse.Namespace) -> int:
    """Print what a shard or run directory holds (schema, counts, result shares) as text or ``--json``;
    returns 0."""
    info = describe(args.path)
    if args.json:
        print(json.dumps(info))
        return 0
    if info["kind"] == "run":
        run = info["run"]
        print(f"run        {info['path']}  (format {run['format']} v{run['format_version']})")
        print(f"agent      {run['agent']}  seed {run['seed']}  {run['players']} players, {run['reshuffle']} reshuffle")
        print(f"shards     {info['shards_done']}/{info['shards_total']} finished, {info['games']} games, "
              f"{info['rows']} rows")
        w = info["winners"]
        print(f"winners    red {w['red']:.1%}  white {w['white']:.1%}  draw {w['draw']:.1%}  "
              f"(mean {info['mean_plies']:.1f} plies)")
        return 0
    print(f"shard      {info['path']}  (format {info['format']} v{info['format_version']})")
    print("metadata   " + "  ".join(f"{k}={v}" for k, v in info["metadata"].items()))
    print(f"rows       {info['rows']} from {info['games']} games")
    for name, col in info["columns"].items():
        print(f"  {name:<13} {col['dtype']:<8} {tuple(col['shape'])}")
    s = info["shares"]
    print(f"results    mover won {s['mover_won']:.1%}  drew {s['mover_drew']:.1%}  lost {s['mover_lost']:.1%}  "
          f"(full searches {s['full_search']:.1%})")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Verify a run directory (every game replayed, every row and hash checked) and print the problems
    found as text or ``--json``; returns 1 if there are any, else 0."""
    problems = verify_run(args.path)
    # What is there is verified; an interrupted run is sound but not finished, which "ok" alone hid.
    run = read_run(args.path)
    shards, done = -(-run["games"] // run["shard_games"]), len(read_manifest(args.path))
    if args.json:
        print(json.dumps({"path": args.path, "ok": not problems, "problems": problems, "shards": shards,
                          "finished_shards": done}))
    elif problems:
        print("\n".join(problems))
        print(f"{args.path}: {len(problems)} problem(s)")
    else:
        unfinished = "" if done == shards else (f"; unfinished: {done} of {shards} shards written, the same "
                                                "command resumes it")
        print(f"{args.path}: ok (every game replays, every row matches the engine, every hash matches{unfinished})")
    return 1 if problems else 0
