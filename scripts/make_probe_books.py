#!/usr/bin/env python3
"""Writes labelled probe books for the structures of issue 31, to measure what a listener hears on
books the project has never seen, before and after a change.

Usage: scripts/make_probe_books.py OUT [--seed N] [--corpus ../shared/corpus]
  e.g. scripts/make_probe_books.py /tmp/probe-books
then
  score_words.py BIN OUT/labels.json OUT --json OUT/words-real.json
  score_words.py BIN OUT/labels.json OUT --set stripped --json OUT/words-stripped.json
  scripts/probe_report.py OUT/labels.json OUT/words-real.json            (per structure, worst books)
  scripts/probe_citations.py BIN OUT                                      (citations removed or kept)

Writes OUT/real/<book>.epub, a copy of each with every semantic hint removed as
scripts/strip_semantics.py removes it (OUT/stripped/<book>.epub), and OUT/labels.json with the sets
"real" and "stripped" in the judge's format (../shared/tools/score_words.py). Each label carries an
extra "probe" object the judge ignores: the structure, the variant, the producer, and checks the
judge cannot make (see below). The same seed and corpus give byte-identical books.

Text: seeded word salad (sentences of words drawn by their frequency) from the vocabulary of the
labelled corpus's English, German and French books, read at run time (the few thousand commonest
words found in two or more books of the language); no corpus text is copied into a book, and nothing
generated enters the repository.

Structures (issue 31 points 1-5 and 7), one per book, each in several sizes and producers (EPUB 3
with a nav, EPUB 3 with nav and NCX, EPUB 2 with an NCX, calibre's index_split_NNN.html names,
Sigil's SectionNNNN names, Pressbooks-like and Word/LibreOffice-like markup):
  s1  a chapter whose TOC entry has sub-entries (I, II, III) at anchors in the same file: anchors on
      headings, on empty <a id> before headings, on <span>s in paragraphs, on <div>s wrapping the
      subsections; sub-entries out of order, at one shared anchor, at missing anchors; NCX playOrder
      (sequential, shared by one target, scrambled); a nav whose parent has no link; three levels.
      Labels: the chapters only (the sub-entries are not chapters).
  s2  books split at page breaks where a file ends with the next chapter's heading (one element, or
      numeral and title in two), the text going on in the next file; with a page-break <div> or
      <span epub:type="pagebreak"> after the heading; a TOC anchor that is the last element of its
      file; a TOC that points at the next file; no TOC; some chapters split so, some not.
      Labels: each chapter starts at its heading (or the TOC's anchor), at the end of a file.
  s3  apparatus without its own TOC entry or semantics, at any length: notes on a play's acts
      (numbered paragraphs with back-links) after the last act in its file or in a file of their
      own; glossaries; indexes (`Term, 212, 240.`); a publisher's series list with prices; an
      "Index of First Lines" of a book of poems; a translation's 5k+ word "Notes"; 20k+ word
      endnotes (typed endnotes in the real copy, nothing in the stripped one); and the converse,
      essays titled "Notes from Trieste and Graz", "Index of a Life", "Appendix to a Novel" that are
      running prose (body: must be read).
  s4  tiny books: two or three pages where the first or last TOC-listed page has a few words; the
      navigation document in the spine, its list hidden by a CSS class, `hidden` or an inline style
      (labelled front matter: a contents list whatever its styling).
  s5  web and converter clutter: previous/next links in every chapter, "🔊 Listen" buttons, "An audio
      element has been excluded..." notices, bare URLs, figures whose alt text repeats the caption,
      a chapter's own web contents block, drop caps in their own element (and drawn as an image),
      note links whose text is "note 1", footnote files opening with [←3] back-links, elements
      hidden by a class whose rule in the book's stylesheet says display: none.
  s7  citations in English, German and French academic prose (author-year, archival, ebd., a. a. O.,
      vgl., art. cit., op. cit., volumes in lower-case Roman numerals), with parentheses that must
      stay (c. 1790, 3 Mark pro Tag, life dates) and legal references in prose.

How the labels say it (in the judge's terms): spine items body/front/back; chapter starts as
path#fragment; `in_file_skip` regions for apparatus, clutter and citations inside body files: a
region starts at an element's id and ends at the next labelled chapter start, at "up to #ID" (the
next element's id) or right after the text in 'ends "TEXT"'; inline regions (a citation, a "note 1"
link, a bare URL) start at an id on the element or at an empty <a id> just before the text, each
with a kind of its own (the judge ends a region of one kind once).

What the judge's format cannot express, and how the probes make up for it:
  * where a section starts: the judge scores words. scripts/probe_report.py finds chapter starts by
    the position in the judge's reference (a section found when it starts at the word where the
    labelled chapter starts; the same word at the end of one file and the start of the next);
  * image alt text is never reference text: the letters of a drop cap drawn as an image are not in
    the reference, and an emoji is not a word. Such books carry probe.expect ("heard": phrases that
    must be heard as words, "absent": phrases that must not, "raw_absent": characters that must not
    appear in the spoken text), which probe_report.py checks;
  * a one-letter drop cap split from its word loses one word per chapter, too little for recall:
    the first words of each chapter are probe.expect "heard" phrases;
  * citations made only of one-letter words and digits ("(a. a. O., S. 9)") have no token the judge
    counts: probe.citations lists every citation and kept parenthesis with its context, which
    scripts/probe_citations.py checks in the spoken text;
  * CSS: the judge reads no stylesheet, so an element hidden by a class rule is labelled as a region;
  * whether sub-entries (I, II, III) become sections of their own is not judged: only that each
    chapter starts where it does and no word is heard twice (seq_repeated).
"""
import argparse
import html
import json
import os
import posixpath
import random
import re
import struct
import sys
import uuid
import zipfile
import zlib
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strip_semantics import strip_member  # noqa: E402

# ----------------------------------------------------------------------------------------------
# vocabulary and word salad

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
TAG = re.compile(r"<(script|style|head)\b.*?</\1>|<[^>]+>", re.S | re.I)
LANGS = ("en", "de", "fr")


def corpus_vocabulary(corpus, size=4000, per_book=250_000):
    """{lang: [(surface form, count)]}: the commonest words of the corpus's books in each language,
    kept when two or more books of the language use them (a word of one book only may be a name or
    another language's word quoted)."""
    labels = json.load(open(os.path.join(corpus, "labels.json")))["real"]
    counts = {lang: Counter() for lang in LANGS}
    books = {lang: Counter() for lang in LANGS}
    forms = {lang: defaultdict(Counter) for lang in LANGS}
    lower = {lang: Counter() for lang in LANGS}
    for label in labels.values():
        lang = label.get("language", "")[:2]
        if lang not in counts:
            continue
        path = os.path.join(corpus, label["file"])
        if not os.path.exists(path):
            continue
        seen, n = set(), 0
        with zipfile.ZipFile(path) as z:
            base = posixpath.dirname(label["opf_path"])
            for item in label["spine"]:
                if item["label"] != "body" or n > per_book:
                    continue
                member = posixpath.normpath(posixpath.join(base, item["href"].split("#")[0]))
                try:
                    text = z.read(member).decode("utf-8", "replace")
                except KeyError:
                    continue
                for w in WORD.findall(html.unescape(TAG.sub(" ", text))):
                    key = w.casefold()
                    counts[lang][key] += 1
                    forms[lang][key][w] += 1
                    if w == key:
                        lower[lang][key] += 1
                    seen.add(key)
                    n += 1
        for key in seen:
            books[lang][key] += 1
    vocab = {}
    for lang in LANGS:
        need = 3 if lang == "en" else 2
        out = []
        for key, c in counts[lang].most_common():
            if books[lang][key] < need or len(key) > 16:
                continue
            if len(key) == 1 and key not in ("a", "i", "à", "y"):
                continue
            form = forms[lang][key].most_common(1)[0][0]
            if lang != "de" and lower[lang][key] < c * 0.2 and key != "i":
                continue                                  # a name: rarely written in lower case
            if form.isupper() and len(form) > 1:
                continue
            out.append((form, c))
            if len(out) >= size:
                break
        if len(out) < 500:
            sys.exit(f"make_probe_books: too few {lang} words in {corpus} (is --corpus the labelled corpus?)")
        vocab[lang] = out
    return vocab


class Prose:
    """Seeded word salad in one language: sentences of words drawn by their corpus frequency."""

    def __init__(self, vocab, rng, lang):
        self.rng, self.lang = rng, lang
        self.words = [w for w, _ in vocab]
        cum, t = [], 0
        for _, c in vocab:
            t += c
            cum.append(t)
        self.cum = cum
        self.content = [w for w, _ in vocab[150:] if len(w) >= 4 and "'" not in w and "’" not in w]

    def word(self):
        return self.rng.choices(self.words, cum_weights=self.cum)[0]

    def cap(self, w):
        return w[:1].upper() + w[1:]

    def sentence(self, lo=6, hi=24, end=None):
        n = self.rng.randint(lo, hi)
        ws = [self.word() for _ in range(n)]
        for i in range(1, n - 1):
            if self.rng.random() < 0.07:
                ws[i] += ","
        ws[0] = self.cap(ws[0])
        if end is None:
            r = self.rng.random()
            end = "." if r < 0.9 else ("?" if r < 0.95 else "!")
        return " ".join(ws) + end

    def paragraph(self, lo=2, hi=6):
        return " ".join(self.sentence() for _ in range(self.rng.randint(lo, hi)))

    def paragraphs(self, words):
        """Paragraphs until about `words` words."""
        out, n = [], 0
        while n < words:
            p = self.paragraph()
            out.append(p)
            n += len(p.split())
        return out

    def term(self):
        return self.cap(self.rng.choice(self.content))

    def title(self, lo=1, hi=3):
        ws = [self.term() for _ in range(self.rng.randint(lo, hi))]
        if self.lang == "en" and self.rng.random() < 0.4:
            ws = ["The"] + ws
        return " ".join(ws)

    def phrase(self, lo=2, hi=5):
        return " ".join(self.word() for _ in range(self.rng.randint(lo, hi)))


SURNAMES = {
    "en": ["Hale", "Marsh", "Okafor", "Pennick", "Latimer", "Crowe", "Ashdown", "Wrenfield", "Tolley",
           "Brannock", "Sefton", "Ingleby", "Carrow", "Dunmore", "Halloran", "Pryce", "Vaughan", "Keble"],
    "de": ["Braun", "Krause", "Lenz", "Vogt", "Hartwig", "Stiller", "Brenner", "Kettler", "Ostmann",
           "Rehfeld", "Wiegand", "Hollmann", "Sandner", "Tietz", "Ebeling", "Gerlach"],
    "fr": ["Girard", "Roux", "Lemaire", "Vasseur", "Delorme", "Brunet", "Fauchier", "Malet", "Perrin",
           "Chauvel", "Ricard", "Tessier", "Laborde", "Mercadier", "Guillot", "Aubry"],
}
FIRST_NAMES = ["Ada", "Miriam", "Oswin", "Theo", "Clara", "Jonas", "Ruth", "Elias", "Agnes", "Felix"]
CITIES = ["Bremen", "Lüneburg", "Kassel", "Coburg", "Minden", "Goslar"]


def roman(n, lower=False):
    out = ""
    for v, s in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                 (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= v:
            out += s
            n -= v
    return out.lower() if lower else out


def slugify(t):
    return re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-")[:40] or "x"


# ----------------------------------------------------------------------------------------------
# markup helpers


def esc(t):
    return html.escape(t, quote=False)


def attrs(**kw):
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("__", ":").replace("_", "-")
        out.append(f' {name}="{html.escape(str(v))}"')
    return "".join(out)


def el(tag, inner="", **kw):
    return f"<{tag}{attrs(**kw)}>{inner}</{tag}>"


def png(w=12, h=12, rgb=(120, 120, 120)):
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


BASE_CSS = """body { font-family: serif; margin: 1em; }
p { text-indent: 1.2em; margin: 0; }
h1, h2, h3 { text-align: center; }
.center, .chapnum, .chaptitle { text-align: center; text-indent: 0; }
.stage { font-style: italic; }
.speaker { font-variant: small-caps; }
.line { text-indent: -1em; margin-left: 2em; }
.index, .indexsub { text-indent: -1em; margin-left: 1em; }
.indexsub { margin-left: 2em; }
"""

# ----------------------------------------------------------------------------------------------
# books


class Doc:
    def __init__(self, path, title, body, label, kind, linear=True, body_class=None, lang=None):
        self.path, self.title, self.body, self.label, self.kind = path, title, body, label, kind
        self.linear, self.body_class, self.lang = linear, body_class, lang
        self.nav = False


PRODUCERS = {
    # version, nav document, NCX, OPF path, folder of the content documents, file naming, extension
    "epub3": dict(version=3, nav=True, ncx=False, opf="EPUB/package.opf", text_dir="text/", naming="slug",
                  ext=".xhtml"),
    "epub3ncx": dict(version=3, nav=True, ncx=True, opf="OEBPS/content.opf", text_dir="Text/", naming="section",
                     ext=".xhtml"),
    "epub2": dict(version=2, nav=False, ncx=True, opf="OEBPS/content.opf", text_dir="", naming="slug", ext=".html"),
    "calibre": dict(version=2, nav=False, ncx=True, opf="content.opf", text_dir="", naming="split", ext=".html"),
    "calibre3": dict(version=3, nav=True, ncx=True, opf="content.opf", text_dir="", naming="split", ext=".xhtml"),
    "sigil2": dict(version=2, nav=False, ncx=True, opf="OEBPS/content.opf", text_dir="Text/", naming="section",
                   ext=".xhtml"),
    "pressbooks": dict(version=3, nav=True, ncx=True, opf="OEBPS/book.opf", text_dir="", naming="slug",
                       ext=".xhtml"),
    "word": dict(version=2, nav=False, ncx=True, opf="OEBPS/content.opf", text_dir="Text/", naming="slug",
                 ext=".html"),
}

CONTENTS_WORD = {"en": "Contents", "de": "Inhalt", "fr": "Table des matières"}


class Book:
    """One probe book: its documents in spine order, its TOC, and its labels."""

    def __init__(self, ctx, name, structure, variant, producer, lang="en", size=""):
        self.ctx, self.name, self.structure, self.variant = ctx, name, structure, variant
        self.producer, self.lang, self.size = producer, lang, size
        p = PRODUCERS[producer]
        self.version, self.has_nav, self.has_ncx = p["version"], p["nav"], p["ncx"]
        self.opf, self.text_dir, self.naming, self.ext = p["opf"], p["text_dir"], p["naming"], p["ext"]
        self.rng = random.Random(f"{ctx.seed}:{name}")
        self.prose = Prose(ctx.vocab[lang], self.rng, lang)
        self.title = self.prose.title(2, 3)
        self.author = f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(SURNAMES[lang])}"
        self.docs, self.toc, self.chapters, self.skips = [], [], [], []
        self.css = BASE_CSS
        self.images = {}
        self.nav_in_spine = None        # "start" / "end"
        self.nav_hide = None            # "class" / "ol-class" / "hidden" / "style" / None
        self.playorder = "seq"          # "seq" / "same-target" / "scrambled"
        self.landmarks = producer in ("epub3", "pressbooks")
        self.features = []
        self.expect = {}
        self.probe = {}
        self._names = 0

    # -- files and markup in the producer's way

    def fname(self, slug):
        n = self._names
        self._names += 1
        if self.naming == "split":
            base = f"index_split_{n:03d}{self.ext}"
        elif self.naming == "section":
            base = f"Section{n + 1:04d}{self.ext}"
        else:
            base = f"{slug}{self.ext}"
        return self.text_dir + base

    def p(self, text, raw=False, **kw):
        if "class_" not in kw:
            kw["class_"] = {"calibre": "calibre1", "calibre3": "calibre1", "word": "MsoNormal"}.get(self.producer)
        return el("p", text if raw else esc(text), **kw)

    def h(self, level, text, raw=False, **kw):
        if "class_" not in kw and self.producer in ("calibre", "calibre3"):
            kw["class_"] = f"calibre{level + 3}"
        return el(f"h{level}", text if raw else esc(text), **kw)

    def paras(self, words):
        """Paragraph markup of about `words` words."""
        return "\n".join(self.p(t) for t in self.prose.paragraphs(words))

    def typed(self, types, role=None):
        """epub:type and role attributes, in EPUB 3 only."""
        if self.version != 3:
            return {}
        out = {"epub__type": types}
        if role:
            out["role"] = role
        return out

    def chapter_wrap(self, inner, sid=None, types="chapter"):
        if self.version == 3 and self.producer == "epub3":
            return el("section", "\n" + inner + "\n", id=sid, **self.typed(types, "doc-" + types))
        if self.producer == "pressbooks":
            return el("div", inner, class_="chapter standard", id=sid)
        return el("div", "\n" + inner + "\n", class_="chapter", id=sid)

    def add(self, path, title, body, label="body", kind="chapter", linear=True, body_class=None):
        if body_class is None and self.producer in ("calibre", "calibre3"):
            body_class = "calibre"
        d = Doc(path, title, body, label, kind, linear, body_class)
        self.docs.append(d)
        return d

    def chapter(self, title, href, part=None):
        c = {"title": title, "href": href}
        if part:
            c["part"] = part
        self.chapters.append(c)

    def skip(self, href, kind, note=""):
        s = {"href": href, "kind": kind}
        if note:
            s["note"] = note
        self.skips.append(s)

    def add_titlepage(self, extra=""):
        path = self.fname("titlepage")
        body = self.h(1, self.title, class_="title") + "\n" + self.p(self.author, class_="center") + extra
        if self.version == 3:
            body = el("section", body, **self.typed("titlepage"))
        self.add(path, "Title Page", body, "front", "titlepage")
        return path

    def add_copyright(self):
        path = self.fname("copyright")
        year = self.rng.randint(1995, 2023)
        body = (self.p(f"Copyright © {year} {self.author}. All rights reserved.")
                + self.p(f"Published by {self.prose.term()} Press. ISBN 978-0-{self.rng.randint(100000, 999999)}-"
                         f"{self.rng.randint(10, 99)}-{self.rng.randint(0, 9)}.")
                + self.p("No part of this publication may be reproduced without the written permission of the "
                         "publisher."))
        if self.version == 3:
            body = el("section", body, **self.typed("copyright-page"))
        self.add(path, "Copyright", body, "front", "copyright-page")
        return path

    def image(self, name, rgb=(120, 120, 120)):
        path = "images/" + name
        self.images[path] = png(rgb=rgb)
        return path

    def img_src(self, doc_path, image_path):
        return posixpath.relpath(image_path, posixpath.dirname(doc_path) or ".")

    # -- writing

    def css_href(self, doc_path):
        return posixpath.relpath("style.css", posixpath.dirname(doc_path) or ".")

    def xhtml(self, doc):
        lang = self.lang
        if self.version == 3:
            top = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"'
                   f' xmlns:epub="http://www.idpf.org/2007/ops" lang="{lang}" xml:lang="{lang}">')
        else:
            top = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
                   '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n'
                   f'<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="{lang}">')
        head = (f"<head><title>{esc(doc.title)}</title>"
                f'<link rel="stylesheet" type="text/css" href="{self.css_href(doc.path)}"/></head>')
        body_attrs = attrs(class_=doc.body_class)
        return f"{top}\n{head}\n<body{body_attrs}>\n{doc.body}\n</body>\n</html>\n"

    def rel(self, href):
        """A TOC href (relative to the OPF folder) as written in the nav and NCX (both beside the OPF)."""
        return href

    def nav_ol(self, entries, cls=None, hidden=False):
        items = []
        for e in entries:
            title, href, children = e
            head = el("a", esc(title), href=self.rel(href)) if href else el("span", esc(title))
            sub = self.nav_ol(children) if children else ""
            items.append(f"<li>{head}{sub}</li>")
        return el("ol", "".join(items), class_=cls, hidden="" if hidden else None)

    def nav_body(self):
        hide = self.nav_hide
        nav_kw = {"epub__type": "toc", "id": "toc"}
        if hide == "hidden":
            nav_kw["hidden"] = ""
        if hide == "style":
            nav_kw["style"] = "display: none"
        if hide == "class":
            nav_kw["class_"] = "toc-hidden"
        ol = self.nav_ol(self.toc, cls="toc-list-hidden" if hide == "ol-class" else None,
                         hidden=hide == "ol-hidden")
        body = el("nav", el("h1", CONTENTS_WORD[self.lang]) + ol, **nav_kw)
        if self.landmarks:
            first = next((d.path for d in self.docs if d.label == "body"), None)
            if first:
                body += el("nav", el("ol", el("li", el("a", "Start", href=first, epub__type="bodymatter"))),
                           epub__type="landmarks", hidden="")
        return body

    def ncx(self):
        uid = self.uid()
        order = {}
        counter = [0]

        def first_href(e):
            return e[1] or next((first_href(c) for c in e[2] if first_href(c)), None)

        def walk(entries):
            out = []
            for e in entries:
                href = first_href(e)
                if not href:
                    continue
                counter[0] += 1
                pid = f"navPoint-{counter[0]}"
                if self.playorder == "same-target":
                    po = order.setdefault(href, len(order) + 1)
                else:
                    po = counter[0]
                kids = walk(e[2])
                out.append(f'<navPoint id="{pid}" playOrder="{po}"><navLabel><text>{esc(e[0])}</text></navLabel>'
                           f'<content src="{html.escape(self.rel(href))}"/>{kids}</navPoint>')
            return "".join(out)

        nav_map = walk(self.toc)
        if self.playorder == "scrambled":
            nums = re.findall(r'playOrder="(\d+)"', nav_map)
            shuffled = list(nums)
            self.rng.shuffle(shuffled)
            it = iter(shuffled)
            nav_map = re.sub(r'playOrder="\d+"', lambda m: f'playOrder="{next(it)}"', nav_map)

        def depth(entries):
            return 1 + max((depth(e[2]) for e in entries if e[2]), default=0) if entries else 0

        return ('<?xml version="1.0" encoding="utf-8"?>\n'
                '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">\n'
                f'<head><meta name="dtb:uid" content="{uid}"/><meta name="dtb:depth" content="{depth(self.toc)}"/>'
                '<meta name="dtb:totalPageCount" content="0"/><meta name="dtb:maxPageNumber" content="0"/></head>\n'
                f"<docTitle><text>{esc(self.title)}</text></docTitle>\n<navMap>{nav_map}</navMap>\n</ncx>\n")

    def uid(self):
        return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"epub2audio-probe/{self.ctx.seed}/{self.name}"))

    def spine_docs(self):
        docs = list(self.docs)
        if self.nav_in_spine:
            nav = Doc("nav.xhtml", CONTENTS_WORD[self.lang], self.nav_body(), "front", "toc")
            nav.nav = True
            if self.nav_in_spine == "start":
                first_body = next(i for i, d in enumerate(docs) if d.label == "body")
                docs.insert(first_body, nav)
            else:
                docs.append(nav)
        return docs

    def opf_xml(self, spine):
        v3 = self.version == 3
        items, refs = [], []
        media = "application/xhtml+xml"
        for i, d in enumerate(spine):
            iid = "nav" if d.nav else f"item{i + 1}"
            props = ' properties="nav"' if d.nav else ""
            items.append(f'<item id="{iid}" href="{html.escape(d.path)}" media-type="{media}"{props}/>')
            lin = "" if d.linear else ' linear="no"'
            refs.append(f'<itemref idref="{iid}"{lin}/>')
        if v3 and self.has_nav and not self.nav_in_spine:
            items.append(f'<item id="nav" href="nav.xhtml" media-type="{media}" properties="nav"/>')
        if self.has_ncx:
            items.append('<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>')
        items.append('<item id="css" href="style.css" media-type="text/css"/>')
        for k, path in enumerate(sorted(self.images)):
            items.append(f'<item id="img{k + 1}" href="{path}" media-type="image/png"/>')
        meta = (f'<dc:identifier id="bookid">{self.uid()}</dc:identifier>\n<dc:title>{esc(self.title)}</dc:title>\n'
                f"<dc:creator>{esc(self.author)}</dc:creator>\n<dc:language>{self.lang}</dc:language>\n")
        if v3:
            meta += '<meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>\n'
        spine_toc = ' toc="ncx"' if self.has_ncx else ""
        guide = ""
        if not v3:
            first = next((d.path for d in spine if d.label == "body"), None)
            if first:
                guide = f'<guide><reference type="text" title="Start" href="{html.escape(first)}"/></guide>\n'
        return ('<?xml version="1.0" encoding="utf-8"?>\n'
                f'<package xmlns="http://www.idpf.org/2007/opf" version="{"3.0" if v3 else "2.0"}" '
                'unique-identifier="bookid">\n'
                '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">\n'
                f"{meta}</metadata>\n<manifest>\n" + "\n".join(items) + "\n</manifest>\n"
                f"<spine{spine_toc}>\n" + "\n".join(refs) + "\n</spine>\n" + guide + "</package>\n")

    def members(self):
        """(name, bytes) of every member of the EPUB, in order."""
        spine = self.spine_docs()
        base = posixpath.dirname(self.opf)
        join = (lambda p: posixpath.join(base, p)) if base else (lambda p: p)
        out = [("mimetype", b"application/epub+zip"),
               ("META-INF/container.xml",
                ('<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:'
                 f'container"><rootfiles><rootfile full-path="{self.opf}" media-type="application/oebps-package+xml"/>'
                 "</rootfiles></container>\n").encode()),
               (self.opf, self.opf_xml(spine).encode())]
        if self.version == 3 and self.has_nav and not self.nav_in_spine:
            nav = Doc("nav.xhtml", CONTENTS_WORD[self.lang], self.nav_body(), "front", "toc")
            out.append((join("nav.xhtml"), self.xhtml(nav).encode()))
        if self.has_ncx:
            out.append((join("toc.ncx"), self.ncx().encode()))
        out.append((join("style.css"), self.css.encode()))
        for d in spine:
            out.append((join(d.path), self.xhtml(d).encode()))
        for path in sorted(self.images):
            out.append((join(path), self.images[path]))
        return out, spine

    def write(self, out_dir):
        members, spine = self.members()
        for sub, change in (("real", None), ("stripped", strip_member)):
            path = os.path.join(out_dir, sub, self.name + ".epub")
            with zipfile.ZipFile(path, "w") as z:
                for name, data in members:
                    if change:
                        data = change(name, data)
                    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
                    z.writestr(info, data)
        return self.label(spine)

    def label(self, spine):
        items = [{"idx": i, "href": d.path, "linear": d.linear, "label": d.label, "kind": d.kind}
                 for i, d in enumerate(spine)]
        counts = Counter(d.label for d in spine)
        toc_sources = (["nav"] if self.version == 3 and self.has_nav else []) + (["ncx"] if self.has_ncx else [])
        label = {
            "file": f"real/{self.name}.epub", "title": self.title, "all_titles": [self.title], "author": self.author,
            "language": self.lang, "epub_version": "3.0" if self.version == 3 else "2.0", "opf_path": self.opf,
            "toc_sources": toc_sources, "label_source": "generated (scripts/make_probe_books.py)",
            "features": self.features, "unsure": [], "spine": items,
            "counts": {"spine": len(spine), "front": counts["front"], "body": counts["body"], "back": counts["back"],
                       "chapters": len(self.chapters), "parts": sum(1 for d in spine if d.kind == "part")},
            "chapters": self.chapters, "in_file_skip": self.skips,
            "probe": dict(structure=self.structure, variant=self.variant, producer=self.producer, size=self.size,
                          lang=self.lang, **self.probe),
        }
        if self.expect:
            label["probe"]["expect"] = self.expect
        return label


# ----------------------------------------------------------------------------------------------
# s1: sub-entries at anchors in the same file

S1_MODES = ["heading", "empty-a", "span-in-p", "span-text", "div-wrap", "section-wrap", "p-ids", "reordered",
            "same-anchor", "missing-anchor", "ncx-playorder", "parent-nolink", "parent-fragment", "flat-siblings",
            "depth3"]
S1_SIZES = {  # chapters, words per chapter, chapters with sub-entries, sub-entries, words of those chapters
    "small": (5, 700, "all", 3, 700),
    "medium": (8, 1500, [4], 5, 4000),
    "large": (4, 3000, [2], 3, 7400),
}


def s1_producer(mode, size):
    if mode == "ncx-playorder":
        return {"small": "epub2", "medium": "calibre", "large": "sigil2"}[size]
    if mode == "parent-nolink":
        return {"small": "epub3", "medium": "calibre3", "large": "epub3ncx"}[size]
    return {"small": "epub3", "medium": "calibre", "large": "epub3ncx"}[size]


def s1_book(ctx, mode, size):
    b = Book(ctx, f"s1-{mode}-{size}", "s1 sub-entries", mode, s1_producer(mode, size), size=size)
    nch, words, subbed, nsub, sub_words = S1_SIZES[size]
    b.features = [f"TOC sub-entries at anchors in the chapter's file: {mode}"]
    b.add_titlepage()
    if mode == "ncx-playorder":
        b.playorder = {"small": "seq", "medium": "same-target", "large": "scrambled"}[size]
        b.features.append(f"NCX playOrder {b.playorder}")
    parts = [("Part One", 1), ("Part Two", (nch + 1) // 2 + 1)] if mode == "depth3" else []
    part_entry, part_title = None, None
    for i in range(1, nch + 1):
        for ptitle, at in parts:
            if at == i:
                ppath = b.fname(slugify(ptitle))
                part_title = f"{ptitle}: {b.prose.title()}"
                b.add(ppath, part_title, b.h(1, part_title), "body", "part")
                part_entry = (part_title, ppath, [])
                b.toc.append(part_entry)
        has = subbed == "all" or i in subbed
        path = b.fname(f"chapter-{i}")
        title = f"Chapter {roman(i)}: {b.prose.title()}"
        hid = f"ch{i}"
        body = [b.h(2, title, id=hid)]
        children = []
        if has:
            total = sub_words
            intro = 0 if mode == "span-text" else total // 12
            if intro:
                body.append(b.paras(intro))
            per = (total - intro) // nsub
            for j in range(1, nsub + 1):
                sid = f"ch{i}-s{j}"
                num = roman(j)
                texts = b.prose.paragraphs(per)
                if mode in ("heading", "reordered", "same-anchor", "ncx-playorder", "parent-nolink", "depth3",
                            "parent-fragment", "flat-siblings"):
                    body.append(b.h(3, num, id=sid))
                    body += [b.p(t) for t in texts]
                elif mode == "empty-a":
                    body.append(el("a", "", id=sid))
                    body.append(b.h(3, num))
                    body += [b.p(t) for t in texts]
                elif mode == "span-in-p":
                    body.append(b.p(el("span", num, id=sid), raw=True, class_="center"))
                    body += [b.p(t) for t in texts]
                elif mode == "span-text":
                    body.append(b.p(el("span", "", id=sid) + esc(texts[0]), raw=True))
                    body += [b.p(t) for t in texts[1:]]
                elif mode == "div-wrap":
                    body.append(el("div", b.h(3, num) + "\n" + "\n".join(b.p(t) for t in texts), id=sid,
                                   class_="section"))
                elif mode == "section-wrap":
                    inner = b.h(3, num) + "\n" + "\n".join(b.p(t) for t in texts)
                    body.append(el("section", inner, id=sid) if b.version == 3 else el("div", inner, id=sid,
                                                                                       class_="section2"))
                elif mode == "p-ids":
                    body.append(b.p(texts[0], id=sid))
                    body += [b.p(t) for t in texts[1:]]
                elif mode == "missing-anchor":
                    body.append(b.h(3, num))
                    body += [b.p(t) for t in texts]
                href = f"{path}#{sid}"
                if mode == "missing-anchor":
                    href = f"{path}#section-{roman(j, True)}"
                elif mode == "same-anchor":
                    href = {"small": f"{path}#{hid}", "medium": f"{path}#ch{i}-s{min(j, 2)}", "large": path}[size]
                children.append((num, href, []))
            if mode == "reordered":
                children = children[1:] + children[:1] if size != "medium" else children[::-1]
        else:
            body.append(b.paras(words))
        b.add(path, title, b.chapter_wrap("\n".join(body), sid=f"chapter-{i}"))
        href = None if mode == "parent-nolink" and has else path
        if mode == "parent-fragment":
            href = f"{path}#{hid}"
        entry = (title, href, children)
        if part_entry:
            part_entry[2].append(entry)
        elif mode == "flat-siblings":
            b.toc += [(title, href, [])] + children
        else:
            b.toc.append(entry)
        b.chapter(title, path, part_title)
    if size != "small":
        b.add(b.fname("about"), "About the Author", b.h(2, "About the Author") + b.paras(120), "back", "author-bio")
        b.toc.append(("About the Author", b.docs[-1].path, []))
    return b


# ----------------------------------------------------------------------------------------------
# s2: a file ends with the next chapter's heading

S2_MODES = ["one", "two", "pb-div", "pb-span", "anchor-last", "toc-next-file", "no-toc", "mixed"]
S2_SIZES = {"small": (6, 1000, 2), "medium": (10, 2500, 3), "large": (14, 4000, 3)}


def s2_producer(mode, size):
    if mode == "pb-span":
        return {"small": "epub3", "medium": "calibre3", "large": "epub3ncx"}[size]
    return {"small": "calibre", "medium": "calibre3", "large": "sigil2"}[size]


def s2_book(ctx, mode, size):
    b = Book(ctx, f"s2-{mode}-{size}", "s2 heading at file end", mode, s2_producer(mode, size), size=size)
    nch, words, files_per = S2_SIZES[size]
    b.features = [f"split at page breaks; next chapter's heading at the end of a file: {mode}"]
    tp = b.add_titlepage()
    chapters = []
    for i in range(1, nch + 1):
        title = b.prose.title()
        paras = b.prose.paragraphs(words)
        cuts = sorted(b.rng.sample(range(1, len(paras)), min(files_per - 1, len(paras) - 1)))
        chunks = [paras[a:z] for a, z in zip([0] + cuts, cuts + [len(paras)])]
        chapters.append((i, title, chunks))
    page = [b.rng.randint(5, 15)]

    def heading(i, title, hid):
        two = mode == "two" or (mode in ("pb-div", "pb-span", "mixed") and i % 2 == 0)
        if two:
            if b.version == 3 and b.producer != "calibre3":
                return b.h(2, roman(i), id=hid) + "\n" + b.p(title, class_="chaptitle")
            return b.p(roman(i), class_="chapnum", id=hid) + "\n" + b.p(title, class_="chaptitle")
        return b.h(2, f"CHAPTER {roman(i)}. {title.upper()}", id=hid)

    def after_heading():
        page[0] += b.rng.randint(2, 4)
        if mode == "pb-div":
            return "\n" + el("div", "", class_="mbppagebreak" if b.producer.startswith("calibre") else "pagebreak")
        if mode == "pb-span":
            return "\n" + el("span", "", id=f"page{page[0]}", title=str(page[0]),
                             **b.typed("pagebreak", "doc-pagebreak"))
        return ""

    prev_file_body = None
    for i, title, chunks in chapters:
        hid = f"h{i}"
        label_title = f"Chapter {roman(i)}: {title}"
        at_end = i > 1 and (mode != "mixed" or i % 2 == 1)
        files = []
        for k, chunk in enumerate(chunks):
            files.append([b.fname(f"ch{i:02d}-{k}"), "\n".join(b.p(t) for t in chunk)])
        if at_end:
            if mode == "anchor-last":
                prev_file_body[1] += "\n" + el("a", "", id=f"c{i}")
                files[0][1] = heading(i, title, None) + "\n" + files[0][1]
                b.chapter(label_title, f"{prev_file_body[0]}#c{i}")
                toc_href = f"{prev_file_body[0]}#c{i}"
            else:
                prev_file_body[1] += "\n" + heading(i, title, hid) + after_heading()
                b.chapter(label_title, f"{prev_file_body[0]}#{hid}")
                toc_href = files[0][0] if mode == "toc-next-file" else f"{prev_file_body[0]}#{hid}"
        else:
            files[0][1] = heading(i, title, hid) + "\n" + files[0][1]
            b.chapter(label_title, files[0][0])
            toc_href = files[0][0]
        b.toc.append((label_title, toc_href, []))
        for f in files:
            b.add(f[0], label_title, None)
        for d, f in zip(b.docs[-len(files):], files):
            d.body = f                                            # filled in below (bodies still grow)
        prev_file_body = files[-1]
    for d in b.docs:
        if isinstance(d.body, list):
            d.body = d.body[1]
    if mode == "no-toc":
        b.toc = [("Title Page", tp, [])]
        b.features.append("TOC lists only the title page")
    b.add(b.fname("colophon"), "Colophon", b.p(f"This edition was set in {b.prose.term()} type.")
          + b.p(b.prose.sentence()), "back", "colophon")
    return b


# ----------------------------------------------------------------------------------------------
# s3: apparatus by shape, and essays titled like matter

SPEAKERS = ["MARGARET", "OSWIN", "LADY HALE", "THE CLERK", "ROWAN", "MISTRESS CARROW", "A SERVANT"]


def play_acts(b, paths, note_path, notes, words_per_act=3000):
    """Act files (speeches, stage directions, note references): [[path, body, [note numbers]]]."""
    out = []
    acts = len(paths)
    refs_per_act = [notes // acts + (1 if a < notes % acts else 0) for a in range(acts)]
    n = 0
    target = note_path.split("/")[-1]
    for a, path in enumerate(paths, 1):
        body = [b.h(2, f"ACT {roman(a)}", id=f"act{a}")]
        speeches = []
        nscenes = b.rng.randint(2, 3)
        per_scene = words_per_act // nscenes
        for s in range(1, nscenes + 1):
            speeches.append(b.h(3, f"Scene {s}. {b.prose.title()}"))
            speeches.append(b.p(el("i", esc(b.prose.sentence(6, 14))), raw=True, class_="stage"))
            w = 0
            while w < per_scene:
                text = b.prose.paragraph(1, 3)
                w += len(text.split())
                speeches.append(b.p(el("span", esc(b.rng.choice(SPEAKERS) + "."), class_="speaker") + " "
                                    + esc(text), raw=True))
        # spread this act's note references over its speeches
        mine = list(range(n + 1, n + refs_per_act[a - 1] + 1))
        n += len(mine)
        idx = [i for i, s in enumerate(speeches) if 'class="speaker"' in s]
        for k, num in zip(sorted(b.rng.sample(idx, min(len(mine), len(idx)))), mine):
            ref = el("a", str(num), href=f"{target}#note-{num}", id=f"ref-{num}")
            speeches[k] = speeches[k].replace("</p>", f"<sup>{ref}</sup></p>")
        body += speeches
        out.append([path, "\n".join(body), mine])
    return out


def play_notes(b, notes, act_of, act_path, per_note):
    rows = []
    for num in range(1, notes + 1):
        a = act_of[num]
        back = el("a", str(num), href=f"{act_path[a].split('/')[-1]}#ref-{num}")
        lemma = el("i", esc(b.prose.phrase(2, 4)))
        expl = " ".join(b.prose.sentence(8, 22) for _ in range(max(1, per_note // 15)))
        if b.rng.random() < 0.2:
            expl += f" See note {b.rng.randint(1, notes)}."
        rows.append(el("p", f"{back}. Act {roman(a)}. {lemma}] {esc(expl)}", id=f"note-{num}"))
    return rows


def s3_play(ctx, name, producer, note_words, where):
    b = Book(ctx, name, "s3 apparatus", f"play-notes-{where}", producer, size=f"{note_words} note words")
    b.features = [f"notes on the acts ({note_words} words), {where}, no TOC entry, no semantics"]
    b.add_titlepage()
    per_note = 55
    notes = max(12, note_words // per_note)
    paths = [b.fname(f"act-{a}") for a in range(1, 4)]
    note_file = b.fname("notes") if where == "file" else paths[-1]
    acts = play_acts(b, paths, note_file, notes)
    act_of = {num: i + 1 for i, a in enumerate(acts) for num in a[2]}
    act_path = {i + 1: a[0] for i, a in enumerate(acts)}
    rows = play_notes(b, notes, act_of, act_path, per_note)
    head = b.h(2, "NOTES", id="notes")
    for i, (path, body, _) in enumerate(acts):
        title = f"Act {roman(i + 1)}"
        if where == "in-file" and i == len(acts) - 1:
            body += "\n" + head + "\n" + "\n".join(rows)
            b.skip(f"{path}#notes", "endnotes", "notes on the acts after the last act, no TOC entry")
        b.add(path, title, body)
        b.chapter(title, path)
        b.toc.append((title, path, []))
    if where == "file":
        b.add(note_file, "Notes", head + "\n" + "\n".join(rows), "back", "endnotes")
    return b


def glossary_rows(b, n, form):
    terms = sorted({b.prose.term() for _ in range(n * 2)}, key=str.casefold)[:n]
    rows = []
    for t in terms:
        d = b.prose.sentence(5, 22)
        if form == "dl":
            rows.append(f"<dt>{esc(t)}</dt><dd>{esc(d)}</dd>")
        elif form == "bold":
            rows.append(b.p(f"<b>{esc(t)}</b>. {esc(d)}", raw=True))
        else:
            rows.append(b.p(f'<span class="term">{esc(t)}</span> — {esc(d)}', raw=True))
    return "<dl>" + "".join(rows) + "</dl>" if form == "dl" else "\n".join(rows)


def index_rows(b, n):
    terms = sorted({b.prose.term() for _ in range(n * 2)}, key=str.casefold)[:n]
    rows, letter = [], ""
    for t in terms:
        if t[0].upper() != letter:
            letter = t[0].upper()
            rows.append(b.h(3, letter))
        pages = sorted(b.rng.sample(range(3, 420), b.rng.randint(1, 4)))
        rows.append(b.p(f"{t}, {', '.join(map(str, pages))}.", class_="index"))
        for _ in range(b.rng.choice([0, 0, 0, 1, 2])):
            rows.append(b.p(f"— {b.prose.word()} {b.prose.word()}, {b.rng.randint(3, 420)}.", class_="indexsub"))
    return "\n".join(rows)


def series_rows(b, n):
    rows = [b.h(3, f"THE {b.prose.term().upper()} LIBRARY"), b.p("Uniform with this volume.", class_="center")]
    for k in range(1, n + 1):
        s, d = b.rng.randint(1, 7), b.rng.choice([0, 6])
        price = b.rng.choice([f"Cloth, {s}s. {d}d. net; leather, {s + 1}s. {d}d. net.",
                              f"Crown 8vo, {s}s. net.", f"${s}.{b.rng.choice(['00', '25', '50', '75'])}"])
        rows.append(b.p(f"{k}. {b.prose.title()}. By {b.rng.choice(FIRST_NAMES)[0]}. {b.rng.choice(SURNAMES['en'])}. "
                        f"{price}"))
    return "\n".join(rows)


def s3_matter(ctx, name, producer, matter, n, where, form="bold"):
    """A novel of a few chapters and one apparatus (glossary, index, series list) in its own unlisted
    file or after the last chapter in its file."""
    b = Book(ctx, name, "s3 apparatus", f"{matter}-{where}", producer, size=f"{n} entries")
    b.features = [f"{matter} of {n} entries, {where}, no TOC entry, no semantics"]
    b.add_titlepage()
    heading = {"glossary": "Glossary", "index": "Index", "series": "Books by the Same Publisher"}[matter]
    rows = {"glossary": lambda: glossary_rows(b, n, form), "index": lambda: index_rows(b, n),
            "series": lambda: series_rows(b, n)}[matter]()
    kind = {"glossary": "glossary", "index": "index", "series": "advertisement"}[matter]
    nch = 5
    for i in range(1, nch + 1):
        path = b.fname(f"chapter-{i}")
        title = f"Chapter {roman(i)}: {b.prose.title()}"
        body = b.h(2, title) + "\n" + b.paras(b.rng.randint(1500, 2500))
        if where == "in-file" and i == nch:
            body += "\n" + b.h(2, heading, id="matter") + "\n" + rows
            b.skip(f"{path}#matter", kind, f"{heading} after the last chapter in its file")
        b.add(path, title, b.chapter_wrap(body))
        b.chapter(title, path)
        b.toc.append((title, path, []))
    if where == "file":
        b.add(b.fname(slugify(heading)), heading, b.h(2, heading) + "\n" + rows, "back", kind)
    return b


def s3_poems(ctx, name, producer, where, npoems):
    b = Book(ctx, name, "s3 apparatus", f"first-lines-{where}", producer, size=f"{npoems} poems")
    b.features = [f"poems with an Index of First Lines, {where}"]
    b.add_titlepage()
    firsts = []
    groups = 3
    per = npoems // groups
    page = 9
    for g in range(1, groups + 1):
        path = b.fname(f"poems-{g}")
        title = f"{roman(g)}. {b.prose.title()}"
        body = [b.h(2, title)]
        for k in range(per):
            ptitle = b.prose.title()
            body.append(b.h(3, ptitle))
            for s in range(b.rng.randint(2, 4)):
                lines = [b.prose.cap(b.prose.phrase(4, 9)) + b.rng.choice([",", "", ";", "."])
                         for _ in range(b.rng.randint(3, 6))]
                if s == 0:
                    firsts.append((lines[0].rstrip(",;."), page))
                body.append(el("div", "".join(b.p(x, class_="line") for x in lines), class_="stanza"))
            page += b.rng.randint(1, 3)
        b.add(path, title, "\n".join(body))
        b.chapter(title, path)
        b.toc.append((title, path, []))
    rows = [b.h(2, "Index of First Lines", id="first-lines")]
    rows += [b.p(f"{t} . . . {p}", class_="index") for t, p in sorted(firsts, key=lambda x: x[0].casefold())]
    rows = "\n".join(rows)
    if where == "in-file":
        b.docs[-1].body += "\n" + rows
        b.skip(f"{b.docs[-1].path}#first-lines", "index", "Index of First Lines after the last poem, same file")
    else:
        path = b.fname("first-lines")
        b.add(path, "Index of First Lines", rows, "back", "index")
        if where == "file-in-toc":
            b.toc.append(("Index of First Lines", path, []))
    return b


def s3_translation_notes(ctx, name, producer, note_words, in_toc):
    b = Book(ctx, name, "s3 apparatus", "translation-notes" + ("-in-toc" if in_toc else ""), producer,
             size=f"{note_words} note words")
    b.features = [f"a translation's Notes ({note_words} words), {'in' if in_toc else 'not in'} the TOC, no semantics"]
    b.add_titlepage(b.p(f"Translated by {b.rng.choice(FIRST_NAMES)} {b.rng.choice(SURNAMES['en'])}",
                        class_="center"))
    nch = 8
    paths = []
    for i in range(1, nch + 1):
        path = b.fname(f"chapter-{i}")
        paths.append(path)
        title = f"{roman(i)}. {b.prose.title()}"
        b.add(path, title, b.chapter_wrap(b.h(2, title) + "\n" + b.paras(b.rng.randint(2000, 3000))))
        b.chapter(title, path)
        b.toc.append((title, path, []))
    rows, k = [b.h(2, "Notes")], 0
    per_ch = note_words // nch
    for i in range(1, nch + 1):
        rows.append(b.h(3, f"Chapter {roman(i)}"))
        cw = 0
        while cw < per_ch:
            k += 1
            page = b.rng.randint(3, 300)
            sentences = [b.prose.sentence(8, 24) for _ in range(b.rng.randint(1, 4))]
            text = f"p. {page}. " + " ".join(sentences)
            cw += len(text.split())
            rows.append(b.p(f"{k}. " + el("i", esc(b.prose.phrase(1, 3))) + ": " + esc(text), raw=True))
    path = b.fname("notes")
    b.add(path, "Notes", "\n".join(rows), "back", "endnotes")
    if in_toc:
        b.toc.append(("Notes", path, []))
    return b


def s3_endnotes(ctx, name, producer, note_words):
    b = Book(ctx, name, "s3 apparatus", "endnotes-20k", producer, size=f"{note_words} note words")
    b.features = [f"{note_words}-word endnotes in their own file (typed in EPUB 3; the stripped copy has none)"]
    b.add_titlepage()
    nch = 12
    nnotes = note_words // 70
    chapter_paths = [b.fname(f"chapter-{i}") for i in range(1, nch + 1)]
    notes_path = b.fname("notes")
    notes_base = notes_path.split("/")[-1]
    per_ch = [nnotes // nch + (1 if i < nnotes % nch else 0) for i in range(nch)]
    num = 0
    owner = {}
    for i, path in enumerate(chapter_paths, 1):
        title = f"Chapter {i}. {b.prose.title()}"
        paras = b.prose.paragraphs(b.rng.randint(3000, 4500))
        idx = sorted(b.rng.sample(range(len(paras)), min(per_ch[i - 1], len(paras))))
        marked = []
        for k, t in enumerate(paras):
            if k in idx:
                num += 1
                owner[num] = path
                ref = el("a", str(num), href=f"{notes_base}#en{num}", id=f"enref{num}",
                         **b.typed("noteref", "doc-noteref"))
                t_html = esc(t[:-1]) + el("sup", ref) + esc(t[-1])
                marked.append(b.p(t_html, raw=True))
            else:
                marked.append(b.p(t))
        b.add(path, title, b.chapter_wrap(b.h(2, title) + "\n" + "\n".join(marked)))
        b.chapter(title, path)
        b.toc.append((title, path, []))
    items = []
    for n in range(1, num + 1):
        text = " ".join(b.prose.sentence(8, 26) for _ in range(b.rng.randint(2, 6)))
        back = el("a", "↩", href=f"{owner[n].split('/')[-1]}#enref{n}", **b.typed("backlink", "doc-backlink"))
        if b.version == 3:
            items.append(el("li", b.p(esc(text) + " " + back, raw=True), id=f"en{n}",
                            **b.typed("endnote", "doc-endnote")))
        else:
            items.append(b.p(el("a", f"[{n}]", href=f"{owner[n].split('/')[-1]}#enref{n}") + " " + esc(text), raw=True,
                             id=f"en{n}"))
    body = b.h(2, "Notes") + ("\n" + el("ol", "\n".join(items)) if b.version == 3 else "\n" + "\n".join(items))
    if b.version == 3:
        body = el("section", body, **b.typed("endnotes", "doc-endnotes"))
    b.add(notes_path, "Notes", body, "back", "endnotes")
    b.toc.append(("Notes", notes_path, []))
    return b


MATTER_ESSAYS = ["Notes from Trieste and Graz", "Index of a Life", "Appendix to a Novel"]


def s3_essays(ctx, name, producer, placement):
    """Essays, one or three titled like matter; running prose, read."""
    b = Book(ctx, name, "s3 apparatus", f"matter-titled-essay-{placement}", producer, size="6 essays")
    b.features = [f"essays titled like matter ({placement}): running prose, main text"]
    b.add_titlepage()
    titles = [b.prose.title() for _ in range(6)]
    if placement == "notes-last":
        titles[-1] = MATTER_ESSAYS[0]
    elif placement == "index-middle":
        titles[3] = MATTER_ESSAYS[1]
    elif placement == "appendix-last":
        titles[-1] = MATTER_ESSAYS[2]
    else:  # all three: first, middle, last
        titles[0], titles[3], titles[-1] = MATTER_ESSAYS
    for i, t in enumerate(titles, 1):
        path = b.fname(f"essay-{i}")
        body = b.h(2, t) + "\n" + "\n".join(b.p(x) for x in b.prose.paragraphs(b.rng.randint(1500, 3500)))
        b.add(path, t, b.chapter_wrap(body))
        b.chapter(t, path)
        b.toc.append((t, path, []))
    return b


def s3_books(ctx):
    out = []
    for name, prod, words, where in [("s3-play-notes-in-file-2k", "epub3", 2000, "in-file"),
                                     ("s3-play-notes-in-file-8k", "calibre", 8000, "in-file"),
                                     ("s3-play-notes-in-file-24k", "epub2", 24000, "in-file"),
                                     ("s3-play-notes-file-8k", "epub3ncx", 8000, "file"),
                                     ("s3-play-notes-file-24k", "calibre", 24000, "file")]:
        out.append(s3_play(ctx, name, prod, words, where))
    for matter, sizes in (("glossary", (40, 400)), ("index", (300, 2500)), ("series", (40, 160))):
        for n in sizes:
            for where, prod in (("file", "epub3" if n == sizes[0] else "calibre"),
                                ("in-file", "epub2" if n == sizes[0] else "epub3ncx")):
                form = "dl" if (matter == "glossary" and where == "file" and n == sizes[1]) else "bold"
                if matter == "glossary" and where == "in-file" and n == sizes[1]:
                    form = "span"
                out.append(s3_matter(ctx, f"s3-{matter}-{where}-{n}", prod, matter, n, where, form))
    for where, prod in (("file", "epub3"), ("file-in-toc", "epub2"), ("in-file", "calibre"), ("file", "sigil2")):
        out.append(s3_poems(ctx, f"s3-first-lines-{where}-{prod}", prod, where, 45 if prod != "sigil2" else 90))
    out.append(s3_translation_notes(ctx, "s3-translation-notes-5k", "epub3", 5500, True))
    out.append(s3_translation_notes(ctx, "s3-translation-notes-9k-unlisted", "calibre", 9000, False))
    out.append(s3_translation_notes(ctx, "s3-translation-notes-6k-epub2", "epub2", 6000, True))
    out.append(s3_endnotes(ctx, "s3-endnotes-22k", "epub3", 22000))
    out.append(s3_endnotes(ctx, "s3-endnotes-26k-calibre", "calibre", 26000))
    for placement, prod in (("notes-last", "epub3"), ("index-middle", "calibre"), ("appendix-last", "epub2"),
                            ("all-three", "epub3ncx")):
        out.append(s3_essays(ctx, f"s3-essay-{placement}", prod, placement))
    return out


# ----------------------------------------------------------------------------------------------
# s4: tiny books and the navigation document in the spine


def s4_tiny(ctx, name, producer, pages):
    """pages: list of 'tiny' / 'normal'."""
    b = Book(ctx, name, "s4 tiny books", "tiny-" + "-".join(pages), producer, size=f"{len(pages)} pages")
    b.features = [f"{len(pages)}-page book, pages {', '.join(pages)}, every page in the TOC"]
    heard = []
    for i, kind in enumerate(pages, 1):
        path = b.fname(f"page-{i}")
        title = b.prose.title(1, 2) if b.rng.random() < 0.5 else f"Page {i}"
        if kind == "tiny":
            text = b.prose.sentence(3, 6)
            body = b.h(1, title) + "\n" + b.p(text)
            heard.append(text)
        else:
            body = b.h(1, title) + "\n" + b.paras(b.rng.randint(250, 800))
        b.add(path, title, body)
        b.chapter(title, path)
        b.toc.append((title, path, []))
    b.expect = {"heard": heard}
    return b


def s4_nav(ctx, name, producer, hide, position):
    b = Book(ctx, name, "s4 tiny books", f"nav-in-spine-{hide or 'visible'}-{position}", producer, size="3 chapters")
    b.features = [f"navigation document in the spine ({position}), list {hide or 'visible'}"]
    b.nav_in_spine, b.nav_hide = position, hide
    if hide == "class":
        b.css += ".toc-hidden { display: none; }\n"
    if hide == "ol-class":
        b.css += "ol.toc-list-hidden { display:none }\n"
    b.add_titlepage()
    for i in range(1, 4):
        path = b.fname(f"chapter-{i}")
        title = f"Chapter {i}: {b.prose.title()}"
        b.add(path, title, b.chapter_wrap(b.h(2, title) + "\n" + b.paras(b.rng.randint(300, 1200))))
        b.chapter(title, path)
        b.toc.append((title, path, []))
    return b


def s4_books(ctx):
    out = []
    for pages in (["tiny", "normal"], ["normal", "tiny"], ["tiny", "tiny"], ["tiny", "normal", "tiny"]):
        for prod in ("epub3", "epub2"):
            out.append(s4_tiny(ctx, f"s4-tiny-{'-'.join(pages)}-{prod}", prod, pages))
    for hide, pos, prod in (("class", "start", "epub3"), ("ol-class", "start", "epub3ncx"),
                            ("hidden", "start", "epub3"), ("ol-hidden", "end", "epub3"),
                            ("style", "start", "pressbooks"), (None, "start", "epub3"), ("class", "end", "calibre3")):
        out.append(s4_nav(ctx, f"s4-nav-{hide or 'visible'}-{pos}-{prod}", prod, hide, pos))
    return out


# ----------------------------------------------------------------------------------------------
# s5: web and converter clutter


class Clutter:
    """Ids for the regions of one book."""

    def __init__(self, b):
        self.b, self.n = b, 0

    def nid(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"


def s5_book(ctx, name, producer, kinds, nch=5):
    b = Book(ctx, name, "s5 clutter", "+".join(kinds), producer, size=f"{nch} chapters")
    b.features = ["web/converter clutter: " + ", ".join(kinds)]
    cl = Clutter(b)
    b.add_titlepage()
    if producer == "pressbooks":
        b.add_copyright()
    paths = [b.fname(f"chapter-{i:03d}-x") for i in range(1, nch + 1)]
    titles = [b.prose.title() for _ in range(nch)]
    heard, absent, raw_absent = [], [], []
    footnote_file = None
    if "backlink-file" in kinds:
        footnote_file = b.fname("notes")
    fn_num = 0
    fn_rows = []
    if "css-hidden" in kinds:
        b.css += ".print-only { display: none; }\n.hide, .visually-gone { display:none; }\n"
    for i, (path, title) in enumerate(zip(paths, titles), 1):
        hid = f"h{i}"
        parts = []
        top_regions = []
        # things above the heading
        if "listen" in kinds:
            rid = cl.nid("listen")
            if i % 2:
                parts.append(el("div", el("button", "🔊 Listen", type="button", class_="listen-button"),
                                class_="listen-bar", id=rid))
            else:
                audio = f"https://audio.example.org/{slugify(title)}.mp3"
                parts.append(b.p(el("a", "🔊 Listen to this chapter", href=audio),
                                 raw=True, id=rid, class_="tts"))
            top_regions.append((rid, "widget:listen"))
        if "navlinks" in kinds and i % 2 == 0:
            rid = cl.nid("navtop")
            prev_ = paths[i - 2].split("/")[-1]
            parts.append(b.p(el("a", "← Previous", href=prev_) + " | " + el("a", "Contents", href="nav.xhtml") + " | "
                             + (el("a", "Next →", href=paths[i].split("/")[-1]) if i < nch else ""), raw=True,
                             class_="chapter-nav", id=rid))
            top_regions.append((rid, "widget:navigation"))
        if producer == "pressbooks":
            parts.append(el("div", b.p(str(i), class_="chapter-number") + b.h(1, title, class_="chapter-title", id=hid),
                            class_="chapter-title-wrap"))
        else:
            parts.append(b.h(2, title, id=hid))
        for rid, kind in top_regions:
            b.skip(f"{path}#{rid}", kind, f"up to #{hid}")
        if "css-hidden" in kinds:
            rid = cl.nid("hid")
            parts.append(el("div", b.p(f"Summary: {b.prose.sentence(8, 16)}"), class_="hide", id=rid))
            nxt = cl.nid("p")
            b.skip(f"{path}#{rid}", "hidden-by-class", f"up to #{nxt}")
            first_id = nxt
        else:
            first_id = cl.nid("p")
        if "webtoc" in kinds:
            subs = [(f"sec{i}-{j}", b.prose.title()) for j in range(1, 4)]
            items = "".join(el("li", el("a", esc(t), href=f"#{sid}")) for sid, t in subs)
            if i % 2:
                rid = cl.nid("ctoc")
                parts.append(el("div", b.p("Contents", class_="toc-title") + el("ul", items), class_="chapter-toc",
                                id=rid))
                b.skip(f"{path}#{rid}", "chapter-toc", f"up to #{first_id}")
            else:
                parts.append(el("nav", el("h3", "In this chapter") + el("ul", items), class_="toc"))
        else:
            subs = []
        # the text
        paras = b.prose.paragraphs(b.rng.randint(1200, 2200))
        sub_at = {len(paras) * j // 4 + 5: sub for j, sub in enumerate(subs)}
        blocks = []
        for k, t in enumerate(paras):
            pid = first_id if k == 0 else cl.nid("p")
            if k in sub_at:
                blocks.append(b.h(3, sub_at[k][1], id=sub_at[k][0]))
            if k == 0 and "dropcap" in kinds:
                words = t.split()
                w0 = words[0]
                while len(w0) < 3 or not w0.isalpha():
                    w0 = b.prose.cap(b.rng.choice(b.prose.content))
                words[0] = w0
                t = " ".join(words)
                heard.append(" ".join(words[:3]))
                style = i % 3
                if style == 0:
                    inner = el("span", w0[0], class_="dropcap") + esc(w0[1:].upper() + " " + " ".join(words[1:]))
                elif style == 1:
                    inner = (el("span", w0[0], class_="dropcap")
                             + el("span", esc(w0[1:] + " " + words[1]), class_="smcap")
                             + " " + esc(" ".join(words[2:])))
                else:
                    src = b.img_src(path, b.image(f"dropcap-{w0[0].lower()}.png"))
                    inner = (f'<img class="dropcap" src="{src}" alt="{esc(w0[0])}"/>'
                             + esc(w0[1:] + " " + " ".join(words[1:])))
                blocks.append(b.p(inner, raw=True, id=pid, class_="first"))
                continue
            if "notelink" in kinds and k % 4 == 2:
                fn_num += 1
                words = t.rstrip(".?!").split()
                last = words[-1].rstrip(",")
                # Word: <a href="#_ftn1" id="_ftnref1">; LibreOffice: <a id="sdfootnote1anc" href="#sdfootnote1sym">
                ref_id, target = ((f"_ftnref{fn_num}", f"_ftn{fn_num}") if i % 2 == 0
                                  else (f"sdfootnote{fn_num}anc", f"sdfootnote{fn_num}sym"))
                link = el("a", f"note {fn_num}", href=f"#{target}", id=ref_id)
                blocks.append(b.p(esc(t) + link, raw=True, id=pid))
                b.skip(f"{path}#{ref_id}", f"note-link:{fn_num}", f'ends "note {fn_num}"')
                absent.append(f"{last} note")
                fn_rows.append((fn_num, path))
                continue
            if "backlink-file" in kinds and k % 5 == 3:
                fn_num += 1
                notes_base = footnote_file.split("/")[-1]
                ref = el("a", el("sup", f"[{fn_num}]", class_="calibre5"), href=f"{notes_base}#n{fn_num}",
                         id=f"ref{fn_num}")
                blocks.append(b.p(esc(t) + ref, raw=True, id=pid))
                fn_rows.append((fn_num, path))
                continue
            if "url" in kinds and k % 4 == 1:
                fn_num += 1
                url = f"https://www.{b.prose.term().lower()}.example.org/{slugify(b.prose.phrase(2, 3))}/{fn_num}"
                words = t.split()
                cut = len(words) // 2
                if fn_num % 2:
                    mid = el("a", esc(url), href=url, id=f"url{fn_num}")
                else:
                    mid = el("a", "", id=f"url{fn_num}") + esc(url)
                blocks.append(b.p(esc(" ".join(words[:cut])) + " " + mid + " " + esc(" ".join(words[cut:])), raw=True,
                                  id=pid))
                b.skip(f"{path}#url{fn_num}", f"bare-url:{fn_num}", f'ends "{url}"')
                continue
            blocks.append(b.p(t, id=pid))
            if "audio" in kinds and k == 2:
                rid, nxt = cl.nid("audio"), cl.nid("p")
                url = f"https://openbooks.example.org/{slugify(b.title)}/chapter/{slugify(title)}/#audio-{i}-1"
                blocks.append(b.p("An audio element has been excluded from this version of the text. You can listen to "
                                  "it online here: " + el("a", esc(url), href=url), raw=True, id=rid, class_="textbox"))
                b.skip(f"{path}#{rid}", "widget:excluded-audio", f"up to #{nxt}")
                blocks.append(("PENDING", nxt))
            if "figure" in kinds and k == 4:
                cap = b.prose.sentence(7, 12)
                src = b.img_src(path, b.image(f"fig-{i}.png", (90, 140, 90)))
                alt = esc(cap.rstrip("."))
                if i % 2:
                    blocks.append(el("figure", f'<img src="{src}" alt="{alt}"/>' + el("figcaption", esc(cap))))
                else:
                    blocks.append(el("div", f'<img src="{src}" alt="{alt}"/>' + b.p(cap, class_="wp-caption-text"),
                                     class_="wp-caption aligncenter"))
            if "css-hidden" in kinds and k == 3:
                rid, nxt = cl.nid("po"), cl.nid("p")
                blocks.append(b.p(f"See the plate facing page {b.rng.randint(10, 300)} of the printed edition: "
                                  f"{b.prose.sentence(5, 10)}", id=rid, class_="print-only"))
                b.skip(f"{path}#{rid}", "hidden-by-class", f"up to #{nxt}")
                blocks.append(("PENDING", nxt))
        # resolve the ids of paragraphs that follow a region
        resolved, want = [], None
        for blk in blocks:
            if blk is None:
                continue
            if isinstance(blk, tuple):
                want = blk[1]
                continue
            if want and blk.startswith("<p") and 'id="' in blk[:80]:
                blk = re.sub(r' id="[^"]*"', f' id="{want}"', blk, count=1)
                want = None
            resolved.append(blk)
        if want:
            resolved.append(el("div", "", id=want))
        parts += resolved
        if "notelink" in kinds:
            mine = [n for n, p in fn_rows if p == path]
            if mine:
                word_style = i % 2 == 0
                rows = []
                for n in mine:
                    text = b.prose.sentence(8, 20)
                    if word_style:
                        back = el("a", f"[{n}]", href=f"#_ftnref{n}", id=f"_ftn{n}")
                        rows.append(el("div", b.p(back + " " + esc(text), raw=True, class_="MsoFootnoteText"),
                                       id=f"ftn{n}"))
                    else:
                        back = el("a", str(n), href=f"#sdfootnote{n}anc", id=f"sdfootnote{n}sym",
                                  class_="sdfootnotesym")
                        rows.append(el("div", b.p(back + esc(text), raw=True, class_="sdfootnote"),
                                       id=f"sdfootnote{n}"))
                rid = cl.nid("fns")
                parts.append(el("div", "<hr/>" + "".join(rows), id=rid))
                b.skip(f"{path}#{rid}", "footnotes",
                       "footnote bodies at the end of the chapter (Word/LibreOffice markup)")
        if "navlinks" in kinds:
            rid = cl.nid("navbot")
            prev_l = el("a", f"← Previous: {titles[i - 2]}", href=paths[i - 2].split("/")[-1]) if i > 1 else ""
            next_l = el("a", f"Next: {titles[i]} →", href=paths[i].split("/")[-1]) if i < nch else ""
            if i % 3 == 0:
                parts.append(el("nav", el("div", prev_l, class_="previous") + el("div", next_l, class_="next"),
                                class_="nav-reading", id=rid))
            else:
                parts.append(el("div", prev_l + " " + next_l, class_="nav-links", id=rid))
            b.skip(f"{path}#{rid}", "widget:navigation", "previous/next links at the end of the chapter")
        b.add(path, title, b.chapter_wrap("\n".join(parts), sid=f"chapter-{slugify(title)}"))
        b.chapter(title, f"{path}#{hid}" if top_regions else path)
        b.toc.append((title, path, []))
    if "backlink-file" in kinds:
        rows = [b.p(el("a", f"[←{n}]", href=f"{p.split('/')[-1]}#ref{n}", id=f"n{n}") + " "
                    + esc(b.prose.sentence(10, 30)), raw=True) for n, p in fn_rows]
        b.add(footnote_file, "Notes", "\n".join(rows), "back", "footnotes")
        # the notes file was named first: put it last in the spine
    if "listen" in kinds:
        raw_absent.append("🔊")
    b.expect = {k: v for k, v in (("heard", heard), ("absent", absent), ("raw_absent", raw_absent)) if v}
    return b


S5_SETS = [
    ("navlinks", ["navlinks"]), ("listen", ["listen"]), ("audio", ["audio"]), ("url", ["url"]),
    ("figure", ["figure"]), ("webtoc", ["webtoc"]), ("dropcap", ["dropcap"]), ("notelink", ["notelink"]),
    ("backlink-file", ["backlink-file"]), ("css-hidden", ["css-hidden"]),
    ("pressbooks-all", ["navlinks", "listen", "audio", "url", "figure", "webtoc"]),
]


def s5_books(ctx):
    out = []
    for tag, kinds in S5_SETS:
        prods = {"backlink-file": ("calibre", "calibre3"), "notelink": ("word", "epub3"),
                 "dropcap": ("calibre", "epub3", "sigil2")}.get(tag, ("pressbooks", "epub2"))
        for prod in prods:
            out.append(s5_book(ctx, f"s5-{tag}-{prod}", prod, kinds))
    return out


# ----------------------------------------------------------------------------------------------
# s7: citations


def cite_forms(b, lang):
    """(form, citation, name kept in prose or '') in the forms of issue 31, numbers drawn at random."""
    r = b.rng
    A, B = r.choice(SURNAMES[lang]), r.choice(SURNAMES[lang])
    Y, n, m = r.randint(1850, 2022), r.randint(3, 400), r.randint(1, 40)
    rv = roman(r.randint(1, 8), True)
    if lang == "en":
        forms = [("author-year", f"({A} {Y})"), ("author-year-page", f"({A} {Y}, p. {n})"),
                 ("two-authors-year:page", f"({A} and {B} {Y}: {n})"),
                 ("author-title-volume", f"({A}, {b.prose.title()}, {rv}. {n})"),
                 ("author-year-volume", f"({A} {Y}, {rv}. {n})"), ("op-cit-volume", f"(op. cit., {rv}. {n})"),
                 ("ibid", f"(ibid., p. {n})"), ("author-op-cit", f"({A}, op. cit., p. {n})"),
                 ("archival", f"(National Archives, CO {n}/{m}, fol. {m}r)"), ("see-author-year", f"(see {A} {Y})"),
                 ("cf-author-year-pages", f"(cf. {A} {Y}, pp. {n}–{n + m})"),
                 ("two-citations", f"({A} {Y}; {B} {Y + m})")]
        named = [("name-(year:page)", f"({Y}: {n})"), ("name-(year, page)", f"({Y}, p. {n})"),
                 ("name-(year)", f"({Y})")]
    elif lang == "de":
        forms = [("stadtarchiv", f"(Stadtarchiv {r.choice(CITIES)}, Akte {m}, Nr. {n})"),
                 ("landesarchiv-fol", f"(Landesarchiv, Best. {m}, fol. {n}r)"), ("ebd", f"(ebd., S. {n})"),
                 ("a-a-O", f"(a. a. O., S. {n})"), ("vgl-author-year:page-f", f"(vgl. {A} {Y}: {n} f.)"),
                 ("authors/slash-year:page-ff", f"({A}/{B} {Y}: {n} ff.)"), ("author-year-S", f"({A} {Y}, S. {n})"),
                 ("bundesarchiv-Bl", f"(Bundesarchiv, R {m}/{n}, Bl. {m + 3})"), ("vgl-ebd", f"(vgl. ebd., S. {n} f.)"),
                 ("author-year:page", f"({A} {Y}: {n})")]
        named = [("name-(year:page ff.)", f"({Y}: {n} ff.)"), ("name-(year, S.)", f"({Y}, S. {n})"),
                 ("name-(year)", f"({Y})")]
    else:
        forms = [("voir-art-cit", f"(voir {A}, art. cit., p. {n})"),
                 ("author-year-tome-roman-pages",
                  f"({A}, {Y}, t. {roman(r.randint(1, 6))}, p. {rv}-{roman(r.randint(9, 30), True)})"),
                 ("reglement-art", f"(Règlement intérieur, {Y}, art. {m})"), ("ibid", f"(ibid., p. {n})"),
                 ("author-op-cit", f"({A}, op. cit., p. {n})"),
                 ("archives-nationales", f"(Archives nationales, F/{m}/{n})"),
                 ("author-year-page", f"({A}, {Y}, p. {n})"), ("cf-author-year-page", f"(cf. {A}, {Y}, p. {n})"),
                 ("author-year:page", f"({A} {Y} : {n})")]
        named = [("name-(year, p.)", f"({Y}, p. {n})"), ("name-(year)", f"({Y})")]
    if r.random() < 0.25:
        form, cite = r.choice(named)
        return form, cite, A
    form, cite = r.choice(forms)
    return form, cite, ""


def keep_forms(b, lang):
    r = b.rng
    y, d = r.randint(1700, 1880), r.randint(20, 80)
    return {
        "en": [f"(c. {y})", f"({y}–{y + d})", f"({r.randint(2, 9)} shillings a week)",
               f"under section {r.randint(2, 40)} of the Factory Act"],
        "de": [f"(um {y})", f"({r.randint(2, 9)} Mark pro Tag)", f"({y}–{y + d})",
               f"nach § {r.randint(100, 900)} BGB"],
        "fr": [f"(vers {y})", f"({r.randint(2, 9)} francs par jour)", f"({y}-{y + d})",
               f"selon l'article {r.randint(100, 2000)} du Code civil"],
    }[lang]


def s7_book(ctx, name, producer, lang, nch, per_ch):
    b = Book(ctx, name, "s7 citations", f"citations-{lang}", producer, lang=lang, size=f"{nch} chapters")
    b.features = [f"academic prose in {lang} with in-text citations"]
    b.add_titlepage()
    cites, keeps = [], []
    k = 0
    for i in range(1, nch + 1):
        path = b.fname(f"chapter-{i}")
        title = f"{i}. {b.prose.title()}"
        blocks = [b.h(2, title)]
        paras = b.prose.paragraphs(per_ch)
        for t in paras:
            sents = re.findall(r"[^.?!]+[.?!]", t)
            out = []
            for s in sents:
                s = s.strip()
                roll = b.rng.random()
                if roll < 0.35:
                    k += 1
                    form, cite, name_ = cite_forms(b, lang)
                    body, end = s[:-1], s[-1]
                    words = body.split()
                    anchor = el("a", "", id=f"cit{k}")
                    if name_:
                        cut = max(1, len(words) // 2)
                        before, after = " ".join(words[:cut]), " ".join(words[cut:])
                        out.append(esc(before) + " " + esc(name_) + " " + anchor + esc(cite) + " " + esc(after) + end)
                        cites.append({"form": form, "cite": cite, "before": " ".join(f"{before} {name_}".split()[-4:]),
                                      "after": " " + " ".join(after.split()[:3]) if after else end})
                    else:
                        out.append(esc(body) + " " + anchor + esc(cite) + end)
                        cites.append({"form": form, "cite": cite, "before": " ".join(body.split()[-4:]), "after": end})
                    b.skip(f"{path}#cit{k}", f"citation:{k}", f'ends "{cite}"')
                elif roll < 0.45:
                    keep = b.rng.choice(keep_forms(b, lang))
                    body, end = s[:-1], s[-1]
                    words = body.split()
                    cut = max(1, len(words) // 2)
                    out.append(esc(" ".join(words[:cut]) + " " + keep + " " + " ".join(words[cut:]) + end))
                    keeps.append(keep)
                else:
                    out.append(esc(s))
            blocks.append(b.p(" ".join(out), raw=True))
        b.add(path, title, b.chapter_wrap("\n".join(blocks)))
        b.chapter(title, path)
        b.toc.append((title, path, []))
    b.probe["citations"] = cites
    b.probe["keep"] = keeps
    return b


def s7_books(ctx):
    out = []
    for lang in LANGS:
        for prod, nch, per in (("epub3", 4, 1500), ("epub2", 6, 2500), ("calibre", 3, 1200)):
            out.append(s7_book(ctx, f"s7-citations-{lang}-{prod}", prod, lang, nch, per))
    return out


# ----------------------------------------------------------------------------------------------


class Context:
    def __init__(self, seed, vocab):
        self.seed, self.vocab = seed, vocab


def all_books(ctx):
    books = [s1_book(ctx, m, s) for m in S1_MODES for s in S1_SIZES]
    books += [s2_book(ctx, m, s) for m in S2_MODES for s in S2_SIZES]
    books += s3_books(ctx) + s4_books(ctx) + s5_books(ctx) + s7_books(ctx)
    return books


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=31)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--corpus", default=os.path.normpath(os.path.join(here, "..", "..", "shared", "corpus")),
                    help="labelled corpus whose books give the vocabulary (default ../shared/corpus)")
    a = ap.parse_args()
    vocab = corpus_vocabulary(a.corpus)
    ctx = Context(a.seed, vocab)
    for sub in ("real", "stripped"):
        os.makedirs(os.path.join(a.out, sub), exist_ok=True)
    real, stripped = {}, {}
    per = Counter()
    for b in all_books(ctx):
        label = b.write(a.out)
        real[b.name + ".epub"] = label
        copy = json.loads(json.dumps(label))
        copy["file"] = f"stripped/{b.name}.epub"
        for item in copy["spine"]:
            item["linear"] = True                          # strip_semantics drops linear="no"
        stripped[b.name + ".epub"] = copy
        per[b.structure] += 1
    with open(os.path.join(a.out, "labels.json"), "w") as f:
        json.dump({"real": real, "stripped": stripped}, f, ensure_ascii=False, indent=1)
    print(f"wrote {len(real)} books (+ stripped copies) into {a.out}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(per.items())))


if __name__ == "__main__":
    main()
