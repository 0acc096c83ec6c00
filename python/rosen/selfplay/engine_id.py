"""Which engine wrote a self-play run: a fingerprint of the core's behaviour.

A run resumed by another build of rosen (a rebuilt core whose searches or network evaluation
round differently, say) would mix two engines' data in one run, and on a Ray cluster a node with
another install would do so within one run; the version number does not change with every
build. The fingerprint hashes what the engine computes: the engine ``bench`` workload (move
generation, the search and tree reuse), seeded random play (the deal and the rules), both
shipped networks' outputs on a few positions (the evaluation code), and a few self-play games
with every exploration option on and a network-guided search (the self-play code itself: its
move sampling, noise, playout caps and rows). It takes about half a second, once per process.
"""
from __future__ import annotations

import functools
import hashlib

from .. import _core

#: Positions whose network outputs enter the fingerprint: fresh deals of 2 and 4 players.
_DEALS = ((2, 0), (2, 1), (2, 2), (4, 0), (4, 1))


@functools.lru_cache(maxsize=None)
def engine_fingerprint() -> str:
    """16 hex digits that change when what the engine computes changes (cached per process)."""
    from ..engine.bench import bench
    from ..learning.evaluator import Evaluator
    from ..randomplay import random_play
    from .generate import generate

    digest = hashlib.sha256()
    digest.update(f"bench {bench().signature:016x};".encode())
    played = random_play(500, seed=7, players=2)
    team = random_play(200, seed=7, players=4, reshuffle="lazy")
    for st in (played, team):
        digest.update(repr((st.red_wins, st.white_wins, st.draws, st.plies, st.blockades)).encode())
    for players, name in ((2, "builtin"), (4, "builtin-team")):
        positions = [_core.Position.new(seed, players=p) for p, seed in _DEALS if p == players]
        out = Evaluator(name).evaluate(positions)
        for array in (out.policy, out.wdl, out.margin):
            digest.update(array.tobytes())
        batch = generate(1, seed=7, players=players, agent=f"mcts:iterations=24,evaluator={name}", temperature_plies=6,
                         dirichlet_fraction=0.25, full_search_probability=0.5, cheap_iterations=8, record_cheap=True)
        for column in sorted(batch.rows):
            digest.update(column.encode() + batch.rows[column].tobytes())
        digest.update(repr([g["moves"] for g in batch.games]).encode())
    return digest.hexdigest()[:16]
