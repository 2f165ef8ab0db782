"""Warbound's standard tables laid out for reading: rulebook grids with human headings, rounded by the
reading policy (reports.tables.Rounding); the tidy sections (CSV, JSON, the Python API) keep every digit."""

from __future__ import annotations

from reports.formats import Section
from reports.tables import Rounding, grid, number_cell, probability_cell, readable, rounding_note, values


def _unit(rounding: Rounding) -> str:
    return "percent" if rounding.percent else "probability"


def _dice(n: int) -> str:
    return f"{n} di{'ce' if n > 1 else 'e'}"


def hit_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """P(at least one hit) and the expected hits, each a grid per Formation: rows the target value,
    columns the dice with and without Aim; then P(hit) of one die."""
    data = sections[0].table
    out = []
    for metric, what, cell in (
            ("p_hit", f"P(at least one hit), {_unit(rounding)}",
             lambda r: probability_cell(r["p_hit"], rounding)),
            ("expected_hits", "Expected hits", lambda r: number_cell(r["expected_hits"]))):
        for formation in ("no", "yes"):
            plain, aimed = (grid(data, ["target"], "dice", cell,
                                 where=lambda r, f=formation, a=aim: r["formation"] == f and r["aim"] == a,
                                 row_text={"target": lambda v: f"{v}+"},
                                 column_text=lambda n, a=aim: _dice(n) + (", Aim" if a == "yes" else ""))
                            for aim in ("no", "yes"))
            for name in aimed.names[1:]:
                plain = plain.with_column(name, aimed[name])
            how = "in Formation (+1 die, +1 to the result)" if formation == "yes" else "no Formation"
            notes = []
            if metric == "p_hit" and formation == "no":
                notes = [rounding_note(rounding)]
            elif formation == "no":
                notes = ["expected hits to 2 decimals"]
            out.append(Section(f"{metric}_{'formation' if formation == 'yes' else 'plain'}",
                               f"{what}, {how}; rows: target value; columns: dice rolled, without and with "
                               "Aim", plain, notes=notes))
    one = sections[1].table
    view = readable(one, {name: name for name in one.names}, rounding)
    out.append(Section("one_die", f"{sections[1].title}, {_unit(rounding)}",
                       view.with_column("target", [f"{v}+" for v in values(one, "target")])))
    return out


def armor_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """Expected Wound tokens, a grid per armor points (rows the armor value, columns the damage), and
    P(no Wound token), one grid: it depends on the armor points only through whether they reach the damage.
    """
    data = sections[0].table
    out = []
    for points in dict.fromkeys(values(data, "armor_points")):
        view = grid(data, ["armor_value"], "damage", lambda r: number_cell(r["expected_wounds"]),
                    where=lambda r, p=points: r["armor_points"] == p,
                    row_headings={"armor_value": "armor"}, row_text={"armor_value": lambda v: f"{v}+"})
        notes = [] if out else ["expected Break tokens = damage - expected Wound tokens (each damage die "
                                "either saves, a Break, or wounds); to 2 decimals"]
        plural = "s" if points > 1 else ""
        out.append(Section(f"wounds_{points}", f"Expected Wound tokens with {points} armor point{plural}; "
                                               "rows: armor value; columns: damage", view, notes=notes))
    most = max(values(data, "armor_points"))
    view = grid(data, ["armor_value"], "damage", lambda r: probability_cell(r["p_no_wound"], rounding),
                where=lambda r: r["armor_points"] == most and r["damage"] <= most,
                row_headings={"armor_value": "armor"}, row_text={"armor_value": lambda v: f"{v}+"})
    out.append(Section("no_wound", f"P(no Wound token), {_unit(rounding)}, with at least as many unbroken "
                                   "armor points as damage (with fewer it is 0); rows: armor value; columns: "
                                   "damage", view, notes=[rounding_note(rounding)]))
    return out


def stress_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """P(k Stress tokens): rows the dice with and without Aim, columns k, and the expected tokens."""
    data, means = sections[0].table, sections[1].table
    view = grid(data, ["dice", "aim"], "stress", lambda r: probability_cell(r["probability"], rounding),
                row_text={"dice": _dice, "aim": lambda a: "Aim" if a == "yes" else ""},
                column_text=lambda k: f"{k} token{'s' if k != 1 else ''}")
    view = view.with_column("expected", [number_cell(v) for v in values(means, "expected_stress")])
    return [Section("stress", f"P(k Stress tokens), {_unit(rounding)}; rows: dice rolled; columns: tokens",
                    view, notes=[rounding_note(rounding) + "; expected tokens to 2 decimals"], keys=2)]


#: The views of each standard table, by its name (Ruleset.tables()).
VIEWS = {"hit": hit_views, "armor": armor_views, "stress": stress_views}
