"""Positions shared by the search tests."""
from __future__ import annotations

import random

from conftest import board_ranks


def win_in_one_fen() -> str:
    """Red to move with 51 tokens on the board (R8: the next token ends the game).

    Rank 1 is a red line broken at e1; the crown is on e2. S1 fills e1 and joins the line into
    one territory of 9 (81 points, R11) and Red wins 88 to 78 (R12). N1 ends the game with an
    isolated token (40 to 78) and after a draw White ends it at once, both White wins.
    """
    board = [["."] * 9 for _ in range(9)]  # board[rank - 1][file]
    for f in range(9):
        if f != 4:
            board[0][f] = "r"
    for f in range(5):
        board[1][f] = "w"
    for r in range(2, 9):  # white singles on a checkerboard, red singles between them
        for f in range(9):
            if (f + r) % 2 == 0 and not (r == 2 and f == 4):
                board[r][f] = "w"
    reds = 0
    for r in range(8, 2, -1):
        for f in range(9):
            if (f + r) % 2 == 1 and reds < 7:
                board[r][f] = "r"
                reds += 1
    ranks = board_ranks({r + 1: "".join(board[r]) for r in range(9)})
    return f"{ranks} e2 r N1,S1 N2,E2,W2,S2,E3 0 0 - *"


def midgame(seed: int = 5, plies: int = 20, players: int = 2):
    """A position some plies into a seeded game (the first legal move each ply, draws dealt)."""
    import rosen

    pos = rosen.Position.new(seed, players=players)
    for i in range(plies):
        moves = pos.legal_moves()
        pos = pos.play(moves[(i * 7) % len(moves)])
    return pos


def pile_variants(pos):
    """The position with its pile in the given order, reversed, shuffled, and as '*'."""
    import rosen

    fields = pos.fen().split(" ")
    pile = list(pos.pile_cards)
    assert len(pile) >= 3, "the test needs a pile with some order to change"
    shuffled = pile[:]
    random.Random(1).shuffle(shuffled)
    orders = [pile, pile[::-1], shuffled]
    assert len({tuple(o) for o in orders}) == 3
    texts = [" ".join(fields[:-1] + [",".join(o)]) for o in orders] + [" ".join(fields[:-1] + ["*"])]
    # Different seeds of the position's own generator as well: the search must not use it.
    return [rosen.Position(t, seed=k) for k, t in enumerate(texts)]
