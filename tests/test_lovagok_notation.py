"""Parsing and printing combinations and rolls (L7), property-tested, and the bad-input messages."""
import pickle

import numpy as np
import pytest
from hypothesis import given, strategies as st

from rosen import ArgumentTypeError, InvalidArgumentError, RosenError
from rosen import lovagok as lv
from rosen._core import lovagok as core

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
# Every bad argument is a rosen.RosenError (a ValueError) whose .field names the argument and whose
# message reads "<field>: expected <what>, got <value>"; a wrong type is also a TypeError.

def raises(exc, field, message=None):
    """pytest.raises for a rosen error of class ``exc`` naming ``field``; the message starts "<field>: expected"."""
    class Check:
        def __enter__(self):
            self.ctx = pytest.raises(exc)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc_info):
            out = self.ctx.__exit__(*exc_info)  # fails on no exception; False (re-raise) on another class
            if not out:
                return out
            err = self.info.value
            assert isinstance(err, RosenError) and err.field == field, (err, getattr(err, "field", None))
            assert str(err).startswith(f"{field}: expected "), str(err)
            if message is not None:
                assert str(err) == message
            return out
    return Check()


@pytest.mark.parametrize("text,message", [
    ("3362", "text: expected a combination of faces 1..5 (a 6 is a blank), got '3362'"),
    ("3372", "text: expected a combination of faces 1..5 (a 6 is a blank), got '3372'"),
    ("", "text: expected a combination such as '3332', '555' or '-' for nothing, got ''"),
    ("33322", "text: expected a combination of one group of equal faces and at most one further die, got '33322'"),
    ("25", "text: expected a combination with the higher lone die first, '52', got '25'"),
    ("11111111", "text: expected a combination whose group has at most 7 dice (6 dice and a dice card), got '11111111'"),
])
def test_bad_combination_names_the_problem(text, message):
    with raises(InvalidArgumentError, "text", message):
        lv.parse_combination(text)
    with raises(InvalidArgumentError, "target", message.replace("text:", "target:")):
        lv.p_beat(text)


@pytest.mark.parametrize("roll,message", [
    ("", "roll: expected at least one and at most 6 dice, got 0"),
    ("5523666", "roll: expected at least one and at most 6 dice, got 7"),
    ("55x", "roll: expected faces 1..6 such as '552366', got '55x'"),
    ([5, 7], "roll: expected 1..6, got 7"),
    ([0], "roll: expected 1..6, got 0"),
])
def test_bad_roll_raises_value_error_naming_roll(roll, message):
    with raises(InvalidArgumentError, "roll", message):
        lv.advise("3332", roll, rerolls_left=1)


@pytest.mark.parametrize("kwargs,exc,field,message", [
    (dict(rerolls=4), InvalidArgumentError, "rerolls", "rerolls: expected 0..3, got 4"),
    (dict(rerolls=-1), InvalidArgumentError, "rerolls", "rerolls: expected 0..3, got -1"),
    (dict(rerolls=2.0), ArgumentTypeError, "rerolls", "rerolls: expected an int, got float"),
    (dict(rerolls=True), ArgumentTypeError, "rerolls", "rerolls: expected an int, got bool"),
    (dict(dice=7), InvalidArgumentError, "dice", "dice: expected 1..6, got 7"),
    (dict(dice=0), InvalidArgumentError, "dice", "dice: expected 1..6, got 0"),
    (dict(dice_cards=(3, 3)), InvalidArgumentError, "dice_cards",
     "dice_cards: expected at most one dice card of each value, got [3, 3]"),
    (dict(dice_cards=(6,)), InvalidArgumentError, "dice_cards", "dice_cards: expected 1..5, got 6"),
    (dict(dice_cards="36"), InvalidArgumentError, "dice_cards", "dice_cards: expected card values 1..5 such as '3,5', got '36'"),
    (dict(dice_cards=5), ArgumentTypeError, "dice_cards", "dice_cards: expected an iterable of card values 1..5, got int"),
    (dict(dice_cards=("3",)), ArgumentTypeError, "dice_cards", "dice_cards: expected an int, got str"),
])
def test_bad_p_beat_arguments_name_the_parameter(kwargs, exc, field, message):
    with raises(exc, field, message):
        lv.p_beat("3332", **kwargs)


@pytest.mark.parametrize("target,exc", [(3332, ArgumentTypeError), (None, ArgumentTypeError), ("36", InvalidArgumentError),
                                        ((3, 6, 2), InvalidArgumentError), ((3, 3, 3), InvalidArgumentError),
                                        ((3, "3"), ArgumentTypeError)])
def test_bad_target_raises(target, exc):
    with raises(exc, "target"):
        lv.p_beat(target)


def test_bad_target_tuple_says_which_part_is_wrong():
    with raises(InvalidArgumentError, "target",
                "target: expected a (size, value, further) Lovagok result, got (3, 6, 2) (value: expected 1..5, got 6)"):
        lv.p_beat((3, 6, 2))


@pytest.mark.parametrize("args,exc,field", [
    ((8, 1), InvalidArgumentError, "size"), ((3, 6), InvalidArgumentError, "value"), ((0, 3), InvalidArgumentError, "value"),
    ((3, 3, 3), InvalidArgumentError, "further"), ((1, 2, 4), InvalidArgumentError, "further"),
    ((0, 0, 2), InvalidArgumentError, "further"), ((3, 3, 0), InvalidArgumentError, "further"),
    ((3.0, 3), ArgumentTypeError, "size"), ((3, None), ArgumentTypeError, "value"), ((3, 3, "2"), ArgumentTypeError, "further"),
    (("3362",), InvalidArgumentError, "size"),
])
def test_bad_result_parts_name_the_part(args, exc, field):
    with raises(exc, field):
        lv.Result(*args)


def test_every_valid_result_part_triple_is_a_listed_result_and_every_other_is_refused():
    listed = {(r.size, r.value, r.further) for r in lv.RESULTS}
    for size in range(8):
        for value in range(6):
            for further in (None, 1, 2, 3, 4, 5):
                try:
                    made = lv.Result(size, value, further)
                except InvalidArgumentError:
                    assert (size, value, further) not in listed
                else:
                    assert tuple(made) == (size, value, further) and made in lv.RESULTS


def test_bad_rerolls_left_and_utility_and_contests():
    with raises(InvalidArgumentError, "rerolls_left", "rerolls_left: expected 0..3, got 5"):
        lv.advise("3332", "55", rerolls_left=5)
    with raises(InvalidArgumentError, "utility", "utility: expected 166 values (one per result rank), got shape (10,)"):
        lv.Solver(np.zeros(10))
    with raises(InvalidArgumentError, "utility", "utility: expected finite values, got an int too large for a float"):
        lv.Solver([10**400] + [0] * (lv.NUM_RESULTS - 1))  # was a raw OverflowError
    from decimal import Decimal
    assert (lv.Solver([Decimal(1)] * lv.NUM_RESULTS).utility == 1).all()  # real numbers, as before
    with raises(InvalidArgumentError, "utility", "utility: expected finite values, got a NaN"):
        lv.Solver([Decimal("sNaN")] + [0] * (lv.NUM_RESULTS - 1))  # a signalling NaN will not become a float
    with raises(InvalidArgumentError, "players", "players: expected 2..6, got 7"):
        lv.tournament(7)
    with raises(InvalidArgumentError, "champion", "champion: expected 0..2, got -1"):
        lv.tournament(3, champion=-1)
    with raises(InvalidArgumentError, "model", "model: expected 'lead' or 'win', got 'greedy'"):
        lv.tournament(3, model="greedy")
    with raises(InvalidArgumentError, "dice_cards", "dice_cards: expected 3 card sets (one per player), got 2"):
        lv.tournament(3, dice_cards=[(), (5,)])
    with raises(ArgumentTypeError, "dice_cards"):
        lv.tournament(3, dice_cards="35")
    with raises(InvalidArgumentError, "dice_cards[1]"):
        lv.tournament(2, dice_cards=[(), (4, 4)])
    with raises(ArgumentTypeError, "catapult", "catapult: expected a bool, got str"):
        lv.attack_castle("3332", catapult="yes")
    with raises(ArgumentTypeError, "other"):
        lv.Result.parse("333").beats(3.5)
    with raises(ArgumentTypeError, "other"):
        assert lv.Result.parse("333") < 3.5


# Each public function and method, with each argument made bad in turn: (call, field, error class).
R333 = lv.Result.parse("333")
ZERO_TABLE = lv.BeatTable(np.zeros((32, 4, 7, lv.NUM_RESULTS)))
BAD_CALLS = [
    (lambda: lv.Result.parse(333), "text", ArgumentTypeError),
    (lambda: lv.Result.from_rank(lv.NUM_RESULTS), "rank", InvalidArgumentError),
    (lambda: lv.Result.from_rank("0"), "rank", ArgumentTypeError),
    (lambda: R333.beats("3336"), "other", InvalidArgumentError),
    (lambda: lv.parse_combination(["3", "3"]), "text", ArgumentTypeError),
    (lambda: lv.format_combination("3333333333"), "result", InvalidArgumentError),
    (lambda: lv.format_combination(3), "result", ArgumentTypeError),
    (lambda: lv.parse_roll(552366), "roll", ArgumentTypeError),
    (lambda: lv.parse_dice_cards(None), "dice_cards", ArgumentTypeError),
    (lambda: lv.strength("5527"), "dice", InvalidArgumentError),
    (lambda: lv.strength("552", dice_cards=(0,)), "dice_cards", InvalidArgumentError),
    (lambda: lv.compare("333", "x"), "b", InvalidArgumentError),
    (lambda: lv.compare(None, "333"), "a", ArgumentTypeError),
    (lambda: lv.beats("3336", "333"), "a", InvalidArgumentError),
    (lambda: lv.beat_utility("6"), "target", InvalidArgumentError),
    (lambda: lv.p_beat("333", dice=1.5), "dice", ArgumentTypeError),
    (lambda: lv.distribution("3336"), "target", InvalidArgumentError),
    (lambda: lv.distribution("333", rerolls=4), "rerolls", InvalidArgumentError),
    (lambda: lv.distribution("333", dice=7), "dice", InvalidArgumentError),
    (lambda: lv.distribution("333", dice_cards=(9,)), "dice_cards", InvalidArgumentError),
    (lambda: lv.Solver(["a"] * lv.NUM_RESULTS), "utility", ArgumentTypeError),
    (lambda: lv.Solver(["1"] * lv.NUM_RESULTS), "utility", ArgumentTypeError),  # digit strings once read as numbers
    (lambda: lv.Solver(np.ones(lv.NUM_RESULTS) * 1j), "utility", ArgumentTypeError),  # once dropped the imaginary part
    (lambda: lv.Solver([True] * lv.NUM_RESULTS), "utility", ArgumentTypeError),
    (lambda: lv.Solver(None), "utility", ArgumentTypeError),
    (lambda: lv.Solver([float("nan")] * lv.NUM_RESULTS), "utility", InvalidArgumentError),
    (lambda: lv.Solver(np.zeros(lv.NUM_RESULTS), dice_cards="7"), "dice_cards", InvalidArgumentError),
    (lambda: lv.Solver(np.zeros(lv.NUM_RESULTS), max_rerolls=4), "max_rerolls", InvalidArgumentError),
    (lambda: lv.Solver.to_beat(3), "target", ArgumentTypeError),
    (lambda: lv.Solver.to_beat("333", max_rerolls=1).value(rerolls=2), "rerolls", InvalidArgumentError),
    (lambda: lv.Solver.to_beat("333").value(dice=0), "dice", InvalidArgumentError),
    (lambda: lv.Solver.to_beat("333").distribution(rerolls=None), "rerolls", ArgumentTypeError),
    (lambda: lv.Solver.to_beat("333").distribution(dice=9), "dice", InvalidArgumentError),
    (lambda: lv.Solver.to_beat("333").best_keep("5557", 1), "roll", InvalidArgumentError),
    (lambda: lv.Solver.to_beat("333", max_rerolls=1).best_keep("555", 2), "rerolls_left", InvalidArgumentError),
    (lambda: lv.Solver.to_beat("333").advise({5}, 1), "roll", ArgumentTypeError),
    (lambda: lv.Solver.to_beat("333").advise("555", -1), "rerolls_left", InvalidArgumentError),
    (lambda: lv.advise("", "555", 1), "target", InvalidArgumentError),
    (lambda: lv.advise("333", "555", 1, dice_cards=(1, 1)), "dice_cards", InvalidArgumentError),
    (lambda: lv.attack_castle(None), "castle", ArgumentTypeError),
    (lambda: lv.attack_castle("333", catapult=1), "catapult", ArgumentTypeError),
    (lambda: lv.attack_castle("333", defender_rerolls=4), "defender_rerolls", InvalidArgumentError),
    (lambda: lv.attack_castle("333", attacker_cards=(6,)), "attacker_cards", InvalidArgumentError),
    (lambda: lv.attack_castle("333", defender_cards=(6,)), "defender_cards", InvalidArgumentError),
    (lambda: lv.CastleAttack("333").advise("5", 3), "rerolls_left", InvalidArgumentError),
    (lambda: lv.tournament(1), "players", InvalidArgumentError),
    (lambda: lv.tournament(3, champion=3), "champion", InvalidArgumentError),
    (lambda: lv.tournament(3, model=None), "model", ArgumentTypeError),
    (lambda: lv.Tournament(2).advise_organiser("555", 4), "rerolls_left", InvalidArgumentError),
    (lambda: lv.topple_king(rerolls=9), "rerolls", InvalidArgumentError),
    (lambda: lv.topple_king(dice_cards="0"), "dice_cards", InvalidArgumentError),
    (lambda: lv.BeatTable(np.zeros(3)), "p", InvalidArgumentError),
    (lambda: lv.BeatTable([0.0]), "p", ArgumentTypeError),
    (lambda: ZERO_TABLE.at("3336"), "target", InvalidArgumentError),
    (lambda: ZERO_TABLE.at("333", rerolls=4), "rerolls", InvalidArgumentError),
    (lambda: ZERO_TABLE.at("333", dice=-1), "dice", InvalidArgumentError),
    (lambda: ZERO_TABLE.at("333", dice_cards=[[3]]), "dice_cards", ArgumentTypeError),
    (lambda: ZERO_TABLE.view(rerolls="2"), "rerolls", ArgumentTypeError),
    (lambda: ZERO_TABLE.view(dice=7), "dice", InvalidArgumentError),
    (lambda: ZERO_TABLE.view(dice_cards="3,3"), "dice_cards", InvalidArgumentError),
    (lambda: ZERO_TABLE.view(sizes=(3, 8)), "sizes", InvalidArgumentError),
    (lambda: ZERO_TABLE.view(sizes=3), "sizes", ArgumentTypeError),
    (lambda: lv.format_grid(np.zeros(5)), "row", InvalidArgumentError),
    (lambda: lv.format_grid(np.zeros(lv.NUM_RESULTS), sizes=[0]), "sizes", InvalidArgumentError),
]


@pytest.mark.parametrize("call,field,exc", BAD_CALLS, ids=[f"{i}-{f}" for i, (_, f, _) in enumerate(BAD_CALLS)])
def test_every_bad_argument_is_a_rosen_error_naming_it(call, field, exc):
    with raises(exc, field):
        call()


@pytest.mark.parametrize("call,field,message", [
    (lambda: core.p_beat(lv.NUM_RESULTS, 2, 6, 0), "target_rank", "target_rank: expected 0..165, got 166"),
    (lambda: core.p_beat(0, 4, 6, 0), "rerolls", "rerolls: expected 0..3, got 4"),
    (lambda: core.p_beat(0, 2, 7, 0), "dice", "dice: expected 0..6, got 7"),
    (lambda: core.p_beat(0, 2, 6, -1), "cards_mask", "cards_mask: expected 0..31, got -1"),
    (lambda: core.beat_table_for(32), "cards_mask", "cards_mask: expected 0..31, got 32"),
    (lambda: core.rank_of_counts((4, 3, 0, 0, 0), 0), "counts", "counts: expected at most 6 dice in all, got 7"),
    (lambda: core.rank_of_counts((7, 0, 0, 0, 0), 0), "counts", "counts: expected 0..6, got 7"),
    (lambda: core.Solver(np.zeros(3)), "utility", "utility: expected 166 values (one per result rank), got shape (3,)"),
    (lambda: core.Solver(np.zeros(lv.NUM_RESULTS), 0, 4), "max_rerolls", "max_rerolls: expected 0..3, got 4"),
    (lambda: core.Solver(np.zeros(lv.NUM_RESULTS), 0, 1).value(6, 2), "rerolls", "rerolls: expected 0..1, got 2"),
    (lambda: core.Solver(np.zeros(lv.NUM_RESULTS)).options((1, 0, 0, 0, 0), 4), "rerolls_left",
     "rerolls_left: expected 0..3, got 4"),
    (lambda: core.solve_batch(np.zeros(lv.NUM_RESULTS), 2, 6, 0), "utilities",
     "utilities: expected rows of 166 values (one per result rank), got shape (166,)"),
    # The public Solver refused NaN; the compiled module solved with it.
    (lambda: core.solve_batch(np.full((2, lv.NUM_RESULTS), np.nan), 2, 6, 0), "utilities",
     "utilities: expected finite values of magnitude at most 1e300, got nan at flat index 0"),
    (lambda: core.Solver(np.r_[np.zeros(lv.NUM_RESULTS - 1), np.inf]), "utility",
     "utility: expected finite values of magnitude at most 1e300, got inf at flat index 165"),
    # Beyond 1e300 an expectation of finite utilities overflowed to inf (the roll probabilities
    # sum to 1 only up to rounding).
    (lambda: core.Solver(np.full(lv.NUM_RESULTS, np.finfo(float).max)), "utility",
     "utility: expected finite values of magnitude at most 1e300, got 1.7976931348623157e+308 at flat index 0"),
])
def test_compiled_module_raises_rosen_errors_naming_the_field(call, field, message):
    with raises(InvalidArgumentError, field, message):
        call()
