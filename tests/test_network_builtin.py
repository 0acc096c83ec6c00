"""The networks shipped with the package (docs/learning.md, "The shipped network"): they load by
the names ``builtin`` and ``builtin-team`` everywhere a network file is asked for, and they play
(issue 12)."""
from __future__ import annotations

import os

import numpy as np
import pytest

import rosen
from rosen.agents import parse_agent
from rosen.engine.options import eval_file_evaluator
from rosen.errors import InvalidArgumentError
from rosen.learning import BUILTIN, BUILTIN_TEAM, Evaluator, builtin_network_path, forward_numpy, load_network
from rosen.learning.evaluator import as_evaluator
from rosen.match.runner import run_match


@pytest.mark.parametrize("name", [BUILTIN, BUILTIN_TEAM])
def test_the_builtin_networks_are_in_the_package_and_valid(name):
    path = builtin_network_path(name)
    assert os.path.isfile(path) and path.endswith(".npz")
    net = load_network(name)
    assert net.encoder_version == rosen.ENCODER_VERSION and net.hidden == (128, 64)
    assert load_network(path).hidden == net.hidden
    assert builtin_network_path() == builtin_network_path(BUILTIN)


@pytest.mark.parametrize("bad", ["", "Builtin", "builtin-4", "rosen-v2-gen3.npz"])
def test_builtin_network_path_names_the_field_for_an_unknown_name(bad):
    with pytest.raises(InvalidArgumentError, match=r"^name: expected one of builtin, builtin-team, got "):
        builtin_network_path(bad)


@pytest.mark.parametrize("bad", [None, 2, b"builtin", ["builtin"]])
def test_builtin_network_path_refuses_a_name_of_another_type(bad):
    with pytest.raises(TypeError, match=r"^name: expected a string, one of builtin, builtin-team, got "):
        builtin_network_path(bad)


def test_the_team_network_is_reachable_from_specs_and_plays_the_team_game():
    assert eval_file_evaluator(BUILTIN_TEAM) is as_evaluator(BUILTIN_TEAM)
    agent = parse_agent("mcts:evaluator=builtin-team,iterations=200")
    pos = rosen.Position.new(seed=3, players=4).hide_pile_order()
    assert pos.is_legal(agent.choose(pos))


def test_builtin_evaluates_like_its_file_and_the_numpy_reference():
    positions = [rosen.Position.new(seed=s).hide_pile_order() for s in range(8)]
    a = Evaluator(BUILTIN).evaluate(positions)
    b = Evaluator(builtin_network_path()).evaluate(positions)
    np.testing.assert_array_equal(a.policy, b.policy)
    features = rosen.encode(positions, layout="flat")
    legal = np.zeros((len(positions), 50), bool)
    for i, p in enumerate(positions):
        legal[i, [rosen.encoding.action_index(m) for m in p.legal_moves()]] = True
    ref = forward_numpy(load_network(BUILTIN), features, legal)
    np.testing.assert_allclose(a.policy, ref[0], atol=1e-5)


def test_builtin_is_read_once_and_reachable_from_specs_and_the_protocol():
    assert as_evaluator(BUILTIN) is as_evaluator(BUILTIN)
    assert eval_file_evaluator(BUILTIN) is as_evaluator(BUILTIN)
    agent = parse_agent("mcts:evaluator=builtin,iterations=200")
    pos = rosen.Position.new(seed=3).hide_pile_order()
    assert pos.is_legal(agent.choose(pos))


def test_the_builtin_policy_alone_beats_greedy():
    """Issue 12's bar for the policy alone (>= 90% against greedy over 200 games, docs/learning.md);
    here 20 seeded deal pairs, deterministic, with a margin for the small sample."""
    summary = run_match("net:path=builtin", "greedy", games=40, seed=70000)
    assert summary.estimate.score >= 0.75, summary
