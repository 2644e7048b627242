#!/usr/bin/env bash
# lab_test.sh NAME [SCRIPT [ARGS...]]: runs scripts/SCRIPT.sh ARGS (SCRIPT: NAME unless given) in a
# fresh data directory and compares what it printed, with the times, PTTLs before a crash, uptimes
# and the text of error events (it names the call that failed) taken off, to expected/NAME.txt: the events in the expected order, the final row and the verdict.
# The timeline the lab drew (the path it printed last, left out of the comparison) must be
# well-formed XML (xmllint) and render (rsvg-convert) at its width, 960 px; so must the same run
# drawn 640 px wide in Korean, whose Hangul rsvg-convert must draw as glyphs, not boxes.
# Needs RLOCK_BIN, REDIS_URL and DATABASE_URL (scripts/test.sh sets them).
#
# In expected/NAME.txt, '#' starts a comment line, and a block of lines marked '* ' happened at one
# instant in two threads of one process (in lab 2, A's watchdog and A's main thread, continued by
# the same SIGCONT): the scheduler picks their order, so such a block is compared as a set.
set -euo pipefail
expected=$1 lab=${2:-$1}
shift $(($# > 1 ? 2 : 1))
here=$(cd "$(dirname "$0")" && pwd)
source "$here/hangul.sh"
: "${RLOCK_BIN:?set RLOCK_BIN to the rlock binary}" "${REDIS_URL:?REDIS_URL is not set: run the tests through scripts/test.sh}" \
  "${DATABASE_URL:?DATABASE_URL is not set: run the tests through scripts/test.sh}"

RLOCK_DIR=$(mktemp -d)
export RLOCK_DIR
trap 'rm -rf "$RLOCK_DIR"' EXIT

"$here/../scripts/$lab.sh" "$@" >"$RLOCK_DIR/out.txt"
# ' 2.04s  B  lock acquired' -> 'B  lock acquired'; the reset line names the temporary directory,
# the timeline's path too.
readarray -t got < <(sed -E -e '/^reset: /d' -e '/\/timeline\.svg$/d' -e 's/^ *-?[0-9]+\.[0-9]+s  //' -e 's/PTTL [0-9]+/PTTL n/' -e 's/PTTL was -?[0-9]+/PTTL was n/' -e 's/Redis up [0-9]+s/Redis up ns/' \
    -e 's/^([A-Za-z0-9_-]+  error: ).*/\1.../' -e 's/(no answer to the acquisition )\(.*\)/\1(...)/' \
    "$RLOCK_DIR/out.txt")
readarray -t want < <(grep -v '^#' "$here/expected/$expected.txt")
declare -A unordered=()
for i in "${!want[@]}"; do
    if [[ ${want[$i]} == '* '* ]]; then unordered[$i]=1; want[$i]=${want[$i]#'* '}; fi
done

# Prints the named array with each unordered block sorted.
canonical() {
    local -n lines=$1
    local i=0 j n=${#lines[@]}
    while ((i < n)); do
        j=$i
        while ((j < n)) && [[ -n ${unordered[$j]:-} ]]; do j=$((j + 1)); done
        if ((j > i)); then
            printf '%s\n' "${lines[@]:i:j-i}" | LC_ALL=C sort
            i=$j
        else
            printf '%s\n' "${lines[$i]}"
            i=$((i + 1))
        fi
    done
}

if ! diff -u <(canonical want) <(canonical got); then
    echo "--- $lab $* printed:"; cat "$RLOCK_DIR/out.txt"
    exit 1
fi
# check_svg FILE WIDTH: FILE parses as XML and renders to a PNG WIDTH pixels wide.
check_svg() {
    local png=${1%.svg}.png width
    xmllint --noout "$1" || { echo "$1 is not well-formed XML"; exit 1; }
    rsvg-convert "$1" -o "$png" || { echo "rsvg-convert could not render $1"; exit 1; }
    # A PNG's width: the big-endian 4 bytes at offset 16 (in the IHDR chunk).
    width=$(od -An -tu1 -j16 -N4 "$png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
    [[ $width == "$2" ]] || { echo "$1 rendered $width px wide, not $2"; exit 1; }
}
svg=$(tail -n 1 "$RLOCK_DIR/out.txt")
[[ $svg == "$RLOCK_DIR/timeline.svg" && -s $svg ]] ||
    { echo "the lab printed '$svg' last, not its timeline's path"; exit 1; }
check_svg "$svg" 960
"$RLOCK_BIN" timeline --lang ko --width 640 --out "$RLOCK_DIR/narrow.svg" >/dev/null
check_svg "$RLOCK_DIR/narrow.svg" 640
rsvg() { rsvg-convert "$1" -o "$2"; }
hangul_glyphs_differ "$RLOCK_DIR/narrow.svg" "$RLOCK_DIR" rsvg rsvg-convert

echo "$expected: $(grep '^verdict: ' "$RLOCK_DIR/out.txt"), timeline $(stat -c %s "$svg") bytes"
