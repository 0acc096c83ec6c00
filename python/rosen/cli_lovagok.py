"""``rosen lovagok``: Lovagok dice tables, advice and contest odds from the command line."""
from __future__ import annotations

import argparse

from . import lovagok as lv
from ._core import lovagok as _core_lv
from .errors import InvalidArgumentError, check_int


def _sizes(text: str):
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise InvalidArgumentError(f"--sizes: expected group sizes 1..7 separated by commas, e.g. 3,4,5, got {text!r}",
                                   "--sizes") from None
    return tuple(check_int("--sizes", size, 1, 7) for size in sizes)


def _table(args: argparse.Namespace) -> int:
    mask = lv.parse_dice_cards(args.dice_cards, "--dice-cards")
    rerolls = check_int("--rerolls", args.rerolls, 0, lv.MAX_REROLLS)
    dice = check_int("--dice", args.dice, 1, lv.MAX_DICE)
    # One card set is all the view needs: ~1/32 of the whole table's work.
    row = _core_lv.beat_table_for(mask)[rerolls, dice]
    cards = ",".join(map(str, lv.cards_of_mask(mask))) or "none"
    print(f"P(beat target), optimal play: {dice} dice, {rerolls} re-roll(s), dice cards: {cards}")
    print(lv.format_grid(row, sizes=_sizes(args.sizes)))
    return 0


def _advise(args: argparse.Namespace) -> int:
    advice = lv.advise(args.target, args.roll, rerolls_left=args.rerolls_left, dice_cards=args.dice_cards)
    print(f"target {lv.as_result(args.target)}; {advice}")
    return 0


def _p_beat(args: argparse.Namespace) -> int:
    p = lv.p_beat(args.target, rerolls=args.rerolls, dice=args.dice, dice_cards=args.dice_cards)
    print(f"P(beat {lv.as_result(args.target)}) = {p:.12f}")
    return 0


def _attack(args: argparse.Namespace) -> int:
    attack = lv.attack_castle(args.castle, catapult=args.catapult, attacker_cards=args.dice_cards,
                              defender_cards=args.defender_cards)
    print(f"castle {attack.castle}: attacker {attack.attacker_rerolls} re-rolls, defender {attack.defender_rerolls}")
    print(f"P(take castle), optimal attacker:      {attack.p_take:.6f}")
    print(f"P(take castle), just beating the card: {attack.p_take_naive:.6f}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    t = lv.tournament(args.players, champion=args.champion, model=args.model)
    print(f"tournament, {t.players} players, model '{t.model}' (player 0 organises)")
    for i, (p, r) in enumerate(zip(t.p_win, t.rerolls)):
        print(f"  player {i}: {r} re-rolls, P(win) = {p:.6f}")
    return 0


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("lovagok", help="Lovagok dice odds (tables, advice, contests)")
    sub = parser.add_subparsers(dest="lovagok_command", metavar="ACTION")
    sub.required = True

    p = sub.add_parser("table", help="P(beat) for triple+further targets and stronger")
    p.add_argument("--rerolls", type=int, default=2)
    p.add_argument("--dice", type=int, default=6)
    p.add_argument("--dice-cards", default="", help="e.g. 3,5")
    p.add_argument("--sizes", default="3,4,5", help="group sizes to show, e.g. 3,4,5")
    p.set_defaults(run=_table)

    p = sub.add_parser("advise", help="best keep after a roll, with every alternative")
    p.add_argument("target", help="combination to beat, e.g. 3332")
    p.add_argument("roll", help="dice showing, 6 = blank, e.g. 552366")
    p.add_argument("--rerolls-left", type=int, default=2)
    p.add_argument("--dice-cards", default="")
    p.set_defaults(run=_advise)

    p = sub.add_parser("p-beat", help="probability of beating a combination")
    p.add_argument("target")
    p.add_argument("--rerolls", type=int, default=2)
    p.add_argument("--dice", type=int, default=6)
    p.add_argument("--dice-cards", default="")
    p.set_defaults(run=_p_beat)

    p = sub.add_parser("attack", help="attacking a castle (L10), both sides optimal")
    p.add_argument("castle")
    p.add_argument("--catapult", action="store_true", help="attacker has three re-rolls")
    p.add_argument("--dice-cards", default="", help="attacker's dice cards")
    p.add_argument("--defender-cards", default="")
    p.set_defaults(run=_attack)

    p = sub.add_parser("tournament", help="each player's chance to win a tournament (L11)")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--champion", type=int, default=None, help="index of the Champion holder (1..players-1)")
    p.add_argument("--model", choices=lv.TOURNAMENT_MODELS, default="lead")
    p.set_defaults(run=_tournament)
