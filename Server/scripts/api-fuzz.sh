#!/usr/bin/env bash
# schemathesis against openapi.yaml on a live server (loopback, a private data folder): every
# generated request must get an answer that is not a server error (5xx). Bounded: --max-examples
# per operation, and a time limit on the whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER=${SERVER:-.build/debug/epub2audio-server}
EXAMPLES=${API_FUZZ_EXAMPLES:-40}
if ! command -v schemathesis >/dev/null 2>&1; then
    if [ "${CI:-}" = "true" ] || [ "${INSTALL_SCHEMATHESIS:-}" = "1" ]; then
        python3 -m pip install --quiet schemathesis
    else
        echo "api-fuzz: schemathesis is not installed (pip install schemathesis); skipped"
        exit 0
    fi
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/epub2audio-api-fuzz.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$SERVER" --data "$work/data" --listen "127.0.0.1:$port" --slots 1 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
book=../samples/a-treatise-on-small-machines.epub
sha=$(sha256sum "$book" | cut -c1-64)
curl -fs -o /dev/null -X PUT --data-binary "@$book" -H 'Content-Type: application/epub+zip' \
    "http://127.0.0.1:$port/v1/books/$sha"
timeout 600 schemathesis run Sources/ServerCore/openapi.yaml --url "http://127.0.0.1:$port" \
    --checks not_a_server_error --max-examples "$EXAMPLES" --no-color
if grep -q "Fatal\|panic" "$work/server.log"; then
    echo "api-fuzz: the server logged a crash"; cat "$work/server.log"; exit 1
fi
echo "api-fuzz: no server error"
