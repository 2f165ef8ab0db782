"""Dragoborne reports for the deck: the opening hand, the mulligan strategies and the early plays, exact
(rulesets.dragoborne.hands; line numbers are those of the seed 001 rulebook text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reports.dragoborne import grids
from reports.formats import Report, Section, Table
from reports.tables import read_as
from rulesets.base import RulesError
from rulesets.dragoborne import hands as h

if TYPE_CHECKING:
    from rulesets.dragoborne import DragoborneRulings

RULESET = "dragoborne (seed 001)"

#: The rows of the opening-hand table: (label, class indices); single classes, then "cost <= k".
HAND_ROWS: tuple[tuple[str, tuple[int, ...]], ...] = (
    *((name, (i,)) for i, name in enumerate(h.CLASS_NAMES)),
    *((f"<={k}", tuple(h.classes_up_to(k))) for k in (2, 3, 4)),
)

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
    if mulligan not in h.MULLIGANS:
        raise RulesError(f"mulligan {mulligan!r} is not one of {', '.join(h.MULLIGANS)}")
    return "mulligan", f"{mulligan}: {h.MULLIGANS[mulligan]}"


def opening_hand_table(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                       lenient: bool = False, mulligan: str = "back3+") -> Report:
    """The 5-card hand (line 172), as dealt and after the mulligan ``mulligan``: for each cost and each
    "cost <= k", the cards in the deck, the expected number in hand and P(0, 1, 2, 3+ and >= 1 of them)."""
    curve = h.validate_curve(curve, deck, lenient=lenient)
    item = _mulligan_item(mulligan)
    hands = [("dealt", h.dealt_distribution(curve, lenient=True)),
             (f"after {mulligan}", h.opening_distribution(curve, mulligan, lenient=True))]
    rows = []
    for name, dist in hands:
        for label, classes in HAND_ROWS:
            counts = h.count_distribution(dist, classes)
            rows.append((name, label, sum(curve[i] for i in classes),
                         sum(j * p for j, p in enumerate(counts)), counts[0], counts[1], counts[2],
                         min(1.0, sum(counts[3:])), min(1.0, sum(counts[1:]))))
    table = Table.from_rows(rows, ["hand", "cost", "cards", "mean", "p_0", "p_1", "p_2", "p_3plus",
                                   "p_at_least_1"])
    low = h.classes_up_to(2)
    facts = {"p_cost_le_2_dealt": float(h.p_holding(hands[0][1], low)),
             f"p_cost_le_2_after_{mulligan}": float(h.p_holding(hands[1][1], low))}
    section = Section("opening_hand", "Cards of each cost in the 5-card hand, dealt and after the mulligan",
                      table)
    return read_as(Report("Dragoborne: the opening hand",
                          _meta(rulings, curve, ("hand", "5 cards (line 172)"), item), [section],
                          notes=[*READINGS, "cost <=k rows: the cards costing k or less together"],
                          facts=facts), grids.opening_hand_views)


def mulligan_table(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                   lenient: bool = False, banners: int = h.BANNERS, play: bool = True) -> Report:
    """Each mulligan strategy of rulesets.dragoborne.hands.MULLIGANS: how often it sends cards back, what
    the hand holds after it, and (``play``) the resources it lets each player spend on turns 1-5."""
    curve = h.validate_curve(curve, deck, lenient=lenient)
    records = []
    for name in h.MULLIGANS:
        dist = h.opening_distribution(curve, name, lenient=True)
        p_back, mean_back = h.p_mulligan(curve, name, lenient=True)
        row = {"mulligan": name, "p_mulligan": p_back, "mean_returned": mean_back,
               "p_cost_1": min(1.0, h.p_holding(dist, [0])),
               "p_cost_le_2": min(1.0, h.p_holding(dist, h.classes_up_to(2))),
               "p_cost_le_3": min(1.0, h.p_holding(dist, h.classes_up_to(3))),
               "mean_cost": sum(p * sum(c * k for c, k in zip(h.COSTS, prof, strict=True))
                                for prof, p in dist.items())}
        if play:
            for who, first in (("first", True), ("second", False)):
                turns = h.early_play(curve, name, first=first, banners=banners, lenient=True)
                row[f"p_full_{who}_t1"] = turns[0].p_full
                row[f"spent_{who}"] = turns[-1].mean_spent_total
        records.append(row)
    notes = [*READINGS, *(f"{k}: {v}" for k, v in h.MULLIGANS.items()),
             "p_cost_1, p_cost_le_2, p_cost_le_3: P(the hand after the mulligan holds a card of cost 1, "
             "<= 2, <= 3); mean_cost: its expected total cost (5+ as 5)"]
    if play:
        notes += [*PLAY_READINGS,
                  "p_full_first_t1, p_full_second_t1: P(spending every resource on the player's first turn); "
                  f"spent_first, spent_second: expected resources spent on turns 1-{h.TURNS} together"]
    meta = _meta(rulings, curve, *([("banners", f"{banners} resources from the banners")] if play else []))
    return read_as(Report("Dragoborne: mulligan strategies", meta,
                          [Section("mulligans", "Mulligan strategies compared", Table.from_records(records))],
                          notes=notes), grids.mulligan_views)


def early_play_table(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                     lenient: bool = False, mulligan: str = "back3+", banners: int = h.BANNERS,
                     turns: int = h.TURNS) -> Report:
    """For the first and the second player, each of their turns 1..``turns``: the resources, the hand,
    P(a card can be played), P(every resource spent) and the resources spent."""
    curve = h.validate_curve(curve, deck, lenient=lenient)
    item = _mulligan_item(mulligan)
    rows = []
    for who, first in (("first", True), ("second", False)):
        for t in h.early_play(curve, mulligan, first=first, turns=turns, banners=banners, lenient=True):
            rows.append((who, t.turn, t.resources, t.mean_hand, t.p_play, t.p_full, t.mean_spent,
                         t.mean_spent_total))
    table = Table.from_rows(rows, ["player", "turn", "resources", "mean_hand", "p_play", "p_full",
                                   "mean_spent", "mean_spent_total"])
    meta = _meta(rulings, curve, item, ("banners", f"{banners} resources from the banners"))
    notes = [*READINGS, *PLAY_READINGS,
             "turn: the player's own turn; mean_hand: cards in hand at the start of the Main Phase; p_play: "
             "P(a card in hand costs no more than the resources); p_full: P(the best play spends every "
             "resource); mean_spent_total: expected resources spent on turns 1..turn"]
    section = Section("early_play", f"Turns 1-{turns} of the first and the second player", table)
    return read_as(Report("Dragoborne: early plays", meta, [section], notes=notes), grids.early_play_views)
