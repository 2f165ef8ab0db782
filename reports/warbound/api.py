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


def _flag(keyword: str, flag: str | None = None) -> str:
    from reports.cli.options import option_name

    return option_name(keyword, flag)


def _mc(trials, precision, seed) -> tuple[bool, int, int]:
    """(simulate?, trials or cap, seed) as the command line settles them."""
    from reports.cli.options import monte_carlo_settings

    return monte_carlo_settings(trials, precision, seed)


def roll_attack(*, dice: int, target: int, aim: bool = False, formation: bool = False, modifier: int = 0,
                armor_points: int = 0, armor_value: int | None = None, broken: int = 0,
                health: int | None = None, wounds: int = 0, morale: int | None = None, stress: int = 0,
                panicked: bool = False, add_wounds: int = 0, rulings=(), trials: int | None = None,
                seed: int | None = None, precision: float | None = None, threads: int | None = None,
                progress=None) -> Report:
    """One Shoot or Fight attack (`balance roll warbound attack`), exact: the joint distribution of the new
    Wound, Break and Stress tokens, and P(removed) and P(Panic) at the end of the activation; simulated
    beside it when ``trials``, ``seed`` or ``precision`` asks.

    Keywords, as the command's options: ``dice``, ``target`` (the value to roll, 1..12), ``aim``,
    ``formation``, ``modifier``, ``armor_points`` with ``armor_value``, ``broken``, ``health``, ``wounds``,
    ``morale``, ``stress``, ``panicked``, ``add_wounds``, ``rulings``, ``trials``, ``seed``, ``precision``,
    ``threads``; ``progress(done, total)`` of a simulation."""
    from reports.warbound.tables import attack_report
    from rulesets.warbound.exact import HitRoll, Target, attack_outcome
    from rulesets.warbound.rules import MAX_VALUE

    if not -MAX_VALUE <= modifier <= MAX_VALUE:
        raise OptionError(f"{_flag('modifier')} {modifier}: accepted -{MAX_VALUE}..{MAX_VALUE}")
    if armor_points and armor_value is None:
        raise OptionError(f"{_flag('armor_points')} {armor_points} needs {_flag('armor_value')} (the roll "
                          "that saves, line 239)")
    if broken > armor_points:
        raise OptionError(f"{_flag('broken')} {broken} is more than {_flag('armor_points')} {armor_points} "
                          "(one Break token per armor point at most, line 482)")
    if wounds and health is None:
        raise OptionError(f"{_flag('wounds')} needs {_flag('health')} (the pool they count against)")
    if stress and morale is None:
        raise OptionError(f"{_flag('stress')} needs {_flag('morale')} (the pool they count against)")
    in_force = WarboundRulings().with_assignments(rulings)
    hit = HitRoll(dice, target, aim, formation, modifier)
    tgt = Target(armor_points, armor_value if armor_points else None, broken, health, wounds, morale, stress,
                 panicked)
    outcome = attack_outcome(hit, tgt, in_force, add_wounds)
    simulate, trials, seed = _mc(trials, precision, seed)
    run = None
    if simulate:
        from rulesets.warbound.simulate import simulate_attack

        run = simulate_attack(hit, tgt, in_force, trials=trials, seed=seed, threads=threads,
                              precision=precision, add_wounds=add_wounds, progress=progress)
    return attack_report(outcome, in_force, run)


#: Every kind of `balance roll warbound`, the default first.
ROLLS = {"attack": roll_attack}


def roll(kind: str = "attack", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)


def duel(a: str, b: str, *, leader_a: str | None = None, leader_b: str | None = None,
         distance: int | None = None, range: str = "near", no_panic: bool = False,  # noqa: A002
         rulings=(), catalogs=(), trials: int | None = None, seed: int | None = None,
         precision: float | None = None, threads: int | None = None, progress=None) -> Report:
    """Two characters trade activations over the five turns, paying with their Leaders' Order tokens
    (`balance duel warbound A B`): P(A removes B), P(Panic), wounds, tokens spent and wounds dealt per
    token, with intervals. Name a character NAME@formation to field it in Formation.

    Keywords, as the command's options: ``leader_a``, ``leader_b`` (default: by WB-economy, the Reference
    Leader or the first of the side's faction), ``distance`` (tiles between them at the start, default 6),
    ``range`` (near: the enemy is the closest target; far: another enemy is closer), ``no_panic``,
    ``rulings``, ``catalogs``, ``trials`` (at most one record per duel: config.MAX_RECORD_TRIALS),
    ``seed``, ``precision``, ``threads``; ``progress(done, total)``."""
    from reports.warbound.duel import duel_report
    from rulesets.warbound import catalog as catalog_io
    from rulesets.warbound.contest import _split
    from rulesets.warbound.simulate import DEFAULT_DISTANCE, economy_leader, fighter, simulate_duel

    if range not in ("near", "far"):
        raise OptionError(f"{_flag('range')} {range!r}: accepted near, far")
    cat = catalog_io.load(user_paths=tuple(catalogs))
    typed = trials is not None
    if typed and trials > config.MAX_RECORD_TRIALS:
        raise OptionError(f"{_flag('trials')} {trials}: a duel run keeps one record per duel, so at most "
                          f"{config.MAX_RECORD_TRIALS:.0e}")
    _, trials, seed = _mc(trials, precision, seed)
    if not typed:
        trials = min(trials, config.MAX_RECORD_TRIALS)
    in_force = WarboundRulings().with_assignments(rulings)
    sides = []
    for name, leader in ((a, leader_a), (b, leader_b)):
        base, formation = _split(name)
        if "@" in base:  # the catalog's lookup ignores punctuation: "copp@" would be COPP, unsaid
            raise OptionError(f"character {name!r}: accepted NAME, or NAME@formation to field it in "
                              "Formation")
        character = cat.character(base)
        chosen = cat.leader(leader) if leader else economy_leader(character, cat, in_force)
        sides.append(fighter(character, cat, leader=chosen, formation=formation, no_panic=no_panic))
    result = simulate_duel(sides[0], sides[1], cat.board, in_force, trials=trials, seed=seed,
                           threads=threads, precision=precision,
                           distance=DEFAULT_DISTANCE if distance is None else distance,
                           range_far=range == "far", progress=progress)
    return duel_report(result, cat)


def units(*, deck: str | Path | None = None, catalogs=()) -> Report:
    """The Warbound characters (both sides of each card), Leaders, Formations, Equipment, Vocations and the
    Action Board (`balance units warbound`); printed values as printed, illustrative ones marked *.

    Keywords: ``deck`` (a TOML file with a [deck] table: checked against the deck-building limits instead),
    ``catalogs``."""
    from reports.warbound.duel import deck_report, units_report
    from rulesets.warbound import catalog as catalog_io

    if deck is not None and not Path(deck).is_file():
        raise OptionError(f"{_flag('deck')} {str(deck)!r}: no such file (a TOML file with a [deck] table)")
    cat = catalog_io.load(user_paths=tuple(catalogs))
    return deck_report(cat, deck) if deck else units_report(cat)
