"""Shared pieces of the fuzz targets: the oracle's allowed exceptions and a
small byte consumer that turns a fuzzer's input into values.

Every target is a module ``fuzz/fuzz_<name>.py`` with ``one_input(data: bytes) -> None`` that
raises only for a finding. Atheris is needed only to *fuzz* (``fuzz/run.py``); the targets
themselves run with nothing but rosen and numpy, which is how ``tests/test_fuzz_targets.py``
replays the committed corpora.
"""
from __future__ import annotations

import contextlib
import math
import struct
from typing import Any, Callable, Iterator, Sequence, Tuple, Type

#: The oracle, in one place: a public call may return normally or raise one of these (their
#: subclasses included: rosen's InvalidPositionError, InvalidMoveError and IllegalMoveError are
#: ValueErrors). Anything else escaping a call -- another exception type, a crash, a hang -- is a
#: finding.
ALLOWED: Tuple[Type[BaseException], ...] = (ValueError, TypeError)


class Finding(AssertionError):
    """A broken property (a wrong answer rather than a wrong exception)."""


@contextlib.contextmanager
def allowed() -> Iterator[None]:
    """``with allowed(): call()`` -- swallow exactly the allowed exceptions."""
    try:
        yield
    except ALLOWED:
        pass


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Tuple[bool, Any]:
    """``(True, result)`` or ``(False, exception)`` for an allowed exception; anything else escapes."""
    try:
        return True, fn(*args, **kwargs)
    except ALLOWED as exc:
        return False, exc


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Finding(message)


# ----------------------------------------------------------------------------- input consumer

#: Floats worth trying on every numeric parameter.
INTERESTING_FLOATS: Sequence[float] = (
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-300, 5e-324, 1e-50, 1e-46, 1e-30, 1e-9, 1e9, 1e30, 1e38, 1e39, 1e300,
    1.7976931348623157e308, -1e-50, -1e39, -1e300, math.inf, -math.inf, math.nan, 3.4028235e38, 1.1754944e-38,
)
#: Ints worth trying (edges of int32/int64/uint64 and of Python's own size).
INTERESTING_INTS: Sequence[int] = (
    0, 1, -1, 2, 3, 7, 8, 100, 255, 256, 1000, 2**15, 2**16, 2**31 - 1, 2**31, -2**31, 2**32, 2**53,
    2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64, 10**30, -10**30,
)


class Input:
    """Consumes a byte string front to back; past its end every read gives zeros/empties.

    The layout is deliberately simple (one byte picks a branch, little-endian ints) so that a
    committed corpus file can be written by hand and a finding replays without atheris.
    """

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)
        self.pos = 0

    @property
    def remaining(self) -> int:
        return len(self.data) - self.pos

    def take(self, n: int) -> bytes:
        chunk = self.data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return chunk

    def byte(self) -> int:
        chunk = self.take(1)
        return chunk[0] if chunk else 0

    def bool(self) -> bool:
        return bool(self.byte() & 1)

    def uint(self, nbytes: int) -> int:
        return int.from_bytes(self.take(nbytes).ljust(nbytes, b"\0"), "little")

    def int_in(self, lo: int, hi: int) -> int:
        """An int in [lo, hi]."""
        span = hi - lo + 1
        nbytes = max(1, (span.bit_length() + 7) // 8)
        return lo + self.uint(nbytes) % span

    def choice(self, options: Sequence[Any]) -> Any:
        return options[self.byte() % len(options)]

    def float(self) -> float:
        """A float: an interesting one, a small decimal, or any 64-bit pattern (NaNs included)."""
        kind = self.byte() % 4
        if kind == 0:
            return self.choice(INTERESTING_FLOATS)
        if kind == 1:
            return (self.uint(2) - 32768) / 64.0
        if kind == 2:
            return struct.unpack("<d", self.take(8).ljust(8, b"\0"))[0]
        return float(struct.unpack("<f", self.take(4).ljust(4, b"\0"))[0])

    def integer(self) -> int:
        """An int: an interesting one, a small one, or any 64-bit pattern, signed or not."""
        kind = self.byte() % 4
        if kind == 0:
            return self.choice(INTERESTING_INTS)
        if kind == 1:
            return self.uint(1)
        if kind == 2:
            return int.from_bytes(self.take(8).ljust(8, b"\0"), "little", signed=True)
        return self.uint(2) - 1000

    def text(self, max_len: int = 64) -> str:
        """A string of at most ``max_len`` bytes, decoded so that every code point can appear:
        UTF-8 (invalid bytes become lone surrogates, as with os.fsdecode) or UTF-16."""
        n = self.int_in(0, max_len)
        raw = self.take(n)
        return decode(raw, self.byte())

    def rest_text(self, mode: int = 0) -> str:
        return decode(self.take(self.remaining), mode)


def decode(raw: bytes, mode: int) -> str:
    """Bytes to str: mode 0 UTF-8 with surrogateescape, 1 Latin-1, 2 UTF-16 with lone surrogates."""
    mode %= 3
    if mode == 0:
        return raw.decode("utf-8", "surrogateescape")
    if mode == 1:
        return raw.decode("latin-1")
    if len(raw) % 2:
        raw = raw[:-1]
    return raw.decode("utf-16-le", "surrogatepass")


def value(inp: Input, strings: Sequence[str] = ()) -> Any:
    """Any plausible argument value: ints, floats, bools, None, strings, or an odd type."""
    kind = inp.byte() % 10
    if kind <= 2:
        return inp.integer()
    if kind <= 4:
        return inp.float()
    if kind == 5:
        return inp.bool()
    if kind == 6:
        return inp.choice(strings) if strings and inp.bool() else inp.text(16)
    if kind == 7:
        return None
    if kind == 8:
        return inp.choice([[], (), [1, 2], {"a": 1}, b"x", 1j, object(), range(3), float, "1.5", "10"])
    import numpy as np
    with np.errstate(all="ignore"):
        return inp.choice([np.int64(inp.integer() % 2**63), np.float32(inp.float()), np.float64(inp.float()),
                           np.int8(inp.byte() - 128), np.bool_(inp.bool()), np.array([1, 2]), np.uint64(2**64 - 1)])
