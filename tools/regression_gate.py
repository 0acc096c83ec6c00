"""The regression gate: run before changing the search's defaults (docs/search.md).

A short, fixed-seed match of a candidate search against the current defaults at equal
iterations and at equal time, on the same 100 deal pairs every time. It fails (exit 1) when the
candidate is clearly worse -- the upper end of its 95% Elo interval below zero -- in either
match; it does not prove a gain (that takes an SPRT or a 400-game match, docs/strength.md).

    python tools/regression_gate.py "mcts:temperature=3"            # a candidate's changes
    python tools/regression_gate.py "mcts:temperature=3" --games 100 --threads 2
    python tools/regression_gate.py mcts --baseline "mcts:minimax_weight=0"   # a new default against the old

About three minutes on two cores with the defaults below.
"""
from __future__ import annotations

import argparse
import sys

from rosen.agents import parse_agent_spec
from rosen.match import run_match
from rosen.match.stats import format_elo

SEED = 424_242  #: the gate's deals; never change it, or old gate results stop being comparable


def with_budget(spec: str, budget: str) -> str:
    """The candidate's ``mcts:`` options plus a budget (``iterations=N`` or ``time_ms=MS``)."""
    parsed = parse_agent_spec(spec)
    if parsed.kind != "mcts":
        raise SystemExit(f"candidate: expected an mcts:... spec, got {spec!r}")
    options = {k: v for k, v in parsed.options.items() if k not in ("iterations", "time_ms")}
    key, value = budget.split("=")
    options.update({"iterations": 0, key: int(value)} if key == "time_ms" else {key: int(value)})
    return "mcts:" + ",".join(f"{k}={v}" for k, v in options.items())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("candidate", help="an mcts:... spec; options it does not name keep the current defaults")
    p.add_argument("--baseline", default="mcts",
                   help="the mcts:... spec to beat (default: mcts, the current defaults)")
    p.add_argument("--games", type=int, default=200, help="games per match (default 200 = 100 pairs)")
    p.add_argument("--iterations", type=int, default=1000, help="budget of the equal-iterations match")
    p.add_argument("--time-ms", type=int, default=20, help="budget of the equal-time match")
    p.add_argument("--threads", type=int, default=2, help="games in parallel (results do not depend on it)")
    args = p.parse_args(argv)
    failed = False
    for budget in (f"iterations={args.iterations}", f"time_ms={args.time_ms}"):
        a, b = with_budget(args.candidate, budget), with_budget(args.baseline, budget)
        result = run_match(a, b, games=args.games, seed=SEED, threads=args.threads)
        est = result.estimate
        worse = est.elo_high < 0
        failed |= worse
        print(f"{'FAIL' if worse else 'ok  '}  {a}  vs  {b}: score {est.score:.1%} "
              f"[{est.low:.1%}, {est.high:.1%}], elo {format_elo(est.elo)} "
              f"[{format_elo(est.elo_low)}, {format_elo(est.elo_high)}], {result.seconds:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
