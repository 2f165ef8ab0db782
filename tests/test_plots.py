"""Plots a designer can read (issue 34): every plot the site writes, and the command line's, rendered to PNG
in a temporary folder from small data and checked as the page shows it.

- every text at least 9 px tall at the width the page displays the image (its size in points x DPI / 72
  x displayed / actual width; the displayed width from the site's own CSS and HTML);
- every line series in a legend has its own (marker, line style) pair, so it reads without colour, and a
  series lying on an earlier one says so and is drawn larger;
- axes of counts (dice, Magic, successes, tokens, players, coins, target values) have whole-number ticks;
- heatmap cell numbers at least 9 px tall on the page, or none above 20 entries;
- the heatmap's colour bar in percent, like its cells.
"""

from __future__ import annotations

import importlib
import re
import struct
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from reports import plots
from simcore.stats import Z95

#: The smallest text height on the page the tests accept, in pixels (the plots aim at plots.SMALL_PX).
MIN_PX = 9.0
#: A digit's height in DejaVu Sans, in ems (the cell numbers' outlines are measured to find their size).
DIGIT_EM = 0.729


def _record(monkeypatch, figures: list) -> None:
    """Make every plot's save also append (figure, path, where) to ``figures``; the files are really
    written."""
    from reports.drakerys import plots as drakerys_plots

    real = plots.save

    def save(fig, path, where=plots.PAGE):
        real(fig, path, where)
        figures.append((fig, path, where))

    monkeypatch.setattr(plots, "save", save)
    monkeypatch.setattr(drakerys_plots, "save", save)


@pytest.fixture
def drawn(monkeypatch):
    """Each figure saved while the test runs, as (figure, path, where)."""
    figures = []
    _record(monkeypatch, figures)
    return figures


# --- the checks ---------------------------------------------------------------------------------------------


def png_width(path) -> int:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">I", data[16:20])[0]


def page_scale(fig, path, where: str) -> float:
    """Displayed width / actual width of the saved image, the file's width read from the PNG."""
    width = png_width(path)
    assert abs(width - fig.get_figwidth() * plots.DPI) < 1  # no cropping: the sizes chosen are the sizes
    shown = plots.TABLE_PX if where == plots.TABLE else min(width, plots.PAGE_PX)
    return shown / width


def small_texts(fig, scale: float) -> list[tuple[str, float]]:
    """(text, height on the page in px) of every visible text below MIN_PX."""
    from matplotlib.text import Text

    out = []
    for t in fig.findobj(Text):
        if t.get_visible() and t.get_text().strip():
            px = t.get_fontsize() * plots.DPI / 72 * scale
            if px < MIN_PX:
                out.append((t.get_text(), round(px, 2)))
    return out


def twin_series(fig) -> list[tuple[str, str]]:
    """Pairs of legend series in one axes with the same (marker, line style): told apart by colour only."""
    out = []
    for ax in fig.axes:
        seen = {}
        for line in ax.get_lines():
            if line.get_label().startswith("_"):
                continue
            key = (line.get_marker(), line.get_linestyle())
            if key in seen:
                out.append((seen[key], line.get_label()))
            seen[key] = line.get_label()
    return out


def hidden_series(fig) -> list[str]:
    """Legend series drawn exactly over an earlier one without saying so or standing out."""
    out = []
    for ax in fig.axes:
        lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
        for k, line in enumerate(lines):
            for earlier in lines[:k]:
                if (np.array_equal(line.get_xdata(), earlier.get_xdata())
                        and np.allclose(line.get_ydata(), earlier.get_ydata(), atol=1e-9)
                        and ("same as" not in line.get_label()
                             or line.get_markersize() <= earlier.get_markersize())):
                    out.append(line.get_label())
    return out


def half_steps(axis) -> list[float]:
    """Ticks inside the view that are not whole numbers."""
    low, high = sorted(axis.get_view_interval())
    return [t for t in axis.get_ticklocs() if low - 1e-9 <= t <= high + 1e-9 and t != round(t)]


def cell_number_px(fig, scale: float) -> list[float]:
    """The height on the page of each heatmap's cell numbers (one font size per heatmap), from the digits'
    outlines."""
    from matplotlib.collections import PathCollection

    out = []
    for ax in fig.axes:
        for c in ax.collections:
            if isinstance(c, PathCollection) and len(c.get_paths()):
                points = min(p.get_extents().height for p in c.get_paths()) / DIGIT_EM
                out.append(points * plots.DPI / 72 * scale)
    return out


def check(fig, path, where: str, counts=()) -> None:
    """Every rule of the module docstring; ``counts``: the axes (XAxis/YAxis) that hold counts."""
    scale = page_scale(fig, path, where)
    assert small_texts(fig, scale) == []
    assert twin_series(fig) == []
    assert hidden_series(fig) == []
    for axis in counts:
        assert half_steps(axis) == [], axis.get_label_text()
    assert all(px >= MIN_PX for px in cell_number_px(fig, scale))


# --- the checks can fail ------------------------------------------------------------------------------------


def test_the_checks_catch_small_text_twin_series_half_steps_and_hidden_lines(tmp_path):
    """A figure drawn the old way (matplotlib's defaults, 7-pt ticks, a 1,600 px image on the page, two
    series in one style, one under the other) fails every check."""
    fig, ax = plots.plt.subplots(figsize=(1600 / plots.DPI, 4), dpi=plots.DPI)
    ax.plot([1, 2, 3], [1, 2, 3], "o-", label="1 die, Aim")
    ax.plot([1, 2, 3], [1, 2, 3], "o-", label="2 dice")
    ax.tick_params(labelsize=7)
    ax.set_xlim(1, 2)
    ax.legend(fontsize=6)
    fig.savefig(tmp_path / "old.png", dpi=plots.DPI)
    scale = page_scale(fig, tmp_path / "old.png", plots.PAGE)
    assert scale == pytest.approx(plots.PAGE_PX / 1600)
    small = dict(small_texts(fig, scale))
    assert small["2 dice"] == pytest.approx(6 * plots.DPI / 72 * scale, abs=0.01)  # 7 px
    assert any(px < MIN_PX for text, px in small.items() if text.replace(".", "").isdigit())
    assert twin_series(fig) == [("1 die, Aim", "2 dice")]
    assert hidden_series(fig) == ["2 dice"]
    assert half_steps(ax.xaxis) != []
    plots.plt.close(fig)


def test_the_widths_are_the_sites():
    """PAGE_PX is the pages' content width (72em of 16 px) and TABLE_PX the tables index's <img width>."""
    from reports import exports
    from reports.formats import HTML_STYLE

    em = re.search(r"body\{[^}]*max-width:(\d+)em", HTML_STYLE)
    assert em and plots.PAGE_PX == int(em.group(1)) * 16
    (row,) = exports.table_rows_html([("hit", "Hit rolls", ["hit.csv", "hit.png"])])
    assert f'width="{plots.TABLE_PX}"' in row


def test_text_sizes_follow_the_displayed_width():
    # a table image 768 px wide shown at 480: 10 px on the page is 16 px in the file, 9.6 pt at 120 dpi
    assert plots.text_pt(10, 768 / plots.DPI, plots.TABLE) == pytest.approx(9.6)
    # on a page, shown at its own width up to 1,152 px: 1:1, then shrunk
    assert plots.text_pt(10, 960 / plots.DPI, plots.PAGE) == pytest.approx(6.0)
    assert plots.text_pt(10, 2304 / plots.DPI, plots.PAGE) == pytest.approx(12.0)
    with pytest.raises(ValueError, match="where='site'"):
        plots.text_pt(10, 8, "site")


def test_series_styles_are_distinct_for_twenty_series():
    pairs = {(plots.style(i)["marker"], plots.style(i)["linestyle"]) for i in range(20)}
    assert len(pairs) == 20


# --- heatmaps -----------------------------------------------------------------------------------------------


def _matrix(n: int, seed: int = 1) -> pd.DataFrame:
    values = np.random.default_rng(seed).uniform(0, 1, (n, n))
    np.fill_diagonal(values, np.nan)
    names = [f"Gold Keepers ({i})" for i in range(n)]
    return pd.DataFrame(values, index=names, columns=names)


WIN_MATRIX = dict(label="P(row entry wins), both roles", annotate=True,
                  ylabel="entry (rows in ranking order)",
                  title="Drakerys: win probability of the row entry (percent in the cells)\nMonte Carlo, "
                        "seed 0: until the 95% half-width of each engagement's win probability is below 0.01")


@pytest.mark.parametrize("n", [3, 20, 34])
def test_win_matrix_readable_at_the_page_width(drawn, tmp_path, n):
    from matplotlib.collections import PathCollection

    plots.plot_matrix(_matrix(n), tmp_path / "efficiency.png", **WIN_MATRIX)
    ((fig, path, where),) = drawn
    assert where == plots.PAGE
    check(fig, path, where)
    assert png_width(path) <= plots.PAGE_PX  # shown at its own size: nothing shrinks on the page
    glyphs = [c for a in fig.axes for c in a.collections if isinstance(c, PathCollection) and c.get_paths()]
    title = fig.texts[0].get_text()
    if n <= plots.MAX_NUMBERED:
        assert len(glyphs) == 1 and len(glyphs[0].get_paths()) == n * (n - 1)
        assert "percent in the cells" in title
    else:  # summarised: no numbers, colours in 10-point steps, and the title says so
        assert glyphs == []
        assert f"{n} entries, more than 20: no numbers in the cells" in title
        assert "percent in the cells" not in title
        bar = fig.axes[-1]
        assert [t.get_text() for t in bar.get_yticklabels()] == [f"{k}%" for k in range(0, 101, 10)]


def test_colour_bar_in_percent_like_the_cells(drawn, tmp_path):
    plots.plot_matrix(_matrix(4), tmp_path / "m.png", **WIN_MATRIX)
    ((fig, _, _),) = drawn
    bar = fig.axes[-1]
    labels = [t.get_text() for t in bar.get_yticklabels() if t.get_text()]
    assert labels and all(s.endswith("%") for s in labels) and "100%" in labels
    assert bar.get_ylabel().endswith("(%)")


def test_heatmap_prints_every_off_diagonal_value_once(drawn, tmp_path):
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_rgba

    values = np.array([[np.nan, 0.95, 0.5], [0.05, np.nan, 0.62], [0.5, 0.38, np.nan]])
    grid = pd.DataFrame(values, index=list("abc"), columns=list("abc"))
    plots.plot_matrix(grid, tmp_path / "m.png", label="P(win)", title="t", annotate=True)
    ((fig, _, _),) = drawn
    (ax,) = [a for a in fig.axes if a.get_ylabel() == "entry"]
    (glyphs,) = [c for c in ax.collections if isinstance(c, PathCollection)]
    offsets = [tuple(o) for o in glyphs.get_offsets()]
    assert sorted(offsets) == sorted((c, r) for r in range(3) for c in range(3) if r != c)
    colours = {xy: tuple(fc) for xy, fc in zip(offsets, glyphs.get_facecolors(), strict=True)}
    # dark cells (more than 0.3 from the middle of the scale) get white figures, the others black
    assert colours[1, 0] == to_rgba("white") and colours[0, 1] == to_rgba("white")
    assert colours[2, 0] == to_rgba("black") and colours[2, 1] == to_rgba("black")
    # the figures are the values in percent: "95" is wider than "5"
    widths = {xy: p.get_extents().width for xy, p in zip(offsets, glyphs.get_paths(), strict=True)}
    assert widths[1, 0] > 1.5 * widths[0, 1]


def test_heatmap_without_annotation_has_no_glyphs(drawn, tmp_path):
    grid = pd.DataFrame([[np.nan, 0.4], [0.6, np.nan]], index=list("ab"), columns=list("ab"))
    plots.plot_matrix(grid, tmp_path / "m.png", label="P(win)", title="t")
    ((fig, _, _),) = drawn
    assert all(not c.get_paths() or c.get_offsets().size == 0 for a in fig.axes for c in a.collections
               if type(c).__name__ == "PathCollection")


# --- the site's table plots, from the real tables (exact, small) -------------------------------------------

#: (game, table) -> the axes of counts, by (panel, "x" or "y").
TABLE_PLOTS = {
    ("drakerys", "action"): [(0, "x")], ("drakerys", "morale"): [(1, "x")],
    ("drakerys", "spell"): [(-1, "x")],
    ("warbound", "hit"): [(0, "x")], ("warbound", "armor"): [(0, "x")], ("warbound", "stress"): [(0, "x")],
    ("uberdrakes", "rolloff"): [], ("uberdrakes", "resources"): [], ("uberdrakes", "furnace"): [(0, "x")],
    ("uberdrakes", "blood-points"): [(0, "x")], ("uberdrakes", "turn-order"): [(0, "x")],
    ("uberdrakes", "caves"): [(0, "x")], ("uberdrakes", "urn"): [(0, "x")],
}


@pytest.fixture(scope="module")
def table_figures(tmp_path_factory):
    """Every table plot the site writes, drawn once from the real tables: (game, name) -> (figure, path,
    where)."""
    from rulesets import get

    folder = tmp_path_factory.mktemp("tables")
    out = {}
    with pytest.MonkeyPatch.context() as monkeypatch:
        for game, name in TABLE_PLOTS:
            figures = []
            _record(monkeypatch, figures)
            rs = get(game)
            module = importlib.import_module(f"reports.{game}.api")
            module.table_plot(name, rs.tables()[name].compute(rs.rulings()), folder / f"{game}-{name}.png")
            (out[game, name],) = figures
    return out


@pytest.mark.parametrize(("game", "name"), list(TABLE_PLOTS))
def test_table_plot_readable_in_the_tables_index(table_figures, game, name):
    fig, path, where = table_figures[game, name]
    assert where == plots.TABLE
    plotted = [a for a in fig.axes if a.get_label() != "<colorbar>"]
    counts = [(plotted[i].xaxis if xy == "x" else plotted[i].yaxis) for i, xy in TABLE_PLOTS[game, name]]
    check(fig, path, where, counts)


def test_every_plotted_table_is_tested():
    from rulesets import get

    for game in ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne"):
        module = importlib.import_module(f"reports.{game}.api")
        plotted = {name for name in get(game).tables() if module.has_plot(name)}
        assert plotted == {n for g, n in TABLE_PLOTS if g == game}, game


def test_hit_plot_aim_series_on_more_dice_are_visible(table_figures):
    """"1 die, Aim" lies exactly on "2 dice": the later one says so and its hollow marker is larger."""
    fig, _, _ = table_figures["warbound", "hit"]
    lines = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    assert "2 dice (same as 1 die, Aim)" in lines
    assert lines["2 dice (same as 1 die, Aim)"].get_markersize() > lines["1 die, Aim"].get_markersize()
    assert lines["1 die, Aim"].get_markerfacecolor() == "none"  # hollow: the one below shows through
    assert lines["1 die, Aim"].get_linestyle() == "--" and lines["1 die"].get_linestyle() == "-"


def test_rolloff_is_split_into_panels_of_five(table_figures):
    fig, path, where = table_figures["uberdrakes", "rolloff"]
    panels = [a for a in fig.axes if a.get_title().startswith("initiator Rage")]
    assert [a.get_title() for a in panels] == [f"initiator Rage {k}" for k in range(5)]
    assert all(len(a.get_yticklabels()) == 5 for a in panels)
    assert len(cell_number_px(fig, page_scale(fig, path, where))) == 5  # numbers in every panel


# --- points, sweep, what-if and the command line's plots ---------------------------------------------------


def test_points_plot(drawn, tmp_path):
    n = 30
    k = np.arange(n) * 11.0
    rows = pd.DataFrame({"name": [f"Unit ({i})" for i in range(n)], "cost": np.arange(n) * 10.0 + 50,
                         "proposed_cost": k + 45, "fair_cost": k + 46, "fair_cost_low": k + 44,
                         "fair_cost_high": k + 48, "status": ["fair"] * (n - 2) + ["held: not measured"] * 2})
    plots.plot_points(rows, tmp_path / "points.png", unit="AP",
                      title="Drakerys: today's and the proposed costs")
    ((fig, path, where),) = drawn
    check(fig, path, where)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "cost (AP)"
    names = [t.get_text() for _, t in sorted(zip(ax.get_yticks(), ax.get_yticklabels(), strict=True),
                                             key=lambda pair: pair[0])]
    assert names[-2:] == ["Unit (1)", "Unit (0)"]  # the table's order, its first row on top
    assert sum(t.get_text().endswith(", held") for t in ax.get_yticklabels()) == 2


def _sweep(kind: str, exact: bool = False, stderr: float = 0.01, plan_kind: str = "cost"):
    points = ["60", "80", "100"]
    rows = [{"point": p, "metric": m, "value": v, "stderr": stderr}
            for p, a, b in zip(points, (0.5, 0.1, -0.3), (0.9, 0.4, 0.1), strict=True)
            for m, v in (("value", a), ("value_per_cost", b))]
    ruleset = SimpleNamespace(fair_cost_rule=SimpleNamespace(kind=kind), primary_metric="net_ap_per_100ap",
                              metrics=[SimpleNamespace(name="net_ap_per_100ap",
                                                       description="net AP per 100 AP")],
                              value_per_cost_description="net AP per AP of the budget")
    return SimpleNamespace(
        curve=pd.DataFrame(rows), name="Crows (12)", key="crows@12", field_median=0.25,
        break_even=(85.0, 84.0, 86.0) if not exact else (85.0, 85.0, 85.0),
        plan=SimpleNamespace(parameter="cost" if plan_kind == "cost" else "attack", kind=plan_kind),
        baseline=SimpleNamespace(ruleset=ruleset, exact=exact,
                                 contestants=[SimpleNamespace(key="crows@12", cost=90.0, cost_unit="AP")]))


def _lines(ax) -> dict:
    return {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}


@pytest.mark.parametrize(("kind", "metric", "level"), [("even-trade", "value", 0.0), ("zero", "value", 0.0),
                                                       ("median", "value_per_cost", 0.25)])
def test_sweep_plot_draws_the_curve_its_break_even_is_read_on(drawn, tmp_path, kind, metric, level):
    result = _sweep(kind)
    plots.plot_sweep(result, tmp_path / "s.png")
    ((fig, path, where),) = drawn
    check(fig, path, where, [fig.axes[0].xaxis])
    (ax,) = fig.axes
    lines = _lines(ax)
    curve = lines["Crows (12): value" + (" per cost" if metric == "value_per_cost" else "")]
    expected = [r for r in result.curve.itertuples() if r.metric == metric]
    assert list(curve.get_ydata()) == [r.value for r in expected]
    (crossed,) = [ln for name, ln in lines.items() if name.startswith(("0 (even)", "field median"))]
    assert crossed.get_ydata()[0] == level  # the level crossed: 0, or the field median
    # the axes name what is swept, in its unit, and what the value is
    assert ax.get_xlabel() == "Crows (12)'s cost (AP)"
    assert ax.get_ylabel() == ("value: net_ap_per_100ap (net AP per 100 AP)" if metric == "value"
                               else "value per cost: net AP per AP of the budget")
    # today's cost and the break-even are marked
    assert tuple(lines["today's cost 90 AP"].get_xdata()) == (90.0, 90.0)
    assert tuple(lines["break-even 85.0 AP [95%: 84.0, 86.0]"].get_xdata()) == (85.0, 85.0)
    # the 95% band: shaded, and each point's interval as an error bar (visible however narrow)
    band = next(c for c in ax.collections if c.get_label().startswith("95% band"))
    top = max(r.value for r in expected) + Z95 * 0.01
    assert band.get_paths()[0].vertices[:, 1].max() == pytest.approx(top)
    assert band.get_alpha() >= 0.3 and band.get_linewidth() > 0
    caps = [ln for ln in ax.get_lines() if ln.get_marker() == "_"]
    assert len(caps) == 2 and len(caps[0].get_xdata()) == 3  # a cap above and below each point
    span = ax.patches[0]
    assert span.get_x() == pytest.approx(84.0) and span.get_width() == pytest.approx(2.0)


def test_exact_sweep_plot_draws_no_band_and_no_interval(drawn, tmp_path):
    """Exact values (UberDrakes) have no error: no band, no error bars, no zero-width interval span."""
    plots.plot_sweep(_sweep("zero", exact=True, stderr=0.0), tmp_path / "s.png")
    ((fig, path, where),) = drawn
    check(fig, path, where)
    (ax,) = fig.axes
    assert not ax.collections and not ax.patches
    lines = _lines(ax)
    assert "Crows (12): value (exact)" in lines
    assert tuple(lines["break-even 85.0 AP"].get_xdata()) == (85.0, 85.0)


def test_stat_sweep_names_the_stat(drawn, tmp_path):
    plots.plot_sweep(_sweep("zero", plan_kind="set"), tmp_path / "s.png")
    ((fig, path, where),) = drawn
    check(fig, path, where, [fig.axes[0].xaxis])
    assert fig.axes[0].get_xlabel().startswith("Crows (12)'s attack")
    assert not any(name.startswith("today's cost") for name in _lines(fig.axes[0]))


def test_whatif_plot_marks_significance_without_colour(drawn, tmp_path):
    rows = pd.DataFrame({"key": ["a", "b", "c"], "difference": [0.1, -0.05, 0.01],
                         "diff_low": [0.05, -0.1, -0.02], "diff_high": [0.15, 0.0, 0.04],
                         "significant": [True, True, False]})
    plots.plot_differences(rows, tmp_path / "w.png", title="Drakerys: what-if")
    ((fig, path, where),) = drawn
    check(fig, path, where)
    hatches = [p.get_hatch() for p in fig.axes[0].patches]
    assert hatches == [None, None, "//"]


def test_command_line_plots(drawn, tmp_path):
    """The Drakerys roll, outcome and duel plots and the UberDrakes margin plot, from small frames."""
    from reports.drakerys import plots as dk
    from reports.uberdrakes.cli import _plot_margin

    pmf = np.array([0.1, 0.3, 0.4, 0.2])
    roll = SimpleNamespace(describe=lambda: "3 dice at 5+")
    dk.plot_roll(SimpleNamespace(successes=pmf, exact=True, roll=roll), tmp_path / "roll.png")
    dk.plot_outcomes(pd.DataFrame({"measure": ["casualties"] * 3, "outcome": [0, 1, 2],
                                   "probability": [0.5, 0.3, 0.2], "stderr": [0.01] * 3}),
                     tmp_path / "fight.png", "Drakerys Fight")
    dk.plot_engagement(pd.DataFrame({"quantity": ["P(A wins)", "AP destroyed by A", "warriors lost by A"],
                                     "value": [0.6, 40.0, 3.0], "ci_low": [0.55, 38.0, 2.8],
                                     "ci_high": [0.65, 42.0, 3.2]}), tmp_path / "duel.png", "Drakerys duel")
    margin = pd.DataFrame({"margin": np.arange(-5, 6), "probability": np.full(11, 1 / 11)})
    _plot_margin(SimpleNamespace(title="UberDrakes rolloff", sections=[None, None, None,
                                                                        SimpleNamespace(data=margin)]),
                 tmp_path / "margin.png")
    assert len(drawn) == 4
    for (fig, path, where), counted in zip(drawn, (True, False, False, True), strict=True):
        check(fig, path, where, [fig.axes[0].xaxis] if counted else [])
    hatched = [p.get_hatch() for p in drawn[3][0].axes[0].patches]
    assert hatched.count("//") == 5  # the defender's wins, told apart without colour
