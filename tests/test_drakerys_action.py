"""Drakerys Action-Table rolls (seed 002): threshold, exact PMFs, Monte Carlo kernel, naive twin.

Rulebook sections: "ACTION TABLE", "CRITICAL SUCCESSES", "REROLLS", "PARRY", "EXPERT PARRY",
"SWASHBUCKLER", "HEROIC ACTION", "STEP 1: ATTACK ROLL" and the player aid "Action table"
(../shared/seeds/002_e45d2dbdce3a6f64.txt); rulings in ../shared/RULES.md §1.

Three independent computations are compared: the library's exact PMFs (rulesets.drakerys.exact), models
built here with icepool (exact fractions), and the naive twin tests/naive.py (plain Python dice). The fast
kernel is then checked against the exact PMFs and the twin.
"""

from __future__ import annotations

import math
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import DRAKERYS_ACTION_TABLE, naive_action_histogram, naive_threshold
from scipy import stats

from rulesets.base import RulesError
from rulesets.drakerys import (
    ActionRoll,
    DrakerysRulings,
    action_table,
    action_threshold,
    exact_action_roll,
    simulate_action_roll,
)
from simcore import config, runner
from simcore.exact import at_least
from simcore.stats import chisquare_gof, chisquare_two_sample

CHAIN = DrakerysRulings()
NO_CHAIN = DrakerysRulings(crit_chain=False)
CRIT_MODES = ("normal", "parry", "expert-parry")


# ---------------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------------

def _pad(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, s) for s in a.shape)] = a
    return out


def _fold(joint: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A joint PMF cut to a simulation histogram's ``shape``: its last row and column collect the rest."""
    out = np.zeros(shape)
    rows = np.minimum(np.arange(joint.shape[0]), shape[0] - 1)
    cols = np.minimum(np.arange(joint.shape[1]), shape[1] - 1)
    np.add.at(out, (rows[:, None], cols[None, :]), joint)
    return out


def assert_pmf_close(a: np.ndarray, b: np.ndarray, atol: float = 1e-12) -> None:
    """Same PMF to ``atol`` in every cell (arrays of different lengths are padded with zeros)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.ndim == b.ndim
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    diff = np.abs(_pad(a, shape) - _pad(b, shape))
    assert diff.max() <= atol, f"max difference {diff.max():.3g} at {np.unravel_index(diff.argmax(), shape)}"


def rulings_for(chain: bool) -> DrakerysRulings:
    return CHAIN if chain else NO_CHAIN


# icepool models. One die's outcome is encoded as successes + CRIT_BASE * criticals: a failure is 0, a plain
# success 1, a critical 10 is CRIT (one success and one critical) plus whatever its extra die brings.
CRIT_BASE = 1000
CRIT = CRIT_BASE + 1
ICE_DEPTH = 16  # explosion chains cut after 16 extra dice: mass lost per die 1e-17


def ice_fails(face: int, threshold: int, crits: str) -> bool:
    return face < threshold or (face == 10 and crits == "expert-parry")


def ice_first_die(threshold: int, crits: str = "normal", chain: bool = True,
                  swashbuckler: bool = False, conditioned_on_success: bool = False) -> icepool.Die:
    """Encoded outcome of one first-rolled d10, including the extra dice its critical brings.

    ``swashbuckler``: a failure is rerolled once. ``conditioned_on_success``: the die given that it did
    not fail (used for the limited-reroll mixture).
    """
    fail_faces = [f for f in range(1, 11) if ice_fails(f, threshold, crits)]
    base = icepool.d10
    if swashbuckler and len(fail_faces) < 10:  # (icepool cannot reroll every face; nor need it: all fail)
        base = base.reroll(fail_faces, depth=1)
    if conditioned_on_success:
        base = base.reroll(fail_faces, depth="inf")
    if chain:
        extra = icepool.d10.map(lambda f: CRIT if f == 10 else int(f >= threshold)).explode(
            [CRIT], depth=ICE_DEPTH)
    else:
        extra = icepool.d10.map(lambda f: int(f >= threshold))  # an extra 10: plain success

    def encode(face: int):
        if ice_fails(face, threshold, crits):
            return 0
        if face == 10 and crits == "normal":
            return CRIT + extra
        return 1

    return base.map(encode)


def ice_sum(die: icepool.Die, n: int) -> icepool.Die:
    return n @ die if n > 0 else icepool.Die([0])


def ice_limited_rerolls(n: int, threshold: int, rerolls: int, crits: str = "normal",
                        chain: bool = True) -> icepool.Die:
    """n dice of which up to ``rerolls`` failures are rerolled once: a mixture over the number f of
    first failures, weighted C(n, f) * fail_faces^f * other_faces^(n - f)."""
    fail_faces = sum(ice_fails(f, threshold, crits) for f in range(1, 11))
    fresh = ice_first_die(threshold, crits, chain)
    kept = ice_first_die(threshold, crits, chain, conditioned_on_success=True) if fail_faces < 10 else None
    parts, weights = [], []
    for f in range(n + 1):
        w = math.comb(n, f) * fail_faces**f * (10 - fail_faces) ** (n - f)
        if w == 0:
            continue
        parts.append(ice_sum(kept, n - f) + ice_sum(fresh, min(rerolls, f)))
        weights.append(w)
    return icepool.Die(parts, times=weights)


def ice_joint(die: icepool.Die) -> np.ndarray:
    """Decode an encoded icepool die into ``p[successes, criticals]``."""
    den = die.denominator()
    cells: dict[tuple[int, int], Fraction] = {}
    for value, quantity in die.items():
        key = (value % CRIT_BASE, value // CRIT_BASE)
        cells[key] = cells.get(key, Fraction(0)) + Fraction(quantity, den)
    out = np.zeros((max(s for s, _ in cells) + 1, max(c for _, c in cells) + 1))
    for (s, c), p in cells.items():
        out[s, c] = float(p)
    return out


def ice_successes(die: icepool.Die) -> np.ndarray:
    return ice_joint(die).sum(axis=1)


# ---------------------------------------------------------------------------------------------------
# the Action Table: threshold
# ---------------------------------------------------------------------------------------------------

PRINTED_TABLE = [(-4, 10), (-3, 9), (-2, 8), (-1, 7), (0, 6), (1, 5), (2, 4), (3, 3), (4, 2)]


@pytest.mark.parametrize(("difference", "threshold"), PRINTED_TABLE)
def test_action_table_printed_columns(difference, threshold):
    """ACTION TABLE, "Action Value - Opposition Value":

        -4 or less  -3  -2  -1  0  1  2  3  4 or more
        10           9   8   7  6  5  4  3  2

    "The corresponding column indicates the minimal result to be achieved and is called the Threshold."
    """
    for opposition in (0, 1, 3, 5, 7):
        assert action_threshold(opposition + difference, opposition) == threshold
    assert DRAKERYS_ACTION_TABLE[difference] == threshold


@pytest.mark.parametrize(("action", "opposition", "threshold"), [
    (10, 1, 2), (1, 10, 10), (5, 1, 2), (1, 5, 10), (8, 3, 2), (0, 9, 10), (4, 4, 6), (3, 6, 9),
])
def test_action_table_clamps_to_outer_columns(action, opposition, threshold):
    """"-4 or less" -> 10 and "4 or more" -> 2: the table has no columns beyond them."""
    assert action_threshold(action, opposition) == threshold


def test_action_threshold_matches_printed_table_everywhere():
    for action in range(0, 13):
        for opposition in range(0, 13):
            assert action_threshold(action, opposition) == naive_threshold(action, opposition)


@pytest.mark.parametrize(("action", "opposition", "bad"), [
    (1.5, 3, "1.5"), (3, 2.0, "2.0"), ("3", 2, "'3'"), (3, None, "None"), (True, 3, "True"),
])
def test_action_threshold_rejects_non_integers(action, opposition, bad):
    with pytest.raises(RulesError, match=f"{bad} is not a whole number"):
        action_threshold(action, opposition)


# ---------------------------------------------------------------------------------------------------
# exact PMFs against icepool
# ---------------------------------------------------------------------------------------------------

def test_action_table_matches_icepool_whole_table():
    """Success PMFs of 1..20 dice at every threshold 2..10 (normal criticals, chained), to 1e-12.

    Each die is icepool's successes-only die (a 10 is one success and another roll, ``Again``): the joint
    (successes, criticals) encoding the other tests use gives the same here at 30 times the time (11 s)."""
    table = action_table(20)
    assert table.thresholds == tuple(range(2, 11))
    for t in range(2, 11):
        one = icepool.Die([0] * (t - 1) + [1] * (10 - t) + [1 + icepool.Again], again_depth=ICE_DEPTH)
        pool = icepool.Die([0])
        for n in range(1, 21):
            pool = pool + one  # n dice from n - 1 dice: reuses the work
            ice = np.array([float(pool.probability(k)) for k in range(max(pool.outcomes()) + 1)])
            assert_pmf_close(table.pmfs[n, t], ice)
            assert abs(table.pmfs[n, t].sum() - 1.0) < 1e-12


@pytest.mark.parametrize("threshold", [2, 4, 7, 10])
def test_action_table_swashbuckler_matches_icepool(threshold):
    table = action_table(20, thresholds=[threshold], swashbuckler=True)
    one = ice_first_die(threshold, swashbuckler=True)
    pool = icepool.Die([0])
    for n in range(1, 21):
        pool = pool + one
        assert_pmf_close(table.pmfs[n, threshold], ice_successes(pool))


def test_action_table_limited_rerolls_matches_icepool():
    table = action_table(8, thresholds=[6, 9], rerolls=3)
    for t in (6, 9):
        for n in range(1, 9):
            assert_pmf_close(table.pmfs[n, t], ice_successes(ice_limited_rerolls(n, t, 3)))


JOINT_CASES = [
    # (dice, threshold, crits, chain, swashbuckler)
    (1, 7, "normal", True, False),
    (5, 7, "normal", True, False),
    (8, 2, "normal", True, False),
    (6, 10, "normal", True, False),
    (5, 7, "normal", False, False),
    (6, 2, "normal", False, False),
    (4, 10, "normal", False, True),
    (7, 7, "normal", True, True),
    (3, 4, "normal", True, True),
    (6, 6, "parry", True, False),
    (6, 10, "parry", True, True),
    (6, 6, "expert-parry", True, False),
    (5, 3, "expert-parry", True, True),
    (5, 10, "expert-parry", True, True),
]


@pytest.mark.parametrize(("dice", "threshold", "crits", "chain", "swashbuckler"), JOINT_CASES)
def test_joint_matches_icepool(dice, threshold, crits, chain, swashbuckler):
    roll = ActionRoll(dice, threshold, swashbuckler=swashbuckler, crits=crits)
    dist = exact_action_roll(roll, rulings_for(chain), joint=True)
    expected = ice_joint(dice @ ice_first_die(threshold, crits, chain, swashbuckler))
    assert_pmf_close(dist.joint, expected)
    assert_pmf_close(dist.successes, expected.sum(axis=1))
    assert_pmf_close(dist.criticals, expected.sum(axis=0))


@pytest.mark.parametrize(("dice", "threshold", "rerolls", "crits", "chain"), [
    (2, 7, 1, "normal", True),
    (5, 7, 3, "normal", True),
    (6, 5, 2, "normal", False),
    (4, 8, 1, "parry", True),
    (5, 9, 2, "expert-parry", True),
    (3, 10, 2, "expert-parry", True),
])
def test_joint_limited_rerolls_matches_icepool(dice, threshold, rerolls, crits, chain):
    roll = ActionRoll(dice, threshold, rerolls=rerolls, crits=crits)
    dist = exact_action_roll(roll, rulings_for(chain), joint=True)
    assert_pmf_close(dist.joint, ice_joint(ice_limited_rerolls(dice, threshold, rerolls, crits, chain)))


# ---------------------------------------------------------------------------------------------------
# hand-computed numbers
# ---------------------------------------------------------------------------------------------------

def test_one_die_threshold_7():
    """One d10 needing 7+: faces 7, 8, 9, 10 succeed, P = 0.4; a 10 (P 0.1) is also a critical."""
    dist = exact_action_roll(ActionRoll(1, 7), joint=True)
    assert dist.successes[0] == pytest.approx(0.6, abs=1e-15)
    assert at_least(dist.successes)[1] == pytest.approx(0.4, abs=1e-15)
    assert dist.joint[1, 0] == pytest.approx(0.3, abs=1e-15)  # 7, 8 or 9
    assert dist.joint[1, 1] == pytest.approx(0.1 * 0.6, abs=1e-15)  # 10, extra die fails
    assert dist.joint[2, 1] == pytest.approx(0.1 * 0.3, abs=1e-15)  # 10, extra 7-9
    assert dist.joint[2, 2] == pytest.approx(0.1 * 0.1 * 0.6, abs=1e-15)  # 10, extra 10, its extra fails


def test_one_die_threshold_7_swashbuckler():
    """"The Failures ... can be rerolled once": P(success) = 0.4 + 0.6 * 0.4 = 0.64."""
    dist = exact_action_roll(ActionRoll(1, 7, swashbuckler=True))
    assert at_least(dist.successes)[1] == pytest.approx(0.64, abs=1e-15)
    # a critical needs a 10 first (0.1) or a failure then a 10 (0.6 * 0.1)
    assert at_least(dist.criticals)[1] == pytest.approx(0.16, abs=1e-15)


@pytest.mark.parametrize("threshold", range(2, 11))
def test_mean_successes_one_die(threshold):
    """With chains, one die's mean m satisfies m = q + 0.1 m (q = (11 - t) / 10 succeeds, and a 10 brings
    a fresh die), so m = q / 0.9; criticals: c = 0.1 + 0.1 c = 1/9. Without chains an extra die is
    rolled once: m = q + 0.1 q, c = 0.1."""
    q = (11 - threshold) / 10
    chained = exact_action_roll(ActionRoll(1, threshold))
    assert chained.mean().value == pytest.approx(q / 0.9, abs=1e-12)
    assert chained.mean("criticals").value == pytest.approx(1 / 9, abs=1e-12)
    plain = exact_action_roll(ActionRoll(1, threshold), NO_CHAIN)
    assert plain.mean().value == pytest.approx(1.1 * q, abs=1e-12)
    assert plain.mean("criticals").value == pytest.approx(0.1, abs=1e-12)
    for n in (4, 17):
        mean = exact_action_roll(ActionRoll(n, threshold)).mean().value
        assert mean == pytest.approx(n * q / 0.9, abs=1e-11)


def test_twelve_dice_swashbuckler_mean():
    """Each first die succeeds with 0.64 and is a 10 with 0.16; each 10 brings a die worth 0.4 / 0.9."""
    expected = 12 * (0.64 + 0.16 * 0.4 / 0.9)
    assert expected == pytest.approx(8.533333333333333, abs=1e-12)
    dist = exact_action_roll(ActionRoll(12, 7, swashbuckler=True))
    assert dist.mean().value == pytest.approx(expected, abs=1e-12)
    assert dist.mean("criticals").value == pytest.approx(12 * 0.16 / 0.9, abs=1e-12)


def test_limited_reroll_two_dice():
    """Two dice at 7+ with one reroll: no success needs both to fail and the reroll to fail."""
    none = exact_action_roll(ActionRoll(2, 7))
    one = exact_action_roll(ActionRoll(2, 7, rerolls=1))
    swash = exact_action_roll(ActionRoll(2, 7, swashbuckler=True))
    assert none.successes[0] == pytest.approx(0.36, abs=1e-15)
    assert one.successes[0] == pytest.approx(0.36 * 0.6, abs=1e-15)
    assert swash.successes[0] == pytest.approx(0.6**4, abs=1e-15)


@pytest.mark.parametrize("dice", [1, 5, 20])
@pytest.mark.parametrize("swashbuckler", [False, True])
def test_expert_parry_at_threshold_10_never_succeeds(dice, swashbuckler):
    """EXPERT PARRY: "Critical Successes ... count as Failures": at 10+ only a 10 could succeed."""
    dist = exact_action_roll(ActionRoll(dice, 10, swashbuckler=swashbuckler, crits="expert-parry"))
    assert dist.successes[0] == pytest.approx(1.0, abs=1e-15)
    assert dist.successes[1:].sum() == 0.0
    assert dist.criticals[0] == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("dice", [1, 6, 20])
def test_parry_at_threshold_10_is_binomial(dice):
    """PARRY: "count as normal Successes. They do not generate extra D10s": Binomial(n, 0.1)."""
    dist = exact_action_roll(ActionRoll(dice, 10, crits="parry"))
    assert_pmf_close(dist.successes, stats.binom.pmf(np.arange(dice + 1), dice, 0.1))
    assert_pmf_close(dist.criticals, [1.0])


@pytest.mark.parametrize("threshold", [2, 5, 9])
def test_parry_modes_are_binomial(threshold):
    n = 9
    parry = exact_action_roll(ActionRoll(n, threshold, crits="parry"))
    expert = exact_action_roll(ActionRoll(n, threshold, crits="expert-parry"))
    assert_pmf_close(parry.successes, stats.binom.pmf(np.arange(n + 1), n, (11 - threshold) / 10))
    assert_pmf_close(expert.successes, stats.binom.pmf(np.arange(n + 1), n, (10 - threshold) / 10))


def test_heroic_dice_are_ordinary_dice():
    """HEROIC ACTION: "The Unit can add 1 to 5D10s": the same roll as that many more dice."""
    for heroic in range(1, 6):
        with_heroic = exact_action_roll(ActionRoll(4, 7, heroic=heroic, rerolls=2), joint=True)
        more_dice = exact_action_roll(ActionRoll(4 + heroic, 7, rerolls=2), joint=True)
        assert_pmf_close(with_heroic.joint, more_dice.joint, atol=0.0)


# ---------------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------------

roll_parameters = st.fixed_dictionaries({
    "dice": st.integers(1, 30),
    "threshold": st.integers(2, 10),
    "heroic": st.integers(0, 5),
    "swashbuckler": st.booleans(),
    "rerolls": st.integers(0, 8),
    "crits": st.sampled_from(CRIT_MODES),
})


@settings(max_examples=30, deadline=None)
@given(params=roll_parameters, chain=st.booleans())
def test_pmfs_sum_to_one(params, chain):
    dist = exact_action_roll(ActionRoll(**params), rulings_for(chain), joint=True)
    for pmf in (dist.successes, dist.criticals, dist.joint):
        assert abs(pmf.sum() - 1.0) < 1e-12
        assert pmf.min() >= 0.0
    assert_pmf_close(dist.joint.sum(axis=1), dist.successes)
    assert_pmf_close(dist.joint.sum(axis=0), dist.criticals)
    # at least one success per critical
    s, c = np.nonzero(dist.joint > 0)
    assert np.all(s >= c)


@settings(max_examples=25, deadline=None)
@given(dice=st.integers(1, 25), threshold=st.integers(2, 10), crits=st.sampled_from(CRIT_MODES),
       chain=st.booleans(), swashbuckler=st.booleans(), rerolls=st.integers(0, 4))
def test_mean_monotone_in_dice_and_threshold(dice, threshold, crits, chain, swashbuckler, rerolls):
    rulings = rulings_for(chain)

    def mean(n, t):
        roll = ActionRoll(n, t, swashbuckler=swashbuckler, rerolls=rerolls, crits=crits)
        return exact_action_roll(roll, rulings).mean().value

    here = mean(dice, threshold)
    if crits == "expert-parry" and threshold == 10:
        assert mean(dice + 1, threshold) == 0.0 == here
    else:
        assert mean(dice + 1, threshold) > here + 1e-9
    if threshold < 10:
        assert mean(dice, threshold + 1) < here - 1e-9


@settings(max_examples=25, deadline=None)
@given(dice=st.integers(1, 20), threshold=st.integers(2, 10), crits=st.sampled_from(CRIT_MODES),
       chain=st.booleans(), rerolls=st.integers(1, 6))
def test_rerolls_dominance(dice, threshold, crits, chain, rerolls):
    """Swashbuckler >= K rerolls >= K - 1 rerolls, for P(successes >= k) at every k."""
    rulings = rulings_for(chain)

    def curve(**kw):
        return at_least(exact_action_roll(ActionRoll(dice, threshold, crits=crits, **kw), rulings).successes)

    swash, k, fewer = curve(swashbuckler=True), curve(rerolls=rerolls), curve(rerolls=rerolls - 1)
    size = max(swash.size, k.size, fewer.size)
    swash, k, fewer = _pad(swash, (size,)), _pad(k, (size,)), _pad(fewer, (size,))
    assert np.all(swash >= k - 1e-12)
    assert np.all(k >= fewer - 1e-12)
    if rerolls >= dice:  # as many rerolls as dice: every failure is rerolled, as with Swashbuckler
        assert_pmf_close(swash, k)


# ---------------------------------------------------------------------------------------------------
# naive twin against the exact PMFs
# ---------------------------------------------------------------------------------------------------

NAIVE_CASES = [
    # (dice, threshold, heroic, swashbuckler, rerolls, crits, chain)
    (1, 7, 0, False, 0, "normal", True),
    (1, 10, 0, False, 0, "normal", True),
    (12, 7, 0, False, 0, "normal", True),
    (12, 2, 0, False, 0, "normal", True),
    (4, 6, 0, False, 0, "normal", True),
    (12, 7, 0, False, 0, "normal", False),
    (3, 10, 0, False, 0, "normal", False),
    (6, 2, 0, False, 0, "normal", False),
    (12, 7, 0, False, 0, "parry", True),
    (4, 10, 0, False, 0, "parry", True),
    (12, 7, 0, False, 0, "expert-parry", True),
    (3, 2, 0, True, 0, "expert-parry", True),
    (5, 7, 0, True, 0, "expert-parry", True),
    (1, 7, 0, True, 0, "normal", True),
    (12, 7, 0, True, 0, "normal", True),
    (12, 6, 0, True, 0, "normal", False),
    (6, 10, 0, True, 0, "normal", True),
    (4, 7, 0, False, 1, "normal", True),
    (12, 6, 0, False, 1, "normal", True),
    (12, 7, 0, False, 3, "normal", True),
    (2, 7, 0, False, 3, "normal", True),
    (6, 10, 0, False, 3, "normal", False),
    (6, 8, 0, False, 3, "parry", True),
    (6, 6, 0, False, 1, "expert-parry", True),
    (3, 6, 2, False, 0, "normal", True),
    (10, 7, 2, False, 3, "normal", True),
    (1, 2, 2, True, 0, "normal", False),
]
NAIVE_TRIALS = 25_000


def _naive_counts(case, seed):
    dice, threshold, heroic, swashbuckler, rerolls, crits, chain = case
    return naive_action_histogram(seed, NAIVE_TRIALS, dice=dice, threshold=threshold, heroic=heroic,
                                  swashbuckler=swashbuckler, rerolls=rerolls, crits=crits,
                                  crit_chain=chain)


def _roll_of(case):
    dice, threshold, heroic, swashbuckler, rerolls, crits, chain = case
    return ActionRoll(dice, threshold, heroic, swashbuckler, rerolls, crits), rulings_for(chain)


@pytest.mark.parametrize("case", NAIVE_CASES, ids=lambda c: "-".join(map(str, c)))
def test_naive_twin_fits_exact(case):
    counts = _naive_counts(case, seed=1000 + NAIVE_CASES.index(case))
    assert counts.sum() == NAIVE_TRIALS
    roll, rulings = _roll_of(case)
    dist = exact_action_roll(roll, rulings)
    for axis, pmf in ((1, dist.successes), (0, dist.criticals)):
        fit = chisquare_gof(counts.sum(axis=axis), pmf)
        assert fit.pvalue > 1e-4, (case, axis, fit)
    if roll.crits != "normal":
        assert counts.shape[1] == 1  # no criticals at all
    if roll.crits == "expert-parry" and roll.threshold == 10:
        assert counts.shape == (1, 1)


def test_naive_threshold_is_the_printed_table():
    assert [naive_threshold(d, 0) for d in range(-6, 7)] == [10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 2, 2]


# ---------------------------------------------------------------------------------------------------
# fast kernel
# ---------------------------------------------------------------------------------------------------

def _fit_exact(sim, exact) -> None:
    assert sim.overflow_trials == 0
    counts = sim.run.counts
    assert counts.sum() == sim.run.trials
    for axis, pmf in ((1, exact.successes), (0, exact.criticals)):
        fit = chisquare_gof(counts.sum(axis=axis), pmf)
        assert fit.pvalue > 1e-3, (axis, fit)
    if exact.joint is not None:
        fit = chisquare_gof(counts, _fold(exact.joint, counts.shape))
        assert fit.pvalue > 1e-3, ("joint", fit)
    mean = sim.mean()
    assert abs(mean.value - exact.mean().value) < 5 * mean.stderr


def test_kernel_fits_exact_million_trials():
    roll = ActionRoll(12, 7, swashbuckler=True)
    sim = simulate_action_roll(roll, trials=10**6, seed=20240611)
    assert sim.run.trials == 10**6
    exact = exact_action_roll(roll, joint=True)
    _fit_exact(sim, exact)
    assert sim.mean().value == pytest.approx(8.533333333333333, abs=5 * sim.mean().stderr)


@pytest.mark.parametrize(("roll", "rulings"), [
    (ActionRoll(8, 6, rerolls=3), CHAIN),
    (ActionRoll(10, 4, crits="expert-parry", swashbuckler=True), CHAIN),
    (ActionRoll(9, 7, heroic=2), NO_CHAIN),
    (ActionRoll(6, 9, rerolls=2, crits="parry"), CHAIN),
], ids=["rerolls3", "expert-parry-swash", "no-chain-heroic", "parry-rerolls2"])
def test_kernel_fits_exact(roll, rulings):
    sim = simulate_action_roll(roll, rulings, trials=200_000, seed=7)
    _fit_exact(sim, exact_action_roll(roll, rulings, joint=True))


@pytest.mark.parametrize("case", [NAIVE_CASES[i] for i in (2, 5, 11, 19, 25)],
                         ids=lambda c: "-".join(map(str, c)))
def test_kernel_matches_naive_twin(case):
    roll, rulings = _roll_of(case)
    sim = simulate_action_roll(roll, rulings, trials=200_000, seed=99)
    naive = _naive_counts(case, seed=5)
    for axis in (1, 0):
        fit = chisquare_two_sample(sim.run.counts.sum(axis=axis), naive.sum(axis=axis))
        assert fit.pvalue > 1e-4, (axis, fit)


def test_kernel_extremes():
    """Outcomes that are certain: nothing succeeds under Expert Parry at 10+; parry never criticals."""
    sim = simulate_action_roll(ActionRoll(7, 10, crits="expert-parry", swashbuckler=True), trials=50_000,
                               seed=3)
    assert sim.run.counts[0, 0] == 50_000
    sim = simulate_action_roll(ActionRoll(7, 3, crits="parry"), trials=50_000, seed=3)
    assert sim.run.counts[:, 1:].sum() == 0
    assert sim.run.counts[8:, :].sum() == 0


# ---------------------------------------------------------------------------------------------------
# reproducibility and precision stop
# ---------------------------------------------------------------------------------------------------

REPRO_TRIALS = 5 * config.CHUNK_TRIALS + 1234  # six chunks, the last one short
REPRO_ROLL = ActionRoll(9, 7, heroic=1, rerolls=2)


def test_trial_count_spans_several_chunks():
    assert REPRO_TRIALS % config.CHUNK_TRIALS != 0
    assert REPRO_TRIALS // config.CHUNK_TRIALS >= 5
    assert REPRO_TRIALS // config.CHUNK_TRIALS > config.FIRST_BATCH_CHUNKS  # more than one batch


def test_same_seed_same_counts_any_batching():
    default = simulate_action_roll(REPRO_ROLL, trials=REPRO_TRIALS, seed=11, threads=1)
    single = simulate_action_roll(REPRO_ROLL, trials=REPRO_TRIALS, seed=11, threads=1, max_batch_chunks=1)
    again = simulate_action_roll(REPRO_ROLL, trials=REPRO_TRIALS, seed=11, threads=1)
    assert default.run.trials == REPRO_TRIALS == int(default.run.counts.sum())
    np.testing.assert_array_equal(default.run.counts, single.run.counts)
    np.testing.assert_array_equal(default.run.counts, again.run.counts)


@pytest.mark.skipif(runner.available_threads() < 2, reason="needs 2 threads")
def test_same_seed_same_counts_any_threads():
    one = simulate_action_roll(REPRO_ROLL, NO_CHAIN, trials=REPRO_TRIALS, seed=12, threads=1)
    two = simulate_action_roll(REPRO_ROLL, NO_CHAIN, trials=REPRO_TRIALS, seed=12, threads=2)
    two_small = simulate_action_roll(REPRO_ROLL, NO_CHAIN, trials=REPRO_TRIALS, seed=12, threads=2,
                                     max_batch_chunks=1)
    assert two.run.threads == 2
    np.testing.assert_array_equal(one.run.counts, two.run.counts)
    np.testing.assert_array_equal(one.run.counts, two_small.run.counts)


def test_different_seeds_differ():
    a = simulate_action_roll(REPRO_ROLL, trials=REPRO_TRIALS, seed=1)
    b = simulate_action_roll(REPRO_ROLL, trials=REPRO_TRIALS, seed=2)
    assert not np.array_equal(a.run.counts, b.run.counts)


def test_precision_stops_early():
    roll = ActionRoll(12, 7, swashbuckler=True)
    cap = 10**7
    threads = [1, 2] if runner.available_threads() >= 2 else [1]
    results = [simulate_action_roll(roll, trials=cap, seed=4, precision=0.01, threads=t) for t in threads]
    first = results[0]
    assert first.run.stopped_by_precision
    assert first.run.trials < cap
    assert first.run.trials % config.CHUNK_TRIALS == 0
    assert int(first.run.counts.sum()) == first.run.trials
    mean = first.mean()
    assert mean.half_width < 0.01
    assert abs(mean.value - 12 * (0.64 + 0.16 * 0.4 / 0.9)) < 5 * mean.stderr
    for other in results[1:]:
        assert other.run.trials == first.run.trials
        np.testing.assert_array_equal(other.run.counts, first.run.counts)


# ---------------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "named"), [
    ({"dice": 0, "threshold": 6}, "dice 0"),
    ({"dice": 1001, "threshold": 6}, "dice 1001"),
    ({"dice": 5, "threshold": 11}, "threshold 11"),
    ({"dice": 5, "threshold": 1}, "threshold 1"),
    ({"dice": 5, "threshold": 6, "heroic": 6}, "heroic dice 6"),
    ({"dice": 5, "threshold": 6, "heroic": -1}, "heroic dice -1"),
    ({"dice": 5, "threshold": 6, "rerolls": -1}, "rerolls -1"),
    ({"dice": 2.5, "threshold": 6}, "dice 2.5"),
    ({"dice": 5, "threshold": 6, "crits": "bogus"}, "crits 'bogus'"),
])
def test_action_roll_rejects_bad_values(kwargs, named):
    with pytest.raises(RulesError, match=f"^{named} "):
        ActionRoll(**kwargs)


def test_simulate_rejects_bad_run_options():
    with pytest.raises(RulesError, match="trials 0"):
        simulate_action_roll(ActionRoll(3, 6), trials=0, seed=1)
    with pytest.raises(RulesError, match="threads 999"):
        simulate_action_roll(ActionRoll(3, 6), trials=10, seed=1, threads=999)
