"""Robustness over a real pipe: thousands of random and hostile lines neither crash the engine
nor change its state; each bad line gets exactly one `info string error:`; afterwards the same
process still plays a correct game."""
from __future__ import annotations

import random
from typing import List

import rosen
from engine_helpers import final_block, play_checked_game, start_engine, without_clock
from rosen.engine.options import OPTIONS

COMMANDS = {"ugi", "isready", "setoption", "uginewgame", "position", "go", "stop", "query", "bench", "quit"}

CRAFTED: List[bytes] = [
    b"\xff\xfe\xfd\xfc", b"\x00" * 100, b"\x1b[2J\x1b[H", "position fen \u00fc \u20ac \U0001f339".encode(),
    "go \u221e".encode(), b"x" * (1 << 20), b"y" * 60_000, b"position fen " + b"9/" * 40_000,
    b"position startpos moves " + b"N1 " * 5_000, b"position startpos seed 99999999999999999999999",
    b"position startpos players 0", b"position startpos players four", b"position fen 9/9/9 e5",
    b"position fen 9/9/9/9/9/9/9/9/9 e5 r N1,N1 S1 4 4 - *", b"position fen 9/9/9/9/9/9/9/9/9 e5 r N1 S1 5 4 - *",
    b"position fen 9/9/9/9/9/9/9/9/9 z9 r N1 S1 4 4 - *", b"position fen 9/9/9/9/9/9/9/9/9 e5 x N1 S1 4 4 - *",
    b"position fen 9/9/9/9/9/9/9/9/9 e5 r N1 S1 4 4 - * moves N1 N1", b"position startpos moves pass",
    b"position startpos moves H:N1", b"position startpos moves draw:N9", b"position startpos seed 3 moves draw:N1",
    b"setoption", b"setoption name", b"setoption name Threads value", b"setoption name Threads value 1e3",
    b"setoption name Hash value 99999999", b"setoption name MultiPV value -3", b"setoption value 3 name Seed",
    b"setoption name Seed value 0x10", b"setoption name Reshuffle value \xff", b"query", b"query nothing",
    b"query legal legal", b"uci", b"ucinewgame", b"isready now please", b"ugi\x00", b"\tquit?",
    b"bench 3", b"stop now", b"go nodes 1 nodes", b"go movetime nan", b"go p1time 5", b"go wtime 100 btime 100",
    b"go nodes 18446744073709551616", b"go infinite forever", b"GO NODES -5", b"POSITION",
    b"go p1inc 10 p2inc 10", b"go nodes 5 nodes 6", b"go infinite infinite", b"position startpos seed 1 seed 2",
    b"position startpos players 4 players 2",  # once silently a bare go / the last value
]


def garbage(rng: random.Random) -> bytes:
    """A random line of bytes that is surely not a command (nor blank)."""
    while True:
        data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 120))).replace(b"\n", b" ")
        words = data.decode("utf-8", errors="replace").split()
        if words and words[0].lower() not in COMMANDS:
            return data


def soup(rng: random.Random) -> str:
    """A random command from the protocol's vocabulary with random arguments (valid or not)."""
    words = ["ugi", "isready", "setoption", "uginewgame", "position", "go", "stop", "query", "startpos", "fen",
             "moves", "seed", "players", "name", "value", "Threads", "Seed", "MultiPV", "Reshuffle", "Hash",
             "Strength", "lazy", "eager", "nodes", "movetime", "p1time", "p2time", "p1inc", "p2inc", "infinite",
             "gameover", "p1turn", "result", "legal", "draw", "pass", "N1", "H:S2", "draw:NE3", "2", "4", "0", "-1",
             "7", "12", "abc", "*", "-", "9/9/9/9/9/9/9/9/9", "e5", "r", "w1"]
    command = rng.choice(["setoption", "position", "go", "query", "stop", "isready", "uginewgame", "ugi",
                          rng.choice(words)])
    line = [command] + [rng.choice(words) for _ in range(rng.randint(0, 6))]
    if command == "go":  # bound every search (a bare go would search for half a second)
        line += ["nodes", str(rng.randint(1, 40)), "movetime", str(rng.randint(1, 20))]
    if command == "setoption" and "Hash" in line:
        line = ["setoption", "name", "Hash", "value", str(rng.randint(1, 8))]
    return " ".join(line)


def test_hostile_lines_change_nothing_and_each_get_one_error():
    rng = random.Random(20261129)
    lines = CRAFTED + [garbage(rng) for _ in range(2500)]
    with start_engine(timeout=60) as client:
        client.setoption("Seed", 5)
        client.set_position("startpos seed 17")
        for data in lines:
            client.send_bytes(data + b"\n")
        out = client.sync(check=False)
        errors = [line for line in out if line.startswith("info string error:")]
        gos = sum(1 for data in lines if data.split()[:1] and data.split()[0].lower() == b"go")
        assert len(errors) == len(lines)
        assert [line for line in out if not line.startswith("info string error:")] == ["bestmove (none)"] * gos
        assert any("line too long" in e for e in errors)
        assert client.query("position") == rosen.Position.new(17).fen(hide_pile_order=True)
        after = client.play("startpos seed 17", iterations=700)
        assert client.returncode is None
    with start_engine() as fresh:
        fresh.setoption("Seed", 5)
        expected = fresh.play("startpos seed 17", iterations=700)
    assert after.move == expected.move
    assert [without_clock(x) for x in final_block(after.info.lines)] == \
        [without_clock(x) for x in final_block(expected.info.lines)]


def test_random_command_soup_then_a_correct_game():
    rng = random.Random(7)
    with start_engine(timeout=60) as client:
        for _ in range(2500):
            client.send(soup(rng))
        client.send("stop")  # returns after the bestmove of any search still running
        client.send("end-of-soup")  # an error line no soup command can produce marks the end
        while "end-of-soup" not in client.readline():
            pass
        assert client.returncode is None
        for option in OPTIONS:
            client.setoption(option.name, option.default)
        client.new_game()
        play_checked_game(client, rosen.Position.new(31), iterations=50)
