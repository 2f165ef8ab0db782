"""Dragoborne (seed 001). Rulings only; the mechanics are not implemented yet."""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Ruleset, Rulings, parse_int_range, ruling


@dataclass(frozen=True)
class DragoborneRulings(Rulings):
    """Defaults for the Dragoborne text that can be read more than one way (../shared/RULES.md §5)."""

    die: int = ruling(
        "DG-die", 6, accepted="a whole number of faces from 2 to 100",
        meaning="faces of the three dice (the guide never names the die size; default six-sided, 1..6)",
        source="seed 001, Dice Step", parse=parse_int_range(2, 100))


RULESET = Ruleset(
    name="dragoborne", title="Dragoborne", seed="001", rulings=DragoborneRulings, implemented=False,
    summary="three dice as Dragoshields or Dragocross, forts and barriers, 50-card decks")
