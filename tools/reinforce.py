"""The reinforcement loop: self-play with the best network, train a candidate, gate it, promote it.

Generation g runs three steps, each one `rosen` command (printed, and logged when it finishes):

  selfplay  rosen selfplay --agent mcts:evaluator=BEST,iterations=N --out DIR/gen-g/selfplay
            (before any network is promoted: the plain mcts:iterations=N)
  train     rosen train --data <the last --window generations' self-play> --init BEST
            --out DIR/gen-g/candidate.npz (without a best yet: from random weights)
  gate      rosen match mcts:evaluator=CANDIDATE,... mcts:evaluator=BEST,... --sprt 0,20
            (without a best yet: against the plain mcts); the candidate is promoted -- becomes
            BEST, copied to DIR/best.npz -- exactly when the SPRT accepts H1

    python tools/reinforce.py --dir loop --generations 3 --games 200 --iterations 200 --dry-run
    python tools/reinforce.py --dir loop --generations 3 --games 200 --iterations 200

DIR/log.jsonl holds the loop's settings (first line) and one line per finished step: its
command, exit status, seconds and the command's JSON output. Rerunning the same command skips
the finished steps and goes on (a step cut short is run again: self-play resumes its shards,
training and gating start over and, being seeded, give the same result); a larger
--generations extends a finished loop. Other settings in the same DIR are refused once a step
has finished (before that, a rerun may correct them). --dry-run
prints the commands still to run, assuming every gate promotes, and writes nothing.
See docs/learning.md.
"""
from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

STEPS = ("selfplay", "train", "gate")
LOG = "log.jsonl"
#: Settings that change what the loop computes; resuming with others is refused.
SETTINGS = ("games", "iterations", "agent_options", "selfplay_options", "window", "epochs", "hidden", "train_options",
            "gate_games", "sprt", "seed")

Execute = Callable[[List[str]], Tuple[int, str]]


def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", required=True, help="the loop's directory (created; rerun to resume)")
    p.add_argument("--generations", type=int, default=5, help="generations to reach (default 5)")
    p.add_argument("--games", type=int, default=1000, help="self-play games per generation (default 1000)")
    p.add_argument("--iterations", type=int, default=400, help="search iterations per move, self-play and gate (default 400)")
    p.add_argument("--agent-options", default="",
                   help="more mcts options for every agent, e.g. prior_weight=1 (default none)")
    p.add_argument("--selfplay-options", default="--temperature-plies 8",
                   help="more rosen selfplay options (default '--temperature-plies 8')")
    p.add_argument("--window", type=int, default=4, help="train on the last K generations' self-play (default 4)")
    p.add_argument("--epochs", type=int, default=10, help="rosen train --epochs (default 10)")
    p.add_argument("--hidden", default="128,64", help="rosen train --hidden for the first network (default 128,64)")
    p.add_argument("--train-options", default="", help="more rosen train options, e.g. '--lr 3e-4' (default none)")
    p.add_argument("--gate-games", type=int, default=400, help="most games of a gate match (default 400)")
    p.add_argument("--sprt", default="0,20", help="the gate's SPRT elo0,elo1 (default 0,20)")
    p.add_argument("--seed", type=int, default=0, help="seed of the loop: every step's seed derives from it")
    p.add_argument("--threads", type=int, default=2, help="threads of self-play and of the gate (results do not depend on it)")
    p.add_argument("--dry-run", action="store_true", help="print the commands still to run; write nothing")
    args = p.parse_args(argv)
    if any(c in str(Path(args.dir).resolve()) for c in ",= "):
        p.error("--dir: the path goes into agent specs (mcts:evaluator=PATH,...): no ',', '=' or spaces")
    if args.generations < 1 or args.games < 1 or args.iterations < 1 or args.window < 1 or args.epochs < 1:
        p.error("--generations, --games, --iterations, --window and --epochs must be >= 1")
    if args.gate_games < 2 or args.gate_games % 2:
        p.error(f"--gate-games: expected an even number >= 2 (the gate plays deal pairs), got {args.gate_games}")
    # The settings are checked here, before any step runs (a bad one would cost the steps before it).
    from rosen.cli.train import _hidden
    from rosen.errors import RosenError
    from rosen.match.stats import parse_sprt

    for option, check in (("--sprt", parse_sprt), ("--hidden", _hidden)):
        try:
            check(getattr(args, option[2:]))
        except RosenError as exc:
            p.error(f"{option}{str(exc)[len(option) - 2:]}")
    from rosen.agents import parse_agent_spec

    try:
        parse_agent_spec(agent(args.iterations, args.agent_options)).build(0)
    except ValueError as exc:
        p.error(f"--agent-options: {exc}")
    # The loop sets these itself (a later duplicate key wins in a spec: evaluator= there once made
    # every gate play the same network against itself), and its searches are by iterations only
    # (a time limit would make self-play and the gates depend on the machine's speed).
    own = sorted({item.split("=", 1)[0].strip() for item in args.agent_options.split(",") if item.strip()}
                 & {"evaluator", "iterations", "time_ms", "movetime", "clock_ms"})
    if own:
        p.error(f"--agent-options: {own[0]} is the loop's own (--iterations, and each generation's network; "
                "no time limits)")
    if not 1 <= args.threads <= 256:
        p.error(f"--threads: expected 1..256, got {args.threads}")
    if args.generations > 10**6:
        p.error(f"--generations: expected 1..1000000, got {args.generations}")
    # Generation g trains with --seed seed + g (rosen train takes at most 2**63 - 1).
    top = 2**63 - 1 - args.generations
    if not 0 <= args.seed <= top:
        p.error(f"--seed: expected 0..{top}, got {args.seed}")
    # Generation g's gate plays the deal pairs from 10**6 * (g + 1) + seed on (below), one a pair:
    # more than 2 * 10**6 games would replay the next generation's deals (F104).
    if args.gate_games > 2 * 10**6:
        p.error(f"--gate-games: expected an even number from 2 to 2000000 (each generation's gate has 10**6 "
                f"deal pairs of its own), got {args.gate_games}")
    for option, command in (("selfplay_options", ["selfplay", "--out", "x"]), ("train_options", ["train"])):
        flag = f"--{option.replace('_', '-')}"
        try:
            extra = shlex.split(getattr(args, option))
        except ValueError as exc:
            p.error(f"{flag}: {exc} in {getattr(args, option)!r}")
        _check_rosen_options(p, flag, command + extra)
    if Path(args.dir).exists() and not Path(args.dir).is_dir():
        p.error(f"--dir: {args.dir!r} is a file, not a directory")
    return args


def _check_rosen_options(p: argparse.ArgumentParser, flag: str, argv: List[str]) -> None:
    """Refuse options that `rosen ARGV` would not parse (an unknown option, a value of the wrong type)."""
    import contextlib
    import io

    from rosen.cli import build_parser

    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):
            build_parser().parse_args(argv)
    except SystemExit:
        lines = [line for line in said.getvalue().splitlines() if "error:" in line]
        p.error(f"{flag}: {lines[-1].split('error:', 1)[1].strip() if lines else 'not options of rosen ' + argv[0]}")


def agent(iterations: int, extra: str, evaluator: Optional[str] = None) -> str:
    options = ([f"evaluator={evaluator}"] if evaluator else []) + [f"iterations={iterations}"]
    return "mcts:" + ",".join(options + ([extra] if extra else []))


def gen_dir(root: Path, g: int) -> Path:
    return root / f"gen-{g:03d}"


def commands(args: argparse.Namespace, root: Path, g: int, best: Optional[str]) -> Dict[str, List[str]]:
    """The `rosen` argument lists of generation g's steps, given the best network before it."""
    here = gen_dir(root, g)
    candidate = str(here / "candidate.npz")
    data = [str(gen_dir(root, h) / "selfplay") for h in range(max(0, g - args.window + 1), g + 1)]
    train = ["train", "--data", *data, "--out", candidate, "--epochs", str(args.epochs), "--seed", str(args.seed + g),
             "--curves", str(here / "curves.json"), "--plot", str(here / "curves.png"), "--json"]
    train += ["--init", best] if best else ["--hidden", args.hidden]
    return {
        "selfplay": ["selfplay", "--games", str(args.games), "--agent", agent(args.iterations, args.agent_options, best),
                     "--seed", str(args.seed + g), "--threads", str(args.threads), "--out", str(here / "selfplay"),
                     "--progress", "off", "--json", *shlex.split(args.selfplay_options)],
        "train": train + shlex.split(args.train_options),
        # Fresh deals each generation: pair i of generation g's gate is deal 10**6 * (g + 1) + seed + i.
        "gate": ["match", agent(args.iterations, args.agent_options, candidate),
                 agent(args.iterations, args.agent_options, best), "--games", str(args.gate_games),
                 f"--sprt={args.sprt}", "--seed", str(10**6 * (g + 1) + args.seed), "--threads", str(args.threads),
                 "--jsonl", str(here / "gate.jsonl"), "--progress", "off", "--json"],
    }


def run_rosen(argv: List[str]) -> Tuple[int, str]:
    """Run `rosen ARGV` with this Python; stderr (progress, epochs) passes through, stdout is returned."""
    done = subprocess.run([sys.executable, "-m", "rosen", *argv], stdout=subprocess.PIPE, text=True)
    return done.returncode, done.stdout


def read_log(root: Path) -> List[Dict[str, Any]]:
    path = root / LOG
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def append_log(root: Path, record: Dict[str, Any]) -> None:
    with open(root / LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
        f.flush()


def main(argv: Optional[List[str]] = None, execute: Execute = run_rosen) -> int:
    args = parse_args(argv)
    root = Path(args.dir)
    settings = {key: getattr(args, key) for key in SETTINGS}
    log = read_log(root)
    if len(log) == 1 and log[0].get("settings") != settings and not args.dry_run:
        # No step has finished: nothing was made with the old settings, so they may still change.
        (root / LOG).unlink()
        log = []
    if log and log[0].get("settings") != settings:
        print(f"reinforce: {root / LOG} holds a loop with other settings {log[0].get('settings')}; "
              "rerun with those or use another --dir", file=sys.stderr)
        return 2
    done = {(r["generation"], r["step"]): r for r in log[1:]}
    best: Optional[str] = None
    for r in log[1:]:
        if r["step"] == "gate" and r["promoted"]:
            best = r["best"]
    if not args.dry_run and not log:
        root.mkdir(parents=True, exist_ok=True)
        append_log(root, {"settings": settings})
    for g in range(args.generations):
        best = _generation(args, root, g, best, done, execute)
        if best is False:
            return 1
    if args.dry_run:
        print(f"reinforce: dry run: {args.generations} generation(s) listed above; nothing was run")
    else:
        print(f"reinforce: {args.generations} generation(s) done; best network: {best or 'none promoted yet'}")
    return 0


def _generation(args, root: Path, g: int, best: Optional[str], done: Dict, execute: Execute):
    """Run generation g's unfinished steps; the best network after it (False if a step failed)."""
    steps = commands(args, root, g, best)
    for step in STEPS:
        line = "$ rosen " + shlex.join(steps[step])
        if (g, step) in done:
            print(f"[gen {g} {step}] done  {line}")
            if step == "gate" and done[(g, step)]["promoted"]:
                best = done[(g, step)]["best"]
            continue
        print(f"[gen {g} {step}] {line}", flush=True)
        if args.dry_run:
            if step == "gate":  # assume the candidate is promoted, to show the next generations' commands
                best = str(gen_dir(root, g) / "candidate.npz")
            continue
        gen_dir(root, g).mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        rc, out = execute(steps[step])
        if rc != 0:
            print(f"reinforce: generation {g} {step} failed (exit {rc}); rerun to resume from this step",
                  file=sys.stderr)
            return False
        record = {"generation": g, "step": step, "command": line[2:], "rc": rc,
                  "seconds": round(time.monotonic() - start, 3), "output": json.loads(out) if out.strip() else None}
        if step == "gate":
            record["promoted"] = record["output"]["sprt"] == "H1"
            if record["promoted"]:
                best = str(gen_dir(root, g) / "candidate.npz")
                shutil.copyfile(best, root / "best.npz.tmp")
                (root / "best.npz.tmp").replace(root / "best.npz")
            record["best"] = best
            print(f"[gen {g} gate] score {record['output']['score']:.1%} over {record['output']['games']} games, "
                  f"SPRT {record['output']['sprt']}: {'promoted' if record['promoted'] else 'kept the best'}")
        append_log(root, record)
    return best


if __name__ == "__main__":
    sys.exit(main())
