"""Lovagok (Knatsch) dice: result notation, strength, and exact optimal play.

The rules are in LOVAGOK.md (ids L1-L12). The work is done by the compiled ``rosen._core.lovagok``;
this module parses and prints, checks arguments, and assembles the contests. A bad argument raises
a :class:`rosen.RosenError` whose ``field`` names it (``"rerolls: expected 0..3, got 5"``).

A *result* is ``(size, value, further)``: the largest group of equal counted dice (ties to the
higher value) and the highest counted die outside it (L5). Results are written group first, then
the further die: ``"3332"`` is three 3s with a further 2, ``"555"`` three 5s and nothing else,
``"-"`` the empty result of a roll that showed only sixes. Every reachable result has a *rank*,
its index in increasing strength (``RESULTS[rank]``); utilities and tables are indexed by rank.

>>> p_beat("3332", rerolls=2)            # doctest: +ELLIPSIS
0.599...
>>> advise("3332", "552366", rerolls_left=2).best.keep
(5, 5)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, total_ordering
from typing import Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import lovagok as _lv
from .errors import ArgumentTypeError, InvalidArgumentError, RosenError, check_choice, check_int

__all__ = [
    "Result", "RESULTS", "NUM_RESULTS", "NOTHING", "KING", "TREASON", "parse_combination", "format_combination",
    "parse_roll", "parse_dice_cards", "strength", "compare", "beats", "p_beat", "distribution", "beat_utility",
    "Solver", "Option", "Advice", "advise", "CastleAttack", "attack_castle", "Tournament", "tournament",
    "topple_king", "BeatTable", "table", "DEFAULT_REROLLS",
]

NUM_RESULTS: int = _lv.NUM_RESULTS
MAX_REROLLS: int = _lv.MAX_REROLLS
MAX_DICE: int = _lv.MAX_DICE
DEFAULT_REROLLS = 2  # L2: three rolls in all


def _check_rerolls(field: str, rerolls: object, high: int = MAX_REROLLS) -> int:
    return check_int(field, rerolls, 0, high)


def _check_dice(dice: object, low: int = 1) -> int:
    return check_int("dice", dice, low, MAX_DICE)


def _check_rank_array(field: str, values: object) -> np.ndarray:
    """A float vector with one finite value per result rank (a utility, a row of the table)."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{field}: expected {NUM_RESULTS} numbers (one per result rank), "
                                f"got {type(values).__name__}", field) from None
    if array.shape != (NUM_RESULTS,):
        raise InvalidArgumentError(f"{field}: expected {NUM_RESULTS} values (one per result rank), got shape {array.shape}",
                                   field)
    if not np.all(np.isfinite(array)):
        raise InvalidArgumentError(f"{field}: expected finite values, got {array[~np.isfinite(array)][0]}", field)
    return array

# ----------------------------------------------------------------------------- results



@total_ordering
class Result:
    """One final result ``(size, value, further)``; ``further`` is None when there is none.

    ``Result(3, 3, 2)`` and ``Result('3332')`` are the same result.

    Results order by strength (L6): ``Result.parse("3334") > Result.parse("3332")``.
    The empty result (every die a six, no dice cards) is ``Result(0, 0)``, written ``"-"``.
    """

    __slots__ = ("_size", "_value", "_further", "_rank")

    def __init__(self, size: Union[int, str], value: Optional[int] = None, further: Optional[int] = None) -> None:
        if isinstance(size, str) and value is None and further is None:
            # Result('3332'): what repr prints, so a repr pastes back.
            size, value, further = parse_combination(size, "size")
        if value is None:
            raise ArgumentTypeError("value: expected an int (or one combination string, e.g. Result('3332')), got None",
                                    "value")
        size = check_int("size", size, 0, 7)
        if size == 0:  # nothing: Result(0, 0)
            if check_int("value", value) != 0 or further is not None:
                field, got = ("value", value) if value != 0 else ("further", further)
                raise InvalidArgumentError(f"{field}: expected {0 if field == 'value' else None} for nothing (size 0), "
                                           f"got {got}", field)
        else:
            value = check_int("value", value, 1, 5)
        if further is not None:
            further = check_int("further", further, 1, 5)
            if further == value or (size == 1 and further > value):
                raise InvalidArgumentError(f"further: expected None or a face 1..5 other than the value (lower than it "
                                           f"for a lone die), got {further}", "further")
        self._size, self._value, self._further = size, value, further
        self._rank = _lv.rank_of(size, value, 0 if further is None else further)

    @classmethod
    def parse(cls, text: str) -> "Result":
        """Parse combination notation (``"3332"``, ``"555"``, ``"55551"``, ``"-"``)."""
        return parse_combination(text)

    @classmethod
    def from_rank(cls, rank: int) -> "Result":
        """The result with this strength rank (0 .. NUM_RESULTS-1)."""
        return RESULTS[check_int("rank", rank, 0, NUM_RESULTS - 1)]

    size = property(lambda self: self._size, doc="How many equal dice (and cards) form the group.")
    value = property(lambda self: self._value, doc="The group's face, 1..5 (0 for nothing).")
    further = property(lambda self: self._further, doc="Highest counted die outside the group, or None.")
    rank = property(lambda self: self._rank, doc="Index in increasing strength; RESULTS[rank] is self.")

    def beats(self, other: "ResultLike") -> bool:
        """True when this result is strictly stronger than ``other`` (L6: a tie does not beat)."""
        return self._rank > as_result(other, "other")._rank

    def __str__(self) -> str:
        if self._size == 0:
            return "-"
        return str(self._value) * self._size + ("" if self._further is None else str(self._further))

    def __repr__(self) -> str:
        return f"Result('{self}')"

    def __iter__(self):
        return iter((self._size, self._value, self._further))

    def __hash__(self) -> int:
        return hash(self._rank)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and other._rank == self._rank

    def __lt__(self, other: "Result") -> bool:
        if not isinstance(other, Result):
            raise ArgumentTypeError(f"other: expected a Result to compare with, got {type(other).__name__}", "other")
        return self._rank < other._rank

    def __reduce__(self):
        return (Result, (self._size, self._value, self._further))


RESULTS: Tuple[Result, ...] = tuple(Result(s, v, f or None) for s, v, f in _lv.results())
NOTHING = RESULTS[0]
KING = Result(4, 5, 1)      # L7, L12: 55551
TREASON = Result(3, 2, 4)   # L7: 2224

ResultLike = Union[Result, str, Tuple[int, int, Optional[int]]]
RollLike = Union[str, Sequence[int]]
CardsLike = Union[str, Iterable[int]]

# ----------------------------------------------------------------------------- parsing


def parse_combination(text: str, field: str = "text") -> Result:
    """Parse a written combination: the group, then an optional further die (L7).

    ``"3332"`` -> (3, 3, 2); ``"555"`` -> (3, 5, None); ``"55551"`` -> (4, 5, 1); ``"-"`` -> nothing.
    Faces are 1..5: a 6 is a blank and never part of a combination. ``field`` names the argument
    in errors.

    >>> parse_combination("3362", "target")
    Traceback (most recent call last):
    ...
    rosen.errors.InvalidArgumentError: target: expected a combination of faces 1..5 (a 6 is a blank), got '3362'
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{field}: expected a combination string such as '3332', got {type(text).__name__}",
                                field)
    s = text.strip()
    if s == "-":
        return NOTHING

    def bad(expected: str) -> InvalidArgumentError:
        return InvalidArgumentError(f"{field}: expected a combination {expected}, got {text!r}", field)

    if not s:
        raise bad("such as '3332', '555' or '-' for nothing")
    if any(c not in "12345" for c in s):
        raise bad("of faces 1..5 (a 6 is a blank)")
    value = s[0]
    size = len(s) - len(s.lstrip(value))
    rest = s[size:]
    if len(rest) > 1:
        raise bad("of one group of equal faces and at most one further die")
    further = int(rest) if rest else None
    if size > 7:
        raise bad("whose group has at most 7 dice (6 dice and a dice card)")
    if size == 1 and further is not None and further > int(value):
        raise bad(f"with the higher lone die first, {rest + value!r}")
    return Result(size, int(value), further)


def format_combination(result: ResultLike) -> str:
    """Write a result in combination notation; the inverse of :func:`parse_combination`."""
    return str(as_result(result, "result"))


def as_result(x: ResultLike, field: str = "target") -> Result:
    """Accept a Result, a combination string or a ``(size, value, further)`` tuple; ``field`` names it in errors."""
    if isinstance(x, Result):
        return x
    if isinstance(x, str):
        return parse_combination(x, field)
    if isinstance(x, tuple) and len(x) in (2, 3):
        try:
            return Result(*x)
        except RosenError as exc:
            raise type(exc)(f"{field}: expected a (size, value, further) Lovagok result, got {x!r} ({exc})",
                            field) from None
    raise ArgumentTypeError(f"{field}: expected a Result, a combination string like '3332' or a (size, value, further) "
                            f"tuple, got {type(x).__name__}", field)


def parse_roll(roll: RollLike, field: str = "roll") -> Tuple[int, ...]:
    """Parse dice showing, e.g. ``"552366"`` or ``[5, 5, 2, 3, 6, 6]``: 1..6 faces, 6 = blank (L1)."""
    if isinstance(roll, str):
        text = roll.strip()
        if any(c not in "123456" for c in text):
            raise InvalidArgumentError(f"{field}: expected faces 1..6 such as '552366', got {roll!r}", field)
        faces = tuple(int(c) for c in text)
    elif isinstance(roll, (list, tuple)):
        faces = tuple(check_int(field, f, 1, 6) for f in roll)
    else:
        raise ArgumentTypeError(f"{field}: expected a str like '552366' or a sequence of ints, got {type(roll).__name__}",
                                field)
    if not 1 <= len(faces) <= MAX_DICE:
        raise InvalidArgumentError(f"{field}: expected at least one and at most {MAX_DICE} dice, got {len(faces)}", field)
    return faces


def parse_dice_cards(cards: CardsLike, field: str = "dice_cards") -> int:
    """Dice cards (values 1..5, at most one of each, L4) as a bit mask: bit v-1 for card v.

    Accepts an iterable of ints or a string such as ``"3,5"`` or ``"35"``; ``field`` names it in errors.
    """
    if isinstance(cards, str):
        text = cards.replace(",", "").replace(" ", "")
        if any(c not in "12345" for c in text):
            raise InvalidArgumentError(f"{field}: expected card values 1..5 such as '3,5', got {cards!r}", field)
        values = [int(c) for c in text]
    else:
        try:
            values = list(cards)
        except TypeError:
            raise ArgumentTypeError(f"{field}: expected an iterable of card values 1..5, got {type(cards).__name__}",
                                    field) from None
        values = [check_int(field, v, 1, 5) for v in values]
    if len(set(values)) != len(values):
        raise InvalidArgumentError(f"{field}: expected at most one dice card of each value, got {sorted(values)}", field)
    mask = 0
    for v in values:
        mask |= 1 << (v - 1)
    return mask


def cards_of_mask(mask: int) -> Tuple[int, ...]:
    """The card values in a dice-card bit mask."""
    return tuple(v for v in range(1, 6) if mask >> (v - 1) & 1)


def _counts(faces: Iterable[int]) -> Tuple[int, int, int, int, int]:
    c = [0] * 5
    for f in faces:
        if f != 6:
            c[f - 1] += 1
    return tuple(c)  # type: ignore[return-value]


def _faces(counts: Sequence[int]) -> Tuple[int, ...]:
    """Counts of 1..5 back to faces, highest first (how a keep is printed)."""
    return tuple(v for v in range(5, 0, -1) for _ in range(counts[v - 1]))


# ----------------------------------------------------------------------------- strength


def strength(dice: RollLike, dice_cards: CardsLike = ()) -> Result:
    """The result of the dice showing plus dice cards (L4, L5): ``strength("555436") == Result.parse("5554")``."""
    faces = parse_roll(dice, "dice")
    return RESULTS[_lv.rank_of_counts(_counts(faces), parse_dice_cards(dice_cards))]


def compare(a: ResultLike, b: ResultLike) -> int:
    """-1, 0 or 1 as ``a`` is weaker than, equal to or stronger than ``b`` (L6)."""
    ra, rb = as_result(a, "a").rank, as_result(b, "b").rank
    return (ra > rb) - (ra < rb)


def beats(a: ResultLike, b: ResultLike) -> bool:
    """True when ``a`` is strictly stronger than ``b``: an equal result does not beat (L6)."""
    return compare(a, b) > 0


# ----------------------------------------------------------------------------- one attempt


def beat_utility(target: ResultLike) -> np.ndarray:
    """Utility array for "end strictly stronger than target": 1 above the target's rank, else 0."""
    rank = as_result(target).rank
    return (np.arange(NUM_RESULTS) > rank).astype(float)


def p_beat(target: ResultLike, rerolls: int = DEFAULT_REROLLS, dice: int = 6, dice_cards: CardsLike = ()) -> float:
    """Probability that an optimally playing roller ends strictly stronger than ``target``.

    ``rerolls`` 0..3 (two normally, L2; three for an organiser, Champion or Catapult, L3),
    ``dice`` 1..6 at the start, ``dice_cards`` the roller's dice cards (L4).
    """
    rank = as_result(target).rank
    return _lv.p_beat(rank, _check_rerolls("rerolls", rerolls), _check_dice(dice), parse_dice_cards(dice_cards))


def distribution(target: ResultLike, rerolls: int = DEFAULT_REROLLS, dice: int = 6,
                 dice_cards: CardsLike = ()) -> np.ndarray:
    """Distribution of the final result (indexed by rank) when playing optimally to beat ``target``."""
    _check_rerolls("rerolls", rerolls)
    return Solver.to_beat(target, dice_cards=dice_cards, max_rerolls=rerolls).distribution(rerolls=rerolls, dice=dice)


@dataclass(frozen=True)
class Option:
    """One choice after a roll: stop (``keep is None``) or keep these faces and re-roll ``reroll`` dice."""

    keep: Optional[Tuple[int, ...]]
    reroll: int
    probability: float

    def __str__(self) -> str:
        what = "stop" if self.keep is None else f"keep {''.join(map(str, self.keep)) or 'nothing'}, re-roll {self.reroll}"
        return f"{what}: {self.probability:.6f}"


@dataclass(frozen=True)
class Advice:
    """The optimal choice after a roll and the value of every alternative, best first."""

    roll: Tuple[int, ...]
    rerolls_left: int
    best: Option
    options: Tuple[Option, ...]

    def __str__(self) -> str:
        lines = [f"roll {''.join(map(str, self.roll))}, {self.rerolls_left} re-roll(s) left",
                 f"best: {self.best}"]
        lines += [f"  {o}" for o in self.options]
        return "\n".join(lines)


class Solver:
    """Optimal play for any utility over final results (indexed by rank) with one set of dice cards.

    ``Solver(utility)`` solves once for 0..``max_rerolls`` re-rolls; then ``value``, ``distribution``
    and ``advise`` are lookups. ``Solver.to_beat(target)`` is the usual "beat this combination".
    """

    def __init__(self, utility: Sequence[float], dice_cards: CardsLike = (), max_rerolls: int = MAX_REROLLS) -> None:
        u = _check_rank_array("utility", utility)
        self._mask = parse_dice_cards(dice_cards)
        self._max_rerolls = _check_rerolls("max_rerolls", max_rerolls)
        self._utility = u
        self._core = _lv.Solver(u, self._mask, self._max_rerolls)

    @classmethod
    def to_beat(cls, target: ResultLike, dice_cards: CardsLike = (), max_rerolls: int = MAX_REROLLS) -> "Solver":
        """A solver whose utility is 1 for results strictly stronger than ``target``."""
        return cls(beat_utility(target), dice_cards=dice_cards, max_rerolls=max_rerolls)

    @property
    def dice_cards(self) -> Tuple[int, ...]:
        return cards_of_mask(self._mask)

    @property
    def max_rerolls(self) -> int:
        return self._max_rerolls

    @property
    def utility(self) -> np.ndarray:
        return self._utility.copy()

    def _rerolls(self, field: str, r: int) -> int:
        return _check_rerolls(field, r, self._max_rerolls)

    def value(self, rerolls: int = DEFAULT_REROLLS, dice: int = 6) -> float:
        """Expected utility of a whole attempt under optimal play."""
        return self._core.value(_check_dice(dice), self._rerolls("rerolls", rerolls))

    def distribution(self, rerolls: int = DEFAULT_REROLLS, dice: int = 6) -> np.ndarray:
        """Probability of each final result (indexed by rank) under the optimal policy."""
        return self._core.distribution(_check_dice(dice), self._rerolls("rerolls", rerolls))

    def best_keep(self, roll: RollLike, rerolls_left: int) -> Optional[Tuple[int, ...]]:
        """Faces to keep (highest first) after ``roll``, or None to stop."""
        keep = self._core.best_keep(_counts(parse_roll(roll)), self._rerolls("rerolls_left", rerolls_left))
        return None if keep is None else _faces(keep)

    def advise(self, roll: RollLike, rerolls_left: int) -> Advice:
        """The optimal keep after ``roll`` and the expected utility of stopping and of every distinct keep."""
        faces = parse_roll(roll)
        r = self._rerolls("rerolls_left", rerolls_left)
        counts = _counts(faces)
        n = sum(counts)
        options = [Option(None if k is None else _faces(k), 0 if k is None else n - sum(k), v)
                   for k, v in self._core.options(counts, r)]
        best_counts = self._core.best_keep(counts, r)
        best_keep = None if best_counts is None else _faces(best_counts)
        best = next(o for o in options if o.keep == best_keep)
        # Best first, then by value; rounding makes float noise a tie, and the stable sort keeps
        # the engine's tie order (stop, then most dice kept).
        options.remove(best)
        options.sort(key=lambda o: -round(o.probability, 12))
        options.insert(0, best)
        return Advice(roll=faces, rerolls_left=r, best=best, options=tuple(options))

    def __repr__(self) -> str:
        return f"Solver(dice_cards={self.dice_cards}, max_rerolls={self._max_rerolls})"


@lru_cache(maxsize=512)
def _beat_solver(rank: int, mask: int, max_rerolls: int) -> Solver:
    """Solvers are immutable once built, so a frontend advising roll after roll reuses one."""
    return Solver(beat_utility(RESULTS[rank]), dice_cards=cards_of_mask(mask), max_rerolls=max_rerolls)


@lru_cache(maxsize=32)
def _defender_row(mask: int, rerolls: int) -> np.ndarray:
    """P(beat r) for every result r, one card set: 166 solves, reused by every castle attack."""
    row = _lv.beat_table_for(mask)[rerolls, MAX_DICE].copy()
    row.setflags(write=False)
    return row


def advise(target: ResultLike, roll: RollLike, rerolls_left: int, dice_cards: CardsLike = ()) -> Advice:
    """What to keep after ``roll`` to beat ``target`` with ``rerolls_left`` re-rolls to come.

    >>> str(advise("3332", "552366", rerolls_left=2).best)   # doctest: +ELLIPSIS
    'keep 55, re-roll 2: 0.4...'
    """
    faces = parse_roll(roll)
    r = _check_rerolls("rerolls_left", rerolls_left)
    return _beat_solver(as_result(target).rank, parse_dice_cards(dice_cards), r).advise(faces, r)


# ----------------------------------------------------------------------------- contests


class CastleAttack:
    """Attacking a castle (L10), both sides playing optimally.

    The attacker wins when its result r beats the castle and the defender (who then rolls with
    ``defender_rerolls``) fails to beat r strictly. So the attacker's utility for r is
    ``[r beats castle] * (1 - p_defender_beats(r))``; ``solver`` plays it.
    """

    def __init__(self, castle: ResultLike, catapult: bool = False, defender_rerolls: int = DEFAULT_REROLLS,
                 attacker_cards: CardsLike = (), defender_cards: CardsLike = ()) -> None:
        if not isinstance(catapult, bool):
            raise ArgumentTypeError(f"catapult: expected a bool, got {type(catapult).__name__}", "catapult")
        self.castle = as_result(castle, "castle")
        self.attacker_rerolls = 3 if catapult else DEFAULT_REROLLS  # L3: Catapult gives a fourth roll
        self.defender_rerolls = _check_rerolls("defender_rerolls", defender_rerolls)
        attacker_cards = cards_of_mask(parse_dice_cards(attacker_cards, "attacker_cards"))
        defender_mask = parse_dice_cards(defender_cards, "defender_cards")
        # The defender simply maximises P(beat the attacker's result): one table row per result.
        self.p_defender_beats = _defender_row(defender_mask, self.defender_rerolls)
        beat = beat_utility(self.castle)
        self.utility = beat * (1.0 - self.p_defender_beats)
        self.solver = Solver(self.utility, dice_cards=attacker_cards, max_rerolls=self.attacker_rerolls)
        self.p_take = self.solver.value(rerolls=self.attacker_rerolls)
        # For comparison: an attacker who only tries to beat the castle's card.
        naive = Solver(beat, dice_cards=attacker_cards, max_rerolls=self.attacker_rerolls)
        self.p_take_naive = float(naive.distribution(rerolls=self.attacker_rerolls) @ self.utility)
        self.p_beat_castle = float(self.solver.distribution(rerolls=self.attacker_rerolls) @ beat)

    def advise(self, roll: RollLike, rerolls_left: int) -> Advice:
        """The attacker's optimal keep (maximising P(take the castle)) after ``roll``."""
        return self.solver.advise(roll, rerolls_left)

    def __repr__(self) -> str:
        return (f"CastleAttack(castle='{self.castle}', attacker_rerolls={self.attacker_rerolls}, "
                f"p_take={self.p_take:.6f}, p_take_naive={self.p_take_naive:.6f})")


def attack_castle(castle: ResultLike, catapult: bool = False, defender_rerolls: int = DEFAULT_REROLLS,
                  attacker_cards: CardsLike = (), defender_cards: CardsLike = ()) -> CastleAttack:
    """Solve an attack on a castle (L10); see :class:`CastleAttack`."""
    return CastleAttack(castle, catapult=catapult, defender_rerolls=defender_rerolls,
                        attacker_cards=attacker_cards, defender_cards=defender_cards)


TOURNAMENT_MODELS = ("lead", "win")


class Tournament:
    """A tournament (L11) with 2..6 players; player 0 is the organiser (three re-rolls, L3).

    Model. Everyone plays optimally for a stated goal, and the leader's result is all that a later
    player's decision depends on. With ``model="lead"`` every later player maximises the chance
    to take the lead, i.e. to end strictly stronger than the current leader (the natural myopic
    goal). With ``model="win"`` every later player maximises the chance to win the tournament:
    its utility for a result r is ``[r beats leader] * P(no player after it beats r)``, solved
    backwards from the last player (the subgame-perfect play). In both models the organiser
    maximises P(no later player beats it). Ties between equally good choices go to stopping,
    then to keeping more dice, which fixes the result distribution a later player faces.
    """

    def __init__(self, players: int = 3, champion: Optional[int] = None,
                 dice_cards: Optional[Sequence[CardsLike]] = None, model: str = "lead") -> None:
        self.players = players = check_int("players", players, 2, 6)
        if champion is not None:
            champion = check_int("champion", champion, 1, players - 1)
        check_choice("model", model, TOURNAMENT_MODELS)
        if dice_cards is None:
            dice_cards = [()] * players
        if not isinstance(dice_cards, (list, tuple)):
            raise ArgumentTypeError(f"dice_cards: expected a list of card sets, one per player, "
                                    f"got {type(dice_cards).__name__}", "dice_cards")
        if len(dice_cards) != players:
            raise InvalidArgumentError(f"dice_cards: expected {players} card sets (one per player), got {len(dice_cards)}",
                                       "dice_cards")
        self.model = model
        self.champion = champion
        self.masks = tuple(parse_dice_cards(c, f"dice_cards[{i}]") for i, c in enumerate(dice_cards))
        self.rerolls = tuple(3 if i == 0 or i == champion else DEFAULT_REROLLS for i in range(players))
        n, ranks = players, np.arange(NUM_RESULTS)
        above = (ranks[None, :] > ranks[:, None]).astype(float)  # above[L, r] = r beats L
        # Backwards: survive[k][L] = P(leader L is beaten by none of players k..n-1).
        survive = np.ones(NUM_RESULTS)
        self.distributions = [None] * n  # player k: [leader, final result]; organiser: [final result]
        for k in range(n - 1, 0, -1):
            goal = above * survive[None, :] if model == "win" else above
            _, dist = _lv.solve_batch(goal, self.rerolls[k], MAX_DICE, self.masks[k])
            self.distributions[k] = dist
            survive = (dist * (1.0 - above)).sum(axis=1) * survive
        self.organiser_utility = survive
        self.organiser = Solver(survive, dice_cards=cards_of_mask(self.masks[0]), max_rerolls=self.rerolls[0])
        self.distributions[0] = self.organiser.distribution(rerolls=self.rerolls[0])
        # Forwards: mass[L, p] = P(leader result L held by player p).
        mass = np.zeros((NUM_RESULTS, n))
        mass[:, 0] = self.distributions[0]
        for k in range(1, n):
            dist = self.distributions[k]
            stay = (dist * (1.0 - above)).sum(axis=1)
            taken = mass.sum(axis=1) @ (dist * above)
            mass = mass * stay[:, None]
            mass[:, k] += taken
        self.p_win = mass.sum(axis=0)
        self.leader_distribution = mass.sum(axis=1)

    def advise_organiser(self, roll: RollLike, rerolls_left: int) -> Advice:
        """The organiser's optimal keep (maximising P(no later player beats it))."""
        return self.organiser.advise(roll, rerolls_left)

    def __repr__(self) -> str:
        p = ", ".join(f"{x:.4f}" for x in self.p_win)
        return f"Tournament(players={self.players}, champion={self.champion}, model='{self.model}', p_win=[{p}])"


def tournament(players: int = 3, champion: Optional[int] = None, dice_cards: Optional[Sequence[CardsLike]] = None,
               model: str = "lead") -> Tournament:
    """Solve a tournament (L11); see :class:`Tournament` for the model."""
    return Tournament(players, champion=champion, dice_cards=dice_cards, model=model)


def topple_king(rerolls: int = DEFAULT_REROLLS, dice_cards: CardsLike = ()) -> float:
    """Probability of toppling the king (L12): beating 55551 with optimal play."""
    return p_beat(KING, rerolls=rerolls, dice_cards=dice_cards)


# ----------------------------------------------------------------------------- tables


class BeatTable:
    """P(beat target) for every target, re-roll count, dice count and set of dice cards.

    ``p[cards_mask, rerolls, dice, rank]``: ``cards_mask`` 0..31 (bit v-1 set = holds card v),
    ``rerolls`` 0..3, ``dice`` 0..6 dice at the start (0: the cards alone), ``rank`` the target's
    strength rank (``RESULTS[rank]``).
    """

    AXES = ("cards_mask", "rerolls", "dice", "target_rank")

    SHAPE = (32, MAX_REROLLS + 1, MAX_DICE + 1, NUM_RESULTS)

    def __init__(self, p: np.ndarray) -> None:
        if not isinstance(p, np.ndarray):
            raise ArgumentTypeError(f"p: expected a numpy array, got {type(p).__name__}", "p")
        if p.shape != self.SHAPE:
            raise InvalidArgumentError(f"p: expected shape {self.SHAPE}, got shape {p.shape}", "p")
        self.p = p

    def _row(self, rerolls: int, dice: int, dice_cards: CardsLike) -> np.ndarray:
        return self.p[parse_dice_cards(dice_cards), _check_rerolls("rerolls", rerolls), _check_dice(dice, low=0)]

    def at(self, target: ResultLike, rerolls: int = DEFAULT_REROLLS, dice: int = 6, dice_cards: CardsLike = ()) -> float:
        """One entry, addressed like :func:`p_beat` (``dice`` may be 0: the cards alone)."""
        return float(self._row(rerolls, dice, dice_cards)[as_result(target).rank])

    def view(self, rerolls: int = DEFAULT_REROLLS, dice_cards: CardsLike = (), dice: int = 6,
             sizes: Sequence[int] = (3, 4, 5)) -> str:
        """A readable grid per group size: rows are the group (111 .. 555), columns the further die."""
        return format_grid(self._row(rerolls, dice, dice_cards), sizes=sizes)

    def __repr__(self) -> str:
        return f"BeatTable(shape={self.p.shape}, axes={self.AXES})"


def format_grid(row: np.ndarray, sizes: Sequence[int] = (3, 4, 5)) -> str:
    """Format one row of P(beat rank) as grids: group down, further die (none, 1..5) across."""
    row = _check_rank_array("row", row)
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__iter__"):
        raise ArgumentTypeError(f"sizes: expected a sequence of group sizes 1..7, got {type(sizes).__name__}", "sizes")
    lines = []
    for size in [check_int("sizes", s, 1, 7) for s in sizes]:
        lines.append(f"{'target':<9}" + "".join(f"{h:>9}" for h in ("+none", "+1", "+2", "+3", "+4", "+5")))
        for value in range(1, 6):
            cells = []
            for further in (None, 1, 2, 3, 4, 5):
                rank = _lv.rank_of(size, value, further or 0)
                cells.append(f"{row[rank]:9.4f}" if rank >= 0 else f"{'':>9}")
            lines.append((f"{str(value) * size:<9}" + "".join(cells)).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def table() -> BeatTable:
    """Build the whole table (32 card sets x re-rolls 0..3 x dice 0..6 x every target) in one call."""
    return BeatTable(_lv.beat_table())
