"""``rosen analyse``: search a position and print the engine's view of it.

With no arguments it analyses the start of a fresh seeded deal (seed 0), so it is the quickest
way to see the engine think.
"""
from __future__ import annotations

import argparse
import os

from .. import _json
from .._core import Position
from ..errors import InvalidArgumentError
from ..search import SearchParams, search
from . import _args


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``analyse`` subcommand (alias ``analyze``) to ``sub``."""
    p = sub.add_parser("analyse", aliases=["analyze"], help="search a position and print the analysis",
                       description=__doc__)
    p.add_argument("--fen", metavar="POSITION", help="a RULES.md position line (default: a fresh deal, see --seed)")
    _args.add_deal_seed(p, "seed of the fresh deal to analyse (default 0)")
    _args.add_rules(p)
    _args.add_search(p, default_iterations=20_000)
    _args.add_threads(p, "search threads")
    p.add_argument("--multipv", type=int, default=5, help="candidate moves to list (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    # --players and --seed are the fresh deal's (2 players, seed 0 by default); a --fen line has its
    # own player count, which --players may only repeat, and no deal seed.
    p.set_defaults(run=run, players=None, seed=None)


def run(args: argparse.Namespace) -> int:
    """Search the ``--fen`` position (or a fresh deal) and print the analysis as text or ``--json``;
    returns 0."""
    if args.fen is not None:
        if args.seed is not None:
            raise InvalidArgumentError("--seed: the seed of a fresh deal; --fen gives the position (give one of "
                                       "them)", "seed")
        pos = Position(args.fen, reshuffle=args.reshuffle)
        if args.players not in (None, pos.players):
            raise InvalidArgumentError(f"--players: the --fen position is a {pos.players}-player game, "
                                       f"not {args.players}", "players")
    else:
        pos = Position.new(args.seed or 0, players=args.players or 2, reshuffle=args.reshuffle)
    if args.multipv < 1:
        raise InvalidArgumentError(f"--multipv: expected a positive number, got {args.multipv}", "multipv")
    params = SearchParams(threads=args.threads, **_args.search_params(args))
    if pos.is_terminal:
        raise InvalidArgumentError(f"--fen: the game is over ({pos.winner}); there is nothing to analyse", "fen")
    evaluator = _args.evaluator(args, pos.players)
    result = search(pos, params=params, evaluator=evaluator)
    guide = f"network {os.path.basename(evaluator.network.source)}" if evaluator is not None else "rollouts"
    if args.json:
        print(_json.dumps({
            "position": pos.fen(hide_pile_order=True), "best_move": str(result.best_move),
            "winrate": result.winrate, "score": result.score, "pv": [str(m) for m in result.pv],
            "depth": result.depth, "seldepth": result.seldepth, "tree_size": result.tree_size,
            "iterations": result.iterations, "nps": result.nps, "time_ms": result.time_ms, "evaluator": guide,
            "moves": [{"move": str(m.move), "visits": m.visits, "winrate": m.winrate, "score": m.score,
                       "prior": m.prior, "pv": [str(x) for x in m.pv]} for m in result.moves[:args.multipv]],
        }))
        return 0
    print(pos)
    print()
    print(f"position  {pos.fen(hide_pile_order=True)}")
    print(f"best move {result.best_move}   winrate {result.winrate:.3f}   expected margin {result.score:+.1f}")
    print(f"pv        {' '.join(str(m) for m in result.pv)}")
    print(f"search    {result.iterations} iterations, tree {result.tree_size} nodes, depth {result.depth:.1f} "
          f"(max {result.seldepth}), {result.nps:,.0f} iterations/s, {result.time_ms:.0f} ms, {guide}")
    print()
    print("  move      visits  winrate   margin   prior  line")
    for m in result.moves[:args.multipv]:
        print(f"  {str(m.move):<8} {m.visits:>7}  {m.winrate:7.3f}  {m.score:+7.1f}  {m.prior:6.3f}  "
              f"{' '.join(str(x) for x in m.pv)}")
    return 0
