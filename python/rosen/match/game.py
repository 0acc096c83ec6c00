"""The game loop (one for matches, terminal play and everything else), its record, and replay.

Chance comes from the deal, not from the agents: a plain ``draw`` takes the top card of the dealt
pile, and after a reshuffle (R7) the :class:`Dealer` orders the new pile by a permutation fixed by
the deal seed and the reshuffle's number. Two games on the same deal therefore see the same cards
for as long as their piles hold the same cards, whoever plays which colour. Every draw is recorded
as ``draw:<card>``, so a record replays exactly from ``Position.new(seed)``.
"""
from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from .. import _core
from ..agents.base import Agent, DecisionStats
from ..errors import MAX_SEED, ArgumentTypeError, InvalidArgumentError, check_int
from ..search import iterations_per_second

ALL_CARDS = tuple(d + str(n) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW") for n in (1, 2, 3))
MAX_PLIES = 10_000  # far beyond any real game; guards against an agent that never ends one


def _mix(*values: int) -> int:
    """A 64-bit hash of a few integers (splitmix64 steps), for deriving independent seeds."""
    x = 0x9E3779B97F4A7C15
    for v in values:
        x = (x ^ (v & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        x = z ^ (z >> 31)
    return x


class Dealer:
    """Deals the card of each plain draw from the deal itself.

    While the dealt pile lasts its order is known and the top card is taken. A reshuffled pile has
    no order in the position; the dealer gives reshuffle number ``k`` the permutation
    ``_mix(seed, k)`` of all 24 cards and always deals the first pile card in it -- the same as
    shuffling the pile with that permutation, and the same card in both games of a pair whenever
    the piles agree.
    """

    def __init__(self, seed: int) -> None:
        self.seed = check_int("seed", seed, 0, MAX_SEED)  # a Python int: _mix's arithmetic needs one
        self.reshuffles = 0
        self._order: Optional[List[str]] = None

    def __repr__(self) -> str:
        return f"Dealer(seed={self.seed}, reshuffles={self.reshuffles})"

    def _new_pile_order(self) -> List[str]:
        self.reshuffles += 1
        order = list(ALL_CARDS)
        random.Random(_mix(self.seed, self.reshuffles)).shuffle(order)
        self._order = order
        return order

    def card(self, position: _core.Position) -> str:
        """The card a plain draw yields now (call only when ``draw`` is legal; otherwise an error,
        and the dealer is unchanged)."""
        if not isinstance(position, _core.Position):
            raise ArgumentTypeError(f"position: expected a rosen.Position, got {type(position).__name__}", "position")
        drawable = {card for card, _ in position.draw_outcomes()}
        if not drawable:  # checked first: a known pile's top card once answered an illegal draw
            raise InvalidArgumentError("position: draw is not legal here", "position")
        pile = position.draw_pile
        if pile:  # the dealt pile, order known
            return pile[0]
        # A lazy reshuffle (R7: the discard becomes the pile now), or a pile of unknown order we
        # never saw reshuffled: a new order.
        order = self._order
        if position.pile_size == 0 or order is None:
            order = self._new_pile_order()
        return next(card for card in order if card in drawable)

    def observe(self, before: _core.Position, after: _core.Position) -> None:
        """Note an eager reshuffle (R7): the pile grew after the draw that emptied it."""
        for name, value in (("before", before), ("after", after)):
            if not isinstance(value, _core.Position):
                raise ArgumentTypeError(f"{name}: expected a rosen.Position, got {type(value).__name__}", name)
        if before.pile_size > 0 and after.pile_size > before.pile_size - 1:
            self._new_pile_order()


@dataclass
class SideStats:
    """Search figures of one side summed over decisions (zero for agents that do not search), and
    ``clock_left_ms``: what the side's game clock had left when the game ended, for an agent on a
    clock (``mcts:clock_ms=...``; below zero: overspent), None for any other."""

    moves: int = 0
    depth_sum: float = 0.0
    iterations: int = 0
    time_ms: float = 0.0
    clock_left_ms: Optional[float] = None

    def add(self, stats: Optional[DecisionStats]) -> None:
        """Count one decision's figures; None (an agent that does not search) adds nothing."""
        if stats is None:
            return
        self.moves += 1
        self.depth_sum += stats.depth
        self.iterations += stats.iterations
        self.time_ms += stats.time_ms

    def merge(self, other: "SideStats") -> None:
        """Add the totals of ``other`` to these; of the clocks, the least left is kept."""
        self.moves += other.moves
        self.depth_sum += other.depth_sum
        self.iterations += other.iterations
        self.time_ms += other.time_ms
        if other.clock_left_ms is not None:
            self.clock_left_ms = other.clock_left_ms if self.clock_left_ms is None \
                else min(self.clock_left_ms, other.clock_left_ms)

    @property
    def mean_depth(self) -> float:
        """The mean in-tree search depth per counted decision (0 with none)."""
        return self.depth_sum / self.moves if self.moves else 0.0

    @property
    def nps(self) -> float:
        """Iterations per second over the game (:func:`rosen.search.iterations_per_second`)."""
        return iterations_per_second(self.iterations, self.time_ms)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "SideStats":
        """From a record's ``stats`` entry; fields this version does not know are ignored."""
        if not isinstance(d, Mapping):
            raise InvalidArgumentError(f"stats: expected an object per colour, got {type(d).__name__}", "stats")
        known = {f.name for f in fields(cls)}
        for k, v in d.items():
            if k == "clock_left_ms" and v is None:
                continue
            if k in known and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise InvalidArgumentError(f"stats: {k}: expected a number, got {type(v).__name__}", "stats")
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class GameRecord:
    """Everything about a finished game; ``to_json()`` is one line of a ``--jsonl`` file."""

    seed: int
    players: int
    reshuffle: str
    red: str
    white: str
    winner: str
    scores: List[int]
    moves: List[str]
    stats: Dict[str, SideStats] = field(default_factory=dict)
    extra: Dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> Dict[str, Any]:
        """The record as a dict for one JSON line: the keys of ``extra``, then the fields, ``plies``
        (the number of moves) and each colour's stats (``clock_left_ms`` only for a side on a clock)."""
        d = {**self.extra, "seed": self.seed, "players": self.players, "reshuffle": self.reshuffle,
             "red": self.red, "white": self.white, "winner": self.winner, "scores": list(self.scores),
             "plies": len(self.moves), "moves": list(self.moves)}
        d["stats"] = {colour: {k: v for k, v in asdict(s).items() if not (k == "clock_left_ms" and v is None)}
                      for colour, s in self.stats.items()}
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "GameRecord":
        """The record of one parsed JSON line (the inverse of :meth:`to_json`)."""
        if not isinstance(d, Mapping):
            raise ArgumentTypeError(f"record: expected a game record (a JSON object), got {type(d).__name__}", "record")
        own = {"seed", "players", "reshuffle", "red", "white", "winner", "scores", "moves", "stats", "plies"}
        missing = sorted({"seed", "players", "reshuffle", "red", "white", "winner", "scores", "moves"} - set(d))
        if missing:
            raise InvalidArgumentError(f"{missing[0]}: missing from the game record", missing[0])
        if not isinstance(d.get("stats", {}), Mapping):
            raise InvalidArgumentError(f"stats: expected an object, got {type(d['stats']).__name__}", "stats")
        for key in ("scores", "moves"):
            _check_list(d, key)
        stats = {colour: SideStats.from_json(s) for colour, s in d.get("stats", {}).items()}
        return cls(seed=d["seed"], players=d["players"], reshuffle=d["reshuffle"], red=d["red"], white=d["white"],
                   winner=d["winner"], scores=list(d["scores"]), moves=list(d["moves"]), stats=stats,
                   extra={k: v for k, v in d.items() if k not in own})


def _check_list(record: Mapping[str, Any], key: str) -> None:
    """A record's ``scores`` and ``moves`` are JSON arrays; anything else is a malformed record."""
    if not isinstance(record[key], (list, tuple)):
        raise InvalidArgumentError(f"{key}: expected a list, got {type(record[key]).__name__}", key)


#: Told every move as it is played: (position before, the move as recorded, position after).
MoveObserver = Callable[[_core.Position, _core.Move, _core.Position], None]


def play_game(red: Agent, white: Agent, *, seed: int = 0, players: int = 2, reshuffle: str = "eager",
              red_name: Optional[str] = None, white_name: Optional[str] = None,
              on_move: Optional[MoveObserver] = None) -> GameRecord:
    """Play the deal ``Position.new(seed)`` to the end; ``red`` plays every red seat, ``white``
    every white one (a team plays both its seats, R13). Agents see the position with the pile's
    order hidden (R14); a plain ``draw`` is dealt by the :class:`Dealer`. ``on_move`` sees every
    move as it is played. An agent on a game clock (``clock_left_ms``) is not stopped when its clock
    runs out; what it had left at the end is in the record's stats. An exception from an agent (a
    person quitting, say) ends the game and propagates."""
    for name, agent in (("red", red), ("white", white)):
        if not all(callable(getattr(agent, method, None)) for method in ("reset", "choose", "on_move")):
            raise ArgumentTypeError(f"{name}: expected an agent (reset, choose, on_move: rosen.agents.Agent), got "
                                    f"{type(agent).__name__}", name)
    if red is white:
        raise InvalidArgumentError("white: pass two separate agent objects (an agent keeps per-game state)", "white")
    seed = check_int("seed", seed, 0, MAX_SEED)  # a Python int in the record, whatever was given
    position = _core.Position.new(seed, players=players, reshuffle=reshuffle)
    agents = {"red": red, "white": white}
    for agent in agents.values():
        agent.reset()
    dealer = Dealer(seed)
    moves: List[str] = []
    stats = {"red": SideStats(), "white": SideStats()}
    while not position.is_terminal:
        if len(moves) >= MAX_PLIES:
            raise RuntimeError(f"game {seed}: no end after {MAX_PLIES} plies")
        colour = position.colour_to_move
        agent = agents[colour]
        move = agent.choose(position.hide_pile_order())
        stats[colour].add(getattr(agent, "last_stats", None))
        text = str(move)
        try:
            text = str(_core.Move(text))  # 'Draw' is a draw too, and goes to the dealer
        except ValueError:
            pass  # position.play below names what is wrong with it
        if text.startswith("draw:"):
            # The card of a draw is the pile's (R14), never the player's choice: a chosen card was
            # taken after a reshuffle, and refused by the true position with its top card named.
            raise InvalidArgumentError(f"{colour} agent {agent!r} chose {text!r}: a player draws without choosing the "
                                       "card; the move is 'draw'", colour)
        if text == "draw" and position.is_legal("draw"):  # an illegal one is refused below, as itself
            text = "draw:" + dealer.card(position)
        try:
            after = position.play(text)
        except ValueError as exc:
            raise InvalidArgumentError(f"{colour} agent {agent!r} chose {text!r}: {exc}", colour) from None
        if text.startswith("draw"):
            dealer.observe(position, after)
        played = _core.Move(text)
        if on_move is not None:
            on_move(position, played, after)
        position = after
        moves.append(text)
        for a in agents.values():
            a.on_move(played)
    for colour, agent in agents.items():
        left = getattr(agent, "clock_left_ms", None)
        if isinstance(left, (int, float)) and not isinstance(left, bool):
            stats[colour].clock_left_ms = float(left)
    winner = position.winner
    assert winner is not None  # the loop ends at a terminal position, which has one
    return GameRecord(seed=seed, players=players, reshuffle=reshuffle, red=red_name or repr(red),
                      white=white_name or repr(white), winner=winner, scores=list(position.scores),
                      moves=moves, stats=stats)


def replay(record: Union[Mapping[str, Any], GameRecord, str], *,
           visit: Optional[Callable[[_core.Position], None]] = None) -> _core.Position:
    """The final position of a recorded game: a :class:`GameRecord`, one ``--jsonl`` line as read
    from the file, or that line parsed; ``visit``, if given, sees every position of the game in
    order, the deal first.

    Raises ``ValueError`` naming the ply if a move is illegal, and if the replayed winner or scores
    differ from the recorded ones; ``TypeError`` for anything that is not a record.
    """
    if isinstance(record, GameRecord):
        record = record.to_json()
    elif isinstance(record, (str, bytes)):
        try:
            record = json.loads(record)
        except ValueError as exc:
            raise InvalidArgumentError(f"record: expected one JSON line of a game record, {exc}", "record") from None
        # as rosen._json says it (the layering keeps this module below it)
        except RecursionError:
            raise InvalidArgumentError("record: expected one JSON line of a game record, nested too deeply",
                                       "record") from None
    if not isinstance(record, Mapping):
        raise ArgumentTypeError("record: expected a GameRecord, a JSON line or a mapping, "
                                f"got {type(record).__name__}", "record")
    for key in ("seed", "players", "reshuffle", "moves"):
        if key not in record:
            raise InvalidArgumentError(f"{key}: missing from the game record", key)
    for key in ("scores", "moves"):
        if key in record:
            _check_list(record, key)
    position = _core.Position.new(record["seed"], players=record["players"], reshuffle=record["reshuffle"])
    moves: Sequence[str] = record["moves"]
    if visit is not None:
        visit(position)
    for ply, move in enumerate(moves):
        try:
            position = position.play(move)
        except ValueError as exc:
            raise InvalidArgumentError(f"moves[{ply}]: {move!r} does not replay: {exc}", "moves") from None
        if visit is not None:
            visit(position)
    if not position.is_terminal:
        raise InvalidArgumentError(f"moves: the game is not over after {len(moves)} plies", "moves")
    if "winner" in record and record["winner"] != position.winner:
        raise InvalidArgumentError(f"winner: recorded {record['winner']!r}, replay gives {position.winner!r}", "winner")
    if "scores" in record and list(record["scores"]) != list(position.scores):
        raise InvalidArgumentError(f"scores: recorded {list(record['scores'])}, replay gives {list(position.scores)}",
                                   "scores")
    return position
