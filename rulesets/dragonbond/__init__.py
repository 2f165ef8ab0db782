"""Dragonbond: Battles of Valerna (seed 000): custom dice, Upgrade/Downgrade pools, attacks.

The package imports its rulings only: the command tree lists them without loading numpy.
"""

from __future__ import annotations

from rulesets.base import Ruleset
from rulesets.dragonbond.rules import DragonbondRulings

__all__ = ["RULESET", "DragonbondRulings"]

RULESET = Ruleset(
    name="dragonbond", title="Dragonbond: Battles of Valerna", seed="000", rulings=DragonbondRulings,
    implemented=False, summary="d10 action dice in three strengths, d6 defense dice, upgrades/downgrades")
