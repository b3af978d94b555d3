#!/bin/sh
# Runs the summation-order benchmark in C++ (bench_summation: 10^4 shuffles of 10^5 float32
# terms with the exact reference, median of 5) and the same workload in numpy
# (np.random.permutation + np.sum in float32, median of 3), and prints both and the ratio.
# Usage: bench/run_summation.sh [BUILD_DIR] (default: build). Needs a Release or RelWithDebInfo build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../build"}
bench="$build/bin/bench_summation"
[ -x "$bench" ] || { echo "run_summation.sh: $bench not built (ninja -C $build bench_summation)" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores; other work on the machine slows every figure)"
"$bench" --benchmark_out="$out/cpp.json" --benchmark_out_format=json >/dev/null 2>&1
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
    /usr/bin/python3 "$here/summation_numpy.py" > "$out/py.json"
else
    echo '{}' > "$out/py.json"
fi

/usr/bin/python3 - "$out/cpp.json" "$out/py.json" <<'PY'
import json, sys
cpp = json.load(open(sys.argv[1]))
py = json.load(open(sys.argv[2]))
two = None
for b in cpp["benchmarks"]:
    if b.get("aggregate_name") not in (None, "median") or b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
        continue
    print(f"{b['run_name']:<55} {b['real_time']:10.3f} {b['time_unit']}")
    if b["run_name"].startswith("BM_TenThousandShufflesOf1e5Float32/2"):
        two = b["real_time"]
if "median_seconds" in py:
    print(f"{'numpy ' + py['numpy'] + ' permutation + sum (float32)':<55} {py['median_seconds']:10.3f} s"
          f"   ({py['distinct']} distinct results)")
    if two:
        print(f"C++ on 2 threads is {py['median_seconds'] / two:.1f}x faster than numpy")
else:
    print("numpy: not available (apt-get install python3-numpy)")
PY
