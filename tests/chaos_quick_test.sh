#!/usr/bin/env bash
# rlock chaos --quick against the servers of scripts/test.sh: exit 0 (no anomaly where none is
# expected), anomalies for ttl under pause, none for fenced-claim and pg-row-lock, a JSON table with
# every cell, and each anomalous trial kept where `rlock showlog --dir` reads it; then the same for
# a few redis-restart trials.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
cell() { # cell STRATEGY FAULT FIELD: one number from the JSON table
    S=$1 F=$2 K=$3 perl -MJSON::PP -0777 -ne 'for my $c (@{decode_json($_)->{cells}}) {
        print $c->{$ENV{K}} if $c->{strategy} eq $ENV{S} && $c->{fault} eq $ENV{F} }' "$work/table.json"
}

"$rlock" --dir "$work" chaos --quick --seed 1 --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt"
check "chaos --quick exits 0 (got $rc)" test $rc -eq 0
check "the JSON table has 8 cells" test "$(perl -MJSON::PP -0777 -ne 'print scalar @{decode_json($_)->{cells}}' "$work/table.json")" -eq 8
check "ttl under pause shows anomalies" test "$(cell ttl pause anomalies)" -gt 0
check "ttl under pause lost money" test "$(cell ttl pause lost_amount)" -gt 0
check "fenced-claim under pause shows none" test "$(cell fenced-claim pause anomalies)" -eq 0
check "pg-row-lock under pause shows none" test "$(cell pg-row-lock pause anomalies)" -eq 0
kept=$(ls -d "$work"/chaos/trials/ttl-pause-* 2>/dev/null | head -n 1)
check "an anomalous trial is kept" test -n "$kept"
check "showlog reads a kept trial" bash -c "'$rlock' --dir '$kept' showlog | grep -q 'SIGSTOP to'"
check "progress went to stderr" grep -q 'trials' "$work/err.txt"

# redis-restart: the shared Redis is crashed and started again once a trial's first holder has read
# (this test runs alone). Without fencing the restart hands the lock to a second holder.
"$rlock" --dir "$work" chaos --strategies ttl,fenced-claim --faults redis-restart --trials 5 --seed 1 \
    --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/out.txt"
check "chaos redis-restart exits 0 (got $rc)" test $rc -eq 0
check "ttl under redis-restart shows anomalies" test "$(cell ttl redis-restart anomalies)" -gt 0
check "fenced-claim under redis-restart shows none" test "$(cell fenced-claim redis-restart anomalies)" -eq 0
check "the restart is in a kept trial's log" bash -c "'$rlock' --dir \"\$(ls -d '$work'/chaos/trials/ttl-redis-restart-* | head -n 1)\" showlog | grep -q 'started again'"

finish
