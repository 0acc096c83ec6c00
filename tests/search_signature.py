"""A fixed-seed signature of the search without a network, pinned in tests/test_search_network.py:
it was recorded before network-guided search existed, so a change shows that searches without a
network are no longer bit-for-bit what they were (every root move's visits, value bits and prior
bits, the line, the iterations, for several parameter sets, 2 and 4 players, and tree reuse).
rollout_signature, pinned in tests/test_search_rollout.py, does the same for the rollout's less
common paths."""
from __future__ import annotations

import hashlib
import struct

import rosen
from conftest import random_position

# Each covers a different branch of selection, expansion and evaluation.
PARAM_SETS = (
    {},
    {"rollout": "random", "rollout_cutoff": 0},
    {"prior_weight": 2.0, "minimax_weight": 0.3},
    {"reward": "margin", "rollout_cutoff": 0},
    {"margin_weight": 0.4, "exploration": 1.0, "minimax_weight": 0.0},
)


def _digest(h, result: rosen.SearchResult) -> None:
    h.update(str(result.best_move).encode() + b"|" + str(result.iterations).encode())
    for m in result.moves:
        h.update(str(m.move).encode() + struct.pack("<Qddd", m.visits, m.winrate, m.prior, m.score))
        h.update(" ".join(str(x) for x in m.pv).encode())


def search_signature() -> str:
    """Hex digest (16 digits) of the searches; every search runs on one thread with a seed."""
    h = hashlib.sha256()
    for k, params in enumerate(PARAM_SETS):
        for seed, players in ((3, 2), (8, 4), (13, 2)):
            pos = random_position(seed, players, plies=10 + 9 * k)
            # minimax_weight and rollout_cutoff at their values of that commit (the defaults since
            # differ: implicit minimax, and no cut-off in the 4-player game).
            searcher = rosen.Searcher(iterations=300, seed=seed + k,
                                      **{"minimax_weight": 0.0, "rollout_cutoff": 10, **params})
            for _ in range(3):  # three moves of one game: the later searches reuse the tree
                if pos.is_terminal:
                    break
                result = searcher.search(pos)
                _digest(h, result)
                pos = pos.play(result.best_move if not result.best_move.kind == "draw" else pos.legal_moves()[0])
                if not pos.is_terminal:
                    pos = pos.play(pos.legal_moves()[-1])
    return h.hexdigest()[:16]


# The rollout's less common paths, which the searches above do not reach: the lazy reshuffle (R7),
# parameters that are not whole points (the heuristic policy's values as fractions), extreme
# temperatures, a cut-off of one ply, and the team game's network search with half rollouts.
ROLLOUT_PARAM_SETS = (
    {"rollout_cutoff": 0},
    {"rollout_cutoff": 3, "block_weight": 0.5, "hero_cost": 12.5, "draw_value": 1.25},
    {"rollout_cutoff": 0, "temperature": 0.05},
    {"rollout_cutoff": 1, "temperature": 1000.0, "block_weight": 0.0},
    {"rollout_cutoff": 0, "reward": "margin", "margin_weight": 0.3},
)


def rollout_signature() -> str:
    """Hex digest (16 digits) of searches over ROLLOUT_PARAM_SETS, both reshuffle rules and both
    games, and of the team network's search with half rollouts; every search on one thread."""
    h = hashlib.sha256()
    cases = [(params, None) for params in ROLLOUT_PARAM_SETS] + [({"network_value_weight": 0.5}, "builtin-team")]
    for k, (params, evaluator) in enumerate(cases):
        for seed, players, reshuffle in ((5, 2, "lazy"), (6, 4, "lazy"), (7, 2, "eager"), (9, 4, "eager")):
            if evaluator and players == 2:
                continue
            pos = random_position(seed, players, reshuffle, plies=12 + 11 * k)
            if pos.is_terminal:
                continue
            result = rosen.search(pos.hide_pile_order(), iterations=400, seed=seed + k, evaluator=evaluator, **params)
            _digest(h, result)
    return h.hexdigest()[:16]


if __name__ == "__main__":
    print(search_signature(), rollout_signature())
