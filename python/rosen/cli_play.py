"""``rosen play``: a person against the engine in the terminal.

Moves are typed in RULES.md notation (``N2``, ``H:N2``, ``draw``, ``pass``); ``hint`` shows the
engine's analysis, ``legal`` lists the legal moves, ``quit`` ends the game. Cards for draws come
from the deal (see :class:`rosen.game.Dealer`), and the drawn card is shown.
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Optional, TextIO

from . import _core
from .agents import Agent, MCTSAgent, parse_agent_spec
from .game import Dealer, colour_of_turn
from .search import search

HELP = ("moves: N2 (play a card), H:N2 (hero with a card), draw, pass -- case does not matter\n"
        "commands: legal (list the legal moves), hint (engine analysis), board, help, quit")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play against the engine in the terminal", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--colour", "--color", dest="colour", choices=("red", "white"), default="red",
                   help="your colour; red moves first (default red)")
    strength = p.add_mutually_exclusive_group()
    strength.add_argument("--iterations", type=int, help="engine search iterations per move (default 1000)")
    strength.add_argument("--seconds", type=float, help="engine thinking time per move in seconds")
    p.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2,
                   help="2, or 4 for the team variant where you play both seats of your colour")
    p.add_argument("--reshuffle", choices=("eager", "lazy"), default="eager", help="reshuffle rule (R7)")
    p.add_argument("--engine", metavar="SPEC",
                   help="the opponent as an agent spec, e.g. greedy or engine:command=...,nodes=2000 "
                        "(default: mcts with the strength above)")
    p.set_defaults(run=run)


def search_params(args: argparse.Namespace) -> dict:
    """The engine's search parameters from --iterations / --seconds / --seed."""
    if args.iterations is not None and args.iterations < 1:
        raise ValueError(f"--iterations: expected a positive number, got {args.iterations}")
    if args.seconds is not None and not args.seconds > 0:
        raise ValueError(f"--seconds: expected a positive number of seconds, got {args.seconds}")
    if args.seconds is not None:
        # iterations=0: no iteration limit, the time decides.
        return {"iterations": 0, "time_ms": max(1, int(args.seconds * 1000)), "seed": args.seed}
    return {"iterations": args.iterations or 1000, "seed": args.seed}


def make_engine(args: argparse.Namespace) -> Agent:
    if args.engine:
        try:
            return parse_agent_spec(args.engine).build(args.seed)
        except ValueError as exc:
            raise ValueError(f"--engine: {exc}") from None
    return MCTSAgent(**search_params(args))


def describe_analysis(position: _core.Position, params: dict, *, top: int = 5) -> str:
    """The engine's view of ``position``: best moves with visits and win rates, and the PV."""
    result = search(position.hide_pile_order(), **params)
    # moves come most visited first; move_pvs (newer searches) holds each one's own line.
    lines_per_move = getattr(result, "move_pvs", None) or [[] for _ in result.moves]
    lines = [f"engine analysis: {result.iterations} iterations, depth {result.depth:.1f}, "
             f"win rate {result.winrate:.1%} for the side to move"]
    for info, line in list(zip(result.moves, lines_per_move))[:top]:
        text = (f"  {str(info.move):<7} visits {info.visits:>7}  win rate {info.winrate:6.1%}  "
                f"expected margin {info.score:+6.1f}")
        if len(line) > 1:
            text += "  line " + " ".join(str(m) for m in line)
        lines.append(text)
    lines.append("  pv: " + " ".join(str(m) for m in result.pv))
    return "\n".join(lines)


def result_line(position: _core.Position, human: str) -> str:
    red, white = position.scores
    winner = position.winner
    if winner == "draw":
        verdict = "The game is a draw."
    else:
        verdict = f"{winner.capitalize()} wins -- " + ("you win!" if winner == human else "the engine wins.")
    return f"Final score: red {red}, white {white}. {verdict}"


def play_session(args: argparse.Namespace, *, input_fn: Callable[[str], str] = input,
                 out: Optional[TextIO] = None) -> int:
    """Run one game; ``input_fn`` and ``out`` replace the terminal (the tests script them)."""
    out = out or sys.stdout

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    engine = make_engine(args)
    hint_params = search_params(args)
    human = args.colour
    position = _core.Position.new(args.seed, players=args.players, reshuffle=args.reshuffle)
    dealer = Dealer(args.seed)
    engine.reset()
    say(f"You play {human}" + (" (both seats of your team)" if args.players == 4 else "") +
        f" against {engine!r}. Type 'help' for the notation.")
    show_board = True
    while not position.is_terminal:
        colour = colour_of_turn(position.turn)
        if show_board:
            say()
            say(str(position))
            show_board = False
        if colour == human:
            try:
                line = input_fn(f"your move ({position.turn})> ").strip()
            except (EOFError, KeyboardInterrupt):  # end of input or Ctrl-C: leave politely
                say()
                line = "quit"
            command = line.lower()
            if command in ("quit", "exit", "q"):
                say("You quit the game.")
                return 0
            if command in ("help", "?", ""):
                say(HELP)
                continue
            if command == "legal":
                say("legal moves: " + " ".join(str(m) for m in position.legal_moves()))
                continue
            if command == "board":
                say(str(position))
                continue
            if command == "hint":
                say(describe_analysis(position, hint_params))
                continue
            text = line
        else:
            text = str(engine.choose(position.hide_pile_order()))
        before = position
        try:
            move = _core.Move(text)
            if colour == human and move.kind == "draw" and str(move) != "draw":
                raise ValueError("type a plain 'draw'; the card comes from the pile")
            if move.kind == "draw" and str(move) == "draw" and position.is_legal(move):
                move = _core.Move("draw:" + dealer.card(position))
            position = position.play(move)
        except _core.IllegalMoveError as exc:
            if colour != human:
                raise
            say(f"'{text}' is not legal here ({exc}). Type 'legal' for the list.")
            continue
        except ValueError as exc:
            if colour != human:
                raise
            say(f"'{text}' is not a move: {exc}. Type 'help' for the notation.")
            continue
        if move.kind == "draw":
            dealer.observe(before, position)
        who = "You" if colour == human else "The engine"
        if move.kind == "draw":
            say(f"{who} ({before.turn}) drew {move.card}.")
        else:
            say(f"{who} ({before.turn}) played {move}.")
        engine.on_move(move)
        show_board = True
    say()
    say(str(position))
    say(result_line(position, human))
    return 0


def run(args: argparse.Namespace) -> int:
    return play_session(args, input_fn=getattr(args, "input_fn", None) or input,
                        out=getattr(args, "out", None))
