"""Drakerys on the command line: its subcommands of `roll`, `table`, `duel` and `units`.

:func:`register` attaches them to the generic verbs; `efficiency`, `whatif`, `sweep` and `table drakerys all`
come from the generic layer through the ruleset's contract.

The options take their bounds, defaults and choices from rulesets.drakerys.rules; the reports and the rules'
tables (numpy) are imported when a command runs, not when the tree is built.
"""

from __future__ import annotations

import click

from reports.cli.options import (
    WholeNumber,
    catalog_option,
    emit,
    mc_options_for,
    mc_progress,
    monte_carlo_settings,
    output_options,
    ruling_option,
    text_output_options,
)
from reports.cli.verbs import DefaultCommandGroup
from reports.drakerys import cli_fight, cli_magic
from reports.drakerys.cli_sides import load_catalog
from rulesets import drakerys
from rulesets.drakerys.rules import (
    INVOCATION_MAX_EXTRA,
    MAX_CHARACTERISTIC,
    MAX_INVOCATION_EXTRA,
    MAX_WIZARD_LEVEL,
    MIRAGE_TIERS,
    MORALE_DICE,
    MORALE_MAX_DICE,
    SPELL_COST,
    SPELL_MAX_OPPOSITION,
    VORTEX_MANA,
)

SHOW = ("successes", "criticals", "joint")
MAX_TABLE_DICE = 100


@click.group("drakerys", cls=DefaultCommandGroup, default="action")
def roll_drakerys():
    """Drakerys rolls: action (the default), fight, shoot, spell, invocation."""


@roll_drakerys.command("action", context_settings={"max_content_width": 100})
@click.option("--dice", type=WholeNumber(1, drakerys.MAX_DICE), required=True,
              help="d10 rolled (the sum of the Powers, the hits, ...).")
@click.option("--action", "action_value", type=WholeNumber(0, MAX_CHARACTERISTIC), default=None,
              help=f"Action value (Combat, Strength, Shooting, Willpower...), 0..{MAX_CHARACTERISTIC} as a "
                   "characteristic; the threshold is 6 - (action - opposition), 2+ at best and 10+ at worst.")
@click.option("--opposition", type=WholeNumber(0, MAX_CHARACTERISTIC), default=None,
              help=f"Opposition value (enemy Combat, Resistance, distance...), 0..{MAX_CHARACTERISTIC}.")
@click.option("--threshold", type=WholeNumber(drakerys.MIN_THRESHOLD, drakerys.MAX_THRESHOLD),
              default=None, help="Give the threshold directly instead of --action/--opposition.")
@click.option("--heroic", type=WholeNumber(0, drakerys.MAX_HEROIC), default=0, show_default=True,
              help="Heroic Action: extra d10 added to the roll.")
@click.option("--swashbuckler", is_flag=True, help="Reroll every failed die once (Swashbuckler).")
@click.option("--rerolls", type=WholeNumber(0, drakerys.MAX_DICE + drakerys.MAX_HEROIC), default=0,
              show_default=True, help="Reroll up to this many failed dice once (allied warriors in contact).")
@click.option("--crits", type=click.Choice(tuple(drakerys.CRIT_MODES)), default="normal", show_default=True,
              help="How 10s count: normal (success + extra die), parry (plain success), "
                   "expert-parry (failure): the target's skill on an injury roll.")
@click.option("--show", multiple=True, type=click.Choice(SHOW),
              help="Tables to print (repeatable; default: successes and criticals).")
@mc_options_for("the mean successes", probability=False)
@ruling_option
@output_options
def roll_action(dice, action_value, opposition, threshold, heroic, swashbuckler, rerolls, crits,
                show, trials, precision, seed, threads, rulings, fmt, output, plot):
    """Action-Table roll: successes and criticals, exact by default (`action` may be left out).

    Example: balance roll drakerys --dice 12 --action 3 --opposition 4 --swashbuckler
    """
    from reports.drakerys.tables import roll_report

    if threshold is None:
        if action_value is None or opposition is None:
            raise click.UsageError("give --action and --opposition, or --threshold")
        threshold = drakerys.action_threshold(action_value, opposition)
    elif action_value is not None or opposition is not None:
        raise click.UsageError("give either --threshold or --action/--opposition, not both")
    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    roll = drakerys.ActionRoll(dice, threshold, heroic=heroic, swashbuckler=swashbuckler, rerolls=rerolls,
                               crits=crits)
    show = tuple(dict.fromkeys(show)) or ("successes", "criticals")
    simulate, trials, seed = monte_carlo_settings(trials, precision, seed)
    if simulate:
        dist = drakerys.simulate_action_roll(roll, in_force, trials=trials, seed=seed, threads=threads,
                                             precision=precision,
                                             progress=mc_progress("simulating", precision))
    else:
        dist = drakerys.exact_action_roll(roll, in_force, joint="joint" in show)
    emit(roll_report(dist, show), fmt, output)
    if plot is not None:
        from reports.drakerys.plots import plot_roll  # matplotlib only when a plot is asked for

        plot_roll(dist, plot)


cli_fight.register(roll_drakerys)
cli_magic.register(roll_drakerys)


def _thresholds(thresholds: tuple[int, ...]) -> tuple[int, ...]:
    """The --threshold values, sorted and once each (default: every threshold 2..10)."""
    return tuple(sorted(set(thresholds))) or tuple(range(drakerys.MIN_THRESHOLD, drakerys.MAX_THRESHOLD + 1))


@click.group("drakerys")
def table_drakerys():
    """Drakerys rulebook tables, exact: action, morale, spell, invocation, weapons, and `all` of them into a
    folder."""


@table_drakerys.command("action")
@click.option("--max-dice", type=WholeNumber(1, MAX_TABLE_DICE), default=20, show_default=True,
              help="Rows for 1..N dice.")
@click.option("--threshold", "thresholds", multiple=True,
              type=WholeNumber(drakerys.MIN_THRESHOLD, drakerys.MAX_THRESHOLD),
              help="Thresholds to include (repeatable; default 2..10).")
@click.option("--swashbuckler", is_flag=True, help="Every failed die rerolled once.")
@click.option("--rerolls", type=WholeNumber(0, drakerys.MAX_DICE), default=0, show_default=True,
              help="Up to this many failed dice rerolled once.")
@click.option("--crits", type=click.Choice(tuple(drakerys.CRIT_MODES)), default="normal", show_default=True,
              help="How 10s count (normal, parry, expert-parry).")
@ruling_option
@output_options
def table_action(max_dice, thresholds, swashbuckler, rerolls, crits, rulings, fmt, output, plot):
    """The Drakerys Action Table: P(at least k successes) and the mean, for 1..N dice and each threshold.

    Example: balance table drakerys action --format markdown
    """
    from reports.drakerys.tables import action_table_report

    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    table = drakerys.action_table(max_dice, _thresholds(thresholds), in_force, swashbuckler=swashbuckler,
                                  rerolls=rerolls, crits=crits)
    emit(action_table_report(table), fmt, output)
    if plot is not None:
        from reports.drakerys.plots import plot_action_table  # matplotlib only when a plot is asked for

        plot_action_table(table, plot)


@table_drakerys.command("morale")
@click.option("--max-dice", type=WholeNumber(MORALE_DICE, MAX_TABLE_DICE),
              default=MORALE_MAX_DICE, show_default=True,
              help="Rows for 2..N dice (2 + 1 per complete 5 warriors + Discipline + Authority units).")
@click.option("--threshold", "thresholds", multiple=True,
              type=WholeNumber(drakerys.MIN_THRESHOLD, drakerys.MAX_THRESHOLD),
              help="Thresholds to include (repeatable; default 2..10).")
@click.option("--berserker", is_flag=True, help="Berserker: one more success on the roll.")
@click.option("--charisma", is_flag=True,
              help="A Charisma unit within 20 cm: every failed die rerolled once.")
@ruling_option
@output_options
def table_morale(max_dice, thresholds, berserker, charisma, rulings, fmt, output, plot):
    """The Drakerys Morale roll: P(scatter), P(stress), P(doubt), P(steady) for each number of dice and
    threshold (6 - (Willpower - opposition)).

    Example: balance table drakerys morale --berserker --format markdown
    """
    from reports.drakerys.tables import morale_table_report
    from rulesets.drakerys import tables as drakerys_tables

    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    table = drakerys_tables.morale_table(max_dice, _thresholds(thresholds), in_force, berserker=berserker,
                                         charisma=charisma)
    emit(morale_table_report(table), fmt, output)
    if plot is not None:
        from reports.drakerys.plots import plot_morale_table  # matplotlib only when a plot is asked for

        plot_morale_table(table, plot)


@table_drakerys.command("spell")
@click.option("--level", "levels", multiple=True, type=WholeNumber(1, MAX_WIZARD_LEVEL),
              help=f"Wizard levels to include (repeatable; default 1..{MAX_WIZARD_LEVEL}).")
@click.option("--max-opposition", type=WholeNumber(0, 20), default=SPELL_MAX_OPPOSITION,
              show_default=True, help="Columns for opposition 0..N (distance shares + extra Sources).")
@click.option("--max-mana", type=WholeNumber(0, VORTEX_MANA * MAX_WIZARD_LEVEL), default=None,
              help="Rows for 0..N Mana spent reinforcing (default: all the Vortexes allow).")
@click.option("--cost", type=WholeNumber(0, VORTEX_MANA * MAX_WIZARD_LEVEL),
              default=SPELL_COST, show_default=True, help="The spell's cost in Mana.")
@click.option("--tiers", type=cli_magic.Tiers(), default=",".join(map(str, MIRAGE_TIERS)),
              show_default=True,
              help="Lowest success count of each effect tier (the MIRAGE card: 1-2, 3-4, 5+).")
@ruling_option
@output_options
def table_spell(levels, max_opposition, max_mana, cost, tiers, rulings, fmt, output, plot):
    """The Drakerys Spell roll: P(each effect tier) by Wizard level, opposition and Mana spent reinforcing,
    from Vortexes (no Maelstrom).

    Example: balance table drakerys spell --level 3 --format markdown
    """
    from reports.drakerys.magic import spell_table_report
    from rulesets.drakerys import tables as drakerys_tables

    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    levels = levels or range(1, MAX_WIZARD_LEVEL + 1)
    table = drakerys_tables.spell_table(levels, range(max_opposition + 1), in_force, cost=cost,
                                        max_mana=max_mana, tiers=tiers)
    emit(spell_table_report(table), fmt, output)
    if plot is not None:
        from reports.drakerys.plots import plot_spell_table  # matplotlib only when a plot is asked for

        plot_spell_table(table, plot)


@table_drakerys.command("invocation")
@click.option("--max-extra", type=WholeNumber(0, MAX_INVOCATION_EXTRA),
              default=INVOCATION_MAX_EXTRA, show_default=True,
              help="Rows for 0..N extra d10 (1 TS each) from a Vortex.")
@ruling_option
@text_output_options
def table_invocation(max_extra, rulings, fmt, output, plot):
    """The Drakerys Elemental invocation: P(success) by extra dice from a Vortex, and the Maelstrom element
    table with its extra TS.

    Example: balance table drakerys invocation --max-extra 8 --format markdown
    """
    from reports.drakerys.magic import invocation_table_report
    from rulesets.drakerys import tables as drakerys_tables

    in_force = drakerys.DrakerysRulings().with_assignments(rulings)
    emit(invocation_table_report(drakerys_tables.invocation_table(max_extra, in_force)), fmt, output)


@table_drakerys.command("weapons")
@catalog_option
@text_output_options
def table_weapons(catalogs, fmt, output, plot):
    """The Drakerys Ranged Weapons table (range, Strength, Saturation, special rule, units carrying each)
    and its data quirks.

    Example: balance table drakerys weapons --format markdown
    """
    from reports.drakerys.tables import weapons_table_report
    from rulesets.drakerys import tables as drakerys_tables

    emit(weapons_table_report(drakerys_tables.weapons_table(load_catalog(catalogs))), fmt, output)


@click.command("drakerys")
@click.option("--profiled", is_flag=True, help="Only the units the rulebook gives a profile (unit sheet).")
@catalog_option
@text_output_options
def units_drakerys(profiled, catalogs, fmt, output, plot):
    """The Drakerys catalog: one row per unit (profile, skills, weapon, sizes) and its data quirks.

    Example: balance units drakerys --profiled --format markdown
    """
    from reports.drakerys.units import units_report  # pandas: loaded when the command runs, not with the tree

    emit(units_report(load_catalog(catalogs), profiled_only=profiled), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the Drakerys subcommands to the generic verbs."""
    verbs["roll"].add_command(roll_drakerys)
    verbs["table"].add_command(table_drakerys)
    verbs["duel"].add_command(cli_fight.duel_drakerys)
    verbs["units"].add_command(units_drakerys)
