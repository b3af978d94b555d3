#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan) in build-fuzz/ and runs each
# on its committed seed corpus for a bounded time. Any crash, sanitizer report, leak, timeout
# (an input taking over 10 s) or out-of-memory fails the script; the input that did it is kept
# in build-fuzz/artifacts/. New inputs the fuzzer finds go to a scratch folder, so the committed
# corpus only changes by hand. See docs/reliability-fuzzing.md.
# Usage: scripts/fuzz.sh [seconds-per-target (default 60)] [target...]   e.g. fuzz.sh 30 chain_text
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}

"$root/scripts/setup.sh" clang libclang-rt-14-dev
# The fuzz preset: clang, ASan + UBSan, -O1 with line tables (the build and the stack traces stay
# quick); assertions stay on (no NDEBUG: Eigen's index checks are part of what fuzzing should trip).
BUILD_DIR="$build" LOGITLAB_PRESET=fuzz "$root/scripts/configure.sh" >/dev/null
cmake --build "$build" --target logitlab_fuzzers

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for source in "$root"/fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name#fuzz_}")
  done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export QT_QPA_PLATFORM=offscreen
mkdir -p "$build/artifacts" "$build/logs"
failed=()
for t in "${targets[@]}"; do
  scratch=$(mktemp -d)
  log="$build/logs/$t.log"
  echo "== fuzz_$t for ${seconds}s"
  # The scratch folder comes first: libFuzzer writes new inputs into the first corpus folder.
  if "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len=4096 \
       -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" "$scratch" "$root/fuzz/corpus/$t" >"$log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$log" | tail -2 || true
  else
    echo "fuzz_$t FAILED (log: $log):"
    grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse|INITED)' "$log" | tail -60
    failed+=("$t")
  fi
  rm -rf "$scratch"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]} (inputs in $build/artifacts/)"
  exit 1
fi
echo "fuzzing: no crash in ${#targets[@]} targets"
