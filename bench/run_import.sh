#!/usr/bin/env bash
# Opens row 199 of a 200 x 151,936 float32 .npy (120 MB) with LogitLab and with numpy's
# np.load(mmap_mode='r') on the same file, in one command, so docs/benchmarks.md compares like
# with like (the file is in the page cache for both).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
cmake --build "$build" --target bench_import >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export LOGITLAB_BENCH_NPY=$dir/logits.npy
echo "== LogitLab (bench_import)"
"$build/bin/bench_import" 2>/dev/null | grep -E 'median|Benchmark'
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "== numpy $(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)') (same file)"
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 - "$LOGITLAB_BENCH_NPY" <<'PY'
import statistics, sys, time
import numpy as np
path = sys.argv[1]
def load_row():
    a = np.load(path, mmap_mode="r")
    return np.asarray(a[199], dtype=np.float64)
def scan():
    a = np.load(path, mmap_mode="r")
    out = []
    for s in range(a.shape[0]):
        x = np.asarray(a[s], dtype=np.float64)
        d = x - x.max()
        e = np.exp(d)
        z = e.sum()
        out.append(np.log(z) - (e * d).sum() / z)
    return out
for name, f, n in (("np.load(mmap_mode='r')[199]", load_row, 200), ("entropy scan, 200 steps", scan, 5)):
    times = []
    for _ in range(n):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    print(f"{name}: median {statistics.median(times) * 1e3:.3f} ms over {n} runs")
PY
else
  echo "numpy not found for /usr/bin/python3 (apt-get install python3-numpy)"
fi
