"""``rosen analyse``: search a position and print the engine's view of it.

With no arguments it analyses the start of a fresh seeded deal (seed 0), so it is the quickest
way to see the engine think.
"""
from __future__ import annotations

import argparse
import json

from ._core import Position
from .search import SearchParams, search


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"], help="search a position and print the analysis",
                       description=__doc__)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--fen", metavar="POSITION", help="a RULES.md position line (default: a fresh deal)")
    where.add_argument("--seed", type=int, default=0, help="seed of the fresh deal to analyse (default 0)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2, help="players of the fresh deal")
    p.add_argument("--reshuffle", choices=("eager", "lazy"), default="eager", help="reshuffle rule (R7)")
    p.add_argument("--iterations", type=int, default=20_000, help="search iterations (default 20000)")
    p.add_argument("--seconds", type=float, default=0.0, help="time budget instead of / besides iterations")
    p.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    p.add_argument("--search-seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--multipv", type=int, default=5, help="candidate moves to list (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.fen is not None:
        pos = Position(args.fen, reshuffle=args.reshuffle)
    else:
        pos = Position.new(args.seed, players=args.players, reshuffle=args.reshuffle)
    if args.multipv < 1:
        raise ValueError(f"--multipv: expected a positive number, got {args.multipv}")
    params = SearchParams(iterations=args.iterations if args.seconds <= 0 else 0,
                          time_ms=int(args.seconds * 1000), threads=args.threads, seed=args.search_seed)
    if pos.is_terminal:
        raise ValueError(f"--fen: the game is over ({pos.winner}); there is nothing to analyse")
    result = search(pos, params=params)
    if args.json:
        print(json.dumps({
            "position": pos.fen(hide_pile_order=True), "best_move": str(result.best_move),
            "winrate": result.winrate, "score": result.score, "pv": [str(m) for m in result.pv],
            "depth": result.depth, "seldepth": result.seldepth, "nodes": result.nodes,
            "iterations": result.iterations, "nps": result.nps, "time_ms": result.time_ms,
            "moves": [{"move": str(m.move), "visits": m.visits, "winrate": m.winrate, "score": m.score,
                       "prior": m.prior} for m in result.moves[:args.multipv]],
        }))
        return 0
    print(pos)
    print()
    print(f"position  {pos.fen(hide_pile_order=True)}")
    print(f"best move {result.best_move}   winrate {result.winrate:.3f}   expected margin {result.score:+.1f}")
    print(f"pv        {' '.join(str(m) for m in result.pv)}")
    print(f"search    {result.iterations} iterations, {result.nodes} nodes, depth {result.depth:.1f} "
          f"(max {result.seldepth}), {result.nps:,.0f} it/s, {result.time_ms:.0f} ms")
    print()
    print("  move      visits  winrate   margin   prior")
    for m in result.moves[:args.multipv]:
        print(f"  {str(m.move):<8} {m.visits:>7}  {m.winrate:7.3f}  {m.score:+7.1f}  {m.prior:6.3f}")
    return 0
