"""The summation-order benchmark's workload in numpy: K shuffles of N float32 normal terms,
each np.random.permutation + np.sum in float32 (numpy's own pairwise order), and the exact sum
once (math.fsum, correctly rounded). Prints JSON with the median seconds over repetitions."""
import argparse
import json
import math
import statistics
import time

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=100000)
parser.add_argument("--shuffles", type=int, default=10000)
parser.add_argument("--repetitions", type=int, default=3)
args = parser.parse_args()

times = []
distinct = 0
for r in range(args.repetitions):
    start = time.perf_counter()
    rng = np.random.default_rng(42 + r)
    x = rng.standard_normal(args.n).astype(np.float32)
    exact = math.fsum(float(v) for v in x)
    results = np.empty(args.shuffles, dtype=np.float32)
    for k in range(args.shuffles):
        results[k] = np.sum(x[rng.permutation(args.n)], dtype=np.float32)
    distinct = len(np.unique(results))
    times.append(time.perf_counter() - start)
print(json.dumps({"numpy": np.__version__, "median_seconds": statistics.median(times), "times": times,
                  "distinct": int(distinct), "exact": exact}))
