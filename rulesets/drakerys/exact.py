"""Exact distributions of Drakerys rolls."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rulesets.drakerys.rules import CRIT_MODES, SIDES, ActionRoll, DrakerysRulings
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
    """Success PMFs of 0..max_dice dice at one threshold (index = number of dice)."""
    return success_pmfs_table(max_dice, (threshold,), rulings, swashbuckler=swashbuckler, rerolls=rerolls,
                              crits=crits)[0]


def success_pmfs_table(max_dice: int, thresholds: Sequence[int], rulings: DrakerysRulings, *,
                       swashbuckler: bool = False, rerolls: int = 0, crits: str = "normal"
                       ) -> list[list[np.ndarray]]:
    """Success PMFs of 0..max_dice dice at each threshold (``out[i][n]``: thresholds[i], n dice).

    Without limited rerolls the dice are independent and the whole table is computed at once
    (:func:`simcore.exact.success_powers`); limited rerolls couple the dice and are computed dice count by
    dice count.
    """
    if rerolls and not swashbuckler:
        return [[exact.unit()] + [action_roll_pmf(ActionRoll(n, t, rerolls=rerolls, crits=crits), rulings)
                                  for n in range(1, max_dice + 1)] for t in thresholds]
    return exact.success_powers(SIDES, thresholds, max_dice, CRIT_MODES[crits], rulings.crit_chain,
                                swashbuckler)


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
