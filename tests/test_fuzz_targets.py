"""The fuzz targets (fuzz/, docs/reliability.md) run on their committed corpora, without atheris:
so a target cannot rot (an API change that breaks its decoding or its oracle fails here), and the
seeds that once found something keep being checked by every test run."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "fuzz")
TARGETS = ("position", "search", "score", "lovagok", "engine")


@pytest.fixture(scope="module", autouse=True)
def fuzz_path():
    sys.path.insert(0, FUZZ)
    os.environ.setdefault("ROSEN_FUZZ_KNOWN", "skip")
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


def known_inputs():
    folder = os.path.join(FUZZ, "known")
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, t, f) for t in os.listdir(folder) for f in os.listdir(os.path.join(folder, t)))


@pytest.mark.parametrize("path", known_inputs(), ids=os.path.basename)
def test_known_finding(path):
    """The reproducers of the open findings (fuzz/_common.py KNOWN), each in a subprocess since
    some crash. An xfail is a finding still open; once it passes, drop its KNOWN entry and
    its skip in the target, and move the file into the target's corpus."""
    env = dict(os.environ, ROSEN_FUZZ_KNOWN="check")
    # Under tools/sanitize.sh the expected crash is this test's business: its report goes to the
    # captured stderr, not to the report files that fail the sanitizer run.
    for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"):
        if name in env:
            env[name] = ":".join(o for o in env[name].split(":") if not o.startswith("log_path="))
    proc = subprocess.run([sys.executable, os.path.join(FUZZ, "run.py"), "--replay", path], env=env,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        pytest.xfail(f"open finding {os.path.basename(path)}: rc {proc.returncode}: {proc.stderr.strip()[-300:]}")
