#!/usr/bin/env python3
"""Rewraps a book's content documents in the structures producers get wrong, and says how many
words epub2audio still reads (`--list --json`): never lose the book, whatever the markup.

Usage: stress_structures.py BIN BOOK [--min-share 0.97]

Each variant changes every content document of BOOK in one way (the body wrapped in a page-break
<div>, a <nav>, an element marked as footnotes; every paragraph named "footnote" or "pagenum";
paragraphs in table rows, in <pre>...) and is written to a temporary folder. A variant that reads
less than --min-share of the original's words is listed as a failure (exit status 1). The variants
are structures, not any book's quirks: run it on books of other producers too.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

BODY = re.compile(r"(<body[^>]*>)(.*)(</body>)", re.S)


def wrap_body(open_tag, close_tag):
    return lambda doc: BODY.sub(lambda m: m.group(1) + open_tag + m.group(2) + close_tag + m.group(3), doc)


def per_paragraph(open_tag, close_tag):
    return lambda doc: re.sub(r"<p(\s[^>]*)?>(.*?)</p>", lambda m: open_tag + m.group(2) + close_tag, doc, flags=re.S)


VARIANTS = {
    "body in a page-break div": wrap_body('<div class="page-break">', "</div>"),
    "body in epub:type=pagebreak": wrap_body('<div epub:type="pagebreak">', "</div>"),
    "body in a nav": wrap_body("<nav>", "</nav>"),
    "body in an aside": wrap_body("<aside>", "</aside>"),
    "body in a footnotes section": wrap_body('<section epub:type="footnotes">', "</section>"),
    "body in a footnotes div": wrap_body('<div class="footnotes">', "</div>"),
    "body in a one-cell table": wrap_body("<table><tr><td>", "</td></tr></table>"),
    "body in a link": wrap_body('<a href="#top">', "</a>"),
    "body in a superscript": wrap_body("<sup>", "</sup>"),
    "paragraphs named footnote": per_paragraph('<p class="footnote">', "</p>"),
    "paragraphs named pagenum": per_paragraph('<p class="pagenum">', "</p>"),
    "paragraphs in table rows": per_paragraph("<table><tr><td><p>", "</p></td></tr></table>"),
    "paragraphs in pre": per_paragraph("<pre>", "</pre>"),
    "paragraphs as list items": per_paragraph("<ul><li>", "</li></ul>"),
}


def words_read(binary, book):
    out = subprocess.run([binary, book, "--list", "--json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        return None
    listing = json.loads(out.stdout)
    return sum(s["words"] for s in listing["sections"] if s["included"])


def write_variant(book, change, path):
    with zipfile.ZipFile(book) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename.lower().endswith((".xhtml", ".html", ".htm")) and b"<body" in data:
                data = change(data.decode("utf-8", "replace")).encode("utf-8")
            method = zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED
            dst.writestr(info.filename, data, compress_type=method)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("book")
    parser.add_argument("--min-share", type=float, default=0.97)
    args = parser.parse_args()
    base = words_read(args.binary, args.book)
    if not base:
        sys.exit(f"stress_structures: {args.book} lists no words to read")
    print(f"{'variant':32} {'words read':>10} {'share':>7}")
    print(f"{'(the book as it is)':32} {base:>10,} {1:>7.1%}")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="e2a-stress-") as work:
        for name, change in VARIANTS.items():
            path = os.path.join(work, "variant.epub")
            write_variant(args.book, change, path)
            words = words_read(args.binary, path)
            share = (words or 0) / base
            failed = words is None or share < args.min_share
            failures += failed
            shown = "error" if words is None else f"{words:,}"
            print(f"{name:32} {shown:>10} {share:>7.1%}{'  LOST' if failed else ''}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
