#!/usr/bin/env bash
# The run files rlock writes validate against their JSON Schemas (docs/schemas/): a tiny chaos run
# (its --json table, and its stored run.json, trials.jsonl.gz, chaos.json and sealed.json), with a
# catalogue client at a version (a row NAME@V), a short bench run
# (bench.json), an explorer's walk (its --json file and its run, kept as a chaos run's files), and
# events.jsonl as a lab writes it (rlock reset and a worker) and as a kept chaos
# trial holds it. A file written by rlock and refused by its schema, or the other way round, is
# one definition drifting from the other.
# Each file is validated twice: by Debian's python3-jsonschema (/usr/bin/python3, 4.10 on Debian 12,
# which resolves a "$ref" against the schema's "$id") and by the first python3 on PATH, when that is
# another (a current jsonschema).
# Usage: schemas_test.sh RLOCK_BINARY. python3-jsonschema comes from scripts/test.sh.
set -uo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
schemas=$here/../docs/schemas
source "$here/checks.sh"
pythons=(/usr/bin/python3)
[[ $(command -v python3) -ef /usr/bin/python3 ]] || pythons+=("$(command -v python3)")
for python in "${pythons[@]}"; do
    "$python" -c 'import jsonschema' 2>/dev/null ||
        { echo "$python has no jsonschema (scripts/test.sh installs python3-jsonschema)"; exit 1; }
done
valid() { # valid SCHEMA FILE...: every value in the files validates against docs/schemas/SCHEMA.schema.json
    local schema=$1 python; shift
    for python in "${pythons[@]}"; do
        check "$* validate against $schema.schema.json ($python)" \
            "$python" "$here/validate_json.py" "$schemas/$schema.schema.json" "$@"
    done
}

# own@0.9: rlock's ttl strategy as a catalogue client, at a version of its own.
mkdir -p "$work/catalogue/own/versions/0.9"
printf '{"library": "own 1.0", "version": "1.0", "versions": {"0.9": {"library": "own 0.9"}}, "installed": "{build}",
  "clients": [{"name": "own", "command": "cd {build} && %s client --strategy ttl", "server": "redis", "safe": false,
               "models": "ttl"}]}\n' "$rlock" >"$work/catalogue/own/client.json"
RLOCK_CLIENTS_DIR=$work/catalogue "$rlock" --dir "$work/chaos" chaos --seed 3 --account 300000 --strategies ttl,fenced-claim \
    --client own@0.9 --faults none,pause --trials 3 --jobs 2 --json "$work/table.json" >"$work/chaos.txt" 2>&1
check "the chaos run exits 0" test $? -eq 0 || cat "$work/chaos.txt"
run=$(ls -d "$work"/chaos/chaos/runs/*-seed3 2>/dev/null | head -n 1)
check "the chaos run is stored" test -n "$run"
check "the chaos run has the row own@0.9" grep -q '"own@0.9"' "$work/table.json"
check "rlock analyze reads the run with its row own@0.9 back" "$rlock" --dir "$work/chaos" analyze "$run" >/dev/null
valid chaos "$work/table.json" "$run/chaos.json"
valid run "$run/run.json"
valid sealed "$run/sealed.json"
valid trial "$run/trials.jsonl.gz"
kept=$(ls "$run"/trials/*/events.jsonl 2>/dev/null | head -n 3)
check "the run kept a trial with its events" test -n "$kept"
valid event $kept

"$rlock" --dir "$work/bench" bench --seconds 0.1 --account 9820 --strategies ttl --json "$work/bench.json" \
    >"$work/bench.txt" 2>&1
check "the bench run exits 0" test $? -eq 0 || cat "$work/bench.txt"
valid bench "$work/bench.json" "$(ls "$work"/bench/bench/runs/*/bench.json | head -n 1)"

"$rlock" --dir "$work/explore" explore --strategy ttl --events expiry --bound 0 --account 250100 --run-dir "$work/walk" \
    --json "$work/explore.json" >"$work/explore.txt" 2>&1
check "the explorer's walk exits 0" test $? -eq 0 || cat "$work/explore.txt"
valid explore "$work/explore.json"
valid chaos "$work/walk/chaos.json"
valid run "$work/walk/run.json"
valid sealed "$work/walk/sealed.json"
valid trial "$work/walk/trials.jsonl.gz"
valid event "$(ls "$work"/walk/trials/*/events.jsonl | head -n 1)"

export RLOCK_DIR=$work/lab
"$rlock" reset --account 9840 --start-in 0 >/dev/null 2>&1
"$rlock" worker A 30 --account 9840 --ttl 2000 --fenced --retry >/dev/null 2>&1
check "the lab's worker exits 0" test $? -eq 0
valid event "$RLOCK_DIR/events.jsonl"
finish
