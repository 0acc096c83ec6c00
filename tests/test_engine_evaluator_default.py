"""The frontends' default evaluator ("auto"): the shipped network of the game being played
("builtin" with 2 players, "builtin-team" with 4), in rosen analyse / play, the protocol's EvalFile
and rosen serve alike."""
from __future__ import annotations

import io
import json
import os
import sys

import pytest

import rosen
from engine_helpers import InProcessEngine, final_block
from rosen.cli import main
from rosen.encoding import action_index
from rosen.errors import InvalidArgumentError
from rosen.learning import builtin_network_path
from rosen.learning.evaluator import as_evaluator
from rosen.search import AUTO_EVALUATOR, engine_evaluator
from search_positions import midgame


def test_auto_is_the_shipped_network_of_the_game():
    builtin, team = as_evaluator("builtin"), as_evaluator("builtin-team")
    assert builtin is not team and builtin.network.source != team.network.source
    assert engine_evaluator(AUTO_EVALUATOR, 2) is builtin  # read once, shared
    assert engine_evaluator("AUTO", 2) is builtin
    assert engine_evaluator(AUTO_EVALUATOR, 4) is team
    assert engine_evaluator("builtin", 4) is builtin  # asked for by name: used in any game
    assert engine_evaluator("builtin-team", 2) is team
    for none in (None, "", "none", "None"):
        assert engine_evaluator(none, 2) is None
    with pytest.raises(InvalidArgumentError, match="no-such-network.npz"):
        engine_evaluator("/nowhere/no-such-network.npz", 2)
    assert repr(builtin) == "Evaluator('builtin')" and repr(team) == "Evaluator('builtin-team')"


def _analyse(capsys, *argv: str) -> dict:
    assert main(["analyse", "--json", "--iterations", "300", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def _search_view(result: rosen.SearchResult) -> dict:
    return {"best_move": str(result.best_move), "pv": [str(m) for m in result.pv],
            "moves": [(str(m.move), m.visits, round(m.prior, 6)) for m in result.moves]}


def _analysis_view(out: dict) -> dict:
    return {"best_move": out["best_move"], "pv": out["pv"],
            "moves": [(m["move"], m["visits"], round(m["prior"], 6)) for m in out["moves"]]}


def test_analyse_searches_with_the_network_by_default(capsys):
    pos = rosen.Position.new(0)
    shipped = f"network {os.path.basename(builtin_network_path())}"  # rosen-v2-gen<N>.npz
    shipped_team = f"network {os.path.basename(builtin_network_path('builtin-team'))}"
    default = _analyse(capsys, "--multipv", "20")
    assert default["evaluator"] == shipped
    # The same search as rosen.search with the shipped network, move for move and visit for visit.
    assert _analysis_view(default) == _search_view(rosen.search(pos, iterations=300, evaluator="builtin"))
    rollouts = _analyse(capsys, "--multipv", "20", "--evaluator", "none")
    assert rollouts["evaluator"] == "rollouts"
    assert _analysis_view(rollouts) == _search_view(rosen.search(pos, iterations=300))
    assert _analyse(capsys, "--players", "4")["evaluator"] == shipped_team
    assert _analyse(capsys, "--players", "4", "--evaluator", "none")["evaluator"] == "rollouts"
    assert _analyse(capsys, "--players", "4", "--evaluator", "builtin")["evaluator"] == shipped


def test_a_bad_evaluator_exits_2_naming_the_option(capsys):
    assert main(["analyse", "--evaluator", "/nowhere/no-such-network.npz"]) == 2
    assert "--evaluator" in capsys.readouterr().err


def test_play_faces_the_network_unless_told(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--iterations", "50"]) == 0
    assert "against MCTSAgent(iterations=50, evaluator=Evaluator('builtin'))" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--iterations", "50", "--players", "4"]) == 0
    assert "against MCTSAgent(iterations=50, evaluator=Evaluator('builtin-team'))" in capsys.readouterr().out
    for argv in (["--evaluator", "none"], ["--players", "4", "--evaluator", "none"]):
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        assert main(["play", "--iterations", "50", *argv]) == 0
        assert "against MCTSAgent(iterations=50)." in capsys.readouterr().out


def _root_priors(block: list) -> dict:
    priors = {}
    for line in block[1:-1]:  # the info multipv lines carry the root's priors
        words = line.split()
        priors[words[words.index("move") + 1]] = float(words[words.index("prior") + 1])
    return priors


def test_protocol_eval_file_defaults_to_auto():
    eng = InProcessEngine()
    try:
        assert "option name EvalFile type string default auto" in eng.send("ugi")
        eng.send("setoption name MultiPV value 12")
        pos = midgame(seed=4, plies=6)
        eng.send(f"position fen {pos.fen(hide_pile_order=True)}")
        policy = as_evaluator("builtin").evaluate(pos).policy
        priors = _root_priors(final_block(eng.search("go nodes 400")))
        assert priors and all(p == pytest.approx(float(policy[action_index(m)]), abs=1e-4) for m, p in priors.items())
        # The 4-player game searches with the team network: its priors, not the 2-player network's.
        four = midgame(seed=4, plies=6, players=4)
        eng.send(f"position fen {four.fen(hide_pile_order=True)}")
        team = as_evaluator("builtin-team").evaluate(four).policy
        priors = _root_priors(final_block(eng.search("go nodes 400")))
        assert priors and all(p == pytest.approx(float(team[action_index(m)]), abs=1e-4) for m, p in priors.items())
        two_player = as_evaluator("builtin").evaluate(four).policy
        assert any(p != pytest.approx(float(two_player[action_index(m)]), abs=1e-4) for m, p in priors.items())
        # EvalFile none: rollouts, the heuristic's priors.
        eng.send("setoption name EvalFile value none")
        heuristic = {str(m.move): m.prior for m in rosen.search(four, iterations=400).moves}
        priors = _root_priors(final_block(eng.search("go nodes 400")))
        assert priors and all(p == pytest.approx(heuristic[m], abs=1e-4) for m, p in priors.items())
    finally:
        eng.close()


def test_web_searchers_follow_auto():
    from rosen.web.sessions import new_searcher

    assert new_searcher(0, 2).key[3] is as_evaluator("builtin")
    assert new_searcher(0, 4).key[3] is as_evaluator("builtin-team")
