#!/usr/bin/env bash
# The lesson's figures as a paper's one column holds them: every chart of the lesson's examples
# exported at 8.5 x 6 cm, 300 dpi, as PNG and PDF into docs/images/figures/ (issue 33), with the
# exports' defaults (no title). Render a PDF to look at it: pdftoppm -r 150 -png FILE.pdf out.
# Usage: scripts/figures.sh [BUILD_DIR] (default: build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/docs/images/figures
rm -rf "$out"
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
# Paths relative to the checkout: the figures' provenance names the file as given, and a path of
# this machine does not belong in the tree.
cd "$root"
for example in explorer-lesson junk-risk-lesson seed-sweep-lesson loop-lesson summation-order-lesson \
  batch-invariance-one-step; do
  "$build/bin/logitlab-cli" run "examples/$example.json" --out "$out" --formats png,pdf \
    --size 8.5x6cm --dpi 300 >/dev/null
done
ls "$out"
