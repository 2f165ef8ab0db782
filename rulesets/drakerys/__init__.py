"""Drakerys (seed 002): Action-Table rolls, exact and simulated.

Public API: :class:`ActionRoll`, :func:`action_threshold`, :func:`exact_action_roll`,
:func:`simulate_action_roll`, :func:`action_table`, :class:`DrakerysRulings`: the package re-exports them
(the rolls live in rulesets.drakerys.rolls, the rules in rulesets.drakerys.rules).

numpy and the exact and statistical code are imported by the functions that use them, not with the package:
the command tree imports it (its limits and its ruleset), and `balance --help` loads none of them.
"""

from __future__ import annotations

from rulesets.drakerys.contest import DrakerysRuleset
from rulesets.drakerys.rolls import (
    ActionTable,
    RollDistribution,
    action_table,
    exact_action_roll,
    simulate_action_roll,
)
from rulesets.drakerys.rules import (
    CRIT_MODES,
    MAX_DICE,
    MAX_HEROIC,
    MAX_THRESHOLD,
    MIN_THRESHOLD,
    SIDES,
    ActionRoll,
    DrakerysRulings,
    action_threshold,
)

RULESET = DrakerysRuleset(
    name="drakerys",
    title="Drakerys",
    seed="002",
    rulings=DrakerysRulings,
    implemented=True,
    summary="d10 Action Table, Fights, Shootings and duels on the TimePath, magic; units at every "
            "recruitment size, cost in AP",
)


__all__ = [
    "CRIT_MODES",
    "MAX_DICE",
    "MAX_HEROIC",
    "MAX_THRESHOLD",
    "MIN_THRESHOLD",
    "RULESET",
    "SIDES",
    "ActionRoll",
    "ActionTable",
    "DrakerysRulings",
    "RollDistribution",
    "action_table",
    "action_threshold",
    "exact_action_roll",
    "simulate_action_roll",
]
