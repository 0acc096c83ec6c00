"""Shared helpers for building positions in tests."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def fen(ranks: str = "9/9/9/9/9/9/9/9/9", crown: str = "e5", side: str = "r", red: str = "-", white: str = "-",
        red_heroes: int = 4, white_heroes: int = 4, discard: str = "-", pile: str = "*") -> str:
    """A 2-player position line (RULES.md notation) from its fields, with easy defaults."""
    return f"{ranks} {crown} {side} {red} {white} {red_heroes} {white_heroes} {discard} {pile}"


def r12_winner(position) -> str:
    """The winner of a finished rosen position by the plain reference rules (tests/reference),
    an implementation of R10-R12 independent of the C++ core's."""
    from reference.rules import RefState

    state = RefState.from_notation(position.fen(), reshuffle=position.reshuffle)
    assert state.is_terminal()
    return state.winner()


def board_ranks(rows: dict) -> str:
    """Ranks field from {rank number: 9-character string of '.', 'r', 'w'}; other ranks empty."""
    out = []
    for rank in range(9, 0, -1):
        row = rows.get(rank, "." * 9)
        assert len(row) == 9, row
        text, run = "", 0
        for ch in row:
            if ch == ".":
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += ch
        if run:
            text += str(run)
        out.append(text)
    return "/".join(out)


def random_position(seed: int, players: int = 2, reshuffle: str = "eager", plies: int = 40):
    """The position after up to `plies` seeded random legal moves from a fresh deal (earlier if
    the game ends); odd seeds forget the pile's order on the way."""
    import random

    import rosen

    rng = random.Random(seed)
    pos = rosen.Position.new(seed=seed, players=players, reshuffle=reshuffle)
    if seed % 2:
        pos = pos.hide_pile_order()
    for _ in range(plies):
        if pos.is_terminal:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos
