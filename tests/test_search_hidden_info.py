"""R14: the search never reads the order of the draw pile.

Positions that differ only in the pile's order -- two different explicit orders, and '*' (order
unknown) -- must give identical searches for the same seed: same visits, values, line and tree.
"""
from __future__ import annotations

import pytest

import rosen
from search_positions import midgame, pile_variants


def signature(result: rosen.SearchResult):
    return (repr(result.moves), [str(m) for m in result.pv], result.tree_size, result.depth, result.seldepth)


@pytest.mark.parametrize("rollout, minimax_weight", [("random", 0.0), ("heuristic", 0.0), ("heuristic", 0.3)])
@pytest.mark.parametrize("players, plies", [(2, 0), (2, 15), (4, 10)])
def test_R14_search_is_independent_of_the_draw_pile_order(rollout, minimax_weight, players, plies):
    pos = midgame(seed=21, plies=plies, players=players)
    variants = pile_variants(pos)
    assert len({v.fen() for v in variants}) == 4  # really different positions
    results = [rosen.search(v, iterations=2000, seed=6, rollout=rollout, minimax_weight=minimax_weight)
               for v in variants]
    assert len({repr(signature(r)) for r in results}) == 1


def test_R14_draw_is_searched_as_a_chance_event():
    # With a short hand the draw is a real option: its value is an average over the cards the
    # pile can yield, whichever card is on top.
    pos = midgame(seed=21, plies=15)
    assert any(m.kind == "draw" for m in pos.legal_moves())
    results = [rosen.search(v, iterations=3000, seed=2) for v in pile_variants(pos)]
    draws = [next(m for m in r.moves if m.move.kind == "draw") for r in results]
    assert draws[0].visits > 0 and len({(d.visits, d.winrate) for d in draws}) == 1


def test_R14_reused_tree_is_independent_of_the_pile_order():
    # Tree reuse after a known draw must also not depend on the order of the remaining pile.
    # Here Red's only move is to draw, so the search spreads its visits over the cards.
    pos = midgame(seed=21, plies=15).hide_pile_order().play("draw:N1")
    assert [str(m) for m in pos.legal_moves()] == ["draw"]
    out = []
    for v in pile_variants(pos):
        s = rosen.Searcher(iterations=1500, seed=3)
        s.search(v)
        # The same card for every variant: a frontend deals it; the engine's view has no order.
        after = v.hide_pile_order().play("draw:" + pos.pile_cards[0])
        result = s.search(after)
        assert result.reused_visits > 0
        out.append(signature(result))
    assert len({repr(o) for o in out}) == 1
