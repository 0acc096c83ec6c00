"""``rosen play``: a person against the engine in the terminal.

Moves are typed in RULES.md notation (``N2``, ``H:N2``, ``draw``, ``pass``); ``hint`` shows the
engine's analysis, ``legal`` lists the legal moves, ``quit`` ends the game. Cards for draws come
from the deal (see :class:`rosen.match.Dealer`), and the drawn card is shown. The person is a
:class:`rosen.agents.HumanAgent` in the same game loop as every match game.
"""
from __future__ import annotations

import argparse
import secrets
import sys
from typing import Callable, Optional, TextIO

from .._core import Move, Position
from ..agents import Agent, HumanAgent, LevelAgent, MCTSAgent, QuitGame, parse_agent_spec
from ..engine.strength import STRENGTH_MAX, strength_iterations
from ..errors import InvalidArgumentError, check_int
from ..match import play_game, replay
from ..search import search
from . import _args


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand to ``sub``."""
    p = sub.add_parser("play", help="play against the engine in the terminal", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--colour", "--color", dest="colour", choices=("red", "white"), default="red",
                   help="your colour; red moves first (default red); with --players 4 you play both seats")
    _args.add_search(p, default_iterations=1000)
    _args.add_deal_seed(p, "seed of the deal (default: a random deal, named when the game ends)", default=None)
    _args.add_rules(p)
    p.add_argument("--engine", metavar="SPEC",
                   help="the opponent as an agent spec, e.g. greedy or engine:command=...,iterations=2000 "
                        "(default: mcts with the budget and the evaluator above, which with --engine size the "
                        "'hint' search only)")
    p.add_argument("--level", type=int, default=STRENGTH_MAX,
                   help=f"the default engine's level, 1..{STRENGTH_MAX} (default {STRENGTH_MAX}, full strength): as "
                        "the engine protocol's Strength, below 20 it searches at most about 8 * 1.5**level "
                        "iterations, and below 10 it plays a random move in (10 - level) of 10 turns")
    p.set_defaults(run=run)


def make_engine(args: argparse.Namespace) -> Agent:
    """The opponent: the ``--engine`` agent spec, else MCTS with the search options and ``--evaluator``;
    below full ``--level`` its iterations are capped and a :class:`rosen.agents.LevelAgent` adds the
    level's random moves."""
    level = check_int("--level", args.level, 1, STRENGTH_MAX)
    if args.engine:
        if level != STRENGTH_MAX:
            raise InvalidArgumentError("--level: only for the default engine; an engine: spec takes strength=N",
                                       "level")
        try:
            return parse_agent_spec(args.engine).build(args.search_seed)
        except ValueError as exc:
            raise InvalidArgumentError(f"--engine: {exc}", "engine") from None
    params = _args.search_params(args)
    cap = strength_iterations(level)
    if cap is None:
        return MCTSAgent(evaluator=_args.evaluator(args, args.players), **params)
    params["iterations"] = min(params.get("iterations") or cap, cap)
    engine = MCTSAgent(evaluator=_args.evaluator(args, args.players), **params)
    return LevelAgent(engine, level, seed=args.search_seed)


def describe_analysis(position: Position, params: dict, *, top: int = 5) -> str:
    """The engine's view of ``position``: best moves with visits, win rates and lines, and the PV."""
    result = search(position.hide_pile_order(), **params)
    lines = [f"engine analysis: {result.iterations} iterations, depth {result.depth:.1f}, "
             f"win rate {result.winrate:.1%} for the side to move"]
    for info in result.moves[:top]:
        text = (f"  {str(info.move):<7} visits {info.visits:>7}  win rate {info.winrate:6.1%}  "
                f"expected margin {info.score:+6.1f}")
        if len(info.pv) > 1:
            text += "  line " + " ".join(str(m) for m in info.pv)
        lines.append(text)
    lines.append("  pv: " + " ".join(str(m) for m in result.pv))
    return "\n".join(lines)


def result_line(position: Position, human: str) -> str:
    """The closing line of a finished game: the final scores of ``position`` and who won, said to the
    person playing ``human`` (a colour)."""
    red, white = position.scores
    winner = position.winner
    assert winner is not None, "result_line takes a finished game's position"
    if winner == "draw":
        verdict = "The game is a draw."
    else:
        verdict = f"{winner.capitalize()} wins -- " + ("you win!" if winner == human else "the engine wins.")
    return f"Final score: red {red}, white {white}. {verdict}"


def replay_line(seed: int) -> str:
    """The line that names the deal once its game is over (never before: it would give the pile away)."""
    return f"The deal was seed {seed}: --seed {seed} deals it again."


def play_session(args: argparse.Namespace, *, input_fn: Callable[[str], str] = input,
                 out: Optional[TextIO] = None) -> int:
    """Run one game; ``input_fn`` and ``out`` replace the terminal (the tests script them)."""
    out = out or sys.stdout

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    engine = make_engine(args)
    # A fixed default deal would be one whose draws a player can look up (R14): a random one,
    # named at the end so that the game can be dealt again.
    seed = secrets.randbelow(2**53) if args.seed is None else args.seed
    hint_params = dict(_args.search_params(args), evaluator=_args.evaluator(args, args.players))
    human = args.colour
    person = HumanAgent(input_fn=input_fn, output=out, hint=lambda position: describe_analysis(position, hint_params))
    say(f"You play {human}" + (" (both seats of your team)" if args.players == 4 else "") +
        f" against {engine!r}. Type 'help' for the notation.")
    say()
    say(str(Position.new(seed, players=args.players, reshuffle=args.reshuffle)))

    def show(before: Position, move: Move, after: Position) -> None:
        who = "You" if before.colour_to_move == human else "The engine"
        say(f"{who} ({before.turn}) {'drew ' + str(move.card) if move.kind == 'draw' else 'played ' + str(move)}.")
        if not after.is_terminal and after.colour_to_move == human:
            say()
            say(str(after))

    agents = {human: person, "white" if human == "red" else "red": engine}
    try:
        record = play_game(agents["red"], agents["white"], seed=seed, players=args.players,
                           reshuffle=args.reshuffle, on_move=show)
    except QuitGame:
        say("You quit the game.")
        say(replay_line(seed))
        return 0
    finally:
        close = getattr(engine, "close", None)  # an engine process is given back
        if close is not None:
            close()
    final = replay(record)
    say()
    say(str(final))
    say(result_line(final, human))
    say(replay_line(seed))
    return 0


def run(args: argparse.Namespace) -> int:
    """Play one game against the engine in the terminal (:func:`play_session`); returns 0."""
    input_fn = getattr(args, "input_fn", None)
    if input_fn is None and getattr(sys.stdin, "errors", None) == "strict" and hasattr(sys.stdin, "reconfigure"):
        # Bytes that are not UTF-8 become U+FFFD in their own line: with strict decoding the
        # error also dropped the rest of the buffered input (piped lines after it were lost).
        # Other settings (surrogateescape, the C locale's) already keep the line; they stay.
        sys.stdin.reconfigure(errors="replace")
    return play_session(args, input_fn=input_fn or input, out=getattr(args, "out", None))
