"""Warbound (seed 004): d12 dice with ten values, hit rolls with Aim and Formation, Stress, armor saves with
Break tokens, Panic and death, the Order-token economy.

The package imports its rulings only: the command tree lists them without loading numpy.
"""

from __future__ import annotations

from rulesets.base import Ruleset
from rulesets.warbound.rules import WarboundRulings

__all__ = ["RULESET", "WarboundRulings"]

RULESET = Ruleset(
    name="warbound", title="Warbound", seed="004", rulings=WarboundRulings, implemented=False,
    summary="d12 dice with ten values, armor saves with Break tokens, Stress and Panic")
