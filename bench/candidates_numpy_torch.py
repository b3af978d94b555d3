#!/usr/bin/python3
"""The same step as bench_candidates (T = 0.7, top-p = 0.9, one draw over V float32 logits from
normal(0, 2.5)) written the usual way in numpy and PyTorch: softmax, full sort, cumulative sum,
cut, renormalise, draw. Prints the median milliseconds per token for each."""
import statistics
import sys
import time

import numpy as np

V = int(sys.argv[1]) if len(sys.argv) > 1 else 128256
REPS = 50
rng = np.random.default_rng(12345)
logits32 = rng.normal(0.0, 2.5, V).astype(np.float32)


def numpy_step(logits, t=0.7, top_p=0.9):
    scaled = logits.astype(np.float64) / t
    e = np.exp(scaled - scaled.max())
    p = e / e.sum()
    order = np.argsort(-p, kind="stable")
    cum = np.cumsum(p[order])
    keep = int(np.searchsorted(cum, top_p, side="right")) + 1
    kept = order[:keep]
    q = p[kept] / p[kept].sum()
    return kept[np.searchsorted(np.cumsum(q), rng.random())] if keep > 1 else kept[0]


def median_ms(fn):
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


print(f"numpy {np.__version__}: {median_ms(lambda: numpy_step(logits32)):.3f} ms per token (V={V})")
try:
    import torch

    torch.set_num_threads(1)
    tl = torch.from_numpy(logits32)
    gen = torch.Generator().manual_seed(42)

    def torch_step(t=0.7, top_p=0.9):
        p = torch.softmax(tl.double() / t, dim=-1)
        sp, idx = torch.sort(p, descending=True)
        cum = torch.cumsum(sp, dim=-1)
        keep = int(torch.searchsorted(cum, torch.tensor([top_p], dtype=cum.dtype), right=True)) + 1
        q = sp[:keep] / sp[:keep].sum()
        return idx[torch.multinomial(q, 1, generator=gen)]

    print(f"torch {torch.__version__}: {median_ms(torch_step):.3f} ms per token (V={V}, 1 thread)")
except ImportError:
    print("torch: not installed (apt-get install python3-torch)")
