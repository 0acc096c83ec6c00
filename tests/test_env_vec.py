"""The batched C++ environment (rosen.env.VecEnv, cpp/env/vec_env.h): N games stepped together
equal N single games with the same seeds (VecEnv(1) and the PettingZoo env), for any number of
threads; same-step autoreset; the opponent modes; preallocated outputs; bad input rejected with
the field named and nothing changed; and random games to the end, counted."""
from __future__ import annotations

import numpy as np
import pytest

import rosen
from env_helpers import random_actions
from rosen.env import VecEnv, VecStep, aec_env
from rosen.env.single import SingleGame


def run(env: VecEnv, steps: int, seed: int = 0) -> list:
    """The outputs of reset and ``steps`` random steps, copied."""
    rng = np.random.default_rng(seed)
    out = env.reset()
    history = [tuple(a.copy() for a in out)]
    for _ in range(steps):
        out = env.step(random_actions(out.action_mask, rng))
        history.append(tuple(a.copy() for a in out))
    return history


@pytest.mark.parametrize("layout", ["planes", "flat"])
def test_reset_shapes_and_dtypes(layout):
    env = VecEnv(3, layout=layout, seed=5)
    out = env.reset()
    assert isinstance(out, VecStep)
    shape = (3, 35, 9, 9) if layout == "planes" else (3, 477)
    assert out.observation.shape == shape
    assert out.observation.dtype == (np.int8 if layout == "planes" else np.float32)
    assert out.action_mask.shape == (3, 50) and out.action_mask.dtype == np.int8
    assert out.reward.shape == (3, 2) and out.reward.dtype == np.float32 and not out.reward.any()
    assert out.terminated.dtype == np.bool_ and not out.terminated.any() and not out.truncated.any()
    assert out.current_player.dtype == np.int32 and out.current_player.tolist() == [0, 0, 0]
    assert env.metadata["autoreset_mode"] == "SameStep"


def test_episode_zero_is_the_self_play_deal():
    env = VecEnv(2, layout="flat", seed=11)
    out = env.reset()
    for i in range(2):
        deal_seed, _ = rosen._core._selfplay_seeds(11 + i, 0, 0)
        start = rosen.Position.new(deal_seed)
        assert np.array_equal(out.observation[i], rosen.encode(start, layout="flat"))
        assert env.info(i)["deal_seed"] == deal_seed
        assert env.position(i) == start.hide_pile_order()


@pytest.mark.parametrize("players", [2, 4])
def test_n_envs_together_equal_n_single_envs(players):
    n, steps = 5, 300
    # Each environment alone, given the actions the batch played, gives the batch's rows.
    rng = np.random.default_rng(0)
    env = VecEnv(n, players=players, layout="flat", seed=40)
    out = env.reset()
    singles = [VecEnv(1, players=players, layout="flat", seed=40 + i) for i in range(n)]
    single_out = [s.reset() for s in singles]
    ends = 0
    for _ in range(steps):
        actions = random_actions(out.action_mask, rng)
        out = env.step(actions)
        for i, single in enumerate(singles):
            single_out[i] = single.step(actions[i:i + 1])
            for field in VecStep._fields:
                assert np.array_equal(getattr(single_out[i], field)[0], getattr(out, field)[i]), (i, field)
        ends += int(out.terminated.sum())
    assert ends > 0  # the comparison crossed autoresets


def test_the_batch_equals_the_pettingzoo_env_game_after_game():
    n, steps = 3, 400
    env = VecEnv(n, layout="planes", seed=90)
    out = env.reset()
    aecs = [aec_env() for _ in range(n)]
    for i, a in enumerate(aecs):
        a.reset(seed=90 + i)
    rng = np.random.default_rng(1)
    games = 0
    for _ in range(steps):
        for i, a in enumerate(aecs):
            obs, *_ = a.last()
            assert np.array_equal(obs["observation"], out.observation[i])
            assert np.array_equal(obs["action_mask"], out.action_mask[i])
            assert a.agent_selection == f"player_{out.current_player[i]}"
        actions = random_actions(out.action_mask, rng)
        out = env.step(actions)
        for i, a in enumerate(aecs):
            a.step(int(actions[i]))
            if out.terminated[i]:
                games += 1
                assert all(a.terminations.values())
                assert [a.rewards[f"player_{p}"] for p in range(2)] == out.reward[i].tolist()
                a.reset()  # the stream's next episode, as the batch's autoreset
            else:
                assert not any(a.terminations.values()) and not out.reward[i].any()
    assert games > 0


@pytest.mark.parametrize("opponent", [None, "greedy", "mcts:iterations=30", "uct:iterations=30"])
def test_threads_change_nothing(opponent):
    kwargs = dict(players=2, opponent=opponent, layout="flat", seed=3)
    steps = 60 if opponent and opponent.startswith(("mcts", "uct")) else 200
    one = run(VecEnv(6, threads=1, **kwargs), steps)
    two = run(VecEnv(6, threads=2, **kwargs), steps)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def ended_games(env: VecEnv, games: int, seed: int):
    """Steps ``env`` with a random policy, yielding (output, row) for each of ``games`` games as it ends."""
    out = env.reset()
    rng = np.random.default_rng(seed)
    seen = 0
    while True:
        out = env.step(random_actions(out.action_mask, rng))
        for i in np.flatnonzero(out.terminated):
            yield out, int(i)
            seen += 1
            if seen == games:
                return


def test_same_step_autoreset_shows_the_next_episode():
    env = VecEnv(4, seed=8)
    for out, i in ended_games(env, 6, seed=2):
        info = env.info(i)
        assert info["plies"] == 0 and info["episode"] >= 1
        assert np.array_equal(out.observation[i], rosen.encode(rosen.Position.new(info["deal_seed"])))
        assert out.current_player[i] == 0
        assert sorted(out.reward[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])


def test_four_player_rewards_are_shared_by_the_team():
    for out, i in ended_games(VecEnv(8, players=4, layout="flat", seed=1), 8, seed=3):
        r = out.reward[i]
        assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("opponent", ["random", "greedy", "mcts:iterations=20"])
def test_against_an_opponent_every_observation_is_the_learners_turn(players, opponent):
    env = VecEnv(4, players=players, opponent=opponent, layout="flat", seed=21)
    out = env.reset()
    assert out.reward.shape == (4,)
    rng = np.random.default_rng(4)
    results, seats = [], {0: set(), 1: set()}
    for _ in range(150 if opponent.startswith("mcts") else 400):
        learners = [env.info(i)["learner"] for i in range(4)]
        assert [int(p) % 2 for p in out.current_player] == learners
        for learner, seat in zip(learners, out.current_player):
            seats[learner].add(int(seat))
        out = env.step(random_actions(out.action_mask, rng))
        results += out.reward[out.terminated].tolist()
    assert results and set(results) <= {-1.0, 0.0, 1.0}
    # R13: the learner plays both seats of its colour (0 and 2 for Red), the opponent neither.
    assert seats == ({0: {0}, 1: {1}} if players == 2 else {0: {0, 2}, 1: {1, 3}})


def test_a_fixed_seat_plays_that_colour():
    env = VecEnv(4, opponent="random", seat=1, seed=2)
    out = env.reset()
    assert out.current_player.tolist() == [1, 1, 1, 1]
    assert all(env.info(i)["learner"] == 1 for i in range(4))


def learner_score(opponent: str, games: int = 128) -> float:
    env = VecEnv(32, opponent=opponent, seed=0, layout="flat")
    return float(np.mean([out.reward[i] for out, i in ended_games(env, games, seed=5)]))


def test_the_opponents_play_their_strength():
    """A random learner breaks even against random, loses against MCTS (seeded: exact figures)."""
    assert abs(learner_score("random")) < 0.1
    assert learner_score("mcts:iterations=50", games=64) < -0.8


def _opponent_games(opponent: str, players: int, steps: int = 12) -> list:
    """The positions four environments reach against ``opponent`` with the same learner's moves."""
    env = VecEnv(4, players=players, opponent=opponent, seed=11, layout="flat", autoreset=False)
    out, rng = env.reset(), np.random.default_rng(2)
    for _ in range(steps):
        if out.terminated.all():
            break
        out = env.step(random_actions(out.action_mask, rng))
    return [env.position(i).fen() for i in range(4)]


@pytest.mark.parametrize("players, network, other", [(2, "builtin", "builtin-team"), (4, "builtin-team", "builtin")])
def test_the_mcts_opponent_searches_with_its_network(players, network, other):
    # The VecEnv dropped an mcts opponent's evaluator= and searched with rollouts (F44); "auto" is
    # the shipped network of the game.
    games = {e: _opponent_games(f"mcts:evaluator={e},iterations=60", players) for e in (network, other, "auto")}
    rollouts = _opponent_games("mcts:iterations=60", players)
    assert games["auto"] == games[network]
    assert games[network] != rollouts and games[network] != games[other]


def test_preallocated_outputs_are_filled_in_place():
    env = VecEnv(3, layout="flat", seed=4)
    fresh = env.reset()
    again = VecEnv(3, layout="flat", seed=4)
    buffers = VecStep(*(np.zeros_like(a) for a in fresh))
    out = again.reset(out=buffers)
    assert out is buffers
    for x, y in zip(fresh, buffers):
        assert np.array_equal(x, y)
    actions = fresh.action_mask.argmax(axis=1)
    stepped = env.step(actions)
    assert again.step(actions, out=buffers) is buffers
    for x, y in zip(stepped, buffers):
        assert np.array_equal(x, y)
    again_actions = stepped.action_mask.argmax(axis=1)
    assert env.step(again_actions).observation is not stepped.observation  # fresh arrays otherwise


def test_reset_with_a_seed_restarts_the_streams_and_without_deals_the_next_episode():
    env = VecEnv(2, seed=0)
    first = env.reset().observation.copy()
    second = env.reset().observation.copy()
    assert not np.array_equal(first, second)
    assert np.array_equal(env.reset(seed=0).observation, first)
    assert env.info(1)["episode"] == 0
    assert np.array_equal(env.reset(seed=[0, 1]).observation, first)


def test_autoreset_off_keeps_finished_games_until_reset():
    env = VecEnv(3, seed=6, autoreset=False)
    assert env.metadata["autoreset_mode"] == "Disabled"
    out = env.reset()
    rng = np.random.default_rng(6)
    while not out.terminated.all():
        actions = random_actions(out.action_mask, rng)
        actions[out.terminated] = -1
        before = out.terminated.copy()
        out = env.step(actions)
        for i in np.flatnonzero(before):
            assert out.terminated[i] and out.current_player[i] == -1 and not out.action_mask[i].any()
            assert not out.reward[i].any()  # the reward came once, in the step that ended the game
    with pytest.raises(rosen.InvalidArgumentError, match=r"actions\[0\]: the game of environment 0 is over"):
        env.step(np.zeros(3, np.int32))
    out = env.reset(indices=[1])
    assert out.terminated.tolist() == [True, False, True]
    assert out.current_player.tolist() == [-1, 0, -1]
    assert env.info(1)["episode"] == 1


def bad_step(env: VecEnv, actions, error, match):
    state = [env.position(i) for i in range(env.num_envs)]
    plies = [env.info(i)["plies"] for i in range(env.num_envs)]
    with pytest.raises(error, match=match) as info:
        env.step(actions)
    assert [env.position(i) for i in range(env.num_envs)] == state
    assert [env.info(i)["plies"] for i in range(env.num_envs)] == plies
    return info.value


def test_bad_actions_are_rejected_and_change_nothing():
    env = VecEnv(2, seed=1)
    with pytest.raises(rosen.InvalidArgumentError, match="call reset"):
        env.step(np.zeros(2, np.int32))
    out = env.reset()
    legal = out.action_mask.argmax(axis=1).astype(np.int32)
    illegal = int(np.flatnonzero(out.action_mask[1] == 0)[0])
    assert bad_step(env, legal.astype(np.float64), rosen.ArgumentTypeError, "actions: expected an integer array").field == "actions"
    bad_step(env, legal[:1], rosen.InvalidArgumentError, r"actions: expected shape \(2,\), got \(1,\)")
    bad_step(env, legal.reshape(1, 2), rosen.InvalidArgumentError, r"expected shape \(2,\)")
    bad_step(env, np.array([legal[0], 50]), rosen.InvalidArgumentError, r"actions\[1\]: expected an action 0..49, got 50")
    bad_step(env, np.array([legal[0], -1], np.int32), rosen.InvalidArgumentError, r"actions\[1\]: expected an action 0..49, got -1")
    bad_step(env, np.array([legal[0], 2**40]), rosen.InvalidArgumentError, r"actions\[1\]: expected an action 0..49")
    err = bad_step(env, np.array([legal[0], illegal], np.int32), rosen.IllegalMoveError,
                   rf"actions\[1\]: action {illegal} \(.*\) is not legal in environment 1; legal actions: ")
    assert err.field == "actions"
    assert not env.step(legal).terminated.any()  # and the env still steps


def test_bad_arguments_name_their_field():
    cases = [
        (dict(num_envs=0), "num_envs"), (dict(num_envs=2, players=3), "players"),
        (dict(num_envs=2, layout="cube"), "layout"), (dict(num_envs=2, seat=2), "seat"),
        (dict(num_envs=2, threads=0), "threads"), (dict(num_envs=2, reshuffle="never"), "reshuffle"),
        (dict(num_envs=2, seed=-1), "seed"), (dict(num_envs=2, seed=[1]), "seed"),
        (dict(num_envs=2, seed=2**64 - 1), "seed"),  # the last environment's seed would be 2**64
        (dict(num_envs=2, seed=[0, 2**64]), "seed[1]"),
        (dict(num_envs=2, opponent="human"), "opponent"), (dict(num_envs=2, opponent="alphabeta:depth=3"), "opponent"),
        (dict(num_envs=2, opponent="mcts:iterations=0"), "opponent"), (dict(num_envs=2, opponent="mcts:time_ms=5"), "opponent"),
        (dict(num_envs=2, opponent=print), "opponent"), (dict(num_envs=2, autoreset=1), "autoreset"),
    ]
    for kwargs, field in cases:
        with pytest.raises(rosen.RosenError) as info:
            VecEnv(**kwargs)
        assert info.value.field == field, kwargs
        assert str(info.value).startswith(field), str(info.value)
    assert VecEnv(2, seed=2**64 - 2).reset() is not None  # the seeds 2**64 - 2 and 2**64 - 1
    env = VecEnv(2)
    env.reset()
    with pytest.raises(rosen.InvalidArgumentError, match=r"indices\[0\]: expected 0..1, got 2"):
        env.reset(indices=[2])
    with pytest.raises(rosen.InvalidArgumentError, match=r"indices\[0\]: expected 0..1, got 18446744073709551615"):
        env.reset(indices=np.array([2**64 - 1], np.uint64))  # once "got -1", after the cast to int64
    with pytest.raises(rosen.ArgumentTypeError, match="out: expected a VecStep"):
        env.reset(out=(1, 2))
    wrong = VecStep(*(np.zeros_like(a) for a in env.reset()))._replace(reward=np.zeros((2,), np.float32))
    with pytest.raises(rosen.InvalidArgumentError, match=r"reward: expected shape \(2, 2\)"):
        env.reset(out=wrong)


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_to_the_end_are_counted(players):
    """The training-loop smoke test: a random policy over many games, every count checked."""
    n = 16
    env = VecEnv(n, players=players, layout="flat", seed=100)
    out = env.reset()
    rng = np.random.default_rng(7)
    games = steps = 0
    lengths = np.zeros(n, int)
    bound = SingleGame(players, "eager", "flat").players * 120
    while games < 64:
        out = env.step(random_actions(out.action_mask, rng))
        steps += n
        lengths += 1
        for i in np.flatnonzero(out.terminated):
            games += 1
            assert 0 < lengths[i] <= bound
            assert out.reward[i].sum() == 0
            lengths[i] = 0
        assert (out.action_mask.sum(axis=1) >= 1).all()
    assert sum(env.info(i)["episode"] for i in range(n)) == games


def test_an_empty_index_list_resets_nothing():
    # An empty list once meant "every environment", and with seed= the core read past the empty
    # seed array for every environment's stream.
    env = VecEnv(3, seed=10)
    env.reset()
    before = [(env.position(i), env.info(i)["episode"], env.info(i)["deal_seed"]) for i in range(3)]
    for kwargs in ({}, {"seed": 5}, {"seed": []}):
        env.reset(indices=[], **kwargs)
        assert [(env.position(i), env.info(i)["episode"], env.info(i)["deal_seed"]) for i in range(3)] == before
    with pytest.raises(rosen.InvalidArgumentError, match="the first reset"):
        VecEnv(2).reset(indices=[])


def test_load_refuses_a_game_the_next_step_cannot_act_in():
    # A finished game once stayed terminated for ever (autoreset happens after a step), and with
    # an opponent a position with the opponent to move had the learner's action played for it.
    finished = rosen.Position.new(seed=3)
    while not finished.is_terminal:
        finished = finished.play(finished.legal_moves()[0])
    env = VecEnv(1, seed=3)
    env.reset()
    before = env.position(0)
    with pytest.raises(rosen.InvalidArgumentError, match="position: the game is over"):
        env.load(0, finished)
    assert env.position(0) == before
    versus = VecEnv(1, seed=3, opponent="random", seat=0)
    versus.reset()
    white_to_move = rosen.Position.new(seed=3).play(rosen.Position.new(seed=3).legal_moves()[0])
    with pytest.raises(rosen.InvalidArgumentError, match=r"the opponent is to move; load one with the learner \(red\)"):
        versus.load(0, white_to_move)
    versus.load(0, rosen.Position.new(seed=4))  # red to move: the learner's turn
    assert versus.position(0) == rosen.Position.new(seed=4).hide_pile_order()


@pytest.mark.parametrize("players", [2, 4])
def test_nothing_reads_a_game_before_the_first_reset(players):
    # Before reset no deal exists (no card anywhere): position() once handed that out as a
    # rosen.Position no rule allows, whose search crashed the process (SIGSEGV) or never ended,
    # and whose draw left the pile at 255 cards; the single game's mask called draw legal.
    env = VecEnv(2, players=players)
    with pytest.raises(rosen.InvalidArgumentError, match=r"^index: call reset\(\) before position\(\)"):
        env.position(1)
    game = rosen._core._EnvGame(players, "eager")
    for read, field in [(lambda: game.position, "position"), (game.mask, "action_mask"),
                        (lambda: game.legal(0), "action"), (lambda: game.observe(0, "flat"), "seat")]:
        with pytest.raises(rosen.InvalidArgumentError, match=rf"^{field}: call reset\(\) before ") as info:
            read()
        assert info.value.field == field
    env.reset(seed=np.array([3, 4], dtype=np.uint64))
    dealt = env.position(1)
    assert rosen.Position(dealt.fen()) == dealt and dealt.supply == 52
    assert dealt.is_legal(rosen.search(dealt, iterations=50).best_move)


def test_step_plays_the_actions_as_they_were_when_it_was_called():
    # step read the caller's array twice without the GIL (to check the actions, then to play
    # them): another thread's write in between was played unchecked (impossible positions, and an
    # out-of-bounds read under ASan). The actions are now copied first.
    import threading

    env, twin = (VecEnv(64, seed=1, opponent="mcts:iterations=3000") for _ in range(2))
    out = env.reset()
    twin.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in out.action_mask], np.int32)
    original = actions.copy()
    timer = threading.Timer(0.05, lambda: actions.__setitem__(slice(None), 127))  # mid-step: the opponents search
    timer.start()
    env.step(actions)
    timer.join()
    twin.step(original)
    assert all(env.position(i) == twin.position(i) for i in range(64))
