"""Drive any program that speaks the rosen engine protocol (PROTOCOL.md) through a pipe.

In the spirit of python-chess's engine module, without its asyncio: ``EngineClient`` starts the
command, does the `ugi`/`isready` handshake and offers ``play`` and ``analyse``; a reader thread
collects the engine's lines so that every wait has a timeout. Lines are read and written with
the protocol vocabulary of :mod:`rosen.engine.protocol`; this module imports nothing else of
rosen but the core and the errors. ``rosen.agents.EngineAgent`` wraps a client as a match agent.

>>> with EngineClient(["rosen", "engine"]) as engine:            # doctest: +SKIP
...     result = engine.play(rosen.Position.new(seed=1), iterations=2000)
...     print(result.move, result.info.winrate)
"""
from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import warnings
import weakref
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .._core import Move, Position
from ..errors import ArgumentTypeError, InvalidArgumentError, check_int
from .protocol import GO_NUMBERS, CandidateInfo, GoArgs, InfoString, SearchInfo, parse_bestmove, parse_info

Command = Union[str, Sequence[str]]


class EngineError(RuntimeError):
    """The engine reported an error, broke the protocol, died, or did not answer in time."""


#: The longest wait a client accepts (s): beyond a day a wait is a hang, and threading's waits
#: overflow past about 9.2e9 s.
MAX_TIMEOUT = 86400.0
#: The longest line read from an engine (bytes): a longer one is a broken engine, not a line to
#: hold in memory (an engine writing without newlines would otherwise fill it).
MAX_LINE_BYTES = 1 << 20
_TOO_LONG = object()  # the reader's marker for such a line
#: Bytes of lines read ahead of the caller: beyond them the reader waits, and so does an engine
#: that floods its output (its pipe fills), instead of the client's memory growing without bound.
#: Generous, so that a caller who sends many commands before reading the answers never waits.
READ_AHEAD_BYTES = 64 << 20
#: A search's ``Analysis.lines`` (and a sync's answer) keeps at most about this many of its
#: latest lines: an engine that talks on and on costs the client no more than that.
MAX_ANALYSIS_LINES = 10000
#: The most options a handshake records; an engine that declares more is broken.
MAX_OPTIONS = 1000


@dataclass
class Analysis:
    """The last report of a search: the root summary and one entry per candidate (multipv)."""

    root: Optional[SearchInfo] = None
    candidates: List[CandidateInfo] = field(default_factory=list)
    #: every line the search wrote (of an engine that floods, the latest MAX_ANALYSIS_LINES or more)
    lines: List[str] = field(default_factory=list)

    @property
    def winrate(self) -> Optional[float]:
        """The root's win rate for the side to move (0..1), or None before the first root line."""
        return self.root.winrate if self.root else None

    @property
    def score(self) -> Optional[float]:
        """The root's expected score margin, the side to move's minus the opponent's, or None before
        the first root line."""
        return self.root.score if self.root else None

    @property
    def iterations(self) -> Optional[int]:
        """The root's iterations (the protocol's ``nodes``), or None before the first root line."""
        return self.root.iterations if self.root else None

    @property
    def pv(self) -> List[str]:
        """The root's principal variation as a new list of moves (empty before the first root line)."""
        return list(self.root.pv) if self.root else []

    def __repr__(self) -> str:
        return (f"Analysis(winrate={self.winrate}, score={self.score}, iterations={self.iterations}, "
                f"pv={' '.join(self.pv)!r})")


@dataclass
class PlayResult:
    """The engine's move (None for `bestmove (none)`) and the analysis behind it."""

    move: Optional[Move]
    info: Analysis

    def __repr__(self) -> str:
        return f"PlayResult(move={self.move!r}, info={self.info!r})"


class EngineClient:
    """One engine process. ``command`` is an argv list or a shell-like string; ``timeout`` (s,
    up to a day) bounds every exchange beyond a search's own time: the handshake, each sync, a
    search with ``time_ms`` as a whole, and the gap between two lines of a search by iterations
    alone (whose length is not known in advance). ``options`` are set after the handshake."""

    def __init__(self, command: Command, *, timeout: float = 30.0, options: Optional[Mapping[str, Any]] = None,
                 cwd: Optional[str] = None) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = check_timeout(timeout)
        if not self.command:
            raise EngineError("engine: the command line is empty")
        try:
            # A process group of its own (POSIX): kill() ends the engine's children too. An engine
            # started by a wrapper script is a grandchild that holds the pipe; killing the wrapper
            # alone left it running, and closing the pipe then waited for it for ever.
            self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd,
                                             start_new_session=os.name == "posix")
        except OSError as exc:
            raise EngineError(f"engine: cannot start {self.command[0]!r}: {exc.strerror or exc}") from None
        self._inbox = _Inbox()
        # The reader holds the pipe and the inbox, never the client: a client dropped without
        # quit() or kill() is collected like any object, and its finalizer ends the engine (F66:
        # an environment that built one an episode kept every engine running until it exited).
        self._finalizer = weakref.finalize(self, _abandoned, self._process, self._inbox, self.command[0], os.getpid())
        self._reader = threading.Thread(target=_read_stdout, args=(self._process.stdout, self._inbox),
                                        name="engine-client-reader", daemon=True)
        self._reader.start()
        self.id: Dict[str, str] = {}
        self.options: Dict[str, str] = {}
        # The R7 rule the engine was last told; None: its own default. A Position carries its rule
        # but the position line does not, so set_position sends the option when the rule changes.
        self._reshuffle: Optional[str] = None
        try:
            self._handshake()
            for name, value in (options or {}).items():
                self.setoption(name, value)
        except BaseException:
            self.kill()
            raise

    # -- plumbing ------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one command line (a newline is added) and flush it."""
        self.send_bytes(line.encode("utf-8") + b"\n")

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes (tests feed hostile input this way)."""
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(data)
            self._process.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise EngineError(f"engine: cannot write to {self.command[0]}: it has exited") from exc

    def readline(self, timeout: Optional[float] = None) -> str:
        """The next line the engine wrote; EngineError at its end of output, for a line longer
        than :data:`MAX_LINE_BYTES`, or after ``timeout``."""
        wait = self.timeout if timeout is None else check_timeout(timeout, zero=True)
        try:
            return self._lines_get(wait, poll=wait == 0)
        except queue.Empty:
            raise EngineError(f"engine: no answer within {wait:g} s") from None

    def _lines_get(self, wait: float, poll: bool = False) -> str:
        """The next line within ``wait`` seconds (queue.Empty after them); EngineError at the end
        of output or for a line too long. A wait <= 0 is a deadline already past: queue.Empty,
        even with lines waiting (an engine that talks on must not outlast its deadline), unless
        ``poll`` asks for a line already waiting (``readline(timeout=0)``)."""
        inbox = self._inbox
        if wait > 0:
            line = inbox.lines.get(timeout=wait)
        elif poll:
            line = inbox.lines.get_nowait()
        else:
            raise queue.Empty
        if isinstance(line, str):
            with inbox.room:
                inbox.queued_bytes -= _held(line)
                inbox.room.notify()
        if line is None or line is _TOO_LONG:
            inbox.lines.put(line)  # later reads see it too
            if line is _TOO_LONG:
                raise EngineError(f"engine: {self.command[0]} wrote a line longer than {MAX_LINE_BYTES} bytes")
            raise EngineError(f"engine: {self.command[0]} closed its output ({self._exit_status()})")
        return line

    def _readline_by(self, deadline: float, budget: float) -> str:
        """The next line, if it comes before ``deadline`` (time.monotonic()); ``budget`` is the
        whole exchange's allowance, for the message."""
        try:
            return self._lines_get(deadline - time.monotonic())
        except queue.Empty:
            raise EngineError(f"engine: no answer within {budget:g} s") from None

    def sync(self, *, check: bool = True) -> List[str]:
        """`isready` and wait for `readyok`; returns the lines before it (of an engine that floods,
        the latest :data:`MAX_ANALYSIS_LINES` or more). With ``check``, raises
        EngineError if one of them is an error report (the engine refused a command sent since
        the last sync)."""
        self.send("isready")
        lines: List[str] = []
        first_error = None
        deadline = time.monotonic() + self.timeout  # an engine that talks on without readyok is stuck too
        while True:
            line = self._readline_by(deadline, self.timeout)
            if line == "readyok":
                break
            lines.append(line)
            if first_error is None:
                first_error = _error_of(line)
            if len(lines) > 2 * MAX_ANALYSIS_LINES:  # a flooding engine: keep the latest
                del lines[:-MAX_ANALYSIS_LINES]
        if check and first_error is not None:
            raise EngineError("engine: " + first_error)
        return lines

    def _handshake(self) -> None:
        self.send("ugi")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._readline_by(deadline, self.timeout)
            if line == "ugiok":
                break
            words = line.split()
            if words[:2] == ["id", "name"] or words[:2] == ["id", "author"]:
                self.id[words[1]] = " ".join(words[2:])
            elif words[:2] == ["option", "name"] and len(words) > 2:
                self.options[words[2]] = line
                if len(self.options) > MAX_OPTIONS:
                    raise EngineError(f"engine: {self.command[0]} declares more than {MAX_OPTIONS} options")
        self.sync()

    # -- commands ------------------------------------------------------------------------------

    def setoption(self, name: str, value: Any) -> None:
        """Set one option; EngineError if the engine refuses it."""
        self.send(f"setoption name {name} value {value}")
        self.sync()
        if str(name).lower() == "reshuffle":
            self._reshuffle = str(value).lower()

    def new_game(self) -> None:
        """`uginewgame`: the engine forgets its search tree."""
        self.send("uginewgame")
        self.sync()

    def set_position(self, position: Union[Position, str], moves: Sequence[Union[Move, str]] = ()) -> None:
        """Send a position: a rosen.Position (its pile order hidden, R14), a RULES.md position
        line, or the words after `position` (``"startpos seed 3"``), plus moves. A Position's
        reshuffle rule (R7) is sent as the ``Reshuffle`` option first when the engine was told
        another; a text position is read under whatever rule the engine has."""
        if isinstance(position, Position):
            self._set_reshuffle(position.reshuffle)
            text = "fen " + position.fen(hide_pile_order=True)
        elif position.split()[:1] in (["startpos"], ["fen"]):
            text = position
        else:
            text = "fen " + position
        if moves:
            text += " moves " + " ".join(str(m) for m in moves)
        self.send("position " + text)
        self.sync()

    def _set_reshuffle(self, rule: str) -> None:
        declared = next((line for name, line in self.options.items() if name.lower() == "reshuffle"), None)
        if declared is None:
            if rule == "eager":  # an engine without the option plays R7's default rule
                return
            raise EngineError(f"engine: {self.command[0]} declares no Reshuffle option, so it cannot play "
                              f"a game under the {rule} reshuffle rule (RULES.md R7)")
        current = self._reshuffle
        if current is None:  # not set yet: the default the engine declared (`... default lazy ...`)
            words = declared.lower().split()
            current = words[words.index("default") + 1] if "default" in words[:-1] else None
        if rule != current:
            self.setoption("Reshuffle", rule)

    def query(self, what: str) -> str:
        """The engine's `response` to ``query <what>``."""
        self.send(f"query {what}")
        line = self.readline()
        error = _error_of(line)
        if error is not None:
            raise EngineError("engine: " + error)
        if not line.startswith("response"):
            raise EngineError(f"engine: expected a response to query {what}, got {line[:80]!r}")
        return line[len("response"):].strip()

    def go(self, *, iterations: Optional[int] = None, time_ms: Optional[int] = None, p1time: Optional[int] = None,
           p2time: Optional[int] = None, p1inc: int = 0, p2inc: int = 0) -> PlayResult:
        """Search the current position (``go nodes <iterations> movetime <time_ms>``); returns the
        bestmove and the last analysis. A game clock instead of (or beside) a budget: ``p1time``
        and ``p2time``, the players' remaining milliseconds (p1 is Red or the Red team), and
        ``p1inc``/``p2inc``, their increments; the engine decides how much of it to spend."""
        go = _checked_go(iterations, time_ms, p1time, p2time, p1inc, p2inc)
        self.send(go.format())
        # The engine spends at most what the clock of the side to move holds (both clocks or neither
        # are given: _checked_go).
        if go.p1time is not None and go.p2time is not None:
            clock = max(0, go.p1time, go.p2time)  # a clock below zero: a move on no time left
            time_ms = clock if time_ms is None else min(time_ms, clock)
        wait = self.timeout + (time_ms or 0) / 1000.0
        # With a time limit the whole search has a deadline; by iterations alone its length is
        # unknown, so only the gap between lines is bounded.
        deadline = time.monotonic() + wait if time_ms is not None else None
        analysis = Analysis()
        error = None
        while True:
            line = self.readline(wait) if deadline is None else self._readline_by(deadline, wait)
            if line.split()[:1] == ["bestmove"]:
                break
            analysis.lines.append(line)
            if len(analysis.lines) > 2 * MAX_ANALYSIS_LINES:  # a flooding engine: keep the latest
                del analysis.lines[:-MAX_ANALYSIS_LINES]
            if not line.startswith("info "):
                continue
            try:
                info = parse_info(line)
            except ValueError as exc:
                raise EngineError(f"engine: {exc}") from None
            if isinstance(info, InfoString):
                # Read on to the bestmove that still comes, so the next command starts in step.
                error = error or info.error
            elif isinstance(info, CandidateInfo):
                if info.multipv == 1:
                    analysis.candidates = []
                analysis.candidates.append(info)
            else:
                analysis.root = info
        if error is not None:
            raise EngineError("engine: " + error)
        try:
            move = parse_bestmove(line)
            return PlayResult(None if move is None else Move(move), analysis)
        except ValueError as exc:
            raise EngineError(f"engine: bestmove: {exc}") from None

    def play(self, position: Union[Position, str], *, iterations: Optional[int] = None,
             time_ms: Optional[int] = None, moves: Sequence[Union[Move, str]] = (), p1time: Optional[int] = None,
             p2time: Optional[int] = None, p1inc: int = 0, p2inc: int = 0) -> PlayResult:
        """The engine's move in ``position`` (after ``moves``) with the given budget or clock (as
        :meth:`go` takes them)."""
        _checked_go(iterations, time_ms, p1time, p2time, p1inc, p2inc)  # before the position is sent
        self.set_position(position, moves)
        return self.go(iterations=iterations, time_ms=time_ms, p1time=p1time, p2time=p2time, p1inc=p1inc,
                       p2inc=p2inc)

    def analyse(self, position: Union[Position, str], *, iterations: Optional[int] = None,
                time_ms: Optional[int] = None, multipv: Optional[int] = None) -> Analysis:
        """The engine's analysis of ``position``; ``multipv`` sets the MultiPV option first."""
        _checked_go(iterations, time_ms, None, None, 0, 0)  # before anything is sent
        if multipv is not None:
            self.setoption("MultiPV", multipv)
        return self.play(position, iterations=iterations, time_ms=time_ms).info

    def quit(self, timeout: float = 5.0) -> int:
        """`quit` and wait for the process; kills it if it does not exit in time."""
        if self._process.poll() is None:
            try:
                self.send("quit")
            except EngineError:
                pass
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_pipes()
        return self._process.returncode

    def kill(self) -> None:
        """End the process, and any process it started, at once."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._close_pipes()

    def _exit_status(self) -> str:
        """The engine's exit status, waited for briefly: it closes its output just before it ends."""
        try:
            return f"exit status {self._process.wait(1.0)}"
        except subprocess.TimeoutExpired:
            return "still running"

    def _close_pipes(self) -> None:
        _close_pipes(self._process, self._inbox)
        self._finalizer.detach()

    @property
    def returncode(self) -> Optional[int]:
        """The exit status, or None while the engine runs."""
        return self._process.poll()

    def __enter__(self) -> "EngineClient":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"EngineClient({' '.join(self.command)!r}, running={self.returncode is None})"


def _checked_go(iterations: Any, time_ms: Any, p1time: Any, p2time: Any, p1inc: Any, p2inc: Any) -> GoArgs:
    """A ``go``'s budget and clock checked under the client's names, as the protocol bounds them."""
    for name, wire, value in (("iterations", "nodes", iterations), ("time_ms", "movetime", time_ms),
                              ("p1time", "p1time", p1time), ("p2time", "p2time", p2time), ("p1inc", "p1inc", p1inc),
                              ("p2inc", "p2inc", p2inc)):
        low, high = GO_NUMBERS[wire]
        if value is not None:  # a clock below zero (after an overstep) is still a clock
            check_int(name, value, None if wire in ("p1time", "p2time") else low, high)
    if (p1time is None) != (p2time is None):
        raise InvalidArgumentError("p1time: p1time and p2time come together (both players' clocks)", "p1time")
    if (p1inc or p2inc) and p1time is None:
        raise InvalidArgumentError("p1inc: increments go with p1time and p2time (a clock)", "p1inc")
    return GoArgs(nodes=iterations, movetime=time_ms, p1time=p1time, p2time=p2time, p1inc=p1inc or 0,
                  p2inc=p2inc or 0)


def check_timeout(value: Any, *, zero: bool = False) -> float:
    """A client's ``timeout`` in seconds, in (0, :data:`MAX_TIMEOUT`]; else an error naming it
    (also what the ``engine:`` agent spec checks when it is parsed). With ``zero``, 0 is allowed
    too: a single wait of 0 takes only a line already waiting (``readline``)."""
    expected = f"timeout: expected seconds in {'[' if zero else '('}0, {MAX_TIMEOUT:g}]"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(f"{expected}, got {type(value).__name__}", "timeout")
    above_low = value >= 0 if zero else value > 0
    if not (above_low and value <= MAX_TIMEOUT):  # false for NaN too
        raise InvalidArgumentError(f"{expected}, got {value!r}", "timeout")
    return float(value)


class _Inbox:
    """The lines the reader thread hands to the client: a queue of lines, then None (the end) or
    _TOO_LONG, and the read-ahead bound (the reader waits on ``room`` while READ_AHEAD_BYTES are
    queued)."""

    def __init__(self) -> None:
        self.lines: "queue.Queue[Any]" = queue.Queue()
        self.queued_bytes = 0
        self.room = threading.Condition()
        self.closed = False

    def put(self, item: Any) -> bool:
        """Queue ``item``, waiting while the read-ahead is full; False once the client is closed
        (nobody will read it)."""
        size = _held(item)
        with self.room:
            while self.queued_bytes > READ_AHEAD_BYTES and not self.closed:
                self.room.wait(0.1)
            if self.closed:
                return False
            self.queued_bytes += size
        self.lines.put(item)
        return True

    def close(self) -> None:
        with self.room:  # the reader stops waiting to hand lines over
            self.closed = True
            self.room.notify()


def _read_stdout(stdout: Any, inbox: _Inbox) -> None:
    """The reader thread: the engine's output, line by line, into ``inbox``."""
    try:
        while True:
            raw = stdout.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                inbox.put(_TOO_LONG)  # the reader stops: the engine is broken
                return
            if not inbox.put(raw.decode("utf-8", errors="replace").rstrip("\r\n")):
                return
    except (OSError, ValueError):  # the pipe closed under the read (quit, kill): the end of output
        pass
    inbox.put(None)


def _close_pipes(process: "subprocess.Popen[bytes]", inbox: _Inbox) -> None:
    # The engine's own children (POSIX) first: the process group the engine leads, whether it is
    # still running or not (nothing is left there after a clean exit: ProcessLookupError). A child
    # still holding stdout would block its close (the reader is in it).
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    inbox.close()
    for pipe in (process.stdin, process.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass


def _abandoned(process: "subprocess.Popen[bytes]", inbox: _Inbox, name: str, owner: int) -> None:
    """The finalizer of a client dropped (or left at exit) without quit() or kill(): the engine
    ends with it, as an unclosed file is closed, and a ResourceWarning says so. Only in the
    process that started the engine: a forked child's exit must not kill its parent's engine (nor
    close a pipe whose lock the parent's reader held at the fork: that hung the child)."""
    if os.getpid() != owner:
        return
    if process.poll() is None:
        warnings.warn(f"engine {name!r} (pid {process.pid}) was left running; it is killed (use quit() or "
                      f"'with EngineClient(...)')", ResourceWarning, stacklevel=1)
        process.kill()
        process.wait()
    _close_pipes(process, inbox)


def _held(item: Any) -> int:
    """About the memory a queued line holds: its text and a Python str's own overhead."""
    return len(item) + 64 if isinstance(item, str) else 0


def _error_of(line: str) -> Optional[str]:
    """The message of an ``info string error:`` line, else None."""
    if not line.startswith("info string"):
        return None
    return InfoString(line[len("info string"):].strip()).error
