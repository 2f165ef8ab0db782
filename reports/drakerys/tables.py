"""Drakerys reports of the Action Table (one roll, exact or simulated, and the rulebook table), the Morale
table and the Ranged Weapons table."""

from __future__ import annotations

import numpy as np

from reports.formats import Report, Section, Table
from reports.provenance import catalog_text
from reports.tables import (
    EXACT_ROW_FLOOR,
    READING,
    Rounding,
    distribution_rows,
    mean_text,
    method_meta,
    probability_cell,
    rounding_note,
    smallest_shown,
)
from rulesets.drakerys.fight import MORALE_OUTCOMES, Morale
from rulesets.drakerys.rules import MORALE_DICE, describe_modifiers
from rulesets.drakerys.tables import MoraleTable, WeaponsTable, printed_strength
from simcore import exact


def roll_report(dist, show: tuple[str, ...] = ("successes", "criticals")) -> Report:
    """Report of a Drakerys Action-Table roll (exact or simulated)."""
    roll = dist.roll
    meta = [("ruleset", "drakerys (seed 002, ACTION TABLE, CRITICAL SUCCESSES, REROLLS)"),
            ("roll", roll.describe()), *method_meta(dist),
            ("rulings", dist.rulings.describe()),
            ("mean successes", mean_text(dist.mean("successes"), dist.exact)),
            ("mean criticals", mean_text(dist.mean("criticals"), dist.exact))]
    counts = None if dist.exact else dist.run.counts
    sections = []
    for what in show:
        if what == "successes":
            c = None if counts is None else counts[:-1, :].sum(axis=1)
            sections.append(Section("successes", "Successes",
                                    distribution_rows("successes", dist.successes, c)))
        elif what == "criticals":
            c = None if counts is None else counts[:, :-1].sum(axis=0)
            sections.append(Section("criticals", "Criticals (10s that added an extra die)",
                                    distribution_rows("criticals", dist.criticals, c)))
        elif what == "joint":
            sections.append(Section("joint", "Successes and criticals together", _joint_rows(dist)))
    notes = []
    if dist.overflow_trials:
        notes.append(f"{dist.overflow_trials} trials fell beyond the histogram and are left out of "
                     f"the tables (expected fewer than 1 in 10^15)")
    if counts is None:
        notes.append(f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out")
    return Report("Drakerys: Action-Table roll", meta, sections, notes=notes)


def _joint_rows(dist) -> Table:
    if dist.exact:
        joint = dist.joint
        s, c = np.nonzero(joint >= EXACT_ROW_FLOOR)
        return Table({"successes": s, "criticals": c, "probability": joint[s, c]})
    counts = dist.run.counts[:-1, :-1]
    s, c = np.nonzero(counts)
    p = counts[s, c] / dist.run.trials
    return Table({"successes": s, "criticals": c, "probability": p,
                  "stderr": np.sqrt(p * (1 - p) / dist.run.trials)})


def action_table_report(table, rounding: Rounding = READING) -> Report:
    """The Drakerys Action Table: P(at least k successes) and the mean for each dice count and threshold;
    the views round by ``rounding`` (by default percentages to 0.1, as a rulebook prints them)."""
    rows = []
    views = []
    for t in table.thresholds:
        view_rows = []
        for n in range(1, table.max_dice + 1):
            pmf = table.pmfs[n, t]
            tail = exact.at_least(pmf)
            m = exact.mean(pmf)
            last = int(np.flatnonzero(tail >= EXACT_ROW_FLOOR)[-1])
            for k in range(last + 1):
                rows.append((n, t, k, pmf[k], tail[k], m))
            view_rows.append((n, m, tail))
        floor = smallest_shown(rounding)
        width = max(int(np.flatnonzero(tl >= floor)[-1]) for _, _, tl in view_rows)
        view = Table({
            "dice": [n for n, _, _ in view_rows],
            "mean": [f"{m:.2f}" for _, m, _ in view_rows],
            **{f"≥{k}": [_shown(tl, k, rounding) for _, _, tl in view_rows] for k in range(1, width + 1)},
        })
        unit = "percent" if rounding.percent else "probability"
        views.append(Section(f"threshold_{t}", f"Threshold {t}+: P(at least k successes), {unit}", view))
    tidy = Table.from_rows(rows, ["dice", "threshold", "successes", "probability", "p_at_least", "mean"])
    options = describe_modifiers(table.swashbuckler, table.rerolls, table.crits)
    meta = [("ruleset", "drakerys (seed 002, ACTION TABLE, CRITICAL SUCCESSES)"),
            ("dice", f"1..{table.max_dice}"), ("thresholds", ", ".join(f"{t}+" for t in table.thresholds)),
            ("modifiers", ", ".join(options) or "none"),
            ("method", "exact"), ("rulings", table.rulings.describe())]
    notes = [f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out of the tidy table",
             rounding_note(rounding)]
    return Report("Drakerys: the Action Table", meta, [Section("action_table", "Action Table", tidy)],
                  views, notes)


def _shown(tail: np.ndarray, k: int, rounding: Rounding) -> str:
    """P(at least k) rounded: blank when it rounds to 0, never shown as certain unless it is."""
    return probability_cell(tail[k] if k < tail.size else 0.0, rounding)


#: What each Morale outcome does (MORALE; player aid "Effect of the Morale Roll").
MORALE_EFFECTS = {
    Morale.SCATTER: "0 successes: the unit scatters, withdrawn from the Battlefield as casualties",
    Morale.STRESS: "1 success: the unit gains a Stress marker; an Active unit's activation ends",
    Morale.DOUBT: "2 successes: the unit is in doubt; an Active unit's activation ends",
    Morale.STEADY: "3 successes and more: Morale intact, no effect",
}


def morale_table_report(table: MoraleTable, rounding: Rounding = READING) -> Report:
    """The Drakerys Morale table: P(scatter), P(stress), P(doubt), P(steady) for each number of dice and
    threshold; one view per outcome, rounded by ``rounding``."""
    rows = [(n, t, MORALE_OUTCOMES[o], table.p(n, t, Morale(o)))
            for n in table.dice for t in table.thresholds for o in range(len(MORALE_OUTCOMES))]
    tidy = Table.from_rows(rows, ["dice", "threshold", "outcome", "probability"])
    unit = "percent" if rounding.percent else "probability"
    views = []
    for o in range(len(MORALE_OUTCOMES)):
        outcome = Morale(o)
        cells = {f"{t}+": [probability_cell(table.p(n, t, outcome), rounding) for n in table.dice]
                 for t in table.thresholds}
        view = Table({"dice": list(table.dice), **cells})
        views.append(Section(MORALE_OUTCOMES[o], f"P({MORALE_OUTCOMES[o]}), {unit}: "
                                                 f"{MORALE_EFFECTS[outcome]}", view))
    modifiers = []
    if table.berserker:
        modifiers.append("Berserker: one success added to the roll (3+ is steady, no scatter)")
    if table.charisma:
        modifiers.append("Charisma within 20 cm: every failed die rerolled once (dice from criticals never)")
    meta = [("ruleset", "drakerys (seed 002, MORALE; MORALE ROLL in FIGHTING and SHOOTING; ACTION TABLE, "
                        "CRITICAL SUCCESSES; player aid \"Effect of the Morale Roll\")"),
            ("dice", f"{table.dice[0]}..{table.dice[-1]}: {MORALE_DICE} d10 + 1 per complete share of 5 "
                     "warriors still in the unit + 1 with Discipline + 1 per allied Authority unit in range"),
            ("thresholds", ", ".join(f"{t}+" for t in table.thresholds)
             + ": 6 - (Willpower of the Leader - opposition), clamped to 2..10; opposition after a Fight: "
               "the winner's Advantage - the loser's; after a Shot: the weapon's Saturation"),
            ("outcomes", "; ".join(MORALE_EFFECTS.values())),
            ("modifiers", "; ".join(modifiers) or "none"),
            ("criticals", "every 10 is a success and adds one d10 (a roll on the Action Table)"),
            ("method", "exact"), ("rulings", table.rulings.describe())]
    notes = [rounding_note(rounding),
             "the rows count the dice: a unit of 10 warriors with Discipline rolls 2 + 2 + 1 = 5"]
    return Report("Drakerys: the Morale roll", meta, [Section("morale", "Morale outcomes", tidy)], views,
                  notes)


def weapons_table_report(table: WeaponsTable, rounding: Rounding = READING) -> Report:
    """The Drakerys Ranged Weapons table as the catalog holds it, with its data quirks; ``rounding`` is
    unused (no probabilities)."""
    tidy = Table.from_records([
        {"key": key, "weapon": w.name, "max_range_cm": w.max_range_cm, "strength": printed_strength(w),
         "saturation": w.saturation, "special": w.special,
         "one_shot_per_activation": w.one_shot_per_activation, "ignores_parry": w.ignores_parry,
         "carried_by": ", ".join(table.carried_by[key]), "source": w.source}
        for key, w in table.weapons])
    view = Table({
        "Ranged Weapon": tidy["weapon"], "Max. Range": [f"{r} cm" for r in tidy["max_range_cm"]],
        "Strength": [str(s) for s in tidy["strength"]], "Saturation": tidy["saturation"],
        "Special": tidy["special"], "carried by": tidy["carried_by"]})
    meta = [("ruleset", "drakerys (seed 002, player aid \"Ranged Weapons\"; SHOOTING; the unit sheets)"),
            ("catalog", f"{table.catalog_source}: {catalog_text(table.catalog_files)}"),
            ("method", "transcribed as printed (data, no probabilities)"),
            ("rulings", "none apply to this table")]
    notes = ["Strength of the Warrior: the shooter's own Strength is the injury roll's action value",
             "Saturation is the opposition of the target's Morale roll after the Shot",
             *(f"data quirk: {q}" for q in table.quirks)]
    return Report("Drakerys: the ranged weapons", meta, [Section("weapons", "Ranged weapons", tidy)],
                  [Section("weapons", "Ranged weapons (as the player aid prints them)", view)], notes)
