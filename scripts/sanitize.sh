#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (with LeakSanitizer), then separately under ThreadSanitizer.
#
# usage: scripts/sanitize.sh [asan|tsan]...      (default: both; `make test-sanitize`)
# environment:
#   SANITIZE_ASAN_FILTER  `swift test --filter` for the ASan run (default: the whole suite)
#   SANITIZE_TSAN_FILTER  `swift test --filter` for the TSan run (default: the whole suite)
#   SANITIZE_SKIP         `swift test --skip` regex for both runs (default below; empty to run everything)
#   SWIFT_FLAGS           extra flags for swift build/test
# Each sanitizer has its own scratch folder (.build-asan, .build-tsan), so the normal .build is untouched.
# A sanitizer report makes the test process fail: halt_on_error stops at the first report, and LeakSanitizer
# runs at exit. Exit status: 0 when every requested run is clean.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
runs=("$@")
[ ${#runs[@]} -eq 0 ] && runs=(asan tsan)
status=0

run() { # name sanitizer scratch filter
    local name="$1" sanitizer="$2" scratch="$3" filter="$4"
    local args=(--scratch-path "$scratch" --sanitize "$sanitizer")
    # shellcheck disable=SC2206  # SWIFT_FLAGS is a flag list on purpose
    args+=(${SWIFT_FLAGS:-})
    echo "sanitize: $name: building tests (-sanitize=$sanitizer, $scratch) ..."
    local log="$scratch/sanitize-build.log"
    mkdir -p "$scratch"
    if ! swift build --build-tests "${args[@]}" >"$log" 2>&1; then
        grep -v 'ld.gold: warning' "$log" | tail -30 >&2
        echo "sanitize: $name: BUILD FAILED (log: $log)" >&2
        return 1
    fi
    # The suite is Swift Testing only; XCTest's runner leaks its own bookkeeping at exit.
    local test_args=(--skip-build --disable-xctest "${args[@]}")
    [ -n "$filter" ] && test_args+=(--filter "$filter")
    [ -n "$skip" ] && test_args+=(--skip "$skip")
    echo "sanitize: $name: swift test ${filter:+--filter $filter} ..."
    local start=$SECONDS
    if swift test "${test_args[@]}"; then
        echo "sanitize: $name: CLEAN ($((SECONDS - start))s)"
    else
        echo "sanitize: $name: FAILED: a test failed or the sanitizer reported a problem (see above)" >&2
        return 1
    fi
}

# ProcessWorkerTests.killStopsAHangingWorkerAtOnce blocks a thread of Swift's cooperative pool (2 threads on a
# 2-core machine) while its kill waits in a Task on that same pool: under the sanitizers' slowdown the kill
# never runs and the test waits out the worker's `sleep 30`. A test-timing problem, not a sanitizer finding
# (docs/hardening.md); drop it from here once the test kills from a thread of its own.
skip="${SANITIZE_SKIP-killStopsAHangingWorkerAtOnce}"

# Wall-clock limits in the tests (they catch blow-ups, see Tests/*/TimeLimit.swift) scaled for the slowdown.
export EPUB2AUDIO_TEST_TIME_SCALE="${EPUB2AUDIO_TEST_TIME_SCALE:-10}"
# Leaks in the Swift runtime libraries, not in this project: see the comments in the file.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0}"

for each in "${runs[@]}"; do
    case "$each" in
    asan)
        ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1}" \
            run ASan address .build-asan "${SANITIZE_ASAN_FILTER:-}" || status=1
        ;;
    tsan)
        # Suppressions: only false positives from Swift's `Mutex`, which TSan cannot see (see the file).
        tsan_defaults="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan-suppressions.txt"
        TSAN_OPTIONS="${TSAN_OPTIONS:-$tsan_defaults}" \
            run TSan thread .build-tsan "${SANITIZE_TSAN_FILTER:-}" || status=1
        ;;
    *)
        echo "usage: scripts/sanitize.sh [asan|tsan]..." >&2
        exit 2
        ;;
    esac
done
exit "$status"
