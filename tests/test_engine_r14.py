"""R14 over the protocol: a position given with its draw pile's order and the same position with
`*` give the same search (bestmove and analysis, apart from time and nps) for a fixed Seed, one
thread and `go nodes N`: the engine never reads the pile's order."""
from __future__ import annotations

import random

import pytest

import rosen
from engine_helpers import InProcessEngine, final_block, start_engine, without_clock


def midgame(seed: int, players: int, plies: int) -> rosen.Position:
    """A seeded deal played on by random legal moves (draws from the deal's known pile)."""
    rng = random.Random(seed)
    pos = rosen.Position.new(seed, players=players)
    for _ in range(plies):
        if pos.is_terminal:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def analysis(text: str, nodes: int = 1500) -> list:
    eng = InProcessEngine()
    eng.send("setoption name Seed value 42", "setoption name MultiPV value 4", f"position fen {text}")
    lines = eng.search(f"go nodes {nodes}")
    eng.close()
    return [without_clock(line) for line in final_block(lines)]


@pytest.mark.parametrize("seed, players, plies", [(1, 2, 0), (2, 2, 9), (3, 2, 24), (4, 4, 0), (5, 4, 12)])
def test_r14_pile_order_does_not_change_the_search(seed, players, plies):
    pos = midgame(seed, players, plies)
    assert pos.draw_pile is not None and len(pos.draw_pile) > 1
    explicit = pos.fen()
    hidden = pos.fen(hide_pile_order=True)
    reordered = " ".join(explicit.split()[:-1] + [",".join(reversed(pos.draw_pile))])
    assert hidden.endswith(" *") and reordered != explicit
    a, b, c = analysis(explicit), analysis(hidden), analysis(reordered)
    assert a == b == c
    assert a[-2].startswith("info multipv") and a[-1].startswith("bestmove")


def test_r14_through_the_pipe():
    pos = midgame(6, 2, 12)
    results = []
    for text in (pos.fen(), pos.fen(hide_pile_order=True)):
        with start_engine(options={"Seed": 3, "Threads": 1}) as client:
            client.send(f"position fen {text}")
            results.append(client.go(iterations=2500))
    (a, b) = results
    assert a.move == b.move
    assert [without_clock(x) for x in final_block(a.info.lines)] == [without_clock(x) for x in final_block(b.info.lines)]
