"""`balance efficiency <ruleset>`: is every unit worth its points?"""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from reports import efficiency as eff
from reports.cli.errors import DomainError
from reports.cli.options import (
    catalog_option,
    emit,
    load_drakerys_catalog,
    mc_options,
    output_options,
    progress_reporter,
    ruling_option,
)
from reports.cli.verbs import RulesetGroup
from reports.formats import Report, Section, check_writable, render, write_text
from rulesets.base import RulesError, RulingError
from rulesets.drakerys import DrakerysRulings
from simcore import config


@click.group("efficiency", cls=RulesetGroup)
def efficiency_group():
    """Balance reports: `balance efficiency <ruleset>`."""


def efficiency_report(table: pd.DataFrame, rulings: DrakerysRulings, seed: int, precision: float | None,
                      notes: list[str], only: tuple[str, ...] = ()) -> Report:
    rank = eff.ranking(table)
    grid = eff.matrix(table)
    view = grid.map(lambda p: "" if p != p else f"{100 * p:.0f}").reset_index()
    view = view.rename(columns={"row": "unit (size)"})
    duel = table[table.metric == "duel_win"]
    how = (f"duels until the 95% half-width of P(win) is below {precision:g}" if precision
           else f"{int(duel.trials.max()):,} duels per matchup")
    meta = [
        ("ruleset", "drakerys (seed 002: unit sheets, RECRUITMENT TABLE, FIGHTING, MORALE, THE TIMEPATH)"),
        ("rows", (f"the units asked for ({', '.join(only)})" if only else "every unit with a profile")
                 + " at every recruitment size"),
        ("opponents", "every other of those units at the size on its unit sheet"),
        ("method", f"Monte Carlo, seed {seed}: {eff.FIGHT_TRIALS:,} fights per matchup and action, {how} "
                   f"({int(duel.trials.min()):,} to {int(duel.trials.max()):,}); "
                   "stderr is the standard error"),
        ("rulings", rulings.describe()),
    ]
    report_notes = [
        "duel: the row unit charges the opponent, then both fight on until one is destroyed or scatters or "
        "six rounds end; net AP = AP destroyed - AP lost",
        "ranking: averages over opponents, sorted by net AP per 100 AP; ± is the 95% interval",
        "every unit fights in melee here: shooters' Shooting actions and Heroic Action dice are not used "
        "(`balance duel drakerys A B --shoot-from CM` and --heroic-a show them)",
        *notes,
    ]
    sections = [Section("matchups", "Matchups (tidy)", table),
                Section("ranking", "Ranking", rank),
                Section("duel_win_matrix", "Duel win probability",
                        grid.reset_index().rename(columns={"row": "unit"}))]
    views = [Section("ranking", "Ranking (averaged over opponents)", eff.ranking_view(rank)),
             Section("matrix", "Duel win probability, percent (row unit charges the column unit)", view)]
    return Report("Drakerys: efficiency per Army Point", meta, sections, views, report_notes)


@efficiency_group.command("drakerys")
@click.option("--unit", "only", multiple=True, metavar="NAME",
              help="Only these units, as rows and as opponents (repeatable; default: every profiled unit).")
@click.option("--save", "save_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write efficiency.csv, efficiency.md and efficiency.png into this folder.")
@catalog_option
@mc_options
@ruling_option
@output_options
def efficiency_drakerys(only, save_dir, catalogs, trials, precision, seed, threads, rulings, fmt, output,
                        plot):
    """Every profiled unit at every size against every other: Charge and Attack fights (injuries and AP
    destroyed per activation, per TS and per 100 AP) and duels to the end (win probability to ±0.01 by
    default), with a ranking and a matchup matrix.

    Example: balance efficiency drakerys --format csv --output efficiency.csv --plot matrix.png
    """
    try:
        in_force = DrakerysRulings().with_assignments(rulings)
    except RulingError as exc:
        raise click.UsageError(str(exc)) from None
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
            for name in ("efficiency.csv", "efficiency.md", "efficiency.png"):
                check_writable(save_dir / name)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise click.BadParameter(f"cannot write into {str(save_dir)!r}: {reason}",
                                     param_hint="'--save'") from None
    catalog = load_drakerys_catalog(catalogs)
    if precision is None and trials is None:
        precision = eff.DEFAULT_PRECISION
    seed = config.DEFAULT_SEED if seed is None else seed
    try:
        table = eff.efficiency(catalog, in_force, seed=seed, precision=precision, threads=threads,
                               duel_trials=trials, only=only, progress=progress_reporter("matchups"))
    except RulesError as exc:
        raise DomainError(str(exc)) from None
    report = efficiency_report(table, in_force, seed, precision, eff.notes(catalog, only), only)
    emit(report, fmt, output)
    if plot is None and save_dir is None:
        return
    from reports.plots import plot_matrix  # matplotlib only when a plot is asked for

    if plot is not None:
        plot_matrix(eff.matrix(table), plot)
    if save_dir is not None:
        write_text(save_dir / "efficiency.csv", render(report, "csv"))
        write_text(save_dir / "efficiency.md", render(report, "markdown"))
        plot_matrix(eff.matrix(table), save_dir / "efficiency.png")
