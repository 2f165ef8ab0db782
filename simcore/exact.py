"""Exact distributions as numpy arrays.

A PMF is a float64 array indexed by outcome: ``p[k]`` is P(X = k) for a count, ``p[s, c]`` is
P(S = s, C = c) for a joint count. Unbounded chains (explosions) are truncated once the mass they would
still add falls below :data:`simcore.config.EXACT_TAIL_TOLERANCE`; :func:`truncation_loss` says how much.
"""

from __future__ import annotations

import functools
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

    # up to K rerolls couple the dice: the closed form, quadratic in n (a mixture of convolutions over every
    # number of first failures took 5 s for 100 dice and minutes for a few hundred)
    return shape(success_roll_closed(n, sides, threshold, top_mode, chain, False, reroll_limit, tol))


def success_marginals(sides: int, thresholds: Sequence[int], top_mode: int = TOP_EXPLODE, chain: bool = True,
                      reroll_failures: bool = False, tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """Successes PMF of one die (its explosion chain and its reroll included) for each threshold at once:
    row ``i`` is the marginal of :func:`_single_die_joint` at ``thresholds[i]`` (every failure rerolled
    once with ``reroll_failures``), padded with zeros to a common length whose tail holds less than
    ``tol`` in every row."""
    t = np.asarray(thresholds, dtype=np.float64)[:, None]
    if np.any(t < 1) or np.any(t > sides):
        raise ValueError(f"thresholds {list(thresholds)} are not all within 1..{sides}")
    fail, plain, top = (t - 1.0) / sides, (sides - t) / sides, 1.0 / sides
    if top_mode == TOP_EXPLODE and chain:
        # a critical adds a chain: j more tops then a plain success (j + 1 more) or a failure (j more), so
        # P(k) = top^k fail + top^(k-1) plain for k >= 2
        k = np.arange(_chain_depth(top, tol) + 3, dtype=np.float64)[None, :]
        g = top**k * fail + top ** (k - 1) * plain
        g[:, :1] = fail
        g[:, 1:2] = plain + top * fail
    elif top_mode == TOP_EXPLODE:
        g = np.hstack([fail, plain + top * fail, top * (plain + top)])
    elif top_mode == TOP_SUCCESS:
        g = np.hstack([fail, plain + top])
    elif top_mode == TOP_FAIL:
        g = np.hstack([fail + top, plain])
    else:
        raise ValueError(f"unknown top_mode {top_mode}")
    if reroll_failures:
        # a failed die is rolled again: the failure's mass becomes the failure's share of a whole die
        first_fail = g[:, :1].copy()
        kept = g.copy()
        kept[:, 0] = 0.0
        g = kept + first_fail * g
    return g


def success_powers(sides: int, thresholds: Sequence[int], n_max: int, top_mode: int = TOP_EXPLODE,
                   chain: bool = True, reroll_failures: bool = False, tol: float = EXACT_TAIL_TOLERANCE
                   ) -> list[list[np.ndarray]]:
    """Successes PMFs of 0..n_max independent dice for each threshold: ``out[i][n]`` is
    :func:`success_roll_joint` ``(n, sides, thresholds[i], ..., marginal=0)``, trimmed where its tail holds
    less than ``tol`` (read-only views of one array).

    With chained criticals (or no criticals) one die's successes are 0 with probability f, else 1 plus a
    geometric number of further tops: P(k) = (1-f) (1-t) t^(k-1) for k >= 1 (t the top face; every failure
    rerolled once makes f f^2). So m of n dice succeed, Binomial(n, 1-f), and they make s successes with
    probability C(s-1, m-1) t^(s-m) (1-t)^m: the whole table is one small matrix product of non-negative
    terms (no convolution, no FFT, full relative accuracy in the tail). Criticals without a chain have no
    such form and are convolved row by row.
    """
    if top_mode == TOP_EXPLODE and not chain:
        g = success_marginals(sides, thresholds, top_mode, chain, reroll_failures, tol)
        return [convolve_powers(row, n_max, tol) for row in g]
    thresholds = list(thresholds)
    if not all(1 <= th <= sides for th in thresholds):
        raise ValueError(f"thresholds {thresholds} are not all within 1..{sides}")
    thresholds = np.array(thresholds, dtype=np.float64)
    if top_mode not in (TOP_EXPLODE, TOP_SUCCESS, TOP_FAIL):
        raise ValueError(f"unknown top_mode {top_mode}")
    f = (thresholds - (0.0 if top_mode == TOP_FAIL else 1.0)) / sides
    if reroll_failures:
        f = f * f
    t = 1.0 / sides if top_mode == TOP_EXPLODE else 0.0
    rest, succeeding, choose = _binomial_grid(n_max)
    powers_of = np.arange(n_max + 1)
    # [i, n, m] = P(m of n dice succeed) at threshold i (products of powers: no exp/log rounding)
    binomial = (choose * np.power.outer(f, powers_of).take(rest, axis=1)
                * np.power.outer(1.0 - f, powers_of).take(succeeding, axis=1))
    width = _successes_width(n_max, t, tol)
    # times [m, s] = P(s successes | m dice succeed) and its tails [m, s] = P(>= s successes | m): one
    # 2-D product for the whole table (non-negative terms only: full relative accuracy in the tails)
    both = binomial.reshape(-1, n_max + 1) @ _geometric_sums(n_max, width, t)
    powers = both[:, :width].reshape(len(f), n_max + 1, width)
    keep = np.maximum(np.count_nonzero(both[:, width:] >= tol, axis=1), 1).reshape(len(f), -1).tolist()
    powers.setflags(write=False)
    return [[row[k, :size] for k, size in enumerate(sizes)] for row, sizes in zip(powers, keep, strict=True)]


@functools.lru_cache(maxsize=16)
def _binomial_grid(n_max: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n - m, m, C(n, m)) over [n, m] for 0 <= m <= n <= n_max (C is 0 above the diagonal, and n - m
    and m are 0 there). Cached, read-only."""
    n, m = np.arange(n_max + 1)[:, None], np.arange(n_max + 1)[None, :]
    ok = m <= n
    m, rest = np.where(ok, m, 0), np.where(ok, n - m, 0)
    if n_max <= 56:
        # Pascal's rule row by row, exact while every C(n, m) < 2**53 (n <= 56)
        choose = np.zeros((n_max + 1, n_max + 1))
        choose[:, 0] = 1.0
        for a in range(1, n_max + 1):
            choose[a, 1:] = choose[a - 1, 1:] + choose[a - 1, :-1]
    else:
        choose = np.array([[math.comb(a, b) for b in range(n_max + 1)] for a in range(n_max + 1)],
                          dtype=np.float64)
    for a in (rest, m, choose):
        a.setflags(write=False)
    return rest, m, choose


@functools.lru_cache(maxsize=64)
def _successes_width(n_max: int, t: float, tol: float) -> int:
    """Outcomes 0..width-1 hold all but less than ``tol`` of n_max dice's successes (n_max + the tops)."""
    return n_max + 1 + (_negative_binomial(n_max, t, tol * 1e-3).size if t > 0.0 and n_max else 0)


@functools.lru_cache(maxsize=64)
def _geometric_sums(m_max: int, width: int, t: float) -> np.ndarray:
    """[m, s] = C(s-1, m-1) t^(s-m) (1-t)^m (1 at m = s = 0), the PMF of the sum of m counts that are
    each 1 plus a Geometric(t) number of further tops, built along s by ratios; beside it, [m, width + s]
    = P(sum >= s). Cached, read-only."""
    rows = min(m_max, width - 1)
    m = np.arange(1, rows + 1)[:, None]
    s = np.arange(width)[None, :]
    # row m from s = m on: (1-t)^m, then the ratios C(s-1, m-1) t^(s-m) / (C(s-2, m-1) t^(s-1-m))
    # = t (s-1) / (s-m); ones before s = m leave the products along s as a row-by-row cumprod makes them
    factors = np.divide(t * (s - 1), s - m, out=np.ones((rows, width)), where=s > m)
    factors[m[:, 0] - 1, m[:, 0]] = (1.0 - t) ** m[:, 0]
    out = np.zeros((m_max + 1, 2 * width))
    pmf = out[:, :width]
    pmf[0, 0] = 1.0
    pmf[1:rows + 1] = np.cumprod(factors, axis=1)
    pmf[1:rows + 1][s < m] = 0.0
    out[:, width:] = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    out.setflags(write=False)
    return out


# --- success rolls in closed form -------------------------------------------------------------------------

_NO_REROLLS = 0
_ALL_REROLLED = 1


def reroll_kind(n: int, reroll_failures: bool, reroll_limit: int) -> int:
    """0: no rerolls; 1: every failure (or a limit of at least n, the same thing); 1 + L: up to L."""
    if reroll_failures:
        return _ALL_REROLLED
    if reroll_limit <= 0:
        return _NO_REROLLS
    return _ALL_REROLLED if reroll_limit >= n else 1 + reroll_limit


def _cf_face_probabilities(sides: int, threshold: int, top_mode: int) -> tuple[float, float, float]:
    """(failure, plain success, critical) probabilities of one die."""
    plain = max(0, sides - max(threshold, 1))
    crit = 1 if top_mode == TOP_EXPLODE else 0
    if top_mode == TOP_SUCCESS:
        plain += 1
    ps, pc = plain / sides, crit / sides
    return 1.0 - ps - pc, ps, pc


def _log_factorials(n: int) -> np.ndarray:
    return np.array([math.lgamma(k + 1.0) for k in range(n + 1)])


def _k_log(k: np.ndarray, p: float) -> np.ndarray:
    """k * log(p), 0 where k is 0 (also when p is 0), -inf where p is 0 and k is not."""
    if p > 0.0:
        return k * math.log(p)
    return np.where(k == 0, 0.0, -np.inf)


def _binomial(n: int, q: float, logf: np.ndarray) -> np.ndarray:
    k = np.arange(n + 1)
    return np.exp(logf[n] - logf[k] - logf[n - k] + _k_log(k, q) + _k_log(n - k, 1.0 - q))


def _negative_binomial(r: int, t: float, tol: float) -> np.ndarray:
    """P[k]: k top faces rolled before r other faces (a top face has probability t), past the mode until
    the terms fall below ``tol``."""
    terms = [(1.0 - t) ** r]
    k = 0
    while True:
        nxt = terms[-1] * (k + r) / (k + 1) * t
        k += 1
        if k > r * t / (1.0 - t) + 1 and nxt < tol:
            return np.array(terms)
        terms.append(nxt)


def _tail_trimmed(p: np.ndarray, tol: float) -> np.ndarray:
    """``p`` without trailing rows and columns whose mass is below ``tol`` (together along each axis)."""
    for axis in (0, 1):
        mass = p.sum(axis=1 - axis)
        tail = np.cumsum(mass[::-1])[::-1]  # tail[i]: mass from i on
        keep = max(1, int(np.count_nonzero(tail >= tol / 2)))
        p = p[:keep] if axis == 0 else p[:, :keep]
    return p


def _first_dice(n: int, pf: float, ps: float, pc: float, kind: int, logf: np.ndarray) -> np.ndarray:
    """P[successes, criticals] of the n dice first rolled, rerolls included (no extra dice yet).

    Whatever the rerolls, each die that ends a success is a critical with probability pc / (ps + pc),
    independently: the criticals given s successes are Binomial(s, pc / (ps + pc)). The successes are
    Binomial(n, 1 - pf) without rerolls and Binomial(n, 1 - pf**2) with every failure rolled again; with
    up to L failures rolled again, n - f + Binomial(min(f, L), 1 - pf) given f failures first.
    """
    if kind == _ALL_REROLLED:
        successes = _binomial(n, 1.0 - pf * pf, logf)
    elif kind == _NO_REROLLS:
        successes = _binomial(n, 1.0 - pf, logf)
    else:
        limit = kind - 1
        failures = _binomial(n, pf, logf)
        successes = np.zeros(n + 1)
        for f in np.flatnonzero(failures):
            r = min(f, limit)
            successes[n - f:n - f + r + 1] += failures[f] * _binomial(r, 1.0 - pf, logf)
    q = pc / (ps + pc) if ps + pc > 0.0 else 0.0
    s, c = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    ok = c <= s
    c, rest = np.where(ok, c, 0), np.where(ok, s - c, 0)
    log_split = logf[c + rest] - logf[c] - logf[rest] + _k_log(c, q) + _k_log(rest, 1.0 - q)
    return successes[:, None] * np.exp(np.where(ok, log_split, -np.inf))


def success_roll_closed(n: int, sides: int, threshold: int, top_mode: int = TOP_EXPLODE, chain: bool = True,
                        reroll_failures: bool = False, reroll_limit: int = 0,
                        tol: float = EXACT_TAIL_TOLERANCE) -> np.ndarray:
    """Joint PMF ``p[successes, criticals]`` of :func:`simcore.dice.success_roll` in closed form: the
    successes of the dice first rolled (binomial, rerolls included), the criticals a binomial split of
    them, binomial extra dice and negative-binomial chains of top faces. Quadratic in ``n``; trailing
    rows and columns whose mass is below ``tol`` are dropped (not renormalized)."""
    if n <= 0:
        return np.ones((1, 1))
    pf, ps, pc = _cf_face_probabilities(sides, threshold, top_mode)
    logf = _log_factorials(n + max(0, reroll_limit))
    first = _first_dice(n, pf, ps, pc, reroll_kind(n, reroll_failures, reroll_limit), logf)
    if pc == 0.0:
        return _tail_trimmed(first, tol)
    t = 1.0 / sides
    if chain:
        # each critical starts a chain: tops (successes and criticals that add a die) until another face,
        # a success when it reaches the threshold
        q = (sides - max(threshold, 1)) / (sides - 1.0) if sides > 1 else 0.0
        depth = _negative_binomial(n, t, tol * 1e-3).size
    else:
        q = (sides - max(threshold, 1) + 1.0) / sides
        depth = 1
    # k more tops add k to successes and to criticals alike, so the array is held by (successes - criticals,
    # criticals): each critical count c then adds one outer product; it is skewed back at the end
    skew = np.zeros((n + 1, n + depth + 1))
    for c in range(n + 1):
        column = first[:, c]
        if column.sum() < tol * 1e-10:
            continue
        # the c extra dice: each a success with probability q (after its chain of tops, when chained);
        # successes y = s + b >= c, since the c criticals are successes
        spread = np.convolve(column, _binomial(c, q, logf))[c:]
        tops = _negative_binomial(c, t, tol * 1e-3) if chain else np.ones(1)
        skew[:, c:c + tops.size] += np.outer(spread, tops)
    out = np.zeros((2 * n + depth + 1, n + depth + 1))
    for crits in range(n + depth + 1):
        out[crits:crits + n + 1, crits] = skew[:, crits]
    return _tail_trimmed(out, tol)


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
    "reroll_kind",
    "roll_with_reroll_pmf",
    "success_marginals",
    "success_powers",
    "success_roll_closed",
    "success_roll_joint",
    "trim",
    "truncation_loss",
    "unit",
    "variance",
]
