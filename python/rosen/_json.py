"""``loads``: :func:`json.loads` for text from outside the program; ``read_lines``: a JSON-lines file;
``dumps``: :func:`json.dumps` that writes only standard JSON (no ``Infinity`` or ``NaN``).

Python's parser raises RecursionError, not ValueError, for arrays or objects nested deeper than
its stack allows (``"[" * 100000``); every reader of files and requests would otherwise have to
catch both. Here it is a ValueError like any other malformed JSON.
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, Callable, List, Optional, Union

from .errors import InvalidArgumentError


def loads(text: Union[str, bytes]) -> Any:
    """The value of the JSON ``text``; ValueError (json.JSONDecodeError or one for nesting too
    deep) when it is not JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def finite(value: Any) -> Any:
    """``value`` with every float that JSON cannot hold (an infinite Elo of a clean sweep, a NaN)
    as None, and -0.0 as 0.0, in nested dicts, lists and tuples."""
    if isinstance(value, float):
        return (value + 0.0) if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """:func:`json.dumps` of :func:`finite` ``(value)``: what strict parsers read (Python's own
    writes ``Infinity``, which they reject)."""
    return json.dumps(finite(value), allow_nan=False, **kwargs)


def read_lines(path: Union[str, "os.PathLike[str]"], what: str = "", *,
               on_cut_short: Optional[Callable[[int], None]] = None) -> List[Any]:
    """The JSON values of a ``.jsonl`` file, one a non-blank line. A line that is not JSON, or text
    that is not UTF-8, raises InvalidArgumentError naming ``path`` and the line (``what``, if
    given, says what each line should be); an OSError (no such file) is the caller's to name.
    Given ``on_cut_short``, a last line that is not JSON and has no line end (what a writer
    stopped by a full disk or a kill leaves) is left out and ``on_cut_short(its number)`` called."""
    shown = os.fspath(path)
    values: List[Any] = []
    number = 0
    with open(path, encoding="utf-8") as f:
        try:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    values.append(loads(line))
                except ValueError as exc:
                    if on_cut_short is not None and not line.endswith("\n") and not f.read(1):
                        on_cut_short(number)
                        break
                    expected = f"; expected {what}" if what else ""
                    raise InvalidArgumentError(f"path: {shown!r} line {number} is not JSON ({exc}){expected}",
                                               "path") from None
        except UnicodeDecodeError:
            # text is decoded in blocks, so the line is only known to lie after the last one read
            where = f" (after line {number})" if number else ""
            raise InvalidArgumentError(f"path: {shown!r} is not UTF-8 text{where}", "path") from None
    return values
