#!/usr/bin/env bash
# docs/cli.md and rlock's --help agree (scripts/cli-doc.sh writes the one from the other): every
# subcommand has its section, every option of every --help is in its subcommand's table, every
# option in a table is one its --help knows, and every option the notes mention exists.
# Usage: cli_doc_test.sh RLOCK_BINARY DOCS_CLI_MD
set -uo pipefail
rlock=$1 doc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
fix="(run scripts/cli-doc.sh)"

# The long options of an option line of CLI11's help ("  -h,--help ...", "  --ttl INT ...").
long_options() { grep -E '^  -' | awk '{ print $1 }' | tr ',' '\n' | grep -E '^--[a-z]'; }

subcommands=$("$rlock" --help | awk '/^Subcommands:$/ { on = 1; next } on && /^  [^ ]/ { print $1 } on && /^$/ { exit }')
[[ -n $subcommands ]] || fail "rlock --help lists no subcommands"
"$rlock" --help | long_options | sed 's/^/rlock /' >"$work/help"
for sub in $subcommands; do "$rlock" "$sub" --help | long_options | sed "s/^/rlock $sub /"; done >>"$work/help"
sort -u -o "$work/help" "$work/help"

# The tables of the generated part: "## rlock SUB" and its rows "| `--opt ...` | ... |".
awk '/^<!-- written by hand -->$/ { exit }
     /^## rlock/ { section = substr($0, 4); next }
     /^\| `-/ { cell = $2; gsub(/`/, "", cell); n = split(cell, names, ",")
                for (i = 1; i <= n; i++) if (names[i] ~ /^--[a-z]/) print section " " names[i] }' "$doc" |
    sort -u >"$work/doc"

for sub in $subcommands; do grep -qx "## rlock $sub" "$doc" || fail "docs/cli.md has no section for rlock $sub $fix"; done
comm -23 "$work/help" "$work/doc" | while read -r line; do echo "FAIL: $line is in --help, not in docs/cli.md $fix"; done >"$work/missing"
comm -13 "$work/help" "$work/doc" | while read -r line; do echo "FAIL: $line is in docs/cli.md, unknown to the binary $fix"; done >>"$work/missing"
# Every option named anywhere in the page (the notes included) is one rlock knows.
awk '{ print $NF }' "$work/help" | sort -u >"$work/known"
grep -oE -- '(^|[^a-z0-9-])--[a-z][a-z0-9-]*' "$doc" | sed 's/^[^-]*//' | sort -u | comm -23 - "$work/known" |
    while read -r option; do echo "FAIL: docs/cli.md mentions $option, which no --help has"; done >>"$work/missing"
if [[ -s $work/missing ]]; then cat "$work/missing"; failed=$((failed + $(wc -l <"$work/missing"))); fi

echo "cli doc: $(wc -l <"$work/help") options checked, $failed failed"
((failed == 0))
