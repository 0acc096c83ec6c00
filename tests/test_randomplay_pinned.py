"""Random-play totals pinned to the values of commit 4e9f30e (before the fast playout loop): the
fast loop must play every game exactly as the generic legal_moves/apply_move loop did, taking the
same numbers from the generator in the same order, so the totals for a seed never change."""
from __future__ import annotations

import pytest

import rosen

# (players, reshuffle) -> red_wins, white_wins, draws, plies, blockades for 200 000 games, seed 7.
PINNED = {
    (2, "eager"): (106340, 93217, 443, 22587794, 89360),
    (2, "lazy"): (106100, 93402, 498, 22615172, 88196),
    (4, "eager"): (106158, 93498, 344, 24305655, 53067),
    (4, "lazy"): (106095, 93594, 311, 24312947, 53478),
}


@pytest.mark.parametrize("players,reshuffle", sorted(PINNED))
def test_random_play_totals_unchanged(players, reshuffle):
    st = rosen.random_play(200_000, seed=7, players=players, reshuffle=reshuffle, threads=2)
    assert (st.red_wins, st.white_wins, st.draws, st.plies, st.blockades) == PINNED[players, reshuffle]
