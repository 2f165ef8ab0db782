"""UberDrakes (seed 003): d6 rolloffs keeping the highest two with Rage, counterattacks, Blood points.

The package imports its rulings only: the command tree lists them without loading numpy. The mechanics are
being built (rulesets/uberdrakes/exact.py has the rolloffs); the balance layer is not implemented yet.
"""

from __future__ import annotations

from rulesets.base import Ruleset
from rulesets.uberdrakes.rules import UberDrakesRulings

__all__ = ["RULESET", "UberDrakesRulings"]

RULESET = Ruleset(
    name="uberdrakes", title="UberDrakes", seed="003", rulings=UberDrakesRulings, implemented=False,
    summary="2d6 keep-highest rolloffs with Rage, counterattacks, Blood points")
