"""Reports (tidy DataFrames plus views for reading) built from ruleset results."""

from __future__ import annotations

import numpy as np
import pandas as pd

import rulesets
from reports.formats import Report, Section
from rulesets.drakerys.rules import describe_modifiers
from simcore import exact
from simcore.stats import Z95

#: Exact rows whose P(at least k) falls below this are left out of tables.
EXACT_ROW_FLOOR = 1e-12


def rulesets_report() -> Report:
    """Every ruleset with its status and rulings (defaults and one-line meanings)."""
    rows, views = [], []
    for info in rulesets.available():
        status = "implemented" if info.implemented else "not implemented yet"
        specs = info.rulings.specs()
        block = []
        for s in specs:
            row = {"ruleset": info.name, "title": info.title, "seed": info.seed, "status": status,
                   "ruling": s.key, "default": s.format(s.default), "accepted": s.accepted,
                   "meaning": s.meaning, "source": s.source}
            rows.append(row)
            block.append({k: row[k] for k in ("ruling", "default", "accepted", "meaning")})
        views.append(Section(info.name, f"{info.name}: {info.title} (seed {info.seed}), {status}"
                             + (f"; {info.summary}" if info.implemented else ""), pd.DataFrame(block)))
    return Report("Rulesets and their rulings", [("switch a ruling", "--ruling NAME=VALUE")],
                  [Section("rulings", "Rulings", pd.DataFrame(rows))], views)


def method_meta(dist) -> list[tuple[str, str]]:
    if dist.exact:
        return [("method", "exact")]
    run = dist.run
    meta = [("method", f"Monte Carlo, {run.trials:,} trials, seed {run.seed}; stderr is the standard "
                       f"error, 95% interval = estimate ± {Z95:.2f} stderr")]
    if run.precision is not None:
        how = "reached" if run.stopped_by_precision else "not reached within the trial cap"
        meta.append(("precision", f"target half-width {run.precision:g} of mean successes: {how}"))
    return meta


def mean_text(est, exact_result: bool) -> str:
    if exact_result:
        return f"{est.value:.6f}"
    return f"{est.value:.6f} ± {Z95 * est.stderr:.6f} (95%)"


def distribution_rows(key: str, pmf: np.ndarray, counts: np.ndarray | None) -> pd.DataFrame:
    tail = exact.at_least(pmf)
    if counts is None:
        last = int(np.flatnonzero(tail >= EXACT_ROW_FLOOR)[-1])
        k = np.arange(last + 1)
        return pd.DataFrame({key: k, "probability": pmf[: last + 1], "p_at_least": tail[: last + 1]})
    n = counts.sum()
    last = int(np.flatnonzero(counts)[-1])
    k = np.arange(last + 1)
    p = pmf[: last + 1]
    t = np.cumsum(counts[::-1])[::-1][: last + 1] / n  # from whole counts: exactly 1 at k = 0
    return pd.DataFrame({key: k, "probability": p, "stderr": np.sqrt(p * (1 - p) / n),
                         "p_at_least": t, "p_at_least_stderr": np.sqrt(t * (1 - t) / n)})


def roll_report(dist, show: tuple[str, ...] = ("successes", "criticals")) -> Report:
    """Report of a Drakerys Action-Table roll (exact or simulated)."""
    roll = dist.roll
    meta = [("ruleset", "drakerys (seed 002, ACTION TABLE, CRITICAL SUCCESSES, REROLLS)"),
            ("roll", roll.describe()), *method_meta(dist),
            ("rulings", dist.rulings.describe()),
            ("mean successes", mean_text(dist.mean("successes"), dist.exact)),
            ("mean criticals", mean_text(dist.mean("criticals"), dist.exact))]
    counts = None if dist.exact else dist.run.counts
    sections = []
    for what in show:
        if what == "successes":
            c = None if counts is None else counts[:-1, :].sum(axis=1)
            sections.append(Section("successes", "Successes",
                                    distribution_rows("successes", dist.successes, c)))
        elif what == "criticals":
            c = None if counts is None else counts[:, :-1].sum(axis=0)
            sections.append(Section("criticals", "Criticals (10s that added an extra die)",
                                    distribution_rows("criticals", dist.criticals, c)))
        elif what == "joint":
            sections.append(Section("joint", "Successes and criticals together", _joint_rows(dist)))
    notes = []
    if dist.overflow_trials:
        notes.append(f"{dist.overflow_trials} trials fell beyond the histogram and are left out of "
                     f"the tables (expected fewer than 1 in 10^15)")
    if counts is None:
        notes.append(f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out")
    return Report("Drakerys: Action-Table roll", meta, sections, notes=notes)


def _joint_rows(dist) -> pd.DataFrame:
    if dist.exact:
        joint = dist.joint
        s, c = np.nonzero(joint >= EXACT_ROW_FLOOR)
        return pd.DataFrame({"successes": s, "criticals": c, "probability": joint[s, c]})
    counts = dist.run.counts[:-1, :-1]
    s, c = np.nonzero(counts)
    p = counts[s, c] / dist.run.trials
    return pd.DataFrame({"successes": s, "criticals": c, "probability": p,
                         "stderr": np.sqrt(p * (1 - p) / dist.run.trials)})


def action_table_report(table) -> Report:
    """The Drakerys Action Table: P(at least k successes) and the mean for each dice count and threshold."""
    rows = []
    views = []
    for t in table.thresholds:
        view_rows = []
        for n in range(1, table.max_dice + 1):
            pmf = table.pmfs[n, t]
            tail = exact.at_least(pmf)
            m = exact.mean(pmf)
            last = int(np.flatnonzero(tail >= EXACT_ROW_FLOOR)[-1])
            for k in range(last + 1):
                rows.append((n, t, k, pmf[k], tail[k], m))
            view_rows.append((n, m, tail))
        width = max(int(np.flatnonzero(tl >= 0.0005)[-1]) for _, _, tl in view_rows)
        view = pd.DataFrame({
            "dice": [n for n, _, _ in view_rows],
            "mean": [f"{m:.2f}" for _, m, _ in view_rows],
            **{f"≥{k}": [_percent(tl, k) for _, _, tl in view_rows] for k in range(1, width + 1)},
        })
        views.append(Section(f"threshold_{t}", f"Threshold {t}+: P(at least k successes), percent", view))
    tidy = pd.DataFrame(rows, columns=["dice", "threshold", "successes", "probability", "p_at_least",
                                       "mean"])
    options = describe_modifiers(table.swashbuckler, table.rerolls, table.crits)
    meta = [("ruleset", "drakerys (seed 002, ACTION TABLE, CRITICAL SUCCESSES)"),
            ("dice", f"1..{table.max_dice}"), ("thresholds", ", ".join(f"{t}+" for t in table.thresholds)),
            ("modifiers", ", ".join(options) or "none"),
            ("method", "exact"), ("rulings", table.rulings.describe())]
    notes = [f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out of the tidy table",
             "percentages are rounded to 0.1; blank: below 0.05%; >99.9: not certain but rounds to 100"]
    return Report("Drakerys: the Action Table", meta, [Section("action_table", "Action Table", tidy)],
                  views, notes)


def _percent(tail: np.ndarray, k: int) -> str:
    """A probability as a percentage to 0.1: blank below 0.05%, and never 100.0 unless certain."""
    p = tail[k] if k < tail.size else 0.0
    if p < 0.0005:
        return ""
    if p >= 0.9995 and p < 1.0 - 1e-12:
        return ">99.9"
    return f"{100 * p:.1f}"
