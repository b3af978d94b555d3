#!/usr/bin/env bash
# Configures a build folder (default ./build) once; later calls reuse it. Extra CMake options
# come from LOGITLAB_CMAKE_ARGS, e.g. "-DLOGITLAB_WERROR=ON".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
# ccache keys on paths relative to the checkout, so fresh clones reuse each other's objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja ${LOGITLAB_CMAKE_ARGS:-} >/dev/null
echo "$build"
