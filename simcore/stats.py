"""Statistics on integer histograms: means, intervals, goodness of fit, paired differences."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

#: Two-sided 95% normal quantile.
Z95: float = statistics.NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate with its standard error and trial count."""

    value: float
    stderr: float
    trials: int

    @property
    def half_width(self) -> float:
        """Half-width of the 95% normal interval."""
        return Z95 * self.stderr

    @property
    def ci95(self) -> tuple[float, float]:
        return self.value - self.half_width, self.value + self.half_width


def histogram_mean(counts: np.ndarray, values: np.ndarray | None = None) -> Estimate:
    """Mean of a 1-D histogram (``counts[i]`` trials had value ``values[i]``, default ``i``)."""
    counts = np.asarray(counts)
    n = int(counts.sum())
    if n == 0:
        raise ValueError("empty histogram")
    x = np.arange(counts.size, dtype=np.float64) if values is None else np.asarray(values, np.float64)
    w = counts.astype(np.float64)
    m = float(np.dot(x, w) / n)
    var = float(np.dot((x - m) ** 2, w) / (n - 1)) if n > 1 else 0.0
    return Estimate(m, (var / n) ** 0.5, n)


def proportion(successes: int, trials: int) -> Estimate:
    """A probability estimated from ``successes`` out of ``trials``: binomial standard error."""
    p = successes / trials
    return Estimate(p, (p * (1 - p) / trials) ** 0.5, trials)


def sample_mean(values: np.ndarray) -> Estimate:
    """The mean of per-trial values with its standard error (sample standard deviation / sqrt(n))."""
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    return Estimate(float(x.mean()), float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0, n)


def ratio_of_means(num: np.ndarray, den: np.ndarray) -> Estimate | None:
    """mean(num) / mean(den) of paired per-trial values, its standard error by the delta method; None when
    fewer than two trials or the denominator's mean is not positive."""
    x, y = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    n = x.size
    if n < 2 or y.mean() <= 0:
        return None
    r = x.mean() / y.mean()
    spread = np.var(x, ddof=1) - 2 * r * np.cov(x, y)[0, 1] + r * r * np.var(y, ddof=1)
    return Estimate(float(r), float(np.sqrt(max(spread / (n * y.mean() ** 2), 0.0))), n)


class RecordStats:
    """Estimates from per-trial records (int64[n, fields], an outcome code in column ``outcome_field``),
    for a result class that holds them as ``records``."""

    records: np.ndarray
    outcome_field: int = 0

    @property
    def trials(self) -> int:
        return int(self.records.shape[0])

    def p_outcome(self, code: int) -> Estimate:
        return proportion(int((self.records[:, self.outcome_field] == code).sum()), self.trials)

    def mean(self, field: int) -> Estimate:
        return sample_mean(self.records[:, field])

    def ratio(self, num: int, den: int) -> Estimate | None:
        return ratio_of_means(self.records[:, num], self.records[:, den])


def wilson_interval(successes, trials, z: float = Z95):
    """Wilson score interval for binomial proportions (vectorised); sensible at 0 and 1."""
    k = np.asarray(successes, dtype=np.float64)
    n = float(trials)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def histogram_pmf(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Estimated PMF of a histogram and the standard error of each entry."""
    n = counts.sum()
    p = counts / n
    return p, np.sqrt(p * (1 - p) / n)


def _pool(expected: np.ndarray, min_expected: float) -> np.ndarray:
    """Group labels that merge neighbouring bins until each group expects at least ``min_expected``."""
    labels = np.empty(expected.size, dtype=np.int64)
    group, acc = 0, 0.0
    for i, e in enumerate(expected):
        labels[i] = group
        acc += e
        if acc >= min_expected:
            group += 1
            acc = 0.0
    if acc < min_expected and group > 0:  # fold a thin last group into the one before
        labels[labels == group] = group - 1
    return labels


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    dof: int
    pvalue: float


def chisquare_gof(counts: np.ndarray, pmf: np.ndarray, min_expected: float = 5.0) -> ChiSquare:
    """Pearson goodness of fit of a histogram to an exact PMF, bins pooled to expect >= ``min_expected``.

    Mass of ``pmf`` beyond the histogram and counts beyond the PMF are both kept (in the last bin).
    Any count on an outcome of probability 0 rejects the fit outright (statistic inf, p-value 0):
    pooling must not hide an impossible outcome.
    """
    counts = np.asarray(counts, dtype=np.float64).ravel()
    p = np.asarray(pmf, dtype=np.float64).ravel().copy()
    c = np.zeros(p.size)
    c[: min(counts.size, p.size)] = counts[: p.size]
    c[-1] += counts[p.size :].sum()
    p[-1] += max(0.0, 1.0 - p.sum())
    n = c.sum()
    if np.any((p == 0.0) & (c > 0)):
        return ChiSquare(float("inf"), 0, 0.0)
    labels = _pool(p * n, min_expected)
    obs = np.bincount(labels, weights=c)
    exp = np.bincount(labels, weights=p * n)
    if obs.size < 2:
        return ChiSquare(0.0, 0, 1.0)
    stat = float(((obs - exp) ** 2 / exp).sum())
    dof = obs.size - 1
    from scipy import stats  # deferred: importing scipy.stats costs the command line ~0.3 s

    return ChiSquare(stat, dof, float(stats.chi2.sf(stat, dof)))


def chisquare_two_sample(a: np.ndarray, b: np.ndarray, min_expected: float = 5.0) -> ChiSquare:
    """Chi-square test that two histograms come from the same distribution (bins pooled)."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    size = max(a.size, b.size)
    aa = np.zeros(size)
    aa[: a.size] = a
    bb = np.zeros(size)
    bb[: b.size] = b
    na, nb_ = aa.sum(), bb.sum()
    pooled = (aa + bb) / (na + nb_)
    labels = _pool(pooled * min(na, nb_), min_expected)
    ga = np.bincount(labels, weights=aa)
    gb = np.bincount(labels, weights=bb)
    if ga.size < 2:
        return ChiSquare(0.0, 0, 1.0)
    from scipy import stats

    table = np.vstack([ga, gb])
    stat, pvalue, dof, _ = stats.chi2_contingency(table, correction=False)
    return ChiSquare(float(stat), int(dof), float(pvalue))


def paired_difference(joint_counts: np.ndarray, values_a=None, values_b=None) -> Estimate:
    """Mean of B - A from paired trials: ``joint_counts[i, j]`` trials gave A = values_a[i], B = values_b[j].

    Both sides ran on the same random streams (common random numbers), so the variance of the difference
    is estimated from the pairs, not from the two margins.
    """
    joint = np.asarray(joint_counts, dtype=np.float64)
    n = joint.sum()
    va = np.arange(joint.shape[0], dtype=np.float64) if values_a is None else np.asarray(values_a, float)
    vb = np.arange(joint.shape[1], dtype=np.float64) if values_b is None else np.asarray(values_b, float)
    diff = vb[None, :] - va[:, None]
    m = float((diff * joint).sum() / n)
    var = float(((diff - m) ** 2 * joint).sum() / (n - 1)) if n > 1 else 0.0
    return Estimate(m, (var / n) ** 0.5, int(n))
