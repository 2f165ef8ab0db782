"""Dragoborne's standard tables laid out for reading: rulebook grids with human headings, rounded by the
reading policy (reports.tables.Rounding); the tidy sections (CSV, JSON, the Python API) keep every digit."""

from __future__ import annotations

from reports.formats import Section
from reports.tables import Rounding, grid, probability_cell, readable, rounding_note, values


def _unit(rounding: Rounding) -> str:
    return "percent" if rounding.percent else "probability"


def _p(rounding: Rounding) -> str:
    return "%" if rounding.percent else "P"


def shield_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    view = grid(sections[0].table, ["atk"], "attacks", lambda r: probability_cell(r["p_stands"], rounding),
                row_headings={"atk": "ATK"}, column_text=lambda n: f"{n} attack{'s' if n > 1 else ''}")
    return [Section("shield", f"P(a fresh dragoshield stands), {_unit(rounding)}; rows: the attackers' ATK; "
                              "columns: attacks in one turn", view, notes=[rounding_note(rounding)])]


def _cost(label: str) -> str:
    return f"cost ≤{label[2:]}" if label.startswith("<=") else f"cost {label}"


def opening_hand_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """One table per hand (dealt, after the mulligan): rows the cost, columns P(0, 1, 2, 3+, at least 1)."""
    data = sections[0].table
    p = _p(rounding)
    out = []
    for hand in dict.fromkeys(values(data, "hand")):
        part = data.where([h == hand for h in values(data, "hand")])
        view = readable(part, {"cost": "cards", "cards": "in the deck", "mean": "mean in hand",
                               "p_0": f"none ({p})", "p_1": f"one ({p})", "p_2": f"two ({p})",
                               "p_3plus": f"3 or more ({p})", "p_at_least_1": f"at least one ({p})"},
                        rounding)
        view = view.with_column("cards", [_cost(c) for c in values(part, "cost")])
        out.append(Section(f"hand_{len(out)}", f"The 5-card hand {hand}: cards of each cost", view,
                           notes=[rounding_note(rounding) + "; means to 2 decimals"] if not out else []))
    return out


def mulligan_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    data = sections[0].table
    p = _p(rounding)
    headings = {"mulligan": "mulligan", "p_mulligan": f"sends cards back ({p})",
                "mean_returned": "cards back",
                "p_cost_1": f"holds a cost 1 ({p})", "p_cost_le_2": f"cost 2 or less ({p})",
                "p_cost_le_3": f"cost 3 or less ({p})", "mean_cost": "hand's cost",
                "p_full_first_t1": f"spends all on turn 1, first player ({p})",
                "spent_first": "spent turns 1-5, first player",
                "p_full_second_t1": f"spends all on turn 1, second player ({p})",
                "spent_second": "spent turns 1-5, second player"}
    view = readable(data, {k: v for k, v in headings.items() if k in data.names}, rounding)
    return [Section("mulligans", f"{sections[0].title} (the hand after the mulligan)", view,
                    narrow=[headings[k] for k in ("mulligan", "p_mulligan", "mean_returned", "p_cost_1",
                                                  "p_cost_le_2", "p_cost_le_3", "mean_cost")],
                    notes=[rounding_note(rounding) + "; cards, costs and resources spent to 2 decimals"])]


def early_play_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    data = sections[0].table
    p = _p(rounding)
    view = readable(data, {"player": "player", "turn": "own turn", "resources": "resources",
                           "mean_hand": "cards in hand", "p_play": f"can play a card ({p})",
                           "p_full": f"spends every resource ({p})", "mean_spent": "resources spent",
                           "mean_spent_total": "spent so far"}, rounding)
    return [Section("early_play", sections[0].title, view, keys=2,
                    notes=[rounding_note(rounding) + "; cards and resources to 2 decimals"])]


#: The views of each standard table, by its name (Ruleset.tables()).
VIEWS = {"shield": shield_views, "opening-hand": opening_hand_views, "mulligan": mulligan_views,
         "early-play": early_play_views}
