"""Warbound's rulings and the numbers of its dice (seed 004; ../shared/RULES.md §3).

Pure Python: the command tree imports this module to list the rulings.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import Rulings, ruling

#: "12-sided dice with only 10 distinct values. Indeed, faces containing a 5 and a 10 appear twice on the
#: die" (lines 111-115): a standard d12 read with 11 as 5 and 12 as 10.
FACES = (1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 10)
SIDES = len(FACES)
#: "a result of [1] on a die roll is always considered a failure, while a result of [10] is always
#: considered a success" (line 359), armor rolls included; [X] is the natural face (line 606).
NATURAL_FAIL, NATURAL_SUCCESS = 1, 10
#: Hit values and armor values a roll accepts (a value above 10 is met by a natural [10] only).
MIN_VALUE, MAX_VALUE = 1, 12
#: The most dice one roll may have (a Formation's extra die and Aim's included).
MAX_DICE = 20
#: The Exploration format: five turns, Period 1 = turns 1-2, Period 2 = turns 3-5 (lines 125-127).
TURNS = 5
PERIOD_OF_TURN = (0, 0, 0, 1, 1, 1)  # index = turn 1..5 (index 0 unused)
#: Characters in an Exploration deck at most: "8 cards" (line 69) less "exactly one Leader card" (77) and
#: "at least 2 Upgrade cards" (79).
MAX_CHARACTERS = 5
#: Most tiles one move may cover: speed + run, each at most 20 in a catalog.
MAX_PATH = 40
#: The Exploration board: "composed of several sections, each forming an 8 hexagons by 8 hexagons grid. For
#: the Exploration format, we use 2 sections" (line 97), read as one parallelogram of hexes, 16 x 8 in axial
#: coordinates (q, r), tile index q + 16 r. Its picture is missing: illustrative.
BOARD_COLUMNS, BOARD_ROWS = 16, 8
#: Side 0's start tile (q, r); side 1's is its reflection (9, 5), 6 tiles away, the duel's distance. The
#: scenario that deploys the characters is not in the rulebook (line 324); the "starting tile ... at the
#: intersection of the 3rd column and the 3rd row" of each section (line 103) would put the sides 14 tiles
#: apart on this reading, and what it starts is not said: illustrative.
START_TILE = (6, 2)


@dataclass(frozen=True)
class WarboundRulings(Rulings):
    """Defaults for the Warbound text that can be read more than one way (../shared/RULES.md §3)."""

    formation_bonus: str = ruling(
        "WB-formation-bonus", "natural-1-fails",
        meaning="hit modifiers (Formation's +1, --modifier) are added to the die result; natural-1-fails: a "
                "natural [1] still fails (line 359); natural-1-modified: a natural [1] plus its modifiers "
                "may succeed",
        source="seed 004, lines 359, 545",
        choices=("natural-1-fails", "natural-1-modified"))
    aim_stress: str = ruling(
        "WB-aim-stress", "all-rolled",
        meaning="which dice of an Aimed shot give the target Stress: all-rolled: every die rolled, the "
                "discarded Aim die too (\"for each ranged attack die rolled, excluding natural [1]\", line "
                "465); kept: the dice kept only",
        source="seed 004, lines 465, 492", choices=("all-rolled", "kept"))
    order_periods: str = ruling(
        "WB-order-periods", "periods",
        meaning="a Leader's two Order values \"during Phases 1 and 2 (from left to right)\" (line 261): "
                "periods: the left value each turn of Period 1 (turns 1-2), the right value each turn of "
                "Period 2 (turns 3-5), the Phases read as the board's Periods (line 127); both-each-turn: "
                "both values every turn",
        source="seed 004, lines 127, 261", choices=("periods", "both-each-turn"))
    hourglass_policy: str = ruling(
        "WB-hourglass-policy", "strike-first",
        meaning="initiative (lines 363-371): side A starts with the Hand, side B with the Hourglass. Each "
                "Effect Phase the Hourglass holder places it on the first open Action (board order) the "
                "Hand holder's policy would not use that turn, else on the one it would use last, so the "
                "Hand holder, which never turns aside for it, keeps the Hand only when its own choices "
                "reach that Action (it gains the Hourglass, then gives it back at Cleanup). At Cleanup the "
                "Hourglass holder exchanges it for the Hand: strike-first: when its own first choice on the "
                "next turn's board, as things stand, would be an attack (Fight or Shoot), so it strikes "
                "first, and not when it would only move (acting second lets it answer the enemy's move); "
                "always: every Cleanup; not-played: the Hourglass is not played and side A holds the Hand "
                "for all five turns",
        source="seed 004, lines 341, 353, 363-371",
        choices=("strike-first", "always", "not-played"))
    economy: str = ruling(
        "WB-economy", "same-leader",
        meaning="whose Order tokens pay a contest's activations: same-leader: both sides spend the catalog's "
                "Reference Leader (illustrative, not a printed card: 4 tokens a turn in each Period, "
                "tokens of any colour), so that a character's cost is paid from the same economy whoever "
                "it meets and no faction's colour is favoured; faction-leader: each side its own faction's "
                "Leader (the catalog's first of its faction; a coloured cost of another faction is paid two "
                "tokens for one, line 332), so a contest of two factions compares two economies",
        source="seed 004, lines 77, 213-217, 261, 332",
        choices=("same-leader", "faction-leader"))
    warband: str = ruling(
        "WB-warband", "with-companions",
        meaning="what each side of a contest fields: with-companions: an Exploration deck (8 cards, one "
                "Leader, at least 2 Upgrades; lines 69-87) of the entry and the same three companion "
                "characters from the catalog (rulesets.warbound.contest.COMPANIONS: the first three of "
                "Oshi'goru, Ork'edo Drummer, Analyst, COPP, Roh'na that neither side's entry is; the first "
                "two in Formation), on one board by the game's sequence; alone: the entry only, one "
                "character a side on the same board (no deck)",
        source="seed 004, lines 69-87, 529-575",
        choices=("alone", "with-companions"))
    targeting: str = ruling(
        "WB-targeting", "nearest",
        meaning="which enemy a character attacks or walks to, among those its action allows: nearest: the "
                "nearest (a Shoot at the closest target takes the first accuracy value, line 459); weakest: "
                "the fewest Health points left, then the nearest; most-valuable: the highest total "
                "activation cost, then the nearest; on a tie, the first in its warband (the entry first)",
        source="seed 004, lines 405-461, 496-509",
        choices=("nearest", "weakest", "most-valuable"))


def orders_for_turn(orders: tuple[int, int], turn: int, rulings: WarboundRulings) -> int:
    """Order tokens a Leader generates in the Leader Phase of ``turn`` (1..5) under WB-order-periods."""
    if rulings.order_periods == "both-each-turn":
        return orders[0] + orders[1]
    return orders[PERIOD_OF_TURN[turn]]
