"""The match package (rosen.match: game loop, runner, statistics, records) and ``rosen match``."""
import copy
import json
import math
import re
import sys

import numpy as np
import pytest


import rosen
from rosen.agents import RandomAgent
from rosen.cli import main
from rosen.match import Dealer, GameRecord, play_game, replay
from rosen.cli.match import progress_bar
from rosen.match import read_jsonl, run_match
from rosen.match.stats import (SPRT, elo_from_score, format_elo, parse_sprt, pentanomial_counts, pentanomial_estimate,
                              score_from_elo, trinomial_estimate)


# --- statistics against hand-computed values ------------------------------------------------

def test_elo_of_known_scores():
    assert elo_from_score(0.5) == 0.0
    # -400 log10(1/0.75 - 1) = 400 log10(3)
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_from_score(0.7) == pytest.approx(147.19, abs=1e-2)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)
    with pytest.raises(ValueError, match="score"):
        elo_from_score(1.5)


def test_trinomial_interval_by_hand():
    # 6 wins, 2 draws, 2 losses: mean 0.7. The variance has one pseudo-game in each cell,
    # (7, 3, 3) over 13: centre (7 + 1.5)/13 = 0.653846, E[x^2] = (7 + 0.75)/13 = 0.596154,
    # variance 0.596154 - 0.427515 = 0.168639; half width 1.96 * sqrt(0.168639/10) = 0.254524.
    est = trinomial_estimate(6, 2, 2)
    assert est.score == pytest.approx(0.7)
    assert est.low == pytest.approx(0.7 - 0.254524, abs=1e-5)
    assert est.high == pytest.approx(0.7 + 0.254524, abs=1e-5)
    assert est.elo == pytest.approx(147.19, abs=1e-2)
    assert est.elo_low < est.elo < est.elo_high


def test_pentanomial_interval_by_hand():
    # Pairs: 5 x DD (0.5 per game) and 5 x WW (1.0): mean 0.75 over 10 pairs. The variance has one
    # pseudo-pair in each cell, (1, 1, 6, 1, 6) over 15: 0.097222 (as in the SPRT's by-hand
    # test); half width 1.96 * sqrt(0.097222/10) = 0.193254.
    est = pentanomial_estimate((0, 0, 5, 0, 5))
    assert est.score == pytest.approx(0.75)
    assert est.high - est.score == pytest.approx(0.193254, abs=1e-5)
    assert pentanomial_estimate((0, 0, 1, 0, 1)).high == 1.0  # 0.75 + 0.346, clipped


def test_a_clean_sweep_gets_an_interval_not_a_point():
    # 100 pairs all won: the variance of (1, 1, 1, 1, 101) over 105 is 0.017290, so the lower end
    # is 1 - 1.96 * sqrt(0.017290/100) = 0.974228; the upper end is exactly 1 (a rounding once
    # put it at 1 - 1e-16, below the sweep's own +inf).
    est = pentanomial_estimate((0, 0, 0, 0, 100))
    assert est.score == 1.0 and est.high == 1.0 and est.elo_high == math.inf
    assert est.low == pytest.approx(0.974228, abs=1e-6)
    for pairs in range(1, 300):
        assert pentanomial_estimate((0, 0, 0, 0, pairs)).high == 1.0
        assert pentanomial_estimate((pairs, 0, 0, 0, 0)).low == 0.0
    lost = trinomial_estimate(0, 0, 50)
    assert lost.low == 0.0 and lost.score == 0.0 and lost.elo_low == -math.inf
    even = pentanomial_estimate((0, 0, 40, 0, 0))  # every pair split: still not a point
    assert even.low < 0.5 < even.high


def test_a_worse_result_never_gets_a_higher_lower_bound():
    # The zero-variance fallback alone gave a near-sweep (99 WW, 1 WD) a lower bound above the
    # sweep's, and 99 DD + 1 WD a far narrower interval than 100 DD's.
    for n in (5, 20, 100, 400):
        sweep = pentanomial_estimate((0, 0, 0, 0, n))
        near = pentanomial_estimate((0, 0, 0, 1, n - 1))
        assert near.low <= sweep.low and near.score <= sweep.score
        even, off = pentanomial_estimate((0, 0, n, 0, 0)), pentanomial_estimate((0, 0, n - 1, 1, 0))
        assert off.high - off.low >= 0.9 * (even.high - even.low)


def test_pentanomial_counts():
    assert pentanomial_counts([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == (1, 1, 2, 1, 3)
    with pytest.raises(ValueError, match="pair_scores"):
        pentanomial_counts([0.25])


def test_sprt_llr_by_hand():
    # Counts (0, 0, 5, 0, 5): N = 10 pairs, mean 0.75. The variance with one pseudo-pair per cell,
    # (1, 1, 6, 1, 6) over 15: centre 2/3, E[x^2] = (0.0625 + 1.5 + 0.5625 + 6) / 15 = 0.541667,
    # var = 0.097222. s0 = 0.5, s1 = 1/(1 + 10**-0.025) = 0.514387;
    # LLR = 10 * 0.014387 * (1.5 - 1.014387) / (2 * 0.097222) = 0.359311.
    assert SPRT(0, 10).llr((0, 0, 5, 0, 5)) == pytest.approx(0.359311, abs=1e-5)
    sprt = SPRT(0, 10)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))


def test_sprt_bounds_take_alpha_and_beta_each_in_its_place():
    """Wald's bounds: H0 at log(beta / (1 - alpha)), H1 at log((1 - beta) / alpha); with alpha ==
    beta a swap would go unseen."""
    sprt = SPRT(0, 10, alpha=0.1, beta=0.2)
    assert sprt.lower == pytest.approx(math.log(0.2 / 0.9))
    assert sprt.upper == pytest.approx(math.log(0.8 / 0.1))


def test_match_command_passes_alpha_and_beta_and_states_its_defaults(capsys):
    assert main(["match", "random", "random", "--games", "2", "--sprt", "0,10", "--alpha", "0.1", "--beta", "0.2",
                 "--json"]) == 0
    test = json.loads(capsys.readouterr().out)["sprt_test"]
    assert (test["alpha"], test["beta"]) == (0.1, 0.2)
    assert test["lower"] == pytest.approx(math.log(0.2 / 0.9)) and test["upper"] == pytest.approx(math.log(0.8 / 0.1))
    # The defaults the help text gives: 100 games, alpha = beta = 0.05, the eager reshuffle (R7).
    assert main(["match", "random", "random", "--sprt", "0,10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 100 and (data["sprt_test"]["alpha"], data["sprt_test"]["beta"]) == (0.05, 0.05)
    assert main(["match", "random", "random", "--games", "2", "--progress", "off"]) == 0
    assert "eager reshuffle" in capsys.readouterr().out


def test_elo_and_score_at_the_far_ends_and_as_printed():
    assert score_from_elo(-1500) == pytest.approx(1 / (1 + 10 ** 3.75), rel=1e-12)
    assert score_from_elo(1500) == pytest.approx(1 - 1 / (1 + 10 ** 3.75), rel=1e-12)
    assert [format_elo(x) for x in (190.85, -0.7, 0.4, -0.4, 152.5, math.inf, -math.inf)] == \
        ["+191", "-1", "+0", "+0", "+152", "+inf", "-inf"]


def test_counts_beyond_what_a_float_holds_exactly_are_refused():
    assert pentanomial_estimate((0, 0, 0, 1, 2**53)).score == pytest.approx(1.0)
    with pytest.raises(rosen.InvalidArgumentError, match="pentanomial: expected counts of at most 2"):
        pentanomial_estimate((0, 0, 0, 1, 2**53 + 1))


def test_sprt_decisions_on_synthetic_data():
    sprt = SPRT(0, 20)
    assert sprt.decide((0, 0, 0, 0, 0)) is None
    assert sprt.decide((2, 3, 4, 3, 2)) is None  # too little data
    # A clearly stronger A: about 60% over 500 pairs.
    assert sprt.decide((20, 60, 200, 140, 80)) == "H1"
    # Exactly even over 1000 pairs: H0 (elo 0) is accepted.
    assert sprt.decide((100, 200, 400, 200, 100)) == "H0"
    # A clean sweep needs several pairs, not one or two (not even against a big elo1).
    assert sprt.decide((0, 0, 0, 0, 1)) is None
    assert SPRT(0, 50).decide((0, 0, 0, 0, 2)) is None
    assert SPRT(0, 50).decide((0, 0, 0, 0, 5)) is None
    assert sprt.decide((0, 0, 0, 0, 40)) == "H1"
    assert sprt.decide((40, 0, 0, 0, 0)) == "H0"
    # The pseudo-pairs once entered the mean, pulling it to 0.5: with wide bounds the first pair
    # decided against its own result (a WW pair accepted H0 at 0,600; an LL pair H1 at -600,0).
    for elo1 in (600, 1000, 2000):
        assert SPRT(0, elo1).decide((0, 0, 0, 0, 1)) != "H0"
        assert SPRT(-elo1, 0).decide((1, 0, 0, 0, 0)) != "H1"
    assert SPRT(0, 600).llr((0, 0, 0, 0, 1)) > 0 and SPRT(0, 600).llr((1, 0, 0, 0, 0)) < 0


def test_the_helpers_name_their_bad_input():
    # A bare TypeError or OverflowError once, and True taken as a count or a pair's points.
    assert score_from_elo(10 ** 400) == 1.0 and score_from_elo(-10 ** 400) == 0.0
    assert score_from_elo(-1e6) == 0.0 and score_from_elo(np.float64(0.0)) == 0.5
    assert pentanomial_estimate(np.array([1, 2, 3, 4, 5])) == pentanomial_estimate((1, 2, 3, 4, 5))
    for call, field in ((lambda: elo_from_score("0.5"), "score"), (lambda: pentanomial_estimate(None), "pentanomial"),
                        (lambda: SPRT(0, 20).decide(None), "pentanomial"),
                        (lambda: pentanomial_estimate((True, 0, 0, 0, 0)), "pentanomial"),
                        (lambda: pentanomial_counts([True]), "pair_scores"), (lambda: score_from_elo("1"), "elo")):
        with pytest.raises((TypeError, ValueError)) as info:
            call()
        assert info.value.field == field


def test_sprt_error_rates_by_simulation():
    # Wald's bounds hold the error rates near alpha and beta (5%) where the truth is elo0 or elo1.
    rng = np.random.default_rng(7)
    for elo0, elo1 in ((0, 20), (300, 400)):
        sprt = SPRT(elo0, elo1)
        for truth, wrong in ((elo0, "H1"), (elo1, "H0")):
            p = score_from_elo(truth)
            errors = 0
            for _ in range(200):
                counts = [0] * 5
                for points in rng.binomial(2, p, size=20000):
                    counts[2 * points] += 1
                    decision = sprt.decide(counts)
                    if decision:
                        errors += decision == wrong
                        break
            assert errors / 200 < 0.11, (elo0, elo1, truth, errors)


def test_sprt_arguments():
    assert parse_sprt("0,10") == SPRT(0.0, 10.0)
    assert parse_sprt("-5,5", alpha=0.1, beta=0.2) == SPRT(-5.0, 5.0, 0.1, 0.2)
    for bad in ("10", "a,b", "10,0"):
        with pytest.raises(rosen.RosenError, match="sprt"):
            parse_sprt(bad)
    with pytest.raises(ValueError, match="alpha"):
        SPRT(0, 10, alpha=0.7)
    # Accepted once, then: an OverflowError after the whole match (beyond about 120 000 Elo), a
    # bare TypeError for text, and a test that never decides for infinite bounds.
    for bad in ("-200000,10", "-inf,inf", "nan,5"):
        with pytest.raises(rosen.InvalidArgumentError, match="^sprt: elo0: expected -2000..2000, got ") as info:
            parse_sprt(bad)
        assert info.value.field == "sprt"
    with pytest.raises(rosen.InvalidArgumentError, match="^sprt: expected elo0 < elo1"):
        parse_sprt("10,0")
    with pytest.raises(rosen.ArgumentTypeError, match="^elo0: expected a number, got str"):
        SPRT("0", "5")
    assert math.isfinite(SPRT(-2000, 2000).llr([1, 0, 0, 0, 9]))  # the widest bounds still compute


# --- games, deals, records ------------------------------------------------------------------

def test_paired_deals_are_the_same_deal_with_colours_swapped():
    result = run_match("greedy", "random", games=6, seed=10)
    seeds = [g.seed for g in result.games]
    assert seeds == [10, 10, 11, 11, 12, 12]
    for i in range(0, 6, 2):
        first, second = result.games[i], result.games[i + 1]
        assert (first.red, first.white) == ("greedy", "random")
        assert (second.red, second.white) == ("random", "greedy")
        assert first.extra["a_colour"] == "red" and second.extra["a_colour"] == "white"


def test_draws_come_from_the_deal():
    # In both games of a pair the draws from the dealt pile are its cards, top first.
    deal = rosen.Position.new(5)
    pile = deal.draw_pile
    result = run_match("random", "greedy", games=2, seed=5)
    for game in result.games:
        drawn = [m.split(":")[1] for m in game.moves if m.startswith("draw:")]
        assert drawn[:len(pile)] == pile[:len(drawn[:len(pile)])]
        assert len(drawn) > len(pile)  # the game went past a reshuffle


def test_dealer_gives_the_same_card_when_the_piles_agree():
    def position(red_hand, discard):
        return rosen.Position(f"9/9/9/9/9/9/9/9/9 e5 r {red_hand} S3,SW1,NW2,N3,E1 4 4 {discard} *")

    a = position("N1,NE2,E3,S1", "W2")
    first = Dealer(seed=3).card(a)
    assert first in a.pile_cards
    # Same pile cards, different hand and discard: the same card.
    assert Dealer(seed=3).card(position("NE2,E3,S1,W2", "N1")) == first
    # A pile without that card yields the next card of the same permutation ...
    dealer = Dealer(seed=3)
    dealer.card(a)
    order = [c for c in dealer._order if c in a.pile_cards]
    assert order[0] == first and sorted(order) == sorted(a.pile_cards)
    assert Dealer(seed=3).card(position("N1,NE2,E3,S1", "W2," + first)) == order[1]
    # ... and a pile missing some other card still yields the first.
    assert Dealer(seed=3).card(position("N1,NE2,E3,S1", "W2," + order[5])) == first
    # Another deal seed shuffles differently (over a few seeds, not always the same first card).
    assert len({Dealer(seed=s).card(a) for s in range(10)}) > 1


def test_a_refused_card_leaves_the_dealer_as_it_was():
    # A lazy game (R7) with an empty pile and a full red hand: draw is illegal. The refusal once
    # came after the dealer had counted a reshuffle, so its next card differed from a fresh one's.
    fen = ("9/9/9/9/9/9/9/9/r8 a1 r N1,NE2,E3,S1,W3 S3,SW1,NW2,N3,E1 4 4 "
           "N2,NE1,NE3,E2,SE1,SE2,SE3,S2,SW2,SW3,W1,W2,NW1,NW3 -")
    full = rosen.Position(fen, reshuffle="lazy")
    assert not full.is_legal("draw")
    dealer = Dealer(7)
    with pytest.raises(rosen.InvalidArgumentError, match="^position: draw is not legal here"):
        dealer.card(full)
    assert dealer.reshuffles == 0 and dealer._order is None
    can_draw = rosen.Position(fen.replace(",W3 ", " ").replace("W2,NW1", "W2,W3,NW1"), reshuffle="lazy")
    assert dealer.card(can_draw) == Dealer(7).card(can_draw)
    with pytest.raises(TypeError, match="^position: expected a rosen.Position, got str"):
        dealer.card("x")
    with pytest.raises(ValueError, match="^seed: expected 0..18446744073709551615, got -1"):
        Dealer(-1)


def test_numpy_seeds_play_as_their_ints():
    # A NumPy integer passed the seed checks, then overflowed in the dealer's 64-bit mixing.
    import numpy as np

    assert play_game(RandomAgent(seed=1), RandomAgent(seed=2), seed=np.int64(5)) == \
        play_game(RandomAgent(seed=1), RandomAgent(seed=2), seed=5)
    result = run_match("random", "greedy", games=2, seed=np.uint64(4))
    assert result.seed == 4 and type(result.seed) is int
    assert result.games == run_match("random", "greedy", games=2, seed=4).games


def test_a_seed_whose_last_deal_is_past_the_range_is_refused_before_play(tmp_path, capsys):
    # Pair i is deal seed + i: at 2**64 - 1 the second pair once failed after the first was played.
    with pytest.raises(ValueError, match="^seed: expected 0..18446744073709551614, got 18446744073709551615"):
        run_match("random", "random", games=4, seed=2**64 - 1)
    assert len(run_match("random", "random", games=4, seed=2**64 - 2).games) == 4
    out = tmp_path / "m.jsonl"
    assert main(["match", "random", "random", "--games", "4", "--seed", str(2**64 - 1), "--jsonl", str(out)]) == 2
    assert "--seed: expected 0..18446744073709551614" in capsys.readouterr().err
    assert not out.exists() or out.read_text() == ""  # no game played
    # More games than there are seeds: the games are refused, not the seed with a negative range.
    with pytest.raises(ValueError, match="^games: expected 2..18446744073709551615, got 100000000000000000000"):
        run_match("random", "random", games=10**20)


def test_eager_reshuffles_are_counted():
    pos = rosen.Position.new(2)
    agents = (RandomAgent(seed=1), RandomAgent(seed=2))
    record = play_game(*agents, seed=2)
    dealer = Dealer(2)
    for move in record.moves:
        after = pos.play(move)
        if move.startswith("draw"):
            assert move == "draw:" + dealer.card(pos)
            dealer.observe(pos, after)
        pos = after
    assert dealer.reshuffles >= 1


@pytest.mark.parametrize("players,reshuffle", [(2, "eager"), (2, "lazy"), (4, "eager"), (4, "lazy")])
def test_records_replay_to_the_same_result(players, reshuffle, tmp_path):
    path = tmp_path / "games.jsonl"
    code = main(["match", "greedy", "random", "--games", "6", "--seed", "3", "--players", str(players),
                 "--reshuffle", reshuffle, "--jsonl", str(path), "--progress", "off"])
    assert code == 0
    records = read_jsonl(str(path))
    assert [r["game"] for r in records] == list(range(6))
    for r in records:
        assert r["players"] == players and r["reshuffle"] == reshuffle and r["seed"] == 3 + r["pair"]
        assert all(m != "draw" for m in r["moves"])  # every draw names its card
        final = replay(r)
        assert final.winner == r["winner"] and list(final.scores) == r["scores"]


def test_replay_detects_a_tampered_record():
    record = run_match("random", "random", games=2, seed=1).games[0].to_json()
    assert replay(record).is_terminal
    bad = dict(record, scores=[record["scores"][0] + 1, record["scores"][1]])
    with pytest.raises(ValueError, match="scores"):
        replay(bad)
    cut = dict(record, moves=record["moves"][:-1])
    with pytest.raises(ValueError, match="moves"):
        replay(cut)
    wrong = dict(record, moves=["pass"] + record["moves"])
    with pytest.raises(ValueError, match=r"moves\[0\]"):
        replay(wrong)
    with pytest.raises(ValueError, match="seed"):
        replay({"moves": []})
    for key in ("scores", "moves"):  # not a list: was a bare TypeError ('int' object is not iterable)
        with pytest.raises(rosen.InvalidArgumentError, match=f"^{key}: expected a list, got int"):
            replay(dict(record, **{key: 5}))
        with pytest.raises(rosen.InvalidArgumentError, match=f"^{key}: expected a list, got int"):
            GameRecord.from_json(dict(record, **{key: 5}))


def test_replay_takes_a_jsonl_line_as_written(tmp_path):
    path = tmp_path / "games.jsonl"
    assert main(["match", "greedy", "random", "--games", "2", "--seed", "5", "--jsonl", str(path),
                 "--progress", "off"]) == 0
    line = path.read_text().splitlines()[0]
    assert replay(line) == replay(json.loads(line))
    assert replay(line.encode()).is_terminal
    with pytest.raises(ValueError, match="record: expected one JSON line"):
        replay(line[:-3])
    with pytest.raises(TypeError, match="record: expected a GameRecord"):
        replay(["seed", "moves"])
    with pytest.raises(TypeError, match="record"):
        replay("[1, 2]")
    with pytest.raises(ValueError, match="record: expected one JSON line of a game record, nested too deeply"):
        replay("[" * 100000)


class SeatSpy(RandomAgent):
    """A random agent that notes which seats it was asked to move for."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.seats = set()

    def choose(self, position):
        self.seats.add(position.turn)
        return super().choose(position)


def test_four_players_a_team_agent_plays_both_seats():
    red, white = SeatSpy(1), SeatSpy(2)
    record = play_game(red, white, seed=7, players=4)
    assert red.seats == {"r1", "r2"} and white.seats == {"w1", "w2"}
    assert isinstance(record, GameRecord) and replay(record).is_terminal


def test_same_seed_same_match_and_threads_do_not_matter():
    one = run_match("greedy", "random", games=12, seed=42)
    again = run_match("greedy", "random", games=12, seed=42)
    threaded = run_match("greedy", "random", games=12, seed=42, threads=3)
    other = run_match("greedy", "random", games=12, seed=43)
    moves = [g.moves for g in one.games]
    assert moves == [g.moves for g in again.games] == [g.moves for g in threaded.games]
    assert moves != [g.moves for g in other.games]
    assert one.wdl() == threaded.wdl()


def test_sprt_stops_early_and_threads_do_not_change_where():
    strong = run_match("greedy", "random", games=4000, seed=0, sprt=SPRT(0, 30))
    assert strong.sprt_decision == "H1" and len(strong.games) < 4000
    threaded = run_match("greedy", "random", games=4000, seed=0, sprt=SPRT(0, 30), threads=2)
    assert len(threaded.games) == len(strong.games)
    weak = run_match("greedy", "random", games=4000, seed=0, sprt=SPRT(300, 400))
    assert weak.sprt_decision == "H0"


def test_totals_add_up():
    result = run_match("greedy", "random", games=40, seed=1)
    w, d, l = result.wdl()
    assert w + d + l == 40
    rw, rd, rl = result.wdl("red")
    ww, wd, wl = result.wdl("white")
    assert (rw + ww, rd + wd, rl + wl) == (w, d, l)
    penta = result.pentanomial
    assert sum(penta) == 20
    points = sum(i * 0.5 * c for i, c in enumerate(penta))
    assert points == w + d / 2
    assert result.estimate.score == pytest.approx((w + d / 2) / 40)


# --- the command line -----------------------------------------------------------------------

def test_match_command_prints_the_report(capsys):
    assert main(["match", "greedy", "random", "--games", "20", "--seed", "1"]) == 0
    out = capsys.readouterr()
    assert "A: greedy" in out.out and "B: random" in out.out
    for label in ("W/D/L", "score", "95% [", "elo", "LL", "WW", "A as red", "A as white"):
        assert label in out.out
    assert "\r[" not in out.err  # stderr is not a terminal: no progress bar


def test_match_command_json_and_sprt(capsys):
    assert main(["match", "greedy", "random", "--games", "2000", "--sprt", "0,30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sprt"] == "H1" and data["games"] < 2000
    assert data["wins"] + data["draws"] + data["losses"] == data["games"]
    test = data["sprt_test"]  # the state the text shows (LLR and bounds) is in the JSON too
    assert test["llr"] >= test["upper"] > 0 > test["lower"] and (test["elo0"], test["elo1"]) == (0, 30)
    # an SPRT still undecided: "sprt" is null and "sprt_test" says how far it got
    assert main(["match", "greedy", "random", "--games", "4", "--sprt", "0,30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sprt"] is None and data["sprt_test"]["lower"] < data["sprt_test"]["llr"] < data["sprt_test"]["upper"]
    assert main(["match", "greedy", "random", "--games", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sprt_test"] is None
    assert main(["match", "greedy", "random", "--games", "2000", "--sprt", "0,30"]) == 0
    assert "pentanomial GSPRT" in capsys.readouterr().out


def test_match_command_json_is_standard_json_after_a_clean_sweep(capsys):
    # A clean sweep's Elo is infinite; Python once wrote it as Infinity, which strict parsers
    # (JavaScript's JSON.parse, jq) reject. It is null now, as rosen strength writes it.
    assert main(["match", "greedy", "random", "--games", "2", "--seed", "1", "--json"]) == 0

    def refuse(constant):
        raise ValueError(f"non-standard JSON constant {constant}")

    data = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert data["wins"] == 2 and data["elo"] is None and data["elo_high"] is None
    assert data["elo_low"] < 0 < data["score"]


def test_progress_bar_draws_a_line():
    import io
    stream = io.StringIO()
    run_match("random", "random", games=4, progress=progress_bar(4, stream))
    assert stream.getvalue().startswith("\r[") and "4/4" in stream.getvalue()


@pytest.mark.parametrize("argv,needle", [
    (["--games", "3"], "--games"),
    (["--games", "0"], "--games"),
    (["--threads", "0"], "--threads"),
    (["--seed", "-1"], "--seed"),
    (["--sprt", "10,0"], "--sprt"),
    (["--sprt", "x"], "--sprt"),
    (["--alpha", "0.9", "--sprt", "0,10"], "alpha"),
    (["--players", "3"], "--players"),
    (["--reshuffle", "never"], "--reshuffle"),
    (["--jsonl", "/nonexistent/dir/x.jsonl"], "--jsonl"),
])
def test_bad_arguments_exit_2_naming_the_option(argv, needle, capsys):
    assert main(["match", "greedy", "random"] + argv) == 2
    assert needle in capsys.readouterr().err


def test_bad_agent_specs_exit_2_naming_the_agent(capsys):
    assert main(["match", "alphazero", "random"]) == 2
    assert "A:" in capsys.readouterr().err
    assert main(["match", "random", "mcts:depth=2"]) == 2
    err = capsys.readouterr().err
    assert "B:" in err and "depth" in err


def test_api_arguments_are_checked():
    with pytest.raises(ValueError, match="games"):
        run_match("random", "random", games=5)
    with pytest.raises(TypeError, match="a"):
        run_match(3, "random")
    with pytest.raises(ValueError, match="players"):
        run_match("random", "random", players=3)
    with pytest.raises(ValueError, match="white"):
        agent = RandomAgent()
        play_game(agent, agent)


def test_mcts_match_reports_search_figures(capsys):
    assert main(["match", "mcts:iterations=100", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "A search  depth" in out and "iterations/s" in out


def test_search_figures_are_reported_per_side(capsys):
    result = run_match("mcts:iterations=400", "random", games=2, seed=4)
    a, b = result.side_stats("a"), result.side_stats("b")
    assert a.moves > 0 and b.moves == 0
    assert a.mean_depth > 0 and a.nps > 0
    stats = result.games[0].to_json()["stats"]
    searching = stats["red"] if result.games[0].extra["a_colour"] == "red" else stats["white"]
    assert searching["iterations"] == 400 * searching["moves"]
    assert main(["match", "mcts:iterations=400", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"A search  depth \d+\.\d  nps [\d,]+ \(iterations/s\)  \d+ ms/move  400 iterations/move", out)
    assert "B search" not in out


def test_a_match_reports_what_each_game_clock_left(monkeypatch):
    # A side on a game clock: each record keeps what its clock had left at the end, the summary and
    # the JSON the least any game left and the games that overspent it; a side on no clock has none.
    from rosen.agents import mcts as mcts_module
    now = [0.0]

    def tick():  # every read of the agent's clock is 25 ms after the last: a move costs 25 ms
        now[0] += 0.025
        return now[0]
    monkeypatch.setattr(mcts_module, "_now", tick)
    result = run_match("mcts:clock_ms=600,iterations=30,rollout=random", "random", games=2, seed=4)
    left = result.clocks_left("a")
    assert len(left) == 2 and result.clocks_left("b") == []
    for game in result.games:
        colour = game.extra["a_colour"]
        other = "white" if colour == "red" else "red"
        assert game.stats[colour].clock_left_ms == pytest.approx(600 - 25 * game.stats[colour].moves)
        line = json.loads(json.dumps(game.to_json()))
        assert "clock_left_ms" not in line["stats"][other]
        assert GameRecord.from_json(line).stats[colour].clock_left_ms == game.stats[colour].clock_left_ms
    overspent = sum(v < 0 for v in left)
    assert overspent >= 1  # about 25 moves a game: 600 ms do not last
    assert result.to_dict()["clock"] == {"a": {"games": 2, "least_left_ms": min(left), "overspent": overspent},
                                         "b": None}
    assert f"A clock   least left {min(left):,.0f} ms, overspent in {overspent} of 2 games" in result.summary()
    assert "B clock" not in result.summary()
    assert result.side_stats("a").clock_left_ms == min(left)


@pytest.mark.parametrize("value", ["12", True, [1]])
def test_a_records_clock_must_be_a_number(value):
    line = json.loads(json.dumps(run_match("random", "random", games=2, seed=1).games[0].to_json()))
    line["stats"]["red"]["clock_left_ms"] = None  # a side on no clock, written out
    assert GameRecord.from_json(line).stats["red"].clock_left_ms is None
    line["stats"]["red"]["clock_left_ms"] = value
    with pytest.raises(ValueError, match="stats: clock_left_ms: expected a number"):
        GameRecord.from_json(line)


def test_two_engine_commands_play_a_match_through_the_protocol():
    command = f"{sys.executable} -m rosen engine"
    result = run_match(f"engine:command={command},iterations=300", "greedy", games=2, seed=6)
    assert len(result.games) == 2
    for record in result.games:
        assert rosen.match.replay(record.to_json()).winner == record.winner


def test_a_record_names_the_agent_seeds_so_a_game_can_be_played_again():
    from rosen.agents import parse_agent_spec
    record = run_match("greedy", "random", games=2, seed=8).games[1]  # A (greedy) is white
    seeds = record.to_json()["agent_seeds"]
    again = play_game(parse_agent_spec("random").build(seeds["b"]), parse_agent_spec("greedy").build(seeds["a"]),
                      seed=record.seed)
    assert again.moves == record.moves


def test_a_jsonl_file_summarises_to_the_same_match(tmp_path):
    from rosen.match import jsonl_writer, summarise_jsonl
    path = tmp_path / "m.jsonl"
    with open(path, "w") as f:
        played = run_match("greedy", "random", games=10, seed=2, on_game=jsonl_writer(f))
    again = summarise_jsonl(str(path))
    assert again.wdl() == played.wdl() and again.pentanomial == played.pentanomial
    assert (again.a, again.b, again.seed) == ("greedy", "random", 2)
    assert [g.moves for g in again.games] == [g.moves for g in played.games]
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(ValueError, match="no games"):
        summarise_jsonl(str(tmp_path / "empty.jsonl"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().splitlines()[0] + "\n{truncated\n")
    with pytest.raises(ValueError, match="line 2 is not JSON"):
        summarise_jsonl(str(bad))
    bad.write_text("[" * 100000 + "\n")
    with pytest.raises(ValueError, match="line 1 is not JSON"):
        read_jsonl(str(bad))
    bad.write_bytes(b"\xff\xfe{}\n")  # was a raw UnicodeDecodeError
    with pytest.raises(rosen.InvalidArgumentError, match="is not UTF-8 text$"):
        read_jsonl(str(bad))


def test_ctrl_c_keeps_the_pairs_played_so_far():
    def interrupt_after_two_pairs(result):
        if len(result.games) == 4:
            raise KeyboardInterrupt

    result = run_match("greedy", "random", games=20, progress=interrupt_after_two_pairs, stop_on_interrupt=True)
    assert result.interrupted and len(result.games) == 4
    assert "interrupted" in result.summary()
    with pytest.raises(KeyboardInterrupt):
        run_match("greedy", "random", games=20, progress=interrupt_after_two_pairs)


def test_an_engine_that_cannot_start_is_one_line_and_exit_2(capsys):
    # Issue 8: this used to end in a FileNotFoundError traceback.
    assert main(["match", "engine:command=/nonexistent/engine,iterations=10", "random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("rosen match: error: ") and "cannot start '/nonexistent/engine'" in err


def _fake_games(results):
    """GameRecords with only a winner, for counting (results: one of 'red', 'white', 'draw' a game)."""
    return [GameRecord(seed=0, players=2, reshuffle="eager", red="a", white="b", winner=str(w), scores=[0, 0], moves=[])
            for w in results]


def _recount(games):
    """The totals counted the plain way: every game, every time."""
    from rosen.match.runner import a_points
    by_colour = {c: [0, 0, 0] for c in ("red", "white")}
    for i, g in enumerate(games):
        colour = "red" if i % 2 == 0 else "white"
        by_colour[colour][{1.0: 0, 0.5: 1, 0.0: 2}[a_points(g, colour)]] += 1
    pairs = [a_points(games[i], "red") + a_points(games[i + 1], "white") for i in range(0, len(games) // 2 * 2, 2)]
    return ({c: tuple(v) for c, v in by_colour.items()}, pentanomial_counts(pairs))


def test_match_totals_agree_with_a_recount_however_the_games_change():
    # The totals are read from ``games`` as it is: appended to, cut, replaced by a list that shares
    # its last record (a bootstrap's resample), changed in place.
    from rosen.match import MatchResult
    rng = np.random.default_rng(5)
    games = _fake_games(rng.choice(["red", "white", "draw"], size=301, p=[0.45, 0.45, 0.1]))
    result = MatchResult(a="a", b="b", seed=0, players=2, reshuffle="eager")

    def check():
        by_colour, pent = _recount(result.games)
        assert (result.wdl("red"), result.wdl("white"), result.pentanomial) == (by_colour["red"], by_colour["white"],
                                                                              pent)
        assert result.wdl() == tuple(map(sum, zip(by_colour["red"], by_colour["white"])))

    for n in list(range(0, 40)) + [101, 102, 250, 301]:
        result.games += games[len(result.games):n]
        check()
    for changed in (games[:120], games[7:207], list(reversed(games)), []):  # cut, replaced, reordered, emptied
        result.games = list(changed)
        check()
    last = _fake_games(["white"])[0]
    result.games = _fake_games(["red"] * 3) + [last]
    check()
    result.games = _fake_games(["white"] * 3) + [last]  # another list ending in the same record
    check()
    result.games[0] = _fake_games(["red"])[0]
    check()
    result.games[1].winner = "draw"
    check()
    with pytest.raises(ValueError, match="^colour: expected 'red' or 'white', got 'blue'"):
        result.wdl("blue")
    with pytest.raises(TypeError, match="^colour: expected a str"):
        result.wdl([1])


def test_a_list_replaced_while_the_match_runs_is_counted_as_it_is():
    # The running count serves appends only: a shorter list put in its place mid-match (by a
    # progress callback) is counted again, then counted on as the match appends to it.
    seen = []

    def progress(r):
        if len(r.games) == 4 and not seen:
            seen.append(r.wdl())
            r.games = r.games[:2]
            seen.append(r.wdl())
            seen.append(_recount(r.games))

    result = run_match("greedy", "random", games=8, seed=1, progress=progress)
    (by_colour, _), after = seen[2], seen[1]
    assert sum(seen[0]) == 4 and sum(after) == 2 and after == tuple(map(sum, zip(by_colour["red"], by_colour["white"])))
    by_colour, pent = _recount(result.games)
    assert len(result.games) == 6 and (result.wdl("red"), result.wdl("white"), result.pentanomial) == \
        (by_colour["red"], by_colour["white"], pent)


def test_the_interval_is_the_pairs_once_a_pair_is_complete():
    """``estimate``: trinomial while no pair is complete, then the complete pairs' (an odd game
    left over is not in it)."""
    full = run_match("greedy", "random", games=4, seed=1)
    one = copy.copy(full)
    one.games = full.games[:1]
    assert one.estimate == trinomial_estimate(*one.wdl())
    three = copy.copy(full)
    three.games = full.games[:3]
    assert three.estimate == pentanomial_estimate(pentanomial_counts(three.pair_scores()))
    assert three.estimate != trinomial_estimate(*three.wdl())


def test_each_game_of_a_pair_has_its_own_agent_seeds():
    """Seeds derived from (seed, game, side): the two games of a deal do not replay one agent's
    random stream."""
    seeds = [g.extra["agent_seeds"] for g in run_match("random", "random", games=4, seed=6).games]
    assert len({s["a"] for s in seeds}) == 4 and len({s["b"] for s in seeds}) == 4
    assert seeds == [g.extra["agent_seeds"] for g in run_match("random", "random", games=4, seed=6).games]


def test_first_pair_beyond_the_match_is_refused():
    assert len(run_match("random", "random", games=4, first_pair=2).games) == 0  # nothing left to play
    with pytest.raises(rosen.InvalidArgumentError, match="^first_pair: expected 0..2, got 3"):
        run_match("random", "random", games=4, first_pair=3)


def test_a_match_counts_each_game_once_for_its_running_totals(monkeypatch):
    # The SPRT and the progress bar read the totals after every pair; they once counted every game
    # again each time (an SPRT of 24 000 fast games spent 80 s more on that than on playing).
    import io
    from rosen.match import runner
    calls = []
    real = runner.a_points
    monkeypatch.setattr(runner, "a_points", lambda g, c: calls.append(1) or real(g, c))
    bar = progress_bar(200, stream=io.StringIO())
    result = run_match("random", "random", games=200, seed=3, progress=bar, sprt=SPRT(-1, 1, alpha=1e-9, beta=1e-9))
    assert len(result.games) == 200 and result.sprt_decision is None
    assert len(calls) <= 3 * 200  # each game once, and each pair's first game once more
    by_colour, pent = _recount(result.games)  # after the match: read from the games as they are
    assert (result.wdl("red"), result.wdl("white"), result.pentanomial) == (by_colour["red"], by_colour["white"], pent)


def test_an_interrupted_count_leaves_no_wrong_total(monkeypatch):
    # A Ctrl-C inside the running count (the progress bar's, the SPRT's) must not leave totals
    # that count a game twice: the match drops its running count when it ends, however it ends.
    from rosen.match import runner
    real, seen = runner.a_points, []

    def interrupting(g, c):
        seen.append(1)
        if len(seen) == 9:  # the third pair's last count: after its games' W/D/L, before its pair
            raise KeyboardInterrupt
        return real(g, c)
    monkeypatch.setattr(runner, "a_points", interrupting)
    result = run_match("random", "random", games=20, seed=4, progress=lambda r: r.wdl(), stop_on_interrupt=True)
    monkeypatch.setattr(runner, "a_points", real)
    assert result.interrupted
    by_colour, pent = _recount(result.games)
    assert (result.wdl("red"), result.wdl("white"), result.pentanomial) == (by_colour["red"], by_colour["white"], pent)
