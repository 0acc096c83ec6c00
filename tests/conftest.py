"""Shared helpers for building positions in tests."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def fen(ranks: str = "9/9/9/9/9/9/9/9/9", crown: str = "e5", side: str = "r", red: str = "-", white: str = "-",
        red_heroes: int = 4, white_heroes: int = 4, discard: str = "-", pile: str = "*") -> str:
    """A 2-player position line (RULES.md notation) from its fields, with easy defaults."""
    return f"{ranks} {crown} {side} {red} {white} {red_heroes} {white_heroes} {discard} {pile}"


def swap_colours(pos):
    """The 2-player position with the colours exchanged: tokens, hands, heroes and the side."""
    import rosen

    fields = pos.fen(hide_pile_order=True).split()
    fields[0] = fields[0].replace("r", "x").replace("w", "r").replace("x", "w")
    fields[2] = {"r": "w", "w": "r"}[fields[2]]
    fields[3], fields[4], fields[5], fields[6] = fields[4], fields[3], fields[6], fields[5]
    return rosen.Position(" ".join(fields), reshuffle=pos.reshuffle)


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


def _deal_generator(seed: int) -> int:
    """The draw generator's state Position.new(seed) starts with: mix_seed(seed, 0x726f73656e)
    (cpp/rosenkoenig/rng.h and position.cpp), written out in Python."""
    mask = 2**64 - 1

    def splitmix64(state: int):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return state, z ^ (z >> 31)

    state, _ = splitmix64(seed ^ ((0x726f73656e * 0xD1B54A32D192ED03) & mask))
    return splitmix64(state)[1]


def random_position(seed: int, players: int = 2, reshuffle: str = "eager", plies: int = 40):
    """The position after up to `plies` seeded random legal moves from a fresh deal (earlier if
    the game ends); odd seeds forget the pile's order on the way."""
    import random

    import rosen

    rng = random.Random(seed)
    pos = rosen.Position.new(seed=seed, players=players, reshuffle=reshuffle)
    if seed % 2:
        # Plain draws from then on come from the generator Position.new seeded from the deal, as
        # hide_pile_order() kept it until F76 (it keeps none now): the same positions as before.
        pos = rosen.Position(pos.fen(hide_pile_order=True), reshuffle=reshuffle, seed=_deal_generator(seed))
    for _ in range(plies):
        if pos.is_terminal:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos
