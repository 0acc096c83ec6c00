"""The command line under hostile streams and files: a full disk, closed standard streams, an
output file that a refused command must leave alone and that two matches must not share."""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys

import pytest

import rosen
import rosen.match
from rosen.cli import main
from rosen._files import write_text_whole

ROSEN = [sys.executable, "-m", "rosen"]
posix = pytest.mark.skipif(os.name != "posix", reason="/dev/full, closed descriptors and flock are POSIX")


@posix
@pytest.mark.parametrize("argv", [["randomplay", "--games", "10"], ["match", "random", "random", "--games", "2"],
                                  ["match", "random", "random", "--games", "2", "--jsonl", "/dev/full"],
                                  ["lovagok", "table"]])
def test_a_full_disk_is_one_line_and_status_2(argv):
    # An OSError (No space left on device) on stdout or an output file was a traceback, status 1.
    with open("/dev/full", "w") if "--jsonl" not in argv else contextlib.nullcontext(subprocess.DEVNULL) as stdout:
        proc = subprocess.run(ROSEN + argv, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    where = " (/dev/full)" if "--jsonl" in argv else ""  # the file, where it is one
    assert proc.stderr.strip().splitlines()[-1] == f"rosen {argv[0]}: error: No space left on device{where}"
    assert "Traceback" not in proc.stderr


def run_with_file_size_limit(argv, limit: int, cwd) -> subprocess.CompletedProcess:
    """``rosen argv`` allowed files of ``limit`` bytes at most (RLIMIT_FSIZE): a write past it fails
    with EFBIG, as one on a full disk fails with ENOSPC, in the same place (SIGXFSZ ignored so
    that the write fails instead of killing the process)."""
    import resource
    import signal

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(ROSEN + argv, capture_output=True, text=True, timeout=300, cwd=cwd, preexec_fn=limited)


@posix
@pytest.mark.parametrize("command", [["bench", "mcts", "--iterations", "20,40", "--positions", "2", "--quiet"],
                                     ["strength", "mcts", "--anchor", "random", "--iterations", "20", "--games", "2",
                                      "--progress", "off"]])
def test_a_plot_the_disk_cannot_hold_leaves_the_last_one(tmp_path, command):
    # `rosen bench --plot` and `rosen strength --plot` drew in place: a full disk cut the new
    # image short where the last run's had been (a rerun's normal case), and left it there.
    pytest.importorskip("matplotlib")
    old = tmp_path / "plot.png"
    old.write_bytes(b"the last run's plot")
    proc = run_with_file_size_limit(command + ["--plot", str(old)], 8192, tmp_path)
    assert proc.returncode == 2 and "--plot: cannot write" in proc.stderr and "Traceback" not in proc.stderr, \
        proc.stderr
    assert old.read_bytes() == b"the last run's plot"
    assert not [p for p in tmp_path.iterdir() if "partial" in p.name]


@posix
def test_a_match_stopped_by_a_full_disk_names_its_file_and_the_games_before_stand(tmp_path):
    # The error said "No space left on device", not where; the line cut short at the end made
    # summarise_jsonl refuse every game of the file.
    games = tmp_path / "games.jsonl"
    proc = run_with_file_size_limit(["match", "random", "random", "--games", "400", "--jsonl", str(games)], 20000,
                                    tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == f"rosen match: error: File too large ({games})"
    text = games.read_text()
    assert len(text) == 20000 and not text.endswith("\n")  # cut short in a line
    with pytest.warns(RuntimeWarning, match=f"line {text.count(chr(10)) + 1} is cut short"):
        result = rosen.match.summarise_jsonl(str(games))
    assert len(result.games) == text.count("\n") and [g.extra["game"] for g in result.games] == \
        list(range(len(result.games)))
    # Only the last line: one cut short in the middle is an error still.
    (tmp_path / "middle.jsonl").write_text(text[:150] + "\n" + text[:text.rindex("\n") + 1])
    with pytest.raises(rosen.InvalidArgumentError, match="line 1 is not JSON"):
        rosen.match.summarise_jsonl(str(tmp_path / "middle.jsonl"))


@posix
def test_closed_standard_streams():
    # stdin closed: rosen play once raised RuntimeError in input(); now the input's end, as /dev/null.
    play = subprocess.run(ROSEN + ["play", "--iterations", "20"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120, preexec_fn=lambda: os.close(0))
    assert play.returncode == 0 and "You quit the game." in play.stdout, play.stderr
    # stdout closed: the output was dropped and the status was 0 (a silent success); rosen engine
    # gave a traceback.
    for argv in (["randomplay", "--games", "5"], ["engine"]):
        proc = subprocess.run(ROSEN + argv, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120,
                              preexec_fn=lambda: os.close(1))
        assert proc.returncode == 2 and proc.stderr.strip() == ("rosen: error: standard output is closed; there is "
                                                                "nowhere to write"), proc.stderr
    # stderr closed: progress and diagnostics write nowhere; the match still plays (isatty on None
    # once ended it at once).
    match = subprocess.run(ROSEN + ["match", "random", "random", "--games", "2"], capture_output=True, text=True,
                           timeout=120, preexec_fn=lambda: os.close(2))
    assert match.returncode == 0 and "games 2" in match.stdout


def test_a_refused_match_leaves_an_existing_jsonl_file_alone(tmp_path, capsys):
    # The file was opened (emptied) before the agents were checked.
    kept = tmp_path / "games.jsonl"
    kept.write_text('{"kept": true}\n')
    assert main(["match", "mcts:iterations=-5", "random", "--games", "2", "--jsonl", str(kept)]) == 2
    assert kept.read_text() == '{"kept": true}\n'
    assert main(["match", "random", "random", "--games", "2", "--jsonl", str(kept)]) == 0
    lines = [json.loads(line) for line in kept.read_text().splitlines()]
    assert len(lines) == 2 and all("moves" in line for line in lines)  # replaced, not appended to
    capsys.readouterr()


@posix
def test_a_jsonl_file_another_match_writes_is_refused(tmp_path, capsys):
    # Two matches on one --jsonl interleaved their lines (a third of them no longer JSON), both
    # with status 0.
    import fcntl
    shared = tmp_path / "games.jsonl"
    shared.write_text("")
    with open(shared, "a") as other:
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running match holds it
        assert main(["match", "random", "random", "--games", "2", "--jsonl", str(shared)]) == 2
    assert "is being written by another process" in capsys.readouterr().err
    assert shared.read_text() == ""


def test_reports_are_written_whole_or_not_at_all(tmp_path, monkeypatch):
    # bench --json/--csv and strength --json wrote in place: a full disk left half a file.
    import pathlib
    report = tmp_path / "report.json"
    report.write_text("old")
    real = pathlib.Path.write_text

    def full_disk(self, text, *args, **kwargs):
        real(self, text[:3], *args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "write_text", full_disk)
    with pytest.raises(rosen.InvalidArgumentError, match="^json: cannot write .*No space left on device"):
        write_text_whole(str(report), '{"new": 1}', "json")
    assert report.read_text() == "old" and not (tmp_path / "report.json.partial").exists()
    monkeypatch.undo()
    write_text_whole(str(report), '{"new": 1}', "json")
    assert json.loads(report.read_text()) == {"new": 1}


def written_through_a_pipe(fifo, write) -> bytes:
    """What ``write()`` sends through the named pipe ``fifo`` (made here), checking that the pipe
    is still a pipe afterwards and that nothing was left beside it (F107)."""
    import stat
    import threading

    os.mkfifo(fifo)
    got: list = []

    def read() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    reader = threading.Thread(target=read, daemon=True)  # a daemon: open() waits forever on a replaced pipe
    reader.start()
    write()
    reader.join(timeout=10)
    assert not reader.is_alive() and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in fifo.parent.iterdir()] == [fifo.name]
    return got[0]


@posix
def test_a_device_or_pipe_as_the_output_is_written_into_not_replaced(tmp_path):
    # F107: an output moved into place replaced whatever was at the path; run as root,
    # `--curves /dev/null` (or --json, --plot) turned /dev/null itself into a regular file. A pipe
    # shows the same without touching /dev: it stays a pipe, and its reader gets the data.
    fifo = tmp_path / "pipe"
    assert json.loads(written_through_a_pipe(fifo, lambda: write_text_whole(str(fifo), '{"new": 1}', "json"))) == \
        {"new": 1}


def test_a_bench_report_prints_on_an_ascii_only_stdout():
    # Its "±" failed to encode after the whole bench had run (the report lost, status 2).
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    proc = subprocess.run(ROSEN + ["bench", "mcts", "--iterations", "20", "--positions", "2", "--quiet"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "value err" in proc.stdout, proc.stderr


def test_version_is_the_packages(capsys):
    # `rosen --version` once failed: "the following arguments are required: COMMAND", status 2
    assert main(["--version"]) == 0 and capsys.readouterr().out == f"rosen {rosen.__version__}\n"
    out = subprocess.run(ROSEN + ["--version"], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout) == (0, f"rosen {rosen.__version__}\n")
