"""Rulebook behaviour of rosen.lovagok, one test per rule id (LOVAGOK.md L1-L12)."""
from fractions import Fraction

import numpy as np
import pytest

from rosen import lovagok as lv

try:
    from . import lovagok_reference as ref
except ImportError:  # tests/ is not a package
    import lovagok_reference as ref


def R(text):
    return lv.Result.parse(text)


# ------------------------------------------------------------------ L8: the rulebook examples

@pytest.mark.parametrize("winner", ["4444", "3334", "1111", "2222"])
def test_L8_results_that_beat_3332(winner):
    assert lv.beats(winner, "3332")
    assert not lv.beats("3332", winner)


def test_L8_555_beats_3334():
    assert lv.beats("555", "3334")


def test_L8_3331_loses_and_3334_wins_against_3332():
    assert not lv.beats("3331", "3332")
    assert lv.beats("3334", "3332")


def test_L8_further_die_of_555436_is_4_and_of_555226_is_2():
    assert lv.strength("555436") == lv.Result(3, 5, 4)
    assert lv.strength("555226") == lv.Result(3, 5, 2)


def test_L8_444526_beats_4441_at_once():
    assert lv.beats(lv.strength("444526"), "4441")
    advice = lv.advise("4441", "444526", rerolls_left=2)
    assert advice.best.keep is None and advice.best.probability == 1.0


def test_L8_two_dice_left_cannot_beat_3334():
    advice = lv.advise("3334", "416666", rerolls_left=2)
    assert all(o.probability == 0.0 for o in advice.options)
    assert lv.p_beat("3334", rerolls=3, dice=2) == 0.0
    assert lv.p_beat("3334", rerolls=3, dice=3) > 0.0  # three dice can still make 444


# ------------------------------------------------------------------ L1: sixes are blanks, gone for good

def test_L1_six_counts_for_nothing():
    assert lv.strength("666666") == lv.NOTHING
    assert lv.strength("5566") == lv.strength("55")


def test_L1_a_six_is_never_rolled_again():
    # One die: a six is set aside at once, so re-rolls cannot rescue it.
    for rerolls in range(4):
        assert lv.p_beat(lv.NOTHING, rerolls=rerolls, dice=1) == pytest.approx(5 / 6, abs=1e-15)


def test_L1_roll_may_not_contain_a_seven():
    with pytest.raises(ValueError, match="roll"):
        lv.advise("3332", "552376", rerolls_left=2)


# ------------------------------------------------------------------ L2: stop any time, keeping is not binding

def test_L2_stop_is_always_an_option_and_chosen_when_already_beaten():
    advice = lv.advise("3332", "444516", rerolls_left=2)
    assert advice.best.keep is None
    assert advice.options[0].keep is None and advice.options[0].probability == 1.0


def test_L2_every_distinct_keep_is_offered():
    advice = lv.advise("3332", "552366", rerolls_left=2)
    keeps = {o.keep for o in advice.options}
    # Counted dice 5,5,3,2: (2+1)(1+1)(1+1) sub-multisets, minus keeping all (= stop), plus stop.
    assert len(keeps) == len(advice.options) == 12
    assert (5, 5, 3, 2) not in keeps and () in keeps and None in keeps


def test_L2_non_binding_keeping_is_worth_more_than_binding():
    # Three dice, two re-rolls, target 222: the reference with binding keeps is weaker.
    beat = lambda r: Fraction(int(r > (3, 2, 0)))
    free = ref.attempt_value(beat, dice=3, rerolls=2)
    binding = ref.attempt_value(beat, dice=3, rerolls=2, binding=True)
    assert binding < free
    assert lv.p_beat("222", rerolls=2, dice=3) == pytest.approx(float(free), abs=1e-12)


# ------------------------------------------------------------------ L3: who gets three re-rolls

def test_L3_catapult_and_organiser_get_three_rerolls():
    assert lv.attack_castle("3332").attacker_rerolls == 2
    assert lv.attack_castle("3332", catapult=True).attacker_rerolls == 3
    t = lv.tournament(4, champion=2)
    assert t.rerolls == (3, 2, 3, 2)


# ------------------------------------------------------------------ L4: dice cards

def test_L4_dice_card_counts_as_an_extra_die_and_as_further():
    assert lv.strength("33", dice_cards=(3,)) == R("333")
    assert lv.strength("333", dice_cards=(5,)) == R("3335")
    assert lv.strength("66", dice_cards=(2, 4)) == R("42")


def test_L4_dice_cards_raise_the_odds_exactly_as_the_reference_says():
    beat = lambda r: Fraction(int(r > (3, 3, 2)))
    exact = ref.attempt_value(beat, dice=2, rerolls=2, cards=(3, 5))
    assert lv.p_beat("3332", rerolls=2, dice=2, dice_cards=(3, 5)) == pytest.approx(float(exact), abs=1e-12)


def test_L4_repeated_dice_card_is_rejected():
    with pytest.raises(ValueError, match="dice_cards"):
        lv.p_beat("3332", dice_cards=(3, 3))


# ------------------------------------------------------------------ L5, L6, L7: strength and notation

def test_L5_larger_group_then_higher_value():
    assert lv.strength("445511") == R("554")
    assert lv.strength("123456") == R("54")
    assert lv.strength("222334") == R("2224")


def test_L6_order_is_lexicographic_and_ties_do_not_beat():
    assert R("11111") > R("5554") > R("5553") > R("555") > R("4445")
    assert lv.compare("3332", "3332") == 0 and not lv.beats("3332", "3332")
    assert lv.compare("555", "5551") == -1  # none is lower than any die


def test_L6_results_are_listed_in_strength_order():
    triples = [(r.size, r.value, r.further or 0) for r in lv.RESULTS]
    assert triples == sorted(triples) and len(set(triples)) == lv.NUM_RESULTS


def test_L7_notation_examples():
    assert tuple(R("3332")) == (3, 3, 2)
    assert lv.KING == R("55551") and tuple(lv.KING) == (4, 5, 1)
    assert lv.TREASON == R("2224")
    assert tuple(R("555")) == (3, 5, None)


# ------------------------------------------------------------------ L9-L12: contests

def test_L9_taking_a_card_is_p_beat():
    beat = lambda r: Fraction(int(r > (2, 4, 0)))
    exact = ref.attempt_value(beat, dice=3, rerolls=1)
    assert lv.p_beat("44", rerolls=1, dice=3) == pytest.approx(float(exact), abs=1e-12)


def test_L10_optimal_attacker_beats_the_naive_one():
    attack = lv.attack_castle("3332")
    assert attack.p_take > attack.p_take_naive + 0.01
    assert attack.p_take <= attack.p_beat_castle <= lv.p_beat("3332") + 1e-12
    catapult = lv.attack_castle("3332", catapult=True)
    assert catapult.p_take > attack.p_take


def test_L10_attacker_utility_is_beat_castle_times_defender_failing():
    attack = lv.attack_castle("4441")
    for r in (R("4442"), R("5553"), R("11111")):
        assert attack.utility[r.rank] == pytest.approx(1 - lv.p_beat(r, rerolls=2))
    assert attack.utility[R("4441").rank] == 0.0 and attack.utility[R("333").rank] == 0.0


def test_L10_L4_each_side_rolls_with_its_own_dice_cards():
    """The defender's dice cards (L4) make its counter-roll stronger, so the attacker's utility for a
    result r is 1 - p_beat(r) with the defender's cards; the attacker's own cards leave that utility
    alone and raise its chance to take the castle instead."""
    plain = lv.attack_castle("4441")
    defended = lv.attack_castle("4441", defender_cards=(4, 5))
    armed = lv.attack_castle("4441", attacker_cards=(4, 5))
    for r in (R("4442"), R("5553"), R("11111")):
        assert defended.utility[r.rank] == pytest.approx(1 - lv.p_beat(r, rerolls=2, dice_cards=(4, 5)))
        assert defended.utility[r.rank] < plain.utility[r.rank]
    assert np.array_equal(armed.utility, plain.utility)
    assert defended.p_take < plain.p_take - 0.05 and armed.p_take > plain.p_take + 0.05


@pytest.mark.parametrize("model", lv.TOURNAMENT_MODELS)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_L11_tournament_probabilities_add_up(players, model):
    t = lv.tournament(players, model=model)
    assert t.p_win.sum() == pytest.approx(1.0, abs=1e-12)
    assert t.p_win[0] == pytest.approx(t.organiser.value(rerolls=3), abs=1e-12)


def test_L11_two_players_organiser_wins_unless_beaten():
    t = lv.tournament(2)
    # Player 1 beats the organiser's final result r with probability p_beat(r).
    p1 = sum(t.distributions[0][r.rank] * lv.p_beat(r, rerolls=2) for r in lv.RESULTS)
    assert t.p_win[1] == pytest.approx(p1, abs=1e-12)


def test_L11_models_agree_with_two_players_and_differ_with_more():
    # With one later player "take the lead" and "win" are the same goal.
    assert lv.tournament(2, model="lead").p_win == pytest.approx(lv.tournament(2, model="win").p_win, abs=1e-12)
    lead, win = lv.tournament(3, model="lead"), lv.tournament(3, model="win")
    # Player 1 plays for a lead that survives player 2, and so wins more often.
    assert win.p_win[1] > lead.p_win[1] + 0.01


def test_L11_champion_improves_its_holders_chances():
    plain, champ = lv.tournament(4), lv.tournament(4, champion=2)
    assert champ.p_win[2] > plain.p_win[2]
    assert champ.p_win[0] < plain.p_win[0]


def test_L3_an_organiser_holding_the_champion_still_has_three_rerolls():
    # L3: three re-rolls "for the organiser; a player holding the Champion": not six, not refused.
    plain, own = lv.tournament(3), lv.tournament(3, champion=0)
    assert own.rerolls == plain.rerolls == (3, 2, 2)
    assert own.p_win == pytest.approx(plain.p_win, abs=0)


def test_L12_toppling_the_king_is_beating_55551():
    assert lv.topple_king() == lv.p_beat("55551", rerolls=2)
    assert 0 < lv.topple_king() < lv.topple_king(dice_cards=(5,)) < 1
