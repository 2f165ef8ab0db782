"""Dragonbond: Battles of Valerna (seed 000): the rulings, every reading of ambiguous text a user can switch
(../shared/RULES.md §2; the line numbers below are the seed's).

Imports nothing heavy: the command tree reads these to list the rulings.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Rulings, parse_choice, parse_int_range, ruling

_SEED = "seed 000"

#: The most units a side of a battle fields (rulesets/dragonbond/kernels_battle.py: its engagements are bit
#: masks of the units, 2 x 16 bits).
MAX_BATTLE_UNITS = 16
#: DB-budget: its default and range (points). The default fields two of the dearest packaged units (300).
DEFAULT_BUDGET = 600
MIN_BUDGET = 50
MAX_BUDGET = 5000
#: The Turn Counter: "Players start each round with a number of turns equal to 1 + their number of remaining
#: units on the battlefield" (line 373); "Epic X: ... adds an additional X turns" (line 871).
BASE_TURNS = 1
TURNS_PER_UNIT = 1


def parse_other_rolls(text: str) -> str:
    """``C/D``: exhaustion downgrades per fatigue token on the charge roll (C) and the Damage-token roll (D),
    each 0, 1 or 2."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(p.strip() in {"0", "1", "2"} for p in parts):
        raise ValueError(text)
    return "/".join(p.strip() for p in parts)


@dataclass(frozen=True)
class DragonbondRulings(Rulings):
    """Defaults for the Dragonbond text that can be read more than one way (../shared/RULES.md §2)."""

    faces: str = ruling(
        "DB-faces", "strongest-first",
        meaning="the three unlabeled columns of the standard-die tables (176-201) are black, grey, "
                "white (action) and black, white, red (defense), strongest first; weakest-first reads them "
                "the other way round",
        source=f"{_SEED}, Using Standard Dice (176-201)",
        choices=("strongest-first", "weakest-first"))
    double_hits: int = ruling(
        "DB-double-hits", 2, accepted="2 | 1",
        meaning="hits scored by a Double Success (never stated): 2, or 1",
        source=f"{_SEED}, Dice Symbols (162)", parse=lambda t: int(parse_choice("1", "2")(t)))
    crit_success: bool = ruling(
        "DB-crit-success", True,
        meaning="where successes are counted (charge distance, face-off) a critical is one success; face-off "
                "ties break on most criticals, then most Double Successes, then a reroll",
        source=f"{_SEED}, Face-Off Rolls (218-228), Charge (474-498)")
    step_mode: str = ruling(
        "DB-step-mode", "per-die",
        meaning="per-die: Upgrade or Downgrade X changes X distinct dice one step each (weakest first up, "
                "strongest first down; a new pass when X exceeds the dice); cascade: each step goes to the "
                "die that is weakest (up) or strongest (down) at that moment",
        source=f"{_SEED}, Dice Actions (207, 281)", choices=("per-die", "cascade"))
    defense_tiers: str = ruling(
        "DB-defense-tiers", "tiered",
        meaning="defense dice step red <-> white <-> black, and an upgraded black defense die adds a red die "
                "(tiered), or adds \"another white die\" as 207 literally says (literal-white)",
        source=f"{_SEED}, Dice Actions (207), Dice Strengths (34-36)",
        choices=("tiered", "literal-white"))
    defense_floor: str = ruling(
        "DB-defense-floor", "red",
        meaning="the die rolled when downgrades would leave a defense roll with no dice: the weakest defense "
                "die (red), or 209's \"one white die\"",
        source=f"{_SEED}, Dice Actions (209)", choices=("red", "white"))
    opportunity_fatigue: int = ruling(
        "DB-opportunity-fatigue", 0, accepted="0 | 1",
        meaning="fatigue an opportunity attack costs (no cost is printed for this reaction)",
        source=f"{_SEED}, Reactions: Opportunity Attack (522-535, 683)",
        parse=lambda t: int(parse_choice("0", "1")(t)))
    casualty_order: str = ruling(
        "DB-casualty-order", "captain-last",
        meaning="which model takes the wounds first (the owner picks, 771; \"the Captain may be removed "
                "instead\", 797): the Captain last, the Captain first, or the model with the least Health "
                "left first",
        source=f"{_SEED}, Applying Wounds (769-773), Captain Wounds (795-805)",
        choices=("captain-last", "captain-first", "fewest-health-first"))
    sharp: str = ruling(
        "DB-sharp", "extra-die",
        meaning="Sharp (859, garbled): extra-die: a critical stays and the die is rolled again, its new face "
                "counting too, again on each critical; reroll-replaces: the new face replaces the critical "
                "(repeat on a critical), which costs criticals",
        source=f"{_SEED}, Keywords: Sharp (859)", choices=("extra-die", "reroll-replaces"))
    flanking_count: str = ruling(
        "DB-flanking-count", "per-extra-unit",
        meaning="defense downgrades of a flanked unit: one per engaged enemy unit beyond the first, one "
                "per engaged enemy unit, or one whatever the count (\"engaged with two enemy units ... "
                "downgrade a single defense die\", 664-666, against \"for each unit they are flanked by\", "
                "672)",
        source=f"{_SEED}, Flanking (662-672)", choices=("per-extra-unit", "per-engaged-unit", "1"))
    flying_turn: str = ruling(
        "DB-flying-turn", "current",
        meaning="Flying upgrades one defense die when the unit did not begin \"the turn\" engaged: the turn "
                "in progress (current) or the unit's own last activation. Played in battles, where a unit "
                "whose enemies have fallen stands unengaged until an enemy moves in; no effect in a duel "
                "(both units are engaged from the start, so a Flying unit begins every turn engaged under "
                "either reading); roll attack --flying takes the fact as given (its report says which "
                "turn the fact is about)",
        source=f"{_SEED}, Keywords: Flying (869)", choices=("current", "own-activation"))
    exhaustion_other_rolls: str = ruling(
        "DB-exhaustion-other-rolls", "2/0", accepted="C/D, each 0 | 1 | 2",
        meaning="exhaustion downgrades per fatigue token beside the unit on its charge roll (C; 2 as the "
                "attack it opens: a charge takes \"the unit's Exhaustion Penalty\", 494) and on its "
                "Damage-token roll (D; 0: a penalty would help the unit); only Defense 1 and Attack/Power 2 "
                "are printed (559-560)",
        source=f"{_SEED}, Exhaustion Penalty (555-562), Charge (494)", parse=parse_other_rolls)
    fatigue_timing: str = ruling(
        "DB-fatigue-timing", "pay-then-act",
        meaning="step 5 adds fatigue before step 6 takes the action (388-389): pay-then-act: \"may not "
                "... if exhausted\" is checked before paying and the new tokens count for the action's own "
                "rolls; check-after-paying: a cost that would exhaust the unit bars the action; "
                "act-then-pay: the action's own rolls are not affected",
        source=f"{_SEED}, Activations and Fatigue (388-389, 434-448, 490)",
        choices=("pay-then-act", "check-after-paying", "act-then-pay"))
    rider_turns: str = ruling(
        "DB-rider-turns", "formula",
        meaning="turns per round with a mounted dragonrider: 1 + units, the rider unit counted once (373), "
                "or the example's count (\"4 plus the epic number\" for 3 units and the rider, 1033). Has "
                "no effect in the current model: no general mounts a dragon (Dragonbond pairs are not "
                "modelled), so no turn count has a dragonrider in it",
        source=f"{_SEED}, Turn Counter (369-375), Dragonbond: Turn Counter (1031-1033)",
        choices=("formula", "example"))
    charge_dice: str = ruling(
        "DB-charge-dice", "black",
        meaning="colour of the 3 charge-distance dice: the text says \"3 red action dice\" (488; red is a "
                "defense colour), its example rolls black",
        source=f"{_SEED}, Charge (474-498)", choices=("black", "grey", "white"))
    damage_token: str = ruling(
        "DB-damage-token", "any-non-blank",
        meaning="a Damage token's black die removes a token (with a wound) on \"a hit\": any non-blank "
                "face (7 in 10), or only Success and Double Success (6 in 10); \"remove tokens equal to "
                "the number of hits\" (592), so a Double Success removes DB-double-hits tokens",
        source=f"{_SEED}, Status Effects: Damage (590-592)",
        choices=("any-non-blank", "non-critical"))
    battle_targeting: str = ruling(
        "DB-battle-targeting", "focus",
        meaning="the enemy unit a unit of a battle attacks: one engaged with it if any (a melee attack "
                "needs engaged models, 700), else any (it moves into contact first; a shooter shoots from "
                "where it stands); among those, focus: the one with the fewest models alive (ties: the "
                "first listed); line: the first listed (the enemy line in order)",
        source=f"not in the rulebook: a player's choice ({_SEED}, Performing an Attack: 1. Declare target, "
               "703-705)", choices=("focus", "line"))
    budget: int = ruling(
        "DB-budget", DEFAULT_BUDGET, accepted=f"a whole number of points from {MIN_BUDGET} to {MAX_BUDGET}",
        meaning="the points both sides of an equal-points contest (efficiency, what-if, sweep) spend; "
                "Dragonbond's card reads \"Cost???\" and army selection is \"STILL UNDER DEVELOPMENT\", "
                "so the budget is as illustrative as the costs: 600 fields two of the dearest packaged "
                f"units (300 points) and no more than {MAX_BATTLE_UNITS} of the cheapest",
        source=f"{_SEED}, Unit Cards (68: \"14. Cost???\"), Selecting Units (295)",
        parse=parse_int_range(MIN_BUDGET, MAX_BUDGET))
    composition: str = ruling(
        "DB-composition", "copies",
        meaning="how a side of an equal-points contest fields its entry: copies: as many whole units of "
                f"the entry as DB-budget buys, at most {MAX_BATTLE_UNITS}, every copy with the entry's one "
                "captain card (the catalog holds one; an army \"may not contain two units with the same "
                "captain\", 313); copies-unique: and at most one unit of a Huge creature or a General (a "
                "unit with Dragonriding): \"may not contain two versions of the same huge creature\" "
                "(313), \"up to one general\" (299). What is not spent is stated, and counts as kept "
                "(neither lost nor fighting)",
        source=f"{_SEED}, Generals (297-299), Duplicates (311-317); army selection itself is unwritten (295)",
        choices=("copies", "copies-unique"))

    @property
    def charge_downgrades_per_token(self) -> int:
        return int(self.exhaustion_other_rolls.split("/")[0])

    @property
    def damage_downgrades_per_token(self) -> int:
        return int(self.exhaustion_other_rolls.split("/")[1])
