#!/usr/bin/env python3
"""Checks the built sample books: container layout, well-formed XML, manifest and links.

    python3 samples/tools/check.py            # checks every samples/*.epub

For each book: the zip opens and tests clean; `mimetype` is the first entry, stored, with the right
content; every XML file parses; every manifest item exists; every spine idref is in the manifest;
every internal href (XHTML, nav, NCX, guide) names an existing file and, when it has a fragment,
an existing id in that file; samples/expected.json agrees with the book. Prints a summary per book and exits non-zero on the first problem.
"""
import glob
import json
import os
import posixpath
import re
import sys
import zipfile
import xml.etree.ElementTree as ET
from urllib.parse import unquote, urldefrag

OPF = "{http://www.idpf.org/2007/opf}"
CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"


def fail(book, message):
    print(f"FAIL {book}: {message}")
    sys.exit(1)


def check(path):
    book = os.path.basename(path)
    with zipfile.ZipFile(path) as z:
        bad = z.testzip()
        if bad:
            fail(book, f"corrupt entry {bad}")
        first = z.infolist()[0]
        if first.filename != "mimetype" or first.compress_type != zipfile.ZIP_STORED:
            fail(book, "mimetype is not the first, stored entry")
        if z.read("mimetype") != b"application/epub+zip":
            fail(book, "wrong mimetype content")
        names = set(z.namelist())
        trees = {}
        for name in sorted(names):
            if name.endswith((".xhtml", ".opf", ".ncx", ".xml", ".svg")):
                try:
                    trees[name] = ET.fromstring(z.read(name))
                except ET.ParseError as error:
                    fail(book, f"{name} is not well-formed: {error}")
        rootfile = trees["META-INF/container.xml"].find(f".//{CONTAINER}rootfile").get("full-path")
        opf = trees[rootfile]
        base = posixpath.dirname(rootfile)
        manifest = {}
        for item in opf.iter(f"{OPF}item"):
            href = posixpath.normpath(posixpath.join(base, unquote(item.get("href"))))
            if href not in names:
                fail(book, f"manifest item {href} is missing")
            manifest[item.get("id")] = href
        spine = [manifest.get(ref.get("idref")) for ref in opf.iter(f"{OPF}itemref")]
        if None in spine:
            fail(book, "a spine itemref is not in the manifest")
        ids = {name: {el.get("id") for el in tree.iter() if el.get("id")} for name, tree in trees.items()}

        def resolve(source, href):
            if href.startswith(("http:", "https:", "mailto:")):
                return
            target, fragment = urldefrag(href)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(source), unquote(target))) if target else source
            if target not in names:
                fail(book, f"{source}: link {href} names a missing file")
            if fragment and fragment not in ids.get(target, set()):
                fail(book, f"{source}: link {href} names a missing id")

        links = 0
        for name, tree in trees.items():
            for el in tree.iter():
                for attribute in ("href", "src"):
                    value = el.get(attribute)
                    if value and not el.tag.endswith(("}link", "}item", "}rootfile")):
                        resolve(name, value)
                        links += 1
        xhtml = [n for n in spine if n.endswith(".xhtml")]
        print(f"ok   {book}: {len(names)} entries, {len(spine)} spine items, {len(xhtml)} XHTML, {links} links checked")
        check_expected(book, base, spine, trees)


def check_expected(book, base, spine, trees):
    """expected.json agrees with the book: spine order, section and chapter starts, text strings."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "expected.json")
    with open(path, encoding="utf-8") as f:
        expected = json.load(f)["books"].get(book)
    if expected is None:
        fail(book, "not described in expected.json")
    relative = [posixpath.relpath(name, base) for name in spine]
    if relative != [item["href"] for item in expected["spine"]]:
        fail(book, f"expected.json spine differs from the OPF spine {relative}")
    for entry in expected["sections"] + expected["chapters"]:
        target, _, fragment = entry.get("start", entry.get("href")).partition("#")
        full = posixpath.join(base, target)
        if target not in relative or (fragment and not any(el.get("id") == fragment for el in trees[full].iter())):
            fail(book, f"expected.json names {target}#{fragment}, which the book does not have")
        for name in entry.get("files", []):
            if name not in relative:
                fail(book, f"expected.json names file {name}, not in the spine")
    # Collapse XML whitespace only: str.split() would also eat U+00A0, which the strings keep.
    text = " ".join(re.sub(r"[ \t\n\r]+", " ", "".join(trees[name].itertext())) for name in spine)
    strings = expected["text"].get("keep", []) + expected["text"].get("citations", [])
    for string in strings:
        if re.sub(r"</?su[bp]>", "", string) not in text:
            fail(book, f"expected.json text string {string!r} is not in the book")
    print(f"ok   {book}: expected.json agrees ({len(expected['sections'])} sections, {len(strings)} text strings)")


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    books = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.epub")))
    if not books:
        fail("samples", "no .epub found; run samples/build.sh first")
    for book in books:
        check(book)
