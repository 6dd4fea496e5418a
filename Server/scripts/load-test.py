#!/usr/bin/env python3
"""A bounded load test of epub2audio-server on loopback.

Starts an API-only server and two worker processes on a private data folder, uploads a sample book,
then CLIENTS threads create JOBS jobs (each one section of the sample) and poll them until they end.
Prints every API call's latency percentiles and the jobs' outcome; exits non-zero unless every job
succeeded. Bounded in count and time; only 127.0.0.1 is contacted.
"""
import argparse, hashlib, json, os, shutil, socket, statistics, subprocess, sys, tempfile, threading, time
import urllib.request

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

def call(base, method, path, body=None, headers=None, latencies=None, lock=None):
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers or {})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            data = response.read(); status = response.status
    except urllib.error.HTTPError as error:
        data = error.read(); status = error.code
    elapsed = time.perf_counter() - start
    if latencies is not None:
        with lock: latencies.append(elapsed)
    return status, data

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--book", default=os.path.join(os.path.dirname(__file__), "../../samples/a-treatise-on-small-machines.epub"))
    parser.add_argument("--section", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="epub2audio-load-")
    port = free_port(); base = f"http://127.0.0.1:{port}"
    processes = [subprocess.Popen([args.server, "--data", work, "--listen", f"127.0.0.1:{port}", "--slots", "0"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for _ in range(args.workers):
        processes.append(subprocess.Popen([args.server, "worker", "--data", work, "--slots", "1"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        for _ in range(100):
            try:
                if call(base, "GET", "/healthz")[0] == 200: break
            except OSError: time.sleep(0.1)
        book = open(args.book, "rb").read(); sha = hashlib.sha256(book).hexdigest()
        status, _ = call(base, "PUT", f"/v1/books/{sha}", book, {"Content-Type": "application/epub+zip"})
        assert status in (200, 201), status
        latencies, lock, states, errors = [], threading.Lock(), {}, []
        deadline = time.time() + args.timeout
        started = time.time()

        def client(index):
            for number in range(index, args.jobs, args.clients):
                job = f"load-{number}"
                body = json.dumps({"book": sha, "options": {"chapters": [args.section]}}).encode()
                status, _ = call(base, "PUT", f"/v1/jobs/{job}", body, {"Content-Type": "application/json"}, latencies, lock)
                if status != 201: errors.append((job, status)); continue
                while time.time() < deadline:
                    status, data = call(base, "GET", f"/v1/jobs/{job}", None, None, latencies, lock)
                    state = json.loads(data).get("state") if status == 200 else None
                    if state in ("succeeded", "failed", "cancelled"):
                        with lock: states[job] = state
                        break
                    time.sleep(0.5)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        for thread in threads: thread.start()
        for thread in threads: thread.join()
        wall = time.time() - started
        latencies.sort()
        def pct(p): return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000
        succeeded = sum(1 for s in states.values() if s == "succeeded")
        print(f"jobs: {args.jobs}, clients: {args.clients}, worker processes: {args.workers}")
        print(f"succeeded: {succeeded}/{args.jobs}; other states: "
              f"{ {k: v for k, v in states.items() if v != 'succeeded'} }; creation errors: {errors}")
        print(f"wall: {wall:.1f} s; API calls: {len(latencies)}; latency ms p50 {pct(50):.1f}, p90 {pct(90):.1f}, "
              f"p99 {pct(99):.1f}, max {latencies[-1] * 1000:.1f}")
        return 0 if succeeded == args.jobs and not errors else 1
    finally:
        for process in processes: process.terminate()
        for process in processes: process.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
