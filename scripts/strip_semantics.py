#!/usr/bin/env python3
"""Makes copies of the labelled corpus with every semantic hint removed, to score the section index
the way unseen books are scored: without the producer's help.

Usage: scripts/strip_semantics.py CORPUS_DIR OUT_DIR
  e.g. scripts/strip_semantics.py ../shared/corpus /tmp/e2a-stripped

Writes OUT_DIR/stripped/<book>.epub for every book of CORPUS_DIR/labels.json's "real" set, and
OUT_DIR/labels.json whose "stripped" set is the "real" one pointing at those copies (ids and files are
unchanged, so the labels still hold). Then:
  score_words.py BIN OUT_DIR/labels.json OUT_DIR --set stripped

Removed: epub:type and role attributes in content documents; the landmarks <nav> of the navigation
document (its toc <nav> stays: it is the table of contents); the OPF <guide>; linear="no" on
itemrefs. Nothing else changes; the copies never enter the repository.
"""
import json
import os
import re
import sys
import zipfile

EPUB_TYPE = re.compile(rb'\s(?:epub:type|role)\s*=\s*("[^"]*"|\'[^\']*\')')
LANDMARKS = re.compile(rb'<nav\b[^>]*epub:type\s*=\s*["\'][^"\']*landmarks[^"\']*["\'][^>]*>.*?</nav>', re.S)
GUIDE = re.compile(rb"<(?:\w+:)?guide\b.*?</(?:\w+:)?guide>|<(?:\w+:)?guide\b[^>]*/>", re.S)
NONLINEAR = re.compile(rb'\slinear\s*=\s*["\']no["\']')
TOC_NAV = re.compile(rb'<nav\b[^>]*epub:type\s*=\s*["\'][^"\']*\btoc\b')


def strip_member(name, data):
    lower = name.lower()
    if lower.endswith(".opf"):
        return NONLINEAR.sub(b"", GUIDE.sub(b"", data))
    if lower.endswith((".xhtml", ".html", ".htm")):
        if TOC_NAV.search(data):
            # The navigation document: drop the landmarks, keep the toc nav's own type.
            return LANDMARKS.sub(b"", data)
        return EPUB_TYPE.sub(b"", data)
    return data


def strip_book(src, dst):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "mimetype":
                zout.writestr(info, data, compress_type=zipfile.ZIP_STORED)
            else:
                zout.writestr(info, strip_member(info.filename, data), compress_type=zipfile.ZIP_DEFLATED)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    corpus, out = sys.argv[1:]
    labels = json.load(open(os.path.join(corpus, "labels.json")))
    os.makedirs(os.path.join(out, "stripped"), exist_ok=True)
    stripped = {}
    for name, label in labels["real"].items():
        src = os.path.join(corpus, label["file"])
        if not os.path.exists(src):
            continue
        strip_book(src, os.path.join(out, "stripped", name))
        copy = dict(label)
        copy["file"] = "stripped/" + name
        stripped[name] = copy
    json.dump({"stripped": stripped}, open(os.path.join(out, "labels.json"), "w"), ensure_ascii=False)
    print("stripped %d books into %s" % (len(stripped), out))


if __name__ == "__main__":
    main()
