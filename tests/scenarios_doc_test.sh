#!/usr/bin/env bash
# docs/scenarios.md and scenarios/ agree: every scenario file is a row of the page's table, with its
# report's address, each of its versions and its fidelity (and what differs), and every row is a file's. Every file validates
# against docs/schemas/scenario.schema.json and is read by `rlock scenarios` (none skipped). No server.
# Usage: scenarios_doc_test.sh RLOCK_BINARY CHECKOUT
set -uo pipefail
rlock=$1 root=$2
doc=$root/docs/scenarios.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 checked=0 replays=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# The table's rows, between its markers: "| NAME | ... |".
awk '/^<!-- scenarios -->$/ { on = 1; next } /^<!-- \/scenarios -->$/ { on = 0 } on && /^\| / && !/^\|---/' "$doc" |
    tail -n +2 >"$work/rows"
grep -q '^<!-- /scenarios -->$' "$doc" || fail "docs/scenarios.md has no table between <!-- scenarios --> and <!-- /scenarios -->"

for file in "$root"/scenarios/*.json; do
    [[ -e $file ]] || continue
    checked=$((checked + 1))
    name=$(basename "$file" .json)
    row=$(grep -F "| $name |" "$work/rows" | head -n 1)
    if [[ -z $row ]]; then fail "$name has no row in docs/scenarios.md"; continue; fi
    url=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["report"]["url"])' "$file")
    [[ $row == *"($url)"* ]] || fail "$name's row does not link its report, $url"
    for version in $(python3 -c 'import json, sys; print(*json.load(open(sys.argv[1]))["versions"])' "$file"); do
        [[ $row == *"$version"* ]] || fail "$name's row does not name its version $version"
    done
    [[ $row == *"rlock scenario $name"* ]] || fail "$name's row does not give the command that reproduces it"
    # The fidelity column: the file's fidelity, and what differs when it does not replay wholly.
    fidelity=$(awk -F'|' '{ sub(/^ /, "", $8); sub(/ $/, "", $8); print $8 }' <<<"$row")
    stated=$(python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
print(j.get("fidelity", "unstated") + (": " + j["differs"] if "differs" in j else ""))' "$file")
    [[ $fidelity == "$stated" ]] || fail "$name's fidelity column says '$fidelity', its file '$stated'"
    [[ $stated != replays ]] || replays=$((replays + 1))
    /usr/bin/python3 "$root/tests/validate_json.py" "$root/docs/schemas/scenario.schema.json" "$file" ||
        fail "$name.json does not validate against scenario.schema.json"
done
while IFS= read -r row; do
    name=$(awk -F'|' '{ gsub(/[ `]/, "", $2); print $2 }' <<<"$row")
    [[ -f $root/scenarios/$name.json ]] || fail "docs/scenarios.md lists $name, which has no scenarios/$name.json"
done <"$work/rows"

if ((checked > 0)); then
    RLOCK_SCENARIOS_DIR=$root/scenarios "$rlock" --dir "$work/lab" scenarios >"$work/list" 2>"$work/err"
    [[ $? -eq 0 && ! -s $work/err ]] || fail "rlock scenarios: $(cat "$work/err")"
    [[ $(grep -c ' not run$' "$work/list") -eq $checked ]] || fail "rlock scenarios does not list the $checked files: $(cat "$work/list")"
fi
echo "scenarios doc: $checked scenario files ($replays replay their reports), $(wc -l <"$work/rows") rows, $failed failed"
((failed == 0))
