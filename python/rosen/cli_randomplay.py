"""``rosen randomplay``: statistics of uniformly random games, played in C++."""
from __future__ import annotations

import argparse
import json

from .randomplay import random_play


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("randomplay", help="play N seeded games of uniformly random legal moves and print statistics",
                       description=__doc__)
    p.add_argument("--games", type=int, default=100_000, help="number of games (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2, help="2 or 4 (team variant, R13)")
    p.add_argument("--reshuffle", choices=("eager", "lazy"), default="eager", help="reshuffle rule (R7)")
    p.add_argument("--threads", type=int, default=1, help="worker threads (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    stats = random_play(args.games, args.seed, players=args.players, reshuffle=args.reshuffle, threads=args.threads)
    if args.json:
        print(json.dumps({"players": args.players, "reshuffle": args.reshuffle, "seed": args.seed,
                          "threads": args.threads, **stats.as_dict()}))
        return 0
    print(f"games        {stats.games}  ({args.players} players, {args.reshuffle} reshuffle, seed {args.seed})")
    print(f"red wins     {stats.red_share:.4%}")
    print(f"white wins   {stats.white_share:.4%}")
    print(f"draws        {stats.draw_share:.4%}")
    print(f"mean plies   {stats.mean_plies:.2f}")
    print(f"blockade end {stats.blockade_share:.4%}  (no player could act, R9)")
    print(f"speed        {stats.games_per_second:,.0f} games/s on {args.threads} thread(s), {stats.seconds:.2f} s")
    return 0
