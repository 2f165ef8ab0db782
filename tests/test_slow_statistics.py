"""Long statistical runs (`make test-slow`): the same checks as the default suite with 10-50 times the
trials, so that smaller disagreements between kernels, twins and exact distributions would show."""

from __future__ import annotations

import numpy as np
import pytest
from naive_fight import naive_fight

from rulesets.drakerys import (
    ActionRoll,
    DrakerysRulings,
    catalog,
    exact_action_roll,
    simulate,
    simulate_action_roll,
)
from rulesets.drakerys.fight import Combatant, FightRow, Side
from simcore.stats import chisquare_gof, chisquare_two_sample

pytestmark = pytest.mark.slow

ROLLS = [ActionRoll(12, 7, swashbuckler=True), ActionRoll(20, 2), ActionRoll(6, 10, rerolls=3),
         ActionRoll(8, 6, heroic=5, crits="parry"),
         ActionRoll(30, 9, crits="expert-parry", swashbuckler=True)]


@pytest.mark.parametrize("roll", ROLLS, ids=[r.describe() for r in ROLLS])
@pytest.mark.parametrize("chain", [True, False])
def test_action_roll_at_ten_million_trials(roll, chain):
    rulings = DrakerysRulings(crit_chain=chain)
    exact = exact_action_roll(roll, rulings)
    mc = simulate_action_roll(roll, rulings, trials=10**7, seed=2026)
    assert chisquare_gof(mc.run.counts.sum(axis=1), exact.successes).pvalue > 1e-4
    assert chisquare_gof(mc.run.counts.sum(axis=0), exact.criticals).pvalue > 1e-4


def test_fight_kernel_and_twin_at_fifty_thousand_fights():
    units = catalog.load()
    a, b = Combatant(units.unit("blood-banes"), 6, stress=1), Combatant(units.unit("soldiers"), 9)
    result = simulate.simulate_fight(a, b, charge=True, trials=2 * 10**6, seed=8)
    side = simulate._sides(a, b, DrakerysRulings(), None)  # DK-blocking=auto: the twin blocks where they do
    masks = (int(side[0, Side.BLOCKING]), int(side[1, Side.BLOCKING]))
    rng = np.random.default_rng(8)
    width = result.run.counts.shape[1]
    # the twin's kills_b are the warriors of A that B's strikes removed: the kernel's REMOVED_0
    keys = {FightRow.REMOVED_0: "kills_b", FightRow.REMOVED_1: "kills_a", FightRow.OUTCOME: "result"}
    naive = {row: np.zeros(width, dtype=np.int64) for row in keys}
    for _ in range(50_000):
        o = naive_fight(rng, a, b, charge=True, blocking_masks=masks)
        for row, key in keys.items():
            naive[row][o[key]] += 1
    for row in keys:
        assert chisquare_two_sample(result.run.counts[row], naive[row]).pvalue > 1e-4, row.name


#: Duels of the efficiency report's kind, kernel against the plain-Python twin, sized so that a shift of the
#: report's precision (0.01 in a probability) would show: two-sided alpha 1e-4 (z 3.89) with 90% power
#: (z 1.28) needs the standard error of the difference below 0.01 / 5.17 even at p = 1/2.
DUELS_AT_PRECISION = {
    "crows vs gold keepers from 30 cm": ("crows", 12, "gold-keepers", 6, {"start_cm": 30}),
    "irosia bowmen vs crows from 30 cm": ("irosia-bowmen", 10, "crows", 12, {"start_cm": 30}),
    "soldiers charge warriors": ("soldiers", 6, "warriors", 6, {}),
}
DUEL_KERNEL_TRIALS = 10**6
DUEL_TWIN_TRIALS = 75_000
Z_ALPHA, Z_POWER = 3.89, 1.28


def test_duel_comparison_is_powered_for_the_reports_precision():
    worst = np.sqrt(0.25 / DUEL_TWIN_TRIALS + 0.25 / DUEL_KERNEL_TRIALS)
    assert (Z_ALPHA + Z_POWER) * worst <= 0.01


@pytest.mark.parametrize("name", list(DUELS_AT_PRECISION))
def test_duel_kernel_and_twin_agree_to_the_reports_precision(name):
    import random

    from naive_fight import naive_engagement

    from rulesets.drakerys.fight import EngagementOutcome, EngagementRow

    key_a, size_a, key_b, size_b, kw = DUELS_AT_PRECISION[name]
    units = catalog.load()
    a, b = Combatant(units.unit(key_a), size_a), Combatant(units.unit(key_b), size_b)
    weapons = [units.weapons[c.unit.weapon] if c.unit.weapon else None for c in (a, b)]
    side = simulate._sides(a, b, DrakerysRulings(), None)
    masks = (int(side[0, Side.BLOCKING]), int(side[1, Side.BLOCKING]))
    result = simulate.simulate_engagement(a, b, weapons=units.weapons, trials=DUEL_KERNEL_TRIALS, seed=21,
                                          **kw)
    counts, n_k = result.run.counts, DUEL_KERNEL_TRIALS
    rng = random.Random(21)
    twin = [naive_engagement(rng, a, b, a_weapon=weapons[0], b_weapon=weapons[1], blocking_masks=masks, **kw)
            for _ in range(DUEL_TWIN_TRIALS)]
    n_t = len(twin)
    for outcome, code in (("a", EngagementOutcome.SIDE_0_WINS), ("b", EngagementOutcome.SIDE_1_WINS),
                          ("neither", EngagementOutcome.NEITHER)):
        p_k = counts[EngagementRow.OUTCOME, code] / n_k
        p_t = sum(o["outcome"] == outcome for o in twin) / n_t
        se = np.sqrt(p_k * (1 - p_k) / n_k + p_t * (1 - p_t) / n_t)
        assert abs(p_k - p_t) <= Z_ALPHA * se + 1e-12, (outcome, p_k, p_t, se)
    lost_rows = ((EngagementRow.LOST_0, "lost_a", size_a), (EngagementRow.LOST_1, "lost_b", size_b))
    for row, key, size in lost_rows:
        k = np.arange(counts.shape[1])
        mean_k = float(counts[row] @ k) / n_k / size
        var_k = float(counts[row] @ (k / size - mean_k) ** 2) / (n_k - 1)
        lost = np.array([o[key] for o in twin]) / size
        se = np.sqrt(var_k / n_k + lost.var(ddof=1) / n_t)
        assert abs(mean_k - lost.mean()) <= Z_ALPHA * se, (key, mean_k, lost.mean(), se)
        assert Z_ALPHA * se <= 0.01  # the fraction lost is compared at least as finely as the report's 0.01
    # the scenario is a real contest: no outcome is certain
    assert 0.02 < counts[EngagementRow.OUTCOME, EngagementOutcome.SIDE_0_WINS] / n_k < 0.98
