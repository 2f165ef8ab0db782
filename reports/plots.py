"""Plots written with matplotlib's Agg backend (no screen needed)."""

from __future__ import annotations

import functools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from reports import files  # noqa: E402
from simcore.stats import Z95  # noqa: E402


def save(fig, path: Path) -> None:
    """Write ``fig`` to ``path`` (the format from its suffix) and close it."""
    try:
        files.write_with(path, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    finally:
        plt.close(fig)


def plot_matrix(grid, path: Path, *, label: str, title: str, vmin: float = 0.0, vmax: float = 1.0,
                cmap: str = "RdBu", ylabel: str = "entry", annotate: bool = False,
                xlabel: str = "opponent (columns in the same order)") -> None:
    """Heatmap of a matchup matrix (rows: contestants, columns: opponents, in the same order). The default
    map, ColorBrewer's RdBu, is diverging and safe for colour-blind readers; ``annotate`` prints each
    cell's value in percent."""
    plot_values(grid.to_numpy(dtype=float), [str(r) for r in grid.index], [str(c) for c in grid.columns],
                path, label=label, title=title, vmin=vmin, vmax=vmax, cmap=cmap, ylabel=ylabel,
                annotate=annotate, xlabel=xlabel)


def plot_values(values: np.ndarray, rows: list[str], columns: list[str], path: Path, *, label: str,
                title: str, vmin: float = 0.0, vmax: float = 1.0, cmap: str = "RdBu", ylabel: str = "entry",
                annotate: bool = False, xlabel: str = "opponent (columns in the same order)") -> None:
    """:func:`plot_matrix` of a float matrix with its row and column labels."""
    fig, ax = plt.subplots(figsize=(1.5 + 0.45 * values.shape[1], 2.0 + 0.3 * values.shape[0]))
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(values.shape[1]), columns, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(values.shape[0]), rows, fontsize=7)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if annotate:
        _annotate_cells(ax, values, vmin, vmax)
    fig.colorbar(image, ax=ax, label=label, shrink=0.6)
    ax.set_title(title, fontsize=9)
    save(fig, path)


def _annotate_cells(ax, values: np.ndarray, vmin: float, vmax: float, size: float = 5.0) -> None:
    """Each cell's value in percent, white on dark cells, black on light ones, the diagonal's NaN left
    empty. Drawn as one collection of glyph outlines placed like scatter markers (sized in points, centred
    on the cells): a 34 x 34 matrix draws in a fraction of the time of 1,122 Text artists, which dominated
    the efficiency report's wall time."""
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Affine2D

    middle = (vmin + vmax) / 2
    paths, offsets, colours = [], [], []
    for (r, c), v in np.ndenumerate(values):
        if v != v:
            continue
        paths.append(_centred_text(f"{100 * v:.0f}", size))
        offsets.append((c, r))
        colours.append("white" if abs(v - middle) > 0.3 * (vmax - vmin) else "black")
    if not paths:
        return
    points = Affine2D().scale(ax.figure.dpi / 72.0)
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


def plot_differences(rows, path: Path, *, title: str) -> None:
    """What-if differences with their 95% intervals, one bar per entry."""
    labels = rows["key"].tolist()
    diff = rows["difference"].to_numpy()
    err = np.vstack([diff - rows["diff_low"].to_numpy(), rows["diff_high"].to_numpy() - diff])
    fig, ax = plt.subplots(figsize=(7, 1.0 + 0.25 * len(labels)))
    colours = ["#4c72b0" if s else "#bbbbbb" for s in rows["significant"]]
    ax.barh(range(len(labels)), diff, xerr=err, color=colours)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("difference, 95% interval (grey: not significant)")
    ax.set_title(title, fontsize=9)
    save(fig, path)


def plot_sweep(result, path: Path) -> None:
    """The curve the break-even is read on, with its 95% band, the level it crosses and the break-even: the
    value against 0 (even-trade and zero fair-cost rules), or value per cost against the field median."""
    on_value = result.baseline.ruleset.fair_cost_rule.kind in ("zero", "even-trade")
    metric, level = ("value", 0.0) if on_value else ("value_per_cost", result.field_median)
    curve = result.curve[result.curve.metric == metric]
    x = curve["point"].astype(float).to_numpy()
    y = curve["value"].to_numpy()
    se = curve["stderr"].to_numpy()
    label = "value" if on_value else "value per cost"
    fig, ax = plt.subplots(figsize=(7, 4))
    exact = result.baseline.exact  # exact values: no band and no interval to draw
    ax.plot(x, y, "o-", color="#4c72b0", label=f"{result.name}: {label}" + (" (exact)" if exact else ""))
    if not exact:
        ax.fill_between(x, y - Z95 * se, y + Z95 * se, color="#4c72b0", alpha=0.25, label="95% band")
    ax.axhline(level, color="#dd8452", ls="--", label="0 (even)" if on_value else "field median")
    if result.break_even is not None:
        mid, low, high = result.break_even
        ax.axvline(mid, color="#55a868", label=f"break-even {mid:.1f}")
        if not exact:
            ax.axvspan(low, high, color="#55a868", alpha=0.15)
    ax.set_xlabel(result.plan.parameter)
    ax.set_ylabel(label)
    ax.set_title(f"Sweep of {result.name}'s {result.plan.parameter}", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    save(fig, path)


def plot_points(rows, path: Path, *, unit: str, title: str) -> None:
    """Today's cost against the proposed one per entry (a dumbbell: today a hollow circle, proposed a filled
    square, held entries in grey), with the proposed cost's fair cost and its 95% interval as a bar, so a
    reader sees which way each entry moved and whether it landed inside its interval."""
    n = len(rows)
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.32 * n + 1.2)))
    y = np.arange(n)[::-1]
    for yi, (_, r) in zip(y, rows.iterrows(), strict=True):
        held = str(r["status"]).startswith("held")
        colour = "#999999" if held else "#4c72b0"
        ax.plot([r["cost"], r["proposed_cost"]], [yi, yi], "-", color=colour, lw=1.5)
        if np.isfinite(r["fair_cost"]) and np.isfinite(r["fair_cost_high"]):
            ax.plot([r["fair_cost_low"], r["fair_cost_high"]], [yi - 0.22, yi - 0.22], "-", color="#dd8452",
                    lw=3)
    ax.plot(rows["cost"], y, "o", mfc="white", mec="#333333", label="today")
    ax.plot(rows["proposed_cost"], y, "s", color="#4c72b0", label="proposed")
    ax.plot([], [], "-", color="#dd8452", lw=3, label="fair cost at the proposed costs, 95%")
    ax.set_yticks(y, [str(v) for v in rows["name"]], fontsize=9)
    ax.set_xlabel(unit)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    save(fig, path)
