"""The board's 8 symmetries (cpp/features/symmetry.h, rosen.symmetries): the tables are a group of
permutations, and the game commutes with them -- legal moves map to legal moves, and playing a
mapped move after transforming equals transforming after playing. Directions are absolute on the
board (R2), so a turned board turns every card's direction; distances stay (R1)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rosen
from conftest import random_position
from rosen.encoding import action_names, transform

SYM = rosen.symmetries()
ACTION = {name: a for a, name in enumerate(action_names())}
CARDS = action_names()[:24]


def action(move) -> int:
    return ACTION[str(move)]


def test_tables_are_permutations_with_inverses():
    assert SYM.names == ("identity", "rot90", "rot180", "rot270", "flip_ew", "flip_ns", "diagonal", "antidiagonal")
    for table, size in ((SYM.squares, 81), (SYM.cards, 24), (SYM.actions, 50), (SYM.features, 477)):
        assert table.shape == (8, size)
        assert (table[0] == np.arange(size)).all()
        for k in range(8):
            assert sorted(table[k]) == list(range(size))
            assert (table[SYM.inverse[k]][table[k]] == np.arange(size)).all()


def test_tables_form_a_group():
    # The composition of any two symmetries is one of the eight (closure of D4).
    rows = {tuple(row) for row in SYM.squares}
    for a in range(8):
        for b in range(8):
            assert tuple(SYM.squares[b][SYM.squares[a]]) in rows


def test_R2_directions_turn_with_the_board_and_distances_stay():
    def image(k, card):
        return CARDS[SYM.cards[k][CARDS.index(card)]]

    assert [image(1, c) for c in ("N1", "E2", "S3", "W1", "NE2")] == ["W1", "N2", "E3", "S1", "NW2"]  # rot90
    assert [image(4, c) for c in ("E1", "NE3", "SW2", "N2")] == ["W1", "NW3", "SE2", "N2"]  # flip_ew
    assert [image(6, c) for c in ("N1", "NW2", "SE3")] == ["E1", "SE2", "NW3"]  # diagonal a1-i9
    for k in range(8):
        assert all(image(k, c)[-1] == c[-1] for c in CARDS)
        assert SYM.actions[k][48] == 48 and SYM.actions[k][49] == 49
        assert (SYM.actions[k][24:48] == SYM.cards[k] + 24).all() and (SYM.actions[k][:24] == SYM.cards[k]).all()


def test_squares_follow_the_named_geometry():
    e5, a1, i1, e9 = 40, 0, 8, 76
    assert all(SYM.squares[k][e5] == e5 for k in range(8))
    assert [SYM.squares[k][a1] for k in range(8)] == [a1, i1, 80, 72, i1, 72, a1, 80]
    assert SYM.squares[1][e9] == 36  # rot90 (counter-clockwise): e9 -> a5


def check_commutes(pos: rosen.Position) -> None:
    for k in range(8):
        turned = transform(pos, k)
        assert turned.is_terminal == pos.is_terminal and turned.scores == pos.scores and turned.winner == pos.winner
        assert turned.pile_size == pos.pile_size and turned.heroes == pos.heroes and turned.turn == pos.turn
        assert transform(turned, int(SYM.inverse[k])) == pos
        legal = pos.legal_moves()
        assert sorted(action(m) for m in turned.legal_moves()) == sorted(SYM.actions[k][action(m)] for m in legal)
        for move in legal:
            if move.kind in ("play", "hero"):
                mapped = action_names()[SYM.actions[k][action(move)]]
                assert transform(pos.play(move), k) == turned.play(mapped), (pos.fen(), k, str(move))
        if pos.draw_outcomes():
            card = pos.draw_outcomes()[0][0]
            mapped = CARDS[SYM.cards[k][CARDS.index(card)]]
            assert transform(pos.play(f"draw:{card}"), k) == turned.play(f"draw:{mapped}")


@pytest.mark.parametrize("players,reshuffle", [(2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy")])
def test_game_commutes_with_symmetries_on_seeded_positions(players, reshuffle):
    for seed in range(60):
        check_commutes(random_position(seed, players, reshuffle, plies=seed * 3 % 140))


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([2, 4]), st.sampled_from(["eager", "lazy"]), st.integers(0, 200))
def test_game_commutes_with_symmetries_on_random_positions(seed, players, reshuffle, plies):
    check_commutes(random_position(seed, players, reshuffle, plies))


def test_transform_keeps_a_known_pile_order_turned():
    pos = rosen.Position.new(seed=3)
    turned = transform(pos, 1)
    assert turned.draw_pile == [CARDS[SYM.cards[1][CARDS.index(c)]] for c in pos.draw_pile]


def test_transform_rejects_bad_arguments():
    pos = rosen.Position.new(seed=1)
    with pytest.raises(rosen.InvalidArgumentError) as err:
        transform(pos, 8)
    assert err.value.field == "k"
    with pytest.raises(rosen.ArgumentTypeError) as err:
        transform(pos.fen(), 1)
    assert err.value.field == "position"
