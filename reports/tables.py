"""Reports (tidy tables plus views for reading) built from ruleset results."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
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
    return Report("Rulesets and their rulings", [], [Section("rulings", "Rulings", Table.from_records(rows))],
                  views, headline=["Switch a ruling with --ruling NAME=VALUE on any command of its game."])


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


#: How the views of the rulebook tables round by default: percentages to 0.1, as a rulebook prints them.
READING = Rounding(1, True)


def smallest_shown(rounding: Rounding) -> float:
    """The smallest probability that does not round to 0."""
    return 0.5 * 10.0 ** -rounding.digits / (100 if rounding.percent else 1)


def _top(rounding: Rounding) -> str:
    """What a probability that rounds to certainty, without being certain, is shown as (">99.9")."""
    return ">" + rounding.probability(1.0 - 2 * smallest_shown(rounding))


def probability_cell(p: float, rounding: Rounding) -> str:
    """A probability rounded for reading: blank when it rounds to 0, never shown as certain unless it is."""
    if p != p:
        return ""
    if p < smallest_shown(rounding):
        return ""
    if p >= 1.0 - smallest_shown(rounding) and p < 1.0 - 1e-12:
        return _top(rounding)
    return rounding.probability(p)


def rounding_note(rounding: Rounding) -> str:
    """How the views round, and what a blank or a ">99.9" cell means."""
    return (f"{rounding.describe()}; blank: rounds to 0; {_top(rounding)}: not certain but rounds to "
            f"{'100' if rounding.percent else '1'}")


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


#: The most decimals an estimate is shown with, however narrow its interval.
MOST_DECIMALS = 6


def decimals_for(half_width: float) -> int | None:
    """The decimals that show a 95% half-width to two significant digits (an estimate is shown to the same
    place: the digits its error bar supports); None when there is no error bar (exact, or unknown)."""
    if not math.isfinite(half_width) or half_width <= 0.0:
        return None
    return min(MOST_DECIMALS, max(0, 1 - math.floor(math.log10(half_width))))


def plain_number(value: float, decimals: int | None) -> str:
    """``value`` to ``decimals`` places (None: exact, as many as it has up to MOST_DECIMALS, trailing zeros
    dropped); "" for a value that is not finite, "0" for zero or what rounds to it."""
    if not math.isfinite(value):
        return ""
    if value == 0.0:  # none in the sample: nothing to round
        return "0"
    if decimals is None:  # exact: as many digits as it has, up to MOST_DECIMALS
        return f"{value:.{MOST_DECIMALS}f}".rstrip("0").rstrip(".") or "0"
    text = f"{value:.{decimals}f}"
    return "0" if float(text) == 0.0 and decimals == 0 else text


def estimate_cells(value: float, low: float, high: float) -> tuple[str, str]:
    """(the estimate, its 95% interval "[low, high]"), both rounded to the decimals the interval supports
    (:func:`decimals_for` of its half-width); an exact value (an interval of width 0) as it is, and no
    interval."""
    if not math.isfinite(value):
        return "", ""
    half = (high - low) / 2 if math.isfinite(low) and math.isfinite(high) else math.nan
    if not half > 0.0:
        return plain_number(value, None), ""
    d = decimals_for(half)
    return plain_number(value, d), f"[{plain_number(low, d)}, {plain_number(high, d)}]"


def share_text(value: float, stderr: float) -> str:
    """A probability as a percentage with its 95% half-width, rounded to what that supports: "44.6% ±
    2.2%" (an exact one: "44.6%")."""
    from decimal import Decimal

    half = Z95 * stderr * 100
    d = decimals_for(half)
    if d is None:
        d = 1 if 0 < value < 1 else 0
    percent = Decimal(value) * 100  # exact: rounds as the value itself does (0.4455: 0.446, 44.6%)
    text = f"{percent:.{d}f}%"
    return f"{text} ± {half:.{d}f}%" if half > 0.0 else text


def estimates_view(names: Sequence[str], values: Sequence[float], lows: Sequence[float],
                   highs: Sequence[float], label: str = "measure") -> Table:
    """The rows of a Monte Carlo summary for reading: each estimate and its 95% interval rounded to the
    decimals the interval supports (the tidy table keeps every digit and the standard errors)."""
    cells = [estimate_cells(v, lo, hi) for v, lo, hi in zip(values, lows, highs, strict=True)]
    return Table({label: list(names), "estimate": [c[0] for c in cells],
                  "95% interval": [c[1] for c in cells]})


# --- tidy tables laid out for reading ----------------------------------------------------------------------

def values(table: Table | pd.DataFrame, name: str) -> list:
    """A column of a tidy table (a Table or a DataFrame) as plain Python values."""
    column = table[name]
    if isinstance(column, np.ndarray):
        return column.tolist()
    if isinstance(column, list):
        return [v.item() if isinstance(v, np.generic) else v for v in column]
    return column.tolist()


def number_cell(value, digits: int = 2) -> str:
    """A number for reading: a whole number as it is, any other to ``digits`` decimals; blank if missing."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return ""
        return f"{value:.{digits}f}"
    return str(value)


def readable(table: Table | pd.DataFrame, headings: Mapping[str, str], rounding: Rounding, *,
             digits: int = 2, probabilities: Sequence[str] = ()) -> Table:
    """The columns of ``headings`` (tidy name → heading, in its order) for reading: probabilities (by name,
    :func:`is_probability_column`, or listed in ``probabilities``) rounded by ``rounding`` (blank when they
    round to 0), other numbers to ``digits`` decimals (whole numbers as they are), text as it is."""
    out = {}
    for name, heading in headings.items():
        column = values(table, name)
        if is_probability_column(name) or name in probabilities:
            out[heading] = [probability_cell(float(v), rounding) for v in column]
        else:
            out[heading] = [number_cell(v, digits) for v in column]
    return Table(out)


def grid(table: Table | pd.DataFrame, rows: Sequence[str], across: str, cell: Callable[[dict], str], *,
         row_headings: Mapping[str, str] | None = None, row_text: Mapping[str, Callable[[object], str]] | None
         = None, column_text: Callable[[object], str] = str, where: Callable[[dict], bool] | None = None,
         drop_empty: bool = False) -> Table:
    """A tidy table pivoted into a grid for reading: a row per distinct combination of the ``rows``
    columns, a column per distinct value of ``across`` (both in the order first met), each cell
    ``cell(record)`` of the record there (blank where there is none). ``where`` keeps some records only;
    ``row_headings`` names the row columns (default their tidy names), ``row_text`` and ``column_text``
    write their values; ``drop_empty`` leaves out a column whose every cell is blank."""
    names = list(table.columns) if hasattr(table, "columns") else table.names
    columns = {n: values(table, n) for n in names}
    records = [dict(zip(names, r, strict=True)) for r in zip(*columns.values(), strict=True)]
    if where is not None:
        records = [r for r in records if where(r)]
    keys: dict[tuple, dict] = {}
    heads: dict[object, str] = {}
    for r in records:
        keys.setdefault(tuple(r[k] for k in rows), {})[r[across]] = cell(r)
        heads.setdefault(r[across], column_text(r[across]))
    row_headings, row_text = row_headings or {}, row_text or {}
    out = {row_headings.get(k, k): [row_text.get(k, str)(key[i]) for key in keys] for i, k in enumerate(rows)}
    for v, head in heads.items():
        cells = [row.get(v, "") for row in keys.values()]
        if any(cells) or not drop_empty:
            out[head] = cells
    return Table(out)


def read_as(report: Report, views: Callable[[list[Section], Rounding], list[Section]],
            rounding: Rounding = READING) -> Report:
    """``report`` with its views for reading (the table, Markdown, LaTeX and HTML formats) made by
    ``views`` from its tidy sections, rounded by ``rounding``; CSV and JSON keep the tidy sections."""
    return Report(report.title, report.meta, report.sections, views(report.sections, rounding), report.notes,
                  report.facts, report.headline)
