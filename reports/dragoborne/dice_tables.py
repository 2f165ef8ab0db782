"""Dragoborne reports for the dice: DICE X-Y conditions, exact (rulesets.dragoborne.dice)."""

from __future__ import annotations

from reports.formats import Report, Section, Table
from rulesets.dragoborne.dice import ConditionOdds
from rulesets.dragoborne.rules import DragoborneRulings

RULESET = "dragoborne (seed 001)"


def _meta(rulings: DragoborneRulings, *items: tuple[str, str]) -> list[tuple[str, str]]:
    return [("ruleset", RULESET), *items, ("method", "exact"), ("rulings", rulings.describe())]


def condition_report(colours: tuple[str, ...], odds: ConditionOdds, assigned: dict[int, int],
                     rulings: DragoborneRulings) -> Report:
    """P(each DICE X-Y condition), P(all of them) and P(any), exact, after a Dice Step."""
    each = Table.from_rows([(c.text, c.colour, c.low, c.high, float(p), str(p))
                            for c, p in zip(odds.conditions, odds.each, strict=True)],
                           ["condition", "colour", "low", "high", "p_met", "exact"])
    combined = Table.from_rows([("all", float(odds.all), str(odds.all)),
                                ("any", float(odds.any), str(odds.any))], ["conditions", "p_met", "exact"])
    held = rulings.reroll_assigned == "unassigned-only"
    excluded = rulings.condition_dice == "unassigned" and rulings.reroll_assigned != "all-return"
    dice = Table.from_rows([(i + 1, c, assigned.get(i, ""),
                             f"held at {assigned[i]}" if i in assigned and held else "rolled",
                             "no" if i in assigned and excluded else "yes")
                            for i, c in enumerate(colours)],
                           ["die", "colour", "assigned_at", "value", "counted"])
    meta = _meta(rulings, ("dice", ", ".join(colours) + f" (d{rulings.die}, DG-die)"),
                 ("conditions", "; ".join(c.text for c in odds.conditions)))
    notes = ["DICE X-Y: \"when you have a die of the specified color with a value within the specified "
             "range\" (line 282); white means any colour",
             "all: every condition met by some die, one die free to meet several; any: at least one met",
             f"dice counted: DG-condition-dice={rulings.condition_dice}; assigned dice rolled again: "
             f"DG-reroll-assigned={rulings.reroll_assigned}"]
    return Report("Dragoborne: DICE X-Y conditions", meta,
                  [Section("conditions", "P(a die meets each condition)", each),
                   Section("combined", "P(all of them), P(any of them)", combined),
                   Section("dice", "The dice", dice)], notes=notes)
