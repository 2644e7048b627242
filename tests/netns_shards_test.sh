#!/usr/bin/env bash
# --netns changes what a trial does, so run.json records it and it is part of the plan's
# fingerprint: a shard run with --netns and one without are not one campaign, and rlock merge
# refuses them in one line, exit 2. A run stored before run.json recorded it (no `netns` field) is
# read as one without --netns: its shard's fingerprint holds and analyze gives the same JSON.
# Usage: netns_shards_test.sh RLOCK_BINARY. Needs root (CI is root), like chaos_netns.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"
if [ "$(id -u)" -ne 0 ]; then echo "netns_shards: needs root (CI is root); skipped"; exit 0; fi
campaign=(chaos --strategies ttl --faults none --trials 2 --jobs 1 --seed 5)
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["setup"].get("netns"))' "$1/run.json"; }

"$rlock" --dir "$work/netns" "${campaign[@]}" --netns --shard 1/2 >"$work/out" 2>&1
check "shard 1/2 under --netns exits 0" test $? -eq 0 || cat "$work/out"
"$rlock" --dir "$work/plain" "${campaign[@]}" --shard 2/2 >"$work/out" 2>&1
check "shard 2/2 without it exits 0" test $? -eq 0 || cat "$work/out"
netns=$(ls -d "$work"/netns/chaos/runs/*-shard1of2) plain=$(ls -d "$work"/plain/chaos/runs/*-shard2of2)
check "run.json records --netns" test "$(field "$netns")" = True
check "run.json records its absence" test "$(field "$plain")" = False

"$rlock" --dir "$work/merged" merge "$netns" "$plain" >/dev/null 2>"$work/err"
rc=$?
check "a merge of shards with and without --netns exits 2 (got $rc)" test $rc -eq 2
check "it says so in one line" bash -c "test \$(wc -l <'$work/err') -eq 1 && grep -q 'its netns is false, not true' '$work/err'" ||
    cat "$work/err"
check "it writes no run" test ! -e "$work/merged/chaos/runs"

# The shard as a run stored before netns was recorded.
"$rlock" analyze "$plain" --json "$work/plain.json" >/dev/null 2>&1
check "analyze reads the shard" test $? -eq 0
cp -r "$plain" "$work/older"
python3 - "$work/older/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
del run["setup"]["netns"]
json.dump(run, open(sys.argv[1], "w"), indent=2)
PY
"$rlock" analyze "$work/older" --json "$work/older.json" >/dev/null 2>"$work/err"
check "a shard stored without the field is read: its fingerprint holds" test $? -eq 0 || cat "$work/err"
check "and analyzed to the same JSON" cmp "$work/plain.json" "$work/older.json"
finish
