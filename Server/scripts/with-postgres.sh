#!/usr/bin/env bash
# Runs "$@" with a throwaway PostgreSQL on loopback and EPUB2AUDIO_TEST_POSTGRES_URL pointing at it,
# so the job store tests run against PostgreSQL too (docs/service.md). Without PostgreSQL's binaries
# the command runs as it is and those tests skip; in CI (CI=true) a missing PostgreSQL is an error.
set -euo pipefail

bin=""
for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && bin="$dir"
done
if [ -z "$bin" ] || [ -n "${EPUB2AUDIO_TEST_POSTGRES_URL:-}" ]; then
    if [ -z "$bin" ] && [ "${CI:-}" = "true" ]; then
        echo "with-postgres: no PostgreSQL in /usr/lib/postgresql (make deps installs it)" >&2
        exit 1
    fi
    [ -z "$bin" ] && echo "with-postgres: no PostgreSQL found; the PostgreSQL store tests will skip" >&2
    exec "$@"
fi

# initdb refuses root: run the server as the postgres user when we are root.
run_as=()
if [ "$(id -u)" = 0 ]; then
    if id postgres >/dev/null 2>&1; then run_as=(runuser -u postgres --); else
        echo "with-postgres: running as root and there is no postgres user" >&2
        exit 1
    fi
fi

dir=$(mktemp -d /tmp/epub2audio-pg.XXXXXX)
chmod 755 "$dir"
[ "${#run_as[@]}" -gt 0 ] && chown postgres "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
user=$("${run_as[@]}" id -un)

stop() {
    "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

"${run_as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U "$user" --no-sync --locale=C -E UTF8 >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
}
"${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-k $dir -h 127.0.0.1 -p $port -F -c max_connections=200" start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
}

export EPUB2AUDIO_TEST_POSTGRES_URL="postgres://$user@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$port"
set +e
"$@"
status=$?
exit $status
