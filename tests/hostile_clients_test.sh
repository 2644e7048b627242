#!/usr/bin/env bash
# rlock chaos against clients that lie, flood or linger (tests/hostile_client.py): each one's
# misbehaviour is judged from what the harness served, or ends its trial as a client error within
# bounded time and memory, and nothing it started outlives its trial.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
cd "$root"
hostile="$root/tests/hostile_client.py"
# chaos MODE ARGS...: one campaign of the hostile client MODE (row h) under none, its table in
# $work/table.json, its stderr in $work/err.txt, its peak memory (KiB) in $work/peak.txt.
chaos() {
    local mode=$1 rc; shift
    /usr/bin/time -f %M -o "$work/peak.txt" "$rlock" --dir "$work/$mode" chaos --seed 1 --strategies none \
        --faults none --jobs 1 --json "$work/table.json" --client "h=$hostile $mode" "$@" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    check "chaos $mode exits 0 (got $rc)" test $rc -eq 0
}

chaos no-write --trials 2
check "a client's done with no write is counted" test "$(chaos_cell h none unwritten)" -ge 2
check "and is no anomaly" test "$(chaos_cell h none anomalies)" -eq 0
check "the table shows it" grep -q 'unwritten' "$work/out.txt"

chaos double-write --trials 2
check "an increment written twice is an anomaly" test "$(chaos_cell h none anomalies)" -eq 2
check "that created money" test "$(chaos_cell h none created)" -eq 2
check "its amount is the increments' added again" test "$(chaos_cell h none created_amount)" -gt 0
check "and lost none" test "$(chaos_cell h none lost_amount)" -eq 0
finish
