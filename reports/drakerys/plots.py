"""Drakerys plots: one roll's distribution, the Action Table's means, the Morale and Spell tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.plots import Z95, plt, save
from rulesets.drakerys.fight import Morale
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




def plot_morale_table(table, path: Path) -> None:
    """P(scatter) and P(steady) against the threshold, one line per number of dice."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    thresholds = list(table.thresholds)
    for ax, outcome, what in ((axes[0], Morale.SCATTER, "P(scatter: 0 successes)"),
                              (axes[1], Morale.STEADY, "P(steady: 3+ successes)")):
        for n in table.dice:
            ax.plot(thresholds, [table.p(n, t, outcome) for t in thresholds], marker=".", label=f"{n}d10")
        ax.set_xlabel("threshold")
        ax.set_title(what, fontsize=9)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("probability (exact)")
    axes[1].legend(title="dice", fontsize=8, ncol=2)
    extra = [m for m, on in (("Berserker", table.berserker), ("Charisma", table.charisma)) if on]
    fig.suptitle("Drakerys Morale roll" + (f" ({', '.join(extra)})" if extra else ""), fontsize=10)
    save(fig, path)


def plot_spell_table(table, path: Path) -> None:
    """P(each tier or better) against the Mana spent reinforcing, one line per Wizard level, at one
    opposition (2 when the table has it: one Vortex 11-20 cm away, or two within 10 cm)."""
    opposition = 2 if 2 in table.oppositions else table.oppositions[len(table.oppositions) // 2]
    tiers = table.tiers
    fig, axes = plt.subplots(1, len(tiers), figsize=(4 * len(tiers), 4), sharey=True, squeeze=False)
    for i, low in enumerate(tiers):
        ax = axes[0, i]
        for level in table.levels:
            manas = [m for m in table.manas(level) if (level, opposition, m) in table.cells]
            p = [exact.at_least(table.cells[level, opposition, m].tiers)[i + 1] for m in manas]
            ax.plot(manas, p, marker=".", label=f"level {level}")
        ax.set_xlabel("Mana spent reinforcing (dice - 1)")
        ax.set_title(f"P(at least {low} success{'es' if low != 1 else ''})", fontsize=9)
        ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel("probability (exact)")
    axes[0, -1].legend(fontsize=8)
    fig.suptitle(f"Drakerys Spell roll at opposition {opposition}, Vortexes only", fontsize=10)
    save(fig, path)


def plot_outcomes(frame, path: Path, title: str) -> None:
    """One panel per measure of a Fight or Shooting report (columns measure, outcome, probability, stderr):
    P(each outcome) with 95% error bars."""
    measures = list(dict.fromkeys(frame["measure"]))
    fig, axes = plt.subplots(len(measures), 1, figsize=(7, 2.2 * len(measures)), squeeze=False)
    for ax, measure in zip(axes[:, 0], measures, strict=True):
        rows = frame[frame["measure"] == measure]
        x = np.arange(len(rows))
        ax.bar(x, rows["probability"], yerr=Z95 * rows["stderr"].to_numpy(), color="#4c72b0", capsize=2)
        ax.set_xticks(x, [str(o) for o in rows["outcome"]], fontsize=7)
        ax.set_ylabel("probability", fontsize=8)
        ax.set_title(measure, fontsize=8)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle(f"{title} (95% error bars)", fontsize=9)
    fig.tight_layout()
    save(fig, path)


def plot_engagement(frame, path: Path, title: str) -> None:
    """A duel report's probabilities, AP destroyed and warriors lost (columns quantity, value, ci_low,
    ci_high), each with its 95% interval."""
    groups = [("outcome", lambda q: q.startswith("P(")), ("AP destroyed", lambda q: q.startswith("AP ")),
              ("warriors lost", lambda q: q.startswith("warriors lost"))]
    fig, axes = plt.subplots(len(groups), 1, figsize=(7, 2.4 * len(groups)), squeeze=False)
    for ax, (name, keep) in zip(axes[:, 0], groups, strict=True):
        rows = frame[[keep(q) for q in frame["quantity"]]]
        y = np.arange(len(rows))
        value = rows["value"].to_numpy()
        err = np.vstack([value - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - value])
        ax.barh(y, value, xerr=err, color="#4c72b0", capsize=2)
        ax.set_yticks(y, list(rows["quantity"]), fontsize=7)
        ax.set_title(name, fontsize=8)
        ax.grid(alpha=0.3, axis="x")
    fig.suptitle(f"{title} (95% intervals)", fontsize=9)
    fig.tight_layout()
    save(fig, path)
