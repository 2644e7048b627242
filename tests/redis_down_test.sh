#!/usr/bin/env bash
# A Redis that goes down while workers run: each worker stops with one clear error line naming the
# address and a non-zero exit, never a hang. A holds the lock (its release finds Redis gone); B is
# waiting for the lock (its next attempt finds Redis gone); C starts after. Uses a Redis of its own
# on 127.0.0.1:6396 and account 9800. Usage: redis_down_test.sh RLOCK_BINARY
set -uo pipefail
export RLOCK_BIN=$1
source "$(dirname "$0")/../scripts/lib.sh"
: "${DATABASE_URL:?DATABASE_URL is not set: run the tests through scripts/test.sh}"
RLOCK_DIR=$(mktemp -d)
export RLOCK_DIR REDIS_URL=redis://127.0.0.1:6396/0
trap 'lab_end; rm -rf "$RLOCK_DIR"' EXIT
passed=0 failed=0
check() { # check NAME COMMAND...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}
# wait_exit PID: its exit code, or 124 when it still runs after 20 s
wait_exit() {
    local i
    for ((i = 0; i < 200; i++)); do
        kill -0 "$1" 2>/dev/null || { wait "$1"; return $?; }
        sleep 0.1
    done
    kill -KILL "$1"; return 124
}
one_line_naming_redis() { [[ $(wc -l <"$1") -eq 1 ]] && grep -q '^rlock: error: .*127\.0\.0\.1:6396' "$1"; }

lab_redis down-test 6396
rlock reset --account 9800 --start-in 0 >/dev/null
rlock worker A 30 --account 9800 --ttl 30000 --pause 2 2>"$RLOCK_DIR/a.err" & a=$!
wait_for_file "$RLOCK_DIR/.read_A"
rlock worker B 50 --account 9800 --ttl 30000 2>"$RLOCK_DIR/b.err" & b=$!
for _ in $(seq 100); do grep -q '"who":"B","event":"busy"' "$RLOCK_DIR/events.jsonl" && break; sleep 0.05; done
rlock redis kill --account 9800

wait_exit $a; check "A exits 1 (got $?)" test $? -eq 1
check "A says what failed, on one line" one_line_naming_redis "$RLOCK_DIR/a.err"
check "A's error event says its 30 was added" grep -q '"who":"A","event":"error".*"added":true' "$RLOCK_DIR/events.jsonl"
wait_exit $b; check "B exits 1 (got $?)" test $? -eq 1
check "B says what failed, on one line" one_line_naming_redis "$RLOCK_DIR/b.err"
check "B's error event says its 50 was not added" grep -q '"who":"B","event":"error".*"added":false' "$RLOCK_DIR/events.jsonl"
timeout 20 "$RLOCK" worker C 10 --account 9800 2>"$RLOCK_DIR/c.err"
check "C exits 1 (got $?)" test $? -eq 1
check "C names the address and the cause" grep -q 'Redis at 127\.0\.0\.1:6396: Connection refused' "$RLOCK_DIR/c.err"
for f in a b c; do sed "s/^/    $f: /" "$RLOCK_DIR/$f.err"; done

echo "$passed passed, $failed failed"
((failed == 0))
