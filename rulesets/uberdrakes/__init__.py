"""UberDrakes (seed 003). Rulings only; the mechanics are not implemented yet."""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Ruleset, Rulings, parse_choice, parse_int_range, ruling


@dataclass(frozen=True)
class UberDrakesRulings(Rulings):
    """Defaults for the UberDrakes text that can be read more than one way (../shared/RULES.md §4)."""

    camouflage: int = ruling(
        "UD-camouflage", 3, accepted="2|3",
        meaning="Camouflage's combat bonus: +3 as its card says, or +2 as its clarification says",
        source="seed 003, Spells / Camouflage", parse=parse_int_range(2, 3))
    policy: str = ruling(
        "UD-policy", "greedy", accepted="greedy|optimal",
        meaning="how players concede and spend counterattack resources: greedy (fewest resources that "
                "still overtake, cheapest first, never concede while one remains) or optimal (maximise "
                "win probability)",
        source="seed 003, Combat / Counterattack", parse=parse_choice("greedy", "optimal"))


RULESET = Ruleset(
    name="uberdrakes", title="UberDrakes", seed="003", rulings=UberDrakesRulings, implemented=False,
    summary="2d6 keep-highest rolloffs with Rage, counterattacks, Blood points")
