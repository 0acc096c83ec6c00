"""A stand-in for rosen's MCTS search with the same Python face, for testing the code around it.

``install(monkeypatch)`` puts ``Searcher``, ``SearchParams`` and ``search`` on the ``rosen``
package; the fake "search" plays the greedy move and reports fixed figures, so what the agents,
the match report and ``hint`` do with a search result can be checked without the real engine.
"""
from dataclasses import dataclass, field
from typing import List

import rosen
from rosen.agents import GreedyAgent

KNOWN = {"iterations", "time_ms", "exploration", "rollout", "rollout_cutoff", "reward", "margin_weight", "threads",
         "seed", "max_nodes", "temperature", "hero_cost", "draw_value", "eval_scale"}


@dataclass
class FakeMoveInfo:
    move: rosen.Move
    visits: int
    winrate: float
    prior: float = 0.0
    score: float = 0.0


@dataclass
class FakeResult:
    best_move: rosen.Move
    moves: List[FakeMoveInfo] = field(default_factory=list)
    pv: List[rosen.Move] = field(default_factory=list)
    depth: int = 3
    seldepth: int = 7
    nodes: int = 500
    iterations: int = 400
    nps: float = 50_000.0
    time_ms: float = 10.0
    winrate: float = 0.625
    score: float = 4.0


def fake_params(**params):
    unknown = set(params) - KNOWN
    if unknown:
        raise TypeError(f"SearchParams() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    if params.get("iterations", 1) < 0:
        raise ValueError("iterations: expected a non-negative number")
    return params


class FakeSearcher:
    instances: List["FakeSearcher"] = []

    def __init__(self, **params):
        self.params = fake_params(**params)
        self.searches = 0
        self.resets = 0
        FakeSearcher.instances.append(self)

    def search(self, position):
        self.searches += 1
        return fake_search(position, **self.params)

    def reset(self):
        self.resets += 1

    def stop(self):
        pass


def fake_search(position, **params):
    fake_params(**params)
    best = GreedyAgent(seed=params.get("seed", 0)).choose(position)
    moves = [FakeMoveInfo(m, 300 if m == best else 10, 0.625 if m == best else 0.4) for m in position.legal_moves()]
    moves.sort(key=lambda info: -info.visits)  # most visited first, as the real search reports them
    return FakeResult(best_move=best, moves=moves, pv=[best])


def install(monkeypatch):
    FakeSearcher.instances = []
    monkeypatch.setattr(rosen, "Searcher", FakeSearcher, raising=False)
    monkeypatch.setattr(rosen, "SearchParams", fake_params, raising=False)
    monkeypatch.setattr(rosen, "search", fake_search, raising=False)
