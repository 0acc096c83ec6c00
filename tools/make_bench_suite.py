#!/usr/bin/env python3
"""Regenerate the benchmark position suite (python/rosen/data/bench_suite.json) for `rosen bench`.

1. Self-play games by a real search (``rosen.selfplay.generate``, 2- and 4-player deals);
2. their positions with the pile order hidden (``rosen.encoding.positions_from_rows``: what a
   player may know, R14), each tagged with its phase: the first, second or last third of its game;
3. an even spread over (players, phase), one position per game and phase while the games last
   (then more from the same games), chosen with a seeded generator among the positions a short
   screening search leaves open (no move with more than 80% of its visits: a position with one
   overwhelming move tests nothing); fewer positions than asked are written with a warning;
4. a reference for each: the best move and its win rate from one long search (one thread, fixed
   seed, the search's defaults), the best move's share of the root visits and the runner-up.

Everything is seeded, so the same arguments give the same file; the file's ``produced`` header
records the arguments, the search parameters, the rosen version and the commit.

    python tools/make_bench_suite.py --reference-iterations 1000000 --threads 2

Without --out it overwrites the committed suite of this checkout (python/rosen/data/bench_suite.json).
"""
from __future__ import annotations

import argparse
import datetime
import functools
import json
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, List

import rosen
from rosen.bench.suite import FORMAT, PHASES, parse_suite
from rosen.encoding import positions_from_rows
from rosen.selfplay import generate


SHORT = {"opening": "open", "middle": "mid", "ending": "end"}
#: The committed suite of this checkout (not the imported package's copy, which may be installed elsewhere).
COMMITTED = Path(__file__).resolve().parents[1] / "python" / "rosen" / "data" / "bench_suite.json"


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _phase(ply: int, plies: int) -> str:
    return PHASES[min(2, 3 * ply // max(plies, 1))]


def candidates(players: int, games: int, seed: int, agent: str, threads: int) -> Dict[str, List[Dict[str, Any]]]:
    """Positions of ``games`` self-play games by phase, with their game and ply."""
    batch = generate(games, seed=seed, players=players, agent=agent, threads=threads)
    positions = positions_from_rows(batch.rows)
    plies = {g["game"]: g["plies"] for g in batch.games} if "game" in batch.games[0] else \
        {i: g["plies"] for i, g in enumerate(batch.games)}
    by_phase: Dict[str, List[Dict[str, Any]]] = {p: [] for p in PHASES}
    for position, game, ply in zip(positions, batch.rows["game"], batch.rows["ply"]):
        game, ply = int(game), int(ply)
        if len(position.legal_moves()) < 2:
            continue
        length = plies[game]
        by_phase[_phase(ply, length)].append({"game": game, "ply": ply, "plies": length, "position": position})
    return by_phase


def open_question(entry: Dict[str, Any], iterations: int, max_share: float) -> bool:
    """Whether a short search leaves the move open: its favourite takes at most ``max_share`` of
    the root visits. Positions with one overwhelming move (often a plain draw when no card
    fits) say nothing about a search's depth, so the suite skips them."""
    if max_share >= 1.0:
        return True
    result = rosen.search(entry["position"], iterations=iterations, seed=0, threads=1)
    total = sum(m.visits for m in result.moves) or 1
    return result.moves[0].visits / total <= max_share


def choose(by_phase: Dict[str, List[Dict[str, Any]]], counts: Dict[str, int], rng: random.Random,
           accept: Callable[[Dict[str, Any]], bool]) -> List[Dict[str, Any]]:
    """``counts[phase]`` accepted positions of each phase, one per game while games last."""
    chosen = []
    for phase in PHASES:
        pool = list(by_phase[phase])
        rng.shuffle(pool)
        pool = [e for e in pool if accept(e)]
        seen, picked = set(), []
        for entry in pool:  # first pass: distinct games; second pass fills up if games run short
            if entry["game"] not in seen and len(picked) < counts[phase]:
                seen.add(entry["game"])
                picked.append(entry)
        picked += [e for e in pool if e not in picked][: counts[phase] - len(picked)]
        chosen += [{**e, "phase": phase} for e in sorted(picked, key=lambda e: (e["game"], e["ply"]))]
    return chosen


def reference(entry: Dict[str, Any], iterations: int, seed: int) -> Dict[str, Any]:
    result = rosen.search(entry["position"], iterations=iterations, seed=seed, threads=1)
    total = sum(m.visits for m in result.moves) or 1
    best = result.moves[0]
    return {"best_move": str(result.best_move), "value": round(result.winrate, 4),
            "share": round(best.visits / total, 4), "second": str(result.moves[1].move) if len(result.moves) > 1 else None,
            "depth": round(result.depth, 2)}


def main(argv: List[str] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(COMMITTED),
                   help=f"the suite file to write (default: the committed one, {COMMITTED})")
    p.add_argument("--positions", type=int, default=100, help="positions in all, half 2-player, half 4-player")
    p.add_argument("--games", type=int, default=40, help="self-play games per player count (default 40)")
    p.add_argument("--game-agent", default="mcts:iterations=1000", help="the agent playing the games")
    p.add_argument("--seed", type=int, default=2026, help="seed of the games and of the choice (default 2026)")
    p.add_argument("--reference-iterations", type=int, default=200_000, help="budget of each reference search")
    p.add_argument("--reference-seed", type=int, default=1, help="seed of each reference search")
    p.add_argument("--screen-iterations", type=int, default=5000, help="budget of the screening search")
    p.add_argument("--max-share", type=float, default=0.8,
                   help="skip positions where the screening search gives one move more than this share of "
                        "its visits (default 0.8; 1 keeps all)")
    p.add_argument("--threads", type=int, default=1, help="reference searches run at once (each on one thread)")
    args = p.parse_args(argv)
    for option in ("positions", "games", "reference_iterations", "screen_iterations", "threads"):
        if getattr(args, option) < 1:
            p.error(f"--{option.replace('_', '-')}: expected >= 1, got {getattr(args, option)}")
    if not 0 < args.max_share <= 1:
        p.error(f"--max-share: expected a share in (0, 1], got {args.max_share:g}")
    out = Path(args.out)
    if out.is_dir() or not out.parent.is_dir():  # found now, not after the searches
        p.error(f"--out: expected a file in an existing directory, got {args.out!r}")
    # The seeds and the game agent too (once: a traceback, the reference seed's after all the games).
    from rosen.agents import parse_agent_spec
    from rosen.errors import MAX_SEED

    for option, value, top in (("--seed", args.seed, MAX_SEED - 4), ("--reference-seed", args.reference_seed, MAX_SEED)):
        if not 0 <= value <= top:  # the games of the 4-player half are seeded seed + 4
            p.error(f"{option}: expected 0..{top}, got {value}")
    try:
        parse_agent_spec(args.game_agent)
    except ValueError as exc:
        p.error(f"--game-agent: {exc}")
    start = time.time()
    rng = random.Random(args.seed)
    chosen: List[Dict[str, Any]] = []
    for players, share in ((2, args.positions // 2), (4, args.positions - args.positions // 2)):
        counts = {phase: share // 3 + (i < share % 3) for i, phase in enumerate(PHASES)}
        by_phase = candidates(players, args.games, args.seed + players, args.game_agent, args.threads)
        accept = functools.partial(open_question, iterations=args.screen_iterations, max_share=args.max_share)
        chosen += [{**e, "players": players} for e in choose(by_phase, counts, rng, accept)]
    if len(chosen) < args.positions:
        print(f"warning: only {len(chosen)} of the {args.positions} positions asked for are left open by the "
              f"screening search in {args.games} games per player count; more --games give more", file=sys.stderr)
    if not chosen:
        print("make_bench_suite: no position to write", file=sys.stderr)
        return 1
    print(f"{len(chosen)} positions chosen ({time.time() - start:.0f} s); reference searches of "
          f"{args.reference_iterations} iterations ...", file=sys.stderr)
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        refs = list(pool.map(lambda e: reference(e, args.reference_iterations, args.reference_seed), chosen))
    positions, numbers = [], {}
    for entry, ref in zip(chosen, refs):
        key = (entry["players"], entry["phase"])
        numbers[key] = numbers.get(key, 0) + 1
        positions.append({"id": f"{entry['players']}p-{SHORT[entry['phase']]}-{numbers[key]:02d}",
                          "players": entry["players"], "phase": entry["phase"], "ply": entry["ply"],
                          "plies": entry["plies"], "fen": entry["position"].fen(hide_pile_order=True), **ref})
    produced = {
        "tool": "tools/make_bench_suite.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "games": f"rosen.selfplay.generate({args.games}, seed={args.seed}+players, players=2|4, "
                 f"agent={args.game_agent!r}), positions via rosen.encoding.positions_from_rows (pile order hidden)",
        "phase": "opening/middle/ending = first/second/last third of the game's plies",
        "choice": f"random.Random({args.seed}); one position per game and phase while games last; only "
                  f"positions where rosen.search(position, iterations={args.screen_iterations}, seed=0) gives its "
                  f"favourite at most {args.max_share:g} of the root visits (a move left open)",
        "reference": f"rosen.search(position, iterations={args.reference_iterations}, seed={args.reference_seed}, "
                     "threads=1), every other parameter at its default",
        "reference_params": rosen.SearchParams(iterations=args.reference_iterations, seed=args.reference_seed,
                                               threads=1).as_dict(),
        "value": "the reference's win rate of its best move, for the side to move (0..1)",
        "share": "the best move's share of the reference's root visits; second: the runner-up",
        "rosen": rosen.__version__, "commit": _commit(),
        "date": datetime.date.today().isoformat(), "seconds": round(time.time() - start),
    }
    parse_suite({"format": FORMAT, "produced": produced, "positions": positions})  # check before writing
    lines = ['{"format": "%s",' % FORMAT, ' "produced": ' + json.dumps(produced, indent=2).replace("\n", "\n ") + ",",
             ' "positions": [']
    lines += ["  " + json.dumps(p) + ("," if i + 1 < len(positions) else "") for i, p in enumerate(positions)]
    lines += [" ]}"]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(positions)} positions to {args.out} ({time.time() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
