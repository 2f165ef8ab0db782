"""simcore.sampling: inverse-CDF and alias tables: validation, structure and sampled frequencies."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import rng, sampling
from simcore.config import JIT
from simcore.stats import chisquare_gof

TRIALS = 200_000
#: Skewed, with zero entries at the start, inside and at the end.
SKEWED = np.array([0.0, 0.5, 0.0, 0.2, 0.001, 0.0, 0.099, 0.15, 0.05, 0.0])


@nb.njit(**JIT)
def _cdf_hist(state, cdf, trials):
    hist = np.zeros(cdf.shape[0], np.int64)
    for _ in range(trials):
        hist[sampling.draw_cdf(state, cdf)] += 1
    return hist


@nb.njit(**JIT)
def _alias_hist(state, prob, alias, trials):
    hist = np.zeros(prob.shape[0], np.int64)
    for _ in range(trials):
        hist[sampling.draw_alias(state, prob, alias)] += 1
    return hist


def _alias_pmf(prob: np.ndarray, alias: np.ndarray) -> np.ndarray:
    """The PMF an alias table encodes: column i gives prob[i] / n to i and the rest to alias[i]."""
    n = prob.size
    p = prob / n
    np.add.at(p, alias, (1.0 - prob) / n)
    return p


# comparisons are False for NaN, so NaN and inf weights need their own check
_NOT_FINITE = [pytest.mark.filterwarnings("ignore::RuntimeWarning")]
BAD_PMFS = [
    pytest.param(np.array([]), id="empty"),
    pytest.param(np.array([0.5, -0.1, 0.6]), id="negative"),
    pytest.param(np.array([0.0, 0.0]), id="all-zero"),
    pytest.param(np.array([[-1.0, 2.0]]), id="negative-2d"),
    pytest.param(np.array([np.nan, 1.0]), id="nan", marks=_NOT_FINITE),
    pytest.param(np.array([np.inf, 1.0]), id="inf", marks=_NOT_FINITE),
]


@pytest.mark.parametrize("bad", BAD_PMFS)
def test_cdf_table_rejects(bad):
    with pytest.raises(ValueError):
        sampling.cdf_table(bad)


@pytest.mark.parametrize("bad", BAD_PMFS)
def test_alias_table_rejects(bad):
    with pytest.raises(ValueError):
        sampling.alias_table(bad)


def test_cdf_table_values():
    cdf = sampling.cdf_table(np.array([1.0, 0.0, 3.0]))  # unnormalised weights are normalised
    np.testing.assert_allclose(cdf, [0.25, 0.25, 1.0], rtol=0, atol=1e-16)
    assert cdf[-1] == 1.0


def test_cdf_sampling_matches_pmf():
    cdf = sampling.cdf_table(SKEWED)
    hist = _cdf_hist(rng.stream(1, 0), cdf, TRIALS)
    assert hist.sum() == TRIALS
    assert hist[SKEWED == 0].sum() == 0
    assert (hist[SKEWED > 0] > 0).all()
    fit = chisquare_gof(hist, SKEWED)
    assert fit.dof >= 4
    assert fit.pvalue > 1e-4


def test_alias_sampling_matches_pmf():
    prob, alias = sampling.alias_table(SKEWED)
    hist = _alias_hist(rng.stream(2, 0), prob, alias, TRIALS)
    assert hist.sum() == TRIALS
    assert hist[SKEWED == 0].sum() == 0
    assert (hist[SKEWED > 0] > 0).all()
    fit = chisquare_gof(hist, SKEWED)
    assert fit.dof >= 4
    assert fit.pvalue > 1e-4


def test_sampling_fit_has_power():
    # The same check rejects draws from the skewed PMF compared with a flattened one.
    hist = _cdf_hist(rng.stream(3, 0), sampling.cdf_table(SKEWED), TRIALS)
    flat = np.where(SKEWED > 0, 1.0, 0.0)
    assert chisquare_gof(hist, flat / flat.sum()).pvalue < 1e-12


def test_alias_table_structure():
    prob, alias = sampling.alias_table(SKEWED)
    assert prob.dtype == np.float64 and alias.dtype == np.int64
    assert prob.shape == alias.shape == SKEWED.shape
    assert prob.min() >= 0.0 and prob.max() <= 1.0
    np.testing.assert_array_equal(prob[SKEWED == 0], 0.0)  # a zero outcome keeps none of its column
    assert (SKEWED[alias[prob < 1.0]] > 0).all()  # and never serves as an alias
    np.testing.assert_allclose(_alias_pmf(prob, alias), SKEWED, rtol=0, atol=1e-15)


def test_single_outcome_tables():
    np.testing.assert_array_equal(sampling.cdf_table(np.array([0.3])), [1.0])
    prob, alias = sampling.alias_table(np.array([0.3]))
    np.testing.assert_array_equal(prob, [1.0])
    np.testing.assert_array_equal(alias, [0])
    assert _cdf_hist(rng.stream(4, 0), np.array([1.0]), 100).tolist() == [100]
    assert _alias_hist(rng.stream(4, 0), prob, alias, 100).tolist() == [100]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.0, 1e-9, 0.01, 0.1, 0.3, 1.0, 7.0]), min_size=1, max_size=20)
       .filter(lambda v: sum(v) > 0))
def test_tables_encode_the_pmf(weights):
    p = np.array(weights) / sum(weights)
    prob, alias = sampling.alias_table(np.array(weights))
    np.testing.assert_allclose(_alias_pmf(prob, alias), p, rtol=0, atol=1e-12)
    assert (prob[p == 0] == 0).all()
    cdf = sampling.cdf_table(np.array(weights))
    np.testing.assert_allclose(np.diff(cdf, prepend=0.0), p, rtol=0, atol=1e-12)
    assert cdf[-1] == 1.0


# Rounding must not leave a sliver of width 2**-53 after the last possible outcome ([0.1] * 10 + [0] sums
# to 1 - 2**-53), which uniform01 could reach with a word of all ones, nor an unsorted table.
@pytest.mark.parametrize("pmf", [[0.1] * 10 + [0.0], [0, 0, 0, 0.3, 0, 1e-9, 1e-9, 0]],
                         ids=["tenths", "tiny-tail"])
def test_cdf_table_is_exactly_one_from_the_last_outcome_on(pmf):
    pmf = np.array(pmf)
    cdf = sampling.cdf_table(pmf)
    last = int(np.flatnonzero(pmf)[-1])
    largest_uniform = 1.0 - 2.0**-53  # what uniform01 returns for a word of all ones
    assert np.searchsorted(cdf, largest_uniform, side="right") == last
    assert (np.diff(cdf) >= 0).all()
    np.testing.assert_array_equal(cdf[last:], 1.0)
