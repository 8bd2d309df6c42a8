#!/usr/bin/env bash
# Builds the documentation site: the DocC catalog in Docs/StoreReleaseKit.docc plus the public
# symbols of StoreReleaseKit, with the toolchain's swift-symbolgraph-extract and docc. Any docc
# warning fails the build.
#
#   Scripts/docs.sh [OUTPUT]     OUTPUT defaults to .build/docs
#
# Writes OUTPUT/symbol-graphs (the symbols, with each declaration's own doc comment) and
# OUTPUT/site (a static site: serve the folder, e.g. `python3 -m http.server -d OUTPUT/site`, and
# open its root, a page that links to /documentation/storereleasekit/ and to each guide).
# The library must be built; the script builds it unless STORERELEASE_MODULES names the folder
# of an existing build's .swiftmodule files (the tests pass theirs).
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-.build/docs}"
mkdir -p "$output"
output="$(cd "$output" && pwd)"

for tool in swift-symbolgraph-extract docc; do
    if ! command -v "$tool" >/dev/null; then
        echo "docs.sh: $tool is not on PATH; it comes with the Swift toolchain (usr/bin)" >&2
        exit 2
    fi
done

modules="${STORERELEASE_MODULES:-}"
if [ -z "$modules" ]; then
    swift build --target StoreReleaseKit
    modules="$(swift build --show-bin-path)/Modules"
fi
if [ ! -f "$modules/StoreReleaseKit.swiftmodule" ]; then
    echo "docs.sh: no StoreReleaseKit.swiftmodule in $modules" >&2
    exit 2
fi

triple="$(swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)"
sdk=()
if [ -n "${SDKROOT:-}" ]; then sdk=(-sdk "$SDKROOT"); fi

rm -rf "$output/symbol-graphs" "$output/site"
mkdir -p "$output/symbol-graphs"
# StoreReleaseKit re-exports every other library module, whose symbols join its graph, so the
# one catalog documents them all; the core imports the CPrefetch C module (internally), whose
# module map is in its include folder.
swift-symbolgraph-extract -module-name StoreReleaseKit -I "$modules" -I Sources/CPrefetch/include -target "$triple" "${sdk[@]}" \
    -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols \
    -experimental-allowed-reexported-modules=StoreReleaseCore,StoreReleaseFlow,StoreReleaseModels,StoreReleasePolicy,StoreReleaseClients,StoreReleaseTooling \
    -output-dir "$output/symbol-graphs"
docc convert Docs/StoreReleaseKit.docc \
    --additional-symbol-graph-dir "$output/symbol-graphs" \
    --fallback-display-name StoreReleaseKit \
    --fallback-bundle-identifier org.storerelease.StoreReleaseKit \
    --transform-for-static-hosting \
    --warnings-as-errors \
    --output-path "$output/site"
# docc's root page is its app with no route (a "page not found"). The root is a page of its own:
# a link to the documentation and one to each guide, no redirect (a `meta refresh` of 0 sends a
# headless browser round a loop it never leaves, so `chromium --headless --screenshot` of the
# root never ends).
{
    cat <<'HTML'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>StoreReleaseKit documentation</title>
<link rel="canonical" href="documentation/storereleasekit/">
<style>body { font: 17px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 40em; margin: 2em auto; padding: 0 1em; }</style>
</head>
<body>
<h1>StoreReleaseKit</h1>
<p>Is there a newer release of this app in the App Store or on Google Play, and what should happen
about it? <a href="documentation/storereleasekit/">The documentation of StoreReleaseKit</a>: the
package's symbols and its guides.</p>
<h2>Guides</h2>
<ul>
HTML
    for article in Docs/StoreReleaseKit.docc/*.md; do
        name="$(basename "$article" .md)"
        [ "$name" = StoreReleaseKit ] && continue
        title="$(sed -n 's/^# //p' "$article" | head -n 1 | sed 's/&/\&amp;/g; s/</\&lt;/g')"
        slug="$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')"
        printf '<li><a href="documentation/storereleasekit/%s">%s</a></li>\n' "$slug" "$title"
    done
    cat <<'HTML'
</ul>
</body>
</html>
HTML
} > "$output/site/index.html"
echo "docs.sh: $output/site"
