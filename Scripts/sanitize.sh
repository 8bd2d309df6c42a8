#!/usr/bin/env bash
# Runs the library's tests and the CLI's concurrent paths (wait, live lookups) under
# ThreadSanitizer and then AddressSanitizer, each in its own build folder (so the normal .build
# stays as it is): about two and a half minutes each on 2 cores from a clean clone. The rest of the CLI
# suite (help texts, the docs site, the benchmark's smoke test) runs the same library code through
# many short processes, which the sanitizers make slow and add nothing to; SANITIZE_FILTER=. runs
# everything. The watcher's 10,000-round soak is skipped: it checks memory and file size, which
# the sanitizers' own bookkeeping would swamp. Exit status: non-zero when either run fails or a sanitizer reports anything.
#
#   Scripts/sanitize.sh         both, with LeakSanitizer (run by hand before a release, and after
#                               a change to unsafe-pointer code: VersionLines' fast path, StrictJSON,
#                               AtomicFile, RegularFile)
#   Scripts/sanitize.sh --ci    ThreadSanitizer only (what .ci/run does): each sanitizer's build of
#                               the whole package takes about 100 s on 2 cores, and both together
#                               put a clean-clone CI run at 7 min 42 s, past its 6-minute budget; the
#                               watcher, the waiter and the transport's deadline are the code this
#                               round changed most, and they are what ThreadSanitizer checks
set -euo pipefail
cd "$(dirname "$0")/.."
# LeakSanitizer reports allocations libcurl never frees (FoundationNetworking on Linux); they are
# suppressed by name, and the built tool run by the tests inherits the setting.
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0"
# A test process that crashes must end at once with the sanitizer's report, not sit in Swift's
# backtracer for minutes (it symbolicates slowly under the sanitizers' runtimes).
export SWIFT_BACKTRACE=enable=no
case "${1:-}" in
    --ci) sanitizers="thread"; echo "(ThreadSanitizer only: --ci; run without --ci for AddressSanitizer too)" ;;
    "") sanitizers="thread address" ;;
    *) echo "sanitize.sh: unknown argument ${1} (the only option is --ci)" >&2; exit 2 ;;
esac
filter="${SANITIZE_FILTER:-StoreRelease(Core|Flow|Models|Policy|Clients|Tooling)Tests|StoreReleaseCLITests.ParityAndWaitCommandTests|StoreReleaseCLITests.LookupCommandTests}"
for sanitizer in $sanitizers; do
    echo "== swift test --sanitize=$sanitizer"
    log=$(mktemp)
    swift test --sanitize="$sanitizer" --build-path ".build/sanitize-$sanitizer" --filter "$filter" \
        --skip ReleaseWatcherSoakTests 2>&1 | tee "$log" \
        | grep -E "Test run with|error:" || true
    if grep -qE "ThreadSanitizer|AddressSanitizer|LeakSanitizer" "$log" || ! grep -q "Test run with .* passed" "$log"; then
        echo "the $sanitizer sanitizer run failed; its output: $log"
        exit 1
    fi
    rm -f "$log"
done
echo "sanitizers: clean"
