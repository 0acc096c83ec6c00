"""Perft: the number of move sequences of each length from fixed positions, each card a draw can
yield counted as a branch. Pinned in tests/golden/perft.json (regenerate with
tests/golden/regenerate.py) and checked independently against the plain reference rules."""
from __future__ import annotations

import json
import pathlib

import pytest

import rosen
from reference.rules import RefState

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "perft.json").read_text())


def reference_perft(state: RefState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        if move == "draw":
            for card in state.draw_outcomes():
                total += reference_perft(state.apply("draw:" + card), depth - 1)
        else:
            total += reference_perft(state.apply(move), depth - 1)
    return total


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_perft_matches_golden(case):
    pos = rosen.Position(case["position"], reshuffle=case["reshuffle"])
    assert [pos.perft(d) for d in range(len(case["counts"]))] == case["counts"]


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_perft_matches_reference_rules(case):
    state = RefState.from_notation(case["position"], reshuffle=case["reshuffle"])
    depth = min(3, len(case["counts"]) - 1)
    assert reference_perft(state, depth) == case["counts"][depth]


def test_perft_of_finished_game_is_zero_beyond_depth_zero():
    pos = rosen.Position("9/9/9/9/9/9/9/9/r8 a1 r S1,S2,S3,W1,W2 W3,SW1,SW2,SW3,NW1 4 4 - *")
    assert pos.is_terminal
    assert [pos.perft(d) for d in range(3)] == [1, 0, 0]


def test_perft_rejects_bad_depth():
    with pytest.raises(ValueError, match="depth"):
        rosen.Position.new().perft(-1)
