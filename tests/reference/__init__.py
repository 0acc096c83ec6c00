"""A plain, pure-Python reference implementation of the Rosenkönig rules (RULES.md R1-R14).

It shares no code with the engine and is meant for differential testing only.
"""
from .rules import CARDS, RefState, territories  # noqa: F401
