"""Dragoborne's dice, exact (seed 001, lines 10-19, 145-149, 186, 208-217, 272-282; ../shared/RULES.md §5).

A player owns three dice in its banners' colours (lines 145-149); the colours are the player's (only red
and green are named), and "white" in a card's icon means any colour (lines 15, 19, 282). A card's DICE X-Y
"denote[s] abilities and effects that are gained when you have a die of the specified color with a value
within the specified range" (line 282).

Every probability here is exact (fractions), from each die's faces (DG-die) counted one die at a time: the
dice are independent, so P(no die meets a set of conditions) is a product over the dice, and P(every
condition is met) follows by inclusion-exclusion over the conditions. One die may meet several conditions
at once (the text asks only that you "have a die" for each). Pure Python, no numpy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from rulesets.base import OptionError, RulesError
from rulesets.dragoborne.rules import ANY_COLOUR, DICE, DragoborneRulings

_COLOUR = re.compile(r"^[a-z][a-z-]*$")
_CONDITION = re.compile(r"^\s*(?P<colour>[A-Za-z][A-Za-z-]*)\s*:\s*(?P<low>\d+)\s*(?:-\s*(?P<high>\d+))?\s*$")


def parse_dice(text: str) -> tuple[str, ...]:
    """``"red,red,green"`` -> the three dice's colours (lines 145-149); a one-line error otherwise."""
    colours = tuple(c.strip().lower() for c in str(text).split(","))
    if len(colours) != DICE:
        raise OptionError(f"--dice {text!r}: a player has {DICE} dice (line 147), not {len(colours)}; give "
                          "their colours, e.g. red,red,green")
    for c in colours:
        if not _COLOUR.match(c):
            raise OptionError(f"--dice {text!r}: {c!r} is not a colour name (letters, e.g. red, green)")
        if c == ANY_COLOUR:
            raise OptionError(f"--dice {text!r}: white is not a die's colour; in a card's icon it means any "
                              "colour (line 282)")
    return colours


@dataclass(frozen=True)
class Condition:
    """A card's DICE X-Y of a colour (``white``: any colour), X..Y inclusive."""

    colour: str
    low: int
    high: int

    def check(self, faces: int) -> Condition:
        if not _COLOUR.match(self.colour):
            raise OptionError(f"colour {self.colour!r} is not a colour name (letters, e.g. red, or white for "
                              "any)")
        if not 1 <= self.low <= self.high <= faces:
            raise OptionError(f"range {self.low}-{self.high} is not within the die's faces 1-{faces} "
                              f"(DG-die={faces}), low <= high")
        return self

    def met_by(self, colour: str, value: int) -> bool:
        return (self.colour == ANY_COLOUR or self.colour == colour) and self.low <= value <= self.high

    @property
    def text(self) -> str:
        span = f"{self.low}" if self.low == self.high else f"{self.low}-{self.high}"
        return f"{self.colour} {span}"


def parse_condition(text: str) -> Condition:
    """``"red:4-6"`` or ``"white:6"`` -> Condition (range checked later against the die's faces)."""
    m = _CONDITION.match(str(text))
    if not m:
        raise OptionError(f"condition {text!r} is not COLOUR:X-Y (e.g. red:4-6, white:6)")
    low = int(m["low"])
    return Condition(m["colour"].lower(), low, int(m["high"]) if m["high"] else low)


def parse_range(text: str) -> tuple[int, int]:
    """``"4-6"`` or ``"6"`` -> (4, 6) / (6, 6)."""
    m = re.match(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$", str(text))
    if not m:
        raise OptionError(f"range {text!r} is not X-Y or X (e.g. 4-6, 6)")
    low = int(m[1])
    return low, int(m[2]) if m[2] else low


@dataclass(frozen=True)
class Die:
    """One die: its colour, and its value when it is held (assigned and not rolled again), else None."""

    colour: str
    held: int | None = None


def dice_in_play(colours: tuple[str, ...], assigned: dict[int, int], rulings: DragoborneRulings
                 ) -> tuple[Die, ...]:
    """The dice after a Dice Step, as DG-reroll-assigned reads it: ``assigned`` maps a die's index to the
    value it was assigned at. unassigned-only: an assigned die keeps its value (only the Dice Zone is
    rolled, line 131); all-keep: it is rolled and stays assigned; all-return: every die is rolled and
    none stays assigned."""
    out = []
    for i, colour in enumerate(colours):
        value = assigned.get(i)
        if value is not None and not 1 <= value <= rulings.die:
            raise OptionError(f"an assigned {colour} die shows {value}, not a face of 1-{rulings.die}")
        held = value if rulings.reroll_assigned == "unassigned-only" else None
        out.append(Die(colour, held))
    return tuple(out)


def counted(dice: tuple[Die, ...], assigned: dict[int, int], rulings: DragoborneRulings) -> tuple[Die, ...]:
    """The dice a DICE X-Y looks at (DG-condition-dice): all of them, or the unassigned ones (an assigned
    die stays assigned unless DG-reroll-assigned=all-return)."""
    if rulings.condition_dice == "any" or rulings.reroll_assigned == "all-return":
        return dice
    return tuple(d for i, d in enumerate(dice) if i not in assigned)


def _p_none(die: Die, conditions: tuple[Condition, ...], faces: int) -> Fraction:
    """P(this die meets none of ``conditions``)."""
    values = [die.held] if die.held is not None else range(1, faces + 1)
    misses = sum(1 for v in values if not any(c.met_by(die.colour, v) for c in conditions))
    return Fraction(misses, len(values))


def p_none(dice: tuple[Die, ...], conditions: tuple[Condition, ...], faces: int) -> Fraction:
    """P(no die meets any of ``conditions``): the dice are independent."""
    p = Fraction(1)
    for d in dice:
        p *= _p_none(d, conditions, faces)
    return p


def p_any(dice: tuple[Die, ...], conditions: tuple[Condition, ...], faces: int) -> Fraction:
    """P(some die meets some condition)."""
    return 1 - p_none(dice, conditions, faces)


def p_all(dice: tuple[Die, ...], conditions: tuple[Condition, ...], faces: int) -> Fraction:
    """P(every condition is met by some die), by inclusion-exclusion over the conditions (a die may meet
    several)."""
    total = Fraction(0)
    for k in range(len(conditions) + 1):
        for subset in combinations(conditions, k):
            total += (-1) ** k * p_none(dice, subset, faces)
    return total


@dataclass(frozen=True)
class ConditionOdds:
    """The odds of one or more DICE X-Y conditions: each alone, all of them, any of them."""

    dice: tuple[Die, ...]
    conditions: tuple[Condition, ...]
    each: tuple[Fraction, ...]
    all: Fraction
    any: Fraction


def condition_odds(colours: tuple[str, ...], conditions: tuple[Condition, ...],
                   rulings: DragoborneRulings | None = None, assigned: dict[int, int] | None = None
                   ) -> ConditionOdds:
    """Exact P of each condition, of all and of any, for dice of these colours after a Dice Step."""
    rulings = rulings or DragoborneRulings()
    assigned = dict(assigned or {})
    if not conditions:
        raise RulesError("no DICE X-Y condition given")
    for c in conditions:
        c.check(rulings.die)
        if c.colour != ANY_COLOUR and c.colour not in colours:
            raise OptionError(f"condition {c.text}: no die is {c.colour} (the dice are "
                              f"{', '.join(colours)}); white means any colour")
    for i in assigned:
        if not 0 <= i < len(colours):
            raise OptionError(f"die {i + 1} is not one of the {len(colours)} dice")
    dice = counted(dice_in_play(colours, assigned, rulings), assigned, rulings)
    faces = rulings.die
    each = tuple(p_any(dice, (c,), faces) for c in conditions)
    return ConditionOdds(dice, conditions, each, p_all(dice, conditions, faces),
                         p_any(dice, conditions, faces))
