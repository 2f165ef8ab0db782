"""UberDrakes (seed 003): d6 rolloffs keeping the highest two with Rage, counterattacks, Blood points.

The package imports its rulings only: the command tree lists them without loading numpy.
"""

from __future__ import annotations

from rulesets.uberdrakes.contest import UberDrakesRuleset
from rulesets.uberdrakes.rules import UberDrakesRulings

__all__ = ["RULESET", "UberDrakesRulings"]

RULESET = UberDrakesRuleset(
    name="uberdrakes", title="UberDrakes", seed="003", rulings=UberDrakesRulings, implemented=True,
    summary="2d6 keep-highest rolloffs with Rage, the counterattack game solved exactly (greedy and "
            "optimal), items and spells priced by what they add to a combat, blood points")
