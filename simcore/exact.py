"""Exact distributions as numpy arrays.

A PMF is a float64 array indexed by outcome: ``p[k]`` is P(X = k) for a count, ``p[s, c]`` is
P(S = s, C = c) for a joint count. Unbounded chains (explosions) are truncated once the mass they would
still add falls below :data:`simcore.config.EXACT_TAIL_TOLERANCE`; :func:`truncation_loss` says how much.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simcore.config import EXACT_TAIL_TOLERANCE
from simcore.faces import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS

#: Above this many multiply-adds a convolution uses FFT instead of the direct sum.
_DIRECT_LIMIT = 4_000_000


def die_pmf(sides: int) -> np.ndarray:
    """PMF of the face of a fair die ``1..sides`` (index 0 has probability 0)."""
    p = np.full(sides + 1, 1.0 / sides)
    p[0] = 0.0
    return p


def face_table_pmf(faces: Sequence[int]) -> np.ndarray:
    """PMF of a die whose equally likely faces carry the non-negative integer values ``faces``."""
    values = np.asarray(faces, dtype=np.int64)
    if values.size == 0 or values.min() < 0:
        raise ValueError("a face table needs at least one face, all values >= 0")
    return np.bincount(values).astype(np.float64) / values.size


def trim(p: np.ndarray, tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """Drop trailing outcomes along every axis while the mass they hold is below ``tol``."""
    for axis in range(p.ndim):
        other = tuple(a for a in range(p.ndim) if a != axis)
        mass = p.sum(axis=other) if other else p
        suffix = np.cumsum(mass[::-1])[::-1]
        keep = int(np.count_nonzero(suffix >= tol))
        keep = max(keep, 1)
        p = np.take(p, np.arange(keep), axis=axis)
    return p


def convolve(a: np.ndarray, b: np.ndarray, tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """PMF of the sum of two independent counts (any number of dimensions, same for both)."""
    if a.ndim != b.ndim:
        raise ValueError("cannot convolve PMFs of different dimensions")
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    if a.size * b.size <= _DIRECT_LIMIT and a.ndim == 1:
        out = np.convolve(a, b)
    elif a.size * b.size <= _DIRECT_LIMIT:
        big, small = (a, b) if a.size >= b.size else (b, a)
        out = np.zeros(shape)
        for index in zip(*np.nonzero(small), strict=True):
            out[tuple(slice(i, i + n) for i, n in zip(index, big.shape, strict=True))] += small[index] * big
    else:
        axes = tuple(range(a.ndim))
        out = np.fft.irfftn(np.fft.rfftn(a, shape, axes) * np.fft.rfftn(b, shape, axes), shape, axes)
        np.clip(out, 0.0, None, out=out)
    return trim(out, tol)


def unit(ndim: int = 1) -> np.ndarray:
    """PMF of the constant 0 (the identity of :func:`convolve`)."""
    return np.ones((1,) * ndim)


def convolve_power(p: np.ndarray, n: int, tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """PMF of the sum of ``n`` independent copies of ``p`` (binary powering)."""
    result = unit(p.ndim)
    base = p
    while n > 0:
        if n & 1:
            result = convolve(result, base, tol)
        n >>= 1
        if n:
            base = convolve(base, base, tol)
    return result


def convolve_powers(p: np.ndarray, n_max: int, tol: float = EXACT_TAIL_TOLERANCE) -> list[np.ndarray]:
    """``[p^*0, p^*1, ..., p^*n_max]``: the sums of 0..n_max copies, each from the one before."""
    powers = [unit(p.ndim)]
    for _ in range(n_max):
        powers.append(convolve(powers[-1], p, tol))
    return powers


def mixture(weights: Sequence[float], pmfs: Sequence[np.ndarray]) -> np.ndarray:
    """Weighted sum of PMFs of possibly different shapes (padded with zeros)."""
    shape = tuple(max(p.shape[d] for p in pmfs) for d in range(pmfs[0].ndim))
    out = np.zeros(shape)
    for w, p in zip(weights, pmfs, strict=True):
        out[tuple(slice(0, s) for s in p.shape)] += w * p
    return out


def at_least(p: np.ndarray) -> np.ndarray:
    """``P(X >= k)`` for every k of a 1-D PMF (summed from the tail, so small tails stay accurate;
    rounding above 1 is clipped)."""
    return np.minimum(np.cumsum(p[::-1])[::-1], 1.0)


def mean(p: np.ndarray) -> float:
    """Mean of a 1-D PMF."""
    return float(np.dot(np.arange(p.size), p))


def variance(p: np.ndarray) -> float:
    """Variance of a 1-D PMF."""
    k = np.arange(p.size)
    m = np.dot(k, p)
    return float(np.dot((k - m) ** 2, p))


def truncation_loss(p: np.ndarray) -> float:
    """Probability mass missing from ``p`` because of truncation (1 - total)."""
    return float(1.0 - p.sum())


def binomial_pmf(n: int, q: float) -> np.ndarray:
    """PMF of Binomial(n, q) over 0..n (as the n-fold sum of one Bernoulli trial)."""
    out = convolve_power(np.array([1.0 - q, q]), n, tol=0.0)
    full = np.zeros(n + 1)
    full[: out.size] = out
    return full


def _chain_depth(top: float, tol: float) -> int:
    """How many links of an explosion chain carry mass of at least ``tol``."""
    if top <= 0.0:
        return 0
    return max(1, math.ceil(math.log(tol) / math.log(top)))


def _outcome_probabilities(sides: int, threshold: int) -> tuple[float, float, float]:
    """(failure faces, plain-success faces, top face) probabilities of one die."""
    if not 1 <= threshold <= sides:
        raise ValueError(f"threshold {threshold} is outside 1..{sides}")
    top = 1.0 / sides
    plain = (sides - threshold) / sides
    fail = (threshold - 1) / sides
    return fail, plain, top


def _single_die_joint(sides, threshold, top_mode, chain, tol):
    """Joint PMF (successes, criticals) of one die rolled once, with its explosion chain."""
    fail, plain, top = _outcome_probabilities(sides, threshold)
    if top_mode == TOP_EXPLODE:
        if chain:
            depth = _chain_depth(top, tol)
            # extra die chain: j tops in a row then a plain success or a failure
            extra = np.zeros((depth + 2, depth + 1))
            for j in range(depth + 1):
                extra[j + 1, j] += top**j * plain
                extra[j, j] += top**j * fail
        else:
            extra = np.array([[fail], [plain + top]])
        p = np.zeros((extra.shape[0] + 1, extra.shape[1] + 1))
        p[0, 0] = fail
        p[1, 0] += plain
        p[1:, 1:] += top * extra
        return trim(p, tol)
    if top_mode == TOP_SUCCESS:
        return np.array([[fail], [plain + top]])
    if top_mode == TOP_FAIL:
        return np.array([[fail + top], [plain]])
    raise ValueError(f"unknown top_mode {top_mode}")


def success_roll_joint(
    n: int,
    sides: int,
    threshold: int,
    top_mode: int = TOP_EXPLODE,
    chain: bool = True,
    reroll_failures: bool = False,
    reroll_limit: int = 0,
    tol: float = EXACT_TAIL_TOLERANCE,
    marginal: int | None = None,
) -> np.ndarray:
    """Exact PMF of :func:`simcore.dice.success_roll`.

    Args:
        n: dice first rolled (>= 0).
        marginal: None for the joint PMF ``p[successes, criticals]``; 0 for the successes alone, 1 for
            the criticals alone (1-D, computed with 1-D convolutions: much cheaper for many dice).
    """
    one = _single_die_joint(sides, threshold, top_mode, chain, tol)
    fail_first = one[0, 0]  # only the all-failure outcome has zero successes and zero criticals

    def shape(p):
        return p if marginal is None else p.sum(axis=1 - marginal)

    if n == 0 or not (reroll_failures or reroll_limit > 0):
        return convolve_power(shape(one), n, tol)
    if reroll_failures or reroll_limit >= n:  # every failed die is rerolled: dice stay independent
        per_die = one.copy()
        per_die[0, 0] = 0.0
        per_die = mixture([1.0, fail_first], [per_die, one])
        return convolve_power(shape(per_die), n, tol)

    # Up to K rerolls: f of the n dice fail first; min(K, f) of them are rolled again once.
    kept = one.copy()
    kept[0, 0] = 0.0
    weights = binomial_pmf(n, fail_first)
    kept_powers = convolve_powers(shape(kept / (1.0 - fail_first)), n, tol) if fail_first < 1 else None
    reroll_powers = convolve_powers(shape(one), reroll_limit, tol)
    parts, part_weights = [], []
    for failed in range(n + 1):
        w = weights[failed]
        if w < tol:
            continue
        kept_part = kept_powers[n - failed] if kept_powers is not None else unit(2 if marginal is None else 1)
        parts.append(convolve(kept_part, reroll_powers[min(reroll_limit, failed)], tol))
        part_weights.append(w)
    return trim(mixture(part_weights, parts), tol)


def keep_highest_pmf(n: int, sides: int, keep: int) -> np.ndarray:
    """PMF of the sum of the highest ``keep`` of ``n`` dice with faces ``1..sides``.

    Walks the faces from the top: of the r dice not yet placed, each shows face v with probability 1/v
    given that it is at most v, so the number showing v is Binomial(r, 1/v).
    """
    if not 0 <= keep <= n:
        raise ValueError(f"cannot keep {keep} of {n} dice")
    # state[r] = PMF of the kept sum so far, given r dice not yet placed
    state = {n: np.ones(1)}
    for face in range(sides, 0, -1):
        nxt: dict[int, np.ndarray] = {}
        for remaining, pmf in state.items():
            placed = n - remaining
            counts = binomial_pmf(remaining, 1.0 / face)
            for c in range(remaining + 1):
                if counts[c] == 0.0:
                    continue
                take = max(0, min(c, keep - placed))
                shifted = np.zeros(pmf.size + take * face)
                shifted[take * face :] = pmf * counts[c]
                left = remaining - c
                nxt[left] = shifted if left not in nxt else mixture([1, 1], [nxt[left], shifted])
        state = nxt
    return state[0]


def exploding_sum_pmf(sides: int, depth: int, tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """PMF of :func:`simcore.dice.exploding_sum` (``depth`` < 0: unlimited, truncated at ``tol``)."""
    if depth < 0:
        depth = _chain_depth(1.0 / sides, tol)
        last_explodes = False
    else:
        last_explodes = True
    p = np.zeros((depth + 1) * sides + 1)
    for j in range(depth + 1):
        reach = (1.0 / sides) ** (j + 1)
        faces = range(1, sides + 1) if (j == depth and last_explodes) else range(1, sides)
        for f in faces:
            p[j * sides + f] += reach
    return p


def roll_with_reroll_pmf(sides: int, reroll_below: int) -> np.ndarray:
    """PMF of :func:`simcore.dice.roll_with_reroll`."""
    first = die_pmf(sides)
    rerolled = float(first[:reroll_below].sum())
    out = first.copy()
    out[:reroll_below] = 0.0
    return out + rerolled * first


__all__ = [
    "TOP_EXPLODE",
    "TOP_FAIL",
    "TOP_SUCCESS",
    "at_least",
    "binomial_pmf",
    "convolve",
    "convolve_power",
    "convolve_powers",
    "die_pmf",
    "exploding_sum_pmf",
    "face_table_pmf",
    "keep_highest_pmf",
    "mean",
    "mixture",
    "roll_with_reroll_pmf",
    "success_roll_joint",
    "trim",
    "truncation_loss",
    "unit",
    "variance",
]
