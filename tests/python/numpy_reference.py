#!/usr/bin/python3
"""numpy's answers for tst_numpy_reference, one line per case read from stdin.

Input lines (numbers as C99 hex floats, exact in every format):
  sum <dtype> <term>...      -> "<np.sum> <np.add.reduce>" of a contiguous 1-D array of dtype
  softmax <logit>...         -> float64 softmax: exp(x - max(x)) / np.sum of those
Output numbers are float.hex() of the float64 holding the result, so the C++ side compares bits.
"""
import sys

import numpy as np

DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16}


def main():
    out = []
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "sum":
            dtype = DTYPES[fields[1]]
            terms = np.array([float.fromhex(f) for f in fields[2:]], dtype=dtype)
            total = np.sum(terms)
            reduced = np.add.reduce(terms)
            out.append("%s %s" % (float(total).hex(), float(reduced).hex()))
        elif fields[0] == "softmax":
            x = np.array([float.fromhex(f) for f in fields[1:]], dtype=np.float64)
            e = np.exp(x - np.max(x))
            p = e / np.sum(e)
            out.append(" ".join(float(v).hex() for v in p))
        else:
            sys.exit("numpy_reference.py: unknown case '%s'" % fields[0])
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
