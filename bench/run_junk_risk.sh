#!/bin/sh
# Runs the junk-risk Monte Carlo benchmark in C++ (bench_junk_risk, medians of repetitions) and
# the same workload in numpy/PyTorch side by side, and prints draws per second and the ratio.
# Usage: bench/run_junk_risk.sh [BUILD_DIR] (default: build). Needs a Release or RelWithDebInfo build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../build"}
bench="$build/bin/bench_junk_risk"
[ -x "$bench" ] || { echo "run_junk_risk.sh: $bench not built (ninja -C $build bench_junk_risk)" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== C++ (bench_junk_risk: median of 5 repetitions) =="
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine slows every figure)"
"$bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
         --benchmark_out="$out/cpp.json" --benchmark_out_format=json >/dev/null 2>&1
echo "== numpy / PyTorch (bench/junk_risk_numpy_torch.py, 20,000 replies x 300 tokens, median of 5) =="
/usr/bin/python3 "$here/junk_risk_numpy_torch.py" --replies 20000 --repetitions 5 > "$out/py.json"

/usr/bin/python3 - "$out/cpp.json" "$out/py.json" <<'PY'
import json, sys
cpp = json.load(open(sys.argv[1]))
py = json.load(open(sys.argv[2]))
rate = {}
for b in cpp["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    if "draws/s" in b:
        rate[b["run_name"]] = b["draws/s"]
        per_cpu = f"   {b['draws/cpu-s'] / 1e6:7.1f} M per CPU-second" if "draws/cpu-s" in b else ""
        print(f"{b['run_name']:<55} {b['draws/s'] / 1e6:10.1f} M draws/s   {b['real_time']:10.3f} {b['time_unit']}{per_cpu}")
    else:
        print(f"{b['run_name']:<55} {'':>21}   {b['real_time']:10.3f} {b['time_unit']}")
workload = {k: v for k, v in rate.items() if k.startswith("BM_JunkRiskWorkload/1000000/2")}
best_cpp = max(workload.values()) if workload else max(rate.values())
print()
for name in ("numpy Generator.choice", "numpy searchsorted", "torch.multinomial"):
    r = py.get(name)
    if not r:
        print(f"{name:<55} not available")
        continue
    print(f"{name:<55} {r['draws_per_second'] / 1e6:10.1f} M draws/s   estimate {r['estimate']:.4f}"
          f"   C++ 2-thread workload is {best_cpp / r['draws_per_second']:.0f}x faster")
print(f"\nanalytic P(at least one junk token in 300) = {py['analytic']:.4f} (q = {py['q']:.6f})")
PY
