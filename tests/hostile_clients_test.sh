#!/usr/bin/env bash
# rlock chaos against clients that lie, flood, linger or exit (tests/hostile_client.py): each one's
# misbehaviour is judged from what the harness served, or ends its trial as a client error within
# bounded time and memory, and nothing it started outlives its trial; a loss served before a
# client's exit is judged as the same loss without it. On accounts of its own (from 410000).
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$(dirname "$0")/checks.sh"
cd "$root"
hostile="$root/tests/hostile_client.py"
# chaos NAME COMMAND ARGS...: one campaign of the client COMMAND (row h) under none, cut after 120 s;
# its table in $work/table.json, its stderr in $work/err.txt, its seconds and peak memory (MiB) in
# $seconds and $peak_mib.
chaos() {
    local name=$1 command=$2 rc began; shift 2
    rm -f "$work/peak.txt"
    began=$(date +%s%N)
    timeout -k 5 120 /usr/bin/time -f %M -o "$work/peak.txt" "$rlock" --dir "$work/$name" chaos --seed 1 \
        --account 410000 --strategies none --faults none --jobs 1 --json "$work/table.json" --client "h=$command" "$@" \
        >"$work/out.txt" 2>"$work/err.txt"
    rc=$?
    seconds=$(( ($(date +%s%N) - began) / 1000000000 ))
    peak_mib=$(( $(grep -sx '[0-9]*' "$work/peak.txt" || echo 0) / 1024 ))
    echo "$name: exit $rc, ${seconds} s, peak ${peak_mib} MiB"
    check "chaos $name exits 0 (got $rc)" test $rc -eq 0
}
# bounded NAME: the campaign's one trial was a client error, within 15 s and within 40 MiB above
# the peak of a campaign whose client behaves ($floor_mib: rlock's own size, larger when it is built
# with a sanitizer), far below the 100 MB a client sends in one line.
bounded() {
    check "$1 is a client error" test "$(chaos_cell h none client_error)" = 1
    check "$1 ends within 15 s (took $seconds)" test "$seconds" -le 15
    check "$1 takes less than 40 MiB above the floor of $floor_mib MiB (took $peak_mib)" \
        test "$peak_mib" -lt $((floor_mib + 40))
}

chaos no-write "$hostile no-write" --trials 2
floor_mib=$peak_mib
check "a campaign's peak memory is measured (got $floor_mib MiB)" test "$floor_mib" -gt 0
check "a client's done with no write is counted" test "$(chaos_cell h none unwritten)" -ge 2
check "and is an anomaly: money the service was told was added" test "$(chaos_cell h none anomalies)" = 2
check "the table shows it" grep -q 'unwritten' "$work/out.txt"

# A TTL client that exits after the write its late read made stale: the loss the harness served is
# judged, the trial counted among the client errors too; without the exit, the same loss.
for mode in late-exit plain; do
    "$rlock" --dir "$work/$mode" chaos --seed 1 --account 410000 --strategies none --faults pause --trials 3 --jobs 2 --ttl 500 \
        --json "$work/table.json" --client "h=$hostile $mode" >"$work/out.txt" 2>"$work/err.txt"
    check "chaos $mode exits 0 (got $?)" test $? -eq 0
    check "$mode: its pause trials lost money" test "$(chaos_cell h pause lost_updates)" -ge 1
    check "$mode: each judged" test "$(python3 -c 'import json,sys; c=[c for c in json.load(open(sys.argv[1]))["cells"] if c["fault"]=="pause"][0]; print(c.get("unjudged", c["client_error"]))' "$work/table.json")" = 0
    [[ $mode == plain ]] || check "$mode: counted among the client errors" test "$(chaos_cell h pause client_error)" -ge 1
done

chaos double-write "$hostile double-write" --trials 2
check "an increment written twice is an anomaly" test "$(chaos_cell h none anomalies)" = 2
check "that created money" test "$(chaos_cell h none created)" = 2
check "its amount is the increments' added again" test "$(chaos_cell h none created_amount)" -gt 0
check "and lost none" test "$(chaos_cell h none lost_amount)" = 0

chaos long-line "$hostile long-line" --trials 1
bounded "a 100 MB line with no newline"
check "the error says the line is too long" grep -q 'a line longer than 64 KiB' "$work/err.txt"

chaos zero 'cat /dev/zero' --trials 1
bounded "cat /dev/zero"

chaos flood "$hostile flood" --trials 1
bounded "a flood of valid messages"
check "the error says there were too many" grep -q 'more than 64 messages in one increment' "$work/err.txt"

chaos stderr-flood "$hostile stderr-flood" --trials 1
bounded "300 MB of stderr"
kept="$work/stderr-flood/chaos/trials/h-none-0/client-A.stderr"
check "its stderr is kept up to 1 MiB and a note" test "$(stat -c %s "$kept" 2>/dev/null || echo 0)" -lt 1049000
check "the note counts what was dropped" grep -q 'more bytes of stderr dropped' "$kept"
check "the error quotes the end of its stderr" grep -q 'its stderr ends: .*the end of a flood' "$work/err.txt"

chaos escape "$hostile escape" --trials 1
check "a client's escape codes reach no terminal" test "$(grep -c $'\e' "$work/err.txt")" = 0
check "they are shown escaped" grep -q '\\x1B\]0;title\\x07\\x00' "$work/err.txt"

chaos setsid "$hostile setsid" --trials 2
sleep 0.5
check "a client's grandchild in a session of its own is gone with its trial" \
    test -z "$(pgrep -f 'sleep 301[.]5')"

chaos env "$hostile env" --trials 1
stderr="$work/env/chaos/trials/h-none-0/client-A.stderr"
check "a client sees its PATH" grep -q '^env PATH=' "$stderr"
check "but not DATABASE_URL" test -z "$(grep '^env DATABASE_URL=' "$stderr")"
check "nor REDIS_URL" test -z "$(grep '^env REDIS_URL=' "$stderr")"
finish
