"""Dragoborne's rulings and constants (seed 001; ../shared/RULES.md §5).

Pure Python: the command tree imports this module to list the rulings.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Rulings, parse_int_range, ruling

#: Dice a player owns, in its banners' colours (lines 145-149).
DICE = 3
#: "white" in a card's icon: any colour (lines 15, 19, 282).
ANY_COLOUR = "white"
#: Deck regulations: 50 or more cards, banners not counted (line 145); up to 4 of one card name (line 146);
#: 3 banner cards in the dice's colours (lines 147-148).
MIN_DECK, MAX_COPIES, BANNERS = 50, 4, DICE
#: The opening hand (line 172) and the barriers, 2 on each of the three forts (line 173).
HAND, BARRIERS = 5, 2 * 3
#: The recommended curve for 50 cards (lines 159-164), by cost class 1, 2, 3, 4, 5 or more (Ambush: 2).
CURVE_CLASSES = ("1", "2", "3", "4", "5+")
RECOMMENDED_CURVE = (10, 12, 10, 10, 8)


@dataclass(frozen=True)
class DragoborneRulings(Rulings):
    """Defaults for the Dragoborne text that can be read more than one way (../shared/RULES.md §5)."""

    die: int = ruling(
        "DG-die", 6, accepted="a whole number of faces from 2 to 100",
        meaning="faces of the three dice, 1..N (the guide never names the die size; default six-sided)",
        source="seed 001, Dice Step (line 186)", parse=parse_int_range(2, 100))
    reroll_assigned: str = ruling(
        "DG-reroll-assigned", "unassigned-only",
        meaning="which dice the Dice Step rolls (\"rolling all your dice\", line 186): only the unassigned "
                "ones in the Dice Zone (line 131), the assigned ones keeping their values; all-keep: every "
                "die is rolled and assigned ones stay assigned at the new value; all-return: every die comes "
                "back to the Dice Zone and is rolled",
        source="seed 001, lines 131, 186, 243",
        choices=("unassigned-only", "all-keep", "all-return"))
    shield_persist: bool = ruling(
        "DG-shield-persist", True,
        meaning="damage to a dragoshield carries over to later turns (the End Phase clears damage \"on all "
                "creatures\" only, line 255); false: it is cleared like a creature's",
        source="seed 001, lines 243, 255")
    condition_dice: str = ruling(
        "DG-condition-dice", "any",
        meaning="which dice meet a card's DICE X-Y (\"when you have a die of the specified color with a "
                "value within the specified range\", line 282): any of the player's dice at its current "
                "value, or only the unassigned ones",
        source="seed 001, line 282", choices=("any", "unassigned"))
    shield_stack: str = ruling(
        "DG-shield-stack", "one",
        meaning="dragoshields per fort: one (the text always says \"the dragoshield\"), or several stacked",
        source="seed 001, lines 15, 215, 238", choices=("one", "stack"))
    cross_die: str = ruling(
        "DG-cross-die", "return",
        meaning="a dragocross die whose creature leaves play: back to the Dice Zone, or to the discard pile "
                "(as a destroyed dragoshield's, line 215)",
        source="seed 001, lines 19, 215, 217", choices=("return", "discard"))
    first_turn: str = ruling(
        "DG-first-turn", "game-turn-1",
        meaning="\"There is no combat phase on turn 1\" (line 233): only the first player's first turn, or "
                "each player's first turn",
        source="seed 001, line 233", choices=("game-turn-1", "each-player-first"))
    fort_burst: str = ruling(
        "DG-fort-burst", "burst-or-hand",
        meaning="a barrier broken by an attack: its Fort Burst may be played, \"If not, add it to your "
                "hand\" (line 246); burst-and-hand: it goes to hand as well (\"the barrier card being put to "
                "hand\", line 288). Has no effect in the current model: the games played never play a Fort "
                "Burst, so every broken barrier goes to hand under both readings",
        source="seed 001, lines 246, 288", choices=("burst-or-hand", "burst-and-hand"))
    summoning_sickness: bool = ruling(
        "DG-summoning-sickness", False,
        meaning="whether a creature summoned this turn may not attack (no rule says so: default false)",
        source="seed 001, lines 226-238")
    move: str = ruling(
        "DG-move", "switch",
        meaning="the Main Phase's moves (\"You may switch the position of creatures, or move a creature "
                "from one fort to another fort with an opening\", line 226), a policy of ours: switch (the "
                "default: the moves and switches a player would make): guard's moves, then, after the dice "
                "and spells of the Main Phase (its actions come in any order, line 198), the creatures that "
                "will not attack this turn (all of them on a turn without combat, else those of ATK 0 and, "
                "under DG-summoning-sickness, those summoned this turn), which still stand in the "
                "opponent's turn (line 182), guard the forts the opponent attacks first: while a fort with "
                "barriers has no dragoshield and no such creature, the one with the fewest barriers takes a "
                "spare one (at a destroyed fort, behind a dragoshield, which blocks first, or beside "
                "another such creature), the one of highest EDR, switching places with a creature there "
                "(moving there if it holds none); guard: after summoning, each creature at a destroyed fort "
                "(it can never block there: attacks go to forts with barriers) moves to a fort with "
                "barriers and an opening (the fewest creatures; ties: fewer barriers, then the lower fort), "
                "in fort, slot order; then each fort with barriers and no creature takes the second "
                "creature of the lowest fort holding two (a creature blocks only at its fort, line 238); "
                "creatures never switch places; none: a creature stays where it was summoned",
        source="seed 001, lines 122, 182, 198, 226, 238", choices=("none", "guard", "switch"))
    spells: str = ruling(
        "DG-spells", "all",
        meaning="which spells are cast (\"Play Spells ... Once played, the card will go to your discard "
                "pile\", line 207; paid like a creature, line 202), a policy of ours: none, no spell is "
                "cast; removal: in the Main Phase before summoning, the removal spells whose text the game "
                "reads (\"Deal N damage to a creature.\", \"Deal N damage to a creature and M damage to "
                "each other creature at its fort.\", \"Destroy a creature with ATK N or less.\", \"Deal N "
                "damage to each creature at a fort.\" with a DICE X-Y \"Deal N damage instead.\") are "
                "cast, at the opponent's creatures only, while one destroys an opposing creature: each cast "
                "is the payable spell and target destroying the most opposing cost (a '-' cost counts 0; "
                "ties: more creatures, the cheaper spell, the lower card index, the lower place or fort); "
                "Immune creatures of the spell's colour are neither chosen nor damaged (line 316); other "
                "spells stay in hand; all: removal, and after the dice are assigned, when the caster has a "
                "combat phase this turn, each payable \"A creature gets +N/+0 until the end of the turn.\" "
                "(then each \"+0/+N\") on the caster's creature that may attack (+0/+N: ATK 1 or more) "
                "with no pump of that kind yet this turn, of highest effective ATK (ties: fort, slot "
                "order); then each Ambush \"If this card is an ambush: when an opposing creature attacks "
                "this fort, it gets -N/-0 until the end of the battle.\" whose colour is a banner's is set "
                "(two resources of any colour, line 209) at the fort with barriers and no ambush with the "
                "fewest barriers, and always played at the first attack on that fort (not an "
                "assassination; not against an attacker Immune to its colour), before the block; \"Stand "
                "a creature in rest.\" is never cast: spells are cast in the Main Phase only, when every "
                "creature of the caster stands (line 182), and standing an opposing one only lets it block",
        source="seed 001, lines 182, 202, 207, 209, 230-236, 300-304, 316",
        choices=("none", "removal", "all"))
