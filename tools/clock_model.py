"""The figures behind rosen.engine.clock: decisions left per token in the supply, in games of the
engine's own search against itself, and how much of a simulated clock the allocation spends.

A decision is a turn with more than one legal move (a forced turn takes a millisecond). For each
decision of a game, the decisions its side (its team, with 4 players) still has, this one
included, are set against the supply; the fit through the origin is the ratio the clock module
uses (DECISIONS_PER_TOKEN); the same fit over every turn, forced ones too, is TURNS_PER_TOKEN.
Then every game is replayed on simulated clocks, each move costing what allocate_time allots
(told the MoveOverhead option's default, 10 ms) plus the 3 ms the simulation loses outside the
search on every turn.

    python tools/clock_model.py --players 2      # 60 games at 1000 iterations: about a minute
    python tools/clock_model.py --players 4
    python tools/clock_model.py --players 4 --per-token 1.34   # the clocks with another ratio
"""
from __future__ import annotations

import argparse
import statistics
import sys

import rosen
from rosen.agents import parse_agent
from rosen.engine import clock
from rosen.match import play_game

CLOCKS = ((60_000, 0), (10_000, 0), (20_000, 200), (3_000, 50), (1_000, 0), (500, 0), (300, 0))  # (base, inc) ms
OVERHEAD_MS = 3


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected >= 1, got {value}")
    return value


def game_positions(players: int, iterations: int, seed: int) -> list:
    """The positions of one game of the shipped network's search against itself, before each move."""
    spec = f"mcts:evaluator=auto,iterations={iterations}"  # the shipped network of the game
    record = play_game(parse_agent(spec, seed), parse_agent(spec, seed + 1), seed=seed, players=players)
    position = rosen.Position.new(seed, players=players)
    positions = []
    for move in record.moves:
        positions.append(position)
        position = position.play(move)
    return positions


def decisions_against_supply(positions: list) -> list:
    """(supply, decisions its side has left) at each decision of one game."""
    choice = [len(p.legal_moves()) > 1 for p in positions]
    rows = []
    for i, position in enumerate(positions):
        if choice[i]:
            side = position.colour_to_move
            left = sum(1 for j in range(i, len(positions)) if choice[j] and positions[j].colour_to_move == side)
            rows.append((position.supply, left))
    return rows


def turns_against_supply(positions: list) -> list:
    """(supply, turns its side has left, forced ones too) at each turn of one game."""
    return [(p.supply, sum(1 for q in positions[i:] if q.colour_to_move == p.colour_to_move))
            for i, p in enumerate(positions)]


def clock_use(positions: list, base_ms: int, inc_ms: int, per_token: float) -> tuple:
    """The share of each side's clock the allocation spent with ``per_token`` decisions a token,
    and the lowest either clock went."""
    saved = dict(clock.DECISIONS_PER_TOKEN)
    clock.DECISIONS_PER_TOKEN[positions[0].players] = per_token
    try:
        return _clock_use(positions, base_ms, inc_ms)
    finally:
        clock.DECISIONS_PER_TOKEN.update(saved)


def _clock_use(positions: list, base_ms: int, inc_ms: int) -> tuple:
    clocks = {"red": base_ms, "white": base_ms}
    spent = {"red": 0, "white": 0}
    moves = {"red": 0, "white": 0}
    lowest = base_ms
    for position in positions:
        side = position.colour_to_move
        budget = clock.allocate_time(clocks[side], inc_ms, position, clock.MOVE_OVERHEAD_MS)
        clocks[side] -= budget + OVERHEAD_MS
        lowest = min(lowest, clocks[side])
        clocks[side] += inc_ms
        spent[side] += budget
        moves[side] += 1
    return [spent[s] / (base_ms + (inc_ms - OVERHEAD_MS) * moves[s]) for s in spent], lowest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--players", type=int, choices=(2, 4), default=2, help="players (default 2)")
    parser.add_argument("--games", type=positive, default=60, help="self-play games measured (default 60)")
    parser.add_argument("--iterations", type=positive, default=1000,
                        help="search iterations a move in those games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's deal seed (default 0)")
    parser.add_argument("--per-token", type=float, default=None,
                        help="simulate the clocks with this ratio instead of the clock module's")
    args = parser.parse_args(argv)
    if args.per_token is not None and not 0 < args.per_token <= 10:
        parser.error(f"--per-token: expected 0 < ratio <= 10, got {args.per_token}")
    from rosen.errors import MAX_SEED

    if args.games > 10**6:
        parser.error(f"--games: expected 1..1000000, got {args.games}")
    if not 0 <= args.seed <= MAX_SEED - args.games + 1:  # game g is dealt seed + g
        parser.error(f"--seed: expected 0..{MAX_SEED - args.games + 1}, got {args.seed}")
    used_ratio = clock.DECISIONS_PER_TOKEN[args.players] if args.per_token is None else args.per_token

    games = [game_positions(args.players, args.iterations, args.seed + g) for g in range(args.games)]
    rows = [row for positions in games for row in decisions_against_supply(positions)]
    ratio = sum(s * left for s, left in rows) / sum(s * s for s, _ in rows)
    turns = [row for positions in games for row in turns_against_supply(positions)]
    turn_ratio = sum(s * left for s, left in turns) / sum(s * s for s, _ in turns)
    print(f"{args.players} players, {args.games} games at {args.iterations} iterations: "
          f"{len(rows)} decisions, {ratio:.2f} decisions left per token "
          f"(the clock uses {clock.DECISIONS_PER_TOKEN[args.players]}; simulated below: {used_ratio}); "
          f"{turn_ratio:.2f} turns left per token (the clock uses {clock.TURNS_PER_TOKEN[args.players]})")
    for top in range(52, 0, -8):
        band = [left / s for s, left in rows if top - 8 < s <= top]
        if band:
            print(f"  supply {max(1, top - 7):2d}-{top:2d}: {statistics.mean(band):.2f} a token ({len(band)} decisions)")
    for base_ms, inc_ms in CLOCKS:
        used, lowest = [], base_ms
        for positions in games:
            shares, low = clock_use(positions, base_ms, inc_ms, used_ratio)
            used += shares
            lowest = min(lowest, low)
        print(f"  clock {base_ms} ms + {inc_ms} ms: {statistics.mean(used):.0%} spent on average "
              f"(least {min(used):.0%}), lowest clock {lowest} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
