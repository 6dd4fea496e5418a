#!/usr/bin/env python3
"""kill -9 epub2audio at random moments, then re-run; checks that the files are byte-identical to a
clean run's and that no section the manifest and its journal recorded as done is made again.

    python3 scripts/kill_resume.py BINARY BOOK CHAPTERS ROUNDS [SEED]   (MAXDELAY=seconds, default 2.5)

e.g. .build/release/epub2audio ../shared/corpus/broken/own_huge-spine_10000-items.epub 1-120 10
A stress check by hand (minutes), not a test: the tests kill at one chosen moment.
"""
import json, os, random, shutil, signal, subprocess, sys, tempfile, time
binary, book, chapters, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
base = tempfile.mkdtemp(prefix="e2a-kill-")
clean = base + "/clean"
subprocess.run([binary, book, "-o", clean, "--chapters", chapters, "--jobs", "2", "-q"], check=True)
def recorded_done(d):
    m = json.load(open(d + "/manifest.json"))
    recs = {s["number"]: s for s in m["sections"]}
    j = d + "/manifest.journal"
    if m.get("journal") and os.path.exists(j):
        data = open(j, "rb").read().split(b"\n")
        data.pop()  # torn or empty
        if data and json.loads(data[0]).get("journal") == m["journal"]:
            for line in data[1:]:
                try: r = json.loads(line)
                except Exception: break
                if r.get("number") in recs: recs[r["number"]] = r
    return {n for n, r in recs.items() if r.get("status") == "done"}
random.seed(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
for i in range(rounds):
    out = f"{base}/r{i}"
    # Kill at a random moment, possibly several times before the final run.
    kills = random.randint(1, 3)
    for k in range(kills):
        p = subprocess.Popen([binary, book, "-o", out, "--chapters", chapters, "--jobs", "2", "-q"], start_new_session=True)
        time.sleep(random.uniform(0.05, float(os.environ.get("MAXDELAY", "2.5"))))
        if p.poll() is None:
            kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
            os.killpg(p.pid, signal.SIGKILL)
            # workers live in process groups of their own: kill them by id too
            for kid in kids:
                try: os.kill(int(kid), signal.SIGKILL)
                except ProcessLookupError: pass
        p.wait()
        time.sleep(0.1)
    done_before = recorded_done(out) if os.path.exists(out + "/manifest.json") else set()
    r = subprocess.run([binary, book, "-o", out, "--chapters", chapters, "--jobs", "2", "--progress", "json"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    events = [json.loads(l) for l in r.stdout.splitlines()]
    skipped = {e["section"] for e in events if e["event"] == "section-done" and e["skipped"]}
    made = {e["section"] for e in events if e["event"] == "section-done" and not e["skipped"]}
    redone = done_before & made
    files = sorted(f for f in os.listdir(clean))
    assert sorted(os.listdir(out)) == files, (sorted(os.listdir(out)), files)
    bad = [f for f in files if f.endswith(".wav") and open(f"{out}/{f}", "rb").read() != open(f"{clean}/{f}", "rb").read()]
    assert not bad, bad
    print(f"round {i}: {kills} kill(s), recorded done {len(done_before)}, skipped {len(skipped)}, made {len(made)}, redone-though-recorded {len(redone)}; bytes identical", flush=True)
    assert not redone, redone
shutil.rmtree(base, ignore_errors=True)
print("ok")
