"""Position.territory_squares: the squares of each territory (R10), for frontends to outline."""
from __future__ import annotations

import random

import rosen


def _finished(seed: int) -> rosen.Position:
    rng = random.Random(seed)
    pos = rosen.Position.new(seed)
    while not pos.is_terminal:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def test_R10_territory_squares_agree_with_sizes_and_scores():
    for seed in range(20):
        pos = _finished(seed)
        for i, colour in enumerate(("red", "white")):
            regions = pos.territory_squares(colour)
            assert [len(r) for r in regions] == pos.territories(colour)
            assert sum(len(r) ** 2 for r in regions) == pos.scores[i]          # R11
            squares = [s for r in regions for s in r]
            assert len(squares) == len(set(squares)) == pos.token_counts[i]
            board = pos.board
            for s in squares:
                assert board[int(s[1:]) - 1, ord(s[0]) - ord("a")] == i + 1


def test_R10_territory_squares_are_edge_connected_only():
    # Red on a1 and b2 touch diagonally only: two territories; a1+a2 is one.
    pos = rosen.Position("9/9/9/9/9/9/9/1r7/r8 a1 r N1 S1 4 4 - *")
    assert pos.territory_squares("red") == [["a1"], ["b2"]]
    pos = rosen.Position("9/9/9/9/9/9/9/r8/r8 a1 r N1 S1 4 4 - *")
    assert pos.territory_squares("r") == [["a1", "a2"]]
    assert pos.territory_squares("white") == []
