"""The Python API: one function per verb, returning pandas DataFrames whose ``.attrs`` state where the
numbers come from (ruleset, rulings, catalog files with their hashes, overrides, method, seed, trials,
version).

Example (a notebook)::

    from reports import api

    rank = api.efficiency("drakerys", units=["crows", "warriors", "soldiers"])  # ranking with fair costs
    rank[["unit", "size", "cost", "value", "fair_cost", "verdict"]]
    rank.attrs["method"], rank.attrs["rulings"]
    diff = api.whatif("drakerys", sets=["crows.combat=4"], units=["crows", "warriors"])
    diff[diff.metric == "net_ap_per_100ap"]
    api.sweep("drakerys", cost_range="crows=120..200/20", units=["crows", "warriors"])
    api.table("drakerys", "action")           # an exact rulebook table
    api.roll("drakerys", dice=12, threshold=7, swashbuckler=True)

Rulings are ``"NAME=VALUE"`` strings (as ``--ruling``); ``catalogs`` are user TOML files applied over the
packaged catalog. Errors are :class:`rulesets.base.RulesError` (one line naming the bad value).
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

import rulesets
from reports import efficiency as eff
from reports import metagame
from reports import sweep as sweeps
from reports import whatif as whatifs
from reports.cli.cluster import cluster
from reports.files import OutputSet, OutputSubset
from reports.formats import Report
from reports.game import GameReports
from reports.provenance import provenance
from reports.tables import Rounding
from rulesets.base import OptionError, RulesError, Ruleset, Rulings, half_width, parse_cost, parse_set
from simcore import config

DEFAULT_PRECISION = eff.DEFAULT_PRECISION
Progress = Callable[[int, int], None]


def _ruleset(name: str) -> Ruleset:
    rs = rulesets.get(name)
    if not rs.implemented:
        raise rulesets.RulesError(f"{rs.name} is not implemented yet")
    return rs


def _rulings(rs: Ruleset, rulings: Sequence[str] | Rulings | None) -> Rulings:
    if isinstance(rulings, Rulings):
        return rulings
    return rs.rulings().with_assignments(rulings or ())


def _attrs(frame: pd.DataFrame, meta: Sequence[tuple[str, str]]) -> pd.DataFrame:
    frame.attrs.update(dict(meta))
    return frame


def _seed(seed: int | None) -> int:
    return config.DEFAULT_SEED if seed is None else seed


def _field_settings(precision, trials):
    if precision is None and trials is None:
        precision = DEFAULT_PRECISION
    return precision, trials


def _with_budget(rs: Ruleset, rulings: Sequence[str] | Rulings | None, budget: int | None
                 ) -> Sequence[str] | Rulings | None:
    """``rulings`` with ``budget`` as the game's budget ruling (as ``--budget``); an OptionError before any
    work for a game whose contests are not bought from a budget."""
    if budget is None:
        return rulings
    if rs.budget_ruling is None:
        raise OptionError(f"budget {budget}: {rs.name}'s contests are not bought from a budget (accepted "
                          "only by a game with a budget ruling)")
    assignment = f"{rs.budget_ruling}={budget}"
    if isinstance(rulings, Rulings):
        return rulings.with_assignments([assignment])
    return (*(rulings or ()), assignment)


# --- efficiency ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EfficiencyTables:
    """The efficiency report as DataFrames (each with the provenance in ``.attrs``)."""

    ranking: pd.DataFrame
    metagame: pd.DataFrame
    matchups: pd.DataFrame
    win_matrix: pd.DataFrame


def _report_imports(plots: bool = False) -> None:
    """What an efficiency report needs once its engagements are played: the meta-game's
    solvers, and matplotlib when a heatmap follows (imported while the engagements run, when they run on
    other threads)."""
    metagame.load_solvers()
    if plots:
        import reports.plots  # noqa: F401


def _efficiency(name, units, catalogs, rulings, seed, precision, trials, threads, overrides, progress,
                plots=False, tolerance=None):
    rs = _ruleset(name)
    in_force = _rulings(rs, rulings)
    catalog = rs.catalog_for(rs.load_catalog(catalogs), in_force)
    contestants = rs.contestants(catalog, units)
    precision, trials = _field_settings(precision, trials)
    # pandas, the meta-game's solvers (and matplotlib) are imported while the engagements run on the
    # other threads
    field = eff.play_field(rs, contestants, in_force, seed=_seed(seed), precision=precision,
                           trials=trials, threads=threads, progress=progress,
                           meanwhile=lambda: _report_imports(plots), tolerance=tolerance)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog), overrides=overrides)
    return rs, catalog, field, meta


def efficiency(ruleset: str, *, units: Sequence[str] = (), catalogs: Sequence[Path] = (),
               rulings: Sequence[str] | Rulings | None = None, budget: int | None = None,
               seed: int | None = None, precision: float | None = None, trials: int | None = None,
               threads: int | None = None, tolerance: float | None = None, scheduler: str | None = None,
               dask: bool = False, progress: Progress | None = None) -> EfficiencyTables:
    """Every contestant against every other, both roles (`balance efficiency GAME`): the ranking (value,
    value per cost, rank, fair cost with its 95% interval, verdict), the meta-game, every engagement, the
    win matrix.

    Keywords, as the command's options: ``units`` (--unit), ``catalogs`` (--catalog), ``rulings``
    (--ruling, "NAME=VALUE"), ``budget`` (--budget: the budget both sides spend, the game's budget ruling;
    one budget a call), ``seed``, ``precision`` (the 95% half-width each engagement's win probability is
    run to, default 0.01 unless ``trials`` is given), ``trials``, ``threads``, ``tolerance`` (the verdicts'
    band in percent; default: the game's, 10% of the cost for a priced rule), ``scheduler`` (a Dask
    scheduler's address) or ``dask`` (a local Dask cluster): the same numbers; ``progress(done, total)``.
    """
    rs = _ruleset(ruleset)
    overrides = _call("efficiency", units=units, catalogs=catalogs, rulings=rulings, budget=budget, seed=seed,
                      precision=precision, trials=trials, tolerance=tolerance)
    with cluster(scheduler, dask):
        rs, catalog, field, meta = _efficiency(rs.name, units, catalogs, _with_budget(rs, rulings, budget),
                                               seed, precision, trials, threads, overrides, progress,
                                               tolerance=tolerance)
    low, high = field.trial_range()
    meta = [*meta, ("seed", str(field.seed)), ("trials", f"{low}..{high} per engagement")]
    table, _ = eff.meta_game(field)
    rank = eff.ranking(field)
    return EfficiencyTables(_attrs(rank, meta), _attrs(table, meta), _attrs(eff.matchups(field), meta),
                            _attrs(eff.win_matrix(field, list(rank["key"])), meta))


def efficiency_report(ruleset: str, *, units=(), catalogs=(), rulings=None, seed=None, precision=None,
                      trials=None, threads=None, overrides=(), progress=None, plots=False,
                      tolerance=None) -> tuple[Report, pd.DataFrame]:
    """The efficiency Report (for the command line) and its win matrix; ``plots``: a heatmap will be drawn
    (matplotlib is imported while the engagements run)."""
    rs, catalog, field, meta = _efficiency(ruleset, units, catalogs, rulings, seed, precision, trials,
                                           threads, overrides, progress, plots,
                                           tolerance=tolerance)
    return eff.report(field, provenance=meta, notes=rs.notes(catalog, field.contestants))


def win_matrix_style(ruleset: Ruleset, how: str = "") -> dict:
    """The keywords of :func:`reports.plots.plot_matrix` for a win matrix; ``how`` (seed and trials) goes
    under the title."""
    return dict(label="P(row entry wins), both roles",
                title=f"{ruleset.title}: win probability of the row entry (percent in the cells)"
                      + (f"\n{how}" if how else ""),
                cmap="RdBu", ylabel="entry (rows in ranking order)", annotate=True)


def plot_win_matrix(grid: pd.DataFrame, path: Path, ruleset: Ruleset, how: str = "") -> None:
    """The heatmap of a win matrix; ``how`` (seed and trials) goes under the title."""
    from reports.plots import plot_matrix

    plot_matrix(grid, path, **win_matrix_style(ruleset, how))


# --- what-if ---------------------------------------------------------------------------------------------


def _whatif(name, sets, costs, rulings, baseline_rulings, units, catalogs, seed, precision, trials, threads,
            overrides, progress, whole_field=False, tolerance=None):
    rs = _ruleset(name)
    if not (sets or costs or rulings):
        raise OptionError("whatif: give at least one of sets, costs or rulings (the change) to compare with "
                          "the baseline")
    base_rulings = _rulings(rs, baseline_rulings)
    changed_rulings = base_rulings.with_assignments(rulings or ())
    set_changes = [parse_set(t) for t in sets]
    cost_changes = [parse_cost(t) for t in costs]
    catalog = rs.catalog_for(rs.load_catalog(catalogs), base_rulings)
    precision, trials = _field_settings(precision, trials)
    w = whatifs.what_if(rs, catalog, base_rulings, sets=set_changes, costs=cost_changes,
                        variant_rulings=changed_rulings, only=units, seed=_seed(seed), precision=precision,
                        trials=trials, threads=threads, progress=progress, whole_field=whole_field,
                        tolerance=tolerance)
    meta = provenance(rs, base_rulings, catalog_files=rs.catalog_files(catalog), overrides=overrides)
    change = [*sets, *(f"cost {c}" for c in costs)]
    for spec in base_rulings.specs():
        was, now = getattr(base_rulings, spec.field), getattr(changed_rulings, spec.field)
        if was != now:  # a default left unset differs from the same value set (UberDrakes' pricing)
            was_text, now_text = spec.format(was), spec.format(now)
            unset = " (its default, unset)" if was_text == now_text else ""
            change.append(f"ruling {spec.key} {was_text}{unset} → {now_text}")
    return rs, catalog, w, meta, change


def whatif(ruleset: str, *, sets: Sequence[str] = (), costs: Sequence[str] = (),
           rulings: Sequence[str] | None = None, baseline_rulings: Sequence[str] | Rulings | None = None,
           budget: int | None = None, units: Sequence[str] = (), catalogs: Sequence[Path] = (),
           seed: int | None = None, precision: float | None = None, trials: int | None = None,
           threads: int | None = None, whole_field: bool = False, tolerance: float | None = None,
           scheduler: str | None = None, dask: bool = False,
           progress: Progress | None = None) -> pd.DataFrame:
    """The baseline against a variant on the same dice (`balance whatif GAME`): one row per contestant and
    metric with baseline, variant, difference, diff_low, diff_high (95%) and significant.
    ``.attrs["costing"]`` holds the shift in rank, fair cost and verdict; ``.attrs["headline"]`` the paired
    and independent half-widths.

    Keywords, as the command's options. The change (at least one): ``sets`` (--set, "crows.combat=4"),
    ``costs`` (--cost, "crows=150"), ``rulings`` (--ruling, "NAME=VALUE": the variant's rulings, the
    change). The baseline: ``baseline_rulings`` (--baseline-ruling: the baseline's rulings, and the
    variant's unless ``rulings`` changes them), ``budget`` (--budget, the game's budget ruling). Then
    ``units``, ``catalogs``, ``seed``, ``precision``, ``trials``, ``threads``, ``whole_field`` (play every
    engagement, not only those the change affects), ``tolerance``, ``scheduler`` or ``dask`` (a Dask
    cluster: the same numbers), ``progress``."""
    rs = _ruleset(ruleset)
    overrides = _call("whatif", sets=sets, costs=costs, rulings=rulings, baseline_rulings=baseline_rulings,
                      budget=budget, units=units, catalogs=catalogs, seed=seed, precision=precision,
                      trials=trials, tolerance=tolerance)
    with cluster(scheduler, dask):
        rs, catalog, w, meta, change = _whatif(rs.name, sets, costs, rulings,
                                               _with_budget(rs, baseline_rulings, budget), units, catalogs,
                                               seed, precision, trials, threads, overrides, progress,
                                               whole_field, tolerance)
    table = _attrs(whatifs.differences(w), [*meta, ("change", "; ".join(change)),
                                            ("seed", str(w.baseline.seed))])
    table.attrs["costing"] = whatifs.costing(w).to_dict("records")
    table.attrs["headline"] = whatifs.headline(w)
    return table


def whatif_report(ruleset: str, *, sets=(), costs=(), rulings=None, baseline_rulings=None, units=(),
                  catalogs=(), seed=None, precision=None, trials=None, threads=None, whole_field=False,
                  overrides=(), progress=None, tolerance=None) -> tuple[Report, pd.DataFrame]:
    """The what-if Report (for the command line) and its table; ``rulings`` are the change,
    ``baseline_rulings`` the baseline's, as in :func:`whatif`."""
    rs, catalog, w, meta, change = _whatif(ruleset, sets, costs, rulings, baseline_rulings, units, catalogs,
                                           seed, precision, trials, threads, overrides, progress, whole_field,
                                           tolerance)
    return whatifs.report(w, provenance=meta, change=change, notes=rs.notes(catalog, w.baseline.contestants))


def plot_whatif(table: pd.DataFrame, path: Path, ruleset: Ruleset) -> None:
    from reports.plots import plot_differences

    rows = table[table.metric == ruleset.primary_metric]
    plot_differences(rows, path,
                     title=f"{ruleset.title}: what-if, {ruleset.primary_metric} (variant - baseline)")


# --- sweep -----------------------------------------------------------------------------------------------


def _sweep(name, set_range, cost_range, units, catalogs, rulings, seed, precision, trials, threads, progress):
    rs = _ruleset(name)
    in_force = _rulings(rs, rulings)
    sweep_plan = sweeps.plan(set_range, cost_range)
    catalog = rs.catalog_for(rs.load_catalog(catalogs), in_force)
    precision, trials = _field_settings(precision, trials)
    result = sweeps.sweep(rs, catalog, in_force, sweep_plan, seed=_seed(seed), precision=precision,
                          trials=trials, threads=threads, only=units, progress=progress)
    return rs, catalog, in_force, result


def sweep(ruleset: str, *, set_range: str | None = None, cost_range: str | None = None,
          units: Sequence[str] = (), catalogs: Sequence[Path] = (),
          rulings: Sequence[str] | Rulings | None = None, budget: int | None = None,
          seed: int | None = None, precision: float | None = None, trials: int | None = None,
          threads: int | None = None, scheduler: str | None = None, dask: bool = False,
          progress: Progress | None = None) -> pd.DataFrame:
    """A stat or a cost over a range (`balance sweep GAME`): tidy rows unit, parameter, point, metric (value,
    value_per_cost, win, cost), value, stderr. ``.attrs["break_even"]`` holds (cost, low, high) for a cost
    sweep (None when not crossed).

    Keywords, as the command's options: ``set_range`` (--set, "crows.combat=2..6") or ``cost_range``
    (--cost, "crows=60..240/20"), ``units``, ``catalogs``, ``rulings``, ``budget`` (the game's budget
    ruling), ``seed``, ``precision``, ``trials``, ``threads``, ``scheduler`` or ``dask`` (a Dask cluster:
    the same numbers), ``progress``."""
    rs = _ruleset(ruleset)
    in_rulings = _with_budget(rs, rulings, budget)
    with cluster(scheduler, dask):
        rs, catalog, in_force, result = _sweep(rs.name, set_range, cost_range, units, catalogs, in_rulings,
                                               seed, precision, trials, threads, progress)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog),
                      overrides=_call("sweep", set_range=set_range, cost_range=cost_range, units=units,
                                      catalogs=catalogs, rulings=rulings, budget=budget, seed=seed,
                                      precision=precision, trials=trials))
    table = _attrs(result.curve.copy(), [*meta, ("field_median", str(result.field_median))])
    table.attrs["break_even"] = result.break_even
    return table


def sweep_report(ruleset: str, *, set_range=None, cost_range=None, units=(), catalogs=(), rulings=None,
                 seed=None, precision=None, trials=None, threads=None, overrides=(), progress=None):
    rs, catalog, in_force, result = _sweep(ruleset, set_range, cost_range, units, catalogs, rulings, seed,
                                           precision, trials, threads, progress)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog), overrides=overrides)
    return sweeps.report(result, provenance=meta,
                         notes=rs.notes(catalog, result.baseline.contestants)), result


def plot_sweep(result, path: Path) -> None:
    from reports.plots import plot_sweep as draw

    draw(result, path)


# --- points ----------------------------------------------------------------------------------------------


def _coarse_precision(value, precision, what: str) -> float | None:
    """``value``, the half-width of a coarser pass (a points run's steps, ``what`` "step precision"; an
    army search's screen, "search precision"), checked (:func:`rulesets.base.half_width`, as --precision),
    for a run stopped by a precision (with trials alone every engagement's count is fixed, so it would be
    ignored); an OptionError (a usage error) otherwise."""
    if value is None:
        return None
    try:
        if isinstance(value, str):  # the API takes numbers; text is the command line's
            raise ValueError("is not a number")
        number = half_width(value)
    except ValueError as exc:
        raise OptionError(f"{what} {value!r} {exc}") from None
    if precision is None:
        raise OptionError(f"{what} {number:g}: the run has trials and no precision, so every "
                          f"engagement's trials are fixed; give a precision too, or no {what}")
    return number


def _points(name, units, catalogs, rulings, seed, precision, trials, threads, fix, fewest, iterations,
            damping, tolerance, progress, rule=False, step_precision=None):
    from reports import points as pts

    rs = _ruleset(name)
    if rule and type(rs).price_features is Ruleset.price_features:
        raise rulesets.RulesError(f"{rs.name} offers no pricing rule (--rule): its entries name no "
                                  "characteristics to fit costs on")
    precision, trials = _field_settings(precision, trials)
    step_precision = _coarse_precision(step_precision, precision, "step precision")
    in_force = _rulings(rs, rulings)
    catalog = rs.catalog_for(rs.load_catalog(catalogs), in_force)
    result = pts.propose(rs, catalog, in_force, only=units, seed=_seed(seed), precision=precision,
                         trials=trials, threads=threads, tolerance=tolerance, fix=fix, damping=damping,
                         iterations=iterations, fewest=fewest, progress=progress,
                         meanwhile=lambda: _report_imports(False), step_precision=step_precision)
    return rs, catalog, in_force, result


def points(ruleset: str, *, units: Sequence[str] = (), catalogs: Sequence[Path] = (),
           rulings: Sequence[str] | Rulings | None = None, budget: int | None = None,
           seed: int | None = None, precision: float | None = None, trials: int | None = None,
           threads: int | None = None, fix: Sequence[str] = (), fewest: bool = False,
           iterations: int | None = None, damping: float | None = None, tolerance: float | None = None,
           rule: bool = False, step_precision: float | None = None, scheduler: str | None = None,
           dask: bool = False, progress: Progress | None = None) -> pd.DataFrame:
    """The balanced points table (`balance points GAME`): from today's costs, each entry's cost moved toward
    its fair cost and the equal-points contests played again at the new costs (same dice) until every
    entry is fair within ``tolerance`` or the iteration stops (``iterations`` steps at most, each moving a
    cost by ``damping`` x (fair - cost), on the game's step of cost).

    Keywords, as the command's options: ``units``, ``catalogs``, ``rulings``, ``budget`` (the game's budget
    ruling), ``seed``, ``precision``, ``trials``, ``threads``, ``fix`` (entries whose cost is held),
    ``fewest`` (move only the entries called over- or under-costed), ``iterations``, ``damping``,
    ``tolerance``, ``rule`` (also fit the pricing rule: ``.attrs["rule"]`` holds its tables, "rule" and
    "rule_residuals", or ``.attrs["rule_note"]`` why it was not fitted), ``step_precision`` (the 95%
    half-width the steps after today's field are played to; default ``precision``; the site's tables take
    0.04), ``scheduler`` or ``dask`` (a Dask cluster: the same numbers), ``progress``. `balance points GAME
    --rulings` is :func:`points_rulings`.

    Returns one row per entry: cost, verdict_today, proposed_cost, moved, fair_cost (with _low, _high at the
    proposed costs), off_by, verdict, converged, status. ``.attrs`` holds the provenance, ``stop`` (why the
    iteration stopped), ``steps`` (every step's costs) and ``engagements_played``.
    """
    from reports import points as pts

    rs = _ruleset(ruleset)
    in_rulings = _with_budget(rs, rulings, budget)
    with cluster(scheduler, dask):
        rs, catalog, in_force, result = _points(
            rs.name, units, catalogs, in_rulings, seed, precision, trials, threads, fix, fewest,
            pts.DEFAULT_ITERATIONS if iterations is None else iterations,
            pts.DEFAULT_DAMPING if damping is None else damping, tolerance, progress, rule, step_precision)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog),
                      overrides=_call("points", units=units, catalogs=catalogs, rulings=rulings,
                                      budget=budget, seed=seed, fewest=fewest or None, precision=precision,
                                      trials=trials, fix=fix, iterations=iterations, damping=damping,
                                      tolerance=tolerance, rule=rule or None, step_precision=step_precision))
    table = _attrs(pts.table(result), [*meta, ("seed", str(result.seed)), ("stop", result.stop)])
    table.attrs["steps"] = pts.history(result)
    table.attrs["engagements_played"] = result.engagements_played
    if rule:
        try:
            fit = pts.pricing_rule(result)
        except RulesError as exc:
            table.attrs["rule_note"] = f"pricing rule: not fitted: {exc}"
        else:
            tidy, _, _ = pts.rule_sections(result, fit)
            table.attrs["rule"] = {s.name: s.data for s in tidy}
    return table


def points_report(ruleset: str, *, units=(), catalogs=(), rulings=None, seed=None, precision=None,
                  trials=None, threads=None, fix=(), fewest=False, iterations=None, damping=None,
                  tolerance=None, rule=False, step_precision=None, overrides=(),
                  progress=None) -> tuple[Report, pd.DataFrame]:
    """The points Report (for the command line) and its table; ``rule``: with the pricing rule."""
    from reports import points as pts

    rs, catalog, in_force, result = _points(
        ruleset, units, catalogs, rulings, seed, precision, trials, threads, fix, fewest,
        pts.DEFAULT_ITERATIONS if iterations is None else iterations,
        pts.DEFAULT_DAMPING if damping is None else damping, tolerance, progress, rule, step_precision)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog), overrides=overrides)
    return pts.report(result, provenance=meta, notes=rs.notes(catalog, result.contestants), rule=rule)


def points_rulings_report(ruleset: str, *, units=(), catalogs=(), rulings=None, seed=None, precision=None,
                          trials=None, threads=None, tolerance=None, overrides=(), progress=None) -> Report:
    """Which rulings decide balance (``balance points GAME --rulings``): each ruling flipped alone, the
    entries' verdicts and fair costs at today's costs against the baseline's."""
    from reports import points as pts

    rs = _ruleset(ruleset)
    in_force = _rulings(rs, rulings)
    loaded = rs.load_catalog(catalogs)
    precision, trials = _field_settings(precision, trials)
    study = pts.rulings_study(rs, lambda reading: rs.catalog_for(loaded, reading), in_force, only=units,
                              seed=_seed(seed), precision=precision, trials=trials, threads=threads,
                              tolerance=tolerance, progress=progress)
    catalog = rs.catalog_for(loaded, in_force)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog), overrides=overrides)
    return pts.rulings_report(study, rs, provenance=meta, notes=rs.notes(catalog, study.baseline.contestants))


def points_rulings(ruleset: str, *, units: Sequence[str] = (), catalogs: Sequence[Path] = (),
                   rulings: Sequence[str] | Rulings | None = None, budget: int | None = None,
                   seed: int | None = None, precision: float | None = None, trials: int | None = None,
                   threads: int | None = None, tolerance: float | None = None, scheduler: str | None = None,
                   dask: bool = False, progress: Progress | None = None) -> pd.DataFrame:
    """Which rulings decide balance (`balance points GAME --rulings`): each ruling flipped alone, the
    entries' verdicts and fair costs at today's costs against the baseline's; the other tables in
    ``.attrs["sections"]``. Keywords as :func:`points`' (those that apply)."""
    rs = _ruleset(ruleset)
    in_rulings = _with_budget(rs, rulings, budget)
    with cluster(scheduler, dask):
        report = points_rulings_report(
            rs.name, units=units, catalogs=catalogs, rulings=in_rulings, seed=seed, precision=precision,
            trials=trials, threads=threads, tolerance=tolerance, progress=progress,
            overrides=_call("points_rulings", units=units, catalogs=catalogs, rulings=rulings, budget=budget,
                            seed=seed, precision=precision, trials=trials, tolerance=tolerance))
    return _frame(report, [("ruleset", rs.name)])


def efficiency_and_points_reports(ruleset: str, *, rulings=None, seed=None, precision=None, trials=None,
                                  threads=None, progress=None, iterations=None, step_precision=None
                                  ) -> tuple[Report, pd.DataFrame, Report, pd.DataFrame, eff.Field]:
    """The efficiency report (with its win matrix) and the points report of the whole catalog, from one
    points run: the efficiency report is its first step, today's costs (the site's game pages), and its
    field (which an army search at the same settings takes its engagements from). The pricing rule is
    fitted when the game offers one."""
    from reports import points as pts

    rs = _ruleset(ruleset)
    in_force = _rulings(rs, rulings)
    catalog = rs.catalog_for(rs.load_catalog(()), in_force)
    precision, trials = _field_settings(precision, trials)
    result = pts.propose(rs, catalog, in_force, seed=_seed(seed), precision=precision, trials=trials,
                         threads=threads, progress=progress,
                         iterations=pts.DEFAULT_ITERATIONS if iterations is None else iterations,
                         meanwhile=lambda: _report_imports(False), step_precision=step_precision)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog))
    notes = rs.notes(catalog, result.contestants)
    report, grid = eff.report(result.full.field, provenance=meta, notes=notes)
    rule = type(rs).price_features is not Ruleset.price_features
    points_report, rows = pts.report(result, provenance=meta, notes=notes, rule=rule)
    return report, grid, points_report, rows, result.full.field


# --- tables, rolls, duels, units (the game's own reports) ------------------------------------------------


def _game(name: str) -> GameReports:
    """The reports side of game ``name`` (its plug-in's ``api``, :class:`reports.game.GameReports`); a
    RulesError for a game that has none (a plug-in with the generic verbs alone)."""
    rs = _ruleset(name)
    side = rulesets.game(rs.name).load_api()
    if side is None:
        raise rulesets.RulesError(f"{rs.name} has no reports side of its own (no tables, rolls, duels or "
                                  "catalog listing): its plug-in gives the generic verbs only")
    return side


def table(ruleset: str, name: str, *, rulings: Sequence[str] | Rulings | None = None) -> pd.DataFrame:
    """One standard rulebook table of the ruleset (``Ruleset.tables()`` names them), exact, tidy."""
    rs = _ruleset(ruleset)
    report = table_report(ruleset, name, rulings=rulings)
    return _frame(report, provenance(rs, _rulings(rs, rulings)))


def table_report(ruleset: str, name: str, *, rulings=None) -> Report:
    rs = _ruleset(ruleset)
    tables = rs.tables()
    if name not in tables:
        raise rulesets.RulesError(f"{rs.name} has no table {name!r}; it has: {', '.join(tables)}")
    in_force = _rulings(rs, rulings)
    return _game(ruleset).table_report(name, tables[name].compute(in_force), Rounding())


def export_tables(ruleset: str, folder: Path | OutputSet | OutputSubset, *, rulings=None, digits: int = 4,
                  percent: bool = False, overrides: Sequence[str] = ()) -> list[Path]:
    """Write every standard table into ``folder`` (see :mod:`reports.exports`), whole or not at all; returns
    the files written (none yet when ``folder`` is an OutputSet still open: they are written when it ends).
    """
    from reports import exports

    rs = _ruleset(ruleset)
    in_force = _rulings(rs, rulings)
    game = _game(ruleset)
    data = {name: spec.compute(in_force) for name, spec in rs.tables().items()}
    reports_ = {name: game.table_report(name, d, Rounding(digits, percent)) for name, d in data.items()}
    plots = {name: (lambda path, name=name: game.table_plot(name, data[name], path))
             for name in data if game.has_plot(name)}
    if not isinstance(folder, str | Path):  # an OutputSet (or part of one) still open
        exports.export(rs, in_force, reports_, folder, digits=digits, percent=percent, overrides=overrides,
                       plots=plots)
        return []
    with OutputSet(folder) as out:
        exports.export(rs, in_force, reports_, out, digits=digits, percent=percent, overrides=overrides,
                       plots=plots)
    return list(out.written)


def _checked(function: Callable, options: dict, what: str) -> dict:
    """``options`` if ``function`` takes each of them and every keyword it requires is there; an OptionError
    naming the unknown or missing ones and the accepted ones otherwise (one line)."""
    parameters = inspect.signature(function).parameters
    accepted = [n for n, p in parameters.items() if p.kind == p.KEYWORD_ONLY]
    unknown = [k for k in options if k not in accepted]
    if unknown:
        close = [m for k in unknown for m in difflib.get_close_matches(k, accepted, n=1)]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        plural = "s" if len(unknown) > 1 else ""
        raise OptionError(f"{what}: unknown option{plural} {', '.join(map(repr, unknown))}{hint}; accepted: "
                          f"{', '.join(accepted)}")
    missing = [n for n, p in parameters.items()
               if p.kind == p.KEYWORD_ONLY and p.default is p.empty and n not in options]
    if missing:
        raise OptionError(f"{what}: give {', '.join(missing)}; accepted: {', '.join(accepted)}")
    return options


def roll_kinds(ruleset: str) -> dict[str, list[str]]:
    """Every kind of roll of ``ruleset`` (the default first) and the options each takes."""
    rolls = _game(ruleset).ROLLS
    return {kind: list(inspect.signature(f).parameters) for kind, f in rolls.items()}


def roll(ruleset: str, kind: str | None = None, **options) -> pd.DataFrame:
    """The distribution of one roll, any kind `balance roll <ruleset>` has, with the command's options as
    keywords named the same (the arguments A and B as ``a`` and ``b``; a repeatable option in the plural,
    e.g. ``rulings``, ``catalogs``, ``conditions``): its first table, the others in ``.attrs["sections"]``.
    ``kind`` defaults to the game's first. Exact unless ``trials``, ``seed`` or ``precision`` asks for a
    simulation (where the command offers one). An unknown or missing option is an OptionError naming the
    accepted ones; :func:`roll_kinds` lists them too. The kinds and their options:

    drakerys
      action: dice; threshold, or action and opposition; heroic, swashbuckler, rerolls, crits, show,
        rulings, trials, seed, precision, threads
      fight: a, b; charge; size_a, ap_a, stress_a, injuries_a, heroic_a, rerolls_a, authority_a, allies_a,
        guard_a, no_blocking_a and the same with _b; catalogs, rulings, trials, seed, precision, threads
      shoot: a (the shooter), b (the target), distance; size_a, ap_a, stress_a, injuries_a, heroic_a,
        authority_a, obstacles_a, guard_a and the same with _b; catalogs, rulings, trials, seed, precision,
        threads
      spell: level; distance, sources, vortexes, maelstroms, mana, cost, heroic, tiers, resistance, show,
        rulings, trials, seed, precision, threads
      invocation: extra_dice, source
    dragonbond
      pool: dice; up, down, sharp, defense, rulings
      attack: dice; models, ranged, charge, up, down, fatigue_beside, injuries, sharp, defense, defense_die,
        defense_up, defense_down, target_fatigue_beside, engaged_enemies, flying, target_injuries, health,
        target_models, captain_health, also_engaged, rulings, trials, seed, precision, threads
      face-off: players, rulings
      charge: speed; fatigue_beside, rulings
      damage: tokens; fatigue_beside, rulings
    warbound
      attack: dice, target; aim, formation, modifier, armor_points, armor_value, broken, health, wounds,
        morale, stress, panicked, add_wounds, rulings, trials, seed, precision, threads
    uberdrakes
      rolloff: rage, vs_rage, bonus, vs_bonus, elemental, vs_elemental, mountain, vs_mountain, fatigued,
        vs_fatigued, camouflage, sandstorm, vs_sandstorm, supercharge, vs_supercharge, rage_potions,
        vs_rage_potions, rulings
    dragoborne
      condition: dice; color and range, conditions, assigned, rulings
      shield: atk; shields, turns, per_turn, rulings
      assign: forts, their_forts; mine, theirs, lost, their_dice, top, catalogs, rulings

    A game added as a plug-in lists its own in its ``ROLLS`` (:class:`reports.game.GameReports`).
    """
    rolls = _game(ruleset).ROLLS
    chosen = next(iter(rolls)) if kind is None else kind
    if chosen not in rolls:
        raise OptionError(f"unknown kind of roll {chosen!r} for {_ruleset(ruleset).name}; accepted: "
                          f"{', '.join(rolls)}")
    function = rolls[chosen]
    return _frame(function(**_checked(function, options, f"roll {_ruleset(ruleset).name} {chosen}")))


def duel(ruleset: str, a: str, b: str, **options) -> pd.DataFrame:
    """An engagement fought to the end between ``a`` and ``b`` (`balance duel <ruleset> A B`), with the
    game's options as keywords named as the command's (an unknown one is an OptionError naming the accepted
    ones; ``help`` of the game's ``duel`` in ``reports.<game>.api`` says what each does):

    drakerys
      shoot_from, start, rounds; size_a, ap_a, stress_a, injuries_a, heroic_a, rerolls_a, authority_a,
      allies_a, obstacles_a, guard_a, no_blocking_a and the same with _b; catalogs, rulings, trials, seed,
      precision, threads
    dragonbond
      policy_a, policy_b, rounds, rulings, catalogs, trials, seed, precision, threads
    warbound
      leader_a, leader_b, distance, range, no_panic, rulings, catalogs, trials, seed, precision, threads
    uberdrakes (``a`` and ``b`` the dragons, --dragon and --vs-dragon)
      magic, lances, shields, potions, rage, bonus (each also vs_...), ranged, roosted, spells, vs_spells,
      rulings, catalogs
    dragoborne (``a`` and ``b`` the decks)
      lenient, mulligan, compare_mulligans, rulings, catalogs, trials, seed, precision, threads

    Each also takes ``progress(done, total)`` where it simulates."""
    game = _game(ruleset)
    return _frame(game.duel(a, b, **_checked(game.duel, options, f"duel {_ruleset(ruleset).name}")))


def units(ruleset: str, **options) -> pd.DataFrame:
    """The ruleset's catalog as a table (`balance units <ruleset>`), with the command's options as keywords
    (an unknown one is an OptionError naming the accepted ones): ``catalogs`` for every game; ``profiled``
    for Drakerys; ``deck`` for Warbound (a TOML file with a [deck] table, checked against the deck-building
    limits) and Dragoborne (a deck of the catalog, checked against the deck regulations, with ``lenient``)."""
    game = _game(ruleset)
    return _frame(game.units(**_checked(game.units, options, f"units {_ruleset(ruleset).name}")))


def _frame(report: Report, extra: Sequence[tuple[str, str]] = ()) -> pd.DataFrame:
    """A report's first table, with its meta (and the other tables' names) in ``.attrs``."""
    frame = report.sections[0].data.copy()
    frame.attrs.update({"title": report.title, **dict(report.meta), **dict(extra)})
    frame.attrs["notes"] = list(report.notes)
    frame.attrs["sections"] = {s.name: s.data for s in report.sections[1:]}
    return frame


def _call(verb: str, **kwargs) -> list[str]:
    """The arguments of an API call that differ from their defaults, as the overrides of its provenance."""
    return [f"{verb}({k}={v!r})" for k, v in kwargs.items() if v not in (None, (), [], "")]


__all__ = ["EfficiencyTables", "army", "duel", "efficiency", "export_tables", "points", "points_rulings",
           "roll", "roll_kinds", "sweep", "table", "units", "whatif"]


# --- army ------------------------------------------------------------------------------------------------


def _army(name, budget, units, kinds, search, catalogs, rulings, seed, precision, trials, threads, progress,
          played=None, search_precision=None):
    from reports import army as armies

    rs = _ruleset(name)
    if not rs.plays_armies:  # before any work
        raise rs.armies_not_played()
    in_force = _rulings(rs, rulings)
    if budget is not None:
        if rs.budget_ruling is None:
            raise rulesets.RulesError(f"{rs.name}'s contests are not bought from a budget")
        in_force = in_force.with_assignments([f"{rs.budget_ruling}={budget}"])
    catalog = rs.catalog_for(rs.load_catalog(catalogs), in_force)
    entries = rs.contestants(catalog, units)
    precision, trials = _field_settings(precision, trials)
    search_precision = _coarse_precision(search_precision, precision, "search precision")
    result = armies.choose(rs, in_force, entries, kinds=kinds,
                           search_limit=armies.DEFAULT_SEARCH if search is None else search,
                           seed=_seed(seed), precision=precision, trials=trials, threads=threads,
                           progress=progress, played=played, search_precision=search_precision)
    return rs, catalog, in_force, result


def army(ruleset: str, *, budget: int | None = None, units: Sequence[str] = (), kinds: int | None = None,
         search: int | None = None, catalogs: Sequence[Path] = (),
         rulings: Sequence[str] | Rulings | None = None, seed: int | None = None,
         precision: float | None = None, trials: int | None = None, threads: int | None = None,
         scheduler: str | None = None, dask: bool = False, progress: Progress | None = None,
         search_precision: float | None = None):
    """The best army at ``budget`` (default: the game's budget ruling) against the meta-game of ``units``
    (default: every entry), with at most ``kinds`` entries (3, or the game's own limit), by a search
    playing at most ``search`` armies (100): :class:`reports.army.ArmyTables` of DataFrames, ``armies``
    (the best, the runners-up and the counters: cost, unspent, P(win) against the mix, the field and the
    best army with 95% intervals), ``lists`` (their units) and ``field`` (each entry's army, its share of
    the mix, the best army's P(win) against it), each with the provenance, the search and the counts of
    armies and engagements played in ``.attrs``. A game that plays no army raises RulesError before any work.

    Keywords, as `balance army GAME`'s options: ``budget``, ``units``, ``kinds``, ``search``, ``catalogs``,
    ``rulings``, ``seed``, ``precision``, ``trials``, ``threads``, ``scheduler`` or ``dask`` (a Dask
    cluster: the same numbers), ``progress``, ``search_precision`` (the searches screen armies at this
    half-width; the armies returned are played again at ``precision``)."""
    from reports import army as armies

    with cluster(scheduler, dask):
        rs, catalog, in_force, result = _army(ruleset, budget, units, kinds, search, catalogs, rulings, seed,
                                              precision, trials, threads, progress,
                                              search_precision=search_precision)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog),
                      overrides=_call("army", budget=budget, units=units, kinds=kinds, search=search,
                                      catalogs=catalogs, rulings=rulings, seed=seed, precision=precision,
                                      trials=trials, search_precision=search_precision))
    low, high = result.trial_range
    meta = [*meta, ("seed", str(result.seed)), ("trials", f"{low}..{high} per engagement"),
            ("search", result.best_search.text), ("counter search", result.counter_search.text),
            ("armies_played", str(result.best_search.played)),
            ("engagements_played", str(result.engagements))]
    t = armies.tables(result)
    return armies.ArmyTables(_attrs(t.armies, meta), _attrs(t.lists, meta), _attrs(t.field, meta))


def army_report(ruleset: str, *, budget=None, units=(), kinds=None, search=None, catalogs=(), rulings=None,
                seed=None, precision=None, trials=None, threads=None, overrides=(), progress=None,
                played=None, search_precision=None) -> Report:
    """The army Report (for the command line; ``played``: a field already played, as
    :func:`reports.army.choose` takes it; ``search_precision`` as :func:`army` takes it)."""
    from reports import army as armies

    rs, catalog, in_force, result = _army(ruleset, budget, units, kinds, search, catalogs, rulings, seed,
                                          precision, trials, threads, progress, played, search_precision)
    meta = provenance(rs, in_force, catalog_files=rs.catalog_files(catalog), overrides=overrides)
    return armies.report(result, provenance=meta, notes=rs.notes(catalog, result.entries))
