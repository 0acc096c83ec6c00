"""Argument checks shared by the Python layer: one wording for every "expected an int" error."""
from __future__ import annotations

from typing import Any, Optional


def check_int(name: str, value: Any, low: Optional[int] = None) -> int:
    """``value`` if it is an int (not a bool) of at least ``low``; else TypeError/ValueError naming ``name``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
    if low is not None and value < low:
        raise ValueError(f"{name}: expected at least {low}, got {value}")
    return value
