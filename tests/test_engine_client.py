"""rosen.engine.client: the client's waits and errors, and rosen.agents.EngineAgent."""
from __future__ import annotations

import sys

import pytest

import rosen
from engine_helpers import ENGINE_COMMAND, start_engine
from rosen.agents import EngineAgent
from rosen.engine.client import EngineClient, EngineError


def test_play_and_analyse_with_multipv():
    with start_engine() as client:
        result = client.play(rosen.Position.new(2), iterations=400)
        assert rosen.Position.new(2).is_legal(result.move)
        assert result.info.iterations == 400 and 0 <= result.info.winrate <= 1
        assert result.info.pv[0] == str(result.move)
        analysis = client.analyse("startpos seed 2 players 4", iterations=600, multipv=3)
        assert [c.multipv for c in analysis.candidates] == [1, 2, 3]
        assert analysis.candidates[0].move == analysis.pv[0]
        assert sum(c.visits for c in analysis.candidates) <= analysis.iterations
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


def test_a_missing_program_is_an_engine_error():
    with pytest.raises(EngineError, match="cannot start '/nonexistent/engine'"):
        EngineClient(["/nonexistent/engine"])


def test_a_program_that_exits_is_reported():
    with pytest.raises(EngineError, match="closed its output"):
        EngineClient([sys.executable, "-c", "print('id name nothing')"], timeout=10)


def test_engine_agent_plays_legal_moves_and_reports_stats():
    with EngineAgent(ENGINE_COMMAND, iterations=200, options={"Seed": 4}) as agent:
        assert agent.name.startswith("engine:") and "iterations=200" in agent.name
        pos = rosen.Position.new(3)
        for _ in range(6):
            move = agent.choose(pos)
            assert isinstance(move, rosen.Move) and pos.is_legal(move)
            assert agent.last_stats.iterations == 200 and agent.last_stats.tree_size > 0
            pos = pos.play(move)
        agent.reset()
        agent.on_move(rosen.Move("draw"))
        assert pos.is_legal(agent.choose(pos))
    assert agent.client.returncode == 0


def test_two_engine_agents_play_a_game():
    # The match runner pits two engine commands against each other through this adapter.
    agents = [EngineAgent(ENGINE_COMMAND, iterations=60, options={"Seed": s}) for s in (1, 2)]
    try:
        pos = rosen.Position.new(14)
        plies = 0
        while not pos.is_terminal:
            mover = agents[0 if pos.colour_to_move == "red" else 1]
            pos = pos.play(mover.choose(pos))
            plies += 1
        # The game really ended (R8/R9) and its winner is the one R12 gives for the final board.
        assert plies > 40 and pos.legal_moves() == []
        assert pos.winner == {1: "red", 2: "white", 0: "draw"}[int(rosen.score_boards(pos.board).winners())]
    finally:
        for agent in agents:
            agent.close()


@pytest.mark.parametrize("kwargs, field", [({}, "iterations"), ({"iterations": 0}, "iterations"),
                                           ({"time_ms": -5}, "time_ms"), ({"iterations": True}, "iterations")])
def test_engine_agent_checks_its_budget(kwargs, field):
    with pytest.raises(rosen.RosenError, match=field) as info:
        EngineAgent(ENGINE_COMMAND, **kwargs)
    assert info.value.field == field
