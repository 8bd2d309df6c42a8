#!/usr/bin/env bash
# Runs the library's tests and the CLI's concurrent paths (wait, live lookups) under
# ThreadSanitizer and then AddressSanitizer, each in its own build folder (so the normal .build
# stays as it is). ThreadSanitizer runs only the suites whose code runs concurrently (the list and
# why are below); AddressSanitizer runs every library suite, since the unsafe-pointer code it
# checks (VersionLines' fast path, StrictJSON, AtomicFile, RegularFile) is single-threaded too. The rest of the CLI
# suite (help texts, the docs site, the benchmark's smoke test) runs the same library code through
# many short processes, which the sanitizers make slow and add nothing to; SANITIZE_FILTER=. runs
# everything under both. The watcher's 10,000-round soak is skipped: it checks memory, which
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
# The suites whose code runs at the same time as other code, which is what ThreadSanitizer checks:
# the transport, the clients and their rate limiter (every client suite), the watcher, its state
# file and webhook, the waiter, the sources and the signer (tasks, locks, child processes),
# VersionLines' parallel parts, the prompt history's concurrent writers, the simulator's listener
# stream, and the CLI's wait and live lookups. The other library suites (version parsing and
# ordering, the flow's parity tables, the models, the policy's decisions, the report, health,
# diffs, lag, file validation) are pure computation on one thread: nothing in them can race, so
# running them again under the sanitizer only costs time.
concurrent="StoreReleaseClientsTests|StoreReleaseCoreTests.VersionLinesTests|StoreReleaseFlowTests.FakeAppUpdateManagerParityTests"
concurrent+="|StoreReleasePolicyTests.PromptHistoryTests"
concurrent+="|StoreReleaseToolingTests.(AppStoreConnect(Token|Client|Gate)Tests|LoopbackFormTests|OpenSSLChildTests"
concurrent+="|RedactionTests|ReleaseSnapshotTests|ReleaseSourcesTests|ReleaseWaiterTests|ReleaseWatcherTests"
concurrent+="|WebhookNotifierTests|WatchStateFileRoundsTests|WhereSoldTests)"
concurrent+="|StoreReleaseCLITests.ParityAndWaitCommandTests|StoreReleaseCLITests.LookupCommandTests"
library="StoreRelease(Core|Flow|Models|Policy|Clients|Tooling)Tests"
library+="|StoreReleaseCLITests.ParityAndWaitCommandTests|StoreReleaseCLITests.LookupCommandTests"
for sanitizer in $sanitizers; do
    if [ "$sanitizer" = thread ]; then filter="${SANITIZE_FILTER:-$concurrent}"; else filter="${SANITIZE_FILTER:-$library}"; fi
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
