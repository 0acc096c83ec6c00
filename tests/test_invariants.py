"""Random-game invariant harness (in the manner of OpenSpiel's RandomSimTest): 10 000 seeded games
of random legal moves, spread over both variants and both reshuffle modes, checking at every ply:
token conservation (board + supply = 52, R1, R8), card conservation (hands + pile + discard = 24),
unique legal moves, notation and pickle round trips and clone equality."""
from __future__ import annotations

import pickle
import random

import pytest

import rosen
from conftest import r12_winner

GAMES = 10_000
CONFIGS = [(2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy")]


def check(pos: rosen.Position) -> None:
    assert sum(pos.token_counts) + pos.supply == 52
    assert sum(len(h) for h in pos.hands) + pos.pile_size + len(pos.discard) == 24
    text = pos.fen()
    again = rosen.Position(text, reshuffle=pos.reshuffle)
    assert again.fen() == text and again == pos
    assert pos.copy() == pos


@pytest.mark.parametrize("players,reshuffle", CONFIGS)
def test_random_games_keep_invariants(players, reshuffle):
    rng = random.Random(players * 10 + (reshuffle == "lazy"))
    games = GAMES // len(CONFIGS)
    ended_by = {"R8": 0, "R9": 0}
    for seed in range(games):
        pos = rosen.Position.new(seed=seed, players=players, reshuffle=reshuffle)
        if seed % 2:
            pos = pos.hide_pile_order()
        plies = 0
        while not pos.is_terminal:
            check(pos)
            moves = pos.legal_moves()
            names = [str(m) for m in moves]
            assert len(set(names)) == len(names), names
            assert ("pass" in names) == (names == ["pass"])
            if seed % 50 == 0:  # pickling is slower; a sample of games is plenty
                assert pickle.loads(pickle.dumps(pos)) == pos
            pos = pos.play(rng.choice(moves))
            plies += 1
            assert plies < 2000
        check(pos)
        assert pos.legal_moves() == [] and pos.winner is not None
        if seed % 20 == 0:  # the reference is slow; a sample of finished games checks R12
            assert pos.winner == r12_winner(pos)
        ended_by["R8" if pos.supply == 0 else "R9"] += 1
    assert ended_by["R8"] > 0 and ended_by["R9"] > 0
