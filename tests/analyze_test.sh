#!/usr/bin/env bash
# A small chaos campaign stored under chaos/runs/, then rlock analyze on it: the same JSON as the
# campaign's own --json, the same table, a comparison with Fisher's p-value, rlock report on the
# run directory; runs of formats 1 and 2 still read, and a run stored by rlock 5150d3f
# (tests/data/run-5150d3f-seed11: ttl, fenced-claim and redis-py under none, pause and kill)
# analyzes to the JSON it was stored with, byte for byte; and bad input: a missing or foreign directory,
# a history cut short (anywhere in its gzip stream, or in a line), an unsealed run, a newer format,
# a run.json with a field of the wrong type or out of range or too large or nested 400,000 deep, a line removed after the
# seal, a run.json that is a link or a FIFO (under a timeout), a run with no judged trial, each one
# line on stderr, exit 1, the --json file left as it was, within 1 GB of memory. A seal from before
# the trials' digest still reads.
# Usage: analyze_test.sh RLOCK plain|asan   (asan: RLOCK is built with AddressSanitizer)
set -uo pipefail
rlock=$1 build=$2
source "$(dirname "$0")/checks.sh"
[[ $build == plain || $build == asan ]] || { echo "FAIL: the build is 'plain' or 'asan', not '$build'"; exit 1; }

# within_1gb COMMAND...: COMMAND bounded to 1 GB. A plain rlock under ulimit -v; AddressSanitizer
# maps terabytes of shadow memory at start, so a sanitized one is bounded by the sanitizer itself:
# its resident memory (checked every 100 ms or so) and any one allocation.
within_1gb() {
    if [[ $build == asan ]]; then
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1000:max_allocation_size_mb=1000 "$@"
    else
        (ulimit -v 1000000; "$@")
    fi
}

"$rlock" --dir "$work" chaos --strategies ttl,fenced-claim --faults none,pause --trials 6 --jobs 2 --seed 5 --account 310000 \
    --json "$work/campaign.json" >"$work/campaign.txt" 2>"$work/campaign.err"
check "the campaign exits 0" test $? -eq 0
run=$(ls -d "$work"/chaos/runs/*-seed5 2>/dev/null | head -n 1)
check "the run is stored under chaos/runs/TIME-seed5" test -n "$run"
check "it keeps its command line" grep -q '"--seed"' "$run/run.json"
check "its trials took accounts from --account's" grep -Eq '"first_account": ?310000' "$run/run.json"
check "it keeps every trial, compressed" test "$(gzip -dc "$run/trials.jsonl.gz" | wc -l)" -eq 24
check "it keeps the table as chaos.json" cmp -s "$work/campaign.json" "$run/chaos.json"
check "it is sealed complete" grep -q '"state": "complete"' "$run/sealed.json"
check "its seal holds the SHA-256 of its trials" \
    grep -q "\"trials_sha256\": \"$(gzip -dc "$run/trials.jsonl.gz" | sha256sum | cut -d' ' -f1)\"" "$run/sealed.json"

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
    within_1gb timeout 60 "$rlock" analyze "$dir" --json "$work/kept.json" >/dev/null 2>"$work/bad.err"
    rc=$?
    check "analyze $(basename "$dir"): exit 1 (got $rc)" test $rc -eq 1
    check "analyze $(basename "$dir"): one line naming '$text'" \
        bash -c "test \$(wc -l <'$work/bad.err') -eq 1 && grep -q '$text' '$work/bad.err'"
    check "analyze $(basename "$dir"): --json untouched" grep -qx keep "$work/kept.json"
}
bad "$work/missing" "no such directory"
mkdir "$work/foreign" && bad "$work/foreign" "not a stored chaos run"
# copy NAME: a copy of the run to break.
copy() { cp -r "$run" "$work/$1"; }
for bytes in 10 20 40 70; do
    copy "cut-gz-$bytes" && head -c $bytes "$run/trials.jsonl.gz" >"$work/cut-gz-$bytes/trials.jsonl.gz"
    bad "$work/cut-gz-$bytes" "truncated"
done
copy cut-gz && head -c -40 "$run/trials.jsonl.gz" >"$work/cut-gz/trials.jsonl.gz"
bad "$work/cut-gz" "truncated"
copy bad-crc && python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[-8]^=1; open(p,"wb").write(b)' \
    "$work/bad-crc/trials.jsonl.gz"
bad "$work/bad-crc" "damaged"
copy trailing && echo junk >>"$work/trailing/trials.jsonl.gz"
bad "$work/trailing" "bytes follow its gzip stream"
copy cut-line && gzip -dc "$run/trials.jsonl.gz" | head -c -30 | gzip >"$work/cut-line/trials.jsonl.gz"
bad "$work/cut-line" "truncated"
copy unsealed && gzip -dc "$run/trials.jsonl.gz" >"$work/unsealed/trials.jsonl" && rm "$work/unsealed/trials.jsonl.gz"
rm "$work/unsealed/sealed.json"
bad "$work/unsealed" "not sealed: its trials.jsonl was never compressed"
copy no-seal && rm "$work/no-seal/sealed.json"
bad "$work/no-seal" "not sealed: it has no sealed.json"
# A run of format 2 comes from before shards and rlock_version; one of format 1 from before
# sealed.json: its trials compressed whole were its seal.
copy format-2 && sed -i 's/"format": 3/"format": 2/' "$work/format-2/run.json"
check "a run of format 2 is read" "$rlock" analyze "$work/format-2" --json "$work/format-2.json"
check "a run of format 2 gives the same JSON" cmp "$work/format-2.json" "$work/analyze.json"
# A run stored by an earlier rlock, kept in the checkout: judged again, the table it was stored with.
cp -r "$(dirname "$0")/data/run-5150d3f-seed11" "$work/stored"
check "a run stored by rlock 5150d3f is read" "$rlock" analyze "$work/stored" --json "$work/stored.json"
check "it analyzes to the JSON it was stored with, byte for byte" cmp "$work/stored.json" "$work/stored/chaos.json"
copy legacy && sed -i 's/"format": 3/"format": 1/' "$work/legacy/run.json" && rm "$work/legacy/sealed.json"
check "a run of format 1 with no sealed.json is read" "$rlock" analyze "$work/legacy" --json "$work/legacy.json"
check "a run of format 1 gives the same JSON" cmp "$work/legacy.json" "$work/analyze.json"
copy old-seal && sed -i '/trials_sha256/d; s/"state": "complete",/"state": "complete"/' "$work/old-seal/sealed.json"
check "a seal from before the trials' digest is read" "$rlock" analyze "$work/old-seal" --json "$work/old-seal.json"
check "a seal from before the trials' digest gives the same JSON" cmp "$work/old-seal.json" "$work/analyze.json"
copy line-removed && gzip -dc "$run/trials.jsonl.gz" | sed 2d | gzip >"$work/line-removed/trials.jsonl.gz"
bad "$work/line-removed" "trials.jsonl.gz is not what its sealed.json sealed"
copy run-json-link && mv "$work/run-json-link/run.json" "$work/elsewhere.json" &&
    ln -s "$work/elsewhere.json" "$work/run-json-link/run.json"
bad "$work/run-json-link" "run.json is a symbolic link"
copy run-json-fifo && rm "$work/run-json-fifo/run.json" && mkfifo "$work/run-json-fifo/run.json"
bad "$work/run-json-fifo" "run.json is a FIFO, not a regular file"
# Every trial not run, the digest sealed again: nothing judged.
copy none-judged && gzip -dc "$run/trials.jsonl.gz" | sed 's/"not_run":false/"not_run":true/' |
    gzip >"$work/none-judged/trials.jsonl.gz"
sed -i "s/\"trials_sha256\": \"[0-9a-f]*\"/\"trials_sha256\": \"$(gzip -dc "$work/none-judged/trials.jsonl.gz" |
    sha256sum | cut -d' ' -f1)\"/" "$work/none-judged/sealed.json"
bad "$work/none-judged" "judged no trial"
copy other-seal && sed -i 's/"complete"/"halfway"/' "$work/other-seal/sealed.json"
bad "$work/other-seal" "it was sealed \"halfway\""
copy newer && sed -i 's/"format": 3/"format": 4/' "$work/newer/run.json"
bad "$work/newer" "newer than this rlock reads"
copy newer-trial
gzip -dc "$run/trials.jsonl.gz" | sed '3s/"format":1/"format":2/' | gzip >"$work/newer-trial/trials.jsonl.gz"
bad "$work/newer-trial" "line 3: format 2 is newer"
# field NAME FROM TO TEXT: run.json with FROM replaced by TO is refused naming TEXT.
field() {
    copy "$1" && sed -i "s/$2/$3/" "$work/$1/run.json"
    bad "$work/$1" "$4"
}
field format-string '"format": 3' '"format": "3"' 'format "3" is not a format number'
field trials-20m '"trials": 6' '"trials": 20000000' 'trials is 20000000, not an integer from 1 to 100000'
field trials-float '"trials": 6' '"trials": 6.5' 'trials is 6.5, not an integer'
field jobs-negative '"jobs": 2' '"jobs": -5' 'jobs is -5'
field ttl-huge '"ttl_ms": 200' '"ttl_ms": 99999999999999999999' 'ttl_ms is'
field strategy-unknown '"fenced-claim"' '"nothing"' 'unknown strategy "nothing"'
field strategy-twice '"fenced-claim"' '"ttl"' 'names the strategy "ttl" twice'
field fault-number '"pause"' '7' 'a fault is 7, not a name'
copy trials-many && python3 - "$work/trials-many/run.json" <<'PY'
import json, sys
path = sys.argv[1]
run = json.load(open(path))
run["campaign"]["clients"] = [{"name": f"c{i}", "command": "true", "servers": 1, "expected_safe": False} for i in range(100)]
run["campaign"]["trials"] = 100000
json.dump(run, open(path, "w"))
PY
bad "$work/trials-many" "trials: at most 1000000 a run"
copy run-json-large && python3 - "$work/run-json-large/run.json" <<'PY'
import json, sys
path = sys.argv[1]
run = json.load(open(path))
run["padding"] = "x" * (2 << 20)
json.dump(run, open(path, "w"))
PY
bad "$work/run-json-large" "larger than 1048576 bytes"
copy nested && python3 -c 'import sys; open(sys.argv[1], "w").write("[" * 400000 + "]" * 400000)' "$work/nested/run.json"
bad "$work/nested" "nested deeper than 64 levels"
copy line-foreign
gzip -dc "$run/trials.jsonl.gz" | sed '1s/"row":"[^"]*"/"row":"nobody"/' | gzip >"$work/line-foreign/trials.jsonl.gz"
bad "$work/line-foreign" "line 1 names no trial of the campaign"
"$rlock" analyze >/dev/null 2>&1
check "analyze without a directory is a usage error" test $? -eq 2
finish
