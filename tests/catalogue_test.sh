#!/usr/bin/env bash
# The catalogue of clients is read only where the user or the install put it: a clients/ beside a
# copy of rlock (its grandparent, or the working directory) is not read; $RLOCK_CLIENTS_DIR is, and
# alone. A broken manifest is named in one line and the others still run; a name two manifests
# define, or a catalogue folder others can write or another user owns, is one line and exit 2. A
# manifest's versions are listed; NAME@V runs the build in versions/V/ as a row of its own, and an
# unknown or uninstalled version is one line and exit 2, for chaos and bench alike.
# Usage: catalogue_test.sh RLOCK_BINARY. Asks no server anything.
set -uo pipefail
rlock=$1
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/checks.sh"

# manifest FOLDER NAME: a manifest in FOLDER of one client NAME, installed (its own manifest is the
# file that says so), whose command would leave $work/ran-NAME.
manifest() {
    mkdir -p "$1"
    printf '{"library": "x 1", "installed": "client.json", "clients": [{"name": "%s", "command": "touch %s/ran-%s",
        "server": "redis", "safe": false, "models": "m"}]}\n' "$2" "$work" "$2" >"$1/client.json"
}
# clients EXPECTED-EXIT NAME [ENV...]: rlock clients (run from $work) under ENV, stdout in
# $work/list, stderr in $work/err.
clients() {
    local expected=$1 name=$2 rc; shift 2
    (cd "$work" && env "$@" "$copy" clients >"$work/list" 2>"$work/err")
    rc=$?
    check "$name: rlock clients exits $expected (got $rc)" test $rc -eq "$expected" || cat "$work/err"
}
one_line() { test "$(wc -l <"$work/err")" -eq 1 && grep -q -- "$1" "$work/err"; }

# A copy of rlock in $work/x: its grandparent's clients/ and the working directory's are $work/clients.
mkdir -p "$work/x" && cp "$rlock" "$work/x/rlock" && copy=$work/x/rlock
manifest "$work/clients/planted" planted
clients 0 "a copy of rlock"
check "a copy of rlock does not read the clients/ beside it" bash -c "! grep -q '^planted ' '$work/list'"
check "a copy of rlock reads the checkout's catalogue" grep -qF "shipped lock clients ($root/clients)" "$work/list"
check "nothing planted ran" test ! -e "$work/ran-planted"
clients 0 "RLOCK_CLIENTS_DIR" RLOCK_CLIENTS_DIR="$work/clients"
check "RLOCK_CLIENTS_DIR is read" grep -q '^planted  *redis ' "$work/list"
check "RLOCK_CLIENTS_DIR alone is read" bash -c "! grep -q '^redis-py ' '$work/list'"

# A broken manifest beside a good one.
manifest "$work/broken/good" good
mkdir -p "$work/broken/bad" && printf '{"library": "x", "clients": [' >"$work/broken/bad/client.json"
clients 0 "a broken manifest" RLOCK_CLIENTS_DIR="$work/broken"
check "a broken manifest is named in one line" one_line "warning: $work/broken/bad/client.json: .*; skipped"
check "the good manifest beside it is listed" grep -q '^good  *redis ' "$work/list"
RLOCK_CLIENTS_DIR=$work/broken "$rlock" --dir "$work" chaos --client good --client nope --trials 1 >/dev/null 2>"$work/err"
check "a name beside the broken manifest is still found" grep -q "'nope': no shipped client of that name (shipped: good)" "$work/err"

# One name in two manifests.
manifest "$work/twice/one" same
manifest "$work/twice/two" same
manifest "$work/twice/other" other
clients 2 "a name defined twice" RLOCK_CLIENTS_DIR="$work/twice"
check "rlock clients names the name and both manifests" one_line "same is defined twice: $work/twice/one/client.json and $work/twice/two/client.json"
RLOCK_CLIENTS_DIR=$work/twice chaos_refuses "client same: two manifests define it, $work/twice/one/client.json and" --client same
RLOCK_CLIENTS_DIR=$work/twice chaos_refuses "'nope': no shipped client of that name (shipped: other, same)" --client nope

# A catalogue others can write, or another user owns.
manifest "$work/open/lib" lib
chmod 777 "$work/open"
clients 2 "a world-writable catalogue" RLOCK_CLIENTS_DIR="$work/open"
check "a world-writable catalogue is refused in one line" one_line "catalogue $work/open can be written by every user (mode 0777)"
RLOCK_CLIENTS_DIR=$work/open chaos_refuses "can be written by every user" --client lib
chmod 755 "$work/open"
if [ "$(id -u)" -eq 0 ]; then
    chown nobody "$work/open"
    clients 2 "a catalogue another user owns" RLOCK_CLIENTS_DIR="$work/open"
    check "a catalogue another user owns is refused in one line" one_line "catalogue $work/open is owned by user $(id -u nobody)"
    check "its advice is to own it, not to chmod it" one_line "neither you nor root: its commands would run as you; chown it to yourself"
fi
# A library at 2.0 with versions 1.0 (installed) and 1.5 (not), whose command would leave $work/ran-lib.
mkdir -p "$work/versioned/lib/versions/1.0"
cat >"$work/versioned/lib/client.json" <<JSON
{"library": "lib 2.0", "version": "2.0", "installed": "{build}/built",
 "versions": {"1.0": {"library": "lib 1.0"}, "1.5": {"library": "lib 1.5"}},
 "clients": [{"name": "lib", "command": "touch $work/ran-lib {build}/ran", "server": "redis", "safe": false, "models": "m"}]}
JSON
touch "$work/versioned/lib/versions/1.0/built"
clients 0 "a manifest with versions" RLOCK_CLIENTS_DIR="$work/versioned"
check "rlock clients lists the versions, the default and the uninstalled marked" \
    grep -qx '  versions: 1.0, 1.5 (not installed), 2.0 (default)' "$work/list"
export RLOCK_CLIENTS_DIR=$work/versioned
chaos_refuses "client lib@1.0: the name is given twice" --client lib@1.0 --client lib@1.0
chaos_refuses "client lib@1.5: not installed; install it with \`scripts/clients.sh install lib@1.5\`" --client lib@1.5
chaos_refuses "client lib@9.9: lib has no version '9.9' (its versions: 1.0, 1.5, 2.0)" --client lib@9.9
chaos_refuses "client lib@3: lib has no version '3' (its versions: 1.0, 1.5, 2.0)" --client lib@3
"$rlock" --dir "$work" bench --seconds 1 --handoff-client lib@1.5 >/dev/null 2>"$work/err"
check "bench's --handoff-client takes NAME@V alike" one_line "handoff-client lib@1.5: not installed; install it with"
# A version's folder another user owns, or a script its command runs that another user can
# change: refused before it runs (the catalogue's folder and manifest are the user's own).
mkdir -p "$work/versioned/lib/versions/1.5" && touch "$work/versioned/lib/versions/1.5/built"
chown nobody "$work/versioned/lib/versions/1.5"
chaos_refuses "client lib@1.5: $work/versioned/lib/versions/1.5 is owned by user $(id -u nobody), neither you nor root: its command would run as you; refused" --client lib@1.5
mkdir -p "$work/scripted/lib" && printf '#!/bin/sh\ntouch %s/ran-script\n' "$work" >"$work/scripted/lib/run.sh"
chmod 755 "$work/scripted/lib/run.sh" && chown nobody "$work/scripted/lib/run.sh"
cat >"$work/scripted/lib/client.json" <<JSON
{"library": "lib 1.0", "installed": "{dir}/run.sh",
 "clients": [{"name": "lib", "command": "{dir}/run.sh", "server": "redis", "safe": false, "models": "m"}]}
JSON
export RLOCK_CLIENTS_DIR=$work/scripted
chaos_refuses "client lib: $work/scripted/lib/run.sh is owned by user $(id -u nobody), neither you nor root: its command would run as you; refused" --client lib
unset RLOCK_CLIENTS_DIR
check "no catalogue's command ran" bash -c "! ls '$work'/ran-* 2>/dev/null"
finish
