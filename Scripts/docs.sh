#!/usr/bin/env bash
# Builds the documentation site: the DocC catalog in Docs/StoreReleaseKit.docc plus the public
# symbols of StoreReleaseKit, with the toolchain's swift-symbolgraph-extract and docc. Any docc
# warning fails the build.
#
#   Scripts/docs.sh [OUTPUT]     OUTPUT defaults to .build/docs
#
# Writes OUTPUT/symbol-graphs (the symbols, with each declaration's own doc comment) and
# OUTPUT/site (a static site: serve the folder, e.g. `python3 -m http.server -d OUTPUT/site`, and
# open its root, which leads to /documentation/storereleasekit/).
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
# docc's root page is its app with no route (a "page not found"): the root leads to the docs.
cat > "$output/site/index.html" <<'HTML'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>StoreReleaseKit documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/storereleasekit/">
<link rel="canonical" href="documentation/storereleasekit/">
</head>
<body>
<p>The documentation of StoreReleaseKit is at
<a href="documentation/storereleasekit/">documentation/storereleasekit/</a>.</p>
</body>
</html>
HTML
echo "docs.sh: $output/site"
