"""UberDrakes for the Python API (reports.api): its standard tables, rolloffs, combats and catalog as
Reports; the command line calls the same functions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reports.formats import Report
from reports.tables import Rounding
from rulesets.uberdrakes.rules import UberDrakesRulings

PLOTTED = ("rolloff", "resources", "furnace", "blood-points", "turn-order", "caves", "urn")


def table_report(name: str, data, rounding: Rounding) -> Report:
    """A standard table (its data: rulesets.uberdrakes.tables) as a Report, its probabilities kept whole,
    with its views for reading rounded by ``rounding``."""
    from reports.uberdrakes.tables import table_report as report

    return report(name, data, rounding)


def has_plot(name: str) -> bool:
    return name in PLOTTED


def table_plot(name: str, data, path: Path) -> None:
    from reports.uberdrakes.tables import plot_table, table_report

    plot_table(name, table_report(name, data), path)


def _in_force(rulings) -> UberDrakesRulings:
    if isinstance(rulings, UberDrakesRulings):
        return rulings
    return UberDrakesRulings().with_assignments(rulings)


def roll_rolloff(*, rage: int = 0, vs_rage: int = 0, bonus: int = 0, vs_bonus: int = 0,
         elemental: int = 0, vs_elemental: int = 0, mountain: int = 0, vs_mountain: int = 0,
         fatigued: bool = False, vs_fatigued: bool = False, camouflage: bool = False, sandstorm: bool = False,
         vs_sandstorm: bool = False, supercharge: bool = False, vs_supercharge: bool = False,
         rage_potions: int = 0, vs_rage_potions: int = 0, rulings=()) -> Report:
    """One combat rolloff (`balance roll uberdrakes rolloff`), exact, its bonuses built from their sources."""
    from reports.uberdrakes.tables import rolloff_report
    from rulesets.uberdrakes.exact import Combatant, combat_sides

    in_force = _in_force(rulings)
    a = Combatant(rage, elemental, mountain, fatigued, camouflage, sandstorm, supercharge, rage_potions,
                  bonus)
    b = Combatant(vs_rage, vs_elemental, vs_mountain, vs_fatigued, False, vs_sandstorm, vs_supercharge,
                  vs_rage_potions, vs_bonus)
    initiator, defender, built = combat_sides(a, b, in_force)
    return rolloff_report(initiator, defender, in_force, built)


#: Every kind of `balance roll uberdrakes`, the default first.
ROLLS = {"rolloff": roll_rolloff}


def roll(kind: str = "rolloff", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)


def duel(a: str, b: str, *, magic: int = 0, vs_magic: int = 0, lances: int = 0, vs_lances: int = 0,
         shields: int = 0, vs_shields: int = 0, potions: int = 0, vs_potions: int = 0, rage: int = 0,
         vs_rage: int = 0, bonus: int = 0, vs_bonus: int = 0, ranged: bool = False, roosted: bool = False,
         rulings=(), catalogs=(), spells=None, vs_spells=None) -> Report:
    """One combat of dragon ``a`` (the initiator) against dragon ``b``, solved exactly under the greedy and
    the optimal policy side by side; each dragon brings its combat spells (or only ``spells``), items at
    the catalog's prices; ``roosted``: ``b`` has Roosted (no blood points to either side, line 284)."""
    from reports.uberdrakes.tables import combat_report
    from rulesets.uberdrakes import catalog as catalog_io
    from rulesets.uberdrakes.combat import Combat, kit_for, solve
    from rulesets.uberdrakes.exact import Side

    in_force = _in_force(rulings)
    cat = catalog_io.load(user_paths=tuple(catalogs))
    names = (cat.dragon(a).key, cat.dragon(b).key)
    kit = kit_for(cat, names[0], magic=magic, lances=lances, shields=shields, potions=potions,
                  spells=spells)
    vs_kit = kit_for(cat, names[1], magic=vs_magic, lances=vs_lances, shields=vs_shields, potions=vs_potions,
                     spells=vs_spells)
    combat = Combat(Side(rage, bonus), Side(vs_rage, vs_bonus), kit, vs_kit, ranged, roosted=roosted)
    outcomes = {p: solve(combat, replace(in_force, policy=p)) for p in ("greedy", "optimal")}

    def describe(name, d, k, side) -> tuple[str, str]:
        spells = [n for n, on in (("Fire Breath", k.fire_breath), ("Plate Armor", k.plate_armor),
                                  ("Acid Rain", k.acid_rain), ("Windblast", k.windblast)) if on]
        return (name, f"{d} dragon, Rage {side.rage}, bonus {side.bonus:+d}; {k.lances} Lance(s), "
                      f"{k.shields} Hide Shield(s), {k.potions} Rage Potion(s), {k.magic} Magic"
                      + (f" for {', '.join(spells)}" if spells else ""))

    described = [describe("initiator", names[0], kit, combat.initiator),
                 describe("defender", names[1], vs_kit, combat.defender)]
    if ranged:
        described.append(("ranged", "the initiator makes a Ranged attack: no Lances, no Hide Shield for it, "
                                    "no damage to it if it loses"))
    if roosted:
        described.append(("roosted", "the defender has Roosted: no blood points to either side, damage as "
                                     "usual (line 284)"))
    return combat_report(combat, outcomes, in_force, described)


def units(*, catalogs=()) -> Report:
    from reports.uberdrakes.tables import units_report
    from rulesets.uberdrakes import catalog as catalog_io

    return units_report(catalog_io.load(user_paths=tuple(catalogs)))
