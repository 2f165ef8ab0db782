"""The generic verbs, made for every game that fulfils the contract: `efficiency`, `whatif`, `sweep` and
`table <game> all`. :func:`register` builds them from a ruleset; they never name a game.

reports.api (and through it pandas, scipy and the kernels) and reports.formats (numpy) are imported when a
command runs, not when the command tree is built, so `balance --help` stays quick."""

from __future__ import annotations

import contextlib
import re
import textwrap
from pathlib import Path

import click

from reports.cli.army_cmd import army_command
from reports.cli.cluster import cluster_options
from reports.cli.options import (
    Precision,
    WholeNumber,
    budget_option,
    catalog_option,
    check_folder_empty,
    check_rulings,
    emit,
    entry_names,
    folder_option,
    mc_options_for,
    output_options,
    progress_reporter,
    ruling_option,
    typed_options,
    with_budget,
)
from reports.files import OutputSet, check_distinct
from rulesets.base import Ruleset


def _unit_option(f):
    return click.option("--unit", "only", multiple=True, metavar="NAME", callback=entry_names,
                        help="Only these entries (a unit name or key, every size; or KEY@SIZE), as rows and "
                             "as opponents (repeatable; default: the whole catalog).")(f)


def tolerance_option(f):
    """--tolerance: the band within which a fair cost (or, for a value measured against par, the value) is
    called fair."""
    return click.option(
        "--tolerance", type=click.FloatRange(min=0, max=1000), default=None, metavar="PERCENT",
        help="The band of a 'fair' verdict: the fair cost within this percent of today's cost (default 10, "
             "never narrower than the game's step of cost); for a value measured against par (Dragoborne's "
             "cards), the value within this many win-rate points (default 1). Over- and under-costed only "
             "when the whole 95% interval lies outside the band.")(f)


def _field_options(f):
    """What every verb over a field of contestants takes: --unit, --catalog, the Monte Carlo options,
    --ruling and the output options (and the click context, for the overrides a report states)."""
    engagements = mc_options_for("each simulated engagement's P(side 0 wins) (default 0.01 unless --trials "
                                 "is given; a game whose engagements are exact ignores it)",
                                 probability=True, exact=False)
    for option in (click.pass_context, output_options, ruling_option, cluster_options, engagements,
                   catalog_option, _unit_option):
        f = option(f)
    return f


def _for(command: click.Command, ruleset: Ruleset, verb: str | None = None) -> click.Command:
    """``command`` with the ruleset's name in its help's example, and the ruleset's own example arguments
    for ``verb`` (:attr:`rulesets.base.Ruleset.examples`)."""
    help_text = command.help
    if verb is not None and verb in ruleset.examples:
        head, _, example = help_text.partition(f"Example: balance {verb} {{game}} ")
        if example:
            help_text = f"{head}Example: balance {verb} {{game}} {ruleset.examples[verb]}"
    command.help = help_text.replace("{game}", ruleset.name)
    return command


def _precision(trials, precision):
    """The duel precision: --precision, else none when --trials fixes the count, else the default."""
    if precision is None and trials is None:
        from reports.efficiency import DEFAULT_PRECISION

        return DEFAULT_PRECISION
    return precision


@contextlib.contextmanager
def _output_set(folder: Path | None, option: str):
    """An OutputSet on ``folder`` (None: nothing to write), made before any work; a folder that cannot be
    made is a usage error naming ``option``."""
    if folder is None:
        yield None
        return
    with contextlib.ExitStack() as stack:
        try:
            out = stack.enter_context(OutputSet(folder))
        except OSError as exc:
            raise click.BadParameter(str(exc), param_hint=f"'{option}'") from None
        yield out


def efficiency_command(ruleset: Ruleset) -> click.Command:
    @click.command(ruleset.name)
    @folder_option("--save", "save_dir",
                   "Also write efficiency.csv (ranking), metagame.csv, matchups.csv, efficiency.md, "
                   "efficiency.json and efficiency.png (the win matrix) into this folder, all or none.")
    @click.option("--summary", is_flag=True,
                  help="Print a short summary (the method and rulings, the verdicts, the top and bottom of "
                       "the ranking, the files saved) instead of the whole report.")
    @tolerance_option
    @click.option("--budget", "budgets", type=click.IntRange(min=1), multiple=True, metavar="N",
                  help="The budget both sides of an equal-points contest spend, in the game's cost unit "
                       "(sets the game's budget ruling, e.g. DK-budget; default: the ruling's, stated in "
                       "the report). Repeatable: one ranking per budget, each entry's verdict at every one.")
    @_field_options
    def efficiency(ctx, only, save_dir, force, summary, tolerance, budgets, catalogs, trials, precision, seed,
                   threads, rulings, fmt, output, plot):
        """Every entry against every other, in both roles: value and value per cost, a ranking with a fair
        cost (95% interval) and a verdict for each, the meta-game (equilibrium mix, Nash ratings) and the
        win matrix.

        Example: balance efficiency {game} --unit crows --unit warriors --unit soldiers --format markdown
        """
        check_folder_empty(save_dir, force, "--save")
        if summary:
            _summary_alone(ctx)
        from reports import api
        from reports.files import write_with
        from reports.site import EFFICIENCY_FILES, win_matrix_drawing, write_efficiency

        budgets = tuple(dict.fromkeys(budgets))  # each budget once, in the order given
        if len(budgets) > 1:
            for flag, given in (("--save", save_dir), ("--plot", plot), ("--summary", summary or None)):
                if given is not None:
                    raise click.UsageError(f"{flag} takes one budget's report; with several --budget, give "
                                           "one budget or drop it")
            for budget in budgets:
                with_budget(ruleset, rulings, budget)  # refused before any work for a game without one
            from reports.efficiency import by_budget

            reports = [(budget, api.efficiency_report(
                ruleset.name, units=only, catalogs=catalogs, rulings=with_budget(ruleset, rulings, budget),
                seed=seed, precision=_precision(trials, precision), trials=trials, threads=threads,
                overrides=typed_options(ctx), progress=progress_reporter(f"budget {budget}", "engagements"),
                tolerance=tolerance)[0]) for budget in budgets]
            emit(by_budget(ruleset, reports), fmt, output)
            return
        rulings = with_budget(ruleset, rulings, budgets[0] if budgets else None)
        saved = [name for name, _ in EFFICIENCY_FILES]
        if save_dir is not None:  # SharedOutputError: exit 2 (main)
            check_distinct({"--output": output, "--plot": plot, "--save": [save_dir / n for n in saved]})
        # the folder is made before any work, and removed again if the run fails
        with _output_set(save_dir, "--save") as out:
            report, grid = api.efficiency_report(
                ruleset.name, units=only, catalogs=catalogs, rulings=rulings, seed=seed,
                precision=_precision(trials, precision), trials=trials, threads=threads,
                overrides=typed_options(ctx), progress=progress_reporter("engagements", "engagements"),
                plots=save_dir is not None or plot is not None, tolerance=tolerance)
            if out is not None:
                write_efficiency(ruleset, report, grid, out)
        if summary:
            click.echo(_summary(report, [save_dir / n for n in saved] if save_dir is not None else []))
        else:
            emit(report, fmt, output)
        if plot is not None:
            write_with(plot, win_matrix_drawing(ruleset, dict(report.meta).get("method", ""), grid))

    return _for(efficiency, ruleset, "efficiency")


def _summary_alone(ctx: click.Context) -> None:
    """--summary prints a few lines of text on the terminal: a --format or --output for the whole report
    beside it is a usage error (it would be ignored)."""
    for name, flag in (("fmt", "--format"), ("output", "--output")):
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError(f"--summary prints a short text summary, so {flag} "
                                   f"{ctx.params[name]} would be ignored; give one of them (--save DIR keeps "
                                   "the whole report beside the summary)")


#: Entries shown at each end of the ranking by --summary, and the width its lines are wrapped to.
SUMMARY_ENDS = 5
SUMMARY_WIDTH = 100


def _summary(report, saved: list[Path]) -> str:
    """A few lines for a terminal: what was computed and how, the verdicts, both ends of the ranking with
    fair costs, and where the whole report is."""
    from reports.efficiency import cost_digits

    meta = dict(report.meta)
    rank = report.sections[0].data
    unit = rank["cost_unit"].iloc[0] if len(rank) else ""
    d = cost_digits(rank["cost"])

    def line(row) -> str:
        f, lo, hi = row["fair_cost"], row["fair_cost_low"], row["fair_cost_high"]
        # the `zero` rule estimates no fair cost, only the side of today's cost it lies on
        fair = (("above " if hi == float("inf") else "below ") + f"{lo if hi == float('inf') else hi:g}"
                if f != f else f"{f:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]")
        off = "" if row["off_by"] != row["off_by"] else f" (off by {100 * row['off_by']:+.0f}%)"
        bound = "" if row["measured"] else "at least "
        return (f"  {int(row['rank']):>3}. {row['key']}: {row['cost']:g} {unit}, fair cost {bound}{fair} "
                f"{unit}{off}, {row['verdict']}")

    out = [report.title, f"  method: {meta.get('method', '')}", f"  rulings: {meta.get('rulings', '')}"]
    from reports.efficiency import worst_offenders

    out += [f"  {n}" for n in report.notes[:1]]  # the verdict counts
    worst = worst_offenders(rank, 3)
    if len(worst):
        def how(r) -> str:
            return "" if r["off_by"] != r["off_by"] else f" ({100 * r['off_by']:+.0f}%)"

        out.append("  worst offenders: " + "; ".join(f"{r['name']} {r['verdict']}{how(r)}"
                                                      for _, r in worst.iterrows()))
    unmeasured = rank[~rank["measured"].astype(bool)]
    if len(unmeasured):
        out.append(f"  not measured (rules the contest does not play): {', '.join(unmeasured['name'])}")
    out += [f"  {n}" for n in report.notes[1:] if n.startswith("left out")]  # entries the field lacks
    if "illustrative data" in meta:
        out.append(f"  illustrative data: {meta['illustrative data']}")
    ends = min(SUMMARY_ENDS, len(rank))
    out.append(f"top {ends} by value per {unit}:")
    out += [line(r) for _, r in rank.head(ends).iterrows()]
    if len(rank) > ends:
        out.append(f"bottom {min(ends, len(rank) - ends)}:")
        out += [line(r) for _, r in rank.tail(min(ends, len(rank) - ends)).iterrows()]
    if saved:
        out.append(f"the whole report: {', '.join(str(p) for p in saved)}")
    else:
        out.append("the whole report: run without --summary, or with --save DIR")
    return "\n".join(textwrap.fill(text, SUMMARY_WIDTH, subsequent_indent="      ", break_on_hyphens=False)
                     for text in out)


def _example(ruleset: Ruleset, verb: str, option: str) -> str | None:
    """The value of ``option`` in the ruleset's own example of ``verb`` (`--set "KEY.STAT=VALUE"`), if any."""
    found = re.search(rf'{option} "([^"]+)"', ruleset.examples.get(verb, ""))
    return found.group(1) if found else None


#: What UNIT names in --cost: a unit, or one of its entries where it has several (sizes, a formation, an X).
_ENTRY = ("a unit's name or key (its standard entry) or the key of one entry as the reports name it "
          "(UNIT@SIZE, UNIT@FORMATION, ...)")


def _set_help(ruleset: Ruleset) -> str:
    skills = ", or UNIT.skills+=SKILL / -=SKILL" if "skills" in ruleset.stats() else ""
    example = _example(ruleset, "whatif", "--set")
    return (f"Change a stat (repeatable): UNIT.STAT=VALUE{skills}"
            + (f', e.g. "{example}"' if example else "") + f". Stats: {', '.join(ruleset.stats())}.")


def _sweep_set_help(ruleset: Ruleset) -> str:
    example = _example(ruleset, "whatif", "--set")
    if example:
        head, _, value = example.partition("=")
        if value.isdigit():
            example = f"{head}={value}..{int(value) + 2}"
    return ("Sweep a stat over a range" + (f', e.g. "{example}"' if example and ".." in example else "")
            + f". Stats: {', '.join(ruleset.stats())}.")


def _sweep_cost_help(ruleset: Ruleset) -> str:
    example = _example(ruleset, "sweep", "--cost")
    return ("Sweep a cost over a range" + (f', e.g. "{example}"' if example else "")
            + f"; UNIT is {_ENTRY}.")


def whatif_command(ruleset: Ruleset) -> click.Command:
    @click.command(ruleset.name)
    @click.option("--set", "sets", multiple=True, metavar="UNIT.STAT=VALUE", help=_set_help(ruleset))
    @click.option("--cost", "costs", multiple=True, metavar="UNIT=COST",
                  help=f"Change a cost (repeatable): UNIT=COST, UNIT being {_ENTRY}.")
    @click.option("--baseline-ruling", "baseline_rulings", multiple=True, metavar="NAME=VALUE",
                  callback=check_rulings,
                  help="Rulings of the baseline (and of the variant unless --ruling changes them).")
    @click.option("--whole-field", is_flag=True,
                  help="Play every engagement, not only those the change affects: absolute values, ranks and "
                       "fair costs of every entry (a --cost or --ruling change always does).")
    @tolerance_option
    @budget_option
    @_field_options
    def whatif(ctx, sets, costs, baseline_rulings, whole_field, tolerance, budget, only, catalogs, trials,
               precision, seed, threads, rulings, fmt, output, plot):
        """Baseline against a variant with stats, costs or rulings changed, on the same dice: for every
        entry and metric the baseline, the variant and the paired difference with its 95% interval; the
        shift in rank, fair cost and verdict. --ruling here is the change (see --baseline-ruling).

        Example: balance whatif {game} --set "crows.combat=4" --cost "crows=150" --unit crows --unit warriors
        """
        from reports import api

        if not (sets or costs or rulings):
            raise click.UsageError("give at least one --set, --cost or --ruling to compare with the baseline")
        baseline_rulings = with_budget(ruleset, baseline_rulings, budget)
        report, table = api.whatif_report(
            ruleset.name, sets=sets, costs=costs, rulings=rulings, baseline_rulings=baseline_rulings,
            units=only, catalogs=catalogs, seed=seed, precision=_precision(trials, precision), trials=trials,
            threads=threads, whole_field=whole_field, overrides=typed_options(ctx),
            progress=progress_reporter("engagements", "engagements"), tolerance=tolerance)
        emit(report, fmt, output)
        if plot is not None:
            api.plot_whatif(table, plot, ruleset)

    return _for(whatif, ruleset, "whatif")


def sweep_command(ruleset: Ruleset) -> click.Command:
    @click.command(ruleset.name)
    @click.option("--set", "set_range", default=None, metavar="UNIT.STAT=LOW..HIGH[/STEP]",
                  help=_sweep_set_help(ruleset))
    @click.option("--cost", "cost_range", default=None, metavar="UNIT=LOW..HIGH[/STEP]",
                  help=_sweep_cost_help(ruleset))
    @budget_option
    @_field_options
    def sweep(ctx, set_range, cost_range, budget, only, catalogs, trials, precision, seed, threads, rulings,
              fmt, output, plot):
        """One stat or one cost over a range: the entry's value, value per cost and win probability at each
        point against the whole field, on the same dice, with intervals; for a cost, the break-even cost
        where value per cost crosses the field median.

        Example: balance sweep {game} --cost "crows=60..240/20" --plot crows.png
        """
        from reports import api

        rulings = with_budget(ruleset, rulings, budget)
        report, result = api.sweep_report(
            ruleset.name, set_range=set_range, cost_range=cost_range, units=only, catalogs=catalogs,
            rulings=rulings, seed=seed, precision=_precision(trials, precision), trials=trials,
            threads=threads, overrides=typed_options(ctx),
            progress=progress_reporter("engagements", "engagements"))
        emit(report, fmt, output)
        if plot is not None:
            api.plot_sweep(result, plot)

    return _for(sweep, ruleset, "sweep")


#: `points`' defaults as its help states them (reports.points.DEFAULT_ITERATIONS and DEFAULT_DAMPING,
#: which the command tree does not import: that module loads numpy; a test holds the two equal).
POINTS_ITERATIONS, POINTS_DAMPING = 8, 0.5


def points_command(ruleset: Ruleset) -> click.Command:
    @click.command(ruleset.name)
    @click.option("--fix", "fix", multiple=True, metavar="UNIT",
                  help="Hold this entry's cost (a designer's anchor; repeatable; a unit's name holds all its "
                       "entries).")
    @click.option("--fewest", is_flag=True,
                  help="Move only the entries called over- or under-costed (the whole 95% interval outside "
                       "the band): as few changes as the evidence demands.")
    @click.option("--iterations", type=WholeNumber(0, 100), default=POINTS_ITERATIONS, show_default=True,
                  help="The most steps of the iteration (each plays the field again at the new costs).")
    @click.option("--damping", type=click.FloatRange(min=0, max=1, min_open=True), default=POINTS_DAMPING,
                  show_default=True, metavar="D",
                  help="Each step moves a cost by D x (fair cost - cost), rounded to the game's step.")
    @click.option("--rulings", "study_rulings", is_flag=True,
                  help="Instead of the table: flip each ruling alone and show which entries' verdicts and "
                       "fair costs move (which ambiguities of the rulebook decide balance).")
    @click.option("--rule", is_flag=True,
                  help="Also fit the pricing rule: what each characteristic (stat, skill, keyword) is worth, "
                       "by least squares over the fair costs, with 95% intervals and each entry's residual.")
    @click.option("--step-precision", "step_precision", type=Precision(True), default=None, metavar="H",
                  help="Play the steps after today's field until each engagement's 95% half-width is below "
                       "H (default: --precision): a step says which way each cost moves and about how far. "
                       "Today's field and its verdicts keep --precision; the site's tables take 0.04.")
    @folder_option("--save", "save_dir",
                   "Also write points.csv, points.md, points.json and points.png (cost before and after) "
                   "into this folder, all or none.")
    @tolerance_option
    @budget_option
    @_field_options
    def points(ctx, fix, fewest, iterations, damping, study_rulings, rule, step_precision, save_dir, force,
               tolerance, budget, only, catalogs, trials, precision, seed, threads, rulings, fmt, output,
               plot):
        """The balanced points table: from today's costs, move every entry's cost toward its fair cost and
        play the equal-points contests again at the new costs, on the same dice, until every entry is fair
        within the tolerance or the iteration stops. Per entry: today's cost and verdict, the proposed cost,
        its fair cost (95% interval) and verdict there, and whether it converged; the meta-game at today's
        and at the proposed costs.

        Example: balance points {game} --unit crows --unit warriors --unit soldiers
        """
        check_folder_empty(save_dir, force, "--save")
        from reports import api
        from reports.files import write_with
        from reports.points import POINTS_FILES, draw, write

        rulings = with_budget(ruleset, rulings, budget)
        if study_rulings:
            for flag, given in (("--save", save_dir), ("--plot", plot), ("--rule", rule or None),
                                ("--fix", fix or None), ("--fewest", fewest or None),
                                ("--step-precision", step_precision)):
                if given is not None:
                    raise click.UsageError(f"--rulings studies the rulings and proposes no table, so {flag} "
                                           "would be ignored; give one of them")
            report = api.points_rulings_report(
                ruleset.name, units=only, catalogs=catalogs, rulings=rulings, seed=seed,
                precision=_precision(trials, precision), trials=trials, threads=threads, tolerance=tolerance,
                overrides=typed_options(ctx), progress=progress_reporter("engagements", "engagements"))
            emit(report, fmt, output)
            return
        if save_dir is not None:
            check_distinct({"--output": output, "--plot": plot,
                            "--save": [save_dir / n for n, _ in POINTS_FILES]})
        with _output_set(save_dir, "--save") as out:
            report, rows = api.points_report(
                ruleset.name, units=only, catalogs=catalogs, rulings=rulings, seed=seed,
                precision=_precision(trials, precision), trials=trials, threads=threads, fix=fix,
                fewest=fewest, iterations=iterations, damping=damping, tolerance=tolerance, rule=rule,
                step_precision=step_precision, overrides=typed_options(ctx),
                progress=progress_reporter("engagements", "engagements"))
            if out is not None:
                write(ruleset, report, rows, out)
        emit(report, fmt, output)
        if plot is not None:
            write_with(plot, draw(rows, ruleset))

    return _for(points, ruleset, "points")


def table_all_command(ruleset: Ruleset) -> click.Command:
    @click.command("all")
    @folder_option("--output", "folder", "Folder to write the tables into (created; written whole or not at "
                   "all).", required=True)
    @click.option("--digits", type=WholeNumber(0, 12), default=4, show_default=True,
                  help="Decimal places of probabilities in the Markdown, LaTeX and HTML tables.")
    @click.option("--percent", is_flag=True, help="Show probabilities as percentages in those tables.")
    @ruling_option
    @click.pass_context
    def table_all(ctx, folder, force, digits, percent, rulings):
        """Every standard table of the ruleset into a folder: Markdown, CSV, LaTeX and HTML of each, a PNG
        where a plot reads better, and index.html / index.md listing them with the rulings in force.

        Example: balance table {game} all --output tables/ --digits 3
        """
        check_folder_empty(folder, force, "--output")
        from reports import api

        with _output_set(folder, "--output") as out:
            api.export_tables(ruleset.name, out, rulings=rulings, digits=digits, percent=percent,
                              overrides=typed_options(ctx))
        click.echo(f"wrote {len(out.written)} files into {folder}", err=True)

    return _for(table_all, ruleset)


def register(verbs: dict[str, click.Group], ruleset: Ruleset) -> None:
    """Add the generic verbs for ``ruleset`` (a game that fulfils the contract)."""
    verbs["efficiency"].add_command(efficiency_command(ruleset))
    verbs["whatif"].add_command(whatif_command(ruleset))
    verbs["sweep"].add_command(sweep_command(ruleset))
    verbs["points"].add_command(points_command(ruleset))
    verbs["army"].add_command(army_command(ruleset))
    tables = verbs["table"].commands.get(ruleset.name)
    if tables is None:
        tables = click.Group(ruleset.name, help=f"{ruleset.title} rulebook tables, exact.")
        verbs["table"].add_command(tables)
    tables.add_command(table_all_command(ruleset))
