"""The batch scorer's shortcuts for small territories (single squares, pairs, triples, removed by
whole-board bit operations before any flood fill) against scipy.ndimage.label (R10, R11), on boards
of every density and on the shapes that touch the board's edges."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage

import rosen


def scipy_stats(board: np.ndarray):
    out = []
    for colour in (1, 2):
        labels, _ = ndimage.label(board == colour)  # edges only (R10)
        sizes = np.bincount(labels.ravel())[1:]
        out.append((int((sizes ** 2).sum()), int(sizes.max(initial=0)), int(sizes.sum()), len(sizes)))
    return out


def check(boards: np.ndarray) -> None:
    res = rosen.score_boards(boards)
    for i, board in enumerate(boards):
        for c, expected in enumerate(scipy_stats(board)):
            got = (res.score[i, c], res.largest[i, c], res.tokens[i, c], res.count[i, c])
            assert got == expected, (board, c)


@pytest.mark.parametrize("density", [0.05, 0.15, 0.3, 0.45, 0.6, 0.8, 0.95])
def test_R10_R11_every_density_matches_scipy(density):
    rng = np.random.default_rng(int(density * 100))
    p = [1 - density, density / 2, density / 2]
    check(rng.choice(np.array([0, 1, 2], dtype=np.int8), size=(300, 9, 9), p=p))


def test_R10_small_shapes_everywhere_including_edges():
    # Every single, pair, straight and bent triple at every place it fits; the file-i / file-a
    # neighbours of consecutive square indices (i1 and a2) must never connect.
    shapes = [[(0, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (2, 0)],
              [(0, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (1, 1)], [(0, 1), (1, 1), (1, 0)], [(0, 0), (0, 1), (1, 0)],
              [(0, 0), (0, 1), (1, 0), (1, 1)], [(0, 0), (0, 1), (0, 2), (1, 1)]]
    boards = []
    for shape in shapes:
        for r0 in range(9):
            for f0 in range(9):
                if all(r0 + r < 9 and f0 + f < 9 for r, f in shape):
                    b = np.zeros((9, 9), np.int8)
                    for r, f in shape:
                        b[r0 + r, f0 + f] = 1
                    boards.append(b)
    # Wrap-around neighbours in square-index order, and shapes next to each other.
    for rank in range(8):
        b = np.zeros((9, 9), np.int8)
        b[rank, 8] = b[rank + 1, 0] = 1
        boards.append(b)
        b = b.copy()
        b[rank, 7] = 2
        b[rank + 1, 1] = 1
        boards.append(b)
    check(np.stack(boards))
