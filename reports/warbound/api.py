"""Warbound for the Python API (reports.api): its standard tables, attacks, duels and catalog as Reports."""

from __future__ import annotations

from pathlib import Path

from reports.formats import Report
from reports.tables import Rounding
from rulesets.base import OptionError
from rulesets.warbound.rules import WarboundRulings
from simcore import config


def table_report(name: str, data, rounding: Rounding) -> Report:
    """A standard table (its data: rulesets.warbound.tables) as a Report, its probabilities kept whole, with
    its views for reading rounded by ``rounding``."""
    from reports.warbound.tables import table_report as report

    return report(name, data, rounding)


def has_plot(name: str) -> bool:
    return name in ("hit", "armor", "stress")


def table_plot(name: str, data, path: Path) -> None:
    from reports.warbound.tables import TABLE_REPORTS, plot_table

    plot_table(name, TABLE_REPORTS[name](data), path)


def roll_attack(*, dice: int, target: int, aim: bool = False, formation: bool = False, modifier: int = 0,
                armor_points: int = 0, armor_value: int | None = None, broken: int = 0,
                health: int | None = None, wounds: int = 0, morale: int | None = None, stress: int = 0,
                panicked: bool = False, add_wounds: int = 0, rulings=(), trials: int | None = None,
                seed: int | None = None, precision: float | None = None,
                threads: int | None = None) -> Report:
    """One attack (`balance roll warbound attack`), exact unless ``trials``, ``seed`` or ``precision`` asks
    for the simulation beside it."""
    from reports.warbound.tables import attack_report
    from rulesets.warbound.exact import HitRoll, Target, attack_outcome

    if broken > armor_points:
        raise OptionError(f"broken {broken} is more than armor_points {armor_points} (one Break token per "
                          "armor point at most, line 482)")
    if wounds and health is None:
        raise OptionError("wounds needs health (the pool they count against)")
    if stress and morale is None:
        raise OptionError("stress needs morale (the pool they count against)")
    in_force = WarboundRulings().with_assignments(rulings)
    hit = HitRoll(dice, target, aim, formation, modifier)
    tgt = Target(armor_points, armor_value if armor_points else None, broken, health, wounds, morale, stress,
                 panicked)
    outcome = attack_outcome(hit, tgt, in_force, add_wounds)
    run = None
    if trials is not None or precision is not None or seed is not None:
        from rulesets.warbound.duel import simulate_attack

        trials = trials or (config.PRECISION_TRIAL_CAP if precision is not None else config.DEFAULT_TRIALS)
        run = simulate_attack(hit, tgt, in_force, trials=trials,
                              seed=config.DEFAULT_SEED if seed is None else seed, threads=threads,
                              precision=precision, add_wounds=add_wounds)
    return attack_report(outcome, in_force, run)


#: Every kind of `balance roll warbound`, the default first.
ROLLS = {"attack": roll_attack}


def roll(kind: str = "attack", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)


def duel(a: str, b: str, *, rulings=(), catalogs=(), trials: int | None = None, seed: int | None = None,
         precision: float | None = None, threads: int | None = None, distance: int | None = None,
         range_far: bool = False, no_panic: bool = False) -> Report:
    from reports.warbound.duel import duel_report
    from rulesets.warbound import catalog as catalog_io
    from rulesets.warbound.contest import _split
    from rulesets.warbound.duel import DEFAULT_DISTANCE, economy_leader, fighter, simulate_duel

    cat = catalog_io.load(user_paths=tuple(catalogs))
    in_force = WarboundRulings().with_assignments(rulings)
    if trials is None:
        trials = config.PRECISION_TRIAL_CAP if precision is not None else config.DEFAULT_TRIALS
    sides = []
    for name in (a, b):
        base, formation = _split(name)
        character = cat.character(base)
        sides.append(fighter(character, cat, leader=economy_leader(character, cat, in_force),
                             formation=formation, no_panic=no_panic))
    result = simulate_duel(sides[0], sides[1], cat.board, in_force,
                           trials=trials, seed=config.DEFAULT_SEED if seed is None else seed, threads=threads,
                           precision=precision, distance=DEFAULT_DISTANCE if distance is None else distance,
                           range_far=range_far)
    return duel_report(result, cat)


def units(*, catalogs=()) -> Report:
    from reports.warbound.duel import units_report
    from rulesets.warbound import catalog as catalog_io

    return units_report(catalog_io.load(user_paths=tuple(catalogs)))
