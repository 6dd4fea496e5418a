#!/bin/bash
# Builds every producer variant of every book into <work>/out/<book>__<variant>.epub.
#
# Reads the sources gen.py wrote to <work>/srcfmt/<book>/ and uses <work>/tmp for intermediate files.
# Producers: pandoc, LibreOffice (soffice), calibre (ebook-convert; also from FB2/RTF/ODT and through
# AZW3/MOBI), Sphinx, DocBook-XSL (xsltproc), asciidoctor (DocBook 5 then DocBook-XSL), libe-book's
# ebook2epub (from pandoc's FB2). A producer whose tool is not installed is skipped with a message.
#
# Usage: build.sh WORK [book ...]     (default: every book in WORK/model)
set -u
WORK=$(cd "${1:?usage: build.sh WORK [book ...]}" && pwd); shift
S=$WORK/srcfmt; O=$WORK/out; T=$WORK/tmp
DBX=/usr/share/xml/docbook/stylesheet/docbook-xsl
EC="nice -n 19 ebook-convert"
mkdir -p "$O" "$T"
export HOME=${HOME:-$T} QT_QPA_PLATFORM=offscreen
books=${*:-$(cd "$WORK/model" && ls *.json | sed 's/\.json$//')}

log(){ echo "[$(date +%T)] $*" >&2; }
have(){ command -v "$1" >/dev/null 2>&1; }
book_title(){ python3 -c "import json,sys;print(json.load(open(sys.argv[1],encoding='utf-8'))['title'])" "$WORK/model/$1.json"; }
# A producer runs when all the commands it needs are installed; otherwise say which one is missing.
producer(){ # $1 producer name, rest: commands it needs
  local name=$1 c; shift
  for c in "$@"; do
    if ! have "$c"; then echo "SKIP $name: '$c' is not installed" >&2; return 1; fi
  done
}
report_missing_producers(){
  producer pandoc pandoc
  producer LibreOffice soffice pandoc
  producer calibre ebook-convert
  producer Sphinx sphinx-build
  producer DocBook-XSL xsltproc zip && { [ -d $DBX ] || echo "SKIP DocBook-XSL: $DBX not found (apt install docbook-xsl)" >&2; }
  producer asciidoctor asciidoctor xsltproc zip
  producer ebook2epub ebook2epub pandoc
  true
}
dbzip(){ # $1 folder holding mimetype META-INF OEBPS; $2 EPUB to write
  (cd "$1" && rm -f "$2" && zip -X0q "$2" mimetype && zip -Xrq9 "$2" META-INF OEBPS); }
docbook_epub(){ # $1 DocBook file, $2 stylesheet (epub3/chunk.xsl or epub/docbook.xsl), $3 EPUB, rest: xsltproc params
  local src=$1 xsl=$2 out=$3; shift 3
  rm -rf "$T/db" && mkdir -p "$T/db"
  (cd "$T/db" && nice -n 19 xsltproc --nonet --stringparam base.dir OEBPS/ "$@" "$DBX/$xsl" "$src" >/dev/null 2>&1
   [ -f mimetype ] || printf application/epub+zip > mimetype)
  dbzip "$T/db" "$out"
}

build_pandoc(){ # $1 book
  local b=$1 title; title=$(book_title "$b")
  pandoc book.md -o "$O/${b}__pandoc_default.epub"
  pandoc book.md --split-level=2 -o "$O/${b}__pandoc_split2.epub" 2>/dev/null || pandoc book.md --epub-chapter-level=2 -o "$O/${b}__pandoc_split2.epub"
  pandoc book_h.html --metadata title="$title" -o "$O/${b}__pandoc_fromhtml_h.epub"
  pandoc book.md --toc --toc-depth=1 -o "$O/${b}__pandoc_toc1.epub"
  pandoc book.md -t epub2 -o "$O/${b}__pandoc_epub2.epub"
  pandoc book_pclass.html --metadata title="$title" -o "$O/${b}__pandoc_fromhtml_pclass.epub"
  pandoc book_parts.md -o "$O/${b}__pandoc_parts_split1.epub"
  pandoc book_parts.md --epub-chapter-level=2 -o "$O/${b}__pandoc_parts_split2.epub"
  pandoc plainfront.md -o "$O/${b}__pandoc_front_noattrs.epub"
  pandoc book.md -o "$T/${b}_styled.docx"
}

build_libreoffice(){ # $1 book; ODT from HTML, EPUB from ODT and from pandoc's DOCX
  local b=$1 lo=$T/lo_$1
  local SO=(nice -n 19 soffice "-env:UserInstallation=file://$T/lo-profile" --headless)
  rm -rf "$lo"; mkdir -p "$lo"
  cp "$T/${b}_styled.docx" "$lo/styled.docx"
  "${SO[@]}" --convert-to odt:writer8 --infilter="HTML (StarWriter)" --outdir "$lo" book_h.html >/dev/null 2>&1
  "${SO[@]}" --convert-to odt:writer8 --infilter="HTML (StarWriter)" --outdir "$lo" book_bold.html >/dev/null 2>&1
  "${SO[@]}" --convert-to docx:"MS Word 2007 XML" --outdir "$lo" "$lo/book_bold.odt" >/dev/null 2>&1
  (cd "$lo" && "${SO[@]}" --convert-to epub --outdir . book_h.odt styled.docx book_bold.odt >/dev/null 2>&1)
  cp "$lo/book_h.epub" "$O/${b}__lo_odt_headings.epub"
  cp "$lo/styled.epub" "$O/${b}__lo_docx_pandocstyled.epub"
  cp "$lo/book_bold.epub" "$O/${b}__lo_odt_boldparas.epub"
  (cd "$lo" && "${SO[@]}" --convert-to 'epub:EPUB:{"EPUBSplitMethod":{"type":"long","value":"1"},"EPUBVersion":{"type":"long","value":"20"}}' --outdir pb book_h.odt >/dev/null 2>&1)
  cp "$lo/pb/book_h.epub" "$O/${b}__lo_odt_pagebreaksplit_epub2.epub" 2>/dev/null
}

build_calibre(){ # $1 book; the DOCX inputs come from pandoc and LibreOffice when they ran
  local b=$1
  $EC book_h.html "$O/${b}__calibre_html_default.epub" >/dev/null 2>&1
  $EC book_h.html "$O/${b}__calibre_html_flat_epub3_nocover.epub" --epub-flatten --epub-version 3 --no-default-epub-cover >/dev/null 2>&1
  $EC book_h.html "$O/${b}__calibre_html_nosplit.epub" --flow-size 0 --dont-split-on-page-breaks >/dev/null 2>&1
  $EC book_h.html "$O/${b}__calibre_html_nosplit_notoc.epub" --flow-size 0 --dont-split-on-page-breaks --max-toc-links 0 --no-chapters-in-toc --level1-toc '' --chapter-mark none >/dev/null 2>&1
  $EC book_pclass.html "$O/${b}__calibre_pclass_default.epub" >/dev/null 2>&1
  $EC book_pclass.html "$O/${b}__calibre_pclass_chapterxpath.epub" --chapter "//*[@class='chapter-heading' or @class='front-heading' or @class='back-heading']" --level1-toc "//*[@class='chapter-heading' or @class='front-heading' or @class='back-heading']" >/dev/null 2>&1
  $EC book_bold.html "$O/${b}__calibre_boldparas_default.epub" >/dev/null 2>&1
  $EC book.txt "$O/${b}__calibre_txt_default.epub" >/dev/null 2>&1
  $EC book.txt "$O/${b}__calibre_txt_heuristic.epub" --enable-heuristics --no-default-epub-cover >/dev/null 2>&1
  $EC plain.md "$O/${b}__calibre_markdown.epub" --formatting-type markdown --paragraph-type off >/dev/null 2>&1
  [ -f "$T/${b}_styled.docx" ] && $EC "$T/${b}_styled.docx" "$O/${b}__calibre_docx_styled.epub" >/dev/null 2>&1
  [ -f "$T/lo_$b/book_bold.docx" ] && $EC "$T/lo_$b/book_bold.docx" "$O/${b}__calibre_docx_boldparas.epub" >/dev/null 2>&1
  [ -f "$O/${b}__pandoc_default.epub" ] && $EC "$O/${b}__pandoc_default.epub" "$O/${b}__calibre_from_pandoc_epub.epub" >/dev/null 2>&1
  true
}

build_sphinx(){ # $1 book; with and without the generated index
  local b=$1 idx
  for idx in 1 0; do
    rm -rf "$T/sph_$b"
    IDX=$idx nice -n 19 sphinx-build -q -b epub sphinx "$T/sph_$b" >/dev/null 2>&1
    cp "$T/sph_$b/book.epub" "$O/${b}__sphinx_index$idx.epub"
  done
}

build_docbook(){ # $1 book; book.dbk and book_parts.dbk through the epub3 and epub (EPUB 2) stylesheets
  local b=$1 d=$S/$1 v ss xsl
  for v in book book_parts; do
    for ss in epub3 epub; do
      xsl=$ss/docbook.xsl; [ $ss = epub3 ] && xsl=epub3/chunk.xsl
      docbook_epub "$d/$v.dbk" $xsl "$O/${b}__docbook_${ss}_${v#book}.epub" --stringparam generate.index 1
    done
  done
}

build_asciidoctor(){ # $1 book; asciidoctor -> DocBook 5 -> DocBook-XSL epub3
  local b=$1
  asciidoctor -b docbook5 -o "$T/${b}_adoc.xml" book.adoc 2>/dev/null
  docbook_epub "$T/${b}_adoc.xml" epub3/chunk.xsl "$O/${b}__asciidoctor_docbook_epub3.epub"
}

build_calibre_other_inputs(){ # $1 book; calibre from pandoc's FB2/RTF/ODT, and AZW3/MOBI round trips
  local b=$1
  if have pandoc; then
    pandoc book.md -t fb2 -o "$T/$b.fb2" && $EC "$T/$b.fb2" "$O/${b}__calibre_fb2_pandoc.epub" >/dev/null 2>&1
    pandoc book.md -t rtf -s -o "$T/$b.rtf" && $EC "$T/$b.rtf" "$O/${b}__calibre_rtf_pandoc.epub" >/dev/null 2>&1
    pandoc book.md -t odt -o "$T/$b.odt" && $EC "$T/$b.odt" "$O/${b}__calibre_odt_pandoc.epub" >/dev/null 2>&1
  fi
  if [ -f "$O/${b}__pandoc_default.epub" ]; then
    $EC "$O/${b}__pandoc_default.epub" "$T/$b.azw3" >/dev/null 2>&1 && $EC "$T/$b.azw3" "$O/${b}__calibre_azw3_roundtrip.epub" >/dev/null 2>&1
    $EC "$O/${b}__pandoc_default.epub" "$T/$b.mobi" >/dev/null 2>&1 && $EC "$T/$b.mobi" "$O/${b}__calibre_mobi6_roundtrip.epub" >/dev/null 2>&1
  fi
  true
}

build_ebook2epub(){ # $1 book; libe-book / libepubgen from pandoc's FictionBook2
  local b=$1
  pandoc book.md -t fb2 -o "$T/$b.fb2" && ebook2epub "$T/$b.fb2" "$O/${b}__ebook2epub_fb2.epub" >/dev/null 2>&1
}

report_missing_producers
for b in $books; do
  cd "$S/$b" || continue
  log "== $b"
  producer pandoc pandoc 2>/dev/null && build_pandoc $b
  producer LibreOffice soffice pandoc 2>/dev/null && build_libreoffice $b
  producer calibre ebook-convert 2>/dev/null && build_calibre $b
  producer Sphinx sphinx-build 2>/dev/null && build_sphinx $b
  producer DocBook-XSL xsltproc zip 2>/dev/null && [ -d $DBX ] && build_docbook $b
  producer asciidoctor asciidoctor xsltproc zip 2>/dev/null && [ -d $DBX ] && build_asciidoctor $b
done
for b in $books; do
  cd "$S/$b" || continue
  log "extra $b"
  producer calibre ebook-convert 2>/dev/null && build_calibre_other_inputs $b
  producer ebook2epub ebook2epub pandoc 2>/dev/null && build_ebook2epub $b
done
for f in "$O"/*.epub; do [ -s "$f" ] || log "FAILED: $f"; done
true
