#!/usr/bin/env bash
# The harness's own failure is no anomaly: PostgreSQL stopped in the middle of a small campaign
# stops it within seconds, with exit code 5, one line naming PostgreSQL and its address, the table
# of the trials checked before, and not one anomaly. The test runs a Redis and a PostgreSQL of its
# own (ports RLOCK_HARNESS_TEST_REDIS_PORT and _PG_PORT, 6398 and 5448 unless set), never the
# shared ones. Usage: harness_lost_test.sh RLOCK_BINARY
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
chmod 0755 "$work"  # as root, services.sh runs PostgreSQL as the user postgres, who must reach it
services() { # services up|down: the test's own servers
    env -u REDIS_URL -u DATABASE_URL RLOCK_REDIS_PORT="${RLOCK_HARNESS_TEST_REDIS_PORT:-6398}" \
        RLOCK_PG_PORT="${RLOCK_HARNESS_TEST_PG_PORT:-5448}" RLOCK_STATE_DIR="$work/services" \
        "$here/../scripts/services.sh" "$1" 2>>"$work/services.log"
}
trap 'services down; rm -rf "$work"' EXIT
exports=$(services up) || { cat "$work/services.log"; exit 1; }
eval "$exports"

"$rlock" --dir "$work" chaos --seed 1 --strategies ttl,fenced-claim --faults none,pause --trials 100 --jobs 2 \
    --json "$work/table.json" >"$work/out.txt" 2>"$work/err.txt" &
pid=$!
# Once some trials are checked, PostgreSQL stops (a fast shutdown, as an operator's would be).
for _ in $(seq 300); do grep -qE '^chaos: [1-9][0-9]*/' "$work/err.txt" && break; sleep 0.1; done
kill -INT "$(head -n 1 "$work/services/pg/data/postmaster.pid")" || exit 1
stopped_at=$(date +%s.%N)
wait $pid
rc=$?
took=$(awk -v a="$stopped_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
cat "$work/out.txt" "$work/err.txt"
echo "the campaign ended ${took}s after PostgreSQL stopped"

sum() { K=$1 perl -MJSON::PP -0777 -ne 'my $n = 0; $n += $_->{$ENV{K}} for @{decode_json($_)->{cells}}; print $n' "$work/table.json"; }
check "the campaign exits 5 (got $rc)" test $rc -eq 5
check "one line names PostgreSQL and its address" \
    test "$(grep -c "the harness lost PostgreSQL at 127.0.0.1:${RLOCK_HARNESS_TEST_PG_PORT:-5448}" "$work/err.txt")" -eq 1
check "it ends within 10 s of the stop (took ${took}s)" awk -v t="$took" 'BEGIN { exit !(t < 10) }'
check "the table is printed" grep -q '^fenced-claim' "$work/out.txt"
check "trials checked before the stop are kept ($(sum trials))" test "$(sum trials)" -gt 0
check "trials after it are not run ($(sum not_run))" test "$(sum not_run)" -gt 0
check "no cell shows an anomaly ($(sum anomalies))" test "$(sum anomalies)" -eq 0
check "every trial is counted once" test $(($(sum trials) + $(sum not_run))) -eq 400
finish
