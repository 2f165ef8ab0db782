"""What-if: a baseline and a variant (stats, costs, rulings changed) on common random numbers.

Both are played over the same field with the same seed: the engagement of keys (a, b) uses the same stream
in both, trial by trial, and the variant runs exactly as many trials as the baseline did (the baseline may
stop on ``precision``). An engagement whose two contestants play the same in both (only costs changed, or
nothing) is not simulated twice: the baseline's trials are scored at the variant's costs. So a what-if that
changes nothing gives differences of exactly 0, and a cost change re-simulates nothing.

For each contestant and metric, the difference variant - baseline is averaged over its engagements; its
standard error comes from the per-trial differences (paired), which is what makes it narrow. The
half-width two independent runs of the same size would give is reported beside it for the headline metric.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports.efficiency import (
    Averaged,
    Field,
    SideSummary,
    _labels,
    check_tolerance,
    engagement_seed,
    estimate_text,
    fair_costs,
    judged,
    label_columns,
    pairings,
    ranking,
    summarize_sides,
)
from rulesets.base import Contestant, CostChange, RulesError, Ruleset, Rulings, StatChange
from simcore.parallel import check_threads, map_ordered
from simcore.stats import Z95

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class PairedSide:
    """Per metric: mean of variant - baseline and its paired variance, and the variances of the baseline's
    and the variant's means (their sum is what two independent runs of the same size would give)."""

    diff: np.ndarray
    var_paired: np.ndarray
    var_base: np.ndarray
    var_variant: np.ndarray

    @property
    def var_independent(self) -> np.ndarray:
        return self.var_base + self.var_variant


def _paired(base, var, side: int, names: Sequence[str], base_summary: SideSummary,
            var_summary: SideSummary) -> PairedSide:
    if base.exact or var.exact:
        diff = var_summary.mean - base_summary.mean
        zero = np.zeros(len(names))
        return PairedSide(diff, zero, zero, zero)
    b, v = base.samples(), var.samples()
    d = np.vstack([v[n][side] - b[n][side] for n in names])
    n = d.shape[1]
    var_paired = d.var(axis=1, ddof=1) / n if n > 1 else np.zeros(len(names))
    return PairedSide(d.mean(axis=1), var_paired, np.diag(base_summary.cov), np.diag(var_summary.cov))


@dataclass
class WhatIf:
    """Baseline and variant fields and the paired differences of every engagement."""

    baseline: Field
    variant: Field
    paired: dict[tuple[int, int], tuple[PairedSide, PairedSide]]
    changed: list[str]
    simulated_again: int
    #: Every engagement was played (else only those the change affects: the others are identical in both,
    #: so their differences are exactly 0 and need no dice).
    whole_field: bool = True

    def engagements_of(self, i: int) -> int:
        """Engagements contestant i has in the whole field (both roles against every other)."""
        return 2 * (len(self.baseline.contestants) - 1)

    def complete(self, i: int) -> bool:
        """Whether every engagement of contestant i was played (its absolute values are known)."""
        return self.whole_field or len(self.baseline.sides(i)) == self.engagements_of(i)


def what_if(ruleset: Ruleset, catalog, rulings: Rulings, *, sets: Sequence[StatChange] = (),
            costs: Sequence[CostChange] = (), variant_rulings: Rulings | None = None,
            only: Sequence[str] = (), seed: int, precision: float | None, trials: int | None,
            threads: int | None = None, progress: Progress | None = None,
            whole_field: bool = False, tolerance: float | None = None) -> WhatIf:
    """Play the field as it is and as changed, on the same dice.

    Only the engagements the change affects are played (those of a contestant whose play changed), unless
    ``whole_field``, a cost change (ranks and the costs of the others need every engagement) or a ruling
    change (which affects every engagement) asks for all of them.
    """
    variant_rulings = variant_rulings or rulings
    changed_catalog = ruleset.variant(catalog, sets, costs)
    base_cs = ruleset.contestants(catalog, only)
    var_cs = ruleset.contestants(changed_catalog, only)
    if [c.key for c in base_cs] != [c.key for c in var_cs]:
        raise RulesError("the variant changes which contestants exist; a what-if compares the same ones")
    if len(base_cs) < 2:
        raise RulesError("a what-if needs at least two contestants")
    names = [m.name for m in ruleset.metrics]
    same_rulings = variant_rulings == rulings
    moved = {i for i, (b, v) in enumerate(zip(base_cs, var_cs, strict=True))
             if not ruleset.plays_alike(b, v, rulings)}
    whole_field = whole_field or bool(costs) or not same_rulings
    todo = [(i, j) for i, j in pairings(len(base_cs)) if whole_field or i in moved or j in moved]

    def play(pair: tuple[int, int]) -> tuple:
        """One engagement as it is and as changed (on the same seed); whether it was played again."""
        i, j = pair
        a, b = base_cs[i], base_cs[j]
        s = engagement_seed(seed, a, b)
        base = ruleset.engage(a, b, rulings, seed=s, trials=trials, precision=precision, threads=1)
        va, vb = var_cs[i], var_cs[j]
        replayed = not (ruleset.plays_alike(a, va, rulings) and ruleset.plays_alike(b, vb, rulings)
                        and same_rulings)
        if replayed:
            var = ruleset.engage(va, vb, variant_rulings, seed=s, trials=base.trials or trials, threads=1)
        else:
            var = base.recosted(va, vb)
        bs, vs = summarize_sides(base, names), summarize_sides(var, names)
        return bs, vs, tuple(_paired(base, var, side, names, bs[side], vs[side]) for side in (0, 1)), replayed

    try:
        threads = check_threads(threads)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    played = map_ordered(play, todo, threads, None if progress is None else lambda k: progress(k, len(todo)))
    base_pairs, var_pairs, paired = {}, {}, {}
    for pair, (bs, vs, sides, _) in zip(todo, played, strict=True):
        base_pairs[pair], var_pairs[pair], paired[pair] = bs, vs, sides
    again = sum(replayed for *_, replayed in played)
    if tolerance is not None:
        tolerance = check_tolerance(tolerance)
    baseline = Field(ruleset, rulings, base_cs, seed, precision, trials, base_pairs, tolerance)
    variant = Field(ruleset, variant_rulings, var_cs, seed, precision, trials, var_pairs, tolerance)
    changed = [v.key for b, v in zip(base_cs, var_cs, strict=True) if (b.play, b.cost) != (v.play, v.cost)]
    return WhatIf(baseline, variant, paired, changed, again, whole_field)


def _sides(w: WhatIf, i: int) -> list[PairedSide]:
    out = []
    for (p, q), sides in w.paired.items():
        if p == i:
            out.append(sides[0])
        elif q == i:
            out.append(sides[1])
    return out


def differences(w: WhatIf) -> pd.DataFrame:
    """Tidy: every contestant and metric: baseline, variant, difference, its 95% interval, significant."""
    names = w.baseline.names
    rs = w.baseline.ruleset
    rows = []
    for i, c in enumerate(w.baseline.contestants):
        sides = _sides(w, i)
        k = w.engagements_of(i)  # engagements not played are identical in both: their difference is 0
        known = w.complete(i)
        base_sides = [s for _, _, s in w.baseline.sides(i)]
        var_sides = [s for _, _, s in w.variant.sides(i)]
        for m, name in enumerate(names):
            diff = sum(s.diff[m] for s in sides) / k
            se = float(np.sqrt(sum(s.var_paired[m] for s in sides)) / k)
            base = sum(s.mean[m] for s in base_sides) / k if known else np.nan
            var = sum(s.mean[m] for s in var_sides) / k if known else np.nan
            rows.append(_row(c, name, base, var, diff, se))
        vc = w.variant.contestants[i]
        m = names.index(rs.primary_metric)
        diff = sum(s.diff[m] for s in sides) / k
        se = float(np.sqrt(sum(s.var_paired[m] for s in sides)) / k)
        base = sum(s.mean[m] for s in base_sides) / k if known else np.nan
        var = sum(s.mean[m] for s in var_sides) / k if known else np.nan
        base_vpc, var_vpc = rs.value_per_cost(base, c.cost), rs.value_per_cost(var, vc.cost)
        # an entry not played whole kept its cost (a cost change plays the whole field): k x difference
        vpc_diff = var_vpc - base_vpc if known else rs.value_per_cost(diff, c.cost)
        rows.append(_row(c, "value_per_cost", base_vpc, var_vpc, vpc_diff,
                         _vpc_stderr(rs, sides, m, c.cost, vc.cost, k)))
    return pd.DataFrame(rows)


def _vpc_stderr(rs: Ruleset, sides: list[PairedSide], m: int, cost: float, new_cost: float, k: int) -> float:
    """Standard error of value_per_cost(variant, new cost) - value_per_cost(baseline, cost): value per cost
    is linear in the value, k(cost) x value, so the paired difference is k' v - k b, whose variance
    k'^2 Var v + k^2 Var b - 2 k k' Cov(v, b) takes Cov from Var(v - b) = Var v + Var b - 2 Cov."""
    kb, kv = rs.value_per_cost(1.0, cost), rs.value_per_cost(1.0, new_cost)
    var = 0.0
    for s in sides:
        cov = (s.var_base[m] + s.var_variant[m] - s.var_paired[m]) / 2
        var += kv * kv * s.var_variant[m] + kb * kb * s.var_base[m] - 2 * kb * kv * cov
    return float(np.sqrt(max(var, 0.0))) / k


def _row(c: Contestant, metric: str, base: float, var: float, diff: float, se: float) -> dict:
    low, high = diff - Z95 * se, diff + Z95 * se
    return {**_labels(c), "metric": metric, "baseline": base, "variant": var, "difference": diff,
            "diff_low": low, "diff_high": high, "significant": bool(low > 0 or high < 0), "key": c.key}


def costing(w: WhatIf) -> pd.DataFrame:
    """Rank, fair cost and verdict of every contestant, before and after (with the whole field), or of the
    changed contestants only (fair cost and verdict, when the ruleset's rule needs no other contestant)."""
    if w.whole_field:
        before = ranking(w.baseline).set_index("key")
        after = ranking(w.variant).set_index("key")
    else:
        before, after = _own_costing(w.baseline), _own_costing(w.variant)
    rows = []
    for c, vc in zip(w.baseline.contestants, w.variant.contestants, strict=True):
        if c.key not in before.index:
            continue
        b, a = before.loc[c.key], after.loc[c.key]
        rows.append({**_labels(c), "cost": c.cost, "variant_cost": vc.cost, "rank": b["rank"],
                     "variant_rank": a["rank"], "fair_cost": b["fair_cost"],
                     "variant_fair_cost": a["fair_cost"], "variant_fair_cost_low": a["fair_cost_low"],
                     "variant_fair_cost_high": a["fair_cost_high"], "verdict": b["verdict"],
                     "variant_verdict": a["verdict"], "key": c.key})
    columns = [*label_columns(w.baseline.contestants), "cost", "variant_cost", "rank", "variant_rank",
               "fair_cost", "variant_fair_cost", "variant_fair_cost_low", "variant_fair_cost_high", "verdict",
               "variant_verdict", "key"]
    return pd.DataFrame(rows, columns=columns)


def _own_costing(field: Field) -> pd.DataFrame:
    """Fair cost and verdict of the contestants whose every engagement was played (rank unknown: NaN)."""
    rs = field.ruleset
    full = 2 * (len(field.contestants) - 1)
    idx = [i for i in range(len(field.contestants)) if len(field.sides(i)) == full]
    if rs.fair_cost_rule.kind != "even-trade" or not idx:
        return pd.DataFrame(columns=["rank", "fair_cost", "fair_cost_low", "fair_cost_high", "verdict"])
    fair = fair_costs(field, np.zeros(len(field.contestants)), np.zeros(len(field.contestants)), only=idx)
    zero = Averaged(0.0, 0.0)  # unused by a priced rule's verdict
    rows = {field.contestants[i].key: {"rank": np.nan, "fair_cost": fair[i].value,
                                       "fair_cost_low": fair[i].low, "fair_cost_high": fair[i].high,
                                       "verdict": judged(field, i, fair[i], zero,
                                                         rs.coverage(field.contestants[i], field.rulings))}
            for i in idx}
    return pd.DataFrame.from_dict(rows, orient="index")


def headline(w: WhatIf) -> dict[str, float | str]:
    """For the primary metric of the changed contestants (all when none): the paired 95% half-width of
    the mean difference, and the half-width two independent runs of the same size would give."""
    rs = w.baseline.ruleset
    m = w.baseline.names.index(rs.primary_metric)
    keys = w.changed or [c.key for c in w.baseline.contestants]
    idx = [i for i, c in enumerate(w.baseline.contestants) if c.key in keys]
    sides = [s for i in idx for s in _sides(w, i)]
    k = sum(w.engagements_of(i) for i in idx)
    paired = Z95 * float(np.sqrt(sum(s.var_paired[m] for s in sides))) / k
    independent = Z95 * float(np.sqrt(sum(s.var_independent[m] for s in sides))) / k
    return {"metric": rs.primary_metric, "contestants": ", ".join(keys),
            "difference": float(sum(s.diff[m] for s in sides) / k),
            "paired_half_width": paired, "independent_half_width": independent}


def _num(x: float, digits: int = 3) -> str:
    """A number for reading; a value not computed (NaN) is a dash."""
    if x != x:
        return "—"
    return "∞" if np.isinf(x) else f"{x:.{digits}f}"


def report(w: WhatIf, *, provenance: list[tuple[str, str]], change: Sequence[str],
           notes: Sequence[str] = ()):
    """The what-if Report (differences first, for CSV) and the differences table."""
    from reports.formats import Report, Section

    rs = w.baseline.ruleset
    table = differences(w)
    cost_table = costing(w)
    head = headline(w)
    low, high = w.baseline.trial_range()
    how = (f"until the 95% half-width of each baseline engagement's win probability is below "
           f"{w.baseline.precision:g}" if w.baseline.precision
           else f"{w.baseline.trials:,} trials per engagement")
    meta = [*provenance,
            ("change", "; ".join(change)),
            ("variant rulings", w.variant.rulings.describe()),
            ("method", w.baseline.method(
                f"Monte Carlo on common random numbers, seed {w.baseline.seed}: the baseline {how} "
                f"({low:,} to {high:,} trials), the variant on the same streams and trials; "
                + (f"all {len(w.paired):,} engagements simulated again"
                   if w.simulated_again == len(w.paired) else
                   f"{w.simulated_again:,} of {len(w.paired):,} engagements simulated again (the others play "
                   "the same and are re-scored)"))),
            ("headline", f"{head['metric']} of {head['contestants']}: difference {head['difference']:.3f}, "
                         f"paired 95% half-width {head['paired_half_width']:.3f}, two independent runs "
                         f"of the same size would give {head['independent_half_width']:.3f}"),
            ("engagement", rs.engagement),
            ("field", "every engagement played" if w.whole_field else
             "only the engagements the change affects (those of the changed entries); the others are "
             "identical in both, so their differences are exactly 0: differences are over every engagement, "
             "baseline and variant values (and ranks) only for entries all of whose engagements were played "
             "(--whole-field plays them all)")]
    cols = label_columns(w.baseline.contestants)
    keys = set(w.changed)
    shown = table[table.metric.isin([rs.primary_metric, rs.win_metric, "value_per_cost"])]
    shown = shown[shown.key.isin(keys) | shown.significant] if keys else shown
    shown = shown.assign(_changed=~shown.key.isin(keys)).sort_values("_changed", kind="stable")
    exact = w.baseline.exact and w.variant.exact
    if exact:  # no Monte Carlo error: the difference alone, and whether it is not 0
        diff = {"difference": [f"{d:+.6f}" for d in shown["difference"]],
                "changed": shown["significant"].map(lambda s: "yes" if s else "")}
    else:
        diff = {"difference [95%]": [f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]" for d, lo, hi in
                                     zip(shown["difference"], shown["diff_low"], shown["diff_high"],
                                         strict=True)],
                "significant": shown["significant"].map(lambda s: "yes" if s else "")}
    view = pd.DataFrame({**{c: shown[c] for c in cols}, "metric": shown["metric"],
                         "baseline": shown["baseline"].map(_num),
                         "variant": shown["variant"].map(_num), **diff})
    moved = cost_table[(cost_table["rank"] != cost_table["variant_rank"])
                       | (cost_table["verdict"] != cost_table["variant_verdict"])
                       | cost_table.key.isin(keys)]
    cost_view = pd.DataFrame({**{c: moved[c] for c in cols},
                              "cost": [f"{a:g} → {b:g}" if a != b else f"{a:g}"
                                       for a, b in zip(moved["cost"], moved["variant_cost"], strict=True)],
                              "rank": [f"{_num(a, 0)} → {_num(b, 0)}" for a, b in
                                       zip(moved["rank"], moved["variant_rank"], strict=True)],
                              "fair cost": [f"{_num(a, 0)} → {_num(b, 0)}" for a, b in
                                            zip(moved["fair_cost"], moved["variant_fair_cost"], strict=True)],
                              "verdict": [f"{a} → {b}" if a != b else a for a, b in
                                          zip(moved["verdict"], moved["variant_verdict"], strict=True)]})
    report_notes = [
        "differences are variant - baseline, averaged over each entry's engagements in both roles; "
        + ("exact: no Monte Carlo error, so every difference that is not 0 is real (changed)" if exact else
           "significant: the 95% interval excludes 0"),
        "the view shows the changed entries and every " + ("difference that is not 0" if exact else
                                                           "significant difference")
        + " of the value, value per cost and win probability; the tidy table (CSV, JSON) holds every entry "
        "and metric",
        *notes,
    ]
    sections = [Section("differences", "Differences (tidy)", table),
                Section("costing", "Rank, fair cost and verdict", cost_table)]
    costing_notes = [] if len(cost_view) else ["none: no rank or verdict moved"]
    views = [Section("differences", "Differences, variant - baseline", view),
             Section("costing", "Rank, fair cost and verdict that moved (and the changed entries)",
                     cost_view, costing_notes)]
    return Report(f"{rs.title}: what-if", meta, sections, views, report_notes, facts={"headline": head},
                  terminal=terminal(w, head, shown, moved, exact)), table


def _signed(value: float, half_width: float) -> str:
    """A difference and its 95% half-width, signed ("+0.226 ± 0.022")."""
    text = estimate_text(value, half_width)
    return text if text.startswith("-") else "+" + text


def terminal(w: WhatIf, head: dict, shown: pd.DataFrame, moved: pd.DataFrame, exact: bool):
    """The what-if as a terminal shows it: the headline difference and the verdicts that moved first, then
    the differences and the moves, each entry by its name and each row one line."""
    from reports.formats import Section, Terminal
    from reports.tables import decimals_for

    names = {c.key: c.name for c in w.baseline.contestants}
    paired, independent = head["paired_half_width"], head["independent_half_width"]
    difference = f"{head['difference']:+.6f}" if exact else _signed(head["difference"], paired)
    of = head["contestants"].split(", ")
    of = ", ".join(names.get(k, k) for k in of) if len(of) <= 3 else f"{len(of)} entries"
    lead = [f"{head['metric']} of {of}: difference {difference}"
            + ("" if exact else " (paired 95%; two independent runs of the same size: ± "
                                f"{independent:.{decimals_for(paired) or 3}f})")]

    def pairs(a: str, b: str) -> zip:
        return zip(moved[a], moved[b], strict=True)

    turned = [f"{names[k]}: {a} → {b}" for k, (a, b) in zip(moved["key"], pairs("verdict", "variant_verdict"),
                                                            strict=True) if a != b]
    lead.append("verdicts moved: " + ("; ".join(turned) if turned else "none"))
    significant = shown["significant"].map(lambda s: "yes" if s else "").tolist()
    if exact:
        diff = {"difference": [f"{d:+.6f}" for d in shown["difference"]], "changed": significant}
    else:
        bounds = zip(shown["difference"], shown["diff_low"], shown["diff_high"], strict=True)
        diff = {"difference ± 95%": [_signed(d, (hi - lo) / 2) for d, lo, hi in bounds],
                "significant": significant}
    view = pd.DataFrame({"entry": [names[k] for k in shown["key"]], "metric": shown["metric"].tolist(),
                         "baseline": shown["baseline"].map(_num).tolist(),
                         "variant": shown["variant"].map(_num).tolist(), **diff})
    cost_view = pd.DataFrame({
        "entry": [names[k] for k in moved["key"]],
        "cost": [f"{a:g} → {b:g}" if a != b else f"{a:g}" for a, b in pairs("cost", "variant_cost")],
        "rank": [f"{_num(a, 0)} → {_num(b, 0)}" for a, b in pairs("rank", "variant_rank")],
        "fair cost": [f"{_num(a, 0)} → {_num(b, 0)}" for a, b in pairs("fair_cost", "variant_fair_cost")],
        "verdict": [f"{a} → {b}" if a != b else a for a, b in pairs("verdict", "variant_verdict")]})
    views = [Section("differences", "Differences, variant - baseline", view),
             Section("costing", "Rank, fair cost and verdict that moved (and the changed entries)", cost_view,
                     [] if len(cost_view) else ["none: no rank or verdict moved"])]
    return Terminal(lead, views, ("headline",))
