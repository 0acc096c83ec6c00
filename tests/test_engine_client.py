"""rosen.engine_client: info parsing, the client's waits and errors, and EngineAgent."""
from __future__ import annotations

import sys

import pytest

import rosen
from engine_helpers import ENGINE_COMMAND, start_engine
from rosen.engine_client import EngineAgent, EngineClient, EngineError, parse_info


def test_parse_info_root_line():
    info = parse_info("info depth 5.31 seldepth 10 nodes 3000 nps 54331 time 55 winrate 0.5491 score -17.41 "
                      "tree 5654 pv W1 NE1 draw")
    assert info == {"depth": 5.31, "seldepth": 10, "nodes": 3000, "nps": 54331, "time": 55, "winrate": 0.5491,
                    "score": -17.41, "tree": 5654, "pv": ["W1", "NE1", "draw"]}


def test_parse_info_candidate_unknown_fields_and_strings():
    info = parse_info("info multipv 2 move H:S2 visits 7 hashfull 12 winrate 0.25 score 3 prior 0.1 pv H:S2")
    assert info["multipv"] == 2 and info["move"] == "H:S2" and info["hashfull"] == "12" and info["pv"] == ["H:S2"]
    assert parse_info("info string error: what was wrong") == {"string": "error: what was wrong"}
    with pytest.raises(ValueError, match="line"):
        parse_info("bestmove N1")


def test_play_and_analyse_with_multipv():
    with start_engine() as client:
        result = client.play(rosen.Position.new(2), nodes=400)
        assert rosen.Position.new(2).is_legal(result.move)
        assert result.info.nodes == 400 and 0 <= result.info.winrate <= 1
        assert result.info.pv[0] == str(result.move)
        analysis = client.analyse("startpos seed 2 players 4", nodes=600, multipv=3)
        assert [c["multipv"] for c in analysis.candidates] == [1, 2, 3]
        assert analysis.candidates[0]["move"] == analysis.pv[0]
        assert client.query("p1turn") == "true"
    assert client.returncode == 0


def test_positions_are_sent_with_the_pile_hidden():
    with start_engine() as client:
        pos = rosen.Position.new(12)
        client.set_position(pos, ["W1"] if pos.is_legal("W1") else [pos.legal_moves()[0]])
        assert client.query("position").endswith(" *")


def test_query_errors_raise():
    with start_engine() as client, pytest.raises(EngineError, match="position"):
        client.query("legal")


def test_a_silent_program_times_out():
    silent = [sys.executable, "-c", "import time; time.sleep(30)"]
    with pytest.raises(EngineError, match="no answer"):
        EngineClient(silent, timeout=0.5)


def test_a_program_that_exits_is_reported():
    with pytest.raises(EngineError, match="closed its output"):
        EngineClient([sys.executable, "-c", "print('id name nothing')"], timeout=10)


def test_engine_agent_plays_legal_moves_and_reports_stats():
    with EngineAgent(ENGINE_COMMAND, nodes=200, options={"Seed": 4}) as agent:
        assert agent.name.startswith("engine:") and "nodes=200" in agent.name
        pos = rosen.Position.new(3)
        for _ in range(6):
            move = agent.choose(pos)
            assert isinstance(move, rosen.Move) and pos.is_legal(move)
            assert agent.last_stats.iterations == 200 and agent.last_stats.nodes > 0
            pos = pos.play(move)
        agent.reset()
        agent.on_move(rosen.Move("draw"))
        assert pos.is_legal(agent.choose(pos))
    assert agent.client.returncode == 0


def test_two_engine_agents_play_a_game():
    # The match runner pits two engine commands against each other through this adapter.
    agents = [EngineAgent(ENGINE_COMMAND, nodes=60, options={"Seed": s}) for s in (1, 2)]
    try:
        pos = rosen.Position.new(14)
        while not pos.is_terminal:
            mover = agents[0 if pos.turn.startswith("r") else 1]
            pos = pos.play(mover.choose(pos))
        assert pos.winner in ("red", "white", "draw")
    finally:
        for agent in agents:
            agent.close()


@pytest.mark.parametrize("kwargs, field", [({}, "nodes"), ({"nodes": 0}, "nodes"), ({"movetime": -5}, "movetime"),
                                           ({"nodes": True}, "nodes")])
def test_engine_agent_checks_its_budget(kwargs, field):
    with pytest.raises(ValueError, match=field):
        EngineAgent(ENGINE_COMMAND, **kwargs)
