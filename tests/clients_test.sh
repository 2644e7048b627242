#!/usr/bin/env bash
# rlock chaos --client: two real lock libraries (redis-py's Lock and the npm redlock package, installed
# by scripts/test.sh) judged over the line protocol. Under no fault they lose nothing; under a pause
# both lose money, and a client declared safe that loses fails the campaign. A client that breaks
# the protocol is a client error, never an anomaly; bad flags are one line and the usage exit code.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
cd "$root"
redis_py="redis-py=/usr/bin/python3 clients/redis-py-lock/client.py"
node_redlock="node-redlock=node clients/node-redlock/client.mjs"
# chaos EXPECTED-EXIT NAME ARGS...: rlock chaos ARGS with seed 1 and only clients, its table in
# $work/table.json, printed.
chaos() {
    local expected=$1 name=$2 rc; shift 2
    "$rlock" --dir "$work" chaos --seed 1 --account 470000 --strategies none --jobs 4 --json "$work/table.json" "$@" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    cat "$work/out.txt"
    check "chaos $name exits $expected (got $rc)" test $rc -eq "$expected"
}

check "node-redlock's modules are installed (scripts/test.sh runs npm ci)" test -d clients/node-redlock/node_modules/redlock

chaos 0 none --faults none --trials 10 --client "$redis_py" --client "$node_redlock"
for client in redis-py node-redlock; do
    check "$client under none ran 10 trials" test "$(chaos_cell $client none trials)" -eq 10
    check "$client under none shows no anomaly" test "$(chaos_cell $client none anomalies)" -eq 0
    check "$client under none had no client error" test "$(chaos_cell $client none client_error)" -eq 0
done

# redis-py declared safe: its lost updates under a pause fail the campaign. 30 trials: node-redlock lost money in
# 1 to 5 of 10 in five campaigns on a quiet machine (seed 1), so 10 would see none now and then.
chaos 4 pause --faults pause --trials 30 --client "$redis_py" --client "$node_redlock" --client-safe redis-py
for client in redis-py node-redlock; do
    check "$client under pause lost money" test "$(chaos_cell $client pause lost_amount)" -gt 0
done
check "the failure names the client declared safe" grep -q 'anomalies where none were expected: redis-py under pause' "$work/err.txt"
kept=$(ls -d "$work"/chaos/trials/redis-py-pause-* 2>/dev/null | head -n 1)
check "a lossy client trial is kept with its clients' stderr" test -f "$kept/client-A.stderr"
check "showlog reads a kept client trial" bash -c "'$rlock' --dir '$kept' showlog | grep -q 'SIGSTOP to'"

chaos 0 "a bad client" --faults none --trials 3 --client 'bad=echo hello'
check "a bad client's trials are client errors" test "$(chaos_cell bad none client_error)" -eq 3
check "a bad client's trials are no anomaly" test "$(chaos_cell bad none anomalies)" -eq 0
check "its first error is one line naming it" test "$(grep -c 'client error: client bad: .*hello' "$work/err.txt")" -eq 1

chaos_refuses 'after @ comes where its lock lives: redis, redis3' --client 'py@2=x'
chaos_refuses 'the command is empty' --client 'empty= '
chaos_refuses 'the name is given twice' --client a=true --client a=false
chaos_refuses 'no --client of that name' --client a=true --client-safe b
finish
