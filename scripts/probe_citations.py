#!/usr/bin/env python3
"""Citations removed or kept in the probe books of scripts/make_probe_books.py (structure s7).

Usage: scripts/probe_citations.py BIN OUT [--set real|stripped] [--judge DIR] [--examples N]
  e.g. scripts/probe_citations.py .build/release/epub2audio /tmp/probe-books

The judge (score_words.py) counts only words of two letters or more without digits, so a citation such
as "(a. a. O., S. 9)" has nothing it can count, and the one it can ("ebd", "vgl", "ff") are too few to
move its leak. Each citation book's label lists, in probe.citations, every citation with the four
words before it and what follows it, and in probe.keep the parentheses and legal references that must
stay ("(c. 1790)", "(3 Mark pro Tag)", life dates, "nach § 242 BGB"). This checker reads the book's
spoken text (`BIN BOOK --text --no-normalize`, the judge's cache under /tmp/e2a-words is reused) and
says, per book and per language:
  removed   the words before the citation are followed by what followed it (the citation is gone)
  kept      the citation is heard as written, right after the words before it
  altered   neither: part of it is heard, or the text around it changed
  keep      kept parentheses and references heard as written
  lost      main-text words not heard (the judge's reference and tokens: the prose outside the
            citations, words of two letters or more), and their share; digits are checked by "keep"
"""
import argparse
import json
import os
import re
import sys
import unicodedata
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SPACE_BEFORE = re.compile(r"\s+([.,;:!?)\]])")
SPACE_AFTER = re.compile(r"([(\[])\s+")
QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"})


def norm(text):
    t = unicodedata.normalize("NFKC", text).translate(QUOTES)
    t = re.sub(r"\s+", " ", t)
    return SPACE_AFTER.sub(r"\1", SPACE_BEFORE.sub(r"\1", t)).strip()


def spoken_text(cache):
    tdir = os.path.join(cache, "text")
    if not os.path.isdir(tdir):
        return ""
    return "\n\n".join(open(os.path.join(tdir, f), encoding="utf-8", errors="replace").read()
                       for f in sorted(os.listdir(tdir)) if f.endswith(".txt"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("out")
    ap.add_argument("--set", default="real")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("--judge", default=os.path.normpath(os.path.join(HERE, "..", "..", "shared", "tools")))
    a = ap.parse_args()
    sys.path.insert(0, a.judge)
    import score_words as sw  # noqa: E402

    labels = json.load(open(os.path.join(a.out, "labels.json")))[a.set]
    cache_root = os.path.join("/tmp/e2a-words", sw.bin_hash(a.binary))
    os.makedirs(cache_root, exist_ok=True)
    per_lang = defaultdict(Counter)
    per_form = defaultdict(Counter)
    print(f"{'book':40s} {'cites':>5s} {'removed':>7s} {'kept':>5s} {'altered':>7s} {'keep':>7s} {'lost':>12s}")
    for name, label in sorted(labels.items()):
        probe = label.get("probe", {})
        if "citations" not in probe:
            continue
        epub = os.path.join(a.out, label["file"])
        cache, meta = sw.run_text(a.binary, epub, cache_root, 900)
        text = norm(spoken_text(cache))
        c = Counter()
        examples = []
        for cit in probe["citations"]:
            before, cite, after = cit["before"], cit["cite"], cit["after"]
            c["cites"] += 1
            form = per_form[(probe.get("lang", "?"), cit.get("form", "?"))]
            form["cites"] += 1
            if norm(f"{before} {cite}") in text:
                c["kept"] += 1
                form["kept"] += 1
                form.setdefault("example", cite)
                if len(examples) < a.examples:
                    examples.append(f"kept     {cite}")
            elif norm(before + after) in text:
                c["removed"] += 1
                form["removed"] += 1
            else:
                c["altered"] += 1
                form["altered"] += 1
                if len(examples) < a.examples:
                    i = text.find(norm(before))
                    seen = text[i:i + len(before) + len(cite) + 20] if i >= 0 else "(context not heard)"
                    examples.append(f"altered  {cite}  ->  {seen}")
        for keep in probe.get("keep", []):
            c["keep"] += 1
            c["keep_ok"] += norm(keep) in text
        # main-text words (digits too) against the judge's reference body
        ref = sw.build_reference(epub, label)
        body = Counter(ref["body"])
        heard = Counter(sw.read_spoken(cache)[0])
        c["ref"] = sum(body.values())
        c["lost"] = sum((body - heard).values())
        for k, v in c.items():
            if isinstance(v, int):
                per_lang[probe.get("lang", "?")][k] += v
        lost = f"{c['lost']} ({c['lost'] / max(c['ref'], 1):.2%})"
        print(f"{name[:40]:40s} {c['cites']:5d} {c['removed']:7d} {c['kept']:5d} {c['altered']:7d} "
              f"{c['keep_ok']:>3d}/{c['keep']:<3d} {lost:>12s}"
              + ("" if meta.get("rc") == 0 else f"  exit {meta.get('rc')}"))
        for e in examples:
            print(f"    {e}")
    print(f"\n{'form':40s} {'cites':>5s} {'removed':>7s} {'kept':>5s} {'altered':>7s}  example kept")
    for (lang, form), c in sorted(per_form.items()):
        print(f"{lang + ' ' + form:40s} {c['cites']:5d} {c['removed']:7d} {c['kept']:5d} {c['altered']:7d}  "
              f"{c.get('example', '')}")
    print()
    tot = Counter()
    for lang, c in sorted(per_lang.items()):
        tot.update(c)
        print(f"CITATIONS lang={lang} cites={c['cites']} removed={c['removed'] / max(c['cites'], 1):.3f} "
              f"kept={c['kept']} altered={c['altered']} keep={c['keep_ok']}/{c['keep']} "
              f"lost_words={c['lost']} of {c['ref']}")
    print(f"CITATIONS all cites={tot['cites']} removed={tot['removed'] / max(tot['cites'], 1):.3f} kept={tot['kept']} "
          f"altered={tot['altered']} keep={tot['keep_ok']}/{tot['keep']} lost_words={tot['lost']} of {tot['ref']}")


if __name__ == "__main__":
    main()
