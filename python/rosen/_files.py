"""Files written whole, files one process writes at a time, and files read only if they are files.

A report, a curve file or a plot is written to a temporary file beside the target and moved into
place when complete, so that a full disk or a kill leaves the old file or none, never half of the
new one. A file or a run directory that one process writes is locked, so that a second writer is
refused instead of interleaving with the first.
"""
from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, Union

from .errors import InvalidArgumentError

PathLike = Union[str, "os.PathLike[str]"]


def is_special_file(path: PathLike) -> bool:
    """Whether ``path`` is there and is neither a regular file nor a folder: a device such as
    /dev/null or /dev/stdout, a pipe, a socket. Such a target is written into, never replaced."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def write_whole(path: PathLike, write: Callable[[Path], object], field: str, *, keep_suffix: bool = False) -> None:
    """Call ``write(temporary)`` and move the temporary file to ``path``; an OSError on the way
    removes the temporary file and raises an error naming ``field``. ``keep_suffix``: the
    temporary name ends in the target's suffix (matplotlib reads the image format from it). A
    special file (``/dev/null``, a pipe) is written directly: moving a file onto it replaced the
    device itself, and run as root that turned /dev/null into a regular file (F107)."""
    target = Path(os.fspath(path))
    if is_special_file(target):
        try:
            write(target)
        except OSError as exc:
            raise InvalidArgumentError(f"{field}: cannot write {os.fspath(path)!r}: {exc.strerror or exc}",
                                       field) from None
        return
    partial = (target.with_name(target.stem + ".partial" + target.suffix) if keep_suffix
               else target.with_name(target.name + ".partial"))
    try:
        write(partial)
        os.replace(partial, target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise InvalidArgumentError(f"{field}: cannot write {os.fspath(path)!r}: {exc.strerror or exc}", field) from None
    except BaseException:  # the writer's own error (a format matplotlib cannot write), Ctrl-C
        partial.unlink(missing_ok=True)
        raise


def write_text_whole(path: PathLike, text: str, field: str) -> None:
    """:func:`write_whole` of UTF-8 ``text``."""
    write_whole(path, lambda partial: partial.write_text(text, encoding="utf-8"), field)


def lock_exclusively(fd: int) -> bool:
    """Take the exclusive lock of the open file (or directory) ``fd`` for this process, held until
    ``fd`` is closed or the process ends; False if another process holds it. POSIX ``flock``;
    elsewhere no lock is taken and the answer is True."""
    if os.name != "posix":
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


@contextlib.contextmanager
def directory_held(directory: PathLike, field: str, in_use: str) -> Iterator[None]:
    """The existing ``directory`` for this process alone while the block runs (POSIX: an exclusive
    ``flock`` on the directory itself, released when the block ends or the process dies). Held by
    another process, it raises an error naming ``field``: the directory, then ``in_use`` (what
    holds it and what to do). Elsewhere nothing is locked."""
    if os.name != "posix":
        yield
        return
    shown = os.fspath(directory)
    try:
        fd = os.open(shown, os.O_RDONLY)
    except OSError as exc:
        raise InvalidArgumentError(f"{field}: cannot write the directory {shown!r}: {exc.strerror or exc}",
                                   field) from None
    try:
        if not lock_exclusively(fd):
            raise InvalidArgumentError(f"{field}: {shown!r} {in_use}", field)
        yield
    finally:
        os.close(fd)  # the lock goes with it


def open_regular(source: PathLike, expected: str) -> BinaryIO:
    """``source`` opened for reading, if it is a regular file; else an error naming ``path`` and
    ``expected``. Opening does not wait (a FIFO with no writer would block the caller, e.g. the
    engine's input thread, for ever) and nothing is read from anything else (``/dev/stdin`` would
    eat the engine's own protocol input)."""
    fd = os.open(os.fspath(source), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a pipe, socket or device)"
            raise InvalidArgumentError(f"path: {os.fspath(source)!r} is {kind}; expected {expected}", "path")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
