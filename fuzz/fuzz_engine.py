"""Fuzz target: engine protocol lines (rosen.engine.Engine(io.StringIO()).handle(line)).

Input layout: the whole input is text (byte 0 picks the decoding: UTF-8 with lone surrogates for
invalid bytes, Latin-1 or UTF-16), one command per line, at most MAX_LINES lines. A committed
corpus file is ``b"\\0" + lines``.

Each input runs in a fresh engine set to Hash 1 MiB and Strength 4 (at most 8 * 1.5**4 = 41
playouts a search), so every `go` is small whatever its limits say. `setoption` lines that would
raise Hash above 4 MiB, Threads above 2 or Strength above 6 are dropped, and so is `bench` (a
fixed workload of seconds); everything else is handed to the engine as it is. After each `go` the
harness waits for its bestmove (stopping an `infinite` one), and at the end stops any search.

Oracle: handle() never raises and returns a bool (False only for `quit`); no output line says
"internal:" (the engine's word for a non-ValueError exception); every output line is one line;
every `go` is answered by exactly one `bestmove`, within WAIT_S seconds.
"""
from __future__ import annotations

import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":  # fuzzing: atheris instruments rosen before this module imports it
    from _atheris_main import fuzz_main
    sys.exit(fuzz_main(__file__))
from _common import Input, check  # noqa: E402

import rosen.engine  # noqa: E402

MAX_LINES = 12
WAIT_S = 20.0
LIMITS = {"hash": 4, "threads": 2, "strength": 6}
SETUP = ("setoption name Hash value 1", "setoption name Strength value 4")


def _dropped(line: str) -> bool:
    words = line.split()
    if not words:
        return False
    command = words[0].lower()
    if command == "bench":
        return True
    if command != "setoption":
        return False
    lowered = [w.lower() for w in words]
    if "value" not in lowered:
        return False
    split = lowered.index("value")
    name = " ".join(lowered[2:split])
    if name not in LIMITS:
        return False
    try:
        number = int(" ".join(words[split + 1:]), 10)
    except ValueError:
        return False
    return number > LIMITS[name]


def run_lines(lines) -> str:
    out = io.StringIO()
    engine = rosen.engine.Engine(out)
    gos = 0
    try:
        for line in SETUP:
            engine.handle(line)
        for line in lines:
            if _dropped(line):
                continue
            words = line.split()
            is_go = bool(words) and words[0].lower() == "go"
            alive = engine.handle(line)
            check(isinstance(alive, bool), f"handle({line!r}) returned {alive!r}")
            if is_go:
                gos += 1
                check(engine.wait(WAIT_S, stop_infinite=True), f"no bestmove {WAIT_S} s after {line!r}")
                check(engine.wait(WAIT_S), f"no bestmove {WAIT_S} s after {line!r} (and stop)")
            if not alive:
                check(bool(words) and words[0].lower() == "quit", f"handle({line!r}) returned False")
                break
    finally:
        engine.stop_search()
    text = out.getvalue()
    check(len(text.split("\n")) - 1 == len(text.splitlines()), f"an answer line holds a line break: {text!r}")
    for answer in text.splitlines():
        check("internal:" not in answer, f"internal error in answer {answer!r}")
    bestmoves = sum(1 for answer in text.splitlines() if answer.startswith("bestmove"))
    check(bestmoves == gos, f"{gos} go command(s) but {bestmoves} bestmove line(s):\n{text}")
    return text


def one_input(data: bytes) -> None:
    inp = Input(data)
    mode = inp.byte()
    text = inp.rest_text(mode)
    lines = text.split("\n")[:MAX_LINES]
    run_lines(lines)
