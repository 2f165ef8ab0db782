"""The Dragoborne standard tables (shield, opening-hand, mulligan, early-play), computed exactly as tidy
columns (:class:`rulesets.base.TableData`; line numbers are those of the seed 001 rulebook text);
reports.dragoborne lays them out."""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.base import RulesError, StandardTable, TableData, record_columns, row_columns
from rulesets.dragoborne import hands as h
from rulesets.dragoborne.rules import DragoborneRulings

#: The rows of the opening-hand table: (label, class indices); single classes, then "cost <= k".
HAND_ROWS: tuple[tuple[str, tuple[int, ...]], ...] = (
    *((name, (i,)) for i, name in enumerate(h.CLASS_NAMES)),
    *((f"<={k}", tuple(h.classes_up_to(k))) for k in (2, 3, 4)),
)


def shield_data(rulings: DragoborneRulings) -> TableData:
    """P(a fresh dragoshield stands) after 1..6 attacks of ATK 1..6 in a turn (part ``shield``)."""
    from rulesets.dragoborne.shields import shield_rows

    rows = [(r.atk, r.attacks, float(r.p_stands)) for r in shield_rows(rulings)]
    return TableData(rulings, {"shield": row_columns(rows, ["atk", "attacks", "p_stands"])})


def check_mulligan(mulligan: str) -> str:
    """``mulligan`` if it names a strategy of rulesets.dragoborne.hands.MULLIGANS; a RulesError otherwise."""
    if mulligan not in h.MULLIGANS:
        raise RulesError(f"mulligan {mulligan!r} is not one of {', '.join(h.MULLIGANS)}")
    return mulligan


def opening_hand_data(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                      lenient: bool = False, mulligan: str = "back3+") -> TableData:
    """The 5-card hand (line 172), as dealt and after the mulligan ``mulligan``: for each cost and each
    "cost <= k", the cards in the deck, the expected number in hand and P(0, 1, 2, 3+ and >= 1 of them)
    (part ``opening_hand``); params: the curve, the mulligan and the facts (P(a card of cost <= 2))."""
    curve = h.validate_curve(curve, deck, lenient=lenient)
    check_mulligan(mulligan)
    hands = [("dealt", h.dealt_distribution(curve, lenient=True)),
             (f"after {mulligan}", h.opening_distribution(curve, mulligan, lenient=True))]
    rows = []
    for name, dist in hands:
        for label, classes in HAND_ROWS:
            counts = h.count_distribution(dist, classes)
            rows.append((name, label, sum(curve[i] for i in classes),
                         sum(j * p for j, p in enumerate(counts)), counts[0], counts[1], counts[2],
                         min(1.0, sum(counts[3:])), min(1.0, sum(counts[1:]))))
    low = h.classes_up_to(2)
    facts = {"p_cost_le_2_dealt": float(h.p_holding(hands[0][1], low)),
             f"p_cost_le_2_after_{mulligan}": float(h.p_holding(hands[1][1], low))}
    columns = row_columns(rows, ["hand", "cost", "cards", "mean", "p_0", "p_1", "p_2", "p_3plus",
                                 "p_at_least_1"])
    return TableData(rulings, {"opening_hand": columns},
                     {"curve": curve, "mulligan": mulligan, "facts": facts})


def mulligan_data(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                  lenient: bool = False, banners: int = h.BANNERS, play: bool = True) -> TableData:
    """Each mulligan strategy of rulesets.dragoborne.hands.MULLIGANS: how often it sends cards back, what
    the hand holds after it, and (``play``) the resources it lets each player spend on turns 1-5 (part
    ``mulligans``); params: the curve, banners and play."""
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
    return TableData(rulings, {"mulligans": record_columns(records)},
                     {"curve": curve, "banners": banners, "play": play})


def early_play_data(rulings: DragoborneRulings, curve: Sequence[int] = h.RECOMMENDED_CURVE, deck: int = 50,
                    lenient: bool = False, mulligan: str = "back3+", banners: int = h.BANNERS,
                    turns: int = h.TURNS) -> TableData:
    """For the first and the second player, each of their turns 1..``turns``: the resources, the hand,
    P(a card can be played), P(every resource spent) and the resources spent (part ``early_play``); params:
    the curve, mulligan, banners and turns."""
    curve = h.validate_curve(curve, deck, lenient=lenient)
    check_mulligan(mulligan)
    rows = []
    for who, first in (("first", True), ("second", False)):
        for t in h.early_play(curve, mulligan, first=first, turns=turns, banners=banners, lenient=True):
            rows.append((who, t.turn, t.resources, t.mean_hand, t.p_play, t.p_full, t.mean_spent,
                         t.mean_spent_total))
    columns = row_columns(rows, ["player", "turn", "resources", "mean_hand", "p_play", "p_full", "mean_spent",
                                 "mean_spent_total"])
    return TableData(rulings, {"early_play": columns},
                     {"curve": curve, "mulligan": mulligan, "banners": banners, "turns": turns})


def standard_tables() -> dict[str, StandardTable]:
    """Every standard table of Dragoborne, by name."""
    return {
        "shield": StandardTable("shield", "P(a fresh dragoshield stands) after 1-6 attacks of ATK 1-6",
                                shield_data),
        "opening-hand": StandardTable("opening-hand", "The opening hand by cost, as dealt and after the "
                                                      "mulligan (recommended curve)", opening_hand_data),
        "mulligan": StandardTable("mulligan", "Mulligan strategies compared (recommended curve)",
                                  mulligan_data),
        "early-play": StandardTable("early-play", "Playing on curve, turns 1-5, first and second player",
                                    early_play_data),
    }
