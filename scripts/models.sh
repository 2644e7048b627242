#!/usr/bin/env bash
# Verifies the spin models of models/ exhaustively, in the small world of `rlock explore`
# (docs/explore.md, "The spin models"). For each model: spin's verdict (counterexample or none),
# the states stored, the depth reached, whether the search was complete, and pan's time; for a
# model with a counterexample, the shortest one (pan -i) replayed by `spin -t -p` into
# OUT/MODEL.trail.txt (its STEP lines are an order: `rlock explore --replay-trail FILE`) and its
# order on one line. A counterexample is a verdict, not a failure.
# Usage: scripts/models.sh [--events LIST] [--bound K] [--out DIR] [--orders] [MODEL...]
#   MODEL        ttl, watchdog, fenced-retry, fenced-claim (default: the four)
#   --events     comma-separated from expiry, pause, restart, failover, or none (default expiry,pause)
#   --bound K    refused tries per acquisition, extends and restarts per worker, 0 to 8 (default 2)
#   --out DIR    where the trails go (default models/out, ignored by git; installed: the state
#                directory's models/)
#   --orders     also count the world's orders and the losing ones, as rlock explore does: far
#                costlier (fenced-claim at bound 2: 13 million states, 2 GB, over a minute)
# Needs Debian's spin (SPIN: another spin binary) and gcc; spin and pan run in a temporary directory.
# Exit: 0 verified, 1 spin or pan failed, 2 bad arguments.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ALL_MODELS=(ttl watchdog fenced-retry fenced-claim)
ALL_EVENTS=(expiry pause restart failover)
MAX_BOUND=8  # all four events, watchdog: 1.9 million states, 16 s, 130 MB

models=() events=expiry,pause bound=2 out=$ROOT/models/out orders=no
[[ -f $ROOT/CMakeLists.txt ]] || out=$RUNS/models  # installed: share/rlock is not ours to write
while (($#)); do
    case $1 in
    -h | --help) script_help; exit 0 ;;
    --events) [[ -n ${2:-} ]] || usage_error "--events takes a list, as in --events expiry,pause"
              events=$2; shift ;;
    --bound) [[ ${2:-} =~ ^[0-9]+$ ]] && ((10#$2 <= MAX_BOUND)) ||
                 usage_error "--bound takes a number from 0 to $MAX_BOUND, as in --bound 2"
             bound=$((10#$2)); shift ;;
    --out) [[ -n ${2:-} ]] || usage_error "--out takes a directory"
           out=$2; shift ;;
    --orders) orders=yes ;;
    *) [[ " ${ALL_MODELS[*]} " == *" $1 "* ]] ||
           usage_error "unknown model '$1' (models: ${ALL_MODELS[*]}; usage: $(basename "$0") [--events LIST] [--bound K] [--out DIR] [--orders] [MODEL...])"
       models+=("$1") ;;
    esac
    shift
done
((${#models[@]})) || models=("${ALL_MODELS[@]}")

# The events as spin's -D flags, each 1 when chosen, 0 otherwise.
defines=(-DK="$bound")
declare -A chosen=()
if [[ $events != none ]]; then
    IFS=, read -ra names <<<"$events"
    for name in "${names[@]}"; do
        [[ " ${ALL_EVENTS[*]} " == *" $name "* ]] ||
            usage_error "unknown event '$name' in --events (events: ${ALL_EVENTS[*]}, or none)"
        chosen[$name]=1
    done
fi
for name in "${ALL_EVENTS[@]}"; do defines+=(-DEV_"${name^^}"="${chosen[$name]:-0}"); done

SPIN=${SPIN:-spin}
command -v "$SPIN" >/dev/null || die "spin is missing: install Debian's package spin (apt-get install spin)"
command -v gcc >/dev/null || die "gcc is missing: install Debian's package gcc (spin's verifier is C)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ROOT"/models/*.pml "$work"/
mkdir -p "$out"

# pan's count of a field, as in "errors: 2" or "800 states, stored".
pan_field() { sed -n "$2" "$1" | head -n 1; }

# Builds pan for MODEL in $work (its log: $work/MODEL.build). Safety only; REACH makes -i's
# shortest trail exact (the states stored stay the same), REVERSE tries worker A first. -O0: these
# state spaces take pan milliseconds, gcc -O2 seconds.
build_pan() {
    (cd "$work" && "$SPIN" "${defines[@]}" -a "$1.pml" && gcc -O0 -DSAFETY -DREACH -DREVERSE -o pan pan.c) \
        >"$work/$1.build" 2>&1 || { cat "$work/$1.build" >&2; die "$1: spin or gcc failed"; }
}

# The ends pan counts (-c0) when the order so far is part of the state (-DORDERS, kept by -o2 though
# only written): each whole order is then one end state, an error when it loses (ORDERS=1) or
# always (ORDERS=2). The state space becomes the tree of every prefix, hence -O2 and a larger hash.
count_ends() {  # count_ends MODEL ORDERS
    (cd "$work" && "$SPIN" -o2 -DORDERS="$2" "${defines[@]}" -a "$1.pml" &&
        gcc -O2 -DSAFETY -DNOREDUCE -o pan pan.c && ./pan -m10000 -w24 -c0) >"$work/$1.orders" 2>&1 ||
        die "$1: counting its orders failed: $(tail -n 1 "$work/$1.orders")"
    grep -q 'max search depth too small' "$work/$1.orders" && die "$1: counting its orders hit pan's depth"
    pan_field "$work/$1.orders" 's/.*errors: \([0-9]*\).*/\1/p'
}

# "  orders N, losing M" for MODEL, whose verification found ERRORS.
print_orders() {  # print_orders MODEL ERRORS
    local all losing=0
    all=$(count_ends "$1" 2)
    ((${2} == 0)) || losing=$(count_ends "$1" 1)
    echo "  orders $all, losing $losing"
}

echo "spin models: events ${events}, bound $bound ($("$SPIN" -V | head -n 1))"
for model in "${models[@]}"; do
    rm -f "$out/$model.trail.txt"
    # The whole state space: every error counted (-c0), none stops the search.
    build_pan "$model"
    (cd "$work" && ./pan -m10000 -w20 -c0) >"$work/$model.full" 2>&1 ||
        die "$model: pan failed: $(tail -n 1 "$work/$model.full")"
    errors=$(pan_field "$work/$model.full" 's/.*errors: \([0-9]*\).*/\1/p')
    states=$(pan_field "$work/$model.full" 's/^ *\([0-9]*\) states, stored.*/\1/p')
    depth=$(pan_field "$work/$model.full" 's/.*depth reached \([0-9]*\).*/\1/p')
    seconds=$(pan_field "$work/$model.full" 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p')
    complete=complete
    grep -q 'max search depth too small' "$work/$model.full" && complete=incomplete
    [[ -n $errors && -n $states ]] || die "$model: pan's report unread: $(tail -n 1 "$work/$model.full")"
    if ((errors == 0)); then
        echo "$model: none (states $states, depth $depth, $complete, ${seconds:-0} s)"
        [[ $orders == no ]] || print_orders "$model" 0
        continue
    fi
    # The shortest counterexample, by iterative deepening (-i).
    rm -f "$work/$model.pml.trail"
    (cd "$work" && ./pan -m10000 -w20 -i) >"$work/$model.short" 2>&1 ||
        die "$model: pan -i failed: $(tail -n 1 "$work/$model.short")"
    [[ -f $work/$model.pml.trail ]] || die "$model: pan -i wrote no trail"
    (cd "$work" && "$SPIN" "${defines[@]}" -T -t -p "$model.pml") >"$out/$model.trail.txt" 2>&1 ||
        die "$model: spin could not replay its trail"
    order=$(sed -n 's/^STEP //p' "$out/$model.trail.txt" | paste -sd' ')
    steps=$(wc -w <<<"$order")
    echo "$model: counterexample (states $states, depth $depth, $complete, ${seconds:-0} s, $errors errors)"
    echo "  shortest, $steps steps: $order"
    echo "  trail: $out/$model.trail.txt"
    [[ $orders == no ]] || print_orders "$model" "$errors"
done
