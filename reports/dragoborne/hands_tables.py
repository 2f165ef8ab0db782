"""Dragoborne reports for the deck: the opening hand, the mulligan strategies and the early plays, exact
(rulesets.dragoborne.hands; line numbers are those of the seed 001 rulebook text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reports.dragoborne import grids
from reports.formats import Report, Section, Table
from reports.tables import read_as
from rulesets.base import TableData
from rulesets.dragoborne import hands as h
from rulesets.dragoborne import tables as t

if TYPE_CHECKING:
    from rulesets.dragoborne import DragoborneRulings

RULESET = "dragoborne (seed 001)"

READINGS = [
    "deck: cards by cost 1, 2, 3, 4, 5+ (lines 159-164); Ambush cards count as cost 2 (line 158); 50 cards "
    "or more (line 145); 5-card hand (line 172)",
    "mulligan (line 172): the cards sent back are shuffled into the deck, then as many are drawn, so they "
    "can come back; at most one mulligan",
]
PLAY_READINGS = [
    "resources: the three banners lie in the resource area (line 125) and stand and rest (line 292), so they "
    "pay costs; one resource card a turn from the top of the deck (optional, always taken; the first player "
    "skips it on their first turn, line 194); the Stand Step stands them all (line 182)",
    "paying (line 202): one colour assumed - every resource matches every card; a card of a banner's colour "
    "can always use that banner",
    "draws: one a turn, the first player's first turn too (line 190); barriers (line 173) and resource cards "
    "are unseen random cards of the deck and change nothing in law",
    "each Main Phase the player plays the cards of largest total cost the resources pay for (ties: fewer "
    "cards, then costlier); a 5+ card costs 5; the End Phase discards the costliest cards down to 7 (line "
    "253); no combat (a barrier reaching the hand, line 246, is not counted)",
]


def _meta(rulings: DragoborneRulings, curve: Sequence[int], *items: tuple[str, str]
          ) -> list[tuple[str, str]]:
    shown = ",".join(str(c) for c in curve)
    return [("ruleset", RULESET), ("curve", f"{shown} (cards of cost 1, 2, 3, 4, 5+)"),
            ("deck", f"{sum(curve)} cards"), *items, ("method", "exact"), ("rulings", rulings.describe())]


def _mulligan_item(mulligan: str) -> tuple[str, str]:
    return "mulligan", f"{mulligan}: {h.MULLIGANS[t.check_mulligan(mulligan)]}"


# --- the standard tables: the numbers are rulesets.dragoborne.tables', laid out here ----------------------

def opening_hand_table_report(data: TableData) -> Report:
    p = data.params
    section = Section("opening_hand", "Cards of each cost in the 5-card hand, dealt and after the mulligan",
                      Table(data.parts["opening_hand"]))
    meta = _meta(data.rulings, p["curve"], ("hand", "5 cards (line 172)"), _mulligan_item(p["mulligan"]))
    return Report("Dragoborne: the opening hand", meta, [section],
                  notes=[*READINGS, "cost <=k rows: the cards costing k or less together"],
                  facts=dict(p["facts"]))


def mulligan_table_report(data: TableData) -> Report:
    p = data.params
    notes = [*READINGS, *(f"{k}: {v}" for k, v in h.MULLIGANS.items()),
             "p_cost_1, p_cost_le_2, p_cost_le_3: P(the hand after the mulligan holds a card of cost 1, "
             "<= 2, <= 3); mean_cost: its expected total cost (5+ as 5)"]
    if p["play"]:
        notes += [*PLAY_READINGS,
                  "p_full_first_t1, p_full_second_t1: P(spending every resource on the player's first turn); "
                  f"spent_first, spent_second: expected resources spent on turns 1-{h.TURNS} together"]
    meta = _meta(data.rulings, p["curve"],
                 *([("banners", f"{p['banners']} resources from the banners")] if p["play"] else []))
    return Report("Dragoborne: mulligan strategies", meta,
                  [Section("mulligans", "Mulligan strategies compared", Table(data.parts["mulligans"]))],
                  notes=notes)


def early_play_table_report(data: TableData) -> Report:
    p = data.params
    meta = _meta(data.rulings, p["curve"], _mulligan_item(p["mulligan"]),
                 ("banners", f"{p['banners']} resources from the banners"))
    notes = [*READINGS, *PLAY_READINGS,
             "turn: the player's own turn; mean_hand: cards in hand at the start of the Main Phase; p_play: "
             "P(a card in hand costs no more than the resources); p_full: P(the best play spends every "
             "resource); mean_spent_total: expected resources spent on turns 1..turn"]
    section = Section("early_play", f"Turns 1-{p['turns']} of the first and the second player",
                      Table(data.parts["early_play"]))
    return Report("Dragoborne: early plays", meta, [section], notes=notes)


def opening_hand_table(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                       lenient: bool = False, mulligan: str = "back3+") -> Report:
    """The 5-card hand (line 172), as dealt and after the mulligan ``mulligan``: for each cost and each
    "cost <= k", the cards in the deck, the expected number in hand and P(0, 1, 2, 3+ and >= 1 of them)."""
    return read_as(opening_hand_table_report(t.opening_hand_data(rulings, curve, deck, lenient, mulligan)),
                   grids.opening_hand_views)


def mulligan_table(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                   lenient: bool = False, banners: int = h.BANNERS, play: bool = True) -> Report:
    """Each mulligan strategy of rulesets.dragoborne.hands.MULLIGANS: how often it sends cards back, what
    the hand holds after it, and (``play``) the resources it lets each player spend on turns 1-5."""
    return read_as(mulligan_table_report(t.mulligan_data(rulings, curve, deck, lenient, banners, play)),
                   grids.mulligan_views)


def early_play_table(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                     lenient: bool = False, mulligan: str = "back3+", banners: int = h.BANNERS,
                     turns: int = h.TURNS) -> Report:
    """For the first and the second player, each of their turns 1..``turns``: the resources, the hand,
    P(a card can be played), P(every resource spent) and the resources spent."""
    data = t.early_play_data(rulings, curve, deck, lenient, mulligan, banners, turns)
    return read_as(early_play_table_report(data), grids.early_play_views)
