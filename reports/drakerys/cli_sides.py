"""Options that describe each side of a Drakerys fight (`--size-a`, `--stress-b`, ...), and turning them
into combatants.

The catalog reader (tomllib, hashlib) is imported when a catalog is loaded, not when the tree is built."""

from __future__ import annotations

import click

from reports.cli.options import WholeNumber, option_name
from rulesets.base import OptionError, RulesError
from rulesets.drakerys.fight import Combatant
from rulesets.drakerys.rules import MAX_EXTRA_OPTION
from rulesets.drakerys.units import Catalog, Unit

#: (option stem, type, help) of the per-side options; flags have type None.
_SIDE_OPTIONS = (
    ("size", WholeNumber(1, 1000), "warriors (default: the size on the unit sheet)"),
    ("ap", WholeNumber(1, 100_000), "Army Points of the unit (needed for a size the rulebook does not list)"),
    ("stress", WholeNumber(0, MAX_EXTRA_OPTION), "Stress markers already on the unit"),
    ("injuries", WholeNumber(0, 100), "injury tokens already on the unit"),
    ("heroic", WholeNumber(0, 5), "Heroic Action dice added to its fight/shooting rolls"),
    ("rerolls", WholeNumber(0, MAX_EXTRA_OPTION), "attack dice it may reroll (allied warriors in contact)"),
    ("authority", WholeNumber(0, MAX_EXTRA_OPTION), "allied units with Authority in range (Morale dice)"),
    ("allies", WholeNumber(0, MAX_EXTRA_OPTION), "other allied units engaged with the enemy (+1 Initiative)"),
    ("obstacles", WholeNumber(0, MAX_EXTRA_OPTION), "obstacles in its line of sight when it shoots"),
    ("guard", None, "a Guard unit escorts it (Safeguard may move injuries there)"),
    ("no-blocking", None, "attack instead of using Blocking"),
)


#: Per-side options that do nothing in a Fight (no one shoots) and in a Shooting (no one strikes).
NOT_IN_FIGHT = ("obstacles",)
NOT_IN_SHOOTING = ("rerolls", "allies", "no-blocking")


def side_options_without(*left_out: str):
    """Add the per-side options for sides a and b, but those named (options that would do nothing)."""

    def decorate(f):
        for letter in ("b", "a"):
            for stem, kind, text in reversed(_SIDE_OPTIONS):
                if stem in left_out:
                    continue
                name = f"--{stem}-{letter}"
                label = f"{letter.upper()}: {text}."
                if kind is None:
                    f = click.option(name, is_flag=True, help=label)(f)
                else:
                    f = click.option(name, type=kind, default=None, help=label)(f)
        return f

    return decorate


#: Every per-side option (a duel both shoots and fights).
side_options = side_options_without()


def load_catalog(paths) -> Catalog:
    """The Drakerys catalog with the user's ``--catalog`` files applied over the packaged one."""
    from rulesets.drakerys import catalog as drakerys_catalog

    return drakerys_catalog.load(paths)


def default_size(unit: Unit) -> int:
    """The size printed on the unit sheet, else the largest recruitment option."""
    option = unit.standard_size
    if option is None:
        raise RulesError(f"{unit.name} has no size in the rulebook; give its size and Army Points")
    return option.size


def combatant(catalog: Catalog, name: str, letter: str, options: dict, usable=None, use: str = ""
              ) -> tuple[Combatant, int]:
    """The combatant for side ``letter`` from the command's options, and its Army Points (``name`` resolved
    among the units ``usable`` holds for, which can ``use``: see Catalog.unit)."""
    unit = catalog.unit(name, usable, use)
    size = options.get(f"size_{letter}")
    ap = options.get(f"ap_{letter}")
    if size is None:
        size = default_size(unit)
    if ap is None:
        ap = unit.size_option(size).ap
    injuries = options.get(f"injuries_{letter}") or 0
    if unit.profile is not None and injuries >= max(1, unit.profile.health):
        health = unit.profile.health
        option = option_name(f"injuries_{letter}")
        raise OptionError(f"{option} {injuries}: {unit.name} have Health {health}, so a warrior "
                          f"dies when it takes {health} injur{'y' if health == 1 else 'ies'} and the unit "
                          f"carries at most {health - 1} injury token{'s' if health - 1 != 1 else ''}")
    c = Combatant(
        unit, size,
        injuries=injuries,
        stress=options.get(f"stress_{letter}") or 0,
        heroic=options.get(f"heroic_{letter}") or 0,
        rerolls=options.get(f"rerolls_{letter}") or 0,
        authority=options.get(f"authority_{letter}") or 0,
        guard=bool(options.get(f"guard_{letter}")),
        blocking=not options.get(f"no_blocking_{letter}"),
        allied_units_engaged=options.get(f"allies_{letter}") or 0,
        obstacles=options.get(f"obstacles_{letter}") or 0,
    )
    return c, ap


def describe(c: Combatant, ap: int) -> str:
    """One line for a report: the unit, its size and cost, and what is special about its situation."""
    extras = [f"{k} {v}" for k, v in (("stress", c.stress), ("injury tokens", c.injuries),
                                        ("heroic dice", c.heroic), ("rerolls", c.rerolls),
                                        ("Authority units", c.authority),
                                        ("allied units engaged", c.allied_units_engaged),
                                        ("obstacles", c.obstacles)) if v]
    if c.guard:
        extras.append("escorted by a Guard unit")
    if c.unit.has("blocking"):
        extras.append("may use Blocking (DK-blocking says when)" if c.blocking
                      else "never uses Blocking (--no-blocking)")
    try:
        book = c.unit.size_option(c.size).ap
    except RulesError:
        book = None
    cost = f"{ap} AP" if book == ap else (f"{ap} AP (given; the rulebook: {book} AP)" if book is not None
                                          else f"{ap} AP (given; the rulebook lists no such size)")
    head = f"{c.unit.name} ({c.unit.key}), {c.size} warriors, {cost}"
    return head + (f"; {', '.join(extras)}" if extras else "")


def _fights(unit) -> bool:
    return unit.profile is not None


def _shoots(unit) -> bool:
    return unit.profile is not None and unit.profile.shooting is not None and unit.weapon is not None


def sides_setup(catalogs, rulings, name_a, name_b, options, a_shoots=False):
    """(catalog, rulings in force, (combatant, AP) for A and B); names are resolved among the units that
    can fight (A among those that can shoot when ``a_shoots``)."""
    from rulesets.drakerys import RULESET, DrakerysRulings

    in_force = DrakerysRulings().with_assignments(rulings)
    catalog = RULESET.catalog_for(load_catalog(catalogs), in_force)
    a_use = (_shoots, "shoot") if a_shoots else (_fights, "fight")
    return (catalog, in_force, combatant(catalog, name_a, "a", options, *a_use),
            combatant(catalog, name_b, "b", options, _fights, "fight"))
