"""``verify_run``: check a self-play run directory end to end, against the engine.

Beyond :func:`rosen.selfplay.verify_manifest` (files present, sha256s as the manifest says),
every shard is loaded (format name and version, dtypes), every game of its games file is
replayed by :func:`rosen.match.replay` (legal moves, recorded winner and scores), and every row is
compared with the position the replay reaches at its ply: the public state
(:func:`rosen.encoding.rows_from_positions`: tokens, crown, hands, discard, pile as a set, heroes,
mover, players, rule), the legal-action mask, the action actually played, the game's result and
final margin from the mover's side, visits only on legal actions, and each (game, ply) once.
"""
from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from .. import _core
from ..encoding import ROW_FIELDS, action_index, rows_from_positions
from ..match import replay
from ..errors import InvalidArgumentError
from .records import RUN_FILE, _run_directory, load, read_json_lines, read_manifest, read_run, verify_manifest

#: At most this many problems are reported per kind (a broken shard would list every row).
MAX_PER_KIND = 5


def _game_rows(game: Dict[str, Any]) -> Dict[int, Any]:
    """ply -> (position before the move, the move) along the recorded game."""
    position = _core.Position.new(game["seed"], players=game["players"], reshuffle=game["reshuffle"])
    out = {}
    for ply, move in enumerate(game["moves"]):
        out[ply] = (position, move)
        position = position.play(move)
    return out


def verify_run(path: Any) -> List[str]:
    """Every problem found in the run directory ``path``, one line each ([] when it is sound)."""
    directory = _run_directory(path)
    run_text = (directory / RUN_FILE).read_text(encoding="utf-8") if read_run(directory) else ""
    problems = list(verify_manifest(directory))
    counts: Dict[str, int] = {}

    def problem(kind: str, text: str) -> None:
        counts[kind] = counts.get(kind, 0) + 1
        if counts[kind] <= MAX_PER_KIND:
            problems.append(text)

    for entry in read_manifest(directory):
        name = entry["shard"]
        # Per shard: the manifest holds each shard's own game range once (read_manifest), so a row
        # of another shard's game is an orphan here; a set for the whole run took 200 bytes a row.
        seen = set()
        try:
            shard = load(directory / name)
        except (ValueError, OSError) as exc:
            problem("load", f"{name}: {exc}")
            continue
        rows = shard.rows
        if shard.metadata.get("run", run_text) != run_text:
            problem("run", f"{name}: written by another run than {RUN_FILE} describes")
        if len(rows["game"]) != entry["rows"]:
            problem("rows", f"{name}: {len(rows['game'])} rows, the manifest says {entry['rows']}")
        try:
            lines = read_json_lines(directory / entry["games_file"], "one game record a line")
        except InvalidArgumentError as exc:
            problem("games", str(exc).removeprefix("path: "))
            continue
        games = {g["game"]: g for g in lines if isinstance(g, dict) and type(g.get("game")) is int}
        if len(games) != len(lines):
            problem("games", f"{entry['games_file']}: {len(lines) - len(games)} lines are not game records")
        if entry["games"] != len(lines):  # before the range below is built: a forged count can be huge
            problem("games", f"{entry['games_file']}: {len(lines)} lines, the manifest says {entry['games']} games")
        else:
            expected = set(range(entry["first_game"], entry["first_game"] + entry["games"]))
            if set(games) != expected:
                problem("games", f"{entry['games_file']}: games {sorted(set(games) ^ expected)[:5]} missing or extra")
        replays = {}
        for index, game in games.items():
            try:
                replay(game)
                replays[index] = _game_rows(game)
            except ValueError as exc:
                problem("replay", f"{entry['games_file']}: game {index}: {exc}")
        positions, where = [], []
        for r in range(len(rows["game"])):
            key = (int(rows["game"][r]), int(rows["ply"][r]))
            if key in seen:
                problem("duplicate", f"{name}: row {r}: game {key[0]} ply {key[1]} appears twice")
            seen.add(key)
            record = games.get(key[0])
            if record is None or key[0] not in replays or key[1] not in replays[key[0]]:
                problem("orphan", f"{name}: row {r}: game {key[0]} has no ply {key[1]}")
                continue
            position, move = replays[key[0]][key[1]]
            positions.append(position)
            where.append((r, record, move, position))
        if not positions:
            continue
        state = rows_from_positions(positions)
        for field in ROW_FIELDS:
            got = rows[field][[r for r, *_ in where]]
            if not np.array_equal(got, state[field].astype(got.dtype, copy=False)):
                bad = next(k for k in range(len(where)) if not np.array_equal(got[k], state[field][k]))
                problem("state", f"{name}: row {where[bad][0]}: {field} differs from the replayed position")
        for r, game, move, position in where:
            legal = np.zeros(50, dtype=bool)
            legal[[action_index(m) for m in position.legal_moves()]] = True
            if not np.array_equal(rows["legal"][r], legal):
                problem("legal", f"{name}: row {r}: the legal-action mask differs from the engine's legal moves")
            if int(rows["action"][r]) != action_index(move):
                problem("action", f"{name}: row {r}: action {int(rows['action'][r])}, the game played {move!r}")
            if np.any(rows["visits"][r][~legal]):
                problem("visits", f"{name}: row {r}: visits on an illegal action")
            colour = position.colour_to_move
            mine, theirs = (0, 1) if colour == "red" else (1, 0)
            margin = game["scores"][mine] - game["scores"][theirs]
            result = 0.5 if game["winner"] == "draw" else float(game["winner"] == colour)
            if int(rows["final_margin"][r]) != margin or float(rows["result"][r]) != result:
                problem("result", f"{name}: row {r}: result/final_margin differ from the game's end "
                                  f"({result}, {margin:+d})")
    for kind, n in counts.items():
        if n > MAX_PER_KIND:
            problems.append(f"... and {n - MAX_PER_KIND} more {kind} problems")
    return problems
