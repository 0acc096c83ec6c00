"""R14: what a player is handed holds nothing of the pile's order, and a player names no card.

The search's own independence of the order is tests/test_search_hidden_info.py; these tests are
about the copies handed out (`Position.hide_pile_order()`, the game loop's views) and the game
loop's refusal of a chosen card (docs/reliability.md, F76).
"""
from __future__ import annotations

import pickle
import re

import pytest

import rosen
from rosen.agents import Agent, RandomAgent
from rosen.match import play_game
from search_positions import midgame, pile_variants


@pytest.mark.parametrize("players, plies", [(2, 0), (2, 17), (4, 9)])
def test_R14_a_hidden_copy_is_the_same_for_every_pile_order_and_deal_seed(players, plies):
    # The hidden copy once kept the position's draw generator, seeded by Position.new from the deal
    # seed and pickled with it: a player could recover the seed, and from it the whole pile.
    pos = midgame(seed=31, plies=plies, players=players)
    variants = pile_variants(pos) + [rosen.Position(pos.fen(), seed=s) for s in (1, 2**63)]
    hidden = [v.hide_pile_order() for v in variants]
    assert len({pickle.dumps(h) for h in hidden}) == 1
    # ... and it is the position line's own hidden reading, with seed 0
    assert pickle.dumps(hidden[0]) == pickle.dumps(rosen.Position(pos.fen(hide_pile_order=True)))
    if hidden[0].is_legal("draw"):  # a plain draw from it deals the same card whatever the truth
        assert len({str(h.play("draw").hands) for h in hidden}) == 1


def test_R14_a_fresh_deal_hidden_says_nothing_of_its_seed():
    views = {pickle.dumps(rosen.Position.new(seed).hide_pile_order()) for seed in (5, 6)}
    assert len(views) == 2  # different hands ...
    same_hands = rosen.Position.new(5)
    reordered = rosen.Position(" ".join(same_hands.fen().split(" ")[:-1] + [
        ",".join(reversed(same_hands.draw_pile))]), seed=6)
    assert pickle.dumps(same_hands.hide_pile_order()) == pickle.dumps(reordered.hide_pile_order())


class _Recorder(Agent):
    """A random player that keeps every view it is handed."""

    def __init__(self, seed: int, views: list) -> None:
        self._inner = RandomAgent(seed=seed)
        self._views = views

    @property
    def name(self) -> str:
        return "recorder"

    def choose(self, position):
        self._views.append(position)
        return self._inner.choose(position)


@pytest.mark.parametrize("players, reshuffle", [(2, "eager"), (2, "lazy"), (4, "eager")])
def test_R14_every_view_the_game_loop_hands_out_is_public(players, reshuffle):
    views: list = []
    play_game(_Recorder(1, views), _Recorder(2, views), seed=77, players=players, reshuffle=reshuffle)
    assert len(views) > 40
    for view in views:
        public = rosen.Position(view.fen(), reshuffle=reshuffle)
        assert view.fen().split(" ")[-1] in ("*", "-")
        assert pickle.dumps(view) == pickle.dumps(public)


class _Picker(RandomAgent):
    """Names the card it wants whenever it draws."""

    def __init__(self, card: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.card = card

    def choose(self, position):
        move = super().choose(position)
        return f"draw:{self.card}" if move.kind == "draw" else move


@pytest.mark.parametrize("card", ["N1", "SE3"])
def test_R14_a_player_that_names_its_card_is_refused_without_the_top_card_named(card):
    with pytest.raises(rosen.InvalidArgumentError) as caught:
        play_game(_Picker(card, seed=3), RandomAgent(seed=4), seed=8)
    message = str(caught.value)
    assert caught.value.field == "red"
    assert message.startswith(f"red agent _Picker(seed=3) chose 'draw:{card}'") and "the move is 'draw'" in message
    # Once the true position refused it, naming the card on top of the pile.
    named = set(re.findall(r"\b(?:NE|NW|SE|SW|N|E|S|W)[123]\b", message))
    assert named == {card}


class _Shouting(RandomAgent):
    """Answers in capitals: 'DRAW' is a plain draw, dealt like any other."""

    def choose(self, position):
        return str(super().choose(position)).upper()


@pytest.mark.parametrize("reshuffle", ["eager", "lazy"])
def test_a_draw_in_any_case_is_dealt_by_the_dealer(reshuffle):
    # 'DRAW' once went past the dealer to the true position's own generator: after a reshuffle it
    # drew another card than the pair's other game would, and the match was no longer paired.
    quiet = play_game(RandomAgent(seed=5), RandomAgent(seed=6), seed=9, reshuffle=reshuffle)
    loud = play_game(_Shouting(seed=5), _Shouting(seed=6), seed=9, reshuffle=reshuffle)
    assert sum(m.startswith("draw:") for m in quiet.moves) > len(rosen.Position.new(9).draw_pile)
    assert loud.moves == quiet.moves


class _AlwaysDraw(RandomAgent):
    """Draws even with a full hand."""

    def choose(self, position):
        return rosen.Move("draw")


def test_R14_an_illegal_draw_is_refused_as_a_draw_without_the_top_card():
    # The dealer answered a plain draw with the known pile's top card before its legality was
    # checked: the refusal then named "draw:<top card>", a card the agent never chose.
    deal = rosen.Position.new(11)
    with pytest.raises(rosen.InvalidArgumentError) as caught:
        play_game(_AlwaysDraw(seed=1), RandomAgent(seed=2), seed=11)  # red's hand is full at the deal
    message = str(caught.value)
    assert message.startswith("red agent _AlwaysDraw(seed=1) chose 'draw': ")
    assert "legal moves: " + ", ".join(str(m) for m in deal.legal_moves()) in message
    assert not re.search(r"draw:", message)
    with pytest.raises(rosen.InvalidArgumentError, match="^position: draw is not legal here"):
        rosen.match.Dealer(11).card(deal)
