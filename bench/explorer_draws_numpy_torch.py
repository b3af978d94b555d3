"""The Explorer's Draw workload in numpy and PyTorch, for the ratio in docs/benchmarks.md:
softmax of Zipf(1.1) logits over V = 262,144 tokens (no cut), then 10^5 draws from it
(numpy: cumsum + searchsorted; torch: multinomial with replacement). Median of 5 runs, ms."""
import statistics
import sys
import time

import numpy as np
import torch

V = int(sys.argv[1]) if len(sys.argv) > 1 else 262_144
N = 100_000
torch.set_num_threads(1)
ranks = np.arange(1, V + 1, dtype=np.float64)
logits = -1.1 * np.log(ranks)


def numpy_draws(seed):
    rng = np.random.default_rng(seed)
    p = np.exp(logits - logits.max())
    p /= p.sum()
    cdf = np.cumsum(p)
    return np.searchsorted(cdf, rng.random(N) * cdf[-1], side="right")


def torch_draws(seed):
    g = torch.Generator().manual_seed(seed)
    p = torch.softmax(torch.from_numpy(logits), dim=0)
    return torch.multinomial(p, N, replacement=True, generator=g)


for name, fn in (("numpy cumsum+searchsorted", numpy_draws), ("torch multinomial", torch_draws)):
    times = []
    for seed in range(5):
        start = time.perf_counter()
        fn(seed)
        times.append((time.perf_counter() - start) * 1000)
    print(f"{name}: median {statistics.median(times):.1f} ms for 10^5 draws, V = {V}")
