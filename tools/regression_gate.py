"""The regression gate: run before changing the search's defaults (docs/search.md).

A short, fixed-seed match of a candidate search against the current defaults at equal
iterations and at equal time, on the same 100 deal pairs every time. It fails (exit 1) when the
candidate is clearly worse -- the upper end of its 95% Elo interval below zero -- in either
match; it does not prove a gain (that takes an SPRT or a 400-game match, docs/strength.md).

    python tools/regression_gate.py "mcts:temperature=3"            # a candidate's changes
    python tools/regression_gate.py "mcts:temperature=3" --games 100 --threads 2
    python tools/regression_gate.py mcts --baseline "mcts:minimax_weight=0"   # a new default against the old
    python tools/regression_gate.py "mcts:evaluator=builtin-team,minimax_values=network" \
        --baseline "mcts:evaluator=builtin-team" --players 4                     # the team game's

About three minutes on two cores with the defaults below.
"""
from __future__ import annotations

import argparse
import sys

from rosen.agents import parse_agent_spec
from rosen.match import run_match
from rosen.match.stats import format_elo

SEED = 424_242  #: the gate's deals; never change it, or old gate results stop being comparable


def with_budget(spec: str, budget: str, name: str = "candidate") -> str:
    """The ``mcts:`` options of ``spec`` (the argument ``name``) plus a budget (``iterations=N`` or
    ``time_ms=MS``); a spec of another kind raises ValueError naming ``name``."""
    parsed = parse_agent_spec(spec)
    if parsed.kind != "mcts":
        raise ValueError(f"{name}: expected an mcts:... spec, got {spec!r}")
    options = {k: v for k, v in parsed.options.items() if k not in ("iterations", "time_ms")}
    key, value = budget.split("=")
    options.update({"iterations": 0, key: int(value)} if key == "time_ms" else {key: int(value)})
    return "mcts:" + ",".join(f"{k}={v}" for k, v in options.items())


def main(argv=None) -> int:
    """Exit 0: no match shows the candidate clearly worse; 1: one does (FAIL); 2: bad arguments."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("candidate", help="an mcts:... spec; options it does not name keep the current defaults")
    p.add_argument("--baseline", default="mcts",
                   help="the mcts:... spec to beat (default: mcts, the current defaults)")
    p.add_argument("--games", type=int, default=200, help="games per match, even (default 200 = 100 pairs)")
    p.add_argument("--iterations", type=int, default=1000, help="budget of the equal-iterations match (default 1000)")
    p.add_argument("--time-ms", type=int, default=20, help="budget of the equal-time match (default 20)")
    p.add_argument("--threads", type=int, default=2, help="games in parallel (the equal-iterations match does not depend on it; the equal-time one, "
                        "like any timed search, depends on the machine's load)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2,
                   help="the 2-player game or the 4-player team game (R13) (default 2)")
    args = p.parse_args(argv)
    if args.games < 2 or args.games % 2 or args.games > 10**9:
        p.error(f"--games: expected an even number from 2 to 10**9 (deal pairs), got {args.games}")
    for option, value in (("--iterations", args.iterations), ("--time-ms", args.time_ms)):
        if value < 1:
            p.error(f"{option}: expected >= 1, got {value}")
    if not 1 <= args.threads <= 256:
        p.error(f"--threads: expected 1..256, got {args.threads}")
    # Both matches' four agents are built first: a bad option fails here, not after the first match.
    matches = []
    for budget in (f"iterations={args.iterations}", f"time_ms={args.time_ms}"):
        pair = []
        for name, spec in (("candidate", args.candidate), ("--baseline", args.baseline)):
            try:
                spec = with_budget(spec, budget, name)
                close = getattr(parse_agent_spec(spec).build(0), "close", None)
            except ValueError as exc:
                message = str(exc)
                p.error(message if message.startswith(f"{name}: ") else f"{name}: {message}")
            if close is not None:
                close()
            pair.append(spec)
        matches.append(pair)
    failed = False
    for a, b in matches:
        result = run_match(a, b, games=args.games, seed=SEED, threads=args.threads, players=args.players)
        est = result.estimate
        worse = est.elo_high < 0
        failed |= worse
        game = "" if args.players == 2 else f"{args.players} players: "
        print(f"{'FAIL' if worse else 'ok  '}  {game}{a}  vs  {b}: score {est.score:.1%} "
              f"[{est.low:.1%}, {est.high:.1%}], elo {format_elo(est.elo)} "
              f"[{format_elo(est.elo_low)}, {format_elo(est.elo_high)}], {result.seconds:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
