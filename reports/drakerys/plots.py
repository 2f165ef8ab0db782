"""Drakerys plots: one roll's distribution, the Action Table's means, the Morale and Spell tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.plots import (
    COLOURS,
    TABLE,
    Z95,
    figure,
    integer_ticks,
    legend_outside,
    plot_lines,
    save,
    style,
)
from rulesets.drakerys.fight import Morale
from simcore import exact


def plot_roll(dist, path: Path) -> None:
    """Bar chart of P(successes = k) with P(at least k) as a line; 95% error bars when simulated."""
    pmf = dist.successes
    tail = exact.at_least(pmf)
    last = int(np.flatnonzero(tail >= 1e-6)[-1])
    k = np.arange(last + 1)
    fig, ax = figure(7, 4)
    err = None
    if not dist.exact:
        err = Z95 * np.sqrt(pmf[k] * (1 - pmf[k]) / dist.run.trials)
    ax.bar(k, pmf[k], yerr=err, color=COLOURS[0], label="P(successes = k)")
    ax.plot(k, tail[k], label="P(successes ≥ k)", **style(1))
    ax.set_xlabel("successes k")
    ax.set_ylabel("probability")
    integer_ticks(ax.xaxis)
    how = "exact" if dist.exact else f"Monte Carlo, {dist.run.trials:,} trials, 95% bars"
    ax.set_title(f"Drakerys: {dist.roll.describe()} ({how})")
    ax.legend()
    ax.grid(alpha=0.3)
    save(fig, path)


def plot_action_table(table, path: Path) -> None:
    """Mean successes against dice, one line per threshold; sized for the tables index."""
    fig, ax = figure(6.4, 4.2)
    dice = np.arange(1, table.max_dice + 1)
    plot_lines(ax, [(f"{t}+", dice, [table.mean(n, t) for n in dice]) for t in table.thresholds])
    ax.set_xlabel("dice")
    ax.set_ylabel("mean successes (exact)")
    integer_ticks(ax.xaxis)
    ax.set_title("Drakerys Action Table: mean successes by threshold")
    legend_outside(ax, title="threshold")
    ax.grid(alpha=0.3)
    save(fig, path, TABLE)


def plot_morale_table(table, path: Path) -> None:
    """P(scatter) and P(steady) against the threshold, one line per number of dice; the two panels stacked
    (side by side they would be too narrow in the tables index)."""
    fig, axes = figure(6.4, 6.4, nrows=2, ncols=1, sharex=True)
    thresholds = list(table.thresholds)
    for ax, outcome, what in ((axes[0], Morale.SCATTER, "P(scatter: 0 successes)"),
                              (axes[1], Morale.STEADY, "P(steady: 3+ successes)")):
        plot_lines(ax, [(f"{n}d10", thresholds, [table.p(n, t, outcome) for t in thresholds])
                        for n in table.dice])
        ax.set_title(what)
        ax.set_ylabel("probability (exact)")
        ax.grid(alpha=0.3)
    axes[1].set_xlabel("threshold")
    integer_ticks(axes[1].xaxis)
    legend_outside(axes[0], title="dice")
    extra = [m for m, on in (("Berserker", table.berserker), ("Charisma", table.charisma)) if on]
    fig.suptitle("Drakerys Morale roll" + (f" ({', '.join(extra)})" if extra else ""))
    save(fig, path, TABLE)


def plot_spell_table(table, path: Path) -> None:
    """P(each tier or better) against the Mana spent reinforcing, one line per Wizard level, at one
    opposition (2 when the table has it: one Vortex 11-20 cm away, or two within 10 cm); one panel per
    tier, stacked."""
    opposition = 2 if 2 in table.oppositions else table.oppositions[len(table.oppositions) // 2]
    tiers = table.tiers
    fig, axes = figure(6.4, 2.6 * len(tiers) + 0.8, nrows=len(tiers), ncols=1, sharex=True, squeeze=False)
    for i, low in enumerate(tiers):
        ax = axes[i, 0]
        series = []
        for level in table.levels:
            manas = [m for m in table.manas(level) if (level, opposition, m) in table.cells]
            series.append((f"level {level}", manas,
                           [exact.at_least(table.cells[level, opposition, m].tiers)[i + 1] for m in manas]))
        plot_lines(ax, series)
        ax.set_title(f"P(at least {low} success{'es' if low != 1 else ''})")
        ax.set_ylabel("probability")
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("Mana spent reinforcing (dice - 1)")
    integer_ticks(axes[-1, 0].xaxis)
    legend_outside(axes[0, 0], title="Wizard")
    fig.suptitle(f"Drakerys Spell roll at opposition {opposition}, Vortexes only (exact)")
    save(fig, path, TABLE)


def plot_outcomes(frame, path: Path, title: str) -> None:
    """One panel per measure of a Fight or Shooting report (columns measure, outcome, probability, stderr):
    P(each outcome) with 95% error bars."""
    measures = list(dict.fromkeys(frame["measure"]))
    fig, axes = figure(7, 2.4 * len(measures) + 0.4, nrows=len(measures), ncols=1, squeeze=False)
    for ax, measure in zip(axes[:, 0], measures, strict=True):
        rows = frame[frame["measure"] == measure]
        x = np.arange(len(rows))
        ax.bar(x, rows["probability"], yerr=Z95 * rows["stderr"].to_numpy(), color=COLOURS[0], capsize=2)
        ax.set_xticks(x, [str(o) for o in rows["outcome"]])
        ax.set_ylabel("probability")
        ax.set_title(measure)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle(f"{title} (95% error bars)")
    save(fig, path)


def plot_engagement(frame, path: Path, title: str) -> None:
    """A duel report's probabilities, AP destroyed and warriors lost (columns quantity, value, ci_low,
    ci_high), each with its 95% interval."""
    groups = [("outcome", lambda q: q.startswith("P(")), ("AP destroyed", lambda q: q.startswith("AP ")),
              ("warriors lost", lambda q: q.startswith("warriors lost"))]
    fig, axes = figure(7, 2.6 * len(groups) + 0.4, nrows=len(groups), ncols=1, squeeze=False)
    for ax, (name, keep) in zip(axes[:, 0], groups, strict=True):
        rows = frame[[keep(q) for q in frame["quantity"]]]
        y = np.arange(len(rows))
        value = rows["value"].to_numpy()
        err = np.vstack([value - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - value])
        ax.barh(y, value, xerr=err, color=COLOURS[0], capsize=2)
        ax.set_yticks(y, list(rows["quantity"]))
        ax.set_title(name)
        ax.grid(alpha=0.3, axis="x")
    fig.suptitle(f"{title} (95% intervals)")
    save(fig, path)
