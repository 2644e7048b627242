# Sourced by the tests that look at a page in a browser: $browser (headless Chromium, which
# scripts/test.sh installs; without it the test stops), shoot and ink.
browser=$(command -v chromium || true)
[[ -n $browser ]] || { echo "chromium is not installed (scripts/test.sh installs it)"; exit 1; }
# shoot URL PNG [WIDTH,HEIGHT]: a screenshot, Chromium kept off the network: no sync, no updates,
# no first-run pages.
shoot() {
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --window-size="${3:-1000,1400}" --screenshot="$2" "$1" >/dev/null 2>&1
    [[ -s $2 ]] || { echo "chromium made no screenshot of $1"; exit 1; }
}
# ink PNG: how many pixel rows of PNG hold anything but white.
ink() { python3 "$(dirname "${BASH_SOURCE[0]}")/ink_rows.py" "$1"; }
