"""`rosen bench` (issue 13): the position suite, the reports' fields, engines through the protocol
(a faulty one included), comparisons, plots, and clear errors for bad input."""
from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest

import rosen
from rosen.bench import plots
from rosen.bench.report import aggregate, compare, time_to_depth
from rosen.bench.runner import budget_spec, parse_budgets, run_probes
from rosen.bench.suite import FORMAT, PHASES, load_suite, parse_suite
from rosen.cli import main

FAKE_ENGINE = str(Path(__file__).with_name("fake_engine.py"))


@pytest.fixture(scope="module")
def small():
    """Six positions of the committed suite, spread over it (both player counts, every phase)."""
    return load_suite().select(limit=6)


def test_the_committed_suite_is_documented_and_sound():
    suite = load_suite()
    assert len(suite.positions) == 100
    for key in ("tool", "games", "reference", "reference_params", "commit"):
        assert key in suite.produced
    kinds = {(p.players, p.phase) for p in suite.positions}
    assert kinds == {(n, phase) for n in (2, 4) for phase in PHASES}
    assert len({p.id for p in suite.positions}) == 100
    for p in suite.positions:
        position = p.position
        assert position.fen(hide_pile_order=True) == p.fen  # the pile's order is hidden (R14)
        assert position.is_legal(rosen.Move(p.best_move)) and 0.0 <= p.value <= 1.0


def test_a_suite_is_checked_on_loading(tmp_path):
    good = load_suite().select(limit=1).to_json()
    assert parse_suite(good).positions[0].id == good["positions"][0]["id"]
    bad_move = {**good, "positions": [{**good["positions"][0], "best_move": "NE9"}]}
    missing = {**good, "positions": [{"id": "x", "players": 2}]}
    for data, words in (({"format": "other"}, FORMAT), (bad_move, "best_move"), (missing, "lacks")):
        with pytest.raises(rosen.InvalidArgumentError, match=words) as info:
            parse_suite(data)
        assert info.value.field == "suite"
    path = tmp_path / "s.json"
    path.write_text("{not json")
    with pytest.raises(rosen.InvalidArgumentError, match="not JSON"):
        load_suite(path)
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(rosen.InvalidArgumentError, match="cannot read"):
        load_suite(path)


@pytest.mark.parametrize("key, value, words", [
    ("value", "abc", "value: expected a number, got str"), ("value", [1], "value: expected a number, got list"),
    ("value", True, "value: expected a number, got bool"), ("players", "2", "players: expected an int, got str"),
    ("id", [1], "position #0: id: expected a str, got list"), ("phase", ["opening"], "phase: expected a str"),
    ("fen", 3, "fen: expected a str, got int"), ("share", "x", "share: expected a number or null, got str"),
])
def test_a_suite_field_of_the_wrong_type_is_named(key, value, words):
    # each once gave a message naming no field ("could not convert string to float: 'abc'")
    good = load_suite().select(limit=1).to_json()
    data = {**good, "positions": [{**good["positions"][0], key: value}]}
    with pytest.raises(rosen.InvalidArgumentError, match=re.escape(words)):
        parse_suite(data)
    with pytest.raises(rosen.InvalidArgumentError, match="produced: expected an object, got list"):
        parse_suite({**good, "produced": [1]})


def test_probes_and_aggregates_carry_every_figure(small):
    probes = run_probes("mcts", small, budgets=(50, 400), seed=1)
    assert [p.budget for p in probes] == [50] * 6 + [400] * 6
    for p in probes:
        assert p.ok and p.iterations == p.budget and p.tree_size > 0 and p.seldepth >= 1
        assert p.depth > 0 and p.nps > 0 and p.time_ms > 0 and 0 <= p.value <= 1
        assert p.solved == (p.best_move == next(s.best_move for s in small.positions if s.id == p.position))
    low, high = aggregate(probes)
    assert low.stable is None and 0.0 <= high.stable <= 1.0
    assert high.depth > low.depth and high.tree_size > low.tree_size and high.seldepth_max >= high.seldepth
    assert low.solve_low <= low.solve_rate <= low.solve_high and low.value_error_half >= 0
    rows = time_to_depth(probes, [0.5, 99])
    assert rows[0]["reached"] == 6 and rows[0]["median_ms"] > 0 and rows[1]["reached"] == 0
    # the same seed gives the same searches
    again = run_probes("mcts", small, budgets=(50,), seed=1)
    assert [p.best_move for p in again] == [p.best_move for p in probes[:6]]


def _probe(config, budget, depth=3.0, time_ms=10.0, nps=1000.0, position="p1"):
    from rosen.bench.runner import Probe
    return Probe(config=config, budget=budget, threads=1, position=position, players=2, phase="open", best_move="N1",
                 solved=True, iterations=budget, depth=depth, time_ms=time_ms, nps=nps)


def test_the_reports_arithmetic_by_hand():
    from rosen.bench.report import mean_interval
    # mean 4, sample deviation sqrt(7.5), over sqrt(9): a half-width of 1.96 * 0.9129
    mean, half = mean_interval([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    assert mean == 4.0 and half == pytest.approx(1.96 * (7.5 / 9) ** 0.5, rel=1e-3)
    assert mean_interval([]) == (None, None) and mean_interval([2.0]) == (2.0, 0.0)
    # "B against A": B searching twice as fast reads 2, not 0.5
    diff = compare([_probe("A", 100, nps=1000.0), _probe("B", 100, nps=2000.0)], "A", "B")[0]
    assert diff.nps_ratio == 2.0
    # the time of the smallest budget whose mean depth reached the target
    rows = time_to_depth([_probe("A", 100, 4.5, 5.0), _probe("A", 1000, 6.5, 50.0), _probe("A", 10000, 8.5, 500.0)],
                         [4, 6, 8, 9])
    assert [(r["reached"], r["median_ms"]) for r in rows] == [(1, 5.0), (1, 50.0), (1, 500.0), (0, None)]


def test_the_commands_defaults_are_the_documented_ones(monkeypatch, tmp_path):
    # docs/strength.md: rosen bench --depths 4,6,8 by default; rosen strength's help: 200 games and
    # budgets 100,1000,10000.
    from rosen.cli import build_parser
    import rosen.cli.strength as strength

    assert build_parser().parse_args(["bench"]).depths == "4,6,8"
    assert build_parser().parse_args(["strength"]).games == 200
    seen = {}

    def fake_ladder(configs, anchor, budgets, **kwargs):
        seen["budgets"] = budgets
        raise SystemExit(0)

    monkeypatch.setattr(strength, "run_ladder", fake_ladder)
    with pytest.raises(SystemExit):
        main(["strength", "--out", str(tmp_path / "ladder")])
    assert tuple(seen["budgets"]) == (100, 1000, 10000)


def test_cli_writes_table_json_and_csv(tmp_path, capsys):
    out_json, out_csv, summary = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "s.csv"
    code = main(["bench", "--positions", "4", "--iterations", "30,60", "--json", str(out_json), "--csv", str(out_csv),
                 "--csv-summary", str(summary), "--per-position", "--quiet"])
    assert code == 0
    text = capsys.readouterr().out
    assert "solve [95%]" in text and "time to reach a mean depth" in text
    report = json.loads(out_json.read_text())
    assert report["budgets"] == [30, 60] and len(report["probes"]) == 8 and len(report["aggregates"]) == 2
    assert report["suite"]["produced"]["reference"]
    rows = list(csv.DictReader(out_csv.read_text().splitlines()))
    assert len(rows) == 8 and {"position", "solved", "depth", "nps", "value_error", "error"} <= set(rows[0])
    assert len(list(csv.DictReader(summary.read_text().splitlines()))) == 2


def test_compare_reports_differences_with_intervals(small, capsys):
    code = main(["bench", "--compare", "mcts", "mcts:rollout=random", "--positions", "4", "--iterations", "50",
                 "--json", "-", "--quiet"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    (diff,) = report["compare"]
    assert diff["positions"] == 4 and diff["solve_half"] >= 0 and diff["depth"] is not None
    assert diff["nps_ratio_low"] <= diff["nps_ratio"] <= diff["nps_ratio_high"]
    probes = run_probes("mcts", small, budgets=(50,)) + run_probes("mcts", small, budgets=(50,))
    assert compare(probes, "mcts", "mcts")[0].solve == 0.0


def test_any_engine_through_the_protocol(small):
    command = f"engine:command={sys.executable} -m rosen engine"
    probes = run_probes(command, small.select(limit=2), budgets=(200,))
    assert all(p.ok and p.iterations == 200 and p.depth > 0 and p.value is not None for p in probes)


@pytest.mark.parametrize("mode, words", [("crash", "closed its output"), ("hang", "no answer"),
                                         ("garbage", "engine")])
def test_a_faulty_engine_fails_one_position_and_the_run_goes_on(small, tmp_path, mode, words, capsys):
    counter = tmp_path / "count"
    spec = f"engine:command={sys.executable} {FAKE_ENGINE} {mode} {counter}"
    probes = run_probes(spec, small.select(limit=4), budgets=(10,), timeout=1.0)
    assert [p.ok for p in probes] == [True, False, True, True]
    assert words in probes[1].error and probes[1].position == small.select(limit=4).positions[1].id
    counter.unlink()
    code = main(["bench", spec, "--positions", "3", "--iterations", "10", "--timeout", "1"])
    assert code == 1  # reported, not hidden
    captured = capsys.readouterr()
    assert "2/3" in captured.out and words in captured.err
    counter.unlink()  # --quiet drops the progress, not the failure: its position and error still show
    assert main(["bench", spec, "--positions", "3", "--iterations", "10", "--timeout", "1", "--quiet"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and words in err[0] and " threads=1 " in err[0]  # config, budget, position: error


def test_bad_budgets_and_specs_are_named():
    for text in ("0", "10,5", "abc", ""):
        with pytest.raises(rosen.InvalidArgumentError) as info:
            parse_budgets(text, "iterations")
        assert info.value.field == "iterations"
    with pytest.raises(rosen.InvalidArgumentError, match="takes no iterations budget"):
        budget_spec("greedy", "iterations", 100)
    assert str(budget_spec("mcts:iterations=5", "time_ms", 20, 2)) == "mcts:iterations=0,time_ms=20,threads=2"
    assert str(budget_spec("uct:iterations=5", "time_ms", 20)) == "uct:iterations=0,time_ms=20"
    assert str(budget_spec("uct", "iterations", 300, 2)) == "uct:iterations=300,threads=2"


def test_a_suite_nested_too_deeply_is_a_clean_error(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000)
    assert main(["bench", "--suite", str(path), "--iterations", "10", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--suite" in err and "is not JSON" in err and "Traceback" not in err


def test_a_bare_expectimax_takes_the_probes_time():
    # The help names a bare ``expectimax`` as a configuration: the probe's time is its budget.
    assert budget_spec("expectimax", "time_ms", 20).options["time_ms"] == 20
    assert budget_spec("expectimax:", "time_ms", 20) == budget_spec("expectimax", "time_ms", 20)  # once "::time_ms"
    assert budget_spec("expectimax:movetime=5", "time_ms", 20) == budget_spec("expectimax", "time_ms", 20)
    spec = budget_spec("expectimax:depth=5,hero_weight=10", "time_ms", 30)
    assert spec.options["time_ms"] == 30 and "depth" not in spec.options and spec.options["hero_weight"] == 10
    with pytest.raises(rosen.InvalidArgumentError, match="takes no iterations budget"):
        budget_spec("expectimax", "iterations", 100)


@pytest.mark.parametrize("argv, words", [
    (["--iterations", "0"], "--iterations: expected"),
    (["greedy"], "takes no iterations budget"),
    (["mcts:foo=1"], "unknown option 'foo'"),
    (["mcts", "--compare", "mcts", "mcts"], "not both"),
    (["--players", "2", "--phase", "opening", "--positions", "0"], "--positions"),
    (["--search-seed", "-1"], "--search-seed: expected 0.."),
    (["--time-ms", ""], "--time-ms: expected at least one number"),
    (["--iterations", ""], "--iterations: expected at least one number"),
    (["--depths", "nan"], "--depths: expected numbers >= 0"),
    (["--depths", "-1"], "--depths: expected numbers >= 0"),
    (["mcts:exploration=1" + "0" * 400], "exploration: expected a number, got 10000000000000000000... (401"),
    # output files are checked before the run, not after it
    (["--json", "."], "--json: cannot write '.'"),
    (["--csv", "no/such/dir/x.csv"], "--csv: cannot write"),
    (["--csv-summary", "."], "--csv-summary: cannot write"),
    (["--plot", "picture"], "--plot: expected an image file name"),
    (["--json", "-", "--csv", "-"], "--csv: --json and --csv cannot both write to standard output"),
    (["--json", "-", "--csv-summary", "-"], "--csv-summary: --json and --csv-summary cannot both write"),
])
def test_cli_errors_are_one_line(argv, words, capsys):
    assert main(["bench", *argv, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_plot_draws_a_png(tmp_path):
    png = tmp_path / "bench.png"
    assert main(["bench", "--positions", "3", "--iterations", "20,40", "--threads", "1,2", "--plot", str(png),
                 "--quiet"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_plot_says_how_to_get_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    with pytest.raises(rosen.InvalidArgumentError, match=r'pip install "rosen\[plot\]"'):
        plots.require_matplotlib()
    assert main(["bench", "--positions", "1", "--plot", "x.png", "--quiet"]) == 2
    assert 'pip install "rosen[plot]"' in capsys.readouterr().err


def test_the_protocol_signature_stays(capsys):
    from rosen.engine.bench import run_bench
    assert main(["bench", "--signature"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.split()[:4] == run_bench()[-1].split()[:4]  # nodes N signature HEX (nps varies)
