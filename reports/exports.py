"""`balance table <game> all --output DIR`: every standard table of a game into one folder.

Each table is written as Markdown, LaTeX and HTML (for reading, rounded by the ``--digits`` / ``--percent``
policy) and CSV (tidy, full precision), with a PNG where the game draws one, plus ``index.html`` and
``index.md`` listing every file with the rulings in force, the rounding policy and the provenance. The
folder is written whole or not at all (reports.files.OutputSet).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from reports.files import OutputSet
from reports.formats import Report, Section, render
from reports.provenance import provenance
from reports.tables import Rounding, rounded
from rulesets.base import Ruleset, Rulings

#: (suffix, format) of the files written for each table.
FILES = ((".md", "markdown"), (".csv", "csv"), (".tex", "latex"), (".html", "html"))


def _for_reading(report: Report, rounding: Rounding) -> Report:
    """The report with its tidy tables rounded for reading (views are already laid out by the game)."""
    if report.views:
        return report
    sections = [Section(s.name, s.title, rounded(s.data, rounding), s.notes) for s in report.sections]
    return Report(report.title, report.meta, sections, [], report.notes, report.facts)


def export(ruleset: Ruleset, rulings: Rulings, tables: Mapping[str, Report], out: OutputSet, *, digits: int,
           percent: bool, overrides: Sequence[str] = (),
           plots: Mapping[str, Callable[[Path], None]] | None = None) -> None:
    """Stage every table of ``tables`` (name → Report) and the index into ``out`` (written when its
    context ends, whole or not at all).

    ``plots[name](path)`` draws the plot of a table that reads better as one.
    """
    rounding = Rounding(digits, percent)
    meta = provenance(ruleset, rulings, overrides=overrides)
    entries = []
    for name, report in tables.items():
        readable = _for_reading(report, rounding)
        files = []
        for suffix, fmt in FILES:
            text = render(report if fmt == "csv" else readable, fmt)
            out.write_text(f"{name}{suffix}", text)
            files.append(f"{name}{suffix}")
        if plots and name in plots:
            out.write_with(f"{name}.png", plots[name])
            files.append(f"{name}.png")
        entries.append((name, report.title, files))
    out.write_text("index.md", _index_md(ruleset, meta, rounding, entries))
    out.write_text("index.html", _index_html(ruleset, meta, rounding, entries))


def _index_md(ruleset: Ruleset, meta, rounding: Rounding, entries) -> str:
    lines = [f"# {ruleset.title}: rulebook tables", ""]
    lines += [f"- **{k}**: {v}" for k, v in meta]
    lines += [f"- **rounding**: {rounding.describe()} in the Markdown, LaTeX and HTML tables; CSV keeps full "
              "precision", "", "| table | files |", "|:---|:---|"]
    for name, title, files in entries:
        links = " · ".join(f"[{f.rsplit('.', 1)[1]}]({f})" for f in files)
        lines.append(f"| {title.replace('|', '/')} (`{name}`) | {links} |")
    return "\n".join(lines) + "\n"


def _index_html(ruleset: Ruleset, meta, rounding: Rounding, entries) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{e(ruleset.title)}: rulebook tables</title>",
           "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
           "th,td{border:1px solid #ccc;padding:2px 8px}</style>", "</head>", "<body>",
           f"<h1>{e(ruleset.title)}: rulebook tables</h1>", "<dl>"]
    out += [f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in meta]
    out += [f"<dt>rounding</dt><dd>{e(rounding.describe())} in the Markdown, LaTeX and HTML tables; "
            "CSV keeps full precision</dd>", "</dl>", "<table>",
            "<thead><tr><th>table</th><th>files</th></tr></thead>", "<tbody>"]
    out += table_rows_html(entries)
    out += ["</tbody>", "</table>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def table_rows_html(entries, folder: str = "") -> list[str]:
    """One HTML table row per (name, title, files): the title with the plot, if any, and a link to each
    file (``folder`` before each path)."""
    e = html.escape
    out = []
    for name, title, files in entries:
        links = " ".join(f'<a href="{e(folder + f)}">{e(f.rsplit(".", 1)[1])}</a>' for f in files)
        image = next((f for f in files if f.endswith(".png")), None)
        figure = f'<br><img src="{e(folder + image)}" alt="{e(title)}" width="480">' if image else ""
        out.append(f"<tr><td>{e(title)} (<code>{e(name)}</code>){figure}</td><td>{links}</td></tr>")
    return out
