"""The modules of the rosen package, for the tests that walk them all (doctests, docstrings)."""
from __future__ import annotations

import pkgutil
from typing import List

import rosen


def all_modules() -> List[str]:
    """The dotted names of every module of rosen, the package itself first, less the compiled core
    and ``__main__`` (importing it runs the CLI). A package that cannot be imported is an error:
    walk_packages would otherwise skip it without a word."""
    def fail(name: str) -> None:
        raise ImportError(f"cannot import {name}")

    names = ["rosen"]  # walk_packages yields only what is below the package
    for info in pkgutil.walk_packages(rosen.__path__, prefix="rosen.", onerror=fail):
        if not info.name.startswith("rosen._core") and info.name != "rosen.__main__":
            names.append(info.name)
    return names
