"""Dragoborne reports for the dice: DICE X-Y conditions, exact (rulesets.dragoborne.dice)."""

from __future__ import annotations

from reports.dragoborne import grids
from reports.formats import Report, Section, Table
from reports.tables import read_as
from rulesets.base import TableData
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


def shield_report(atk: int, shields: int, per_turn: int, turns: int, rulings: DragoborneRulings) -> Report:
    """A fort's fresh dragoshield(s) against attacks of one ATK: how many attacks they absorb, P(they
    stand) after each number of attacks in a turn, and over ``turns`` turns of ``per_turn`` attacks."""
    from rulesets.dragoborne.shields import MAX_ATTACKS, absorbed_pmf, p_stands, p_stands_turns

    pmf = absorbed_pmf(atk, rulings, shields)
    absorbed = Table.from_rows([(n, float(p), str(p)) for n, p in pmf.items()],
                               ["attacks_absorbed", "probability", "exact"])
    top = min(MAX_ATTACKS, max(pmf) + 1)
    stand = [p_stands(atk, k, rulings, shields) for k in range(0, top + 1)]
    stands = Table.from_rows([(k, float(p), str(p)) for k, p in enumerate(stand)],
                             ["attacks", "p_stands", "exact"])
    sections = [Section("absorbed", "Attacks absorbed before one gets through to the fort", absorbed),
                Section("stands", "P(the shields still stand) after k attacks in one turn", stands)]
    if turns and shields == 1:
        over = p_stands_turns(atk, per_turn, turns, rulings)
        sections.append(Section("turns", f"Over {turns} turns of {per_turn} attacks",
                                Table.from_rows([(turns, per_turn, float(over), str(over))],
                                                ["turns", "attacks_per_turn", "p_stands", "exact"])))
    plural = "s" if shields > 1 else ""
    meta = _meta(rulings, ("shields", f"{shields} fresh dragoshield{plural} (a d{rulings.die} each, DG-die)"),
                 ("attacks", f"ATK {atk} each"))
    notes = ["a dragoshield is a 0/X defender, X the die's value; it blocks every attack on its fort until "
             "the damage it has blocked reaches X (lines 15, 215), and damage to it never reaches the fort "
             "(246): it absorbs ceil(X / ATK) attacks",
             f"damage carried from turn to turn: DG-shield-persist={str(rulings.shield_persist).lower()}; "
             f"shields per fort: DG-shield-stack={rulings.shield_stack}"]
    return Report("Dragoborne: dragoshields against attacks", meta, sections, notes=notes)


def shield_table_report(data: TableData) -> Report:
    """The standard shield table (its numbers: rulesets.dragoborne.tables.shield_data)."""
    meta = _meta(data.rulings, ("shield", f"one fresh dragoshield, a d{data.rulings.die} (DG-die)"))
    return Report("Dragoborne: P(a dragoshield stands)", meta,
                  [Section("shield", "P(it stands) by ATK and attacks in one turn",
                           Table(data.parts["shield"]))],
                  notes=["it absorbs ceil(X / ATK) attacks, X the die's value (lines 15, 215, 246)"])


def shield_table(rulings: DragoborneRulings) -> Report:
    """P(a fresh dragoshield stands) after 1..6 attacks of ATK 1..6 in a turn."""
    from rulesets.dragoborne.tables import shield_data

    return read_as(shield_table_report(shield_data(rulings)), grids.shield_views)
