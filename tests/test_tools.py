"""The developer tools in tools/ run (they are documented commands, so they must not rot)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load(name):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_regression_gate_runs_both_matches(capsys):
    gate = load("regression_gate")
    assert gate.with_budget("mcts:temperature=3,iterations=9", "time_ms=20") == "mcts:temperature=3,iterations=0,time_ms=20"
    # One pair can never show a candidate clearly worse (its interval is too wide), so the gate passes.
    assert gate.main(["mcts:temperature=3", "--games", "2", "--iterations", "30", "--time-ms", "3", "--threads", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "iterations=30" in out[0] and "time_ms=3" in out[1]
    assert all(line.startswith(("ok", "FAIL")) for line in out)


def test_the_golden_files_are_what_regenerate_writes():
    # tests/golden/regenerate.py is the documented way to renew the golden files after a
    # deliberate change; it must run, and today it must reproduce them exactly.
    spec = importlib.util.spec_from_file_location("regenerate", TOOLS.parent / "tests" / "golden" / "regenerate.py")
    regenerate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regenerate)
    golden = TOOLS.parent / "tests" / "golden"
    assert regenerate.deals() == (golden / "deals.txt").read_text()
    assert regenerate.engine_bench() == (golden / "engine_bench.txt").read_text()
