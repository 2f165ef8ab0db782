"""Dragonbond for the Python API (reports.api): its standard tables, rolls, duels and catalog as Reports."""

from __future__ import annotations

from pathlib import Path

from reports.formats import Report
from reports.tables import Rounding
from rulesets.base import OptionError
from rulesets.dragonbond.rules import DragonbondRulings
from simcore import config


def table_report(name: str, data, rounding: Rounding) -> Report:
    """A standard table (its data: rulesets.dragonbond.tables) as a Report, its probabilities kept whole,
    with its views for reading rounded by ``rounding``."""
    from reports.dragonbond.tables import table_report as report

    return report(name, data, rounding)


def has_plot(name: str) -> bool:
    return False


def table_plot(name: str, data, path: Path) -> None:
    raise OptionError(f"the Dragonbond table {name!r} has no plot")


def roll(kind: str = "pool", *, dice: str, up: int = 0, down: int = 0, sharp: bool = False,
         rulings=()) -> Report:
    """A pool of action dice (``kind`` "pool"), exact; the command line has the other kinds."""
    from reports.dragonbond.tables import pool_report
    from rulesets.dragonbond.dice import parse_pool

    if kind != "pool":
        raise OptionError(f"the API rolls kind 'pool' for dragonbond, not {kind!r}; the command line has the "
                          "other kinds")
    return pool_report(parse_pool(dice), up, down, DragonbondRulings().with_assignments(rulings), sharp)


def duel(a: str, b: str, *, policy_a: str = "attack", policy_b: str = "attack", rulings=(), catalogs=(),
         trials: int | None = None, seed: int | None = None, precision: float | None = None,
         threads: int | None = None) -> Report:
    from reports.dragonbond.duel import duel_report
    from rulesets.dragonbond import catalog as catalog_io
    from rulesets.dragonbond.duel import Fighter, simulate_duel

    cat = catalog_io.load(user_paths=tuple(catalogs))
    if trials is None:
        trials = config.PRECISION_TRIAL_CAP if precision is not None else config.DEFAULT_TRIALS
    result = simulate_duel(Fighter(cat.unit(a), policy_a), Fighter(cat.unit(b), policy_b),
                           DragonbondRulings().with_assignments(rulings), trials=trials,
                           seed=config.DEFAULT_SEED if seed is None else seed, threads=threads,
                           precision=precision)
    return duel_report(result)


def units(*, catalogs=()) -> Report:
    from reports.dragonbond.duel import units_report
    from rulesets.dragonbond import catalog as catalog_io

    return units_report(catalog_io.load(user_paths=tuple(catalogs)))
