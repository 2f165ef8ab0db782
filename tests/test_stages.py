"""simcore.stages: exact stage PMFs and the bank of their tables (drawn with one 64-bit word each).

Numbers: every stage PMF equals simcore.exact's (itself checked against icepool) to 1e-12; 10^6 draws of a
stage agree with its exact PMF and with 10^6 die-by-die rolls (chi-square, p > 1e-4); a bank draws the same
outcomes whatever it held before and however often it was flushed.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

from simcore import exact, stages
from simcore.config import JIT
from simcore.dice import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS
from simcore.rng import stream
from simcore.stats import chisquare_gof, chisquare_two_sample

P_MIN = 1e-4
D10 = stages.BankSpec(10)
D10_BY_DIE = stages.BankSpec(10, by_die=True)


def padded(a: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    out = np.zeros(shape)
    out[:a.shape[0], :a.shape[1]] = a
    return out


def same_pmf(p: np.ndarray, q: np.ndarray) -> float:
    shape = (max(p.shape[0], q.shape[0]), max(p.shape[1], q.shape[1]))
    return float(np.abs(padded(p, shape) - padded(q, shape)).max())


@pytest.mark.parametrize("n", [1, 2, 7, 12, 40])
@pytest.mark.parametrize("threshold", [2, 6, 10])
@pytest.mark.parametrize("mode", [TOP_EXPLODE, TOP_SUCCESS, TOP_FAIL])
@pytest.mark.parametrize("chain", [True, False])
@pytest.mark.parametrize("rerolls", [(False, 0), (True, 0), (False, 1), (False, 3), (False, 99)],
                         ids=["none", "all", "limit-1", "limit-3", "limit-99"])
def test_stage_pmf_equals_simcore_exact(n, threshold, mode, chain, rerolls):
    ours = stages.success_pmf(n, 10, threshold, mode, chain, *rerolls)
    theirs = exact.success_roll_joint(n, 10, threshold, mode, chain, *rerolls, marginal=None)
    assert ours.sum() == pytest.approx(1.0, abs=1e-14)
    assert same_pmf(ours, theirs) <= 1e-12


def test_stage_pmf_by_hand():
    # 1d10 at 7, top explodes without chain: P(0) = 0.6, P(1) = 0.3 + 0.1 * 0.6, P(2) = 0.1 * 0.4
    p = stages.success_pmf(1, 10, 7, TOP_EXPLODE, False, False, 0)
    np.testing.assert_allclose(p, [[0.6, 0.0], [0.3, 0.06], [0.0, 0.04]], atol=1e-15)
    # a d6 stage: 2d6 at 5, top a plain success: Binomial(2, 1/3)
    p = stages.success_pmf(2, 6, 5, TOP_SUCCESS, False, False, 0)
    np.testing.assert_allclose(p[:, 0], [4 / 9, 4 / 9, 1 / 9], atol=1e-15)


@nb.njit(**JIT)
def _draws(bank, state, trials, n, threshold, mode, chain, reroll_failures, reroll_limit, joint, out):
    """Up to ``trials`` draws of one stage from ``bank``; returns how many were made (fewer when the bank
    lacks the table: the caller builds it and goes on)."""
    for done in range(trials):
        s, c = stages.success_draw(bank, state, n, threshold, mode, chain, reroll_failures, reroll_limit,
                                   joint)
        if stages.missing(bank):
            return done
        out[min(s, out.shape[0] - 1), min(c, out.shape[1] - 1)] += 1
    return trials


def draw(spec_or_bank, trials, args, shape, seed=1):
    bank = spec_or_bank.new() if isinstance(spec_or_bank, stages.BankSpec) else spec_or_bank
    out = np.zeros(shape, np.int64)
    state = stream(seed)
    done = 0
    while done < trials:
        done += _draws(bank, state, trials - done, *args, out)
        if done < trials:
            assert stages.fill((bank,))
    return out


STAGES = {
    "attack 12d10 at 7, Swashbuckler, chains, criticals": (12, 7, TOP_EXPLODE, True, True, 0, True),
    "attack 30d10 at 5, 2 rerolls, no chain, criticals": (30, 5, TOP_EXPLODE, False, False, 2, True),
    "injury 18d10 at 8, Parry (10 a plain success)": (18, 8, TOP_SUCCESS, True, False, 0, False),
    "injury 9d10 at 6, Expert Parry (10 fails)": (9, 6, TOP_FAIL, True, False, 0, False),
    "morale 4d10 at 9, chains": (4, 9, TOP_EXPLODE, True, False, 0, False),
    "safeguard 7d10, a 10 leaves": (7, 10, TOP_SUCCESS, False, False, 0, False),
}


@pytest.mark.parametrize("name", list(STAGES))
def test_a_million_draws_agree_with_the_exact_pmf_and_with_dice_rolled_one_by_one(name):
    args = STAGES[name]
    n, threshold, mode, chain, rf, rl, joint = args
    pmf = stages.success_pmf(n, 10, threshold, mode, chain, rf, rl)
    if not joint:
        pmf = pmf.sum(axis=1, keepdims=True)
    shape = (pmf.shape[0] + 1, pmf.shape[1] + 1)
    sampled = draw(D10, 10**6, args, shape)
    by_die = draw(D10_BY_DIE, 10**6, args, shape, seed=2)
    expected = padded(pmf, shape).ravel()
    assert chisquare_gof(sampled.ravel(), expected).pvalue > P_MIN
    assert chisquare_gof(by_die.ravel(), expected).pvalue > P_MIN
    assert chisquare_two_sample(sampled.ravel(), by_die.ravel()).pvalue > P_MIN


def test_a_wrong_table_would_be_caught():
    # the same test against a PMF one critical chance off (threshold 8 for 7) must fail
    args = STAGES["attack 12d10 at 7, Swashbuckler, chains, criticals"]
    wrong = stages.success_pmf(12, 10, 8, TOP_EXPLODE, True, True, 0)
    shape = (wrong.shape[0] + 6, wrong.shape[1] + 1)
    sampled = draw(D10, 10**5, args, shape)
    assert chisquare_gof(sampled.ravel(), padded(wrong, shape).ravel()).pvalue < 1e-10


def test_draws_do_not_depend_on_what_the_bank_held_or_on_flushes():
    args = STAGES["attack 12d10 at 7, Swashbuckler, chains, criticals"]
    shape = (60, 30)
    fresh = draw(D10, 20_000, args, shape)
    used = D10.new()
    draw(used, 1000, STAGES["injury 18d10 at 8, Parry (10 a plain success)"], shape)
    assert np.array_equal(draw(used, 20_000, args, shape), fresh)
    # a bank that holds one table at a time is flushed at every other stage, and draws the same
    tiny = stages.BankSpec(10, capacity=1 << 12).new()
    draw(tiny, 10, STAGES["morale 4d10 at 9, chains"], shape)
    assert np.array_equal(draw(tiny, 20_000, args, shape), fresh)


def test_stages_beyond_the_bank_roll_die_by_die():
    small = stages.BankSpec(10, max_n=8)
    args = (12, 7, TOP_EXPLODE, True, True, 0, True)
    pmf = stages.success_pmf(12, 10, 7, TOP_EXPLODE, True, True, 0)
    shape = (pmf.shape[0] + 1, pmf.shape[1] + 1)
    out = draw(small, 200_000, args, shape)
    assert chisquare_gof(out.ravel(), padded(pmf, shape).ravel()).pvalue > P_MIN
    assert small.new()[stages._USED] == 0
    bank = small.new()
    draw(bank, 10, args, (60, 30))
    assert bank[stages._USED] == 0  # no table was built


def test_thread_banks_are_per_thread_and_per_spec():
    from concurrent.futures import ThreadPoolExecutor

    mine = stages.thread_bank(D10)
    assert stages.thread_bank(D10) is mine
    assert stages.thread_bank(D10_BY_DIE) is not mine
    with ThreadPoolExecutor(1) as pool:
        theirs = pool.submit(stages.thread_bank, D10).result()
    assert theirs is not mine
    assert stages.with_banks((1, D10))[1] is mine


@pytest.mark.parametrize("mode", [TOP_EXPLODE, TOP_SUCCESS, TOP_FAIL])
@pytest.mark.parametrize("chain", [True, False])
@pytest.mark.parametrize("reroll", [False, True])
def test_tables_of_independent_dice_hold_the_closed_form(mode, chain, reroll):
    """Tables of independent dice come from one column of success powers per threshold: each holds the
    closed form's successes to 1e-13 (the integers of its CDF carry the rest)."""
    from simcore.sampling import table_probabilities

    for n in (1, 3, 12, 64, 65, 200):
        for threshold in (2, 7, 10):
            _, _, cdf, values, _ = stages._stage_table(10, n, threshold, mode, chain, reroll, 0, False)
            expected = stages.success_pmf(n, 10, threshold, mode, chain, reroll, 0).sum(axis=1)
            got = table_probabilities(cdf, values, expected.size + 3)
            np.testing.assert_allclose(got[:expected.size], expected, rtol=0, atol=1e-13)
            assert not got[expected.size:].any()
