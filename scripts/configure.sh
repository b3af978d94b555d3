#!/usr/bin/env bash
# Configures a build folder once from a preset of CMakePresets.json and prints its path; later
# calls reuse it. LOGITLAB_PRESET picks the preset (dev by default; CI uses ci, asan, tsan and
# fuzz), BUILD_DIR overrides the preset's folder (build/ for dev and ci, build-<preset>/ for the
# others), and extra CMake options come from LOGITLAB_CMAKE_ARGS, e.g. "-DLOGITLAB_WERROR=ON".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
preset=${LOGITLAB_PRESET:-dev}
case "$preset" in
  dev | ci) default_build=$root/build ;;
  *) default_build=$root/build-$preset ;;
esac
build=${BUILD_DIR:-$default_build}
# ccache keys on paths relative to the checkout, so fresh clones reuse each other's objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
# shellcheck disable=SC2086
(cd "$root" && cmake --preset "$preset" -B "$build" ${LOGITLAB_CMAKE_ARGS:-} >/dev/null)
echo "$build"
