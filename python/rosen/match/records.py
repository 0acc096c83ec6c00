"""Game records on disk: one JSON object per line (``rosen match --jsonl``), read back and summed."""
from __future__ import annotations

import json
import warnings
from typing import Callable, List, TextIO

from .. import _json
from ..errors import InvalidArgumentError
from .game import GameRecord
from .runner import MatchResult


def jsonl_writer(stream: TextIO) -> Callable[[GameRecord], None]:
    """An ``on_game`` callback writing one JSON line per game and flushing it."""
    def write(record: GameRecord) -> None:
        stream.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        stream.flush()
    return write


def read_jsonl(path: str) -> List[dict]:
    """The game records of a ``--jsonl`` file, as parsed JSON objects; a line that is not JSON
    (or not UTF-8) raises InvalidArgumentError naming the file and the line."""
    return _json.read_lines(path)


def summarise_jsonl(path: str) -> MatchResult:
    """The match totals of a ``--jsonl`` file, e.g. to report it again with other statistics. A last
    line cut short (the match was stopped by a full disk or killed while writing it) is left out,
    with a warning; the games before it are summarised."""
    def cut_short(number: int) -> None:
        warnings.warn(f"path: {path!r} line {number} is cut short (the match was stopped while writing it); "
                      "it is left out", RuntimeWarning, stacklevel=4)

    games = [GameRecord.from_json(d) for d in _json.read_lines(path, on_cut_short=cut_short)]
    if not games:
        raise InvalidArgumentError(f"path: {path!r} holds no games", "path")
    first = games[0]
    for i, g in enumerate(games):
        if g.extra.get("game", i) != i:
            raise InvalidArgumentError(f"path: line {i + 1} is game {g.extra.get('game')}, expected game {i}", "path")
    return MatchResult(a=first.red, b=first.white, seed=first.seed, players=first.players,
                       reshuffle=first.reshuffle, games=games)
