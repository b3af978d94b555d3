#!/usr/bin/env bash
# Builds the engine, app and CLI tests (every CTest label but `ui`, `no-tsan` and `layout`, the
# source check, which has no executable) with ThreadSanitizer in build-tsan/ and runs them; any
# report fails the run. The widget tests are left out on purpose: Debian's Qt is not built with
# TSan, so the hand-offs inside QFuture/QtConcurrent and the event loop are invisible to it and
# every widget test reports races that are not there. tests/tsan.supp holds the few suppressions
# for uninstrumented Qt internals, each explained. See docs/reliability-fuzzing.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-tsan}
"$root/scripts/setup.sh"
BUILD_DIR="$build" LOGITLAB_PRESET=tsan "$root/scripts/configure.sh" >/dev/null

# Only what the selected tests need: their executables and the CLI they run.
mapfile -t tests < <(ctest --test-dir "$build" -N -LE '^(ui|no-tsan|layout)$' | sed -n 's/^ *Test *#[0-9]*: *//p')
targets=(logitlab-cli)
for t in "${tests[@]}"; do targets+=("tst_$t"); done
cmake --build "$build" --target "${targets[@]}"

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/tsan.supp ${TSAN_OPTIONS:-}"
export QT_QPA_PLATFORM=offscreen
# Qt's own event dispatcher instead of GLib's: GLib's allocator hands memory between threads
# under its own futex locks, which TSan cannot see either (a QtTest watchdog's block freed by
# a pool thread was reported, 2026-12-02).
export QT_NO_GLIB=1
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
ctest --test-dir "$build" -LE '^(ui|no-tsan|layout)$' --output-on-failure -j2
