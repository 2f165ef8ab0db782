"""Means and covariances of metrics that are linear in integer features of per-trial records, in one
compiled pass over the records (no per-metric arrays, the GIL released).

A feature j of trial t is ``records[t, columns[j]]``, or 1 if that value equals ``equals[j]`` and 0 if not
(when ``equals[j] >= 0``). Sums and cross-products are kept as integers, so the sample covariance's
numerator ``n * sum(f f') - sum(f) sum(f)'`` is exact before its one division.
"""

from __future__ import annotations

import numba
import numpy as np

from simcore.config import JIT

#: Trials whose features are laid out together (feature by feature) in :func:`feature_sums`: 12 features of
#: 2,048 trials take 192 KB, which stays in a core's cache.
_BLOCK = 2048


@numba.njit(**JIT)
def feature_sums(records, columns, equals):
    """(sum of f, sum of f f') over the trials of ``records`` (int64; the cross-products symmetric).

    Block by block of trials, each feature's values are laid out in a row first, so that every sum and
    cross-product is a loop over contiguous integers, which the compiler vectorizes (a loop over the trials
    with the features inside did not vectorize, and cost a tenth of an efficiency report's simulation)."""
    r = columns.size
    n = records.shape[0]
    s1 = np.zeros(r, np.int64)
    s2 = np.zeros((r, r), np.int64)
    f = np.empty((r, min(n, _BLOCK)), np.int64)
    for first in range(0, n, _BLOCK):
        m = min(_BLOCK, n - first)
        for j in range(r):
            c = columns[j]
            e = equals[j]
            row = f[j]
            if e >= 0:
                for t in range(m):
                    row[t] = 1 if records[first + t, c] == e else 0
            else:
                for t in range(m):
                    row[t] = records[first + t, c]
        for i in range(r):
            fi = f[i]
            total = 0
            for t in range(m):
                total += fi[t]
            s1[i] += total
            for j in range(i, r):
                fj = f[j]
                total = 0
                for t in range(m):
                    total += fi[t] * fj[t]
                s2[i, j] += total
    for i in range(r):
        for j in range(i):
            s2[i, j] = s2[j, i]
    return s1, s2


def weighed_moments(s1: np.ndarray, s2: np.ndarray, n: int, weights: np.ndarray,
                    offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Means of the metrics ``weights @ f + offsets`` over n trials whose features sum to ``s1`` (cross-
    products ``s2``, from :func:`feature_sums`), the covariance matrix of those means (the sample covariance
    over n), and n. The same sums weighed anew give other metrics of the same trials exactly: what lets an
    engagement be scored at other costs without being played again."""
    if n == 0:
        raise ValueError("no trials to summarize")
    mean = weights @ (s1 / n) + offsets
    if n == 1:
        return mean, np.zeros((mean.size, mean.size)), 1
    # exact integers: n * s2 - s1 s1' (each term below 2**63 for n <= 10**6 and features below 3 * 10**6)
    scatter = n * s2 - np.outer(s1, s1)
    cov = weights @ (scatter / (float(n) * n * (n - 1))) @ weights.T
    return mean, cov, n


def record_sums(records: np.ndarray, columns: np.ndarray, equals: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, int]:
    """(sum of f, sum of f f', n) over the trials of ``records`` (:func:`feature_sums` and the count)."""
    n = records.shape[0]
    if n == 0:
        raise ValueError("no trials to summarize")
    s1, s2 = feature_sums(np.ascontiguousarray(records, dtype=np.int64), columns.astype(np.int64),
                          equals.astype(np.int64))
    return s1, s2, n


def linear_moments(records: np.ndarray, columns: np.ndarray, equals: np.ndarray, weights: np.ndarray,
                   offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Means of the metrics ``weights @ f + offsets`` over the trials, the covariance matrix of those
    means (the sample covariance over n), and n."""
    return weighed_moments(*record_sums(records, columns, equals), weights, offsets)
