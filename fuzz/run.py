#!/usr/bin/env python3
"""Run the fuzz targets for a time budget and report inputs tried and findings.

    python fuzz/run.py --target all --seconds 60
    python fuzz/run.py --target search --seconds 300
    python fuzz/run.py --replay fuzz/findings/search/crash-...   # one input, no atheris needed
    tools/sanitize.sh fuzz && python fuzz/run.py --native ...     # C++ coverage too (clang)

Each target runs in its own atheris (libFuzzer) process, starting from a scratch copy of its
committed corpus (fuzz/corpus/<target>/, which is never written to; --keep DIR keeps what was
learned). A finding stops that process; the runner saves the input under fuzz/findings/<target>/,
prints its first lines and restarts the target for the rest of its budget, so one run can report
several distinct findings. Exit status: 0 when no target had a finding, 1 otherwise, 2 for usage.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ("position", "search", "score", "lovagok", "engine")
#: libFuzzer's per-input time limit: an input that runs longer is a hang (finding).
INPUT_TIMEOUT_S = 60
RSS_LIMIT_MB = 4096
MAX_RESTARTS = 20


def _target_env() -> dict:
    """The environment of a target's interpreter (the probe's too): no bytecode files in the tree."""
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1")


def _signature(log: str) -> str:
    """A short, stable name for a finding: the exception line, or libFuzzer's headline."""
    for pattern in (r"=== Uncaught Python exception: ===\n(.+)", r"==\d+== ?ERROR: (.+)",
                    r"(ALARM: working on the last Unit for \d+ seconds)", r"==\d+==.*(out-of-memory.+)",
                    r"(Fatal Python error: .+)"):
        m = re.search(pattern, log)
        if m:
            return re.sub(r"0x[0-9a-f]+", "0x…", m.group(1).strip())[:200]
    return "crash (see log)"


def _runs(log: str) -> int:
    """Inputs executed, from libFuzzer's status lines ('#12345 ...') and final stats."""
    counts = [int(n) for n in re.findall(r"^#(\d+)\s", log, re.M)]
    counts += [int(n) for n in re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)]
    counts += [int(n) for n in re.findall(r"Done (\d+) runs", log)]
    return max(counts, default=0)


def _coverage(log: str) -> str:
    """libFuzzer's last 'cov: N ft: M' (edges and features covered), or '-'."""
    found = re.findall(r"cov: (\d+) ft: (\d+)", log)
    return f"{found[-1][0]}/{found[-1][1]}" if found else "-"


def fuzz_target(name: str, seconds: float, keep: str | None, python: str, extra: list) -> dict:
    script = os.path.join(HERE, f"fuzz_{name}.py")
    seeds = os.path.join(HERE, "corpus", name)
    findings_dir = os.path.join(HERE, "findings", name)
    work = keep or tempfile.mkdtemp(prefix=f"rosen-fuzz-{name}-")
    os.makedirs(work, exist_ok=True)
    env = _target_env()
    deadline = time.monotonic() + seconds
    total_runs, findings, restarts, cov = 0, [], 0, "-"
    start = time.monotonic()
    while restarts <= MAX_RESTARTS:
        left = int(deadline - time.monotonic())
        if left < 1:
            break
        os.makedirs(findings_dir, exist_ok=True)
        cmd = [python, script, work, seeds, f"-max_total_time={left}", f"-timeout={INPUT_TIMEOUT_S}",
               f"-rss_limit_mb={RSS_LIMIT_MB}", "-print_final_stats=1", "-reload=0",
               f"-artifact_prefix={findings_dir}{os.sep}", *extra]
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=left + INPUT_TIMEOUT_S + 120)
        log = proc.stdout
        total_runs += _runs(log)
        cov = _coverage(log) if _coverage(log) != "-" else cov
        if proc.returncode == 0:
            break
        artifact = re.findall(r"Test unit written to (\S+)", log)
        sig = _signature(log)
        findings.append({"signature": sig, "artifact": artifact[-1] if artifact else None, "rc": proc.returncode})
        logfile = (artifact[-1] if artifact else os.path.join(findings_dir, f"rc{proc.returncode}")) + ".log"
        with open(logfile, "w") as fh:
            fh.write(log)
        print(f"  [{name}] finding: {sig}\n    input: {artifact[-1] if artifact else '?'}  log: {logfile}",
              flush=True)
        restarts += 1
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {"target": name, "seconds": round(time.monotonic() - start, 1), "runs": total_runs,
            "coverage": cov, "findings": findings}


def _cannot_fuzz(python: str) -> str | None:
    """Why ``python`` cannot run the targets (it lacks atheris), or None. Without this check every
    target would fail at its import, and the runner would report each failure as a finding."""
    probe = subprocess.run([python, "-c", "import atheris"], env=_target_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    if probe.returncode == 0:
        return None
    lines = probe.stdout.strip().splitlines()
    return lines[-1] if lines else f"exit status {probe.returncode}"


def replay(path: str) -> int:
    """Run one input through its target's one_input (target from the path: .../<target>/...)."""
    parts = os.path.abspath(path).split(os.sep)
    name = next((p for p in reversed(parts[:-1]) if p in TARGETS), None)
    if name is None:
        print(f"replay: cannot tell the target from {path} (expected a folder named one of {TARGETS})")
        return 2
    sys.path.insert(0, HERE)
    target = __import__(f"fuzz_{name}")
    with open(path, "rb") as fh:
        data = fh.read()
    target.one_input(data)  # a finding raises (or crashes) here
    print(f"replay: {path}: no finding ({name})")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", default="all", help=f"one of {', '.join(TARGETS)} or all")
    ap.add_argument("--seconds", type=float, default=60, help="time budget per target")
    ap.add_argument("--keep", help="keep the learned corpus in DIR/<target> instead of a scratch folder")
    ap.add_argument("--python", help="interpreter with rosen and atheris (default: this one; with --native: "
                                     "build/sanitize-fuzz/venv/bin/python)")
    ap.add_argument("--native", action="store_true",
                    help="the C++ extension is instrumented too (build it first: tools/sanitize.sh fuzz)")
    ap.add_argument("--replay", help="run one saved input through its target and exit")
    ap.add_argument("extra", nargs="*", help="more libFuzzer flags, after --")
    args = ap.parse_args(argv)
    # Exit 1 means a finding: a bad argument is a usage error (2), and a budget that fuzzes nothing
    # is not a clean run.
    if not (args.seconds >= 1 and args.seconds < float("inf")):
        ap.error(f"--seconds: expected a number of seconds >= 1, got {args.seconds:g}")
    if args.replay and not os.path.isfile(args.replay):
        ap.error(f"--replay: no file {args.replay!r}")
    if args.keep and os.path.exists(args.keep) and not os.path.isdir(args.keep):
        ap.error(f"--keep: {args.keep!r} is not a directory")
    if args.replay:
        return replay(args.replay)
    python = args.python or sys.executable
    if args.native:
        os.environ["ROSEN_FUZZ_NATIVE"] = "1"
        python = args.python or os.path.join(os.path.dirname(HERE), "build", "sanitize-fuzz", "venv", "bin", "python")
        if not os.path.exists(python):
            ap.error(f"--native: {python} is missing; build it with tools/sanitize.sh fuzz")
    names = TARGETS if args.target == "all" else tuple(args.target.split(","))
    for n in names:
        if n not in TARGETS:
            ap.error(f"unknown target {n!r}; expected one of {', '.join(TARGETS)} or all")
    problem = _cannot_fuzz(python)
    if problem:
        ap.error(f"{python} cannot import atheris ({problem}); install it: {python} -m pip install atheris")
    results = []
    for n in names:
        print(f"fuzzing {n} for {args.seconds:g} s ...", flush=True)
        keep = os.path.join(args.keep, n) if args.keep else None
        results.append(fuzz_target(n, args.seconds, keep, python, args.extra))
    print(f"\n{'target':<10}{'seconds':>9}{'inputs':>12}{'inputs/s':>10}{'cov/ft':>14}  findings")
    for r in results:
        rate = r["runs"] / r["seconds"] if r["seconds"] else 0
        counts = {}
        for f in r["findings"]:
            counts[f["signature"]] = counts.get(f["signature"], 0) + 1
        sigs = "; ".join(f"{n} x {sig}" if n > 1 else sig for sig, n in counts.items()) or "none"
        print(f"{r['target']:<10}{r['seconds']:>9.1f}{r['runs']:>12}{rate:>10.0f}{r['coverage']:>14}  {sigs}")
    return 1 if any(r["findings"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
