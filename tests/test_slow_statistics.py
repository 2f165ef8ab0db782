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
    combat,
    exact_action_roll,
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
    result = combat.simulate_fight(a, b, charge=True, trials=2 * 10**6, seed=8)
    side = combat._sides(a, b, DrakerysRulings(), None)  # DK-blocking=auto: the twin blocks where they do
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
