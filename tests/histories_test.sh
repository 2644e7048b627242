#!/usr/bin/env bash
# rlock chaos --increments: histories of protocol clients (docs/chaos.md, "Histories"). Bad input is
# one line and exit 2 before any server is asked. Two clients are caught by a history:
# fenced-once (tests/hostile_client.py) fences its first lock and no later one, and loses under a
# pause armed at a worker's second read, where one-increment trials under pause lose nothing (and
# rlock analyze judges its stored histories again to the same cells, its run.json keeping the
# workload and the schedule);
# retry-release deletes its key again after a lost reply at its second release, the next holder's
# lock by then, and loses, where redis-py under the same schedule loses nothing. One history a
# server kind (etcd, ZooKeeper, PostgreSQL, Hazelcast) under a kill armed at a read: struck, the
# worker started again, the killed increment unknown, nothing lost. conn-refused at a release on
# Redis and on ZooKeeper: struck, the later increments made once connections are accepted again.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
cd "$root" || exit 1
hostile="$root/tests/hostile_client.py"

# history_cell ROW FAULT FIELD: one figure of a history cell's "history" object in $work/table.json.
history_cell() {
    S=$1 F=$2 K=$3 perl -MJSON::PP -0777 -ne 'for my $c (@{decode_json($_)->{cells}}) {
        print $c->{history}{$ENV{K}} if $c->{strategy} eq $ENV{S} && $c->{fault} eq $ENV{F} }' "$work/table.json"
}
# history NAME ARGS...: rlock chaos ARGS of clients alone, seed 1, TTL 300 ms, its table in $work/table.json.
history() {
    local name=$1 rc; shift
    "$rlock" --dir "$work/$name" chaos --seed 1 --strategies none --ttl 300 --json "$work/table.json" "$@" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    grep -A5 '^history  ' "$work/out.txt"
    check "$name exits 0 (got $rc)" test $rc -eq 0
}

# refuses MESSAGE ARGS...: rlock chaos ARGS says MESSAGE in one line, exit 2, with a Redis nobody
# listens on, so that a refusal that came after asking a server would say so.
refuses() {
    local message=$1 rc; shift
    REDIS_URL=redis://127.0.0.1:9/0 "$rlock" --dir "$work" chaos --strategies none "$@" >/dev/null 2>"$work/err.txt"
    rc=$?
    check "$* exits 2 (got $rc)" test $rc -eq 2
    check "$* says: $message" test "$(wc -l <"$work/err.txt")" -eq 1 -a -n "$(grep -- "$message" "$work/err.txt")"
}
refuses "0 is not in 1 to 10000" --client redis-py --increments 0
refuses "9 is not in 2 to 8" --client redis-py --increments 2 --workers 9
refuses "one of them, not both" --client redis-py --increments 2 --duration 1
refuses "give --client NAME" --increments 2
refuses "give --increments K or --duration S" --client redis-py --nemesis pause
refuses "no --faults beside it" --client redis-py --increments 2 --nemesis pause --faults pause
refuses "'fly' is no step" --client redis-py --increments 2 --nemesis "pause on fly#2"
refuses "'frob' is no fault" --client redis-py --increments 2 --nemesis "frob at 1s"
refuses "worker 'C' is none of the history's 2" --client redis-py --increments 2 --workers 2 --nemesis pause:C
refuses "#3 is past each worker's 2 increments" --client redis-py --increments 2 --nemesis "pause:A on read#3"
refuses "soon is no time" --client redis-py --increments 2 --nemesis "pause at soon"
refuses "no history's operation" --client redis-py --increments 2 --nemesis "redis-restart at 1s"
refuses "give --increments K or --duration S beside it" --client redis-py --workers 4

# fenced-once: safe in one-increment trials under pause, losing in a history.
history fenced-once-trials --client "h=$hostile fenced-once" --faults pause --trials 4
check "fenced-once's one-increment trials under pause were struck" test "$(chaos_cell h pause struck)" -ge 1
check "fenced-once loses nothing in one-increment trials" test "$(chaos_cell h pause lost_updates)" -eq 0
# For 3 s, so that the other workers still lock while A is paused: with 6 increments each, under
# load, B and C sometimes made all theirs before A's third read, and nothing was lost.
history fenced-once-history --client "h=$hostile fenced-once" --duration 3 --nemesis "pause:A on read#2 for 3ttl"
check "the history's pause struck both histories" test "$(history_cell h pause faults_struck)" -eq 2
check "fenced-once loses increments in a history" test "$(history_cell h pause lost_increments)" -gt 0
# The run keeps the workload and the schedule, and validates; rlock analyze judges the stored
# histories again to the same cells, and says what they were.
run=$(echo "$work"/fenced-once-history/chaos/runs/*)
check "run.json keeps the history's duration and schedule" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["setup"]
sys.exit(not (s["duration_s"] == 3 and s["workers"] == 3 and s["nemesis"] == "pause:A on read#2 for 3ttl"))' "$run/run.json"
check "a history's run.json validates" /usr/bin/python3 "$root/tests/validate_json.py" "$root/docs/schemas/run.schema.json" \
    "$run/run.json"
cp "$work/table.json" "$work/stored.json"
"$rlock" analyze "$run" --json "$work/table.json" >"$work/analyze.txt" 2>&1
check "rlock analyze judges the stored histories again (exit $?)" test $? -eq 0
check "and names their workload and schedule" grep -q \
    "^rlock analyze: .*, histories of 3 workers for 3 s, under pause:A on read#2 for 3ttl$" "$work/analyze.txt"
check "to the same cells" perl -MJSON::PP -0777 -e '
    my ($a, $b) = map { local @ARGV = ($_); decode_json(<>)->{cells} } @ARGV;
    exit !(JSON::PP->new->canonical->encode($a) eq JSON::PP->new->canonical->encode($b))' \
    "$work/stored.json" "$work/table.json"

# retry-release: a lost reply at the second release.
# A retry deletes the next holder's lock while it works, or after: 6 histories, lest all 6 be after.
history retry-release-history --client "h=$hostile retry-release" --client redis-py --increments 8 --trials 6 \
    --nemesis "lost-reply:A on release#2"
check "the lost reply struck retry-release's histories" test "$(history_cell h lost-reply faults_struck)" -eq 6
check "retry-release's retried delete loses increments" test "$(history_cell h lost-reply lost_increments)" -gt 0
check "the lost reply struck redis-py's histories" test "$(history_cell redis-py lost-reply faults_struck)" -eq 6
check "redis-py, which does not retry, loses none" test "$(history_cell redis-py lost-reply lost_increments)" -eq 0

# One history a server kind, two workers of three increments, the first worker killed at its second read.
history kinds --client etcd-lock --client kazoo-lock --client shedlock-jdbc --client hazelcast-lock --trials 1 \
    --workers 2 --increments 3 --nemesis "kill:A on read#2" --jobs 2
for client in etcd-lock kazoo-lock shedlock-jdbc hazelcast-lock; do
    check "$client's history: 6 increments" test "$(history_cell $client kill increments)" -eq 6
    check "$client's history: the kill struck" test "$(history_cell $client kill faults_struck)" -eq 1
    check "$client's history: the killed increment is unknown" test "$(chaos_cell $client kill unknown)" -eq 1
    check "$client's history: no client error" test "$(chaos_cell $client kill client_error)" -eq 0
    check "$client's history: nothing lost" test "$(history_cell $client kill lost_increments)" -eq 0
done

# conn-refused at a release, on Redis and on ZooKeeper: struck once a history, the connections
# accepted again after it (the workers' later increments done), no client error.
history refused --client redis-py --client kazoo-lock --trials 1 --workers 2 --increments 4 \
    --nemesis "conn-refused:A on release#1 for 200ms" --jobs 2
for client in redis-py kazoo-lock; do
    check "$client's history: conn-refused struck" test "$(history_cell $client conn-refused faults_struck)" -eq 1
    check "$client's history: no client error" test "$(chaos_cell $client conn-refused client_error)" -eq 0
    check "$client's history: increments after it" test "$(history_cell $client conn-refused increments)" -eq 8
done
finish
