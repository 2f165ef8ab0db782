"""`balance table <ruleset> <table>`: exact rulebook tables."""

from __future__ import annotations

import click

from reports.cli.errors import DomainError
from reports.cli.options import WholeNumber, emit, output_options, ruling_option
from reports.cli.verbs import RulesetGroup
from reports.tables import action_table_report
from rulesets import drakerys
from rulesets.base import RulesError, RulingError

MAX_TABLE_DICE = 100


@click.group("table", cls=RulesetGroup)
def table_group():
    """Exact rulebook tables: `balance table <ruleset> <table>`."""


@table_group.command("drakerys")
@click.argument("which", type=click.Choice(["action"]))
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
def table_drakerys(which, max_dice, thresholds, swashbuckler, rerolls, crits, rulings, fmt, output, plot):
    """The Drakerys Action Table: P(at least k successes) and the mean, for 1..N dice and each threshold.

    Example: balance table drakerys action --format markdown
    """
    thresholds = tuple(sorted(set(thresholds))) or tuple(range(drakerys.MIN_THRESHOLD,
                                                               drakerys.MAX_THRESHOLD + 1))
    try:
        in_force = drakerys.DrakerysRulings().with_assignments(rulings)
        table = drakerys.action_table(max_dice, thresholds, in_force, swashbuckler=swashbuckler,
                                      rerolls=rerolls, crits=crits)
    except RulingError as exc:
        raise click.UsageError(str(exc)) from None
    except RulesError as exc:
        raise DomainError(str(exc)) from None
    emit(action_table_report(table), fmt, output)
    if plot is not None:
        from reports.plots import plot_action_table  # matplotlib only when a plot is asked for

        plot_action_table(table, plot)
