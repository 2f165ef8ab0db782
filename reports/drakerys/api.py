"""Drakerys for the Python API (reports.api): its standard tables, rolls, duels and catalog as Reports."""

from __future__ import annotations

from pathlib import Path

from reports.drakerys.cli_sides import describe, load_catalog, sides_setup
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
from rulesets.drakerys.rules import MIRAGE_TIERS
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


def roll_action(*, dice: int, threshold: int | None = None, action: int | None = None,
                opposition: int | None = None, heroic: int = 0, swashbuckler: bool = False, rerolls: int = 0,
                crits: str = "normal", show=("successes", "criticals"), rulings=(), trials: int | None = None,
                seed: int | None = None, precision: float | None = None,
                threads: int | None = None) -> Report:
    """An Action-Table roll (`balance roll drakerys action`): ``threshold``, or ``action`` and
    ``opposition``; exact unless ``trials``, ``seed`` or ``precision`` asks for the simulation."""
    if threshold is None:
        if action is None or opposition is None:
            raise OptionError("give threshold, or action and opposition")
        threshold = drakerys.action_threshold(action, opposition)
    elif action is not None or opposition is not None:
        raise OptionError("give either threshold or action and opposition, not both")
    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    r = drakerys.ActionRoll(dice, threshold, heroic=heroic, swashbuckler=swashbuckler, rerolls=rerolls,
                            crits=crits)
    show = tuple(dict.fromkeys(show)) or ("successes", "criticals")
    if trials is None and seed is None and precision is None:
        return roll_report(drakerys.exact_action_roll(r, in_force, joint="joint" in show), show)
    trials = trials or (config.PRECISION_TRIAL_CAP if precision else config.DEFAULT_TRIALS)
    dist = drakerys.simulate_action_roll(r, in_force, trials=trials,
                                         seed=config.DEFAULT_SEED if seed is None else seed,
                                         precision=precision, threads=threads)
    return roll_report(dist, show)


def _mc(trials, precision, seed) -> tuple[int, int]:
    """The trials and seed of a simulated roll, as the command line settles them."""
    from reports.cli.options import monte_carlo_settings

    _, trials, seed = monte_carlo_settings(trials, precision, seed)
    return trials, seed


def _sides(catalogs, rulings, a: str, b: str, options: dict, a_shoots: bool = False):

    return sides_setup(catalogs, rulings, a, b, options, a_shoots=a_shoots)


def roll_fight(*, a: str, b: str, charge: bool = False, size_a: int | None = None, ap_a: int | None = None,
               stress_a: int | None = None, injuries_a: int | None = None, heroic_a: int | None = None,
               rerolls_a: int | None = None, authority_a: int | None = None, allies_a: int | None = None,
               guard_a: bool = False, no_blocking_a: bool = False, size_b: int | None = None,
               ap_b: int | None = None, stress_b: int | None = None, injuries_b: int | None = None,
               heroic_b: int | None = None, rerolls_b: int | None = None, authority_b: int | None = None,
               allies_b: int | None = None, guard_b: bool = False, no_blocking_b: bool = False, catalogs=(),
               rulings=(), trials: int | None = None, seed: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Report:
    """One Fight (`balance roll drakerys fight A B`): ``a`` attacks (or, ``charge``, charges) ``b``; both
    strike. The per-side options as the command's (``size_a``, ``heroic_b``, ...)."""
    from reports.drakerys.fight import fight_report
    from rulesets.drakerys import simulate

    sides = {k: v for k, v in locals().items() if k[-2:] in ("_a", "_b")}
    catalog, in_force, (ca, ap_a), (cb, ap_b) = _sides(catalogs, rulings, a, b, sides)
    if cb.heroic and in_force.heroic_passive == "none":
        raise OptionError("heroic_b: B fights back, with no Action of its own whose cost Heroic Action dice "
                          "could raise, so under DK-heroic-passive=none (the default) it adds none")
    trials, seed = _mc(trials, precision, seed)
    result = simulate.simulate_fight(ca, cb, charge=charge, rulings=in_force, weapons=catalog.weapons,
                                   trials=trials, seed=seed, threads=threads, precision=precision)
    return fight_report(result, ap_a, ap_b, describe(ca, ap_a), describe(cb, ap_b))


def roll_shoot(*, a: str, b: str, distance: int, size_a: int | None = None, ap_a: int | None = None,
               stress_a: int | None = None, injuries_a: int | None = None, heroic_a: int | None = None,
               authority_a: int | None = None, obstacles_a: int | None = None, guard_a: bool = False,
               size_b: int | None = None, ap_b: int | None = None, stress_b: int | None = None,
               injuries_b: int | None = None, heroic_b: int | None = None, authority_b: int | None = None,
               obstacles_b: int | None = None, guard_b: bool = False, catalogs=(), rulings=(),
               trials: int | None = None, seed: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Report:
    """One Shooting (`balance roll drakerys shoot SHOOTER TARGET`) of ``a`` at ``b`` from ``distance`` cm
    (at least 1: units in contact are Engaged and cannot shoot)."""
    from reports.drakerys.fight import shooting_report
    from rulesets.drakerys import simulate
    from rulesets.drakerys.rules import ENGAGED_CANNOT_SHOOT

    if distance < 1:
        raise OptionError(f"distance {distance}: {ENGAGED_CANNOT_SHOOT}")
    sides = {k: v for k, v in locals().items() if k[-2:] in ("_a", "_b")}
    catalog, in_force, (ca, ap_a), (cb, ap_b) = _sides(catalogs, rulings, a, b, sides, a_shoots=True)
    trials, seed = _mc(trials, precision, seed)
    result = simulate.simulate_shooting(ca, cb, distance_cm=distance, weapons=catalog.weapons,
                                        rulings=in_force, trials=trials, seed=seed, threads=threads,
                                        precision=precision)
    return shooting_report(result, ap_b, describe(ca, ap_a), describe(cb, ap_b))


def roll_spell(*, level: int, distance: float = 0.0, sources: int | None = None, vortexes: int | None = None,
               maelstroms: int | None = None, mana: int = 0, cost: int = 1, heroic: int = 0,
               tiers=MIRAGE_TIERS, resistance: int = 3, show=(), rulings=(), trials: int | None = None,
               seed: int | None = None, precision: float | None = None, threads: int | None = None) -> Report:
    """A Spell roll (`balance roll drakerys spell`): successes, effect tier and, from a Maelstrom, the
    Cataclysmic Effect; exact unless ``trials``, ``seed`` or ``precision`` asks for the simulation."""
    import click

    from reports.drakerys.choices import MAELSTROM_SECTIONS
    from reports.drakerys.cli_magic import _sources
    from reports.drakerys.magic import spell_report
    from rulesets.drakerys import magic

    try:
        n_vortexes, n_maelstroms = _sources(sources, vortexes, maelstroms)
    except click.UsageError as exc:
        raise OptionError(exc.format_message()) from None
    show = tuple(dict.fromkeys(show)) or None
    needing = [s for s in show or () if s in MAELSTROM_SECTIONS]
    if needing and n_maelstroms == 0:
        raise OptionError(f"show {needing[0]!r} needs a Maelstrom among the sources (maelstroms)")
    in_force = magic.DrakerysRulings().with_assignments(rulings)
    cast = magic.SpellCast(level, distance, vortexes=n_vortexes, maelstroms=n_maelstroms, mana=mana,
                           cost=cost, heroic=heroic, tiers=tuple(tiers), resistance=resistance)
    cast.check_mana(in_force)
    if trials is None and seed is None and precision is None:
        return spell_report(magic.spell_distribution(cast, in_force), show)
    trials, seed = _mc(trials, precision, seed)
    dist = magic.simulate_spell(cast, in_force, trials=trials, seed=seed, threads=threads,
                                precision=precision)
    return spell_report(dist, show)


def roll_invocation(*, extra_dice: int | None = None, source: str = "vortex") -> Report:
    """An Elemental invocation (`balance roll drakerys invocation`): 2d10 + ``extra_dice`` against 7+ (default
    5 from a Vortex, 0 from a Maelstrom), and the Maelstrom element table; exact."""
    from reports.drakerys.magic import invocation_report
    from rulesets.drakerys import magic

    if extra_dice is None:
        extra_dice = 5 if source == "vortex" else 0
    return invocation_report(magic.invocation_distribution(magic.InvocationRoll(extra_dice, source)))


#: Every kind of `balance roll drakerys`, the default first.
ROLLS = {"action": roll_action, "fight": roll_fight, "shoot": roll_shoot, "spell": roll_spell,
         "invocation": roll_invocation}


def roll(kind: str = "action", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)


def engagement(options: dict) -> tuple[Report, str]:
    """The duel of :func:`duel` from its keywords (``options``), and a title for its plot (the units, their
    sizes, the trials and the seed): the one implementation of `balance duel drakerys` and of the API's."""
    from reports.cli.options import option_name
    from rulesets.drakerys import simulate  # numba: loaded for a duel, not for the exact tables and rolls
    from rulesets.drakerys.rules import ENGAGED_CANNOT_SHOOT

    start, shoot_from = options["start"], options["shoot_from"]
    if start is not None and shoot_from is not None:
        raise OptionError(f"{option_name('start')} and {option_name('shoot_from')}: give one (a duel starts "
                          "at a distance, or A opens fire)")
    if shoot_from is not None and shoot_from < 1:
        raise OptionError(f"{option_name('shoot_from')} {shoot_from}: {ENGAGED_CANNOT_SHOOT}")
    sides = {k: v for k, v in options.items() if k[-2:] in ("_a", "_b")}
    catalog, in_force, (ca, ap_a), (cb, ap_b) = sides_setup(options["catalogs"], options["rulings"],
                                                            options["a"], options["b"], sides,
                                                            a_shoots=shoot_from is not None)
    trials, seed = _mc(options["trials"], options["precision"], options["seed"])
    result = simulate.simulate_engagement(ca, cb, shoot_from_cm=shoot_from, start_cm=start, rulings=in_force,
                                        weapons=catalog.weapons, rounds=options["rounds"], trials=trials,
                                        seed=seed, threads=options["threads"], precision=options["precision"],
                                        progress=options["progress"])
    report = engagement_report(result, ap_a, ap_b, describe(ca, ap_a), describe(cb, ap_b))
    title = (f"Drakerys duel: {ca.unit.name} ({ca.size}) against {cb.unit.name} ({cb.size}); "
             f"{result.run.trials:,} trials, seed {seed}")
    return report, title


def duel(a: str, b: str, *, shoot_from: int | None = None, start: int | None = None, rounds: int = 6,
         size_a: int | None = None, ap_a: int | None = None, stress_a: int | None = None,
         injuries_a: int | None = None, heroic_a: int | None = None, rerolls_a: int | None = None,
         authority_a: int | None = None, allies_a: int | None = None, obstacles_a: int | None = None,
         guard_a: bool = False, no_blocking_a: bool = False, size_b: int | None = None,
         ap_b: int | None = None, stress_b: int | None = None, injuries_b: int | None = None,
         heroic_b: int | None = None, rerolls_b: int | None = None, authority_b: int | None = None,
         allies_b: int | None = None, obstacles_b: int | None = None, guard_b: bool = False,
         no_blocking_b: bool = False, catalogs=(), rulings=(), trials: int | None = None,
         seed: int | None = None, precision: float | None = None, threads: int | None = None,
         progress=None) -> Report:
    """``a`` charges ``b`` (or shoots first, or both start ``start`` cm apart), then both fight on until one
    is destroyed or scatters or the game ends (`balance duel drakerys A B`): P(A wins), P(B wins),
    P(neither), injuries, AP destroyed and Time Sections, with intervals.

    Keywords, as the command's options: ``shoot_from`` (A opens fire from this distance in cm instead of
    charging), ``start`` (the units start this many cm apart and each Action is the unit's best), ``rounds``
    (rounds of the game left, 16 Time Sections each; default 6); per side, ``size_a``, ``ap_a``,
    ``stress_a``, ``injuries_a``, ``heroic_a``, ``rerolls_a``, ``authority_a``, ``allies_a``,
    ``obstacles_a``, ``guard_a``, ``no_blocking_a`` and the same with _b (the sizes default to the unit
    sheets'); ``catalogs``, ``rulings``, ``trials``, ``seed``, ``precision``, ``threads``;
    ``progress(done, total)``."""
    return engagement(dict(locals()))[0]


def units(*, profiled: bool = False, catalogs=()) -> Report:
    """The Drakerys catalog (`balance units drakerys`): one row per unit (profile, skills, weapon, sizes) and
    its data quirks. Keywords: ``profiled`` (only the units the rulebook gives a profile), ``catalogs``."""
    return units_report(load_catalog(catalogs), profiled_only=profiled)
