"""Helpers for the engine protocol tests: an in-process engine with captured output, the engine
command line for pipe tests, and a checker that plays a whole game through a client."""
from __future__ import annotations

import sys
import threading
import time
from typing import Callable, List, Optional

import rosen
from rosen.engine import Engine
from rosen.engine.client import EngineClient

#: The engine as a subprocess, exactly as a frontend would start it.
ENGINE_COMMAND = [sys.executable, "-m", "rosen", "engine"]


class LineSink:
    """A text stream that collects whole lines and lets a test wait for one (thread-safe)."""

    def __init__(self) -> None:
        self._buffer = ""
        self.lines: List[str] = []
        self._changed = threading.Condition()
        self.flushes = 0

    def write(self, text: str) -> int:
        with self._changed:
            self._buffer += text
            *whole, self._buffer = self._buffer.split("\n")
            self.lines.extend(whole)
            self._changed.notify_all()
        return len(text)

    def flush(self) -> None:
        self.flushes += 1

    def wait_for(self, predicate: Callable[[str], bool], start: int = 0, timeout: float = 20.0) -> int:
        """Index of the first line from ``start`` on that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for i in range(start, len(self.lines)):
                    if predicate(self.lines[i]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching line within {timeout} s; got {self.lines[start:][-10:]}")
                self._changed.wait(left)


class InProcessEngine:
    """An Engine fed line by line, its output in ``sink.lines``."""

    def __init__(self) -> None:
        self.sink = LineSink()
        self.engine = Engine(self.sink)

    def send(self, *lines: str) -> List[str]:
        """Handle the lines; returns the output they produced at once (not a search's)."""
        start = len(self.sink.lines)
        for line in lines:
            self.engine.handle(line)
        return self.sink.lines[start:]

    def search(self, go: str = "go nodes 300", timeout: float = 30.0) -> List[str]:
        """Run a `go` to its bestmove; returns every line it wrote, the bestmove last."""
        start = len(self.sink.lines)
        self.engine.handle(go)
        end = self.sink.wait_for(lambda s: s.startswith("bestmove"), start, timeout)
        assert self.engine.wait(timeout)
        return self.sink.lines[start:end + 1]

    def close(self) -> None:
        self.engine.handle("quit")


def final_block(lines: List[str]) -> List[str]:
    """The analysis written just before the bestmove (the last root line onwards)."""
    root = max(i for i, line in enumerate(lines) if line.startswith("info depth"))
    return lines[root:]


def without_clock(line: str) -> str:
    """An info line without its time-dependent fields (time, nps)."""
    words = line.split()
    out, i = [], 0
    while i < len(words):
        if words[i] in ("time", "nps"):
            i += 2
            continue
        out.append(words[i])
        i += 1
    return " ".join(out)


def play_checked_game(client: EngineClient, position: rosen.Position, iterations: int = 100,
                      max_plies: int = 400) -> rosen.Position:
    """Play the engine against itself from ``position``, checking every step against the Python
    rules: the engine's view of the position and legal moves, and the legality of its moves.
    Draws are dealt here from the known pile and sent as ``draw:<card>``. Returns the end."""
    played: List[str] = []
    start = position
    client.set_position(start)
    for _ in range(max_plies):
        assert client.query("gameover") == ("true" if position.is_terminal else "false")
        if position.is_terminal:
            break
        assert client.query("position") == position.fen(hide_pile_order=True)
        assert client.query("legal") == " ".join(str(m) for m in position.legal_moves())
        assert client.query("p1turn") == ("true" if position.turn.startswith("r") else "false")
        move = client.go(iterations=iterations).move
        assert move is not None and position.is_legal(move), (move, position.fen())
        after = position.play(move)
        if move.kind == "draw":
            # The card the deal's pile gave: the one hand card more.
            before = [sorted(h) for h in position.hands]
            drawn = [c for c in after.hands[_mover_index(position)] if c not in before[_mover_index(position)]]
            move = rosen.Move(f"draw:{drawn[0]}")
        played.append(str(move))
        position = after
        client.set_position(start, played)
    assert position.is_terminal, "the game did not end"
    assert client.query("gameover") == "true"
    expected = {"red": "p1win", "white": "p2win", "draw": "draw"}[position.winner]
    assert client.query("result") == expected
    assert client.query("legal") == ""
    return position


def _mover_index(position: rosen.Position) -> int:
    order = ["r", "w"] if position.players == 2 else ["r1", "w1", "r2", "w2"]
    return order.index(position.turn)


def start_engine(timeout: float = 30.0, options: Optional[dict] = None) -> EngineClient:
    """A fresh `python -m rosen engine` behind a pipe."""
    return EngineClient(ENGINE_COMMAND, timeout=timeout, options=options)
