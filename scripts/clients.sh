#!/usr/bin/env bash
# Installs the shipped lock clients (clients/*/client.json, docs/clients.md), each from its folder's
# own lockfile: Debian packages its manifest names, `npm ci` (package-lock.json), `go build` of one
# binary into bin/ (go.mod, go.sum), a virtual environment .venv from a pinned requirements.txt, or
# Maven's one jar in target/ (pom.xml). Each step runs only when what it makes is older than what it
# is made from, so a second run changes nothing and takes seconds.
#   scripts/clients.sh install [NAME...]   NAME: a catalogue name (rlock clients) or a folder; none: all
set -euo pipefail
source "$(dirname "$0")/lib.sh"

CLIENTS=$ROOT/clients

# manifest_field FOLDER FIELD: the manifest's FIELD, a list printed one item a line.
manifest_field() {
    /usr/bin/python3 -c 'import json, sys; [print(x) for x in json.load(open(sys.argv[1])).get(sys.argv[2], [])]' \
        "$CLIENTS/$1/client.json" "$2"
}

# folder_of NAME: the folder that ships the catalogue name (or is named) NAME.
folder_of() {
    local folder
    [[ -f $CLIENTS/$1/client.json ]] && { echo "$1"; return; }
    for folder in "$CLIENTS"/*/client.json; do
        folder=$(basename "$(dirname "$folder")")
        /usr/bin/python3 -c 'import json, sys; sys.exit(sys.argv[2] not in [c["name"] for c in json.load(open(sys.argv[1]))["clients"]])' \
            "$CLIENTS/$folder/client.json" "$1" && { echo "$folder"; return; }
    done
    local shipped; shipped=$(cd "$CLIENTS" && ls -d */client.json | sed 's#/client.json##' | paste -sd ' ')
    echo "clients.sh: no shipped client named '$1' (folders: $shipped; rlock clients lists the names)" >&2
    exit 2
}

# stale TARGET SOURCE...: TARGET is missing or older than one of the SOURCEs.
stale() {
    local target=$1 source; shift
    [[ -e $target ]] || return 0
    for source in "$@"; do [[ ! $source -nt $target ]] || return 0; done
    return 1
}

go_tool() {
    command -v go 2>/dev/null || { [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go; } ||
        die "no go on PATH: the Go clients need Go 1.26 (go.mod says so)"
}

install_node() {
    local dir=$1 node=()
    command -v node >/dev/null || node+=(nodejs)
    command -v npm >/dev/null || node+=(npm)
    need_packages "${node[@]}"
    stale "$dir/node_modules/.package-lock.json" "$dir/package-lock.json" || return 0
    say "npm ci in ${dir#"$ROOT"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed in $dir"
}

install_go() {
    local dir=$1 name; name=$(basename "$dir")
    stale "$dir/bin/$name" "$dir"/*.go "$dir/go.mod" "$dir/go.sum" "$CLIENTS"/goprotocol/*.go || return 0
    say "go build in ${dir#"$ROOT"/}"
    (cd "$dir" && "$(go_tool)" build -mod=readonly -o "bin/$name" .) || die "go build failed in $dir"
}

install_venv() {
    local dir=$1
    stale "$dir/.venv/installed" "$dir/requirements.txt" || return 0
    need_packages python3-venv
    say "pip install -r requirements.txt in ${dir#"$ROOT"/}/.venv"
    rm -rf "$dir/.venv"
    /usr/bin/python3 -m venv "$dir/.venv" &&
        "$dir/.venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
            -r "$dir/requirements.txt" >/dev/null && touch "$dir/.venv/installed" || die "pip install failed in $dir"
}

install_maven() {
    local dir=$1
    stale "$dir/target/client.jar" "$dir/pom.xml" $(find "$dir/src" "$CLIENTS/javaprotocol" -name '*.java') || return 0
    need_packages maven default-jdk-headless
    say "mvn package in ${dir#"$ROOT"/}"
    (cd "$dir" && mvn --batch-mode --quiet -DskipTests package >"$dir/target.log" 2>&1) ||
        { tail -n 20 "$dir/target.log" >&2; die "mvn package failed in $dir (log: $dir/target.log)"; }
    rm -f "$dir/target.log"
}

install_folder() {
    local folder=$1 dir=$CLIENTS/$1 packages
    mapfile -t packages < <(manifest_field "$folder" debian)
    ((${#packages[@]} == 0)) || need_packages "${packages[@]}"
    [[ ! -f $dir/package-lock.json ]] || install_node "$dir"
    [[ ! -f $dir/go.mod ]] || install_go "$dir"
    [[ ! -f $dir/requirements.txt ]] || install_venv "$dir"
    [[ ! -f $dir/pom.xml ]] || install_maven "$dir"
}

case ${1:-} in
install) shift ;;
-h | --help) script_help; exit 0 ;;
"") usage_error "usage: clients.sh install [NAME...]|--help" ;;
*) usage_error "unknown argument '$1' (usage: clients.sh install [NAME...]|--help)" ;;
esac
need_packages python3
folders=()
if (($#)); then
    for name in "$@"; do folders+=("$(folder_of "$name")"); done
else
    for manifest in "$CLIENTS"/*/client.json; do folders+=("$(basename "$(dirname "$manifest")")"); done
fi
for folder in $(printf '%s\n' "${folders[@]}" | sort -u); do install_folder "$folder"; done
