#!/usr/bin/env bash
# Screenshots of every page at 1024x768 (a projector's screen), at 100% and 200% zoom, and of
# View > Present on the Explorer and the Loop, and the two at 200% without their controls
# (--no-controls), rendered offscreen into docs/images/pages/ from
# the examples (issue 32). Usage: scripts/screenshots.sh [BUILD_DIR] (default: build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/docs/images/pages
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
# A scratch settings folder: the saved zoom and splitters of whoever runs this play no part.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
# Paths relative to the checkout: the status bar shows the file as given.
cd "$root"
shots=(
  "explorer explorer-lesson.json"
  "junk-risk junk-risk-lesson.json"
  "seed-sweep seed-sweep-lesson.json"
  "loop loop-greedy-branch.json"
  "summation-order summation-order-lesson.json"
  "batch-invariance batch-invariance-one-step.json"
)
for shot in "${shots[@]}"; do
  read -r name example <<<"$shot"
  for zoom in 100 200; do
    "$build/bin/logitlab" "examples/$example" --size 1024x768 --zoom "$zoom" \
      --screenshot "$out/$name-1024x768-$zoom.png"
  done
done
for name in explorer loop; do
  example=$([ "$name" = explorer ] && echo explorer-lesson.json || echo loop-lesson.json)
  "$build/bin/logitlab" "examples/$example" --size 1024x768 --present \
    --screenshot "$out/$name-present-1024x768.png"
done
# At 200% with View > Controls off (Ctrl+K): the charts take the window's width.
for name in explorer loop; do
  example=$([ "$name" = explorer ] && echo explorer-lesson.json || echo loop-greedy-branch.json)
  "$build/bin/logitlab" "examples/$example" --size 1024x768 --zoom 200 --no-controls \
    --screenshot "$out/$name-1024x768-200-no-controls.png"
done
