"""`balance rulesets`: the five rulesets, their status and their rulings.

reports.tables (numpy, statistics) is imported when the command runs, not when the tree is built."""

from __future__ import annotations

import click

from reports.cli.options import emit, text_output_options


@click.command("rulesets")
@text_output_options
def rulesets_command(fmt, output, plot):
    """List the rulesets and each one's rulings with defaults and meanings.

    Example: balance rulesets --format markdown
    """
    from reports.tables import rulesets_report

    emit(rulesets_report(), fmt, output)
