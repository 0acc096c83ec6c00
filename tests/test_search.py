"""The MCTS search's Python API: parameters, results, determinism, tactics, limits, 4 players."""
from __future__ import annotations

import math
import pickle

import pytest

import rosen
from conftest import r12_winner, swap_colours
from search_positions import midgame, win_in_one_fen


@pytest.fixture(scope="module")
def start():
    return rosen.Position.new(seed=3)


def test_default_params_repr_round_trips():
    p = rosen.SearchParams()
    assert p.iterations == 1000 and p.time_ms == 0 and p.rollout == "heuristic" and p.reward == "win"
    assert p.threads == 1 and p.seed == 0 and p.max_tree_size == 1_000_000 and p.rollout_cutoff == -1
    assert eval(repr(p), {"SearchParams": rosen.SearchParams}) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert p.replace(seed=4).seed == 4 and p.seed == 0
    with pytest.raises(AttributeError):
        p.seed = 3


def test_time_ms_alone_is_a_time_budget(start):
    # `mcts:time_ms=200` once stopped at the default 1000 iterations, long before 200 ms.
    timed = rosen.SearchParams(time_ms=200)
    assert timed.iterations == 0 and timed.time_ms == 200
    assert eval(repr(timed), {"SearchParams": rosen.SearchParams}) == timed
    assert pickle.loads(pickle.dumps(timed)) == timed and timed.replace(seed=2).iterations == 0
    assert rosen.SearchParams(time_ms=200, iterations=500).iterations == 500  # both: the first limit
    assert rosen.SearchParams(time_ms=0).iterations == 1000
    # replace keeps iterations paired with time_ms while it is the pairing's value
    assert rosen.SearchParams().replace(time_ms=200).iterations == 0
    assert rosen.SearchParams(time_ms=200).replace(time_ms=0).iterations == 1000
    assert rosen.SearchParams(iterations=5000).replace(time_ms=200).iterations == 5000
    assert rosen.SearchParams(iterations=0, time_ms=200).replace(time_ms=300, seed=1).iterations == 0
    assert rosen.SearchParams(time_ms=200).replace(time_ms=300, iterations=7).iterations == 7
    assert rosen.Searcher(params=rosen.SearchParams(seed=3), time_ms=50).params.iterations == 0
    from rosen.agents import parse_agent_spec
    agent = parse_agent_spec("mcts:time_ms=40").build(0)
    agent.choose(start)
    assert agent.last_stats.iterations > 1000 and agent.last_stats.time_ms >= 39
    # 1000 iterations with a time budget is not the pairing's value: repr writes it (it once read back as 0)
    both = rosen.SearchParams(time_ms=200, iterations=1000)
    assert eval(repr(both), {"SearchParams": rosen.SearchParams}) == both and "iterations=1000" in repr(both)


@pytest.mark.parametrize("kwargs, field", [
    (dict(iterations=-1), "iterations"),
    (dict(time_ms=-5), "time_ms"),
    (dict(iterations=0, time_ms=0), "iterations"),
    (dict(rollout="clever"), "rollout"),
    (dict(reward="points"), "reward"),
    (dict(threads=0), "threads"),
    (dict(exploration=-0.1), "exploration"),
    (dict(exploration=float("nan")), "exploration"),
    (dict(margin_weight=1.5), "margin_weight"),
    (dict(rollout_cutoff=-2), "rollout_cutoff"),
    (dict(max_tree_size=10), "max_tree_size"),
    (dict(temperature=0.0), "temperature"),
])
def test_bad_values_raise_value_error_naming_the_field(kwargs, field):
    with pytest.raises(ValueError, match=f"^{field}:") as info:
        rosen.SearchParams(**kwargs)
    assert info.value.field == field


@pytest.mark.parametrize("kwargs, field", [
    (dict(iterations=1.5), "iterations"),
    (dict(threads=True), "threads"),
    (dict(rollout=1), "rollout"),
    (dict(exploration="high"), "exploration"),
])
def test_bad_types_raise_type_error_naming_the_field(kwargs, field):
    with pytest.raises(TypeError, match=f"^{field}:"):
        rosen.SearchParams(**kwargs)


def test_unknown_keyword_and_positional_arguments_are_refused():
    with pytest.raises(TypeError):
        rosen.SearchParams(iteration=5)
    with pytest.raises(TypeError):
        rosen.SearchParams(1000)


def test_search_accepts_keywords_or_params_object(start):
    a = rosen.search(start, iterations=300, seed=1)
    b = rosen.search(start, params=rosen.SearchParams(iterations=300, seed=1))
    c = rosen.search(start, params=rosen.SearchParams(iterations=50), iterations=300, seed=1)
    assert str(a.best_move) == str(b.best_move) == str(c.best_move)
    assert [m.visits for m in a.moves] == [m.visits for m in b.moves] == [m.visits for m in c.moves]


def test_result_fields_are_consistent(start):
    r = rosen.search(start, iterations=2000, seed=2)
    legal = start.legal_moves()
    assert r.iterations == 2000
    assert sorted(str(m.move) for m in r.moves) == sorted(str(m) for m in legal)
    assert sum(m.visits for m in r.moves) == 2000  # the root's first visit expands it
    assert [m.visits for m in r.moves] == sorted((m.visits for m in r.moves), reverse=True)
    assert r.best_move == r.moves[0].move and r.pv[0] == r.best_move
    assert r.winrate == r.moves[0].winrate and r.score == r.moves[0].score
    assert all(0.0 <= m.winrate <= 1.0 for m in r.moves)
    assert sum(m.prior for m in r.moves) == pytest.approx(1.0, abs=1e-5)
    assert 1.0 <= r.depth <= r.seldepth
    assert r.tree_size > len(legal) and r.nps > 0 and r.time_ms > 0
    assert "SearchResult(best_move=" in repr(r)


def test_pv_is_a_legal_line_that_stops_at_the_first_draw(start):
    r = rosen.search(start, iterations=3000, seed=4)
    assert r.moves[0].pv == r.pv and len(r.pv) > 1
    assert [m.pv[0] for m in r.moves] == [m.move for m in r.moves]
    for line in (m.pv for m in r.moves):
        pos = start.hide_pile_order()
        for i, move in enumerate(line):
            assert pos.is_legal(move)
            if move.kind == "draw":
                assert i == len(line) - 1  # the card is unknown, so the line ends here
                break
            pos = pos.play(move)


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("minimax_weight", [0.0, 0.3])
def test_same_seed_gives_identical_result(rollout, minimax_weight):
    pos = midgame()
    a = rosen.search(pos, iterations=1500, seed=11, rollout=rollout, minimax_weight=minimax_weight)
    b = rosen.search(pos, iterations=1500, seed=11, rollout=rollout, minimax_weight=minimax_weight)
    assert repr(a.moves) == repr(b.moves) and a.pv == b.pv and a.tree_size == b.tree_size and a.depth == b.depth


def test_different_seeds_give_different_searches():
    pos = midgame()
    a = rosen.search(pos, iterations=1500, seed=1)
    b = rosen.search(pos, iterations=1500, seed=2)
    assert repr(a.moves) != repr(b.moves)


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("minimax_weight", [0.0, 0.3, 1.0])
def test_win_in_one_is_found_R8_R12(rollout, minimax_weight):
    pos = rosen.Position(win_in_one_fen())
    assert pos.play("S1").winner == "red" and pos.play("N1").winner == "white"
    r = rosen.search(pos, iterations=300, seed=5, rollout=rollout, minimax_weight=minimax_weight)
    assert str(r.best_move) == "S1"
    assert r.winrate == 1.0 and r.score == 10.0  # 88 - 78, a certain result


@pytest.mark.parametrize("rollout, minimax_weight", [("random", 0.0), ("heuristic", 0.3)])
def test_win_in_one_is_found_with_white_to_move_too_R8_R12(rollout, minimax_weight):
    # The tree keeps Red's values and turns them to the mover's: a search for White must too.
    pos = swap_colours(rosen.Position(win_in_one_fen()))
    assert pos.colour_to_move == "white" and pos.play("S1").winner == "white"
    r = rosen.search(pos, iterations=300, seed=5, rollout=rollout, minimax_weight=minimax_weight)
    assert str(r.best_move) == "S1" and r.winrate == 1.0 and r.score == 10.0


@pytest.mark.parametrize("threads", [2, 4])
def test_the_merged_root_of_several_trees_keeps_a_certain_result(threads):
    # Root parallelism: each tree's statistics are merged (summed), not the last tree's taken.
    pos = rosen.Position(win_in_one_fen())
    r = rosen.search(pos, iterations=2000, seed=5, threads=threads)
    s1 = next(m for m in r.moves if str(m.move) == "S1")
    assert s1.visits > 0 and s1.winrate == 1.0 and s1.score == 10.0


def test_the_cut_off_evaluation_counts_each_sides_heroes():
    # hero_cost: a hero in hand is worth points to its side -- Red's to Red, White's to White.
    f = midgame(5, 20).fen().split()
    assert f[2] == "r"

    def red_winrate(red_heroes, white_heroes):
        pos = rosen.Position(" ".join(f[:5] + [str(red_heroes), str(white_heroes)] + f[7:]))
        return rosen.search(pos, iterations=400, seed=1, rollout_cutoff=1, minimax_weight=0.0).winrate

    even = red_winrate(4, 4)
    assert red_winrate(4, 0) > even + 0.2 and red_winrate(0, 4) < even - 0.2


def test_node_limit_is_respected():
    pos = rosen.Position.new(seed=9)
    r = rosen.search(pos, iterations=20_000, max_tree_size=2000, seed=1, rollout="random")
    assert r.iterations == 20_000  # the search carries on with rollouts from the leaves
    assert 1500 < r.tree_size <= 2000


def test_node_limit_is_respected_per_thread_in_total():
    pos = rosen.Position.new(seed=9)
    r = rosen.search(pos, iterations=10_000, max_tree_size=4000, threads=2, seed=1, rollout="random")
    assert r.tree_size <= 4000 and r.iterations == 10_000


def test_time_budget_ends_the_search():
    r = rosen.search(rosen.Position.new(seed=1), iterations=0, time_ms=50, rollout="random")
    assert r.iterations > 0 and r.time_ms >= 50


def test_a_searchs_own_budget_replaces_the_parameters_budget():
    # Searcher.search(position, iterations=, time_ms=): a player on a game clock gives each move
    # its own budget; the same budget as parameters gives the same search, and the trees are kept.
    pos = rosen.Position.new(seed=5)
    by_params = rosen.Searcher(iterations=700, seed=4).search(pos)
    searcher = rosen.Searcher(iterations=3, seed=4)
    by_call = searcher.search(pos, iterations=700)
    assert [(m.move, m.visits) for m in by_call.moves] == [(m.move, m.visits) for m in by_params.moves]
    assert searcher.search(pos).iterations == 3  # the parameters' budget again
    after = pos.play(by_call.best_move)
    assert searcher.search(after, iterations=200).reused_visits > 0
    timed = rosen.Searcher(iterations=3, seed=4).search(pos, time_ms=40)  # no iteration cap with it
    assert timed.iterations > 3 and timed.time_ms >= 40
    for kwargs, error in (({"iterations": 0}, "iterations: both iterations and time_ms are 0"),
                          ({"time_ms": -1}, "time_ms: expected 0..1000000000, got -1"),
                          ({"iterations": 0, "time_ms": 0}, "iterations: both"),
                          ({"iterations": True}, "iterations: expected an int, got bool"),
                          ({"time_ms": "5"}, "time_ms: expected an int, got str")):
        with pytest.raises(ValueError, match="^" + error):
            searcher.search(pos, **kwargs)


def test_two_threads_search_and_merge():
    pos = midgame()
    r = rosen.search(pos, iterations=4000, threads=2, seed=3)
    assert r.iterations == 4000 and sum(m.visits for m in r.moves) == 4000
    assert pos.is_legal(r.best_move)


def _one_playout(pos, **kwargs):
    """The one root move a single-iteration search visited, with that playout's reward and margin."""
    r = rosen.search(pos, iterations=1, seed=1, **kwargs)
    (visited,) = [m for m in r.moves if m.visits == 1]
    return visited.winrate, visited.score


def test_cutoff_and_margin_rewards_shape_the_value():
    # One playout's value tells which reward was used, so a parameter that was ignored fails here.
    pos = midgame()
    win, margin = _one_playout(pos, rollout_cutoff=0)
    assert win in (0.0, 0.5, 1.0)  # a finished game: 1 / 1/2 / 0 (R12)
    squash = lambda m: 0.5 + 0.5 * math.tanh(m / 30.0)  # noqa: E731 - the documented shaping
    only_margin, margin_again = _one_playout(pos, rollout_cutoff=0, reward="margin")
    assert margin_again == pytest.approx(margin) and only_margin == pytest.approx(squash(margin), abs=1e-5)
    blended, _ = _one_playout(pos, rollout_cutoff=0, margin_weight=0.3)
    assert blended == pytest.approx(0.7 * win + 0.3 * squash(margin), abs=1e-5)
    # A cut-off playout stops after one ply: the value is the evaluation's sigmoid, strictly
    # between 0 and 1, and the margin is the position's margin then, not the game's end.
    cut, cut_margin = _one_playout(pos, rollout_cutoff=1)
    assert 0.0 < cut < 1.0 and cut not in (0.5,)
    assert abs(cut_margin) < 200
    for kwargs in (dict(rollout_cutoff=6), dict(reward="margin"), dict(margin_weight=0.3)):
        r = rosen.search(pos, iterations=500, seed=1, **kwargs)
        assert pos.is_legal(r.best_move) and r.iterations == 500


def test_four_player_search_returns_a_legal_move_R13():
    pos = midgame(seed=8, plies=12, players=4)
    assert pos.players == 4
    r = rosen.search(pos, iterations=1500, seed=1)
    assert pos.is_legal(r.best_move)
    assert sum(m.visits for m in r.moves) == 1500


def test_both_seats_of_a_team_see_their_colours_values_R13():
    # SearchResult's values are the mover's: Red 2's are Red's (its team's), not White's.
    pos = rosen.Position.new(seed=4, players=4)
    i = 0
    while not (str(pos.turn) == "r2" and sum(pos.token_counts) > 16):
        moves = pos.legal_moves()
        pos = pos.play(moves[(i * 5) % len(moves)])
        i += 1
    assert pos.colour_to_move == "red" and pos.scores[0] > pos.scores[1]
    r = rosen.search(pos, iterations=2000, seed=1)
    assert r.winrate > 0.5 and r.score > 0  # Red leads 17-14 here: its mover sees its lead


def test_four_player_game_plays_to_the_end_R13():
    pos = rosen.Position.new(seed=2, players=4)
    searcher = rosen.Searcher(iterations=100, seed=1)
    while not pos.is_terminal:
        pos = pos.play(searcher.search(pos).best_move)
    assert pos.legal_moves() == [] and pos.winner == r12_winner(pos)


def test_finished_game_cannot_be_searched():
    pos = rosen.Position(win_in_one_fen()).play("S1")
    with pytest.raises(ValueError, match="game is over"):
        rosen.search(pos, iterations=10)


def test_position_argument_must_be_a_position():
    with pytest.raises(TypeError, match="position"):
        rosen.search("startpos", iterations=10)


def test_memory_per_node_is_40_bytes():
    from rosen.search import NODE_BYTES

    assert NODE_BYTES == 40


def test_minimax_weight_steers_the_search():
    # Implicit minimax backups change where the visits go; a weight that was ignored fails here.
    pos = midgame()
    plain = rosen.search(pos, iterations=2000, seed=4, minimax_weight=0.0)
    blended = rosen.search(pos, iterations=2000, seed=4, minimax_weight=0.5)
    assert [m.visits for m in plain.moves] != [m.visits for m in blended.moves]
    assert pos.is_legal(blended.best_move) and sum(m.visits for m in blended.moves) == 2000



def test_the_default_cutoff_follows_the_game():
    """rollout_cutoff's default (-1) is 10 plies in the 2-player game and full rollouts in the
    4-player game: the default search is bit for bit the search with that cut-off named."""
    assert rosen.SearchParams().rollout_cutoff == -1
    for players, cutoff, other in ((2, 10, 0), (4, 0, 10)):
        pos = rosen.Position.new(7, players=players)
        default = rosen.search(pos, iterations=400, seed=3)
        named = rosen.search(pos, iterations=400, seed=3, rollout_cutoff=cutoff)
        assert [(m.move, m.visits, m.winrate) for m in default.moves] == \
            [(m.move, m.visits, m.winrate) for m in named.moves]
        changed = rosen.search(pos, iterations=400, seed=3, rollout_cutoff=other)
        assert [(m.move, m.visits, m.winrate) for m in default.moves] != \
            [(m.move, m.visits, m.winrate) for m in changed.moves]


def test_the_last_tokens_minimax_value_is_its_exact_result():
    # With one token left in the supply the static minimax of a play is the game's R12 result
    # (R8: the last token ends it). SW3 loses for certain here and the draw keeps a chance; with the
    # last-token check off by one (F95's mutant) the minimax backups saw SW3 as a fair move and the
    # search played it, with about half the visits.
    pos = rosen.Position("1w1w1w2r/1r2rww1w/ww1rrrwrr/r2wr1r1w/2r1rwr1w/1r1wrwwww/w3r1rwr/1w1wrwrwr/1wr2rw1r g4 r "
                         "N3,SW2,SW3,W2 SE1,S3,NW1 0 0 N2,NE1,SE2,SE3,S1 *")
    assert pos.supply == 1
    for seed in (1, 2, 3):
        result = rosen.search(pos, iterations=1000, seed=seed, minimax_weight=1.0)
        visits = {str(m.move): m.visits for m in result.moves}
        assert str(result.best_move) == "draw" and visits["SW3"] < 0.2 * result.visits, visits
