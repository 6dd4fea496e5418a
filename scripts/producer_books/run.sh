#!/bin/bash
# Builds the producer books and measures how much of their main text an epub2audio binary reads.
#
#   run.sh --corpus ../shared/corpus --work /tmp/producer-books --bin .build/release/epub2audio [--no-build] [filter ...]
#
# Also from the environment: CORPUS, WORK, BIN, NOBUILD=1. Steps: extract.py (chapter texts from
# <corpus>/real -> <work>/model), gen.py (sources -> <work>/srcfmt), build.sh (producers ->
# <work>/out, log in <work>/build.log), measure.py (table; exit 1 when a book loses main text).
# --no-build measures the books already in <work>/out. Filters keep books whose name contains one.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=${CORPUS:-} WORK=${WORK:-} BIN=${BIN:-} NOBUILD=${NOBUILD:-}
usage(){ sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
filters=()
while [ $# -gt 0 ]; do
  case $1 in
    --corpus) CORPUS=${2:?}; shift 2 ;;
    --work) WORK=${2:?}; shift 2 ;;
    --bin) BIN=${2:?}; shift 2 ;;
    --no-build) NOBUILD=1; shift ;;
    -h|--help) usage ;;
    -*) echo "run.sh: unknown option $1" >&2; usage ;;
    *) filters+=("$1"); shift ;;
  esac
done
[ -n "$WORK" ] && [ -n "$BIN" ] || usage
[ -x "$BIN" ] || { echo "run.sh: binary $BIN not found or not executable" >&2; exit 2; }
mkdir -p "$WORK"
if [ -z "$NOBUILD" ]; then
  [ -n "$CORPUS" ] || usage
  [ -d "$CORPUS/real" ] || { echo "run.sh: $CORPUS/real not found (--corpus is the folder holding real/)" >&2; exit 2; }
  python3 "$HERE/extract.py" --corpus "$CORPUS" --work "$WORK"
  python3 "$HERE/gen.py" --work "$WORK" >/dev/null
  rm -rf "$WORK/out"
  "$HERE/build.sh" "$WORK" 2> "$WORK/build.log"
  grep -E '^SKIP|FAILED' "$WORK/build.log" >&2 || true
  echo "built $(ls "$WORK/out" | wc -l) books in $WORK/out (log: $WORK/build.log)"
fi
exec python3 "$HERE/measure.py" --work "$WORK" --bin "$BIN" ${filters[@]+"${filters[@]}"}
