"""Lovagok contests, both sides playing optimally: attacking a castle (L10), tournaments (L11), the king (L12).

>>> attack = attack_castle("3332")
>>> round(attack.p_take, 6), round(attack.p_take_naive, 6)    # playing for a result the defender cannot top
(0.408561, 0.358772)
>>> round(topple_king(), 6)
0.116873
"""
from __future__ import annotations

from typing import List, Optional, Sequence, SupportsFloat

import numpy as np

from .._core import lovagok as _lv
from ..errors import ArgumentTypeError, InvalidArgumentError, check_bool, check_choice, check_int
from .notation import (
    DEFAULT_REROLLS,
    KING,
    MAX_DICE,
    NUM_RESULTS,
    CardsLike,
    ResultLike,
    RollLike,
    as_result,
    cards_of_mask,
    check_rerolls,
    parse_dice_cards,
)
from .solver import Advice, Solver, beat_utility, p_beat
from .tables import beat_row


def _probability(p: SupportsFloat) -> float:
    """A probability summed from roll probabilities, which add up to 1 only up to rounding: a sure
    thing could read 1 + 4e-16."""
    return min(1.0, max(0.0, float(p)))


class CastleAttack:
    """Attacking a castle (L10), both sides playing optimally.

    The attacker wins when its result r beats the castle and the defender (who then rolls with
    ``defender_rerolls``) fails to beat r strictly. So the attacker's utility for r is
    ``[r beats castle] * (1 - p_defender_beats(r))``; ``solver`` plays it.
    """

    def __init__(self, castle: ResultLike, catapult: bool = False, defender_rerolls: int = DEFAULT_REROLLS,
                 attacker_cards: CardsLike = (), defender_cards: CardsLike = ()) -> None:
        catapult = check_bool("catapult", catapult)
        self.castle = as_result(castle, "castle")
        self.attacker_rerolls = 3 if catapult else DEFAULT_REROLLS  # L3: Catapult gives a fourth roll
        self.defender_rerolls = check_rerolls("defender_rerolls", defender_rerolls)
        attacker_cards = cards_of_mask(parse_dice_cards(attacker_cards, "attacker_cards"))
        defender_mask = parse_dice_cards(defender_cards, "defender_cards")
        # The defender simply maximises P(beat the attacker's result): one table row per result.
        self.p_defender_beats = beat_row(self.defender_rerolls, MAX_DICE, cards_of_mask(defender_mask))
        beat = beat_utility(self.castle)
        self.utility = beat * (1.0 - self.p_defender_beats)
        self.solver = Solver(self.utility, dice_cards=attacker_cards, max_rerolls=self.attacker_rerolls)
        self.p_take = self.solver.value(rerolls=self.attacker_rerolls)  # between the utility's bounds, 0 and 1
        # For comparison: an attacker who only tries to beat the castle's card.
        naive = Solver(beat, dice_cards=attacker_cards, max_rerolls=self.attacker_rerolls)
        self.p_take_naive = _probability(naive.distribution(rerolls=self.attacker_rerolls) @ self.utility)
        self.p_beat_castle = _probability(self.solver.distribution(rerolls=self.attacker_rerolls) @ beat)

    def advise(self, roll: RollLike, rerolls_left: int) -> Advice:
        """The attacker's optimal keep (maximising P(take the castle)) after ``roll``."""
        return self.solver.advise(roll, rerolls_left)

    def __repr__(self) -> str:
        return (f"CastleAttack(castle='{self.castle}', attacker_rerolls={self.attacker_rerolls}, "
                f"p_take={self.p_take:.6f}, p_take_naive={self.p_take_naive:.6f})")


def attack_castle(castle: ResultLike, *, catapult: bool = False, defender_rerolls: int = DEFAULT_REROLLS,
                  attacker_cards: CardsLike = (), defender_cards: CardsLike = ()) -> CastleAttack:
    """Solve an attack on a castle (L10); see :class:`CastleAttack`."""
    return CastleAttack(castle, catapult=catapult, defender_rerolls=defender_rerolls,
                        attacker_cards=attacker_cards, defender_cards=defender_cards)


TOURNAMENT_MODELS = ("lead", "win")


class Tournament:
    """A tournament (L11) with 2..6 players; player 0 is the organiser (three re-rolls, L3).

    Model. Everyone plays optimally for a stated goal, and the leader's result is all that a later
    player's decision depends on. With ``model="lead"`` every later player maximises the chance
    to take the lead, i.e. to end strictly stronger than the current leader (the natural myopic
    goal). With ``model="win"`` every later player maximises the chance to win the tournament:
    its utility for a result r is ``[r beats leader] * P(no player after it beats r)``, solved
    backwards from the last player (the subgame-perfect play). In both models the organiser
    maximises P(no later player beats it). Ties between equally good choices go to stopping,
    then to keeping more dice, which fixes the result distribution a later player faces.
    """

    def __init__(self, players: int = 3, champion: Optional[int] = None,
                 dice_cards: Optional[Sequence[CardsLike]] = None, model: str = "lead") -> None:
        self.players = players = check_int("players", players, 2, 6)
        if champion is not None:
            champion = check_int("champion", champion, 0, players - 1)  # L3: the organiser may hold it too
        check_choice("model", model, TOURNAMENT_MODELS)
        if dice_cards is None:
            dice_cards = [()] * players
        if not isinstance(dice_cards, (list, tuple)):
            raise ArgumentTypeError(f"dice_cards: expected a list of card sets, one per player, "
                                    f"got {type(dice_cards).__name__}", "dice_cards")
        if len(dice_cards) != players:
            raise InvalidArgumentError(f"dice_cards: expected {players} card sets (one per player), got {len(dice_cards)}",
                                       "dice_cards")
        self.model = model
        self.champion = champion
        self.masks = tuple(parse_dice_cards(c, f"dice_cards[{i}]") for i, c in enumerate(dice_cards))
        self.rerolls = tuple(3 if i == 0 or i == champion else DEFAULT_REROLLS for i in range(players))
        n, ranks = players, np.arange(NUM_RESULTS)
        above = (ranks[None, :] > ranks[:, None]).astype(float)  # above[L, r] = r beats L
        # Backwards: survive[k][L] = P(leader L is beaten by none of players k..n-1).
        survive = np.ones(NUM_RESULTS)
        self.distributions: List[np.ndarray] = [np.empty(0)] * n  # player k: [leader, final result]; organiser: [final result]
        for k in range(n - 1, 0, -1):
            goal = above * survive[None, :] if model == "win" else above
            _, dist = _lv.solve_batch(goal, self.rerolls[k], MAX_DICE, self.masks[k])
            self.distributions[k] = dist
            survive = (dist * (1.0 - above)).sum(axis=1) * survive
        self.organiser_utility = survive
        self.organiser = Solver(survive, dice_cards=cards_of_mask(self.masks[0]), max_rerolls=self.rerolls[0])
        self.distributions[0] = self.organiser.distribution(rerolls=self.rerolls[0])
        # Forwards: mass[L, p] = P(leader result L held by player p).
        mass = np.zeros((NUM_RESULTS, n))
        mass[:, 0] = self.distributions[0]
        for k in range(1, n):
            dist = self.distributions[k]
            stay = (dist * (1.0 - above)).sum(axis=1)
            taken = mass.sum(axis=1) @ (dist * above)
            mass = mass * stay[:, None]
            mass[:, k] += taken
        self.p_win = np.clip(mass.sum(axis=0), 0.0, 1.0)
        self.leader_distribution = mass.sum(axis=1)

    def advise_organiser(self, roll: RollLike, rerolls_left: int) -> Advice:
        """The organiser's optimal keep (maximising P(no later player beats it))."""
        return self.organiser.advise(roll, rerolls_left)

    def __repr__(self) -> str:
        p = ", ".join(f"{x:.4f}" for x in self.p_win)
        return f"Tournament(players={self.players}, champion={self.champion}, model='{self.model}', p_win=[{p}])"


def tournament(players: int = 3, champion: Optional[int] = None, dice_cards: Optional[Sequence[CardsLike]] = None,
               model: str = "lead") -> Tournament:
    """Solve a tournament (L11); see :class:`Tournament` for the model."""
    return Tournament(players, champion=champion, dice_cards=dice_cards, model=model)


def topple_king(rerolls: int = DEFAULT_REROLLS, dice_cards: CardsLike = ()) -> float:
    """Probability of toppling the king (L12): beating 55551 with optimal play."""
    return p_beat(KING, rerolls=rerolls, dice_cards=dice_cards)
