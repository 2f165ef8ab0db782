"""UberDrakes' standard tables laid out for reading: rulebook grids with human headings, rounded by the
reading policy (reports.tables.Rounding); the tidy sections (CSV, JSON, the Python API) keep every digit."""

from __future__ import annotations

from reports.formats import Section
from reports.tables import Rounding, grid, probability_cell, readable, rounding_note, values


def _unit(rounding: Rounding) -> str:
    return "percent" if rounding.percent else "probability"


def _yes(value) -> str:
    return "roosting" if value else "not roosting"


def rolloff_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """One grid per initiator's Rage: rows the defender's Rage, columns the bonus difference."""
    data = sections[0].table
    out = []
    for rage in dict.fromkeys(values(data, "initiator_rage")):
        view = grid(data, ["defender_rage"], "bonus_difference",
                    lambda r: probability_cell(r["p_win"], rounding),
                    where=lambda r, rage=rage: r["initiator_rage"] == rage,
                    row_headings={"defender_rage": "vs Rage"}, column_text=lambda d: f"{d:+d}" if d else "0")
        title = (f"Initiator's Rage {rage}: P(the initiator wins), {_unit(rounding)}; rows: the defender's "
                 "Rage; columns: bonus difference (the initiator's bonuses - the defender's)")
        out.append(Section(f"rage_{rage}", title, view, notes=[rounding_note(rounding)] if rage == 0 else []))
    return out


def resources_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    data = sections[0].table
    cost = [f"{c:g} {u}" for c, u in zip(values(data, "cost"), values(data, "unit"), strict=True)]
    view = readable(data, {"resource": "resource", "value": "value", "value_per_cost": "value per cost",
                           "value_greedy": "value, greedy play", "value_initiator": "as initiator",
                           "value_defender": "as defender", "bp_gain": "blood points",
                           "damage_gain": "damage dealt", "damage_taken_gain": "damage taken",
                           "spent": "spent", "key": "key"}, rounding)
    gained = f"P(win) gained{' (points)' if rounding.percent else ''}"
    view = view.with_column("cost", cost, at=1).with_column(
        gained, [rounding.probability(v) for v in values(data, "win_gain")], at=4)
    return [Section("resources", sections[0].title, view,
                    narrow=("resource", "cost", "value", "value per cost", gained, "key"),
                    notes=[f"{rounding.describe()} (a gain in P(win) likewise); other numbers to 2 "
                           "decimals"])]


def furnace_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    view = readable(sections[0].table, {"magic": "Magic spent", "p_fatigue": f"P(Fatigue), {_unit(rounding)}"
                                        }, rounding)
    return [Section("furnace", sections[0].title, view, notes=[rounding_note(rounding)])]


def blood_points_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    view = readable(sections[0].table, {
        "victory_point": "Victory Point", "price": "price", "cumulative": "total price",
        "initiator": "combats, initiator", "defender": "combats, defender",
        "cumulative_initiator": "for the total, initiator", "cumulative_defender": "for the total, defender"},
        rounding, digits=1)
    return [Section("blood_points", sections[0].title, view,
                    notes=["prices in blood points; combats: the expected plain combats, to 1 decimal"])]


def turn_order_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    unit = "%" if rounding.percent else "P"
    summary = readable(sections[0].table, {
        "players": "players", "p_tie": f"tie for the highest ({unit})",
        "p_settled": f"settled at once ({unit})", "expected_rounds": "tie-break rounds",
        "rounds_if_tied": "rounds if tied", "expected_extra_dice": "extra dice",
        "p_seat_first": f"a seat goes first ({unit})"}, rounding)
    tied = grid(sections[1].table, ["players"], "tied_at_top",
                lambda r: probability_cell(r["probability"], rounding), column_text=lambda k: f"{k} tied")
    return [Section("turn_order", sections[0].title, summary,
                    notes=[rounding_note(rounding) + "; expected rounds and dice to 2 decimals"]),
            Section("tied", f"{sections[1].title}, {_unit(rounding)}; rows: players; columns: how many tie",
                    tied)]


def caves_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    unit = "%" if rounding.percent else "P"
    entry = grid(sections[0].table, ["coins"], "roosting",
                 lambda r: probability_cell(r["probability"], rounding),
                 column_text=lambda v: f"P(exactly), {_yes(v)}")
    rounds = grid(sections[1].table, ["rounds"], "roosting",
                  lambda r: f"{r['mean']:.1f} ({r['least']}-{r['most']})",
                  column_text=lambda v: f"{_yes(v)}: mean (range)")
    afford = readable(sections[2].table, {"price": "price", "roosting": "roosting", "items": "items",
                                          **{f"p_after_{n}": f"after {n} ({unit})" for n in range(1, 6)}},
                      rounding)
    return [Section("entry", f"{sections[0].title}, {_unit(rounding)}", entry,
                    notes=[rounding_note(rounding)]),
            Section("rounds", f"{sections[1].title}: coins", rounds),
            Section("afford", sections[2].title, afford, keys=2)]


def urn_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    unit = "%" if rounding.percent else "P"
    magic = readable(sections[0].table, {"magic": "Magic found", "probability": f"exactly ({unit})",
                                         "p_at_least": f"at least ({unit})"}, rounding)
    spells = readable(sections[1].table, {"dragon": "dragon", "spell": "spell", "cost": "cost (Magic)",
                                          "p_pays": f"the Urn pays it ({unit})"}, rounding)
    return [Section("magic", sections[0].title, magic, notes=[rounding_note(rounding)]),
            Section("spells", sections[1].title, spells)]


#: The views of each standard table, by its name (Ruleset.tables()).
VIEWS = {"rolloff": rolloff_views, "resources": resources_views, "furnace": furnace_views,
         "blood-points": blood_points_views, "turn-order": turn_order_views, "caves": caves_views,
         "urn": urn_views}
