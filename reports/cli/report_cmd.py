"""`balance report [GAME]... --output DIR`: the whole balance report of every game as a static site
(reports.site), through reports.site.report_pages (the Python API's `report` runs the same). Names no game:
the games are the registry's implemented rulesets.

reports.site (pandas, the kernels) is imported when the command runs."""

from __future__ import annotations

import click

from reports.cli.cluster import cluster_options
from reports.cli.options import (
    WholeNumber,
    check_folder_empty,
    folder_option,
    mc_options_for,
    progress_reporter,
    ruling_option,
)


@click.command("report")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@folder_option("--output", "folder", "Folder to write the site into (created; written whole or not at all).",
               required=True)
@click.option("--digits", type=WholeNumber(0, 12), default=4, show_default=True,
              help="Decimal places of probabilities in the rulebook tables' Markdown, LaTeX and HTML.")
@click.option("--points-steps", type=WholeNumber(0, 100), default=None, metavar="N",
              help="The most steps each game's proposed points table takes (default 6; 0: the table at "
                   "today's costs, no step taken).")
@ruling_option
@cluster_options
@mc_options_for("each simulated engagement's P(side 0 wins) (default 0.02 unless --trials is given, twice "
                "`efficiency`'s 0.01: a quarter of the trials, intervals still well inside the 10% verdict "
                "band; a game whose engagements are exact ignores it)", probability=True, exact=False)
def report_command(games, folder, force, digits, points_steps, trials, precision, seed, threads, rulings):
    """The whole balance report of every game (or of the GAMEs named) as a static site: index.html and
    index.md linking one page per game with its ranking, fair costs and verdicts, meta-game, win-matrix
    heatmap, rulebook tables, rulings in force and provenance; CSVs and PNGs beside them. A --ruling goes to
    the game that has it. --scheduler or --dask runs the matchups on a Dask cluster: the same bytes.

    Example: balance report --output out/ --force
    """
    from reports import site
    from reports.cli.balance import _output_set

    chosen = site.report_games(games)
    in_force = site.split_rulings(chosen, rulings)
    check_folder_empty(folder, force, "--output")
    bars: list = []

    def started(rs) -> None:
        if bars:
            bars[-1].close()
        bars.append(progress_reporter(f"report: {rs.name}", "engagements"))

    def progress(done: int, total: int) -> None:
        bars[-1](done, total)

    with _output_set(folder, "--output") as out:
        pages = site.report_pages(chosen, out, rulings=in_force, seed=seed, precision=precision,
                                  trials=trials, threads=threads, digits=digits, progress=progress,
                                  started=started, points_steps=points_steps)
        if bars:
            bars[-1].close()
    click.echo(f"wrote {len(out.written)} files into {folder}", err=True)
    click.echo(site.summary(pages, folder))
