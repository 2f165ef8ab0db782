"""Exact distributions of Drakerys rolls."""

from __future__ import annotations

import numpy as np

from rulesets.drakerys.rules import SIDES, ActionRoll, DrakerysRulings
from simcore import exact
from simcore.faces import TOP_EXPLODE


def action_roll_pmf(roll: ActionRoll, rulings: DrakerysRulings, marginal: int | None = 0) -> np.ndarray:
    """Exact PMF of an Action-Table roll.

    Args:
        marginal: 0 for successes, 1 for criticals, None for the joint ``p[successes, criticals]``.
    """
    return exact.success_roll_joint(
        roll.total_dice, SIDES, roll.threshold, roll.top_mode, rulings.crit_chain,
        roll.swashbuckler, roll.rerolls, marginal=marginal)


def success_pmfs_by_dice(max_dice: int, threshold: int, rulings: DrakerysRulings, *,
                         swashbuckler: bool = False, rerolls: int = 0, crits: str = "normal"
                         ) -> list[np.ndarray]:
    """Success PMFs of 0..max_dice dice at one threshold (index = number of dice).

    Without limited rerolls the dice are independent, so each entry is the one before convolved with a
    single die; limited rerolls couple the dice and are computed dice count by dice count.
    """
    if rerolls and not swashbuckler:
        out = [exact.unit()]
        for n in range(1, max_dice + 1):
            roll = ActionRoll(n, threshold, rerolls=rerolls, crits=crits)
            out.append(action_roll_pmf(roll, rulings))
        return out
    one = action_roll_pmf(ActionRoll(1, threshold, swashbuckler=swashbuckler, crits=crits), rulings)
    return exact.convolve_powers(one, max_dice)


def criticals_bound(roll: ActionRoll, rulings: DrakerysRulings, tail: float = 1e-15) -> int:
    """A number of criticals exceeded with probability below ``tail`` (sizes Monte Carlo histograms).

    Every failed die rerolled is the most criticals a roll can produce, so that case bounds all others.
    """
    if roll.top_mode != TOP_EXPLODE:
        return 0
    if not rulings.crit_chain:
        return roll.total_dice
    widest = ActionRoll(roll.dice, roll.threshold, heroic=roll.heroic, swashbuckler=True)
    crit_pmf = action_roll_pmf(widest, rulings, marginal=1)
    beyond = exact.at_least(crit_pmf)
    return int(np.count_nonzero(beyond >= tail))
