"""The whole table and its monotonicity: more re-rolls, dice or cards never hurt; a stronger target never helps."""
import numpy as np
import pytest

from rosen import lovagok as lv

TOL = 1e-12


@pytest.fixture(scope="module")
def table():
    return lv.table()


def test_table_shape_and_axes(table):
    assert table.p.shape == (32, 4, 7, lv.NUM_RESULTS)
    assert table.AXES == ("cards_mask", "rerolls", "dice", "target_rank")
    assert np.all((table.p >= -TOL) & (table.p <= 1 + TOL))


@pytest.mark.parametrize("target,rerolls,dice,cards", [
    ("3332", 2, 6, ()), ("3332", 3, 6, ()), ("55551", 2, 6, (1, 5)), ("444", 0, 4, (4,)), ("-", 1, 1, ()),
])
def test_table_agrees_with_p_beat(table, target, rerolls, dice, cards):
    assert table.at(target, rerolls=rerolls, dice=dice, dice_cards=cards) == lv.p_beat(
        target, rerolls=rerolls, dice=dice, dice_cards=cards)


def test_extra_reroll_never_lowers_a_probability(table):
    assert np.all(np.diff(table.p, axis=1) >= -TOL)


def test_extra_die_never_lowers_a_probability(table):
    assert np.all(np.diff(table.p, axis=2) >= -TOL)


def test_stronger_target_never_raises_a_probability(table):
    assert np.all(np.diff(table.p, axis=3) <= TOL)


def test_L4_extra_dice_card_never_lowers_a_probability(table):
    for mask in range(32):
        for v in range(5):
            if not mask >> v & 1:
                assert np.all(table.p[mask | 1 << v] >= table.p[mask] - TOL)


def test_zero_dice_row_is_the_cards_alone(table):
    for mask in (0, 0b10101, 0b11111):
        cards = lv.cards_of_mask(mask)
        own = lv.strength([6], dice_cards=cards).rank
        expected = (np.arange(lv.NUM_RESULTS) < own).astype(float)
        assert np.array_equal(table.p[mask, 3, 0], expected)


def test_view_shows_triple_plus_further_targets(table):
    text = table.view(rerolls=2)
    assert "1112" not in text  # rows are groups, columns further dice
    lines = text.splitlines()
    row333 = next(line for line in lines if line.startswith("333 "))
    assert f"{lv.p_beat('3332'):.4f}" in row333
    assert "55555" in text and len([line for line in lines if line.startswith("target")]) == 3
