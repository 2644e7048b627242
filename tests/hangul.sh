# Sourced by the tests that render Korean pictures.
#   hangul_glyphs_differ SVG WORKDIR RENDER NAME
# Draws Hangul, in the fonts that SVG's root element names, with `RENDER IN.svg OUT.png`, and fails
# (exit 1) unless the renderer had a Korean font. Without one, Chromium draws every Hangul
# character as the same box, and rsvg-convert as a box holding its code point: so two different
# words must not draw the same picture, and ㅡ, one flat stroke, must ink a few rows of pixels, not
# the height of a box. NAME says which renderer, for the message.
hangul_glyphs_differ() {
    local svg=$1 work=$2 render=$3 name=$4 fonts i rows words=(가나다라 마바사아 ㅡㅡㅡㅡ)
    fonts=$(grep -o 'font-family="[^"]*"' "$svg" | head -n 1)
    [[ -n $fonts ]] || { echo "$svg names no font-family"; exit 1; }
    for i in 0 1 2; do
        printf '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120" %s font-size="48">%s%s</svg>\n' \
            "$fonts" '<rect width="100%" height="100%" fill="#fff"/>' "<text x=\"10\" y=\"80\">${words[i]}</text>" \
            >"$work/hangul-$i.svg"
        "$render" "$work/hangul-$i.svg" "$work/hangul-$i.png"
    done
    rows=$(python3 "$(dirname "${BASH_SOURCE[0]}")/ink_rows.py" "$work/hangul-2.png")
    if cmp -s "$work/hangul-0.png" "$work/hangul-1.png" || ((rows == 0 || rows > 12)); then
        echo "$name draws Hangul as boxes (ㅡ inked $rows rows of 48 px): no Korean font (scripts/test.sh installs fonts-nanum)"
        exit 1
    fi
}
