"""Reports (tidy tables plus views for reading) built from ruleset results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

import rulesets
from reports.formats import Report, Section, Table
from simcore import exact
from simcore.stats import Z95

if TYPE_CHECKING:
    import pandas as pd

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
            block.append({"ruling": s.key, "default": row["default"],
                          "accepted": s.accepted.replace("|", " | "),  # wraps where a column is narrow
                          "meaning": s.meaning})
        views.append(Section(info.name, f"{info.name}: {info.title} (seed {info.seed}), {status}"
                             + (f"; {info.summary}" if info.implemented else ""), Table.from_records(block)))
    return Report("Rulesets and their rulings", [("switch a ruling", "--ruling NAME=VALUE")],
                  [Section("rulings", "Rulings", Table.from_records(rows))], views)


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


def distribution_rows(key: str, pmf: np.ndarray, counts: np.ndarray | None) -> Table:
    tail = exact.at_least(pmf)
    if counts is None:
        last = int(np.flatnonzero(tail >= EXACT_ROW_FLOOR)[-1])
        k = np.arange(last + 1)
        return Table({key: k, "probability": pmf[: last + 1], "p_at_least": tail[: last + 1]})
    n = counts.sum()
    last = int(np.flatnonzero(counts)[-1])
    k = np.arange(last + 1)
    p = pmf[: last + 1]
    t = np.cumsum(counts[::-1])[::-1][: last + 1] / n  # from whole counts: exactly 1 at k = 0
    return Table({key: k, "probability": p, "stderr": np.sqrt(p * (1 - p) / n),
                  "p_at_least": t, "p_at_least_stderr": np.sqrt(t * (1 - t) / n)})


@dataclass(frozen=True)
class Rounding:
    """How the tables written for reading round probabilities: ``digits`` decimals, as percentages or not.

    Tidy tables (CSV, JSON) always keep full precision.
    """

    digits: int = 4
    percent: bool = False

    def describe(self) -> str:
        unit = "percentages" if self.percent else "probabilities"
        return f"{unit} rounded to {self.digits} decimal{'s' if self.digits != 1 else ''}"

    def probability(self, p: float) -> str:
        return f"{100 * p:.{self.digits}f}" if self.percent else f"{p:.{self.digits}f}"

    def number(self, x: float) -> str:
        return f"{x:.{self.digits}f}"


#: Column names read as probabilities when rounding a tidy table for reading (and every name that starts
#: with "p_" or "P(", such as p_hit or "P(hit) one die").
PROBABILITY_COLUMNS = ("probability", "p_at_least", "share", "stderr", "p_at_least_stderr")


def is_probability_column(name: object) -> bool:
    text = str(name)
    return text in PROBABILITY_COLUMNS or text.startswith(("p_", "P("))


def rounded(df: pd.DataFrame, rounding: Rounding) -> pd.DataFrame:
    """``df`` with its float columns as text rounded by ``rounding`` (probabilities by name)."""
    out = df.copy()
    for col in out.columns:
        if out[col].dtype.kind == "f":  # pd.api.types.is_float_dtype, without importing pandas here
            show = rounding.probability if is_probability_column(col) else rounding.number
            out[col] = ["" if v != v else show(float(v)) for v in out[col]]
    return out
