#!/usr/bin/env bash
# The source tree's rules, checked with grep (docs/architecture.md, "Where things live"):
#   - the engine includes no Qt and nothing of app, charts, ui or cli;
#   - app includes nothing of charts, ui or cli; charts nothing of ui or cli; cli nothing of ui;
#   - every include of a project header names its folder from src/ ("engine/rng/rng.h");
#   - every folder under src/ has its line in docs/architecture.md.
# Prints each breach as file:line and exits 1 if there is one. Run by ctest (source_layout).
set -uo pipefail
cd "$(dirname "$0")/.."
failed=0
breach() {
  echo "$1"
  failed=1
}

# files of one layer that include a forbidden prefix
forbid() {
  local layer=$1 pattern=$2 why=$3 hits
  hits=$(grep -rnE "^\s*#\s*include\s*[<\"]($pattern)" "src/$layer" --include='*.h' --include='*.cpp' || true)
  if [ -n "$hits" ]; then
    breach "$why:"$'\n'"$hits"
  fi
}
forbid engine 'Q[A-Za-z]+|app/|charts/|ui/|cli/' "the engine is pure C++ (no Qt) and includes no layer above it"
forbid app 'charts/|ui/|cli/' "app includes no layer above it"
forbid charts 'ui/|cli/' "charts include no page and no CLI"
forbid cli 'ui/' "the CLI links no page"

# a quoted include of a header that lives under src/ must name its folder
while IFS= read -r header; do
  base=${header##*/}
  hits=$(grep -rnE "^\s*#\s*include\s*\"$base\"" src tests bench fuzz tools --include='*.h' --include='*.cpp' || true)
  if [ -n "$hits" ]; then
    breach "include \"${header#src/}\" by its folder, not \"$base\":"$'\n'"$hits"
  fi
done < <(find src -name '*.h' | sort)

# every folder under src/ is explained where a newcomer looks
while IFS= read -r dir; do
  if ! grep -qF "| \`$dir/\` |" docs/architecture.md; then
    breach "docs/architecture.md has no line for $dir/ (\"Where things live\")"
  fi
done < <(find src -mindepth 1 -type d | sort)

if [ "$failed" = 0 ]; then
  echo "source layout: layers, prefixed includes and folder docs are in order"
fi
exit "$failed"
