"""Random-play statistics (`rosen randomplay`) through the Python function and the CLI's main(argv)."""
from __future__ import annotations

import json

import pytest

import rosen
from rosen.cli import main


def test_random_play_totals_are_consistent():
    stats = rosen.random_play(2000, seed=1)
    assert stats.games == 2000
    assert stats.red_wins + stats.white_wins + stats.draws == 2000
    assert 40 < stats.mean_plies < 200
    assert 0 < stats.blockades < 2000  # both end conditions happen (R8, R9)
    assert 0.3 < stats.red_share < 0.7


def test_random_play_is_seeded_and_independent_of_threads():
    one = rosen.random_play(3000, seed=5, threads=1)
    two = rosen.random_play(3000, seed=5, threads=2)
    assert (one.red_wins, one.white_wins, one.plies, one.blockades) == (
        two.red_wins, two.white_wins, two.plies, two.blockades)
    other = rosen.random_play(3000, seed=6)
    assert (other.red_wins, other.plies) != (one.red_wins, one.plies)


def test_random_play_matches_python_loop_statistically():
    # The C++ loop plays the same rules as Position.play: compare mean plies with a Python loop.
    import random
    rng = random.Random(0)
    plies = 0
    for seed in range(300):
        pos = rosen.Position.new(seed=seed)
        while not pos.is_terminal:
            pos = pos.play(rng.choice(pos.legal_moves()))
            plies += 1
    stats = rosen.random_play(20000, seed=3)
    assert abs(plies / 300 - stats.mean_plies) < 6


@pytest.mark.parametrize("players,reshuffle", [(4, "eager"), (2, "lazy"), (4, "lazy")])
def test_random_play_variants(players, reshuffle):
    stats = rosen.random_play(500, seed=2, players=players, reshuffle=reshuffle)
    assert stats.games == 500 and stats.red_wins + stats.white_wins + stats.draws == 500


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(games=0), ValueError, "games"),
    (dict(games=1.5), TypeError, "games"),
    (dict(games=10, players=3), ValueError, "players"),
    (dict(games=10, reshuffle="never"), ValueError, "reshuffle"),
    (dict(games=10, threads=0), ValueError, "threads"),
    (dict(games=10, seed=-4), ValueError, "seed"),
])
def test_random_play_bad_parameters(kwargs, error, match):
    with pytest.raises(error, match=match):
        rosen.random_play(**kwargs)


def test_cli_randomplay_text(capsys):
    assert main(["randomplay", "--games", "1000", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    for label in ("red wins", "white wins", "draws", "mean plies", "blockade end", "games/s"):
        assert label in out


def test_cli_randomplay_json(capsys):
    assert main(["randomplay", "--games", "1000", "--seed", "4", "--players", "4", "--reshuffle", "lazy",
                 "--threads", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 1000 and data["players"] == 4 and data["reshuffle"] == "lazy"
    assert abs(data["red_share"] + data["white_share"] + data["draw_share"] - 1) < 1e-9
    stats = rosen.random_play(1000, seed=4, players=4, reshuffle="lazy")
    assert data["red_wins"] == stats.red_wins


def test_cli_bad_arguments_exit_2(capsys):
    assert main(["randomplay", "--games", "0"]) == 2
    assert "games" in capsys.readouterr().err
    assert main(["randomplay", "--players", "3"]) == 2
    assert "--players" in capsys.readouterr().err


def test_a_run_too_short_to_time_has_infinite_speed():
    from rosen.randomplay import RandomPlayStats

    stats = RandomPlayStats(games=3, red_wins=1, white_wins=1, draws=1, plies=300, blockades=0, seconds=0.0)
    assert stats.games_per_second == float("inf")
    assert RandomPlayStats(games=3, red_wins=1, white_wins=1, draws=1, plies=300, blockades=0,
                           seconds=1.5).games_per_second == 2.0
