"""Differential test: the engine (rosen.Position) against the pure-Python reference
(tests/reference/rules.py), over 2000 seeded random games (R1-R14 as exercised by play).

Per configuration (2 or 4 players x "eager" or "lazy" reshuffle, R7, R13) 500 games are dealt by
the engine and played to the end with moves chosen by a seeded random.Random. At every ply:
  - the engine's fen() parsed by the reference and printed again equals fen();
  - legal move sets, terminal flags, scores, winners and (when "draw" is legal) the sets of
    cards a draw can yield are equal, and the draw probabilities are uniform;
  - after the same move on both sides, the reference's to_notation() equals the engine's fen().
Odd seeds start from the dealt position with the pile order hidden (last field "*").
"""
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference.rules import RefState  # noqa: E402

import rosen  # noqa: E402

GAMES = 500
MAX_PLIES = 5000  # a game always ends far sooner; guards against an endless loop
CONFIGS = [(2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy")]


def play_one_game(seed, players, reshuffle):
    pos = rosen.Position.new(seed=seed, players=players, reshuffle=reshuffle)
    fen = pos.fen()
    hidden = seed % 2 == 1
    if hidden:
        fields = fen.split()
        if fields[-1] not in ("*", "-"):
            fields[-1] = "*"
            text = " ".join(fields)
            pos = rosen.Position(text, reshuffle=reshuffle)
            fen = pos.fen()
            assert fen == text, (f"seed={seed} players={players} reshuffle={reshuffle}: "
                                 f"hidden-pile position {text!r} reads back as {fen!r}")
    rng = random.Random(f"{seed}/{players}/{reshuffle}")
    where = ""
    for ply in range(MAX_PLIES):
        where = (f"players={players} reshuffle={reshuffle} seed={seed} hidden={hidden} "
                 f"ply={ply} position={fen!r}")
        ref = RefState.from_notation(fen, reshuffle)
        printed = ref.to_notation()
        assert printed == fen, f"{where}: the reference prints it back as {printed!r}"

        engine_list = [str(m) for m in pos.legal_moves()]
        engine_moves = set(engine_list)
        ref_moves = ref.legal_moves()
        assert len(engine_list) == len(engine_moves), f"{where}: duplicate moves {engine_list}"
        assert engine_moves == ref_moves, (
            f"{where}: legal moves engine-only {sorted(engine_moves - ref_moves)} "
            f"reference-only {sorted(ref_moves - engine_moves)}")

        terminal = ref.is_terminal()
        assert pos.is_terminal == terminal, f"{where}: terminal, reference {terminal}"
        ref_scores = ref.scores()
        assert tuple(pos.scores) == ref_scores, (
            f"{where}: scores engine {tuple(pos.scores)} reference {ref_scores}")
        ref_winner = ref.winner()
        assert pos.winner == ref_winner, (
            f"{where}: winner engine {pos.winner!r} reference {ref_winner!r}")
        if terminal:
            return ply

        outcomes = None
        if "draw" in ref_moves:
            outcomes = [(str(card).upper(), float(p)) for card, p in pos.draw_outcomes()]
            cards = {card for card, _ in outcomes}
            ref_cards = ref.draw_outcomes()
            assert cards == ref_cards and len(outcomes) == len(cards), (
                f"{where}: draw outcomes engine {sorted(cards)} reference {sorted(ref_cards)}")
            for card, p in outcomes:
                assert abs(p - 1.0 / len(outcomes)) < 1e-9, f"{where}: P({card}) = {p}"

        move = rng.choice(sorted(ref_moves))
        if move == "draw":
            move = "draw:" + rng.choice(sorted(card for card, _ in outcomes))
        where += f" move={move!r}"
        nxt = ref.apply(move)
        pos = pos.play(move)
        fen = pos.fen()
        expected = nxt.to_notation()
        assert fen == expected, f"{where}: after the move engine {fen!r} reference {expected!r}"
    raise AssertionError(f"{where}: no end after {MAX_PLIES} plies")


@pytest.mark.parametrize("players,reshuffle", CONFIGS,
                         ids=[f"{p}p-{r}" for p, r in CONFIGS])
def test_engine_matches_reference(players, reshuffle):
    for seed in range(GAMES):
        play_one_game(seed, players, reshuffle)
