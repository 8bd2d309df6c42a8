#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with AddressSanitizer and runs each from its committed
# corpus for a fixed number of executions (default 1,000,000; `Scripts/fuzz.sh 50000` for less;
# FUZZ_TARGETS="Manifest Policy" picks targets).
# FUZZ_SECONDS=60 also stops each target after that many seconds (libFuzzer's -max_total_time).
# New inputs go to a temporary folder, so the committed corpus changes only by hand. A crash is
# saved under .build/fuzz/crashes/ and the script exits non-zero: turn it into a test.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}"
# A property that fails is a fatalError: without this, Swift's backtracer holds the crashed
# fuzzer for minutes (symbolicating under ASan) before libFuzzer can save the input and exit.
export SWIFT_BACKTRACE=enable=no
seconds=()
if [ -n "${FUZZ_SECONDS:-}" ]; then seconds=(-max_total_time="$FUZZ_SECONDS"); fi
out=.build/fuzz
mkdir -p "$out/crashes"
# The library's modules are compiled into the fuzzer's one module, so internal parts (the fast
# parser, the canonical storage) can be checked against each other: their sources are copied with
# the imports between them (and the umbrella's re-exports) left out.
src="$out/src"
rm -rf "$src" && mkdir -p "$src"
for module in StoreReleaseCore StoreReleaseFlow StoreReleaseModels StoreReleasePolicy StoreReleaseClients StoreReleaseTooling StoreReleaseKit; do
    find "Sources/$module" -name '*.swift' ! -name Exports.swift | while read -r file; do
        grep -vE '^(@_exported )?import StoreRelease(Core|Flow|Models|Policy|Clients|Tooling)$' "$file" >"$src/$module-$(basename "$file")"
    done
done
library=$(find "$src" -name '*.swift' | sort)

targets=(Version LookupPayload Script Manifest Policy PlayJSON)
if [ -n "${FUZZ_TARGETS:-}" ]; then read -r -a targets <<<"$FUZZ_TARGETS"; fi
for target in "${targets[@]}"; do
    name=$(echo "$target" | tr '[:upper:]' '[:lower:]')
    case "$target" in
        Version) max_len=512 ;;           # two versions and a few lines
        Script) max_len=256 ;;            # a script, or a walk of 256 events
        LookupPayload) max_len=16384 ;;   # a lookup payload is a few KiB
        *) max_len=4096 ;;                # a manifest, a policy, a Play record or track list
    esac
    echo "== building fuzz-$name"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name StoreRelease -I Sources/CPrefetch/include \
        -module-name StoreReleaseKit $library Fuzz/Shared/*.swift "Fuzz/$target"/*.swift -o "$out/fuzz-$name" \
        2> >(grep -v "Cannot export local symbol" >&2)
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    echo "== running fuzz-$name for $runs executions"
    if ! "$out/fuzz-$name" "$scratch" "Fuzz/corpus/$name" -runs="$runs" ${seconds[@]+"${seconds[@]}"} -max_len="$max_len" \
        -artifact_prefix="$out/crashes/$name-" -print_final_stats=1 >"$out/$name.log" 2>&1; then
        grep -E "property violated|Fatal error|ERROR: |Test unit written" "$out/$name.log" >&2 || true
        echo "fuzz-$name failed: the input is in $out/crashes/, the whole log in $out/$name.log" >&2
        exit 1
    fi
    grep -E "^Done|stat::(number_of_executed_units|new_units_added|peak_rss_mb)" "$out/$name.log"
    rm -rf "$scratch"
    trap - EXIT
done
echo "fuzzing clean: every target ran $runs executions without a crash"
