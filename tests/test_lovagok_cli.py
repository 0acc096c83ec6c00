"""``rosen lovagok ...`` (rosen.cli.lovagok) through rosen.cli.main."""
import pytest

from rosen import lovagok as lv
from rosen.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_prints_triple_plus_further_grid(capsys):
    code, out, _ = run(capsys, "lovagok", "table", "--rerolls", "3", "--dice-cards", "3,5")
    assert code == 0
    assert "3 re-roll(s), dice cards: 3,5" in out
    row = next(line for line in out.splitlines() if line.startswith("555 "))
    assert f"{lv.p_beat('5554', rerolls=3, dice_cards=(3, 5)):.4f}" in row


def test_advise_prints_best_keep_and_alternatives(capsys):
    code, out, _ = run(capsys, "lovagok", "advise", "3332", "552366", "--rerolls-left", "2")
    assert code == 0
    advice = lv.advise("3332", "552366", rerolls_left=2)
    assert f"best: {advice.best}" in out
    assert out.count("re-roll") >= len(advice.options) - 1 and "stop:" in out


def test_p_beat_prints_twelve_digits(capsys):
    code, out, _ = run(capsys, "lovagok", "p-beat", "3332", "--rerolls", "3")
    assert code == 0 and f"{lv.p_beat('3332', rerolls=3):.12f}" in out


def test_contest_commands(capsys):
    code, out, _ = run(capsys, "lovagok", "attack", "3332", "--catapult")
    assert code == 0 and f"{lv.attack_castle('3332', catapult=True).p_take:.6f}" in out
    code, out, _ = run(capsys, "lovagok", "tournament", "--players", "3", "--champion", "2")
    assert code == 0 and out.count("P(win)") == 3


@pytest.mark.parametrize("argv,message", [
    (["advise", "3362", "552366"], "target: expected a combination of faces 1..5 (a 6 is a blank), got '3362'"),
    (["advise", "3332", "5523x6"], "roll: expected faces 1..6 such as '552366', got '5523x6'"),
    (["advise", "3332", "55", "--rerolls-left", "5"], "--rerolls-left: expected 0..3, got 5"),
    (["table", "--rerolls", "9"], "--rerolls: expected 0..3, got 9"),
    (["table", "--dice", "0"], "--dice: expected 1..6, got 0"),
    (["table", "--dice-cards", "3,3"], "--dice-cards: expected at most one dice card of each value, got [3, 3]"),
    (["table", "--sizes", "3,8"], "--sizes: expected 1..7, got 8"),
    (["table", "--sizes", "3,x"], "--sizes: expected group sizes 1..7 separated by commas, e.g. 3,4,5, got '3,x'"),
    (["p-beat", "3332", "--dice", "7"], "--dice: expected 1..6, got 7"),
    (["attack", "3332", "--dice-cards", "6"], "--dice-cards: expected card values 1..5 such as '3,5', got '6'"),
    (["attack", "3332", "--defender-cards", "6"], "--defender-cards: expected card values 1..5 such as '3,5', got '6'"),
    (["tournament", "--players", "9"], "--players: expected 2..6, got 9"),
    (["tournament", "--champion", "3"], "--champion: expected 0..2, got 3"),
])
def test_bad_input_exits_2_with_a_message_naming_the_option(capsys, argv, message):
    code, out, err = run(capsys, "lovagok", *argv)
    assert code == 2 and out == "" and err.strip().endswith(f"error: {message}")
