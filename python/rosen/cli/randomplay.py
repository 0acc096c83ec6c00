"""``rosen randomplay``: statistics of uniformly random games, played in C++."""
from __future__ import annotations

import argparse
import json

from ..randomplay import random_play
from . import _args


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``randomplay`` subcommand to ``sub``."""
    p = sub.add_parser("randomplay", help="play N seeded games of uniformly random legal moves and print statistics",
                       description=__doc__)
    p.add_argument("--games", type=int, default=100_000, help="number of games (default 100000)")
    _args.add_deal_seed(p, "seed of the run: game i is dealt and played from (seed, i) (default 0)")
    _args.add_rules(p)
    _args.add_threads(p, "worker threads; results do not depend on it")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the random games and print their statistics as text or ``--json``; returns 0."""
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
