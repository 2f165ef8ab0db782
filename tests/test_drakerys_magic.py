"""Drakerys magic (seed 002): the Spell roll with the Maelstroms' Cataclysmic Effect, the Elemental
invocation roll and the Maelstrom element table; exact answers, Monte Carlo kernel, naive twins, CLI.

Rulebook sections: "MAGIC" through "ELEMENTAL LINK" (CASTING A SPELL, CATACLYSMIC EFFECT OF THE
MAELSTROMS, the MIRAGE card, INVOKING AN ELEMENTAL), "HEROIC ACTION", the player aid "Roll" and "Invoking
an Elemental" (../shared/seeds/002_e45d2dbdce3a6f64.txt). Three computations are compared: the library's
exact PMFs, icepool models built here, and the naive twins of tests/naive.py.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import icepool
import numpy as np
import pandas as pd
import pytest
from cli_run import assert_one_line_error, csv, ok, run
from naive import (
    naive_cataclysm_injuries,
    naive_invocation,
    naive_maelstrom_element,
    naive_spell_histogram,
    naive_spell_opposition,
)
from scipy import stats

from rulesets.base import RulesError
from rulesets.drakerys import ActionRoll, DrakerysRulings, exact_action_roll
from rulesets.drakerys.magic import (
    InvocationRoll,
    SpellCast,
    cataclysm_injuries,
    invocation_distribution,
    maelstrom_element_table,
    simulate_spell,
    spell_distribution,
    tier_labels,
)
from simcore import config, runner
from simcore.dice import TOP_EXPLODE
from simcore.exact import at_least, success_roll_joint
from simcore.exact_faces import success_roll_marked_joint
from simcore.stats import chisquare_gof, chisquare_two_sample

FIRST_ONES = DrakerysRulings(maelstrom_ones="first")
NO_CHAIN = DrakerysRulings(crit_chain=False)


def _pad(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, s) for s in a.shape)] = a
    return out


def assert_pmf_close(a, b, atol: float = 1e-12) -> None:
    a, b = np.asarray(a, float), np.asarray(b, float)
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    diff = np.abs(_pad(a, shape) - _pad(b, shape))
    assert diff.max() <= atol, f"max difference {diff.max():.3g} at {np.unravel_index(diff.argmax(), shape)}"


def _fold(joint: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A joint PMF cut to a histogram's ``shape``, its last row and column collecting the rest."""
    out = np.zeros(shape)
    rows = np.minimum(np.arange(joint.shape[0]), shape[0] - 1)
    cols = np.minimum(np.arange(joint.shape[1]), shape[1] - 1)
    np.add.at(out, (rows[:, None], cols[None, :]), joint)
    return out


# ---------------------------------------------------------------------------------------------------
# rulebook numbers: the invocation roll and the element table
# ---------------------------------------------------------------------------------------------------

def test_invocation_two_dice_at_seven():
    """Two d10 against 7+: P(at least one success) = 1 - 0.6^2 = 0.64."""
    dist = invocation_distribution(InvocationRoll())
    assert dist.p_invoked == (Fraction(16, 25),)
    assert dist.p_success == pytest.approx(0.64, abs=1e-15)
    assert_pmf_close(dist.successes, [0.36, 0.48, 0.16], atol=1e-15)


def test_invocation_by_extra_dice():
    """+1 d10 per extra TS: P = 1 - 0.6^(2 + k)."""
    dist = invocation_distribution(InvocationRoll(extra_dice=5))
    assert dist.p_invoked == tuple(1 - Fraction(3, 5) ** (2 + k) for k in range(6))
    assert [float(p) for p in dist.p_invoked] == pytest.approx([0.64, 0.784, 0.8704, 0.92224, 0.953344,
                                                                0.9720064], abs=1e-15)
    assert dist.p_success == pytest.approx(float(dist.p_invoked[-1]), abs=1e-15)


@pytest.mark.parametrize("dice", [2, 3, 7, 22])
def test_criticals_cannot_change_an_invocation(dice):
    """Criticals would add dice only to a roll that has a 10, a success already: P(no success) is 0.6^n
    with or without them (the ruling stated in rulesets.drakerys.magic)."""
    with_crits = success_roll_joint(dice, 10, 7, TOP_EXPLODE, marginal=0)
    assert with_crits[0] == pytest.approx(0.6**dice, rel=1e-12)
    without = invocation_distribution(InvocationRoll(dice - 2)).successes
    assert without[0] == pytest.approx(0.6**dice, rel=1e-12)


def test_maelstrom_element_table():
    """d10: 1 -> +1 TS and roll again, 2-3 Air, 4-5 Water, 6-7 Fire, 8-9 Earth, 10 choice:
    P(Air) = (2/10) / (9/10) = 2/9; extra TS geometric, mean 1/9."""
    table = maelstrom_element_table()
    assert [(e, f) for e, f, _ in table.elements] == [("Air", "2-3"), ("Water", "4-5"), ("Fire", "6-7"),
                                                      ("Earth", "8-9"), ("player's choice", "10")]
    assert [p for _, _, p in table.elements] == [Fraction(2, 9)] * 4 + [Fraction(1, 9)]
    assert table.mean_extra_ts == Fraction(1, 9)
    assert table.extra_ts[:3] == (Fraction(9, 10), Fraction(9, 100), Fraction(9, 1000))
    assert len(table.extra_ts) == 13  # P(at least 12) = 1e-12 is the last row kept
    assert sum(table.extra_ts) + table.extra_ts_beyond == 1
    assert sum(k * p for k, p in enumerate(maelstrom_element_table(60).extra_ts)) == pytest.approx(1 / 9,
                                                                                                    abs=1e-15)
    assert maelstrom_element_table(0).extra_ts_beyond == Fraction(1, 10)


def test_invocation_from_maelstrom_has_elements_and_no_extra_dice():
    assert invocation_distribution(InvocationRoll(source="maelstrom")).elements == maelstrom_element_table()
    assert invocation_distribution(InvocationRoll()).elements is None
    with pytest.raises(RulesError, match="^extra dice 1: only a Vortex"):
        InvocationRoll(1, "maelstrom")
    with pytest.raises(RulesError, match="^extra dice 21 "):
        InvocationRoll(21)
    with pytest.raises(RulesError, match="^source 'lake' "):
        InvocationRoll(0, "lake")


# ---------------------------------------------------------------------------------------------------
# the spell roll: opposition, threshold, dice, Mana
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("distance", "sources", "opposition"), [
    (0, 1, 0), (0.5, 1, 1), (1, 1, 1), (10, 1, 1), (10.5, 1, 2), (11, 1, 2), (20, 1, 2), (21, 1, 3),
    (25, 2, 4), (30, 3, 5), (0, 3, 2), (99, 1, 10),
])
def test_opposition_started_tens_and_extra_sources(distance, sources, opposition):
    cast = SpellCast(3, distance, vortexes=sources)
    assert cast.opposition == opposition == naive_spell_opposition(distance, sources)


@pytest.mark.parametrize(("level", "distance", "sources", "threshold"), [
    (3, 25, 2, 7), (1, 0, 1, 5), (5, 0, 1, 2), (5, 5, 1, 2), (1, 45, 1, 10), (2, 15, 2, 7), (4, 30, 4, 8),
])
def test_threshold_from_the_action_table(level, distance, sources, threshold):
    """Action value = level, opposition as above, threshold = 6 - (action - opposition) clamped 2..10."""
    assert SpellCast(level, distance, vortexes=sources).threshold == threshold


def test_dice_and_heroic_action():
    cast = SpellCast(3, maelstroms=1, mana=4, heroic=2)
    assert cast.dice == 7
    assert cast.action_roll == ActionRoll(5, cast.threshold, heroic=2)


@pytest.mark.parametrize(("sources", "cost", "left"), [
    ({"vortexes": 1}, 1, 2), ({"vortexes": 1}, 3, 0), ({"maelstroms": 1}, 1, 8),
    ({"vortexes": 2, "maelstroms": 1}, 2, 13), ({"vortexes": 3}, 0, 9),
])
def test_mana_left_for_reinforcement(sources, cost, left):
    """A Vortex gives 3 Mana, a Maelstrom up to 9; the cost is paid first."""
    cast = SpellCast(3, cost=cost, **sources)
    assert cast.mana_for_reinforcement() == left
    SpellCast(3, cost=cost, mana=left, **sources).check_mana()
    with pytest.raises(RulesError, match=f"^mana {left + 1} is more than the {left} "):
        SpellCast(3, cost=cost, mana=left + 1, **sources).check_mana()


def test_maelstrom_mana_ruling():
    after = DrakerysRulings(maelstrom_mana="after-cost")
    assert SpellCast(2, maelstroms=1, cost=2).mana_for_reinforcement(after) == 9
    assert SpellCast(2, vortexes=1, maelstroms=1, cost=2).mana_for_reinforcement(after) == 12
    assert SpellCast(2, vortexes=1, cost=2).mana_for_reinforcement(after) == 1  # no Maelstrom: no change
    with pytest.raises(RulesError, match="^cost 4 is more than the 3 Mana"):
        SpellCast(2, vortexes=1, cost=4).check_mana(after)
    with pytest.raises(RulesError, match="^mana 9 is more than the 8 "):
        spell_distribution(SpellCast(2, maelstroms=1, mana=9))
    assert spell_distribution(SpellCast(2, maelstroms=1, mana=9), after).successes.sum() == pytest.approx(1)


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"level": 0}, "level 0 "),
    ({"level": 6}, "level 6 "),
    ({"level": 2.0}, "level 2.0 "),
    ({"level": 3, "distance_cm": -1}, "distance -1 cm"),
    ({"level": 3, "distance_cm": float("nan")}, "distance nan cm"),
    ({"level": 3, "distance_cm": "5"}, "distance '5' cm"),
    ({"level": 2, "vortexes": 3}, "3 sources is more than a level-2 Wizard"),
    ({"level": 2, "vortexes": 0}, "a spell needs at least one Source"),
    ({"level": 2, "maelstroms": -1}, "maelstroms -1 "),
    ({"level": 2, "mana": -1}, "mana -1 "),
    ({"level": 2, "cost": -2}, "cost -2 "),
    ({"level": 2, "heroic": 6}, "heroic dice 6 "),
    ({"level": 2, "resistance": -1}, "resistance -1 "),
    ({"level": 2, "tiers": (3, 1)}, r"tiers \(3, 1\)"),
    ({"level": 2, "tiers": ()}, r"tiers \(\)"),
    ({"level": 2, "tiers": (0, 2)}, "tier boundary 0 "),
])
def test_spell_cast_rejects_bad_values(kwargs, named):
    with pytest.raises(RulesError, match=f"^{named}"):
        SpellCast(**kwargs)


def test_tier_labels_as_on_the_mirage_card():
    assert tier_labels((1, 3, 5)) == ["0", "1-2", "3-4", "5+"]
    assert tier_labels((1, 2)) == ["0", "1", "2+"]
    assert tier_labels((2,)) == ["0", "2+"]


# ---------------------------------------------------------------------------------------------------
# the spell roll: exact distributions
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rulings", "q"), [
    (DrakerysRulings(), Fraction(1, 9)), (FIRST_ONES, Fraction(1, 10)), (NO_CHAIN, Fraction(11, 100)),
])
@pytest.mark.parametrize("mana", [0, 3, 8])
def test_ones_are_binomial(rulings, q, mana):
    """Each first die's chain of extra dice ends on one face below 10, uniform over 1..9: with every die
    counted it shows one 1 with probability 1/10 + 1/10 * 1/9 = 1/9; first dice only: 1/10; without the
    chain a 10 brings one extra die: 1/10 + 1/100."""
    dist = spell_distribution(SpellCast(3, 15, maelstroms=1, mana=mana), rulings)
    n = 1 + mana
    assert_pmf_close(dist.ones, stats.binom.pmf(np.arange(n + 1), n, float(q)))
    assert_pmf_close(dist.cataclysm[:4], stats.binom.pmf(np.arange(4), n, float(q)))
    assert dist.cataclysm[4] == pytest.approx(stats.binom.sf(3, n, float(q)), abs=1e-13)


@pytest.mark.parametrize("rulings", [DrakerysRulings(), FIRST_ONES, NO_CHAIN])
def test_successes_are_those_of_the_action_roll(rulings):
    """Counting the 1s does not change the successes: the Action-Table roll of 1 + Mana (+ heroic) dice."""
    cast = SpellCast(4, 12, vortexes=1, maelstroms=1, mana=6, heroic=3)
    dist = spell_distribution(cast, rulings)
    assert_pmf_close(dist.successes, exact_action_roll(cast.action_roll, DrakerysRulings(
        crit_chain=rulings.crit_chain)).successes)
    assert dist.joint.sum() == pytest.approx(1.0, abs=1e-12)


def test_tiers_effect_and_outcomes_are_consistent():
    cast = SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4, tiers=(1, 3, 5))
    dist = spell_distribution(cast)
    tail = at_least(dist.successes)
    assert_pmf_close(dist.tiers, [1 - tail[1], tail[1] - tail[3], tail[3] - tail[5], tail[5]])
    joint = dist.tier_cataclysm
    assert_pmf_close(joint.sum(axis=1), dist.tiers)
    assert_pmf_close(joint.sum(axis=0), dist.cataclysm)
    assert_pmf_close(dist.effect[1:], joint[1:, :3].sum(axis=1))
    assert dist.effect[0] == pytest.approx(joint[0].sum() + joint[1:, 3:].sum(), abs=1e-15)
    assert_pmf_close(dist.effect_at_risk[1:], joint[1:, 2])
    # without a Maelstrom nothing backfires: the effect is the tier
    calm = spell_distribution(SpellCast(3, 25, vortexes=2, mana=4))
    assert calm.injuries is None
    assert_pmf_close(calm.effect, calm.tiers, atol=1e-15)
    assert not calm.effect_at_risk.any()


def test_cataclysm_level_three_fails_the_spell():
    """Three dice at 2+, every die counted: each die's chain shows one 1 with probability 1/9, either as its
    first face (0.1, no success) or after a 10 (0.1 * 1/9, with successes). Three 1s with a success
    (only through 10s) still make the spell fail."""
    dist = spell_distribution(SpellCast(5, 0, maelstroms=1, mana=2))
    assert dist.cast.threshold == 2
    assert dist.cataclysm[3] == pytest.approx((1 / 9) ** 3, rel=1e-12)
    assert dist.cataclysm[4] == 0.0
    assert dist.tier_cataclysm[1:, 3].sum() == pytest.approx((1 / 9) ** 3 - 0.1**3, rel=1e-12)
    assert dist.effect[0] == pytest.approx(dist.successes[0] + dist.tier_cataclysm[1:, 3].sum(), rel=1e-12)


# icepool models: one die's outcome encoded as successes + B * ones + B^2 * criticals
B = 100
TOP = 1 + B * B  # an extra die's 10: one success, one critical
ICE_DEPTH = 16


def ice_spell_die(threshold: int, chain: bool, ones_on_extra: bool) -> icepool.Die:
    def extra_face(f: int) -> int:
        one = B if (f == 1 and ones_on_extra) else 0
        if f == 10:
            return TOP if chain else 1
        return int(f >= threshold) + one

    extra = icepool.d10.map(extra_face)
    if chain:
        extra = extra.explode([TOP], depth=ICE_DEPTH)

    def first_face(f: int):
        if f == 10:
            return TOP + extra
        return int(f >= threshold) + (B if f == 1 else 0)

    return icepool.d10.map(first_face)


def ice_joint(die: icepool.Die) -> np.ndarray:
    den = die.denominator()
    cells: dict[tuple[int, int], Fraction] = {}
    for value, quantity in die.items():
        key = (value % B, (value // B) % B)
        cells[key] = cells.get(key, Fraction(0)) + Fraction(quantity, den)
    out = np.zeros((max(s for s, _ in cells) + 1, max(o for _, o in cells) + 1))
    for (s, o), p in cells.items():
        out[s, o] = float(p)
    return out


@pytest.mark.parametrize(("dice", "threshold", "chain", "ones_on_extra"), [
    (1, 7, True, True), (5, 7, True, True), (4, 2, True, True), (6, 10, True, True), (5, 5, False, True),
    (5, 7, True, False), (3, 4, False, False), (2, 10, False, True),
])
def test_spell_joint_matches_icepool(dice, threshold, chain, ones_on_extra):
    ours = success_roll_marked_joint(dice, 10, threshold, [1], chain=chain, mark_extra=ones_on_extra)
    assert_pmf_close(ours, ice_joint(dice @ ice_spell_die(threshold, chain, ones_on_extra)))


def test_spell_distribution_matches_icepool():
    cast = SpellCast(2, 35, vortexes=1, maelstroms=1, mana=3, heroic=1)  # 5 dice at 9+
    assert cast.threshold == 9
    ice = ice_joint(5 @ ice_spell_die(9, True, True))
    assert_pmf_close(spell_distribution(cast).joint, ice)


@pytest.mark.parametrize(("resistance", "chain"), [(3, True), (1, True), (6, False)])
def test_cataclysm_injuries_match_icepool(resistance, chain):
    """2D10 hits, each one die of an injury roll at Strength 3 against the Resistance."""
    threshold = min(10, max(2, 6 - (3 - resistance)))
    top = 1 + B * B
    if chain:
        one = icepool.d10.map(lambda f: top if f == 10 else int(f >= threshold))
        one = one.explode([top], depth=ICE_DEPTH)
    else:  # a 10 brings one extra die, whose 10 is a plain success
        plain = icepool.d10.map(lambda f: int(f >= threshold))
        one = icepool.d10.map(lambda f: 1 + plain if f == 10 else int(f >= threshold))
    hits = 2 @ icepool.d10
    pool = icepool.Die([h @ one for h in hits.outcomes()], times=list(hits.quantities()))
    want = np.zeros(200)
    for value, quantity in pool.items():
        want[value % B] += quantity / pool.denominator()
    rulings = DrakerysRulings(crit_chain=chain)
    assert_pmf_close(cataclysm_injuries(resistance, rulings), want)


def test_magic_rulings_are_drakerys_rulings():
    assert DrakerysRulings().with_assignments(["DK-maelstrom-ones=first"]) == FIRST_ONES
    keys = [k for k, _ in DrakerysRulings().in_force()]
    assert keys == ["DK-crit-chain", "DK-frontage", "DK-heavy-loaded", "DK-actions", "DK-blocking",
                    "DK-engagement-start", "DK-heroic-passive", "DK-heroic-dice", "DK-authority-range",
                    "DK-safeguard-transfer", "DK-combined-charge", "DK-spearmen-sizes", "DK-maelstrom-ones",
                    "DK-maelstrom-mana", "DK-battle-targeting", "DK-battle-tokens", "DK-budget",
                    "DK-composition", "DK-context"]


# ---------------------------------------------------------------------------------------------------
# naive twins against the exact answers
# ---------------------------------------------------------------------------------------------------

NAIVE_TRIALS = 20_000


@pytest.mark.parametrize(("cast", "rulings"), [
    (SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4), DrakerysRulings()),
    (SpellCast(5, 0, maelstroms=1, mana=8, heroic=2), DrakerysRulings()),
    (SpellCast(2, 40, maelstroms=2, mana=6), FIRST_ONES),
    (SpellCast(4, 5, maelstroms=1, mana=5), NO_CHAIN),
], ids=["7+", "2+heroic", "10+first", "no-chain"])
def test_naive_spell_twin_fits_exact(cast, rulings):
    counts = naive_spell_histogram(17, NAIVE_TRIALS, dice=cast.dice, threshold=cast.threshold,
                                   crit_chain=rulings.crit_chain,
                                   ones_on_extra=rulings.maelstrom_ones == "all")
    dist = spell_distribution(cast, rulings)
    for axis, pmf in ((1, dist.successes), (0, dist.ones)):
        fit = chisquare_gof(counts.sum(axis=axis), pmf)
        assert fit.pvalue > 1e-4, (axis, fit)
    fit = chisquare_gof(counts, _fold(dist.joint, counts.shape))
    assert fit.pvalue > 1e-4, fit


def test_naive_invocation_fits_exact():
    rng = np.random.default_rng(5)
    for extra in (0, 3):
        hits = sum(naive_invocation(rng, extra) for _ in range(NAIVE_TRIALS))
        p = invocation_distribution(InvocationRoll(extra)).p_success
        fit = chisquare_gof(np.array([NAIVE_TRIALS - hits, hits]), np.array([1 - p, p]))
        assert fit.pvalue > 1e-4, (extra, fit)


def test_naive_element_table_fits_exact():
    rng = np.random.default_rng(6)
    draws = [naive_maelstrom_element(rng) for _ in range(NAIVE_TRIALS)]
    table = maelstrom_element_table(4)
    names = [e for e, _, _ in table.elements]
    counts = np.array([sum(1 for e, _ in draws if e == name) for name in names])
    assert chisquare_gof(counts, np.array([float(p) for _, _, p in table.elements])).pvalue > 1e-4
    ts = np.bincount([t for _, t in draws])
    assert chisquare_gof(ts, np.array([float(p) for p in table.extra_ts])).pvalue > 1e-4
    assert np.mean([t for _, t in draws]) == pytest.approx(1 / 9, abs=0.01)


def test_naive_cataclysm_injuries_fit_exact():
    rng = np.random.default_rng(8)
    got = np.bincount([naive_cataclysm_injuries(rng, 4) for _ in range(NAIVE_TRIALS)])
    assert chisquare_gof(got, cataclysm_injuries(4)).pvalue > 1e-4


# ---------------------------------------------------------------------------------------------------
# Monte Carlo kernel
# ---------------------------------------------------------------------------------------------------

MC_TRIALS = 200_000


@pytest.mark.parametrize(("cast", "rulings"), [
    (SpellCast(3, 25, vortexes=1, maelstroms=1, mana=8, heroic=2), DrakerysRulings()),
    (SpellCast(5, 0, maelstroms=1, mana=6), FIRST_ONES),
    (SpellCast(4, 20, maelstroms=2, mana=10), NO_CHAIN),
], ids=["default", "first-ones", "no-chain"])
def test_kernel_fits_exact(cast, rulings):
    sim = simulate_spell(cast, rulings, trials=MC_TRIALS, seed=21)
    exact = spell_distribution(cast, rulings)
    assert sim.run.trials == MC_TRIALS == int(sim.run.counts.sum())
    assert sim.overflow_trials == 0
    counts = sim.run.counts
    for axis, pmf in ((1, exact.successes), (0, exact.ones)):
        assert chisquare_gof(counts.sum(axis=axis), pmf).pvalue > 1e-3, axis
    assert chisquare_gof(counts, _fold(exact.joint, counts.shape)).pvalue > 1e-3
    for name in ("tiers", "cataclysm"):
        fit = chisquare_gof(np.rint(getattr(sim, name) * MC_TRIALS), getattr(exact, name))
        assert fit.pvalue > 1e-3, name
    mean = sim.mean()
    assert abs(mean.value - exact.mean().value) < 5 * mean.stderr
    assert_pmf_close(sim.injuries, exact.injuries, atol=0.0)


def test_kernel_matches_naive_twin():
    cast = SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4)
    sim = simulate_spell(cast, trials=MC_TRIALS, seed=2)
    naive = naive_spell_histogram(3, NAIVE_TRIALS, dice=cast.dice, threshold=cast.threshold)
    for axis in (1, 0):
        assert chisquare_two_sample(sim.run.counts.sum(axis=axis), naive.sum(axis=axis)).pvalue > 1e-4


REPRO_TRIALS = 5 * config.CHUNK_TRIALS + 321
REPRO_CAST = SpellCast(3, 15, maelstroms=1, mana=5)


def test_same_seed_same_counts_any_batching_and_threads():
    one = simulate_spell(REPRO_CAST, trials=REPRO_TRIALS, seed=9, threads=1)
    single = simulate_spell(REPRO_CAST, trials=REPRO_TRIALS, seed=9, threads=1, max_batch_chunks=1)
    np.testing.assert_array_equal(one.run.counts, single.run.counts)
    if runner.available_threads() >= 2:
        two = simulate_spell(REPRO_CAST, trials=REPRO_TRIALS, seed=9, threads=2)
        np.testing.assert_array_equal(one.run.counts, two.run.counts)
    other = simulate_spell(REPRO_CAST, trials=REPRO_TRIALS, seed=10, threads=1)
    assert not np.array_equal(one.run.counts, other.run.counts)


def test_precision_stops_early():
    sim = simulate_spell(REPRO_CAST, trials=10**7, seed=4, precision=0.02)
    assert sim.run.stopped_by_precision and sim.run.trials < 10**7
    assert sim.mean().half_width < 0.02
    assert abs(sim.mean().value - spell_distribution(REPRO_CAST).mean().value) < 5 * sim.mean().stderr


def test_simulate_rejects_bad_run_options_and_mana():
    with pytest.raises(RulesError, match="trials 0"):
        simulate_spell(REPRO_CAST, trials=0, seed=1)
    with pytest.raises(RulesError, match="^mana 9 is more than the 8 "):
        simulate_spell(SpellCast(3, maelstroms=1, mana=9), trials=10, seed=1)


# ---------------------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------------------

SPELL = ("roll", "drakerys", "spell", "--level", "3", "--distance", "25", "--vortexes", "1",
         "--maelstroms", "1", "--mana", "4")
INVOKE = ("roll", "drakerys", "invocation")


def test_spell_csv_is_the_successes_table(capsys):
    code, out, err = run(capsys, *SPELL, "--format", "csv")
    assert code == 0
    df = csv(out)
    assert list(df.columns) == ["successes", "probability", "p_at_least"]
    want = spell_distribution(SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4)).successes
    assert df["probability"].to_numpy() == pytest.approx(want[: len(df)], abs=1e-15)
    assert df["probability"].iloc[0] == pytest.approx(0.6**5, abs=1e-15)
    assert "CSV holds the 'successes' table only" in err


@pytest.mark.parametrize(("section", "columns"), [
    ("tiers", ["tier", "successes", "probability", "p_at_least"]),
    ("cataclysm", ["cataclysm", "ones", "effect", "probability", "p_at_least"]),
    ("effect", ["tier", "successes", "spell", "probability", "p_with_injury"]),
    ("outcome", ["tier", "successes", "cataclysm", "spell", "probability"]),
    ("injuries", ["injuries", "total_injuries", "probability", "p_at_least"]),
])
def test_spell_show_sections(capsys, section, columns):
    code, out, _ = run(capsys, *SPELL, "--show", section, "--format", "csv")
    assert code == 0
    df = csv(out)
    assert list(df.columns) == columns
    dist = spell_distribution(SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4))
    want = {"tiers": dist.tiers, "cataclysm": dist.cataclysm, "effect": dist.effect,
            "outcome": dist.tier_cataclysm.ravel(), "injuries": dist.injuries}[section]
    assert df["probability"].to_numpy() == pytest.approx(want[: len(df)], abs=1e-15)


def test_spell_table_states_rulings_method_and_numbers(capsys):
    code, out, _ = run(capsys, *SPELL)
    assert code == 0
    for text in ("threshold 7+", "method: exact", "DK-crit-chain=true", "DK-maelstrom-ones=all",
                 "DK-maelstrom-mana=includes-cost", "= 4", "11 left for reinforcement, 4 spent",
                 "tier 1: 1-2, tier 2: 3-4, tier 3: 5+", "Cataclysmic Effect", "Morale roll",
                 "P(spell takes effect)", "threshold 6+"):
        assert text in out, text


def test_spell_without_maelstrom_has_no_cataclysm(capsys):
    code, out, _ = run(capsys, "roll", "drakerys", "spell", "--level", "2", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert list(doc["sections"]) == ["successes", "tiers"]
    assert any("no Maelstrom" in n for n in doc["notes"])
    # one Vortex at 0 cm, level 2: threshold 4+, one die
    assert [r["probability"] for r in doc["sections"]["successes"]][:1] == pytest.approx([0.3], abs=1e-15)


@pytest.mark.parametrize(("options", "cast"), [
    (("--distance", "5"), SpellCast(3, 5, vortexes=1, maelstroms=1, mana=4)),
    (("--vortexes", "0", "--maelstroms", "2", "--mana", "12"), SpellCast(3, 25, maelstroms=2, mana=12)),
    (("--cost", "3", "--mana", "9"), SpellCast(3, 25, vortexes=1, maelstroms=1, mana=9, cost=3)),
    (("--heroic", "3",), SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4, heroic=3)),
    (("--level", "5",), SpellCast(5, 25, vortexes=1, maelstroms=1, mana=4)),
])
def test_spell_options_reach_the_computation(capsys, options, cast):
    args = list(SPELL)
    for flag, value in zip(options[::2], options[1::2], strict=True):
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    code, out, _ = run(capsys, *args, "--show", "cataclysm", "--show", "successes", "--format", "json")
    assert code == 0
    doc = json.loads(out)["sections"]
    dist = spell_distribution(cast)
    assert [r["probability"] for r in doc["cataclysm"]] == pytest.approx(dist.cataclysm, abs=1e-15)
    got = [r["probability"] for r in doc["successes"]]
    assert got == pytest.approx(dist.successes[: len(got)], abs=1e-15)


def test_spell_sources_option(capsys):
    a = ok(capsys, "roll", "drakerys", "spell", "--level", "3", "--sources", "3", "--maelstroms", "1",
                  "--mana", "14", "--format", "csv")
    b = ok(capsys, "roll", "drakerys", "spell", "--level", "3", "--vortexes", "2", "--maelstroms",
                  "1", "--mana", "14", "--format", "csv")
    assert a == b
    c = ok(capsys, "roll", "drakerys", "spell", "--level", "3", "--sources", "2", "--format", "json")
    assert "2 Vortexes × 3 = 6" in json.loads(c)["meta"]["mana"]


def test_spell_tiers_and_resistance_options(capsys):
    code, out, _ = run(capsys, *SPELL, "--tiers", "2,4", "--show", "tiers", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert df["successes"].tolist() == ["0", "2-3", "4+"]
    dist = spell_distribution(SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4, tiers=(2, 4)))
    assert df["probability"].to_numpy() == pytest.approx(dist.tiers, abs=1e-15)
    tail = at_least(dist.successes)
    assert df["probability"].iloc[0] == pytest.approx(1 - tail[2], abs=1e-15)
    code, out, _ = run(capsys, *SPELL, "--resistance", "6", "--show", "injuries", "--format", "csv")
    assert code == 0
    assert csv(out)["probability"].to_numpy() == pytest.approx(cataclysm_injuries(6)[: len(csv(out))],
                                                               abs=1e-15)


def test_spell_rulings_from_the_command_line(capsys):
    code, out, _ = run(capsys, *SPELL, "--ruling", "DK-maelstrom-ones=first", "--show", "cataclysm",
                       "--format", "csv")
    assert code == 0
    assert csv(out)["probability"].to_numpy()[:4] == pytest.approx(stats.binom.pmf(range(4), 5, 0.1),
                                                                   abs=1e-14)
    code, _, err = run(capsys, *SPELL, "--mana", "12")
    assert code == 1 and "mana 12 is more than the 11" in err
    code, out, _ = run(capsys, *SPELL, "--mana", "12", "--ruling", "DK-maelstrom-mana=after-cost")
    assert code == 0 and "cost settled by the Maelstrom; 12 left" in out


def test_spell_monte_carlo(capsys):
    code, out, _ = run(capsys, *SPELL, "--trials", "200000", "--seed", "3", "--show", "cataclysm",
                       "--show", "successes", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert "200,000 trials" in doc["meta"]["method"] and "seed 3" in doc["meta"]["method"]
    assert "±" in doc["meta"]["P(at least one success)"]
    rows = pd.DataFrame(doc["sections"]["cataclysm"])
    assert {"probability", "stderr", "p_at_least", "p_at_least_stderr"} <= set(rows.columns)
    assert rows["p_at_least"].iloc[0] == 1.0 and rows["p_at_least_stderr"].iloc[0] == 0.0
    want = spell_distribution(SpellCast(3, 25, vortexes=1, maelstroms=1, mana=4)).cataclysm
    z = (rows["probability"] - want) / rows["stderr"].where(rows["stderr"] > 0, 1.0)
    assert z.abs().max() < 5.5
    succ = pd.DataFrame(doc["sections"]["successes"])
    assert {"stderr", "p_at_least_stderr"} <= set(succ.columns)


def test_spell_monte_carlo_threads_seed_and_precision(capsys):
    args = (*SPELL, "--trials", "50000", "--seed", "11", "--format", "csv", "--show", "tiers")
    one = ok(capsys, *args, "--threads", "1")
    again = ok(capsys, *args, "--threads", str(runner.available_threads()))
    other = ok(capsys, *SPELL, "--trials", "50000", "--seed", "12", "--format", "csv")
    assert one == again and one != other
    assert csv(one).columns.tolist() == ["tier", "successes", "probability", "stderr", "p_at_least",
                                         "p_at_least_stderr"]
    code, out, _ = run(capsys, *SPELL, "--precision", "0.02", "--format", "json")
    assert code == 0
    meta = json.loads(out)["meta"]
    assert "reached" in meta["precision"] and "not reached" not in meta["precision"]


def test_invocation_from_a_vortex(capsys):
    code, out, _ = run(capsys, *INVOKE, "--format", "csv")
    assert code == 0
    df = csv(out)
    assert list(df.columns) == ["extra_dice", "dice", "extra_ts", "probability", "fraction", "p_fail"]
    assert df["extra_dice"].tolist() == [0, 1, 2, 3, 4, 5]
    assert df["probability"].iloc[0] == pytest.approx(0.64, abs=1e-15)
    assert df["fraction"].iloc[0] == "16/25"
    code, out, _ = run(capsys, *INVOKE, "--extra-dice", "20", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert len(df) == 21 and df["probability"].iloc[-1] == pytest.approx(1 - 0.6**22, abs=1e-15)


def test_invocation_from_a_maelstrom(capsys):
    code, out, _ = run(capsys, *INVOKE, "--source", "maelstrom", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert len(doc["sections"]["invocation"]) == 1
    elements = {r["element"]: r for r in doc["sections"]["element"]}
    assert elements["Air"]["fraction"] == "2/9" and elements["Air"]["probability"] == pytest.approx(2 / 9)
    assert elements["player's choice"]["fraction"] == "1/9"
    assert elements["Earth"]["p_invoked"] == pytest.approx(0.64 * 2 / 9, abs=1e-15)
    ts = doc["sections"]["extra_ts"]
    assert ts[1]["fraction"] == "9/100" and ts[1]["p_at_least"] == pytest.approx(0.1, abs=1e-15)
    assert doc["meta"]["mean extra TS (element table)"].startswith("1/9 = 0.111111")
    assert "criticals" in doc["meta"]


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown", "latex", "html"])
def test_every_format(capsys, fmt):
    for args in (SPELL, (*SPELL, "--trials", "1e4"), INVOKE, (*INVOKE, "--source", "maelstrom")):
        code, out, _ = run(capsys, *args, "--format", fmt)
        assert code == 0, args
        if fmt == "json":
            assert json.loads(out)["sections"]
        elif fmt == "csv":
            assert len(csv(out)) >= 1
        elif fmt == "markdown":
            assert out.startswith("# ") and "|---:" in out
        elif fmt == "latex":
            assert r"\begin{tabular}" in out
        elif fmt == "html":
            assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
        else:
            assert len(out.splitlines()) > 5


def test_output_and_plot_files(capsys, tmp_path):
    target, png = tmp_path / "spell.csv", tmp_path / "spell.png"
    code, out, _ = run(capsys, *SPELL, "--format", "csv", "--output", str(target), "--plot", str(png))
    assert code == 0 and out == ""
    assert csv(target.read_text()).columns[0] == "successes"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    inv = tmp_path / "inv.json"
    assert run(capsys, *INVOKE, "--format", "json", "--output", str(inv))[0] == 0
    assert json.loads(inv.read_text())["sections"]["invocation"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inv.json", "spell.csv", "spell.png"]


BAD = [
    (("--level", "0"), 2, "--level"),
    (("--level", "6"), 2, "1..5"),
    (("--level", "3", "--mana", "3"), 1, "mana 3 is more than the 2"),
    (("--level", "3", "--maelstroms", "1", "--mana", "9"), 1, "mana 9 is more than the 8"),
    (("--level", "3", "--cost", "4"), 1, "cost 4 is more than the 3 Mana"),
    (("--level", "1", "--sources", "2"), 1, "2 sources is more than a level-1 Wizard"),
    (("--level", "2", "--vortexes", "2", "--maelstroms", "1"), 1, "3 sources is more than a level-2"),
    (("--level", "2", "--vortexes", "0"), 1, "at least one Source"),
    (("--level", "2", "--distance", "-5"), 2, "-5"),
    (("--level", "2", "--distance", "inf"), 2, "inf"),
    (("--level", "2", "--distance", "far"), 2, "'far'"),
    (("--level", "2", "--sources", "1", "--vortexes", "1"), 2, "not both"),
    (("--level", "2", "--sources", "1", "--maelstroms", "2"), 2, "--maelstroms 2"),
    (("--level", "2", "--tiers", "3,1"), 2, "'3,1'"),
    (("--level", "2", "--tiers", "0,2"), 2, "'0,2'"),
    (("--level", "2", "--tiers", "x"), 2, "'x'"),
    (("--level", "2", "--heroic", "6"), 2, "--heroic"),
    (("--level", "2", "--resistance", "-1"), 2, "--resistance"),
    (("--level", "2", "--show", "cataclysm"), 2, "needs a Maelstrom"),
    (("--level", "2", "--show", "everything"), 2, "everything"),
    (("--level", "2", "--ruling", "DK-maelstrom-ones=some"), 2, "all|first"),
    (("--level", "2", "--ruling", "DK-nope=1"), 2, "DK-maelstrom-mana"),
    (("--level", "2", "--trials", "0"), 2, "--trials"),
    (("--level", "2", "--threads", "0"), 2, "--threads"),
    (("--distance", "5"), 2, "--level"),
]
BAD_INVOKE = [
    (("--extra-dice", "21"), 2, "--extra-dice"),
    (("--extra-dice", "-1"), 2, "--extra-dice"),
    (("--source", "maelstrom", "--extra-dice", "2"), 1, "extra dice 2: only a Vortex"),
    (("--source", "lake"), 2, "lake"),
    (("--plot", "x.png"), 2, "--plot"),
    (("--format", "xml"), 2, "xml"),
]


@pytest.mark.parametrize(("args", "code", "named"),
                         [(("roll", "drakerys", "spell", *a), c, n) for a, c, n in BAD]
                         + [((*INVOKE, *a), c, n) for a, c, n in BAD_INVOKE],
                         ids=[" ".join(a) for a, _, _ in BAD + BAD_INVOKE])
def test_bad_input_is_one_clear_line(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_mean_extra_ts_matches_series():
    """The library's extra-TS table and mean against the series worked by hand: one face in ten rolls
    again, so P(k extra TS) = (1/10)^k (9/10) and the mean is Σ k (1/10)^k (9/10) = 1/9."""
    table = maelstrom_element_table(max_extra_ts=40)
    assert table.extra_ts[:4] == (Fraction(9, 10), Fraction(9, 100), Fraction(9, 1000), Fraction(9, 10000))
    series = math.fsum(k * 0.1**k * 0.9 for k in range(60))
    assert series == pytest.approx(1 / 9, abs=1e-15)
    assert float(table.mean_extra_ts) == pytest.approx(series, abs=1e-15)
    assert math.fsum(k * float(p) for k, p in enumerate(table.extra_ts)) == pytest.approx(series, abs=1e-15)
