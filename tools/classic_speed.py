"""Speed of the classic searchers (docs/classic.md): nodes, milliseconds per move and nodes per
second from a few positions of one game, 2 and 4 players.

    python tools/classic_speed.py [--repeat 20]

The positions are plies 0, 10, 20, 30 and 40 of `alphabeta:depth=4` playing itself (seeds 1 and
2) on the deal `Position.new(1)`. Times are the searches' own (C++, one thread), the median of
`--repeat` fresh searchers (the expectimax's 16 MiB table is allocated before the clock starts).
"""
from __future__ import annotations

import argparse
import statistics

import rosen
from rosen import _core
from rosen.agents import AlphaBetaAgent

PLIES = (0, 10, 20, 30, 40)


def game_positions(players):
    agents = {"red": AlphaBetaAgent(depth=4, seed=1), "white": AlphaBetaAgent(depth=4, seed=2)}
    pos, out = rosen.Position.new(1, players=players), []
    for ply in range(max(PLIES) + 1):
        if pos.is_terminal:
            break
        if ply in PLIES:
            out.append((ply, pos))
        pos = pos.play(agents[pos.colour_to_move].choose(pos.hide_pile_order()))
    return out


def measure(make, pos, repeat):
    times, result = [], None
    for _ in range(repeat):
        searcher = make()
        if isinstance(searcher, _core._Expectimax):
            searcher.search(pos)   # allocates the table; then start again with an empty one
            searcher.reset()
        result = searcher.search(pos)
        times.append(result.time_ms)
    return result, statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--repeat", type=int, default=20,
                        help="runs of each alpha-beta search, median taken (default 20)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat: expected >= 1, got {args.repeat}")
    searchers = [
        ("alphabeta depth 4", lambda: _core._AlphaBeta(depth=4, seed=3), args.repeat),
        ("alphabeta depth 7", lambda: _core._AlphaBeta(depth=7, seed=3), args.repeat),
        ("expectimax depth 4", lambda: _core._Expectimax(depth=4), 3),
        ("expectimax depth 6", lambda: _core._Expectimax(depth=6), 1),
        ("expectimax time_ms=200", lambda: _core._Expectimax(time_ms=200), 1),
    ]
    print("| searcher | players | ply | legal moves | pile | depth | nodes | ms | nodes/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, make, repeat in searchers:
        totals = [0, 0.0]
        for players in (2, 4):
            for ply, pos in game_positions(players):
                result, ms = measure(make, pos, repeat)
                totals[0] += result.nodes
                totals[1] += ms
                print(f"| {name} | {players} | {ply} | {len(pos.legal_moves())} | {pos.pile_size} | {result.depth} | "
                      f"{result.nodes:,} | {ms:.3f} | {result.nodes / max(ms, 1e-6) * 1000:,.0f} |")
        print(f"| **{name}, all** | | | | | | {totals[0]:,} | {totals[1]:.3f} | "
              f"**{totals[0] / max(totals[1], 1e-6) * 1000:,.0f}** |")


if __name__ == "__main__":
    main()
