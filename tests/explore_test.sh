#!/usr/bin/env bash
# rlock explore on the real servers, kept short: the orders of a tiny world counted (8), its run
# read by analyze and report; ttl's shortest losing order with the expiry (lab 1's shape) and none
# for fenced-claim; the walk kept under its events' operation, its shortest loss replayed through
# `rlock chaos --replay-order` losing the same way; orders of a walk replayed twice, each giving the
# same words; each walk's floor; a walk of three jobs giving one job's orders and trials; three
# workers; a spin trail's
# STEP lines replayed; the failover on a pair of its own (a walk of one worker; ttl's loss, and
# fenced-claim holding, in the same order); an order with expire and failover kept as a trial under
# expire+failover; a walk and a campaign that restart and fail over leave
# no Redis behind; bad input: one line, exit 2.
set -uo pipefail
rlock=$1 trail=$2
failover_port=${EXPLORE_FAILOVER_PORT:-6460}
source "$(dirname "$0")/checks.sh"
own_redis 6462  # its walks and campaigns restart this one, not the shared one
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
check "each walk says its floor, measured in the same run" \
    test "$(grep -c '^floor: [0-9]* orders/s, their round trips back to back; the walk took [0-9.]*x' "$work/walk.txt")" -eq 2
check "and --json gives it" perl -MJSON::PP -0777 -ne \
    'exit !(2 == grep { $_->{floor_orders_per_second} > 0 && $_->{floor_ratio} > 0 } @{decode_json($_)->{explored}})' \
    "$work/walk.json"
shortest=$(perl -MJSON::PP -0777 -ne 'print join(" ", @{decode_json($_)->{explored}[0]{shortest}})' "$work/walk.json")
check "ttl's shortest loss is the expiry between A's read and write: $shortest" \
    test "$shortest" = "A:acquire A:read expire B:acquire B:read A:write A:release B:write B:release"
check "it is drawn" test -s "$(sed -n 's/^timeline: //p' "$work/walk.txt" | head -n 1)"
check "fenced-claim loses no order" perl -MJSON::PP -0777 -ne \
    'my $e = decode_json($_)->{explored}[1]; exit !($e->{losing} == 0 && !defined $e->{shortest} && $e->{orders} > 0)' \
    "$work/walk.json"

# The walk is kept under its events' operation; its shortest loss, replayed through rlock chaos as a
# trial, loses the same way, and the trial's operations print in their order.
run=$(ls -d "$work"/explore/runs/* | head -n 1)
check "ttl's walk is kept under the fault expire" \
    perl -MJSON::PP -0777 -ne 'exit !(join(",", @{decode_json($_)->{campaign}{faults}}) eq "expire")' "$run/run.json"
"$rlock" --dir "$work" chaos --account 251000 --strategies ttl --replay-order "$shortest" >"$work/as-trial.txt" 2>&1
check "the shortest loss replays through chaos (exit $?)" grep -qx "order (9 moves): $shortest" "$work/as-trial.txt"
ex --strategy ttl --events expiry --bound 0 --replay "$shortest" >"$work/as-order.txt" 2>&1
check "and loses the same way" test "$(grep '^verdict: LOSES' "$work/as-trial.txt")" = "$(grep '^verdict: ' "$work/as-order.txt")"
check "the order its log recorded is the order" grep -qx "recorded: $shortest" "$work/as-trial.txt"

# One job or three: the same orders in the same order, the same trials, the same shortest loss.
ex --strategy ttl --events expiry --bound 0 --jobs 1 --run-dir "$work/one-job" >"$work/one-job.txt" 2>&1
ex --strategy ttl --events expiry --bound 0 --jobs 3 --run-dir "$work/three-jobs" >"$work/three-jobs.txt" 2>&1
check "a walk of three jobs runs (exit $?)" grep -q "bound 0: [1-9][0-9]* orders" "$work/three-jobs.txt"
check "its orders are one job's, in the same order" cmp -s "$work/one-job/orders.txt" "$work/three-jobs/orders.txt"
trials() { gzip -dc "$1/trials.jsonl.gz" | perl -MJSON::PP -ne \
    'my $t = decode_json($_); print join(" ", $t->{number}, $t->{balance} // "-", scalar @{$t->{history}}), "\n"'; }
trials "$work/one-job" >"$work/one-job.trials"
check "and its trials' numbers and balances" \
    test -s "$work/one-job.trials" -a "$(trials "$work/three-jobs")" = "$(cat "$work/one-job.trials")"
check "and its shortest loss, logged on the first account" \
    cmp -s "$(ls -d "$work"/one-job/trials/*)/run.log" "$(ls -d "$work"/three-jobs/trials/*)/run.log"

# Three workers: fenced-claim holds in every order.
ex --strategy fenced-claim --workers 3 --events pause --bound 0 >"$work/three.txt" 2>&1
check "a world of three workers walks (exit $?)" \
    grep -q "fenced-claim: 3 workers, events pause, bound 0: 156 orders, 0 losing" "$work/three.txt"

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

# An order under expiry and failover, as a chaos trial: kept under expire+failover, analyzed again.
ef_order="A:acquire A:read expire failover B:acquire B:read A:write A:release B:write B:release"
"$rlock" --dir "$work" chaos --account 251000 --strategies ttl --failover-port "$failover_port" --replay-order "$ef_order" \
    >"$work/ef.txt" 2>&1
check "an order with expire and failover runs as a trial (exit $?)" grep -qx "recorded: $ef_order" "$work/ef.txt"
check "and loses" grep -q "^verdict: LOSES: lost update" "$work/ef.txt"
ef_run=$(sed -n 's/^run: \([^ ]*\) .*/\1/p' "$work/ef.txt")
"$rlock" analyze "$ef_run" --json "$work/ef.json" >/dev/null 2>&1
check "its kept trial's log gives its order back" \
    test "$("$rlock" explore --order-of "$ef_run/trials/ttl-expire+failover-0")" = "$ef_order"
check "analyze reads it under expire+failover" perl -MJSON::PP -0777 -ne \
    'my $c = decode_json($_)->{cells}[0]; exit !($c->{fault} eq "expire+failover" && $c->{lost_updates} == 1)' "$work/ef.json"

# Every restart of a Redis rlock started goes through the launcher that started it: a walk that
# restarts and fails over, and a campaign that does, end, and leave no Redis of theirs behind and
# nothing on a port they were not given.
listening() { ss -ltnH "( sport = :$1 )" | grep -q .; }
default_taken=$(listening 6379 && echo yes)
timeout 60 "$rlock" --dir "$work" explore --strategy ttl --workers 1 --events restart,failover --bound 0 \
    --failover-port "$failover_port" >"$work/rf-walk.txt" 2>&1
rc=$?
check "a walk with restart and failover ends (exit $rc)" test $rc -eq 0
check "and runs its orders" grep -q "bound 0: [1-9][0-9]* orders" "$work/rf-walk.txt"
timeout 60 "$rlock" --dir "$work" chaos --account 251000 --strategies ttl --faults redis-restart,failover --trials 2 --seed 7 --jobs 1 \
    --failover-port "$failover_port" >"$work/rf-chaos.txt" 2>&1
rc=$?
check "a campaign with redis-restart and failover ends (exit $rc)" test $rc -eq 0
check "no Redis of theirs is left" test -z "$(pgrep -f "redis-server $work/")"
check "nothing listens on 6379" test -n "$default_taken" -o -z "$(listening 6379 && echo yes)"
check "nor on the failover ports" test -z "$(listening "$failover_port" && echo yes)$(listening $((failover_port + 1)) && echo yes)"
for pid in $(pgrep -f "redis-server $work/"); do kill -9 "$pid"; done  # what a failing binary left

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
refuses "--jobs" --strategy ttl --jobs 0
refuses "more than the 100000 a walk runs" --strategy fenced-claim --workers 3 --bound 6
refuses "'A:nap' is not a step" --strategy ttl --replay "A:acquire A:nap"
refuses "B:read, is not enabled there" --strategy ttl --replay "B:read"
refuses "cannot read the trail" --strategy ttl --replay-trail "$work/no-trail"
refuses "the order is empty" --strategy ttl --replay ""
refuses "give one of them" --strategy ttl --replay "A:acquire" --json "$work/replay.json"
refuses "none stands alone" --strategy ttl --events none,expiry
refuses "names 'expiry' twice" --strategy ttl --events expiry,expiry
printf 'STEP A:acquire\nSTEP \033]0;owned\007\n' >"$work/escapes-trail.txt"
refuses 'x1B]0;owned' --strategy ttl --replay-trail "$work/escapes-trail.txt"
check "the trail's error line holds no raw escape" test -z "$(grep -P '\x1b|\x07' "$work/err.txt")"
"$rlock" --dir "$work" chaos --strategies ttl,watchdog --replay-order "A:acquire" >/dev/null 2>"$work/err.txt"
check "--replay-order with two strategies exits 2 in one line ($?)" test $? -eq 2 -a "$(wc -l <"$work/err.txt")" -eq 1
finish
