#!/usr/bin/env python3
"""Checks the built sample books: container layout, well-formed XML, manifest and links.

    python3 samples/tools/check.py            # checks every samples/*.epub

For each book: the zip opens and tests clean; `mimetype` is the first entry, stored, with the right
content; every XML file parses; every manifest item exists; every spine idref is in the manifest;
every internal href (XHTML, nav, NCX, guide) names an existing file and, when it has a fragment,
an existing id in that file. Prints a summary per book and exits non-zero on the first problem.
"""
import glob
import os
import posixpath
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


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    books = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.epub")))
    if not books:
        fail("samples", "no .epub found; run samples/build.sh first")
    for book in books:
        check(book)
