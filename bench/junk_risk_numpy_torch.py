#!/usr/bin/python3
"""The junk-risk Monte Carlo workload of bench_junk_risk in numpy and PyTorch, for comparison.

Plain sampling (T = 1, no filter) over a Zipf vocabulary of V = 262,144 tokens; junk = the least
likely tokens holding 0.4% of the mass; replies of 300 tokens; the estimate is the share of
replies with at least one junk token. The issue's full workload is 10^6 replies (3 x 10^8
draws); here it is scaled down to --replies (default 20,000) and reported as draws per second,
median of --repetitions runs. Run with /usr/bin/python3 (numpy from Debian; torch if present).
"""
import argparse
import json
import statistics
import time

import numpy as np

V = 262_144
N = 300
JUNK_MASS = 0.004


def zipf_probabilities():
    p = 1.0 / np.arange(1, V + 1, dtype=np.float64)
    return p / p.sum()


def junk_mask(p):
    # Least likely first, ties: higher id first (the same rule as the engine's tail-mass).
    order = np.lexsort((-np.arange(V), p))
    cumulative = np.cumsum(p[order])
    mask = np.zeros(V, dtype=bool)
    mask[order[cumulative <= JUNK_MASS]] = True
    return mask


def timed(run, repetitions):
    times, estimate = [], None
    for _ in range(repetitions):
        start = time.perf_counter()
        estimate = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), estimate


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--replies", type=int, default=20_000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2, help="torch intra-op threads")
    args = parser.parse_args()

    p = zipf_probabilities()
    mask = junk_mask(p)
    q = float(p[mask].sum())
    draws = args.replies * N
    results = {"replies": args.replies, "tokens_per_reply": N, "vocabulary": V, "q": q,
               "analytic": 1.0 - (1.0 - q) ** N}

    rng = np.random.default_rng(42)

    def numpy_choice():
        ids = rng.choice(V, size=(args.replies, N), p=p)
        return float(mask[ids].any(axis=1).mean())

    cdf = np.cumsum(p)
    cdf[-1] = 1.0

    def numpy_searchsorted():
        ids = np.searchsorted(cdf, rng.random((args.replies, N)), side="right")
        return float(mask[ids].any(axis=1).mean())

    for name, run in (("numpy Generator.choice", numpy_choice), ("numpy searchsorted", numpy_searchsorted)):
        seconds, estimate = timed(run, args.repetitions)
        results[name] = {"seconds": seconds, "draws_per_second": draws / seconds, "estimate": estimate}

    try:
        import torch
        torch.set_num_threads(args.threads)
        torch.manual_seed(42)
        probs = torch.from_numpy(p)
        junk = torch.from_numpy(mask)

        def torch_multinomial():
            ids = torch.multinomial(probs, draws, replacement=True).view(args.replies, N)
            return float(junk[ids].any(dim=1).double().mean())

        seconds, estimate = timed(torch_multinomial, args.repetitions)
        results["torch.multinomial"] = {"seconds": seconds, "draws_per_second": draws / seconds,
                                        "estimate": estimate, "version": torch.__version__,
                                        "threads": args.threads}
    except ImportError:
        results["torch.multinomial"] = None

    results["numpy_version"] = np.__version__
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
