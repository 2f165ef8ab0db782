"""Warbound reports of one attack and of the standard tables (hit, armor, stress), all exact, with plots."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.formats import Report, Section, Table
from reports.tables import EXACT_ROW_FLOOR, read_as
from reports.warbound import grids
from rulesets.warbound.exact import (
    AttackOutcome,
    HitRoll,
    armor_summaries,
    hit_stress_pmf,
    hit_summaries,
    hits_pmf,
)
from rulesets.warbound.rules import WarboundRulings
from simcore.stats import Z95

RULESET = "warbound (seed 004)"
#: The standard tables' ranges: target values, dice, damage, armor values and points.
TABLE_VALUES = range(2, 13)
TABLE_DICE = range(1, 5)
TABLE_DAMAGE = range(1, 13)
TABLE_ARMOR_VALUES = range(2, 12)
TABLE_ARMOR_POINTS = range(1, 5)


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
    P(removed) and P(Panic) at the end of the activation; with ``run`` (rulesets.warbound.duel.AttackRun)
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


def hit_rows(rulings: WarboundRulings) -> list[tuple]:
    """(target, dice, aim, formation, P(at least one hit), expected hits) of the hit table, computed at once
    (rulesets.warbound.exact.hit_summaries)."""
    value, dice, aim, formation = (g.ravel() for g in np.meshgrid(
        np.array(TABLE_VALUES), np.array(TABLE_DICE), [0, 1], [0, 1], indexing="ij"))
    p_any, mean = hit_summaries(dice + formation, value, aim.astype(bool), formation, rulings)
    yes = np.array(["no", "yes"])
    return list(zip(value.tolist(), dice.tolist(), yes[aim].tolist(), yes[formation].tolist(), p_any.tolist(),
                    mean.tolist(), strict=True))


def hit_table(rulings: WarboundRulings) -> Report:
    """P(at least one hit) and the expected hits by target value (2..12), dice (1..4), Aim and Formation."""
    table = Table.from_rows(hit_rows(rulings), ["target", "dice", "aim", "formation", "p_hit",
                                                "expected_hits"])
    one = [(v, *(float(hits_pmf(HitRoll(1, v, aim, modifier=mod), rulings)[1])
                 for aim, mod in ((False, 0), (True, 0), (False, 1), (True, 1)))) for v in TABLE_VALUES]
    view = Table.from_rows(one, ["target", "P(hit) one die", "P(hit) Aim", "P(hit) +1", "P(hit) Aim and +1"])
    meta = _meta(rulings, ("dice", "faces 1,2,3,4,5,5,6,7,8,9,10,10; a natural [1] fails and a natural [10] "
                                   "succeeds on every roll (line 359)"),
                 ("formation", "one more die and +1 to the result (lines 545, 559, 565)"))
    return read_as(Report("Warbound: hit rolls", meta,
                          [Section("hit", "P(at least one hit) and expected hits", table),
                           Section("one_die", "P(hit) of one die by target value (the rulebook's cases)",
                                   view)]), grids.hit_views)


def armor_rows() -> list[tuple]:
    """(armor value, armor points, damage, expected Wounds, expected Breaks, P(no Wound)) of the armor
    table, computed at once (rulesets.warbound.exact.armor_summaries)."""
    value, points, damage = (g.ravel() for g in np.meshgrid(
        np.array(TABLE_ARMOR_VALUES), np.array(TABLE_ARMOR_POINTS), np.array(TABLE_DAMAGE), indexing="ij"))
    wounds, breaks, none = armor_summaries(damage, value, points)
    return list(zip(value.tolist(), points.tolist(), damage.tolist(), wounds.tolist(), breaks.tolist(),
                    none.tolist(), strict=True))


def armor_table(rulings: WarboundRulings) -> Report:
    """Expected Wound and Break tokens, and P(no Wound), of 1..12 damage by armor value and armor points."""
    table = Table.from_rows(armor_rows(), ["armor_value", "armor_points", "damage", "expected_wounds",
                                           "expected_breaks", "p_no_wound"])
    meta = _meta(rulings, ("armor", "one die per damage, at the armor value or better saves, at most as many "
                                    "saves as unbroken armor points, each a Break token (lines 476-482)"))
    return read_as(Report("Warbound: armor rolls", meta,
                          [Section("armor", "Wound and Break tokens by damage, armor value and armor points",
                                   table)]), grids.armor_views)


def stress_table(rulings: WarboundRulings) -> Report:
    """The distribution of the Stress tokens a roll gives, by dice (1..4) and Aim, under the rulings."""
    rows, means = [], []
    for dice in TABLE_DICE:
        for aim in (False, True):
            p = hit_stress_pmf(HitRoll(dice, 7, aim), rulings).sum(axis=0)
            for k in range(p.size):
                rows.append((dice, "yes" if aim else "no", k, float(p[k])))
            means.append((dice, "yes" if aim else "no", float(np.arange(p.size) @ p)))
    meta = _meta(rulings, ("stress", "one token per die rolled that is not a natural [1], hit or miss "
                                     "(line 465); the discarded Aim die under "
                                     f"WB-aim-stress={rulings.aim_stress}; the target value does not matter"))
    return read_as(Report("Warbound: Stress tokens of a roll", meta,
                          [Section("stress", "P(k Stress tokens)",
                                   Table.from_rows(rows, ["dice", "aim", "stress", "probability"])),
                           Section("mean", "Expected Stress tokens",
                                   Table.from_rows(means, ["dice", "aim", "expected_stress"]))]),
                   grids.stress_views)


# --- plots ------------------------------------------------------------------------------------------------

def plot_table(name: str, report: Report, path: Path) -> None:
    """The standard table drawn: hit (P(hit) by target value), armor (expected Wounds by damage) or stress
    (expected Stress by dice)."""
    from reports.plots import plt, save

    df = report.sections[0].data
    fig, ax = plt.subplots(figsize=(7, 4))
    if name == "hit":
        for (dice, aim), part in df[df.formation == "no"].groupby(["dice", "aim"]):
            ax.plot(part.target, part.p_hit, marker=".", ls="-" if aim == "no" else "--",
                    label=f"{dice} di{'ce' if dice > 1 else 'e'}{', Aim' if aim == 'yes' else ''}")
        ax.set_xlabel("target value")
        ax.set_ylabel("P(at least one hit)")
        ax.set_title("Warbound hit rolls (exact; no Formation)", fontsize=9)
    elif name == "armor":
        for value, part in df[df.armor_points == 1].groupby("armor_value"):
            ax.plot(part.damage, part.expected_wounds, marker=".", label=f"{value}+")
        ax.set_xlabel("damage")
        ax.set_ylabel("expected Wound tokens")
        ax.set_title("Warbound armor rolls, one armor point (exact)", fontsize=9)
    else:
        means = report.sections[1].data
        for aim, part in means.groupby("aim"):
            ax.plot(part.dice, part.expected_stress, marker="o", label="Aim" if aim == "yes" else "no Aim")
        ax.set_xlabel("dice")
        ax.set_ylabel("expected Stress tokens")
        ax.set_title("Warbound Stress of a roll (exact)", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    save(fig, path)
