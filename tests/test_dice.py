"""simcore.dice: every primitive sampled in a small njit loop and compared with its exact PMF.

Each comparison checks the support first (Pearson's test pools thin bins, so counts on an impossible
outcome could hide in a pooled group) and then the goodness of fit, with a fixed seed.
"""

from __future__ import annotations

import itertools

import numba as nb
import numpy as np
import pytest

from simcore import exact, rng
from simcore.config import JIT
from simcore.dice import (
    TOP_EXPLODE,
    TOP_FAIL,
    TOP_SUCCESS,
    count_at_least,
    exploding_sum,
    keep_highest_sum,
    roll_face,
    roll_with_reroll,
    success_roll,
)
from simcore.stats import chisquare_gof

TRIALS = 200_000
MIN_P = 1e-4


# --- njit sampling loops ----------------------------------------------------------------------------------


@nb.njit(**JIT)
def _count_at_least_hist(state, trials, n, sides, threshold):
    hist = np.zeros(n + 1, np.int64)
    for _ in range(trials):
        hist[count_at_least(state, n, sides, threshold)] += 1
    return hist


@nb.njit(**JIT)
def _success_roll_hist(state, trials, n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit,
                       size):
    """(hist[successes, criticals], hist[dice rolled]) with the last index of each axis catching overflow."""
    joint = np.zeros((size, size), np.int64)
    rolled_hist = np.zeros(4 * size, np.int64)
    for _ in range(trials):
        s, c, rolled = success_roll(state, n, sides, threshold, top_mode, chain, reroll_failures,
                                    reroll_limit)
        joint[min(s, size - 1), min(c, size - 1)] += 1
        rolled_hist[min(rolled, 4 * size - 1)] += 1
    return joint, rolled_hist


@nb.njit(**JIT)
def _exploding_sum_hist(state, trials, sides, depth, size):
    hist = np.zeros(size, np.int64)
    for _ in range(trials):
        hist[min(exploding_sum(state, sides, depth), size - 1)] += 1
    return hist


@nb.njit(**JIT)
def _roll_with_reroll_hist(state, trials, sides, reroll_below):
    hist = np.zeros(sides + 1, np.int64)
    for _ in range(trials):
        hist[roll_with_reroll(state, sides, reroll_below)] += 1
    return hist


@nb.njit(**JIT)
def _keep_highest_hist(state, trials, n, sides, keep):
    hist = np.zeros(keep * sides + 1, np.int64)
    scratch = np.empty(sides + 1, np.int64)
    for _ in range(trials):
        hist[keep_highest_sum(state, n, sides, keep, scratch)] += 1
    return hist


@nb.njit(**JIT)
def _roll_face_hist(state, trials, faces):
    hist = np.zeros(faces.max() + 1, np.int64)
    for _ in range(trials):
        hist[roll_face(state, faces)] += 1
    return hist


# --- helpers ----------------------------------------------------------------------------------------------


def _pad(p: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, s) for s in p.shape)] = p
    return out


def assert_fits(counts: np.ndarray, pmf: np.ndarray, min_p: float = MIN_P) -> None:
    """Counts only on possible outcomes, and a Pearson fit to ``pmf`` with p-value above ``min_p``."""
    counts = np.asarray(counts)
    shape = tuple(max(a, b) for a, b in zip(counts.shape, pmf.shape, strict=True))
    c = _pad(counts, shape)
    p = _pad(pmf, shape)
    assert c[p == 0].sum() == 0, "counts on outcomes of probability 0"
    fit = chisquare_gof(c.ravel(), p.ravel())
    assert fit.dof >= 1
    assert fit.pvalue > min_p, fit


# --- count_at_least ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "sides", "threshold"), [(5, 10, 7), (8, 6, 4), (3, 6, 6)])
def test_count_at_least_is_binomial(n, sides, threshold):
    hist = _count_at_least_hist(rng.stream(100 + n, 0), TRIALS, n, sides, threshold)
    assert hist.sum() == TRIALS
    q = (sides - threshold + 1) / sides
    assert_fits(hist, exact.binomial_pmf(n, q))


def test_count_at_least_edge_thresholds():
    always = _count_at_least_hist(rng.stream(1, 0), 1000, 4, 6, 1)
    never = _count_at_least_hist(rng.stream(1, 0), 1000, 4, 6, 7)
    assert always.tolist() == [0, 0, 0, 0, 1000]
    assert never.tolist() == [1000, 0, 0, 0, 0]


# --- success_roll -----------------------------------------------------------------------------------------

MODES = {"explode": TOP_EXPLODE, "success": TOP_SUCCESS, "fail": TOP_FAIL}
REROLLS = {"none": (False, 0), "failures": (True, 0), "limit2": (False, 2)}
SUCCESS_CASES = [
    pytest.param(mode, chain, reroll, seed, id=f"{mode}-{'chain' if chain else 'nochain'}-{reroll}")
    for seed, (mode, chain, reroll) in enumerate(itertools.product(MODES, (True, False), REROLLS))
]
SIZE = 32


def _sample_success(mode, chain, reroll, n=3, sides=6, threshold=4, seed=0):
    reroll_failures, reroll_limit = REROLLS[reroll]
    joint, rolled = _success_roll_hist(rng.stream(seed, 0), TRIALS, n, sides, threshold, MODES[mode], chain,
                                       reroll_failures, reroll_limit, SIZE)
    assert joint.sum() == TRIALS
    assert joint[-1, :].sum() == 0 and joint[:, -1].sum() == 0, "histogram too small"
    assert rolled[-1] == 0
    return joint, rolled


def _exact_success(mode, chain, reroll, n=3, sides=6, threshold=4, marginal=None):
    reroll_failures, reroll_limit = REROLLS[reroll]
    return exact.success_roll_joint(n, sides, threshold, MODES[mode], chain, reroll_failures, reroll_limit,
                                    marginal=marginal)


@pytest.mark.parametrize(("mode", "chain", "reroll", "seed"), SUCCESS_CASES)
def test_success_roll_matches_exact(mode, chain, reroll, seed):
    joint, _ = _sample_success(mode, chain, reroll, seed=seed)
    assert_fits(joint, _exact_success(mode, chain, reroll))
    assert_fits(joint.sum(axis=1), _exact_success(mode, chain, reroll, marginal=0))
    criticals = _exact_success(mode, chain, reroll, marginal=1)
    if mode == "explode":
        assert_fits(joint.sum(axis=0), criticals)
    else:  # only exploding tops are criticals
        np.testing.assert_allclose(criticals, [1.0], rtol=0, atol=1e-15)
        assert joint[:, 1:].sum() == 0
    # criticals never exceed successes
    assert np.triu(joint, 1).sum() == 0


def _expected_rolled(mode, chain, reroll, n=3, sides=6, threshold=4):
    """Mean dice rolled: (first dice + rerolls) * (1 + P(top) * mean length of an explosion chain)."""
    top = 1 / sides
    fail = (threshold - 1) / sides + (top if mode == "fail" else 0.0)
    reroll_failures, limit = REROLLS[reroll]
    failed = exact.binomial_pmf(n, fail)
    rerolls = n * fail if reroll_failures else float(np.dot(np.minimum(np.arange(n + 1), limit), failed))
    if mode != "explode":
        return n + rerolls
    chain_length = 1 / (1 - top) if chain else 1.0
    return (n + rerolls) * (1 + top * chain_length)


@pytest.mark.parametrize(("mode", "chain", "reroll", "seed"), SUCCESS_CASES)
def test_success_roll_dice_rolled(mode, chain, reroll, seed):
    _, rolled = _sample_success(mode, chain, reroll, seed=500 + seed)
    values = np.arange(rolled.size)
    n_tr = rolled.sum()
    m = float(np.dot(values, rolled) / n_tr)
    sd = float(np.sqrt(np.dot((values - m) ** 2, rolled) / (n_tr - 1)))
    assert rolled[:3].sum() == 0  # at least the 3 first dice
    if reroll == "none" and mode != "explode":
        assert rolled[3] == TRIALS
    else:
        assert abs(m - _expected_rolled(mode, chain, reroll)) < 5 * sd / np.sqrt(n_tr)


def test_success_roll_d10_action_roll_matches_exact():
    # The Drakerys shape: five d10 against 7, chained criticals, up to two rerolls.
    joint, _ = _success_roll_hist(rng.stream(321, 0), TRIALS, 5, 10, 7, TOP_EXPLODE, True, False, 2, SIZE)
    assert_fits(joint, exact.success_roll_joint(5, 10, 7, TOP_EXPLODE, True, False, 2))


def test_success_roll_fit_has_power():
    # The comparison above would notice a one-reroll mistake: 2 rerolls sampled, 1 reroll expected.
    joint, _ = _sample_success("explode", True, "limit2", seed=77)
    right = exact.success_roll_joint(3, 6, 4, TOP_EXPLODE, True, False, 2)
    wrong = exact.success_roll_joint(3, 6, 4, TOP_EXPLODE, True, False, 1)
    shape = tuple(max(a, b, c) for a, b, c in zip(joint.shape, right.shape, wrong.shape, strict=True))
    counts = _pad(joint, shape).ravel()
    assert chisquare_gof(counts, _pad(right, shape).ravel()).pvalue > MIN_P
    assert chisquare_gof(counts, _pad(wrong, shape).ravel()).pvalue < 1e-10


def test_one_d10_threshold_7_hand_numbers():
    # P(success) of one d10 at 7 is 4/10; rerolling a failure once gives 1 - 0.6**2 = 0.64.
    for mode in (TOP_EXPLODE, TOP_SUCCESS):
        plain = exact.success_roll_joint(1, 10, 7, mode, True, marginal=0)
        reroll = exact.success_roll_joint(1, 10, 7, mode, True, reroll_failures=True, marginal=0)
        assert plain[0] == pytest.approx(0.6, abs=1e-15)
        assert 1 - plain[0] == pytest.approx(0.4, abs=1e-15)
        assert 1 - reroll[0] == pytest.approx(0.64, abs=1e-15)
    joint, _ = _success_roll_hist(rng.stream(9, 0), TRIALS, 1, 10, 7, TOP_SUCCESS, True, True, 0, SIZE)
    p_hat = 1 - joint[0].sum() / TRIALS
    assert abs(p_hat - 0.64) < 5 * np.sqrt(0.64 * 0.36 / TRIALS)


# --- exploding_sum ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sides", "depth"), [(6, 0), (6, 2), (6, -1), (4, -1), (10, 1)])
def test_exploding_sum_matches_exact(sides, depth):
    hist = _exploding_sum_hist(rng.stream(40 + sides, depth + 1), TRIALS, sides, depth, 120)
    assert hist[-1] == 0
    assert_fits(hist, exact.exploding_sum_pmf(sides, depth))
    if depth >= 0:
        assert hist[(depth + 1) * sides + 1 :].sum() == 0
        assert hist[(depth + 1) * sides] > 0  # the last roll may show the top face and stop there


def test_exploding_d6_unlimited_mean():
    p = exact.exploding_sum_pmf(6, -1)
    assert exact.mean(p) == pytest.approx(3.5 * 6 / 5, abs=1e-12)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    hist = _exploding_sum_hist(rng.stream(61, 0), TRIALS, 6, -1, 120)
    values = np.arange(hist.size)
    m = np.dot(values, hist) / TRIALS
    sd = np.sqrt(exact.variance(p))
    assert abs(m - 4.2) < 5 * sd / np.sqrt(TRIALS)


def test_exploding_sum_depth_zero_is_one_die():
    hist = _exploding_sum_hist(rng.stream(62, 0), 1000, 6, 0, 10)
    assert hist[0] == 0 and hist[7:].sum() == 0 and hist.sum() == 1000


# --- roll_with_reroll -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sides", "reroll_below"), [(6, 3), (6, 1), (6, 7), (10, 5)])
def test_roll_with_reroll_matches_exact(sides, reroll_below):
    hist = _roll_with_reroll_hist(rng.stream(70 + reroll_below, 0), TRIALS, sides, reroll_below)
    assert_fits(hist, exact.roll_with_reroll_pmf(sides, reroll_below))


def test_roll_with_reroll_hand_numbers():
    # d6 rerolling 1s and 2s: faces 1, 2 have (2/6)(1/6) = 1/18, faces 3..6 have 1/6 + 1/18 = 4/18.
    p = exact.roll_with_reroll_pmf(6, 3)
    np.testing.assert_allclose(p, [0, 1 / 18, 1 / 18, 4 / 18, 4 / 18, 4 / 18, 4 / 18], rtol=0, atol=1e-15)


# --- keep_highest_sum -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "sides", "keep"), [(2, 6, 2), (3, 6, 2), (4, 6, 3), (5, 10, 1), (3, 6, 0)])
def test_keep_highest_matches_exact(n, sides, keep):
    hist = _keep_highest_hist(rng.stream(80 + n, keep), TRIALS, n, sides, keep)
    pmf = exact.keep_highest_pmf(n, sides, keep)
    if keep == 0:
        assert hist.tolist() == [TRIALS]
        np.testing.assert_allclose(pmf, [1.0])
    else:
        assert_fits(hist, pmf)


def test_keep_highest_hand_numbers():
    two_d6 = np.convolve(exact.die_pmf(6), exact.die_pmf(6))
    np.testing.assert_allclose(exact.keep_highest_pmf(2, 6, 2), two_d6, rtol=0, atol=1e-15)
    assert exact.mean(exact.keep_highest_pmf(3, 6, 2)) == pytest.approx(203 / 24, abs=1e-12)
    # highest of 2d6: P(max = k) = (2k - 1) / 36
    highest = exact.keep_highest_pmf(2, 6, 1)
    np.testing.assert_allclose(highest[1:], (2 * np.arange(1, 7) - 1) / 36, rtol=0, atol=1e-15)


# --- roll_face --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("faces", [[0, 0, 1, 1, 2, 4], [3], [1, 2, 3, 4, 5, 6, 7, 8]])
def test_roll_face_matches_face_table(faces):
    faces = np.array(faces, dtype=np.int64)
    hist = _roll_face_hist(rng.stream(90, faces.size), TRIALS, faces)
    pmf = exact.face_table_pmf(faces)
    if faces.size == 1:
        assert hist.tolist() == [0, 0, 0, TRIALS]
    else:
        assert_fits(hist, pmf)
