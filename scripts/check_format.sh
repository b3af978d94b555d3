#!/usr/bin/env bash
# Fails when a C++ file differs from what clang-format makes of it (.clang-format; clang-format
# 14, Debian 12's). Run with --fix to reformat in place. CI runs it before building.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh clang-format-14
mapfile -t files < <(git ls-files 'src/*.h' 'src/*.cpp' 'tests/*.h' 'tests/*.cpp' 'bench/*.h' 'bench/*.cpp' \
                                  'fuzz/*.h' 'fuzz/*.cpp' 'tools/*.cpp')
if [ "${1:-}" = --fix ]; then
  clang-format-14 -i "${files[@]}"
  exit 0
fi
if ! clang-format-14 --dry-run --Werror "${files[@]}"; then
  echo "format: the files above differ from clang-format's layout; scripts/check_format.sh --fix reformats them" >&2
  exit 1
fi
echo "format: ${#files[@]} files as clang-format lays them out"
