"""Quick strength matches for the MCTS search (docs/search.md records the results).

    python tools/search_strength.py --a "iterations=1000" --b random --games 200
    python tools/search_strength.py --a "iterations=10000" --b "iterations=10000,rollout='random'" --games 100

A side is `random` (uniformly random legal moves), `greedy` (maximise own score minus the
opponent's right after the move; ties at random) or keyword arguments of rosen.SearchParams.
Game i is the deal Position.new(seed=base + i // 2) with A as Red for even i and as White for odd
i, so each deal is played from both sides. A persistent Searcher per side reuses its tree.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time

import rosen


def make_player(spec: str, seed: int):
    rng = random.Random(seed)
    if spec == "random":
        return lambda pos: rng.choice(pos.legal_moves())
    if spec == "greedy":
        def greedy(pos):
            me = 0 if pos.turn.startswith("r") else 1
            best, best_moves = None, []
            for m in pos.legal_moves():
                s = pos.scores if m.kind == "draw" else pos.play(m).scores  # a draw changes no score
                v = s[me] - s[1 - me]
                if best is None or v > best:
                    best, best_moves = v, [m]
                elif v == best:
                    best_moves.append(m)
            return rng.choice(best_moves)
        return greedy
    kwargs = eval(f"dict({spec})")  # a trusted command line of this tool only
    kwargs.setdefault("seed", seed)
    searcher = rosen.Searcher(**kwargs)
    return lambda pos: searcher.search(pos).best_move


def play_game(deal_seed: int, red, white, players: int = 2) -> str:
    pos = rosen.Position.new(deal_seed, players=players)
    sides = [red, white]
    while not pos.is_terminal:
        pos = pos.play(sides[0 if pos.turn.startswith("r") else 1](pos))
    return pos.winner


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--base", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    wins = draws = losses = 0
    start = time.time()
    for i in range(args.games):
        a = make_player(args.a, 2 * i)
        b = make_player(args.b, 2 * i + 1)
        a_red = i % 2 == 0
        winner = play_game(args.base + i // 2, a if a_red else b, b if a_red else a, args.players)
        if winner == "draw":
            draws += 1
        elif (winner == "red") == a_red:
            wins += 1
        else:
            losses += 1
        n = i + 1
        score = (wins + 0.5 * draws) / n
        sd = math.sqrt(max(score * (1 - score), 0.25 / n) / n)
        print(f"{n:4d} A {wins}-{draws}-{losses} score {score:.3f} +-{sd:.3f} elo {elo(score):+.0f} "
              f"[{elo(score - 2 * sd):+.0f}, {elo(score + 2 * sd):+.0f}] {time.time() - start:.0f}s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
