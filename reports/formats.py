"""A report (provenance + tidy tables + human views) rendered as table, CSV, JSON, Markdown, LaTeX or
HTML. Writing it to a file is :mod:`reports.files`' job.

A section's table is a pandas DataFrame, or a :class:`Table`: plain columns that print without pandas, so
that a command printing only exact tables (`balance table drakerys action`) starts without importing it.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from reports.format_names import FORMATS

if TYPE_CHECKING:
    import pandas as pd


class Table:
    """A tidy table as named columns, printed exactly as the DataFrame it stands for (:meth:`frame`) would
    be, without importing pandas.

    A column is a numpy array of numbers or bools, or a sequence of plain values of one kind: bools,
    numbers (NaN for a missing one; ints among floats become floats, as in a DataFrame) or anything else,
    shown as text. No None: a missing number is NaN, and text has no missing value.
    """

    def __init__(self, columns: Mapping[str, Sequence]) -> None:
        self._columns: dict[str, np.ndarray | list] = {}
        self._kinds: dict[str, str] = {}
        for name, values in columns.items():
            self._columns[name], self._kinds[name] = _column(name, values)
        if len({len(v) for v in self._columns.values()}) > 1:
            raise ValueError("the columns of a Table have different lengths")

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence], names: Sequence[str]) -> Table:
        rows = list(rows)
        return cls({name: [row[i] for row in rows] for i, name in enumerate(names)})

    @classmethod
    def from_records(cls, records: Sequence[Mapping]) -> Table:
        """One row per mapping; every mapping has the keys of the first, in its order."""
        names = list(records[0]) if records else []
        return cls({name: [r[name] for r in records] for name in names})

    @property
    def names(self) -> list[str]:
        return list(self._columns)

    def __getitem__(self, name: str) -> np.ndarray | list:
        return self._columns[name]

    def with_column(self, name: str, values: Sequence, at: int | None = None) -> Table:
        """This table with column ``name`` set to ``values`` (in its place, or inserted at position ``at``,
        or last)."""
        items = [(n, v) for n, v in self._columns.items() if n != name]
        if at is None:
            at = self.names.index(name) if name in self._columns else len(items)
        return Table(dict([*items[:at], (name, values), *items[at:]]))

    def drop(self, *names: str) -> Table:
        return Table({n: v for n, v in self._columns.items() if n not in names})

    def where(self, keep: Sequence[bool]) -> Table:
        """The rows where ``keep`` is true."""
        rows = np.flatnonzero(np.asarray(keep, dtype=bool))
        return Table({n: v[rows] if isinstance(v, np.ndarray) else [v[i] for i in rows]
                      for n, v in self._columns.items()})

    def plain_columns(self) -> list[list]:
        """The columns as lists of plain Python values."""
        return [v.tolist() if isinstance(v, np.ndarray) else v for v in self._columns.values()]

    def rows(self) -> list[tuple]:
        """The rows as tuples of plain Python values."""
        return list(zip(*self.plain_columns(), strict=True))

    def numeric(self) -> list[bool]:
        """Which columns are right-aligned (as :func:`_numeric` decides for the DataFrame)."""
        out = []
        for name, values in self._columns.items():
            kind = self._kinds[name]
            if kind == "text":
                cells = [str(v) for v in values if str(v) != ""]
                out.append(bool(cells) and all(_looks_numeric(v) for v in cells))
            else:
                out.append(kind == "number")
        return out

    def csv(self) -> str:
        """As ``DataFrame.to_csv(index=False, lineterminator="\\n")`` writes it."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.names)
        writer.writerows(["" if isinstance(v, float) and math.isnan(v) else v for v in row]
                         for row in self.rows())
        return buffer.getvalue()

    def records(self) -> list[dict]:
        """As ``DataFrame.to_dict("records")`` gives them."""
        names = self.names
        return [dict(zip(names, row, strict=True)) for row in self.rows()]

    def frame(self) -> pd.DataFrame:
        import pandas as pd  # the one place a Table needs pandas: when a DataFrame is asked for

        return pd.DataFrame(self._columns)


def _column(name: str, values: Sequence) -> tuple[np.ndarray | list, str]:
    """(values as stored, kind: "bool", "number" or "text"), the kind as pandas would infer the dtype."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "biuf":
        return values, "bool" if values.dtype.kind == "b" else "number"
    values = list(values)
    types = set(map(type, values))
    if any(issubclass(t, np.generic) for t in types):
        values = [v.item() if isinstance(v, np.generic) else v for v in values]
        types = set(map(type, values))
    if type(None) in types:
        raise ValueError(f"column {name!r} of a Table holds None (a missing number is NaN)")
    if types and all(issubclass(t, bool) for t in types):
        return values, "bool"
    if types and all(issubclass(t, int | float) and not issubclass(t, bool) for t in types):
        plain = float if any(issubclass(t, float) for t in types) else int
        return (values if types == {plain} else [plain(v) for v in values]), "number"
    return values, "text"


class Section:
    """One table: ``name`` is its machine key, ``title`` its heading, ``data`` the table as a DataFrame.

    A :class:`Table` may be given instead: printing the section then needs no pandas, and ``data`` makes it
    a DataFrame when first read.

    ``narrow``: the columns the table format shows within its 100 columns (None: all of them); ``--wide``
    and every other format show all. ``keys``: how many leading columns name a row, repeated in each part
    when a table too wide for the terminal is printed in parts. ``whole``: text columns whose cells the
    table format never wraps (a unit's profile reads as one line).
    """

    def __init__(self, name: str, title: str, data: pd.DataFrame | Table, notes: list[str] | None = None,
                 *, narrow: Sequence[str] | None = None, keys: int = 1, whole: Sequence[str] = ()) -> None:
        self.name, self.title = name, title
        self.notes = [] if notes is None else notes
        self.narrow = None if narrow is None else tuple(narrow)
        self.keys = keys
        self.whole = tuple(whole)
        self.table = data if isinstance(data, Table) else None
        self._frame = None if isinstance(data, Table) else data

    @property
    def data(self) -> pd.DataFrame:
        if self._frame is None:
            self._frame = self.table.frame()
        return self._frame

    def __repr__(self) -> str:
        return f"Section({self.name!r}, {self.title!r}, notes={self.notes!r})"


@dataclass
class Terminal:
    """How the table format lays a report out within TABLE_WIDTH columns, the answer first; ``--wide`` and
    every other format show the report as it is (so Markdown, CSV, JSON and HTML are not touched by it).

    ``lead``: the answer in a few lines, under the title and headline (a line indented by two spaces is an
    item of the line before). ``views``: the tables, each row one line within the width (None: the
    report's own views). ``moved``: meta keys, and the beginnings of notes, that ``lead`` states: left out
    below it.
    """

    lead: list[str] = field(default_factory=list)
    views: list[Section] | None = None
    moved: tuple[str, ...] = ()


@dataclass
class Report:
    """What a verb produces.

    ``sections`` are tidy tables (CSV writes the first; JSON all of them). ``views`` are the same
    numbers laid out for reading (table, Markdown, LaTeX, HTML); when empty, the sections are shown.
    ``meta`` states where the numbers come from: ruleset, method, trials, seed, rulings in force.
    ``facts`` are machine-readable figures JSON adds to its ``meta`` (numbers, not text). ``headline``: the
    answer in a sentence or two, shown under the title by the formats for reading. ``terminal``: how the
    table format lays it out within 100 columns (None: its views, wrapped and cut as they need).
    """

    title: str
    meta: list[tuple[str, str]]
    sections: list[Section]
    views: list[Section] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    facts: dict = field(default_factory=dict)
    headline: list[str] = field(default_factory=list)
    terminal: Terminal | None = None

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


def _grid(section: Section) -> tuple[list[str], list[list[str]], list[bool]]:
    """A section's header, its cells as text and which columns are right-aligned."""
    if section.table is not None:
        t = section.table
        return t.names, [[_cell(v) for v in row] for row in t.rows()], t.numeric()
    df = section.data
    rows = [[_cell(v) for v in row] for row in df.itertuples(index=False, name=None)]
    return [str(c) for c in df.columns], rows, _numeric(df)


def _looks_numeric(text: str) -> bool:
    try:
        float(text.lstrip("<>"))
    except ValueError:
        return False
    return True


def _numeric(df: pd.DataFrame) -> list[bool]:
    """Which columns are right-aligned: numbers, and text columns that hold only numbers or blanks."""
    import pandas as pd  # loaded already: here is a DataFrame

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


#: Columns the human table format fits in (a terminal of 100 columns); None: one line per row and note.
TABLE_WIDTH = 100
#: Narrowest a text column of the table format is wrapped to.
_MIN_TEXT_COLUMN = 12


#: A bracketed interval ("[301, 302]") is never split over two lines: its spaces are held by this.
_HELD_SPACE = "\xa0"
_BRACKETED = re.compile(r"\[[^\[\]]*\]")


def _held(text: str) -> str:
    """``text`` with the spaces inside brackets made unbreakable for textwrap (which breaks at ASCII
    whitespace only)."""
    return _BRACKETED.sub(lambda m: m[0].replace(" ", _HELD_SPACE), text) if "[" in text else text


def _words(text: str) -> list[str]:
    return [w for w in _held(text).split(" ") if w] or [""]


def _wrap(text: str, width: int | None, first: str, rest: str) -> list[str]:
    if width is None:
        return [first + text]
    import textwrap

    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=False) or [first]


def _fitted(widths: list[int], right: list[bool], width: int | None,
            least: list[int] | None = None) -> list[int]:
    """Column widths whose rows fit ``width``: the widest text columns are capped at one common width, so
    two long text columns share the room instead of one being squeezed to a sliver; their cells then wrap.
    A text column keeps at least _MIN_TEXT_COLUMN and its longest unbreakable word (``least``); numbers are
    never narrowed."""
    widths = list(widths)
    if width is None or sum(widths) + 2 * (len(widths) - 1) <= width:
        return widths
    least = least or [0] * len(widths)
    text = [i for i, r in enumerate(right) if not r]
    room = width - 2 * (len(widths) - 1) - sum(w for i, w in enumerate(widths) if right[i])

    def capped(i: int, cap: int) -> int:
        return min(widths[i], max(cap, least[i], _MIN_TEXT_COLUMN))

    cap = max((widths[i] for i in text), default=0)
    while cap > _MIN_TEXT_COLUMN and sum(capped(i, cap) for i in text) > room:
        cap -= 1
    for i in text:
        widths[i] = capped(i, cap)
    return widths


def _parts(widths: list[int], right: list[bool], least: list[int], width: int, keys: int) -> list[list[int]]:
    """The columns of a table too wide for ``width`` even with its text wrapped, cut into parts printed one
    under the other: each part the first ``keys`` columns (what names a row) and as many of the others, in
    order, as fit (a text column counted at its narrowest)."""

    def narrowest(i: int) -> int:
        return widths[i] if right[i] else min(widths[i], max(least[i], _MIN_TEXT_COLUMN))

    base = sum(narrowest(i) + 2 for i in range(keys))
    parts: list[list[int]] = []
    used = base
    for i in range(keys, len(widths)):
        w = narrowest(i) + 2
        if parts and used + w - 2 <= width:
            parts[-1].append(i)
            used += w
        else:
            parts.append([*range(keys), i])
            used = base + w
    return parts


def _table_lines(header: list[str], rows: list[list[str]], right: list[bool], width: int | None,
                 keys: int, whole: Sequence[str] = ()) -> list[str]:
    """A table's lines: within ``width`` (its text wrapped, but never the columns named in ``whole``, and
    when that is not enough, its columns in parts under each other, see :func:`_parts`), or one line per
    row (None)."""
    lines: list[str] = []
    for n, (heading, body) in enumerate(_table_blocks(header, rows, right, width, keys, whole)):
        lines += [""] if n else []
        lines += heading
        for row in body:
            lines += row
    return lines


def fits(section: Section, width: int = TABLE_WIDTH) -> bool:
    """Whether the table format prints the section's table within ``width`` columns one line per row (its
    headings may wrap), not wrapped or cut into parts."""
    header, rows, right = _grid(section)
    blocks = _table_blocks(header, rows, right, width, section.keys, section.whole)
    return len(blocks) == 1 and all(len(row) == 1 for row in blocks[0][1])


def narrowed(section: Section, choices: Sequence[Sequence[str]],
             twins: Sequence[tuple[str, str]] = ()) -> Section:
    """``section`` showing, within the table format's width, the first of ``choices`` (lists of its columns,
    the richest first) whose rows fit one line each (the last when none does): the columns left out are
    named under the table, and ``--wide`` shows them all. ``twins``: pairs of columns that show one
    estimate (with its interval, and alone): the one of a pair left out while the other is shown is not
    named as left out (nothing is missing)."""
    names = list(section.table.names if section.table is not None else section.data.columns)
    keep = names
    for columns in choices:
        keep = [c for c in names if c in columns]
        trial = Section(section.name, section.title, section.data[keep], keys=section.keys,
                        whole=section.whole)
        if fits(trial):
            break
    repeated = {b for pair in twins for a, b in (pair, pair[::-1]) if a in keep and b not in keep}
    data = section.data[[c for c in names if c not in repeated]] if repeated else section.data
    return Section(section.name, section.title, data, section.notes, narrow=keep, keys=section.keys,
                   whole=section.whole)


def _table_blocks(header: list[str], rows: list[list[str]], right: list[bool], width: int | None,
                  keys: int, whole: Sequence[str] = ()) -> list[tuple[list[str], list[list[str]]]]:
    """The parts of a table as :func:`_table_lines` lays it out: each part's heading lines and the lines of
    each of its rows (one line per row when it fits)."""
    import itertools
    import textwrap

    if not header:  # a table of no columns (a study that found nothing to try): nothing to lay out
        return [([], [])]
    held = [_held(h) for h in header], [[_held(c) for c in r] for r in rows]
    natural = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    least = [natural[i] if h in whole else max(len(word) for cell in [h] + [r[i] for r in rows]
                                               for word in _words(cell))
             for i, h in enumerate(header)]
    # a number column may be as narrow as its cells, its heading wrapped ("tie for the / highest (%)")
    shrunk = [max([len(r[i]) for r in rows] + [len(w) for w in _words(h)]) if right[i] else natural[i]
              for i, h in enumerate(header)]

    def fit(part: list[int]) -> list[int]:
        """The widths of the columns ``part``: the widest number headings capped at one width until the row
        fits, so that a row stays one line; when every number column is as narrow as it goes, text wrapped
        too, and the number headings capped again until the row fits."""
        pick, low = [right[i] for i in part], [least[i] for i in part]
        cap = max(natural[i] for i in part)
        gaps = 2 * (len(part) - 1)
        while width is not None:
            headings = [max(shrunk[i], min(natural[i], cap)) if right[i] else natural[i] for i in part]
            if sum(headings) + gaps <= width:
                return headings
            if cap <= 1 or all(w == shrunk[i] for w, i in zip(headings, part, strict=True) if right[i]):
                break
            cap -= 1
        cap = max(natural[i] for i in part)
        while True:
            fitted = _fitted([max(shrunk[i], min(natural[i], cap)) for i in part], pick, width, low)
            if width is None or sum(fitted) + 2 * (len(part) - 1) <= width or cap <= 1:
                return fitted
            cap -= 1

    everything = list(range(len(header)))
    widths = fit(everything)
    keys = min(max(keys, 0), len(header) - 1)
    if width is None or sum(widths) + 2 * (len(widths) - 1) <= width or len(widths) < 2:
        parts = [everything]
    else:
        parts = _parts(natural, right, least, width, keys)

    def fmt(cells, widths, right, heading: bool = False) -> list[str]:
        wrapped = [textwrap.wrap(c, w, break_long_words=False, break_on_hyphens=False) or [""]
                   if len(c) > w and (heading or not r) else [c]
                   for c, w, r in zip(cells, widths, right, strict=True)]
        return ["  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(line, widths, right,
                                                                             strict=True)).rstrip()
                .replace(_HELD_SPACE, " ")
                for line in itertools.zip_longest(*wrapped, fillvalue="")]

    blocks = []
    for n, part in enumerate(parts):
        pick = [right[i] for i in part]
        fitted = widths if len(parts) == 1 else fit(part)
        body = [fmt([r[i] for i in part], fitted, pick) for r in held[1]
                if not n or any(r[i] for i in part[keys:])]  # a row with nothing in a later part: left out
        blocks.append((fmt([held[0][i] for i in part], fitted, pick, heading=True), body))
    return blocks


#: How the keys of a report's meta that state a result begin ("mean successes", "P(initiator wins)",
#: "E[Magic]", "expected rolls"): the table format shows them under the title, the rest as provenance.
ANSWER_KEYS = ("mean ", "P(", "E[", "expected ")


def is_answer(key: str) -> bool:
    """Whether a meta item states a result (see ANSWER_KEYS) rather than where the numbers come from."""
    return key.startswith(ANSWER_KEYS)


def _render_table(report: Report, width: int | None = TABLE_WIDTH) -> str:
    """For a terminal: the answer first (title, headline, the meta items that state results, the report's
    :class:`Terminal` lead, tables, notes), then the provenance; lines within ``width`` columns (long text
    wraps, a table too wide is printed in parts), or one line per row and the report as it is (None,
    ``--wide``)."""
    terminal = report.terminal if width is not None and report.terminal is not None else Terminal()
    lines = _wrap(report.title, width, "", "  ")
    for h in report.headline:
        lines += _wrap(h, width, "  ", "    ")
    answers = [(k, v) for k, v in report.meta if is_answer(k)]
    for k, v in answers:
        lines += _wrap(f"{k}: {v}", width, "  ", "      ")
    for line in terminal.lead:
        item = "  " * (1 + (len(line) - len(line.lstrip(" "))) // 2)
        lines += _wrap(line.lstrip(" "), width, item, item + "    ")
    for s in report.shown() if terminal.views is None else terminal.views:
        lines += ["", *_wrap(s.title, width, "", "  ")]
        header, rows, right = _grid(s)
        left_out = []
        if width is not None and s.narrow is not None:
            keep = [i for i, h in enumerate(header) if h in s.narrow]
            left_out = [h for i, h in enumerate(header) if i not in keep]
            header, right = [header[i] for i in keep], [right[i] for i in keep]
            rows = [[r[i] for i in keep] for r in rows]
        lines += _table_lines(header, rows, right, width, s.keys, s.whole)
        if left_out:
            lines += _wrap(f"not shown here: {', '.join(left_out)} (--wide or another --format shows every "
                           "column)", width, "  ", "    ")
        for n in s.notes:
            lines += _wrap(f"note: {n}", width, "  ", "    ")
    notes = [n for n in report.notes if not n.startswith(terminal.moved)] if terminal.moved else report.notes
    lines += [""] if notes else []
    for n in notes:
        lines += _wrap(f"note: {n}", width, "", "  ")
    provenance = [(k, v) for k, v in report.meta if not is_answer(k) and k not in terminal.moved]
    if provenance:
        lines += ["", "Provenance"]
    for k, v in provenance:
        lines += _wrap(f"{k}: {v}", width, "  ", "      ")
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _render_markdown(report: Report) -> str:
    out = [f"# {_md_escape(report.title)}", ""]
    for h in report.headline:
        out += [f"**{_md_escape(h)}**", ""]
    out += [f"- **{_md_escape(k)}**: {_md_escape(v)}" for k, v in report.meta]
    for s in report.shown():
        out += ["", f"## {_md_escape(s.title)}", "", *markdown_table(s)]
    out += ["", *[f"> {_md_escape(n)}" for n in report.notes]] if report.notes else []
    return "\n".join(out) + "\n"


def markdown_table(s: Section) -> list[str]:
    """A section as the lines of a Markdown table, its notes after it."""
    header, rows, right = _grid(s)
    out = ["| " + " | ".join(_md_escape(c) for c in header) + " |",
           "|" + "|".join("---:" if n else ":---" for n in right) + "|"]
    out += ["| " + " | ".join(_md_escape(c) for c in r) + " |" for r in rows]
    out += ["", *[f"*{_md_escape(n)}*" for n in s.notes]] if s.notes else []
    return out


_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                  "<": r"\textless{}", ">": r"\textgreater{}", "≥": r"$\geq$", "≤": r"$\leq$", "±": r"$\pm$",
                  "—": "---", "–": "--"}


def _tex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _render_latex(report: Report) -> str:
    out = [f"% {report.title}", *(f"% {h}" for h in report.headline),
           *(f"% {k}: {v}" for k, v in report.meta)]
    for s in report.shown():
        header, rows, right = _grid(s)
        spec = "".join("r" if n else "l" for n in right)
        out += ["", r"\begin{table}[ht]", r"\centering", rf"\caption{{{_tex(s.title)}}}",
                rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
                " & ".join(_tex(c) for c in header) + r" \\", r"\midrule"]
        out += [" & ".join(_tex(c) for c in r) + r" \\" for r in rows]
        out += [r"\bottomrule", r"\end{tabular}"]
        out += [rf"\par\small {_tex(n)}" for n in s.notes]
        out.append(r"\end{table}")
    out += [f"% note: {n}" for n in report.notes]
    out.append("% tables use booktabs: \\usepackage{booktabs}")
    return "\n".join(out) + "\n"


#: The style sheet of every HTML page (inline: the pages need no other file and no network).
HTML_STYLE = ("body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em}"
              "table{border-collapse:collapse;margin-bottom:1em}th,td{border:1px solid #ccc;padding:2px 8px}"
              "td.n{text-align:right}")


def html_table(s: Section) -> list[str]:
    """A section as the lines of an HTML table, its notes after it."""
    e = html.escape
    header, rows, numeric = _grid(s)
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{e(c)}</th>" for c in header) + "</tr></thead>",
           "<tbody>"]
    for r in rows:
        cells = "".join(f'<td class="n">{e(c)}</td>' if n else f"<td>{e(c)}</td>"
                        for c, n in zip(r, numeric, strict=True))
        out.append(f"<tr>{cells}</tr>")
    return out + ["</tbody>", "</table>"] + [f"<p><em>{e(n)}</em></p>" for n in s.notes]


def _render_html(report: Report) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{e(report.title)}</title>", f"<style>{HTML_STYLE}</style>",
           "</head>", "<body>", f"<h1>{e(report.title)}</h1>"]
    out += [f"<p><strong>{e(h)}</strong></p>" for h in report.headline]
    out.append("<dl>")
    out += [f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in report.meta]
    out.append("</dl>")
    for s in report.shown():
        out += [f"<h2>{e(s.title)}</h2>", *html_table(s)]
    out += [f"<p><strong>note:</strong> {e(n)}</p>" for n in report.notes]
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def frame_csv(frame: pd.DataFrame) -> str:
    """A DataFrame as CSV: no index, ``\n`` line ends."""
    return frame.to_csv(index=False, lineterminator="\n")


def _render_csv(report: Report) -> str:
    first = report.sections[0]
    if first.table is not None:
        return first.table.csv()
    return frame_csv(first.data)


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


def _json_column(values: np.ndarray) -> list:
    """A DataFrame column as JSON-ready Python values (numbers as Python numbers, non-finite as None)."""
    if values.dtype.kind in "biu":
        return values.tolist()
    if values.dtype.kind == "f":
        out = values.astype(object)
        out[~np.isfinite(values)] = None
        return out.tolist()
    return [_jsonable(v) for v in values.tolist()]


def _extension_column(column: pd.Series) -> list:
    """A column of one of pandas' own dtypes (strings, nullable numbers) as JSON-ready values, missing
    ones as None."""
    import pandas as pd  # loaded already: the column is pandas'

    values = column.to_numpy(dtype=object, na_value=None).tolist()
    if pd.api.types.is_string_dtype(column.dtype):
        return values  # str and None already
    return [_jsonable(v) for v in values]


def _frame_columns(frame: pd.DataFrame) -> list[list]:
    """The frame's columns as lists of JSON-ready values (what ``_jsonable`` makes of every cell)."""
    return [_json_column(frame[c].to_numpy()) if isinstance(frame[c].dtype, np.dtype)
            else _extension_column(frame[c]) for c in frame.columns]


#: One encoder for every record line (json.dumps with a keyword builds a new encoder per call).
_LINE_ENCODER = json.JSONEncoder(allow_nan=False)


def _record_lines(names: list, columns: list[list]) -> list[str]:
    """Each row of ``columns`` as one JSON object on one line."""
    return [_LINE_ENCODER.encode(dict(zip(names, row, strict=True))) for row in zip(*columns, strict=True)]


def _render_json(report: Report) -> str:
    """The report as one JSON document: indented, one line per record (so a large section is written by
    the C encoder, and stays readable line by line)."""
    sections = {}
    for s in report.sections:
        if s.table is not None:
            names = s.table.names
            columns = [[_jsonable(v) for v in c] for c in s.table.plain_columns()]
        else:
            names, columns = list(s.data.columns), _frame_columns(s.data)
        sections[s.name] = _record_lines(names, columns)
    meta = {**dict(report.meta), **_jsonable(report.facts)}
    notes = report.notes + [n for s in report.sections for n in s.notes]

    def dumped(value: object, indent: int | None = None) -> str:
        return json.dumps(value, indent=indent, allow_nan=False) if indent else _LINE_ENCODER.encode(value)

    lines = ["{", f'  "title": {dumped(report.title)},',
             '  "meta": ' + dumped(meta, 2).replace("\n", "\n  ") + ",", '  "sections": {']
    for i, (name, records) in enumerate(sections.items()):
        lines.append(f"    {dumped(name)}: [")
        if records:
            lines.append("      " + ",\n      ".join(records))
        lines.append("    ]" + ("," if i < len(sections) - 1 else ""))
    lines += ["  },", '  "notes": ' + dumped(notes, 2).replace("\n", "\n  "), "}"]
    return "\n".join(lines) + "\n"


_RENDERERS = {"table": _render_table, "csv": _render_csv, "json": _render_json,
              "markdown": _render_markdown, "latex": _render_latex, "html": _render_html}


def render(report: Report, fmt: str, *, wide: bool = False) -> str:
    """The report as text in ``fmt`` (one of :data:`FORMATS`); the table format within TABLE_WIDTH
    columns unless ``wide`` (one line per row)."""
    if fmt not in _RENDERERS:
        raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")
    if fmt == "table":
        return _render_table(report, None if wide else TABLE_WIDTH)
    return _RENDERERS[fmt](report)

