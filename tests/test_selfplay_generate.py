"""rosen.selfplay.generate (issue 11): reproducible self-play rows (docs/selfplay.md, "Shards") and
game records, the same for any thread count and any split of the game range; rows agree with the
replayed games; the search never sees the pile order (R14); exploration knobs; hostile arguments."""
from __future__ import annotations

import math

import numpy as np
import pytest

import rosen
from rosen import _core
from rosen.match import ALL_CARDS, replay
from rosen.selfplay import COLUMNS, SelfPlayBatch, generate

MCTS = "mcts:iterations=60"
SPEC_DTYPES = {"game": "int64", "ply": "int32", "players": "int8", "reshuffle": "int8", "tokens": "uint64",
               "crown": "int8", "hands": "uint32", "discard": "uint32", "pile": "uint32", "heroes": "int8",
               "to_move": "int8", "legal": "bool", "visits": "uint32", "root_value": "float32",
               "root_margin": "float32", "action": "uint8", "result": "float32", "final_margin": "int16",
               "weight": "float32", "full_search": "bool"}
WIDTH = {"tokens": (2, 2), "hands": (4,), "heroes": (4,), "legal": (50,), "visits": (50,)}


def same_bytes(a: SelfPlayBatch, b: SelfPlayBatch) -> bool:
    return a.rows.keys() == b.rows.keys() and all(
        a.rows[k].dtype == b.rows[k].dtype and a.rows[k].shape == b.rows[k].shape
        and a.rows[k].tobytes() == b.rows[k].tobytes() for k in a.rows) and a.games == b.games


# --- the position a row describes, from a rosen.Position ---

def card_mask(cards) -> int:
    return sum(1 << ALL_CARDS.index(c) for c in cards)


def square(name: str) -> int:
    return (int(name[1]) - 1) * 9 + ord(name[0]) - ord("a")


def action_of(move: str) -> int:
    if move.startswith("draw"):
        return 48
    if move == "pass":
        return 49
    if move.startswith("H:"):
        return 24 + ALL_CARDS.index(move[2:])
    return ALL_CARDS.index(move)


def player_index(pos: rosen.Position) -> int:
    return {"r": 0, "w": 1, "r1": 0, "w1": 1, "r2": 2, "w2": 3}[pos.turn]


def check_row(rows: dict, r: int, pos: rosen.Position, move: str) -> None:
    board = pos.board.reshape(81)
    for colour in (0, 1):
        bits = sum(1 << int(s) for s in np.flatnonzero(board == colour + 1))
        assert int(rows["tokens"][r, colour, 0]) == bits & (2**64 - 1)
        assert int(rows["tokens"][r, colour, 1]) == bits >> 64
    assert rows["crown"][r] == square(pos.crown)
    hands = [card_mask(h) for h in pos.hands] + [0] * (4 - pos.players)
    assert rows["hands"][r].tolist() == hands
    heroes = list(pos.heroes) + [0] * (4 - pos.players)
    assert rows["heroes"][r].tolist() == heroes
    assert rows["discard"][r] == card_mask(pos.discard)
    assert rows["pile"][r] == card_mask(pos.pile_cards)
    assert rows["to_move"][r] == player_index(pos)
    assert rows["players"][r] == pos.players
    assert rows["reshuffle"][r] == (pos.reshuffle == "lazy")
    legal = sorted(action_of(str(m)) for m in pos.legal_moves())
    assert np.flatnonzero(rows["legal"][r]).tolist() == legal
    assert rows["action"][r] == action_of(move)
    assert rows["legal"][r, rows["action"][r]]
    assert np.all(rows["visits"][r][~rows["legal"][r]] == 0)


def check_batch_against_replay(batch: SelfPlayBatch) -> None:
    rows = batch.rows
    r = 0
    for game in batch.games:
        final = replay(game)  # raises if a move, the winner or the scores do not replay
        assert final.winner == game["winner"] and list(final.scores) == game["scores"]
        pos = rosen.Position.new(game["seed"], players=game["players"], reshuffle=game["reshuffle"])
        for ply, move in enumerate(game["moves"]):
            if r < len(rows["game"]) and rows["game"][r] == game["game"] and rows["ply"][r] == ply:
                check_row(rows, r, pos, move)
                colour = int(rows["to_move"][r]) % 2
                me, other = game["scores"][colour], game["scores"][1 - colour]
                assert rows["final_margin"][r] == me - other
                won = game["winner"] == ("red", "white")[colour]
                assert rows["result"][r] == (0.5 if game["winner"] == "draw" else 1.0 if won else 0.0)
                r += 1
            else:  # no row: a forced move (or an unrecorded cheap search)
                assert len(pos.legal_moves()) == 1 or batch.settings.get("full_search_probability", 1.0) < 1
            pos = pos.play(move)
    assert r == len(rows["game"]), "every row belongs to a game position, in (game, ply) order"


# --- shape of the output ---

@pytest.mark.parametrize("agent", ["random", "greedy", MCTS])
def test_rows_follow_the_spec(agent):
    batch = generate(3, seed=2, agent=agent)
    assert tuple(batch.rows) == COLUMNS
    n = batch.num_rows
    assert n > 50
    for name, dtype in SPEC_DTYPES.items():
        assert batch.rows[name].dtype.name == dtype, name
        assert batch.rows[name].shape == (n,) + WIDTH.get(name, ()), name
    assert [g["game"] for g in batch.games] == [0, 1, 2]
    assert set(batch.games[0]) == {"game", "seed", "players", "reshuffle", "red", "white", "winner", "scores",
                                   "plies", "moves"}
    assert batch.games[0]["red"] == batch.games[0]["white"] == agent
    assert all(g["seed"] == _core._selfplay_seeds(2, g["game"], 0)[0] for g in batch.games)
    assert np.all(batch.rows["weight"] == 1) and np.all(batch.rows["full_search"])
    if agent == MCTS:
        assert np.all((batch.rows["root_value"] >= 0) & (batch.rows["root_value"] <= 1))
        assert np.all(batch.rows["visits"].sum(axis=1) >= 60)
    else:  # one-hot visits, no value
        assert np.all(batch.rows["visits"].sum(axis=1) == 1)
        assert np.all(batch.rows["visits"][np.arange(n), batch.rows["action"]] == 1)
        assert np.all(np.isnan(batch.rows["root_value"])) and np.all(np.isnan(batch.rows["root_margin"]))


@pytest.mark.parametrize("agent, players, reshuffle", [
    ("random", 2, "eager"), ("random", 4, "lazy"), ("greedy", 2, "lazy"), ("greedy", 4, "eager"),
    (MCTS, 2, "eager"), (MCTS, 4, "lazy")])
def test_rows_match_the_replayed_games(agent, players, reshuffle):
    batch = generate(4 if agent == MCTS else 12, seed=7, agent=agent, players=players, reshuffle=reshuffle)
    check_batch_against_replay(batch)


# --- reproducibility ---

@pytest.mark.parametrize("agent", ["random", "greedy", MCTS])
def test_threads_do_not_change_a_byte(agent):
    games = 6 if agent == MCTS else 40
    one = generate(games, seed=11, agent=agent, threads=1)
    assert same_bytes(one, generate(games, seed=11, agent=agent, threads=2))
    assert same_bytes(one, generate(games, seed=11, agent=agent, threads=5))


@pytest.mark.parametrize("agent, games, cut", [("random", 100, 50), ("greedy", 100, 37), (MCTS, 6, 2)])
def test_a_split_range_gives_the_same_bytes(agent, games, cut):
    whole = generate(games, seed=3, agent=agent)
    parts = SelfPlayBatch.concat([generate(cut, seed=3, agent=agent),
                                  generate(games - cut, seed=3, first_game=cut, agent=agent, threads=2)])
    assert same_bytes(whole, parts)


def test_seeds_and_game_indices_matter():
    a = generate(3, seed=1, agent="random")
    assert not same_bytes(a, generate(3, seed=2, agent="random"))
    assert generate(1, seed=1, first_game=2, agent="random").games == a.games[2:]


# --- R14 and plain play ---

def search_as_selfplay(game: dict, rows: dict, params: dict, *, scramble: bool) -> None:
    """Replay a game and search every recorded decision with a plain searcher (one tree for the
    game, the decision's stream): the row's visits and action must come out. With ``scramble``
    the searched position holds the draw pile in another order -- which must change nothing (R14)."""
    searcher = _core._Searcher(params)
    pos = rosen.Position.new(game["seed"], players=game["players"], reshuffle=game["reshuffle"])
    r = int(np.searchsorted(rows["game"], game["game"]))
    scrambled_some = False
    for ply, move in enumerate(game["moves"]):
        if len(pos.legal_moves()) > 1:
            assert rows["ply"][r] == ply
            searched = pos
            if scramble and pos.draw_pile and len(pos.draw_pile) > 1:
                fields = pos.fen().split(" ")
                fields[-1] = ",".join(reversed(pos.draw_pile))
                searched = rosen.Position(" ".join(fields), reshuffle=pos.reshuffle)
                assert searched.draw_pile != pos.draw_pile and searched.hide_pile_order() == pos.hide_pile_order()
                scrambled_some = True
            stream = _core._selfplay_seeds(0, game["game"], ply)[1]
            result = searcher.search(searched, iterations=params["iterations"], time_ms=0, stream=stream)
            visits = np.zeros(50, np.uint32)
            for m, v, *_ in result.moves:
                visits[action_of(m)] = v
            assert visits.tolist() == rows["visits"][r].tolist()
            assert action_of(result.best_move) == rows["action"][r]
            r += 1
        pos = pos.play(move)
    assert not scramble or scrambled_some


def test_mcts_rows_are_plain_searches_of_the_public_position_R14():
    batch = generate(2, agent="mcts:iterations=40,rollout_cutoff=4")
    for game in batch.games:
        search_as_selfplay(game, batch.rows, {"iterations": 40, "rollout_cutoff": 4}, scramble=False)
        search_as_selfplay(game, batch.rows, {"iterations": 40, "rollout_cutoff": 4}, scramble=True)


def test_rows_hold_the_pile_as_a_set_only_R14():
    batch = generate(5, seed=4, agent=MCTS)
    assert set(batch.rows) == set(COLUMNS)  # no order, no generator state among the columns
    # The pile column is the set of pile cards and nothing else: it is disjoint from the hands and
    # the discard, and together they are all 24 cards.
    rows = batch.rows
    held = np.bitwise_or.reduce(rows["hands"], axis=1) | rows["discard"]
    assert np.all(rows["pile"] & held == 0) and np.all(rows["pile"] | held == (1 << 24) - 1)


def test_the_search_choice_does_not_depend_on_the_pile_order_R14():
    pos = rosen.Position.new(5)
    fields = pos.fen().split(" ")
    other = rosen.Position(" ".join(fields[:-1] + [",".join(reversed(pos.draw_pile))]))
    assert other.draw_pile != pos.draw_pile
    stream = _core._selfplay_seeds(0, 0, 0)[1]
    a = _core._Searcher({"iterations": 200}).search(pos, iterations=200, time_ms=0, stream=stream)
    b = _core._Searcher({"iterations": 200}).search(other, iterations=200, time_ms=0, stream=stream)
    assert a.best_move == b.best_move and a.moves == b.moves


# --- exploration ---

def test_knobs_at_their_off_values_are_plain_play():
    plain = generate(3, seed=9, agent=MCTS)
    assert same_bytes(plain, generate(3, seed=9, agent=MCTS, temperature=0.5, temperature_plies=0,
                                      dirichlet_alpha=0.03, dirichlet_fraction=0.0, full_search_probability=1.0,
                                      cheap_iterations=5, record_cheap=True))


def test_temperature_samples_early_moves_deterministically():
    plain = generate(4, seed=9, agent=MCTS)
    hot = generate(4, seed=9, agent=MCTS, temperature=2.0, temperature_plies=30)
    assert same_bytes(hot, generate(4, seed=9, agent=MCTS, temperature=2.0, temperature_plies=30, threads=2))
    assert not same_bytes(plain, hot)
    rows = hot.rows
    chosen = rows["visits"][np.arange(hot.num_rows), rows["action"]]
    best = rows["visits"].max(axis=1)
    assert np.any(chosen[rows["ply"] < 30] < best[rows["ply"] < 30])  # some early move was not the best
    assert np.all(chosen[rows["ply"] >= 30] == best[rows["ply"] >= 30])  # later: the most visited
    check_batch_against_replay(hot)


def test_dirichlet_noise_changes_the_searches_deterministically():
    agent = "mcts:iterations=60,prior_weight=3"
    plain = generate(3, seed=9, agent=agent)
    noisy = generate(3, seed=9, agent=agent, dirichlet_alpha=0.3, dirichlet_fraction=0.5)
    assert same_bytes(noisy, generate(3, seed=9, agent=agent, dirichlet_alpha=0.3, dirichlet_fraction=0.5, threads=2))
    assert not same_bytes(plain, noisy)
    assert not same_bytes(noisy, generate(3, seed=9, agent=agent, dirichlet_alpha=0.3, dirichlet_fraction=0.25))
    check_batch_against_replay(noisy)


def test_playout_cap_randomisation():
    kw = dict(seed=9, agent="mcts:iterations=80", full_search_probability=0.5, cheap_iterations=8)
    unrecorded = generate(4, **kw)
    recorded = generate(4, **kw, record_cheap=True)
    assert unrecorded.games == recorded.games  # recording changes no choice
    assert np.all(unrecorded.rows["full_search"]) and np.all(unrecorded.rows["weight"] == 1)
    full = recorded.rows["full_search"]
    assert 0.3 < full.mean() < 0.7
    assert np.all(recorded.rows["weight"][full] == 1) and np.all(recorded.rows["weight"][~full] == 0)
    assert recorded.num_rows == unrecorded.num_rows + int((~full).sum())
    for name in COLUMNS:
        assert recorded.rows[name][full].tobytes() == unrecorded.rows[name].tobytes(), name
    # A cheap search ran cheap_iterations (tree reuse may add visits kept from the last search).
    assert recorded.iterations < generate(4, seed=9, agent="mcts:iterations=80").iterations
    check_batch_against_replay(recorded)
    assert generate(2, **{**kw, "full_search_probability": 0.0}).num_rows == 0


def test_cheap_searches_take_neither_noise_nor_temperature():
    # docs/selfplay.md: a cheap search "uses neither noise nor temperature" (noise goes into the
    # root priors of full searches). With noise or temperature let into the cheap searches (F95's
    # mutants), these runs of cheap searches alone changed.
    kw = dict(seed=9, agent="mcts:iterations=80", full_search_probability=0.0, cheap_iterations=30, record_cheap=True)
    plain = generate(3, **kw, dirichlet_fraction=0.0)
    noisy = generate(3, **kw, dirichlet_fraction=0.5, dirichlet_alpha=0.3)
    assert plain.num_rows == noisy.num_rows > 100 and not plain.rows["full_search"].any()
    for name in COLUMNS:
        assert plain.rows[name].tobytes() == noisy.rows[name].tobytes(), name
    warm = generate(4, **kw, temperature_plies=30).rows  # every move inside the temperature's plies
    visits = warm["visits"]
    chosen = visits[np.arange(len(visits)), warm["action"]]
    assert len(visits) > 100 and np.array_equal(chosen, visits.max(axis=1))  # each a most visited move


# --- arguments ---

@pytest.mark.parametrize("kwargs, field, error", [
    (dict(games=0), "games", ValueError),
    (dict(games="3"), "games", TypeError),
    (dict(games=True), "games", TypeError),
    (dict(seed=-1), "seed", ValueError),
    (dict(seed=2**64), "seed", ValueError),
    (dict(seed=1.5), "seed", TypeError),
    (dict(first_game=-1), "first_game", ValueError),
    (dict(players=3), "players", ValueError),
    (dict(players="2"), "players", TypeError),
    (dict(reshuffle="sometimes"), "reshuffle", ValueError),
    (dict(reshuffle=1), "reshuffle", TypeError),
    (dict(agent="alphabeta"), "agent", ValueError),
    (dict(agent="mcts:foo=1"), "agent", ValueError),
    (dict(agent="mcts:iterations=-5"), "agent", ValueError),
    (dict(agent="mcts:time_ms=100"), "agent", ValueError),
    (dict(agent="mcts:clock_ms=5000"), "agent", ValueError),
    (dict(agent="random:seed=-1"), "agent", ValueError),
    (dict(agent=5), "agent", TypeError),
    (dict(threads=0), "threads", ValueError),
    (dict(threads=1000), "threads", ValueError),
    (dict(threads=1.0), "threads", TypeError),
    (dict(temperature=0), "temperature", ValueError),
    (dict(temperature=math.nan), "temperature", ValueError),
    (dict(temperature="1"), "temperature", TypeError),
    (dict(temperature_plies=-1), "temperature_plies", ValueError),
    (dict(temperature_plies=1.5), "temperature_plies", TypeError),
    (dict(dirichlet_alpha=0), "dirichlet_alpha", ValueError),
    (dict(dirichlet_alpha=math.inf), "dirichlet_alpha", ValueError),
    (dict(dirichlet_fraction=1.5), "dirichlet_fraction", ValueError),
    (dict(dirichlet_fraction=-0.1), "dirichlet_fraction", ValueError),
    (dict(full_search_probability=2), "full_search_probability", ValueError),
    (dict(cheap_iterations=0), "cheap_iterations", ValueError),
    (dict(record_cheap=1), "record_cheap", TypeError),
    (dict(agent="random", temperature_plies=5), "temperature_plies", ValueError),
    (dict(agent="greedy", dirichlet_fraction=0.25), "dirichlet_fraction", ValueError),
    (dict(agent="random", full_search_probability=0.5), "full_search_probability", ValueError),
])
def test_bad_arguments_name_the_field(kwargs, field, error):
    kwargs = {"games": 1, "agent": "mcts:iterations=10", **kwargs}
    with pytest.raises(error) as info:
        generate(**kwargs)
    assert isinstance(info.value, rosen.RosenError)
    assert info.value.field == field and str(info.value).startswith(field)
    if kwargs["agent"] in ("mcts:foo=1", "mcts:iterations=-5", "mcts:time_ms=100", "mcts:clock_ms=5000"):
        assert kwargs["agent"].split(":")[1].split("=")[0] in str(info.value)  # names the key


@pytest.mark.parametrize("players, network", [(2, "builtin"), (4, "builtin-team")])
def test_the_auto_network_is_the_games_and_the_run_records_which(players, network):
    # mcts:evaluator=auto was refused as a missing file; the settings record the network it stands for.
    auto = generate(2, players=players, agent="mcts:evaluator=auto,iterations=30", seed=4)
    named = generate(2, players=players, agent=f"mcts:evaluator={network},iterations=30", seed=4)
    assert auto.settings["agent"] == named.settings["agent"] == f"mcts:evaluator={network},iterations=30"
    assert all(np.array_equal(auto.rows[c], named.rows[c]) for c in COLUMNS)


@pytest.mark.parametrize("kwargs, expected", [
    (dict(temperature_plies=-1), "0..100000"), (dict(temperature_plies=10**20), "0..100000"),
    (dict(cheap_iterations=0), "1..1000000000000000"), (dict(cheap_iterations=-1), "1..1000000000000000"),
    (dict(threads=0), "1..256"), (dict(threads=10**11), "1..256"),
])
def test_both_ends_of_a_range_say_the_same_range(kwargs, expected):
    # Too large once said the C int's range, too small the real one (e.g. -2147483648..2147483647).
    with pytest.raises(rosen.InvalidArgumentError, match=f"^{next(iter(kwargs))}: expected {expected}, got"):
        generate(1, agent="mcts:iterations=10", **kwargs)


def test_uct_plays_as_the_mcts_spec_it_stands_for_and_is_recorded_as_it():
    uct, spelled = "uct:iterations=30", "mcts:rollout=random,rollout_cutoff=0,minimax_weight=0,iterations=30"
    a, b = generate(2, agent=uct, seed=8), generate(2, agent=spelled, seed=8)
    assert a.settings["agent"] == b.settings["agent"] == spelled
    assert all(np.array_equal(a.rows[c], b.rows[c]) for c in COLUMNS)
    with pytest.raises(rosen.InvalidArgumentError, match="time_ms: an agent played in C"):
        generate(1, agent="uct:time_ms=20")


def test_an_mcts_spec_searches_on_one_thread_per_game():
    one, four = generate(2, agent=MCTS), generate(2, agent=MCTS + ",threads=4")
    assert all(one.rows[k].tobytes() == four.rows[k].tobytes() for k in COLUMNS)
    assert [g["moves"] for g in one.games] == [g["moves"] for g in four.games]


def test_evaluator_none_is_rollouts_and_a_network_needs_an_evaluator_to_stand_for():
    # evaluator=none reads as rollouts in self-play and the VecEnv's opponent, as in the agents and
    # the frontends (it was read as a file there); a network given for a spec that names no
    # evaluator guided nothing and was ignored without a word.
    from rosen.env import VecEnv
    from rosen.learning import random_network

    plain = generate(2, seed=3, agent="mcts:iterations=20")
    for spelled in ("none", "NONE"):
        rollouts = generate(2, seed=3, agent=f"mcts:evaluator={spelled},iterations=20")
        for name in COLUMNS:
            assert rollouts.rows[name].tobytes() == plain.rows[name].tobytes(), name
    env = VecEnv(2, seed=1, layout="flat", opponent="mcts:evaluator=none,iterations=10")
    twin = VecEnv(2, seed=1, layout="flat", opponent="mcts:iterations=10")
    out, other = env.reset(), twin.reset()
    for _ in range(20):
        assert np.array_equal(out.observation, other.observation)
        actions = out.action_mask.argmax(axis=1).astype(np.int32)
        out, other = env.step(actions), twin.step(actions)
    net = random_network(hidden=(8, 4), seed=1)
    for agent in ("mcts:iterations=20", "mcts:evaluator=none,iterations=20", "random"):
        with pytest.raises(rosen.InvalidArgumentError, match="^network: ") as err:
            generate(1, agent=agent, network=net)
        assert err.value.field == "network"
    assert generate(1, seed=3, agent="mcts:evaluator=builtin,iterations=20", network=net).num_rows > 0


def test_a_batch_prints_a_summary():
    # The dataclass's own repr printed every array and every game's moves (58 KB for two games).
    batch = generate(2, seed=3, agent="mcts:iterations=20")
    assert repr(batch) == (f"SelfPlayBatch(games=2, rows={batch.num_rows}, seconds={batch.seconds:.3f}, "
                           f"iterations={batch.iterations}, agent='mcts:iterations=20')")
