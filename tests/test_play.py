"""``rosen play`` driven end to end through ``main(argv)`` with scripted input."""
import io
import re
import sys

import pytest

import rosen
from rosen.cli import build_parser, main
from rosen.cli.play import play_session
from rosen.match import ALL_CARDS

# Every move text there is. Tried in turn, the first legal one is played and each illegal one gets
# the error message and the question again -- so this script finishes any game.
EVERY_MOVE = list(ALL_CARDS) + ["H:" + c for c in ALL_CARDS] + ["draw", "pass"]


def script(*first_lines, rounds=200):
    return "\n".join(list(first_lines) + EVERY_MOVE * rounds) + "\n"


def run_play(monkeypatch, capsys, argv, text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["play"] + argv)
    return code, capsys.readouterr()


def test_a_whole_game_with_a_bad_move_legal_and_hint(monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, ["--engine", "greedy", "--seed", "3"],
                         script("X9", "N1", "legal", "hint"))
    assert code == 0
    text = out.out
    assert "'X9' is not a move" in text
    # Deal 3 gives red N2 SE1 SW3 NW1 NW2: N1 is well formed but not in hand, and draw needs a free slot.
    assert "'N1' is not legal here (move: illegal move N1; legal moves: N2, SE1, SW3, NW1, NW2)" in text
    assert re.search(r"legal moves: (\S+ )+", text)
    assert "engine analysis" in text
    assert "Red to move" in text and "    a b c d e f g h i" in text  # the board is drawn
    assert re.search(r"You \(r\) drew [NESW]{1,2}[123]\.", text)
    assert re.search(r"The engine \(w\) (played|drew) ", text)
    assert re.search(r"Final score: red \d+, white \d+\. (Red wins|White wins|The game is a draw)", text)


def test_quit_and_end_of_input(monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, ["--engine", "random"], "legal\nquit\n")
    assert code == 0 and "You quit the game." in out.out and "Final score" not in out.out
    code, out = run_play(monkeypatch, capsys, ["--engine", "random"], "")  # EOF counts as quit
    assert code == 0 and "You quit the game." in out.out


def test_playing_white_the_engine_opens(monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, ["--engine", "greedy", "--colour", "white"], "quit\n")
    assert code == 0
    assert "You play white" in out.out
    assert re.search(r"The engine \(r\) played \S+\.", out.out)


def test_four_players_you_play_both_seats_of_your_team(monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, ["--engine", "greedy", "--players", "4", "--seed", "2"], script())
    assert code == 0
    assert "your move (r1)> " in out.out and "your move (r2)> " in out.out
    assert "your move (w1)" not in out.out
    assert re.search(r"The engine \(w1\) ", out.out) and re.search(r"The engine \(w2\) ", out.out)
    assert "Final score" in out.out


def test_injected_input_and_output():
    lines = iter(["help", "board", "quit"])
    prompts = []

    def fake_input(prompt):
        prompts.append(prompt)
        return next(lines)

    out = io.StringIO()
    args = build_parser().parse_args(["play", "--seed", "1", "--reshuffle", "lazy", "--engine", "random"])
    assert play_session(args, input_fn=fake_input, out=out) == 0
    assert prompts == ["your move (r)> "] * 3
    assert "H:N2 (hero with a card)" in out.getvalue() and "You quit" in out.getvalue()


def test_typed_draw_card_is_refused(monkeypatch, capsys):
    # A person draws from the pile; naming the card is not allowed.
    code, out = run_play(monkeypatch, capsys, ["--engine", "greedy"], "draw:N1\nquit\n")
    assert code == 0 and "type a plain 'draw'" in out.out


@pytest.mark.parametrize("argv,needle", [
    (["--iterations", "0"], "--iterations"),
    (["--time-ms", "-5"], "--time-ms"),
    (["--colour", "blue"], "--colour"),
    (["--players", "3"], "--players"),
    (["--engine", "deep-blue"], "--engine"),
    (["--search-seed", "-1"], "--search-seed"),
    (["--level", "0"], "--level: expected 1..20, got 0"), (["--level", "21"], "--level: expected 1..20, got 21"),
    (["--level", "5", "--engine", "greedy"], "--level: only for the default engine"),
])
def test_bad_arguments_exit_2_naming_the_option(argv, needle, monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, argv, "quit\n")
    assert code == 2
    assert needle in out.err


def test_a_level_weakens_the_default_engine(monkeypatch, capsys):
    # The engine protocol's Strength levels for a person at the terminal: level 2 caps the search
    # at 18 iterations and plays a random move in 8 of 10 turns.
    code, out = run_play(monkeypatch, capsys, ["--level", "2", "--seed", "5"], script())
    assert code == 0 and "Final score" in out.out
    assert "against LevelAgent(MCTSAgent(iterations=18, evaluator=Evaluator('builtin')), level=2, seed=0)" in out.out


def test_against_mcts_with_hint(monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, ["--iterations", "50", "--seed", "5"], script("hint"))
    assert code == 0
    assert "engine analysis" in out.out and "visits" in out.out and "pv:" in out.out
    assert re.search(r"expected margin +[-+]\d+\.\d  line \S+ \S+", out.out)  # each move's own line
    assert "MCTSAgent" in out.out and "Final score" in out.out


def test_hint_shows_the_analysis_and_the_default_engine_searches(monkeypatch, capsys):
    code, out = run_play(monkeypatch, capsys, ["--iterations", "400", "--seed", "3"], "hint\nquit\n")
    assert code == 0
    # --seed is the deal; the search has --search-seed; the engine searches with the shipped network
    assert "against MCTSAgent(iterations=400, evaluator=Evaluator('builtin'))" in out.out
    assert re.search(r"engine analysis: 400 iterations, depth \d+\.\d, win rate \d+\.\d% for the side to move",
                     out.out)
    assert re.search(r"\n  \S+ +visits +\d+  win rate +\d+\.\d%  expected margin +[-+]\d+\.\d", out.out)
    assert "  pv: " in out.out
    code, out = run_play(monkeypatch, capsys, ["--time-ms", "500", "--search-seed", "4", "--colour", "white"], "quit\n")
    assert "MCTSAgent(iterations=0, time_ms=500, seed=4, evaluator=Evaluator('builtin'))" in out.out


def test_ctrl_c_at_the_prompt_quits():
    def interrupted(prompt):
        raise KeyboardInterrupt

    out = io.StringIO()
    args = build_parser().parse_args(["play", "--engine", "greedy"])
    assert play_session(args, input_fn=interrupted, out=out) == 0
    assert re.search(r"You quit the game\.\nThe deal was seed \d+: [^\n]*\n\Z", out.getvalue())


def test_bytes_that_are_not_text_lose_no_later_line():
    # Under strict UTF-8 decoding the error also dropped the rest of the piped input: the
    # `legal` and `quit` after the bad line were never read and the game ended as at end of input.
    import os
    import subprocess

    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    done = subprocess.run([sys.executable, "-m", "rosen", "play", "--engine", "greedy"], input=b"N\xff2\nlegal\nquit\n",
                          capture_output=True, env=env, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 0 and "That input is not text" in out
    assert "legal moves:" in out and re.search(r"You quit the game\.\nThe deal was seed \d+: [^\n]*\n\Z", out)


def test_R14_the_default_deal_is_random_and_named_when_the_game_ends(monkeypatch, capsys):
    # A fixed default deal (seed 0) was one whose every draw a player could look up in advance.
    seeds = []
    for _ in range(2):
        code, out = run_play(monkeypatch, capsys, ["--engine", "greedy"], "quit\n")
        assert code == 0
        found = re.findall(r"The deal was seed (\d+): --seed \1 deals it again\.", out.out)
        assert len(found) == 1 and out.out.rstrip().endswith(found[0] + " deals it again.")
        seed = int(found[0])
        assert str(rosen.Position.new(seed)) in out.out  # the board shown at the start is that deal
        seeds.append(seed)
    assert seeds[0] != seeds[1]
    code, out = run_play(monkeypatch, capsys, ["--engine", "greedy", "--seed", "3"], script("N2"))
    assert "The deal was seed 3: --seed 3 deals it again." in out.out and "Final score" in out.out
