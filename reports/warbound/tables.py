"""Warbound reports of one attack and of the standard tables (hit, armor, stress), all exact, with plots."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.formats import Report, Section, Table
from reports.tables import EXACT_ROW_FLOOR, READING, Rounding, read_as
from reports.warbound import grids
from rulesets.base import TableData
from rulesets.warbound import tables as t
from rulesets.warbound.exact import AttackOutcome, HitRoll
from rulesets.warbound.rules import WarboundRulings
from rulesets.warbound.tables import armor_rows, hit_rows  # noqa: F401 (benchmarks/run.py reads them here)
from simcore.stats import Z95

RULESET = "warbound (seed 004)"


def _meta(rulings: WarboundRulings, *items: tuple[str, str]) -> list[tuple[str, str]]:
    return [("ruleset", RULESET), *items, ("method", "exact"), ("rulings", rulings.describe())]


def describe_roll(roll: HitRoll) -> str:
    parts = [f"{roll.dice} di{'ce' if roll.dice > 1 else 'e'} at {roll.value}+"]
    if roll.formation:
        parts.append("in Formation (+1 die, +1 to the result)")
    if roll.aim:
        parts.append("Aim (one more die, the lowest discarded)")
    if roll.modifier:
        parts.append(f"{roll.modifier:+d} to the result")
    return ", ".join(parts) + f": {roll.rolled} rolled, {roll.kept} kept"


def _describe_target(outcome: AttackOutcome) -> str:
    t = outcome.target
    armor = (f"{t.armor_points} armor point(s) at {t.armor_value}+, {t.broken} broken"
             if t.armor_points else "no armor")
    health = f"Health {t.health}, {t.wounds} Wound token(s)" if t.health is not None else "Health not given"
    if t.panicked:
        morale = "panicked: no Morale pool (no Stress, no Panic)"
    elif t.morale is None:
        morale = "morale not given (Stress counted, Panic not judged)"
    else:
        morale = f"morale {t.morale}, {t.stress} Stress token(s)"
    return f"{armor}; {health}; {morale}"


def attack_report(outcome: AttackOutcome, rulings: WarboundRulings, run=None) -> Report:
    """One attack: the exact joint distribution of the new Wound, Break and Stress tokens, its marginals,
    P(removed) and P(Panic) at the end of the activation; with ``run`` (rulesets.warbound.simulate.AttackRun)
    the simulated marginals beside the exact ones."""
    pmf = outcome.pmf
    w, b, s = np.nonzero(pmf >= EXACT_ROW_FLOOR)
    meta = _meta(rulings, ("roll", describe_roll(outcome.roll)), ("target", _describe_target(outcome)))
    if outcome.add_wounds:
        meta.append(("added Wound tokens", f"{outcome.add_wounds} (no armor roll, line 474)"))
    for axis in ("wounds", "breaks", "stress"):
        meta.append((f"mean {axis}", f"{outcome.mean(axis):.6f}"))
    for label, p in (("P(removed at the end of the activation)", outcome.p_death),
                     ("P(Panic at the end of the activation)", outcome.p_panic),
                     ("P(Panic and not removed)", outcome.p_panic_survives)):
        if p is not None:
            meta.append((label, f"{p:.6f}"))
    sections = [Section("joint", "New Wound, Break and Stress tokens together",
                        Table({"wounds": w, "breaks": b, "stress": s, "probability": pmf[w, b, s]}))]
    for axis in ("wounds", "breaks", "stress"):
        p = outcome.marginal(axis)
        k = np.flatnonzero(p >= EXACT_ROW_FLOOR)
        cols = {axis: k, "probability": p[k]}
        if run is not None:
            sim = run.marginal(axis)
            sim = np.pad(sim, (0, max(0, p.size - sim.size)))[k]
            cols["simulated"] = sim
            cols["sim_stderr"] = np.sqrt(sim * (1 - sim) / run.trials)
        sections.append(Section(axis, f"New {axis.capitalize()} tokens", Table(cols)))
    if run is not None:
        meta.append(("simulated", f"Monte Carlo, {run.trials:,} attacks, seed {run.run.seed}, each drawn "
                                  f"whole from the exact table with one 64-bit word; 95% interval = value ± "
                                  f"{Z95:.2f} sim_stderr"))
    notes = [f"rows with probability < {EXACT_ROW_FLOOR:g} are left out",
             "Stress: one token per attack die rolled that is not a natural [1], hit or miss, before armor "
             "(lines 465, 507; WB-aim-stress for the discarded Aim die); none on a target without a Morale "
             "pool (525)",
             "the Death text's \"morale points value\" (lines 511, 575) is read as Health points (RULES.md)"]
    return Report("Warbound: one attack", meta, sections, notes=notes)


# --- standard tables: the numbers are rulesets.warbound.tables', laid out here ----------------------------

def hit_table_report(data: TableData) -> Report:
    meta = _meta(data.rulings, ("dice", "faces 1,2,3,4,5,5,6,7,8,9,10,10; a natural [1] fails and a natural "
                                        "[10] succeeds on every roll (line 359)"),
                 ("formation", "one more die and +1 to the result (lines 545, 559, 565)"))
    return Report("Warbound: hit rolls", meta,
                  [Section("hit", "P(at least one hit) and expected hits", Table(data.parts["hit"])),
                   Section("one_die", "P(hit) of one die by target value (the rulebook's cases)",
                           Table(data.parts["one_die"]))])


def armor_table_report(data: TableData) -> Report:
    meta = _meta(data.rulings, ("armor", "one die per damage, at the armor value or better saves, at most as "
                                         "many saves as unbroken armor points, each a Break token (lines "
                                         "476-482)"))
    return Report("Warbound: armor rolls", meta,
                  [Section("armor", "Wound and Break tokens by damage, armor value and armor points",
                           Table(data.parts["armor"]))])


def stress_table_report(data: TableData) -> Report:
    rulings = data.rulings
    meta = _meta(rulings, ("stress", "one token per die rolled that is not a natural [1], hit or miss "
                                     "(line 465); the discarded Aim die under "
                                     f"WB-aim-stress={rulings.aim_stress}; the target value does not matter"))
    return Report("Warbound: Stress tokens of a roll", meta,
                  [Section("stress", "P(k Stress tokens)", Table(data.parts["stress"])),
                   Section("mean", "Expected Stress tokens", Table(data.parts["mean"]))])


#: The Report of each standard table (Ruleset.tables() names them) from its data.
TABLE_REPORTS = {"hit": hit_table_report, "armor": armor_table_report, "stress": stress_table_report}


def table_report(name: str, data: TableData, rounding: Rounding = READING) -> Report:
    """A standard table's Report, with its views for reading rounded by ``rounding``."""
    return read_as(TABLE_REPORTS[name](data), grids.VIEWS[name], rounding)


def hit_table(rulings: WarboundRulings) -> Report:
    """P(at least one hit) and the expected hits by target value (2..12), dice (1..4), Aim and Formation."""
    return table_report("hit", t.hit_data(rulings))


def armor_table(rulings: WarboundRulings) -> Report:
    """Expected Wound and Break tokens, and P(no Wound), of 1..12 damage by armor value and armor points."""
    return table_report("armor", t.armor_data(rulings))


def stress_table(rulings: WarboundRulings) -> Report:
    """The distribution of the Stress tokens a roll gives, by dice (1..4) and Aim, under the rulings."""
    return table_report("stress", t.stress_data(rulings))


# --- plots ------------------------------------------------------------------------------------------------

def plot_table(name: str, report: Report, path: Path) -> None:
    """The standard table drawn, sized for the tables index (reports.plots.TABLE): hit (P(hit) by target
    value; a marker per number of dice, dashed with Aim), armor (the Wounds one armor point stops, by
    damage) or stress (expected Stress by dice)."""
    from reports.plots import TABLE, figure, integer_ticks, legend_outside, plot_lines, save, style

    df = report.sections[0].data
    fig, ax = figure(6.4, 4.0)
    if name == "hit":
        part = df[df.formation == "no"]
        dice = sorted(part.dice.unique())
        plot_lines(ax, [(f"{d} di{'ce' if d > 1 else 'e'}{', Aim' if aim == 'yes' else ''}", rows.target,
                         rows.p_hit, style(dice.index(d), "--" if aim == "yes" else "-"))
                        for (d, aim), rows in part.groupby(["dice", "aim"])])
        ax.set_xlabel("target value")
        ax.set_ylabel("P(at least one hit)")
        ax.set_title("Warbound hit rolls (exact; no Formation)")
    elif name == "armor":  # the Wounds themselves are nearly damage for every armor value: show the gap
        part = df[df.armor_points == 1]
        plot_lines(ax, [(f"{value}+", rows.damage, rows.damage - rows.expected_wounds)
                        for value, rows in part.groupby("armor_value")])
        ax.set_xlabel("damage")
        ax.set_ylabel("Wounds stopped\n(damage - expected Wounds)")
        ax.set_title("Warbound armor rolls, one armor point (exact)")
    else:
        means = report.sections[1].data
        plot_lines(ax, [("Aim" if aim == "yes" else "no Aim", rows.dice, rows.expected_stress)
                        for aim, rows in means.groupby("aim")])
        ax.set_xlabel("dice")
        ax.set_ylabel("expected Stress tokens")
        ax.set_title("Warbound Stress of a roll (exact)")
    integer_ticks(ax.xaxis)
    legend_outside(ax, title="armor value" if name == "armor" else None)
    ax.grid(alpha=0.3)
    save(fig, path, TABLE)
