"""``rosen strength``: Elo against budget -- a ladder of matches of each configuration at each
budget against a fixed anchor (paired deals, 95% intervals).

Games go to ``--out`` as JSON lines while they are played; running the same command again
keeps every finished pair and plays only what is missing (a stopped ladder resumes, a finished
one is reported again at once). ``--plot FILE.png`` draws the curves (needs ``rosen[plot]``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..bench import plots
from ..bench.ladder import SUMMARY, run_ladder
from ..bench.report import format_table
from ..bench.runner import parse_budgets
from ..errors import InvalidArgumentError
from ..match.stats import format_elo
from . import _args
from .._files import write_text_whole
from ._paths import check_writable


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``strength`` subcommand to ``sub``."""
    p = sub.add_parser("strength", help="Elo against budget: a ladder of matches against an anchor",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("configs", nargs="*", default=None, metavar="CONFIG",
                   help="configurations to climb the ladder: agent specs whose budget is set per point, e.g. "
                        "mcts mcts:rollout=random 'engine:command=./my-engine' (default: mcts)")
    p.add_argument("--anchor", default="mcts:iterations=1000",
                   help="the fixed opponent of every point (default mcts:iterations=1000)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", default=None,
                        help="iteration budgets per move, e.g. 100,1000,10000 (default 100,1000,10000)")
    budget.add_argument("--time-ms", default=None, help="time budgets per move in milliseconds, e.g. 10,100,1000")
    p.add_argument("--games", type=int, default=200, help="games per point, an even number (default 200)")
    _args.add_deal_seed(p, "first deal seed of every match (default 0)")
    _args.add_rules(p)
    p.add_argument("--threads", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--out", default="rosen-strength",
                   help="directory of the JSON lines, one file per point plus ladder.jsonl (default rosen-strength)")
    p.add_argument("--plot", metavar="FILE.png", help="draw Elo against budget with 95%% error bars")
    p.add_argument("--json", metavar="FILE", help="write the points as JSON ('-': standard output)")
    p.add_argument("--progress", choices=("on", "off"), default="on",
                   help="a status line on stderr, rewritten after each finished pair, and a line per finished "
                        "point (default on)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play (or resume) the ladder in ``--out`` and print its table, writing ``--json`` and ``--plot`` if
    given; returns 0."""
    configs = args.configs or ["mcts"]
    kind = "time_ms" if args.time_ms else "iterations"
    budgets = parse_budgets(args.time_ms or args.iterations or "100,1000,10000", kind)
    if args.threads < 1:
        raise InvalidArgumentError(f"threads: expected at least 1, got {args.threads}", "threads")
    for field in ("json", "plot"):  # before the ladder, not after it
        if getattr(args, field):
            check_writable(getattr(args, field), field, image=field == "plot")
    if args.plot:
        plots.require_matplotlib()

    def progress(config, result) -> None:
        if args.progress == "on":
            est = result.estimate
            print(f"\r{result.a}: {len(result.games)}/{args.games} games, score {est.score:.1%}, "
                  f"Elo {format_elo(est.elo)} [{format_elo(est.elo_low)}, {format_elo(est.elo_high)}]   ",
                  end="", file=sys.stderr, flush=True)

    def on_point(point) -> None:
        if args.progress == "on":
            kept = f" ({point.resumed} games kept from an earlier run)" if point.resumed else ""
            print(f"\r{point.spec}: done{kept}" + " " * 30, file=sys.stderr)

    points = run_ladder(configs, args.anchor, budgets, budget_kind=kind, games=args.games, seed=args.seed,
                        players=args.players, reshuffle=args.reshuffle, threads=args.threads, out=args.out,
                        on_point=on_point, progress=progress)
    if args.json != "-":
        print(f"anchor {points[0].anchor}; {args.games} games per point, deals from seed {args.seed}, "
              f"{args.players} players; 95% intervals over deal pairs")
        rows = [[p.config, p.budget, p.games, f"{p.wins}/{p.draws}/{p.losses}",
                 f"{p.score:.1%} [{p.score_low:.1%}, {p.score_high:.1%}]",
                 f"{format_elo(p.elo)} [{format_elo(p.elo_low)}, {format_elo(p.elo_high)}]", f"{p.depth:.2f}",
                 f"{p.nps:,.0f}", f"{p.ms_per_move:.1f}"] for p in points]
        unit = "iters" if kind == "iterations" else "ms"
        print(format_table(rows, ["config", unit, "games", "W/D/L", "score [95%]", "Elo [95%]", "depth", "nps",
                                  "ms/move"]))
        print(f"\ngames: {args.out}/*.jsonl; summary: {Path(args.out) / SUMMARY}")
    if args.json:
        text = json.dumps([p.to_json() for p in points], indent=1) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            write_text_whole(args.json, text, "json")
    if args.plot:
        plots.ladder_figure(points, kind, points[0].anchor, args.plot)
        if args.json != "-":
            print(f"plot: {args.plot}")
    return 0
