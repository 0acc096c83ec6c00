"""R14 in every RL API: what an env shows (observations, masks, infos, rendered text) is identical
for two games that differ only in the order of the draw pile -- the VecEnv, the PettingZoo env,
the Gymnasium env and the OpenSpiel game (whose state holds no pile order at all)."""
from __future__ import annotations

import numpy as np
import pytest

import rosen
import rosen.openspiel
from env_helpers import random_action, random_actions, reordered
from rosen.env import VecEnv, VecStep, aec_env
from rosen.env.gym import RosenkoenigEnv


def midgame(players: int, seed: int):
    """A position some random plies into a game, with a pile of several cards (order hidden)."""
    env = VecEnv(1, players=players, seed=seed)
    out = env.reset()
    rng = np.random.default_rng(seed)
    for ply in range(200):
        out = env.step(random_actions(out.action_mask, rng))
        position = env.position(0)
        moves = [str(m) for m in position.legal_moves()]
        if ply >= 12 and position.pile_size >= 3 and any(m != "draw" for m in moves):
            return position
    raise AssertionError("no suitable position")


def non_draw(position) -> int:
    """A legal action of the mover that is not a draw (so no card is revealed by it)."""
    actions = [rosen.encoding.action_index(m) for m in position.legal_moves() if str(m) != "draw"]
    assert actions
    return actions[0]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("layout", ["planes", "flat"])
def test_r14_vec_env(players, layout):
    position = midgame(players, 1)
    first, second = reordered(position, np.random.default_rng(0), rosen)
    envs = [VecEnv(1, players=players, layout=layout, seed=5) for _ in range(2)]
    outs = []
    for env, pos in zip(envs, (first, second)):
        env.reset()
        env.load(0, pos)
        assert env.position(0) == position  # the public view: the order is forgotten
        outs.append(env.step(np.array([non_draw(position)])))
    for field in VecStep._fields:
        assert np.array_equal(getattr(outs[0], field), getattr(outs[1], field)), field


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("layout", ["planes", "flat"])
def test_r14_pettingzoo(players, layout):
    position = midgame(players, 2)
    views = []
    for pos in reordered(position, np.random.default_rng(1), rosen):
        env = aec_env(players=players, layout=layout, render_mode="ansi")
        env.reset(seed=0)
        env.unwrapped._single.game.load(pos, 0)
        env.unwrapped.agent_selection = f"player_{env.unwrapped._single.game.current_player}"
        env.step(non_draw(position))
        views.append(([env.observe(a) for a in env.agents], env.render(), dict(env.infos)))
    (obs_a, text_a, infos_a), (obs_b, text_b, infos_b) = views
    for a, b in zip(obs_a, obs_b):
        assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])
    assert text_a == text_b and infos_a == infos_b
    assert ",".join(position.pile_cards) not in text_a  # neither order is printed


@pytest.mark.parametrize("players", [2, 4])
def test_r14_gymnasium(players):
    position = midgame(players, 3)
    learner = int(position.turn[0] == "w")
    shown = []
    for pos in reordered(position, np.random.default_rng(2), rosen):
        env = RosenkoenigEnv("greedy", players=players, seat=learner)
        env.reset(seed=0)
        env._single.game.load(pos, 0)
        env._view = env._single.game.current_player
        shown.append((env._observation(), env.action_masks()))
        obs, reward, terminated, truncated, info = env.step(non_draw(position))
        # the greedy reply may draw, and a drawn card is public once drawn: compare up to the reply
        shown.append((env._single.game.plies, reward, terminated))
    assert np.array_equal(shown[0][0], shown[2][0]) and np.array_equal(shown[0][1], shown[2][1])
    assert shown[1] == shown[3]


@pytest.mark.parametrize("players", [2, 4])
def test_r14_openspiel(players):
    """The OpenSpiel state never holds an order (a draw is a chance node), and its observer reads
    the position through the encoder, which ignores an order if one is given."""
    game = rosen.openspiel.RosenkoenigGame({"players": players})
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    while state.is_chance_node() or len(state.history()) < 40:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(random_action(np.isin(np.arange(50), state.legal_actions()).astype(np.int8), rng))
        assert state.position.draw_pile is None
    observer = game.make_py_observer()
    tensors = []
    for pos in reordered(state.position, rng, rosen):
        state._position = pos
        tensors.append([np.array(observer.set_from(state, p) or observer.tensor) for p in range(players)])
        assert observer.string_from(state, 0) == str(state)
    for a, b in zip(*tensors):
        assert np.array_equal(a, b)
