"""The search's rollout loop (cpp/search/rollout.cpp) plays exactly the games of the plain loop it
replaced (legal_moves, move values, softmax, sample, apply_draw's blockade test after every draw):
the searches of tests/search_signature.py are bit for bit what they were before it."""
from __future__ import annotations

from search_signature import rollout_signature

# Recorded at commit 22757ce, with the plain loop, before the rollout loop was rewritten;
# re-recorded for F79's double-precision means (tests/test_search_network.py says what changed).
ROLLOUT_SIGNATURE = "c1e5aae01fc5572a"


def test_rollouts_play_the_games_of_the_plain_loop():
    # R7 (lazy reshuffle), fractional and whole policy values, extreme temperatures, both games.
    assert rollout_signature() == ROLLOUT_SIGNATURE
