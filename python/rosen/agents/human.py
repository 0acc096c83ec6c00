"""A person at a terminal, as a player like any other (so there is one game loop).

The person types moves in RULES.md notation (``N2``, ``H:N2``, ``draw``, ``pass``) and a few
commands: ``legal``, ``board``, ``hint`` (the engine's analysis, when a hint function is given),
``help`` and ``quit``. Bad input is explained and asked again; ``quit``, Ctrl-C or the end of
input raise :class:`QuitGame`, which ends the game loop.
"""
from __future__ import annotations

import sys
from typing import Callable, Optional, TextIO

from .._core import Move, Position
from ..errors import IllegalMoveError
from .base import DecisionStats

HELP = ("moves: N2 (play a card), H:N2 (hero with a card), draw, pass -- case does not matter\n"
        "commands: legal (list the legal moves), hint (engine analysis), board, help, quit")


class QuitGame(Exception):
    """The person ended the game (``quit``, Ctrl-C or the end of input)."""


class HumanAgent:
    """Asks a person for each move through ``input_fn`` (default: :func:`input`) and writes to
    ``output`` (default: stdout). ``hint(position)`` returns the text ``hint`` shows."""

    name = "human"

    def __init__(self, *, input_fn: Callable[[str], str] = input, output: Optional[TextIO] = None,
                 hint: Optional[Callable[[Position], str]] = None) -> None:
        self._input = input_fn
        self._output = output
        self._hint = hint
        self.last_stats: Optional[DecisionStats] = None

    def say(self, text: str = "") -> None:
        """Write ``text`` and a newline to the output (stdout by default) and flush it."""
        out = self._output or sys.stdout
        out.write(text + "\n")
        out.flush()

    def choose(self, position: Position) -> Move:
        """Ask the person until they type a legal move, answering commands (``legal``, ``board``, ``hint``,
        ``help``) meanwhile; ``quit``, Ctrl-C or the end of input raise :class:`QuitGame`."""
        while True:
            try:
                line = self._input(f"your move ({position.turn})> ").strip()
            except UnicodeDecodeError:  # bytes that are not text: say so and ask again
                line = "\ufffd"
            except (EOFError, KeyboardInterrupt):
                self.say()
                raise QuitGame from None
            if "\ufffd" in line:  # (rosen play decodes stdin with errors="replace")
                self.say("That input is not text. Type 'help' for the notation.")
                continue
            move = self._answer(position, line)
            if move is not None:
                return move

    def _answer(self, position: Position, line: str) -> Optional[Move]:
        """The move ``line`` names, or None after answering a command or explaining an error."""
        command = line.lower()
        if command in ("quit", "exit", "q"):
            raise QuitGame
        if command in ("help", "?", ""):
            self.say(HELP)
        elif command == "legal":
            self.say("legal moves: " + " ".join(str(m) for m in position.legal_moves()))
        elif command == "board":
            self.say(str(position))
        elif command == "hint":
            self.say(self._hint(position) if self._hint else "No hints in this game.")
        else:
            try:
                move = Move(line)
                if move.kind == "draw" and str(move) != "draw":
                    # The pile's order is hidden from players (R14): the dealer picks the card.
                    self.say(f"'{line}' is not a move you can choose: type a plain 'draw'; the card comes from the pile.")
                    return None
                if not position.is_legal(move):
                    position.play(move)  # raises IllegalMoveError with the legal moves listed
                return move
            except IllegalMoveError as exc:
                self.say(f"'{line}' is not legal here ({exc}). Type 'legal' for the list.")
            except ValueError as exc:
                self.say(f"'{line}' is not a move: {exc}. Type 'help' for the notation.")
        return None

    def reset(self) -> None:
        """Does nothing: the agent keeps no state between games."""
        pass

    def on_move(self, move: Move) -> None:
        """Does nothing: the agent keeps no record of the moves played."""
        pass

    def __repr__(self) -> str:
        return "HumanAgent()"
