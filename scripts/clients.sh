#!/usr/bin/env bash
# Installs the shipped lock clients (clients/*/client.json, docs/clients.md), each from its folder's
# own lockfile: Debian packages its manifest names, `npm ci` (package-lock.json), `go build` of one
# binary into bin/ (go.mod, go.sum), `cargo build --release --locked` of one binary into
# target/release/ (Cargo.toml, Cargo.lock), a virtual environment .venv from a pinned requirements.txt,
# or Maven's one jar in target/ (pom.xml). Each step runs only when what it makes is older than what it
# is made from, so a second run changes nothing and takes seconds. Another version V of a library
# (the manifest's "versions") is built alike in the folder's versions/V/, from the lockfile there and
# the folder's sources (Go: `-modfile`, with the build tags of the version's "go_tags").
#   scripts/clients.sh install [NAME...]             the default versions; NAME: a catalogue name
#                                                    (rlock clients) or a folder; none: all
#   scripts/clients.sh install NAME@V...             version V of NAME (rlock chaos --client NAME@V)
#   scripts/clients.sh install --versions [NAME...]  every version of the named (none: all)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

CLIENTS=$ROOT/clients

# manifest_field FOLDER FIELD: the manifest's FIELD, a list printed one item a line.
manifest_field() {
    /usr/bin/python3 -c 'import json, sys; [print(x) for x in json.load(open(sys.argv[1])).get(sys.argv[2], [])]' \
        "$CLIENTS/$1/client.json" "$2"
}

# manifest_versions FOLDER: the manifest's default version ("version") and its others ("versions"),
# one a line, the default first; nothing when it names none.
manifest_versions() {
    /usr/bin/python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))
[print(v) for v in ([m["version"]] if "version" in m else []) + list(m.get("versions", {}))]' \
        "$CLIENTS/$1/client.json"
}

# go_tags FOLDER V: the build tags of version V ("go_tags" of its "versions" entry), maybe none.
go_tags() {
    /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["versions"][sys.argv[2]].get("go_tags", ""))' \
        "$CLIENTS/$1/client.json" "$2"
}

# build_of FOLDER NAME@V: FOLDER's build folder for version V, relative to clients/: FOLDER itself
# for its default, FOLDER/versions/V for another; exit 2 naming the versions it has for any other.
build_of() {
    local folder=$1 version=${2#*@} versions
    mapfile -t versions < <(manifest_versions "$folder")
    if ((${#versions[@]})) && [[ $version == "${versions[0]}" ]]; then echo "$folder"; return; fi
    local v; for v in "${versions[@]:1}"; do [[ $version != "$v" ]] || { echo "$folder/versions/$v"; return; }; done
    if ((${#versions[@]})); then
        usage_error "no version '$version' of ${2%@*} (its versions: $(printf '%s\n' "${versions[@]}" | paste -sd ' '))"
    fi
    usage_error "no version '$version' of ${2%@*}: its manifest names none (install ${2%@*})"
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

# Each install_X SOURCES BUILD builds from the sources' folder into the build's folder (the same
# folder for a default version).
install_node() {
    local build=$2 node=()
    command -v node >/dev/null || node+=(nodejs)
    command -v npm >/dev/null || node+=(npm)
    need_packages "${node[@]}"
    stale "$build/node_modules/.package-lock.json" "$build/package-lock.json" || return 0
    say "npm ci in ${build#"$ROOT"/}"
    (cd "$build" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed in $build"
}

install_go() {
    local dir=$1 build=$2 name flags=(); name=$(basename "$dir")
    stale "$build/bin/$name" "$dir"/*.go "$build/go.mod" "$build/go.sum" "$CLIENTS"/goprotocol/*.go || return 0
    [[ $build == "$dir" ]] || flags=(-modfile="$build/go.mod" -tags="$(go_tags "$name" "$(basename "$build")")")
    say "go build in ${build#"$ROOT"/}"
    (cd "$dir" && "$(go_tool)" build -mod=readonly "${flags[@]}" -o "$build/bin/$name" .) || die "go build failed in $build"
}

install_cargo() {
    local dir=$1 build=$2 name cargo; name=$(basename "$dir")
    stale "$build/target/release/$name" "$dir"/src/*.rs "$build/Cargo.toml" "$build/Cargo.lock" \
        "$CLIENTS"/rustprotocol/Cargo.toml "$CLIENTS"/rustprotocol/src/*.rs || return 0
    cargo=$(cargo_tool) || exit 1
    say "cargo build --release in ${build#"$ROOT"/}"
    (cd "$build" && "$cargo" build --release --locked --quiet --target-dir "$build/target") ||
        die "cargo build failed in $build"
    touch "$build/target/release/$name"  # cargo leaves a binary it need not relink as old as it was
}

install_venv() {
    local build=$2
    stale "$build/.venv/installed" "$build/requirements.txt" || return 0
    need_packages python3-venv
    say "pip install -r requirements.txt in ${build#"$ROOT"/}/.venv"
    rm -rf "$build/.venv"
    /usr/bin/python3 -m venv "$build/.venv" &&
        "$build/.venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
            -r "$build/requirements.txt" >/dev/null && touch "$build/.venv/installed" || die "pip install failed in $build"
}

install_maven() {
    local dir=$1 build=$2
    stale "$build/target/client.jar" "$build/pom.xml" $(find "$dir/src" "$CLIENTS/javaprotocol" -name '*.java') || return 0
    need_packages maven default-jdk-headless
    say "mvn package in ${build#"$ROOT"/}"
    (cd "$build" && mvn --batch-mode --quiet -DskipTests package >"$build/target.log" 2>&1) ||
        { tail -n 20 "$build/target.log" >&2; die "mvn package failed in $build (log: $build/target.log)"; }
    rm -f "$build/target.log"
}

# install_build BUILD: builds clients/BUILD, a folder (its default version) or FOLDER/versions/V.
install_build() {
    local folder=${1%%/*} dir=$CLIENTS/${1%%/*} build=$CLIENTS/$1 packages
    mapfile -t packages < <(manifest_field "$folder" debian)
    ((${#packages[@]} == 0)) || need_packages "${packages[@]}"
    [[ ! -f $build/package-lock.json ]] || install_node "$dir" "$build"
    [[ ! -f $build/go.mod ]] || install_go "$dir" "$build"
    [[ ! -f $build/Cargo.lock ]] || install_cargo "$dir" "$build"
    [[ ! -f $build/requirements.txt ]] || install_venv "$dir" "$build"
    [[ ! -f $build/pom.xml ]] || install_maven "$dir" "$build"
}

usage="usage: clients.sh install [--versions] [NAME...] | install NAME@V... | --help"
case ${1:-} in
install) shift ;;
-h | --help) script_help; exit 0 ;;
"") usage_error "$usage" ;;
*) usage_error "unknown argument '$1' ($usage)" ;;
esac
every_version=
if [[ ${1:-} == --versions ]]; then every_version=yes; shift; fi
for name in "$@"; do
    [[ $name != -* ]] || usage_error "unknown option '$name' ($usage)"
    [[ -z $every_version || $name != *@* ]] || usage_error "--versions takes names without a version, not '$name'"
done
need_packages python3
names=("$@")
if ((${#names[@]} == 0)); then
    for manifest in "$CLIENTS"/*/client.json; do names+=("$(basename "$(dirname "$manifest")")"); done
fi
builds=()
for name in "${names[@]}"; do
    folder=$(folder_of "${name%%@*}")
    if [[ $name == *@* ]]; then
        builds+=("$(build_of "$folder" "$name")")
    elif [[ -n $every_version ]]; then
        builds+=("$folder")
        while read -r v; do builds+=("$folder/versions/$v"); done < <(manifest_versions "$folder" | tail -n +2)
    else
        builds+=("$folder")
    fi
done
for build in $(printf '%s\n' "${builds[@]}" | sort -u); do install_build "$build"; done
