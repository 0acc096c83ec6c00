"""Time management (rosen.engine.clock) on a simulated clock: whole games in which every move
costs exactly the time the engine allots it (plus a fixed overhead), so the tests are exact and
do not depend on the machine's speed."""
from __future__ import annotations

import functools
import random

import pytest

import rosen
from rosen.agents import MCTSAgent
from rosen.match import play_game
from rosen.engine.clock import MOVE_OVERHEAD_MS, allocate_time, decisions_left, limits_for, turns_left
from rosen.engine.protocol import GoArgs, parse_go

OVERHEAD_MS = 3  # what a frontend loses per move to the pipe and the engine's own bookkeeping


@functools.lru_cache(maxsize=None)
def searched_game(seed: int, players: int) -> tuple:
    """The positions of a game the search plays against itself (short searches: games of the
    usual length and shape, quickly)."""
    record = play_game(MCTSAgent(iterations=40, seed=seed), MCTSAgent(iterations=40, seed=seed + 1), seed=seed,
                       players=players)
    position = rosen.Position.new(seed, players=players)
    positions = [position]
    for move in record.moves:
        position = position.play(move)
        positions.append(position)
    return tuple(positions)


def simulated_game(seed: int, players: int, base_ms: int, inc_ms: int, option_ms: int = OVERHEAD_MS,
                   loss_ms: int = OVERHEAD_MS):
    """A searched game in which each side's clock pays what allocate_time allots (told that a turn
    loses ``option_ms``, the MoveOverhead option) and ``loss_ms`` more. Returns, per clock (red,
    white), the spends and the lowest the clock went."""
    clocks = {"red": base_ms, "white": base_ms}
    spent = {"red": [], "white": []}
    lowest = dict(clocks)
    for position in searched_game(seed, players)[:-1]:
        side = position.colour_to_move
        budget = allocate_time(clocks[side], inc_ms, position, option_ms)
        assert 1 <= budget <= max(1, clocks[side] // 2)
        clocks[side] -= budget + loss_ms
        lowest[side] = min(lowest[side], clocks[side])
        clocks[side] += inc_ms
        spent[side].append(budget)
    return spent, lowest


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("base_ms, inc_ms", [(60_000, 0), (10_000, 0), (20_000, 200), (3_000, 50)])
def test_the_clock_never_runs_out_and_most_of_it_is_used(players, base_ms, inc_ms):
    used = []
    for seed in range(6):
        spent, lowest = simulated_game(seed, players, base_ms, inc_ms)
        for side in ("red", "white"):
            assert lowest[side] > 0, (seed, side, lowest)
            moves = len(spent[side])
            used.append(sum(spent[side]) / (base_ms + inc_ms * moves - OVERHEAD_MS * moves))
    # Sensibly spent: most of the clock goes into thinking, not into what is left at the end. A game
    # that R9 ends early (no one can act) leaves time unused, which no allocation can foresee.
    # 4 players: with every turn of a team counted as a decision (forced draws and passes too,
    # about two turns in five) about 72% was spent; counting the turns with a choice, 83-89%.
    assert sum(used) / len(used) >= 0.8, used
    assert min(used) >= 0.6, used


@pytest.mark.parametrize("players", [2, 4])
def test_move_overhead_keeps_a_short_clock_from_running_out(players):
    # A whole game on one or half a second: told nothing of the 3 ms each turn loses (MoveOverhead
    # 0), the shares run the clock out; told it (3, or the default 10), no clock does.
    for base_ms in (1_000, 500):
        told = [min(simulated_game(seed, players, base_ms, 0, option)[1].values()) for seed in range(6)
                for option in (OVERHEAD_MS, MOVE_OVERHEAD_MS)]
        assert min(told) > 0, (base_ms, told)
    untold = [min(simulated_game(seed, players, 500, 0, 0)[1].values()) for seed in range(6)]
    assert min(untold) < 0, untold


def test_move_overhead_is_kept_back_for_every_turn_to_come_less_the_unspent_increment():
    start = rosen.Position.new(2)
    turns, decisions = turns_left(start), decisions_left(start)
    assert (turns, decisions) == (63, 49)  # 1.21 and 0.94 a token of 52: 14 forced turns, 1 ms each
    assert allocate_time(60_000, 0, start, 0) == int((60_000 - 14) / 51)
    assert allocate_time(60_000, 0, start, 10) == int((60_000 - 10 * 65 - 14) / 51)
    # An increment pays for the overhead: a quarter of it is never shared out.
    assert allocate_time(60_000, 100, start, 10) == int((60_000 - 14) / 51 + 75)
    assert allocate_time(60_000, 20, start, 10) == int((60_000 - 5 * 65 - 14) / 51 + 15)


def test_a_clock_short_of_its_overhead_spends_less_of_the_increment_and_keeps_the_move_overhead():
    # A clock that cannot cover the overhead kept back spent three quarters of the increment all
    # the same and ran out; the half-the-clock cap ignored the move's own overhead (15 + 20 > 30).
    start = rosen.Position.new(2)
    assert allocate_time(1000, 60, start, 40) < 45
    assert allocate_time(30, 100, start, 20) == 5 and allocate_time(20, 40, start, 10) == 5
    assert allocate_time(5, 0, start, 10) == 1
    for seed in range(3):
        spent, lowest = simulated_game(seed, 2, 1000, 60, 40, loss_ms=40)
        assert min(lowest.values()) > 0, (seed, lowest)


def test_time_per_move_is_spread_over_the_game():
    # No move takes a large bite: the busiest move of a 60 s game gets well under a tenth of it,
    # and the first moves get about the clock divided by the moves expected.
    spent, _ = simulated_game(3, 2, 60_000, 0)
    first = spent["red"][0]
    assert 60_000 / 80 < first < 60_000 / 40
    assert max(spent["red"]) < 60_000 / 10


def test_decisions_left_follow_the_supply():
    start = rosen.Position.new(1)
    assert decisions_left(start) == 49  # 0.94 * 52 tokens, rounded up
    assert decisions_left(rosen.Position.new(1, players=4)) == 37  # a team: 0.70 * 52
    late = rosen.Position("9/rwrwrwrwr/wrwrwrwrw/rwrwrwrwr/wrwrwrwrw/rwrwrwrwr/9/9/9 e5 r N1 S1 4 4 - *")
    assert late.supply == 7 and decisions_left(late) == 7


def test_a_single_legal_move_takes_no_time():
    forced = next(p for p in _positions() if len(p.legal_moves()) == 1)
    assert allocate_time(30_000, 500, forced) == 1
    choice = next(p for p in _positions() if len(p.legal_moves()) > 1)
    assert allocate_time(30_000, 500, choice) > 100


def _positions():
    rng = random.Random(5)
    for seed in range(50):
        position = rosen.Position.new(seed)
        while not position.is_terminal:
            yield position
            position = position.play(rng.choice(position.legal_moves()))


def test_limits_combine_clock_movetime_nodes_and_strength():
    start = rosen.Position.new(2)
    clock = limits_for(parse_go(["p1time", "63000", "p2time", "5"]), start, None, 20_000, 0)
    assert clock.time_ms == int((63_000 - 14) / (49 + 2)) and clock.iterations is None  # 1 ms a forced turn kept
    assert limits_for(parse_go(["p1time", "63000", "p2time", "5"]), start, None, 20_000).time_ms == \
        allocate_time(63_000, 0, start, MOVE_OVERHEAD_MS) < clock.time_ms
    both = limits_for(parse_go(["p1time", "63000", "p2time", "5", "movetime", "100"]), start, 500, 20_000)
    assert both.time_ms == 100 and both.iterations == 500
    white = start.play(start.legal_moves()[0])  # White's clock now (51 tokens left)
    assert limits_for(parse_go(["p1time", "63000", "p2time", "6400", "p1inc", "0", "p2inc", "40"]), white, None, 20_000).time_ms == \
        int((6400 - (turns_left(white) - decisions_left(white))) / (decisions_left(white) + 2) + 0.75 * 40)
    bare = limits_for(GoArgs(), start, None, 20_000)
    assert bare.iterations == 20_000 and bare.time_ms is None and not bare.infinite
    assert limits_for(GoArgs(infinite=True), start, None, 20_000).iterations is None
