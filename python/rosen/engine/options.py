"""The options of ``rosen engine`` (PROTOCOL.md `setoption`): their types, ranges and defaults.

Each option knows how to print its `option` line for `ugi` and how to parse a value. Parsing
never changes anything: it returns the new value or raises ``ValueError`` whose message starts
with the option's name, so the engine can answer with one `info string error:` line.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple, Union

from .. import _core
from ..errors import InvalidArgumentError, restated
from ..search import AUTO_EVALUATOR, NODE_BYTES, engine_evaluator
from .clock import MOVE_OVERHEAD_MS
from .protocol import printable
from .strength import STRENGTH_MAX

OptionValue = Union[int, str]

_MIB = 1 << 20
#: A search needs at least this many tree nodes per thread.
_MIN_NODES_PER_THREAD = 1000


@dataclass(frozen=True)
class SpinOption:
    """An integer option in [minimum, maximum]."""

    name: str
    default: int
    minimum: int
    maximum: int
    help: str

    def ugi_line(self) -> str:
        """The option's `option` line in the answer to `ugi`: type spin, default, min and max."""
        return f"option name {self.name} type spin default {self.default} min {self.minimum} max {self.maximum}"

    def parse(self, text: str) -> int:
        """``text`` as a decimal integer in [minimum, maximum]; otherwise a ValueError naming the option."""
        try:
            value = int(text, 10)
        except ValueError:
            raise InvalidArgumentError(f"{self.name}: expected an integer, got '{printable(text)}'", self.name) from None
        if not self.minimum <= value <= self.maximum:
            raise InvalidArgumentError(f"{self.name}: expected {self.minimum}..{self.maximum}, got {value}", self.name)
        return value


@dataclass(frozen=True)
class ComboOption:
    """One of a fixed set of words (compared without case)."""

    name: str
    default: str
    choices: Tuple[str, ...]
    help: str

    def ugi_line(self) -> str:
        """The option's `option` line in the answer to `ugi`: type combo, default and one ``var`` per choice."""
        return f"option name {self.name} type combo default {self.default} " + " ".join(
            f"var {c}" for c in self.choices)

    def parse(self, text: str) -> str:
        """``text`` in lower case if it is one of the choices; otherwise a ValueError naming the option."""
        word = text.lower()
        if word not in self.choices:
            raise InvalidArgumentError(f"{self.name}: expected one of {', '.join(self.choices)}, got '{printable(text)}'",
                                       self.name)
        return word


@dataclass(frozen=True)
class StringOption:
    """Free text, e.g. a file path; an empty value is written ``<empty>`` in the option line (as
    UCI does), and set by an empty value or ``<empty>``."""

    name: str
    default: str
    help: str

    def ugi_line(self) -> str:
        """The option's `option` line in the answer to `ugi`: type string, an empty default as ``<empty>``."""
        return f"option name {self.name} type string default {self.default or '<empty>'}"

    def parse(self, text: str) -> str:
        """``text`` without surrounding whitespace, or ``""`` for blank text or ``<empty>``; never raises."""
        return "" if text.strip() in ("", "<empty>") else text.strip()


Option = Union[SpinOption, ComboOption, StringOption]


OPTIONS: Tuple[Option, ...] = (
    SpinOption("Threads", 1, 1, 256, "search threads (root parallelism); 1 gives reproducible searches"),
    SpinOption("Seed", 0, 0, 2**63 - 1,
               "seed of the search and of plain 'draw' moves from a pile of unknown order"),
    ComboOption("Reshuffle", "eager", ("eager", "lazy"),
                "reshuffle rule (RULES.md R7); applies from the next 'position' command"),
    SpinOption("MultiPV", 1, 1, 64, "candidate moves reported in 'info multipv' lines"),
    SpinOption("Hash", 32, 1, 16384, f"search tree memory in MiB ({NODE_BYTES} bytes a node)"),
    SpinOption("Strength", STRENGTH_MAX, 1, STRENGTH_MAX,
               "1..19 cap every search at about 8 * 1.5**Strength iterations, and below 10 play a random "
               "legal move instead with probability (10 - Strength) / 10; 20 is full strength"),
    SpinOption("MoveOverhead", MOVE_OVERHEAD_MS, 0, 5000,
               "milliseconds each turn loses outside the search (the pipe, the frontend, a network); a clock "
               "(p1time/p2time) keeps them back for every turn still to come"),
    StringOption("EvalFile", AUTO_EVALUATOR,
                 "the network that guides the search (PUCT, network value at the leaves; docs/learning.md): "
                 "auto = the shipped network of the game (builtin with 2 players, builtin-team with 4), builtin, "
                 "builtin-team, a network file, or empty for rollouts"),
)

_BY_KEY: Dict[str, Option] = {o.name.lower(): o for o in OPTIONS}


def find_option(name: str) -> Option:
    """The option called ``name`` (any case); ValueError naming it if there is none."""
    option = _BY_KEY.get(name.lower())
    if option is None:
        known = ", ".join(o.name for o in OPTIONS)
        raise InvalidArgumentError(f"setoption: unknown option '{printable(name)}' (known: {known})", "name")
    return option


def defaults() -> Dict[str, OptionValue]:
    """Every option's default, keyed by its name."""
    return {o.name: o.default for o in OPTIONS}


def eval_file_evaluator(path: str, players: int = 2) -> Optional[Any]:
    """The evaluator of an ``EvalFile`` value in a ``players``-player game (None: rollouts; see
    :func:`rosen.search.engine_evaluator`), read once while the file is unchanged; an unreadable
    or bad file raises an error naming EvalFile."""
    try:
        return engine_evaluator(path, players)
    except ValueError as exc:  # the file is the option here, not engine_evaluator's `evaluator`
        raise InvalidArgumentError(restated(exc, "evaluator", "EvalFile"), "EvalFile") from None


def hash_tree_size(mib: int, threads: int) -> int:
    """Tree nodes that ``mib`` MiB hold, checked against what ``threads`` threads need and what
    this machine can hold (half its memory)."""
    nodes = mib * _MIB // NODE_BYTES
    if nodes < _MIN_NODES_PER_THREAD * threads:
        raise InvalidArgumentError(f"Hash: {mib} MiB holds {nodes} nodes, fewer than {_MIN_NODES_PER_THREAD} for each "
                                   f"of {threads} threads", "Hash")
    limit = _core._max_tree_size_limit()
    if nodes > limit:
        raise InvalidArgumentError(f"Hash: {mib} MiB is more than this machine allows for a search tree "
                                   f"(at most {limit * NODE_BYTES // _MIB} MiB, half of its memory)", "Hash")
    return nodes
