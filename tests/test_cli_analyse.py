"""`rosen analyse` through main(argv)."""
from __future__ import annotations

import json

import pytest

import rosen
from rosen.cli import main


def test_analyse_defaults_print_board_and_candidates(capsys):
    assert main(["analyse", "--iterations", "2000"]) == 0
    out = capsys.readouterr().out
    assert "a b c d e f g h i" in out and "best move" in out and "pv" in out
    # each candidate with its line, as the README says (the text once had the lines in --json only)
    rows = out.split("prior  line\n", 1)[1].strip().splitlines()
    assert len(rows) == 5 and all(len(row.split()) >= 6 and row.split()[5] == row.split()[0] for row in rows)
    legal = {str(m) for m in rosen.Position.new(0).legal_moves()}
    best = out.split("best move", 1)[1].split()[0]
    assert best in legal


def test_analyse_json_is_deterministic_and_legal(capsys):
    fen = rosen.Position.new(5, players=4).fen()
    argv = ["analyse", "--fen", fen, "--iterations", "1500", "--json", "--multipv", "2"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    for d in (first, second):
        d.pop("nps"), d.pop("time_ms")
    assert first == second
    assert first["best_move"] in {str(m) for m in rosen.Position(fen).legal_moves()}
    assert len(first["moves"]) == 2 and first["iterations"] == 1500
    assert first["position"].endswith(" *")  # the analysis shows the pile as a player sees it (R14)


@pytest.mark.parametrize("argv,needle", [
    (["analyse", "--fen", "nonsense"], "position"),
    (["analyse", "--multipv", "0"], "--multipv"),
    (["analyse", "--iterations", "-5"], "iterations"),
    (["analyse", "--fen", "9/9/9/9/9/9/9/9/r8 a1 r S1,S2,S3,W1,W2 W3,SW1,SW2,SW3,NW1 4 4 - *"], "game is over"),
    # R13: a --players that contradicts the line was ignored without a word
    (["analyse", "--fen", "9/9/9/9/9/9/9/9/9 e5 r N1,NE2,E3,S1,W2 S3,SW1,NW2,N3,E1 4 4 - *", "--players", "4"],
     "--players: the --fen position is a 2-player game, not 4"),
    (["analyse", "--fen", "9/9/9/9/9/9/9/9/9 e5 r1 NE2,W1,NW3 SE1,SE2,SW3 N1,NE1,S3 NE3,E2,NW2 2 2 2 2 - *",
      "--players", "2"], "--players: the --fen position is a 4-player game, not 2"),
    # and --seed, the deal's, was dropped without a word beside --fen
    (["analyse", "--fen", "9/9/9/9/9/9/9/9/9 e5 r N1,NE2,E3,S1,W2 S3,SW1,NW2,N3,E1 4 4 - *", "--seed", "3"],
     "--seed: the seed of a fresh deal"),
])
def test_analyse_bad_arguments(argv, needle, capsys):
    assert main(argv) == 2
    assert needle in capsys.readouterr().err


def test_analyse_into_a_closed_pipe_stops_quietly():
    # `rosen analyse --json | head -c 10`: the reader leaves before the output is written. The
    # command must end without a traceback or Python's "Exception ignored" note on stderr.
    import subprocess
    import sys
    with subprocess.Popen([sys.executable, "-m", "rosen", "analyse", "--iterations", "300", "--json"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 1
    assert err == ""


def test_every_help_page_reads_as_plain_text():
    # The descriptions are module docstrings; their RST literals (``rosen``) once showed as such.
    import argparse

    from rosen.cli import build_parser

    def pages(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    yield from pages(child)

    seen = list(pages(build_parser()))
    assert len(seen) > 12  # every command and the actions of selfplay and lovagok
    for parser in seen:
        text = parser.format_help()
        assert "``" not in text and ":class:" not in text and ":func:" not in text, parser.prog  # roles too
        if parser.prog == "rosen lovagok table":  # and every option says what it takes
            assert "re-rolls after the first roll, 0..3 (default 2)" in text and "1..6 (default 6)" in text
