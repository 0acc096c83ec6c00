"""Parsing and printing combinations and rolls (L7), property-tested, and the bad-input messages."""
import pickle

import numpy as np
import pytest
from hypothesis import given, strategies as st

from rosen import lovagok as lv

results = st.sampled_from(lv.RESULTS)
rolls = st.lists(st.integers(1, 6), min_size=1, max_size=6)
card_sets = st.sets(st.integers(1, 5)).map(sorted)


@given(results)
def test_L7_printing_then_parsing_gives_the_same_result(r):
    assert lv.parse_combination(lv.format_combination(r)) == r
    assert eval(repr(r), {"Result": lv.Result}) == r
    assert lv.Result(*r) == r
    assert pickle.loads(pickle.dumps(r)) == r


@given(rolls, card_sets)
def test_L5_strength_of_any_roll_is_a_listed_result_that_reparses(faces, cards):
    r = lv.strength(faces, dice_cards=cards)
    assert lv.RESULTS[r.rank] is r
    assert lv.strength("".join(map(str, faces)), dice_cards=",".join(map(str, cards))) == r
    assert lv.Result.parse(str(r)) == r


@given(rolls)
def test_L1_sixes_never_change_strength(faces):
    counted = [f for f in faces if f != 6]
    assert lv.strength(faces) == (lv.strength(counted) if counted else lv.NOTHING)


@given(rolls, rolls)
def test_L6_compare_is_antisymmetric_and_matches_ordering(a, b):
    ra, rb = lv.strength(a), lv.strength(b)
    assert lv.compare(ra, rb) == -lv.compare(rb, ra)
    assert lv.beats(ra, rb) == (ra > rb) == (tuple(x or 0 for x in ra) > tuple(x or 0 for x in rb))


@given(st.text(max_size=8))
def test_parse_combination_accepts_only_what_it_prints(text):
    try:
        r = lv.parse_combination(text)
    except ValueError:
        return
    assert str(r) == text.strip()


def test_L7_examples():
    assert tuple(lv.parse_combination("3332")) == (3, 3, 2)
    assert tuple(lv.parse_combination("55551")) == (4, 5, 1)
    assert tuple(lv.parse_combination("555")) == (3, 5, None)
    assert lv.parse_roll("552366") == (5, 5, 2, 3, 6, 6)


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("text,words", [
    ("3362", "1..5"), ("3372", "1..5"), ("", "empty"), ("33322", "further"), ("25", "'52'"), ("11111111", "7"),
])
def test_bad_combination_names_the_problem(text, words):
    with pytest.raises(ValueError, match="combination") as info:
        lv.parse_combination(text)
    assert words in str(info.value)


@pytest.mark.parametrize("roll,words", [("", "at least one"), ("5523666", "at most 6"), ("55x", "1..6"),
                                        ([5, 7], "1..6"), ([0], "1..6")])
def test_bad_roll_raises_value_error_naming_roll(roll, words):
    with pytest.raises(ValueError, match="roll") as info:
        lv.advise("3332", roll, rerolls_left=1)
    assert words in str(info.value)


@pytest.mark.parametrize("kwargs,exc,words", [
    (dict(rerolls=4), ValueError, "rerolls must be in 0..3"),
    (dict(rerolls=-1), ValueError, "rerolls must be in 0..3"),
    (dict(rerolls=2.0), TypeError, "rerolls must be an int"),
    (dict(rerolls=True), TypeError, "rerolls must be an int"),
    (dict(dice=7), ValueError, "dice must be in 1..6"),
    (dict(dice=0), ValueError, "dice must be in 1..6"),
    (dict(dice_cards=(3, 3)), ValueError, "dice_cards"),
    (dict(dice_cards=(6,)), ValueError, "dice_cards"),
    (dict(dice_cards="36"), ValueError, "dice_cards"),
    (dict(dice_cards=5), TypeError, "dice_cards"),
    (dict(dice_cards=("3",)), TypeError, "dice_cards"),
])
def test_bad_p_beat_arguments_name_the_parameter(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        lv.p_beat("3332", **kwargs)


@pytest.mark.parametrize("target,exc", [(3332, TypeError), (None, TypeError), ("36", ValueError),
                                        ((3, 6, 2), ValueError), ((3, 3, 3), ValueError)])
def test_bad_target_raises(target, exc):
    with pytest.raises(exc, match="target|combination|Result"):
        lv.p_beat(target)


def test_bad_rerolls_left_and_utility_and_contests():
    with pytest.raises(ValueError, match="rerolls_left"):
        lv.advise("3332", "55", rerolls_left=5)
    with pytest.raises(ValueError, match="utility"):
        lv.Solver(np.zeros(10))
    with pytest.raises(ValueError, match="players"):
        lv.tournament(7)
    with pytest.raises(ValueError, match="champion"):
        lv.tournament(3, champion=0)
    with pytest.raises(ValueError, match="model"):
        lv.tournament(3, model="greedy")
    with pytest.raises(ValueError, match="dice_cards"):
        lv.tournament(3, dice_cards=[(), (5,)])
    with pytest.raises(TypeError, match="dice_cards"):
        lv.tournament(3, dice_cards="35")
    with pytest.raises(ValueError, match=r"dice_cards\[1\]"):
        lv.tournament(2, dice_cards=[(), (4, 4)])
    with pytest.raises(TypeError, match="catapult"):
        lv.attack_castle("3332", catapult="yes")
    with pytest.raises(TypeError, match="other"):
        lv.Result.parse("333").beats(3.5)
