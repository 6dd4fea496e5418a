#!/usr/bin/env bash
# Runs "$@" with an S3 stand-in on loopback (moto_server, from PyPI: pip install 'moto[server]') that
# checks SigV4 signatures, and EPUB2AUDIO_TEST_S3_ENDPOINT, EPUB2AUDIO_TEST_S3_ACCESS_KEY and
# EPUB2AUDIO_TEST_S3_SECRET_KEY naming it, so the S3 blob store tests run (docs/service.md); and a second
# moto without authentication, EPUB2AUDIO_TEST_S3_OPEN_ENDPOINT, for the presigned URLs, which moto only
# serves with its authentication off (it does not check query-string signatures).
# Without moto_server the command runs as it is and those tests skip; in CI (CI=true) pip installs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ -n "${EPUB2AUDIO_TEST_S3_ENDPOINT:-}" ]; then exec "$@"; fi
if ! command -v moto_server >/dev/null 2>&1; then
    if [ "${CI:-}" = "true" ] || [ "${INSTALL_MOTO:-}" = "1" ]; then
        python3 -m pip install --quiet 'moto[server]'
        hash -r
    else
        echo "with-s3: moto_server is not installed (pip install 'moto[server]'); the S3 store tests will skip" >&2
        exec "$@"
    fi
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/epub2audio-s3.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# moto checks signatures after its first N requests: those are s3-setup.py's, which make an IAM
# user with an S3 policy and an access key; every later request must be signed with that key.
INITIAL_NO_AUTH_ACTION_COUNT=4 moto_server -H 127.0.0.1 -p "$port" >"$dir/moto.log" 2>&1 &
moto=$!
open_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
moto_server -H 127.0.0.1 -p "$open_port" >"$dir/moto-open.log" 2>&1 &
open_moto=$!
stop() {
    kill "$moto" "$open_moto" 2>/dev/null || true
    wait "$moto" "$open_moto" 2>/dev/null || true
    rm -rf "$dir"
}
trap stop EXIT

endpoint="http://127.0.0.1:$port"
read -r key secret < <(python3 "$here/s3-setup.py" "$endpoint") || {
    echo "with-s3: the S3 stand-in did not start" >&2
    cat "$dir/moto.log" >&2
    exit 1
}
python3 - "http://127.0.0.1:$open_port" <<'PY' || { echo "with-s3: the open S3 stand-in did not start" >&2; exit 1; }
import sys, time, urllib.request, urllib.error
for _ in range(300):
    try:
        urllib.request.urlopen(sys.argv[1] + "/", timeout=2)
        sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
PY
export EPUB2AUDIO_TEST_S3_OPEN_ENDPOINT="http://127.0.0.1:$open_port"
export EPUB2AUDIO_TEST_S3_ENDPOINT="$endpoint"
export EPUB2AUDIO_TEST_S3_ACCESS_KEY="$key"
export EPUB2AUDIO_TEST_S3_SECRET_KEY="$secret"
echo "with-s3: moto $(python3 -c 'import moto; print(moto.__version__)') on $endpoint, signatures checked;" \
    "on $EPUB2AUDIO_TEST_S3_OPEN_ENDPOINT without authentication"
set +e
"$@"
status=$?
exit $status
