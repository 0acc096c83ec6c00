"""The ``rosen`` command line: one subcommand per job.

Every subcommand lives in its own module with ``add_parser(subparsers)`` and a ``run(args)``;
arguments several of them share are declared once in :mod:`rosen.cli._args`. ``main(argv)`` is
the entry point (and what the tests call): a bad argument prints one line and returns 2.
"""
from __future__ import annotations

import argparse
import contextlib
import re
import os
import sys
from typing import Iterator, Optional, Sequence

from .. import __version__
from ..engine.client import EngineError
from . import analyse, bench, engine, lovagok, match, play, randomplay, selfplay, serve, strength, train

_COMMANDS = [play, analyse, match, engine, serve, randomplay, selfplay, train, lovagok, bench, strength]


def build_parser() -> argparse.ArgumentParser:
    """The ``rosen`` argument parser with every subcommand; a parsed namespace's ``run`` is the chosen
    command's ``run``."""
    parser = argparse.ArgumentParser(prog="rosen", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"rosen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in _COMMANDS:
        command.add_parser(sub)
    _plain_descriptions(parser)
    return parser


def _plain_descriptions(parser: argparse.ArgumentParser) -> None:
    """The descriptions are the modules' docstrings: their RST literals (````rosen````) and roles
    (``:class:`rosen.agents.HumanAgent```) read as plain words in a terminal."""
    if parser.description:
        parser.description = re.sub(r":(?:class|func|meth|mod|attr):`([^`]*)`", r"\1",
                                    parser.description).replace("``", "")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _plain_descriptions(child)


@contextlib.contextmanager
def _escaping_stdout() -> Iterator[None]:
    """Text standard output cannot encode (a run folder named in CJK under an ASCII or Latin-1
    stdout, a file name that is not UTF-8) is written escaped, as stderr's is: it raised
    UnicodeEncodeError, a ValueError, and a finished command reported an error with status 2."""
    stream = sys.stdout
    errors = getattr(stream, "errors", None)
    reconfigure = getattr(stream, "reconfigure", None)
    # surrogateescape (stdout under the C locale) writes back undecodable bytes only, and raises on
    # other text it cannot encode as strict does; without an `errors` there is nothing to restore.
    if reconfigure is None or not isinstance(errors, str) or errors not in ("strict", "surrogateescape"):
        yield  # already lenient, or not a text stream whose handler can be set and restored
        return
    try:
        reconfigure(errors="backslashreplace")
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError):
            pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``rosen`` on ``argv`` (default: the command line) and return the exit status instead of exiting:
    the command's own, argparse's (0 after ``--help``, 2 for a bad argument), 2 for a command's error
    (one line on stderr), 130 after Ctrl-C, 1 when the reader of standard output went away."""
    if sys.stdout is not None:
        with _escaping_stdout():
            return _main(argv)
    return _main(argv)


def _main(argv: Optional[Sequence[str]]) -> int:
    # A closed standard stream is None in Python, and fails in odd places later (a progress bar's
    # isatty, input()): no input reads as its end, no stderr as writing nowhere; with no stdout
    # there is nowhere to report to, which is an error, not a silent success.
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None:
        print("rosen: error: standard output is closed; there is nowhere to write", file=sys.stderr)
        return 2
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message; return the code, do not exit
        return int(exc.code or 0)
    except KeyboardInterrupt:  # Ctrl-C right at the start
        print("rosen: interrupted", file=sys.stderr)
        return 130
    try:
        code = int(args.run(args) or 0)
        flush = getattr(sys.stdout, "flush", None)  # None under pythonw; tests may swap stdout
        if flush is not None:
            flush()  # a reader that went away shows here, where the handler below sees it
        return code
    except (ValueError, TypeError, EngineError) as exc:
        print(f"rosen {args.command}: error: {_in_cli_words(parser, args, exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback, the shell's code for SIGINT
        print(f"rosen {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``rosen analyse --json | head``): stop quietly, as Unix tools do.
        # Pointing stdout at devnull keeps the interpreter's final flush from raising again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # a full disk, a closed descriptor: on stdout or a file no check could foresee
        where = f" ({exc.filename})" if exc.filename else ""
        try:
            print(f"rosen {args.command}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        except OSError:
            pass
        try:
            sys.stdout.flush()
        except (OSError, ValueError):  # stdout is what failed: the interpreter's final flush must not fail again
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
        return 2


def _subparser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command that ran: ``selfplay inspect``'s, not ``selfplay``'s."""
    while True:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        chosen = getattr(args, subs[0].dest, None) if subs else None
        if chosen is None or chosen not in subs[0].choices:
            return parser
        parser = subs[0].choices[chosen]


def _in_cli_words(parser: argparse.ArgumentParser, args: argparse.Namespace, exc: Exception) -> str:
    """The error's message, naming the command-line option when the field it names is one
    (``games: expected ...`` -> ``--games: expected ...``)."""
    message, field = str(exc), getattr(exc, "field", None)
    if field and message.startswith(f"{field}: "):
        sub = _subparser(parser, args)
        flag = "--" + field.replace("_", "-")
        if flag in sub._option_string_actions:
            return flag + message[len(field):]
        for action in sub._positionals._group_actions:
            if action.dest == field:
                metavar = action.metavar if isinstance(action.metavar, str) else None  # a tuple: options only
                return (metavar or field) + message[len(field):]
    return message


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
