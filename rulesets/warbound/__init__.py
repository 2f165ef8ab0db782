"""Warbound (seed 004): d12 dice with ten values, hit rolls with Aim and Formation, Stress, armor saves with
Break tokens, Panic and death, the Order-token economy.

The package imports its rulings only: the command tree lists them without loading numpy.
"""

from __future__ import annotations

from rulesets.warbound.contest import WarboundRuleset
from rulesets.warbound.rules import WarboundRulings

__all__ = ["RULESET", "WarboundRulings"]

RULESET = WarboundRuleset(
    name="warbound", title="Warbound", seed="004", rulings=WarboundRulings, implemented=True,
    summary="d12 dice with ten values: hit rolls with Aim and Formation, Stress, armor saves with Break "
            "tokens, Panic and death; duels over the five turns on the Order-token economy; the characters "
            "the rulebook names, their profiles illustrative")
