"""Arguments of the protocol's `position` and `go` commands (PROTOCOL.md), parsed into values.

Parsing has no side effects: it returns a new position or limits, or raises ``ValueError``
whose message starts with the command and names the argument that is wrong.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ._core import Position
from .engine_options import printable
from .engine_search import Limits

_MAX_SEED = 2**64 - 1
#: The most milliseconds a clock value may say (about 11.5 days); more is surely a mistake.
_MAX_MS = 10**9


def _int_arg(command: str, name: str, text: Optional[str], low: int, high: int) -> int:
    if text is None:
        raise ValueError(f"{command}: {name} needs a value")
    try:
        value = int(text, 10)
    except ValueError:
        raise ValueError(f"{command}: {name}: expected an integer, got '{printable(text)}'") from None
    if not low <= value <= high:
        raise ValueError(f"{command}: {name}: expected {low}..{high}, got {value}")
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
        raise ValueError("position: expected 'startpos' or 'fen'")
    kind = args[0].lower()
    head, moves = _split_moves(args[1:])
    if kind == "startpos":
        position = _startpos(head, reshuffle)
    elif kind == "fen":
        if not head:
            raise ValueError("position: fen needs a position line (RULES.md)")
        try:
            position = Position(" ".join(head), reshuffle=reshuffle, seed=seed)
        except ValueError as exc:
            raise ValueError(f"position: fen: {exc}") from None
    else:
        raise ValueError(f"position: expected 'startpos' or 'fen', got '{printable(args[0])}'")
    for ply, text in enumerate(moves, 1):
        try:
            position = position.play(text)
        except ValueError as exc:
            raise ValueError(f"position: move {ply} '{printable(text)}': {exc}") from None
    return position


def _startpos(args: Sequence[str], reshuffle: str) -> Position:
    values: Dict[str, int] = {"seed": 0, "players": 2}
    i = 0
    while i < len(args):
        name = args[i].lower()
        if name not in values:
            raise ValueError(f"position: startpos: unknown argument '{printable(args[i])}' "
                             "(expected seed <S>, players 2|4, moves ...)")
        value = args[i + 1] if i + 1 < len(args) else None
        values[name] = _int_arg("position", name, value, 0, _MAX_SEED)
        i += 2
    if values["players"] not in (2, 4):
        raise ValueError(f"position: players: expected 2 or 4, got {values['players']}")
    # The deal's hands come from the seed; its pile order is hidden like any player's view, so
    # that a frontend dealing its own cards may send any `draw:<card>` the pile holds, and a
    # plain `draw` is dealt by the position's seeded generator (RULES.md notation).
    return Position.new(values["seed"], players=values["players"], reshuffle=reshuffle).hide_pile_order()


@dataclass(frozen=True)
class GoArgs:
    """The arguments of one `go` command, before they are turned into limits."""

    nodes: Optional[int] = None
    movetime: Optional[int] = None
    p1time: Optional[int] = None
    p2time: Optional[int] = None
    p1inc: int = 0
    p2inc: int = 0
    infinite: bool = False

    def limits(self, p1_to_move: bool, playout_cap: Optional[int], default_nodes: int) -> Limits:
        """The limits of this `go` for the side to move. The clock gives a twentieth of the
        remaining time plus three quarters of the increment, never more than 80% of what is left;
        ``playout_cap`` (the Strength option) caps every search; with no limit at all the search
        runs ``default_nodes`` playouts."""
        movetime = self.movetime
        clock = self.p1time if p1_to_move else self.p2time
        if clock is not None:
            inc = self.p1inc if p1_to_move else self.p2inc
            budget = max(1, min(clock // 20 + inc * 3 // 4, clock * 4 // 5))
            movetime = budget if movetime is None else min(movetime, budget)
        nodes = self.nodes
        if playout_cap is not None:
            nodes = playout_cap if nodes is None else min(nodes, playout_cap)
        if nodes is None and movetime is None and not self.infinite:
            nodes = default_nodes
        return Limits(nodes=nodes, movetime=movetime, infinite=self.infinite)


_GO_NUMBERS = {"nodes": (1, 2**63 - 1), "movetime": (1, _MAX_MS), "p1time": (0, _MAX_MS), "p2time": (0, _MAX_MS),
               "p1inc": (0, _MAX_MS), "p2inc": (0, _MAX_MS)}


def parse_go(args: Sequence[str]) -> GoArgs:
    """The arguments of ``go`` (the words after it), in any order."""
    values: Dict[str, object] = {}
    i = 0
    while i < len(args):
        name = args[i].lower()
        if name == "infinite":
            values["infinite"] = True
            i += 1
            continue
        if name not in _GO_NUMBERS:
            raise ValueError(f"go: unknown argument '{printable(args[i])}' "
                             "(expected nodes, movetime, p1time, p2time, p1inc, p2inc, infinite)")
        low, high = _GO_NUMBERS[name]
        values[name] = _int_arg("go", name, args[i + 1] if i + 1 < len(args) else None, low, high)
        i += 2
    if ("p1time" in values) != ("p2time" in values):
        raise ValueError("go: p1time and p2time come together")
    return GoArgs(**values)  # type: ignore[arg-type]
