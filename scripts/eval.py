#!/usr/bin/env python3
"""Scores epub2audio's section list against the labelled corpus.

For each book in <corpus>/real with a label in <corpus>/labels.json, gets the section list
(`<binary> BOOK --list --json`, or <json-dir>/<book name without .epub>.json) and reports:

  body recall    share of body spine items with text that belong to an included section
  skip recall    share of front/back spine items that belong to no included section
  chapters P/R/F1  included sections (parts aside) whose href matches a labelled chapter start
  titles         share of matched chapters whose title agrees (case and punctuation ignored)

Pooled figures count items and chapters over all books. Usage:
  scripts/eval.py --binary .build/release/epub2audio [--corpus ../shared/corpus]
  scripts/eval.py --json-dir DIR [--corpus ../shared/corpus] [--verbose]
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
import unicodedata
import zipfile
import posixpath
import urllib.parse


def norm_title(s):
    s = unicodedata.normalize("NFKD", s or "")
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    s = re.sub(r"[\W_]+", " ", s)
    return " ".join(s.split())


def items_with_text(epub_path, opf_path):
    """Spine hrefs (relative to the OPF folder) whose XHTML holds at least one letter of text."""
    out = set()
    try:
        z = zipfile.ZipFile(epub_path)
    except Exception:
        return None
    base = posixpath.dirname(opf_path)
    for name in z.namelist():
        if not name.lower().endswith((".xhtml", ".html", ".htm", ".xml")):
            continue
        try:
            data = z.read(name).decode("utf-8", "replace")
        except Exception:
            continue
        body = re.split(r"<body[^>]*>", data, maxsplit=1)
        text = body[1] if len(body) > 1 else data
        text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", text, flags=re.S | re.I)
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
        if re.search(r"\w", text):
            rel = posixpath.relpath(name, base) if base else name
            out.add(urllib.parse.unquote(rel))
    return out


def load_listing(args, book_file):
    name = os.path.basename(book_file)
    if args.json_dir:
        path = os.path.join(args.json_dir, name[:-5] + ".json")
        if not os.path.exists(path):
            return None, "no JSON at %s" % path
        with open(path, encoding="utf-8") as f:
            return json.load(f), None
    try:
        proc = subprocess.run([args.binary, book_file, "--list", "--json"], capture_output=True, timeout=600)
    except Exception as e:  # noqa: BLE001 - report any failure to run the binary
        return None, "could not run: %s" % e
    if proc.returncode != 0:
        return None, "exit %d: %s" % (proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:200])
    try:
        return json.loads(proc.stdout), None
    except ValueError as e:
        return None, "bad JSON: %s" % e


def split_href(h):
    path, _, frag = (h or "").partition("#")
    return urllib.parse.unquote(path), (frag or None)


def score_book(label, listing, text_items):
    sections = listing.get("sections", [])
    included = [s for s in sections if s.get("included")]
    covered = set()
    for s in included:
        covered.update(s.get("spine", []))
    body = [i["href"] for i in label["spine"] if i["label"] == "body"]
    skip = [i["href"] for i in label["spine"] if i["label"] in ("front", "back")]
    if text_items is not None:
        body = [h for h in body if h in text_items]
        skip = [h for h in skip if h in text_items]
    body_hit = sum(1 for h in body if h in covered)
    skip_hit = sum(1 for h in skip if h not in covered)

    # Chapters: included sections that are not parts, matched to labelled chapter starts.
    candidates = [s for s in included if s.get("kind") != "part"]
    by_path = {}
    for s in candidates:
        by_path.setdefault(split_href(s["href"])[0], []).append(s)
    matched = {}
    for ci, ch in enumerate(label.get("chapters", [])):
        path, frag = split_href(ch["href"])
        options = by_path.get(path, [])
        hit = None
        if frag:
            hit = next((s for s in options if split_href(s["href"])[1] == frag), None)
        else:
            hit = next((s for s in options if split_href(s["href"])[1] is None), None)
            if hit is None and options:
                hit = options[0]
        if hit is not None and id(hit) not in {id(v) for v in matched.values()}:
            matched[ci] = hit
    titles_ok = sum(
        1 for ci, s in matched.items() if norm_title(s.get("title")) == norm_title(label["chapters"][ci].get("title"))
    )
    return dict(
        body=(body_hit, len(body)), skip=(skip_hit, len(skip)), tp=len(matched), predicted=len(candidates),
        labelled=len(label.get("chapters", [])), titles=(titles_ok, len(matched)),
        missed=[label["chapters"][ci]["href"] for ci in range(len(label.get("chapters", []))) if ci not in matched],
        extra=[s["href"] for s in candidates if id(s) not in {id(v) for v in matched.values()}],
        body_missed=[h for h in body if h not in covered], skip_missed=[h for h in skip if h in covered],
    )


def pct(a, b):
    return "   -  " if b == 0 else "%5.1f%%" % (100.0 * a / b)


def f1(tp, predicted, labelled):
    p = tp / predicted if predicted else (1.0 if labelled == 0 else 0.0)
    r = tp / labelled if labelled else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", help="epub2audio binary (runs BOOK --list --json)")
    ap.add_argument("--json-dir", help="folder of <book>.json listings instead of running a binary")
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    ap.add_argument("--verbose", "-v", action="store_true", help="list missed and extra items per book")
    args = ap.parse_args()
    if not args.binary and not args.json_dir:
        ap.error("give --binary or --json-dir")
    real = os.path.join(args.corpus, "real")
    labels_path = os.path.join(args.corpus, "labels.json")
    if not os.path.isdir(real) or not os.path.exists(labels_path):
        print("corpus not found at %s: nothing to evaluate (skipped)" % args.corpus)
        return 0
    with open(labels_path, encoding="utf-8") as f:
        labels = json.load(f)["real"]

    rows = []
    totals = dict(body=[0, 0], skip=[0, 0], tp=0, predicted=0, labelled=0, titles=[0, 0])
    failures = 0
    for name in sorted(labels):
        book = os.path.join(real, name)
        if not os.path.exists(book):
            continue
        listing, error = load_listing(args, book)
        if listing is None:
            failures += 1
            rows.append((name, None, error))
            continue
        label = labels[name]
        r = score_book(label, listing, items_with_text(book, label.get("opf_path", "")))
        rows.append((name, r, None))
        for k in ("body", "skip", "titles"):
            totals[k][0] += r[k][0]
            totals[k][1] += r[k][1]
        for k in ("tp", "predicted", "labelled"):
            totals[k] += r[k]

    width = max(len(n) for n, _, _ in rows) if rows else 10
    header = "%-*s  %6s  %6s  %6s  %6s  %6s  %6s  %s" % (
        width, "book", "body", "skip", "ch P", "ch R", "ch F1", "titles", "sections")
    print(header)
    print("-" * len(header))
    for name, r, error in rows:
        if r is None:
            print("%-*s  FAILED: %s" % (width, name, error))
            continue
        p, rc, f = f1(r["tp"], r["predicted"], r["labelled"])
        print("%-*s  %6s  %6s  %5.1f%%  %5.1f%%  %5.1f%%  %6s  %d/%d" % (
            width, name, pct(*r["body"]), pct(*r["skip"]), 100 * p, 100 * rc, 100 * f, pct(*r["titles"]),
            r["predicted"], r["labelled"]))
        if args.verbose:
            for key in ("body_missed", "skip_missed", "missed", "extra"):
                if r[key]:
                    print("    %s: %s" % (key, ", ".join(r[key][:8]) + (" ..." if len(r[key]) > 8 else "")))
    print("-" * len(header))
    p, rc, f = f1(totals["tp"], totals["predicted"], totals["labelled"])
    print("%-*s  %6s  %6s  %5.1f%%  %5.1f%%  %5.1f%%  %6s  %d/%d" % (
        width, "POOLED", pct(*totals["body"]), pct(*totals["skip"]), 100 * p, 100 * rc, 100 * f,
        pct(*totals["titles"]), totals["predicted"], totals["labelled"]))
    # Macro averages: every book counts the same, so one huge book cannot hide the others.
    scored = [r for _, r, _ in rows if r is not None]
    if scored:
        def mean(xs):
            xs = list(xs)
            return sum(xs) / len(xs) if xs else 0.0
        print("%-*s  %5.1f%%  %5.1f%%  %5.1f%%  %5.1f%%  %5.1f%%" % (
            width, "MEAN PER BOOK",
            100 * mean(r["body"][0] / r["body"][1] for r in scored if r["body"][1]),
            100 * mean(r["skip"][0] / r["skip"][1] for r in scored if r["skip"][1]),
            100 * mean(f1(r["tp"], r["predicted"], r["labelled"])[0] for r in scored),
            100 * mean(f1(r["tp"], r["predicted"], r["labelled"])[1] for r in scored),
            100 * mean(f1(r["tp"], r["predicted"], r["labelled"])[2] for r in scored)))
    print("targets: body recall >= 99.5%, skip recall >= 95%, chapter F1 >= 95%")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
