"""`rosen engine` as a real subprocess behind pipes, driven through rosen.engine.client."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

import rosen
from engine_helpers import ENGINE_COMMAND, play_checked_game, start_engine
from rosen.engine.client import EngineError


@pytest.fixture
def client():
    engine = start_engine()
    yield engine
    engine.quit()


def test_handshake(client):
    assert client.id["name"].startswith("rosen ")
    assert set(client.options) == {"Threads", "Seed", "Reshuffle", "MultiPV", "Hash", "Strength", "MoveOverhead",
                                   "EvalFile"}


def test_whole_two_player_game_through_the_pipe(client):
    end = play_checked_game(client, rosen.Position.new(21), iterations=60)
    assert end.supply == 0 or not end.legal_moves()


def test_four_player_game_through_the_pipe(client):
    play_checked_game(client, rosen.Position.new(8, players=4), iterations=40)


def test_lazy_reshuffle_game_through_the_pipe():
    with start_engine(options={"Reshuffle": "lazy"}) as client:
        play_checked_game(client, rosen.Position.new(5, reshuffle="lazy"), iterations=40)


def test_stop_ends_an_infinite_search_quickly(client):
    client.set_position("startpos seed 2")
    client.send("go infinite")
    client.send("isready")
    seen = []
    while True:
        line = client.readline(10)
        seen.append(line)
        if line == "readyok":
            break
    assert not any(line.startswith("bestmove") for line in seen)  # answered during the search
    started = time.monotonic()
    client.send("stop")
    while True:
        line = client.readline(10)
        if line.startswith("bestmove"):
            break
    assert time.monotonic() - started < 2.0  # "a few milliseconds", with room for a loaded machine
    assert rosen.Position.new(2).is_legal(line.split()[1])
    client.sync()  # nothing more comes: exactly one bestmove


def test_quit_during_a_search_exits_cleanly():
    client = start_engine()
    client.set_position("startpos seed 3")
    client.send("go infinite")
    started = time.monotonic()
    assert client.quit(timeout=10) == 0
    assert time.monotonic() - started < 10


def test_a_go_sent_during_a_search_blocks_neither_isready_nor_quit():
    # The input thread once waited for the running search before it read on: isready, stop and
    # quit were answered only when a ten-minute search had ended by itself.
    client = start_engine()
    client.set_position("startpos seed 3")
    client.send("go movetime 600000")
    client.send("go movetime 10")
    client.send("uginewgame")
    client.send("isready")
    seen = [client.readline(20)]
    while seen[-1] != "readyok":
        seen.append(client.readline(20))
    assert not any(line.startswith("bestmove") for line in seen)  # answered during the first search
    started = time.monotonic()
    assert client.quit(timeout=20) == 0
    assert time.monotonic() - started < 20


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
def test_eval_file_that_is_a_pipe_or_the_input_is_refused_at_once(tmp_path):
    # A named pipe as EvalFile hung the input thread in open() (quit unread); /dev/stdin read the
    # engine's own next command (an isready went unanswered).
    fifo = tmp_path / "net.npz"
    os.mkfifo(fifo)
    with start_engine(timeout=20) as client:
        for path in (str(fifo), "/dev/stdin"):
            client.send(f"setoption name EvalFile value {path}")
            client.send("isready")
            assert client.readline().startswith(f"info string error: EvalFile: '{path}' is not a regular file")
            assert client.readline() == "readyok"
        assert client.quit(timeout=10) == 0


def test_end_of_input_lets_a_finite_search_finish():
    run = subprocess.run(ENGINE_COMMAND, input=b"position startpos seed 1\ngo nodes 400\n", capture_output=True,
                         timeout=60)
    lines = run.stdout.decode().splitlines()
    assert run.returncode == 0
    assert lines[-1].startswith("bestmove") and rosen.Position.new(1).is_legal(lines[-1].split()[1])


def test_a_frontend_gone_without_quit_ends_even_a_finite_search():
    # A frontend killed by SIGTERM or SIGKILL closes both pipes without `quit`: the engine searched
    # on to its limit for nobody (here 60 s, 13 s of a 15 s move in the audit), its process group
    # out of reach of the killed client. The next info line finds the output gone.
    import time
    engine = subprocess.Popen(ENGINE_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        engine.stdin.write(b"position startpos\ngo movetime 60000\n")
        engine.stdin.flush()
        assert engine.stdout.readline().startswith(b"info")  # the search is running
        closed = time.monotonic()
        engine.stdin.close()
        engine.stdout.close()
        assert engine.wait(timeout=20) == 1  # its output was lost
        assert time.monotonic() - closed < 10
    finally:
        engine.kill()
        engine.wait()


def test_end_of_input_stops_an_infinite_search():
    run = subprocess.run(ENGINE_COMMAND, input=b"position startpos\ngo infinite\n", capture_output=True, timeout=60)
    assert run.returncode == 0
    assert run.stdout.decode().splitlines()[-1].startswith("bestmove")


def test_rosen_script_entry_point_speaks_the_protocol():
    import shutil
    import sys
    from pathlib import Path

    # The install (README, .ci/run) puts the `rosen` script beside the interpreter or on PATH;
    # a missing script is an install defect, not a reason to skip.
    script = Path(sys.executable).with_name("rosen")
    if not script.exists():
        script = shutil.which("rosen")
    assert script is not None, "the rosen console script is not installed"
    run = subprocess.run([str(script), "engine"], input=b"ugi\nquit\n", capture_output=True, timeout=60)
    assert run.stdout.decode().splitlines()[-1] == "ugiok"


def test_client_raises_engine_errors(client):
    with pytest.raises(EngineError, match="Threads"):
        client.setoption("Threads", 0)
    with pytest.raises(EngineError, match="move 1"):
        client.set_position("startpos", ["N9"])
    client.sync()  # still in step afterwards
    assert client.play("startpos seed 4", iterations=50).move is not None


def test_main_engine_subcommand_in_process(monkeypatch):
    # `rosen engine` through the CLI's main(argv), with stdin/stdout replaced by byte buffers.
    import io
    import types

    from rosen.cli import main

    commands = b"ugi\nisready\nposition startpos seed 1\ngo nodes 300\n"
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(commands)))
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=out))
    assert main(["engine"]) == 0
    lines = out.getvalue().decode().splitlines()
    assert "ugiok" in lines and "readyok" in lines
    best = [line for line in lines if line.startswith("bestmove ")]
    assert len(best) == 1
    assert rosen.Position.new(1).is_legal(best[0].split()[1])
