"""simcore.sampling: guide tables (inverse CDF as integers) drawn with one 64-bit word.

Numbers: every table draws its PMF to within 1e-15 per outcome (float64 sums; 2**-64 words), never an
impossible outcome, in quantile order (monotone in the word); 10^6 draws fit the PMF (chi-square, p > 1e-4).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import rng, sampling
from simcore.config import JIT
from simcore.stats import chisquare_gof

SKEWED = np.array([0.5, 0.0, 0.25, 1e-9, 0.125, 0.0, 0.125 - 1e-9])


def tabled(pmf):
    k, cdf, values, guide = sampling.guide_table(pmf)
    return k, cdf, values, guide


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=90).filter(lambda w: sum(w) > 1e-3))
def test_a_table_draws_its_pmf_to_within_float_rounding(weights):
    pmf = np.asarray(weights) / sum(weights)
    k, cdf, values, guide = tabled(pmf)
    assert guide.size == 1 << k >= values.size
    assert np.all(np.diff(cdf.astype(object)) >= 0) and int(cdf[-1]) == 2**64 - 1
    drawn = sampling.table_probabilities(cdf, values, pmf.size)
    np.testing.assert_allclose(drawn, pmf, rtol=0, atol=1e-15)
    assert set(values.tolist()) == set(np.flatnonzero(pmf).tolist())


@nb.njit(**JIT)
def _pick(word, cdf, values, guide, k):
    """guide_pick (a per-trial helper: simcore.config.TRIAL_JIT) called from numba."""
    return sampling.guide_pick(word, cdf, values, guide, 0, 0, k)


def test_words_draw_in_quantile_order_and_never_an_impossible_outcome():
    k, cdf, values, guide = tabled(SKEWED)
    words = [0, 1, 2**63 - 1, 2**63, 2**63 + 2**62 - 1, 2**63 + 2**62, 2**64 - 1]
    words += list(range(0, 2**64, 2**50 + 12345))
    picks = [int(_pick(np.uint64(w), cdf, values, guide, k)) for w in sorted(words)]
    assert picks == sorted(picks)
    assert set(picks) <= {0, 2, 3, 4, 6}
    assert picks[0] == 0 and picks[-1] == 6
    # the first half of the words draws outcome 0 (probability 1/2), the next quarter outcome 2
    assert int(_pick(np.uint64(2**63 - 1), cdf, values, guide, k)) == 0
    assert int(_pick(np.uint64(2**63), cdf, values, guide, k)) == 2


def test_one_outcome_and_bad_pmfs():
    k, cdf, values, guide = tabled(np.array([0.0, 0.0, 2.0]))
    assert int(_pick(np.uint64(2**64 - 1), cdf, values, guide, k)) == 2
    assert int(_pick(np.uint64(0), cdf, values, guide, k)) == 2
    for bad in ([], [0.0, 0.0], [0.5, -0.1], [np.nan, 1.0], [np.inf]):
        with pytest.raises(ValueError, match="PMF"):
            sampling.guide_table(np.array(bad, dtype=float))


@nb.njit(**JIT)
def _histogram(seed, trials, cdf, values, guide, k, size):
    state = np.empty(rng.STATE_WORDS, np.uint64)
    rng.seed_stream(seed, 0, state)
    out = np.zeros(size, np.int64)
    for _ in range(trials):
        out[sampling.guide_pick(rng.next_u64(state), cdf, values, guide, 0, 0, k)] += 1
    return out


def test_a_million_draws_fit_the_pmf_and_a_wrong_pmf_is_caught():
    k, cdf, values, guide = tabled(SKEWED)
    counts = _histogram(np.uint64(3), 10**6, cdf, values, guide, k, SKEWED.size)
    assert counts[1] == counts[5] == 0
    assert chisquare_gof(counts, SKEWED).pvalue > 1e-4
    wrong = np.array([0.49, 0.0, 0.26, 0.0, 0.125, 0.0, 0.125])
    assert chisquare_gof(counts, wrong).pvalue < 1e-6


def test_a_table_pack_places_each_table_once_and_its_joint_index():
    from simcore.sampling import TablePack, guide_table, joint_table, table_probabilities

    joint = np.array([[0.5, 0.1, 0.0], [0.2, 0.15, 0.05]])  # [a, b]: b needs 2 bits
    w, table = joint_table(joint)
    assert w == 2
    pack = TablePack()
    first = pack.place("j", w, table)
    again = pack.place("j", w, table)
    other = pack.place("p", 0, guide_table(np.array([0.25, 0.75])))
    assert first == again and other[0] == table[1].size  # stored once, the next table right after it
    cdf, values, guide = pack.arrays()
    at, gat, k, w = first
    probs = table_probabilities(cdf[at:at + table[1].size], values[at:at + table[1].size], 2 << w)
    for (a, b), p in np.ndenumerate(joint):
        assert probs[(a << w) | b] == pytest.approx(p, abs=1e-15)


def test_a_table_block_is_placed_whole_and_draws_as_its_tables_placed_one_by_one():
    from simcore.sampling import TablePack, guide_table, table_block

    first, second = guide_table(np.array([0.25, 0.75])), guide_table(np.array([0.5, 0.0, 0.5]))
    grid = np.array([[-1, 0], [1, 0]])
    block = table_block([("x", 0, first), ("y", 0, second)], grid)
    assert block.real.tolist() == [[False, True], [True, True]]
    pack = TablePack()
    before = pack.place("z", 0, guide_table(np.array([1.0, 1.0, 1.0])))  # the block starts after it
    at = pack.place_block("b", block)
    again = pack.place_block("b", block)  # stored once: the same places
    assert (at == again).all()
    assert at[0, 0].tolist() == [0, 0, 0, 0]  # a cell that draws nothing keeps zeros
    cdf, values, guide = pack.arrays()
    assert cdf.size == 3 + 2 + 2  # z, then the block's two tables, once
    for cell, table in (((0, 1), first), ((1, 0), second), ((1, 1), first)):
        start, gstart, k, w = at[cell]
        assert start >= before[0] + 3 and k == table[0] and w == 0
        assert (cdf[start:start + table[1].size] == table[1]).all()
        assert (values[start:start + table[1].size] == table[2]).all()
        assert (guide[gstart:gstart + table[3].size] == table[3]).all()
