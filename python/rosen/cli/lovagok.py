"""``rosen lovagok``: Lovagok dice tables, advice and contest odds from the command line."""
from __future__ import annotations

import argparse

from .. import lovagok as lv
from ..errors import InvalidArgumentError, RosenError, check_int

# The library names an argument by its Python name; the messages here name the option instead.
_OPTIONS = {
    "rerolls": "--rerolls", "dice": "--dice", "dice_cards": "--dice-cards", "rerolls_left": "--rerolls-left",
    "attacker_cards": "--dice-cards", "defender_cards": "--defender-cards", "players": "--players",
    "champion": "--champion", "sizes": "--sizes",
}


def _sizes(text: str) -> tuple:
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise InvalidArgumentError(f"--sizes: expected group sizes 1..7 separated by commas, e.g. 3,4,5, got {text!r}",
                                   "--sizes") from None
    return tuple(check_int("--sizes", size, 1, 7) for size in sizes)


def _table(args: argparse.Namespace) -> int:
    mask = lv.parse_dice_cards(args.dice_cards)
    dice = check_int("--dice", args.dice, 1, lv.MAX_DICE)
    row = lv.beat_row(args.rerolls, dice, lv.cards_of_mask(mask))  # one card set: ~1/32 of the whole table's work
    grid = lv.format_grid(row, sizes=_sizes(args.sizes))
    cards = ",".join(map(str, lv.cards_of_mask(mask))) or "none"
    print(f"P(beat target), optimal play: {dice} dice, {args.rerolls} re-roll(s), dice cards: {cards}")
    print(grid)
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


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; an argument error names the command-line option, not the Python argument."""
    try:
        return args.lovagok_action(args)
    except RosenError as exc:
        if exc.field is None or exc.field not in _OPTIONS:
            raise
        option = _OPTIONS[exc.field]
        raise type(exc)(option + str(exc)[len(exc.field):], option) from None


def _attempt_options(p: argparse.ArgumentParser) -> None:
    """The options of a whole attempt, as p_beat takes them: re-rolls, dice at the start, dice cards."""
    p.add_argument("--rerolls", type=int, default=lv.DEFAULT_REROLLS,
                   help=f"re-rolls after the first roll, 0..{lv.MAX_REROLLS} (default {lv.DEFAULT_REROLLS})")
    p.add_argument("--dice", type=int, default=lv.MAX_DICE,
                   help=f"dice at the start, 1..{lv.MAX_DICE} (default {lv.MAX_DICE})")
    p.add_argument("--dice-cards", default="", help="dice cards held, e.g. 3,5 (default none)")


def add_parser(subparsers) -> None:
    """Add the ``lovagok`` subcommand, with its actions table, advise, p-beat, attack and tournament,
    to ``subparsers``."""
    parser = subparsers.add_parser("lovagok", help="Lovagok dice odds (tables, advice, contests)")
    parser.set_defaults(run=run)
    sub = parser.add_subparsers(dest="lovagok_command", metavar="ACTION")
    sub.required = True

    p = sub.add_parser("table", help="P(beat) for triple+further targets and stronger")
    _attempt_options(p)
    p.add_argument("--sizes", default="3,4,5", help="group sizes to show, e.g. 3,4,5")
    p.set_defaults(lovagok_action=_table)

    p = sub.add_parser("advise", help="best keep after a roll, with every alternative")
    p.add_argument("target", help="combination to beat, e.g. 3332")
    p.add_argument("roll", help="dice showing, 6 = blank, e.g. 552366")
    p.add_argument("--rerolls-left", type=int, default=lv.DEFAULT_REROLLS,
                   help=f"re-rolls still allowed, 0..{lv.MAX_REROLLS} (default {lv.DEFAULT_REROLLS})")
    p.add_argument("--dice-cards", default="", help="e.g. 3,5")
    p.set_defaults(lovagok_action=_advise)

    p = sub.add_parser("p-beat", help="probability of beating a combination")
    p.add_argument("target")
    _attempt_options(p)
    p.set_defaults(lovagok_action=_p_beat)

    p = sub.add_parser("attack", help="attacking a castle (L10), both sides optimal")
    p.add_argument("castle")
    p.add_argument("--catapult", action="store_true", help="attacker has three re-rolls")
    p.add_argument("--dice-cards", default="", help="attacker's dice cards")
    p.add_argument("--defender-cards", default="", help="defender's dice cards, e.g. 3,5")
    p.set_defaults(lovagok_action=_attack)

    p = sub.add_parser("tournament", help="each player's chance to win a tournament (L11)")
    p.add_argument("--players", type=int, default=3, help="players, 2..6, the organiser first (default 3)")
    p.add_argument("--champion", type=int, default=None,
                   help="seat of the Champion holder, 0..players-1 (0, the organiser, has three re-rolls "
                        "either way, L3)")
    p.add_argument("--model", choices=lv.TOURNAMENT_MODELS, default="lead",
                   help="what later players play for: lead (take the lead, the default) or win (win the tournament)")
    p.set_defaults(lovagok_action=_tournament)
