"""``rosen match``: agent A against agent B on colour-swapped pairs of deals, with statistics."""
from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
from typing import Callable, TextIO

from .. import _json
from .._files import lock_exclusively
from ..errors import InvalidArgumentError
from ..match import MatchResult, jsonl_writer, parse_sprt, run_match
from ..match.stats import format_elo
from . import _args

EPILOG = """agents: random | greedy | mcts[:key=value,...] with the keys of rosen.SearchParams
(e.g. mcts:iterations=1000,rollout=random; evaluator=PATH|builtin|builtin-team|auto for a network;
clock_ms=MS[,increment_ms=MS] for a game clock instead of a budget per move) |
uct[:iterations=N|time_ms=MS] (plain UCT, random rollouts) |
alphabeta:depth=N | expectimax:depth=N (or time_ms=MS, movetime=MS) | net:path=PATH |
engine:command=CMD,iterations=N (or time_ms=MS).
Pair i is the deal seed+i played twice, A red then A white.
The SPRT is a pentanomial GSPRT (normal approximation) on logistic Elo."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``match`` subcommand to ``sub``."""
    p = sub.add_parser("match", help="play agent A against agent B and print W/D/L, Elo and intervals",
                       description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", metavar="A", help="agent A, e.g. mcts:iterations=1000")
    p.add_argument("b", metavar="B", help="agent B, e.g. random")
    p.add_argument("--games", type=int, default=100, help="number of games, even (default 100)")
    _args.add_deal_seed(p, "first deal seed; pair i uses seed+i (default 0)")
    _args.add_rules(p)
    _args.add_threads(p, "games played in parallel; results do not depend on it")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop as soon as an SPRT of elo0 against elo1 decides")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate (default 0.05)")
    p.add_argument("--jsonl", metavar="FILE", help="write one JSON line per game (replayable move list)")
    p.add_argument("--json", action="store_true", help="print the totals as one JSON object")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bar on stderr (auto: only when stderr is a terminal)")
    p.set_defaults(run=run)


def progress_bar(total_games: int, stream: TextIO = sys.stderr, width: int = 30) -> Callable[[MatchResult], None]:
    """A one-line progress bar redrawn after each pair (for a terminal)."""
    def show(result: MatchResult) -> None:
        n = len(result.games)
        w, d, l = result.wdl()
        stream.write(f"\r{_args.bar(n, total_games, width)} {n}/{total_games}  "
                     f"W/D/L {w}/{d}/{l}  elo {format_elo(result.estimate.elo)}  {result.seconds:.0f}s ")
        stream.flush()
    return show


class _JsonlFile:
    """``--jsonl``'s file: opened without emptying it, and locked (POSIX), so that a second match
    writing it is refused (two once interleaved their lines); emptied when the match has started,
    so that a match refused for its arguments leaves an existing file as it was."""

    def __init__(self, path: str) -> None:
        self._started = False
        self._path = path
        try:
            self._stream = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise InvalidArgumentError(f"--jsonl: cannot write {path!r}: {exc.strerror}", "jsonl") from None
        # Only a regular file is locked and emptied: /dev/stdout or a pipe is written as it is.
        self._regular = stat.S_ISREG(os.fstat(self._stream.fileno()).st_mode)
        if self._regular and not lock_exclusively(self._stream.fileno()):
            self._stream.close()
            raise InvalidArgumentError(f"--jsonl: {path!r} is being written by another process; give this match "
                                       "a file of its own", "jsonl")
        self._write = jsonl_writer(self._stream)

    def start(self) -> None:
        if not self._started:
            self._started = True
            if self._regular:
                self._stream.truncate(0)  # appends then go to the start

    def write(self, record) -> None:
        self.start()
        try:
            self._write(record)
        except OSError as exc:  # a full disk: the error names the file
            raise OSError(exc.errno, exc.strerror, self._path) from None

    def __enter__(self) -> "_JsonlFile":
        return self

    def __exit__(self, exc_type, *exc_info) -> None:
        try:
            self._stream.close()  # and the lock with it
        except OSError as exc:  # the rest of a line a full disk refused, refused again
            if exc_type is None:
                raise OSError(exc.errno, exc.strerror, self._path) from None
            # else the error that stopped the match is the one to report


def run(args: argparse.Namespace) -> int:
    """Play the match (until ``--sprt`` decides, if given; games to ``--jsonl``) and print its totals as
    text or ``--json``; returns 0, also after a Ctrl-C, which ends it with the pairs played so far."""
    sprt = parse_sprt(args.sprt, alpha=args.alpha, beta=args.beta) if args.sprt else None
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    with contextlib.ExitStack() as stack:
        on_game = None
        jsonl = stack.enter_context(_JsonlFile(args.jsonl)) if args.jsonl else None
        if jsonl is not None:
            on_game = jsonl.write
        try:
            result = run_match(args.a, args.b, games=args.games, seed=args.seed, players=args.players,
                               reshuffle=args.reshuffle, threads=args.threads, sprt=sprt, on_game=on_game,
                               progress=progress_bar(args.games) if show else None, stop_on_interrupt=True)
            if jsonl is not None:
                jsonl.start()  # a match of no game (stopped at once) still replaces the file
        finally:
            if show:
                sys.stderr.write("\n")
    if args.json:
        print(_json.dumps(result.to_dict()))
    else:
        print(result.summary())
    return 0
