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
# Python's standard library, not curl: nothing more to install.
python3 - "$port" ../samples/a-treatise-on-small-machines.epub <<'PY'
import hashlib, sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(100):
    try:
        urllib.request.urlopen(base + "/healthz", timeout=5).read()
        break
    except OSError:
        time.sleep(0.2)
book = open(sys.argv[2], "rb").read()
request = urllib.request.Request(
    base + "/v1/books/" + hashlib.sha256(book).hexdigest(), data=book, method="PUT",
    headers={"Content-Type": "application/epub+zip"})
urllib.request.urlopen(request, timeout=30).read()
PY
timeout 600 schemathesis run Sources/ServerCore/openapi.yaml --url "http://127.0.0.1:$port" \
    --checks not_a_server_error --max-examples "$EXAMPLES" --no-color
if grep -q "Fatal\|panic" "$work/server.log"; then
    echo "api-fuzz: the server logged a crash"; cat "$work/server.log"; exit 1
fi
echo "api-fuzz: no server error"
