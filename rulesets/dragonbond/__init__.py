"""Dragonbond: Battles of Valerna (seed 000): custom dice, Upgrade/Downgrade pools, attacks.

The package imports its rulings only: the command tree lists them without loading numpy.
"""

from __future__ import annotations

from rulesets.dragonbond.contest import DragonbondRuleset
from rulesets.dragonbond.rules import DragonbondRulings

__all__ = ["RULESET", "DragonbondRulings"]

RULESET = DragonbondRuleset(
    name="dragonbond", title="Dragonbond: Battles of Valerna", seed="000", rulings=DragonbondRulings,
    implemented=True, summary="d10 action dice in three strengths, d6 defense dice, upgrades/downgrades; "
                              "battles at equal points; the units the rulebook names, costs illustrative")
