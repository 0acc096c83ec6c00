"""The benchmark position suite: positions from real searched games, each with a reference move.

The suite is one JSON file (``rosen/data/bench_suite.json``, made by ``tools/make_bench_suite.py``)::

    {"format": "rosen-bench-suite-1",
     "produced": {...how the games and the references were made...},
     "positions": [{"id": "2p-open-00", "players": 2, "phase": "opening", "ply": 7, "plies": 98,
                    "fen": "<RULES.md position line, pile order hidden>",
                    "best_move": "N2", "value": 0.61, "share": 0.42, "second": "E1"}, ...]}

``value`` is the reference search's win rate of its best move for the side to move, ``share``
the best move's share of the root visits and ``second`` the runner-up: a small share or a close
runner-up marks a position where a weaker search may pick another, nearly as good move.

>>> suite = load_suite()
>>> len(suite.positions) > 0 and suite.positions[0].position.fen(hide_pile_order=True) == suite.positions[0].fen
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

from .. import _json
from .._core import Move, Position
from ..errors import ArgumentTypeError, InvalidArgumentError

FORMAT = "rosen-bench-suite-1"
PHASES = ("opening", "middle", "ending")
#: The committed suite, shipped inside the package (scikit-build-core copies python/rosen whole).
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "bench_suite.json"
_REQUIRED = ("id", "players", "phase", "fen", "best_move", "value")
#: The JSON types of a position's fields (an int is a number too; a bool is neither).
_TYPES: Dict[str, tuple] = {"id": (str,), "players": (int,), "phase": (str,), "fen": (str,), "best_move": (str,),
                            "value": (int, float), "ply": (int,), "plies": (int,), "share": (int, float, type(None)),
                            "second": (str, type(None))}
_TYPE_NAMES = {str: "a str", int: "an int", float: "a number", type(None): "null"}


@dataclass(frozen=True)
class SuitePosition:
    """One test position and what the long reference search made of it."""

    id: str
    players: int
    phase: str
    fen: str
    best_move: str
    value: float
    ply: int = 0
    plies: int = 0
    share: Optional[float] = None
    second: Optional[str] = None

    @property
    def position(self) -> Position:
        """A new :class:`rosen.Position` from ``fen`` (whose pile order is hidden)."""
        return Position(self.fen)

    def to_json(self) -> Dict[str, Any]:
        """The position's entry in the suite file: its fields, those that are None left out."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class Suite:
    """The positions and the record of how they were produced."""

    positions: List[SuitePosition]
    produced: Dict[str, Any] = field(default_factory=dict)
    path: Optional[str] = None

    def select(self, players: Optional[int] = None, phase: Optional[str] = None,
               limit: Optional[int] = None) -> "Suite":
        """A sub-suite: only ``players`` / ``phase``, then the first ``limit`` spread evenly
        over the rest (every k-th), so that a short run still covers every kind."""
        chosen = [p for p in self.positions
                  if (players is None or p.players == players) and (phase is None or p.phase == phase)]
        if limit is not None and 0 < limit < len(chosen):
            step = len(chosen) / limit
            chosen = [chosen[int(i * step)] for i in range(limit)]
        return Suite(chosen, dict(self.produced), self.path)

    def to_json(self) -> Dict[str, Any]:
        """The suite file's object: ``format``, ``produced`` and every position."""
        return {"format": FORMAT, "produced": self.produced, "positions": [p.to_json() for p in self.positions]}


def _position(entry: Any, index: int, where: str) -> SuitePosition:
    if not isinstance(entry, dict):
        raise InvalidArgumentError(f"suite: {where}: position {index} is not an object", "suite")
    missing = [k for k in _REQUIRED if k not in entry]
    if missing:
        raise InvalidArgumentError(f"suite: {where}: position {index} lacks {', '.join(missing)}", "suite")
    name = entry["id"] if isinstance(entry["id"], str) else f"#{index}"
    for key, kinds in _TYPES.items():
        value = entry.get(key)
        if key in entry and (isinstance(value, bool) or not isinstance(value, kinds)):
            expected = " or ".join(_TYPE_NAMES[k] for k in kinds if k is not int or float not in kinds)
            raise InvalidArgumentError(f"suite: {where}: position {name}: {key}: expected {expected}, got "
                                       f"{type(value).__name__}", "suite")
    known = set(SuitePosition.__dataclass_fields__)
    pos = SuitePosition(**{k: v for k, v in entry.items() if k in known})
    if pos.players not in (2, 4) or pos.phase not in PHASES:
        raise InvalidArgumentError(f"suite: {where}: position {pos.id}: players must be 2 or 4 and phase one of "
                                   f"{', '.join(PHASES)}", "suite")
    try:
        position = pos.position
    except ValueError as exc:
        raise InvalidArgumentError(f"suite: {where}: position {pos.id}: fen: {exc}", "suite") from None
    try:
        legal = position.is_legal(Move(pos.best_move))
    except ValueError as exc:
        raise InvalidArgumentError(f"suite: {where}: position {pos.id}: best_move: {exc}", "suite") from None
    if position.is_terminal or not legal:
        raise InvalidArgumentError(f"suite: {where}: position {pos.id}: best_move {pos.best_move} is not legal there",
                                   "suite")
    if not 0.0 <= float(pos.value) <= 1.0:
        raise InvalidArgumentError(f"suite: {where}: position {pos.id}: value must lie in [0, 1]", "suite")
    return pos


def parse_suite(data: Any, where: str = "<data>") -> Suite:
    """A suite from its parsed JSON, every position checked (legal reference move, known phase)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidArgumentError(f"suite: {where}: expected a JSON object with format {FORMAT!r}", "suite")
    entries = data.get("positions")
    if not isinstance(entries, list) or not entries:
        raise InvalidArgumentError(f"suite: {where}: expected a non-empty list 'positions'", "suite")
    positions = [_position(e, i, where) for i, e in enumerate(entries)]
    ids = [p.id for p in positions]
    if len(set(ids)) != len(ids):
        raise InvalidArgumentError(f"suite: {where}: position ids must be unique", "suite")
    produced = data.get("produced", {})
    if not isinstance(produced, dict):
        raise InvalidArgumentError(f"suite: {where}: produced: expected an object, got {type(produced).__name__}",
                                   "suite")
    return Suite(positions, dict(produced), where)


def load_suite(path: Union[str, Path, None] = None) -> Suite:
    """The suite at ``path`` (default: the committed one)."""
    if path is not None and not isinstance(path, (str, Path)):
        raise ArgumentTypeError(f"suite: expected a path, got {type(path).__name__}", "suite")
    path = Path(path) if path is not None else DEFAULT_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InvalidArgumentError(f"suite: cannot read {str(path)!r}: {reason}", "suite") from None
    try:
        data = _json.loads(text)
    except ValueError as exc:
        raise InvalidArgumentError(f"suite: {str(path)!r} is not JSON: {exc}", "suite") from None
    return parse_suite(data, str(path))


__all__: Sequence[str] = ("DEFAULT_PATH", "FORMAT", "PHASES", "Suite", "SuitePosition", "load_suite", "parse_suite")
