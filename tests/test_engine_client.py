"""rosen.engine.client: the client's waits and errors, and rosen.agents.EngineAgent."""
from __future__ import annotations

import sys
import threading
import time

import pytest

import rosen
from engine_helpers import ENGINE_COMMAND, start_engine
from rosen.agents import EngineAgent, parse_agent_spec
from rosen.engine.client import EngineClient, EngineError


def test_play_and_analyse_with_multipv():
    with start_engine() as client:
        result = client.play(rosen.Position.new(2), iterations=400)
        assert rosen.Position.new(2).is_legal(result.move)
        assert result.info.iterations == 400 and 0 <= result.info.winrate <= 1
        assert result.info.pv[0] == str(result.move)
        analysis = client.analyse("startpos seed 2 players 4", iterations=600, multipv=3)
        assert [c.multipv for c in analysis.candidates] == [1, 2, 3]
        assert analysis.candidates[0].move == analysis.pv[0]
        assert sum(c.visits for c in analysis.candidates) <= analysis.iterations
        assert client.query("p1turn") == "true"
    assert client.returncode == 0


def test_a_game_clock_reaches_the_engine_which_spends_a_share_of_it(tmp_path):
    log = tmp_path / "commands.txt"
    fake = _engine(HANDSHAKE + "\nif words[0] == 'go': say('bestmove NE2')\n"
                   f"open({str(log)!r}, 'a').write(' '.join(words) + chr(10))")
    with EngineClient(fake, timeout=5) as client:
        client.play(rosen.Position.new(1), p1time=60_000, p2time=59_000, p1inc=500, p2inc=400)
        client.go(time_ms=300, p1time=-20, p2time=1000)  # a clock after an overstep is still a clock
    assert [line for line in log.read_text().splitlines() if line.startswith("go")] == [
        "go p1time 60000 p2time 59000 p1inc 500 p2inc 400", "go movetime 300 p1time -20 p2time 1000"]
    with start_engine(timeout=5) as client:  # a clock long overspent: a move on no time, not a timeout
        assert rosen.Position.new(1).is_legal(client.play(rosen.Position.new(1), p1time=-10_000, p2time=-10_000).move)
    with start_engine() as client:  # rosen's engine: the share of a 4 s clock for this move
        for players in (2, 4):
            result = client.play(rosen.Position.new(1, players=players), p1time=4000, p2time=4000)
            assert rosen.Position.new(1, players=players).is_legal(result.move)
            assert 0 < result.info.root.time_ms < 1000, result.info.root


@pytest.mark.parametrize("kwargs, message", [
    ({"p1time": 1000}, "^p1time: p1time and p2time come together"),
    ({"iterations": 100, "p1inc": 50}, "^p1inc: increments go with p1time and p2time"),
    ({"p1time": 1000, "p2time": 1000, "p2inc": -1}, "^p2inc: expected 0..1000000000, got -1"),
    ({"iterations": 0}, "^iterations: expected 1..9223372036854775807, got 0"),
    ({"time_ms": 10**10}, "^time_ms: expected 1..1000000000, got 10000000000"),
    ({"p1time": "1000", "p2time": 1000}, "^p1time: expected an int, got str"),
    ({"iterations": 0, "multipv": 3}, "^iterations: expected 1..9223372036854775807, got 0"),
])
def test_bad_budgets_and_clocks_are_refused_before_anything_is_sent(tmp_path, kwargs, message):
    log = tmp_path / "commands.txt"
    fake = _engine(HANDSHAKE + f"\nopen({str(log)!r}, 'a').write(' '.join(words) + chr(10))")
    with EngineClient(fake, timeout=5) as client:
        with pytest.raises(ValueError, match=message):
            if "multipv" in kwargs:
                client.analyse(rosen.Position.new(1), **kwargs)
            else:
                client.play(rosen.Position.new(1), **kwargs)
    assert not [line for line in log.read_text().splitlines() if line.startswith(("go", "position", "setoption name M"))]


def test_positions_are_sent_with_the_pile_hidden():
    with start_engine() as client:
        pos = rosen.Position.new(12)
        client.set_position(pos, ["W1"] if pos.is_legal("W1") else [pos.legal_moves()[0]])
        assert client.query("position").endswith(" *")


# An empty pile beside a non-empty discard: under R7's lazy rule it stays so; an eager engine
# reads the line as the moment of the last draw and reshuffles as it loads it.
LAZY_EMPTY_PILE = ("9/1r1w1r1rw/9/3w2rw1/rw3w1r1/5r2w/7r1/9/5w3 h8 r N2,SE3,W3,NW3 E2,S1,S2,SW2 4 4 "
                   "N1,N3,NE1,NE2,NE3,E1,E3,SE1,SE2,S3,SW1,SW3,W1,W2,NW1,NW2 -")


def test_a_positions_reshuffle_rule_reaches_the_engine():
    # RULES.md R7: the rule is the game's, and the position line does not carry it; a lazy
    # position was searched as an eager one (the engine reshuffled its empty pile on loading).
    lazy = rosen.Position(LAZY_EMPTY_PILE, reshuffle="lazy")
    with start_engine() as client:
        client.set_position(lazy)
        assert client.query("position").endswith(" -")
        eager = rosen.Position.new(3)
        client.set_position(eager)  # and back: the next game's rule is sent too
        client.set_position(LAZY_EMPTY_PILE)
        assert client.query("position").endswith(" *")


def test_the_client_follows_an_engines_declared_reshuffle_default(tmp_path):
    # The client took every engine's Reshuffle default for eager: an engine whose default is lazy
    # read an eager game's positions under its lazy rule.
    log = tmp_path / "commands.txt"
    engine = _engine("if words[0] == 'ugi': say('id name fake'); "
                     "say('option name Reshuffle type combo default lazy var eager var lazy'); say('ugiok')\n"
                     "if words[0] == 'isready': say('readyok')\n"
                     f"open({str(log)!r}, 'a').write(' '.join(words[:5]) + chr(10))")
    with EngineClient(engine, timeout=5) as client:
        client.set_position(rosen.Position.new(3))
        client.set_position(rosen.Position.new(4))  # told once
        client.set_position(rosen.Position(LAZY_EMPTY_PILE, reshuffle="lazy"))
    sent = [line.split()[0] + (" " + line.split()[-1] if line.startswith("setoption") else "")
            for line in log.read_text().splitlines() if line.split()[0] in ("setoption", "position")]
    assert sent == ["setoption eager", "position", "position", "setoption lazy", "position"]


def test_an_engine_spec_sets_the_engines_strength():
    # strength=N sets the Strength option: below 10 a level plays some moves its search did not
    # choose (the analysis it reports is the search's).
    off_pv = {}
    for strength in (1, 20):
        with parse_agent_spec(f"engine:command=rosen engine,iterations=40,strength={strength}").build(seed=1) as agent:
            off_pv[strength] = 0
            for seed in range(10):
                pos = rosen.Position.new(seed)
                move = agent.choose(pos)
                off_pv[strength] += str(move) != agent.last_info.pv[0]
    assert off_pv[1] >= 4 and off_pv[20] == 0


def test_a_match_report_gives_no_speed_for_searches_too_short_to_time():
    # An engine reports whole milliseconds; 0 ms of 1-iteration searches was printed as "nps 0".
    from rosen.match import run_match

    result = run_match("mcts:iterations=1", "random", games=2, seed=1)
    for game in result.games:  # as an engine's whole-millisecond times of such searches read
        for stats in game.stats.values():
            stats.time_ms = 0.0
    line = next(x for x in result.summary().splitlines() if x.startswith("A search"))
    assert " nps - (iterations/s)" in line and "1 iterations/move" in line


def test_an_engine_agent_plays_a_lazy_game_by_its_rule():
    lazy = rosen.Position(LAZY_EMPTY_PILE, reshuffle="lazy")
    with EngineAgent(ENGINE_COMMAND, iterations=50) as agent:
        assert lazy.is_legal(agent.choose(lazy))
        assert agent.client.query("position").endswith(" -")


def test_a_lazy_position_is_refused_by_an_engine_without_the_option():
    engine = _engine(HANDSHAKE)
    with EngineClient(engine, timeout=5) as client:
        client.set_position(rosen.Position.new(3))  # eager: the rule every engine plays
        with pytest.raises(EngineError, match="no Reshuffle option.*lazy"):
            client.set_position(rosen.Position(LAZY_EMPTY_PILE, reshuffle="lazy"))


def test_query_errors_raise():
    with start_engine() as client, pytest.raises(EngineError, match="position"):
        client.query("legal")


def test_a_silent_program_times_out():
    silent = [sys.executable, "-c", "import time; time.sleep(30)"]
    with pytest.raises(EngineError, match="no answer"):
        EngineClient(silent, timeout=0.5)


def test_a_missing_program_is_an_engine_error():
    with pytest.raises(EngineError, match="cannot start '/nonexistent/engine'"):
        EngineClient(["/nonexistent/engine"])


def test_a_program_that_exits_is_reported():
    with pytest.raises(EngineError, match="closed its output"):
        EngineClient([sys.executable, "-c", "print('id name nothing')"], timeout=10)


def test_engine_agent_plays_legal_moves_and_reports_stats():
    with EngineAgent(ENGINE_COMMAND, iterations=200, options={"Seed": 4}) as agent:
        assert agent.name.startswith("engine:") and "iterations=200" in agent.name
        pos = rosen.Position.new(3)
        for _ in range(6):
            move = agent.choose(pos)
            assert isinstance(move, rosen.Move) and pos.is_legal(move)
            assert agent.last_stats.iterations == 200 and agent.last_stats.tree_size > 0
            pos = pos.play(move)
        agent.reset()
        agent.on_move(rosen.Move("draw"))
        assert pos.is_legal(agent.choose(pos))
    assert agent.client.returncode == 0


def test_two_engine_agents_play_a_game():
    # The match runner pits two engine commands against each other through this adapter.
    agents = [EngineAgent(ENGINE_COMMAND, iterations=60, options={"Seed": s}) for s in (1, 2)]
    try:
        pos = rosen.Position.new(14)
        plies = 0
        while not pos.is_terminal:
            mover = agents[0 if pos.colour_to_move == "red" else 1]
            pos = pos.play(mover.choose(pos))
            plies += 1
        # The game really ended (R8/R9) and its winner is the one R12 gives for the final board.
        assert plies > 40 and pos.legal_moves() == []
        assert pos.winner == {1: "red", 2: "white", 0: "draw"}[int(rosen.score_boards(pos.board).winners())]
    finally:
        for agent in agents:
            agent.close()


@pytest.mark.parametrize("kwargs, field", [({}, "iterations"), ({"iterations": 0}, "iterations"),
                                           ({"time_ms": -5}, "time_ms"), ({"iterations": True}, "iterations")])
def test_engine_agent_checks_its_budget(kwargs, field):
    with pytest.raises(rosen.RosenError, match=field) as info:
        EngineAgent(ENGINE_COMMAND, **kwargs)
    assert info.value.field == field


# --- engines that break the protocol in ways that once hung the client or filled its memory ---

def _engine(body: str) -> list:
    """A fake engine: ``body`` runs on each command line ``words`` (``say`` writes a line)."""
    script = ("import sys, time\n"
              "def say(text): sys.stdout.write(text + '\\n'); sys.stdout.flush()\n"
              "for raw in sys.stdin:\n"
              "    words = raw.split()\n"
              "    if not words: continue\n"
              "    if words[0] == 'quit': break\n"
              + "".join("    " + line + "\n" for line in body.strip().splitlines()))
    return [sys.executable, "-c", script]


HANDSHAKE = "if words[0] == 'ugi': say('id name fake'); say('ugiok')\nif words[0] == 'isready': say('readyok')"


def test_a_bare_option_line_in_the_handshake_is_ignored():
    # `option name` with nothing after it was an IndexError
    engine = _engine("if words[0] == 'ugi': say('option name'); say('ugiok')\n"
                     "if words[0] == 'isready': say('readyok')")
    with EngineClient(engine, timeout=5) as client:
        assert client.options == {}


def test_an_engine_that_talks_on_without_finishing_times_out():
    # Each line came within the timeout, so the handshake and a timed search waited for ever.
    spam = _engine("while words[0] == 'ugi': say('id name spam')")
    with pytest.raises(EngineError, match="no answer within 0.5 s"):
        EngineClient(spam, timeout=0.5)
    endless = _engine(HANDSHAKE + "\nwhile words[0] == 'go': say('info depth 1 nodes 1'); time.sleep(0.05)")
    client = EngineClient(endless, timeout=0.5)
    try:
        with pytest.raises(EngineError, match="no answer within 0.52 s"):
            client.play(rosen.Position.new(1), time_ms=20)
    finally:
        client.kill()


def test_a_line_without_end_is_refused_not_held_in_memory():
    flood = _engine("if words[0] == 'ugi':\n"
                    "    while True: sys.stdout.write('x' * 65536)")
    with pytest.raises(EngineError, match="wrote a line longer than 1048576 bytes"):
        EngineClient(flood, timeout=5)


def test_an_engine_that_floods_before_readyok_costs_bounded_memory(monkeypatch):
    # sync() kept every line before readyok: a flood within the timeout filled memory.
    from rosen.engine import client as client_module
    monkeypatch.setattr(client_module, "MAX_ANALYSIS_LINES", 50)
    flood = _engine("if words[0] == 'ugi': say('ugiok')\n"
                    "if words[0] == 'isready':\n"
                    "    for i in range(5000): say(f'info string line {i}')\n"
                    "    say('readyok')")
    with EngineClient(flood, timeout=30) as client:
        lines = client.sync()
        assert 50 <= len(lines) <= 100 and lines[-1] == "info string line 4999"


def test_an_engine_that_floods_without_pause_still_meets_its_deadline():
    # Lines written in big chunks are always waiting: a deadline once passed returned them
    # anyway, and the handshake's sync never ended.
    flood = _engine("if words[0] == 'ugi': say('ugiok')\n"
                    "while words[0] == 'isready':\n"
                    "    sys.stdout.write(('info string ' + 'y' * 20 + '\\n') * 4000); sys.stdout.flush()")
    outcome = []

    def start() -> None:  # in a thread, so that the regression fails the test instead of hanging it
        try:
            EngineClient(flood, timeout=1)
            outcome.append("returned")
        except EngineError as exc:
            outcome.append(str(exc))

    worker = threading.Thread(target=start, daemon=True)
    worker.start()
    worker.join(15)
    assert outcome == ["engine: no answer within 1 s"], "the handshake outlasted its deadline"


def test_an_engine_that_declares_endless_options_is_refused():
    many = _engine("if words[0] == 'ugi':\n"
                   "    for i in range(2000): say(f'option name o{i} type check default false')\n"
                   "    say('ugiok')")
    with pytest.raises(EngineError, match="declares more than 1000 options"):
        EngineClient(many, timeout=10)


def test_readline_takes_a_waiting_line_at_once_and_checks_its_timeout():
    with EngineClient(_engine(HANDSHAKE), timeout=5) as client:
        client.send("isready")
        deadline = time.monotonic() + 5
        while client._inbox.lines.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert client.readline(timeout=0) == "readyok"  # 0: a line already waiting, no wait
        with pytest.raises(EngineError, match="no answer within 0 s"):
            client.readline(timeout=0)
        for bad in (float("nan"), 1e10, -1):
            with pytest.raises(rosen.InvalidArgumentError, match=r"^timeout: expected seconds in \[0, 86400\]"):
                client.readline(timeout=bad)
        with pytest.raises(rosen.ArgumentTypeError, match="^timeout: "):
            client.readline(timeout="1")


def test_closing_a_client_mid_line_leaves_no_thread_error(monkeypatch):
    # Closing the pipes under the reader once printed "ValueError: readline of closed file".
    errors = []
    monkeypatch.setattr("threading.excepthook", lambda args: errors.append(args.exc_value))
    stall = _engine(HANDSHAKE + "\nif words[0] == 'go': sys.stdout.write('info dep'); sys.stdout.flush(); "
                                "time.sleep(60)")
    client = EngineClient(stall, timeout=5)
    client.send("go nodes 5")
    client.kill()
    client._reader.join(5)
    assert not client._reader.is_alive() and errors == []


@pytest.mark.parametrize("timeout, error", [(float("nan"), rosen.InvalidArgumentError),
                                            (float("inf"), rosen.InvalidArgumentError),
                                            (1e12, rosen.InvalidArgumentError), (-1, rosen.InvalidArgumentError),
                                            (0, rosen.InvalidArgumentError), ("5", rosen.ArgumentTypeError)])
def test_the_client_timeout_is_checked(timeout, error):
    # nan waited for ever, inf and 1e12 overflowed, -1 and "5" were bare ValueError/TypeError
    with pytest.raises(error, match="timeout: expected"):
        EngineClient(ENGINE_COMMAND, timeout=timeout)


def test_a_match_whose_second_engine_fails_to_start_closes_the_first(tmp_path, monkeypatch):
    # A's engine was never closed when B's build raised (B: an engine that started for
    # run_match's check, then not): it was left to the garbage collector, or ran on while held.
    import shlex

    from rosen.agents import parse_agent_spec
    from rosen.match import play_pair

    closed = []
    close = EngineAgent.close
    monkeypatch.setattr(EngineAgent, "close", lambda self: (closed.append(self.name), close(self)))
    script = tmp_path / "engine.py"
    script.write_text(_engine(HANDSHAKE)[2])  # an agent spec's command cannot hold the script's commas
    good = shlex.join([sys.executable, str(script)])
    a = parse_agent_spec(f"engine:command={good},iterations=5")
    b = parse_agent_spec("engine:command=/nonexistent/engine,iterations=5")  # run_match's start-up check would catch it
    with pytest.raises(EngineError, match="cannot start '/nonexistent/engine'"):
        play_pair(a, b, seed=0, pair=0)
    assert closed == [f"engine:{good}"]


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell wrapper and process groups")
def test_an_engine_behind_a_wrapper_script_is_killed_with_its_wrapper(tmp_path):
    # The wrapper's child, the engine, held the pipe: killing the wrapper alone left it running,
    # and closing the pipe then waited on the reader for ever (rosen match hung, Ctrl-C too).
    import os
    import shlex
    from pathlib import Path
    fake = Path(__file__).with_name("fake_engine.py")
    pid_file = tmp_path / "engine.pid"
    wrapper = tmp_path / "engine.sh"
    engine = (f"{shlex.quote(sys.executable)} -c {shlex.quote(_WRITES_ITS_PID)} {pid_file} {fake} hang "
              f"{tmp_path / 'n'}")
    wrapper.write_text(f"#!/bin/sh\n{engine}\n")  # not exec: the engine is the wrapper's child
    wrapper.chmod(0o755)
    client = EngineClient([str(wrapper)], timeout=2)
    position = rosen.Position.new(seed=1)
    assert client.play(position, iterations=5).move is not None
    with pytest.raises(EngineError, match="no answer within 2 s"):
        client.play(position, iterations=5)  # the fake engine's second go never answers
    closing = threading.Thread(target=client.quit, kwargs={"timeout": 1}, daemon=True)
    closing.start()
    closing.join(20)
    assert not closing.is_alive(), "quit() hung on the pipe the engine still held"
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}"):
        time.sleep(0.05)
    assert not _running(pid)


_WRITES_ITS_PID = "import os, runpy, sys; open(sys.argv[1], 'w').write(str(os.getpid())); " \
                  "sys.argv = sys.argv[2:]; runpy.run_path(sys.argv[0], run_name='__main__')"


def _running(pid: int) -> bool:
    import os
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (killed, not yet reaped by the shell that is gone) counts as ended
        return open(f"/proc/{pid}/stat").read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_dropped_client_ends_its_engine():
    # F66: the reader thread held the client, so a client dropped without quit() was never
    # collected and its engine ran until this process ended. Now it ends with a ResourceWarning.
    import gc
    import os

    client = EngineClient(_engine(HANDSHAKE), timeout=5)
    pid = client._process.pid
    with pytest.warns(ResourceWarning, match="left running"):
        del client
        gc.collect()
    with pytest.raises(ProcessLookupError):  # ended and reaped
        os.kill(pid, 0)


def test_a_closed_client_warns_nothing_when_dropped():
    import gc
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client = EngineClient(_engine(HANDSHAKE), timeout=5)
        client.quit()
        del client
        gc.collect()


def test_a_forked_child_leaves_the_parents_engine_alone(tmp_path):
    # The finalizer also runs at a forked child's exit: it killed the parent's engine (the child
    # saw it as its own) and then hung on a pipe whose lock the parent's reader held at the fork.
    import subprocess
    import sys

    script = tmp_path / "fork.py"
    script.write_text(f"""
import os, sys, time
from rosen.engine.client import EngineClient
client = EngineClient({_engine(HANDSHAKE)!r}, timeout=5)
pid = os.fork()
if pid == 0:
    sys.exit(0)
deadline = time.monotonic() + 10
while os.waitpid(pid, os.WNOHANG) == (0, 0):
    if time.monotonic() > deadline:
        os.kill(pid, 9)
        print("child hung")
        sys.exit(1)
    time.sleep(0.02)
client.send("isready")
print(client.readline(), client.returncode)
client.quit()
""")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["readyok", "None"], (out.stdout, out.stderr)


def test_the_wait_for_a_move_on_a_clock_covers_either_sides_clock():
    # The engine spends at most the clock of the side to move, which may be either: the client's
    # timeout bounds only what lies beyond it (here White, 5 s on its clock, answers after 1.5 s).
    fake = _engine(HANDSHAKE + "\nif words[0] == 'go': time.sleep(1.5); say('bestmove NE2')")
    with EngineClient(fake, timeout=1.0) as client:
        assert str(client.go(p1time=10, p2time=5000).move) == "NE2"
        assert str(client.go(p1time=5000, p2time=10).move) == "NE2"


def test_an_analysis_holds_the_last_reports_candidates_once_each():
    # A search reports its candidates again and again; the analysis keeps the last report's.
    from rosen.engine.protocol import CandidateInfo

    lines = [CandidateInfo(multipv=k, move=m, visits=v).format() for k, m, v in ((1, "N1", 30), (2, "E1", 20))]
    report = "; ".join(f"say({line!r})" for line in lines)
    fake = _engine(HANDSHAKE + f"\nif words[0] == 'go': {report}; {report}; say('bestmove N1')")
    with EngineClient(fake, timeout=5) as client:
        analysis = client.analyse("startpos seed 1", iterations=100, multipv=2)
    assert [(c.multipv, c.move) for c in analysis.candidates] == [(1, "N1"), (2, "E1")]
