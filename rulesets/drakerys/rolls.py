"""Drakerys Action-Table rolls, exact and simulated, and the rulebook's Action Table (seed 002).

Here, not in the package's ``__init__`` (which re-exports them), so that rulesets.drakerys.tables reaches
them without importing the package and, through it, the contest that imports the tables.

numpy and the exact and statistical code are imported by the functions that use them, not with the module:
the command tree imports the package, and `balance --help` loads none of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesets.base import RulesError, whole_number
from rulesets.drakerys.rules import (
    MAX_THRESHOLD,
    MIN_THRESHOLD,
    SIDES,
    ActionRoll,
    DrakerysRulings,
)

if TYPE_CHECKING:
    import numpy as np

    from simcore import runner
    from simcore.stats import Estimate


@dataclass(frozen=True)
class RollDistribution:
    """Distribution of successes and criticals of one Action-Table roll.

    ``successes``/``criticals`` are PMFs: exact, or estimated from ``run`` (then ``counts`` holds the
    joint histogram of trials by successes and criticals, with an overflow row and column last).
    """

    roll: ActionRoll
    rulings: DrakerysRulings
    successes: np.ndarray
    criticals: np.ndarray
    joint: np.ndarray | None
    run: runner.RunResult | None = None

    @property
    def exact(self) -> bool:
        return self.run is None

    @property
    def overflow_trials(self) -> int:
        """Trials beyond the histogram's range (kept in its last row/column; expected 0)."""
        if self.run is None:
            return 0
        c = self.run.counts
        return int(c[-1, :].sum() + c[:-1, -1].sum())

    def mean(self, what: str = "successes") -> Estimate:
        """Mean successes or criticals (standard error 0 when exact)."""
        from simcore import exact as simexact
        from simcore.stats import Estimate, histogram_mean

        if self.run is None:
            pmf = self.successes if what == "successes" else self.criticals
            return Estimate(simexact.mean(pmf), 0.0, 0)
        axis = 1 if what == "successes" else 0
        return histogram_mean(self.run.counts.sum(axis=axis))


def exact_action_roll(roll: ActionRoll, rulings: DrakerysRulings | None = None,
                      joint: bool = False) -> RollDistribution:
    """Exact distribution of ``roll`` (the joint PMF too when ``joint``)."""
    from rulesets.drakerys import exact as _exact

    rulings = rulings or DrakerysRulings()
    return RollDistribution(
        roll, rulings,
        successes=_exact.action_roll_pmf(roll, rulings, marginal=0),
        criticals=_exact.action_roll_pmf(roll, rulings, marginal=1),
        joint=_exact.action_roll_pmf(roll, rulings, marginal=None) if joint else None,
    )


def simulate_action_roll(roll: ActionRoll, rulings: DrakerysRulings | None = None, *, trials: int,
                         seed: int, threads: int | None = None, precision: float | None = None,
                         progress: runner.Progress | None = None,
                         max_batch_chunks: int | None = None) -> RollDistribution:
    """Monte Carlo distribution of ``roll``: every roll one draw (one 64-bit word) from its exact joint
    distribution of successes and criticals (simcore.sampling; the distribution of simcore.stages).

    ``precision`` stops the run once the 95% half-width of the mean number of successes is below it.
    """
    # the stage tables and the runner load numba: imported here, so that the exact rolls and tables never do
    from rulesets.drakerys import exact as _exact
    from simcore import runner
    from simcore.stages import success_pmf
    from simcore.stats import histogram_mean

    rulings = rulings or DrakerysRulings()
    c_max = _exact.criticals_bound(roll, rulings)
    shape = (roll.total_dice + c_max + 2, c_max + 2)
    pmf = success_pmf(roll.total_dice, SIDES, roll.threshold, roll.top_mode, rulings.crit_chain,
                      roll.swashbuckler, roll.rerolls)
    try:
        result = runner.run_table(pmf, shape, trials, seed, threads=threads, precision=precision,
                                  statistic=lambda counts: histogram_mean(counts.sum(axis=1)),
                                  progress=progress, max_batch_chunks=max_batch_chunks)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    joint = result.counts / result.trials
    return RollDistribution(roll, rulings, joint.sum(axis=1), joint.sum(axis=0), joint, result)


@dataclass(frozen=True)
class ActionTable:
    """The rulebook table: success PMFs for 1..max_dice dice at each threshold."""

    max_dice: int
    thresholds: tuple[int, ...]
    rulings: DrakerysRulings
    swashbuckler: bool
    rerolls: int
    crits: str
    pmfs: dict[tuple[int, int], np.ndarray]

    def at_least(self, dice: int, threshold: int) -> np.ndarray:
        from simcore import exact as simexact

        return simexact.at_least(self.pmfs[dice, threshold])

    def mean(self, dice: int, threshold: int) -> float:
        from simcore import exact as simexact

        return simexact.mean(self.pmfs[dice, threshold])


def action_table(max_dice: int = 20, thresholds: Iterable[int] = range(MIN_THRESHOLD, MAX_THRESHOLD + 1),
                 rulings: DrakerysRulings | None = None, *, swashbuckler: bool = False, rerolls: int = 0,
                 crits: str = "normal") -> ActionTable:
    """Exact success PMFs for 1..max_dice dice and each threshold (the rulebook's Action Table)."""
    from rulesets.drakerys import exact as _exact

    rulings = rulings or DrakerysRulings()
    thresholds = tuple(thresholds)
    if not thresholds:
        raise RulesError("an action table needs at least one threshold")
    # the largest roll validates every parameter, the thresholds one by one
    ActionRoll(max_dice, thresholds[0], swashbuckler=swashbuckler, rerolls=rerolls, crits=crits)
    thresholds = tuple(whole_number("threshold", t, MIN_THRESHOLD, MAX_THRESHOLD) for t in thresholds)
    table = _exact.success_pmfs_table(max_dice, thresholds, rulings, swashbuckler=swashbuckler,
                                      rerolls=rerolls, crits=crits)
    pmfs = {(n, t): by_dice[n] for t, by_dice in zip(thresholds, table, strict=True)
            for n in range(1, max_dice + 1)}
    return ActionTable(max_dice, thresholds, rulings, swashbuckler, rerolls, crits, pmfs)


__all__ = ["ActionTable", "RollDistribution", "action_table", "exact_action_roll", "simulate_action_roll"]
