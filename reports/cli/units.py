"""`balance units <ruleset>`: the unit catalog (profiles, recruitment options, weapons, data quirks)."""

from __future__ import annotations

import click

from reports.cli.options import catalog_option, emit, load_drakerys_catalog, output_options
from reports.cli.verbs import RulesetGroup
from reports.tables_units import units_report


@click.group("units", cls=RulesetGroup)
def units_group():
    """Unit catalogs: `balance units <ruleset>`."""


@units_group.command("drakerys")
@click.option("--profiled", is_flag=True, help="Only the units the rulebook gives a profile (unit sheet).")
@catalog_option
@output_options
def units_drakerys(profiled, catalogs, fmt, output, plot):
    """The Drakerys catalog: one row per unit (profile, skills, weapon, sizes) and its data quirks.

    Example: balance units drakerys --profiled --format markdown
    """
    if plot is not None:
        raise click.UsageError("`balance units drakerys` has nothing to plot; drop --plot")
    emit(units_report(load_drakerys_catalog(catalogs), profiled_only=profiled), fmt, output)
