"""Drakerys for the Python API (reports.api): its standard tables, rolls, duels and catalog as Reports."""

from __future__ import annotations

from pathlib import Path

from reports.drakerys.cli_sides import combatant, describe, load_catalog
from reports.drakerys.fight import engagement_report
from reports.drakerys.magic import invocation_table_report, spell_table_report
from reports.drakerys.tables import (
    action_table_report,
    morale_table_report,
    roll_report,
    weapons_table_report,
)
from reports.drakerys.units import units_report
from reports.formats import Report
from reports.tables import Rounding
from rulesets import drakerys
from rulesets.base import OptionError
from simcore import config

#: The standard tables' Reports, by the names of Ruleset.tables().
_TABLE_REPORTS = {"action": action_table_report, "morale": morale_table_report, "spell": spell_table_report,
                  "invocation": invocation_table_report, "weapons": weapons_table_report}
#: The tables that read better with a plot beside them.
_TABLE_PLOTS = {"action", "morale", "spell"}


def table_report(name: str, data, rounding: Rounding) -> Report:
    return _TABLE_REPORTS[name](data, rounding)


def has_plot(name: str) -> bool:
    return name in _TABLE_PLOTS


def table_plot(name: str, data, path: Path) -> None:
    from reports.drakerys.plots import plot_action_table, plot_morale_table, plot_spell_table

    {"action": plot_action_table, "morale": plot_morale_table, "spell": plot_spell_table}[name](data, path)


def roll(kind: str = "action", *, dice: int, threshold: int | None = None, action: int | None = None,
         opposition: int | None = None, heroic: int = 0, swashbuckler: bool = False, rerolls: int = 0,
         crits: str = "normal", rulings=(), trials: int | None = None, seed: int | None = None,
         precision: float | None = None, show=("successes", "criticals")) -> Report:
    """An Action-Table roll, exact unless ``trials``, ``seed`` or ``precision`` asks for the simulation."""
    if kind != "action":
        raise OptionError(f"the API rolls kind 'action' for drakerys, not {kind!r}; the command line has the "
                          "other kinds")
    if threshold is None:
        if action is None or opposition is None:
            raise OptionError("give threshold, or action and opposition")
        threshold = drakerys.action_threshold(action, opposition)
    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    r = drakerys.ActionRoll(dice, threshold, heroic=heroic, swashbuckler=swashbuckler, rerolls=rerolls,
                            crits=crits)
    if trials is None and seed is None and precision is None:
        return roll_report(drakerys.exact_action_roll(r, in_force, joint="joint" in show), tuple(show))
    trials = trials or (config.PRECISION_TRIAL_CAP if precision else config.DEFAULT_TRIALS)
    dist = drakerys.simulate_action_roll(r, in_force, trials=trials, seed=seed or config.DEFAULT_SEED,
                                         precision=precision)
    return roll_report(dist, tuple(show))


def duel(a: str, b: str, *, size_a: int | None = None, size_b: int | None = None, rulings=(),
         trials: int = config.DEFAULT_TRIALS, seed: int = config.DEFAULT_SEED,
         precision: float | None = None, catalogs=()) -> Report:
    """``a`` charges ``b`` and both fight to the end (the sizes default to the unit sheets')."""
    from rulesets.drakerys import combat  # numba: loaded for a duel, not for the exact tables and rolls

    catalog = load_catalog(catalogs)
    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    sizes = {"size_a": size_a, "size_b": size_b}
    (ca, ap_a), (cb, ap_b) = combatant(catalog, a, "a", sizes), combatant(catalog, b, "b", sizes)
    result = combat.simulate_engagement(ca, cb, rulings=in_force, weapons=catalog.weapons, trials=trials,
                                        seed=seed, precision=precision)
    return engagement_report(result, ap_a, ap_b, describe(ca, ap_a), describe(cb, ap_b))


def units(*, profiled: bool = False, catalogs=()) -> Report:
    return units_report(load_catalog(catalogs), profiled_only=profiled)
