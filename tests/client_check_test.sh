#!/usr/bin/env bash
# rlock client --check: every shipped adapter installed keeps the protocol's rules, on one Redis, on
# three of rlock's own (redis@3), or on the etcd, ZooKeeper, Hazelcast or PostgreSQL its variable
# names; so does a command given --server redis3; a Python client that never flushes its stdout
# breaks one, in a line that says so and quotes docs/clients.md (exit 1); bad arguments are one
# line, exit 2, before any client runs;
# rlock chaos warns of a shipped adapter whose library rounds --ttl up, before any server is asked.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"

checked=0
while read -r name server _ installed _; do
    [[ $installed == yes ]] || continue
    "$rlock" --redis "$REDIS_URL" client --check "$name" --redlock-port 6930 >"$work/out.txt" 2>&1
    rc=$?
    check "client --check $name ($server) exits 0 (got $rc)" test $rc -eq 0
    check "client --check $name breaks no rule" bash -c "! grep -q '^broken' '$work/out.txt'"
    [[ $rc -eq 0 ]] || cat "$work/out.txt"
    checked=$((checked + 1))
done < <("$rlock" clients 2>/dev/null | tail -n +3)
echo "$checked shipped adapters checked"

cat >"$work/unflushed.py" <<'PY'
import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "init":
        sys.stdout.write(json.dumps({"type": "init_ok"}) + "\n")  # never flushed: a pipe is buffered
PY
"$rlock" --redis "$REDIS_URL" client --check "python3 $work/unflushed.py" --start-limit 2 >"$work/out.txt" 2>"$work/err.txt"
rc=$?
check "a client that never flushes: exit 1 (got $rc)" test $rc -eq 1
check "a client that never flushes is told so in one line" \
    test "$(grep -c 'does not flush its stdout.*"flushes its stdout after each line"' "$work/out.txt")" -eq 1

"$rlock" client --check "python3 $work/unflushed.py" --strategy ttl >/dev/null 2>"$work/err.txt"
check "--check and --strategy together: exit 2" test $? -eq 2
"$rlock" --redis "$REDIS_URL" client --check "$rlock client --strategy redlock" --server redis3 --redlock-port 6930 \
    >"$work/out.txt" 2>&1
rc=$?
check "--check of redlock's own client on three servers: exit 0 (got $rc)" test $rc -eq 0
check "its three servers of rlock's own are stopped" bash -c "! redis-cli -p 6930 ping >/dev/null 2>&1"
env -u ETCD_ENDPOINT "$rlock" client --check etcd-lock >/dev/null 2>"$work/err.txt"
rc=$?
check "--check of an etcd adapter without ETCD_ENDPOINT: exit 2 (got $rc)" test $rc -eq 2
check "it says which variable is missing" grep -q "its lock lives on etcd, which ETCD_ENDPOINT names" "$work/err.txt"
env -u ETCD_ENDPOINT "$rlock" client --check "python3 x.py --password=hunter2" --server etcd >/dev/null 2>"$work/err.txt"
check "a command's password is not shown in that error" bash -c "grep -q 'password=\*\*\*' '$work/err.txt' && ! grep -q hunter2 '$work/err.txt'"
"$rlock" client --check "python3 x.py" --server nope >/dev/null 2>"$work/err.txt"
check "--server nope: exit 2, the kinds listed" grep -q "^.*--server 'nope': where the lock lives: redis, redis3" "$work/err.txt"
"$rlock" client --check etcd-lock --server redis >/dev/null 2>"$work/err.txt"
check "--server with a shipped adapter: exit 2" test $? -eq 2
if "$rlock" clients 2>/dev/null | grep -Eq '^python-redis-lock +redis +no +yes'; then
    env -u REDIS_URL -u DATABASE_URL "$rlock" --dir "$work" chaos --strategies none --faults none --trials 1 \
        --client python-redis-lock --ttl 200 >/dev/null 2>"$work/err.txt"
    check "chaos warns that python-redis-lock's library rounds a TTL of 200 ms up to 1000" \
        grep -q "python-redis-lock's library counts a TTL in steps of 1000 ms: its locks live 1000 ms" "$work/err.txt"
fi
finish
