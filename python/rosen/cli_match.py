"""``rosen match``: agent A against agent B on colour-swapped pairs of deals, with statistics."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys

from .agents import parse_agent_spec
from .match import jsonl_writer, progress_bar, run_match
from .matchstats import parse_sprt

EPILOG = """agents: random | greedy | mcts[:key=value,...] with the keys of rosen.SearchParams,
e.g. mcts:iterations=1000,rollout=random. Pair i is the deal seed+i played twice, A red then A white.
The SPRT is a pentanomial GSPRT (normal approximation) on logistic Elo."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("match", help="play agent A against agent B and print W/D/L, Elo and intervals",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", metavar="A", help="agent A, e.g. mcts:iterations=1000")
    p.add_argument("b", metavar="B", help="agent B, e.g. random")
    p.add_argument("--games", type=int, default=100, help="number of games, even (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first deal seed; pair i uses seed+i (default 0)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2, help="2 or 4 (teams, R13; default 2)")
    p.add_argument("--reshuffle", choices=("eager", "lazy"), default="eager", help="reshuffle rule (R7)")
    p.add_argument("--threads", type=int, default=1, help="games played in parallel (results do not depend on it)")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop as soon as an SPRT of elo0 against elo1 decides")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate (default 0.05)")
    p.add_argument("--jsonl", metavar="FILE", help="write one JSON line per game (replayable move list)")
    p.add_argument("--json", action="store_true", help="print the totals as one JSON object")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: only when stderr is a terminal)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 2 or args.games % 2:
        raise ValueError(f"--games: expected an even number >= 2 (games are colour-swapped pairs), got {args.games}")
    if args.seed < 0:
        raise ValueError(f"--seed: expected a non-negative int, got {args.seed}")
    if args.threads < 1:
        raise ValueError(f"--threads: expected at least 1, got {args.threads}")
    specs = []
    for label, text in (("A", args.a), ("B", args.b)):
        try:
            specs.append(parse_agent_spec(text))
        except ValueError as exc:
            raise ValueError(f"{label}: {exc}") from None
    sprt = parse_sprt(args.sprt, alpha=args.alpha, beta=args.beta) if args.sprt else None
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    with contextlib.ExitStack() as stack:
        on_game = None
        if args.jsonl:
            try:
                stream = stack.enter_context(open(args.jsonl, "w", encoding="utf-8"))
            except OSError as exc:
                raise ValueError(f"--jsonl: cannot write {args.jsonl!r}: {exc.strerror}") from None
            on_game = jsonl_writer(stream)
        try:
            result = run_match(specs[0], specs[1], games=args.games, seed=args.seed, players=args.players,
                               reshuffle=args.reshuffle, threads=args.threads, sprt=sprt, on_game=on_game,
                               progress=progress_bar(args.games) if show else None, stop_on_interrupt=True)
        finally:
            if show:
                sys.stderr.write("\n")
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result.summary())
    return 0
