"""The vocabulary of the rosen engine protocol (PROTOCOL.md), shared by both ends.

One formatter and one parser for each line the engine writes (``info``, ``info multipv``,
``info string``, ``bestmove``) and for the arguments of the commands it reads (``position``,
``go``). The server (:mod:`rosen.engine.server`) and the client (:mod:`rosen.engine.client`)
both use this module, so the two ends cannot drift apart.

Names: Python fields use rosen's words, the wire keeps the protocol's. This module is the one
place where they are mapped:

========================  ============  ==========================================
field                     wire          meaning
========================  ============  ==========================================
``iterations``            ``nodes``     playouts of the search so far
``tree_size``             ``tree``      nodes in the search tree(s)
``time_ms``               ``time``      milliseconds since the search started
``nps``                   ``nps``       iterations per second
========================  ============  ==========================================

Parsing has no side effects: it returns values or raises :class:`rosen.InvalidArgumentError`
whose message starts with the command and names the argument at fault.

>>> info = SearchInfo(depth=5.46, seldepth=10, iterations=4000, nps=46147, time_ms=87, winrate=0.5962,
...                   score=20.52, tree_size=7566, pv=("E3", "NE1", "draw"))
>>> info.format()
'info depth 5.46 seldepth 10 nodes 4000 nps 46147 time 87 winrate 0.5962 score 20.52 tree 7566 pv E3 NE1 draw'
>>> parse_info(info.format()) == info
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .._core import Position
from ..errors import ArgumentTypeError, InvalidArgumentError, check_str, is_collection

_MAX_SEED = 2**64 - 1
#: The most milliseconds a clock value or ``go movetime`` may say (about 11.5 days); more is surely a mistake.
MAX_MS = 10**9
#: The most iterations ``go nodes`` may ask for.
MAX_NODES = 2**63 - 1


def printable(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with control and non-ASCII characters escaped, so an
    error line quoting hostile input stays one short, plain line."""
    cut = text[:limit]
    shown = cut.encode("ascii", "backslashreplace").decode("ascii")
    shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in shown)
    return shown + ("..." if len(text) > limit else "")


def _error(command: str, message: str, field: Optional[str] = None) -> InvalidArgumentError:
    return InvalidArgumentError(f"{command}: {message}", field or command)


# --- info lines --------------------------------------------------------------------------------

def _num(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


@dataclass(frozen=True)
class SearchInfo:
    """The root summary of a search: ``info depth .. seldepth .. nodes .. nps .. time .. winrate ..
    score .. tree .. pv ..``. Numbers are from the view of the side to move; ``pv`` stops at the
    first draw. ``extra`` keeps fields this version does not know (frontends must tolerate them)."""

    depth: float = 0.0
    seldepth: int = 0
    iterations: int = 0
    nps: int = 0
    time_ms: int = 0
    winrate: float = 0.5
    score: float = 0.0
    tree_size: int = 0
    pv: Tuple[str, ...] = ()
    extra: Tuple[Tuple[str, str], ...] = ()

    def format(self) -> str:
        """The line, with the precision the protocol prints (depth and score 2 decimals, winrate 4)."""
        words = ["info", "depth", _num(self.depth, 2), "seldepth", str(self.seldepth), "nodes", str(self.iterations),
                 "nps", str(self.nps), "time", str(self.time_ms), "winrate", _num(self.winrate, 4),
                 "score", _num(self.score, 2), "tree", str(self.tree_size)]
        for key, value in self.extra:
            words += [key, value]
        if self.pv:
            words += ["pv", *self.pv]
        return " ".join(words)


@dataclass(frozen=True)
class CandidateInfo:
    """One root move: ``info multipv <k> move .. visits .. winrate .. score .. prior .. pv ..``;
    its ``pv`` is that move's own line (starting with the move)."""

    multipv: int
    move: str
    visits: int = 0
    winrate: float = 0.5
    score: float = 0.0
    prior: float = 0.0
    pv: Tuple[str, ...] = ()
    extra: Tuple[Tuple[str, str], ...] = ()

    def format(self) -> str:
        """The line, with the precision the protocol prints (score 2 decimals, winrate and prior 4); an
        empty ``pv`` is written as the move alone."""
        words = ["info", "multipv", str(self.multipv), "move", self.move, "visits", str(self.visits),
                 "winrate", _num(self.winrate, 4), "score", _num(self.score, 2), "prior", _num(self.prior, 4)]
        for key, value in self.extra:
            words += [key, value]
        words += ["pv", *(self.pv or (self.move,))]
        return " ".join(words)


@dataclass(frozen=True)
class InfoString:
    """``info string <text>``: free text; errors are ``info string error: <what was wrong>``."""

    text: str

    @property
    def is_error(self) -> bool:
        """Whether the text is an error (it starts with ``error:``)."""
        return self.text.startswith("error:")

    @property
    def error(self) -> Optional[str]:
        """The error message without its ``error:`` prefix, or None for other text."""
        return self.text[len("error:"):].strip() if self.is_error else None

    def format(self) -> str:
        """The line, with every run of whitespace in the text (newlines too) as one space."""
        return "info string " + " ".join(self.text.split())


def error_line(message: str) -> str:
    """``info string error: <message>``, always one line."""
    return InfoString("error: " + message).format()


Info = Union[SearchInfo, CandidateInfo, InfoString]

# Wire key -> (Python field, type), per line kind.
_SEARCH_KEYS = {"depth": ("depth", float), "seldepth": ("seldepth", int), "nodes": ("iterations", int),
                "nps": ("nps", int), "time": ("time_ms", int), "winrate": ("winrate", float),
                "score": ("score", float), "tree": ("tree_size", int)}
_CANDIDATE_KEYS = {"multipv": ("multipv", int), "move": ("move", str), "visits": ("visits", int),
                   "winrate": ("winrate", float), "score": ("score", float), "prior": ("prior", float)}


def parse_info(line: str) -> Info:
    """The :class:`SearchInfo`, :class:`CandidateInfo` or :class:`InfoString` of one ``info`` line.

    Fields this version does not know are kept in ``extra`` (each one word); a known field with
    a malformed value raises :class:`rosen.InvalidArgumentError`.
    """
    words = check_str("line", line).split()
    if not words or words[0] != "info":
        raise _error("info", f"not an info line: '{printable(line, 60)}'", "line")
    if len(words) > 1 and words[1] == "string":
        return InfoString(" ".join(words[2:]))
    keys = _CANDIDATE_KEYS if len(words) > 1 and words[1] == "multipv" else _SEARCH_KEYS
    values: Dict[str, object] = {}
    extra: List[Tuple[str, str]] = []
    pv: Tuple[str, ...] = ()
    i = 1
    while i < len(words):
        key = words[i]
        if key == "pv":
            pv = tuple(words[i + 1:])
            break
        if i + 1 >= len(words):
            raise _error("info", f"{key}: needs a value", key)
        value = words[i + 1]
        if key in keys:
            name, kind = keys[key]
            try:
                values[name] = kind(value)
            except ValueError:
                raise _error("info", f"{key}: expected a {kind.__name__}, got '{printable(value)}'", key) from None
        else:
            extra.append((key, value))
        i += 2
    if keys is _CANDIDATE_KEYS:
        if "multipv" not in values or "move" not in values:
            raise _error("info", "a multipv line needs multipv and move", "line")
        return CandidateInfo(pv=pv, extra=tuple(extra), **values)  # type: ignore[arg-type]
    return SearchInfo(pv=pv, extra=tuple(extra), **values)  # type: ignore[arg-type]


def format_bestmove(move: Optional[str]) -> str:
    """``bestmove <move>``, or ``bestmove (none)`` when there is no move to give."""
    return f"bestmove {move if move is not None else '(none)'}"


def parse_bestmove(line: str) -> Optional[str]:
    """The move of a ``bestmove`` line (None for ``(none)``)."""
    words = check_str("line", line).split()
    if not words or words[0] != "bestmove":
        raise _error("bestmove", f"not a bestmove line: '{printable(line, 60)}'", "line")
    return None if len(words) < 2 or words[1] == "(none)" else words[1]


# --- command arguments -------------------------------------------------------------------------

def _int_arg(command: str, name: str, text: Optional[str], low: Optional[int], high: Optional[int]) -> int:
    if text is None:
        raise _error(command, f"{name} needs a value", name)
    try:
        value = int(text, 10)
    except ValueError:
        raise _error(command, f"{name}: expected an integer, got '{printable(text)}'", name) from None
    if (low is not None and value < low) or (high is not None and value > high):
        expected = f"at most {high}" if low is None else f"at least {low}" if high is None else f"{low}..{high}"
        raise _error(command, f"{name}: expected {expected}, got {value}", name)
    return value


def _split_moves(args: Sequence[str]) -> Tuple[List[str], List[str]]:
    """(arguments before `moves`, the moves after it)."""
    lowered = [a.lower() for a in args]
    if "moves" in lowered:
        i = lowered.index("moves")
        return list(args[:i]), list(args[i + 1:])
    return list(args), []


def parse_position(args: Sequence[str], *, reshuffle: str, seed: int) -> Position:
    """The position of ``position startpos ...`` or ``position fen ...`` (the words after
    `position`). ``reshuffle`` is the rule (R7); ``seed`` deals plain draws from a `*` pile."""
    if not args:
        raise _error("position", "expected 'startpos' or 'fen'")
    kind = args[0].lower()
    head, moves = _split_moves(args[1:])
    if kind == "startpos":
        position = _startpos(head, reshuffle)
    elif kind == "fen":
        if not head:
            raise _error("position", "fen needs a position line (RULES.md)", "fen")
        try:
            position = Position(" ".join(head), reshuffle=reshuffle, seed=seed)
        except ValueError as exc:
            raise _error("position", f"fen: {exc}", "fen") from None
    else:
        raise _error("position", f"expected 'startpos' or 'fen', got '{printable(args[0])}'")
    for ply, text in enumerate(moves, 1):
        try:
            position = position.play(text)
        except ValueError as exc:
            raise _error("position", f"move {ply} '{printable(text)}': {exc}", "moves") from None
    return position


def _startpos(args: Sequence[str], reshuffle: str) -> Position:
    values: Dict[str, int] = {"seed": 0, "players": 2}
    given = set()
    i = 0
    while i < len(args):
        name = args[i].lower()
        if name not in values:
            raise _error("position", f"startpos: unknown argument '{printable(args[i])}' "
                                     "(expected seed <S>, players 2|4, moves ...)", "startpos")
        if name in given:  # which would win is a guess the engine should not make
            raise _error("position", f"startpos: {name} given twice", name)
        given.add(name)
        value = args[i + 1] if i + 1 < len(args) else None
        if name == "players":
            if value not in ("2", "4"):
                shown = "nothing" if value is None else printable(value)
                raise _error("position", f"players: expected 2 or 4, got {shown}", "players")
            values[name] = int(value)
        else:
            values[name] = _int_arg("position", name, value, 0, _MAX_SEED)
        i += 2
    # The deal's hands come from the seed; its pile order is hidden like any player's view, so
    # that a frontend dealing its own cards may send any `draw:<card>` the pile holds, and a
    # plain `draw` is dealt by a generator seeded with S (RULES.md notation). (A hidden copy keeps
    # no generator of its own: the frontend chose S, so seeding from it gives nothing away.)
    deal = Position.new(values["seed"], players=values["players"], reshuffle=reshuffle)
    return Position(deal.fen(hide_pile_order=True), reshuffle=reshuffle, seed=values["seed"])


@dataclass(frozen=True)
class Limits:
    """What ends one search: an iteration budget, a time budget (ms), or neither (until `stop`)."""

    iterations: Optional[int] = None
    time_ms: Optional[int] = None
    infinite: bool = False


@dataclass(frozen=True)
class GoArgs:
    """The arguments of one ``go`` command as written (wire names), before they become limits."""

    nodes: Optional[int] = None
    movetime: Optional[int] = None
    p1time: Optional[int] = None
    p2time: Optional[int] = None
    p1inc: int = 0
    p2inc: int = 0
    infinite: bool = False

    def format(self) -> str:
        """The ``go`` line."""
        words = ["go"]
        for name in ("nodes", "movetime", "p1time", "p2time"):
            value = getattr(self, name)
            if value is not None:
                words += [name, str(value)]
        if self.p1inc or self.p2inc:  # PROTOCOL.md's grammar: the two increments come as a pair
            words += ["p1inc", str(self.p1inc), "p2inc", str(self.p2inc)]
        if self.infinite:
            words.append("infinite")
        return " ".join(words)


#: Each number a ``go`` takes and its bounds (a clock below its 0 is read as 0, not refused).
GO_NUMBERS = {"nodes": (1, MAX_NODES), "movetime": (1, MAX_MS), "p1time": (0, MAX_MS), "p2time": (0, MAX_MS),
              "p1inc": (0, MAX_MS), "p2inc": (0, MAX_MS)}
_CLOCK_NUMBERS = ("p1time", "p2time", "p1inc", "p2inc")


def parse_go(args: Union[str, Sequence[str]]) -> GoArgs:
    """The arguments of ``go`` in any order: the words after it, or the whole line as text (so that
    ``parse_go(g.format()) == g``; a string was once read letter by letter)."""
    if isinstance(args, str):
        args = args.split()
        if args and args[0].lower() == "go":
            args = args[1:]
    if isinstance(args, Mapping) or not is_collection(args):
        raise ArgumentTypeError(f"args: expected the words after go (a str or a sequence of str), got "
                                f"{type(args).__name__}", "args")
    args = list(args)
    for k, word in enumerate(args):
        if not isinstance(word, str):
            raise ArgumentTypeError(f"args[{k}]: expected a str, got {type(word).__name__}", f"args[{k}]")
    values: Dict[str, object] = {}
    i = 0
    while i < len(args):
        name = args[i].lower()
        if name in values:
            raise _error("go", f"{name} given twice", name)
        if name == "infinite":
            values["infinite"] = True
            i += 1
            continue
        if name not in GO_NUMBERS:
            raise _error("go", f"unknown argument '{printable(args[i])}' "
                               "(expected nodes, movetime, p1time, p2time, p1inc, p2inc, infinite)")
        low, high = GO_NUMBERS[name]
        text = args[i + 1] if i + 1 < len(args) else None
        if name in _CLOCK_NUMBERS:
            # A clock is what the frontend's clock shows, below zero after an overstep: still a
            # move to play, on no time left (0). Above the range it is refused as any number is.
            values[name] = max(_int_arg("go", name, text, None, high), low)
        else:
            values[name] = _int_arg("go", name, text, low, high)
        i += 2
    if ("p1time" in values) != ("p2time" in values):
        raise _error("go", "p1time and p2time come together", "p1time")
    if ("p1inc" in values or "p2inc" in values) and "p1time" not in values:  # PROTOCOL.md: increments follow the times
        raise _error("go", "p1inc and p2inc go with p1time and p2time (a clock), not alone", "p1inc")
    if ("p1inc" in values) != ("p2inc" in values):  # [p1inc <ms> p2inc <ms>]: a lone one was taken, unsaid
        raise _error("go", "p1inc and p2inc come together", "p1inc")
    return GoArgs(**values)  # type: ignore[arg-type]


__all__ = ["SearchInfo", "CandidateInfo", "InfoString", "Info", "parse_info", "error_line", "format_bestmove",
           "parse_bestmove", "GoArgs", "Limits", "parse_go", "parse_position", "printable"]
