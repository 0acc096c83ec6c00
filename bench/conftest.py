"""Shared data for the benchmarks: real final boards from seeded random games."""
from __future__ import annotations

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
