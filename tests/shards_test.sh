#!/usr/bin/env bash
# rlock chaos --shard K/N and rlock merge: a tiny campaign (faults none and kill, whose trials'
# outcomes do not hang on timing) run whole and as 3 shards of the same seed; the merged run gives
# the whole campaign's counts cell by cell, analyze reads it as any run, and its run files validate.
# Then bad input, each one line: K/N out of range, a shard of another seed, a shard missing or
# given twice (exit 2, nothing written), a shard of an interrupted campaign, and shards whose files
# are not what rlock wrote: a link or a link loop in trials/, another shard's trial there, trials/
# a file, a FIFO run.json (under a timeout), a line removed after the seal (exit 1, no run left).
# Usage: shards_test.sh RLOCK_BINARY. python3-jsonschema comes from scripts/test.sh.
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"
campaign=(chaos --strategies ttl,fenced-claim --faults none,kill --trials 4 --jobs 4 --ttl 100)

"$rlock" --dir "$work/whole" "${campaign[@]}" --seed 11 --json "$work/whole.json" >"$work/whole.txt" 2>&1
check "the whole campaign exits 0" test $? -eq 0 || cat "$work/whole.txt"
for k in 1 2 3; do
    "$rlock" --dir "$work/shards" "${campaign[@]}" --seed 11 --shard "$k/3" >"$work/shard$k.txt" 2>&1
    check "shard $k/3 exits 0" test $? -eq 0 || cat "$work/shard$k.txt"
done
shards=("$work"/shards/chaos/runs/*-seed11-shard*of3)
check "the 3 shards are stored as TIME-seed11-shardKof3" test ${#shards[@]} -eq 3
check "a shard's first line names its shard and plan" grep -q "shard 2/3 of plan [0-9a-f]\{16\}$" "$work/shard2.txt"
check "the shards hold 16 trials between them, none twice" \
    test "$(for s in "${shards[@]}"; do gzip -dc "$s/trials.jsonl.gz"; done |
        python3 -c 'import json,sys; print(len({(j["row"],j["fault"],j["number"]) for j in map(json.loads,sys.stdin)}))')" -eq 16

"$rlock" --dir "$work/merged" merge "${shards[@]}" --json "$work/merged.json" >"$work/merge.txt" 2>"$work/merge.err"
check "merge exits 0" test $? -eq 0 || cat "$work/merge.err"
check "merge names 3 shards and the plan" grep -q "^rlock merge: 3 shards of plan [0-9a-f]\{16\}, seed 11" "$work/merge.txt"
check "the merged shards give the whole campaign's counts, cell by cell" \
    python3 "$here/same_counts.py" "$work/whole.json" "$work/merged.json"
run=$(ls -d "$work"/merged/chaos/runs/*-seed11 2>/dev/null | head -n 1)
check "the merged run is stored as TIME-seed11 with its report" test -s "$run/report.html"
"$rlock" analyze "$run" --json "$work/analyzed.json" >/dev/null 2>&1
check "analyze reads the merged run: the same JSON" cmp "$work/merged.json" "$work/analyzed.json"
check "the shard's and the merged run.json validate" \
    python3 "$here/validate_json.py" "$here/../docs/schemas/run.schema.json" "${shards[0]}/run.json" "$run/run.json"

# bad CODE TEXT ARGS...: rlock ARGS exits CODE with one line on stderr naming TEXT, and writes no run.
bad() {
    local code=$1 text=$2 rc; shift 2
    timeout 60 "$rlock" --dir "$work/bad" "$@" >/dev/null 2>"$work/bad.err"
    rc=$?
    check "$text: exit $code (got $rc)" test $rc -eq "$code"
    check "$text: one line" bash -c "test \$(wc -l <'$work/bad.err') -eq 1 && grep -q -- '$text' '$work/bad.err'" ||
        cat "$work/bad.err"
    check "$text: no run written, whole or partial" test -z "$(ls -A "$work/bad/chaos/runs" 2>/dev/null)"
}
bad 2 "--shard 4/3: out of range" "${campaign[@]}" --shard 4/3
bad 2 "--shard 0/3: out of range" "${campaign[@]}" --shard 0/3
bad 2 "--shard 1/17: out of range: the campaign has 16 trials" "${campaign[@]}" --shard 1/17
bad 2 "--shard 2: expected K/N" "${campaign[@]}" --shard 2
bad 2 "--shard 1/x: expected K/N" "${campaign[@]}" --shard 1/x

"$rlock" --dir "$work/other" "${campaign[@]}" --seed 12 --shard 2/3 >"$work/other.txt" 2>&1
check "a shard of seed 12 exits 0" test $? -eq 0
other=$(ls -d "$work"/other/chaos/runs/*-seed12-shard2of3)
bad 2 "its seed is 12, not 11" merge "${shards[0]}" "$other" "${shards[2]}"
bad 2 "shard 2/3 is missing" merge "${shards[0]}" "${shards[2]}"
bad 2 "shard 2/3 is given twice" merge "${shards[0]}" "${shards[1]}" "${shards[1]}" "${shards[2]}"
cp -r "${shards[1]}" "$work/interrupted" && sed -i 's/"complete"/"interrupted"/' "$work/interrupted/sealed.json"
bad 1 "run of an interrupted campaign" merge "${shards[0]}" "$work/interrupted" "${shards[2]}"

# forged NAME [K]: a copy of shard K/3 (2 by default) to break, in $work/NAME.
forged() { rm -rf "${work:?}/$1" && cp -r "${shards[${2:-2}-1]}" "$work/$1" && mkdir -p "$work/$1/trials"; }
mkdir -p "$work/secret" && echo s3cret >"$work/secret/token"
forged link && ln -s "$work/secret" "$work/link/trials/planted"
bad 1 "trials/planted is not the directory of a trial that shard 2/3 kept" merge "${shards[0]}" "$work/link" "${shards[2]}"
forged loop && ln -s loop "$work/loop/trials/loop"
bad 1 "trials/loop is not the directory of a trial that shard 2/3 kept" merge "${shards[0]}" "$work/loop" "${shards[2]}"
# The same trial's directory kept in shards 1/3 and 2/3.
name=$(gzip -dc "${shards[0]}/trials.jsonl.gz" | head -n 1 |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print("%s-%s-%d" % (j["row"], j["fault"], j["number"]))')
for k in 1 2; do
    forged "twice$k" $k && mkdir -p "$work/twice$k/trials/$name" && echo '{}' >"$work/twice$k/trials/$name/history.jsonl"
done
bad 1 "trials/$name is not the directory of a trial that shard" merge "$work/twice1" "$work/twice2" "${shards[2]}"
forged file && rm -r "$work/file/trials" && echo x >"$work/file/trials"
bad 1 "trials is a regular file, not a directory" merge "${shards[0]}" "$work/file" "${shards[2]}"
forged fifo && rm "$work/fifo/run.json" && mkfifo "$work/fifo/run.json"
bad 1 "run.json is a FIFO, not a regular file" merge "${shards[0]}" "$work/fifo" "${shards[2]}"
forged cut && gzip -dc "${shards[1]}/trials.jsonl.gz" | sed 1d | gzip >"$work/cut/trials.jsonl.gz"
bad 1 "trials.jsonl.gz is not what its sealed.json sealed" merge "${shards[0]}" "$work/cut" "${shards[2]}"
finish
