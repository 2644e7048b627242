#!/usr/bin/env bash
# A browser shows the timeline: headless Chromium screenshots the SVG of a real lab 1 run, in English
# and in Korean. Each screenshot must differ from one of an empty page, and the Korean one must
# draw Hangul as glyphs, not as boxes. Usage: timeline_chromium_test.sh RLOCK_BINARY.
# Chromium and a Korean font are installed by scripts/test.sh; without them the test fails.
set -euo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/hangul.sh"
browser=$(command -v chromium || true)
[[ -n $browser ]] || { echo "chromium is not installed (scripts/test.sh installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shoot URL PNG [WIDTH,HEIGHT]
shoot() {
    # The flags keep a headless Chromium off the network: no sync, no updates, no first-run pages.
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --window-size="${3:-960,400}" --screenshot="$2" "$1" >/dev/null 2>&1
    [[ -s $2 ]] || { echo "chromium made no screenshot of $1"; exit 1; }
}

shoot "about:blank" "$work/blank.png"
for lang in en ko; do
    "$rlock" --lang "$lang" timeline --dir "$here/../src/timeline/testdata/lab1" --out "$work/lab1-$lang.svg" >/dev/null
    shoot "file://$work/lab1-$lang.svg" "$work/lab1-$lang.png"
    if cmp -s "$work/lab1-$lang.png" "$work/blank.png"; then
        echo "chromium shows the $lang timeline as an empty page"
        exit 1
    fi
done

# Hangul in the Korean timeline's own fonts: two different words must not draw the same picture.
shoot_hangul() { shoot "file://$1" "$2" 400,120; }
hangul_glyphs_differ "$work/lab1-ko.svg" "$work" shoot_hangul chromium
echo "chromium drew the timeline: PNGs of $(stat -c %s "$work/lab1-en.png") (en) and" \
    "$(stat -c %s "$work/lab1-ko.png") (ko) bytes, $(stat -c %s "$work/blank.png") for an empty page; Hangul as glyphs"
