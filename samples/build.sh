#!/bin/sh
# Builds the sample books samples/<name>.epub from their sources in samples/<name>/.
#
# Reproducible: every source gets the same fixed mtime, files are added in a sorted order,
# zip runs with TZ=UTC (it stores local DOS times) and -X (no uid/gid or extra timestamps), so a
# rebuild gives byte-identical .epub files. The `mimetype` entry comes first and is stored
# uncompressed, as the OCF container format requires.
#
# Usage: samples/build.sh            (from anywhere; `make samples` runs it from the repo root)
#        SAMPLE_BOOKS="name ..." samples/build.sh   builds only the named books
# Runs epubcheck afterwards when it is installed (not required).
set -eu

SAMPLES_DIR=$(cd "$(dirname "$0")" && pwd)
BOOKS=${SAMPLE_BOOKS:-"the-lighthouse-keepers-daughter a-treatise-on-small-machines"}
STAMP=2020-01-01T00:00:00

command -v zip >/dev/null 2>&1 || { echo "build.sh: the zip command is required (apt-get install zip)" >&2; exit 1; }

# Debian's /usr/bin/epubcheck is a bare jar (no launcher): run it through java when that is the case.
EPUBCHECK=
if path=$(command -v epubcheck 2>/dev/null); then
    if [ "$(head -c 2 "$path")" = "PK" ]; then
        command -v java >/dev/null 2>&1 && EPUBCHECK="java -jar $path"
    else
        EPUBCHECK=$path
    fi
fi

for book in $BOOKS; do
    src="$SAMPLES_DIR/$book"
    out="$SAMPLES_DIR/$book.epub"
    [ -f "$src/mimetype" ] || { echo "build.sh: $src/mimetype is missing" >&2; exit 1; }

    # Fixed modes and mtimes: zip stores both, and a checkout's umask or clock must not change the bytes.
    find "$src" -type f -exec chmod 0644 {} +
    find "$src" -exec env TZ=UTC touch -h -d "$STAMP" {} +
    rm -f "$out"
    (
        cd "$src"
        TZ=UTC zip -q -X -0 "$out" mimetype
        find META-INF OEBPS -type f | LC_ALL=C sort | TZ=UTC zip -q -X -9 -D "$out" -@
    )
    echo "built $out"

    if [ -n "$EPUBCHECK" ]; then
        $EPUBCHECK -q "$out" || echo "build.sh: epubcheck reported problems in $out" >&2
    fi
done
