#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (with AddressSanitizer) and runs each for FUZZ_SECONDS.
#
# usage: scripts/fuzz.sh [TARGET...]          (default: every target; `make fuzz FUZZ_SECONDS=60`)
# environment:
#   FUZZ_SECONDS      seconds per target (default 60)
#   FUZZ_EXTRA_SEEDS  extra seed folders/files, space separated (default ../shared/corpus when present;
#                     used from where they are, never copied into the repository)
#   FUZZ_WORK         working folder (default: a new temporary folder, kept when something is found)
#   FUZZ_CONFIG       debug (default: keeps assertions) or release
#   FUZZ_ARGS         extra libFuzzer flags, e.g. "-seed=1 -max_len=65536"
# Seeds are built afresh in a temporary corpus for each run from samples/, the test fixtures, the committed
# Fuzz/corpus/<target>/ seeds and the committed regression inputs, so nothing in the repository changes.
# Exit status: 0 when no target found anything; 1 when a crash, leak, timeout or OOM was found (the inputs
# are printed); 2 when the build failed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
config="${FUZZ_CONFIG:-debug}"
all_targets=(fuzz-read fuzz-parts fuzz-markup fuzz-text fuzz-chapters)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
extra_seeds="${FUZZ_EXTRA_SEEDS-}"
if [ -z "${FUZZ_EXTRA_SEEDS+set}" ] && [ -d ../shared/corpus ]; then extra_seeds="../shared/corpus"; fi
work="${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/epub2audio-fuzz.XXXXXX")}"
mkdir -p "$work"
fixtures="Tests/Domain/EPUBReaderTests/Fixtures"

# `--sanitize fuzzer` makes SwiftPM link libFuzzer's main and build executables as libraries, but SwiftPM passes
# each sanitizer as its own `-sanitize=` flag and swiftc 6.3 keeps only the last one, so half the time the code
# had no coverage instrumentation (or no ASan). The trailing combined flag wins and gives both.
build=(swift build -c "$config" --scratch-path ../.build-fuzz --sanitize fuzzer --sanitize address
    -Xswiftc -sanitize=fuzzer,address)
echo "fuzz: building Fuzz/ ($config, -sanitize=fuzzer,address) ..."
if ! (cd Fuzz && "${build[@]}") >"$work/build.log" 2>&1; then
    grep -v 'ld.gold: warning' "$work/build.log" | tail -40
    echo "fuzz: build failed (full log: $work/build.log)" >&2
    exit 2
fi
bin="$(cd Fuzz && "${build[@]}" --show-bin-path)"

# One-time leaks inside Swift's Regex and NSRegularExpression (see the file) would otherwise be reported when a
# single input is replayed; libFuzzer's own per-input leak check is unaffected by what is suppressed.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0}"

found=0
for target in "${targets[@]}"; do
    if [ ! -x "$bin/$target" ]; then
        echo "fuzz: $target: SKIPPED: not built (the target does not exist yet, see docs/hardening.md)"
        continue
    fi
    dir="$work/$target"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    # shellcheck disable=SC2086  # extra_seeds is a space-separated list on purpose
    python3 Fuzz/make-seeds.py "$target" "$dir/corpus" samples "$fixtures" $extra_seeds
    # The regression inputs are seeds already: make-seeds.py walks the fixtures folder they are in.
    [ -d "Fuzz/corpus/$target" ] && find "Fuzz/corpus/$target" -type f -exec cp {} "$dir/corpus/" \;
    dict=()
    case "$target" in fuzz-parts | fuzz-markup | fuzz-text) dict=(-dict=Fuzz/dictionaries/xml.dict) ;; esac
    [ "$target" = fuzz-chapters ] && [ -f Fuzz/dictionaries/chapters.dict ] && dict=(-dict=Fuzz/dictionaries/chapters.dict)
    echo "fuzz: $target for ${seconds}s ($(find "$dir/corpus" -type f | wc -l) seeds) ..."
    # shellcheck disable=SC2086
    if "$bin/$target" "$dir/corpus" -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 \
        -artifact_prefix="$dir/artifacts/" -print_final_stats=1 "${dict[@]}" ${FUZZ_ARGS:-} >"$dir/log" 2>&1; then
        status=0
    else
        status=$?
    fi
    stats="$(grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$dir/log" | tr '\n' ' ')"
    corpus_line="$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$dir/log" | tail -1 || true)"
    echo "fuzz: $target: exit $status; $stats"
    echo "      $corpus_line"
    artifacts=("$dir"/artifacts/*)
    if [ -e "${artifacts[0]}" ] || [ "$status" -ne 0 ]; then
        found=1
        echo "fuzz: $target: FOUND A PROBLEM (log: $dir/log)" >&2
        grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|^SUMMARY|Fatal error|deadly signal' "$dir/log" \
            | head -5 >&2 || true
        for artifact in "${artifacts[@]}"; do
            [ -e "$artifact" ] || continue
            echo "  input: $artifact" >&2
            echo "  reproduce: $bin/$target $artifact" >&2
            echo "  minimise:  $bin/$target -minimize_crash=1 -runs=20000 $artifact" >&2
        done
    fi
done

if [ "$found" -ne 0 ]; then
    echo "fuzz: problems found; inputs and logs kept in $work" >&2
    exit 1
fi
[ -z "${FUZZ_WORK:-}" ] && rm -rf "$work"
echo "fuzz: no crashes, leaks, timeouts or OOMs found"
