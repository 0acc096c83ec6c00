"""``rosen bench``: a search configuration over the position suite -- depth, speed, solve rate.

Any agent spec with a budget (``mcts:...``, ``expectimax``) or any protocol engine
(``engine:command=...``); budgets ``--iterations 100,1000`` or ``--time-ms 10,100``; search
threads ``--threads 1,2,4``. ``--compare A B`` runs both and adds B minus A with 95% intervals.
The engine protocol's own ``bench`` (a fixed workload and its signature) is ``--signature``.
A search that fails (an engine that crashes, hangs or breaks the protocol) is reported with its
position and the run goes on; the exit status is then 1.
"""
from __future__ import annotations

import argparse
import sys

from .. import _json
from ..bench import plots
from ..bench.report import (aggregate, aggregate_table, aggregates_csv, compare, depth_table, difference_table,
                            probe_table, probes_csv, time_to_depth)
from ..bench.runner import DEFAULT_TIMEOUT, budget_spec, parse_budgets, run_probes
from ..bench.suite import PHASES, load_suite
from ..errors import InvalidArgumentError, check_int, check_real
from .._files import write_text_whole
from ._paths import check_writable


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``bench`` subcommand to ``sub``."""
    p = sub.add_parser("bench", help="measure a search over the position suite (depth, nps, solve rate)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("agent", nargs="?", default=None,
                   help="the configuration: an agent spec such as mcts:rollout=random or "
                        "'engine:command=rosen engine' (default: mcts, the default search)")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="run two configurations; report B minus A")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", default=None, help="iteration budgets, e.g. 100,1000 (default 100,1000,10000)")
    budget.add_argument("--time-ms", default=None, help="time budgets in milliseconds, e.g. 10,100")
    p.add_argument("--threads", default="1", help="search threads, e.g. 1,2,4 (default 1)")
    p.add_argument("--search-seed", type=int, default=0, help="seed of the searches (default 0)")
    p.add_argument("--suite", default=None, help="a suite file (default: the committed one, docs/strength.md)")
    p.add_argument("--players", type=int, choices=(2, 4), default=None, help="only 2- or 4-player positions")
    p.add_argument("--phase", choices=PHASES, default=None, help="only positions of this phase")
    p.add_argument("--positions", type=int, default=None, help="at most N positions, spread over the suite")
    p.add_argument("--depths", default="4,6,8", help="target depths of the time-to-depth table (default 4,6,8)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help=f"seconds an engine may stay silent before its probe fails (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--per-position", action="store_true", help="also print one line per search")
    p.add_argument("--json", metavar="FILE", help="write the whole report as JSON ('-': standard output)")
    p.add_argument("--csv", metavar="FILE", help="write one CSV row per search ('-': standard output)")
    p.add_argument("--csv-summary", metavar="FILE",
                   help="write one CSV row per configuration, budget and threads ('-': standard output)")
    p.add_argument("--plot", metavar="FILE.png", help="draw depth, solve rate and nps charts (needs rosen[plot])")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on standard error (a failed search is still reported there, with its position)")
    p.add_argument("--signature", action="store_true",
                   help="run the engine protocol's deterministic bench instead and print its signature")
    p.set_defaults(run=run)


def _write(target: str, text: str, field: str) -> None:
    if target == "-":
        sys.stdout.write(text)
    else:
        write_text_whole(target, text, field)


def run(args: argparse.Namespace) -> int:
    """Search the suite with each configuration and print (or write) the report, or with ``--signature``
    print the engine's bench signature; returns 1 if any search failed, else 0."""
    if args.signature:
        # The signature is a fixed check of the engine; options of the suite report would be ignored.
        given = [f"--{name.replace('_', '-')}" for name in ("agent", "compare", "iterations", "time_ms", "suite",
                                                             "players", "phase", "positions", "per_position", "json",
                                                             "csv", "csv_summary", "plot")
                 if getattr(args, name) not in (None, False)]
        if given:
            raise InvalidArgumentError(f"signature: prints the engine's fixed bench signature only; it takes no "
                                       f"{', '.join(given)}", "signature")
        from ..engine.bench import run_bench
        print("\n".join(run_bench()))
        return 0
    to_stdout = [name for name in ("json", "csv", "csv_summary") if getattr(args, name) == "-"]
    if len(to_stdout) > 1:  # two reports on one stdout would be neither
        options = " and ".join("--" + name.replace("_", "-") for name in to_stdout)
        raise InvalidArgumentError(f"{to_stdout[-1]}: {options} cannot {'both' if len(to_stdout) == 2 else 'all'} "
                                   f"write to standard output ('-'); give all but one a file", to_stdout[-1])
    if args.agent and args.compare:
        raise InvalidArgumentError("agent: give one configuration or --compare A B, not both", "agent")
    configs = list(args.compare) if args.compare else [args.agent or "mcts"]
    kind = "time_ms" if args.time_ms is not None else "iterations"
    given = args.time_ms if args.time_ms is not None else args.iterations
    budgets = parse_budgets("100,1000,10000" if given is None else given, kind)
    threads = parse_budgets(args.threads, "threads")
    check_int("search_seed", args.search_seed, 0, 2**64 - 1)
    try:
        depths = [check_real("depths", float(d), 0) for d in args.depths.split(",") if d.strip()]
    except ValueError:
        raise InvalidArgumentError(f"depths: expected numbers >= 0 separated by commas, got {args.depths!r}",
                                   "depths") from None
    if args.timeout <= 0:
        raise InvalidArgumentError(f"timeout: expected seconds > 0, got {args.timeout:g}", "timeout")
    if args.positions is not None and args.positions < 1:
        raise InvalidArgumentError(f"positions: expected at least 1, got {args.positions}", "positions")
    for config in configs:  # a bad spec or budget fails now, before any search
        budget_spec(config, kind, budgets[0], threads[-1], args.timeout)
    for field in ("json", "csv", "csv_summary", "plot"):  # before the run, not after it
        if getattr(args, field):
            check_writable(getattr(args, field), field, image=field == "plot")
    if args.plot:
        plots.require_matplotlib()
    suite = load_suite(args.suite).select(args.players, args.phase, args.positions)
    if not suite.positions:
        raise InvalidArgumentError("suite: no position matches --players/--phase", "suite")

    def progress(probe) -> None:
        if not args.quiet:
            print("!" if probe.error else ".", end="", file=sys.stderr, flush=True)
        if probe.error:  # with --quiet too: the exit status alone would not say which search failed
            after_marks = "" if args.quiet else "\n"
            print(f"{after_marks}{probe.config} {kind}={probe.budget} threads={probe.threads} {probe.position}: "
                  f"{probe.error}", file=sys.stderr)

    probes = []
    for config in configs:
        if not args.quiet:
            print(f"{config}: {len(suite.positions)} positions x {len(budgets)} budgets x {len(threads)} threads",
                  file=sys.stderr)
        probes += run_probes(config, suite, budgets=budgets, budget_kind=kind, threads=threads,
                             seed=args.search_seed, timeout=args.timeout, progress=progress)
        if not args.quiet:
            print(file=sys.stderr)
    aggregates = aggregate(probes)
    depth_rows = time_to_depth(probes, depths)
    diffs = compare(probes, configs[0], configs[1]) if args.compare else []
    if not to_stdout:  # a report on standard output is the whole of it
        print(f"suite {suite.path}: {len(suite.positions)} positions; budget {kind}")
        if args.per_position:
            print(probe_table(probes) + "\n")
        print(aggregate_table(aggregates, kind))
        print("\ntime to reach a mean depth (median over the positions that reached it):")
        print(depth_table(depth_rows))
        if diffs:
            print(f"\nB minus A, paired by position (A: {configs[0]}, B: {configs[1]}; 95% intervals):")
            print(difference_table(diffs, kind))
    if args.json:
        report = {"suite": {"path": suite.path, "positions": len(suite.positions), "produced": suite.produced},
                  "budget": kind, "budgets": list(budgets), "threads": list(threads), "configs": configs,
                  "aggregates": [a.to_json() for a in aggregates], "time_to_depth": depth_rows,
                  "compare": [d.to_json() for d in diffs], "probes": [p.to_json() for p in probes]}
        _write(args.json, _json.dumps(report, indent=1) + "\n", "json")
    if args.csv:
        _write(args.csv, probes_csv(probes), "csv")
    if args.csv_summary:
        _write(args.csv_summary, aggregates_csv(aggregates), "csv_summary")
    if args.plot:
        plots.bench_figure(aggregates, kind, args.plot)
        if not to_stdout:
            print(f"\nplot: {args.plot}")
    # The run goes on past a failed search, but a script should still learn of it.
    return 1 if any(not p.ok for p in probes) else 0
