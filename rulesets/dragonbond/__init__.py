"""Dragonbond: Battles of Valerna (seed 000). Rulings only; the mechanics are not implemented yet."""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Ruleset, Rulings, parse_bool, parse_choice, ruling


@dataclass(frozen=True)
class DragonbondRulings(Rulings):
    """Defaults for the Dragonbond text that can be read more than one way (../shared/RULES.md §2)."""

    faces: str = ruling(
        "DB-faces", "strongest-first", accepted="strongest-first|weakest-first",
        meaning="the unlabeled columns of the standard-die table are black, grey, white (strongest "
                "first); weakest-first reads them as white, grey, black",
        source="seed 000, Dice / Using Standard Dice", parse=parse_choice("strongest-first", "weakest-first"))
    defense_tiers: str = ruling(
        "DB-defense-tiers", "black-white-red", accepted="black-white-red|red-white-black",
        meaning="order of defense-die strength, strongest first; upgrading the strongest die adds a "
                "weakest die",
        source="seed 000, Dice Actions", parse=parse_choice("black-white-red", "red-white-black"))
    crit_success: bool = ruling(
        "DB-crit-success", True, accepted="true|false",
        meaning="where successes are counted (charge distance, face-off) a critical counts as one "
                "success; face-off ties break on most criticals, then most double successes",
        source="seed 000, Charge / Face-off roll", parse=parse_bool)
    charge_dice: str = ruling(
        "DB-charge-dice", "black", accepted="black|grey|white",
        meaning="colour of the 3 charge-distance dice (the text says red, its example rolls black)",
        source="seed 000, Charge", parse=parse_choice("black", "grey", "white"))
    sharp: str = ruling(
        "DB-sharp", "chain", accepted="chain|once",
        meaning="a critical on an attack die of a Sharp unit rolls one more die of the same colour; "
                "chain: repeat while criticals come up, once: at most one extra die per die",
        source="seed 000, Sharp", parse=parse_choice("chain", "once"))
    damage_token: str = ruling(
        "DB-damage-token", "non-blank", accepted="non-blank|successes",
        meaning="a Damage token is removed with a wound when its black die shows a hit: any non-blank "
                "face (7 in 10), or only success faces without the critical (6 in 10)",
        source="seed 000, Status tokens", parse=parse_choice("non-blank", "successes"))


RULESET = Ruleset(
    name="dragonbond", title="Dragonbond: Battles of Valerna", seed="000", rulings=DragonbondRulings,
    implemented=False, summary="d10 action dice in three strengths, d6 defense dice, upgrades/downgrades")
