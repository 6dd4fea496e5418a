#!/usr/bin/env python3
"""Writes every producer's source files from <work>/model/*.json into <work>/srcfmt/<book>/.

Each book gets invented front matter (Copyright, Dedication) and back matter (About the Publisher)
around its chapters, and is written as: book.md, book_parts.md (chapters under two parts),
plainfront.md (no pandoc attributes), plain.md (no metadata block, for calibre), book_h.html
(<h1>/<h2> headings), book_pclass.html (<p class=...> headings), book_bold.html (<p><b> headings),
book.txt, sphinx/ (reStructuredText project), book.dbk and book_parts.dbk (DocBook 5), book.adoc.
<work>/srcfmt/<book>.expect.json holds what the measurement compares against: main_words, the
chapter titles, the main text of each chapter, and the text of the added front and back matter.

Usage: gen.py --work /tmp/producer-books
"""
import argparse
import html
import json
import os
import re

FRONT_EN = {
    'copyright': ['Copyright © 2024 Quillfeather Press Limited. All rights reserved. No part of this publication may be reproduced without written permission of the publisher.',
                  'ISBN 978-0-00-000000-0. Typeset by Quillfeather Press in Lowestoft. Printed in Narnia.'],
    'dedication': ['For Marguerite Oxleigh, who kept the lamp burning.'],
    'about': ['Quillfeather Press was founded in Lowestoft by volunteers who believe in affordable classics. Its editors live near the harbour and publish twelve titles each year.',
              'Visit our bookshop for more titles by this author.']}
FRONT_RU = {
    'copyright': ['© 2024 Издательство Перо и Свиток. Все права защищены. Никакая часть этой книги не может быть воспроизведена без письменного разрешения издателя.',
                  'ISBN 978-5-00-000000-0. Отпечатано в типографии Перо.'],
    'dedication': ['Посвящается Маргарите Оксли, хранившей лампу.'],
    'about': ['Издательство Перо и Свиток основано добровольцами, которые верят в доступную классику. Его редакторы живут у гавани и выпускают двенадцать книг в год.',
              'Посетите наш магазин, чтобы найти другие книги автора.']}
LABELS_EN = {'copyright': 'Copyright', 'dedication': 'Dedication', 'about': 'About the Publisher', 'contents': 'Contents'}
LABELS_RU = {'copyright': 'Авторские права', 'dedication': 'Посвящение', 'about': 'Об издательстве', 'contents': 'Содержание'}
WORD = re.compile(r'[^\W_]+')
ATTRS = re.compile(r' \{[^}\n]*\}')


def esc(s):
    return html.escape(s, quote=False)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def load_book(model_dir, key):
    """The model plus the front/back matter texts and labels in its language."""
    with open(f'{model_dir}/{key}.json', encoding='utf-8') as f:
        b = json.load(f)
    if key == 'timemachine':  # SE titles are bare roman numerals
        for c in b['chapters']:
            if c['title'] != 'Epilogue':
                c['title'] = 'Chapter ' + c['title']
    ru = b['lang'] == 'ru'
    return b, (FRONT_RU if ru else FRONT_EN), (LABELS_RU if ru else LABELS_EN)


def count_main_words(b):
    return sum(len(WORD.findall(c['title'])) + sum(len(WORD.findall(t)) for _, t in c['blocks']) for c in b['chapters'])


def write_expectations(path, b, fm, lab):
    expect = {'main_words': count_main_words(b),
              'chapters': [c['title'] for c in b['chapters']],
              'main_text': [c['title'] + '\n' + '\n'.join(t for _, t in c['blocks']) for c in b['chapters']],
              'fb_text': [lab[x] + '\n' + '\n'.join(fm[x]) for x in ('copyright', 'dedication', 'about')]}
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(expect, f, ensure_ascii=False)


def md_text(t):
    return t.replace('*', '\\*').replace('#', '\\#')


def markdown_parts(b, fm, lab):
    """book.md as a list: [metadata, copyright, dedication, chapter lines..., about]."""
    md = [f'---\ntitle: "{b["title"]}"\nauthor: "{b["author"]}"\nlang: {b["lang"]}\nrights: "{fm["copyright"][0]}"\n---\n']
    md.append(f'# {lab["copyright"]} {{.unnumbered epub:type=copyright-page}}\n\n' + '\n\n'.join(fm['copyright']) + '\n')
    md.append(f'# {lab["dedication"]} {{.unnumbered epub:type=dedication}}\n\n' + '\n\n'.join(fm['dedication']) + '\n')
    for c in b['chapters']:
        md.append(f'# {c["title"]}\n')
        for kind, t in c['blocks']:
            md.append(('## ' + t if kind == 'h' else md_text(t)) + '\n')
    md.append(f'# {lab["about"]} {{.unnumbered epub:type=backmatter}}\n\n' + '\n\n'.join(fm['about']) + '\n')
    return md


def markdown_with_parts(b, md):
    """Chapters become level 2 under two level-1 parts ("Part One", "Part Two")."""
    half = (len(b['chapters']) + 1) // 2
    mp = [md[0], md[1], md[2]]
    for i, c in enumerate(b['chapters']):
        if i in (0, half):
            mp.append('# Part ' + ('One' if i == 0 else 'Two') + '\n')
        mp.append(f'## {c["title"]}\n')
        for kind, t in c['blocks']:
            mp.append(('### ' + t if kind == 'h' else md_text(t)) + '\n')
    mp.append(md[-1])
    return '\n'.join(mp)


def write_markdown(d, b, fm, lab):
    md = markdown_parts(b, fm, lab)
    write(f'{d}/book.md', '\n'.join(md))
    write(f'{d}/book_parts.md', markdown_with_parts(b, md))
    write(f'{d}/plainfront.md', md[0].replace('rights:', 'subject:') + '\n' + ATTRS.sub('', '\n'.join(md[1:])))
    write(f'{d}/plain.md', ATTRS.sub('', '\n'.join(md[1:])))


def html_heading(style, level, t, cls):
    if style == 'h':
        return f'<h{level}>{esc(t)}</h{level}>'
    if style == 'pclass':
        return f'<p class="{cls}">{esc(t)}</p>'
    return f'<p><b>{esc(t)}</b></p>'  # bold


def html_document(b, fm, lab, style):
    T, A, L = b['title'], b['author'], b['lang']
    out = [f'<!DOCTYPE html>\n<html lang="{L}"><head><meta charset="utf-8"/><title>{esc(T)}</title><meta name="author" content="{esc(A)}"/></head><body>']
    out.append(f'<p class="title">{esc(T)}</p><p class="author">{esc(A)}</p>')
    for key in ('copyright', 'dedication'):
        out.append(html_heading(style, 1, lab[key], 'front-heading'))
        out += [f'<p>{esc(x)}</p>' for x in fm[key]]
    for c in b['chapters']:
        page_break = '<div style="page-break-before: always"></div>' if style != 'h' else ''
        out.append(page_break + html_heading(style, 1, c['title'], 'chapter-heading'))
        for kind, t in c['blocks']:
            out.append(html_heading(style, 2, t, 'sub-heading') if kind == 'h' else f'<p>{esc(t)}</p>')
    out.append(html_heading(style, 1, lab['about'], 'back-heading'))
    out += [f'<p>{esc(x)}</p>' for x in fm['about']]
    out.append('</body></html>\n')
    return '\n'.join(out)


def write_html(d, b, fm, lab):
    for style in ('h', 'pclass', 'bold'):
        write(f'{d}/book_{style}.html', html_document(b, fm, lab, style))


def write_text(d, b, fm, lab):
    txt = [b['title'], b['author'], '', lab['copyright'], ''] + fm['copyright'] + ['', lab['dedication'], ''] + fm['dedication'] + ['']
    for c in b['chapters']:
        txt += ['', '', c['title'], '']
        for _, t in c['blocks']:
            txt += [t, '']
    txt += ['', '', lab['about'], ''] + fm['about']
    write(f'{d}/book.txt', '\n'.join(txt) + '\n')


def rst_heading(t, ch):
    return t + '\n' + ch * max(len(t) * 2, 4) + '\n'


def rst_escape(t):
    return re.sub(r'([*`|_\\])', r'\\\1', t)


def write_sphinx(d, b, fm, lab):
    """A Sphinx project; conf.py turns the index on or off from the IDX environment variable."""
    sd = f'{d}/sphinx'
    toctree = ('.. toctree::\n   :maxdepth: 2\n   :caption: ' + lab['contents'] + '\n\n   copyright\n   dedication\n'
               + ''.join(f'   ch{i:02d}\n' for i in range(len(b['chapters']))) + '   about\n')
    write(f'{sd}/index.rst', '\n'.join([rst_heading(b['title'], '#'), toctree]))
    for key in ('copyright', 'dedication', 'about'):
        write(f'{sd}/{key}.rst', rst_heading(lab[key], '=') + '\n' + '\n\n'.join(fm[key]) + '\n')
    for i, c in enumerate(b['chapters']):
        s = [f'.. index:: {c["title"]}\n', rst_heading(c['title'], '=')]
        for kind, t in c['blocks']:
            s.append(rst_heading(rst_escape(t), '-') if kind == 'h' else rst_escape(t) + '\n')
        write(f'{sd}/ch{i:02d}.rst', '\n'.join(s))
    write(f'{sd}/conf.py', f'project = {b["title"]!r}\nauthor = {b["author"]!r}\ncopyright = "2024, Quillfeather Press"\nlanguage = {b["lang"]!r}\n'
          'epub_basename = "book"\nimport os\nepub_use_index = os.environ.get("IDX","1")=="1"\nepub_show_urls = "no"\n')


def docbook_paras(texts):
    return ''.join(f'<para>{esc(p)}</para>' for p in texts)


def docbook_chapter(c):
    x = [f'<chapter><title>{esc(c["title"])}</title><indexterm><primary>{esc(c["title"])}</primary></indexterm>']
    in_section = False
    for kind, t in c['blocks']:
        if kind == 'h':
            if in_section:
                x.append('</section>')
            x.append(f'<section><title>{esc(t)}</title>')
            in_section = True
        else:
            x.append(f'<para>{esc(t)}</para>')
    if in_section:
        x.append('</section>')
    x.append('</chapter>')
    return x


def docbook_document(b, fm, lab, parts):
    x = [f'<?xml version="1.0" encoding="utf-8"?>\n<book xmlns="http://docbook.org/ns/docbook" version="5.0" xml:lang="{b["lang"]}"><info><title>{esc(b["title"])}</title>'
         f'<author><personname>{esc(b["author"])}</personname></author><copyright><year>2024</year><holder>Quillfeather Press</holder></copyright>'
         f'<legalnotice>{docbook_paras(fm["copyright"])}</legalnotice></info>']
    x.append(f'<dedication><title>{esc(lab["dedication"])}</title>' + docbook_paras(fm['dedication']) + '</dedication>')
    chapters = b['chapters']
    half = (len(chapters) + 1) // 2
    for i, c in enumerate(chapters):
        if parts and i in (0, half):
            x.append(('</part>' if i else '') + f'<part><title>Part {"One" if i == 0 else "Two"}</title>')
        x += docbook_chapter(c)
    if parts:
        x.append('</part>')
    x.append(f'<appendix><title>{esc(lab["about"])}</title>' + docbook_paras(fm['about']) + '</appendix><index/></book>\n')
    return '\n'.join(x)


def write_docbook(d, b, fm, lab):
    write(f'{d}/book.dbk', docbook_document(b, fm, lab, False))
    write(f'{d}/book_parts.dbk', docbook_document(b, fm, lab, True))


def write_asciidoc(d, b, fm, lab):
    ad = [f'= {b["title"]}\n{b["author"]}\n:doctype: book\n:lang: {b["lang"]}\n:toc:\n',
          f'[colophon]\n== {lab["copyright"]}\n\n' + '\n\n'.join(fm['copyright']) + '\n',
          f'[dedication]\n== {lab["dedication"]}\n\n' + '\n\n'.join(fm['dedication']) + '\n']
    for c in b['chapters']:
        ad.append(f'== {c["title"]}\n')
        for kind, t in c['blocks']:
            ad.append(('=== ' + t if kind == 'h' else '+++' + esc(t) + '+++') + '\n')
    ad.append(f'[appendix]\n== {lab["about"]}\n\n' + '\n\n'.join(fm['about']) + '\n')
    ad.append('[index]\n== Index\n')
    write(f'{d}/book.adoc', '\n'.join(ad))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--work', required=True, help='work folder holding model/ (srcfmt/ is written there)')
    a = ap.parse_args()
    model_dir, out_dir = os.path.join(a.work, 'model'), os.path.join(a.work, 'srcfmt')
    for name in sorted(os.listdir(model_dir)):
        key = name[:-5]
        b, fm, lab = load_book(model_dir, key)
        d = f'{out_dir}/{key}'
        os.makedirs(d, exist_ok=True)
        write_expectations(f'{d}.expect.json', b, fm, lab)
        for writer in (write_markdown, write_html, write_text, write_sphinx, write_docbook, write_asciidoc):
            writer(d, b, fm, lab)
        print(key, 'ok')


if __name__ == '__main__':
    main()
