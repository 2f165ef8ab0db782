"""simcore.exact: convolutions, trimming, small PMFs by hand, success-roll PMFs against an enumeration."""

from __future__ import annotations

import itertools
import warnings
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import exact
from simcore.dice import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS

FEW = settings(max_examples=25, deadline=None)


def _pad(p: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, s) for s in p.shape)] = p
    return out


def assert_same_pmf(a: np.ndarray, b: np.ndarray, atol: float = 1e-12) -> None:
    """Equal up to ``atol`` after padding both with zeros to a common shape."""
    assert a.ndim == b.ndim
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    np.testing.assert_allclose(_pad(a, shape), _pad(b, shape), rtol=0, atol=atol)


def _naive_convolve_2d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for i, j in itertools.product(range(a.shape[0]), range(a.shape[1])):
        out[i : i + b.shape[0], j : j + b.shape[1]] += a[i, j] * b
    return out


def _enumerate_success_roll(n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit,
                            cutoff=1e-20):
    """Joint PMF p[successes, criticals] of simcore.dice.success_roll, by walking every face in the order
    the dice are rolled (first dice with their rerolls, then the extra dice one at a time). Branches whose
    probability falls below ``cutoff`` are dropped (only explosion chains get there)."""
    q = 1.0 / sides

    def score(face):
        if face == sides:
            return (1, 1) if top_mode == TOP_EXPLODE else (int(top_mode == TOP_SUCCESS), 0)
        return int(face >= threshold), 0

    states = {(0, 0, 0, reroll_limit): 1.0}  # (successes, criticals, extra dice, rerolls left)
    for _ in range(n):
        nxt = defaultdict(float)
        for (s, c, extra, left), pr in states.items():
            for face in range(1, sides + 1):
                ok, boom = score(face)
                if not ok and (reroll_failures or left > 0):
                    for again in range(1, sides + 1):
                        ok2, boom2 = score(again)
                        nxt[s + ok2, c + boom2, extra + boom2, left - 1] += pr * q * q
                else:
                    nxt[s + ok, c + boom, extra + boom, left] += pr * q
        states = nxt
    pending = defaultdict(float)
    for (s, c, extra, _), pr in states.items():
        pending[s, c, extra] += pr
    result = defaultdict(float)
    while pending:
        nxt = defaultdict(float)
        for (s, c, extra), pr in pending.items():
            if extra == 0:
                result[s, c] += pr
            elif pr >= cutoff:
                for face in range(1, sides + 1):
                    if face == sides:
                        nxt[s + 1, c + chain, extra - 1 + chain] += pr * q
                    elif face >= threshold:
                        nxt[s + 1, c, extra - 1] += pr * q
                    else:
                        nxt[s, c, extra - 1] += pr * q
        pending = nxt
    p = np.zeros((max(s for s, _ in result) + 1, max(c for _, c in result) + 1))
    for (s, c), pr in result.items():
        p[s, c] = pr
    return p


def _icepool_pmf(die) -> np.ndarray:
    outcomes = list(die.outcomes())
    p = np.zeros(max(outcomes) + 1)
    for outcome, prob in zip(outcomes, die.probabilities(), strict=True):
        p[outcome] = float(prob)
    return p


# --- convolution ------------------------------------------------------------------------------------------


def test_convolve_1d_matches_numpy():
    a = np.array([0.2, 0.3, 0.5])
    b = exact.die_pmf(6)
    np.testing.assert_allclose(exact.convolve(a, b), np.convolve(a, b), rtol=0, atol=1e-15)


def test_convolve_2d_matches_naive():
    a = np.array([[0.1, 0.2], [0.3, 0.0], [0.15, 0.25]])
    b = np.array([[0.5, 0.0, 0.1], [0.0, 0.4, 0.0]])
    np.testing.assert_allclose(exact.convolve(a, b), _naive_convolve_2d(a, b), rtol=0, atol=1e-15)


def test_convolve_fft_path_matches_numpy_and_is_non_negative():
    # 2100 * 2100 multiply-adds is above the direct limit, so this goes through the FFT.
    a = exact.binomial_pmf(2099, 0.3)
    b = np.zeros(2100)
    b[::7] = 1.0
    b /= b.sum()
    got = exact.convolve(a, b)
    assert got.min() >= 0.0
    assert_same_pmf(got, np.convolve(a, b), atol=1e-12)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_convolve_fft_path_2d_matches_naive():
    rng = np.random.default_rng(0)
    a = rng.random((50, 50))
    b = rng.random((50, 50))
    a /= a.sum()
    b /= b.sum()
    got = exact.convolve(a, b, tol=0.0)
    assert got.min() >= 0.0
    assert_same_pmf(got, _naive_convolve_2d(a, b), atol=1e-15)


def test_convolve_fft_path_has_no_deprecated_numpy_call():
    # np.fft.rfftn with s= and no axes= is deprecated since NumPy 2.0
    a = np.full(2100, 1 / 2100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exact.convolve(a, a)


def test_convolve_rejects_mixed_dimensions():
    with pytest.raises(ValueError):
        exact.convolve(np.ones(2) / 2, np.ones((1, 1)))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 8, 13])
def test_convolve_power_agrees_with_repeated_convolution(n):
    p = np.array([0.5, 0.25, 0.0, 0.25])
    repeated = np.ones(1)
    for _ in range(n):
        repeated = np.convolve(repeated, p)
    assert_same_pmf(exact.convolve_power(p, n), repeated, atol=1e-15)
    assert_same_pmf(exact.convolve_powers(p, 13)[n], repeated, atol=1e-15)


def test_convolve_power_2d():
    p = np.array([[0.5, 0.0], [0.3, 0.2]])
    powers = exact.convolve_powers(p, 6)
    assert len(powers) == 7
    assert powers[0].shape == (1, 1) and powers[0][0, 0] == 1.0
    naive = np.ones((1, 1))
    for k in range(1, 7):
        naive = _naive_convolve_2d(naive, p)
        assert_same_pmf(powers[k], naive, atol=1e-15)
        assert_same_pmf(exact.convolve_power(p, k), naive, atol=1e-15)


@FEW
@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=8).filter(lambda v: sum(v) > 0.1),
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=8).filter(lambda v: sum(v) > 0.1),
)
def test_convolve_property(a, b):
    a = np.array(a) / sum(a)
    b = np.array(b) / sum(b)
    got = exact.convolve(a, b)
    assert_same_pmf(got, np.convolve(a, b), atol=1e-15)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_unit_is_identity():
    p = np.array([[0.2, 0.3], [0.5, 0.0]])
    np.testing.assert_array_equal(exact.unit(2), np.ones((1, 1)))
    np.testing.assert_allclose(exact.convolve(exact.unit(2), p), p, rtol=0, atol=0)


# --- trim -------------------------------------------------------------------------------------------------


def test_trim_drops_only_a_tail_below_tol():
    p = np.array([0.5, 0.5, 4e-25, 5e-25])
    np.testing.assert_array_equal(exact.trim(p, 1e-24), [0.5, 0.5])
    # the cut stops where the tail holds tol or more, even if each entry is below tol
    p = np.array([0.5, 0.5, 6e-25, 6e-25])
    np.testing.assert_array_equal(exact.trim(p, 1e-24), [0.5, 0.5, 6e-25])
    np.testing.assert_array_equal(exact.trim(p, 6e-25), p)
    # inner zeros are not a tail
    np.testing.assert_array_equal(exact.trim(np.array([0.5, 0.0, 0.5, 0.0]), 1e-24), [0.5, 0.0, 0.5])


def test_trim_keeps_at_least_one_entry():
    np.testing.assert_array_equal(exact.trim(np.array([1e-30, 1e-30]), 1e-24), [1e-30])


def test_trim_2d_each_axis():
    p = np.zeros((4, 5))
    p[0, 0] = 0.5
    p[1, 2] = 0.5
    p[3, 0] = 1e-26  # tail of axis 0
    p[0, 4] = 1e-26  # tail of axis 1
    out = exact.trim(p, 1e-24)
    assert out.shape == (2, 3)
    assert out[0, 0] == 0.5 and out[1, 2] == 0.5


@FEW
@given(st.lists(st.sampled_from([0.0, 1e-30, 1e-25, 3e-25, 1e-3, 0.2]), min_size=1, max_size=12))
def test_trim_property(values):
    p = np.array(values)
    tol = 1e-24
    out = exact.trim(p, tol)
    np.testing.assert_array_equal(out, p[: out.size])  # a prefix
    assert p[out.size :].sum() < tol  # what went was below tol
    if out.size > 1:
        assert p[out.size - 1 :].sum() >= tol  # and no more could go


# --- small PMFs -------------------------------------------------------------------------------------------


def test_mixture_pads_and_weights():
    got = exact.mixture([0.25, 0.75], [np.array([1.0, 0.0]), np.array([0.0, 0.0, 1.0])])
    np.testing.assert_allclose(got, [0.25, 0.0, 0.75], rtol=0, atol=1e-16)
    got2 = exact.mixture([0.5, 0.5], [np.array([[1.0]]), np.array([[0.0, 0.5], [0.5, 0.0]])])
    np.testing.assert_allclose(got2, [[0.5, 0.25], [0.25, 0.0]], rtol=0, atol=1e-16)


def test_at_least_mean_variance_by_hand():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(exact.at_least(p), [1.0, 0.9, 0.7, 0.4], rtol=0, atol=1e-15)
    assert exact.mean(p) == pytest.approx(2.0, abs=1e-15)  # 0.2 + 0.6 + 1.2
    assert exact.variance(p) == pytest.approx(1.0, abs=1e-15)  # E[X^2] = 5, minus 4
    d6 = exact.die_pmf(6)
    assert exact.mean(d6) == pytest.approx(3.5, abs=1e-15)
    assert exact.variance(d6) == pytest.approx(35 / 12, abs=1e-14)


def test_at_least_keeps_small_tails_accurate():
    p = np.array([1.0 - 1e-20, 1e-20])
    assert exact.at_least(p)[1] == 1e-20


def test_die_and_face_tables():
    np.testing.assert_allclose(exact.die_pmf(4), [0, 0.25, 0.25, 0.25, 0.25], rtol=0, atol=0)
    np.testing.assert_allclose(exact.face_table_pmf([0, 0, 1, 3]), [0.5, 0.25, 0.0, 0.25], rtol=0, atol=0)
    with pytest.raises(ValueError):
        exact.face_table_pmf([])
    with pytest.raises(ValueError):
        exact.face_table_pmf([1, -1])


def test_binomial_and_truncation_loss():
    np.testing.assert_allclose(exact.binomial_pmf(3, 0.5), [1 / 8, 3 / 8, 3 / 8, 1 / 8], rtol=0, atol=1e-15)
    np.testing.assert_allclose(exact.binomial_pmf(2, 0.4), [0.36, 0.48, 0.16], rtol=0, atol=1e-15)
    assert exact.truncation_loss(np.array([0.25, 0.5])) == 0.25
    loss = exact.truncation_loss(exact.exploding_sum_pmf(6, -1))
    assert 0 <= loss < 1e-15


# --- success_roll_joint -----------------------------------------------------------------------------------

SUCCESS_SETUPS = [
    # n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit
    (1, 10, 7, TOP_EXPLODE, True, False, 0),
    (2, 6, 4, TOP_EXPLODE, True, False, 1),
    (3, 6, 4, TOP_EXPLODE, True, False, 2),
    (3, 6, 5, TOP_EXPLODE, False, False, 2),
    (3, 6, 3, TOP_EXPLODE, False, True, 0),
    (4, 6, 6, TOP_EXPLODE, True, True, 0),
    (3, 6, 4, TOP_SUCCESS, True, False, 1),
    (4, 6, 2, TOP_SUCCESS, False, True, 0),
    (3, 6, 4, TOP_FAIL, True, False, 2),
    (4, 6, 5, TOP_FAIL, False, False, 0),
    (2, 4, 1, TOP_EXPLODE, True, False, 1),
]


@pytest.mark.parametrize("setup", SUCCESS_SETUPS)
def test_success_roll_joint_matches_enumeration(setup):
    assert_same_pmf(exact.success_roll_joint(*setup), _enumerate_success_roll(*setup), atol=1e-12)


@pytest.mark.parametrize("setup", SUCCESS_SETUPS + [(6, 10, 7, TOP_EXPLODE, True, False, 3)])
def test_success_roll_marginals_and_totals(setup):
    joint = exact.success_roll_joint(*setup)
    successes = exact.success_roll_joint(*setup, marginal=0)
    criticals = exact.success_roll_joint(*setup, marginal=1)
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)
    assert successes.sum() == pytest.approx(1.0, abs=1e-12)
    assert criticals.sum() == pytest.approx(1.0, abs=1e-12)
    assert joint.min() >= 0.0
    assert_same_pmf(successes, joint.sum(axis=1), atol=1e-14)
    assert_same_pmf(criticals, joint.sum(axis=0), atol=1e-14)
    # criticals are successes
    assert np.triu(joint, 1).max(initial=0.0) == 0.0


@pytest.mark.parametrize("mode", [TOP_EXPLODE, TOP_SUCCESS, TOP_FAIL])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_reroll_limit_edges(mode, n):
    everything = exact.success_roll_joint(n, 10, 6, mode, True, reroll_failures=True)
    nothing = exact.success_roll_joint(n, 10, 6, mode, True)
    for limit in (n, n + 1, n + 5):
        assert_same_pmf(exact.success_roll_joint(n, 10, 6, mode, True, reroll_limit=limit), everything,
                        atol=1e-15)
    assert_same_pmf(exact.success_roll_joint(n, 10, 6, mode, True, reroll_limit=0), nothing, atol=0)
    # each extra reroll allowed raises P(at least one success)
    p0 = [exact.success_roll_joint(n, 10, 6, mode, True, reroll_limit=k, marginal=0)[0] for k in range(n + 1)]
    assert all(a > b for a, b in itertools.pairwise(p0))


def test_zero_dice_is_nothing():
    np.testing.assert_array_equal(exact.success_roll_joint(0, 10, 6), [[1.0]])
    np.testing.assert_array_equal(exact.success_roll_joint(0, 10, 6, reroll_limit=2, marginal=0), [1.0])


def test_one_d10_threshold_10_chain():
    # Only 10s succeed, and each explodes again: P(S = k) = 0.1**k * 0.9, and criticals = successes.
    joint = exact.success_roll_joint(1, 10, 10, TOP_EXPLODE, True)
    successes = exact.success_roll_joint(1, 10, 10, TOP_EXPLODE, True, marginal=0)
    for k in range(6):
        assert successes[k] == pytest.approx(0.1**k * 0.9, rel=1e-12)
        assert joint[k, k] == pytest.approx(0.1**k * 0.9, rel=1e-12)
    assert joint.sum() - np.trace(joint) == pytest.approx(0.0, abs=1e-15)


def test_two_d10_threshold_6_no_chain_by_hand():
    # One die: fail 0.5; 6-9 plain 0.4; a 10 is a critical whose extra die succeeds (6-10) with 0.5:
    # P(S=0)=0.5, P(S=1)=0.4+0.05=0.45, P(S=2)=0.05. Two dice convolve that.
    one = exact.success_roll_joint(1, 10, 6, TOP_EXPLODE, False)
    np.testing.assert_allclose(one, [[0.5, 0.0], [0.4, 0.05], [0.0, 0.05]], rtol=0, atol=1e-15)
    two = exact.success_roll_joint(2, 10, 6, TOP_EXPLODE, False, marginal=0)
    np.testing.assert_allclose(two, [0.25, 0.45, 0.2525, 0.045, 0.0025], rtol=0, atol=1e-15)
    crits = exact.success_roll_joint(2, 10, 6, TOP_EXPLODE, False, marginal=1)
    np.testing.assert_allclose(crits, [0.81, 0.18, 0.01], rtol=0, atol=1e-15)


def test_two_d6_one_reroll_by_hand():
    # 2d6 at 4+, top a plain success, one failed die rerolled: P(S=0) = 0.5**3;
    # P(S=2) = P(both succeed) + P(one fails, its reroll succeeds) = 0.25 + 0.5 * 0.5.
    p = exact.success_roll_joint(2, 6, 4, TOP_SUCCESS, False, reroll_limit=1, marginal=0)
    np.testing.assert_allclose(p, [0.125, 0.375, 0.5], rtol=0, atol=1e-15)


def test_expert_parry_threshold_10_never_succeeds():
    # TOP_FAIL turns the 10 into a failure: at threshold 10 no face succeeds, rerolls or not.
    for n in (1, 4):
        for kwargs in ({}, {"reroll_failures": True}, {"reroll_limit": 2}):
            p = exact.success_roll_joint(n, 10, 10, TOP_FAIL, True, marginal=0, **kwargs)
            assert p[0] == pytest.approx(1.0, abs=1e-15)
            assert p[1:].sum() == 0.0


def test_top_modes_differ_only_by_the_top_face():
    # One d10 at 7: P(S>=1) = 0.4 (explode or success) and 0.3 (fail); explode adds P(S=2) = 0.1 * 0.4.
    explode = exact.success_roll_joint(1, 10, 7, TOP_EXPLODE, False, marginal=0)
    success = exact.success_roll_joint(1, 10, 7, TOP_SUCCESS, False, marginal=0)
    fail = exact.success_roll_joint(1, 10, 7, TOP_FAIL, False, marginal=0)
    np.testing.assert_allclose(explode, [0.6, 0.36, 0.04], rtol=0, atol=1e-15)
    np.testing.assert_allclose(success, [0.6, 0.4], rtol=0, atol=1e-15)
    np.testing.assert_allclose(fail, [0.7, 0.3], rtol=0, atol=1e-15)


def test_success_roll_joint_rejects_bad_input():
    with pytest.raises(ValueError):
        exact.success_roll_joint(2, 10, 0)
    with pytest.raises(ValueError):
        exact.success_roll_joint(2, 10, 11)
    with pytest.raises(ValueError):
        exact.success_roll_joint(2, 10, 6, top_mode=7)


def test_many_dice_mean_by_linearity():
    # One d10 at 7 with chained 10s: an extra die gives E = 0.3 + 0.1 * (1 + E), so E = 4/9, and the
    # first die 0.3 + 0.1 * (1 + 4/9) = 4/9 too. Rerolled dice add 4/9 each; 40 dice fail F ~ B(40, 0.6).
    p = exact.success_roll_joint(40, 10, 7, TOP_EXPLODE, True, reroll_limit=5, marginal=0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    failed = exact.binomial_pmf(40, 0.6)
    rerolls = float(np.dot(np.minimum(np.arange(41), 5), failed))
    assert exact.mean(p) == pytest.approx((40 + rerolls) * 4 / 9, rel=1e-12)


# --- keep_highest, exploding_sum, roll_with_reroll --------------------------------------------------------


@pytest.mark.parametrize(("n", "sides", "keep"), [(1, 6, 1), (2, 6, 1), (3, 6, 2), (4, 6, 3), (4, 8, 2),
                                                  (3, 4, 0), (5, 6, 5)])
def test_keep_highest_matches_enumeration(n, sides, keep):
    brute = np.zeros(keep * sides + 1)
    for roll in itertools.product(range(1, sides + 1), repeat=n):
        brute[sum(sorted(roll)[n - keep :])] += 1
    brute /= sides**n
    assert_same_pmf(exact.keep_highest_pmf(n, sides, keep), brute, atol=1e-15)


def test_keep_highest_rejects_bad_keep():
    with pytest.raises(ValueError):
        exact.keep_highest_pmf(2, 6, 3)
    with pytest.raises(ValueError):
        exact.keep_highest_pmf(2, 6, -1)


def test_exploding_sum_by_hand():
    np.testing.assert_allclose(exact.exploding_sum_pmf(6, 0), exact.die_pmf(6), rtol=0, atol=0)
    p = exact.exploding_sum_pmf(6, 2)
    assert p.size == 19
    assert p.sum() == pytest.approx(1.0, abs=1e-15)
    assert p[6] == 0.0 and p[12] == 0.0  # a 6 always rolls again while depth is left
    assert p[7] == pytest.approx(1 / 36, abs=1e-16)
    assert p[18] == pytest.approx(1 / 216, abs=1e-16)
    assert p[13] == pytest.approx(1 / 216, abs=1e-16)
    unlimited = exact.exploding_sum_pmf(6, -1)
    assert exact.mean(unlimited) == pytest.approx(4.2, abs=1e-12)
    assert unlimited[6 :: 6].max() == 0.0


def test_exact_agrees_with_icepool():
    icepool = pytest.importorskip("icepool")
    d6 = icepool.d6
    assert_same_pmf(exact.keep_highest_pmf(4, 6, 3), _icepool_pmf(d6.highest(4, 3)), atol=1e-12)
    assert_same_pmf(exact.exploding_sum_pmf(6, 2), _icepool_pmf(d6.explode(depth=2)), atol=1e-12)
    assert_same_pmf(exact.roll_with_reroll_pmf(6, 3), _icepool_pmf(d6.reroll([1, 2], depth=1)), atol=1e-12)
    # 3d6 counting 4+ is Binomial(3, 1/2)
    assert_same_pmf(exact.success_roll_joint(3, 6, 4, TOP_SUCCESS, marginal=0),
                    _icepool_pmf((d6 >= 4).map({True: 1, False: 0}).pool(3).sum()), atol=1e-12)


# --- a whole success table at once ------------------------------------------------------------------------

@pytest.mark.parametrize("mode", [TOP_EXPLODE, TOP_SUCCESS, TOP_FAIL])
@pytest.mark.parametrize("chain", [True, False])
@pytest.mark.parametrize("reroll", [False, True])
def test_success_powers_match_one_roll_at_a_time(mode, chain, reroll):
    table = exact.success_powers(10, range(1, 11), 20, mode, chain, reroll)
    assert len(table) == 10 and all(len(row) == 21 for row in table)
    for row, threshold in zip(table, range(1, 11), strict=True):
        for n, pmf in enumerate(row):
            ref = exact.success_roll_joint(n, 10, threshold, mode, chain, reroll, marginal=0)
            # the two trim their tails (below 1e-24) at slightly different places
            assert abs(pmf.size - ref.size) <= 2
            size = min(pmf.size, ref.size)
            np.testing.assert_allclose(pmf[:size], ref[:size], rtol=0, atol=1e-14)
            assert pmf.sum() == pytest.approx(1.0, abs=1e-13)


def test_success_powers_keep_relative_accuracy_in_the_tail():
    """8d10 at 2+ with chained 10s, against exact fractions: every kept outcome, down to ~1e-24, within
    1e-13 relative (one convolution per die trimmed at each step lost up to 2% of the far tail)."""
    from fractions import Fraction

    fail, plain, top = Fraction(1, 10), Fraction(8, 10), Fraction(1, 10)
    one = [fail, plain + top * fail] + [top**k * fail + top ** (k - 1) * plain for k in range(2, 60)]
    pmf = [Fraction(1)]
    for _ in range(8):
        nxt = [Fraction(0)] * 60
        for i, a in enumerate(pmf):
            for j, b in enumerate(one[:60 - i]):
                nxt[i + j] += a * b
        pmf = nxt
    ours = exact.success_powers(10, [2], 8)[0][8]
    assert ours.size > 35  # the tail is there
    expected = np.array([float(p) for p in pmf[:ours.size]])
    np.testing.assert_allclose(ours, expected, rtol=1e-13, atol=0)


def test_success_powers_are_read_only_and_reject_bad_input():
    row = exact.success_powers(6, [4], 3)[0]
    with pytest.raises(ValueError):
        row[2][0] = 1.0
    with pytest.raises(ValueError, match="thresholds"):
        exact.success_powers(6, [7], 3)
    with pytest.raises(ValueError, match="top_mode"):
        exact.success_powers(6, [4], 3, top_mode=99)
