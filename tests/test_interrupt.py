"""Ctrl-C (SIGINT) during long compiled calls: the call stops soon, state stays usable, and the
command line ends with one line and exit code 130 instead of a traceback.

Each case runs in a child process that prints ``ready`` just before its long call; the signal
is sent a moment after. The budgets are a minute or more and the checks allow 10 s, so passing can
only mean the signal was acted on, on however slow a machine.
"""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _interrupt(script: str, wait: float = 0.5):
    """Run ``script`` in a child, SIGINT it ``wait`` s after it prints ``ready``; (code, stdout, stderr, seconds)."""
    # The child starts with SIGINT at its default, as a command started from a terminal does: a
    # test run started in the background without job control (nohup ... &, as CI runners may be)
    # has SIGINT ignored, its children inherit that, and Python then installs no handler for it.
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        time.sleep(wait)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        return proc.returncode, out, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _cli(*argv: str) -> str:
    return ("import sys\nfrom rosen.cli import main\nprint('ready', flush=True)\n"
            f"sys.exit(main({list(argv)!r}))\n")


def test_a_search_in_the_main_thread_stops_at_ctrl_c_and_leaves_no_stop_behind():
    # A stop left pending would end the searcher's next search at once (Searcher's docstring).
    script = """
import rosen
pos = rosen.Position.new(seed=2)
s = rosen.Searcher(iterations=0, time_ms=120000)
print("ready", flush=True)
try:
    s.search(pos)
except KeyboardInterrupt:
    print("interrupted", s.stop_requested)
"""
    code, out, err, seconds = _interrupt(script)
    assert code == 0, err
    assert "interrupted False" in out and seconds < 10


def test_rosen_analyse_ends_with_130_and_one_line():
    code, out, err, seconds = _interrupt(_cli("analyse", "--time-ms", "120000", "--evaluator", "none"))
    assert code == 130 and seconds < 10
    assert "Traceback" not in err
    assert err.strip() == "rosen analyse: interrupted"


def test_rosen_match_on_two_threads_stops_its_running_pairs():
    # The workers' pairs end at their next move; the complete pairs so far are reported.
    code, out, err, seconds = _interrupt(_cli("match", "mcts:iterations=0,time_ms=300", "random", "--games", "40",
                                              "--threads", "2", "--progress", "off"), wait=1.0)
    assert code == 0, err
    assert "interrupted" in out and "Traceback" not in err
    assert seconds < 10  # a move or two of 300 ms; the running pairs were once played out (20 s and more)


@pytest.mark.parametrize("attempt", range(3))
def test_rosen_selfplay_without_progress_stops_after_the_running_games(tmp_path, attempt):
    # One compiled call plays the shard; a stop flag ends it after the games being played. Three
    # attempts: the process once aborted at exit in about one run of three ("terminate called
    # without an active exception"), when an interrupted join let the interpreter exit while
    # the self-play threads still ran.
    code, out, err, seconds = _interrupt(_cli("selfplay", "--games", "400", "--agent", "mcts:iterations=3000",
                                              "--progress", "off", "--out", str(tmp_path / "run")), wait=1.0)
    assert code == 130 and seconds < 10, err
    assert "interrupted" in err and "Traceback" not in err and "terminate" not in err


@pytest.mark.parametrize("budget", ["time_ms=120000", "depth=20"])  # a depth's time is unknown: minutes here
def test_an_expectimax_search_in_the_main_thread_stops_at_ctrl_c(budget):
    script = f"""
import rosen
from rosen.agents import ExpectimaxAgent
agent = ExpectimaxAgent({budget})
print("ready", flush=True)
try:
    agent.choose(rosen.Position.new(seed=4))
except KeyboardInterrupt:
    print("interrupted")
"""
    code, out, err, seconds = _interrupt(script)
    assert code == 0, err
    assert "interrupted" in out and seconds < 10


def test_run_interruptibly_stops_waits_and_withdraws_whatever_a_handler_raises():
    # The call must not outlive run_interruptibly, also when a program's own SIGINT handler raises
    # something else than KeyboardInterrupt (here SystemExit), and a stop that is no longer
    # needed is withdrawn.
    import threading

    from rosen.search import run_interruptibly

    released, calls = threading.Event(), []

    def call():
        released.wait(20)
        calls.append("ended")
        return 1

    def stop():
        calls.append("stop")
        released.set()

    def handler(signum, frame):
        raise SystemExit(3)

    old = signal.signal(signal.SIGINT, handler)
    try:
        threading.Timer(0.2, lambda: signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)).start()
        with pytest.raises(SystemExit):
            run_interruptibly(call, stop, "rosen-test", withdraw=lambda: calls.append("withdraw"))
    finally:
        signal.signal(signal.SIGINT, old)
    assert calls == ["stop", "ended", "withdraw"]
    assert run_interruptibly(lambda: 7, stop, "rosen-test") == 7  # without a signal: the call's answer
