"""`balance army <game>`: the best army at a budget against the meta-game, and the best counter to it.

reports.api (and through it pandas and the kernels) is imported when the command runs, not when the command
tree is built."""

from __future__ import annotations

import inspect

import click

from reports.cli.cluster import cluster_options
from reports.cli.options import (
    Precision,
    WholeNumber,
    catalog_option,
    emit,
    entry_names,
    mc_options_for,
    progress_reporter,
    ruling_option,
    text_output_options,
    typed_options,
    with_budget,
)
from rulesets.base import Ruleset

#: Most entries of one army and most armies searched, as reports.army sets them (repeated here so that the
#: command tree does not import numpy; tests/test_army.py checks they agree).
DEFAULT_KINDS = 3
DEFAULT_SEARCH = 100


def _army_options(f):
    """--unit, --catalog, the Monte Carlo options, --ruling, --format/--output (and the click context)."""
    engagements = mc_options_for("each simulated engagement's P(side 0 wins) (default 0.01 unless --trials "
                                 "is given; a game whose engagements are exact ignores it)",
                                 probability=True, exact=False)
    unit = click.option("--unit", "only", multiple=True, metavar="NAME", callback=entry_names,
                        help="Only these entries (a unit name or key, every size; or KEY@SIZE), in the "
                             "armies and in the field (repeatable; default: the whole catalog).")
    for option in (click.pass_context, text_output_options, ruling_option, cluster_options, engagements,
                   catalog_option, unit):
        f = option(f)
    return f


def army_command(ruleset: Ruleset) -> click.Command:
    """`balance army GAME` for a game that fulfils the contract (one that plays no army refuses to run)."""
    budget_help = (f"The budget each army spends, in {ruleset.cost_unit} (sets {ruleset.budget_ruling}; "
                   "default: the ruling's, stated in the report)." if ruleset.budget_ruling else
                   "The budget each army spends (this game's contests have none).")

    @click.command(ruleset.name)
    @click.option("--budget", type=click.IntRange(min=1), default=None, metavar="N", help=budget_help)
    @click.option("--kinds", type=WholeNumber(1, 100), default=None, metavar="N",
                  help=f"The most entries one army holds (default: {ruleset.army_kinds or DEFAULT_KINDS}"
                       + (", the game's own limit)." if ruleset.army_kinds else ")."))
    @click.option("--search", "search", type=WholeNumber(1, 100_000), default=DEFAULT_SEARCH,
                  show_default=True, metavar="N",
                  help="The most armies the search plays for the best army and for its counter (every army "
                       "when there are no more than N).")
    @click.option("--search-precision", "search_precision", type=Precision(True), default=None, metavar="H",
                  help="The searches screen the armies they try with engagements played until each 95% "
                       "half-width is below H (default: --precision); the best, the runners-up and the "
                       "counters are played again at --precision, and every P(win) shown is of those. The "
                       "site's army pages take 0.04.")
    @_army_options
    def army(ctx, budget, kinds, search, search_precision, only, catalogs, trials, precision, seed, threads,
             rulings, fmt, output, plot):
        """The best army at a budget against the meta-game: the list a sharp player brings, by the same
        contests at equal points, with its P(win) against the field and against the meta-game's mix (95%
        intervals and trials), the best counter to it, and the runners-up; the report states how many
        armies the search played.

        Example: balance army {game} --budget 750 --precision 0.05
        """
        if not ruleset.plays_armies:  # before any work
            raise ruleset.armies_not_played()
        from reports import api

        report_progress = progress_reporter("engagements", "engagements", may_stop_early=True)
        try:
            report = api.army_report(
                ruleset.name, units=only, kinds=kinds, search=search, catalogs=catalogs,
                rulings=with_budget(ruleset, rulings, budget), seed=seed, precision=precision, trials=trials,
                threads=threads, overrides=typed_options(ctx), progress=report_progress,
                search_precision=search_precision)
        finally:
            report_progress.close()
        emit(report, fmt, output)

    army.help = inspect.cleandoc(army.help).replace("{game}", ruleset.name)
    if not ruleset.plays_armies:
        army.help = (f"Not played for {ruleset.title}: {ruleset.army_text}.\n\n"
                     + army.help.replace(" --budget 750 --precision 0.05", ""))
    elif ruleset.budget_ruling is None:  # its armies are not bought from a budget (a deck)
        army.help = army.help.replace(" --budget 750", "")
    return army
