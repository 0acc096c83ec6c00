"""The classic reference opponents (cpp/classic/, rosen.agents.classic, issue 9): the peer's
alpha-beta equals a plain minimax over the same evaluation and the same draw samples, the sound
expectimax equals an exhaustive expectimax, neither depends on the pile's order (R14), both are
deterministic, check their parameters and play whole games (2 and 4 players, R13)."""
from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

import rosen
from conftest import board_ranks, fen
from reference.minimax import (colour_letter, evaluate, expectimax_root, from_position, minimax_root, mix_seed,
                               move_byte, ordered_moves, sampled_draw)
from rosen import _core
from rosen.agents import AlphaBetaAgent, ExpectimaxAgent, parse_agent, parse_agent_spec
from rosen.cli import main
from rosen.learning import builtin_network_path
from rosen.learning.evaluator import as_evaluator
from rosen.match import play_game

NETWORK = as_evaluator(builtin_network_path())

# --- positions ------------------------------------------------------------------------------


def sampled_positions(players, reshuffle, seed, games, keep, min_tokens=0):
    """Non-terminal positions along seeded random games, every `keep`-th of those with at least
    `min_tokens` tokens on the board (positions keep the deal's explicit pile order)."""
    rng = random.Random(seed)
    out, k = [], 0
    for g in range(games):
        pos = rosen.Position.new(seed + g, players=players, reshuffle=reshuffle)
        while not pos.is_terminal:
            if 52 - pos.supply >= min_tokens:
                if k % keep == 0:
                    out.append(pos)
                k += 1
            pos = pos.play(rng.choice(pos.legal_moves()))
    return out


def played_positions(players, seed, plies):
    """Positions from a game the alpha-beta plays against itself (fuller hands than random play)."""
    red, white = AlphaBetaAgent(depth=2, seed=seed), AlphaBetaAgent(depth=2, seed=seed + 1)
    pos = rosen.Position.new(seed, players=players)
    out = []
    for _ in range(plies):
        if pos.is_terminal:
            break
        out.append(pos)
        agent = red if pos.colour_to_move == "red" else white
        pos = pos.play(agent.choose(pos.hide_pile_order()))
    return out


HERO_FLIP = "9/9/9/9/9/9/9/9/rrrwrrrrr e1 r N1,W1,NE1,N2,NW1 N3,S3,E3,W3,NE3 4 4 - *"
# Red to move, four cards: heroes, plays and a draw at the root.
HEROES_AND_DRAW = fen(board_ranks({1: "rrrwrrrrr", 2: "wwr.w....", 3: "..w......"}), "e1", "r", "N1,W1,NW1,N2",
                      "N3,S3,E3,W3,NE3", 2, 3)
HEROES_4P = ("9/9/9/9/9/9/2w6/wwr1w4/rrrwrrrrr e1 r1 N1,W1,NW1 N3,E3 W3,NE3 S3,SE1,E1 2 1 1 2 - *")
# Red's five cards all leave the board from a1, so Red must pass (R6).
MUST_PASS = fen(board_ranks({1: "r........", 2: "w........"}), "a1", "r", "S1,S2,S3,W1,W2", "N2,E1,NE1,E2,N3")


def alphabeta_positions():
    out = [rosen.Position(HERO_FLIP), rosen.Position(HEROES_AND_DRAW), rosen.Position(HEROES_4P),
           rosen.Position(MUST_PASS)]
    out += played_positions(2, 3, 40)[::4] + played_positions(4, 8, 40)[::4]
    for seed, (players, reshuffle) in enumerate(((2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy"))):
        out += sampled_positions(players, reshuffle, 11 + 10 * seed, 2, 9)[:6]
    return out


ALPHABETA_POSITIONS = alphabeta_positions()


def small_endings():
    """Near-full boards whose exhaustive depth-4 trees are small enough for the Python reference."""
    out = []
    for seed, (players, reshuffle) in enumerate(((2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy"))):
        found = [p for p in sampled_positions(players, reshuffle, 21 + 10 * seed, 4, 3, min_tokens=42)
                 if p.hide_pile_order().perft(4) <= 3000]
        out += found[:5]
    return out


ENDINGS = small_endings()


# --- the peer's alpha-beta -------------------------------------------------------------------

def test_the_positions_cover_draws_heroes_passes_and_both_player_counts():
    roots = [{str(m) for m in p.legal_moves()} for p in ALPHABETA_POSITIONS]
    assert sum("draw" in r for r in roots) >= 10
    assert sum(any(m.startswith("H:") for m in r) for r in roots) >= 3
    assert ["pass"] in [sorted(r) for r in roots]
    assert {p.players for p in ALPHABETA_POSITIONS} == {2, 4}
    assert {p.reshuffle for p in ALPHABETA_POSITIONS} == {"eager", "lazy"}
    assert len(ALPHABETA_POSITIONS) >= 30
    assert len(ENDINGS) >= 12 and {p.players for p in ENDINGS} == {2, 4}


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_alphabeta_equals_plain_minimax(depth):
    for i, pos in enumerate(ALPHABETA_POSITIONS):
        seed, hero_weight = 1000 * depth + i, (30, 0, 7, -12)[i % 4]
        result = _core._AlphaBeta(depth=depth, hero_weight=hero_weight, seed=seed).search(pos)
        value, move, _ = minimax_root(from_position(pos), depth, hero_weight, mix_seed(seed, 0))
        assert (result.best_move, result.value) == (move, value), pos.fen()
        assert result.depth == depth and result.nodes >= 1 + len(pos.legal_moves())


def test_alphabeta_equals_plain_minimax_deeper():
    for i, pos in enumerate(ALPHABETA_POSITIONS[:3] + ALPHABETA_POSITIONS[-12::3]):
        seed = 77 + i
        result = _core._AlphaBeta(depth=5, seed=seed).search(pos)
        value, move, _ = minimax_root(from_position(pos), 5, 30, mix_seed(seed, 0))
        assert (result.best_move, result.value) == (move, value), pos.fen()


def test_alphabeta_equals_plain_minimax_at_the_default_depth_7():
    for i, pos in enumerate(ALPHABETA_POSITIONS[2:4] + ALPHABETA_POSITIONS[10:40:6]):
        agent = AlphaBetaAgent(seed=i)  # depth 7, hero_weight 30
        move = agent.choose(pos.hide_pile_order())
        value, best, _ = minimax_root(from_position(pos), 7, 30, mix_seed(i, 0))
        assert (str(move), agent.last_value, agent.last_stats.depth) == (best, value, 7), pos.fen()


def test_alphabeta_agent_streams_advance_per_search_and_restart_on_reset():
    pos = rosen.Position(HEROES_AND_DRAW)
    agent = AlphaBetaAgent(depth=3, seed=5)
    for n in range(3):
        agent.choose(pos)
        value, _, _ = minimax_root(from_position(pos), 3, 30, mix_seed(5, n))
        assert agent.last_value == value
    agent.reset()
    agent.choose(pos)
    assert agent.last_value == minimax_root(from_position(pos), 3, 30, mix_seed(5, 0))[0]


def test_alphabeta_samples_one_card_per_draw_node():
    # Red holds no card, so it must draw; what it can play two plies later depends on the card the
    # peer sampled, so different seeds see different values (one sample, not an average), each
    # equal to the reference with the documented sample.
    pos = rosen.Position(fen(board_ranks({1: "rrrwrrrrr", 2: "wwr.w....", 3: "..w......"}), "e1", "r", "-",
                             "N3,S3,E3,W3,NE3", 2, 3))
    assert [str(m) for m in pos.legal_moves()] == ["draw"]
    state = from_position(pos)
    values = set()
    for seed in range(12):
        result = _core._AlphaBeta(depth=3, seed=seed).search(pos)
        assert result.value == minimax_root(state, 3, 30, mix_seed(seed, 0))[0]
        values.add(result.value)
    assert len(values) > 1


def peer_tree_size(state, depth, path):
    """Positions in the peer's full (unpruned) tree: one child per draw."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 1
    for move in ordered_moves(state):
        if move == "draw":
            move = sampled_draw(state, path)
        total += peer_tree_size(state.apply(move), depth - 1, mix_seed(path, move_byte(move)))
    return total


def peer_alphabeta(state, depth, stream, hero_weight=30):
    """(positions visited, value) of plain fail-hard alpha-beta over the peer's tree, children in
    legal order, cut as soon as alpha >= beta; the root keeps the window (alpha, +inf)."""
    colour, visited = colour_letter(state), [1]

    def node(s, d, alpha, beta, path):
        visited[0] += 1
        if d == 0 or s.is_terminal():
            return evaluate(s, colour, hero_weight)
        maximising = colour_letter(s) == colour
        best = -math.inf if maximising else math.inf
        for move in ordered_moves(s):
            edge = sampled_draw(s, path) if move == "draw" else move
            v = node(s.apply(edge), d - 1, alpha, beta, mix_seed(path, move_byte(edge)))
            if maximising:
                best, alpha = max(best, v), max(alpha, best, v)
            else:
                best, beta = min(best, v), min(beta, best, v)
            if alpha >= beta:
                break
        return best

    best = -math.inf
    for move in ordered_moves(state):
        edge = sampled_draw(state, stream) if move == "draw" else move
        best = max(best, node(state.apply(edge), depth - 1, best, math.inf, mix_seed(stream, move_byte(edge))))
    return visited[0], best


def test_an_expectimax_agents_table_is_kept_between_moves_and_cleared_by_reset():
    pos = rosen.Position.new(seed=2)
    agent = ExpectimaxAgent(depth=4)
    agent.choose(pos)
    fresh = agent.last_stats.iterations
    agent.choose(pos)
    assert agent.last_stats.iterations < fresh  # the kept table answers part of the search
    agent.reset()
    agent.choose(pos)
    assert agent.last_stats.iterations == fresh


def test_alphabeta_prunes_in_legal_order_and_keeps_the_first_best_root_move():
    pruned = 0
    for i, pos in enumerate(ALPHABETA_POSITIONS[:4]):
        state = from_position(pos)
        result = _core._AlphaBeta(depth=4, seed=i).search(pos)
        value, move, values = minimax_root(state, 4, 30, mix_seed(i, 0))
        assert result.best_move == move == next(m for m in ordered_moves(state) if values[m] == value)
        full = peer_tree_size(state, 4, mix_seed(i, 0))
        # Exactly the positions plain alpha-beta visits: a cut made later (alpha > beta) or never
        # would find the same move with more of them.
        assert (result.nodes, result.value) == peer_alphabeta(state, 4, mix_seed(i, 0)) and result.value == value
        pruned += result.nodes < full
    assert pruned >= 3


# --- the sound expectimax ---------------------------------------------------------------------

@pytest.mark.parametrize("tt_mb", [0, 16])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_expectimax_equals_exhaustive_expectimax(depth, tt_mb):
    for i, pos in enumerate(ENDINGS):
        hero_weight = (30, 0, 11)[i % 3]
        result = _core._Expectimax(depth=depth, tt_mb=tt_mb, hero_weight=hero_weight).search(pos)
        value, values = expectimax_root(from_position(pos), depth, hero_weight)
        assert result.value == pytest.approx(float(value), rel=1e-9, abs=1e-9), pos.fen()
        assert float(values[result.best_move]) == pytest.approx(float(value), rel=1e-9, abs=1e-9), pos.fen()
        assert 1 <= result.depth <= depth


def test_expectimax_equals_exhaustive_expectimax_at_depth_5():
    for pos in ENDINGS[::4]:
        value, _ = expectimax_root(from_position(pos), 5, 30)
        for tt_mb in (0, 1):
            assert _core._Expectimax(depth=5, tt_mb=tt_mb).search(pos).value == pytest.approx(float(value), rel=1e-9)


def test_expectimax_table_kept_between_searches_changes_no_value():
    searcher = _core._Expectimax(depth=4, tt_mb=1)
    for pos in ENDINGS + ENDINGS[::-1]:
        fresh = _core._Expectimax(depth=4, tt_mb=0).search(pos)
        assert searcher.search(pos).value == pytest.approx(fresh.value, rel=1e-9)


def test_expectimax_prunes():
    # Over all iterations 1..4 together, fewer positions than one full depth-4 tree (every card of
    # every draw); the table saves more.
    big = sorted(ALPHABETA_POSITIONS, key=lambda p: -p.hide_pile_order().perft(4))[:3]
    for pos in big:
        full = sum(pos.hide_pile_order().perft(k) for k in range(5))
        plain = _core._Expectimax(depth=4, tt_mb=0).search(pos).nodes
        with_table = _core._Expectimax(depth=4, tt_mb=16).search(pos).nodes
        assert with_table <= plain < 0.7 * full


def test_expectimax_with_a_time_budget_plays_its_deepest_completed_iteration():
    pos = ALPHABETA_POSITIONS[3]
    for budget in (50, 200, 1000):  # a machine slowed down (a sanitizer, a loaded CI) may need more
        result = _core._Expectimax(time_ms=budget).search(pos)
        if result.depth >= 2:
            break
    assert result.depth >= 2 and result.time_ms < 5000
    assert rosen.Move(result.best_move) in pos.legal_moves()
    # The value is the depth-d value of that iteration.
    assert result.value == pytest.approx(_core._Expectimax(depth=result.depth, tt_mb=0).search(pos).value, rel=1e-9)
    # time_ms=0: the first iteration still completes, so there is a move.
    zero = _core._Expectimax(time_ms=0).search(pos)
    assert zero.depth >= 1 and rosen.Move(zero.best_move) in pos.legal_moves()


def test_expectimax_stops_deepening_once_every_line_is_decided():
    # 51 tokens: Red's S1 wins and N1 loses at once (R8); after a draw White places the last token.
    # Depth 2 decides every line, so iterative deepening stops there instead of going on to 20.
    from search_positions import win_in_one_fen
    result = _core._Expectimax(depth=20).search(rosen.Position(win_in_one_fen()))
    assert (result.best_move, result.value, result.depth) == ("S1", 1_000_000, 2)


# --- the expectimax with a network at its leaves ----------------------------------------------

SCALE = 1000  # cpp/classic/expectimax.h, kNetworkScale


def network_leaf(evaluator):
    """The reference's leaf with a network: (2 * win probability - 1) * SCALE from `colour`, a
    finished game +-SCALE or 0 (the evaluation's +-1 000 000 scaled down)."""
    from reference.minimax import WIN, evaluate

    def leaf(state, colour):
        if state.is_terminal():
            return Fraction(evaluate(state, colour, 30)) * SCALE / WIN
        pos = rosen.Position(state.to_notation(), reshuffle=state.reshuffle)
        mover = (2 * Fraction(float(evaluator.evaluate(pos).value)) - 1) * SCALE
        return mover if pos.colour_to_move[0] == colour else -mover
    return leaf


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_expectimax_with_a_network_equals_exhaustive_expectimax_over_its_values(depth):
    evaluator = NETWORK
    leaf = network_leaf(evaluator)
    for pos in ENDINGS[::2]:
        for tt_mb in (0, 1):
            result = _core._Expectimax(depth=depth, tt_mb=tt_mb, network=evaluator._core).search(pos)
            value, values = expectimax_root(from_position(pos), depth, 30, leaf)
            assert result.value == pytest.approx(float(value), rel=1e-9, abs=1e-9), pos.fen()
            assert float(values[result.best_move]) == pytest.approx(float(value), rel=1e-9, abs=1e-9), pos.fen()
            assert -SCALE <= result.value <= SCALE


def test_expectimax_with_a_network_differs_from_the_evaluation_and_plays_legally():
    # Depth budgets, so that only the leaf values can tell the two searches apart.
    agent = parse_agent_spec("expectimax:depth=2,evaluator=builtin").build(seed=1)
    plain = ExpectimaxAgent(depth=2)
    differ = 0
    for pos in ALPHABETA_POSITIONS[::4]:
        assert agent.choose(pos) in pos.legal_moves()
        assert -SCALE <= agent.last_value <= SCALE
        plain.choose(pos)
        differ += plain.last_value != agent.last_value
    assert differ >= 3
    assert "evaluator=" in repr(agent)


# --- R14: the pile's order is never read -----------------------------------------------------

def with_orders(pos, count, seed):
    """The same position with `count` explicit pile orders, and with `*`."""
    hidden = pos.fen(hide_pile_order=True)
    cards = pos.pile_cards
    rng = random.Random(seed)
    out = [rosen.Position(hidden, reshuffle=pos.reshuffle)]
    if len(cards) > 1:
        for _ in range(count):
            order = cards[:]
            rng.shuffle(order)
            out.append(rosen.Position(hidden.rsplit(" ", 1)[0] + " " + ",".join(order), reshuffle=pos.reshuffle))
    return out


@pytest.mark.parametrize("kind", ["alphabeta", "expectimax", "expectimax-network"])
def test_r14_choice_and_value_do_not_depend_on_the_pile_order(kind):
    checked = 0
    for i, pos in enumerate(ALPHABETA_POSITIONS[::3] + ENDINGS[::3]):
        variants = with_orders(pos, 3, i)
        checked += len(variants) > 1
        outcomes = set()
        for variant in variants:
            searcher = (_core._AlphaBeta(depth=4, seed=i) if kind == "alphabeta"
                        else _core._Expectimax(depth=4, tt_mb=1) if kind == "expectimax"
                        else _core._Expectimax(depth=3, tt_mb=1, network=NETWORK._core))
            r = searcher.search(variant)
            outcomes.add((r.best_move, r.value, r.nodes))
        assert len(outcomes) == 1, pos.fen()
    assert checked >= 8


# --- determinism, parameters -----------------------------------------------------------------

def game_moves(red, white, players, seed):
    return play_game(red, white, seed=seed, players=players).moves


def test_same_seed_same_game_and_other_seeds_vary():
    first = game_moves(AlphaBetaAgent(depth=3, seed=4), ExpectimaxAgent(depth=2), 2, 9)
    again = game_moves(AlphaBetaAgent(depth=3, seed=4), ExpectimaxAgent(depth=2), 2, 9)
    assert first == again
    others = {tuple(game_moves(AlphaBetaAgent(depth=3, seed=s), ExpectimaxAgent(depth=2), 2, 9)) for s in range(5)}
    assert len(others) > 1
    pos = ALPHABETA_POSITIONS[5]
    assert len({(r.best_move, r.value, r.nodes) for r in (_core._Expectimax(depth=5, seed=s).search(pos)
                                                          for s in (0, 1, 2**64 - 1))}) == 1


@pytest.mark.parametrize("make,field", [
    (lambda: AlphaBetaAgent(depth=0), "depth"),
    (lambda: AlphaBetaAgent(depth=21), "depth"),
    (lambda: AlphaBetaAgent(hero_weight=1001), "hero_weight"),
    (lambda: AlphaBetaAgent(hero_weight=-1001), "hero_weight"),
    (lambda: AlphaBetaAgent(seed=-1), "seed"),
    (lambda: AlphaBetaAgent(seed=2**64), "seed"),
    (lambda: ExpectimaxAgent(), "depth"),
    (lambda: ExpectimaxAgent(depth=3, time_ms=100), "time_ms"),
    (lambda: ExpectimaxAgent(depth=0), "depth"),
    (lambda: ExpectimaxAgent(depth=21), "depth"),
    (lambda: ExpectimaxAgent(time_ms=-1), "time_ms"),
    (lambda: ExpectimaxAgent(time_ms=10**9 + 1), "time_ms"),
    (lambda: ExpectimaxAgent(depth=2, hero_weight=5000), "hero_weight"),
    (lambda: ExpectimaxAgent(depth=2, tt_mb=-1), "tt_mb"),
    (lambda: ExpectimaxAgent(depth=2, tt_mb=5000), "tt_mb"),
])
def test_bad_parameters_name_the_field(make, field):
    with pytest.raises(rosen.RosenError, match=f"^{field}: expected") as info:
        make()
    assert info.value.field == field


@pytest.mark.parametrize("make,field", [
    (lambda: AlphaBetaAgent(depth="7"), "depth"),
    (lambda: AlphaBetaAgent(depth=True), "depth"),
    (lambda: AlphaBetaAgent(hero_weight=1.5), "hero_weight"),
    (lambda: ExpectimaxAgent(time_ms="200"), "time_ms"),
])
def test_parameters_of_the_wrong_type_name_the_field(make, field):
    with pytest.raises(rosen.ArgumentTypeError, match=f"^{field}: expected an int") as info:
        make()
    assert info.value.field == field and isinstance(info.value, TypeError)


@pytest.mark.parametrize("text,field", [
    ("alphabeta:depth=0", "depth: expected 1..20"),
    ("alphabeta:hero_weight=9999", "hero_weight"),
    ("alphabeta:time_ms=100", "'time_ms'"),
    ("expectimax", "depth: expected one budget"),
    ("expectimax:depth=3,time_ms=100", "time_ms: expected one budget"),
    ("expectimax:time_ms=-5", "time_ms: expected 0..1000000000"),
    ("expectimax:depth=x", "depth: expected an int"),
    ("expectimax:depth=2,evaluator=/nowhere/net.npz", "expectimax: evaluator: .*nowhere"),
    ("alphabeta:evaluator=builtin", "'evaluator'"),
    ("expectimax:movetime=100,time_ms=100", "give movetime or time_ms, not both"),
    ("expectimax:movetime=-5", "time_ms: expected 0..1000000000"),
    ("expectimax:depth=3,movetime=100", "time_ms: expected one budget"),
])
def test_bad_specs_name_the_field(text, field):
    with pytest.raises(rosen.RosenError, match=field) as info:
        parse_agent_spec(text)
    assert info.value.field == "agent"


def test_specs_build_the_agents_with_the_match_seed():
    agent = parse_agent("alphabeta:depth=4,hero_weight=10", seed=12)
    assert isinstance(agent, AlphaBetaAgent) and (agent.depth, agent.hero_weight, agent.seed) == (4, 10, 12)
    assert parse_agent_spec("alphabeta:seed=3").build(seed=99).seed == 3
    ex = parse_agent("expectimax:time_ms=200", seed=5)
    assert isinstance(ex, ExpectimaxAgent) and (ex.depth, ex.time_ms, ex.seed) == (None, 200, 5)
    assert repr(ex) == "ExpectimaxAgent(time_ms=200, hero_weight=30, seed=5, tt_mb=16)"


def test_expectimax_takes_the_issues_movetime_as_its_time_budget():
    # Issue 9 spells the budget `expectimax:movetime=MS`, as the protocol's `go movetime`; the
    # spec stores the canonical name, so it prints, compares and builds as time_ms.
    spec = parse_agent_spec("expectimax:movetime=150,hero_weight=20")
    assert spec == parse_agent_spec("expectimax:time_ms=150,hero_weight=20")
    assert str(spec) == "expectimax:time_ms=150,hero_weight=20"
    ex = spec.build(seed=2)
    assert isinstance(ex, ExpectimaxAgent) and (ex.depth, ex.time_ms, ex.hero_weight) == (None, 150, 20)


def test_a_finished_game_has_no_move_to_choose():
    pos = rosen.Position.new(seed=1)
    rng = random.Random(0)
    while not pos.is_terminal:
        pos = pos.play(rng.choice(pos.legal_moves()))
    for agent in (AlphaBetaAgent(depth=2), ExpectimaxAgent(depth=2)):
        with pytest.raises(rosen.RosenError, match="^position: the game is over") as info:
            agent.choose(pos)
        assert info.value.field == "position"


# --- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("reshuffle", ["eager", "lazy"])
def test_the_agents_play_whole_games_legally(players, reshuffle):
    red = AlphaBetaAgent(depth=4, seed=1)
    white = ExpectimaxAgent(depth=3) if reshuffle == "eager" else ExpectimaxAgent(time_ms=5)
    record = play_game(red, white, seed=3, players=players, reshuffle=reshuffle)  # plays every move through play()
    assert record.winner in ("red", "white", "draw")
    assert len(record.moves) > 20
    pos = rosen.Position.new(3, players=players, reshuffle=reshuffle)
    for move in record.moves:
        assert pos.is_legal(move)
        pos = pos.play(move)
    assert pos.is_terminal
    for agent in (red, white):
        stats = agent.last_stats
        assert stats.depth >= 1 and stats.iterations >= 1 and stats.time_ms >= 0


def test_the_agents_follow_the_protocol():
    from rosen.agents import Agent
    for agent in (AlphaBetaAgent(), ExpectimaxAgent(depth=1)):
        assert isinstance(agent, Agent) and agent.last_stats is None
        agent.on_move(rosen.Move("draw"))


def test_rosen_match_with_the_alphabeta_agent_exits_0(capsys):
    assert main(["match", "alphabeta:depth=3", "random", "--games", "4"]) == 0
    assert "alphabeta:depth=3" in capsys.readouterr().out
    assert main(["match", "expectimax:depth=2", "alphabeta:depth=2", "--games", "2", "--players", "4"]) == 0
