#!/usr/bin/env python3
"""Measures how much of the main text epub2audio reads in every <work>/out/<book>__<variant>.epub.

Words are counted as epub2audio's TextCleaner.wordCount does: maximal runs of Unicode letters and
digits ([^\\W_]+), so "don't" is 2 words. For each book it runs `BIN BOOK --list --json` and
`BIN BOOK --text --no-normalize --chapters 1- -o DIR` (the text of every section, read or not; kept
under <work>/runs/<binary hash>/) and prints one line (columns explained in README.md):

  secs      sections listed           read      sections included
  readW     words of the included sections (sum of the JSON "words") / main-text words expected
  textRecall  share of main-text tokens heard: multiset of the included sections' tokens ∩ main tokens
  chStarts  chapters whose first 10 tokens (title + opening words) lie in an included section
  merged    included sections holding more than one chapter start (#section:chapters)
  fbHeard   added front/back matter (Copyright, Dedication, About the Publisher) that is read

followed by "SKIPPED MAIN:" for every section left out that holds >= 20 words of main text (words
covered by 6-token runs of the chapter texts) and "TITLES:" for read sections with file-like or
generic titles. A book loses main text when it has a SKIPPED MAIN section. Results go to
<work>/results.json. Exits 1 when any book loses main text or the binary fails, listing them last.

Usage: measure.py --work /tmp/producer-books --bin .build/release/epub2audio [filter ...]
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

WORD = re.compile(r'[^\W_]+')
SKIPPED_MAIN_MIN_WORDS = 20
GRAM = 6
BAD_TITLE = re.compile(r'\.x?html?|split|unknown|^part\d|^ch\d|^\d+$|^section \d+$|^untitled', re.I)


def tokens(s):
    return [t.casefold() for t in WORD.findall(s)]


def ngrams(t, n=GRAM):
    return {tuple(t[i:i + n]) for i in range(len(t) - n + 1)}


def binary_cache_dir(work, binary):
    with open(binary, 'rb') as f:
        return os.path.join(work, 'runs', hashlib.sha256(f.read()).hexdigest()[:12])


def load_expectations(work, book):
    with open(f'{work}/srcfmt/{book}.expect.json', encoding='utf-8') as f:
        exp = json.load(f)
    main = [tokens(c) for c in exp['main_text']]
    return {'exp': exp, 'main': main,
            'main_all': Counter(t for c in main for t in c),
            'main_grams': set().union(*[ngrams(c) for c in main]),
            'starts': [tuple(c[:12]) for c in main],  # title + first words
            'fb': [tokens(x) for x in exp['fb_text']]}


def list_sections(binary, epub):
    """(JSON of --list --json, None) or (None, error message)."""
    try:
        r = subprocess.run([binary, epub, '--list', '--json'], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None, '--list --json timed out'
    try:
        return json.loads(r.stdout), None
    except ValueError as e:
        return None, f'--list --json failed rc={r.returncode} {str(e)[:100]} {r.stderr[:200]}'


def section_texts(binary, epub, out_dir):
    """Section number -> text of that section, for every section (read or not)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    subprocess.run([binary, epub, '--text', '--no-normalize', '--chapters', '1-', '-o', out_dir], capture_output=True, timeout=600)
    texts = {}
    for f in os.listdir(out_dir) if os.path.isdir(out_dir) else []:
        m = re.match(r'(\d+) - ', f)
        if m:
            with open(f'{out_dir}/{f}', encoding='utf-8') as fh:
                texts[int(m.group(1))] = fh.read()
    return texts


def main_words_covered(t, main_grams):
    """Tokens of t covered by a 6-token run that occurs in the main text."""
    covered = set()
    for i in range(len(t) - GRAM + 1):
        if tuple(t[i:i + GRAM]) in main_grams:
            covered.update(range(i, i + GRAM))
    return len(covered)


def front_back_heard(E, spoken):
    """Added front/back blocks most of whose distinctive words (not in the main text) are spoken."""
    heard = []
    for i, fb in enumerate(E['fb']):
        distinct = set(x for x in fb if x not in E['main_all'])
        if distinct and sum(1 for x in distinct if spoken[x] > 0) / len(distinct) > 0.5:
            heard.append(f"{E['exp']['fb_text'][i].splitlines()[0]}({len(fb)}w)")
    return heard


def measure_book(binary, epub, name, E, cache):
    """A result row, or None with an error message when the binary fails."""
    J, err = list_sections(binary, epub)
    if J is None:
        return None, err
    texts = section_texts(binary, epub, f'{cache}/{name}/all')
    secs = J['sections']
    spoken = Counter()
    skipped_main, chapter_in, bad_titles = [], {}, []
    for s in secs:
        n = s['number']
        t = tokens(texts.get(n, ''))
        mw = main_words_covered(t, E['main_grams'])
        if s['included']:
            spoken.update(t)
        elif mw >= SKIPPED_MAIN_MIN_WORDS:
            skipped_main.append(f"#{n} {s.get('kind')} '{s.get('title')}' words={s['words']} main≈{mw} reasons={s.get('reasons')}")
        joined = ' '.join(t)
        for ci, st in enumerate(E['starts']):
            if ' '.join(st[:10]) in joined:
                chapter_in.setdefault(ci, []).append(n)
        title = s.get('title') or ''
        if s['included'] and BAD_TITLE.search(title):
            bad_titles.append(f'#{n} {title!r}')
    recall = sum((spoken & E['main_all']).values()) / sum(E['main_all'].values())
    found = sum(1 for ci in range(len(E['starts']))
                if any(secs[n - 1]['included'] for n in chapter_in.get(ci, []) if n - 1 < len(secs)))
    first_holder = {}
    for ci, ns in chapter_in.items():
        first_holder.setdefault(ns[0], []).append(ci)
    merged = [f'#{n}:{len(v)}ch' for n, v in first_holder.items() if len(v) > 1]
    return dict(name=name, sections=len(secs), read=sum(1 for s in secs if s['included']),
                readWords=sum(s['words'] for s in secs if s['included']), main=E['exp']['main_words'],
                recall=recall, fb=front_back_heard(E, spoken), skipped_main=skipped_main,
                chapters=f'{found}/{len(E["starts"])}', merged=merged, titles=bad_titles,
                toc=J.get('tocSource') or J.get('contentsSource')), None


def print_row(r):
    print(f"{r['name']:58s} secs={r['sections']:3d} read={r['read']:3d} readW={r['readWords']:6d}/{r['main']:6d} "
          f"({r['readWords'] / r['main'] * 100:5.1f}%) textRecall={r['recall'] * 100:5.1f}% chStarts={r['chapters']} "
          f"merged={r['merged'] or '-'} fbHeard={r['fb'] or '-'}", flush=True)
    for b in r['skipped_main']:
        print('     SKIPPED MAIN:', b)
    if r['titles']:
        print('     TITLES:', r['titles'][:6])


def print_summary(rows, failed):
    losing = [r for r in rows if r['skipped_main']]
    books = len(rows) + len(failed)
    mean = sum(r['recall'] for r in rows) / len(rows) * 100 if rows else 0.0
    print(f'\nSUMMARY: {books} books, {len(losing)} lose main text, {len(failed)} failed to run, '
          f'mean textRecall {mean:.2f}%, {sum(1 for r in rows if r["fb"])} read added front/back matter')
    for name, err in failed:
        print('FAIL', f'{name}: {err}')
    for r in losing:
        lost = sum(int(re.search(r'main≈(\d+)', b).group(1)) for b in r['skipped_main'])
        print(f"LOSES MAIN TEXT {r['name']}: {len(r['skipped_main'])} section(s), ≈{lost} main words, textRecall {r['recall'] * 100:.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--work', required=True, help='work folder holding out/ and srcfmt/')
    ap.add_argument('--bin', required=True, help='epub2audio binary to measure')
    ap.add_argument('filters', nargs='*', help='measure only books whose name contains one of these')
    a = ap.parse_args()
    work, binary = os.path.abspath(a.work), os.path.abspath(a.bin)
    cache = binary_cache_dir(work, binary)
    epubs = sorted(glob.glob(f'{work}/out/*.epub'))
    if not epubs:
        sys.exit(f'measure.py: no books in {work}/out (build them first)')
    rows, failed, expectations = [], [], {}
    for epub in epubs:
        name = os.path.basename(epub)[:-5]
        if a.filters and not any(o in name for o in a.filters):
            continue
        book = name.split('__', 1)[0]
        if book not in expectations:
            expectations[book] = load_expectations(work, book)
        row, err = measure_book(binary, epub, name, expectations[book], cache)
        if row is None:
            failed.append((name, err))
            continue
        rows.append(row)
        print_row(row)
    with open(f'{work}/results.json', 'w', encoding='utf-8') as f:
        json.dump(rows + [{'name': n, 'error': e} for n, e in failed], f, ensure_ascii=False, indent=1)
    print_summary(rows, failed)
    sys.exit(1 if failed or any(r['skipped_main'] for r in rows) else 0)


if __name__ == '__main__':
    main()
