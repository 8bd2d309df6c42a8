#!/usr/bin/env bash
# Renders the bundled timeline (its SVG and its HTML page) and the watch guide's picture the way a
# browser shows them, and keeps the screenshots in .build/timeline-screenshots/ to look at.
# Headless Chromium where it is installed (chromium --headless --screenshot); else rsvg-convert
# for the SVG alone; else it says what is missing and exits 0 (nothing is downloaded).
# Run from the package's folder: bash Scripts/timeline.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/timeline-screenshots
mkdir -p "$out"
swift build --product storerelease >/dev/null
bin=$(swift build --show-bin-path)/storerelease
"$bin" timeline Docs/Watch/timeline-history.jsonl >"$out/timeline.svg"
"$bin" timeline Docs/Watch/timeline-history.jsonl --format html >"$out/timeline.html"
browser=""
for name in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$name" >/dev/null 2>&1; then browser=$name; break; fi
done
if [ -n "$browser" ]; then
    for page in timeline.svg timeline.html; do
        "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1400 \
            --screenshot="$PWD/$out/${page%.*}-${page##*.}.png" "file://$PWD/$out/$page" >/dev/null 2>&1
    done
    "$browser" --headless --no-sandbox --disable-gpu --window-size=1280,1400 \
        --screenshot="$PWD/$out/guide-picture.png" "file://$PWD/Docs/StoreReleaseKit.docc/Resources/timeline-8.0.10.svg" \
        >/dev/null 2>&1
    echo "screenshots by $browser in $out/"
elif command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert -w 1280 "$out/timeline.svg" -o "$out/timeline-svg.png"
    echo "no headless Chromium here: the SVG rendered by rsvg-convert in $out/timeline-svg.png; the HTML page not rendered"
else
    echo "no headless Chromium (chromium --headless) and no rsvg-convert here: nothing rendered; open $out/timeline.html in a browser"
fi
