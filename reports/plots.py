"""Plots written with matplotlib's Agg backend (no screen needed), sized for the page that shows them.

Every plot follows the same rules (issue 34), checked by tests/test_plots.py:

- text at least :data:`SMALL_PX` pixels tall *as the site shows the image*: the sizes in points are chosen
  from the figure's width in pixels and the width its page displays it at (:func:`text_pt`);
- every line series told apart without colour: its own (marker, line style) pair (:func:`style`), hollow
  markers so that two series drawn on the same points both show, and a legend entry saying so;
- axes whose quantity is a count (dice, Magic, successes, tokens, costs in whole steps) have whole-number
  ticks only (:func:`integer_ticks`);
- colour bars in the unit of the cells (percent when the cells print percent);
- heatmaps above :data:`MAX_NUMBERED` rows or columns print no numbers (they would be too small to read):
  their colours come in 10-point steps with labelled ticks, and the title says so; a caller with a natural
  split draws panels instead (:func:`plot_panels`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import MaxNLocator, PercentFormatter  # noqa: E402

from reports import files  # noqa: E402
from simcore.stats import Z95  # noqa: E402

#: Pixels per inch of every image written: a figure ``w`` inches wide is ``w * DPI`` pixels wide (no
#: cropping).
DPI = 120
#: Where the site shows an image. PAGE: on a game page, at its own width up to the page's content width
#: (reports.formats.HTML_STYLE: body{max-width:72em}, 16 px to the em; img{max-width:100%}). TABLE: in a
#: tables index, at a fixed width (reports.exports.table_rows_html: <img width="480">). Plots drawn only by
#: the command line (--plot) are held to PAGE: a viewer shows them at their own width.
PAGE = "page"
TABLE = "table"
PAGE_PX = 72 * 16
TABLE_PX = 480
#: Text heights in pixels as the page shows them: tick labels, legends and cell numbers; axis labels; titles.
SMALL_PX = 11.0
LABEL_PX = 12.0
TITLE_PX = 13.0
#: A heatmap panel with more rows or columns than this prints no numbers in its cells.
MAX_NUMBERED = 20
#: The colour steps of a heatmap without numbers: 10 bands over its scale (10 points of percent each).
STEPS = 10

#: Line series styles: colours from Okabe and Ito's colour-blind-safe set (yellow left out: too pale on
#: white) and four darker ones, each colour with its own marker; the line styles cycle on their own, so
#: the first 20 series all have distinct (marker, line style) pairs and read in greyscale.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#882255", "#999933",
           "#666666")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
LINESTYLES = ("-", "--", ":", "-.")
#: Marker size in points; a series lying on an earlier one gets a marker this much larger per series below.
MARKER_PT = 6.5
MARKER_GROWTH_PT = 4.0


def displayed_px(width_px: float, where: str) -> float:
    """The width in pixels at which the site shows an image ``width_px`` wide (``where``: PAGE or TABLE)."""
    if where not in (PAGE, TABLE):
        raise ValueError(f"where={where!r}: accepted are {PAGE!r} and {TABLE!r}")
    return float(TABLE_PX) if where == TABLE else min(float(width_px), float(PAGE_PX))


def text_pt(px: float, width_in: float, where: str) -> float:
    """The font size in points that shows ``px`` pixels tall on the page, for a figure ``width_in`` inches
    wide saved at :data:`DPI` (points x DPI / 72 = pixels in the file; x displayed / actual width on the
    page)."""
    width = width_in * DPI
    return px * 72.0 / DPI * width / displayed_px(width, where)


def figure(width_in: float, height_in: float, **subplots):
    """``plt.subplots`` with constrained layout (no cropping when saved, so the file is exactly
    ``width_in * DPI`` pixels wide and :func:`text_pt` holds)."""
    width_in = round(width_in * DPI) / DPI  # whole pixels: the file is as wide as the sizes assumed
    return plt.subplots(figsize=(width_in, height_in), dpi=DPI, layout="constrained", **subplots)


def rows_height(n: int, width_in: float, where: str, extra_px: float = 120.0) -> float:
    """The height in inches of a figure ``width_in`` wide that gives each of ``n`` labelled rows (bars,
    entries) 1.7 lines of :data:`SMALL_PX` text on the page, plus ``extra_px`` page pixels (title, axis)."""
    width = width_in * DPI
    return (n * 1.7 * SMALL_PX + extra_px) * width / displayed_px(width, where) / DPI


def style(i: int, linestyle: str | None = None) -> dict:
    """The ``i``-th line series' keywords: colour, hollow marker and line style (``linestyle`` overrides
    the cycle's, for a caller whose line style carries a meaning)."""
    return dict(color=COLOURS[i % len(COLOURS)], marker=MARKERS[i % len(MARKERS)],
                linestyle=LINESTYLES[i % len(LINESTYLES)] if linestyle is None else linestyle,
                markerfacecolor="none", markersize=MARKER_PT, markeredgewidth=1.4, linewidth=1.5)


def plot_lines(ax, series: Sequence[tuple]) -> None:
    """Draw each ``(label, x, y)`` or ``(label, x, y, style keywords)`` as a line, the i-th in
    :func:`style` ``(i)`` unless given. A series equal to an earlier one (same x, y within 1e-9) would hide
    it: its legend entry says "same as ...", and its hollow marker is drawn larger, around the one below."""
    drawn: list[tuple[str, np.ndarray, np.ndarray]] = []
    for i, item in enumerate(series):
        label, x, y = item[:3]
        kw = dict(item[3]) if len(item) > 3 else style(i)
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        same = [name for name, x0, y0 in drawn
                if x0.shape == x.shape and np.array_equal(x0, x) and np.allclose(y0, y, rtol=0, atol=1e-9)]
        shown = label
        if same:
            shown = f"{label} (same as {same[0]})"
            kw["markersize"] = kw.get("markersize", MARKER_PT) + MARKER_GROWTH_PT * len(same)
        ax.plot(x, y, label=shown, **kw)
        drawn.append((label, x, y))


def integer_ticks(*axes) -> None:
    """Whole-number ticks only on each of ``axes`` (an XAxis or YAxis of a count: dice, Magic, tokens...)."""
    for axis in axes:
        axis.set_major_locator(MaxNLocator(integer=True))


def legend_outside(ax, **kw):
    """The axes' legend to the right of it, outside the data (constrained layout makes room)."""
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kw)


def readable(fig, where: str) -> None:
    """Set every text of ``fig`` to its role's size on the page: titles :data:`TITLE_PX`, axis labels
    :data:`LABEL_PX`, the rest (ticks, legends, notes) :data:`SMALL_PX`; titles wrap at the figure's edge."""
    from matplotlib.text import Text

    width = fig.get_figwidth()
    small, label, title = (text_pt(px, width, where) for px in (SMALL_PX, LABEL_PX, TITLE_PX))
    legends = [ax.get_legend() for ax in fig.axes] + list(fig.legends)
    in_legend = {id(t) for leg in legends if leg is not None for t in (*leg.get_texts(), leg.get_title())}
    titles = {id(ax.title) for ax in fig.axes} | {id(t) for t in fig.texts}  # fig.texts: the suptitle's
    labels = {id(a.label) for ax in fig.axes for a in (ax.xaxis, ax.yaxis)}
    for text in fig.findobj(Text):
        if id(text) in in_legend:
            text.set_fontsize(small)
        elif id(text) in titles:
            text.set_fontsize(title)
            text.set_wrap(True)
        elif id(text) in labels:
            text.set_fontsize(label)
        else:
            text.set_fontsize(small)


def save(fig, path: Path, where: str = PAGE) -> None:
    """Write ``fig`` to ``path`` (the format from its suffix) with its text sized for where the site shows
    it (:func:`readable`), and close it."""
    try:
        if fig.get_layout_engine() is None:
            fig.set_layout_engine("constrained")
        readable(fig, where)
        files.write_with(path, lambda tmp: fig.savefig(tmp, dpi=DPI))
    finally:
        plt.close(fig)


# --- heatmaps ---------------------------------------------------------------------------------------------


def plot_matrix(grid, path: Path, *, label: str, title: str, vmin: float = 0.0, vmax: float = 1.0,
                cmap: str = "RdBu", ylabel: str = "entry", annotate: bool = False,
                xlabel: str = "opponent (columns in the same order)", where: str = PAGE) -> None:
    """Heatmap of a matchup matrix (rows: contestants, columns: opponents, in the same order). The default
    map, ColorBrewer's RdBu, is diverging and safe for colour-blind readers; ``annotate`` prints each
    cell's value in percent (up to :data:`MAX_NUMBERED` entries; beyond, colours in 10-point steps)."""
    plot_values(grid.to_numpy(dtype=float), [str(r) for r in grid.index], [str(c) for c in grid.columns],
                path, label=label, title=title, vmin=vmin, vmax=vmax, cmap=cmap, ylabel=ylabel,
                annotate=annotate, xlabel=xlabel, where=where)


def plot_values(values: np.ndarray, rows: list[str], columns: list[str], path: Path, *, label: str,
                title: str, vmin: float = 0.0, vmax: float = 1.0, cmap: str = "RdBu", ylabel: str = "entry",
                annotate: bool = False, xlabel: str = "opponent (columns in the same order)",
                where: str = PAGE) -> None:
    """:func:`plot_matrix` of a float matrix (probabilities, shown in percent) with its row and column
    labels: one panel of :func:`plot_panels`."""
    plot_panels([("", values, rows)], columns, path, label=label, title=title, vmin=vmin, vmax=vmax,
                cmap=cmap, ylabel=ylabel, annotate=annotate, xlabel=xlabel, where=where)


def plot_panels(panels: Sequence[tuple[str, np.ndarray, list[str]]], columns: list[str], path: Path, *,
                label: str, title: str, vmin: float = 0.0, vmax: float = 1.0, cmap: str = "RdBu",
                ylabel: str = "", annotate: bool = False, xlabel: str = "", where: str = PAGE) -> None:
    """Heatmaps of probabilities sharing their columns, one panel per ``(panel title, values, row labels)``,
    stacked, with one colour bar in percent. Cell numbers (percent) when ``annotate`` and no panel has more
    than :data:`MAX_NUMBERED` rows or columns; otherwise colours in :data:`STEPS` bands with labelled
    ticks, and the title says why there are no numbers."""
    from matplotlib.colors import BoundaryNorm

    n_rows = [v.shape[0] for _, v, _ in panels]
    entries = max(len(columns), *n_rows)
    numbered = annotate and entries <= MAX_NUMBERED
    if annotate and not numbered:
        title = (title.replace(" (percent in the cells)", "")
                 + f"\n{entries} entries, more than {MAX_NUMBERED}: no numbers in the cells (too small to "
                 f"read); colours in steps of {100 * (vmax - vmin) / STEPS:g} points")
    width_in, height_in, cell_px = _heatmap_size(panels, columns, title, numbered, where)
    fig, axes = figure(width_in, height_in, nrows=len(panels), ncols=1, squeeze=False, sharex=True,
                       height_ratios=n_rows)
    small = text_pt(SMALL_PX, width_in, where)
    digits = max(small, min(text_pt(0.42 * cell_px, width_in, where), 1.3 * small))  # numbers fill a cell
    # a cell with no value (the diagonal: an entry against itself) grey, apart from the pale middle colours
    cmap = plt.get_cmap(cmap).with_extremes(bad="#c8c8c8")
    norm = None if numbered or not annotate else BoundaryNorm(np.linspace(vmin, vmax, STEPS + 1), cmap.N)
    rotate = max(len(c) for c in columns) > 4
    for k, (ax, (name, values, rows)) in enumerate(zip(axes[:, 0], panels, strict=True)):
        image = ax.imshow(values, cmap=cmap, aspect="auto", norm=norm,
                          **({} if norm is not None else {"vmin": vmin, "vmax": vmax}))
        ax.set_xticks(range(len(columns)), columns, rotation=60 if rotate else 0,
                      ha="right" if rotate else "center", rotation_mode="anchor" if rotate else "default")
        ax.set_yticks(range(len(rows)), rows)
        ax.set_ylabel(ylabel)
        if name:
            ax.set_title(name, loc="center")
        if numbered:
            _annotate_cells(ax, values, vmin, vmax, digits)
        if k == 0 and len(panels) > 1:  # column labels above the stack as well as below it
            ax.tick_params(axis="x", labeltop=True)
    axes[-1, 0].set_xlabel(xlabel)
    bar = fig.colorbar(image, ax=axes[:, 0].tolist(), label=f"{label} (%)", aspect=30,
                       location="right" if where == PAGE else "bottom",
                       shrink=0.8 if len(panels) == 1 else 0.5)
    if norm is not None:
        bar.set_ticks(np.linspace(vmin, vmax, STEPS + 1))
    bar.formatter = PercentFormatter(xmax=1.0, decimals=0)
    bar.update_ticks()
    fig.suptitle(title)
    save(fig, path, where)


def _heatmap_size(panels, columns: list[str], title: str, numbered: bool, where: str
                  ) -> tuple[float, float, float]:
    """(width, height in inches, a cell's width in page pixels) of a heatmap: designed in the pixels the
    page shows (text of SMALL_PX), then scaled to the file (1:1 on a page up to its width; a table's image
    is drawn at 5/3 of its fixed width)."""
    em = SMALL_PX
    row_labels = max(len(r) for _, _, rows in panels for r in rows)
    col_labels = max(len(c) for c in columns)
    margin = 0.62 * em * row_labels + 2.5 * LABEL_PX + 7 * em  # row labels, y label, colour bar
    cells = len(columns)
    available = (PAGE_PX if where == PAGE else TABLE_PX) - margin
    cell = min(available / cells, 4.5 * em if numbered else 3.0 * em)
    if numbered:
        cell = max(cell, 2.6 * em)  # "100" at SMALL_PX is about 1.9 em wide
    else:
        cell = max(cell, 1.4 * em)  # a row label's height and a gap
    longest_title = max(len(line) for line in title.splitlines())
    width = max(margin + cells * cell, 0.6 * TITLE_PX * min(longest_title, 110))
    if where == PAGE:
        width = min(width, PAGE_PX)
    row = max(0.8 * cell, 1.6 * em)
    rotated = 0.62 * em * col_labels * 0.87 if col_labels > 4 else 1.4 * em
    title_lines = title.count("\n") + 1 + (1 if where == TABLE else 0)
    height = (sum(v.shape[0] for _, v, _ in panels) * row + rotated * (2 if len(panels) > 1 else 1)
              + 2.5 * LABEL_PX + 1.6 * TITLE_PX * title_lines + 2.4 * TITLE_PX * (len(panels) - 1)
              + (5 * em if where == TABLE else 0) + 2 * em)
    scale = 1.0 if where == PAGE else TABLE_PX / (TABLE_PX * 5 / 3)
    if where == TABLE:
        width = TABLE_PX
    return width / scale / DPI, height / scale / DPI, cell


def _annotate_cells(ax, values: np.ndarray, vmin: float, vmax: float, size: float) -> None:
    """Each cell's value in percent (``size`` points), white on dark cells, black on light ones, the
    diagonal's NaN left empty. Drawn as one collection of glyph outlines placed like scatter markers (sized
    in points, centred on the cells): a 34 x 34 matrix draws in a fraction of the time of 1,122 Text
    artists."""
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Affine2D

    middle = (vmin + vmax) / 2
    paths, offsets, colours = [], [], []
    for (r, c), v in np.ndenumerate(values):
        if v != v:
            continue
        paths.append(_centred_text(f"{100 * v:.0f}", round(size, 3)))
        offsets.append((c, r))
        colours.append("white" if abs(v - middle) > 0.3 * (vmax - vmin) else "black")
    if not paths:
        return
    points = Affine2D().scale(1 / 72.0) + ax.figure.dpi_scale_trans  # points -> inches -> pixels, at any dpi
    ax.add_collection(PathCollection(paths, offsets=offsets, offset_transform=ax.transData,
                                     transform=points, facecolors=colours, edgecolors="none",
                                     linewidths=0), autolim=False)


@functools.lru_cache(maxsize=512)
def _centred_text(text: str, size: float):
    """The outline of ``text`` (``size`` points) centred on (0, 0); one per text and size, for the process.

    Centred on its points' extents: a font's outlines have points at their extrema (the TrueType convention,
    which DejaVu Sans follows), so these are the extents of the curves, which matplotlib's
    ``Path.get_extents`` finds by solving every Bezier segment (a fifth of a heatmap's drawing time)."""
    from matplotlib.path import Path as MplPath
    from matplotlib.textpath import TextPath
    from matplotlib.transforms import Affine2D

    path = TextPath((0, 0), text, size=size)
    points = path.vertices if path.codes is None else path.vertices[
        (path.codes != MplPath.CLOSEPOLY) & (path.codes != MplPath.STOP)]
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    return path.transformed(Affine2D().translate(-(x0 + x1) / 2, -(y0 + y1) / 2))


# --- what-if, sweep, points -------------------------------------------------------------------------------


def plot_differences(rows, path: Path, *, title: str) -> None:
    """What-if differences with their 95% intervals, one bar per entry; a difference that is not significant
    is grey and hatched (told apart without colour)."""
    from matplotlib.patches import Patch

    labels = rows["key"].tolist()
    diff = rows["difference"].to_numpy()
    err = np.vstack([diff - rows["diff_low"].to_numpy(), rows["diff_high"].to_numpy() - diff])
    fig, ax = figure(8, rows_height(len(labels), 8, PAGE, 140))
    significant = [bool(s) for s in rows["significant"]]
    bars = ax.barh(range(len(labels)), diff, xerr=err, capsize=2,
                   color=[COLOURS[0] if s else "#bbbbbb" for s in significant])
    for bar, s in zip(bars, significant, strict=True):
        if not s:
            bar.set_hatch("//")
            bar.set_edgecolor("#555555")
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()  # the first entry on top, as in the table
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("difference (variant - baseline), 95% interval")
    ax.legend(handles=[Patch(color=COLOURS[0], label="significant"),
                       Patch(facecolor="#bbbbbb", edgecolor="#555555", hatch="//", label="not significant")],
              loc="best")
    ax.set_title(title)
    save(fig, path)


def plot_sweep(result, path: Path) -> None:
    """The curve the break-even is read on, with its 95% band (shaded, edged, and each point's interval as
    an error bar, visible however narrow), the level it crosses, today's cost and the break-even: the value
    against 0 (even-trade and zero fair-cost rules), or value per cost against the field median. Axes say
    what is swept and in which unit."""
    rs = result.baseline.ruleset
    on_value = rs.fair_cost_rule.kind in ("zero", "even-trade")
    metric, level = ("value", 0.0) if on_value else ("value_per_cost", result.field_median)
    curve = result.curve[result.curve.metric == metric]
    x = curve["point"].astype(float).to_numpy()
    y = curve["value"].to_numpy()
    se = curve["stderr"].to_numpy()
    target = next((c for c in result.baseline.contestants if c.key == result.key), None)
    unit = target.cost_unit if target is not None else "cost"
    exact = result.baseline.exact  # exact values: no band and no interval to draw
    described = {m.name: m.description for m in getattr(rs, "metrics", ())}
    if on_value:
        name = rs.primary_metric
        ylabel = f"value: {name}" + (f" ({described[name]})" if name in described else "")
    else:
        ylabel = f"value per cost: {rs.value_per_cost_description}"
    fig, ax = figure(8, 4.8)
    ax.plot(x, y, label=f"{result.name}: {'value' if on_value else 'value per cost'}"
            + (" (exact)" if exact else ""), **style(0, "-"))
    if not exact:
        half = Z95 * se
        ax.fill_between(x, y - half, y + half, facecolor=COLOURS[0], alpha=0.3, edgecolor=COLOURS[0],
                        linewidth=0.8, linestyle="--", label=f"95% band (half-width up to {half.max():.2g})")
        ax.errorbar(x, y, yerr=half, fmt="none", ecolor=COLOURS[0], elinewidth=1.0, capsize=5, capthick=1.2)
    ax.axhline(level, color=COLOURS[6], lw=1.2, ls="--",
               label="0 (even)" if on_value else f"field median ({level:.3g})")
    if result.plan.kind == "cost" and target is not None:
        ax.axvline(target.cost, color=COLOURS[1], lw=1.5, ls=":",
                   label=f"today's cost {target.cost:g} {unit}")
    if result.break_even is not None:
        mid, low, high = result.break_even
        ax.axvline(mid, color=COLOURS[2], lw=1.5, ls="-.", label=f"break-even {mid:.1f} {unit}"
                   + ("" if exact else f" [95%: {low:.1f}, {high:.1f}]"))
        if not exact:
            ax.axvspan(low, high, color=COLOURS[2], alpha=0.2)
    if result.plan.kind == "cost":
        ax.set_xlabel(f"{result.name}'s cost ({unit})")
    else:
        ax.set_xlabel(f"{result.name}'s {result.plan.parameter} (the stat's value; its cost stays today's)")
    if np.all(x == np.round(x)):
        integer_ticks(ax.xaxis)
    ax.set_ylabel(ylabel)
    ax.yaxis.label.set_wrap(True)
    ax.set_title(f"Sweep of {result.name}'s {result.plan.parameter}")
    legend_outside(ax)
    ax.grid(alpha=0.3)
    save(fig, path)


def plot_points(rows, path: Path, *, unit: str, title: str) -> None:
    """Today's cost against the proposed one per entry (a dumbbell: today a hollow circle, proposed a filled
    square; an entry held at today's cost a grey diamond, its name marked "held"), with the proposed cost's
    fair cost and its 95% interval as a bar, so a reader sees which way each entry moved and whether it
    landed inside its interval."""
    n = len(rows)
    fig, ax = figure(8, rows_height(n, 8, PAGE, 190))
    y = np.arange(n)[::-1]
    held = np.array([str(s).startswith("held") for s in rows["status"]], dtype=bool)
    for yi, (_, r) in zip(y, rows.iterrows(), strict=True):
        ax.plot([r["cost"], r["proposed_cost"]], [yi, yi], "-", color=COLOURS[0], lw=1.5)
        if np.isfinite(r["fair_cost"]) and np.isfinite(r["fair_cost_high"]):
            ax.plot([r["fair_cost_low"], r["fair_cost_high"]], [yi - 0.22, yi - 0.22], "-", color=COLOURS[1],
                    lw=3)
    moved = ~held
    ax.plot(rows["cost"].to_numpy()[moved], y[moved], "o", mfc="white", mec="#333333", ms=7, ls="none",
            label="today")
    ax.plot(rows["proposed_cost"].to_numpy()[moved], y[moved], "s", color=COLOURS[0], ms=6, ls="none",
            label="proposed")
    if held.any():
        ax.plot(rows["cost"].to_numpy()[held], y[held], "D", color="#777777", ms=6, ls="none",
                label="held at today's cost")
    ax.plot([], [], "-", color=COLOURS[1], lw=3, label="fair cost at the proposed costs, 95%")
    ax.set_yticks(y, [f"{v}, held" if h else str(v) for v, h in zip(rows["name"], held, strict=True)])
    ax.set_ylim(-0.8, n - 0.2)
    ax.set_xlabel(f"cost ({unit})")
    ax.set_title(title)
    fig.legend(loc="outside lower center", ncols=2)
    ax.grid(axis="x", alpha=0.3)
    save(fig, path)
