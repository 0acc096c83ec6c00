"""Lovagok notation: results, rolls and dice cards, parsed and printed, and the argument checks for them.

A *result* is ``(size, value, further)`` (L5), written group first, then the further die (L7):
``"3332"``, ``"555"``, ``"-"`` for nothing. ``RESULTS[rank]`` lists every reachable result in
increasing strength. This module is the leaf of ``rosen.lovagok``: it imports nothing else from it.

>>> Result.parse("3332"), tuple(Result("555")), KING
(Result('3332'), (3, 5, None), Result('55551'))
>>> parse_roll("552366"), cards_of_mask(parse_dice_cards("3,5"))
((5, 5, 2, 3, 6, 6), (3, 5))
"""
from __future__ import annotations

import decimal
import numbers
from functools import total_ordering
from typing import Iterable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np

from .._core import lovagok as _lv
from ..errors import ArgumentTypeError, InvalidArgumentError, RosenError, check_int

NUM_RESULTS: int = _lv.NUM_RESULTS
MAX_REROLLS: int = _lv.MAX_REROLLS
MAX_DICE: int = _lv.MAX_DICE
DEFAULT_REROLLS = 2  # L2: three rolls in all


# ----------------------------------------------------------------------------- results


@total_ordering
class Result:
    """One final result ``(size, value, further)``; ``further`` is None when there is none.

    ``Result(3, 3, 2)`` and ``Result('3332')`` are the same result.

    Results order by strength (L6): ``Result.parse("3334") > Result.parse("3332")``.
    The empty result (every die a six, no dice cards) is ``Result(0, 0)``, written ``"-"``.
    """

    __slots__ = ("_size", "_value", "_further", "_rank")
    _size: int
    _value: int
    _further: Optional[int]
    _rank: int

    def __init__(self, size: Union[int, str], value: Optional[int] = None, further: Optional[int] = None) -> None:
        if hasattr(self, "_rank"):  # __init__ again would change a hashed value (and the shared constants)
            raise AttributeError("Result is immutable")
        if isinstance(size, str) and value is None and further is None:
            # Result('3332'): what repr prints, so a repr pastes back.
            parsed = parse_combination(size, "size")
            size, value, further = parsed._size, parsed._value, parsed._further
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

    def __iter__(self) -> Iterator[Optional[int]]:
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


def counts_of(faces: Iterable[int]) -> Tuple[int, int, int, int, int]:
    """How many of each counted face 1..5 a roll shows (sixes do not count, L1): the engine's dice state."""
    c = [0] * 5
    for f in faces:
        if f != 6:
            c[f - 1] += 1
    return tuple(c)  # type: ignore[return-value]


def faces_of(counts: Sequence[int]) -> Tuple[int, ...]:
    """Counts of 1..5 back to faces, highest first (how a keep is printed)."""
    return tuple(v for v in range(5, 0, -1) for _ in range(counts[v - 1]))


# ----------------------------------------------------------------------------- argument checks


def check_rerolls(field: str, rerolls: object, high: int = MAX_REROLLS) -> int:
    """A re-roll count 0..``high`` (3 at most, L3), or an error naming ``field``."""
    return check_int(field, rerolls, 0, high)


def check_dice(dice: object, low: int = 1) -> int:
    """A dice count ``low``..6 for the ``dice`` argument (1 to roll; 0 allowed where the cards alone count)."""
    return check_int("dice", dice, low, MAX_DICE)


def check_rank_array(field: str, values: object) -> np.ndarray:
    """A float vector with one finite value per result rank (a utility, a row of the table)."""
    expected = f"{field}: expected {NUM_RESULTS} numbers (one per result rank)"
    if values is None or isinstance(values, (str, bytes)):
        raise ArgumentTypeError(f"{expected}, got {type(values).__name__}", field)
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError):  # ragged nesting
        raise ArgumentTypeError(f"{expected}, got {type(values).__name__}", field) from None
    # Real numbers only: np.asarray(dtype=float) would also read digit strings and drop imaginary parts.
    # (decimal.Decimal is no numbers.Real, but a real number all the same.)
    if raw.dtype.kind == "O":
        if not all(isinstance(v, (numbers.Real, decimal.Decimal)) and not isinstance(v, bool) for v in raw.ravel()):
            raise ArgumentTypeError(f"{expected}, got a {type(values).__name__} holding other things", field)
    elif raw.dtype.kind not in "iuf":
        raise ArgumentTypeError(f"{expected}, got values of dtype {raw.dtype}", field)
    try:
        array = raw.astype(float)
    except OverflowError:  # an int too large for a float
        raise InvalidArgumentError(f"{field}: expected finite values, got an int too large for a float", field) from None
    except ValueError:  # a signalling NaN (Decimal('sNaN')) refuses to become a float
        raise InvalidArgumentError(f"{field}: expected finite values, got a NaN", field) from None
    if array.shape != (NUM_RESULTS,):
        raise InvalidArgumentError(f"{field}: expected {NUM_RESULTS} values (one per result rank), got shape {array.shape}",
                                   field)
    if not np.all(np.isfinite(array)):
        raise InvalidArgumentError(f"{field}: expected finite values, got {array[~np.isfinite(array)][0]}", field)
    return array
