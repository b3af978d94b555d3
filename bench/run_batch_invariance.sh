#!/bin/sh
# The batch-invariance lab's decode study at the issue's size (R = 1,000, T = 200, V = 32,768,
# d = 1,024; median of 3 on 2 threads), then one repetition each at smaller V, d and T for the
# scaling, then one W*h / W*H against numpy's float32 matmul when /usr/bin/python3 has numpy.
# Usage: bench/run_batch_invariance.sh [BUILD_DIR] (default: build). Needs a Release or
# RelWithDebInfo build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../build"}
bench="$build/bin/bench_batch_invariance"
[ -x "$bench" ] || { echo "run_batch_invariance.sh: $bench not built (cmake --build $build --target bench_batch_invariance)" >&2; exit 2; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine slows every figure)"
echo "== the issue's size, median of 3 =="
"$bench" --repetitions 3
echo "== scaling (one repetition each) =="
"$bench" --repetitions 1 --vocabulary 16384
"$bench" --repetitions 1 --hidden 512
"$bench" --repetitions 1 --steps 100
echo "== numpy float32 matmul at the same size =="
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    /usr/bin/python3 - <<'PY'
import time, numpy as np
rng = np.random.default_rng(1)
W = rng.standard_normal((32768, 1024), dtype=np.float32)
H = rng.standard_normal((1024, 8), dtype=np.float32)
for name, rhs in (("numpy W@h", H[:, :1]), ("numpy W@H (8 columns)", H)):
    times = []
    for _ in range(7):
        t = time.perf_counter(); W @ rhs; times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    print(f'{{"what": "{name}", "median_ms": {times[3]:.3f}}}')
PY
else
    echo "numpy is not installed for /usr/bin/python3: no comparison (apt-get install python3-numpy)"
fi
