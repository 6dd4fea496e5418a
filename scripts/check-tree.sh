#!/usr/bin/env bash
# Fails when git tracks a top-level entry the project does not have: what a conversion run from the
# checkout writes there (a book's `--text` folder, an audiobook) must never be committed, and the
# repository holds only books this project wrote (samples/). Outside a git checkout it does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
allowed='^(\.ci|\.dockerignore|\.gitignore|Dockerfile|\.swift-format|Fuzz|Makefile|Package\.swift|README\.md|Server|Sources|Tests|docs|samples|scripts)$'
unexpected=$(git ls-files | cut -d/ -f1 | sort -u | grep -v -E "$allowed" || true)
if [ -n "$unexpected" ]; then
    echo "error: git tracks top-level entries the project does not have (conversion output?):" >&2
    echo "$unexpected" | sed 's/^/  /' >&2
    exit 1
fi
