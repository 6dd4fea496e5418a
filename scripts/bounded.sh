#!/usr/bin/env bash
# bounded.sh SECONDS COMMAND...: runs a test command for at most SECONDS. A test that hangs must fail
# the run in minutes, and say where it hung, instead of holding CI until its own limit ends it.
#
# The command runs in a session of its own (its children may start process groups of their own),
# its standard output line-buffered (stdbuf; standard error is unbuffered already), so the log shows
# everything up to the hang. On timeout: the process tree with each process's age, state and the
# kernel function it sleeps in, then every thread's backtrace of each process (gdb, when installed),
# then SIGTERM to every process of the session, SIGKILL 10 s later; exit status 124. Wrapper scripts
# outside it (a throwaway PostgreSQL, an S3 stand-in) still stop theirs as usual.
set -uo pipefail
limit=$1
shift
buffered=()
command -v stdbuf >/dev/null 2>&1 && buffered=(stdbuf -oL)
setsid "${buffered[@]}" "$@" &
child=$!
# Every process of the session, oldest first.
members() { ps -o pid= --sort=start_time -s "$child" 2>/dev/null; }
signal() { for pid in $(members); do kill "-$1" "$pid" 2>/dev/null; done; }
forward() { signal TERM; }
trap forward INT TERM

report() {
    echo "bounded: '$*' still running after ${limit} s: stopping it; where each process is:" >&2
    ps -o pid,ppid,etimes,stat,wchan:24,args --sort=start_time -s "$child" >&2
    if ! command -v gdb >/dev/null 2>&1; then
        echo "bounded: gdb is not installed: no backtraces" >&2
        return
    fi
    for pid in $(members); do
        echo "bounded: threads of process $pid ($(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null | cut -c1-120))" >&2
        timeout 60 gdb -p "$pid" -batch -nx -ex "set pagination off" -ex "thread apply all bt 15" 2>&1 |
            grep -E '^(Thread|#)' | cut -c1-240 >&2
    done
}

waited=0
while kill -0 "$child" 2>/dev/null; do
    if [ "$waited" -ge "$limit" ]; then
        report "$@"
        signal TERM
        for _ in $(seq 1 10); do
            kill -0 "$child" 2>/dev/null || break
            sleep 1
        done
        signal KILL
        wait "$child" 2>/dev/null
        exit 124
    fi
    sleep 1
    waited=$((waited + 1))
done
wait "$child"
