#!/usr/bin/env bash
# rlock chaos interrupted: SIGTERM or SIGINT stops a campaign cleanly (exit 6; killed after 30 s), with
# its jobs, workers and the servers they started (failover pairs, stalled Redis, Redlock servers)
# gone, its Redis running (a redis-restart trial may have been mid-crash), and its run sealed
# as interrupted, which `rlock analyze` says (exit 6). A second signal kills at once (130), and
# nothing outlives it. After SIGKILL mid-restart its Redis answers again within 10 s. A
# second campaign on the same data directory is refused (exit 2).
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
own_redis 6766  # its redis-restart and redis-stall strike this one, not the shared one
failover_port=${RLOCK_TEST_FAILOVER_PORT:-6760} redlock_port=${RLOCK_TEST_REDLOCK_PORT:-6780}
job_ports=$(seq "$failover_port" $((failover_port + 3)); seq "$redlock_port" $((redlock_port + 5)))

# start LAB FAULTS: a campaign of ttl and redlock under FAULTS in the background ($pid), once its
# first trials are recorded.
start() {
    # as a shell starts a command in the foreground: a process group of its own, SIGINT not ignored
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.setpgid(0, 0); os.execv(sys.argv[1], sys.argv[1:])' \
        "$rlock" --dir "$work/$1" chaos --seed 3 --account 440000 --strategies ttl,redlock --faults "$2" --trials 200 --jobs 2 \
        --failover-port "$failover_port" --redlock-port "$redlock_port" >"$work/$1.out" 2>"$work/$1.err" &
    pid=$!
    for _ in $(seq 100); do
        compgen -G "$work/$1/chaos/runs/*/trials.jsonl" >/dev/null && break
        sleep 0.2
    done
    sleep 1
}
# stop SIGNAL [SECOND]: sends SIGNAL (and SECOND 0.2 s later) to the campaign; SIGINT to its whole
# process group, as a terminal's Ctrl-C does. Sets $rc and $seconds.
stop() {
    local began
    began=$(date +%s%N)
    send "$1"
    if [ -n "${2:-}" ]; then sleep 0.2; send "$2"; fi
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    wait "$pid"; rc=$?
    seconds=$(( ($(date +%s%N) - began) / 1000000000 ))
}
send() { if [ "$1" = SIGINT ]; then kill -s SIGINT -- "-$pid"; else kill -s "$1" "$pid"; fi; }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# nothing_left LAB: no process of the campaign (its data directory is in every command line: rlock's
# own, its workers' and its servers') and every job port free, within 3 s.
nothing_left() {
    local p
    local left
    for _ in $(seq 30); do left=$(pgrep -f "$work/$1" | wc -l); [ "$left" -eq 0 ] && break; sleep 0.1; done
    check "$1: no process of the campaign is left ($left left)" test "$left" -eq 0
    local taken=""
    for p in $job_ports; do port_free "$p" || taken="$taken $p"; done
    check "$1: the job ports are free (taken:${taken:- none})" test -z "$taken"
}
redis_answers() { test "$(redis-cli -u "$REDIS_URL" ping 2>/dev/null)" = PONG; }
# interrupted LAB SIGNAL FAULTS: the clean stop and its sealed run.
interrupted() {
    start "$1" "$3"
    stop "$2"
    echo "$1: $2 -> exit $rc in ${seconds} s"
    check "$1: chaos exits 6 on $2 (got $rc)" test "$rc" -eq 6
    check "$1: it says it was interrupted" grep -q "interrupted by $2" "$work/$1.err"
    nothing_left "$1"
    check "$1: its Redis answers" redis_answers
    local run
    run=$(ls -d "$work/$1"/chaos/runs/* | head -n 1)
    "$rlock" analyze "$run" >"$work/$1.analyze" 2>&1; local arc=$?
    check "$1: analyze exits 6 (got $arc)" test "$arc" -eq 6
    check "$1: analyze says interrupted in one line" test "$(grep -c 'interrupted campaign' "$work/$1.analyze")" -eq 1
}

interrupted term SIGTERM failover,redis-stall
interrupted int SIGINT failover,redis-stall
interrupted restart SIGTERM redis-restart

# SIGKILL of a redis-restart campaign's whole group, at any moment (a crash's guard starts the
# Redis when its process died mid-crash): it answers within 10 s.
for delay in 0.3 0.9 1.7; do
    start "killed-$delay" redis-restart
    sleep "$delay"
    kill -KILL -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    for _ in $(seq 100); do redis_answers && break; sleep 0.1; done
    check "killed-$delay: after SIGKILL its Redis answers within 10 s" redis_answers
done

start twice failover
"$rlock" --dir "$work/twice" chaos --seed 4 --strategies ttl --faults none --trials 1 --jobs 1 \
    >/dev/null 2>"$work/second.err"; second=$?
check "a second campaign on the same directory exits 2 (got $second)" test "$second" -eq 2
check "in one line naming the first" bash -c "test \$(wc -l <'$work/second.err') -eq 1 && grep -q 'another campaign (pid $pid)' '$work/second.err'"
stop SIGTERM
check "the first campaign is not disturbed: it stops cleanly (got $rc)" test "$rc" -eq 6

start twice-int failover,redis-stall
stop SIGINT SIGINT
echo "second SIGINT -> exit $rc in ${seconds} s"
check "a second SIGINT kills at once: exit 130 (got $rc)" test "$rc" -eq 130
nothing_left twice-int
check "its Redis answers" redis_answers
finish
