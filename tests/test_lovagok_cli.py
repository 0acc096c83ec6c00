"""``rosen lovagok ...`` through rosen.cli.main."""
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


@pytest.mark.parametrize("argv,words", [
    (["advise", "3362", "552366"], "combination"),
    (["advise", "3332", "5523x6"], "roll"),
    (["table", "--rerolls", "9"], "--rerolls"),
    (["table", "--dice-cards", "3,3"], "--dice-cards"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv, words):
    code, _, err = run(capsys, "lovagok", *argv)
    assert code == 2 and words in err
