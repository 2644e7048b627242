#!/usr/bin/env bash
# A browser shows the timeline: Chromium, headless, screenshots the SVG of a real lab 1 run, and
# the screenshot must differ from one of an empty page. Usage: timeline_chromium_test.sh RLOCK_BINARY.
# Exits 77 (CTest's skip) where no Chromium is installed.
set -euo pipefail
rlock=$1
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || { echo "no chromium installed: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$rlock" timeline --dir "$here/../src/timeline/testdata/lab1" --out "$work/lab1.svg" >/dev/null
shoot() { # shoot URL PNG
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=960,400 \
        --screenshot="$2" "$1" >/dev/null 2>&1
    [[ -s $2 ]] || { echo "chromium made no screenshot of $1"; exit 1; }
}
shoot "file://$work/lab1.svg" "$work/lab1.png"
shoot "about:blank" "$work/blank.png"
if cmp -s "$work/lab1.png" "$work/blank.png"; then
    echo "chromium shows the timeline as an empty page"
    exit 1
fi
echo "chromium drew the timeline: a PNG of $(stat -c %s "$work/lab1.png") bytes, $(stat -c %s "$work/blank.png") for an empty page"
