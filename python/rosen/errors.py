"""rosen's exceptions: one family, each naming the argument or field that is wrong.

Every error a caller can cause is a :class:`RosenError` (a ``ValueError``) whose ``field`` names
what was wrong and whose message starts with that name and says what was expected::

    >>> import rosen
    >>> try:
    ...     rosen.SearchParams(temperature=0)
    ... except rosen.RosenError as exc:
    ...     print(exc.field, "|", exc)
    temperature | temperature: expected 0.01..1000, got 0

A value of the wrong type raises :class:`ArgumentTypeError`, which is also a ``TypeError``.
The C++ core raises the same classes (mapped once, in ``cpp/bindings/bind_errors.cpp``).
This module is a leaf: it imports nothing from rosen.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Iterable, Optional

__all__ = [
    "RosenError", "InvalidArgumentError", "ArgumentTypeError", "InvalidPositionError", "InvalidMoveError",
    "IllegalMoveError", "check_int", "check_real", "check_bool", "check_choice", "check_str", "check_players",
    "restated", "as_array", "require_extra", "is_collection", "MAX_SEED",
]

#: Seeds are 64-bit unsigned everywhere (the C++ core's generators).
MAX_SEED = 2**64 - 1


class RosenError(ValueError):
    """Base class of rosen's errors. ``field`` names the argument or notation field at fault."""

    def __init__(self, message: str, field: Optional[str] = None) -> None:
        super().__init__(message)
        self.field = field

    def __reduce__(self):
        return (type(self), (str(self), self.field))

    def renamed(self, old: str, new: str) -> "RosenError":
        """This error as the caller's argument ``new`` says it, when it names ``old`` (a helper's
        parameter that the caller calls otherwise); any other error unchanged."""
        if self.field != old or not str(self).startswith(f"{old}: "):
            return self
        return type(self)(restated(self, old, new), new)


class InvalidArgumentError(RosenError):
    """An argument whose value is out of range or otherwise unusable."""


class ArgumentTypeError(RosenError, TypeError):
    """An argument of the wrong type (also a ``TypeError``)."""


class InvalidPositionError(RosenError):
    """A position line that does not follow the notation (RULES.md); ``field`` names the part."""


class InvalidMoveError(RosenError):
    """Move text that is not a move in the notation."""


class IllegalMoveError(RosenError):
    """A well-formed move that is not legal in the position; the message lists the legal moves."""


def require_extra(module: str, extra: str, *packages: str) -> None:
    """Raise ModuleNotFoundError naming the extra to install when a package that ``module`` (a
    rosen module behind the optional ``rosen[extra]``) imports is missing; Python's own message
    names only the package (``No module named 'pyspiel'``, which is not even its pip name)."""
    import importlib.util

    for package in packages:
        try:
            found = importlib.util.find_spec(package) is not None
        except (ImportError, ValueError):  # a parent package missing, or a broken stub in sys.modules
            found = False
        if not found:
            raise ModuleNotFoundError(f"{module} needs {package}, which is not installed: "
                                      f'pip install "rosen[{extra}]"', name=package)


def restated(exc: BaseException, old: str, new: str) -> str:
    """``exc``'s message said under the caller's name ``new`` (``new: <message>``), without a
    leading ``old: `` -- the callee's name for the same thing -- so that the name is said once."""
    message = str(exc)
    return f"{new}: {message[len(old) + 2:] if message.startswith(f'{old}: ') else message}"


def _shown(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int of more than 4300 digits, which Python refuses to write out
        return f"an int of about {int(value.bit_length() * 0.30103) + 1} digits" if isinstance(value, int) \
            else f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    shape = getattr(value, "shape", None)
    return type(value).__name__ + (f" of shape {shape}" if shape is not None else "")


def _is_bool(value: Any) -> bool:
    """A Python bool or a NumPy one (``numpy.bool_``, recognised without importing NumPy)."""
    kind = type(value)
    return isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"))


def is_collection(value: Any) -> bool:
    """Whether ``value`` can be taken as a sequence of items: iterable, not text, and not a 0-d
    NumPy array (which has ``__iter__`` but cannot be iterated: a bare TypeError naming nothing)."""
    return (hasattr(value, "__iter__") and not isinstance(value, (str, bytes))
            and getattr(value, "ndim", None) != 0)


def check_bool(field: str, value: Any) -> bool:
    """``value`` as a bool if it is one (Python's or NumPy's); else an error naming ``field``."""
    if not _is_bool(value):
        raise ArgumentTypeError(f"{field}: expected a bool, got {type(value).__name__}", field)
    return bool(value)


def check_int(field: str, value: Any, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as an int if it is one (not a bool) within ``[low, high]``; else an error naming ``field``."""
    if _is_bool(value) or not hasattr(value, "__index__"):
        raise ArgumentTypeError(f"{field}: expected an int, got {type(value).__name__}", field)
    try:
        value = value.__index__()
    except TypeError:  # e.g. a NumPy array of several numbers
        raise ArgumentTypeError(f"{field}: expected an int, got {_kind(value)}", field) from None
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            expected = f"an int >= {low}"
        elif low is None:
            expected = f"an int <= {high}"
        else:
            expected = f"{low}..{high}"
        raise InvalidArgumentError(f"{field}: expected {expected}, got {_shown(value)}", field)
    return value


def check_real(field: str, value: Any, low: Optional[float] = None, high: Optional[float] = None) -> float:
    """``value`` as a finite float within ``[low, high]``; else an error naming ``field``."""
    if _is_bool(value) or isinstance(value, (str, bytes)) or not hasattr(value, "__float__"):
        raise ArgumentTypeError(f"{field}: expected a number, got {type(value).__name__}", field)
    bounds = "a finite number" if low is None and high is None else (
        f"a number >= {low:g}" if high is None else f"a number <= {high:g}" if low is None else f"{low:g}..{high:g}")
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        raise InvalidArgumentError(f"{field}: expected {bounds}, got {_shown(value)} (too large)", field) from None
    except TypeError:  # e.g. a NumPy array of several numbers
        raise ArgumentTypeError(f"{field}: expected a number, got {_kind(value)}", field) from None
    if not math.isfinite(number) or (low is not None and number < low) or (high is not None and number > high):
        raise InvalidArgumentError(f"{field}: expected {bounds}, got {_shown(value)}", field)
    return number


def as_array(value: Any, field: str, expected: str) -> Any:
    """``numpy.asarray(value)``, or an :class:`ArgumentTypeError` ``<field>: expected <expected>,
    got a ragged <type>`` for what NumPy cannot make one array of (it raises a bare ValueError for
    ragged nesting such as ``[[1], [1, 2]]``)."""
    import numpy as np  # here, so that this leaf imports nothing until an array is checked

    ragged = ArgumentTypeError(f"{field}: expected {expected}, got a ragged {type(value).__name__}", field)
    try:
        with warnings.catch_warnings():  # NumPy < 1.24 warns and makes an object array of ragged nesting
            warnings.simplefilter("ignore")
            arr = np.asarray(value)
    except (TypeError, ValueError):
        raise ragged from None
    if arr.dtype == object and not isinstance(value, np.ndarray) and any(
            isinstance(item, (list, tuple, np.ndarray)) for item in arr.flat):
        raise ragged  # the object array such a NumPy made of ragged nesting
    return arr


def check_players(value: Any) -> int:
    """A player count: 2, or 4 for the team game (R13); else an error naming ``players``."""
    players = check_int("players", value)
    if players not in (2, 4):
        raise InvalidArgumentError(f"players: expected 2 or 4, got {_shown(players)}", "players")
    return players


def check_str(field: str, value: Any) -> str:
    """``value`` if it is a str; else an :class:`ArgumentTypeError` naming ``field``."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{field}: expected a str, got {type(value).__name__}", field)
    return value


def check_choice(field: str, value: Any, choices: Iterable[str]) -> str:
    """``value`` if it is one of ``choices``; else an error naming ``field`` and the choices."""
    choices = tuple(choices)
    check_str(field, value)
    if value not in choices:
        expected = ", ".join(repr(c) for c in choices[:-1]) + f" or {choices[-1]!r}" if len(choices) > 1 else repr(choices[0])
        raise InvalidArgumentError(f"{field}: expected {expected}, got {_shown(value)}", field)
    return value
