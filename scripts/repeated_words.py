#!/usr/bin/env python3
"""Words spoken more than once: the spoken book must be a partition of the spine's text.

Usage: scripts/repeated_words.py BIN BOOK_OR_FOLDER... [--all-sections] [--ngram N] [--verbose]
  e.g. scripts/repeated_words.py .build/release/epub2audio ../shared/corpus/real

For each book, the sections read are exported as the text they speak (`BIN BOOK --text
--no-normalize -o DIR`; with --all-sections every section, read or skipped: `--chapters 1-`, which
checks that the sections are a partition of the spine), and compared with the book's own
text, independently of epub2audio: every spine item's body with its markup stripped, image
descriptions kept (a file the spine lists twice counts once). A run of N words (default 10) that is spoken more often than it
stands in the book is text spoken twice; the words it covers beyond the book's own count are
reported. Section titles (shorter than N words) and notices do not count; a title of N words or
more that repeats a heading the section reads is counted: it is heard twice.

The last line is `REPEATED books=B words=W spoken=S` (W words spoken more than once, S spoken in
all); the exit status is 1 when W > 0. Nothing is written outside a temporary folder.
"""
import html
import os
import posixpath
import re
import subprocess
import sys
import tempfile
import unicodedata
import urllib.parse
import zipfile
from collections import Counter

BLOCK_TAG = re.compile(r"</?(p|div|h[1-6]|li|ul|ol|dl|dt|dd|table|caption|tr|td|th|blockquote|section|article|aside|"
                       r"header|footer|nav|figure|figcaption|pre|address|main|body|br|hr)\b[^>]*>", re.I)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def tokens(text):
    """Case-folded words (runs of letters and combining marks, as the judge counts them); every
    CJK character is a word of its own."""
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf").casefold()
    out, word = [], []
    for c in text:
        if CJK.match(c):
            if word:
                out.append("".join(word))
                word = []
            out.append(c)
        elif unicodedata.category(c)[0] in "LM":
            word.append(c)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def spine_texts(epub):
    """The text of each distinct spine item, markup stripped (scripts, styles and heads dropped)."""
    with zipfile.ZipFile(epub) as z:
        container = z.read("META-INF/container.xml").decode("utf-8", "replace")
        opf_path = re.search(r'full-path\s*=\s*["\']([^"\']+)["\']', container).group(1)
        opf = z.read(opf_path).decode("utf-8", "replace")
        folder = posixpath.dirname(opf_path)
        hrefs = {}
        for item in re.findall(r"<(?:\w+:)?item\b[^>]*>", opf):
            ident = re.search(r'\sid\s*=\s*["\']([^"\']*)["\']', item)
            href = re.search(r'\shref\s*=\s*["\']([^"\']*)["\']', item)
            if ident and href:
                hrefs[ident.group(1)] = href.group(1)
        seen, texts = set(), []
        for idref in re.findall(r'<(?:\w+:)?itemref\b[^>]*\sidref\s*=\s*["\']([^"\']*)["\']', opf):
            href = hrefs.get(idref)
            if href is None or href in seen:
                continue
            seen.add(href)
            name = posixpath.normpath(posixpath.join(folder, urllib.parse.unquote(href)))
            try:
                data = z.read(name).decode("utf-8", "replace")
            except KeyError:
                continue
            data = re.sub(r"<(head|script|style|rt|rp)\b[^>]*>.*?</\1\s*>", " ", data, flags=re.S | re.I)
            # Inline elements join without a space (a drop cap <span>T</span>he is one word); block
            # boundaries split words.
            data = BLOCK_TAG.sub(" ", data)
            # An image's description is the book's text too (read as "Image: ..."): a caption that
            # quotes the prose is in the book twice.
            data = re.sub(r"<img\b[^>]*?\salt\s*=\s*(\"[^\"]*\"|'[^']*')[^>]*>", lambda m: " " + m.group(1)[1:-1] + " ",
                          data, flags=re.I)
            texts.append(html.unescape(re.sub(r"<[^>]*>", "", data)))
        return texts


def spoken_text(binary, epub, folder, all_sections):
    """The text of the sections read (or of every section), in order, as epub2audio would speak it
    (unnormalised)."""
    out = os.path.join(folder, "text")
    command = [binary, epub, "--text", "--no-normalize", "-o", out, "-q"]
    run = subprocess.run(command + (["--chapters", "1-"] if all_sections else []),
                         capture_output=True, text=True, timeout=900)
    if run.returncode != 0 or not os.path.isdir(out):
        return None, run.stderr.strip().splitlines()[-1:] or [f"exit {run.returncode}"]
    parts = []
    for name in sorted(os.listdir(out)):
        if name.endswith(".txt"):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                parts.append((name, f.read()))
    return parts, None


def repeated(source_texts, spoken_parts, n):
    """Words spoken beyond the book's own count of the N-word runs that hold them, and where."""
    # One stream in spine order: a verse or a sentence runs across a file boundary as the
    # sections run across files.
    words = [w for text in source_texts for w in tokens(text)]
    book = Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))
    spoken, owners = [], []
    for name, text in spoken_parts:
        words = tokens(text)
        spoken += words
        owners += [name] * len(words)
    heard = Counter()
    flagged = [False] * len(spoken)
    for i in range(len(spoken) - n + 1):
        gram = tuple(spoken[i:i + n])
        heard[gram] += 1
        if heard[gram] > book[gram] and book[gram] > 0:
            for k in range(i, i + n):
                flagged[k] = True
    where = Counter(owner for owner, f in zip(owners, flagged) if f)
    return sum(flagged), len(spoken), where


def books(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in sorted(os.walk(path)):
                for name in sorted(names):
                    if name.endswith(".epub"):
                        yield os.path.join(root, name)
        else:
            yield path


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] in ("-h", "--help"):
        print(__doc__)
        sys.exit(2)
    n, verbose, all_sections = 10, False, False
    if "--all-sections" in args:
        args.remove("--all-sections")
        all_sections = True
    if "--ngram" in args:
        i = args.index("--ngram")
        n = int(args[i + 1])
        del args[i:i + 2]
    if "--verbose" in args:
        args.remove("--verbose")
        verbose = True
    binary, paths = args[0], args[1:]
    total_repeated = total_spoken = count = 0
    for epub in books(paths):
        with tempfile.TemporaryDirectory(prefix="e2a-repeated-") as folder:
            parts, error = spoken_text(binary, epub, folder, all_sections)
            if parts is None:
                print(f"{os.path.basename(epub)[:60]:60s}  not converted: {' '.join(error)[:100]}")
                continue
            try:
                source = spine_texts(epub)
            except (KeyError, AttributeError, zipfile.BadZipFile):
                continue
            words, spoken, where = repeated(source, parts, n)
        count += 1
        total_repeated += words
        total_spoken += spoken
        if words or verbose:
            print(f"{os.path.basename(epub)[:60]:60s} {words:8,d} of {spoken:9,d} words spoken more than once")
            for name, k in where.most_common(5):
                print(f"    {k:8,d}  {name}")
    print(f"REPEATED books={count} words={total_repeated} spoken={total_spoken}")
    sys.exit(1 if total_repeated else 0)


if __name__ == "__main__":
    main()
