"""Drakerys plots: one roll's distribution and the Action Table's means."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.plots import Z95, plt, save
from simcore import exact


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
    save(fig, path)


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
    save(fig, path)


