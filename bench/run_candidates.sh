#!/usr/bin/env bash
# Runs the candidates benchmark and the numpy/PyTorch equivalent side by side, pinned to one
# core, so the ratio in docs/benchmarks.md comes from one command on one machine.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
cmake --build "$build" --target bench_candidates >/dev/null
echo "== LogitLab (bench_candidates, one core)"
taskset -c 0 "$build/bin/bench_candidates" --benchmark_filter='CandidatesAndDraw/T0_7_topP0_9/128256|Softmax/128256|IdOrderSumFloor/128256|TwoDivisionsFloor/128256|ReadExpsFloor/128256' \
  2>/dev/null | grep -E 'median|Benchmark'
echo "== numpy / PyTorch (same workload, one core)"
# OPENBLAS_* variables slow numpy on some machines here; unset them for this command only.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE taskset -c 0 /usr/bin/python3 "$here/bench/candidates_numpy_torch.py" 128256
