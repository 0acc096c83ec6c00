"""The fuzz targets (fuzz/, docs/reliability.md) run on their committed corpora, without atheris:
so a target cannot rot (an API change that breaks its decoding or its oracle fails here), and the
seeds that once found something (the corpora hold the reproducers of issue 16's findings under
their ids, e.g. fuzz/corpus/search/K1-temperature-1e-50) keep being checked by every test run."""
from __future__ import annotations

import importlib
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "fuzz")
TARGETS = ("position", "search", "score", "lovagok", "engine")


@pytest.fixture(scope="module", autouse=True)
def fuzz_path():
    sys.path.insert(0, FUZZ)
    yield
    sys.path.remove(FUZZ)


def corpus(target):
    folder = os.path.join(FUZZ, "corpus", target)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder))


def test_every_target_has_a_corpus_and_a_runner_entry():
    sys.path.insert(0, FUZZ)
    try:
        run = importlib.import_module("run")
    finally:
        sys.path.remove(FUZZ)
    assert set(run.TARGETS) == set(TARGETS)
    for target in TARGETS:
        assert os.path.isfile(os.path.join(FUZZ, f"fuzz_{target}.py"))
        assert len(corpus(target)) >= 5, target


@pytest.mark.parametrize("target", TARGETS)
def test_target_runs_its_corpus(target):
    module = importlib.import_module(f"fuzz_{target}")
    files = corpus(target)
    for path in files:
        with open(path, "rb") as fh:
            module.one_input(fh.read())  # raises (or crashes) for a finding


@pytest.mark.parametrize("target", TARGETS)
def test_target_survives_odd_inputs(target):
    """Empty, tiny and patterned inputs: the decoding never fails on its own."""
    module = importlib.import_module(f"fuzz_{target}")
    for data in (b"", b"\0", b"\xff", b"\xff" * 64, bytes(range(256)), b"\0" * 300, b"\x01\x02" * 100):
        module.one_input(data)


def test_allowed_exceptions_are_pinned_in_one_place():
    common = importlib.import_module("_common")
    assert common.ALLOWED == (ValueError, TypeError)
    ok, exc = common.attempt(int, "x")
    assert not ok and isinstance(exc, ValueError)
    with pytest.raises(RuntimeError):
        common.attempt(lambda: (_ for _ in ()).throw(RuntimeError("a finding")))


def test_runner_refuses_an_interpreter_without_atheris(tmp_path):
    """An interpreter that cannot import atheris is a setup problem, said once (exit 2), not five
    targets' worth of 'crash' findings written under fuzz/findings/."""
    import subprocess

    findings = os.path.join(FUZZ, "findings")
    existed = os.path.exists(findings)
    no_atheris = tmp_path / "python"
    no_atheris.write_text("#!/bin/sh\necho \"ModuleNotFoundError: No module named 'atheris'\" >&2\nexit 1\n")
    no_atheris.chmod(0o755)
    proc = subprocess.run([sys.executable, os.path.join(FUZZ, "run.py"), "--target", "all", "--seconds", "5",
                           "--python", str(no_atheris)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "cannot import atheris (ModuleNotFoundError: No module named 'atheris')" in proc.stderr
    assert "pip install atheris" in proc.stderr
    assert "fuzzing" not in proc.stdout
    assert os.path.exists(findings) == existed


def test_make_corpus_reproduces_the_committed_corpus_and_keeps_named_seeds(tmp_path):
    # docs/reliability.md: "rewrite the seed corpora" with make_corpus.py. It removed the whole
    # folder, so the fuzzer-found reproducers F2 and F4 (named seeds it does not generate) were
    # deleted, and the committed search seeds had gone stale (its FIELDS grew).
    import filecmp
    import shutil
    import subprocess

    shutil.copytree(FUZZ, tmp_path / "fuzz", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(os.path.join(ROOT, "tests", "golden"), tmp_path / "tests" / "golden")
    subprocess.run([sys.executable, str(tmp_path / "fuzz" / "make_corpus.py")], check=True, capture_output=True)
    for target in TARGETS:
        committed = os.path.join(FUZZ, "corpus", target)
        written = tmp_path / "fuzz" / "corpus" / target
        assert sorted(os.listdir(written)) == sorted(os.listdir(committed)), target
        match, mismatch, errors = filecmp.cmpfiles(committed, written, os.listdir(committed), shallow=False)
        assert not mismatch and not errors, (target, mismatch, errors)
    assert (tmp_path / "fuzz" / "corpus" / "search" / "F2-exploration-1e39").exists()
