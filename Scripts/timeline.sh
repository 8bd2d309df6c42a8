#!/usr/bin/env bash
# Renders the bundled timeline (its SVG and its HTML page), the watch guide's picture and the guide's
# page on the docs site the way a browser shows them, and keeps the screenshots in .build/timeline-screenshots/ to look at.
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
    # The watch guide as the docs site shows it: the site is built (Scripts/docs.sh) and served on
    # 127.0.0.1, since docc's pages load their data over HTTP, not from file://.
    bash Scripts/docs.sh .build/docs >/dev/null
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 -m http.server "$port" --bind 127.0.0.1 -d .build/docs/site >/dev/null 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true' EXIT
    for _ in $(seq 1 50); do
        if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null; then break; fi
        sleep 0.1
    done
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,6000 \
        --virtual-time-budget=15000 --screenshot="$PWD/$out/guide-page.png" \
        "http://127.0.0.1:$port/documentation/storereleasekit/watchingarelease" >/dev/null 2>&1
    echo "screenshots by $browser in $out/ (the guide's page: guide-page.png)"
elif command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert -w 1280 "$out/timeline.svg" -o "$out/timeline-svg.png"
    echo "no headless Chromium here: the SVG rendered by rsvg-convert in $out/timeline-svg.png; the HTML page not rendered"
else
    echo "no headless Chromium (chromium --headless) and no rsvg-convert here: nothing rendered; open $out/timeline.html in a browser"
fi
