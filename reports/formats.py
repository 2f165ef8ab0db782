"""A report (provenance + tidy tables + human views) rendered as table, CSV, JSON, Markdown, LaTeX or
HTML. Writing it to a file is :mod:`reports.files`' job."""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

FORMATS = ("table", "csv", "json", "markdown", "latex", "html")


@dataclass
class Section:
    """One table: ``name`` is its machine key, ``title`` its heading."""

    name: str
    title: str
    data: pd.DataFrame
    notes: list[str] = field(default_factory=list)


@dataclass
class Report:
    """What a verb produces.

    ``sections`` are tidy tables (CSV writes the first; JSON all of them). ``views`` are the same
    numbers laid out for reading (table, Markdown, LaTeX, HTML); when empty, the sections are shown.
    ``meta`` states where the numbers come from: ruleset, method, trials, seed, rulings in force.
    ``facts`` are machine-readable figures JSON adds to its ``meta`` (numbers, not text).
    """

    title: str
    meta: list[tuple[str, str]]
    sections: list[Section]
    views: list[Section] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    facts: dict = field(default_factory=dict)

    def shown(self) -> list[Section]:
        return self.views or self.sections


def _cell(value) -> str:
    """A number as a person reads it: integers as they are, probabilities to 6 decimals, tiny ones
    in scientific notation."""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        v = float(value)
        if math.isnan(v):
            return ""
        if v == 0.0:
            return "0"
        if abs(v) >= 1e-4:
            return f"{v:.6f}"
        return f"{v:.3e}"
    return str(value)


def _text_rows(df: pd.DataFrame) -> list[list[str]]:
    return [[_cell(v) for v in row] for row in df.itertuples(index=False, name=None)]


def _looks_numeric(text: str) -> bool:
    try:
        float(text.lstrip("<>"))
    except ValueError:
        return False
    return True


def _numeric(df: pd.DataFrame) -> list[bool]:
    """Which columns are right-aligned: numbers, and text columns that hold only numbers or blanks."""
    out = []
    for c in df.columns:
        col = df[c]
        if pd.api.types.is_bool_dtype(col):
            out.append(False)
        elif pd.api.types.is_numeric_dtype(col):
            out.append(True)
        else:
            cells = [str(v) for v in col if str(v) != ""]
            out.append(bool(cells) and all(_looks_numeric(v) for v in cells))
    return out


def _render_table(report: Report) -> str:
    lines = [report.title]
    lines += [f"  {k}: {v}" for k, v in report.meta]
    for s in report.shown():
        lines += ["", s.title]
        header = [str(c) for c in s.data.columns]
        rows = _text_rows(s.data)
        widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
        right = _numeric(s.data)
        def fmt(cells, widths=widths, right=right):
            return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right,
                                                                                 strict=True)).rstrip()
        lines.append(fmt(header))
        lines += [fmt(r) for r in rows]
        lines += [f"  note: {n}" for n in s.notes]
    lines += ([""] if report.notes else []) + [f"note: {n}" for n in report.notes]
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _render_markdown(report: Report) -> str:
    out = [f"# {_md_escape(report.title)}", ""]
    out += [f"- **{_md_escape(k)}**: {_md_escape(v)}" for k, v in report.meta]
    for s in report.shown():
        out += ["", f"## {_md_escape(s.title)}", ""]
        out.append("| " + " | ".join(_md_escape(str(c)) for c in s.data.columns) + " |")
        out.append("|" + "|".join("---:" if n else ":---" for n in _numeric(s.data)) + "|")
        out += ["| " + " | ".join(_md_escape(c) for c in r) + " |" for r in _text_rows(s.data)]
        out += ["", *[f"*{_md_escape(n)}*" for n in s.notes]] if s.notes else []
    out += ["", *[f"> {_md_escape(n)}" for n in report.notes]] if report.notes else []
    return "\n".join(out) + "\n"


_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                  "<": r"\textless{}", ">": r"\textgreater{}", "≥": r"$\geq$", "±": r"$\pm$",
                  "—": "---", "–": "--"}


def _tex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _render_latex(report: Report) -> str:
    out = [f"% {report.title}"] + [f"% {k}: {v}" for k, v in report.meta]
    for s in report.shown():
        spec = "".join("r" if n else "l" for n in _numeric(s.data))
        out += ["", r"\begin{table}[ht]", r"\centering", rf"\caption{{{_tex(s.title)}}}",
                rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
                " & ".join(_tex(c) for c in s.data.columns) + r" \\", r"\midrule"]
        out += [" & ".join(_tex(c) for c in r) + r" \\" for r in _text_rows(s.data)]
        out += [r"\bottomrule", r"\end{tabular}"]
        out += [rf"\par\small {_tex(n)}" for n in s.notes]
        out.append(r"\end{table}")
    out += [f"% note: {n}" for n in report.notes]
    out.append("% tables use booktabs: \\usepackage{booktabs}")
    return "\n".join(out) + "\n"


def _render_html(report: Report) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{e(report.title)}</title>",
           "<style>body{font-family:sans-serif}table{border-collapse:collapse;margin-bottom:1em}"
           "th,td{border:1px solid #ccc;padding:2px 8px}td.n{text-align:right}</style>",
           "</head>", "<body>", f"<h1>{e(report.title)}</h1>", "<dl>"]
    out += [f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in report.meta]
    out.append("</dl>")
    for s in report.shown():
        numeric = _numeric(s.data)
        out += [f"<h2>{e(s.title)}</h2>", "<table>", "<thead><tr>"
                + "".join(f"<th>{e(str(c))}</th>" for c in s.data.columns) + "</tr></thead>", "<tbody>"]
        for r in _text_rows(s.data):
            cells = "".join(f'<td class="n">{e(c)}</td>' if n else f"<td>{e(c)}</td>"
                            for c, n in zip(r, numeric, strict=True))
            out.append(f"<tr>{cells}</tr>")
        out += ["</tbody>", "</table>"] + [f"<p><em>{e(n)}</em></p>" for n in s.notes]
    out += [f"<p><strong>note:</strong> {e(n)}</p>" for n in report.notes]
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _render_csv(report: Report) -> str:
    return report.sections[0].data.to_csv(index=False, lineterminator="\n")


def _jsonable(value):
    """A cell as JSON: numpy scalars as Python ones; infinite or missing numbers as null (JSON has none)."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, float | np.floating):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _render_json(report: Report) -> str:
    doc = {
        "title": report.title,
        "meta": {**dict(report.meta), **_jsonable(report.facts)},
        "sections": {
            s.name: [{k: _jsonable(v) for k, v in rec.items()} for rec in s.data.to_dict("records")]
            for s in report.sections
        },
        "notes": report.notes + [n for s in report.sections for n in s.notes],
    }
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


_RENDERERS = {"table": _render_table, "csv": _render_csv, "json": _render_json,
              "markdown": _render_markdown, "latex": _render_latex, "html": _render_html}


def render(report: Report, fmt: str) -> str:
    """The report as text in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt not in _RENDERERS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    return _RENDERERS[fmt](report)

