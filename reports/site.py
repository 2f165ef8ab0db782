"""`balance report --output DIR`: the whole balance report of every game as a static site.

The folder holds ``index.html`` and ``index.md`` linking one page per game, and for each game a folder::

    <game>/index.html, index.md   ranking with fair costs and verdicts, meta-game, win-matrix heatmap,
                                  the rulebook tables, the rulings in force (with their defaults and
                                  meanings), the provenance and the notes
    <game>/efficiency.csv ...     the ranking, meta-game and every engagement as CSV, the report as JSON
                                  and Markdown, efficiency.png (the heatmap)
    <game>/tables/                every standard rulebook table (`balance table <game> all`)

Every page is self-contained HTML (an inline style sheet, images beside it, no network). Nothing in the
output depends on the clock or the machine: the same seed gives the same bytes, however many threads or
cluster workers ran the matchups. The folder is written whole or not at all (reports.files.OutputSet).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import rulesets
from reports.files import OutputSet, OutputSubset
from reports.formats import (
    HTML_STYLE,
    TABLE_WIDTH,
    Report,
    Section,
    frame_csv,
    html_table,
    markdown_table,
    render,
)
from rulesets.base import OptionError, Ruleset, RulingError, Rulings

Progress = Callable[[int, int], None]

#: The files of a game's efficiency report, in the order the page lists them.
EFFICIENCY_FILES = (("efficiency.csv", "the ranking: value, value per cost, fair cost, verdict (CSV)"),
                    ("metagame.csv", "the meta-game: equilibrium share and Nash rating (CSV)"),
                    ("matchups.csv", "every engagement, every metric, both sides (tidy CSV)"),
                    ("efficiency.json", "the whole efficiency report with its provenance (JSON)"),
                    ("efficiency.md", "the whole efficiency report (Markdown)"),
                    ("efficiency.png", "the win matrix as a heatmap (PNG)"))


#: The 95% half-width of each engagement's P(side 0 wins) the site runs its fields to when neither a precision
#: nor trials are given: twice `balance efficiency`'s 0.01, a quarter of its trials. A page's verdicts have a
#: band of 10% of the cost (--tolerance), and the fair costs' intervals stay well inside it at this width;
#: every page states its precision and every figure its interval.
SITE_PRECISION = 0.02
#: The 95% half-width of the site's points steps after today's field (on the same streams; a page states
#: it in the points report's method): twice today's, a quarter of the trials. A step only has to say which
#: way each cost moves and about how far; an entry's fair cost pools its engagements with every other, so
#: its interval stays a small part of the band (half-widths within 3% of the cost on the seed-0 site, the
#: band 10%). The army searches screen the armies they try at it too; the armies a page shows are played
#: again at the page's precision.
SITE_STEP_PRECISION = 0.04
#: The most steps the site's points tables take (`balance points` takes reports.points.DEFAULT_ITERATIONS).
SITE_ITERATIONS = 6


@dataclass
class GamePage:
    """What the index says about one game once its page is written."""

    ruleset: Ruleset
    entries: int
    verdicts: dict[str, int]
    method: str
    illustrative: str | None
    tables: int
    notes: list[str] = field(default_factory=list)
    #: The worst over- and under-costed entries, one line each ("Crows (12): under-costed, off by +35% ...").
    offenders: list[str] = field(default_factory=list)
    #: The points report (the proposed points table, the pricing rule), when the page has one.
    points: Report | None = None
    #: The army report (the army a sharp player brings and its counter), for a game that plays armies.
    army: Report | None = None


def split_rulings(games: Sequence[Ruleset], texts: Sequence[str]) -> dict[str, Rulings]:
    """Each game's rulings from ``NAME=VALUE`` strings, each routed to the game that has the ruling."""
    assigned: dict[str, list[str]] = {rs.name: [] for rs in games}
    for text in texts:
        key = text.partition("=")[0].strip()
        owner = None
        for rs in games:
            try:
                rs.rulings().spec(key)
            except RulingError:
                continue
            owner = rs.name
            break
        if owner is None:
            known = ", ".join(s.key for rs in games for s in rs.rulings().specs())
            raise RulingError(f"unknown ruling {key!r}; the games in this report accept: {known}")
        assigned[owner].append(text)
    return {rs.name: rs.rulings().with_assignments(assigned[rs.name]) for rs in games}


def field_size(ruleset: Ruleset, rulings: Rulings) -> int:
    """How many engagements the game's efficiency report plays (every contestant, both roles)."""
    n = len(ruleset.contestants(ruleset.catalog_for(ruleset.load_catalog(()), rulings)))
    return n * (n - 1)


def build(games: Sequence[Ruleset], out: OutputSet, *, rulings: dict[str, Rulings], seed: int,
          precision: float | None, trials: int | None, threads: int | None, digits: int = 4,
          progress: Progress | None = None, started: Callable[[Ruleset], None] | None = None,
          points_steps: int = SITE_ITERATIONS) -> list[GamePage]:
    """Stage the whole site into ``out``; returns what each game's page holds, in ``games`` order.

    ``progress(done, total)`` counts engagements over every game; ``started(ruleset)`` is called as each
    game begins.
    """
    from reports import api, points

    # the points steps after today's field and the army searches' screens play to a coarser half-width
    coarse = None if precision is None else max(precision, SITE_STEP_PRECISION)
    sizes = [field_size(rs, rulings[rs.name]) for rs in games]
    total = sum(sizes)
    pages = []
    for k, rs in enumerate(games):
        if started is not None:
            started(rs)
        before = sum(sizes[:k])
        # the bar counts today's field of each game; the points table's further steps are not counted
        step = None if progress is None else (lambda done, _t, before=before, size=sizes[k]:
                                              progress(before + min(done, size), total))
        report, grid, points_report, points_rows, field = api.efficiency_and_points_reports(
            rs.name, rulings=rulings[rs.name], seed=seed, precision=precision, trials=trials, threads=threads,
            progress=step, iterations=points_steps,
            step_precision=coarse)
        game_out = out.under(rs.name)
        points.write(rs, points_report, points_rows, game_out)
        army_report = None
        if rs.plays_armies:  # the army a sharp player brings, at the game's budget and the page's settings
            army_report = api.army_report(rs.name, rulings=rulings[rs.name], seed=seed, precision=precision,
                                          trials=trials, threads=threads, played=field,
                                          search_precision=coarse)
            game_out.write_text("army.md", render(army_report, "markdown"))
            game_out.write_text("army.json", render(army_report, "json"))
        # staged into the set, written when it ends
        write_efficiency(rs, report, grid, game_out)
        api.export_tables(rs.name, game_out.under("tables"), rulings=rulings[rs.name], digits=digits)
        entries = _table_entries(rs)
        page = _page(rs, report, entries)
        page.points = points_report
        page.army = army_report
        game_out.write_text("index.html", _game_html(page, report, entries, rulings[rs.name]))
        game_out.write_text("index.md", _game_md(page, report, entries, rulings[rs.name]))
        pages.append(page)
    out.write_text("index.html", _index_html(pages, seed, precision, trials))
    out.write_text("index.md", _index_md(pages, seed, precision, trials))
    return pages


def write_efficiency(rs: Ruleset, report: Report, grid, out: OutputSet | OutputSubset) -> None:
    """Stage a game's efficiency report into ``out``: the ranking, meta-game and engagements as CSV, the
    report as Markdown and JSON, the win matrix as a heatmap (`efficiency --save` and each site page)."""
    out.write_text("efficiency.csv", render(report, "csv"))
    for section in report.sections[1:3]:
        out.write_text(f"{section.name}.csv", frame_csv(section.data))
    out.write_text("efficiency.md", render(report, "markdown"))
    out.write_text("efficiency.json", render(report, "json"))
    out.write_with("efficiency.png", win_matrix_drawing(rs, dict(report.meta).get("method", ""), grid))


def _win_matrix_how(method: str) -> str:
    """What goes under the heatmap's title: the report's method line up to its note on intervals."""
    import textwrap

    return textwrap.fill(method.split("; ±")[0], 110)


def win_matrix_drawing(rs: Ruleset, method: str, grid) -> Callable[[Path], None]:
    """What writes the heatmap of the win matrix to a path (``method``: the report's method line, whose seed
    and trials go under the title)."""
    from reports import api

    how = _win_matrix_how(method)

    def here(path: Path) -> None:
        api.plot_win_matrix(grid, path, rs, how)

    return here


def _table_entries(rs: Ruleset) -> list[tuple[str, str, list[str]]]:
    """(name, title, files) of each standard table, as `table <game> all` writes them."""
    from reports import api
    from reports.exports import FILES

    game = api._game(rs.name)
    out = []
    for name, spec in rs.tables().items():
        files = [f"{name}{suffix}" for suffix, _ in FILES]
        if game.has_plot(name):
            files.append(f"{name}.png")
        out.append((name, spec.title, files))
    return out


def _page(rs: Ruleset, report: Report, entries) -> GamePage:
    from reports.efficiency import VERDICTS, offender_lines

    meta = dict(report.meta)
    rank = report.sections[0].data
    counts = rank["verdict"].value_counts()
    verdicts = {v: int(counts.get(v, 0)) for v in VERDICTS}
    return GamePage(rs, len(rank), verdicts, meta.get("method", ""), meta.get("illustrative data"),
                    len(entries), list(report.notes), offender_lines(rank, rs))


def verdict_text(page: GamePage) -> str:
    """"2 under-costed, 20 fair, 1 over-costed" (undecided and not measured only when there are some)."""
    from reports.efficiency import counts_text

    return counts_text(page.verdicts)


def _rulings_rows(rulings: Rulings) -> Section:
    from reports.formats import Table

    rows = [{"ruling": s.key, "in force": s.format(getattr(rulings, s.field)),
             "default": s.format(s.default), "accepted": s.accepted.replace("|", " | "),
             "meaning": s.meaning, "source": s.source} for s in rulings.specs()]
    return Section("rulings", "Rulings in force", Table.from_records(rows),
                   ["switch one with --ruling NAME=VALUE (balance report, or any verb of the game)"])


# --- HTML ------------------------------------------------------------------------------------------------


def _head(title: str) -> list[str]:
    e = html.escape
    return ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{e(title)}</title>",
            f"<style>{HTML_STYLE}.warn{{background:#fff3cd;border:1px solid #e0c36c;padding:4px 8px}}"
            "nav a{margin-right:1em}img{max-width:100%;height:auto}</style>", "</head>", "<body>"]


def _illustrative_html(page: GamePage) -> list[str]:
    if not page.illustrative:
        return []
    return [f'<p class="warn"><strong>Illustrative data.</strong> {html.escape(page.illustrative)}. '
            "Costs and values built on them show how the tool works, not how the game is balanced.</p>"]


def _game_html(page: GamePage, report: Report, entries, rulings: Rulings) -> str:
    from reports.exports import table_rows_html

    e = html.escape
    rs = page.ruleset
    views = {s.name: s for s in report.views}
    title = f"{rs.title}: balance report"
    out = _head(title)
    out += ['<p><a href="../index.html">All games</a></p>', f"<h1>{e(title)}</h1>", *_illustrative_html(page),
            "<nav>" + "".join(f'<a href="#{a}">{t}</a>' for a, t in
                              (("points", "Points table"), ("ranking", "Ranking"), ("metagame", "Meta-game"),
                               ("matrix", "Win matrix"),
                               ("tables", "Rulebook tables"), ("rulings", "Rulings"),
                               ("provenance", "Provenance"), ("files", "Files"))) + "</nav>",
            f"<p><strong>Verdicts:</strong> {e(verdict_text(page))} ({page.entries} entries).</p>",
            "<p><strong>Worst offenders:</strong></p>", "<ul>",
            *([f"<li>{e(o)}</li>" for o in page.offenders] or ["<li>none beyond the tolerance</li>"]),
            "</ul>", *_points_html(page),
            '<h2 id="ranking">Ranking with fair costs and verdicts</h2>',
            f"<p>{e(_ranking_sentence(rs))}</p>", *html_table(views["ranking"]),
            f'<h2 id="metagame">{e(views["metagame"].title)}</h2>',
            f"<p>{e(_metagame_sentence(report))}</p>", *html_table(views["metagame"]),
            f'<h2 id="matrix">{e(views["matrix"].title)}</h2>',
            f'<p><img src="efficiency.png" alt="{e(rs.title)}: win probability of each row entry against '
            'each column entry"></p>', '<p>The numbers: <a href="matchups.csv">matchups.csv</a> (every '
            'engagement and metric, with standard errors and trials).</p>',
            '<h2 id="tables">Rulebook tables (exact)</h2>',
            '<p>Every table in Markdown, CSV (full precision), LaTeX and HTML; the folder\'s own index: '
            '<a href="tables/index.html">tables/index.html</a>.</p>', "<table>",
            "<thead><tr><th>table</th><th>files</th></tr></thead>", "<tbody>"]
    out += table_rows_html(entries, "tables/")
    out += ["</tbody>", "</table>", '<h2 id="rulings">Rulings in force</h2>',
            *html_table(_rulings_rows(rulings)), '<h2 id="provenance">Provenance and method</h2>', "<dl>"]
    out += [f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in report.meta]
    out += ["</dl>", "<h2>Notes</h2>", "<ul>", *[f"<li>{e(n)}</li>" for n in report.notes], "</ul>",
            '<h2 id="files">Files</h2>', "<ul>"]
    out += [f'<li><a href="{f}">{f}</a>: {e(what)}</li>' for f, what in _page_files(page)]
    out += ['<li><a href="tables/index.html">tables/</a>: the rulebook tables</li>',
            '<li><a href="index.md">index.md</a>: this page in Markdown</li>', "</ul>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _settings(seed: int, precision: float | None, trials: int | None) -> str:
    how = (f"each engagement's win probability to a 95% half-width of {precision:g}" if precision
           else f"{trials:,} trials per engagement")
    return f"seed {seed}; Monte Carlo engagements run until {how}; exact games computed exactly"


def _index_html(pages: Sequence[GamePage], seed: int, precision: float | None, trials: int | None) -> str:
    from reports.provenance import version

    e = html.escape
    out = _head("Balance report: every game")
    out += ["<h1>Balance report: every game</h1>",
            f"<p>{e(_settings(seed, precision, trials))}; balance {e(version())}.</p>", "<table>",
            "<thead><tr><th>game</th><th>entries</th><th>verdicts</th><th>worst offenders</th>"
            "<th>rulebook tables</th><th>method</th><th>data</th></tr></thead>", "<tbody>"]
    for p in pages:
        data = "illustrative (see the page)" if p.illustrative else "as printed in the rulebook"
        out.append(f'<tr><td><a href="{e(p.ruleset.name)}/index.html">{e(p.ruleset.title)}</a></td>'
                   f'<td class="n">{p.entries}</td><td>{e(verdict_text(p))}</td>'
                   f'<td>{e("; ".join(p.offenders[:3]) or "none beyond the tolerance")}</td>'
                   f'<td class="n">{p.tables}</td>'
                   f"<td>{e(p.method.split(':')[0])}</td><td>{e(data)}</td></tr>")
    out += ["</tbody>", "</table>"]
    for p in pages:
        if p.illustrative:
            out.append(f'<p class="warn"><strong>{e(p.ruleset.title)}: illustrative data.</strong> '
                       f"{e(p.illustrative)}.</p>")
    out += ['<p>This page in Markdown: <a href="index.md">index.md</a>.</p>', "</body>", "</html>"]
    return "\n".join(out) + "\n"


# --- Markdown --------------------------------------------------------------------------------------------


def _points_files():
    from reports.points import POINTS_FILES

    return POINTS_FILES


#: What a page of a game that plays armies writes beside the others.
ARMY_FILES = (("army.md", "the army a sharp player brings, its counter, the search and the field (Markdown)"),
              ("army.json", "the whole army report with its provenance (JSON)"))


def _page_files(page: GamePage):
    return (*EFFICIENCY_FILES, *_points_files(), *(ARMY_FILES if page.army is not None else ()))


def _points_views(page: GamePage) -> dict:
    return {} if page.points is None else {v.name: v for v in page.points.views}


def _points_html(page: GamePage) -> list[str]:
    """The proposed points table beside today's costs, and the pricing rule, opening a game page."""
    if page.points is None:
        return []
    e = html.escape
    views = _points_views(page)
    out = ['<h2 id="points">The balanced points table: proposed costs beside today\'s</h2>',
           *[f"<p>{e(h)}</p>" for h in page.points.headline],
           '<p>A fixed point of these contests under these rulings, not a playtest (what the contests do '
           'not play is not priced). <a href="points.md">The whole points report</a> (every step, the '
           'meta-game at both costs, the notes); <a href="points.csv">points.csv</a>.</p>',
           *html_table(views["points"]),
           '<p><img src="points.png" alt="today\'s and the proposed costs"></p>']
    if "rule" in views:
        out += [f"<h3>{e(views['rule'].title)}</h3>", *html_table(views["rule"]),
                f"<h3>{e(views['rule_residuals'].title)}</h3>", *html_table(views["rule_residuals"])]
    if page.army is not None:
        army = {v.name: v for v in page.army.views}
        out += ['<h2 id="army">The army a sharp player brings</h2>',
                *[f"<p>{e(h)}</p>" for h in page.army.headline],
                '<p><a href="army.md">The whole army report</a> (the search, the field, the notes).</p>',
                f"<h3>{e(army['list'].title)}</h3>", *html_table(army["list"]),
                f"<h3>{e(army['armies'].title)}</h3>", *html_table(army["armies"])]
    return out


def _points_md(page: GamePage) -> list[str]:
    if page.points is None:
        return []
    views = _points_views(page)
    out = ["## The balanced points table: proposed costs beside today's", "",
           *[f"{_md(h)}  " for h in page.points.headline], "",
           "A fixed point of these contests under these rulings, not a playtest (what the contests do not "
           "play is not priced). [The whole points report](points.md); [points.csv](points.csv).", "",
           *markdown_table(views["points"]), "", "![today's and the proposed costs](points.png)", ""]
    if "rule" in views:
        out += [f"### {_md(views['rule'].title)}", "", *markdown_table(views["rule"]), "",
                f"### {_md(views['rule_residuals'].title)}", "", *markdown_table(views["rule_residuals"]), ""]
    if page.army is not None:
        army = {v.name: v for v in page.army.views}
        out += ["## The army a sharp player brings", "", *[f"{_md(h)}  " for h in page.army.headline], "",
                "[The whole army report](army.md) (the search, the field, the notes).", "",
                f"### {_md(army['list'].title)}", "", *markdown_table(army["list"]), "",
                f"### {_md(army['armies'].title)}", "", *markdown_table(army["armies"]), ""]
    return out


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _ranking_sentence(rs: Ruleset) -> str:
    """What the ranking's value, fair cost and verdict mean, said where the ranking is read."""
    value = next(m.description for m in rs.metrics if m.name == rs.primary_metric)
    value = value.replace(" (the primary value)", "")
    return (f"Value: {value}, averaged over every opponent and both roles (± its 95% half-width). Fair "
            f"cost: {rs.fair_cost_rule.description}. A verdict is fair when the fair cost lies within the "
            "tolerance band of today's cost, over- or under-costed only when its whole 95% interval lies "
            "outside it, and not measured when the contest leaves out a rule that can change the entry's "
            "value.")


def _metagame_sentence(report: Report) -> str:
    """The meta-game in a sentence: how many entries the equilibrium mix holds, and what that means."""
    data = {s.name: s.data for s in report.sections}
    table, rank = data["metagame"], data["ranking"]
    held = table[table["share"].astype(float) > 1e-9]
    if len(held) == 1:
        name = dict(zip(rank["key"], rank["name"], strict=True)).get(held["key"].iloc[0], "one entry")
        return (f"One entry, {name}, takes the whole equilibrium mix: a player choosing among these entries "
                "at today's costs has no reason to bring any other. Its Nash rating is 0 (par against the "
                "mix); every other entry's rating, below 0, is what it loses against it. A balanced table "
                "leaves several entries with a share (the points table above proposes one).")
    return (f"{len(held)} of {len(table)} entries have a share of the equilibrium mix (what a player "
            "choosing among them at today's costs brings, in the long run); an entry without one is "
            "dominated, and its Nash rating (below 0) is what it loses against the mix.")

def _game_md(page: GamePage, report: Report, entries, rulings: Rulings) -> str:
    rs = page.ruleset
    views = {s.name: s for s in report.views}
    out = [f"# {_md(rs.title)}: balance report", "", "[All games](../index.md)", ""]
    if page.illustrative:
        out += [f"> **Illustrative data.** {_md(page.illustrative)}. Costs and values built on them show how "
                "the tool works, not how the game is balanced.", ""]
    out += [f"**Verdicts:** {verdict_text(page)} ({page.entries} entries).", "", "**Worst offenders:**", "",
            *([f"- {_md(o)}" for o in page.offenders] or ["- none beyond the tolerance"]), "",
            *_points_md(page),
            "## Ranking with fair costs and verdicts", "", _md(_ranking_sentence(rs)), "",
            *markdown_table(views["ranking"]), "", f"## {_md(views['metagame'].title)}", "",
            _md(_metagame_sentence(report)), "", *markdown_table(views["metagame"]), "",
            f"## {_md(views['matrix'].title)}", "", "![win matrix](efficiency.png)", "",
            "The numbers: [matchups.csv](matchups.csv).", "", "## Rulebook tables (exact)", "",
            "| table | files |", "|:---|:---|"]
    for name, table_title, files in entries:
        links = " · ".join(f"[{f.rsplit('.', 1)[1]}](tables/{f})" for f in files)
        out.append(f"| {_md(table_title)} (`{name}`) | {links} |")
    out += ["", "## Rulings in force", "", *markdown_table(_rulings_rows(rulings)), "",
            "## Provenance and method", ""]
    out += [f"- **{_md(k)}**: {_md(v)}" for k, v in report.meta]
    out += ["", "## Notes", "", *[f"- {_md(n)}" for n in report.notes], "", "## Files", ""]
    out += [f"- [{f}]({f}): {what}" for f, what in _page_files(page)]
    out += ["- [tables/](tables/index.md): the rulebook tables", ""]
    return "\n".join(out)


def _index_md(pages: Sequence[GamePage], seed: int, precision: float | None, trials: int | None) -> str:
    from reports.provenance import version

    out = ["# Balance report: every game", "", f"{_settings(seed, precision, trials)}; balance {version()}.",
           "", "| game | entries | verdicts | worst offenders | rulebook tables | method | data |",
           "|:---|---:|:---|:---|---:|:---|:---|"]
    for p in pages:
        data = "illustrative (see the page)" if p.illustrative else "as printed in the rulebook"
        out.append(f"| [{_md(p.ruleset.title)}]({p.ruleset.name}/index.md) | {p.entries} | "
                   f"{verdict_text(p)} | {_md('; '.join(p.offenders[:3]) or 'none beyond the tolerance')} | "
                   f"{p.tables} | {_md(p.method.split(':')[0])} | {data} |")
    out.append("")
    out += [f"> **{_md(p.ruleset.title)}: illustrative data.** {_md(p.illustrative)}.\n" for p in pages
            if p.illustrative]
    return "\n".join(out)


def summary(pages: Sequence[GamePage], folder: PurePath) -> str:
    """The lines printed at the end of a report: each game's verdicts, and where the site is."""
    import textwrap

    def wrapped(text: str, indent: str) -> list[str]:  # within the terminal's 100 columns, a path unbroken
        return textwrap.wrap(text, TABLE_WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                             break_long_words=False, break_on_hyphens=False) or [indent]

    lines = ["verdicts:"]
    for p in pages:
        flag = " (illustrative data)" if p.illustrative else ""
        lines += wrapped(f"{p.ruleset.name}: {p.entries} entries: {verdict_text(p)}{flag}", "  ")
        for o in p.offenders[:3]:
            lines += wrapped(o, "    ")
    lines += wrapped(f"the report: {folder / 'index.html'} (and index.md)", "")
    return "\n".join(lines)


# --- the site as the Python API gives it (balance.report) -----------------------------------------------


def report_games(games: Sequence[str] = ()) -> list[Ruleset]:
    """The rulesets a site reports on: those named (in the order given, each once), else every implemented
    one; an unknown or unimplemented name is a one-line error."""
    if not games:
        return [rs for rs in rulesets.available() if rs.implemented]
    out = []
    for name in games:
        try:
            rs = rulesets.get(name)
        except rulesets.RulesError as exc:
            raise OptionError(str(exc)) from None
        if not rs.implemented:
            raise rulesets.RulesError(f"{rs.name} is not implemented yet: `balance report` cannot cover it")
        if rs not in out:
            out.append(rs)
    return out


def report_pages(games: Sequence[Ruleset], out: OutputSet, *, rulings: dict[str, Rulings],
                 seed: int | None = None, precision: float | None = None, trials: int | None = None,
                 threads: int | None = None, digits: int = 4, points_steps: int | None = None,
                 progress: Progress | None = None, started: Callable[[Ruleset], None] | None = None):
    """Stage the site of ``games`` into ``out`` (an OutputSet still open), each game's rulings already
    split (:func:`split_rulings`); returns each game's page (:class:`GamePage`).
    :func:`report` and `balance report` both run it."""
    from reports import api

    if precision is None and trials is None:
        precision = SITE_PRECISION
    return build(games, out, rulings=rulings, seed=api._seed(seed), precision=precision, trials=trials,
                 threads=threads, digits=digits, progress=progress, started=started,
                 points_steps=SITE_ITERATIONS if points_steps is None else points_steps)


def _writable(folder: Path, force: bool) -> None:
    """A folder to write a site into: new, empty, or (``force``) one holding files; checked before work."""
    if not str(folder).strip():
        raise OptionError(f"output {str(folder)!r} is empty: give a folder name")
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"output {str(folder)!r} is not a folder; name a new or existing folder")
    if force or not folder.is_dir():
        return
    entries = sum(1 for _ in folder.iterdir())
    if entries:
        many = "entry" if entries == 1 else "entries"
        raise OptionError(f"output {str(folder)!r} is not empty ({entries} {many}); "
                          "give force=True to write into it (files of the same name are replaced, others "
                          "left), or name a new or empty folder")


def report(*, output: str | Path, games: Sequence[str] = (), force: bool = False, digits: int = 4,
           points_steps: int | None = None, rulings: Sequence[str] = (), seed: int | None = None,
           precision: float | None = None, trials: int | None = None, threads: int | None = None,
           scheduler: str | None = None, dask: bool = False, progress: Progress | None = None) -> list[Path]:
    """The whole balance report of every game (or of ``games``) as a static site in the folder ``output``
    (`balance report [GAME]... --output DIR`): index.html and index.md linking one page per game with its
    ranking, fair costs and verdicts, meta-game, win-matrix heatmap, rulebook tables, rulings in force and
    provenance; CSVs and PNGs beside them. Written whole or not at all; returns the files written. Keywords,
    as the command's options: ``output`` (--output, a new or empty folder), ``games`` (the GAME arguments),
    ``force`` (--force: write into a folder holding files), ``digits`` (--digits: decimal places of the
    tables' probabilities), ``points_steps`` (--points-steps: the most steps each game's points table takes,
    default 6), ``rulings`` (--ruling "NAME=VALUE", each to the game that has it), ``seed``, ``precision``
    (default 0.02, :data:`SITE_PRECISION`), ``trials``, ``threads``, ``scheduler`` or ``dask`` (a Dask
    cluster: the same bytes), ``progress(done, total)`` (engagements over every game)."""
    from reports.cli.cluster import cluster

    chosen = report_games(games)
    in_force = split_rulings(chosen, rulings)
    folder = Path(output)
    _writable(folder, force)
    with cluster(scheduler, dask):
        try:
            out_set = OutputSet(folder)
        except OSError as exc:
            raise OptionError(f"output: {exc}") from None
        with out_set as out:
            report_pages(chosen, out, rulings=in_force, seed=seed, precision=precision, trials=trials,
                         threads=threads, digits=digits, points_steps=points_steps, progress=progress)
    return list(out.written)
