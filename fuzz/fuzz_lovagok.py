"""Fuzz target: Lovagok's parsers and solvers (the public functions of rosen.lovagok).

Input layout: byte 0 picks the function (FUNCTIONS), then its arguments in order, each one byte
(mostly: a value of the kind the parameter expects, written as text or numbers; sometimes any
value at all) followed by the value's bytes. A committed corpus file for p_beat("3332", 2) is
``bytes([index of p_beat]) + b"\\x01\\x04" + b"3332\\x00" + ...`` (see fuzz/make_corpus.py).

Oracle: every call returns or raises ValueError/TypeError, and
  * a parsed result prints back to itself: ``parse_combination(str(r)) == r == RESULTS[r.rank]``;
  * probabilities lie in [0, 1]; a distribution is non-negative and sums to 1;
  * parse_roll gives 1..MAX_DICE faces in 1..6; parse_dice_cards a mask below 32;
  * advice's best option is among its options and the first of them.
"""
from __future__ import annotations

import math
import numbers
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":  # fuzzing: atheris instruments rosen before this module imports it
    from _atheris_main import fuzz_main
    sys.exit(fuzz_main(__file__))
from _common import Input, attempt, check, value  # noqa: E402

import numpy as np  # noqa: E402

from rosen import lovagok as L  # noqa: E402

COMBOS = ["3332", "555", "55551", "-", "2224", "1", "21", "12", "7777777", "5555555", "33332", "", " 3332 ", "6",
          "55556", "3\u0663\u0663", "\uff13"]
ROLLS = ["552366", "123456", "6", "666666", "1", "5555555", "", "12345678", "5 5", "\u0665"]
CARDS = ["", "3,5", "35", "12345", "11", "6", "0", "1, 2", "5,", "\u0663"]
MODELS = ["lead", "win", "LEAD", ""]


def _text(inp: Input, pool):
    """A pool entry, a string of faces (digits and a few others), or any text."""
    kind = inp.byte() % 4
    if kind == 0:
        return inp.choice(pool)
    if kind == 1:
        n = inp.int_in(0, 9)
        return "".join(inp.choice("1234556-, 0") for _ in range(n))
    return inp.text(12)


def combo(inp: Input):
    kind = inp.byte() % 8
    if kind < 5:
        return _text(inp, COMBOS)
    if kind == 5:
        return tuple(inp.int_in(-1, 8) for _ in range(inp.int_in(1, 4)))
    if kind == 6:
        return L.RESULTS[inp.int_in(0, L.NUM_RESULTS - 1)]
    return value(inp, COMBOS)


def roll(inp: Input):
    kind = inp.byte() % 6
    if kind < 3:
        return _text(inp, ROLLS)
    if kind < 5:
        return [inp.int_in(-1, 8) for _ in range(inp.int_in(0, 8))] if kind == 3 else \
            tuple(inp.int_in(1, 6) for _ in range(inp.int_in(0, 8)))
    return value(inp, ROLLS)


def cards(inp: Input):
    kind = inp.byte() % 6
    if kind < 3:
        return _text(inp, CARDS)
    if kind < 5:
        return [inp.int_in(-1, 7) for _ in range(inp.int_in(0, 6))] if kind == 3 else \
            {inp.int_in(1, 5) for _ in range(inp.int_in(0, 5))}
    return value(inp, CARDS)


def small(lo: int, hi: int):
    def gen(inp: Input):
        kind = inp.byte() % 6
        if kind < 4:
            return inp.int_in(lo, hi)
        if kind == 4:
            return inp.integer()
        return value(inp)
    return gen


def flag(inp: Input):
    return inp.bool() if inp.byte() % 4 else value(inp)


def model(inp: Input):
    return inp.choice(MODELS) if inp.byte() % 4 else value(inp, MODELS)


def utility(inp: Input):
    kind = inp.byte() % 6
    n = L.NUM_RESULTS if kind < 4 else inp.int_in(0, 200)
    if kind == 0:
        return np.linspace(0, 1, n)
    if kind in (1, 4):
        return [inp.float() for _ in range(min(n, 8))] * (n // max(1, min(n, 8))) + [0.0] * (n % max(1, min(n, 8)))
    if kind == 2:
        return np.full(n, inp.float())
    if kind == 3:
        return L.beat_utility(L.RESULTS[inp.int_in(0, L.NUM_RESULTS - 1)])
    return value(inp)


def card_sets(inp: Input):
    kind = inp.byte() % 4
    if kind == 0:
        return None
    if kind == 3:
        return value(inp)
    return [cards(inp) for _ in range(inp.int_in(0, 7))]


def _check_result(r) -> None:
    check(isinstance(r, L.Result), f"not a Result: {r!r}")
    ok, back = attempt(L.parse_combination, str(r))
    check(ok and back == r and L.RESULTS[r.rank] == r, f"{r!r} does not print back to itself: {back!r}")
    check(L.Result(*tuple(r)) == r, f"Result(*{tuple(r)}) != {r!r}")


def _check_formatted(text) -> None:
    ok, back = attempt(L.parse_combination, text)
    check(ok, f"format_combination gave {text!r}, which does not parse: {back!r}")
    _check_result(back)


def _check_p(p) -> None:
    check(isinstance(p, float) and math.isfinite(p) and -1e-12 <= p <= 1 + 1e-12, f"probability {p!r}")


def _check_distribution(d) -> None:
    d = np.asarray(d)
    check(d.shape == (L.NUM_RESULTS,), f"distribution shape {d.shape}")
    check(bool(np.all(d >= -1e-12)) and abs(float(d.sum()) - 1.0) < 1e-9, f"distribution sums to {d.sum()}")


def _check_advice(a) -> None:
    check(a.options and a.options[0] == a.best, "best option is not first")
    for o in a.options:
        check(-1e-9 <= o.probability <= 1 + 1e-9 or not isinstance(o.probability, float), f"option {o}")


def _check_roll(faces) -> None:
    check(isinstance(faces, tuple) and 1 <= len(faces) <= L.MAX_DICE and all(1 <= f <= 6 for f in faces),
          f"parse_roll gave {faces!r}")


def _check_mask(mask) -> None:
    # A numpy array of cards gives a numpy integer mask: an int in all but type, so accepted.
    check(isinstance(mask, numbers.Integral) and 0 <= mask < 32, f"parse_dice_cards gave {mask!r}")


_TABLE = []


def _table():
    if not _TABLE:
        _TABLE.append(L.table())
    return _TABLE[0]


def _solver_call(inp: Input):
    s = L.Solver(utility(inp), cards(inp), small(0, 3)(inp))
    what = inp.byte() % 4
    if what == 0:
        return s.value(small(0, 3)(inp), small(1, 6)(inp))
    if what == 1:
        return s.distribution(small(0, 3)(inp), small(1, 6)(inp))
    if what == 2:
        return s.best_keep(roll(inp), small(0, 3)(inp))
    return s.advise(roll(inp), small(0, 3)(inp))


#: (name, function, argument generators, check of a successful result)
FUNCTIONS = [
    ("Result", lambda *a: L.Result(*a), (small(-1, 8), small(-1, 6), small(-1, 6)), _check_result),
    ("Result(text)", L.Result, (combo,), _check_result),
    ("Result.parse", L.Result.parse, (combo,), _check_result),
    ("Result.from_rank", L.Result.from_rank, (small(-2, 170),), _check_result),
    ("parse_combination", L.parse_combination, (combo,), _check_result),
    ("format_combination", L.format_combination, (combo,), _check_formatted),
    ("as_result", L.as_result, (combo,), _check_result),
    ("parse_roll", L.parse_roll, (roll,), _check_roll),
    ("parse_dice_cards", L.parse_dice_cards, (cards,), _check_mask),
    ("cards_of_mask", L.cards_of_mask, (small(0, 31),), None),
    ("strength", L.strength, (roll, cards), _check_result),
    ("compare", L.compare, (combo, combo), lambda c: check(c in (-1, 0, 1), f"compare gave {c!r}")),
    ("beats", L.beats, (combo, combo), lambda b: check(isinstance(b, bool), f"beats gave {b!r}")),
    ("beat_utility", L.beat_utility, (combo,), None),
    ("p_beat", L.p_beat, (combo, small(0, 3), small(1, 6), cards), _check_p),
    ("distribution", L.distribution, (combo, small(0, 3), small(1, 6), cards), _check_distribution),
    ("advise", L.advise, (combo, roll, small(0, 3), cards), _check_advice),
    # attack_castle's options are keyword-only: the same arguments by position, with its defaults
    ("attack_castle", lambda castle, catapult=False, rerolls=L.DEFAULT_REROLLS, attacker=(), defender=():
     L.attack_castle(castle, catapult=catapult, defender_rerolls=rerolls, attacker_cards=attacker,
                     defender_cards=defender), (combo, flag, small(0, 3), cards, cards),
     lambda c: (_check_p(c.p_take), _check_p(c.p_take_naive), _check_p(c.p_beat_castle))),
    ("tournament", L.tournament, (small(1, 7), lambda inp: None if inp.bool() else small(0, 6)(inp), card_sets, model),
     lambda t: check(abs(float(np.sum(t.p_win)) - 1.0) < 1e-9, f"p_win sums to {np.sum(t.p_win)}")),
    ("topple_king", L.topple_king, (small(0, 3), cards), _check_p),
    ("Solver", None, (), None),
    ("Solver.to_beat", lambda t, c, r: L.Solver.to_beat(t, c, r).value(r if isinstance(r, int) else 2),
     (combo, cards, small(0, 3)), None),
    ("table.at", lambda *a: _table().at(*a), (combo, small(0, 3), small(0, 6), cards), _check_p),
    ("table.view", lambda r, c, d, s: _table().view(r, c, d, s),
     (small(0, 3), cards, small(0, 6), lambda inp: [small(0, 8)(inp) for _ in range(inp.int_in(0, 3))]), None),
]


def one_input(data: bytes) -> None:
    inp = Input(data)
    name, fn, gens, post = FUNCTIONS[inp.byte() % len(FUNCTIONS)]
    if name == "Solver":
        attempt(_solver_call, inp)
        return
    args = [g(inp) for g in gens]
    # Now and then fewer arguments (the defaults) or keywords by position.
    drop = inp.byte() % 8
    if drop >= 6 and args:
        args = args[:len(args) - (drop - 5)]
    ok, result = attempt(fn, *args)
    if ok and post is not None:
        post(result)
