"""UberDrakes' rulings and constants (seed 003; ../shared/RULES.md §4).

Pure Python: the command tree imports this module to list the rulings.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulesets.base import Rulings, parse_int_range, ruling

#: Dice are d6 (inferred: "places one die on the table with that number facing up", line 303).
SIDES = 6
#: The rolloff keeps the highest two dice; each level of Rage rolls one more die (lines 311, 371).
KEPT = 2
#: Rage has no printed cap; a side's permanent Rage accepts up to this many levels.
MAX_RAGE = 20
#: The Rage one roll is made with: permanent Rage and as many temporary levels (Rage Potions) again.
MAX_ROLLED_RAGE = 2 * MAX_RAGE
#: Bonuses a side may carry into a rolloff (elemental totals, Mountain, spells), either sign.
MAX_BONUS = 60
#: Blood point rewards (lines 344-349): a coin, a Fatigue healed, a movement card, a Victory Point (+5 for
#: each further one, UD-vp-escalation).
BP_COIN, BP_HEAL, BP_MOVEMENT, BP_VP, BP_VP_STEP = 2, 5, 8, 20, 5
#: Furnace (lines 413-419): Magic spent 8..12.
FURNACE_MAGIC = range(8, 13)
#: What a ruling's meaning says when no result of the current model depends on it.
INERT = "has no effect in the current model: "


class Unset(str):
    """A ruling's default that tells itself apart from the same value set explicitly: UD-policy and
    UD-objective read ``greedy`` and ``win-then-cost`` in a single combat (rolls, duels), while pricing
    (:func:`pricing_rulings`) plays optimal, for the combat's value, unless the user chose. It prints as
    its value; it equals only another default of the same value, so a what-if from the default to the same
    value set explicitly is a change."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unset) and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("unset", str(self)))

    def __reduce__(self):
        return (Unset, (str(self),))


@dataclass(frozen=True)
class UberDrakesRulings(Rulings):
    """Defaults for the UberDrakes text that can be read more than one way (../shared/RULES.md §4)."""

    item_die: str = ruling(
        "UD-item-die", "add-value",
        meaning="a combat item's die (Dragon Lance, Hide Shield, Fire Breath): add-value: its value is "
                "added to the total (\"Add one die to your combat total\", line 410); re-keep-highest-two: "
                "it joins the dice rolled and the highest two are kept again, as Rage does (line 371)",
        source="seed 003, lines 371, 410", choices=("add-value", "re-keep-highest-two"))
    fatigue_bonus: str = ruling(
        "UD-fatigue-bonus", "fatigued-side",
        meaning="\"If either combatant has three Fatigue, they don't gain any elemental bonuses\" (line "
                "305): the fatigued side loses its bonuses, or both sides do",
        source="seed 003, line 305", choices=("fatigued-side", "both"))
    counter_ties: str = ruling(
        "UD-counter-ties", "initiator",
        meaning="ties during the counterattack: initiator: the initiator wins every tie (lines 83, 315); "
                "strict: a counterattacking side must get \"higher than\" / \"above\" the other (319, 323), "
                "the initiator too",
        source="seed 003, lines 83, 315, 319, 323", choices=("initiator", "strict"))
    counter_sequencing: str = ruling(
        "UD-counter-sequencing", "adaptive",
        meaning="how counterattack resources are added (\"any combination\", line 319): adaptive: one at a "
                "time, each die seen, stop once ahead; overshoot: may add more once ahead; declared: all "
                "committed before any die is rolled",
        source="seed 003, line 319", choices=("adaptive", "overshoot", "declared"))
    reply_spells: bool = ruling(
        "UD-reply-spells", True,
        meaning="whether a reply to a counterattack may use spells (Fire Breath, Plate Armor) as well as "
                "items: the reply text names only \"items\" (line 323), yet those are Phase-3 spells",
        source="seed 003, lines 319, 323")
    acid_scope: str = ruling(
        "UD-acid-scope", "items",
        meaning="Acid Rain destroys \"the next combat item\" of the opponent (line 440): items only, or its "
                "next combat spell too",
        source="seed 003, lines 438-442", choices=("items", "items-and-spells"))
    shield_ranged: str = ruling(
        "UD-shield-ranged", "damage-only",
        meaning="a Hide Shield makes the opponent's attack Ranged (line 362): damage-only: only its damage "
                "is affected; bars-lance: the opponent can no longer use a Dragon Lance (not in ranged "
                "combat, line 655)",
        source="seed 003, lines 362, 655", choices=("damage-only", "bars-lance"))
    precombat_order: str = ruling(
        "UD-precombat-order", "initiator-first",
        meaning="who declares pre-combat items and spells first, seen by the other (line 307)",
        source="seed 003, line 307", choices=("initiator-first", "defender-first"))
    concede_total: str = ruling(
        "UD-concede-total", "bonuses",
        meaning="the \"total combat strength\" (line 338) of a side that conceded without rolling: its "
                "bonuses, or zero; " + INERT + "no policy concedes without rolling (rolling and then "
                "conceding is never worse: a higher total, at most one instance of damage)",
        source="seed 003, lines 313, 338", choices=("bonuses", "zero"))
    bp_total: str = ruling(
        "UD-bp-total", "final",
        meaning="which total of the loser pays blood points (line 338): its final total after the "
                "counterattack, or its rolloff total",
        source="seed 003, line 338", choices=("final", "rolloff"))
    vp_escalation: str = ruling(
        "UD-vp-escalation", "per-game",
        meaning="\"+5 for each additional Victory Point purchased this way\" (line 349): the price rises "
                "with every Victory Point bought in the game, or only within one exchange; " + INERT + "the "
                "blood-points table prices a game's first Victory Points, where both readings agree (they "
                "differ only after Victory Points bought in an earlier exchange)",
        source="seed 003, line 349", choices=("per-game", "per-exchange"))
    windblast_stack: str = ruling(
        "UD-windblast-stack", "multiply",
        meaning="Windblast's double damage after an unrolled concession (already two instances, line 331): "
                "multiply: four instances; cap-2: two. Windblast also overrides Plate Armor (\"like the Hide "
                "Shield\"); " + INERT + "no policy concedes without rolling (see UD-concede-total)",
        source="seed 003, lines 331, 520-524, 604-606", choices=("multiply", "cap-2"))
    overflow_rage: str = ruling(
        "UD-overflow-rage", "alchemists-fire",
        meaning="Fatigue beyond 3 gives permanent Rage: printed only for Alchemist's Fire (line 765), or for "
                "any overflow (line 150); " + INERT + "Fatigue over a game is not modelled (a combat takes "
                "each side's Rage as given)",
        source="seed 003, lines 150, 765", choices=("alchemists-fire", "any-overflow"))
    turn_order_ties: str = ruling(
        "UD-turn-order-ties", "one-die",
        meaning="\"roll additional die until the tie is broken\" (line 55): the tied players roll one die "
                "each again, or 2d6 again",
        source="seed 003, line 55", choices=("one-die", "2d6"))
    caves: str = ruling(
        "UD-caves", "1d6",
        meaning="a Cave's coins: \"You find 1d6 coins\" (line 215) or \"Gain 3 coins\" (line 859); once per "
                "player per round",
        source="seed 003, lines 215, 859", choices=("1d6", "3"))
    camouflage: int = ruling(
        "UD-camouflage", 3, accepted="2|3",
        meaning="Camouflage's combat bonus (initiator only): +3 as its card says (line 472), or +2 as its "
                "clarification says (\"+2 surprise attack bonus\", line 474)",
        source="seed 003, lines 472-474", parse=parse_int_range(2, 3))
    rocket_power_cost: str = ruling(
        "UD-rocket-power-cost", "magic",
        meaning="Rocket Power's cost \"1 - 2\" is Magic like every spell, or coins as \"(1 coin)\" / \"(2 "
                "coins.)\" say (line 392); " + INERT + "Rocket Power is a movement spell, outside every "
                "combat and table",
        source="seed 003, line 392", choices=("magic", "coins"))
    furnace_ultimate: bool = ruling(
        "UD-furnace-ultimate", True,
        meaning="Furnace, unlabelled, holds the Fire dragon's Ultimate slot (line 260 says two Standard "
                "spells and one Ultimate; the pages print three and one); " + INERT + "the Furnace table is "
                "its roll alone; how often it is cast in a game is not modelled",
        source="seed 003, lines 260, 413-419")
    mulligan: str = ruling(
        "UD-mulligan", "discard",
        meaning="where the two cards swapped to see the top two and take one go (line 61): discarded, or "
                "to the bottom of the deck; the hand drops to 3 either way; " + INERT + "the Movement deck "
                "is not modelled",
        source="seed 003, line 61", choices=("discard", "bottom"))
    policy: str = ruling(
        "UD-policy", Unset("greedy"),
        meaning="how players spend counterattack resources and concede: greedy: the fewest resources that "
                "overtake, cheapest first (Plate Armor X just enough), never conceding while one remains; "
                "optimal: an exact dynamic program over the counterattack game under UD-objective. Unless "
                "set, a single combat (roll, duel) plays greedy and pricing (efficiency, what-if, sweep, "
                "meta-game, table resources) plays optimal: a designer prices what a good player gets; "
                "greedy is shown beside (value_greedy, win_gain_greedy)",
        source="seed 003, lines 317-323", choices=("greedy", "optimal"))
    objective: str = ruling(
        "UD-objective", Unset("win-then-cost"),
        meaning="what an optimal player maximises: win probability, then the least spend (Magic at face "
                "value, items at catalog prices); win probability alone; expected blood points; blood "
                "points minus spend; or the combat's value (UD-value), then the least spend. Unless set, "
                "pricing plays value (a player holding Windblast casts it for its damage) and a single "
                "combat win-then-cost",
        source="seed 003, lines 317-349",
        choices=("win-then-cost", "win", "blood-points", "net-value", "value"))
    value: str = ruling(
        "UD-value", "win+damage+blood",
        meaning="what a combat is worth to a side, the primary value a resource is priced by (the gain "
                "with it - without it): win+damage+blood: in blood points, UD-win-bp x P(win) + the blood "
                "points it gains + UD-damage-bp x (damage instances it deals - those it takes) (the player "
                "with the most Victory Points wins, lines 32, 75; combat's rewards are damage and blood "
                "points, which buy Victory Points, lines 274, 338-349, 692); win: P(win) alone",
        source="seed 003, lines 32, 75, 274, 329-349, 449-451, 692", choices=("win+damage+blood", "win"))
    damage_bp: int = ruling(
        "UD-damage-bp", 8, accepted="0..40",
        meaning="blood points one instance of damage is worth (UD-value=win+damage+blood), to the side "
                "dealing it and against the side taking it; the damage options are missing (line 329): 8, "
                "a Movement card (line 347), as Deep Freeze's damage steals one (\"as a form of combat "
                "damage\", lines 449-451); 5 would be a Fatigue (346), 2 a coin (345)",
        source="seed 003, lines 329, 345-347, 449-451", parse=parse_int_range(0, 40))
    win_bp: int = ruling(
        "UD-win-bp", 0, accepted="0..40",
        meaning="blood points a win itself is worth beyond its damage and blood points (UD-value="
                "win+damage+blood): 0, as the rulebook gives a winner nothing else (\"you still gain other "
                "combat rewards\", line 692: blood points, line 338)",
        source="seed 003, lines 325-338, 692", parse=parse_int_range(0, 40))


def pricing_rulings(rulings: UberDrakesRulings) -> UberDrakesRulings:
    """The rulings resources are priced under: UD-policy and UD-objective as set, or, where the user left
    them at their defaults (:class:`Unset`), optimal play for the combat's value (UD-objective=value)."""
    changes = {}
    if isinstance(rulings.policy, Unset):
        changes["policy"] = "optimal"
    if isinstance(rulings.objective, Unset):
        changes["objective"] = "value"
    return dataclasses.replace(rulings, **changes)


def greedy_rulings(rulings: UberDrakesRulings) -> UberDrakesRulings:
    """The same rulings with UD-policy=greedy (the value shown beside the priced one)."""
    return dataclasses.replace(rulings, policy="greedy")
