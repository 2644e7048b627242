#!/usr/bin/env bash
# rlock explore on the real servers, kept short: the orders of a tiny world counted (8), its run
# read by analyze and report; ttl's shortest losing order with the expiry (lab 1's shape) and none
# for fenced-claim; orders of a walk replayed twice, each giving the same words; a spin trail's
# STEP lines replayed; the failover on a pair of its own (a walk of one worker; ttl's loss, and
# fenced-claim holding, in the same order); bad input: one line, exit 2.
set -uo pipefail
rlock=$1 trail=$2
failover_port=${EXPLORE_FAILOVER_PORT:-6460}
source "$(dirname "$0")/checks.sh"
ex() { "$rlock" --dir "$work" explore "$@"; }

ex --strategy ttl --events none --bound 0 --run-dir "$work/tiny" >"$work/tiny.txt" 2>"$work/tiny.err"
check "a tiny world explores (exit $?)" test $? -eq 0
check "a tiny world has 8 orders, none losing" grep -q "bound 0: 8 orders, 0 losing" "$work/tiny.txt"
check "each order is kept in orders.txt" test "$(wc -l <"$work/tiny/orders.txt")" -eq 8
"$rlock" analyze "$work/tiny" >"$work/analyze.txt" 2>&1
check "analyze reads the walk's run" test $? -eq 0
"$rlock" report "$work/tiny" >/dev/null 2>&1
check "report reads the walk's run" test -s "$work/tiny/report.html"

ex --strategy ttl,fenced-claim --events expiry --bound 0 --json "$work/walk.json" >"$work/walk.txt" 2>"$work/walk.err"
check "ttl and fenced-claim explore (exit $?)" test $? -eq 0
shortest=$(perl -MJSON::PP -0777 -ne 'print join(" ", @{decode_json($_)->{explored}[0]{shortest}})' "$work/walk.json")
check "ttl's shortest loss is the expiry between A's read and write: $shortest" \
    test "$shortest" = "A:acquire A:read expire B:acquire B:read A:write A:release B:write B:release"
check "it is drawn" test -s "$(sed -n 's/^timeline: //p' "$work/walk.txt" | head -n 1)"
check "fenced-claim loses no order" perl -MJSON::PP -0777 -ne \
    'my $e = decode_json($_)->{explored}[1]; exit !($e->{losing} == 0 && !defined $e->{shortest} && $e->{orders} > 0)' \
    "$work/walk.json"

# A sample of ttl's orders, each replayed twice: the same log and verdict.
run=$(ls -d "$work"/explore/runs/* | head -n 1)
for n in 1 7 40 90; do
    order=$(sed -n "${n}p" "$run/orders.txt")
    ex --strategy ttl --events expiry --bound 0 --replay "$order" >"$work/once.txt" 2>&1
    ex --strategy ttl --events expiry --bound 0 --replay "$order" >"$work/twice.txt" 2>&1
    check "order $n replayed twice says the same" cmp -s "$work/once.txt" "$work/twice.txt"
done

ex --strategy ttl --replay-trail "$trail" >"$work/trail.txt" 2>&1
check "a spin trail replays (exit $?)" test $? -eq 0
check "its order is the trail's STEP lines" \
    grep -qx "order (9 moves): A:acquire A:read expire B:acquire B:read B:write B:release A:write A:release" "$work/trail.txt"
check "and it loses" grep -q "^verdict: LOSES: lost update" "$work/trail.txt"
# spin's shortest loss of fenced-retry, B first: the expiry of a lock B holds is the order's expire.
ex --strategy fenced-retry --replay \
    "B:acquire B:fence B:read expire A:acquire A:fence A:read B:write A:write A:release B:release" >"$work/b-first.txt" 2>&1
check "an expiry of B's lock replays (exit $?)" test $? -eq 0
check "and it loses" grep -q "^verdict: LOSES: lost update" "$work/b-first.txt"

# The failover: the replica never got the lock, the fence counter goes on (B's token is 2).
fo=(--events failover --bound 0 --failover-port "$failover_port")
ex --strategy ttl --workers 1 "${fo[@]}" >"$work/fo-walk.txt" 2>&1
check "a failover world walks (exit $?)" test $? -eq 0
check "one worker and the failover at each of its 5 points" grep -q "bound 0: 5 orders, 0 losing" "$work/fo-walk.txt"
ex --strategy ttl "${fo[@]}" --replay "A:acquire A:read failover B:acquire B:read A:write A:release B:write B:release" \
    >"$work/fo-ttl.txt" 2>&1
check "ttl's lock lost in a failover replays (exit $?)" test $? -eq 0
check "and it loses" grep -q "^verdict: LOSES: lost update" "$work/fo-ttl.txt"
ex --strategy fenced-claim "${fo[@]}" --replay \
    "A:acquire A:fence A:claim A:read failover B:acquire B:fence B:claim A:write A:release B:read B:write B:release" \
    >"$work/fo-claim.txt" 2>&1
check "fenced-claim's replays (exit $?)" test $? -eq 0
check "B's token follows A's" grep -q "B  lock acquired (TTL 60000ms, fencing token 2)" "$work/fo-claim.txt"
check "and it holds" grep -q "^verdict: holds" "$work/fo-claim.txt"

# refuses MESSAGE ARGS...: rlock explore ARGS says MESSAGE in one line, exit 2.
refuses() {
    local message=$1 rc; shift
    ex "$@" >/dev/null 2>"$work/err.txt"
    rc=$?
    check "$* exits 2 (got $rc)" test $rc -eq 2
    check "$* says: $message" test "$(wc -l <"$work/err.txt")" -eq 1 -a -n "$(grep -- "$message" "$work/err.txt")"
}
refuses "unknown strategy" --strategy nosuch
refuses "--strategy: 'pg-atomic' is not one of ttl,watchdog,fenced,fenced-retry,fenced-claim" --strategy pg-atomic
refuses "unknown event 'nap'" --strategy ttl --events expiry,nap
refuses "more than the 100000 a walk runs" --strategy fenced-claim --workers 3 --bound 6
refuses "'A:nap' is not a step" --strategy ttl --replay "A:acquire A:nap"
refuses "B:read, is not enabled there" --strategy ttl --replay "B:read"
refuses "cannot read the trail" --strategy ttl --replay-trail "$work/no-trail"
finish
