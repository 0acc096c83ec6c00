"""The PettingZoo AEC env (rosen.env.aec_env, raw_env): PettingZoo's own api_test and seed_test
for 2 and 4 players with warnings as errors (except the two PettingZoo allows its classic
dict-observation games, env_helpers.PETTINGZOO_DICT_OBSERVATION_WARNINGS), observations from each
agent's chair, team rewards and end infos, the illegal-action forfeit, bad input, and random
games to the end, counted."""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import rosen
from env_helpers import PETTINGZOO_DICT_OBSERVATION_WARNINGS, random_action, warnings_as_errors
from rosen.env import aec_env, raw_env
from rosen.env.aec import _OrderEnforcing


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("layout", ["planes", "flat"])
def test_pettingzoo_api_test(players, layout):
    with warnings_as_errors(*PETTINGZOO_DICT_OBSERVATION_WARNINGS):
        api_test(aec_env(players=players, layout=layout), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test_unwrapped(players):
    with warnings_as_errors(*PETTINGZOO_DICT_OBSERVATION_WARNINGS):
        api_test(raw_env(players=players, render_mode="ansi"), num_cycles=300)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players):
    with warnings_as_errors():
        seed_test(lambda: aec_env(players=players), num_cycles=500)


def test_the_wrapper_is_pettingzoos_classic_one():
    env = aec_env()
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env, _OrderEnforcing)
    assert isinstance(env.unwrapped, raw_env)
    assert str(env) == "rosenkoenig_v0"


def play_to_end(env, rng) -> int:
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        env.step(None if termination or truncation else random_action(obs["action_mask"], rng))
        steps += 1
    return steps


@pytest.mark.parametrize("players", [2, 4])
def test_observations_are_from_each_agents_chair(players):
    env = aec_env(players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    game = env.unwrapped._single.game
    for _ in range(40):
        mover = env.agent_selection
        position = game.position
        for agent in env.agents:
            obs = env.observe(agent)
            if agent == mover:
                assert np.array_equal(obs["observation"], rosen.encode(position))
                assert np.array_equal(np.flatnonzero(obs["action_mask"]),
                                      sorted(rosen.encoding.action_index(m) for m in position.legal_moves()))
            else:
                assert not obs["action_mask"].any()
                assert obs["action_mask"].dtype == np.int8
        env.step(random_action(env.observe(mover)["action_mask"], rng))


@pytest.mark.parametrize("players", [2, 4])
def test_rewards_and_infos_at_the_end(players):
    env = aec_env(players=players)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    while not all(env.terminations.values()):
        obs, *_ = env.last()
        assert all(info == {} for info in env.infos.values())
        env.step(random_action(obs["action_mask"], rng))
    position = env.unwrapped._single.game.position
    rewards = [env.rewards[f"player_{p}"] for p in range(players)]
    winner = position.winner
    expected = {"red": [1, -1], "white": [-1, 1], "draw": [0, 0]}[winner] * (players // 2)
    assert rewards == expected
    for agent in env.agents:
        info = env.infos[agent]
        assert info["scores"] == tuple(position.scores) and info["winner"] == winner
        assert info["end_reason"] in ("supply", "blocked") and info["plies"] > 0
        assert (info["end_reason"] == "supply") == (position.supply == 0)
    # PettingZoo's end protocol: each finished agent steps None and leaves.
    while env.agents:
        env.step(None)
    assert env.agents == []


def test_an_illegal_action_loses_by_forfeit():
    env = aec_env(players=4)
    env.reset(seed=2)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert [env.rewards[f"player_{p}"] for p in range(4)] == [-1, 1, -1, 1]  # red (player_0's team) forfeits
    assert env.infos["player_1"]["end_reason"] == "illegal_action"
    assert env.infos["player_1"]["winner"] == "white"


def test_a_step_after_every_agent_has_left_is_a_named_error():
    # The unwrapped env raised a bare KeyError: 'player_0' once the last agent had left.
    env = raw_env()
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # forfeit: the game is over
    while env.agents:
        env.step(None)
    for action in (0, None):
        with pytest.raises(rosen.InvalidArgumentError, match="^action: the game is over and every agent has left"):
            env.step(action)
    env.reset(seed=2)
    assert env.agents == ["player_0", "player_1"]


def test_bad_input_raises_and_changes_nothing():
    env = aec_env()
    with pytest.raises(rosen.InvalidArgumentError, match=r"action: call reset\(\) before step\(\)"):
        env.step(0)
    with pytest.raises(rosen.InvalidArgumentError, match="call reset"):
        raw_env().step(0)
    env.reset(seed=1)
    before = env.unwrapped._single.game.position
    for action, error, match in [(50, rosen.InvalidArgumentError, "action: expected 0..49, got 50"),
                                 (-1, rosen.InvalidArgumentError, "action: expected 0..49, got -1"),
                                 (1.0, rosen.ArgumentTypeError, "action: expected an int, got float"),
                                 ("N1", rosen.ArgumentTypeError, "action: expected an int, got str"),
                                 (np.array([0, 1]), rosen.ArgumentTypeError, "action: expected an int"),
                                 (None, rosen.ArgumentTypeError, "action: expected an int, got NoneType")]:
        with pytest.raises(error, match=match):
            env.step(action)
        assert env.unwrapped._single.game.position == before and env.agent_selection == "player_0"
    with pytest.raises(rosen.InvalidArgumentError, match="agent: expected one of player_0, player_1"):
        env.observe("player_7")
    with pytest.raises(rosen.InvalidArgumentError, match="players"):
        aec_env(players=3)
    with pytest.raises(rosen.InvalidArgumentError, match="render_mode"):
        aec_env(render_mode="human")
    # An action for a finished game: the only action of a finished agent is None.
    play_to_end_until_terminated(env)
    with pytest.raises(rosen.InvalidArgumentError, match="action: the game is over for player_"):
        env.step(0)


def play_to_end_until_terminated(env):
    rng = np.random.default_rng(9)
    while not all(env.terminations.values()):
        obs, *_ = env.last()
        env.step(random_action(obs["action_mask"], rng))


def test_render_shows_the_board_but_never_the_pile_order():
    env = aec_env(render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    position = env.unwrapped._single.game.position
    assert text == str(position) and "draw pile: 14" in text
    quiet = aec_env()
    quiet.reset(seed=4)
    assert quiet.render() is None


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_to_the_end_are_counted(players):
    """The training-loop smoke test: random agents over many games, every count checked."""
    env = aec_env(players=players, layout="flat")
    rng = np.random.default_rng(2)
    wins = {"red": 0, "white": 0, "draw": 0}
    for game in range(20):
        env.reset(seed=1000 + game)
        steps = play_to_end(env, rng)
        assert players < steps - players <= 120 * players  # the dead steps of the agents come last
        assert env.agents == []
        wins[env.unwrapped._single.game.position.winner] += 1
    assert sum(wins.values()) == 20 and wins["red"] > 0 and wins["white"] > 0


def test_reset_seeds_and_agent_names_are_checked():
    env = raw_env()
    env.reset(seed=np.int64(3))  # a NumPy integer is a seed (it was refused by Gymnasium's seeding)
    first = env.observe("player_0")["observation"].copy()
    env.reset(seed=3)
    assert np.array_equal(env.observe("player_0")["observation"], first)
    for seed, error in ((-1, rosen.InvalidArgumentError), (1.5, rosen.ArgumentTypeError)):
        with pytest.raises(error, match="seed: expected"):
            env.reset(seed=seed)
    for agent in ([0], 0, None):
        with pytest.raises(rosen.ArgumentTypeError, match="agent: expected an agent name"):
            env.observe(agent)


@pytest.mark.parametrize("players", [1, 3, 5, -4])
def test_every_interface_names_the_two_player_counts(players):
    # R13: the RL environments and the match runner said "expected 2..4, got 1" (3 is no game)
    # and the protocol a seed's range for -4; each interface checked it with its own copy.
    from rosen.env import VecEnv, aec_env
    from rosen.web.sessions import Sessions
    message = f"^players: expected 2 or 4, got {players}$"
    calls = [lambda: VecEnv(2, players=players), lambda: aec_env(players=players),
             lambda: rosen.match.run_match("random", "random", games=2, players=players),
             lambda: Sessions().new_game({"players": players})]
    for call in calls:
        with pytest.raises(rosen.InvalidArgumentError, match=message):
            call()
