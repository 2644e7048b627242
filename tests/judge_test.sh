#!/usr/bin/env bash
# rlock judge on the servers of scripts/test.sh: a shipped Python adapter (redis-py) under every
# fault that applies, --quick, loses money and exits 3, its verdict a line a fault and consistent
# with its status, its run kept and analysed again, its card valid, self-contained and drawn by
# Chromium with the shortest loss's timeline; one's own client that writes twice (created money,
# certain) exits 3; one's own fenced-claim client, its refused claims errors, exits 0 under the
# faults that leave its counter in place; one that never succeeds exits 4; one that exits after a
# stale write loses money (3) as it does without the exit; etcd-lock's fenced variant beside
# it, its TTL rounded up to whole seconds with a warning; etcd-mutex's scenario run at the version
# judged; redis-py by histories (--duration) losing money under pause, each line with its
# histories' figures; bad input one line and exit 2 before any server is asked. Usage: judge_test.sh RLOCK_BINARY. Chromium and tidy come from scripts/test.sh.
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
source "$here/chromium.sh"
command -v tidy >/dev/null || { echo "tidy is not installed (scripts/test.sh installs it)"; exit 1; }
ports=(--failover-port 6620 --redlock-port 6650 --cluster-port 7500) # the cluster: 7500 to 7559, four jobs
own_redis 6630  # redis-restart and redis-stall strike it, not the shared one

# judge NAME ARGS...: rlock judge ARGS in a data directory of its own ($work/NAME); its stdout in
# $work/NAME.out, its stderr in $work/NAME.err, its status in $rc, its seconds in $seconds.
judge() {
    local name=$1 began; shift
    began=$(date +%s)
    "$rlock" --dir "$work/$name" judge "$@" "${ports[@]}" --account 430000 --seed 7 >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    seconds=$(($(date +%s) - began))
    echo "judge $name: exit $rc in $seconds s; $(grep '^verdict:' "$work/$name.out")"
}
# The status the verdict line of $work/NAME.out calls for: 3 money, 4 liveness alone, 0 nothing.
status_of_verdict() {
    if grep -q '^verdict: .* loses money under ' "$work/$1.out"; then echo 3
    elif grep -q '^verdict: .* lost no money; increments stuck or none succeeding under ' "$work/$1.out"; then echo 4
    elif grep -q '^verdict: .* lost nothing in ' "$work/$1.out"; then echo 0
    else echo "no verdict"; fi
}

# Bad input: one line, exit 2, and no server asked (the Redis and PostgreSQL named here do not exist).
refuses() {
    local message=$1 rc; shift
    "$rlock" --redis redis://127.0.0.1:1/0 --db postgresql://postgres@127.0.0.1:1/bank judge "$@" \
        >"$work/refused.out" 2>"$work/refused.err"
    rc=$?
    check "judge $* exits 2 (got $rc)" test $rc -eq 2
    check "judge $* says: $message, in one line" \
        test "$(wc -l <"$work/refused.err")" -eq 1 -a -n "$(grep -F -- "$message" "$work/refused.err")"
}
refuses "NAME is required"
refuses "no shipped client of that name" no-such-lock
refuses "--client-server is for one's own NAME=COMMAND" redis-py --client-server etcd
refuses "--topology cluster: redis-py's adapter takes one server (its manifest lists single)" redis-py --topology cluster
refuses "--topology ring: not a topology (single or cluster)" redis-py --topology ring
refuses "expected redis, redis@3, etcd or zookeeper" "mine=python3 x.py" --client-server mysql
refuses "not a fault that applies to redis-py's redis lock" redis-py --faults clock-skew
refuses "not a fault that applies to etcd-lock's etcd lock" etcd-lock --faults redis-restart
refuses "the command is empty" "mine="
refuses "overlap with 4 jobs" redis-py --failover-port 7000 --redlock-port 7001
refuses "--faults redis-restart: no history's operation" redis-py --duration 3 --faults redis-restart
refuses "one of them, not both" redis-py --duration 3 --increments 3

# By histories: redis-py's three processes lock again and again for 3 s under none and pause, and
# lose money under pause, each line with its histories' figures.
judge histories redis-py --quick --duration 3 --faults none,pause
check "judge by histories exits 3, money lost (got $rc)" test $rc -eq 3
check "its header says what each fault ran" grep -q ': 2 faults, 1 history of 3 workers x 3 s each,' "$work/histories.out"
check "none struck nothing and lost no increment" \
    grep -Eq '^none .*; increments lost 0/[0-9]+ \(95% [0-9-]+%\), struck 0, 0 followed by a loss$' "$work/histories.out"
check "pause struck and lost increments" \
    grep -Eq '^pause .*; increments lost [1-9][0-9]*/[0-9]+ \(95% [0-9-]+%\), struck [1-9][0-9]*, ' "$work/histories.out"

# A shipped Python adapter, --quick: every fault that applies to a Redis lock, 1 trial each.
judge redis-py redis-py --quick
check "redis-py --quick exits 3, money lost (got $rc)" test $rc -eq 3
check "its status is its verdict's ($(status_of_verdict redis-py))" test "$(status_of_verdict redis-py)" = "$rc"
check "its last line on stderr says so" grep -q 'rlock: error: judge: redis-py lost money under' "$work/redis-py.err"
for fault in none pause slow kill redis-restart failover partition delayed-write redis-stall net-delay pause-waiter \
    conn-drop; do
    check "the verdict has a line for $fault" grep -qE "^$fault +(nothing lost|money|liveness) [0-9]+/1 \(95% " \
        "$work/redis-py.out"
done
check "no line for clock-skew, which applies to no client" bash -c "! grep -q '^clock-skew' '$work/redis-py.out'"
check "a money line names what was lost" grep -qE '^[a-z-]+ +money 1/1 \(95% [0-9]+-100%\): (lost updates|two holders)' \
    "$work/redis-py.out"
check "it says what to do instead" grep -q "^instead: .*rlock's fenced-claim" "$work/redis-py.out"
run=$(sed -n 's/^run: \(.*\) (rlock report DIR, rlock analyze DIR)$/\1/p' "$work/redis-py.out")
card=$(sed -n 's/^card: //p' "$work/redis-py.out")
check "the run is kept in the data directory" test -d "$run" -a "${run#"$work/redis-py/chaos/runs/"}" != "$run"
check "rlock analyze reads the run" bash -c "\"$rlock\" analyze \"$run\" >\"$work/analyzed.txt\""
check "its chaos.json is beside it" test -s "$run/chaos.json"
check "the card is written beside the run" test "$card" = "$run/card.html" -a -s "$card"
check "the card says the verdict" grep -q '<p class="v-lost">verdict: redis-py loses money under' "$card"
check "the card draws the shortest loss's timeline" grep -q '<figure id="shortest-loss-timeline">' "$card"
faults=$(sed -n 's/^rlock judge redis-py .*: \([0-9]*\) faults, 1 trial each, .*/\1/p' "$work/redis-py.out")
check "the verdict has a line a fault ($faults)" \
    test "$(grep -cE '^[a-z-]+ +(nothing lost|money|liveness|not judged)' "$work/redis-py.out")" = "$faults"
check "the card has a row a fault" test "$(grep -c '<tr><th scope="row">' "$card")" = "$faults"
check "the card passes tidy without an error" bash -c "tidy -errors -q '$card' 2>&1 | { ! grep -q 'Error:'; }"
check "the card names no address but the SVG namespace" \
    test -z "$(grep -o 'https\?://[^\"]*' "$card" | grep -v '^http://www.w3.org/2000/svg$')"
check "the card has no script" bash -c "! grep -qi '<script' '$card'"

# In the browser: the card draws, and its table and its timeline are where they stand.
shoot "file://$card" "$work/card.png"
sed 's/<table>/<table style="visibility:hidden">/' "$card" >"$work/no-table.html"
sed 's/<figure id="shortest-loss-timeline">/<figure style="visibility:hidden" id="shortest-loss-timeline">/' "$card" \
    >"$work/no-timeline.html"
shoot "file://$work/no-table.html" "$work/no-table.png"
shoot "file://$work/no-timeline.html" "$work/no-timeline.png"
with=$(ink "$work/card.png") no_table=$(ink "$work/no-table.png") no_timeline=$(ink "$work/no-timeline.png")
echo "the card inks $with rows of 1400 px, $no_table with its table hidden, $no_timeline with its timeline hidden"
check "the card's table draws ink (at least 200 rows)" test $((with - no_table)) -ge 200
check "the card's timeline draws ink (at least 100 rows)" test $((with - no_timeline)) -ge 100

# One's own client that writes each increment twice: money created in every trial, certain.
judge double "mine=/usr/bin/python3 $here/hostile_client.py double-write" --faults none --trials 2 --html "$work/double.html"
check "one's own client that creates money exits 3 (got $rc)" test $rc -eq 3
check "its verdict says created money" grep -qE '^none +money 2/2 \(95% 34-100%\): created money 2' "$work/double.out"
check "its card is where --html says" grep -q '<p class="v-lost">verdict: mine loses money under none' \
    "$work/double.html"

# One's own client of fenced-claim, which reports a refused claim as its increment's error: the
# fence working, exit 0, under every fault that leaves its token counter in place.
judge fenced "mine=$rlock client --strategy fenced-claim" --quick \
    --faults none,pause,slow,kill,partition,delayed-write,conn-drop,pause-late
check "a fenced-claim client exits 0 (got $rc)" test $rc -eq 0
check "its status is its verdict's ($(status_of_verdict fenced))" test "$(status_of_verdict fenced)" = "$rc"
check "every line of it is nothing lost" test "$(grep -cE '^[a-z-]+ +nothing lost 0/1 ' "$work/fenced.out")" = 8
# A client whose every increment is refused makes no progress: liveness, exit 4.
judge refuse "mine=/usr/bin/python3 $here/hostile_client.py refuse" --faults none --trials 1
check "a client that never succeeds exits 4 (got $rc)" test $rc -eq 4
check "its line says no progress" grep -qE '^none +liveness 1/1 \(95% [0-9]+-100%\): no progress 1' "$work/refuse.out"

# What the harness served is judged whatever the client did next: a TTL client that exits after
# the write its late read made stale loses money, as the same client without the exit does.
for mode in late-exit plain; do
    judge "$mode" "mine=/usr/bin/python3 $here/hostile_client.py $mode" --faults none,pause --trials 3
    check "the $mode client exits 3 (got $rc)" test $rc -eq 3
    check "its pause line is money" grep -qE '^pause +money [1-3]/3 ' "$work/$mode.out"
done
check "the late-exit client's errors are counted beside" grep -qE '^pause +money .*; client errors [1-3]$' \
    "$work/late-exit.out"

# etcd-lock beside its fenced variant; a TTL of 1500 ms judged as 2000 ms, in one warning line.
judge etcd etcd-lock --faults none,pause --trials 1 --ttl 1500
check "etcd-lock runs (got $rc)" test $rc -eq 0 -o $rc -eq 3 -o $rc -eq 4
check "its status is its verdict's ($(status_of_verdict etcd))" test "$(status_of_verdict etcd)" = "$rc"
check "the TTL rounded up is said in one line" \
    grep -qx "rlock: warning: etcd-lock's library counts its TTL in whole seconds: --ttl 1500 is judged as 2000 ms" \
    "$work/etcd.err"
check "the fenced variant stands beside it" grep -qE '^fault +etcd-lock +etcd-lock-fenced$' "$work/etcd.out"
check "at the TTL judged" grep -q 'TTL 2000 ms (whole seconds)' "$work/etcd.out"
cp "$(sed -n 's/^run: \(.*\) (rlock report DIR, rlock analyze DIR)$/\1/p' "$work/etcd.out")/chaos.json" "$work/table.json"
check "etcd-lock-fenced is judged under pause" test "$(chaos_cell etcd-lock-fenced pause trials)" = 1
check "and loses no money" test "$(chaos_cell etcd-lock-fenced pause anomalies)" = 0

# etcd-mutex at its default version, 3.5.21: the scenario written for it that names that version
# runs after the faults, its verdict a line of its own and an item of the card. Its manifest lists
# the cluster topology: it is judged there too, as rows of their own, a run of their own.
judge etcd-mutex etcd-mutex --faults none,leader-pause --trials 1
check "etcd-mutex runs (got $rc)" test $rc -eq 0 -o $rc -eq 3 -o $rc -eq 4
check "its scenario etcd-11456 is judged at 3.5.21" \
    grep -qE '^scenario etcd-11456 \(pause-waiter\): (reproduces in 3\.5\.21 |does not reproduce in any version judged: 3\.5\.21 )' \
    "$work/etcd-mutex.out"
check "and is on its card" grep -q '<li><strong>etcd-11456</strong>' "$(sed -n 's/^card: //p' "$work/etcd-mutex.out")"
check "its rows on one server: none" grep -q '^none  .*nothing lost' "$work/etcd-mutex.out"
check "its rows on the cluster: none and leader-pause, each judged" \
    test "$(grep -cE '^(none|leader-pause) on cluster +(nothing lost|money|liveness)' "$work/etcd-mutex.out")" -eq 2
check "a run a topology" test "$(grep -c '^run: ' "$work/etcd-mutex.out")" -eq 2
check "the card has the cluster's rows" grep -q '<th scope="row">leader-pause on cluster</th>' \
    "$(sed -n 's/^card: //p' "$work/etcd-mutex.out")"
finish
