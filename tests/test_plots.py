"""The heatmap's cell values: one glyph collection, one value per off-diagonal cell, the right colours."""

import numpy as np
import pandas as pd
import pytest

from reports import plots
from simcore.stats import Z95


@pytest.fixture
def captured(monkeypatch):
    figures = []
    monkeypatch.setattr(plots, "save", lambda fig, path: figures.append(fig))
    yield figures
    for fig in figures:
        plots.plt.close(fig)


def test_heatmap_prints_every_off_diagonal_value_once(captured, tmp_path):
    from matplotlib.collections import PathCollection
    from matplotlib.colors import to_rgba

    values = np.array([[np.nan, 0.95, 0.5], [0.05, np.nan, 0.62], [0.5, 0.38, np.nan]])
    grid = pd.DataFrame(values, index=list("abc"), columns=list("abc"))
    plots.plot_matrix(grid, tmp_path / "m.png", label="P(win)", title="t", annotate=True)
    (fig,) = captured
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


def test_heatmap_without_annotation_has_no_glyphs(captured, tmp_path):
    grid = pd.DataFrame([[np.nan, 0.4], [0.6, np.nan]], index=list("ab"), columns=list("ab"))
    plots.plot_matrix(grid, tmp_path / "m.png", label="P(win)", title="t")
    (fig,) = captured
    assert all(not c.get_paths() or c.get_offsets().size == 0 for a in fig.axes for c in a.collections
               if type(c).__name__ == "PathCollection")


@pytest.mark.parametrize(("kind", "metric", "level"), [("even-trade", "value", 0.0), ("zero", "value", 0.0),
                                                       ("median", "value_per_cost", 0.25)])
def test_sweep_plot_draws_the_curve_its_break_even_is_read_on(captured, tmp_path, kind, metric, level):
    from types import SimpleNamespace

    points = ["1", "2", "3"]
    rows = [{"point": p, "metric": m, "value": v, "stderr": 0.01}
            for p, a, b in zip(points, (0.5, 0.1, -0.3), (0.9, 0.4, 0.1), strict=True)
            for m, v in (("value", a), ("value_per_cost", b))]
    result = SimpleNamespace(
        curve=pd.DataFrame(rows), name="X", field_median=0.25, break_even=(2.2, 2.1, 2.3),
        plan=SimpleNamespace(parameter="cost"),
        baseline=SimpleNamespace(ruleset=SimpleNamespace(fair_cost_rule=SimpleNamespace(kind=kind)),
                                 exact=False))
    plots.plot_sweep(result, tmp_path / "s.png")
    (fig,) = captured
    (ax,) = fig.axes
    line = ax.get_lines()[0]
    expected = [r["value"] for r in rows if r["metric"] == metric]
    assert list(line.get_ydata()) == expected
    assert ax.get_lines()[1].get_ydata()[0] == level  # the level crossed: 0, or the field median
    band, span = ax.collections[0], ax.patches[0]  # the 95% band around the curve, the break-even's interval
    assert band.get_paths()[0].vertices[:, 1].max() == pytest.approx(max(expected) + Z95 * 0.01, abs=1e-12)
    assert span.get_x() == pytest.approx(2.1) and span.get_width() == pytest.approx(0.2)


def test_exact_sweep_plot_draws_no_band_and_no_interval(captured, tmp_path):
    """Exact values (UberDrakes) have no error: no zero-width band, no zero-width interval span."""
    from types import SimpleNamespace

    rows = [{"point": p, "metric": "value", "value": v, "stderr": 0.0} for p, v in (("1", 0.2), ("2", -0.1))]
    result = SimpleNamespace(
        curve=pd.DataFrame(rows), name="X", field_median=0.0, break_even=(1.7, 1.7, 1.7),
        plan=SimpleNamespace(parameter="cost"),
        baseline=SimpleNamespace(ruleset=SimpleNamespace(fair_cost_rule=SimpleNamespace(kind="zero")),
                                 exact=True))
    plots.plot_sweep(result, tmp_path / "s.png")
    (fig,) = captured
    (ax,) = fig.axes
    assert not ax.collections and not ax.patches
    assert ax.get_lines()[0].get_label() == "X: value (exact)"
    assert [tuple(ln.get_xdata()) for ln in ax.get_lines()[2:]] == [(1.7, 1.7)]  # the break-even line
