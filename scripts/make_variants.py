#!/usr/bin/env python3
"""Makes structural variants of the labelled corpus, to score the section index on structures the
corpus books do not have: the way books never seen are scored.

Usage: scripts/make_variants.py CORPUS_DIR OUT_DIR
  e.g. scripts/make_variants.py ../shared/corpus /tmp/e2a-variants

Writes OUT_DIR/<variant>/<book>.epub for every book of CORPUS_DIR/labels.json's "real" set and
OUT_DIR/labels.json with one set per variant (the labels follow renamed files). Then, per variant:
  score_words.py BIN OUT_DIR/labels.json OUT_DIR --set notoc

Variants:
  notoc     no table of contents: the OPF names no navigation document and no NCX (sections must
            come from the book's headings); semantics kept.
  bare      notoc, and every semantic hint removed as scripts/strip_semantics.py does.
  genname   every content document renamed index_split_NNN.html (calibre's generated names: a file
            name says nothing), references rewritten in the OPF, the NCX, the nav and every document.
Nothing else changes; the copies never enter the repository.
"""
import json
import os
import re
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strip_semantics import strip_member  # noqa: E402

NAV_PROPERTY = re.compile(rb'(properties\s*=\s*["\'])([^"\']*)(["\'])')
SPINE_TOC = re.compile(rb'(<(?:\w+:)?spine\b[^>]*?)\s+toc\s*=\s*("[^"]*"|\'[^\']*\')')
MANIFEST_ITEM = re.compile(rb'<(?:\w+:)?item\b[^>]*>')
ATTRIBUTE = r'\s%s\s*=\s*["\']([^"\']*)["\']'
TEXT_MEMBERS = (".opf", ".ncx", ".xhtml", ".html", ".htm", ".xml", ".css", ".svg")


def without_toc(name, data):
    """The OPF without its nav property and its spine's NCX reference."""
    if not name.lower().endswith(".opf"):
        return data

    def drop_nav(match):
        kept = b" ".join(t for t in match.group(2).split() if t != b"nav")
        return match.group(1) + kept + match.group(3)

    return SPINE_TOC.sub(rb"\1", NAV_PROPERTY.sub(drop_nav, data))


def content_documents(zin):
    """(OPF folder, [manifest hrefs of XHTML documents]) of the book."""
    container = zin.read("META-INF/container.xml").decode("utf-8", "replace")
    opf = re.search(r'full-path\s*=\s*["\']([^"\']+)["\']', container).group(1)
    folder = os.path.dirname(opf)
    hrefs = []
    for item in MANIFEST_ITEM.findall(zin.read(opf)):
        text = item.decode("utf-8", "replace")
        media = re.search(ATTRIBUTE % "media-type", text)
        href = re.search(ATTRIBUTE % "href", text)
        props = re.search(ATTRIBUTE % "properties", text)
        if media and href and media.group(1) == "application/xhtml+xml":
            if props and "nav" in props.group(1).split():
                continue  # the navigation document keeps its name
            hrefs.append(href.group(1))
    return folder, hrefs


def generated_names(hrefs):
    """Old basename -> index_split_NNN.html, in manifest order."""
    names = {}
    for href in hrefs:
        base = os.path.basename(href.split("#")[0])
        if base not in names:
            names[base] = "index_split_%03d.html" % len(names)
    return names


def rename_references(data, names):
    if not names:
        return data
    pattern = re.compile(
        rb'(?<=["\'/])(' + b"|".join(re.escape(n.encode()) for n in sorted(names, key=len, reverse=True)) + rb')(?=["\'#?])'
    )
    return pattern.sub(lambda m: names[m.group(1).decode()].encode(), data)


def write_variant(src, dst, variant):
    with zipfile.ZipFile(src) as zin:
        names = {}
        moved = {}
        if variant == "genname":
            folder, hrefs = content_documents(zin)
            names = generated_names(hrefs)
            for href in hrefs:
                path = os.path.normpath(os.path.join(folder, href.split("#")[0]))
                moved[path] = os.path.join(os.path.dirname(path), names[os.path.basename(path)])
        with zipfile.ZipFile(dst, "w") as zout:
            for info in zin.infolist():
                data = zin.read(info.filename)
                if info.filename == "mimetype":
                    zout.writestr(info, data, compress_type=zipfile.ZIP_STORED)
                    continue
                filename = info.filename
                if variant in ("notoc", "bare"):
                    data = without_toc(filename, data)
                if variant == "bare":
                    data = strip_member(filename, data)
                if variant == "genname":
                    if filename.lower().endswith(TEXT_MEMBERS):
                        data = rename_references(data, names)
                    filename = moved.get(filename, filename)
                zout.writestr(filename, data, compress_type=zipfile.ZIP_DEFLATED)
        return names


def renamed_label(label, names):
    """The labels with hrefs pointing at the renamed files."""

    def rename(href):
        path, _, fragment = href.partition("#")
        base = os.path.basename(path)
        if base in names:
            path = os.path.join(os.path.dirname(path), names[base])
        return path + ("#" + fragment if fragment else "")

    copy = json.loads(json.dumps(label))
    for item in copy.get("spine", []):
        item["href"] = rename(item["href"])
    for chapter in copy.get("chapters", []):
        chapter["href"] = rename(chapter["href"])
    for region in copy.get("in_file_skip", []):
        if "href" in region:
            region["href"] = rename(region["href"])
    return copy


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    corpus, out = sys.argv[1:]
    labels = json.load(open(os.path.join(corpus, "labels.json")))
    sets = {}
    for variant in ("notoc", "bare", "genname"):
        os.makedirs(os.path.join(out, variant), exist_ok=True)
        books = {}
        for name, label in labels["real"].items():
            src = os.path.join(corpus, label["file"])
            if not os.path.exists(src):
                continue
            names = write_variant(src, os.path.join(out, variant, name), variant)
            copy = renamed_label(label, names)
            copy["file"] = variant + "/" + name
            books[name] = copy
        sets[variant] = books
    json.dump(sets, open(os.path.join(out, "labels.json"), "w"), ensure_ascii=False)
    print("wrote %s variants of %d books into %s" % (", ".join(sets), len(labels["real"]), out))


if __name__ == "__main__":
    main()
