"""Draw from a precomputed PMF inside a kernel: one uniform number per draw instead of rolling each die.

Two table forms: an inverse CDF (binary search, any size) and Walker/Vose alias tables (constant time).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.config import JIT
from simcore.rng import uniform01, uniform_int


def _checked(pmf: np.ndarray) -> np.ndarray:
    p = np.asarray(pmf, dtype=np.float64).ravel()
    if p.size == 0 or not np.isfinite(p).all() or np.any(p < 0) or p.sum() <= 0:
        raise ValueError("a PMF needs finite, non-negative entries with a positive total")
    return p


def cdf_table(pmf: np.ndarray) -> np.ndarray:
    """Cumulative table of a 1-D PMF: non-decreasing, exactly 1 from the last possible outcome on.

    Zero-probability outcomes can never be drawn: their step has zero width, and a uniform in [0, 1)
    never reaches the 1.0 that follows the last possible outcome.
    """
    p = _checked(pmf)
    cdf = np.minimum(np.cumsum(p / p.sum()), 1.0)
    cdf[np.flatnonzero(p)[-1]:] = 1.0
    return np.maximum.accumulate(cdf)


@nb.njit(inline="always", **JIT)
def draw_cdf(state, cdf):
    """An outcome index drawn from an inverse-CDF table made by :func:`cdf_table`."""
    return np.searchsorted(cdf, uniform01(state), side="right")


def alias_table(pmf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vose's alias tables (probability float64[n], alias int64[n]) for a 1-D PMF."""
    p = _checked(pmf)
    n = p.size
    scaled = p * (n / p.sum())
    prob = np.ones(n)
    alias = np.arange(n, dtype=np.int64)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s = small.pop()
        g = large.pop()
        prob[s] = scaled[s]
        alias[s] = g
        scaled[g] = scaled[g] + scaled[s] - 1.0
        (small if scaled[g] < 1.0 else large).append(g)
    # leftovers are 1 up to rounding
    for i in small + large:
        prob[i] = 1.0
    return prob, alias


@nb.njit(inline="always", **JIT)
def draw_alias(state, prob, alias):
    """An outcome index drawn from Vose alias tables made by :func:`alias_table`."""
    i = uniform_int(state, prob.shape[0])
    if uniform01(state) < prob[i]:
        return i
    return alias[i]
