"""A network reached from every front end: agent specs (``mcts:evaluator=PATH``, ``net:path=PATH``),
``rosen match`` / ``rosen play``, the engine's ``EvalFile`` option and self-play."""
from __future__ import annotations

import io
import sys

import numpy as np
import pytest

import rosen
from engine_helpers import InProcessEngine, final_block
from rosen.agents import MCTSAgent, NetAgent, parse_agent_spec
from rosen.cli import main
from rosen.encoding import action_index
from rosen.learning import Evaluator, random_network, save_network
from rosen.selfplay import generate
from search_positions import midgame


@pytest.fixture(scope="module")
def net_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("net") / "net.npz"
    save_network(path, random_network(hidden=(32, 16), seed=11))
    return str(path)


@pytest.fixture(scope="module")
def bad_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("bad") / "bad.npz"
    arrays = random_network(hidden=(8, 4)).as_arrays()
    arrays["encoder_version"] = np.array(99)
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    return str(path)


def test_net_agent_plays_the_policy_favourite(net_path):
    agent = parse_agent_spec(f"net:path={net_path}").build(seed=3)
    assert isinstance(agent, NetAgent) and agent.last_stats is None
    evaluator = Evaluator(net_path)
    for plies in (0, 7, 20, 33):
        pos = midgame(seed=6, plies=plies).hide_pile_order()
        move = agent.choose(pos)
        assert move in pos.legal_moves()
        policy = evaluator.evaluate(pos).policy
        assert policy[action_index(move)] == policy.max()
    with pytest.raises(ValueError, match="^position: the game is over"):
        over = midgame(seed=6, plies=0)
        while not over.is_terminal:
            over = over.play(over.legal_moves()[0])
        agent.choose(over)


def test_mcts_spec_with_an_evaluator(net_path):
    spec = parse_agent_spec(f"mcts:evaluator={net_path},iterations=200,puct_c=2")
    assert spec.options == {"evaluator": net_path, "iterations": 200, "puct_c": 2}
    assert parse_agent_spec(str(spec)) == spec
    agent = spec.build(seed=5)
    assert isinstance(agent, MCTSAgent) and "evaluator=" in repr(agent)
    pos = midgame(seed=6, plies=5).hide_pile_order()
    assert agent.choose(pos) in pos.legal_moves()
    direct = rosen.search(pos, iterations=200, puct_c=2, seed=5, evaluator=net_path)
    assert [(m.move, m.visits) for m in agent.last_result.moves] == [(m.move, m.visits) for m in direct.moves]


@pytest.mark.parametrize("players, network", [(2, "builtin"), (4, "builtin-team")])
def test_mcts_spec_with_the_auto_evaluator_searches_the_games_shipped_network(players, network):
    # "auto", as rosen play / analyse / engine / serve take it: the shipped network of the game the
    # agent is asked to play, known only at its first move (a spec is written before the game).
    spec = parse_agent_spec("mcts:evaluator=Auto,iterations=150")
    assert spec.options["evaluator"] == "Auto" and parse_agent_spec(str(spec)) == spec
    auto, explicit = spec.build(seed=9), parse_agent_spec(f"mcts:evaluator={network},iterations=150").build(seed=9)
    pos = rosen.Position.new(4, players=players)
    for _ in range(3):
        move = auto.choose(pos)
        assert move == explicit.choose(pos)
        assert [(m.move, m.visits) for m in auto.last_result.moves] == \
            [(m.move, m.visits) for m in explicit.last_result.moves]
        pos = pos.play(move)
    other, other_network = rosen.Position.new(4, players=6 - players), "builtin-team" if players == 2 else "builtin"
    fresh = parse_agent_spec(f"mcts:evaluator={other_network},iterations=150").build(seed=9)
    assert auto.choose(other) == fresh.choose(other)  # the same agent in the other game: its network
    assert [(m.move, m.visits) for m in auto.last_result.moves] == [(m.move, m.visits) for m in fresh.last_result.moves]

    impostor = type("Impostor", (), {"players": players})()  # not a position, whatever it claims
    searcher = auto._searcher
    with pytest.raises(rosen.ArgumentTypeError, match="^position: expected a rosen.Position"):
        auto.choose(impostor)  # refused before the agent changes
    assert auto._searcher is searcher
    with pytest.raises(ValueError, match="^agent: expectimax: evaluator: cannot read network file 'auto'"):
        parse_agent_spec("expectimax:evaluator=auto,depth=2")  # expectimax takes builtin or a file: "auto" is mcts's


@pytest.mark.parametrize("setting", ["none", "NONE", ""])
def test_no_network_reads_as_in_the_frontends(setting, tmp_path, monkeypatch):
    # rosen analyse --evaluator none, EvalFile none and the agents alike: "none" (any case) and an
    # empty value are rollouts, never a file to read (mcts:evaluator=none once failed as a missing file)
    monkeypatch.chdir(tmp_path)
    pos = midgame(seed=5)
    rollouts = MCTSAgent(iterations=200, seed=3)
    agents = [MCTSAgent(evaluator=setting, iterations=200, seed=3)]
    if setting:  # a spec's values are never empty
        agents.append(parse_agent_spec(f"mcts:evaluator={setting},iterations=200").build(seed=3))
        assert parse_agent_spec(f"expectimax:depth=2,evaluator={setting}").build().evaluator is None
    for agent in agents:
        assert agent._searcher.evaluator is None
        assert agent.choose(pos) == rollouts.choose(pos)
        assert [(m.move, m.visits) for m in agent.last_result.moves] == \
            [(m.move, m.visits) for m in rollouts.last_result.moves]
        rollouts.reset()
    assert rosen.Searcher(evaluator=setting).evaluator is None
    assert rosen.agents.ExpectimaxAgent(depth=2, evaluator=setting).evaluator is None
    with pytest.raises(ValueError, match="^agent: net: path: cannot read network file 'none'"):
        parse_agent_spec("net:path=none")  # the network agent has no rollouts to fall back on
    with pytest.raises(ValueError, match="cannot read network file 'nonee'"):
        parse_agent_spec("mcts:evaluator=nonee")


@pytest.mark.parametrize("text, message", [
    ("net", "net: expected path=<network file>"),
    ("net:path=/nonexistent/x.npz", "net: path: cannot read network file"),  # once "path: path:"
    ("mcts:evaluator=/nonexistent/x.npz", "mcts: evaluator: cannot read network file"),
    ("net:path=BAD", "net: path: encoder_version: expected this rosen's ENCODER_VERSION"),
    ("net:path=x.npz,depth=3", "net: unknown option 'depth'"),
])
def test_bad_network_specs_name_the_agent_and_the_key(text, message, bad_path):
    with pytest.raises(ValueError, match="^agent: " + message.replace("(", r"\(")) as info:
        parse_agent_spec(text.replace("BAD", bad_path))
    assert info.value.field == "agent"


def test_net_agent_names_its_path_argument():
    # NetAgent's parameter is `path`; the error once said `evaluator:` (as_evaluator's name).
    from rosen.agents import NetAgent
    with pytest.raises(rosen.InvalidArgumentError, match="^path: cannot read network file") as info:
        NetAgent("/nonexistent/x.npz")
    assert info.value.field == "path"


def test_a_path_option_stays_text(tmp_path):
    net = tmp_path / "123"
    save_network(net, random_network(hidden=(4, 4)))
    spec = parse_agent_spec(f"net:path={net}")
    assert spec.options["path"] == str(net)
    import os
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert parse_agent_spec("net:path=123").options["path"] == "123"
    finally:
        os.chdir(cwd)


def test_rosen_match_net_against_greedy(net_path, capsys):
    assert main(["match", f"net:path={net_path}", "greedy", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "net" in out


def test_rosen_play_against_the_network(net_path, monkeypatch, capsys):
    from rosen.match import ALL_CARDS

    moves = list(ALL_CARDS) + ["H:" + c for c in ALL_CARDS] + ["draw", "pass"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(moves * 200) + "\n"))
    assert main(["play", "--engine", f"net:path={net_path}", "--seed", "2"]) == 0
    assert "Final score" in capsys.readouterr().out


def test_engine_eval_file(net_path, bad_path):
    eng = InProcessEngine()
    try:
        assert any(line == "option name EvalFile type string default auto" for line in eng.send("ugi"))
        pos = midgame(seed=4, plies=6)
        eng.send(f"position fen {pos.fen(hide_pile_order=True)}", f"setoption name EvalFile value {net_path}")
        guided = final_block(eng.search("go nodes 400"))
        policy = Evaluator(net_path).evaluate(pos).policy
        for line in guided[1:-1]:  # info multipv lines carry the root priors: the network's
            words = line.split()
            move, prior = words[words.index("move") + 1], float(words[words.index("prior") + 1])
            assert prior == pytest.approx(float(policy[action_index(move)]), abs=1e-4)
        lines = eng.send(f"setoption name EvalFile value {bad_path}")
        assert len(lines) == 1 and lines[0].startswith("info string error: EvalFile: encoder_version")
        assert eng.engine.option("EvalFile") == net_path  # a refused value changes nothing
        eng.send("setoption name EvalFile value <empty>")
        assert eng.engine.option("EvalFile") == ""
        plain = final_block(eng.search("go nodes 400"))
        assert plain[1:] != guided[1:]
    finally:
        eng.close()


def test_selfplay_with_an_evaluator(net_path):
    agent = f"mcts:evaluator={net_path},iterations=60"
    one = generate(3, seed=2, agent=agent, threads=1)
    two = generate(3, seed=2, agent=agent, threads=2)
    for name in one.rows:
        assert np.array_equal(one.rows[name], two.rows[name], equal_nan=True), name
    plain = generate(3, seed=2, agent="mcts:iterations=60")
    assert not np.array_equal(one.rows["visits"][:20], plain.rows["visits"][:20])
    assert one.settings["agent"] == agent and one.games[0]["red"] == agent
    with pytest.raises(ValueError, match="^agent: mcts: evaluator: cannot read"):
        generate(1, agent="mcts:evaluator=/nonexistent.npz,iterations=10")
