"""Notation (RULES.md 'Notation' and the project's 4-player extension): round trips both ways,
canonical printing, and a clear, field-naming error for every malformed field."""
from __future__ import annotations

import pickle
import random

import pytest

import rosen
from conftest import board_ranks, fen

START = "9/9/9/9/9/9/9/9/9 e5 r N1,NE2,E3,S1,W2 S3,SW1,NW2,N3,E1 4 4 - *"


def test_rules_md_start_position_parses():
    pos = rosen.Position(START)
    assert pos.hands == [["N1", "NE2", "E3", "S1", "W2"], ["N3", "E1", "S3", "SW1", "NW2"]]
    assert pos.pile_size == 14 and pos.draw_pile is None
    # Printing is canonical: hands in card order N1, N2, N3, NE1, ..., NW3.
    assert pos.fen() == "9/9/9/9/9/9/9/9/9 e5 r N1,NE2,E3,S1,W2 N3,E1,S3,SW1,NW2 4 4 - *"


def test_print_parse_round_trip_is_identity_on_canonical_text():
    pos = rosen.Position.new(seed=9)
    for _ in range(30):
        pos = pos.play(pos.legal_moves()[-1])
        text = pos.fen()
        assert rosen.Position(text).fen() == text
        assert rosen.Position(text) == pos


def test_parsing_ignores_case_and_extra_spaces():
    text = "9/9/9/9/9/9/9/9/9   E5 R n1,ne2,E3,s1,W2 S3,SW1,NW2,N3,E1 4 4 - *"
    assert rosen.Position(text) == rosen.Position(START)


def test_runs_of_empty_squares_may_be_split_but_print_merged():
    pos = rosen.Position(fen(ranks="9/9/9/9/4r13/9/9/9/9", crown="e5"))
    assert pos.fen().split()[0] == "9/9/9/9/4r4/9/9/9/9"


def test_four_player_format_round_trips():
    pos = rosen.Position.new(seed=3, players=4)
    fields = pos.fen().split()
    assert len(fields) == 13 and fields[2] == "r1"
    assert rosen.Position(pos.fen()) == pos
    assert rosen.Position(pos.fen()).players == 4


@pytest.mark.parametrize("text,expected", [
    ("N2", "N2"), ("n2", "N2"), ("h:nw3", "H:NW3"), ("H:N1", "H:N1"), ("DRAW", "draw"), ("draw:ne3", "draw:NE3"),
    ("Pass", "pass"),
])
def test_move_notation_round_trip(text, expected):
    move = rosen.Move(text)
    assert str(move) == expected
    assert rosen.Move(str(move)) == move
    assert eval(repr(move), {"Move": rosen.Move}) == move
    assert pickle.loads(pickle.dumps(move)) == move


def test_move_attributes():
    assert (rosen.Move("H:N2").kind, rosen.Move("H:N2").card) == ("hero", "N2")
    assert (rosen.Move("draw:E1").kind, rosen.Move("draw:E1").card) == ("draw", "E1")
    assert (rosen.Move("draw").kind, rosen.Move("draw").card) == ("draw", None)
    assert rosen.Move("pass").kind == "pass" and rosen.Move("N1").kind == "play"
    assert len({rosen.Move("N1"), rosen.Move("n1"), rosen.Move("N2")}) == 2


def test_move_text_ignores_surrounding_whitespace_as_positions_do():
    # docs/notation.md: parsing ignores case and runs of whitespace (a line read with its newline)
    assert rosen.Move("N1 ") == rosen.Move(" n1\n") == rosen.Move("N1")
    assert rosen.Move("\th:ne2 ") == rosen.Move("H:NE2") and rosen.Move(" draw:E1").card == "E1"
    pos = rosen.Position.new(seed=2)
    first = str(pos.legal_moves()[0])
    assert pos.play(f"  {first}\n") == pos.play(first) and pos.is_legal(f" {first} ")


@pytest.mark.parametrize("bad", ["", "N4", "N0", "X1", "H:", "H:N4", "draw:", "draw:Q1", "passs", "N 1", "H: N1",
                                 "draw :E1", "H:H:N1", "\x00", "é1", "   ", "NE0", "SW0", "H:SW0", "draw:E0", "N9",
                                 "NE12", "H:NE0"])
def test_bad_move_text_raises_invalid_move_error(bad):
    with pytest.raises(rosen.InvalidMoveError, match="move: expected"):
        rosen.Move(bad)


def test_a_card_of_distance_zero_is_no_card_in_a_hand_either():
    # R1: distances are 1..3; without its check a 0 would read as the previous direction's 3 (NE0 as N3).
    for hand in ("NE0", "N1,SW0"):
        with pytest.raises(rosen.InvalidPositionError) as info:
            rosen.Position(with_field(3, hand))
        assert info.value.field == "red hand"


def test_move_wrong_type_raises_type_error():
    with pytest.raises(TypeError, match="move"):
        rosen.Move(3)
    with pytest.raises(TypeError, match="move"):
        rosen.Position.new().play(None)


def test_repr_pastes_back_and_str_draws_the_board():
    pos = rosen.Position.new(seed=2)
    assert eval(repr(pos), {"Position": rosen.Position}) == pos
    lazy = rosen.Position(pos.fen(), reshuffle="lazy")
    assert eval(repr(lazy), {"Position": rosen.Position}).reshuffle == "lazy"
    drawing = str(pos)
    assert "a b c d e f g h i" in drawing and "Red to move" in drawing and "*" in drawing
    assert "\n" not in repr(pos)


def test_equality_hash_and_pickle_through_notation():
    a = rosen.Position.new(seed=8)
    b = rosen.Position(a.fen())
    assert a == b and hash(a) == hash(b)
    assert a != a.hide_pile_order()
    assert a != rosen.Position(a.fen(), reshuffle="lazy")
    c = pickle.loads(pickle.dumps(a))
    assert c == a and c.fen() == a.fen()
    assert a.copy() == a
    assert len({a, b, a.hide_pile_order()}) == 2


def test_a_lazy_position_reads_back_with_its_rule():
    """docs/notation.md: `Position(p.fen(), reshuffle=p.reshuffle) == p`; the line does not carry R7's rule."""
    # A lazy game whose pile ran out beside a non-empty discard: read as eager, it reshuffles as it loads.
    pos = rosen.Position.new(seed=0, reshuffle="lazy")
    rng = random.Random(0)
    while not (pos.pile_size == 0 and pos.discard):
        assert not pos.is_terminal
        pos = pos.play(rng.choice(pos.legal_moves()))
    assert rosen.Position(pos.fen(), reshuffle=pos.reshuffle) == pos
    eager = rosen.Position(pos.fen())
    assert eager != pos and eager.pile_size == len(pos.discard) and not eager.discard


def test_pickle_keeps_the_draw_generator():
    # A hidden pile is dealt from the position's own seeded generator; a pickled copy deals alike.
    pos = rosen.Position(rosen.Position.new(seed=8).fen(hide_pile_order=True), seed=77)
    pos = pos.play(pos.legal_moves()[0]).play(pos.play(pos.legal_moves()[0]).legal_moves()[0])
    copy = pickle.loads(pickle.dumps(pos))
    assert pos.play("draw") == copy.play("draw")


# --- malformed positions: every field ---------------------------------------------------------

GOOD = fen(ranks=board_ranks({5: "....r...."}), red="N1", white="S1")


def with_field(index, value, text=GOOD):
    fields = text.split()
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize("text,field", [
    ("", "position"),
    ("9/9/9", "position"),
    (GOOD + " extra", "position"),
    (with_field(0, "9/9/9/9/9/9/9/9"), "ranks"),
    (with_field(0, "9/9/9/9/4r5/9/9/9/9"), "ranks"),
    (with_field(0, "9/9/9/9/4x4/9/9/9/9"), "ranks"),
    (with_field(0, "9/9/9/9/4r3/9/9/9/9"), "ranks"),
    (with_field(0, "9/9/9/9/0r8/9/9/9/9"), "ranks"),
    (with_field(0, "/".join(["rrrrrrrrr"] * 6 + ["9"] * 3)), "ranks"),
    (with_field(1, "j5"), "crown"),
    (with_field(1, "e10"), "crown"),
    (with_field(1, "d5"), "crown"),
    (with_field(0, "9/9/9/9/9/9/9/9/r8"), "crown"),  # e5 is the crown's square only before the first token
    (with_field(2, "x"), "side"),
    (with_field(2, "r1"), "side"),
    (with_field(3, "N1,N1"), "red hand"),
    (with_field(3, "N4"), "red hand"),
    (with_field(3, "N1,N2,N3,NE1,NE2,NE3"), "red hand"),
    (with_field(4, "N1"), "white hand"),
    (with_field(4, ""), "position"),
    (with_field(5, "5"), "red heroes"),
    (with_field(5, "-1"), "red heroes"),
    (with_field(6, "x"), "white heroes"),
    (with_field(7, "S1"), "discard"),
    (with_field(7, "N1,"), "discard"),
    (with_field(8, "N2"), "draw pile"),
    (with_field(8, "-"), "draw pile"),
    (with_field(8, "N1"), "draw pile"),
])
def test_malformed_position_names_the_field(text, field):
    with pytest.raises(rosen.InvalidPositionError) as info:
        rosen.Position(text)
    assert info.value.field == field
    assert str(info.value).startswith(field)
    assert isinstance(info.value, ValueError)


def test_four_player_fields_validated():
    good = rosen.Position.new(seed=1, players=4).fen(hide_pile_order=True)
    with pytest.raises(rosen.InvalidPositionError, match="side: expected r1, w1, r2 or w2"):
        rosen.Position(with_field(2, "r", good))
    with pytest.raises(rosen.InvalidPositionError, match="red 2 heroes: expected a number 0..2"):
        rosen.Position(with_field(9, "3", good))
    with pytest.raises(rosen.InvalidPositionError, match="white 1 hand: at most 3"):
        rosen.Position(with_field(4, "N1,N2,N3,NE1", good))


def test_bad_parameters_raise_value_or_type_error():
    with pytest.raises(ValueError, match="reshuffle: expected 'eager' or 'lazy'"):
        rosen.Position(GOOD, reshuffle="sometimes")
    with pytest.raises(ValueError, match="players: expected 2 or 4"):
        rosen.Position.new(players=3)
    with pytest.raises(ValueError, match="seed"):
        rosen.Position.new(seed=-1)
    with pytest.raises(ValueError, match="seed"):
        rosen.Position.new(seed=2**64)
    with pytest.raises(TypeError):
        rosen.Position(42)
    with pytest.raises(ValueError, match="colour"):
        rosen.Position(GOOD).territories("blue")


def test_illegal_move_lists_legal_moves_and_leaves_state_unchanged():
    pos = rosen.Position(GOOD)
    before = pos.fen()
    with pytest.raises(rosen.IllegalMoveError) as info:
        pos.play("E1")
    assert "legal moves: N1, draw" in str(info.value)
    with pytest.raises(rosen.IllegalMoveError, match="can yield only"):
        pos.play("draw:N1")  # N1 is in Red's hand, not in the pile
    assert pos.fen() == before


def test_draw_card_must_be_the_top_of_a_known_pile():
    pos = rosen.Position.new(seed=1)
    pos = pos.play(pos.legal_moves()[0])
    pos = pos.play(pos.legal_moves()[0])
    top, second = pos.draw_pile[0], pos.draw_pile[1]
    with pytest.raises(rosen.IllegalMoveError, match=f"can yield only {top}"):
        pos.play("draw:" + second)
    assert top in pos.play("draw:" + top).hands[0]
    hidden = pos.hide_pile_order()
    assert second in hidden.play("draw:" + second).hands[0]


def test_fen_takes_a_bool_for_hide_pile_order():
    # pybind11's bool took 1 silently and answered "yes" with a page of overloads, not the field.
    pos = rosen.Position.new(seed=3)
    for value, error in [("yes", "got str"), (1, "got int"), (None, "got NoneType")]:
        with pytest.raises(rosen.ArgumentTypeError, match=f"^hide_pile_order: expected a bool, {error}"):
            pos.fen(hide_pile_order=value)
    import numpy as np
    assert pos.fen(hide_pile_order=np.True_) == pos.fen(hide_pile_order=True) != pos.fen()
    assert pos.fen(hide_pile_order=True).endswith(" *")
