"""Warbound (seed 004). Rulings only; the mechanics are not implemented yet."""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Ruleset, Rulings, parse_choice, ruling


@dataclass(frozen=True)
class WarboundRulings(Rulings):
    """Defaults for the Warbound text that can be read more than one way (../shared/RULES.md §3)."""

    formation_bonus: str = ruling(
        "WB-formation-bonus", "natural-1-fails", accepted="natural-1-fails|natural-1-modified",
        meaning="Formation's +1 is added to the die result; natural-1-fails: a natural 1 still fails, "
                "natural-1-modified: the +1 applies to a natural 1 too",
        source="seed 004, Formation / Game rules",
        parse=parse_choice("natural-1-fails", "natural-1-modified"))
    aim_stress: str = ruling(
        "WB-aim-stress", "kept", accepted="kept|all",
        meaning="which dice of an Aimed attack cause Stress: kept dice only, or the discarded die too",
        source="seed 004, Aim / Stress", parse=parse_choice("kept", "all"))


RULESET = Ruleset(
    name="warbound", title="Warbound", seed="004", rulings=WarboundRulings, implemented=False,
    summary="d12 dice with ten values, armor saves with Break tokens, Stress and Panic")
