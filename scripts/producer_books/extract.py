#!/usr/bin/env python3
"""Extracts the chapter texts of five labelled corpus books into <work>/model/<book>.json.

Each model is {title, author, lang, chapters: [{title, blocks: [[kind, text]]}]}, kind "p"
(paragraph, list item, cell, verse line group...) or "h" (a subheading). Note references and
footnotes are left out. The chapter files are read straight from the EPUBs in <corpus>/real.

Usage: extract.py --corpus ../shared/corpus --work /tmp/producer-books
"""
import argparse
import html
import json
import os
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/1999/xhtml}'
EPUB_TYPE = '{http://www.idpf.org/2007/ops}type'
BLOCK_TAGS = {'p', 'li', 'dd', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'pre'}
WORD = re.compile(r'[^\W_]+')


def se_files(stems):
    return [f'epub/text/{s}.xhtml' for s in stems]


# book key -> (title, author, language, corpus EPUB name, chapter files or None, articles file or None)
BOOKS = {
    'timemachine': ('The Time Machine', 'H. G. Wells', 'en', 'se_h-g-wells_the-time-machine',
                    se_files([f'chapter-{i}' for i in range(1, 13)] + ['epilogue']), None),
    'gatsby': ('The Great Gatsby', 'F. Scott Fitzgerald', 'en', 'se_f-scott-fitzgerald_the-great-gatsby',
               se_files([f'chapter-{i}' for i in range(1, 10)]), None),
    'belkin': ('Повести Белкина', 'Александр Пушкин', 'ru', 'pandoc_pushkin_povesti-belkina_ru',
               [f'EPUB/text/ch00{i}.xhtml' for i in range(2, 8)], None),
    'frankenstein': ('Frankenstein', 'Mary Shelley', 'en', 'se_mary-shelley_frankenstein',
                     se_files([f'letter-{i}' for i in range(1, 5)] + [f'chapter-{i}' for i in range(1, 25)]), None),
    'frost': ('North of Boston', 'Robert Frost', 'en', 'se_robert-frost_north-of-boston',
              None, 'epub/text/north-of-boston.xhtml'),
}


def is_note(e):
    marks = (e.get(EPUB_TYPE) or '') + ' ' + (e.get('class') or '')
    return any(k in marks for k in ('noteref', 'footnote', 'endnote'))


def local_name(e):
    return e.tag.replace(NS, '')


def element_text(e):
    """Text of an element without note references, whitespace collapsed."""
    out = []

    def walk(x):
        if is_note(x):
            if x.tail:
                out.append(x.tail)
            return
        if local_name(x) == 'br':
            out.append(' ')
        if x.text:
            out.append(x.text)
        for c in x:
            walk(c)
        if x.tail:
            out.append(x.tail)
    if e.text:
        out.append(e.text)
    for c in e:
        walk(c)
    s = ''.join(out).replace('\u2060', '').replace('\u00ad', '')
    return re.sub(r'\s+', ' ', s).strip()


def collect_blocks(e, acc):
    """Appends [kind, text] for every innermost block element under e."""
    for c in e:
        if is_note(c):
            continue
        tag = local_name(c)
        if tag == 'hgroup':
            acc.append(['h', ' '.join(element_text(x) for x in c)])
            continue
        if tag in BLOCK_TAGS and not any(local_name(g) in BLOCK_TAGS for g in c.iter() if g is not c):
            t = element_text(c)
            if t:
                acc.append(['h' if tag[0] == 'h' and tag[1:].isdigit() else 'p', t])
        else:
            collect_blocks(c, acc)


def parse_xhtml(data):
    s = data.decode('utf-8')
    s = re.sub(r'&(?!amp;|lt;|gt;|quot;|apos;|#)(\w+);', lambda m: html.unescape(m.group(0)), s)
    return ET.fromstring(s.encode())


def chapter_from_blocks(acc, where):
    assert acc[0][0] == 'h', (where, acc[0])
    return {'title': acc[0][1], 'blocks': acc[1:]}


def chapters_from_files(z, files):
    chapters = []
    for f in files:
        acc = []
        collect_blocks(parse_xhtml(z.read(f)).find(NS + 'body'), acc)
        chapters.append(chapter_from_blocks(acc, f))
    return chapters


def chapters_from_articles(z, path):
    chapters = []
    for a in parse_xhtml(z.read(path)).iter(NS + 'article'):
        acc = []
        collect_blocks(a, acc)
        chapters.append(chapter_from_blocks(acc, path))
    return chapters


def main_words(chapters):
    return sum(len(WORD.findall(c['title'])) + sum(len(WORD.findall(b[1])) for b in c['blocks']) for c in chapters)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--corpus', required=True, help='corpus folder holding real/<book>.epub')
    ap.add_argument('--work', required=True, help='work folder (model/ is written there)')
    a = ap.parse_args()
    model_dir = os.path.join(a.work, 'model')
    os.makedirs(model_dir, exist_ok=True)
    for key, (title, author, lang, epub, files, articles) in BOOKS.items():
        path = os.path.join(a.corpus, 'real', epub + '.epub')
        if not os.path.isfile(path):
            sys.exit(f'extract.py: {path} not found (is --corpus the folder holding real/?)')
        with zipfile.ZipFile(path) as z:
            chapters = chapters_from_articles(z, articles) if articles else chapters_from_files(z, files)
        with open(os.path.join(model_dir, key + '.json'), 'w', encoding='utf-8') as f:
            json.dump({'title': title, 'author': author, 'lang': lang, 'chapters': chapters}, f, ensure_ascii=False, indent=0)
        print(key, len(chapters), 'chapters,', main_words(chapters), 'main words')


if __name__ == '__main__':
    main()
