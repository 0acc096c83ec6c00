"""A self-play run on disk: shards of rows, their games, a manifest with checksums; resumable.

A run directory holds nothing but::

    run.json            the run's parameters (format, games, shard_games, seed, agent, ...)
    shard-00000.npz     rows of games [first_game, first_game + shard_games): the spec's arrays
                        (players and reshuffle among them) plus metadata: format, format_version,
                        seed, agent, first_game and games of the shard, run (run.json's text)
    games-00000.jsonl   the same games, one match record per line (rosen.match.replay replays them)
    shard-00001.npz ... games-00001.jsonl ...
    manifest.jsonl      one line per finished shard: its files, first game, games, rows, sha256s

Every file is written under a temporary name (``<name>.tmp``) and moved into place with
``os.replace``, the manifest last, after both files of a shard: a shard is finished exactly when
the manifest lists it. A run stopped at any point leaves finished shards and perhaps a stray
temporary file or an unlisted shard; running the same parameters again removes those and writes
only the shards the manifest lacks. Shards are byte-for-byte reproducible (the zip entries carry a
fixed time stamp), so a resumed run's manifest equals an uninterrupted one's.

>>> import tempfile, rosen.selfplay as sp
>>> with tempfile.TemporaryDirectory() as d:
...     entries = sp.write_run(d, 4, shard_games=2, agent="random", seed=3)
...     [e["shard"] for e in entries], sp.verify_manifest(d), len(sp.load_dir(d).games)
(['shard-00000.npz', 'shard-00001.npz'], [], 4)
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable, Dict, Iterator, List, Mapping, Optional, Union

import numpy as np

from .. import _json
from .._files import directory_held, open_regular
from ..errors import ArgumentTypeError, InvalidArgumentError, RosenError, check_int
from .backends import ShardJob, make_backend
from .engine_id import engine_fingerprint
from .generate import COLUMNS, SelfPlayBatch, agent_network, check_settings

FORMAT = "rosen-selfplay"
FORMAT_VERSION = 1
RUN_FILE = "run.json"
MANIFEST = "manifest.jsonl"
TMP = ".tmp"
#: Every file name a run directory may hold (temporary ones end in TMP as well).
_OURS = re.compile(r"(run\.json|manifest\.jsonl|shard-\d{5,}\.npz|games-\d{5,}\.jsonl)")
#: Zip entries carry this time stamp instead of the clock's, so that a shard's bytes (and its
#: sha256) depend on its rows only.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_DTYPES = {"game": "int64", "ply": "int32", "players": "int8", "reshuffle": "int8", "tokens": "uint64",
           "crown": "int8", "hands": "uint32", "discard": "uint32", "pile": "uint32", "heroes": "int8",
           "to_move": "int8", "legal": "bool", "visits": "uint32", "root_value": "float32", "root_margin": "float32",
           "action": "uint8", "result": "float32", "final_margin": "int16", "weight": "float32", "full_search": "bool"}

#: Each column's shape per row (the rows are the first axis).
_ROW_SHAPES = {"tokens": (2, 2), "hands": (4,), "heroes": (4,), "legal": (50,), "visits": (50,)}

PathLike = Union[str, "os.PathLike[str]"]


def shard_name(index: int) -> str:
    """The file name of shard ``index``'s rows: ``shard-00000.npz`` (at least five digits)."""
    return f"shard-{index:05d}.npz"


def games_name(index: int) -> str:
    """The file name of shard ``index``'s games: ``games-00000.jsonl`` (at least five digits)."""
    return f"games-{index:05d}.jsonl"


@dataclass
class Shard:
    """One shard file: ``rows`` (the spec's arrays) and ``metadata`` (the other entries as Python values)."""

    rows: Dict[str, np.ndarray]
    metadata: Dict[str, Any]

    def __repr__(self) -> str:  # a summary: the dataclass's own printed every array
        rows = len(next(iter(self.rows.values()))) if self.rows else 0
        return f"Shard(rows={rows}, columns={len(self.rows)}, metadata={sorted(self.metadata)})"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


#: A row's largest training weight (self-play writes 0 or 1): 2**24 rows of it still sum far
#: below float32's limit.
MAX_ROW_WEIGHT = 1e6


def _atomic_write(path: Path, write: Callable[[BinaryIO], object], *, fsync: bool) -> str:
    """Write ``path`` through a temporary file that replaces it only when complete; its sha256."""
    tmp = path.with_name(path.name + TMP)
    try:
        with open(tmp, "wb") as f:
            write(f)
            if fsync:
                f.flush()
                os.fsync(f.fileno())
        digest = _sha256(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return digest


def _write_npz(f: BinaryIO, arrays: Mapping[str, np.ndarray]) -> None:
    """``np.savez`` (uncompressed) with fixed zip time stamps; ``np.load`` reads it as any .npz."""
    with zipfile.ZipFile(f, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as z:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_TIME)
            with z.open(info, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, np.asanyarray(array), allow_pickle=False)


def write_shard(path: PathLike, rows: Mapping[str, np.ndarray], metadata: Mapping[str, Any], *,
                fsync: bool = True) -> str:
    """Write one shard file atomically: the row columns plus ``format``, ``format_version`` and
    ``metadata`` (str, int or float values; an int must fit int64, or uint64 for ``seed``).
    Returns the file's sha256. ``fsync`` also makes it durable against power loss."""
    missing = [name for name in COLUMNS if name not in rows]
    if missing:
        raise InvalidArgumentError(f"rows: missing column {missing[0]!r}", "rows")
    arrays: Dict[str, np.ndarray] = {name: np.ascontiguousarray(rows[name]) for name in COLUMNS}
    arrays["format"] = np.array(FORMAT)
    arrays["format_version"] = np.array(FORMAT_VERSION, dtype=np.int64)
    for key, value in metadata.items():
        if key in arrays:
            raise InvalidArgumentError(f"metadata: {key!r} is a column or format field", "metadata")
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise InvalidArgumentError(f"metadata: {key}: expected a str, int or float, got {type(value).__name__}",
                                       "metadata")
        arrays[key] = np.array(value, dtype=np.uint64 if key == "seed" else None)
    return _atomic_write(Path(path), lambda f: _write_npz(f, arrays), fsync=fsync)


def _name(path: Any) -> str:
    """A shard's source as the errors name it: its path, or a file object's name."""
    if isinstance(path, (str, bytes, os.PathLike)):
        return repr(os.fspath(path))
    name = getattr(path, "name", None)
    return repr(name) if isinstance(name, (str, bytes)) else f"the {type(path).__name__}"


def load(path: Union[PathLike, BinaryIO]) -> Shard:
    """Read a shard (a path, or a binary file object the caller opened and closes), checking its
    format name and version and the columns' dtypes. A file that is not a readable .npz
    (truncated, a flipped byte: zip checksums) raises ValueError naming it."""
    try:
        return _load(path)
    except RosenError:
        raise
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        raise InvalidArgumentError(f"path: {_name(path)} is damaged or not an .npz file "
                                   f"({type(exc).__name__}: {exc})", "path") from None


def _load(path: Union[PathLike, BinaryIO]) -> Shard:
    if isinstance(path, (str, bytes, os.PathLike)):
        # Checked first: np.load would open anything, and wait for ever on a FIFO with no writer.
        with open_regular(path, "a self-play shard (.npz)") as f:
            return _load_npz(f, path)
    if not callable(getattr(path, "read", None)):
        raise ArgumentTypeError(f"path: expected a file path or a binary file object, got {type(path).__name__}", "path")
    return _load_npz(path, path)


def _load_npz(f: BinaryIO, path: Any) -> Shard:
    data = np.load(f, allow_pickle=False)
    if not isinstance(data, np.lib.npyio.NpzFile):  # an .npy file: one array, not a shard's columns
        raise InvalidArgumentError(f"path: {_name(path)} is a single array (.npy), not an .npz archive", "path")
    with data as npz:
        names = set(npz.files)
        if "format" not in names or str(npz["format"]) != FORMAT:
            found = str(npz["format"]) if "format" in names else "no format entry"
            raise InvalidArgumentError(f"format: {_name(path)} is not a {FORMAT} shard ({found})", "format")
        raw = npz["format_version"] if "format_version" in names else None
        # A version that is not one whole number (an array, text) is no version this reader knows.
        version = int(raw) if raw is not None and raw.shape == () and raw.dtype.kind in "iu" else \
            (raw.tolist() if raw is not None else None)
        if version != FORMAT_VERSION:
            raise InvalidArgumentError(f"format_version: this reader reads version {FORMAT_VERSION}, "
                                       f"{_name(path)} is version {version}", "format_version")
        rows = {}
        for name in COLUMNS:
            if name not in names:
                raise InvalidArgumentError(f"{name}: missing from {_name(path)}", name)
            rows[name] = npz[name]
            if rows[name].dtype.name != _DTYPES[name]:
                raise InvalidArgumentError(f"{name}: expected dtype {_DTYPES[name]}, got {rows[name].dtype.name}", name)
        count = rows["game"].shape[0] if rows["game"].ndim else -1
        for name, column in rows.items():
            shape = (count,) + _ROW_SHAPES.get(name, ())
            if column.shape != shape:
                raise InvalidArgumentError(f"{name}: expected shape {shape} (one entry a row of 'game'), got "
                                           f"{column.shape} in {_name(path)}", name)
        weight = rows["weight"]
        bad = np.flatnonzero(~(np.isfinite(weight) & (weight >= 0) & (weight <= MAX_ROW_WEIGHT)))
        # A NaN weight once surfaced as "--lr: the loss became nan", a negative one as a loss of 0,
        # and weights near float32's limit overflowed a batch's sum (the same "--lr" message).
        if bad.size:
            raise InvalidArgumentError(f"weight: row {int(bad[0])} of {_name(path)}: expected a weight "
                                       f"0..{MAX_ROW_WEIGHT:g}, got {weight[bad[0]]}", "weight")
        metadata = {name: npz[name].item() for name in npz.files if name not in rows}
    return Shard(rows=rows, metadata=metadata)


#: A manifest entry's fields: whole numbers, or names the run's own files must match (never a
#: path that leaves the directory) and sha256 hex digests.
_ENTRY_NUMBERS = ("index", "first_game", "games", "rows")
_ENTRY_TEXTS = {"shard": re.compile(r"shard-\d{5,}\.npz"), "games_file": re.compile(r"games-\d{5,}\.jsonl"),
                "sha256": re.compile(r"[0-9a-f]{64}"), "games_sha256": re.compile(r"[0-9a-f]{64}")}


def read_json_lines(path: Path, what: str) -> List[Any]:
    """The JSON values of a ``.jsonl`` file, one a non-blank line; a line that is not JSON raises
    an error naming the file and line (``what`` says what the file is), as does a file that
    cannot be read."""
    try:
        return _json.read_lines(path, what)
    except OSError as exc:
        raise InvalidArgumentError(f"path: cannot read {os.fspath(path)!r} ({exc})", "path") from None


def read_manifest(path: PathLike) -> List[Dict[str, Any]]:
    """The finished shards of the run in directory ``path``, in shard order ([] if none yet).
    A malformed entry raises an error naming the manifest's line and the field."""
    manifest = Path(path) / MANIFEST
    if not manifest.exists():
        return []
    entries = read_json_lines(manifest, "one manifest entry a line")
    # The entries must be the run's own shards, once each: a duplicated line once doubled a
    # shard's games in load_dir (and in training) while only `verify` noticed.
    run = read_run(path) if (Path(path) / RUN_FILE).is_file() else None
    seen: Dict[int, int] = {}
    for number, entry in enumerate(entries, 1):
        where = f"path: {os.fspath(manifest)!r} entry {number}"
        if not isinstance(entry, dict):
            raise InvalidArgumentError(f"{where}: expected a JSON object, got {type(entry).__name__}", "path")
        for key in _ENTRY_NUMBERS:
            value = entry.get(key)
            if type(value) is not int or value < 0:
                raise InvalidArgumentError(f"{where}: {key}: expected a whole number >= 0, got {value!r}", "path")
        for key, pattern in _ENTRY_TEXTS.items():
            value = entry.get(key)
            if not isinstance(value, str) or not pattern.fullmatch(value):
                raise InvalidArgumentError(f"{where}: {key}: expected a name like {pattern.pattern!r}, got {value!r}",
                                           "path")
        index = entry["index"]
        if index in seen:
            raise InvalidArgumentError(f"{where}: index: shard {index} is listed twice (entries {seen[index]} and "
                                       f"{number})", "path")
        seen[index] = number
        if entry["shard"] != shard_name(index) or entry["games_file"] != games_name(index):
            raise InvalidArgumentError(f"{where}: shard {index}'s files are {shard_name(index)} and "
                                       f"{games_name(index)}, not {entry['shard']} and {entry['games_file']}", "path")
        if run is not None:
            first_run, games, size = run.get("first_game", 0), run["games"], run["shard_games"]
            if index >= (games + size - 1) // size:
                raise InvalidArgumentError(f"{where}: index: the run has {(games + size - 1) // size} shards, "
                                           f"got shard {index}", "path")
            first = first_run + index * size
            expected = (first, min(size, first_run + games - first))
            if (entry["first_game"], entry["games"]) != expected:
                raise InvalidArgumentError(f"{where}: shard {index} holds games {expected[0]}.. ({expected[1]} games), "
                                           f"the entry says {entry['first_game']}.. ({entry['games']})", "path")
    return sorted(entries, key=lambda e: e["index"])


def read_run(path: PathLike) -> Dict[str, Any]:
    """The parameters of the run in directory ``path`` (its ``run.json``), checked to be a
    rosen self-play run's; anything else raises an error naming the file."""
    file = _run_directory(path) / RUN_FILE
    try:
        run = _json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise InvalidArgumentError(f"path: {os.fspath(file)!r} is not a run's parameters ({exc})", "path") from None
    if not isinstance(run, dict) or run.get("format") != FORMAT:
        raise InvalidArgumentError(f"path: {os.fspath(file)!r} is not a {FORMAT} run's parameters (a JSON object "
                                   f"with format {FORMAT!r})", "path")
    if "first_game" in run and (type(run["first_game"]) is not int or run["first_game"] < 0):
        raise InvalidArgumentError(f"path: {os.fspath(file)!r}: first_game: expected a whole number >= 0, got "
                                   f"{run['first_game']!r}", "path")
    for key in ("games", "shard_games"):
        if type(run.get(key)) is not int or run[key] < 1:
            raise InvalidArgumentError(f"path: {os.fspath(file)!r}: {key}: expected a whole number >= 1, got "
                                       f"{run.get(key)!r}", "path")
    return run


def _write_manifest(directory: Path, entries: List[Dict[str, Any]], *, fsync: bool) -> None:
    text = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in sorted(entries, key=lambda e: e["index"]))
    _atomic_write(directory / MANIFEST, lambda f: f.write(text.encode()), fsync=fsync)


def _path(path: Any) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path: expected a str or os.PathLike, got {type(path).__name__}", "path")
    return Path(path)


def _run_directory(path: Any) -> Path:
    directory = _path(path)
    if not (directory / RUN_FILE).is_file():
        raise InvalidArgumentError(f"path: {os.fspath(directory)!r} is not a self-play run directory (no {RUN_FILE})",
                                   "path")
    return directory


def verify_manifest(path: PathLike) -> List[str]:
    """Problems of the run in directory ``path``, one line each ([] when sound): a listed file
    missing or whose sha256 differs from the manifest's (changed after it was written), a shard
    file the manifest does not list. An unfinished run (shards still to write) is not a problem.
    Raises if ``path`` is not a run directory."""
    directory = _run_directory(path)
    problems = []
    listed = set()
    for entry in read_manifest(directory):
        for name_key, sha_key in (("shard", "sha256"), ("games_file", "games_sha256")):
            name = entry[name_key]
            listed.add(name)
            file = directory / name
            if not file.exists():
                problems.append(f"{name}: listed in {MANIFEST} but missing")
            elif not file.is_file():
                problems.append(f"{name}: listed in {MANIFEST} but not a file")
            elif _sha256(file) != entry[sha_key]:
                problems.append(f"{name}: sha256 differs from {MANIFEST} (the file changed after it was written)")
    for file in sorted(directory.iterdir()):
        if re.fullmatch(r"(shard-\d{5,}\.npz|games-\d{5,}\.jsonl)", file.name) and file.name not in listed:
            problems.append(f"{file.name}: not listed in {MANIFEST} (an unfinished shard)")
    return problems


def load_dir(path: PathLike, *, verify: bool = False) -> SelfPlayBatch:
    """Every finished shard of a run directory as one batch (rows and games in game order).
    ``verify``: check the sha256s first (:func:`verify_manifest`), raising on a problem."""
    directory = _run_directory(path)
    if verify:
        problems = verify_manifest(directory)
        if problems:
            raise InvalidArgumentError(f"path: {problems[0]}", "path")
    batches = []
    for entry in read_manifest(directory):
        shard = load(directory / entry["shard"])
        games = read_json_lines(directory / entry["games_file"], "one game record a line")
        for name, what, count in ((entry["shard"], "rows", len(shard.rows["game"])),
                                  (entry["games_file"], "games", len(games))):
            if count != entry[what]:
                raise InvalidArgumentError(f"path: {name}: {count} {what}, {MANIFEST} says {entry[what]}", "path")
        batches.append(SelfPlayBatch(rows=shard.rows, games=games))
    if not batches:
        raise InvalidArgumentError(f"path: {os.fspath(path)!r} holds no finished shard", "path")
    return SelfPlayBatch.concat(batches)


def network_digest(agent: str) -> Optional[str]:
    """The sha256 of the weights of the network the agent spec's ``evaluator=`` names (their names,
    dtypes, shapes and bytes: the same network whatever its file's name or compression), or None."""
    network = agent_network(agent)
    if network is None:
        return None
    from ..learning.network import WEIGHTS

    digest = hashlib.sha256()
    for name in WEIGHTS:
        array = np.ascontiguousarray(getattr(network, name))
        digest.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _open_run_dir(directory: Path, run: Dict[str, Any]) -> None:
    """Check (or create) the directory for this run: only our files, and the same parameters."""
    if directory.exists() and not directory.is_dir():
        raise InvalidArgumentError(f"path: {os.fspath(directory)!r} is not a directory", "path")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / (MANIFEST + TMP)  # a name a later run cleans up; fail now, not after the first shard, if we cannot write
        probe.write_bytes(b"")
        probe.unlink()
        # Listed after the probe: the probe may have replaced (and removed) a stopped run's
        # manifest.jsonl.tmp, which must then not be cleaned up a second time below.
        names = sorted(p.name for p in directory.iterdir())
    except OSError as exc:
        raise InvalidArgumentError(f"path: cannot write the run directory {os.fspath(directory)!r}: "
                                   f"{exc.strerror or exc}", "path") from None
    for name in names:
        if not _OURS.fullmatch(name.removesuffix(TMP)):
            raise InvalidArgumentError(f"path: {os.fspath(directory)!r} holds {name!r}, which is not part of a "
                                       f"self-play run; use an empty or new directory", "path")
    if RUN_FILE in names:
        before = read_run(directory)
        for key in sorted(set(before) | set(run)):
            if key in ("network_sha256", "engine") and key not in before:
                # A run written before these were recorded (the network's digest since 5 Dec 2026,
                # the engine's fingerprint since 6 Dec) was once resumed on trust: every earlier
                # build tried played other games than today's, mixed into the run unmarked.
                what = ("which network its evaluator= named (no network_sha256: before 5 Dec 2026)"
                        if key == "network_sha256" else "which build of rosen wrote it (no engine fingerprint: "
                        "before 6 Dec 2026), and earlier builds play other games than this one")
                raise InvalidArgumentError(
                    f"path: {os.fspath(directory)!r} holds a run whose {RUN_FILE} does not record {what}; this build "
                    "does not add to it: finish it with the build that began it, or use another directory "
                    "(rosen selfplay inspect/verify and rosen train read it as ever)", "path")
            if key == "engine" and before[key] != run[key]:
                raise InvalidArgumentError(
                    f"path: {os.fspath(directory)!r} holds a run written by another build of rosen (engine fingerprint "
                    f"{before[key]} there, {run[key]} here), whose games this one would not repeat; finish it with "
                    "that build, or use another directory", "path")
            if before.get(key) != run.get(key):
                raise InvalidArgumentError(
                    f"path: {os.fspath(directory)!r} holds a run with other parameters ({key}: {before.get(key)!r} "
                    f"there, {run.get(key)!r} here); resume with the same parameters or use another directory", "path")
    elif any(not name.endswith(TMP) for name in names):
        raise InvalidArgumentError(f"path: {os.fspath(directory)!r} holds run files but no {RUN_FILE}", "path")
    for name in names:  # what a stopped run was writing; it is written again
        if name.endswith(TMP):
            (directory / name).unlink(missing_ok=True)


@contextlib.contextmanager
def _run_lock(directory: Path) -> Iterator[None]:
    """The run directory for this process alone while it writes (POSIX: an exclusive ``flock`` on
    the directory itself, released when the run ends or the process dies). Two writers once shared
    the temporary file names, removed each other's and filed the hash of an emptied file."""
    if os.name != "posix" or (directory.exists() and not directory.is_dir()):
        yield  # _open_run_dir names a file in the way
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidArgumentError(f"path: cannot write the run directory {os.fspath(directory)!r}: "
                                   f"{exc.strerror or exc}", "path") from None
    with directory_held(directory, "path", "is in use by another self-play process; wait for it to end (then "
                        "run this again to resume) or use another directory"):
        yield


def write_run(path: PathLike, games: int, *, shard_games: int = 1000, seed: int = 0, first_game: int = 0,
              players: int = 2, reshuffle: str = "eager", agent: str = "mcts:iterations=800", threads: int = 1,
              temperature: float = 1.0, temperature_plies: int = 0, dirichlet_alpha: float = 0.3,
              dirichlet_fraction: float = 0.0, full_search_probability: float = 1.0, cheap_iterations: int = 100,
              record_cheap: bool = False, fsync: bool = True, backend: Any = "local",
              backend_options: Optional[Dict[str, Any]] = None,
              on_shard: Optional[Callable[[Dict[str, Any]], None]] = None,
              on_progress: Optional[Callable[[int, int], None]] = None) -> List[Dict[str, Any]]:
    """Generate games ``[first_game, first_game + games)`` into the run directory ``path``, in
    shards of ``shard_games`` games (the last may be shorter), or resume the run there: only
    shards the manifest lacks are played. Arguments as :func:`rosen.selfplay.generate`; a
    directory holding another run or other files is refused.

    ``backend``: ``"local"`` (this process, ``threads`` threads), ``"ray"`` (one Ray task per
    shard, :class:`rosen.selfplay.backends.RayBackend` with ``backend_options`` such as
    ``address`` and ``max_in_flight``; ``threads`` per task) or a backend object. The files are
    the same whatever the backend and the thread count. ``on_shard`` is told each new manifest
    entry as its files are written (the manifest lists it at once, or -- when a rewrite of a long
    manifest takes over 50 ms -- soon after, and at the latest when the call ends); ``on_progress(games, rows)`` the games and rows finished in the shard being played
    (local backend). The run records the engine's fingerprint (:mod:`rosen.selfplay.engine_id`):
    another build of rosen does not resume it, nor play its shards on a Ray node. Returns the
    manifest entries (every shard of the run)."""
    _path(path)
    games = check_int("games", games, 1, 2**40)
    shard_games = check_int("shard_games", shard_games, 1, 2**40)
    settings = check_settings(seed=seed, first_game=first_game, players=players, reshuffle=reshuffle, agent=agent,
                              temperature=temperature, temperature_plies=temperature_plies,
                              dirichlet_alpha=dirichlet_alpha, dirichlet_fraction=dirichlet_fraction,
                              full_search_probability=full_search_probability, cheap_iterations=cheap_iterations,
                              record_cheap=record_cheap)
    check_int("threads", threads, 1, 256)
    # Every shard's games must be indices the core takes (its check sees one shard at a time).
    check_int("first_game", settings["first_game"], 0, 2**62 - games)
    run = {"format": FORMAT, "format_version": FORMAT_VERSION, "games": games, "shard_games": shard_games,
           **settings}  # threads changes the speed only: not a parameter of the run
    digest = network_digest(settings["agent"])
    if digest is not None:  # the agent's network by content: a file overwritten between runs is not the same run
        run["network_sha256"] = digest
    run["engine"] = engine_fingerprint()  # and the engine by what it computes: another build is not the same run
    if backend_options is not None and not isinstance(backend_options, Mapping):
        raise ArgumentTypeError(f"backend_options: expected a dict of the backend's options, got "
                                f"{type(backend_options).__name__}", "backend_options")
    runner = make_backend(backend, threads, **(backend_options or {}))  # checked before anything is written
    directory = _path(path)
    created = not directory.exists()
    with _run_lock(directory):
        _open_run_dir(directory, run)
        entries = {e["index"]: e for e in read_manifest(directory)
                   if (directory / e["shard"]).exists() and (directory / e["games_file"]).exists()}
        shared = {k: v for k, v in settings.items() if k != "first_game"}
        shards = (games + shard_games - 1) // shard_games

        def jobs() -> Iterator[ShardJob]:  # made as the backend takes them: a billion shards start at once
            for index in range(shards):
                if index not in entries:
                    first = first_game + index * shard_games
                    yield ShardJob(index, first, min(shard_games, first_game + games - first), shared, run["engine"])

        connect, close = getattr(runner, "connect", None), getattr(runner, "close", None)
        if len(entries) < shards and connect is not None:
            try:
                connect()  # Ray: joined or started (or refused) before any file is written
            except BaseException:
                if created and not any(directory.iterdir()):
                    directory.rmdir()  # nothing was written: leave no trace of this run
                raise
        try:
            if not (directory / RUN_FILE).exists():
                _atomic_write(directory / RUN_FILE, lambda f: f.write((json.dumps(run, indent=1) + "\n").encode()),
                              fsync=fsync)
            run_text = (directory / RUN_FILE).read_text(encoding="utf-8")
            # Shards may finish in any order (Ray); each is written as it comes, the manifest in order.
            # The manifest is rewritten whole (atomically) after every shard while that takes under
            # 50 ms (about 10 000 entries); a longer one only once the time since the last rewrite is
            # ten times the rewrite's: with 100 000 shards a rewrite takes half a second, and once
            # per shard the run's rewrites grew with its square. A shard finished but not yet listed
            # when the process dies is played again on resume.
            results = runner.run(jobs(), on_progress)
            written_at, cost, unlisted = time.monotonic(), 0.0, False
            try:
                for job, batch in results:
                    entry = write_shard_files(directory, job.index, batch, run_text=run_text, fsync=fsync)
                    entries[job.index] = entry
                    unlisted = True
                    if cost < 0.05 or time.monotonic() - written_at >= 10 * cost:
                        started = time.monotonic()
                        _write_manifest(directory, list(entries.values()), fsync=fsync)
                        written_at, unlisted = time.monotonic(), False
                        cost = written_at - started
                    if on_shard is not None:
                        on_shard(entry)
            finally:  # stopped early: the backend cancels its work now, before the backend is closed
                stop = getattr(results, "close", None)
                if stop is not None:
                    stop()
                if unlisted:
                    _write_manifest(directory, list(entries.values()), fsync=fsync)
        finally:
            if close is not None:
                close()
        return [entries[i] for i in sorted(entries)]


_GAME_KEYS = ["game", "seed", "players", "reshuffle", "red", "white", "winner", "scores", "plies", "moves"]


def _games_jsonl(games: List[Dict[str, Any]]) -> str:
    """The games as JSON lines, as ``json.dumps(game, separators=(",", ":"))`` writes them.
    Records with generate's keys (ints, and strings that need no escaping but the agent spec)
    take a path about three times faster; anything else goes through json.dumps."""
    names: Dict[str, str] = {}
    out = []
    for g in games:
        if list(g) != _GAME_KEYS or not g["moves"]:
            out.append(json.dumps(g, separators=(",", ":")) + "\n")
            continue
        red = names.get(g["red"]) or names.setdefault(g["red"], json.dumps(g["red"]))
        white = names.get(g["white"]) or names.setdefault(g["white"], json.dumps(g["white"]))
        out.append('{"game":%d,"seed":%d,"players":%d,"reshuffle":"%s","red":%s,"white":%s,"winner":"%s",'
                   '"scores":[%d,%d],"plies":%d,"moves":["%s"]}\n'
                   % (g["game"], g["seed"], g["players"], g["reshuffle"], red, white, g["winner"], g["scores"][0],
                      g["scores"][1], g["plies"], '","'.join(g["moves"])))
    return "".join(out)


def write_shard_files(directory: PathLike, index: int, batch: SelfPlayBatch, *, run_text: str = "",
                      fsync: bool = True) -> Dict[str, Any]:
    """Write shard ``index`` of a run (its games file, then its shard file, each atomically) from
    ``batch``; returns its manifest entry (the caller adds it to the manifest)."""
    directory = Path(directory)
    settings = batch.settings
    lines = _games_jsonl(batch.games)
    games_sha = _atomic_write(directory / games_name(index), lambda f: f.write(lines.encode()), fsync=fsync)
    # players and reshuffle are columns already.
    metadata = {"seed": settings["seed"], "agent": settings["agent"], "first_game": settings["first_game"],
                "games": settings["games"], "run": run_text}
    sha = write_shard(directory / shard_name(index), batch.rows, metadata, fsync=fsync)
    return {"index": index, "shard": shard_name(index), "first_game": settings["first_game"],
            "games": settings["games"], "rows": batch.num_rows, "sha256": sha, "games_file": games_name(index),
            "games_sha256": games_sha}
