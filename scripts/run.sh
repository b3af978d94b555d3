#!/usr/bin/env bash
# Sets up, builds and starts LogitLab. With a display the window opens; without one, logitlab
# runs its headless demo and writes the lesson's chart (PNG, SVG) and table (CSV) to ./out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
build=$("$root/scripts/configure.sh")
cmake --build "$build" --target logitlab logitlab-cli
exec "$build/bin/logitlab" "$@"
