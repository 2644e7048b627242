#!/usr/bin/env bash
# A small chaos campaign stored under chaos/runs/, then rlock analyze on it: the same JSON as the
# campaign's own --json, the same table, a comparison with Fisher's p-value, rlock report on the
# run directory; and bad input: a missing or foreign directory, a truncated history, a newer
# format, each one line on stderr, exit 1, the --json file left as it was.
set -uo pipefail
rlock=$1
source "$(dirname "$0")/checks.sh"

"$rlock" --dir "$work" chaos --strategies ttl,fenced-claim --faults none,pause --trials 6 --jobs 2 --seed 5 \
    --json "$work/campaign.json" >"$work/campaign.txt" 2>"$work/campaign.err"
check "the campaign exits 0" test $? -eq 0
run=$(ls -d "$work"/chaos/runs/*-seed5 2>/dev/null | head -n 1)
check "the run is stored under chaos/runs/TIME-seed5" test -n "$run"
check "it keeps its command line" grep -q '"--seed"' "$run/run.json"
check "it keeps every trial, compressed" test "$(gzip -dc "$run/trials.jsonl.gz" | wc -l)" -eq 24
check "it keeps the table as chaos.json" cmp -s "$work/campaign.json" "$run/chaos.json"

"$rlock" analyze "$run" --json "$work/analyze.json" >"$work/analyze.txt" 2>"$work/analyze.err"
check "analyze exits 0" test $? -eq 0
check "analyze's JSON is the campaign's, byte for byte" cmp "$work/campaign.json" "$work/analyze.json"
check "analyze prints the campaign's table" cmp <(tail -n +2 "$work/campaign.txt") <(tail -n +2 "$work/analyze.txt")

"$rlock" analyze "$run" --compare ttl:pause fenced-claim:pause >"$work/compare.txt"
check "compare prints both cells" test "$(grep -c ' under pause: .* of 6 trials with an anomaly' "$work/compare.txt")" -eq 2
check "compare prints Fisher's p-value" grep -q "Fisher's exact test, two-sided: p = " "$work/compare.txt"
"$rlock" analyze "$run" --compare ttl:pause nothing:pause >/dev/null 2>&1
check "an unknown cell is a usage error" test $? -eq 2
"$rlock" report "$run" >/dev/null 2>&1
check "rlock report reads the run directory" test -s "$run/report.html"

# bad DIR TEXT: analyze DIR exits 1 with one line naming TEXT, and leaves --json's file alone.
bad() {
    local dir=$1 text=$2 rc
    echo keep >"$work/kept.json"
    "$rlock" analyze "$dir" --json "$work/kept.json" >/dev/null 2>"$work/bad.err"
    rc=$?
    check "analyze $(basename "$dir"): exit 1 (got $rc)" test $rc -eq 1
    check "analyze $(basename "$dir"): one line naming '$text'" \
        bash -c "test \$(wc -l <'$work/bad.err') -eq 1 && grep -q '$text' '$work/bad.err'"
    check "analyze $(basename "$dir"): --json untouched" grep -qx keep "$work/kept.json"
}
bad "$work/missing" "no such directory"
mkdir "$work/foreign" && bad "$work/foreign" "not a stored chaos run"
cp -r "$run" "$work/cut-gz" && head -c -40 "$run/trials.jsonl.gz" >"$work/cut-gz/trials.jsonl.gz"
bad "$work/cut-gz" "truncated"
cp -r "$run" "$work/cut-line" && rm "$work/cut-line/trials.jsonl.gz"
gzip -dc "$run/trials.jsonl.gz" | head -c -30 >"$work/cut-line/trials.jsonl"
bad "$work/cut-line" "truncated"
cp -r "$run" "$work/newer" && sed -i 's/"format": 1/"format": 2/' "$work/newer/run.json"
bad "$work/newer" "newer than this rlock reads"
cp -r "$run" "$work/newer-trial" && rm "$work/newer-trial/trials.jsonl.gz"
gzip -dc "$run/trials.jsonl.gz" | sed '3s/"format":1/"format":2/' >"$work/newer-trial/trials.jsonl"
bad "$work/newer-trial" "line 3: format 2 is newer"
"$rlock" analyze >/dev/null 2>&1
check "analyze without a directory is a usage error" test $? -eq 2
finish
