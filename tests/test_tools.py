"""The developer tools in tools/ run (they are documented commands, so they must not rot)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import rosen

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def exits_2(call, *args):
    """``call(*args)`` ends as argparse ends on a usage error: SystemExit with code 2."""
    with pytest.raises(SystemExit) as exit_:
        call(*args)
    assert exit_.value.code == 2, args


def load_path(path: Path):
    """The script at ``path`` imported as a module (its ``main`` not run)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(name):
    return load_path(TOOLS / f"{name}.py")


def test_regression_gate_runs_both_matches(capsys):
    gate = load("regression_gate")
    assert gate.with_budget("mcts:temperature=3,iterations=9", "time_ms=20") == "mcts:temperature=3,iterations=0,time_ms=20"
    # One pair can never show a candidate clearly worse (its interval is too wide), so the gate passes.
    assert gate.main(["mcts:temperature=3", "--games", "2", "--iterations", "30", "--time-ms", "3", "--threads", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "iterations=30" in out[0] and "time_ms=3" in out[1]
    assert all(line.startswith(("ok", "FAIL")) for line in out)
    # The team game's defaults are gated in the team game (R13).
    assert gate.main(["mcts:temperature=3", "--games", "2", "--iterations", "30", "--time-ms", "3", "--threads", "1",
                      "--players", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all(line.startswith("ok") and "  4 players: mcts:" in line for line in out)


def test_regression_gate_refuses_bad_arguments_before_any_match(capsys):
    # Exit 2, not the 1 of a FAIL, and before the first match (once: a traceback, or the second
    # budget's error after the first match's minutes).
    gate = load("regression_gate")
    for argv, message in ((["mcts:bogus=1"], "candidate: "),
                          (["mcts", "--baseline", "random"], "--baseline: expected an mcts:... spec, got 'random'"),
                          (["mcts", "--baseline", "mcts:bogus=1"], "--baseline: "),
                          (["mcts", "--games", "3"], "--games: expected an even number"),
                          (["mcts", "--games", "0"], "--games: expected an even number"),
                          (["mcts", "--time-ms", "-3"], "--time-ms: expected >= 1, got -3"),
                          (["mcts", "--iterations", "0"], "--iterations: expected >= 1, got 0"),
                          (["mcts", "--threads", "0"], "--threads: expected 1..256, got 0"),
                          (["mcts", "--threads", "257"], "--threads: expected 1..256, got 257"),
                          (["mcts", "--games", str(2 * 10**9)], "--games: expected an even number"),
                          (["mcts", "--players", "3"], "--players: invalid choice: 3")):
        exits_2(gate.main, argv)
        captured = capsys.readouterr()
        assert message in captured.err and "Traceback" not in captured.err and captured.out == "", argv


def test_the_golden_files_are_what_regenerate_writes():
    # tests/golden/regenerate.py is the documented way to renew the golden files after a
    # deliberate change; it must run, and today it must reproduce them exactly.
    spec = importlib.util.spec_from_file_location("regenerate", TOOLS.parent / "tests" / "golden" / "regenerate.py")
    regenerate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regenerate)
    golden = TOOLS.parent / "tests" / "golden"
    assert regenerate.deals() == (golden / "deals.txt").read_text()
    assert regenerate.engine_bench() == (golden / "engine_bench.txt").read_text()
    stamps = {path.name: path.stat().st_mtime_ns for path in golden.iterdir()}
    assert regenerate.main(["--check"]) == 0  # all four files, written nowhere
    with pytest.raises(SystemExit) as info:
        regenerate.main(["--help"])  # a question, not an order to rewrite the files
    assert info.value.code == 0
    assert {path.name: path.stat().st_mtime_ns for path in golden.iterdir()} == stamps


def test_make_bench_suite_writes_a_valid_suite(tmp_path):
    from rosen.bench.suite import load_suite
    out = tmp_path / "suite.json"
    make = load("make_bench_suite")
    assert make.main(["--out", str(out), "--positions", "12", "--games", "3", "--game-agent", "mcts:iterations=30",
                      "--reference-iterations", "200", "--screen-iterations", "50", "--max-share", "1"]) == 0
    suite = load_suite(out)
    assert len(suite.positions) == 12 and {p.players for p in suite.positions} == {2, 4}
    assert "iterations=200" in suite.produced["reference"]
    again = tmp_path / "again.json"
    make.main(["--out", str(again), "--positions", "12", "--games", "3", "--game-agent", "mcts:iterations=30",
               "--reference-iterations", "200", "--screen-iterations", "50", "--max-share", "1"])
    strip = lambda text: [line for line in text.splitlines() if '"seconds"' not in line and '"tool"' not in line]
    assert strip(out.read_text()) == strip(again.read_text())  # seeded: the same arguments, the same file


def test_make_bench_suite_checks_its_arguments_before_the_searches(tmp_path, capsys):
    make = load("make_bench_suite")
    fast = ["--games", "3", "--game-agent", "mcts:iterations=30", "--reference-iterations", "200",
            "--screen-iterations", "50"]
    for argv, message in ((["--positions", "-4"], "--positions: expected >= 1, got -4"),
                          (["--positions", "0"], "--positions: expected >= 1, got 0"),
                          (["--max-share", "0"], "--max-share: expected a share in (0, 1]"),
                          (["--out", str(tmp_path)], "--out: expected a file in an existing directory"),
                          (["--out", str(tmp_path / "no" / "x.json")], "--out: expected a file in an existing")):
        exits_2(make.main, fast + argv)
        assert message in capsys.readouterr().err
    # The default file is this checkout's committed suite, whatever rosen is imported.
    assert make.COMMITTED == TOOLS.parent / "python" / "rosen" / "data" / "bench_suite.json"
    assert make.COMMITTED.exists()


def test_make_bench_suite_warns_when_the_games_leave_fewer_positions(tmp_path, capsys):
    make = load("make_bench_suite")
    out = tmp_path / "suite.json"
    assert make.main(["--out", str(out), "--positions", "500", "--games", "1", "--game-agent", "random",
                      "--reference-iterations", "20", "--screen-iterations", "20", "--max-share", "1"]) == 0
    err = capsys.readouterr().err
    written = int(err.split("wrote ")[1].split()[0])
    assert written < 500 and f"warning: only {written} of the 500 positions asked for" in err


def test_strength_figures_leaves_the_committed_pictures_unless_told(tmp_path, capsys):
    figures = load("strength_figures")
    for argv, message in ((["--steps", "4"], "--steps: expected step numbers 1, 2 or 3"),
                          (["--steps", "0"], "--steps: expected"), (["--steps", ""], "--steps: expected"),
                          (["--steps", "1,x"], "--steps: expected")):
        exits_2(figures.main, ["--out", str(tmp_path / "o")] + argv)
        assert message in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    exits_2(figures.main, ["--out", str(tmp_path / "file")])
    assert "is a file, not a directory" in capsys.readouterr().err
    # Without --img the pictures go beside the reports, not over docs/img's committed ones.
    docs_img = TOOLS.parent / "docs" / "img"
    before = {f.name: f.stat().st_mtime_ns for f in docs_img.iterdir()}
    assert figures.main(["--out", str(tmp_path / "o"), "--steps", "2", "--threads", "1"]) == 0
    assert (tmp_path / "o" / "img" / "bench_threads_small.png").stat().st_size > 0
    assert {f.name: f.stat().st_mtime_ns for f in docs_img.iterdir()} == before


def test_strength_figures_names_one_command_per_step(tmp_path):
    figures = load("strength_figures")
    steps = figures.commands("full", tmp_path, tmp_path, 2, 70000)
    assert [s[0] for s in steps] == ["bench", "bench", "strength"]
    assert "100000" in steps[2][steps[2].index("--iterations") + 1] and steps[2][steps[2].index("--games") + 1] == "200"


def test_the_speed_and_screenshot_tools_refuse_bad_arguments_at_once(capsys, monkeypatch):
    # selfplay_speed once had no parser (--help ran the whole benchmark and started Ray) and
    # found a missing Ray after three figures; classic_speed took --repeat 0 to a StatisticsError;
    # web_screenshots without a browser named Playwright's own download.
    speed = load("selfplay_speed")
    exits_2(speed.main, ["--bogus"])
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if Ray were not installed
    assert speed.main([]) == 2
    assert 'needs Ray: pip install "rosen[ray]"' in capsys.readouterr().err

    classic = load("classic_speed")
    monkeypatch.setattr(sys, "argv", ["classic_speed.py", "--repeat", "0"])
    exits_2(classic.main)
    assert "--repeat: expected >= 1, got 0" in capsys.readouterr().err

    shots = load("web_screenshots")
    monkeypatch.setenv("ROSEN_CHROMIUM", "/nonexistent/chromium")
    assert shots.main(["--out", "/nonexistent/never-made"]) == 2
    assert "no Chromium found: set $ROSEN_CHROMIUM" in capsys.readouterr().err
    assert shots.DOCS_IMG == TOOLS.parent / "docs" / "img"


def test_clock_model_measures_the_ratio_and_the_clocks(capsys):
    # The figures of rosen.engine.clock come from this tool: a decision is a turn with a choice,
    # counted for its own side only, and the simulated clocks never run out.
    model = load("clock_model")
    start = rosen.Position.new(3)
    reply = start.play(start.legal_moves()[0])
    assert len(start.legal_moves()) > 1 and len(reply.legal_moves()) > 1
    # Red, White, Red: Red has two decisions left at the first, White one at the second.
    after = reply.play(reply.legal_moves()[0])
    assert model.decisions_against_supply([start, reply, after]) == [(52, 2), (51, 1), (after.supply, 1)]
    assert model.main(["--players", "4", "--games", "2", "--iterations", "20", "--per-token", "1.34"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 players, 2 games at 20 iterations: ") and "simulated below: 1.34" in out
    assert out.count("spent on average") == len(model.CLOCKS) and "lowest clock -" not in out
    assert model.clock.DECISIONS_PER_TOKEN == {2: 0.94, 4: 0.70}  # the simulation restores the ratio
    exits_2(model.main, ["--games", "0"])
    exits_2(model.main, ["--per-token", "0"])
    assert "--per-token: expected 0 < ratio <= 10, got 0.0" in capsys.readouterr().err


def test_compare_commits_times_plain_uct_and_the_old_team_search_as_named():
    # Since the default minimax backups (30 Nov 2026) its "plain UCT" and team "to the end"
    # benchmarks had timed a search with minimax_weight 0.3 in every version that had it.
    import rosen
    from rosen.agents.spec import UCT_PARAMS
    compare = load_path(TOOLS.parent / "bench" / "compare_commits.py")
    assert compare.SEARCH_KWARGS["uct_random"] == UCT_PARAMS
    params = rosen.SearchParams(**compare.SEARCH_KWARGS["uct_team"])
    assert (params.rollout_cutoff, params.minimax_weight) == (0, 0)
    assert set(compare.OPTIONAL_KWARGS) <= set(UCT_PARAMS)


def test_bench_and_fuzz_scripts_refuse_bad_arguments_before_any_work(capsys, tmp_path):
    # compare_commits refused these after two builds (minutes), or with a traceback; thread_scaling
    # took --reps 0 to a StatisticsError; make_corpus had no parser, so --help rewrote the corpus.
    root = TOOLS.parent
    compare = load_path(root / "bench" / "compare_commits.py")
    for argv, message in ((["--games", "0"], "--games: expected >= 1, got 0"),
                          (["--iterations", "-5"], "--iterations: expected >= 1, got -5"),
                          (["--reps", "0"], "--reps: expected >= 1, got 0"),
                          (["--json", str(tmp_path / "no" / "x.json")], "--json: no directory"),
                          (["--old", "no-such-ref-anywhere"], "--old: 'no-such-ref-anywhere' is not a commit")):
        exits_2(compare.main, argv)
        captured = capsys.readouterr()
        assert message in captured.err and "Traceback" not in captured.err and captured.out == "", argv
    exits_2(load_path(root / "bench" / "thread_scaling.py").main, ["--reps", "0"])
    assert "--reps: expected >= 1, got 0" in capsys.readouterr().err
    corpus = root / "fuzz" / "corpus"
    before = {p: p.stat().st_mtime_ns for p in corpus.rglob("*") if p.is_file()}
    make_corpus = load_path(root / "fuzz" / "make_corpus.py")
    with pytest.raises(SystemExit) as exit_:
        make_corpus.main(["--help"])
    assert exit_.value.code == 0 and "usage:" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in corpus.rglob("*") if p.is_file()} == before


def test_the_loop_suite_figures_clock_and_fuzz_tools_check_every_argument_first(capsys, tmp_path):
    # Each was refused late (after steps, games or searches), with a traceback, or -- fuzz/run.py --
    # with the exit status of a finding; reinforce.py let --agent-options override the loop's own
    # network, so every gate played one network against itself.
    root = TOOLS.parent
    cases = [
        (load("reinforce").parse_args, ["--dir", str(tmp_path / "loop"), "--agent-options", "evaluator=builtin"],
         "--agent-options: evaluator is the loop's own"),
        (load("reinforce").parse_args, ["--dir", str(tmp_path / "loop"), "--agent-options", "iterations=9"],
         "--agent-options: iterations is the loop's own"),
        (load("reinforce").parse_args, ["--dir", str(tmp_path / "loop"), "--threads", "0"], "--threads: expected 1..256"),
        (load("reinforce").parse_args, ["--dir", str(tmp_path / "loop"), "--seed", "-1"], "--seed: expected 0.."),
        (load("reinforce").parse_args, ["--dir", str(tmp_path / "loop"), "--seed", str(2**63 - 1)],
         "--seed: expected 0..9223372036854775802"),
        (load("reinforce").parse_args, ["--dir", str(tmp_path / "loop"), "--agent-options", "time_ms=50"],
         "--agent-options: time_ms is the loop's own"),
        (load("clock_model").main, ["--games", str(10**11)], "--games: expected 1..1000000"),
        (load("make_bench_suite").main, ["--out", str(tmp_path / "s.json"), "--game-agent", "bogus"],
         "--game-agent: agent: unknown kind 'bogus'"),
        (load("make_bench_suite").main, ["--out", str(tmp_path / "s.json"), "--reference-seed", "-1"],
         "--reference-seed: expected 0.."),
        (load("strength_figures").main, ["--out", str(tmp_path / "f"), "--steps", "2,3", "--seed", "-5"],
         "--seed: expected 0.."),
        (load("strength_figures").main, ["--out", "/proc/rosen-never"], "--out: cannot make"),
        (load("clock_model").main, ["--seed", "-1"], "--seed: expected 0.."),
        (load_path(root / "fuzz" / "run.py").main, ["--seconds", "nan"], "--seconds: expected a number of seconds >= 1"),
        (load_path(root / "fuzz" / "run.py").main, ["--seconds", "0.5"], "--seconds: expected a number of seconds >= 1"),
        (load_path(root / "fuzz" / "run.py").main, ["--replay", str(tmp_path / "none")], "--replay: no file"),
        (load_path(root / "fuzz" / "run.py").main, ["--keep", "/dev/null"], "--keep: '/dev/null' is not a directory"),
    ]
    for call, argv, message in cases:
        exits_2(call, argv)
        captured = capsys.readouterr()
        assert message in captured.err and "Traceback" not in captured.err, argv
    assert not (tmp_path / "f").exists() or not any((tmp_path / "f").iterdir())

