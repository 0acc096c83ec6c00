"""``rosen engine``: speak the rosen engine protocol (PROTOCOL.md, docs/protocol.md) on stdin/stdout."""
from __future__ import annotations

import argparse
import io
import sys

from ..engine import Engine


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``engine`` subcommand to ``sub``."""
    p = sub.add_parser("engine", help="run as an engine for frontends (line protocol on stdin/stdout)",
                       description=__doc__)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Speak the engine protocol on stdin/stdout until `quit` or the end of the input; returns the
    engine's exit status (0, or 1 once its output is lost), or 130 after Ctrl-C."""
    # UTF-8 whatever the locale, '\n' line ends, and no buffering surprises: the engine flushes
    # after every response.
    output = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="replace", newline="\n",
                              write_through=True)
    engine = Engine(output)
    try:
        return engine.serve(sys.stdin.buffer)
    except KeyboardInterrupt:  # Ctrl-C at a terminal: end like `quit`, without a traceback
        engine.stop_search()
        return 130
    finally:
        output.flush()
        output.detach()
