"""Arguments several subcommands share, declared once so that they read and behave alike."""
from __future__ import annotations

import argparse
from typing import Any, Dict, Optional

from ..errors import InvalidArgumentError, RosenError, restated
from ..search import AUTO_EVALUATOR, SearchParams, engine_evaluator


def add_rules(p: argparse.ArgumentParser) -> None:
    """--players and --reshuffle: the game's configuration."""
    p.add_argument("--players", type=int, choices=(2, 4), default=2,
                   help="2, or 4 for the team variant (R13; default 2)")
    p.add_argument("--reshuffle", choices=("eager", "lazy"), default="eager", help="reshuffle rule (R7; default eager)")


def add_threads(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--threads", type=int, default=1, help=f"{what} (default 1)")


def add_deal_seed(p: argparse.ArgumentParser, what: str = "seed of the deal (default 0)",
                  default: Optional[int] = 0) -> None:
    """--seed always means the deal (the cards dealt); the search has --search-seed."""
    p.add_argument("--seed", type=int, default=default, help=what)


def add_search(p: argparse.ArgumentParser, default_iterations: int) -> None:
    """--iterations / --time-ms (the budget per search), --search-seed and --evaluator."""
    p.add_argument("--iterations", type=int, default=None,
                   help=f"search iterations per move (default {default_iterations}; with --time-ms alone: none)")
    p.add_argument("--time-ms", type=int, default=0, help="search time per move in milliseconds (default: none)")
    p.add_argument("--search-seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--evaluator", default=AUTO_EVALUATOR, metavar="NETWORK",
                   help="the network that guides the search: auto (the shipped network of the game: builtin with "
                        "2 players, builtin-team with 4), builtin, builtin-team, a network file, or none for "
                        "rollouts (default auto)")
    p.set_defaults(default_iterations=default_iterations)


def evaluator(args: argparse.Namespace, players: int) -> Any:
    """The evaluator --evaluator asks for in a ``players``-player game (a bad file raises an error
    naming --evaluator)."""
    try:
        return engine_evaluator(args.evaluator, players)
    except RosenError as exc:  # say the option once
        raise InvalidArgumentError(restated(exc, "evaluator", "--evaluator"), "evaluator") from None


def search_params(args: argparse.Namespace) -> Dict[str, Any]:
    """The search parameters --iterations, --time-ms and --search-seed ask for (checked by
    rosen.SearchParams, whose errors name the field)."""
    iterations = args.iterations
    if iterations is None:
        iterations = 0 if args.time_ms else args.default_iterations
    params: Dict[str, Any] = {"iterations": iterations}
    if args.time_ms:
        params["time_ms"] = args.time_ms
    if args.search_seed:
        params["seed"] = args.search_seed
    try:
        SearchParams(**params)
    except RosenError as exc:
        if exc.field == "seed":  # the search's seed is --search-seed here; --seed is the deal
            raise InvalidArgumentError("search_seed" + str(exc)[len("seed"):], "search_seed") from None
        raise
    return params


def bar(done: int, total: int, width: int = 30) -> str:
    """``[####......]``: the progress bars of the subcommands that run long jobs."""
    filled = int(width * min(done, total) / max(1, total))
    return f"[{'#' * filled}{'.' * (width - filled)}]"
