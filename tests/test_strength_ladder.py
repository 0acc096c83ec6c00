"""`rosen strength` (issue 13): Elo against budget by matches against an anchor, JSON lines,
resuming, plots and errors."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

import rosen
from rosen.bench.ladder import SUMMARY, point_name, run_ladder
from rosen.cli import main
from rosen.match import run_match

ANCHOR = "mcts:iterations=20"


def _ladder(out, games, budgets=(10, 40)):
    return run_ladder(["mcts"], ANCHOR, budgets, games=games, seed=7, out=out)


def test_a_ladder_reports_elo_per_budget_and_writes_json_lines(tmp_path):
    points = _ladder(tmp_path, 4)
    assert [(p.budget, p.games, p.resumed) for p in points] == [(10, 4, 0), (40, 4, 0)]
    for p in points:
        assert p.spec == f"mcts:iterations={p.budget}" and p.anchor == ANCHOR
        assert p.wins + p.draws + p.losses == 4 and p.score_low <= p.score <= p.score_high
        assert p.elo_low <= p.elo <= p.elo_high and p.depth > 0 and p.nps > 0
        lines = Path(p.file).read_text().splitlines()
        assert len(lines) == 4 and json.loads(lines[0])["red"] == p.spec
    summary = [json.loads(line) for line in (tmp_path / SUMMARY).read_text().splitlines()]
    assert [s["budget"] for s in summary] == [10, 40]
    assert all(s["elo"] is None or math.isfinite(s["elo"]) for s in summary)  # JSON has no infinity


def test_resuming_keeps_finished_pairs_and_gives_the_same_match(tmp_path):
    _ladder(tmp_path / "a", 4)
    resumed = _ladder(tmp_path / "a", 8)
    fresh = _ladder(tmp_path / "b", 8)
    assert [p.resumed for p in resumed] == [4, 4]
    for r, f in zip(resumed, fresh):
        assert (r.wins, r.draws, r.losses, r.games) == (f.wins, f.draws, f.losses, f.games)
        def moves(path):
            return [json.loads(x)["moves"] for x in Path(path).read_text().splitlines()]
        assert moves(r.file) == moves(f.file)
    # finished: nothing is played again
    assert [p.resumed for p in _ladder(tmp_path / "a", 8)] == [8, 8]


def test_a_smaller_games_uses_the_first_games_and_keeps_the_rest(tmp_path):
    # A rerun with a smaller --games cut the finished games beyond it from the file, unannounced.
    (whole,) = _ladder(tmp_path, 8, budgets=(10,))
    lines = Path(whole.file).read_text().splitlines()
    (part,) = _ladder(tmp_path, 4, budgets=(10,))
    assert part.games == 4 and part.resumed == 4
    assert Path(whole.file).read_text().splitlines() == lines  # all 8 still there
    (again,) = _ladder(tmp_path, 8, budgets=(10,))
    assert again.resumed == 8 and (again.wins, again.losses) == (whole.wins, whole.losses)


def test_a_run_killed_mid_line_resumes_from_its_complete_pairs(tmp_path):
    (point,) = _ladder(tmp_path, 4, budgets=(10,))
    text = Path(point.file).read_text().splitlines()
    with open(point.file, "w") as f:  # game 3 complete, game 4 cut short
        f.write("\n".join(text[:3]) + "\n" + text[3][:40])
    (again,) = _ladder(tmp_path, 4, budgets=(10,))
    assert again.resumed == 2 and again.games == 4 and (again.wins, again.losses) == (point.wins, point.losses)


def test_a_file_of_another_match_is_not_overwritten(tmp_path):
    (point,) = _ladder(tmp_path, 2, budgets=(10,))
    with pytest.raises(rosen.InvalidArgumentError, match="remove it or choose another --out") as info:
        run_ladder(["mcts"], ANCHOR, (10,), games=2, seed=8, out=tmp_path)  # another seed: other deals
    assert info.value.field == "out"


def test_run_match_first_pair_plays_the_rest_of_a_match():
    whole = run_match("mcts:iterations=10", "random", games=6, seed=3)
    rest = run_match("mcts:iterations=10", "random", games=6, seed=3, first_pair=2, threads=2)
    assert [g.moves for g in rest.games] == [g.moves for g in whole.games[4:]]
    # An SPRT over the resumed pairs alone would not be the match's test.
    with pytest.raises(rosen.InvalidArgumentError, match="^sprt: cannot be combined with first_pair"):
        run_match("random", "random", games=6, seed=3, first_pair=1, sprt=rosen.match.SPRT(0, 50))


def test_the_plot_runs_an_open_interval_to_the_edge(tmp_path, monkeypatch):
    # A point of +920 [+730, +inf] was drawn with no upper bar, as if its interval ended at +920.
    from types import SimpleNamespace

    from matplotlib.axes import Axes

    from rosen.bench import plots

    drawn = {}
    real = Axes.errorbar

    def spy(self, x, y, yerr=None, **kwargs):
        drawn["yerr"] = yerr
        return real(self, x, y, yerr=yerr, **kwargs)

    monkeypatch.setattr(Axes, "errorbar", spy)
    point = SimpleNamespace(config="mcts", budget=100, elo=920.0, elo_low=730.0, elo_high=math.inf)
    plots.ladder_figure([point], "iterations", "mcts:iterations=10", str(tmp_path / "p.png"))
    (low,), (high,) = drawn["yerr"]
    assert low == pytest.approx(190.0) and high > 920


def test_cli_runs_a_ladder_with_plot_and_json(tmp_path, capsys):
    png, out_json = tmp_path / "elo.png", tmp_path / "points.json"
    code = main(["strength", "mcts", "mcts:rollout=random", "--anchor", ANCHOR, "--iterations", "10,30",
                 "--games", "2", "--out", str(tmp_path / "runs"), "--plot", str(png), "--json", str(out_json),
                 "--progress", "off"])
    assert code == 0
    text = capsys.readouterr().out
    assert "Elo [95%]" in text and "mcts:rollout=random" in text
    assert len(json.loads(out_json.read_text())) == 4
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, words", [
    (["--iterations", "0"], "--iterations: expected"),
    (["--iterations", "100,10"], "increasing"),
    (["greedy"], "takes no iterations budget"),
    (["--games", "3"], "--games: expected an even number"),
    (["--anchor", "mcts:nope=1"], "unknown option 'nope'"),
    (["--json", "."], "--json: cannot write '.'"),  # before the ladder, not after it
    (["--plot", "ladder"], "--plot: expected an image file name"),
])
def test_cli_errors_are_one_line(tmp_path, argv, words, capsys):
    assert main(["strength", *argv, "--out", str(tmp_path), "--progress", "off"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_point_files_never_collide():
    # "a b" and "a_b" once shared a file, and so did long specs that differed past the 200th
    # character (a budget): the second point then refused the first's games for ever.
    assert point_name("engine:command=x y,iterations=5", ANCHOR) != point_name("engine:command=x_y,iterations=5", ANCHOR)
    long = "mcts:" + ",".join(f"{k}=1" for k in ("exploration", "prior_weight", "draw_value", "hero_cost")) * 6
    assert point_name(long + ",iterations=20", ANCHOR) != point_name(long + ",iterations=40", ANCHOR)
    assert len(point_name(long, ANCHOR)) <= 173


@pytest.mark.parametrize("bad", ['{"stats": []}', "[1, 2, 3]", "[" * 100000, "\x00\x00"])
def test_a_bad_line_before_good_games_is_an_error_and_deletes_nothing(tmp_path, bad):
    # It once ended the read silently, and the rewrite then deleted every good game after it.
    (point,) = _ladder(tmp_path, 4, budgets=(10,))
    lines = Path(point.file).read_text().splitlines()
    damaged = "\n".join([lines[0], bad] + lines[1:]) + "\n"
    Path(point.file).write_text(damaged)
    with pytest.raises(rosen.InvalidArgumentError, match="line 2 is not a game record of this ladder"):
        _ladder(tmp_path, 4, budgets=(10,))
    assert Path(point.file).read_text() == damaged


@pytest.mark.parametrize("index, line", [(0, 1), (-1, 4)], ids=["first", "last"])
def test_a_tampered_result_is_found_by_replaying_the_games(tmp_path, index, line):
    # The last line too: only a last line without its newline was cut short by a kill; a whole
    # one that is wrong was once dropped silently.
    (point,) = _ladder(tmp_path, 4, budgets=(10,))
    lines = Path(point.file).read_text().splitlines()
    game = json.loads(lines[index])
    game["winner"] = "white" if game["winner"] == "red" else "red"
    lines[index] = json.dumps(game)
    damaged = "\n".join(lines) + "\n"
    Path(point.file).write_text(damaged)
    with pytest.raises(rosen.InvalidArgumentError, match=f"line {line} is not a game record.*winner"):
        _ladder(tmp_path, 4, budgets=(10,))
    assert Path(point.file).read_text() == damaged


@pytest.mark.parametrize("engine", [None, "0123456789abcdef"], ids=["none recorded", "another"])
def test_games_another_build_played_are_not_resumed(tmp_path, engine):
    # A ladder resumed by another build mixed two engines' games in one point, with nothing to show
    # it (the builds of 3 and 5 Dec played other games than today's at the same seeds).
    from rosen.selfplay.engine_id import engine_fingerprint
    (point,) = _ladder(tmp_path, 4, budgets=(10,))
    games = [json.loads(line) for line in Path(point.file).read_text().splitlines()]
    assert [g["engine"] for g in games] == [engine_fingerprint()] * 4
    for g in games[2:]:
        g.pop("engine")
        if engine is not None:
            g["engine"] = engine
    damaged = "".join(json.dumps(g) + "\n" for g in games)
    Path(point.file).write_text(damaged)
    by = "which recorded no engine fingerprint" if engine is None else "another build of rosen .engine fingerprint"
    with pytest.raises(rosen.InvalidArgumentError, match=f"game 2 was played by .*{by}.*finish the ladder with "
                                                         "that build, or remove the file"):
        _ladder(tmp_path, 8, budgets=(10,))
    assert Path(point.file).read_text() == damaged
    # A finished point adds nothing: it is reported again from whatever build played it.
    (again,) = _ladder(tmp_path, 4, budgets=(10,))
    assert again.resumed == 4 and (again.wins, again.losses) == (point.wins, point.losses)
    assert [json.loads(line) for line in Path(point.file).read_text().splitlines()] == games


def test_a_ladder_begun_before_the_hashed_names_resumes(tmp_path):
    from rosen.bench.ladder import _legacy_name
    (point,) = _ladder(tmp_path, 4, budgets=(10,))
    path = Path(point.file)
    legacy = path.with_name(_legacy_name(point.spec, point.anchor) + ".jsonl")
    path.rename(legacy)
    (again,) = _ladder(tmp_path, 4, budgets=(10,))
    assert again.resumed == 4 and not legacy.exists() and Path(again.file) == path
    # an old name holding another match's games is left alone
    legacy.write_text(path.read_text().replace('"seed":', '"seed":1', 1))
    path.unlink()
    (fresh,) = _ladder(tmp_path, 4, budgets=(10,))
    assert fresh.resumed == 0 and legacy.exists()
    # Files under the old name come from builds before 5 Dec, which recorded no engine: adding
    # games to one is refused with the directory unchanged (it was renamed first, then refused);
    # a finished one is taken over and reported.
    old_games = "".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "engine"}) + "\n"
                        for line in path.read_text().splitlines())
    legacy.write_text(old_games)
    path.unlink()
    with pytest.raises(rosen.InvalidArgumentError, match="game 0 was played by a rosen from before 7 Dec 2026"):
        _ladder(tmp_path, 8, budgets=(10,))
    assert legacy.read_text() == old_games and not path.exists()
    (taken,) = _ladder(tmp_path, 4, budgets=(10,))
    assert taken.resumed == 4 and not legacy.exists()
    assert [json.loads(line) for line in path.read_text().splitlines()] == [json.loads(line) for line in
                                                                          old_games.splitlines()]


def test_a_directory_where_a_file_should_be_is_a_one_line_error(tmp_path, capsys):
    (tmp_path / SUMMARY).mkdir()
    code = main(["strength", "mcts", "--anchor", ANCHOR, "--iterations", "10", "--games", "2",
                 "--out", str(tmp_path), "--progress", "off"])
    err = capsys.readouterr().err
    assert code == 2 and "ladder.jsonl" in err and "Traceback" not in err


@pytest.mark.skipif(os.name != "posix", reason="the folder's lock is POSIX flock")
def test_a_folder_another_strength_run_writes_is_refused(tmp_path, capsys):
    # Two ladders sharing a point on one --out: the second replaced the point file the first was
    # appending to (the first's games went to a deleted file, its report to games that exist
    # nowhere) and the summary was whichever ended last; both with status 0.
    import fcntl
    from rosen.bench.ladder import run_point
    _ladder(tmp_path, 2, budgets=(10,))
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running ladder holds it
        with pytest.raises(rosen.InvalidArgumentError, match="^out: .* is in use by another strength run"):
            _ladder(tmp_path, 4, budgets=(10,))
        with pytest.raises(rosen.InvalidArgumentError, match="is in use by another strength run"):
            run_point("mcts", "iterations", 10, ANCHOR, games=4, seed=7, players=2, reshuffle="eager", threads=1,
                      out=tmp_path)
        assert main(["strength", "mcts", "--anchor", ANCHOR, "--iterations", "10", "--games", "4",
                     "--out", str(tmp_path), "--progress", "off"]) == 2
        assert "--out: " in capsys.readouterr().err
        assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before
    finally:
        os.close(fd)
    (point,) = _ladder(tmp_path, 4, budgets=(10,))  # the folder free again, the run resumes
    assert point.resumed == 2 and point.games == 4


def test_one_process_may_play_points_of_a_folder_from_threads(tmp_path):
    # The lock is against other processes: run_point from two threads on one folder (each point
    # its own file) was refused by the first version of it, as "another strength run".
    import threading
    from rosen.bench.ladder import run_point
    played: dict = {}

    def play(budget: int) -> None:
        played[budget] = run_point("mcts", "iterations", budget, ANCHOR, games=20, seed=7, players=2,
                                   reshuffle="eager", threads=1, out=tmp_path).games

    threads = [threading.Thread(target=play, args=(budget,)) for budget in (10, 20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert played == {10: 20, 20: 20}
    # and from run_ladder's on_point, on its own folder
    nested = run_ladder(["mcts"], ANCHOR, [10], games=2, seed=7, out=tmp_path,
                        on_point=lambda point: run_point("mcts", "iterations", 30, ANCHOR, games=2, seed=7, players=2,
                                                         reshuffle="eager", threads=1, out=tmp_path))
    assert len(nested) == 1 and len(list(tmp_path.glob("*iterations=30*"))) == 1


def test_the_summary_is_replaced_whole_not_rewritten_in_place(tmp_path):
    # ladder.jsonl was emptied and written in place: a full disk left it empty. Replaced whole, a
    # second name for the old file keeps the old summary.
    _ladder(tmp_path, 2, budgets=(10,))
    old = (tmp_path / SUMMARY).read_text()
    os.link(tmp_path / SUMMARY, tmp_path / "old-summary")
    _ladder(tmp_path, 2, budgets=(10, 40))
    assert (tmp_path / "old-summary").read_text() == old
    assert len((tmp_path / SUMMARY).read_text().splitlines()) == 2
