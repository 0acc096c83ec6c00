"""``describe``: what a shard file or a run directory holds (schema, counts, result shares)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict

import numpy as np

from ..errors import ArgumentTypeError, InvalidArgumentError
from .records import load, read_json_lines, read_manifest, read_run


def _shares(rows: Dict[str, np.ndarray]) -> Dict[str, float]:
    """Shares of rows whose mover went on to win, draw and lose (R12), and of full searches."""
    n = max(1, len(rows["result"]))
    result = rows["result"]
    return {"mover_won": float(np.sum(result == 1.0)) / n, "mover_drew": float(np.sum(result == 0.5)) / n,
            "mover_lost": float(np.sum(result == 0.0)) / n, "full_search": float(np.sum(rows["full_search"])) / n}


def describe(path: Any) -> Dict[str, Any]:
    """A JSON-ready summary of a shard (``.npz``) or of a run directory (its ``run.json``, the
    manifest's totals and the games' winners)."""
    if not isinstance(path, (str, Path)):
        raise ArgumentTypeError(f"path: expected a file or directory name, got {type(path).__name__}", "path")
    p = Path(path)
    if p.is_dir():
        run = read_run(p)
        entries = read_manifest(p)
        winners = {"red": 0, "white": 0, "draw": 0}
        plies = 0
        for entry in entries:
            for number, game in enumerate(read_json_lines(p / entry["games_file"], "one game record a line"), 1):
                if (not isinstance(game, dict) or game.get("winner") not in winners
                        or type(game.get("plies")) is not int):
                    raise InvalidArgumentError(f"path: {entry['games_file']} game {number}: expected a game record "
                                               "with a winner (red, white or draw) and plies", "path")
                winners[game["winner"]] += 1
                plies += game["plies"]
        games = sum(e["games"] for e in entries)
        return {"kind": "run", "path": str(p), "run": run, "shards_done": len(entries),
                "shards_total": -(-run["games"] // run["shard_games"]), "games": games,
                "rows": sum(e["rows"] for e in entries),
                "winners": {k: v / games if games else 0.0 for k, v in winners.items()},
                "mean_plies": plies / games if games else 0.0}
    if not p.exists():
        raise InvalidArgumentError(f"path: {str(p)!r} does not exist", "path")
    if not p.is_file():  # a device, a pipe, a socket
        raise InvalidArgumentError(f"path: {str(p)!r} is neither a run directory nor a shard file", "path")
    shard = load(p)
    rows = shard.rows
    return {"kind": "shard", "path": str(p), "format": shard.metadata["format"],
            "format_version": shard.metadata["format_version"],
            "metadata": {k: v for k, v in shard.metadata.items() if k not in ("format", "format_version", "run")},
            "rows": int(len(rows["game"])), "games": int(len(np.unique(rows["game"]))),
            "columns": {name: {"dtype": a.dtype.name, "shape": list(a.shape)} for name, a in rows.items()},
            "shares": _shares(rows)}
