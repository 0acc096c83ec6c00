"""The Gymnasium env (gym.make("rosen/Rosenkoenig-v0"), rosen.env.gym.RosenkoenigEnv): Gymnasium's
own check_env with warnings as errors for 2 and 4 players and both layouts, opponents given as
agent specs, Agent objects or callables, the learner's seat, action_masks(), the documented
penalty of an illegal action, bad input, and random games to the end, counted."""
from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rosen
import rosen.env
from env_helpers import random_action, warnings_as_errors
from rosen.agents import GreedyAgent
from rosen.env.gym import RosenkoenigEnv


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("layout", ["planes", "flat"])
@pytest.mark.parametrize("opponent", ["random", "greedy", "mcts:iterations=10"])
def test_gymnasium_check_env(players, layout, opponent):
    with warnings_as_errors():
        env = gym.make(rosen.env.GYM_ID, opponent=opponent, players=players, layout=layout)
        check_env(env.unwrapped)
        env.close()


def test_registered_on_import_and_by_module_path():
    assert rosen.env.GYM_ID == "rosen/Rosenkoenig-v0" and rosen.env.GYM_ID in gym.registry
    assert gym.registry[rosen.env.GYM_ID].entry_point == "rosen.env.gym:RosenkoenigEnv"
    env = gym.make("rosen.env:rosen/Rosenkoenig-v0")
    assert isinstance(env.unwrapped, RosenkoenigEnv)


def play(env, seed, rng) -> tuple:
    obs, info = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
        obs, reward, done, truncated, info = env.step(random_action(info["action_mask"], rng))
        assert not truncated and env.observation_space.contains(obs)
        steps += 1
    return reward, steps, info


@pytest.mark.parametrize("players", [2, 4])
def test_every_observation_is_the_learners_turn(players):
    env = RosenkoenigEnv("greedy", players=players, seat=1)
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(0)
    game = env._single.game
    while not game.done:
        assert game.current_player % 2 == 1 and info["seat"] == 1
        assert np.array_equal(obs, rosen.encode(game.position))
        obs, reward, done, _, info = env.step(random_action(env.action_masks(), rng))


def test_opponents_as_spec_agent_and_callable():
    rng = np.random.default_rng(1)
    calls = []

    def first_legal(position):
        calls.append(position)
        assert position.draw_pile is None  # the pile's order hidden (R14)
        return position.legal_moves()[0]

    for opponent in ["greedy", rosen.agents.parse_agent_spec("random:seed=4"), GreedyAgent(seed=2), first_legal,
                     lambda position: rosen.encoding.action_index(position.legal_moves()[-1])]:
        env = RosenkoenigEnv(opponent, seat=0)
        reward, steps, info = play(env, 3, rng)
        assert reward in (-1.0, 0.0, 1.0) and info["end_reason"] in ("supply", "blocked")
    assert calls


def test_an_opponent_that_chooses_an_illegal_move_is_named():
    env = RosenkoenigEnv(lambda position: "pass", seat=1)
    with pytest.raises(rosen.InvalidArgumentError, match="opponent: chose 'pass'") as info:
        env.reset(seed=1)
    assert info.value.field == "opponent"


def test_the_seat_is_drawn_per_episode_when_not_given():
    env = RosenkoenigEnv("random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1}


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = RosenkoenigEnv("random", seat=0, illegal_action_reward=-5.0)
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert info["illegal_action"] and info["end_reason"] == "illegal_action" and info["winner"] == "white"
    assert not env.action_masks().any()


def test_bad_input_raises_and_changes_nothing():
    env = RosenkoenigEnv("random", seat=0)
    with pytest.raises(rosen.InvalidArgumentError, match=r"action: call reset\(\) before step\(\)"):
        env.step(0)
    # Before the first reset no game is dealt: the mask once called draw legal there.
    with pytest.raises(rosen.InvalidArgumentError, match=r"action_mask: call reset\(\) before action_masks\(\)"):
        env.action_masks()
    obs, info = env.reset(seed=3)
    before = env._single.game.position
    for action, error in [(50, rosen.InvalidArgumentError), (-2, rosen.InvalidArgumentError),
                          (0.0, rosen.ArgumentTypeError), (np.zeros(2, np.int64), rosen.ArgumentTypeError),
                          (np.float32(1), rosen.ArgumentTypeError), (True, rosen.ArgumentTypeError)]:
        with pytest.raises(error, match="action: expected"):
            env.step(action)
        assert env._single.game.position == before
    env.step(np.int64(random_action(info["action_mask"], np.random.default_rng(0))))  # numpy ints are fine
    for kwargs, field in [(dict(opponent=3), "opponent"), (dict(opponent="human"), "opponent"),
                          (dict(seat=2), "seat"), (dict(players=3), "players"), (dict(layout="x"), "layout"),
                          (dict(illegal_action_reward=float("nan")), "illegal_action_reward"),
                          (dict(render_mode="human"), "render_mode")]:
        with pytest.raises(rosen.RosenError) as info:
            RosenkoenigEnv(**kwargs)
        assert info.value.field == field
    env = RosenkoenigEnv("random", seat=0)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))  # the episode ends
    with pytest.raises(rosen.InvalidArgumentError, match="action: the episode is over; call reset"):
        env.step(0)


def test_render_ansi():
    env = gym.make(rosen.env.GYM_ID, render_mode="ansi")
    env.reset(seed=1)
    assert "Red to move" in env.render()


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_to_the_end_are_counted(players):
    """The training-loop smoke test: a random learner over many games, every count checked."""
    env = gym.make(rosen.env.GYM_ID, opponent="random", players=players, layout="flat")
    rng = np.random.default_rng(3)
    results = []
    for game in range(20):
        reward, steps, info = play(env, 500 + game, rng)
        assert 0 < steps <= 120 * players
        assert info["plies"] >= steps and info["scores"] == tuple(env.unwrapped._single.game.position.scores)
        # The reward is the learner's result: its colour is its seat's (seat 0 red, seat 1 white).
        mine = ("red", "white")[info["seat"]]
        assert reward == (0.0 if info["winner"] is None else 1.0 if info["winner"] == mine else -1.0), info
        results.append(reward)
    assert len(results) == 20 and set(results) <= {-1.0, 0.0, 1.0} and 1.0 in results and -1.0 in results


@pytest.mark.parametrize("seat", [0, 1])
def test_the_learner_plays_both_seats_of_its_colour_in_the_team_game(seat):
    """R13: a colour is a team of two seats (Red 1 and Red 2 are seats 0 and 2); the learner plays
    both, the opponent both of the other colour."""
    env = RosenkoenigEnv("random", players=4, seat=seat)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(2)
    game, seats = env._single.game, []
    while not game.done:
        seats.append(game.current_player)
        obs, reward, done, _, info = env.step(random_action(env.action_masks(), rng))
    assert set(seats) == {seat, seat + 2} and seats.count(seat + 2) >= len(seats) // 2 - 1


def test_unseeded_envs_deal_different_games():
    """Never seeded, each env's stream comes from operating-system entropy (env/single.py)."""
    first = [RosenkoenigEnv("random", seat=0).reset()[0].tobytes() for _ in range(5)]
    assert len(set(first)) == 5


@pytest.mark.parametrize("seed, error", [(-1, rosen.InvalidArgumentError), (1.5, rosen.ArgumentTypeError),
                                         ("x", rosen.ArgumentTypeError), (2**64, rosen.InvalidArgumentError)])
def test_a_bad_reset_seed_is_named_before_gymnasium_sees_it(seed, error):
    # Gymnasium's own error was neither a ValueError nor a TypeError, and 2**64 replaced np_random first
    env = RosenkoenigEnv(opponent="random")
    env.reset(seed=4)
    state = env.np_random.bit_generator.state
    with pytest.raises(error, match="seed: expected"):
        env.reset(seed=seed)
    assert env.np_random.bit_generator.state == state


def test_a_numpy_integer_seed_is_the_same_seed():
    a, b = RosenkoenigEnv(opponent="random"), RosenkoenigEnv(opponent="random")
    assert np.array_equal(a.reset(seed=np.int64(7))[0], b.reset(seed=7)[0])


def test_an_opponent_that_fails_leaves_no_half_played_episode():
    # The failure once left the episode running with the opponent to move, and the learner's
    # next step was played for the opponent.
    calls = {"n": 0}

    def opponent(position):
        calls["n"] += 1
        return "pass" if calls["n"] == 1 else random_action_text(position)

    env = RosenkoenigEnv(opponent=opponent, seat=1)
    with pytest.raises(rosen.InvalidArgumentError, match="opponent: chose 'pass'"):
        env.reset(seed=0)
    with pytest.raises(rosen.InvalidArgumentError, match="call reset"):
        env.step(0)
    observation, info = env.reset(seed=0)  # a reset starts afresh
    assert env.action_masks().any() and info["seat"] == 1


class _FailingAgent(GreedyAgent):
    """Fails in reset() or at its n-th on_move()."""

    def __init__(self, fail_in, n=1):
        super().__init__(seed=1)
        self.fail_in, self.n, self.calls = fail_in, n, 0

    def reset(self):
        super().reset()
        if self.fail_in == "reset":
            raise RuntimeError("reset failed")

    def on_move(self, move):
        self.calls += 1
        if self.fail_in == "on_move" and self.calls == self.n:
            raise RuntimeError("on_move failed")


# on_move's even calls tell of the learner's moves (the first is the opponent's own, red's)
@pytest.mark.parametrize("fail_in,n", [("reset", 1), ("on_move", 2), ("on_move", 4)])
def test_an_opponent_failing_outside_its_move_also_needs_a_reset(fail_in, n):
    # Only a failing move was guarded: a failing reset() (after the deal) or on_move() (after the
    # learner's move) left the episode running with the opponent to move, and the learner's next
    # step was played for the opponent's colour.
    env = RosenkoenigEnv(opponent=_FailingAgent(fail_in, n), seat=1)
    with pytest.raises(RuntimeError, match="failed"):
        env.reset(seed=1)
        for _ in range(20):
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(rosen.InvalidArgumentError, match=r"action: call reset\(\) before step\(\)"):
        env.step(0)


def test_an_opponent_spec_that_cannot_be_built_needs_a_reset(tmp_path):
    # The spec's network file went away: the reset that builds the opponent fails after the deal.
    path = tmp_path / "net.npz"
    from rosen.learning.network import random_network, save_network
    save_network(path, random_network(seed=1))
    env = RosenkoenigEnv(opponent=f"net:path={path}", seat=1)
    path.unlink()
    with pytest.raises(rosen.InvalidArgumentError):
        env.reset(seed=1)
    with pytest.raises(rosen.InvalidArgumentError, match=r"action: call reset\(\) before step\(\)"):
        env.step(0)


def random_action_text(position):
    return str(position.legal_moves()[0])


def _children() -> set:
    """The pids of this process's running children (Linux /proc)."""
    import os

    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == str(os.getpid()) and fields[0] != "Z":
                pids.add(int(entry))
    return pids


def test_an_engine_opponent_is_closed_each_episode_and_at_close():
    # F66: each reset() built a new engine agent and left the last one's process running (and
    # close() did not close the last): a run of N episodes held N engine processes.
    import sys

    import warnings

    before = _children()
    env = gym.make("rosen/Rosenkoenig-v0", opponent=f"engine:command={sys.executable} -m rosen engine,iterations=20")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for episode in range(3):
            env.reset(seed=episode)
            assert len(_children() - before) == 1
        env.close()
    assert not _children() - before
    # The env closed them: a dropped client's finalizer (the safety net) would have warned.
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_step_after_close_asks_for_a_reset_and_changes_nothing():
    # close() dropped a spec opponent; step() then played the learner's action and called the
    # missing opponent (TypeError: 'NoneType' object is not callable), the game a ply on.
    env = gym.make("rosen/Rosenkoenig-v0", opponent="random", seat=0)
    env.reset(seed=5)
    fen = env.unwrapped._single.game.position.fen()
    action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    mask = env.unwrapped.action_masks()
    env.close()
    with pytest.raises(ValueError, match=r"^action: the env was closed, its opponent with it; call reset\(\)"):
        env.step(action)
    assert env.unwrapped._single.game.position.fen() == fen
    # What the episode showed stays readable after close().
    assert np.array_equal(env.unwrapped.action_masks(), mask)
    env.reset(seed=5)
    assert env.step(action)[0] is not None  # a reset makes it play again, opponent and all
    env.close()


def test_R14_the_opponents_seed_says_nothing_of_the_deal():
    # Built with deal_seed % 2**31 (an engine opponent's `Seed` option), the opponent could try the
    # ~16 deals of those low bits that fit the hands on show, and read the pile.
    env = gym.make("rosen/Rosenkoenig-v0", opponent="random", seat=0)
    seeds = []
    for episode in range(6):
        env.reset(seed=100 + episode)
        agent, deal = env.unwrapped._agent, env.unwrapped._single.game.deal_seed
        assert agent.seed != deal % 2**31
        seeds.append(agent.seed)
    env.reset(seed=100)
    assert env.unwrapped._agent.seed == seeds[0] and len(set(seeds)) == 6  # reproducible, and not one seed
    env.close()
