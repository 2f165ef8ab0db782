"""simcore.stats: means and standard errors by hand, intervals, goodness of fit, paired differences."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import stats


def test_z95():
    assert stats.Z95 == pytest.approx(1.959963984540054, abs=1e-12)


def test_estimate_half_width_and_interval():
    e = stats.Estimate(value=2.5, stderr=0.1, trials=100)
    assert e.half_width == pytest.approx(0.1959963984540054, abs=1e-15)
    lo, hi = e.ci95
    assert lo == pytest.approx(2.5 - 0.1959963984540054, abs=1e-15)
    assert hi == pytest.approx(2.5 + 0.1959963984540054, abs=1e-15)
    assert stats.Estimate(1.0, 0.0, 5).half_width == 0.0


# --- means ------------------------------------------------------------------------------------------------


def test_histogram_mean_by_hand():
    # values 0,1,2,3 seen 1,2,3,4 times: mean 20/10 = 2; sample variance (4 + 2 + 0 + 4) / 9 = 10/9;
    # standard error sqrt(10/9 / 10) = 1/3
    e = stats.histogram_mean(np.array([1, 2, 3, 4]))
    assert e.value == pytest.approx(2.0, abs=1e-15)
    assert e.stderr == pytest.approx(1 / 3, abs=1e-15)
    assert e.trials == 10


def test_histogram_mean_with_values():
    # 10 twice, 20 three times: mean 16; variance (2 * 36 + 3 * 16) / 4 = 30; stderr sqrt(30 / 5)
    e = stats.histogram_mean(np.array([2, 3]), np.array([10.0, 20.0]))
    assert e.value == pytest.approx(16.0, abs=1e-13)
    assert e.stderr == pytest.approx(math.sqrt(6.0), abs=1e-13)
    assert e.trials == 5


def test_histogram_mean_edges():
    one = stats.histogram_mean(np.array([0, 1]))
    assert (one.value, one.stderr, one.trials) == (1.0, 0.0, 1)
    constant = stats.histogram_mean(np.array([0, 0, 50]))
    assert (constant.value, constant.stderr) == (2.0, 0.0)
    with pytest.raises(ValueError):
        stats.histogram_mean(np.array([0, 0]))


def test_proportion():
    e = stats.proportion(30, 100)
    assert e.value == pytest.approx(0.3, abs=1e-15)
    assert e.stderr == pytest.approx(math.sqrt(0.21 / 100), abs=1e-15)
    assert e.trials == 100
    assert stats.proportion(0, 50).stderr == 0.0


def test_histogram_pmf():
    p, se = stats.histogram_pmf(np.array([25, 75]))
    np.testing.assert_allclose(p, [0.25, 0.75], rtol=0, atol=1e-15)
    np.testing.assert_allclose(se, [math.sqrt(0.1875 / 100)] * 2, rtol=0, atol=1e-15)


# --- Wilson interval ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, method 3 (score interval without correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_published_values(k, n, lo, hi):
    got_lo, got_hi = stats.wilson_interval(k, n)
    assert float(got_lo) == pytest.approx(lo, abs=6e-5)
    assert float(got_hi) == pytest.approx(hi, abs=6e-5)


def test_wilson_vectorised_and_inside_unit_interval():
    lo, hi = stats.wilson_interval(np.array([0, 5, 10]), 10)
    assert lo.shape == hi.shape == (3,)
    assert ((0.0 <= lo) & (lo <= hi) & (hi <= 1.0)).all()
    assert lo[0] == pytest.approx(0.0, abs=1e-15)
    assert hi[2] == pytest.approx(1.0, abs=1e-15)
    # 0 of 10: upper bound z^2 / (n + z^2) = 0.2775; symmetric at 10 of 10
    z2 = stats.Z95**2
    assert hi[0] == pytest.approx(z2 / (10 + z2), abs=1e-14)
    assert lo[2] == pytest.approx(10 / (10 + z2), abs=1e-14)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10**7), st.data())
def test_wilson_contains_the_estimate(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = stats.wilson_interval(k, n)
    assert 0.0 <= lo <= k / n + 1e-15
    assert k / n - 1e-15 <= hi <= 1.0


# --- goodness of fit ------------------------------------------------------------------------------------


def test_chisquare_gof_perfect_fit():
    fit = stats.chisquare_gof(np.array([100, 200, 300, 400]), np.array([0.1, 0.2, 0.3, 0.4]))
    assert fit.statistic == pytest.approx(0.0, abs=1e-20)
    assert fit.dof == 3
    assert fit.pvalue == pytest.approx(1.0, abs=1e-12)


def test_chisquare_gof_by_hand():
    # 30 / 70 against a fair coin: (20^2 / 50) * 2 = 16 on 1 degree of freedom, p = 6.334e-5
    fit = stats.chisquare_gof(np.array([30, 70]), np.array([0.5, 0.5]))
    assert fit.statistic == pytest.approx(16.0, abs=1e-12)
    assert fit.dof == 1
    assert fit.pvalue == pytest.approx(6.334248366623988e-05, rel=1e-9)


def test_chisquare_gof_rejects_a_wrong_pmf():
    counts = np.full(6, 1000)  # a fair d6, 6000 rolls
    wrong = np.array([0.5, 0.1, 0.1, 0.1, 0.1, 0.1])
    assert stats.chisquare_gof(counts, wrong).pvalue < 1e-100


def test_chisquare_gof_pools_thin_bins():
    # expected counts 50, 44, 4, 1, 1 -> groups {50}, {44}, {4, 1} and the thin {1} folded into the last:
    # observed 50, 44, 4 + 2 + 0 against expected 50, 44, 6
    counts = np.array([50, 44, 4, 2, 0])
    pmf = np.array([0.5, 0.44, 0.04, 0.01, 0.01])
    fit = stats.chisquare_gof(counts, pmf)
    assert fit.dof == 2
    assert fit.statistic == pytest.approx(0.0, abs=1e-12)
    # without pooling the same counts would not fit: (4-4)^2/4 + (2-1)^2/1 + (0-1)^2/1 = 2
    unpooled = stats.chisquare_gof(counts, pmf, min_expected=0.0)
    assert unpooled.dof == 4
    assert unpooled.statistic == pytest.approx(2.0, abs=1e-12)


def test_chisquare_gof_missing_mass_goes_to_the_last_bin():
    # a truncated PMF: its last bin stands for "this value or more", so the 0.2 it lacks and the counts
    # beyond it both land there: observed 50, 30 + 20 against expected 50, 30 + 20
    fit = stats.chisquare_gof(np.array([50, 30, 20]), np.array([0.5, 0.3]))
    assert fit.statistic == pytest.approx(0.0, abs=1e-12)
    assert fit.dof == 1
    # but counts on an impossible outcome inside the PMF's range reject the fit outright
    bad = stats.chisquare_gof(np.array([50, 40, 10, 0]), np.array([0.5, 0.5, 0.0, 0.0]))
    assert (bad.statistic, bad.pvalue) == (float("inf"), 0.0)


def test_chisquare_gof_everything_in_one_group():
    fit = stats.chisquare_gof(np.array([3, 1]), np.array([0.5, 0.5]))
    assert (fit.statistic, fit.dof, fit.pvalue) == (0.0, 0, 1.0)


def test_pool_by_hand():
    labels = stats._pool(np.array([1.0, 2.0, 3.0, 10.0, 0.5, 0.5]), 5.0)
    # 1+2+3 = 6 closes group 0; 10 is group 1; the thin tail 0.5+0.5 folds into group 1
    assert labels.tolist() == [0, 0, 0, 1, 1, 1]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0.0, 30.0), min_size=1, max_size=40).filter(lambda v: sum(v) >= 5.0))
def test_pool_keeps_every_group_at_least_min_expected(expected):
    expected = np.array(expected)
    labels = stats._pool(expected, 5.0)
    assert labels[0] == 0
    assert set(np.diff(labels).tolist()) <= {0, 1}  # neighbours only, in order
    sums = np.bincount(labels, weights=expected)
    assert (sums >= 5.0 - 1e-9).all()


# --- two-sample test ------------------------------------------------------------------------------------


def test_chisquare_two_sample_by_hand():
    # 2x2 table [[30, 70], [70, 30]]: expected 50 everywhere, statistic 4 * 20^2 / 50 = 32
    fit = stats.chisquare_two_sample(np.array([30, 70]), np.array([70, 30]))
    assert fit.statistic == pytest.approx(32.0, abs=1e-12)
    assert fit.dof == 1
    assert fit.pvalue == pytest.approx(1.5417257900280013e-08, rel=1e-9)


def test_chisquare_two_sample_same_and_different():
    same = stats.chisquare_two_sample(np.array([100, 200, 300]), np.array([200, 400, 600]))
    assert same.statistic == pytest.approx(0.0, abs=1e-12)
    assert same.dof == 2
    assert same.pvalue == pytest.approx(1.0, abs=1e-12)
    rng = np.random.default_rng(0)
    a = np.bincount(rng.integers(0, 6, 20_000), minlength=6)
    b = np.bincount(rng.integers(0, 6, 20_000), minlength=6)
    assert stats.chisquare_two_sample(a, b).pvalue > 1e-4
    shifted = np.bincount(rng.integers(1, 7, 20_000), minlength=7)
    assert stats.chisquare_two_sample(a, shifted).pvalue < 1e-100


def test_chisquare_two_sample_unequal_lengths_and_pooling():
    # the longer histogram's thin tail is pooled; the shorter one is padded with zeros
    fit = stats.chisquare_two_sample(np.array([500, 500]), np.array([500, 498, 1, 1]))
    assert fit.dof == 1
    assert fit.statistic == pytest.approx(0.0, abs=1e-12)


# --- paired differences ---------------------------------------------------------------------------------

JOINT = np.array([
    [2, 1, 0],
    [0, 3, 1],
    [0, 0, 3],
])


def test_paired_difference_by_hand():
    # B - A is 0 in 8 trials and +1 in 2: mean 0.2; variance (8 * 0.04 + 2 * 0.64) / 9 = 1.6 / 9;
    # standard error sqrt(1.6 / 90) = 2/15
    e = stats.paired_difference(JOINT)
    assert e.value == pytest.approx(0.2, abs=1e-15)
    assert e.stderr == pytest.approx(2 / 15, abs=1e-15)
    assert e.trials == 10


def test_paired_difference_with_values():
    # A = 10 i, B = 10 j + 5: every difference is 10 (j - i) + 5, so mean 7 and stderr 10 * 2/15
    e = stats.paired_difference(JOINT, values_a=[0, 10, 20], values_b=[5, 15, 25])
    assert e.value == pytest.approx(7.0, abs=1e-13)
    assert e.stderr == pytest.approx(4 / 3, abs=1e-13)


def test_paired_difference_uses_the_pairs():
    # Perfectly paired: B = A + 1 every time, so the difference has no spread at all,
    # though each side alone varies.
    joint = np.zeros((4, 4), dtype=np.int64)
    joint[[0, 1, 2], [1, 2, 3]] = [10, 20, 30]
    e = stats.paired_difference(joint)
    assert e.value == pytest.approx(1.0, abs=1e-15)
    assert e.stderr == 0.0
    assert e.trials == 60


def test_ratio_of_means_by_the_delta_method():
    """An exact multiple has no error; independent noise gives the textbook delta-method error, checked
    against the spread of 400 replicate ratios."""
    from simcore.stats import ratio_of_means, sample_mean

    y = np.arange(1.0, 101.0)
    exact = ratio_of_means(2 * y, y)
    assert exact.value == pytest.approx(2.0) and exact.stderr == pytest.approx(0.0, abs=1e-12)
    assert ratio_of_means(y, np.zeros(100)) is None and ratio_of_means(y[:1], y[:1]) is None
    rng = np.random.default_rng(5)
    draws = [(rng.poisson(3.0, 2000), rng.poisson(6.0, 2000)) for _ in range(400)]
    ratios = [x.mean() / d.mean() for x, d in draws]
    est = ratio_of_means(*draws[0])
    assert est.stderr == pytest.approx(np.std(ratios, ddof=1), rel=0.15)
    m = sample_mean(np.array([1.0, 2.0, 3.0, 4.0]))
    assert m.value == 2.5 and m.stderr == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
