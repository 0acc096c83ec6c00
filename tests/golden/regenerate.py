"""Regenerate the golden files from the current engine: `python tests/golden/regenerate.py`
(`--check` writes nothing and says which files the engine would change).

Run it only for a deliberate behaviour change, and review the diff of tests/golden/ it makes.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

import rosen
from rosen.engine.bench import bench

HERE = pathlib.Path(__file__).parent

# Positions whose move-tree sizes are pinned (perft). The draw pile is hidden ("*"), so each card
# the pile can yield is a branch of its own.
PERFT_POSITIONS = [
    ("start-2p", "eager", rosen.Position.new(seed=0).fen(hide_pile_order=True), 4),
    ("start-4p", "eager", rosen.Position.new(seed=0, players=4).fen(hide_pile_order=True), 6),
    ("midgame-heroes", "eager",
     "9/9/2ww5/2rwr4/3rw4/4r4/9/9/9 e5 w N1,E1,S2 S1,W1,NE1 4 3 - *", 3),
    ("lazy-empty-pile", "lazy",
     "9/9/9/4w4/4r4/9/9/9/9 e5 r N1,S1 E1 2 2 " + ",".join(
         c for c in (d + str(k) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW") for k in (1, 2, 3))
         if c not in ("N1", "S1", "E1")) + " -", 3),
    ("blocked-red", "eager", "9/9/9/9/9/9/9/9/r8 a1 r S1,S2,S3,W1,W2 N1 4 4 - *", 4),
]


def deals() -> str:
    lines = []
    for players in (2, 4):
        for seed in (0, 1, 12345, 2**64 - 1):
            lines.append(f"{players} {seed} {rosen.Position.new(seed=seed, players=players).fen()}")
    return "\n".join(lines) + "\n"


def perft_table() -> list:
    table = []
    for name, reshuffle, text, max_depth in PERFT_POSITIONS:
        pos = rosen.Position(text, reshuffle=reshuffle)
        table.append({"name": name, "reshuffle": reshuffle, "position": pos.fen(),
                      "counts": [pos.perft(d) for d in range(max_depth + 1)]})
    return table


def openspiel_playthrough() -> str:
    """OpenSpiel's playthrough of one seeded random game of python_rosenkoenig (rosen.openspiel)."""
    from absl import flags

    import rosen.openspiel  # noqa: F401 - registers the game
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():  # generate_playthrough reads an absl flag
        flags.FLAGS.mark_as_parsed()
    return generate_playthrough.playthrough(OPENSPIEL_GAME, action_sequence=None, seed=1)


OPENSPIEL_GAME = "python_rosenkoenig"


def engine_bench() -> str:
    """The machine-independent part of `rosen engine`'s bench summary: nodes and signature."""
    result = bench()
    return f"nodes {result.iterations} signature {result.signature:016x}\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate tests/golden/ from the current engine (only for a "
                                     "deliberate behaviour change; review the diff it makes).")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list the golden files the current engine would change, exit 1 if any")
    args = parser.parse_args(argv)
    files = {"deals.txt": deals(), "perft.json": json.dumps(perft_table(), indent=1) + "\n",
             "engine_bench.txt": engine_bench(), "openspiel_playthrough.txt": openspiel_playthrough()}
    if args.check:
        stale = [name for name, text in files.items() if (HERE / name).read_text() != text]
        print("differ:", ", ".join(stale) if stale else "none")
        return 1 if stale else 0
    for name, text in files.items():
        (HERE / name).write_text(text)
    print("wrote", ", ".join(str(HERE / name) for name in files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
