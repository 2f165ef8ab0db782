"""Dragoborne (seed 001): three dice as Dragoshields or Dragocross, forts and barriers, 50-card decks.

The package imports its rulings only: the command tree lists them without loading numpy. The mechanics are
being built (rulesets/dragoborne/dice.py has the dice conditions); the balance layer is not implemented yet.
"""

from __future__ import annotations

from rulesets.base import Ruleset
from rulesets.dragoborne.rules import DragoborneRulings

__all__ = ["RULESET", "DragoborneRulings"]

RULESET = Ruleset(
    name="dragoborne", title="Dragoborne", seed="001", rulings=DragoborneRulings, implemented=False,
    summary="three dice as Dragoshields or Dragocross, forts and barriers, 50-card decks")
