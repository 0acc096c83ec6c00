"""rosen: an engine for Rosenkönig (The Rose King) and Lovagok (Knatsch) dice contests."""
from __future__ import annotations

from . import _core

__version__ = "0.1.0"
