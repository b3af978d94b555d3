#!/bin/sh
# Runs the forward pass's F32 benchmarks (bench_transformer: a decode step and a 128-token
# prefill in SmolLM2-135M's shape on 2 threads, medians of 5 and 3) and the same workload in
# PyTorch on 2 threads (bench/transformer_torch.py), and prints both and the ratios.
# Usage: bench/run_transformer.sh [BUILD_DIR] (default: build). Needs a Release or RelWithDebInfo build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../build"}
bench="$build/bin/bench_transformer"
[ -x "$bench" ] || { echo "run_transformer.sh: $bench not built (ninja -C $build bench_transformer)" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores; other work on the machine slows every figure)"
"$bench" --benchmark_filter='BM_Decode/type:0/threads:2|BM_Prefill128/type:0' --benchmark_repetitions=5 \
    --benchmark_min_time=1 --benchmark_out="$out/cpp.json" --benchmark_out_format=json >/dev/null 2>&1
if /usr/bin/python3 -c "import torch" 2>/dev/null; then
    /usr/bin/python3 "$here/transformer_torch.py" --threads 2 > "$out/py.json"
else
    echo '{}' > "$out/py.json"
fi

/usr/bin/python3 - "$out/cpp.json" "$out/py.json" <<'PY'
import json, sys
cpp = json.load(open(sys.argv[1]))
py = json.load(open(sys.argv[2]))
medians = {}
for b in cpp["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    seconds = b["real_time"] / {"ms": 1e3, "us": 1e6, "ns": 1e9, "s": 1.0}[b["time_unit"]]
    medians["decode" if b["run_name"].startswith("BM_Decode") else "prefill"] = seconds
    print(f"{b['run_name']:<50} {seconds * 1e3:9.2f} ms")
if "decode_step_seconds" in py:
    print(f"{'PyTorch ' + py['torch'] + ' decode step, ' + str(py['threads']) + ' threads':<50} "
          f"{py['decode_step_seconds'] * 1e3:9.2f} ms")
    print(f"{'PyTorch prefill of 128 tokens':<50} {py['prefill128_seconds'] * 1e3:9.2f} ms")
    if "decode" in medians:
        print(f"decode: LogitLab {1 / medians['decode']:.1f} tokens/s, PyTorch {1 / py['decode_step_seconds']:.1f}: "
              f"{py['decode_step_seconds'] / medians['decode']:.2f}x")
    if "prefill" in medians:
        print(f"prefill: {py['prefill128_seconds'] / medians['prefill']:.2f}x")
else:
    print("PyTorch: not available (apt-get install python3-torch)")
PY
