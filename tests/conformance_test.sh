#!/usr/bin/env bash
# The protocol's conformance test: `rlock client --strategy S` takes its lock as the built-in
# strategy S does and serves nothing itself (docs/clients.md), so its cells must agree with the
# built-in ones: under none and pause, the anomaly rates of rlock-ttl and ttl, and of
# rlock-fenced-claim and fenced-claim, lie within each other's 95% Wilson intervals. Bad strategies
# are one line and the usage exit code.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
trials=20
"$rlock" --dir "$work" chaos --seed 7 --strategies ttl,fenced-claim --faults none,pause --trials $trials --jobs 4 \
    --client "rlock-ttl=$rlock client --strategy ttl" --client "rlock-fenced-claim=$rlock client --strategy fenced-claim" \
    --client-safe rlock-fenced-claim --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
grep -v '^chaos: [0-9]*/' "$work/out.txt" "$work/err.txt"
check "chaos exits 0 (got $rc)" test $rc -eq 0

# overlap A B FAULT: the two cells' intervals overlap
overlap() {
    local a_low a_high b_low b_high
    a_low=$(chaos_cell "$1" "$3" ci_low) a_high=$(chaos_cell "$1" "$3" ci_high)
    b_low=$(chaos_cell "$2" "$3" ci_low) b_high=$(chaos_cell "$2" "$3" ci_high)
    perl -e 'exit !($ARGV[0] <= $ARGV[3] && $ARGV[2] <= $ARGV[1])' "$a_low" "$a_high" "$b_low" "$b_high"
}
for fault in none pause; do
    for strategy in ttl fenced-claim; do
        check "rlock-$strategy under $fault ran $trials trials" test "$(chaos_cell "rlock-$strategy" $fault trials)" -eq $trials
        check "rlock-$strategy under $fault had no client error" test "$(chaos_cell "rlock-$strategy" $fault client_error)" -eq 0
        check "rlock-$strategy and $strategy agree under $fault" overlap "rlock-$strategy" "$strategy" $fault
    done
done
# The agreement means something: a pause makes both ttl rows lose money, and neither fenced-claim row.
for row in ttl rlock-ttl; do
    check "$row under pause lost money" test "$(chaos_cell $row pause lost_amount)" -gt 0
done
for row in fenced-claim rlock-fenced-claim; do
    check "$row under pause shows no anomaly" test "$(chaos_cell $row pause anomalies)" -eq 0
done

# bad_client MESSAGE ARGS... <INPUT: rlock client ARGS says MESSAGE in one line and exits 2.
bad_client() {
    local message=$1 rc; shift
    "$rlock" client "$@" >/dev/null 2>"$work/err.txt"
    rc=$?
    check "client $* exits 2 (got $rc)" test $rc -eq 2
    check "client $* says: $message" test "$(wc -l <"$work/err.txt")" -eq 1 -a -n "$(grep "$message" "$work/err.txt")"
}
bad_client "unknown strategy 'nope' (known: ttl, watchdog" --strategy nope </dev/null
bad_client 'pg-row-lock locks inside PostgreSQL' --strategy pg-row-lock </dev/null
bad_client 'redlock needs three Redis servers' --strategy redlock <<<'{"type":"init","protocol":1,"redis":["'"$REDIS_URL"'"],"ttl_ms":200}'
finish
