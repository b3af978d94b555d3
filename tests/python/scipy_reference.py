#!/usr/bin/python3
"""scipy's answers for tst_scipy_reference, one line per case read from stdin.

Input lines (numbers as C99 hex floats or integers):
  chi2 <x> <df>                        -> scipy.stats.chi2.sf(x, df)
  pd <lambda> <k> <obs>*k <exp>*k      -> power_divergence statistic and p ("pearson" or
                                          "log-likelihood"), expected given as counts
  ks <value>...                        -> kstest(values, "uniform") statistic and p-value
                                          (method "auto": kstwo.sf), then scipy's Durbin
                                          matrix P(D >= d) where kstwo.sf takes Pelz-Good's
                                          approximation instead (n > 140, n d^1.5 > 1.4,
                                          n d^2 < 2.2), else "-"
Output numbers are float.hex(), so the C++ side sees scipy's doubles exactly.
"""
import sys

import numpy as np
from scipy import stats
from scipy.stats._ksstats import _kolmogn_DMTW


def main():
    out = []
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "chi2":
            out.append(float(stats.chi2.sf(float.fromhex(fields[1]), int(fields[2]))).hex())
        elif fields[0] == "pd":
            k = int(fields[2])
            observed = np.array([int(f) for f in fields[3:3 + k]], dtype=np.float64)
            expected = np.array([float.fromhex(f) for f in fields[3 + k:3 + 2 * k]])
            result = stats.power_divergence(observed, expected, lambda_=fields[1])
            out.append("%s %s" % (float(result.statistic).hex(), float(result.pvalue).hex()))
        elif fields[0] == "ks":
            values = np.array([float.fromhex(f) for f in fields[1:]])
            result = stats.kstest(values, "uniform")
            n, d = len(values), float(result.statistic)
            exact = "-"
            if n > 140 and n * d ** 1.5 > 1.4 and n * d * d < 2.2 and n * d > 1:
                exact = float(_kolmogn_DMTW(n, d, cdf=False)).hex()
            out.append("%s %s %s" % (float(result.statistic).hex(), float(result.pvalue).hex(), exact))
        else:
            sys.exit("scipy_reference.py: unknown case '%s'" % fields[0])
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
