"""`rosen strength`: Elo against budget, by matches of each (configuration, budget) against an anchor.

Every point of the ladder is a :func:`rosen.match.run_match` on colour-swapped pairs of deals;
all points use the same deals (the same ``seed``), so points differ by the budget, not by luck
of the cards. Elo and its 95% interval are the match's (:mod:`rosen.match.stats`, pair-based).

Each match writes its games as JSON lines to ``<out>/<point>.jsonl`` as they finish. A rerun
with the same arguments keeps every complete pair already on disk and plays only the rest
(:func:`run_match`'s ``first_pair``), so a ladder that was stopped resumes where it stood and a
finished one is only reported again. ``<out>/ladder.jsonl`` holds one summary line per point.
One process writes a folder at a time (POSIX: a second is refused while the first runs).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import threading
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from .. import _json
from ..agents.spec import parse_agent_spec
from .._files import directory_held, write_text_whole
from ..errors import InvalidArgumentError
from ..match.game import GameRecord, replay
from ..match.records import jsonl_writer
from ..match.runner import MatchResult, run_match
from ..selfplay.engine_id import engine_fingerprint
from .runner import budget_spec

SUMMARY = "ladder.jsonl"


@dataclass
class LadderPoint:
    """One configuration at one budget against the anchor, from A's (the configuration's) side."""

    config: str
    budget: int
    spec: str
    anchor: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    depth: float          #: A's mean search depth per move
    nps: float            #: A's iterations per second
    ms_per_move: float
    resumed: int          #: games found on disk rather than played now
    file: str

    def to_json(self) -> Dict[str, Any]:
        """The fields as a dict for JSON, a float that is not finite (a clean sweep's Elo) as None."""
        # JSON has no infinity: a clean sweep's Elo is written as null.
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in asdict(self).items()}


def point_name(spec: str, anchor: str) -> str:
    """A file name for the match ``spec`` against ``anchor``: its text in safe characters, cut
    short, and a hash of the whole text, so that two matches never share a file (``a b`` and
    ``a_b`` read the same once made safe; two long specs may differ only past the cut)."""
    digest = hashlib.sha256(f"{spec}__vs__{anchor}".encode()).hexdigest()[:12]
    return _safe_name(spec, anchor)[:160] + "-" + digest


def _load_games(path: Path, spec: str, anchor: str, seed: int, players: int, reshuffle: str) -> List[GameRecord]:
    """The complete pairs of an earlier run of this match, each game replayed; an unfinished last
    line (the run was killed while writing) or a lone game of an unfinished pair is dropped. Any
    other line that is not a game of this match is an error, not something to overwrite."""
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidArgumentError(f"out: cannot read {str(path)!r} ({exc}); remove it or choose another --out",
                                   "out") from None
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    # Every line is written whole with its newline: only a last line without one was cut short.
    cut_short = bool(lines) and not text.endswith("\n")
    games: List[GameRecord] = []
    for number, line in lines:
        try:
            record = GameRecord.from_json(_json.loads(line))
            replay(record)  # the moves are legal and give the recorded winner and scores
        except (ValueError, TypeError) as exc:
            if cut_short and number == lines[-1][0]:
                break  # the last line, cut short when a run was killed: everything before it stands
            raise InvalidArgumentError(f"out: {str(path)!r} line {number} is not a game record of this ladder "
                                       f"({exc}); remove it or choose another --out", "out") from None
        game = len(games)
        a_red = game % 2 == 0
        expected = (spec, anchor) if a_red else (anchor, spec)
        if (record.extra.get("game") != game or (record.red, record.white) != expected
                or record.seed != seed + game // 2 or record.players != players or record.reshuffle != reshuffle):
            raise InvalidArgumentError(
                f"out: {str(path)!r} line {number} is not game {game} of {spec} against {anchor} with seed "
                f"{seed}, {players} players, {reshuffle} reshuffle; remove it or choose another --out", "out")
        games.append(record)
    return games[: len(games) // 2 * 2]


def _safe_name(spec: str, anchor: str) -> str:
    """The match's text in characters safe in a file name."""
    return re.sub(r"[^A-Za-z0-9._=+-]+", "_", f"{spec}__vs__{anchor}")


def _legacy_name(spec: str, anchor: str) -> str:
    """The point file's name before 5 Dec 2026 (no hash; two matches could share it)."""
    return _safe_name(spec, anchor)[:200]


def _legacy_file(path: Path, spec: str, anchor: str, seed: int, players: int, reshuffle: str) -> Optional[Path]:
    """The point file of a ladder begun by an older rosen, under the old name, when there is no
    file under the new one and it holds this match's games (the old name may be another match's)."""
    legacy = path.with_name(_legacy_name(spec, anchor) + ".jsonl")
    if path.exists() or not legacy.is_file():
        return None
    try:
        _load_games(legacy, spec, anchor, seed, players, reshuffle)
    except InvalidArgumentError:
        return None  # another match's games: leave them be
    return legacy


def _check_engine(path: Path, games: Sequence[GameRecord], engine: str) -> None:
    """Games are added to a point only beside games this engine played: resumed by another build,
    a point once mixed two engines' games, unmarked (earlier builds play other games at a seed)."""
    for number, record in enumerate(games):
        there = record.extra.get("engine")
        if there != engine:
            by = ("a rosen from before 7 Dec 2026, which recorded no engine fingerprint" if there is None else
                  f"another build of rosen (engine fingerprint {there!r} there, {engine!r} here)")
            raise InvalidArgumentError(
                f"out: {str(path)!r} game {number} was played by {by}; more games beside it would make a point "
                "of two engines' games, which measures neither: finish the ladder with that build, or remove the "
                "file (or choose another --out) to play the point anew", "out")


def _rewrite(path: Path, games: Sequence[GameRecord]) -> None:
    """Keep exactly ``games`` in the file (atomically), before new games are appended."""
    tmp = path.with_suffix(".jsonl.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            write = jsonl_writer(f)
            for g in games:
                write(g)
        os.replace(tmp, path)
    except OSError as exc:  # e.g. a directory where the file should be
        raise InvalidArgumentError(f"out: cannot write {str(path)!r} ({exc.strerror or exc}); choose another --out",
                                   "out") from None


# The folders this process holds, by (device, inode), with how many of its calls hold each: the
# lock keeps other processes out, not this one's threads (points of one folder have files of
# their own; run_point from threads, or from run_ladder's on_point, worked before the lock).
_HELD_HERE: Dict[Any, List[Any]] = {}  # key: [count, the ExitStack holding the lock]
_HELD_LOCK = threading.Lock()


@contextlib.contextmanager
def _out_held(out: Path) -> Iterator[None]:
    """``out`` for this process alone: a second run on the same folder once replaced the point
    file the first was appending to (its games went to a deleted file) and rewrote its summary."""
    try:
        info = os.stat(out)
        key = (info.st_dev, info.st_ino)
    except OSError:
        key = None  # directory_held names the problem
    with _HELD_LOCK:
        entry = _HELD_HERE.get(key) if key is not None else None
        if entry is None:
            stack = contextlib.ExitStack()
            stack.enter_context(directory_held(out, "out", "is in use by another strength run; wait for it to end "
                                               "(then run this again to resume it) or choose another --out"))
            entry = [0, stack]
            if key is not None:
                _HELD_HERE[key] = entry
        entry[0] += 1
    try:
        yield
    finally:
        with _HELD_LOCK:  # released under the lock: a thread coming next must not find it held
            entry[0] -= 1
            if not entry[0]:
                if key is not None:
                    del _HELD_HERE[key]
                entry[1].close()


def run_point(config: str, budget_kind: str, budget: int, anchor: str, *, games: int, seed: int, players: int,
              reshuffle: str, threads: int, out: Path,
              progress: Optional[Callable[[MatchResult], None]] = None) -> LadderPoint:
    """One match of the ladder, resumed from ``out`` (an existing folder) if it was begun before;
    ``out`` is this process's alone meanwhile (POSIX: another process is refused, this one's other
    threads are not)."""
    with _out_held(Path(out)):
        return _play_point(config, budget_kind, budget, anchor, games=games, seed=seed, players=players,
                           reshuffle=reshuffle, threads=threads, out=Path(out), progress=progress)


def _play_point(config: str, budget_kind: str, budget: int, anchor: str, *, games: int, seed: int, players: int,
                reshuffle: str, threads: int, out: Path,
                progress: Optional[Callable[[MatchResult], None]] = None) -> LadderPoint:
    spec = str(budget_spec(config, budget_kind, budget))
    path = out / (point_name(spec, anchor) + ".jsonl")
    legacy = _legacy_file(path, spec, anchor, seed, players, reshuffle)
    # A smaller --games uses the first games of the file and keeps the rest on disk (they were cut
    # from it once, with no word).
    kept = _load_games(legacy or path, spec, anchor, seed, players, reshuffle)
    old = kept[:games]
    engine = engine_fingerprint()  # each game records the engine that played it
    if len(old) < games:  # a finished point is reported from any build's games; only adding mixes
        _check_engine(legacy or path, old, engine)
    if legacy is not None:  # taken over, under the new name, once nothing stands in the way
        try:
            os.replace(legacy, path)
        except OSError as exc:
            raise InvalidArgumentError(f"out: cannot rename {str(legacy)!r} to {path.name!r} "
                                       f"({exc.strerror or exc})", "out") from None
    _rewrite(path, kept)
    result = MatchResult(a=spec, b=anchor, seed=seed, players=players, reshuffle=reshuffle, games=list(old))
    if len(old) < games:
        with open(path, "a", encoding="utf-8") as f:
            write_line = jsonl_writer(f)

            def write(record: GameRecord) -> None:
                record.extra["engine"] = engine
                write_line(record)
            # What the progress callback sees: the kept games and the new ones, one result that grows
            # (its totals are counted as it grows, not again after every pair).
            shown = MatchResult(a=spec, b=anchor, seed=seed, players=players, reshuffle=reshuffle, games=list(old))
            shown._count_as_appended(True)

            def show(partial: MatchResult) -> None:
                if progress is not None:
                    shown.games += partial.games[len(shown.games) - len(old):]
                    shown.seconds = partial.seconds
                    progress(shown)
            try:
                new = run_match(spec, anchor, games=games, seed=seed, players=players, reshuffle=reshuffle,
                                threads=threads, on_game=write, progress=show, first_pair=len(old) // 2)
            finally:
                shown._count_as_appended(False)
        result.games += new.games
        result.seconds = new.seconds
    w, d, l = result.wdl()
    est = result.estimate
    side = result.side_stats("a")
    return LadderPoint(config=config, budget=budget, spec=spec, anchor=anchor, games=len(result.games), wins=w,
                       draws=d, losses=l, score=round(est.score, 4), score_low=round(est.low, 4),
                       score_high=round(est.high, 4), elo=est.elo, elo_low=est.elo_low, elo_high=est.elo_high,
                       depth=round(side.mean_depth, 2), nps=round(side.nps, 1),
                       ms_per_move=round(side.time_ms / side.moves, 2) if side.moves else 0.0,
                       resumed=len(old), file=str(path))


def run_ladder(configs: Sequence[str], anchor: str, budgets: Sequence[int], *, budget_kind: str = "iterations",
               games: int = 200, seed: int = 0, players: int = 2, reshuffle: str = "eager", threads: int = 1,
               out: Any = "rosen-strength", on_point: Optional[Callable[[LadderPoint], None]] = None,
               progress: Optional[Callable[[str, MatchResult], None]] = None) -> List[LadderPoint]:
    """Every (configuration, budget) against ``anchor``; points in the order configs x budgets."""
    anchor = str(parse_agent_spec(anchor))
    for config in configs:  # every spec and budget is checked before the first game
        for budget in budgets:
            budget_spec(config, budget_kind, budget)
    if games < 2 or games % 2:
        raise InvalidArgumentError(f"games: expected an even number >= 2 (games are colour-swapped pairs), "
                                   f"got {games}", "games")
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidArgumentError(f"out: cannot create {str(out)!r}: {exc.strerror or exc}", "out") from None
    points: List[LadderPoint] = []
    with _out_held(out):
        for config in configs:
            for budget in budgets:
                point = _play_point(config, budget_kind, budget, anchor, games=games, seed=seed, players=players,
                                    reshuffle=reshuffle, threads=threads, out=out,
                                    progress=None if progress is None else partial(progress, config))
                points.append(point)
                # Whole or not at all: written in place, a full disk left it empty.
                write_text_whole(out / SUMMARY, "".join(json.dumps(p.to_json()) + "\n" for p in points), "out")
                if on_point is not None:
                    on_point(point)
    return points


__all__: Sequence[str] = ("LadderPoint", "SUMMARY", "point_name", "run_ladder", "run_point")
