#!/usr/bin/env bash
# The trial's limit grows with the TTL and the drawn pause: under pause with a TTL of 5 s, a plain
# TTL lock's paused holders resume and write (lost updates in every trial), none killed as stuck
# before it wrote.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"

"$rlock" --dir "$work/lab" chaos --strategies ttl --faults pause --ttl 5000 --trials 6 --jobs 2 --seed 11 --account 320000 \
    --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
check "chaos exits 0 (got $rc)" test $rc -eq 0
check "no paused holder is stuck (got $(chaos_cell ttl pause stuck))" test "$(chaos_cell ttl pause stuck)" = 0
check "ttl under pause loses updates in 5 of 6 trials or more (got $(chaos_cell ttl pause lost_updates))" \
    test "$(chaos_cell ttl pause lost_updates)" -ge 5
finish
