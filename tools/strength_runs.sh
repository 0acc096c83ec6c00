#!/bin/sh
# The matches behind docs/strength.md, one after the other, with the rosen match runner.
# Usage: tools/strength_runs.sh OUTDIR [GAMES] [THREADS] [NAME ...]
#   A log per match (OUTDIR/NAME.txt) and JSON lines per game (OUTDIR/NAME.jsonl); with no NAME
#   the main table runs. Run in the background, e.g.
#   nohup tools/strength_runs.sh /tmp/strength 200 2 > /tmp/strength.log 2>&1 &
set -eu
out=${1:?output directory}
games=${2:-200}
threads=${3:-1}
shift $(( $# < 3 ? $# : 3 ))
names=${*:-"m1000_vs_random m1000_vs_greedy m100_vs_m1000 m1000_vs_m1000 m10000_vs_m1000 m10000_vs_uct10000"}
seed=${SEED:-1000}  # first deal seed; SEED=1100 for a second, independent batch
mkdir -p "$out"
run() {  # name A B [extra options]
    name=$1; shift
    echo "== $name: rosen match $* --games $games --seed $seed --threads $threads  ($(date -u +%H:%M:%S))"
    python -m rosen match "$@" --games "$games" --seed "$seed" --threads "$threads" --progress off \
        --jsonl "$out/$name.jsonl" | tee "$out/$name.txt"
}
for name in $names; do
    case $name in
        m1000_vs_random)    run "$name" mcts:iterations=1000 random ;;
        m1000_vs_greedy)    run "$name" mcts:iterations=1000 greedy ;;
        m100_vs_m1000)      run "$name" mcts:iterations=100 mcts:iterations=1000 ;;
        m1000_vs_m1000)     run "$name" mcts:iterations=1000 mcts:iterations=1000 ;;
        m10000_vs_m1000)    run "$name" mcts:iterations=10000 mcts:iterations=1000 ;;
        m10000_vs_uct10000) run "$name" mcts:iterations=10000 mcts:iterations=10000,rollout=random ;;
        m100_vs_greedy)     run "$name" mcts:iterations=100 greedy ;;
        greedy_vs_random)   run "$name" greedy random ;;
        uct1000_vs_random)  run "$name" mcts:iterations=1000,rollout=random random ;;
        m1000_vs_greedy_4p) run "$name" mcts:iterations=1000 greedy --players 4 ;;
        m1000_vs_greedy_lazy) run "$name" mcts:iterations=1000 greedy --reshuffle lazy ;;
        sprt_m2000_vs_m1000) run "$name" mcts:iterations=2000 mcts:iterations=1000 --sprt 0,50 ;;
        *) echo "unknown run $name" >&2; exit 2 ;;
    esac
done
echo "== done ($(date -u +%H:%M:%S))"
