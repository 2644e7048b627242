#!/usr/bin/env bash
# GNU parallel over SSH, for real: scripts/sshd.sh starts an sshd of this test's own on 127.0.0.1:2722
# (its host key checked, a key of its own let in), and parallel sends a tiny campaign's 3 shards to
# it as host rlock-loopback, three at once (scripts/shard.sh: each shard's Redis and PostgreSQL on
# ports of its own, 6850 to 6872 and 5850 to 5852), in a directory standing for the other machine;
# --return brings each shard's run back through rsync, and rlock merge here gives the counts of the
# campaign run whole, cell by cell. `sshd.sh down` then leaves no sshd on the port, and refuses a
# directory it did not make. Whatever fails, every server and the sshd started here are stopped.
# Usage: parallel_ssh_test.sh RLOCK_BINARY. parallel, openssh-server and rsync come from scripts/test.sh.
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
source "$here/engine_shards.sh"
servers=$work/remote/tasks  # "the other machine": parallel's --workdir
export RLOCK_SSHD_DIR=$work/sshd RLOCK_SSHD_PORT=2722 RLOCK_SHARD_PORT=6850 RLOCK_SHARD_PG_PORT=5850
on_exit() {
    stop_task_servers
    "$root/scripts/sshd.sh" down >/dev/null 2>&1
    rm -rf "$work"
}
trap on_exit EXIT
engine_shards_begin

exports=$("$root/scripts/sshd.sh" up 2>"$work/up.txt")
check "sshd.sh up starts sshd" test $? -eq 0 || cat "$work/up.txt"
eval "$exports"
check "it listens on 127.0.0.1:2722 alone" test "$(ss -Hltn 'sport = :2722' | awk '{print $4}')" == 127.0.0.1:2722
check "its host key is checked: a wrong one is refused" bash -c "! ssh -F '$work/sshd/ssh_config' \
    -o UserKnownHostsFile=/dev/null rlock-loopback true 2>/dev/null"
run_whole
cd "$work" || exit 1
printf '%s\n' 1 2 3 | timeout 120 parallel --jobs 3 --sshlogin rlock-loopback --workdir "$work/remote" \
    --return 'tasks/shard-{}' --return 'task-{}.out' \
    "RLOCK_BIN=$rlock RLOCK_SHARD_PORT=$RLOCK_SHARD_PORT RLOCK_SHARD_PG_PORT=$RLOCK_SHARD_PG_PORT \
     $root/scripts/shard.sh {}/3 tasks ${campaign[*]} >task-{}.out 2>&1" >"$work/parallel.txt" 2>&1
check "parallel runs the 3 shards over SSH: exit 0" test $? -eq 0 || cat "$work/parallel.txt" "$work"/task-*.out
check "the shards ran in the remote directory, not here" test -d "$(ls -d "$servers"/shard-1/chaos/runs/*-shard1of3 2>/dev/null)"
"$rlock" --dir "$work/merged" merge "$tasks"/shard-*/chaos/runs/*-shard*of3 --json "$work/merged.json" >"$work/merge.txt" 2>&1
check "merge of the returned runs exits 0" test $? -eq 0 || cat "$work/merge.txt"
engine_shards_check "$work/merged" "$work/merged.json" "$work"/task-{1,2,3}.out

pid=$(head -n 1 "$work/sshd/sshd.pid")
ssh -F "$work/sshd/ssh_config" rlock-loopback 'sleep 300.7' </dev/null >/dev/null 2>&1 &
for ((i = 0; i < 50; i++)); do pgrep -f 'sleep 300[.]7' >/dev/null && break; sleep 0.1; done
check "a session is open" pgrep -f 'sleep 300[.]7'
"$root/scripts/sshd.sh" down >"$work/down.txt" 2>&1
check "sshd.sh down exits 0" test $? -eq 0 || cat "$work/down.txt"
check "the sshd is stopped, port 2722 free" bash -c "! kill -0 $pid 2>/dev/null && [[ -z \$(ss -Hltn 'sport = :2722') ]]"
check "its open session ended with it" bash -c "! pgrep -f 'sleep 300[.]7'"
mkdir -m 700 "$work/foreign"
RLOCK_SSHD_DIR=$work/foreign "$root/scripts/sshd.sh" down >/dev/null 2>"$work/foreign.err"
check "down refuses a directory it did not make: exit 2, one line" \
    bash -c "test $? -eq 2 && test \$(wc -l <'$work/foreign.err') -eq 1" || cat "$work/foreign.err"
chmod 777 "$work/foreign"
RLOCK_SSHD_DIR=$work/foreign "$root/scripts/sshd.sh" down >/dev/null 2>"$work/foreign.err"
check "a directory others can write is refused naming RLOCK_SSHD_DIR" grep -q 'choose another RLOCK_SSHD_DIR' "$work/foreign.err"
finish
