#!/usr/bin/env python3
"""A bounded load test of epub2audio-server on loopback.

Starts an API-only server and two worker processes on a private data folder, uploads a sample book,
then CLIENTS threads create JOBS jobs (each one section of the sample) and poll them until they end.
Prints every API call's latency percentiles and the jobs' outcome. Then fairness: the latency of a
one-section job on the idle server, and again while a job of 100 sections (a book the script writes)
runs. Exits non-zero unless every job succeeded. Bounded in count and time; only 127.0.0.1 is
contacted.
"""
import argparse, hashlib, io, json, os, shutil, socket, statistics, subprocess, sys, tempfile, threading, time
import urllib.request, zipfile

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

def long_book(chapters, words):
    """An EPUB 3 of `chapters` chapters of `words` words each, as bytes."""
    text = " ".join(["the keeper climbed the stair and trimmed the lamp"] * (words // 9 + 1)).split()[:words]
    files = {f"c{n}.xhtml": f'<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
             f'xml:lang="en"><head><title>Chapter {n}</title></head><body><h1>Chapter {n}</h1>'
             f'<p>{" ".join(text)}.</p></body></html>' for n in range(1, chapters + 1)}
    items = "".join(f'<item id="c{n}" href="c{n}.xhtml" media-type="application/xhtml+xml"/>' for n in range(1, chapters + 1))
    spine = "".join(f'<itemref idref="c{n}"/>' for n in range(1, chapters + 1))
    links = "".join(f'<li><a href="c{n}.xhtml">Chapter {n}</a></li>' for n in range(1, chapters + 1))
    opf = ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
           'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
           '<dc:identifier id="id">urn:uuid:load-test-long-book</dc:identifier><dc:title>A Long Book</dc:title>'
           '<dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>'
           f'<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>{items}'
           f'</manifest><spine>{spine}</spine></package>')
    nav = ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
           'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>'
           f'<nav epub:type="toc"><ol>{links}</ol></nav></body></html>')
    container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                 '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
                 '</rootfiles></container>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", container)
        archive.writestr("OEBPS/content.opf", opf)
        archive.writestr("OEBPS/nav.xhtml", nav)
        for name, body in files.items(): archive.writestr("OEBPS/" + name, body)
    return buffer.getvalue()

def wait_for(base, job, deadline, pause=0.1):
    """The job's document once it has ended (or at the deadline)."""
    while time.time() < deadline:
        status, data = call(base, "GET", f"/v1/jobs/{job}")
        document = json.loads(data) if status == 200 else {}
        if document.get("state") in ("succeeded", "failed", "cancelled"): return document
        time.sleep(pause)
    return {}

def one_section_latency(base, sha, section, job, deadline):
    """Seconds from creating a one-section job to its success, or None."""
    started = time.time()
    body = json.dumps({"book": sha, "options": {"chapters": [section]}}).encode()
    if call(base, "PUT", f"/v1/jobs/{job}", body, {"Content-Type": "application/json"})[0] != 201: return None
    return time.time() - started if wait_for(base, job, deadline).get("state") == "succeeded" else None

def fairness(base, sha, args, deadline):
    """A one-section job's latency on the idle server, then while a 100-section job runs."""
    idle = one_section_latency(base, sha, args.section, "fair-idle", deadline)
    book = long_book(args.long_chapters, 150); long_sha = hashlib.sha256(book).hexdigest()
    status, _ = call(base, "PUT", f"/v1/books/{long_sha}", book, {"Content-Type": "application/epub+zip"})
    assert status in (200, 201), status
    body = json.dumps({"book": long_sha}).encode()
    assert call(base, "PUT", "/v1/jobs/fair-long", body, {"Content-Type": "application/json"})[0] == 201
    while time.time() < deadline:
        sections = json.loads(call(base, "GET", "/v1/jobs/fair-long")[1]).get("sections", {})
        if sections.get("done", 0) >= args.workers: break
        time.sleep(0.1)
    busy = one_section_latency(base, sha, args.section, "fair-busy", deadline)
    long_job = json.loads(call(base, "GET", "/v1/jobs/fair-long")[1])
    waiting = long_job.get("sections", {}).get("total", 0) - long_job.get("sections", {}).get("done", 0)
    call(base, "POST", "/v1/jobs/fair-long/cancel")
    wait_for(base, "fair-long", deadline)
    print(f"fairness: a one-section job took {idle:.2f} s on the idle server and {busy:.2f} s while a "
          f"{args.long_chapters}-section job ran ({busy / idle:.2f}x; {waiting} of its sections still to do then)"
          if idle and busy else f"fairness: a one-section job did not succeed (idle {idle}, busy {busy})")
    return bool(idle and busy)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--book", default=os.path.join(os.path.dirname(__file__), "../../samples/a-treatise-on-small-machines.epub"))
    parser.add_argument("--section", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--long-chapters", type=int, default=100)
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
        fair = fairness(base, sha, args, time.time() + args.timeout)
        return 0 if succeeded == args.jobs and not errors and fair else 1
    finally:
        for process in processes: process.terminate()
        for process in processes: process.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
