#!/usr/bin/env python3
"""Per-structure figures for the probe books of scripts/make_probe_books.py, from the judge's JSON.

Usage: scripts/probe_report.py LABELS.json WORDS.json [--set real|stripped] [--worst N] [--judge DIR]
  e.g. score_words.py BIN /tmp/probe-books/labels.json /tmp/probe-books --json /tmp/probe-books/words-real.json
       scripts/probe_report.py /tmp/probe-books/labels.json /tmp/probe-books/words-real.json

WORDS.json is what `score_words.py ... --json` wrote (its rows name the cache folder holding each
book's spoken text and `--list --json`, which is read again here; nothing is run). Per structure
(the label's probe.structure), pooled over its books:
  recall     main-text words heard / main-text words (the judge's)
  leak       front/back/notes/clutter words heard / words heard (the judge's)
  twice      body words heard a second time (the judge's seq_repeated), and their share of what is heard
  starts     labelled chapter starts where an included section (parts aside) starts, found by position
             in the judge's reference: the section starts at the word where the chapter does (the end
             of one file and the start of the next are the same word)
  extra      included sections (parts aside) starting in a body file where no chapter starts
             (sub-sections made sections: not wrong for a listener, listed for information)
  expect     the label's probe.expect checks that hold: "heard" phrases heard as words, "absent"
             phrases and "raw_absent" characters not heard
Then the worst books (by lost, leaked and repeated share, missed starts and failed checks), each with
what went wrong.
"""
import argparse
import json
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def load_judge(path):
    sys.path.insert(0, path)
    import score_words  # noqa: E402

    return score_words


def chapter_starts(sw, epub, label, sections):
    """(found flags per labelled chapter, [included sections at no chapter start], [(chapter, nearest)])."""
    want = sw.wanted_ids(sections)
    for c in label.get("chapters", []):
        p, f = sw.norm_href(c["href"])
        if f:
            want[p].add(f)
    ref = sw.build_reference(epub, label, want)
    items = {it["href"]: it for it in ref["items"]}
    starts = sw.section_starts(ref, sections)
    read = [(pos, x) for pos, _, x in starts if x.get("included", True) and x.get("kind") != "part"]
    read_pos = {pos for pos, _ in read}
    label_pos = []
    for c in label.get("chapters", []):
        p, f = sw.norm_href(c["href"])
        it = items.get(p)
        if it is None:
            label_pos.append(None)
            continue
        label_pos.append(it["start"] + it["marks"].get(f, 0) if f else it["start"])
    found = [pos is not None and pos in read_pos for pos in label_pos]
    lset = {p for p in label_pos if p is not None}
    extra = [x for pos, x in read if pos not in lset and sw.norm_href(x.get("href"))[0] in items]
    missed = []
    for c, pos, ok in zip(label.get("chapters", []), label_pos, found):
        if not ok and pos is not None:
            before = max((t for t in read if t[0] <= pos), key=lambda t: t[0], default=None)
            after = min((t for t in read if t[0] > pos), key=lambda t: t[0], default=None)
            skipped = next((x for q, _, x in starts if q == pos and not x.get("included", True)), None)
            missed.append((c, pos, before, after, skipped))
    return found, extra, missed


def tokens_of(sw, text):
    return sw.tokenize(text)


def contains(hay, needle):
    return (" " + " ".join(needle) + " ") in (" " + " ".join(hay) + " ")


def check_expect(sw, expect, spoken, raw):
    results = []
    for phrase in expect.get("heard", []):
        toks = tokens_of(sw, phrase)
        results.append((f"heard {phrase!r}", not toks or contains(spoken, toks)))
    for phrase in expect.get("absent", []):
        toks = tokens_of(sw, phrase)
        results.append((f"absent {phrase!r}", not contains(spoken, toks)))
    for ch in expect.get("raw_absent", []):
        results.append((f"raw absent {ch!r}", ch not in raw))
    return results


def spoken_raw(cache):
    tdir = os.path.join(cache, "text")
    if not os.path.isdir(tdir):
        return ""
    return "\n\n".join(open(os.path.join(tdir, f), encoding="utf-8", errors="replace").read()
                       for f in sorted(os.listdir(tdir)) if f.endswith(".txt"))


def ratio(a, b, empty=1.0):
    return a / b if b else empty


def diagnose(b):
    """One line: what went wrong in this book."""
    out = []
    r = b["row"]
    if r.get("rc") not in (0, None):
        out.append(f"run failed ({r.get('error', r.get('rc'))})"[:120])
    lost = r["ref_words"] - r["matched"]
    if lost > 0 and r["ref_words"] and lost / r["ref_words"] >= 0.002:
        run = (r.get("lost_runs") or [None])[0]
        where = f"; largest {run['words']} words in {run['href']} ({run['where']}, {run['decision']})" if run else ""
        out.append(f"lost {lost} of {r['ref_words']} words{where}")
    if r["leaked"] and r["spoken_words"] and r["leaked"] / r["spoken_words"] >= 0.002:
        src = sorted(r.get("seq_leak_by_source", {}).items(), key=lambda kv: -kv[1])
        srcs = {}
        for k, v in src:
            k = k.split(":")[0] + ":" + k.split(":")[1] if k.count(":") >= 2 else k
            srcs[k] = srcs.get(k, 0) + v
        top = ", ".join(f"{k} {v}" for k, v in sorted(srcs.items(), key=lambda kv: -kv[1])[:3])
        lk = (r.get("leak_runs") or [None])[0]
        sec = f" (e.g. in section {lk['section']})" if lk else ""
        out.append(f"heard {r['leaked']} words of matter/clutter [{top}]{sec}")
    if r.get("seq_repeated", 0) >= 20:
        out.append(f"heard {r['seq_repeated']} body words twice ({ratio(r['seq_repeated'], r['spoken_words']):.0%} "
                   f"of what is heard)")
    if b["missed"]:
        c, pos, before, after, skipped = b["missed"][0]

        def name(t):
            return f"section {t[1].get('number')} '{t[1].get('title', '')[:28]}' ({t[1].get('href')})"
        if skipped:
            where = (f"section {skipped.get('number')} '{skipped.get('title', '')[:28]}' starts there, skipped as "
                     f"{skipped.get('role')}/{skipped.get('kind')}")
        elif after and after[0] - pos <= 60:
            where = f"{name(after)} starts {after[0] - pos} words later"
        elif before:
            where = f"the words there are in {name(before)}, which starts {pos - before[0]} words earlier"
        else:
            where = "no section read there"
        out.append(f"{len(b['missed'])} chapter start(s) missed, e.g. '{c['title'][:28]}' at {c['href']}: {where}")
    fails = [n for n, ok in b["expect"] if not ok]
    if fails:
        out.append(f"{len(fails)}/{len(b['expect'])} checks failed, e.g. {fails[0][:70]}")
    return "; ".join(out) or "ok"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("labels")
    ap.add_argument("words")
    ap.add_argument("--set", default="real")
    ap.add_argument("--worst", type=int, default=15)
    ap.add_argument("--by", choices=("structure", "variant"), default="structure")
    ap.add_argument("--judge", default=os.path.normpath(os.path.join(HERE, "..", "..", "shared", "tools")))
    a = ap.parse_args()
    sw = load_judge(a.judge)
    labels = json.load(open(a.labels))[a.set]
    root = os.path.dirname(os.path.abspath(a.labels))
    rows = {r["book"]: r for r in json.load(open(a.words))["books"]}
    books = []
    for name, label in sorted(labels.items()):
        r = rows.get(name)
        if r is None:
            continue
        sections = sw.load_sections(r["cache"])
        epub = os.path.join(root, label["file"])
        found, extra, missed = chapter_starts(sw, epub, label, sections)
        spoken = sw.read_spoken(r["cache"])[0]
        expect = check_expect(sw, label.get("probe", {}).get("expect", {}), spoken, spoken_raw(r["cache"]))
        probe = label.get("probe", {})
        key = probe.get("structure", "?")
        if a.by == "variant":
            key += " / " + probe.get("variant", "?")
        books.append({"name": name, "key": key, "row": r, "found": found, "extra": extra, "missed": missed,
                      "expect": expect})
    groups = defaultdict(list)
    for b in books:
        groups[b["key"]].append(b)
    print(f"{'structure':34s} {'books':>5s} {'fail':>4s} {'recall':>7s} {'leak':>7s} {'twice':>13s} "
          f"{'starts':>11s} {'extra':>5s} {'expect':>9s}")
    total = defaultdict(int)
    for key in sorted(groups):
        g = groups[key]
        t = defaultdict(int)
        for b in g:
            r = b["row"]
            t["books"] += 1
            t["fail"] += r.get("rc") not in (0, None)
            for k in ("ref_words", "matched", "spoken_words", "leaked", "seq_repeated"):
                t[k] += r.get(k, 0)
            t["ch"] += len(b["found"])
            t["found"] += sum(b["found"])
            t["extra"] += len(b["extra"])
            t["exp"] += len(b["expect"])
            t["exp_ok"] += sum(ok for _, ok in b["expect"])
        for k, v in t.items():
            total[k] += v
        print_row(key, t)
    print_row("all", total)
    def badness(b):
        r = b["row"]
        return (1 - ratio(r["matched"], r["ref_words"]) + ratio(r["leaked"], r["spoken_words"], 0)
                + ratio(r.get("seq_repeated", 0), r["spoken_words"], 0) + 1 - ratio(sum(b["found"]), len(b["found"]))
                + (1 - ratio(sum(ok for _, ok in b["expect"]), len(b["expect"]))) * 0.5
                + (1 if r.get("rc") not in (0, None) else 0))
    worst = sorted((b for b in books if badness(b) > 1e-9), key=lambda b: -badness(b))[:a.worst]
    if worst:
        print(f"\nworst books ({a.set}):")
        for b in worst:
            r = b["row"]
            print(f"  {b['name'][:44]:44s} recall {ratio(r['matched'], r['ref_words']):.3f} leak "
                  f"{ratio(r['leaked'], r['spoken_words'], 0):.3f} twice {r.get('seq_repeated', 0):5d} starts "
                  f"{sum(b['found'])}/{len(b['found'])}")
            print(f"      {diagnose(b)}")


def print_row(key, t):
    twice = f"{t['seq_repeated']} ({ratio(t['seq_repeated'], t['spoken_words'], 0):.1%})"
    print(f"{key[:34]:34s} {t['books']:5d} {t['fail']:4d} {ratio(t['matched'], t['ref_words']):7.4f} "
          f"{ratio(t['leaked'], t['spoken_words'], 0):7.4f} {twice:>13s} {t['found']:>5d}/{t['ch']:<5d} "
          f"{t['extra']:5d} {t['exp_ok']:>4d}/{t['exp']:<4d}")


if __name__ == "__main__":
    main()
