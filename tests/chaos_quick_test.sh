#!/usr/bin/env bash
# rlock chaos --quick against the servers of scripts/test.sh: exit 0 (no anomaly where none is
# expected), anomalies for ttl under pause, none for fenced-claim and pg-row-lock, a JSON table with
# every cell, and each anomalous trial kept where `rlock showlog --dir` reads it, with its timeline;
# then the same for a few redis-restart, failover and redlock trials.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
own_redis 6940  # its redis-restart trials crash this one, not the shared one
cell() { # cell STRATEGY FAULT FIELD: one number from the JSON table (summed over a failover's two cells)
    S=$1 F=$2 K=$3 perl -MJSON::PP -0777 -ne 'my $n = 0; for my $c (@{decode_json($_)->{cells}}) {
        $n += $c->{$ENV{K}} if $c->{strategy} eq $ENV{S} && $c->{fault} eq $ENV{F} } print $n' "$work/table.json"
}

# chaos NAME ARGS...: rlock chaos ARGS with seed 1, its table in $work/table.json, printed; it must
# exit 0 (no anomaly where none is expected).
chaos() {
    local name=$1 rc; shift
    "$rlock" --dir "$work" chaos --seed 1 --account 495000 --json "$work/table.json" "$@" >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    cat "$work/out.txt"
    check "chaos $name exits 0 (got $rc)" test $rc -eq 0
}

chaos --quick --quick
check "the JSON table has 8 cells" test "$(perl -MJSON::PP -0777 -ne 'print scalar @{decode_json($_)->{cells}}' "$work/table.json")" -eq 8
check "ttl under pause shows anomalies" test "$(cell ttl pause anomalies)" -gt 0
check "ttl under pause lost money" test "$(cell ttl pause lost_amount)" -gt 0
check "fenced-claim under pause shows none" test "$(cell fenced-claim pause anomalies)" -eq 0
check "pg-row-lock under pause shows none" test "$(cell pg-row-lock pause anomalies)" -eq 0
kept=$(ls -d "$work"/chaos/trials/ttl-pause-* 2>/dev/null | head -n 1)
check "an anomalous trial is kept" test -n "$kept"
check "showlog reads a kept trial" bash -c "'$rlock' --dir '$kept' showlog | grep -q 'SIGSTOP to'"
check "a kept trial has its timeline" xmllint --noout "$kept/timeline.svg"
check "progress went to stderr" grep -q 'trials' "$work/err.txt"

# fault_trials FAULT TRIALS LOG_TEXT: ttl and fenced-claim under FAULT: anomalies for ttl, none for
# fenced-claim, and LOG_TEXT in the log of a kept ttl trial.
fault_trials() {
    local fault=$1 trials=$2 text=$3
    chaos "$fault" --strategies ttl,fenced-claim --faults "$fault" --trials "$trials"
    check "ttl under $fault shows anomalies" test "$(cell ttl "$fault" anomalies)" -gt 0
    check "fenced-claim under $fault shows none" test "$(cell fenced-claim "$fault" anomalies)" -eq 0
    check "the $fault is in a kept trial's log" bash -c "'$rlock' --dir \"\$(ls -d '$work'/chaos/trials/ttl-$fault-* | head -n 1)\" showlog | grep -q '$text'"
}

# redis-restart: the test's Redis is crashed and started again once a trial's first holder has
# read. Without fencing the restart hands the lock to a second holder.
fault_trials redis-restart 5 'started again'
# failover: each trial runs its own primary and replica (from port 6420), the replica's link cut
# for 0 to 2 TTLs; the table splits the trials whose lock had not reached the replica.
fault_trials failover 10 'promoted to primary, lock PTTL'
check "failover's trials are split by the replica's lag" test "$(grep -c '"replica": "\(lagging\|in-sync\)"' "$work/table.json")" -eq 4
check "no failover server is left running" bash -c "! pgrep -f 'redis-server 127.0.0.1:642[0-9]'"

# redlock: three servers of each job's own (from port 6700). A pause outlives the lock on every
# server at once; a restart strikes one server of three and starts it again empty.
chaos redlock --strategies redlock --faults pause,redis-restart --trials 5
check "redlock under pause shows anomalies" test "$(cell redlock pause anomalies)" -gt 0
check "redlock under redis-restart ran its trials" test "$(cell redlock redis-restart trials)" -eq 5
check "no redlock server is left running" bash -c "! pgrep -f 'redis-server 127.0.0.1:67[0-3][0-9]'"  # its jobs' (bench's are from 6747)

# --wait notify: refused workers wait for the release's announcement; the run says so.
chaos "--wait notify" --strategies ttl,fenced-claim --faults none --trials 5 --wait notify
check "the JSON table says notify" grep -q '"wait": "notify"' "$work/table.json"
check "fenced-claim with notified waiters shows none" test "$(cell fenced-claim none anomalies)" -eq 0

# --wait handoff: the release hands the lock to the queue's head; fenced-claim stays safe under a pause.
chaos "--wait handoff" --strategies ttl,fenced-claim --faults none,pause --trials 5 --wait handoff
check "the JSON table says handoff" grep -q '"wait": "handoff"' "$work/table.json"
check "fenced-claim with handed-over locks shows none" \
    test "$(( $(cell fenced-claim none anomalies) + $(cell fenced-claim pause anomalies) ))" -eq 0
check "ttl with handed-over locks ran its trials" test "$(cell ttl none trials)" -eq 5

# Passwords are blanked in the stored run, wherever they were: the URLs and conninfo of the command
# line and the environment (user information, ?password=, libpq's password keyword, an @ inside a
# password) and a --client command. Redis has no password; the --db URL ends with an empty one,
# which libpq takes (the last of a keyword wins) and then reads the pgpass file (PGPASSFILE).
real_redis=$REDIS_URL
REDIS_URL='redis://:p@ss-s3cret@127.0.0.1:1/0' DATABASE_URL="host=127.0.0.1 password='kw s3cret'" \
    chaos passwords --redis "$real_redis" --db "$DATABASE_URL?password=q-s3cret&password=" --strategies none --faults none \
    --trials 1 --client "c=$rlock client --strategy ttl #redis://u:cl-s3cret@h redis://tok-s3cret@h"
run=$(ls -d "$work"/chaos/runs/*/ | tail -n 1)
check "no password in the stored run" bash -c "! grep -rq s3cret '$run' && ! zgrep -q s3cret '$run'/trials.jsonl.gz"
check "the stored run says where they were" grep -q 'password=\*\*\*' "$run/run.json"

finish
