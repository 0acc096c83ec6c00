"""Game records on disk: one JSON object per line (``rosen match --jsonl``), read back and summed."""
from __future__ import annotations

import json
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
    records = []
    with open(path, encoding="utf-8") as f:
        number = 0
        try:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    records.append(_json.loads(line))
                except ValueError as e:
                    raise InvalidArgumentError(f"path: {path!r} line {number} is not JSON ({e})", "path") from None
        except UnicodeDecodeError:
            # text is decoded in blocks, so the line is only known to lie after the last one read
            where = f" (after line {number})" if number else ""
            raise InvalidArgumentError(f"path: {path!r} is not UTF-8 text{where}", "path") from None
    return records


def summarise_jsonl(path: str) -> MatchResult:
    """The match totals of a ``--jsonl`` file, e.g. to report it again with other statistics."""
    games = [GameRecord.from_json(d) for d in read_jsonl(path)]
    if not games:
        raise InvalidArgumentError(f"path: {path!r} holds no games", "path")
    first = games[0]
    for i, g in enumerate(games):
        if g.extra.get("game", i) != i:
            raise InvalidArgumentError(f"path: line {i + 1} is game {g.extra.get('game')}, expected game {i}", "path")
    return MatchResult(a=first.red, b=first.white, seed=first.seed, players=first.players,
                       reshuffle=first.reshuffle, games=games)
