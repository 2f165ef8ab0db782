"""Drakerys reports of the Action Table: one roll (exact or simulated) and the rulebook table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.formats import Report, Section
from reports.tables import EXACT_ROW_FLOOR, Rounding, distribution_rows, mean_text, method_meta
from rulesets.drakerys.rules import describe_modifiers
from simcore import exact


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


def action_table_report(table, rounding: Rounding = Rounding(1, True)) -> Report:
    """The Drakerys Action Table: P(at least k successes) and the mean for each dice count and threshold;
    the views round by ``rounding`` (by default percentages to 0.1, as a rulebook prints them)."""
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
        floor = _floor(rounding)
        width = max(int(np.flatnonzero(tl >= floor)[-1]) for _, _, tl in view_rows)
        view = pd.DataFrame({
            "dice": [n for n, _, _ in view_rows],
            "mean": [f"{m:.2f}" for _, m, _ in view_rows],
            **{f"≥{k}": [_shown(tl, k, rounding) for _, _, tl in view_rows] for k in range(1, width + 1)},
        })
        unit = "percent" if rounding.percent else "probability"
        views.append(Section(f"threshold_{t}", f"Threshold {t}+: P(at least k successes), {unit}", view))
    tidy = pd.DataFrame(rows, columns=["dice", "threshold", "successes", "probability", "p_at_least",
                                       "mean"])
    options = describe_modifiers(table.swashbuckler, table.rerolls, table.crits)
    meta = [("ruleset", "drakerys (seed 002, ACTION TABLE, CRITICAL SUCCESSES)"),
            ("dice", f"1..{table.max_dice}"), ("thresholds", ", ".join(f"{t}+" for t in table.thresholds)),
            ("modifiers", ", ".join(options) or "none"),
            ("method", "exact"), ("rulings", table.rulings.describe())]
    notes = [f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out of the tidy table",
             f"{rounding.describe()}; blank: rounds to 0; {_top(rounding)}: not certain but rounds to "
             f"{'100' if rounding.percent else '1'}"]
    return Report("Drakerys: the Action Table", meta, [Section("action_table", "Action Table", tidy)],
                  views, notes)


def _floor(rounding: Rounding) -> float:
    """The smallest probability that does not round to 0."""
    return 0.5 * 10.0 ** -rounding.digits / (100 if rounding.percent else 1)


def _top(rounding: Rounding) -> str:
    """What a probability that rounds to certainty, without being certain, is shown as (">99.9")."""
    return ">" + rounding.probability(1.0 - 2 * _floor(rounding))


def _shown(tail: np.ndarray, k: int, rounding: Rounding) -> str:
    """P(at least k) rounded: blank when it rounds to 0, never shown as certain unless it is."""
    p = tail[k] if k < tail.size else 0.0
    if p < _floor(rounding):
        return ""
    if p >= 1.0 - _floor(rounding) and p < 1.0 - 1e-12:
        return _top(rounding)
    return rounding.probability(p)
