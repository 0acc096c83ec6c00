"""Output files of the subcommands, checked before the work that fills them.

A bench or ladder that runs for an hour and then cannot write its report (a directory given as the
file, a folder that does not exist) would lose the hour; these checks fail at once instead.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import InvalidArgumentError

# The formats matplotlib writes; a name without one of them would get ".png" appended behind the
# user's back, so the file written would not be the file named.
IMAGE_SUFFIXES = (".png", ".svg", ".svgz", ".pdf", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp")


def check_writable(path: str, field: str, *, image: bool = False) -> None:
    """An InvalidArgumentError naming ``field`` unless ``path`` can be written as a file ('-', standard
    output, always can); with ``image``, its name must also end in an image format."""
    if path == "-" and not image:
        return
    target = Path(path)
    parent = target.resolve().parent
    if target.is_dir() or not parent.is_dir() or not os.access(parent, os.W_OK):
        raise InvalidArgumentError(f"{field}: cannot write {path!r} (a directory, no such directory, or not "
                                   "writable)", field)
    if image and target.suffix.lower() not in IMAGE_SUFFIXES:
        raise InvalidArgumentError(f"{field}: expected an image file name ending in {', '.join(IMAGE_SUFFIXES[:3])} "
                                   f"or another matplotlib format, got {path!r}", field)
