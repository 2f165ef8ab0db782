"""Sweep one stat or one cost of a contestant over a range, against the whole field, on common random
numbers.

The field is played once as it is (its value per cost gives the field median). Then at every point the
contestant meets every other in both roles on the same streams and with the same trials as in the
baseline: a cost point re-scores the baseline's trials (nothing is simulated again), a stat point is
simulated anew. For a cost sweep, the **break-even cost** answers the efficiency report's question with its
rule: under the ``even-trade`` and ``median`` rules it is the cost equal to its own fair cost as the
efficiency report computes it at that cost (reports.efficiency.even_trade, median_fair_costs), interpolated
between points (:func:`fair_break_even`; where a cost changes no play it is the efficiency report's fair cost
and interval exactly); under the ``zero`` rule, where the value crosses 0, interpolated
linearly between points, its 95% interval where the edges of the 95% band cross it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports.efficiency import (
    FairCost,
    Field,
    SideSummary,
    averaged,
    decimals,
    engagement_seed,
    even_trade,
    median_fair_costs,
    per_cost_is_value,
    play_field,
    plus_minus,
    ranking,
    summarize,
)
from rulesets.base import (
    CostChange,
    OptionError,
    RulesError,
    Ruleset,
    Rulings,
    StatChange,
    expand_range,
    parse_cost,
    parse_set,
)
from simcore.parallel import check_threads, map_ordered
from simcore.stats import Z95

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SweepPlan:
    """What is swept: the target as typed, the contestant it names, the parameter and its points."""

    kind: str
    target: str
    parameter: str
    points: list[str]

    def change(self, point: str) -> tuple[list[StatChange], list[CostChange]]:
        if self.kind == "cost":
            return [], [parse_cost(f"{self.target}={point}")]
        return [StatChange(self.target, self.parameter, "=", point)], []


def plan(set_text: str | None, cost_text: str | None) -> SweepPlan:
    """The sweep asked for by ``--set UNIT.STAT=LOW..HIGH[/STEP]`` or ``--cost UNIT=LOW..HIGH[/STEP]``."""
    if (set_text is None) == (cost_text is None):
        raise OptionError("give one of --set UNIT.STAT=LOW..HIGH[/STEP] or --cost UNIT=LOW..HIGH[/STEP]")
    if set_text is not None:
        change = parse_set(set_text)
        if change.op != "=":
            raise OptionError(f"--set {set_text!r}: a sweep sets a stat to each point (use =)")
        points = expand_range(change.value, f"--set {set_text!r}: range")
        if points is None:
            raise OptionError(f"--set {set_text!r}: {change.value!r} is not a range LOW..HIGH or "
                              "LOW..HIGH/STEP")
        return SweepPlan("set", change.target, change.stat, points)
    target, sep, value = cost_text.partition("=")
    if not sep or not target.strip():
        raise OptionError(f"--cost {cost_text!r} is not of the form UNIT=LOW..HIGH[/STEP]")
    points = expand_range(value, f"--cost {cost_text!r}: range")
    if points is None:
        raise OptionError(f"--cost {cost_text!r}: {value.strip()!r} is not a range LOW..HIGH or "
                          "LOW..HIGH/STEP")
    for p in points:
        parse_cost(f"{target.strip()}={p}")  # every point must be a cost > 0
    return SweepPlan("cost", target.strip().lower(), "cost", points)


@dataclass
class Sweep:
    plan: SweepPlan
    key: str
    name: str
    baseline: Field
    curve: pd.DataFrame
    field_median: float
    break_even: tuple[float, float, float] | None


def _target_index(contestants, key: str) -> int:
    for i, c in enumerate(contestants):
        if c.key == key:
            return i
    raise RulesError(f"{key} is not in the field")


def sweep(ruleset: Ruleset, catalog, rulings: Rulings, sweep_plan: SweepPlan, *, seed: int,
          precision: float | None, trials: int | None, threads: int | None = None, only: Sequence[str] = (),
          progress: Progress | None = None) -> Sweep:
    """The target's value, value per cost and win probability at every point of the plan."""
    key = ruleset.representative(catalog, sweep_plan.target)
    for point in sweep_plan.points:  # every point is checked before any work
        ruleset.variant(catalog, *sweep_plan.change(point))
    base_cs = ruleset.contestants(catalog, only)
    t = _target_index(base_cs, key)
    pairs_of_t = ([(t, j) for j in range(len(base_cs)) if j != t]
                  + [(j, t) for j in range(len(base_cs)) if j != t])
    total = len(base_cs) * (len(base_cs) - 1) + len(sweep_plan.points) * len(pairs_of_t)
    done = [0]

    def reached(base: int) -> Callable[[int], None]:
        """Progress callback of a step whose k-th finished engagement is the (base + k)-th overall."""
        def at(k: int, *_) -> None:
            done[0] = base + k
            if progress is not None:
                progress(done[0], total)
        return at

    kept: dict = {}
    baseline = play_field(ruleset, base_cs, rulings, seed=seed, precision=precision, trials=trials,
                          threads=threads, progress=reached(0), keep=lambda i, j: t in (i, j), kept=kept)
    rank = ranking(baseline)
    median = float(np.median(rank["value_per_cost"]))
    names = [m.name for m in ruleset.metrics]
    v, w = names.index(ruleset.primary_metric), names.index(ruleset.win_metric)

    def side_of(item: tuple) -> SideSummary:
        """The target's side of engagement (i, j) of contestants a, b (played again, as many trials as the
        baseline's)."""
        i, j, a, b, base_trials = item
        eng = ruleset.engage(a, b, rulings, seed=engagement_seed(seed, a, b), trials=base_trials or trials,
                             threads=1)
        return summarize(eng, 0 if i == t else 1, names)

    rows = []
    fair_at: list[FairCost] = []  # the efficiency report's fair cost at each cost point
    rule = ruleset.fair_cost_rule
    base_values = [averaged(baseline, i, ruleset.primary_metric) for i in range(len(base_cs))]
    for point in sweep_plan.points:
        cs = ruleset.contestants(ruleset.variant(catalog, *sweep_plan.change(point)), only)

        # a pair whose play is unchanged re-scores the baseline's trials here (cheap); only the others are
        # played again, each sent with no more than it needs (not the baseline's engagements)
        same = [ruleset.plays_alike(kept[i, j].a, cs[i], rulings)
                and ruleset.plays_alike(kept[i, j].b, cs[j], rulings) for i, j in pairs_of_t]
        sides = [summarize(kept[i, j].recosted(cs[i], cs[j]), 0 if i == t else 1, names) if s else None
                 for (i, j), s in zip(pairs_of_t, same, strict=True)]
        if any(same):
            reached(done[0])(sum(same))
        again = [(i, j, cs[i], cs[j], kept[i, j].trials) for (i, j), s in zip(pairs_of_t, same, strict=True)
                 if not s]

        fresh = iter(map_ordered(side_of, again, check_threads(threads), reached(done[0])))
        sides = [s if s is not None else next(fresh) for s in sides]
        k = len(sides)
        value = sum(s.mean[v] for s in sides) / k
        value_se = float(np.sqrt(sum(s.cov[v, v] for s in sides))) / k
        win = sum(s.mean[w] for s in sides) / k
        win_se = float(np.sqrt(sum(s.cov[w, w] for s in sides))) / k
        cost = cs[t].cost
        if sweep_plan.kind == "cost" and rule.kind == "even-trade":
            fair_at.append(even_trade(sides, names.index(rule.gain), names.index(rule.loss)))
        elif sweep_plan.kind == "cost" and rule.kind == "median":
            values = np.array([value if i == t else a.value for i, a in enumerate(base_values)])
            stderrs = np.array([value_se if i == t else a.stderr for i, a in enumerate(base_values)])
            costs = np.array([cost if i == t else c.cost for i, c in enumerate(base_cs)])
            fair_at.append(median_fair_costs(values, stderrs, costs, seed)[t])
        scale = ruleset.value_per_cost(1.0, cost)
        for metric, val, se in (("value", value, value_se),
                                ("value_per_cost", value * scale, abs(scale) * value_se),
                                ("win", win, win_se), ("cost", cost, 0.0)):
            rows.append({"unit": base_cs[t].name, "parameter": sweep_plan.parameter, "point": point,
                         "metric": metric, "value": float(val), "stderr": float(se)})
    curve = pd.DataFrame(rows)
    even = None
    if sweep_plan.kind == "cost":
        if rule.kind == "zero":  # par: a value of 0 at any cost
            even = break_even(curve, 0.0, "value")
        else:
            even = fair_break_even([float(p) for p in sweep_plan.points], fair_at)
    return Sweep(sweep_plan, key, base_cs[t].name, baseline, curve, median, even)


def fair_break_even(costs: Sequence[float], fair: Sequence[FairCost]) -> tuple[float, float, float] | None:
    """(cost, low, high): the cost that equals its own fair cost, where ``fair[k] - costs[k]`` turns from >= 0
    to <= 0, interpolated linearly between the two points (the ends: where the interval's ends equal the
    cost); None when the fair cost stays above or below the range swept.

    Where a cost changes no play the fair cost is one number F [L, H] at every point, and this returns it
    exactly (F - c is linear in c): the efficiency report's fair cost. Where it does (a budget buys more
    units, Order tokens paid from the same economy), it is the fixed point of cost -> fair cost.
    """
    x = np.asarray(costs, dtype=float)

    def crossing(values: np.ndarray) -> float | None:
        d = values - x
        for k in range(len(x) - 1):
            if d[k] >= 0 >= d[k + 1] and d[k] != d[k + 1]:
                return float(x[k] + (x[k + 1] - x[k]) * d[k] / (d[k] - d[k + 1]))
        hit = np.flatnonzero(d == 0)
        return float(x[hit[0]]) if hit.size else None

    mid = crossing(np.array([f.value for f in fair]))
    if mid is None:
        return None
    low = crossing(np.array([f.low for f in fair]))
    high = crossing(np.array([f.high for f in fair]))
    return mid, low if low is not None else float(x[0]), high if high is not None else float(x[-1])


def break_even(curve: pd.DataFrame, median: float, metric: str = "value_per_cost"
               ) -> tuple[float, float, float] | None:
    """(cost, low, high) where ``metric`` (value per cost) crosses ``median`` (the field median), or None when
    it does not within the range. The curve and its standard error are interpolated linearly between
    points; the interval is the span of costs whose 95% band contains the median (it ends at the range's end
    when the band does)."""
    vpc = curve[curve.metric == metric]
    x = vpc["point"].astype(float).to_numpy()
    y = vpc["value"].to_numpy() - median
    se = vpc["stderr"].to_numpy()
    mid = None
    for k in range(len(x) - 1):
        if y[k] == 0 or y[k] * y[k + 1] < 0:
            mid = float(x[k] + (x[k + 1] - x[k]) * y[k] / (y[k] - y[k + 1]))
            break
    if mid is None:
        if len(x) and y[-1] == 0:
            mid = float(x[-1])
        else:
            return None
    grid = np.linspace(x[0], x[-1], 4001)
    inside = np.abs(np.interp(grid, x, y)) <= Z95 * np.interp(grid, x, se)
    if not inside.any():  # exact (no error band): the crossing itself
        return mid, mid, mid
    return mid, float(min(mid, grid[inside].min())), float(max(mid, grid[inside].max()))


def report(result: Sweep, *, provenance: list[tuple[str, str]], notes: Sequence[str] = ()):
    """The sweep Report: the curve (tidy, for CSV) and a view with one row per point."""
    from reports.formats import Report, Section, Terminal

    rs = result.baseline.ruleset
    curve = result.curve
    exact = result.baseline.exact
    low, high = result.baseline.trial_range()
    how = (f"each engagement's win probability to a 95% half-width of {result.baseline.precision:g} in the "
           f"baseline" if result.baseline.precision else f"{result.baseline.trials:,} trials per engagement")
    meta = [*provenance,
            ("swept", f"{result.name} ({result.key}): {result.plan.parameter} over "
                      f"{', '.join(result.plan.points)}"),
            ("method", result.baseline.method(
                f"Monte Carlo on common random numbers, seed {result.baseline.seed}: {how} ({low:,} to "
                f"{high:,} trials); every point on the same streams and trials; ± is the 95% interval")),
            ("field", f"{len(result.baseline.contestants)} entries, both roles; field median of value per "
                      f"cost {result.field_median:.4f} ({rs.value_per_cost_description})")]
    facts: dict = {"field_median_value_per_cost": result.field_median}
    if result.plan.kind == "cost":
        if result.break_even is None:
            meta.append(("break-even cost", "not within the range swept: value stays on one side of 0"
                         if rs.fair_cost_rule.kind == "zero" else
                         "not within the range swept: the fair cost lies outside it"))
            facts["break_even"] = None
        else:
            mid, lo, hi = result.break_even
            where = ("where its value crosses 0" if rs.fair_cost_rule.kind == "zero"
                     else f"the cost equal to its own fair cost, {rs.fair_cost_rule.kind} rule")
            interval = "" if exact else f" [95%: {lo:.2f}, {hi:.2f}]"
            meta.append(("break-even cost", f"{mid:.2f} {rs.cost_unit}{interval} ({where})"))
            facts["break_even"] = {"cost": mid, "low": lo, "high": hi}
        if rs.fair_cost_rule.kind != "zero":
            today = ranking(result.baseline).set_index("key").loc[result.key]
            at = "" if exact else f" [95%: {today.fair_cost_low:.2f}, {today.fair_cost_high:.2f}]"
            meta.append(("fair cost at today's cost", (
                f"{today.fair_cost:.2f}{at} at "
                f"{today.cost:g} {rs.cost_unit} (the efficiency report's; it differs from the break-even "
                "cost only where a cost changes how the entry plays)")))
    wide = curve.pivot(index="point", columns="metric", values="value").reindex(result.plan.points)
    se = curve.pivot(index="point", columns="metric", values="stderr").reindex(result.plan.points)
    # decimals by the values' size, more until no 95% half-width shows as 0; exact: the values alone
    # (efficiency's rules)
    def column(metric: str, at_least: int = 0) -> list[str]:
        values, stderr = wide[metric].to_numpy(dtype=float), se[metric].to_numpy(dtype=float)
        d = max(decimals(values, None if exact else Z95 * stderr), at_least)
        return [plus_minus(v, e, d, exact) for v, e in zip(values, stderr, strict=True)]

    # a cost sweep's points are the costs: one column for both
    head = {} if result.plan.kind == "cost" else {result.plan.parameter: result.plan.points}
    columns = {"value": column("value")}
    if not per_cost_is_value(wide["value"], wide["value_per_cost"]):
        columns["value / cost"] = column("value_per_cost", 3)
    view = pd.DataFrame({**head, rs.cost_unit: [f"{c:g}" for c in wide["cost"]], **columns,
                         "win": column("win", 3)})
    # the terminal: the answer (break-even cost, fair cost today) over the curve, the rest as provenance
    answers = ("break-even cost", "fair cost at today's cost")
    lead = [f"{k}: {v}" for k, v in meta if k in answers]
    return Report(f"{rs.title}: sweep of {result.name}'s {result.plan.parameter}", meta,
                  [Section("sweep", "Sweep (tidy)", curve)], [Section("sweep", "Sweep", view)],
                  list(notes), facts=facts, terminal=Terminal(lead, None, answers))
