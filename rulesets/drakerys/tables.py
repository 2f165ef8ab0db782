"""The Drakerys rulebook tables a designer or rulebook author prints, computed exactly."""

from __future__ import annotations

from rulesets.base import StandardTable
from rulesets.drakerys.rules import DrakerysRulings


def _action(rulings: DrakerysRulings):
    from rulesets.drakerys import action_table

    return action_table(rulings=rulings)


def standard_tables() -> dict[str, StandardTable]:
    """Every standard table of Drakerys, by name."""
    return {
        "action": StandardTable("action", "The Action Table: P(at least k successes) by dice and threshold",
                                _action),
    }
