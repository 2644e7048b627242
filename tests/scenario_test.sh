#!/usr/bin/env bash
# rlock scenario end to end: one scenario at two of its versions, 3 trials a version, against the
# servers of scripts/test.sh. etcd-11456 at 3.4.3 and 3.5.21 (the versions scripts/test.sh installs)
# when scenarios/ has it, else the engine's own tests/scenarios/redsync-pause.json. The verdict line and a line a version;
# each version's run kept, its run.json naming the scenario and the version (and valid), `rlock
# analyze` reading one, `rlock scenarios` showing the verdict just printed; the first trial that
# showed the loss drawn; --json valid. The verdict agrees with each version's count. A client that
# exits after a stale write reproduces a lost update all the same. Bad input (an
# unknown scenario or version, an adapter not installed) one line and exit 2 before any server is asked.
# A scenario of histories (etcd-22082) reproduces at the default etcd client.
# Usage: scenario_test.sh RLOCK_BINARY CHECKOUT. On accounts of its own (from 350000).
set -uo pipefail
rlock=$1 root=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/checks.sh"

if [[ -f $root/scenarios/etcd-11456.json ]]; then
    name=etcd-11456 scenarios=$root/scenarios
else
    name=redsync-pause scenarios=$here/scenarios
fi
mkdir -m 700 "$work/scenarios" && cp "$scenarios/$name.json" "$work/scenarios/"
export RLOCK_SCENARIOS_DIR=$work/scenarios
all_versions=$(python3 -c 'import json, sys; print(*json.load(open(sys.argv[1]))["versions"])' "$work/scenarios/$name.json")
versions=$all_versions
[[ $name != etcd-11456 ]] || versions="3.4.3 3.5.21"

"$rlock" --dir "$work/lab" scenario "$name" --versions "${versions// /,}" --trials 3 --jobs 2 --seed 7 --account 350000 --json "$work/out.json" \
    >"$work/out.txt" 2>"$work/err.txt"
check "rlock scenario $name exits 0 (got $?)" test $? -eq 0 || cat "$work/out.txt" "$work/err.txt"
verdict=$(grep "^$name: \(reproduces in\|does not reproduce in any version judged\)" "$work/out.txt")
check "a verdict line: $verdict" test -n "$verdict"
for version in $versions; do
    check "a line for $version" grep -q "^$name at $version: [0-3] of 3 trials showed [a-z -]*; run: " "$work/out.txt"
    showed=$(sed -n "s/^$name at $version: \([0-9]*\) of 3 trials.*/\1/p" "$work/out.txt")
    if ((showed > 0)); then
        check "the verdict: reproduces in $version ($showed/3)" grep -q "^$name: reproduces in .*$version ($showed/3, 95% [0-9]*-[0-9]*%)" "$work/out.txt"
    else
        check "the verdict: not in $version (0/3)" grep -q "^$name: .*$version (0/3, 0-[0-9]*%)" "$work/out.txt"
    fi
    run=$(sed -n "s/^$name at $version: .*; run: \([^;]*\).*/\1/p" "$work/out.txt")
    check "$version's run is kept" test -f "$run/sealed.json"
    check "$version's run.json names the scenario and the version" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["scenario"]
sys.exit(s != {"name": sys.argv[2], "version": sys.argv[3]})' "$run/run.json" "$name" "$version"
    check "$version's run.json validates" /usr/bin/python3 "$here/validate_json.py" "$root/docs/schemas/run.schema.json" "$run/run.json"
    check "$version's run has its report" test -f "$run/report.html"
    if grep -q "^$name at $version: [1-3] of" "$work/out.txt"; then
        check "$version's first loss is drawn" xmllint --noout "$run/timeline.svg"
    fi
    last_run=$run
done
"$rlock" analyze "$last_run" >"$work/analyze.txt" 2>&1
check "rlock analyze reads the last run (exit $?)" grep -q "^rlock analyze: $last_run, seed 7, 3 trials a cell" "$work/analyze.txt"
check "--json validates" /usr/bin/python3 "$here/validate_json.py" "$root/docs/schemas/scenario-run.schema.json" "$work/out.json"
"$rlock" --dir "$work/lab" scenarios >"$work/list.txt" 2>&1
check "rlock scenarios shows the verdict just printed" grep -qF "${verdict#"$name: "}" "$work/list.txt" ||
    cat "$work/list.txt"

# A scenario whose trials are histories: etcd-22082 at the default etcd client (3.5.21), 2 histories
# of 4 s. Its schedule loses A's release's reply, and A's fourth increment holds the lock across the
# Unlock retried one TTL later, which deletes A's newer key on the same session: B takes the lock.
if [[ -f $root/scenarios/etcd-22082.json ]]; then
    cp "$root/scenarios/etcd-22082.json" "$work/scenarios/"
    "$rlock" --dir "$work/lab" scenario etcd-22082 --versions 3.5.21 --trials 2 --jobs 2 --seed 7 --account 350200 \
        >"$work/history.txt" 2>"$work/history-err.txt"
    check "etcd-22082 runs its histories (exit $?)" grep -q '^etcd-22082 at 3.5.21: [0-2] of 2 trials' "$work/history.txt" ||
        cat "$work/history-err.txt"
    check "and reproduces in 3.5.21" grep -q '^etcd-22082: reproduces in 3.5.21' "$work/history.txt" || cat "$work/history.txt"
    run=$(sed -n 's/^etcd-22082 at 3.5.21: .*; run: \([^;]*\).*/\1/p' "$work/history.txt")
    check "its cell counts a history's increments" python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["cells"][0]["history"]
sys.exit(not (h["increments"] > 2 * 4 and h["faults_struck"] >= 2 and h["lost_increments"] > 0))' "$run/chaos.json"
    check "its drawing's verdict counts each increment" grep -q 'verdict: final balance [0-9]*, expected [0-9]*: LOST UPDATE' \
        "$run/timeline.svg"
    rm "$work/scenarios/etcd-22082.json"
fi

# A scenario of a TTL client that exits after the write its late read made stale: what the harness
# served is judged, so it reproduces (tests/hostile_client.py late-exit, as a catalogue entry).
mkdir -p -m 700 "$work/hostile/late-exit"
cat >"$work/hostile/late-exit/client.json" <<JSON
{"library": "hostile 1.0 (tests/hostile_client.py)", "version": "1.0", "installed": "{dir}/client.json", "clients": [
  {"name": "late-exit", "command": "/usr/bin/python3 $here/hostile_client.py late-exit", "server": "redis",
   "safe": false, "models": "redis-py's Lock with a TTL, exiting after a late write"}]}
JSON
sed -e 's/"name": "[^"]*"/"name": "late-exit-1"/' -e 's/"client": "[^"]*"/"client": "late-exit"/' \
    -e 's/"versions": \[[^]]*\]/"versions": ["1.0"]/' -e 's/"fault": "[^"]*"/"fault": "pause"/' \
    -e 's/"loss": \[[^]]*\]/"loss": ["lost-update"]/' "$work/scenarios/$name.json" >"$work/scenarios/late-exit-1.json"
RLOCK_CLIENTS_DIR=$work/hostile "$rlock" --dir "$work/lab" scenario late-exit-1 --trials 3 --jobs 2 --seed 7 --account 350100 \
    >"$work/late.txt" 2>"$work/late-err.txt"
check "the late-exit scenario runs (exit $?)" grep -q '^late-exit-1 at 1.0: ' "$work/late.txt" || cat "$work/late-err.txt"
check "and reproduces: the loss served before the exit counts" grep -q '^late-exit-1: reproduces in 1.0' "$work/late.txt"
rm "$work/scenarios/late-exit-1.json"

# Bad input: one line, exit 2, no server asked (the Redis named is one that does not answer).
refuses() { # refuses MESSAGE ARGS...
    local message=$1 rc; shift
    "$rlock" --dir "$work/lab" --redis redis://127.0.0.1:1/0 scenario "$@" >/dev/null 2>"$work/bad.txt"
    rc=$?
    check "scenario $* exits 2 (got $rc)" test $rc -eq 2
    check "scenario $* says: $message" test "$(wc -l <"$work/bad.txt")" -eq 1 -a -n "$(grep -F -- "$message" "$work/bad.txt")" ||
        cat "$work/bad.txt"
}
refuses "unknown scenario 'nope' (known: $name)" nope
refuses "--versions 9.9: $name has no version 9.9 (its versions: ${all_versions// /, })" "$name" --versions 9.9
refuses "name a scenario, or give --client NAME" --trials 3
# An adapter the catalogue ships but that is not installed.
mkdir -p -m 700 "$work/clients/fake"
cat >"$work/clients/fake/client.json" <<'JSON'
{"library": "fake v1.0 (sh)", "version": "1.0", "installed": "{build}/bin/fake", "clients": [
  {"name": "fake", "command": "{build}/bin/fake", "server": "redis", "safe": false, "models": "nothing"}]}
JSON
sed -e 's/"name": "[^"]*"/"name": "fake-1"/' -e 's/"client": "[^"]*"/"client": "fake"/' \
    -e 's/"versions": \[[^]]*\]/"versions": ["1.0"]/' "$work/scenarios/$name.json" >"$work/scenarios/fake-1.json"
RLOCK_CLIENTS_DIR=$work/clients refuses "scripts/clients.sh install fake@1.0" fake-1
finish
