"""Shared data for the benchmarks: real final boards and positions from seeded random games."""
from __future__ import annotations

import random

import numpy as np
import pytest

import rosen


@pytest.fixture(scope="session")
def final_boards() -> np.ndarray:
    """10 000 boards: the final positions of 2 000 seeded random games, repeated five times."""
    boards = []
    for seed in range(2000):
        pos = rosen.Position.new(seed=seed)
        while not pos.is_terminal:
            moves = pos.legal_moves()
            pos = pos.play(moves[(seed * 7 + len(boards)) % len(moves)])
        boards.append(pos.board)
    return np.ascontiguousarray(np.tile(np.stack(boards), (5, 1, 1)))


@pytest.fixture(scope="session")
def positions() -> list:
    """10 000 positions: every ply of seeded random games, 2 and 4 players, until there are enough."""
    rng = random.Random(0)
    out = []
    seed = 0
    while len(out) < 10_000:
        pos = rosen.Position.new(seed=seed, players=2 if seed % 4 else 4)
        while not pos.is_terminal and len(out) < 10_000:
            out.append(pos)
            pos = pos.play(rng.choice(pos.legal_moves()))
        seed += 1
    return out
