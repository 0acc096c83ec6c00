"""Monte Carlo agreement on six-dice cases: simulate the advised policy with seeded NumPy dice.

Each check allows 4 standard errors, so a correct engine fails about once in 16,000 runs of a
check, and the seeds are fixed, so in practice never.
"""
import math

import numpy as np
import pytest

from rosen import lovagok as lv


class Player:
    """Follows a Solver's best_keep, caching decisions per (counted dice, re-rolls left)."""

    def __init__(self, solver, dice_cards=()):
        self.solver, self.cards, self.cache = solver, tuple(dice_cards), {}

    def keep(self, shown, r):
        key = (tuple(sorted(shown)), r)
        if key not in self.cache:
            self.cache[key] = self.solver.best_keep(list(key[0]), r) if shown and r > 0 else None
        return self.cache[key]

    def play(self, rng, rerolls, dice=6):
        """One attempt; returns the final Result. Sixes leave play at once (L1)."""
        shown = [int(f) for f in rng.integers(1, 7, size=dice) if f != 6]
        for r in range(rerolls, 0, -1):
            k = self.keep(shown, r)
            if k is None:
                break
            fresh = rng.integers(1, 7, size=len(shown) - len(k))
            shown = list(k) + [int(f) for f in fresh if f != 6]
        return lv.strength(shown or [6], dice_cards=self.cards)


def assert_within_4se(hits, n, p):
    se = math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(hits / n - p) <= 4 * se, (hits / n, p, se)


@pytest.mark.parametrize("target,rerolls,cards,seed", [
    ("3332", 2, (), 1), ("3332", 3, (), 2), ("4441", 2, (5,), 3), ("55551", 2, (), 4), ("555", 1, (2, 4), 5),
])
def test_advised_policy_wins_as_often_as_p_beat_says(target, rerolls, cards, seed):
    rng = np.random.default_rng(seed)
    player = Player(lv.Solver.to_beat(target, dice_cards=cards, max_rerolls=rerolls), cards)
    n = 20000
    t = lv.Result.parse(target)
    hits = sum(player.play(rng, rerolls) > t for _ in range(n))
    assert_within_4se(hits, n, lv.p_beat(target, rerolls=rerolls, dice_cards=cards))


def test_final_result_distribution_matches_simulation():
    rng = np.random.default_rng(11)
    solver = lv.Solver.to_beat("444", max_rerolls=2)
    player = Player(solver)
    n = 20000
    counts = np.zeros(lv.NUM_RESULTS)
    for _ in range(n):
        counts[player.play(rng, 2).rank] += 1
    dist = solver.distribution(rerolls=2)
    # Check the mass of each group size (a coarse, well-populated binning of the distribution).
    sizes = np.array([r.size for r in lv.RESULTS])
    for s in range(0, 7):
        assert_within_4se(counts[sizes == s].sum(), n, dist[sizes == s].sum())


def test_L10_castle_attack_matches_simulation_of_both_sides():
    rng = np.random.default_rng(21)
    attack = lv.attack_castle("3332")
    attacker = Player(attack.solver)
    defenders = {}
    n = 20000
    wins = 0
    for _ in range(n):
        r = attacker.play(rng, attack.attacker_rerolls)
        if not r > attack.castle:
            continue
        if r not in defenders:
            defenders[r] = Player(lv.Solver.to_beat(r, max_rerolls=2))
        wins += not (defenders[r].play(rng, 2) > r)
    assert_within_4se(wins, n, attack.p_take)


def simulate_tournament(organiser, make_chaser, rerolls, rng, n=10000):
    """Win counts of a 3-player tournament (L11): the organiser rolls, then players 1 and 2 each
    try to beat the current leader with the policy make_chaser(k, leader) gives them."""
    first = Player(organiser)
    chasers = {}
    wins = np.zeros(3)
    for _ in range(n):
        leader, who = first.play(rng, rerolls[0]), 0
        for k in (1, 2):
            if (k, leader) not in chasers:
                chasers[(k, leader)] = make_chaser(k, leader)
            r = chasers[(k, leader)].play(rng, rerolls[k])
            if r > leader:
                leader, who = r, k
        wins[who] += 1
    return wins, n


def test_L11_tournament_matches_simulation():
    cards = [(), (3,), ()]
    t = lv.tournament(3, champion=2, dice_cards=cards)
    wins, n = simulate_tournament(
        t.organiser,
        lambda k, leader: Player(lv.Solver.to_beat(leader, dice_cards=cards[k], max_rerolls=t.rerolls[k]), cards[k]),
        t.rerolls, np.random.default_rng(31))
    for k in range(3):
        assert_within_4se(wins[k], n, t.p_win[k])


def test_L11_win_model_matches_simulation():
    """Three players, model "win": player 1 plays for a lead that player 2 then fails to take."""
    t = lv.tournament(3, model="win")
    p2_beats = np.array([lv.p_beat(r, rerolls=2) for r in lv.RESULTS])
    ranks = np.arange(lv.NUM_RESULTS)

    def chaser(k, leader):
        goal = (ranks > leader.rank) * (1.0 - p2_beats if k == 1 else 1.0)
        return Player(lv.Solver(goal, max_rerolls=2))

    wins, n = simulate_tournament(t.organiser, chaser, (3, 2, 2), np.random.default_rng(41))
    for k in range(3):
        assert_within_4se(wins[k], n, t.p_win[k])
