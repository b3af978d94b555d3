#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy's checks, clang-tidy 14) over every project file in a build's
# compile_commands.json: scripts/tidy.sh [build folder, default build] [file regex]. Exits 1 on
# any finding. Needs a configured build (the README's commands make build/).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
filter=${2:-'/(src|tests|bench|tools)/'}
./scripts/setup.sh clang-tidy-14
# The build's generated sources (moc, resources, the model's bytes) must exist first.
cmake --build "$build" >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Colours off (run-clang-tidy asks for them even into a file), so findings can be matched.
run-clang-tidy-14 -quiet -p "$build" -j "$(nproc)" "$filter" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$log" || true
grep -v -e '^[0-9]* warnings\? generated' -e '^Suppressed [0-9]* warnings' -e 'Use -header-filter' \
  -e '^clang-tidy-14 ' "$log" || true
# run-clang-tidy's exit status is not reliable across versions: a finding is an error line.
if grep -q ': error: ' "$log"; then
  echo "tidy: findings above" >&2
  exit 1
fi
echo "tidy: no findings"
