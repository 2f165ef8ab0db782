"""Dragoborne (seed 001): three dice as Dragoshields or Dragocross, forts and barriers, 50-card decks.

The package imports its rulings and the contract only: the command tree lists them without loading numpy.
The whole game is rulesets/dragoborne/game.py (specification), kernels.py (compiled) and simulate.py; the
exact mechanics are dice.py, shields.py, hands.py and assign.py; the balance layer is contest.py.
"""

from __future__ import annotations

from rulesets.dragoborne.contest import DragoborneRuleset
from rulesets.dragoborne.rules import DragoborneRulings

__all__ = ["RULESET", "DragoborneRulings"]

RULESET = DragoborneRuleset(
    name="dragoborne", title="Dragoborne", seed="001", rulings=DragoborneRulings, implemented=True,
    summary="three dice as Dragoshields or Dragocross, forts and barriers, 50-card decks")
