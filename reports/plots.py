"""Plots written with matplotlib's Agg backend (no screen needed)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from reports.formats import write_atomic  # noqa: E402
from simcore import exact  # noqa: E402
from simcore.stats import Z95  # noqa: E402


def _save(fig, path: Path) -> None:
    try:
        write_atomic(path, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    finally:
        plt.close(fig)


def plot_roll(dist, path: Path) -> None:
    """Bar chart of P(successes = k) with P(at least k) as a line; 95% error bars when simulated."""
    pmf = dist.successes
    tail = exact.at_least(pmf)
    last = int(np.flatnonzero(tail >= 1e-6)[-1])
    k = np.arange(last + 1)
    fig, ax = plt.subplots(figsize=(7, 4))
    err = None
    if not dist.exact:
        err = Z95 * np.sqrt(pmf[k] * (1 - pmf[k]) / dist.run.trials)
    ax.bar(k, pmf[k], yerr=err, color="#4c72b0", label="P(successes = k)")
    ax.plot(k, tail[k], "o-", color="#dd8452", label="P(successes ≥ k)")
    ax.set_xlabel("successes k")
    ax.set_ylabel("probability")
    how = "exact" if dist.exact else f"Monte Carlo, {dist.run.trials:,} trials, 95% bars"
    ax.set_title(f"Drakerys: {dist.roll.describe()} ({how})", fontsize=9)
    ax.legend()
    ax.grid(alpha=0.3)
    _save(fig, path)


def plot_action_table(table, path: Path) -> None:
    """Mean successes against dice, one line per threshold."""
    fig, ax = plt.subplots(figsize=(7, 4))
    dice = np.arange(1, table.max_dice + 1)
    for t in table.thresholds:
        ax.plot(dice, [table.mean(n, t) for n in dice], marker=".", label=f"{t}+")
    ax.set_xlabel("dice")
    ax.set_ylabel("mean successes (exact)")
    ax.set_title("Drakerys Action Table: mean successes by threshold", fontsize=9)
    ax.legend(title="threshold", fontsize=8, ncol=3)
    ax.grid(alpha=0.3)
    _save(fig, path)


def plot_matrix(grid, path: Path, label: str = "P(row unit wins the duel)") -> None:
    """Heatmap of a matchup matrix (rows: unit and size, columns: opponents)."""
    fig, ax = plt.subplots(figsize=(1.0 + 0.45 * grid.shape[1], 1.5 + 0.3 * grid.shape[0]))
    image = ax.imshow(grid.to_numpy(dtype=float), cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(grid.shape[1]), grid.columns, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(grid.shape[0]), grid.index, fontsize=7)
    ax.set_xlabel("opponent (size)")
    fig.colorbar(image, ax=ax, label=label, shrink=0.6)
    ax.set_title("Drakerys: duel win probability", fontsize=9)
    _save(fig, path)
