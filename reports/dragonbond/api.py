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


def _pool(text: str, option: str, kind: str = "action"):
    from reports.dragonbond.cli import _pool as parse

    return parse(text, option, kind)


def roll_pool(*, dice: str, up: int = 0, down: int = 0, sharp: bool = False, defense: bool = False,
              rulings=()) -> Report:
    """A pool of action dice (`balance roll dragonbond pool DICE`), exact: "3G 3W"; ``defense``: the dice are
    defense dice ("1B 2W 1R") and their blocks."""
    from reports.dragonbond.tables import blocks_report, pool_report

    in_force = DragonbondRulings().with_assignments(rulings)
    if defense:
        if sharp:
            raise OptionError("sharp is a keyword of attack dice, not of defense dice")
        return blocks_report(_pool(dice, "dice", "defense"), up, down, in_force)
    return pool_report(_pool(dice, "dice"), up, down, in_force, sharp)


def roll_attack(*, dice: str, models: int = 1, ranged: bool = False, charge: bool = False, up: int = 0,
                down: int = 0, fatigue_beside: int = 0, injuries: int = 0, sharp: bool = False,
                defense: int = 1, defense_die: str = "white", defense_up: int = 0, defense_down: int = 0,
                target_fatigue_beside: int = 0, engaged_enemies: int | None = None, flying: bool = False,
                target_injuries: int = 0, health: int | None = None, target_models: int | None = None,
                captain_health: int | None = None, also_engaged=(), rulings=(), trials: int | None = None,
                seed: int | None = None, precision: float | None = None,
                threads: int | None = None) -> Report:
    """One attack (`balance roll dragonbond attack`), exact unless ``trials``, ``seed`` or ``precision``:
    wounds and models killed, with every modifier and its source; ``also_engaged`` as "DICE:COLOUR"."""
    from reports.dragonbond.cli import _engaged_defense
    from reports.dragonbond.tables import attack_report
    from rulesets.dragonbond.attack import MELEE, RANGED, AttackSetup
    from rulesets.dragonbond.exact import casualty_order

    in_force = DragonbondRulings().with_assignments(rulings)
    colours = ("red", "white", "black")
    if defense_die.lower() not in colours:
        raise OptionError(f"defense_die {defense_die!r}: accepted {', '.join(colours)}")
    given = [_engaged_defense(text) for text in also_engaged]
    if given and not ranged:
        raise OptionError("also_engaged: only a ranged attack goes into a melee (add ranged=True)")
    if engaged_enemies is None:
        engaged_enemies = len(given) if ranged else 1
    elif len(given) > engaged_enemies:
        raise OptionError(f"also_engaged given {len(given)} times but engaged_enemies {engaged_enemies}: "
                          "describe at most the units the target is engaged with")
    setup = AttackSetup(_pool(dice, "dice"), models, RANGED if ranged else MELEE, up, down, charge,
                        fatigue_beside, injuries, defense, colours.index(defense_die.lower()), defense_up,
                        defense_down, target_fatigue_beside, engaged_enemies, flying, target_injuries, sharp)
    if (health is None) != (target_models is None):
        raise OptionError("health and target_models go together (models killed need both)")
    if health is None and captain_health is not None:
        raise OptionError("captain_health needs health and target_models")
    target = None if health is None else casualty_order(target_models, health, captain_health, in_force)
    others = setup.melee_defenses(given)
    if others and target is not None:
        raise OptionError("also_engaged, engaged_enemies: a ranged attack into a melee shares its hits among "
                          "units; models killed are counted for one target; drop health and target_models")
    run = None
    if trials is not None or precision is not None or seed is not None:
        if others:
            raise OptionError("also_engaged, engaged_enemies: a ranged attack into a melee is computed "
                              "exactly; drop trials, precision and seed")
        from rulesets.dragonbond.duel import simulate_attack
        from rulesets.dragonbond.exact import Defense

        trials = trials or (config.PRECISION_TRIAL_CAP if precision is not None else config.DEFAULT_TRIALS)
        d_up, d_down = setup.defense_totals(in_force)
        defended = Defense(setup.defense, setup.defense_die, d_up, d_down)
        run = simulate_attack(setup.attack_pool(in_force), defended, target.health if target else (),
                              in_force, setup.sharp, trials=trials,
                              seed=config.DEFAULT_SEED if seed is None else seed, threads=threads,
                              precision=precision)
    return attack_report(setup, target, in_force, others, run, described=len(given))


def roll_face_off(*, players: int = 2, rulings=()) -> Report:
    """A face-off roll (`balance roll dragonbond face-off`) of ``players``, exact."""
    from reports.dragonbond.tables import face_off_report

    return face_off_report(players, DragonbondRulings().with_assignments(rulings))


def roll_charge(*, speed: int, fatigue_beside: int = 0, rulings=()) -> Report:
    """A charge's reach (`balance roll dragonbond charge`): speed + 1" per success on 3 dice, exact."""
    from reports.dragonbond.tables import charge_report
    from rulesets.base import RulesError

    try:
        return charge_report(speed, fatigue_beside, DragonbondRulings().with_assignments(rulings))
    except RulesError as exc:
        raise RulesError(f"fatigue_beside {fatigue_beside}: {exc}") from None


def roll_damage(*, tokens: int, fatigue_beside: int = 0, rulings=()) -> Report:
    """Damage tokens at the start of a unit's turn (`balance roll dragonbond damage`), exact."""
    from reports.dragonbond.tables import damage_report

    return damage_report(tokens, fatigue_beside, DragonbondRulings().with_assignments(rulings))


#: Every kind of `balance roll dragonbond`, the default first.
ROLLS = {"pool": roll_pool, "attack": roll_attack, "face-off": roll_face_off, "charge": roll_charge,
         "damage": roll_damage}


def roll(kind: str = "pool", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)


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
