#!/usr/bin/env python3
"""Builds the seed corpus of one fuzz target from EPUB files and loose XML/XHTML files.

usage: make-seeds.py TARGET OUTDIR SOURCE...
SOURCE is an .epub file, an XML/XHTML/OPF/NCX file, or a folder searched recursively for both.
  fuzz-read    every .epub as it is
  fuzz-parts   every XML file inside the EPUBs, and every loose XML file, prefixed with the byte that
               selects its slot in Fuzz/Sources/FuzzSupport/TemplateBook.swift; plus the empty input
               (the unmodified template)
  fuzz-markup  every XML file inside the EPUBs and every loose XML file, as they are
  fuzz-text    like fuzz-markup, content documents only
  fuzz-chapters  the committed Fuzz/corpus/fuzz-chapters seeds only (nothing to extract)
Books over 1 MiB (or 4 MiB unpacked) and documents over 16 KiB are skipped: they slow every execution and libFuzzer's
max_len follows the largest seed. Seeds are named by content hash, so duplicates collapse.
"""
import hashlib
import os
import sys
import zipfile

MAX_SEED = 1 << 20  # whole books
# Whole books whose content is bigger take over 10 s in a debug ASan build (libFuzzer's timeout): the
# 25 MB MathML book of the shared corpus did. Their documents still become seeds of the other targets.
MAX_BOOK_CONTENT = 4 << 20
MAX_XML_SEED = 16 << 10  # documents: bigger ones slow every execution (libFuzzer max_len follows the largest seed)
XML_EXT = (".xml", ".opf", ".ncx", ".xhtml", ".html", ".htm", ".svg")
# Slots of TemplateBook.Slot.
CONTAINER, PACKAGE, NAV, NCX, CHAPTER, ENCRYPTION = range(6)


def slot_for(name, data):
    lower = name.lower()
    base = os.path.basename(lower)
    if base == "container.xml":
        return CONTAINER
    if base == "encryption.xml":
        return ENCRYPTION
    if lower.endswith(".opf"):
        return PACKAGE
    if lower.endswith(".ncx"):
        return NCX
    if lower.endswith(".xml"):
        return None  # rights.xml, metadata.xml, display options: no slot of their own
    if b"<nav" in data and b"toc" in data:
        return NAV
    return CHAPTER


def unpacked_size(path):
    """The total uncompressed size an EPUB declares (0 when it is not a readable ZIP)."""
    try:
        with zipfile.ZipFile(path) as book:
            return sum(info.file_size for info in book.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):
        return 0


def sources(paths):
    """Yields (kind, name, bytes): kind 'epub' for whole books, 'xml' for documents."""
    for path in paths:
        if os.path.isdir(path):
            for folder, _, files in os.walk(path):
                yield from sources(sorted(os.path.join(folder, f) for f in files))
            continue
        lower = path.lower()
        if lower.endswith(".epub"):
            if os.path.getsize(path) > MAX_SEED:
                continue
            with open(path, "rb") as handle:
                data = handle.read()
            if unpacked_size(path) <= MAX_BOOK_CONTENT:
                yield "epub", path, data
            try:
                with zipfile.ZipFile(path) as book:
                    for info in book.infolist():
                        if info.filename.lower().endswith(XML_EXT) and info.file_size <= MAX_XML_SEED:
                            try:
                                yield "xml", info.filename, book.read(info)
                            except Exception:
                                pass  # broken entries are the point of some corpus books
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):
                pass
        elif lower.endswith(XML_EXT) and os.path.getsize(path) <= MAX_XML_SEED:
            with open(path, "rb") as handle:
                yield "xml", path, handle.read()


def main():
    target, outdir, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    seeds = []
    if target == "fuzz-parts":
        seeds.append(b"")
    for kind, name, data in sources(paths):
        if target == "fuzz-read" and kind == "epub":
            seeds.append(data)
        elif target == "fuzz-parts" and kind == "xml":
            slot = slot_for(name, data)
            if slot is not None:
                seeds.append(bytes([slot]) + data)
        elif target == "fuzz-markup" and kind == "xml":
            seeds.append(data)
        elif target == "fuzz-text" and kind == "xml" and name.lower().endswith((".xhtml", ".html", ".htm")):
            seeds.append(data)
    for seed in seeds:
        with open(os.path.join(outdir, "seed-" + hashlib.sha1(seed).hexdigest()), "wb") as handle:
            handle.write(seed)
    print(f"{target}: {len(set(seeds))} seeds from {len(paths)} sources")


if __name__ == "__main__":
    main()
