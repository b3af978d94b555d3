#!/usr/bin/env bash
# The Explorer's draws (10^5 over V = 262,144, each preset's rule) and the numpy/PyTorch
# equivalent side by side on one core, for the ratio in docs/benchmarks.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
cmake --build "$build" --target bench_explorer_draws >/dev/null
echo "== LogitLab (bench_explorer_draws, one core)"
taskset -c 0 "$build/bin/bench_explorer_draws" 2>/dev/null | grep -E 'median'
echo "== numpy / PyTorch (same workload, one core)"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE taskset -c 0 /usr/bin/python3 "$here/bench/explorer_draws_numpy_torch.py" 262144
