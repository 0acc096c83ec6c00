"""The engine side of the rosen engine protocol (PROTOCOL.md): commands in, responses out.

``Engine`` holds the state (options, position, searcher) and answers one command line at a time
(``handle``). Searches run on a thread of their own, so that ``isready``, ``stop``, ``query`` and
``quit`` are answered while one runs. A command that needs the searcher (``go``, ``uginewgame``,
``bench``) and arrives during a search waits in a backlog, with everything read after it, so that
the input is never blocked: ``isready``, ``stop`` and ``quit`` are always answered at once (PROTOCOL.md).
``serve`` reads a byte stream (stdin) line by line on the calling thread. Input and output are
injected, so the same code runs in tests and behind a pipe.

Every response line is written whole and flushed at once. A line the engine cannot use gets
exactly one ``info string error: ...`` line and leaves the state as it was; an empty or blank
line is ignored without an answer.

>>> import io
>>> out = io.StringIO()
>>> engine = Engine(out)
>>> engine.handle("position startpos seed 1")
True
>>> engine.handle("query p1turn")
True
>>> out.getvalue()
'response true\\n'
"""
from __future__ import annotations

import re
import threading
import time
from collections import deque
from typing import Any, BinaryIO, Callable, Deque, Dict, List, Optional, TextIO, Tuple

from .. import __version__
from .._core import Position
from ..errors import InvalidArgumentError, check_real
from .clock import limits_for
from .options import (
    OPTIONS,
    OptionValue,
    defaults,
    eval_file_evaluator,
    find_option,
    hash_tree_size,
)
from .protocol import Limits, error_line, format_bestmove, parse_go, parse_position, printable
from .search import SearchSnapshot, SlicedSearch
from .strength import level_move, strength_iterations

#: Iterations of a `go` that names no limit at all.
DEFAULT_ITERATIONS = 20_000
#: Longest input line read whole; a longer one is skipped with an error.
MAX_LINE_BYTES = 64 * 1024
#: How often a running search reports (PROTOCOL.md asks for at least once per second).
INFO_INTERVAL_S = 0.5
AUTHOR = "the rosen authors"

#: Commands that need the searcher: during a search they wait in the backlog for its bestmove (a
#: script may send `go` twice), and so does every command read after them, in order. Other commands
#: are carried out at once; `position` and `setoption` affect the next `go`.
_NEED_IDLE = {"go", "uginewgame", "bench"}
#: Commands answered the moment they are read, backlog or not (PROTOCOL.md: `isready` at any time,
#: `stop` within milliseconds).
_AT_ONCE = {"isready", "stop", "quit"}
#: Commands that take no arguments: a word after one is a mistake, not something to ignore.
_NO_ARGUMENTS = {"ugi", "isready", "uginewgame", "stop", "bench", "quit"}


class Engine:
    """One engine session. ``output`` is any text stream; every line is flushed when written."""

    def __init__(self, output: TextIO) -> None:
        self._output = output
        self._write_lock = threading.Lock()
        self._options: Dict[str, OptionValue] = defaults()
        self._position: Optional[Position] = None
        self._searcher: Optional[SlicedSearch] = None
        # Set when the running search's (or bench's) thread function has returned: the engine's own
        # record, not Thread.is_alive(), which is also False before start() and, inside CPython,
        # for a moment after the thread has begun (both once let `stop` return too early).
        self._finished: Optional[threading.Event] = None
        self._stop = threading.Event()
        self._busy = False  # from `go` until its bestmove is written
        self._benching = False  # `bench` runs (on the search thread; nothing in it to stop)
        self._infinite = False
        # Commands run one at a time, in the order read: on the input thread, or, for the backlog,
        # on the search thread that has just written its bestmove.
        self._order = threading.RLock()
        # Lines waiting for the search to end, each with the number of `stop`s read before it: a
        # `go` read before a `stop` runs stopped (it ends at once, with its bestmove).
        self._backlog: Deque[Tuple[str, int]] = deque()
        self._stops = 0
        self._stop_lock = threading.Lock()  # `stop` against the start of a `go`
        self.output_lost = False
        self._commands: Dict[str, Callable[[List[str]], None]] = {
            "ugi": self._ugi, "isready": self._isready, "setoption": self._setoption,
            "uginewgame": self._uginewgame, "position": self._position_command, "go": self._go,
            "stop": self._stop_command, "query": self._query, "bench": self._bench,
        }

    # -- input ---------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carry out one command line; False once it was `quit` (the session is over)."""
        words = line.split()
        if not words:
            return True
        command = words[0].lower()
        if command in _AT_ONCE:
            return self._carry_out(line)
        with self._order:
            if self._backlog or (self._busy and command in _NEED_IDLE):
                self._backlog.append((line, self._stops))
                return True
            return self._carry_out(line)

    def _carry_out(self, line: str, stops: Optional[int] = None) -> bool:
        """One command line now; ``stops``: the `stop` count when a backlog line was read."""
        words = line.split()
        command, args = words[0].lower(), words[1:]
        try:
            if command in _NO_ARGUMENTS and args:
                raise InvalidArgumentError(f"{command}: takes no arguments, got '{printable(' '.join(args))}'", command)
            if command == "quit":
                self.stop_search()
                return False
            action = self._commands.get(command)
            if action is None:
                raise InvalidArgumentError(f"unknown command '{printable(words[0])}' (known: "
                                           f"{', '.join(sorted([*self._commands, 'quit']))})", "command")
            if command == "go":
                self._go(args, stops)
            elif command == "setoption":
                self._setoption(args, line)
            else:
                action(args)
        except Exception as exc:  # noqa: BLE001 - no input may end the session
            self._error(exc)
        return True

    def _run_backlog(self) -> None:
        """Carry out the waiting lines in order, up to one that starts a search (called with
        ``_order`` held, once a search has written its bestmove)."""
        while self._backlog and not self._busy:
            line, stops = self._backlog.popleft()
            self._carry_out(line, stops)

    def serve(self, stream: BinaryIO) -> int:
        """Read commands from a byte stream until `quit` or its end; returns the exit status.

        Bytes are decoded as UTF-8 with errors replaced, so no input can raise. At the end of
        the stream a finite search is allowed to finish (``echo 'go nodes 100' | rosen engine``
        prints its move) while its output is read; an `infinite` one is stopped.
        """
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                skipped = len(raw) + _skip_line(stream)
                self._send(f"info string error: line too long ({skipped} bytes; the limit is {MAX_LINE_BYTES})")
                continue
            if not self.handle(raw.decode("utf-8", errors="replace")):
                return 0
            if self.output_lost:
                self.stop_search()
                return 1
        # A frontend that dies without `quit` (killed: SIGTERM, SIGKILL) closes both ends: a finite
        # search ran on to its limit for nobody, minutes under a long movetime. Its next info line
        # (every INFO_INTERVAL_S) finds the output gone, and that ends it.
        self._wait_idle(None, interrupt=lambda: self._infinite or self.output_lost, poll_s=INFO_INTERVAL_S / 5)
        return 1 if self.output_lost else 0

    # -- state ---------------------------------------------------------------------------------

    @property
    def searching(self) -> bool:
        """True while a search (up to its bestmove) runs."""
        return self._busy

    @property
    def backlog(self) -> int:
        """Command lines waiting for the running search to end."""
        return len(self._backlog)

    @property
    def position(self) -> Optional[Position]:
        """The position the next `go` searches (None before the first `position`)."""
        return self._position

    def option(self, name: str) -> OptionValue:
        """The current value of an option (any case)."""
        return self._options[find_option(name).name]

    def stop_search(self) -> None:
        """End the running search and every `go` waiting behind it (each still writes its
        bestmove), and wait until the backlog has run."""
        with self._stop_lock:
            self._stops += 1
            self._stop.set()
        self._wait_idle(None, interrupt=lambda: True)

    def wait(self, timeout: Optional[float] = None, *, stop_infinite: bool = False) -> bool:
        """Wait until the running search has written its bestmove and the backlog has run; False
        if that takes longer than ``timeout``. ``stop_infinite`` stops each search that would
        otherwise wait for `stop` (the end of the input); finite ones run to their limits."""
        if isinstance(timeout, float) and timeout == float("inf"):
            timeout = None  # as long as it takes, as None says
        if timeout is not None:  # Event.wait takes no more than TIMEOUT_MAX (a bare OverflowError beyond)
            timeout = check_real("timeout", timeout, 0, threading.TIMEOUT_MAX)
        return self._wait_idle(timeout, interrupt=(lambda: self._infinite) if stop_infinite else (lambda: False))

    def _wait_idle(self, timeout: Optional[float], interrupt: Callable[[], bool],
                   poll_s: Optional[float] = None) -> bool:
        """``interrupt`` is asked at the start and, given ``poll_s``, every ``poll_s`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            finished = self._finished
            if finished is None:
                return True
            if finished.is_set():
                # It ran the backlog before it ended; a `go` there started the next thread.
                if self._finished is finished:
                    return True
                continue
            stopping = interrupt()
            if stopping:
                self._stop.set()
                # A slice that starts just after interrupt() would miss it: again until the thread ends.
                if self._searcher is not None:
                    self._searcher.interrupt()
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            if stopping:
                left = 0.002
            elif poll_s is not None:
                left = poll_s if left is None else min(left, poll_s)
            finished.wait(left)

    # -- output --------------------------------------------------------------------------------

    def _send(self, *lines: str) -> None:
        with self._write_lock:
            self._write(lines)

    def _write(self, lines) -> None:
        if self.output_lost:
            return
        try:
            for line in lines:
                self._output.write(line + "\n")
            self._output.flush()
        except (OSError, ValueError):
            # The frontend closed its end of the pipe: nobody listens any more, so the session
            # ends (serve() sees the flag) instead of failing on every later line.
            self.output_lost = True

    def _error(self, exc: Exception) -> None:
        self._send(_error_line(exc))

    # -- commands ------------------------------------------------------------------------------

    def _ugi(self, args: List[str]) -> None:
        self._send(f"id name rosen {__version__}", f"id author {AUTHOR}", *(o.ugi_line() for o in OPTIONS), "ugiok")

    def _isready(self, args: List[str]) -> None:
        # The networks are read here, before `readyok` (where UCI engines finish their setup), not
        # in the first `go`'s time: 20 ms of a 1 ms move, on a frontend's clock. Only while no
        # command runs (_order free) and no search: a `go` from the backlog may be starting.
        if self._order.acquire(blocking=False):
            try:
                if not self._busy:
                    for players in (2, 4):
                        try:
                            eval_file_evaluator(str(self._options["EvalFile"]), players)
                        except ValueError:
                            pass  # a file gone bad since `setoption`: the next `go` reports it
            finally:
                self._order.release()
        self._send("readyok")

    def _setoption(self, args: List[str], line: Optional[str] = None) -> None:
        lowered = [a.lower() for a in args]
        if len(args) < 2 or lowered[0] != "name" or "value" not in lowered:
            raise InvalidArgumentError("setoption: expected 'setoption name <name> value <value>'", "setoption")
        split = lowered.index("value")
        name, value = " ".join(args[1:split]), " ".join(args[split + 1:])
        if line is not None:
            # The value is the rest of the line as written, less the whitespace around it: a path
            # with two spaces or a tab inside names that file (rejoined words named another, F68).
            value_word = list(re.finditer(r"\S+", line))[split + 1]  # the `value` word (args is words[1:])
            value = line[value_word.end():].strip()
        option = find_option(name)
        parsed = option.parse(value)
        if option.name in ("Threads", "Hash"):
            threads = parsed if option.name == "Threads" else self._options["Threads"]
            mib = parsed if option.name == "Hash" else self._options["Hash"]
            try:
                hash_tree_size(int(mib), int(threads))  # raises if the pair cannot work
            except InvalidArgumentError as exc:
                if option.name == "Hash":
                    raise
                # The option refused is the one being set (PROTOCOL.md: the error names it).
                raise InvalidArgumentError(f"Threads: {threads} threads need a larger Hash ({exc})", "Threads") from None
        if option.name == "EvalFile":
            eval_file_evaluator(str(parsed))  # a bad file is refused now, not at the next `go`
        self._options[option.name] = parsed
        self._drop_stale_searcher()

    def _uginewgame(self, args: List[str]) -> None:
        if self._searcher is not None:
            self._searcher.reset()

    def _position_command(self, args: List[str]) -> None:
        self._position = parse_position(args, reshuffle=str(self._options["Reshuffle"]),
                                        seed=int(self._options["Seed"]))

    def _query(self, args: List[str]) -> None:
        if len(args) != 1:
            raise InvalidArgumentError("query: expected one of gameover, p1turn, result, position, legal", "query")
        what = args[0].lower()
        if what not in ("gameover", "p1turn", "result", "position", "legal"):
            raise InvalidArgumentError(f"query: unknown question '{printable(args[0])}' "
                                       "(expected gameover, p1turn, result, position or legal)", "query")
        position = self._position
        if position is None:
            raise InvalidArgumentError(f"query {what}: no position yet; send 'position' first", "position")
        self._send(f"response {_answer(position, what)}".rstrip())  # no legal move: just "response"

    def _go(self, args: List[str], stops: Optional[int] = None) -> None:
        started = time.monotonic()  # the move's time runs from here: loading a network counts too
        try:
            go = parse_go(args)
            position = self._position
            if position is None:
                raise InvalidArgumentError("go: no position yet; send 'position startpos' or 'position fen ...' first",
                                           "position")
            if position.is_terminal:
                raise InvalidArgumentError("go: the game is over; there is no move to search", "position")
            limits = limits_for(go, position, strength_iterations(int(self._options["Strength"])), DEFAULT_ITERATIONS,
                                int(self._options["MoveOverhead"]))
            searcher = self._current_searcher(position.players)
        except Exception as exc:  # noqa: BLE001
            # A `go` that cannot start still ends with one bestmove, so no frontend waits forever.
            self._error(exc)
            self._send(format_bestmove(None))
            return
        with self._stop_lock:
            # A `stop` read after this `go` was read ends it at once; one read before does not.
            if stops is not None and stops < self._stops:
                self._stop.set()
            else:
                self._stop.clear()
        self._busy = True
        self._infinite = limits.infinite
        multipv = int(self._options["MultiPV"])
        # The level's move is the `go`'s too: a setoption during the search applies to the next one.
        level = (int(self._options["Strength"]), int(self._options["Seed"]))
        try:
            self._start_thread("rosen-search", self._search_main, searcher, position, limits, multipv, level, started)
        except RuntimeError as exc:  # no thread to be had: the promised bestmove still comes
            self._busy = False
            self._error(exc)
            self._send(format_bestmove(None))

    def _stop_command(self, args: List[str]) -> None:
        if self._benching:
            # Nothing to stop: the `go`s waiting behind the bench still start stopped (the count),
            # and input goes on meanwhile -- waiting for the bench held `isready` (F68).
            with self._stop_lock:
                self._stops += 1
                self._stop.set()
            return
        self.stop_search()

    def _bench(self, args: List[str]) -> None:
        # On a thread of its own, as a search is: on the input thread it held `isready` (and every
        # command) for the whole bench (F68). Commands that need the engine idle wait behind it.
        self._busy = True
        self._benching = True
        self._infinite = False
        try:
            self._start_thread("rosen-bench", self._bench_main)
        except RuntimeError as exc:
            self._busy = self._benching = False
            self._error(exc)

    def _start_thread(self, name: str, target: Callable[..., None], *args: Any) -> None:
        """Run ``target(*args)`` on a thread of its own; ``_finished`` says when it has returned.
        If the thread cannot start (a thread limit), the engine is left as if it had ended."""
        finished = threading.Event()

        def run() -> None:
            try:
                target(*args)
            finally:
                finished.set()

        self._finished = finished
        try:
            threading.Thread(target=run, name=name, daemon=True).start()
        except RuntimeError:
            finished.set()
            raise

    def _bench_main(self) -> None:
        from .bench import run_bench

        try:
            lines = list(run_bench())
        except Exception as exc:  # noqa: BLE001 - the engine stays up, and idle
            lines = [_error_line(exc)]
        self._benching = False
        self._finish(*lines)

    # -- search --------------------------------------------------------------------------------

    def _searcher_key(self, players: int) -> Tuple[Any, ...]:
        """What a searcher for the current options and a ``players``-player game is built from."""
        threads = int(self._options["Threads"])
        return (threads, int(self._options["Seed"]), hash_tree_size(int(self._options["Hash"]), threads),
                eval_file_evaluator(str(self._options["EvalFile"]), players))

    def _current_searcher(self, players: int) -> SlicedSearch:
        """The searcher for the current options and a ``players``-player game, rebuilt (losing its
        tree) when they changed."""
        key = self._searcher_key(players)
        if self._searcher is None or self._searcher.key != key:
            self._searcher = None
            self._searcher = SlicedSearch(threads=key[0], seed=key[1], max_tree_size=key[2], evaluator=key[3])
        return self._searcher

    def _drop_stale_searcher(self) -> None:
        """A searcher the options no longer fit is freed now, in `setoption`'s time: freed by the
        next `go`, its tree (gigabytes under a large Hash) took 40-70 ms of a 10 ms move."""
        if self._searcher is None or self._busy or self._position is None:
            return  # a running search holds it; the next `go` rebuilds it
        try:  # for the game the next `go` searches (a searcher may serve both games)
            stale = self._searcher.key != self._searcher_key(self._position.players)
        except ValueError:
            return  # the next `go` reports what is wrong
        if stale:
            self._searcher = None

    def _search_main(self, searcher: SlicedSearch, position: Position, limits: Limits, multipv: int,
                     level: Tuple[int, int], started: float) -> None:
        last = [time.monotonic()]

        def progress(snapshot: SearchSnapshot) -> None:
            now = time.monotonic()
            if now - last[0] >= INFO_INTERVAL_S:
                last[0] = now
                self._send(*snapshot.info_lines(multipv))

        try:
            snapshot = searcher.run(position, limits, self._stop, progress, started=started)
            if limits.infinite:
                # `go infinite` answers only after `stop` (as in UCI). Its limit reached, the search
                # is still running for the frontend, so the figures keep coming at least once a
                # second (PROTOCOL.md): it was silent until `stop`, a dead engine to a keep-alive.
                while not self._stop.wait(INFO_INTERVAL_S):
                    self._send(*snapshot.info_lines(multipv))
            # The info lines are the search's; a level below full strength may play another move.
            move = level_move(snapshot.best_move, position, *level)
            self._finish(*snapshot.info_lines(multipv), format_bestmove(move))
        except Exception as exc:  # noqa: BLE001 - the promised bestmove must come
            self._finish(_error_line(exc), format_bestmove(None))

    def _finish(self, *lines: str) -> None:
        # Idle before the bestmove is out: a frontend may send its next command the moment it
        # reads it, and that command must not find the engine still busy. The backlog runs next,
        # before any command read later (``_order``).
        with self._order:
            with self._write_lock:
                self._busy = False
                self._write(lines)
            self._run_backlog()

    def __repr__(self) -> str:
        fen = self._position.fen(hide_pile_order=True) if self._position is not None else None
        return f"Engine(position={fen!r}, searching={self.searching})"


def _error_line(exc: Exception) -> str:
    # ValueErrors carry a message for the user; anything else is a bug, said as such.
    return error_line(str(exc) if isinstance(exc, ValueError) else f"internal: {type(exc).__name__}: {exc}")


def _p1_to_move(position: Position) -> bool:
    """p1 is Red (2 players) or the Red team (4 players: r1 and r2)."""
    return position.colour_to_move == "red"


def _answer(position: Position, what: str) -> str:
    if what == "gameover":
        return "true" if position.is_terminal else "false"
    if what == "p1turn":
        return "true" if _p1_to_move(position) else "false"
    if what == "result":
        return {"red": "p1win", "white": "p2win", "draw": "draw", None: "none"}[position.winner]
    if what == "position":
        return position.fen(hide_pile_order=True)
    return " ".join(str(m) for m in position.legal_moves())


def _skip_line(stream: BinaryIO) -> int:
    """Read and drop the rest of an over-long line; returns how many bytes that was."""
    skipped = 0
    while True:
        chunk = stream.readline(MAX_LINE_BYTES)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped
