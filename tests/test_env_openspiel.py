"""The OpenSpiel game (rosen.openspiel, "python_rosenkoenig"): OpenSpiel's own random_sim_test with
serialisation for 2 and 4 players and both reshuffle rules, explicit chance nodes for the deal and
every draw, max_game_length an upper bound, the observation tensor the one encoder's, OpenSpiel's
MCTS bot playing it, and the committed playthrough replaying exactly."""
from __future__ import annotations

import pathlib
import re

import numpy as np
import pyspiel
import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough, mcts

import rosen
import rosen.openspiel
from rosen.openspiel import max_game_length

GOLDEN = pathlib.Path(__file__).parent / "golden"


def load(players: int = 2, reshuffle: str = "eager"):
    return pyspiel.load_game(f"python_rosenkoenig(players={players},reshuffle={reshuffle})")


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("reshuffle", ["eager", "lazy"])
def test_openspiel_random_sim_test_with_serialisation(players, reshuffle):
    pyspiel.random_sim_test(load(players, reshuffle), num_sims=10, serialize=True, verbose=False)


def sample(state, rng):
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        return int(rng.choice(actions, p=probs))
    return int(rng.choice(state.legal_actions()))


def dealt(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    return state


def test_the_deal_is_chance_so_initial_states_differ():
    game = load()
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 24
    deals = {str(dealt(game, rng)) for _ in range(5)}
    assert len(deals) == 5
    four = dealt(load(4), rng)
    assert len(four.history()) == 12 and four.current_player() == 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_player_to_act_is_a_plain_int_as_in_openspiels_own_games(players):
    # current_player() returned pyspiel.PlayerId members at chance and terminal nodes: under
    # open-spiel 1.5-1.6.5 (which the extra admitted) not ints at all, so playthroughs and error
    # messages read "PlayerId.CHANCE", and json.dumps refused them.
    native = pyspiel.load_game("kuhn_poker").new_initial_state()
    assert type(native.current_player()) is int and native.current_player() == pyspiel.PlayerId.CHANCE
    rng = np.random.default_rng(1)
    state, seen = load(players).new_initial_state(), set()
    while True:
        player = state.current_player()
        assert type(player) is int and str(player) == repr(player) == str(int(player))
        seen.add(player if player < 0 else "seat")
        if state.is_terminal():
            break
        state.apply_action(sample(state, rng))
    assert seen == {int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL), "seat"}


@pytest.mark.parametrize("players", [2, 4])
def test_every_draw_is_a_chance_node_over_the_pile(players):
    game = load(players)
    rng = np.random.default_rng(1)
    state = dealt(game, rng)
    draws = 0
    while not state.is_terminal():
        assert state.position.draw_pile is None  # no order exists to be observed (R14)
        if not state.is_chance_node() and 48 in state.legal_actions() and rng.random() < 0.5:
            state.apply_action(48)
            assert state.is_chance_node()
            outcomes = state.chance_outcomes()
            cards = {card for card, _ in state.position.draw_outcomes()}
            assert {rosen.encoding.action_names()[c] for c, _ in outcomes} == cards
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            draws += 1
        state.apply_action(sample(state, rng))
    assert draws > 0
    assert sum(state.returns()) == 0 and state.returns()[0] in (-1.0, 0.0, 1.0)


@pytest.mark.parametrize("players", [2, 4])
def test_each_seat_is_paid_its_colours_result(players):
    # Seats take turns by colour (r1, w1, r2, w2): partners share their colour's result (R13).
    game = load(players)
    rng = np.random.default_rng(2)
    winners = set()
    for _ in range(6):
        state = dealt(game, rng)
        while not state.is_terminal():
            state.apply_action(sample(state, rng))
        winner = state.position.winner
        red = {"red": 1.0, "white": -1.0}.get(winner, 0.0)
        assert state.returns() == [red if seat % 2 == 0 else -red for seat in range(players)], winner
        winners.add(winner)
    assert {"red", "white"} <= winners


@pytest.mark.parametrize("players", [2, 4])
def test_max_game_length_bounds_random_games(players):
    game = load(players)
    assert game.max_game_length() == max_game_length(players) == 120 * players
    rng = np.random.default_rng(2)
    for _ in range(10):
        state = dealt(game, rng)
        decisions = 0
        while not state.is_terminal():
            decisions += not state.is_chance_node()
            state.apply_action(sample(state, rng))
        assert decisions <= game.max_game_length()


@pytest.mark.parametrize("players", [2, 4])
def test_the_observation_tensor_is_the_encoder_from_each_chair(players):
    game = load(players)
    state = dealt(game, np.random.default_rng(3))
    for _ in range(10):
        state.apply_action(sample(state, np.random.default_rng(len(state.history()))))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mover = state.current_player()
    assert np.array_equal(np.array(state.observation_tensor(mover), np.float32),
                          rosen.encode(state.position, layout="flat"))
    assert game.observation_tensor_shape() == [477]
    planes = game.make_py_observer(params={"layout": "planes"})
    planes.set_from(state, mover)
    assert np.array_equal(planes.dict["observation"], rosen.encode(state.position).astype(np.float32))
    flat = game.make_py_observer()
    flat.set_from(state, mover)
    # docs/rl.md names every piece (it once left out encoder v2's five)
    assert {k: v.shape for k, v in flat.dict.items()} == {
        "hand": (4, 24), "discard": (24,), "pile": (24,), "own_token": (9, 9), "opponent_token": (9, 9),
        "crown": (9, 9), "heroes": (4,), "public": (7,), "score": (3,), "largest": (2,), "tokens": (2,),
        "gain": (48,), "threat": (24,)}


def test_openspiels_mcts_bot_plays_it():
    game = load()
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probs))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 10 and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_bad_parameters_are_named():
    with pytest.raises(Exception, match="players: expected 2 or 4, got 3"):
        pyspiel.load_game("python_rosenkoenig(players=3)")
    with pytest.raises(Exception, match="reshuffle"):
        pyspiel.load_game("python_rosenkoenig(reshuffle=never)")
    with pytest.raises(rosen.InvalidArgumentError, match="layout"):
        load().make_py_observer(params={"layout": "cube"})
    for players in (2.7, "x"):  # built directly, not through pyspiel.load_game: 2.7 once became 2
        with pytest.raises(rosen.ArgumentTypeError, match="players: expected an int"):
            rosen.openspiel.RosenkoenigGame({"players": players})


def test_the_committed_playthrough_replays():
    if not flags.FLAGS.is_parsed():  # generate_playthrough reads an absl flag
        flags.FLAGS.mark_as_parsed()
    original, regenerated = generate_playthrough.replay(str(GOLDEN / "openspiel_playthrough.txt"))
    assert original == regenerated


def test_bad_actions_raise_and_change_nothing():
    state = load().new_initial_state()
    state.apply_action(3)
    for action in (3, 24):  # a card already dealt, not a card (OpenSpiel itself refuses -1)
        with pytest.raises(rosen.InvalidArgumentError, match=f"action: chance outcome {action} cannot happen here"):
            state.apply_action(action)
    assert state.history() == [3] and len(state.chance_outcomes()) == 23
    state = dealt(load(), np.random.default_rng(5))
    before = (state.history(), str(state))
    illegal = next(a for a in range(50) if a not in state.legal_actions())
    for action in (illegal, 50):
        with pytest.raises(rosen.IllegalMoveError, match=f"action: {action} is not legal here"):
            state.apply_action(action)
    assert (state.history(), str(state)) == before


@pytest.mark.parametrize("players", [2, 4])
def test_deserialize_state_rebuilds_from_the_history(players):
    game, rng = load(players, "lazy"), np.random.default_rng(players)
    state = game.new_initial_state()
    while not state.is_terminal():
        copy = game.deserialize_state(state.serialize())
        assert (copy.history(), str(copy), copy.move_number()) == (state.history(), str(state), state.move_number())
        assert copy.legal_actions() == state.legal_actions() and copy.is_chance_node() == state.is_chance_node()
        for _ in range(7):
            if not state.is_terminal():
                state.apply_action(sample(state, rng))
    assert game.deserialize_state(state.serialize()).returns() == state.returns()


def test_deserialize_state_never_unpickles_and_checks_every_entry(tmp_path):
    # OpenSpiel's reader for Python games unpickles the text's __dict__ line: a crafted one ran
    # code, and a __dict__ from another state than the history's was taken as it came.
    import base64
    import os
    import pickle

    class RunsCode:
        def __reduce__(self):
            return os.makedirs, (str(tmp_path / "ran"),)

    game = load()
    state = dealt(game, np.random.default_rng(3))
    history, number, _ = state.serialize().split("\n", 2)
    crafted = f"{history}\n{number}\n__dict__={base64.b64encode(pickle.dumps({'x': RunsCode()})).decode()}"
    assert str(game.deserialize_state(crafted)) == str(state)
    assert not (tmp_path / "ran").exists()
    for text, words in [
        ("garbage", "expected the text of state.serialize()"), ("", "expected the text"),
        ("history=0:3\nmove_number=1\n__dict__=", "is player 0's, but player -1 acts there"),
        ("history=-1:99\nmove_number=1\n__dict__=", "chance outcome 99 cannot happen here"),
        ("history=-1:3,-1:3\nmove_number=2\n__dict__=", "history entry 1 (-1:3): action: chance outcome 3"),
        ("history=-1:1_0\nmove_number=1\n__dict__=", "history entry 0 is '-1:1_0', expected player:action"),
        (f"{history}\nmove_number=7\n__dict__=", "move_number=7 does not match its history's 10"),
    ]:
        with pytest.raises(rosen.InvalidArgumentError, match=f"^state: .*{re.escape(words)}") as info:
            game.deserialize_state(text)
        assert info.value.field == "state"
    with pytest.raises(rosen.ArgumentTypeError, match="^state: expected the text"):
        game.deserialize_state(b"history=")


def test_action_to_string_refuses_ids_out_of_range():
    # A negative id once indexed from the end (-1 read 'pass'), 50 raised a bare IndexError.
    state = load().new_initial_state()
    for player, action, high in [(pyspiel.PlayerId.CHANCE, -1, 23), (pyspiel.PlayerId.CHANCE, 24, 23)]:
        with pytest.raises(rosen.InvalidArgumentError, match=f"^action: expected 0..{high}, got {action}"):
            state.action_to_string(player, action)
    state = dealt(load(), np.random.default_rng(5))
    for action in (-1, -3, 50):
        with pytest.raises(rosen.InvalidArgumentError, match=f"^action: expected 0..49, got {action}"):
            state.action_to_string(0, action)
    assert state.action_to_string(0, 48) == "draw"


_PICKLE_EVERY_PROTOCOL = """
import copy, pickle, rosen.openspiel as ro
game = ro.RosenkoenigGame({"players": 4, "reshuffle": "lazy"})
state = game.new_initial_state()
for _ in range(20):
    state.apply_action(state.legal_actions()[-1])
for copied in [copy.deepcopy(game), copy.copy(game)] + [pickle.loads(pickle.dumps(game, p)) for p in range(6)]:
    assert (copied.players, copied.reshuffle) == (4, "lazy")
    assert str(copied.new_initial_state()) == str(game.new_initial_state())
for copied in [copy.deepcopy(state)] + [pickle.loads(pickle.dumps(state, p)) for p in range(6)]:
    assert type(copied) is type(state) and str(copied) == str(state)
    assert copied.get_game().players == 4
    copied.apply_action(copied.legal_actions()[0])
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert str(copied) == str(twin)
game.__reduce__(), state.__reduce__()
print("ok")
"""


def test_game_and_state_pickle_at_every_protocol_and_stay_usable():
    # Protocols 0 and 1 (and a bare __reduce__()) aborted the process (pybind11's uncaught C++
    # exception, as pyspiel's own Python games do); a pickled or deep-copied game had lost its
    # `players`, so its new_initial_state() raised. In a subprocess: the old failure was an abort.
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", _PICKLE_EVERY_PROTOCOL], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
