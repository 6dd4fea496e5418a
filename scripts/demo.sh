#!/bin/sh
# make demo: shows the sample book's section index, converts it to audio and says where it is.
set -eu
bin="$1"; book="$2"; out="$3"
echo "== Section index of $book"
"$bin" "$book" --list
echo
echo "== Converting the included sections to audio"
"$bin" "$book" -o "$out"
echo
echo "Audio files and playlist are in: $(cd "$out" && pwd)"
