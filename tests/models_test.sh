#!/usr/bin/env bash
# The spin models give the verdicts docs/explore.md states: a counterexample for ttl, watchdog (the
# pause lets its lease run out) and fenced-retry, none for fenced-claim, each search complete. Each
# trail's STEP lines are an order of the spec's tokens only, a whole one (both workers end with
# their release); the orders of a world counted by hand; nothing of spin's is left in models/. Bad
# input: one line, exit 2; spin missing: one line naming the package. Usage: models_test.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {  # check WHAT COMMAND...: counts COMMAND's success as a pass
    local what=$1; shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

before=$(cd "$root" && git status --porcelain --ignored -- models 2>/dev/null)
bash "$root/scripts/models.sh" --out "$work/out" >"$work/report" 2>"$work/err"
check "models.sh exits 0 (stderr: $(cat "$work/err"))" test $? -eq 0
sed 's/^/    /' "$work/report"
for model in ttl watchdog fenced-retry; do
    check "$model has a counterexample, complete" grep -q "^$model: counterexample (.*, complete," "$work/report"
    check "$model's trail is written" test -s "$work/out/$model.trail.txt"
done
check "fenced-claim has none, complete" grep -q '^fenced-claim: none (.*, complete,' "$work/report"
check "fenced-claim has no trail" test ! -e "$work/out/fenced-claim.trail.txt"

# The tokens of docs/explore.md's table, and nothing else, in each trail.
token='([AB]:(acquire|fence|claim|read|write|extend|release)|expire|(pause|resume):[AB]|restart|failover)'
for trail in "$work"/out/*.trail.txt; do
    name=$(basename "$trail")
    check "$name has STEP lines" grep -q '^STEP ' "$trail"
    check "$name ends in the judge's assertion" grep -q 'Error: assertion violated' "$trail"
    check "$name's STEP lines are the spec's tokens" bash -c "! grep '^STEP' '$trail' | grep -Evx 'STEP $token'"
    for w in A B; do
        check "$name: $w's last step is its release" test "$(grep "^STEP $w:" "$trail" | tail -n 1)" = "STEP $w:release"
    done
done
check "the ttl trail is lab 1's loss: A and B read before both write" grep -q \
    'shortest, 9 steps: A:acquire A:read expire B:acquire B:read' "$work/report"

# Every event and a larger bound, on the safe model: still none.
bash "$root/scripts/models.sh" --events expiry,pause,restart,failover --bound 3 --out "$work/all" fenced-claim \
    >"$work/all.report" 2>&1
check "fenced-claim holds under every event, bound 3" grep -q '^fenced-claim: none (.*, complete,' "$work/all.report"

# Counting orders, on a world counted by hand: A first, B's one try refused before A's release
# (after A's acquire, read or write: 3 orders, B gives up) or granted after it (1); B first alike.
bash "$root/scripts/models.sh" --orders --events none --bound 0 --out "$work/count" ttl >"$work/count.report" 2>&1
check "ttl with no event at bound 0 has 8 orders, none losing" grep -qx '  orders 8, losing 0' "$work/count.report"

check "nothing of spin's left in models/" test "$(cd "$root" && git status --porcelain --ignored -- models)" = "$before"

for bad in "no-such-model" "--events expiry,nap" "--bound 99"; do
    # shellcheck disable=SC2086 # the words of bad are the arguments
    bash "$root/scripts/models.sh" $bad >"$work/out.txt" 2>"$work/err"; rc=$?
    check "models.sh $bad: exit 2, one line" test "$rc:$(wc -l <"$work/err"):$(wc -c <"$work/out.txt")" = "2:1:0"
done
SPIN=$work/no-spin bash "$root/scripts/models.sh" ttl >/dev/null 2>"$work/err"; rc=$?
check "spin missing: one line naming the package" \
    test "$rc:$(wc -l <"$work/err"):$(grep -c "package spin" "$work/err")" = "1:1:1"

echo "$passed passed, $failed failed"
((failed == 0))
