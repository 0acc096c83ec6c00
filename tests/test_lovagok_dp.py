"""The optimal-play DP against exhaustive exact search (tests/lovagok_reference.py)."""
import random
from fractions import Fraction

import numpy as np
import pytest

from rosen import lovagok as lv
from rosen._core import lovagok as core

try:
    from . import lovagok_reference as ref
except ImportError:  # tests/ is not a package
    import lovagok_reference as ref

RANK = {(r.size, r.value, r.further or 0): r.rank for r in lv.RESULTS}
SMALL = [(d, r) for d in (1, 2, 3) for r in (0, 1, 2)]
CARD_SETS = [(), (5,), (1, 3), (2, 4, 5)]


def random_utility(seed):
    """Integer utilities per rank, so the exact reference stays cheap and the check is for any utility."""
    rng = random.Random(seed)
    return [rng.randint(0, 50) for _ in range(lv.NUM_RESULTS)]


@pytest.mark.parametrize("dice,rerolls", SMALL)
@pytest.mark.parametrize("cards", CARD_SETS)
def test_L2_dp_matches_exhaustive_search_for_random_utilities(dice, rerolls, cards):
    u = random_utility(dice * 100 + rerolls * 10 + len(cards))
    exact = ref.attempt_value(lambda t: Fraction(u[RANK[t]]), dice, rerolls, cards)
    solver = lv.Solver(np.array(u, dtype=float), dice_cards=cards, max_rerolls=rerolls)
    assert solver.value(rerolls=rerolls, dice=dice) == pytest.approx(float(exact), abs=1e-12 * 50)


@pytest.mark.parametrize("target", ["1", "5", "54", "11", "335", "3332", "444", "555", "5554", "2222"])
@pytest.mark.parametrize("dice,rerolls", [(2, 1), (3, 1), (3, 2)])
def test_p_beat_matches_exhaustive_search(target, dice, rerolls):
    t = lv.Result.parse(target)
    key = (t.size, t.value, t.further or 0)
    exact = ref.attempt_value(lambda r: Fraction(int(ref.ref_beats(r, key))), dice, rerolls)
    assert lv.p_beat(target, rerolls=rerolls, dice=dice) == pytest.approx(float(exact), abs=1e-12)


@pytest.mark.parametrize("rerolls", [1, 2])
@pytest.mark.parametrize("cards", [(), (4,)])
def test_one_die_against_literal_enumeration_of_every_policy(rerolls, cards):
    u = random_utility(7 + rerolls)
    best = ref.one_die_all_policies(lambda t: Fraction(u[RANK[t]]), rerolls, cards)
    solver = lv.Solver(np.array(u, dtype=float), dice_cards=cards, max_rerolls=rerolls)
    assert solver.value(rerolls=rerolls, dice=1) == pytest.approx(float(best), abs=1e-12 * 50)


@pytest.mark.parametrize("dice,rerolls", [(2, 2), (3, 2)])
def test_distribution_is_exact_for_the_advised_policy(dice, rerolls):
    solver = lv.Solver.to_beat("333", max_rerolls=rerolls)

    def keep(shown, r):
        if not shown:
            return None
        k = solver.best_keep(list(shown), r)
        return None if k is None else tuple(sorted(k))

    exact = ref.policy_distribution(keep, dice, rerolls)
    dist = solver.distribution(rerolls=rerolls, dice=dice)
    expected = np.zeros(lv.NUM_RESULTS)
    for t, p in exact.items():
        expected[RANK[t]] = float(p)
    assert np.allclose(dist, expected, atol=1e-12)
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist @ solver.utility == pytest.approx(solver.value(rerolls=rerolls, dice=dice), abs=1e-12)


def test_advise_values_match_exhaustive_search_for_each_keep():
    # Counted dice 5,5,3 with one re-roll left, target 5551: each keep's value by brute force.
    target = (3, 5, 1)
    beat = lambda r: Fraction(int(r > target))
    advice = lv.advise("5551", "553", rerolls_left=1)
    for option in advice.options:
        if option.keep is None:
            exact = beat(ref.ref_result((5, 5, 3)))
        else:
            m = option.reroll
            exact = Fraction(0)
            for i in range(6 ** m):
                outcome = [(i // 6 ** j) % 6 + 1 for j in range(m)]
                exact += beat(ref.ref_result(option.keep + tuple(outcome))) / 6 ** m
        assert option.probability == pytest.approx(float(exact), abs=1e-12), option
    assert advice.best.probability == max(o.probability for o in advice.options)


def test_strength_matches_reference_on_every_small_roll():
    for n in range(1, 5):
        for i in range(6 ** n):
            faces = [(i // 6 ** j) % 6 + 1 for j in range(n)]
            for cards in ((), (2,), (1, 5)):
                got = lv.strength(faces, dice_cards=cards)
                assert (got.size, got.value, got.further or 0) == ref.ref_result(faces, cards)


@pytest.mark.parametrize("utility", [lv.beat_utility("3332"), random_utility(5)])
def test_choices_do_not_depend_on_the_utilitys_scale_or_offset(utility):
    # Ties were an absolute 1e-13: below it every choice was a "tie", so the solver never re-rolled
    # (u * 1e-13: 0.19 instead of 0.60), and rounding noise of an offset utility (u + 1e4) broke
    # exact ties against the documented rule. The value is an expectation of the utility, so the
    # optimal policy is invariant under u -> a u + b (a > 0); the solver's must be too.
    import itertools

    u = np.asarray(utility, dtype=float)
    base = lv.Solver(u, max_rerolls=2)
    for a, b in ((1e-13, 0.0), (1e-300, 0.0), (1.0, 1e4), (1e9, -3.0)):
        other = lv.Solver(a * u + b, max_rerolls=2)
        assert other.value(rerolls=2) == pytest.approx(a * base.value(rerolls=2) + b, rel=1e-9, abs=1e-9 * a)
        assert np.abs(other.distribution(rerolls=2) - base.distribution(rerolls=2)).max() < 1e-12
        for n in range(1, 7):
            for roll in itertools.combinations_with_replacement("123456", n):
                for r in (1, 2):
                    assert other.best_keep("".join(roll), r) == base.best_keep("".join(roll), r), (a, b, roll, r)


def test_a_large_offset_or_an_unreachable_result_changes_no_choice():
    # The tie margin was 1e-13 of the utility's largest magnitude over all 166 ranks: u + 1e13
    # (0/1 steps, exact in floats) never re-rolled, 0.19 for 0.60, and so did u with 1e13 at a
    # rank this card set cannot reach (5555554 needs dice card 5). The solver now works on the
    # utility less its least reachable value, the margin a share of the reachable spread.
    u = lv.beat_utility("3332")
    base = lv.Solver(u, max_rerolls=2)
    unreachable = u.copy()
    unreachable[lv.NUM_RESULTS - 1] = 1e13
    for other, offset in ((lv.Solver(u + 1e12, max_rerolls=2), 1e12), (lv.Solver(u + 1e13, max_rerolls=2), 1e13),
                          (lv.Solver(unreachable, max_rerolls=2), 0.0)):
        assert other.value(rerolls=2) - offset == pytest.approx(base.value(rerolls=2), abs=1e-2 if offset else 1e-15)
        assert other.best_keep("552366", 2) == base.best_keep("552366", 2) == (5, 5)
        # advise lists its options best first, then by value, as the base utility's are (its ties
        # were relative to the largest magnitude: every option of u + 1e12 tied).
        keeps = [o.keep for o in other.advise("552366", 2).options]
        assert keeps == [o.keep for o in base.advise("552366", 2).options]


def test_probabilities_stay_within_0_and_1():
    # The roll probabilities sum to 1 only up to rounding: a sure thing read 1 + 1e-15 (2600 entries
    # of the table above 1), and a castle anyone beats 1 + 4e-16.
    assert lv.p_beat("-", rerolls=0, dice=2, dice_cards=(1,)) == 1.0
    assert lv.p_beat("-", rerolls=0, dice=4, dice_cards=(1,)) == 1.0
    table = lv.table().p
    assert table.min() >= 0.0 and table.max() <= 1.0
    attack = lv.attack_castle("-", defender_rerolls=1, attacker_cards="12345")
    assert 0.0 <= attack.p_take <= 1.0 and attack.p_beat_castle == 1.0
    assert lv.Solver(np.full(lv.NUM_RESULTS, 0.7)).value(rerolls=3) == 0.7  # a constant, exactly
    # Every value is an expectation of the reachable utilities, so it lies between them: a 0/1
    # utility's values (advise's options, Solver.value, solve_batch) are probabilities.
    assert all(0.0 <= o.probability <= 1.0 for o in lv.advise("1", "4444", 1).options)
    sure = np.ones(lv.NUM_RESULTS)
    sure[17] = 0.0  # "112": three dice, so two dice beat it surely
    assert lv.Solver(sure).value(rerolls=0, dice=2) == 1.0
    values, _ = core.solve_batch(np.stack([sure, lv.beat_utility("3332")]), 2, 6, 0)
    assert values.min() >= 0.0 and values.max() <= 1.0
    # Standing on a state whose best is to stop is worth its utility, as stopping is listed.
    shifted = np.full(lv.NUM_RESULTS, 0.1)
    shifted[0] = -0.3
    solver = core.Solver(shifted, 0, 3)
    assert solver.state_value((0, 0, 0, 0, 2), 0) == dict(solver.options((0, 0, 0, 0, 2), 0))[None] == 0.1


def test_ties_go_to_stopping_then_most_dice_then_lowest_faces():
    # docs/lovagok.md: keep the 4, not the 5 (both 1/36); keep 111 rather than 222 (equal values).
    two = lv.advise("3332", "145", rerolls_left=1).options[:2]
    assert [o.keep for o in two] == [(4,), (5,)] and two[0].probability == two[1].probability
    assert lv.advise("3332", "111222", rerolls_left=1).best.keep == (1, 1, 1)
