#!/bin/sh
# The matches behind docs/strength.md, one after the other, with the rosen match runner.
# Usage: tools/strength_runs.sh OUTDIR [GAMES] [THREADS]   (a log per match, JSON lines per game)
# Run in the background: nohup tools/strength_runs.sh /tmp/strength 200 2 > /tmp/strength.log 2>&1 &
set -eu
out=${1:?output directory}
games=${2:-200}
threads=${3:-1}
seed=1000
mkdir -p "$out"
run() {  # name A B
    name=$1; shift
    echo "== $name: rosen match $* --games $games --seed $seed --threads $threads  ($(date -u +%H:%M:%S))"
    python -m rosen.cli match "$@" --games "$games" --seed "$seed" --threads "$threads" --progress off \
        --jsonl "$out/$name.jsonl" | tee "$out/$name.txt"
}
run m1000_vs_random   mcts:iterations=1000 random
run m1000_vs_greedy   mcts:iterations=1000 greedy
run m100_vs_m1000     mcts:iterations=100 mcts:iterations=1000
run m1000_vs_m1000    mcts:iterations=1000 mcts:iterations=1000
run m10000_vs_m1000   mcts:iterations=10000 mcts:iterations=1000
run m10000_vs_uct10000 mcts:iterations=10000 mcts:iterations=10000,rollout=random
echo "== done ($(date -u +%H:%M:%S))"
