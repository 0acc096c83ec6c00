"""The ``rosen`` command line: one subcommand per job.

Every subcommand lives in its own module with ``add_parser(subparsers)`` and a ``run(args)``;
``main(argv)`` is the entry point (and what the tests call).
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from . import cli_analyse, cli_engine, cli_lovagok, cli_match, cli_play, cli_randomplay

_COMMANDS = [cli_play, cli_analyse, cli_match, cli_engine, cli_randomplay, cli_lovagok]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rosen", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in _COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message; return the code, do not exit
        return int(exc.code or 0)
    try:
        return int(args.run(args) or 0)
    except (ValueError, TypeError) as exc:
        print(f"rosen {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
