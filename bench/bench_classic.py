"""Speed of the classic searchers (cpp/classic/, docs/classic.md): nodes per second on one core.

Run with `pytest bench/bench_classic.py --benchmark-only`. Each benchmark asserts its result;
speeds are reported (``extra_info``, printed with ``-s``), never asserted: the machine is shared.
The positions are plies 0-40 of one alpha-beta self-play game (tools/classic_speed.py prints the
per-position table of docs/classic.md).
"""
from __future__ import annotations

import rosen
from rosen import _core
from rosen.agents import AlphaBetaAgent


def _positions():
    agents = {"red": AlphaBetaAgent(depth=4, seed=1), "white": AlphaBetaAgent(depth=4, seed=2)}
    pos, out = rosen.Position.new(1), []
    for ply in range(41):
        if ply % 10 == 0:
            out.append(pos)
        pos = pos.play(agents[pos.colour_to_move].choose(pos.hide_pile_order()))
    return out


POSITIONS = _positions()


def _run(make):
    nodes = 0
    for pos in POSITIONS:
        result = make().search(pos)
        assert pos.is_legal(result.best_move)
        nodes += result.nodes
    return nodes


def _report(benchmark, name, nodes):
    rate = nodes / benchmark.stats.stats.min
    benchmark.extra_info["nodes_per_second"] = rate
    print(f"\n{name}: {nodes:,} nodes over {len(POSITIONS)} positions, {rate:,.0f} nodes/s "
          f"(wall, Python calls included), {benchmark.stats.stats.min / len(POSITIONS) * 1000:.3f} ms/move")


def test_alphabeta_depth_7_speed(benchmark):
    nodes = benchmark.pedantic(_run, args=(lambda: _core._AlphaBeta(depth=7, seed=3),), rounds=20, iterations=1)
    _report(benchmark, "alphabeta depth 7", nodes)


def test_expectimax_depth_5_speed(benchmark):
    nodes = benchmark.pedantic(_run, args=(lambda: _core._Expectimax(depth=5, tt_mb=0),), rounds=3, iterations=1)
    _report(benchmark, "expectimax depth 5, no table", nodes)
