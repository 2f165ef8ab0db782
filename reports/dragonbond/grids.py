"""Dragonbond's standard tables laid out for reading: rulebook grids with human headings, rounded by the
reading policy (reports.tables.Rounding); the tidy sections (CSV, JSON, the Python API) keep every digit."""

from __future__ import annotations

from reports.formats import Section, Table
from reports.tables import Rounding, probability_cell, readable, rounding_note, values
from rulesets.dragonbond.dice import SYMBOLS


def _unit(rounding: Rounding) -> str:
    return "percent" if rounding.percent else "probability"


def dice_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    data = sections[0].table
    view = readable(data, {name: name for name in data.names}, rounding,
                    probabilities=(*SYMBOLS, "block ▼"))
    return [Section("dice", f"{sections[0].title}, {_unit(rounding)}; mean hits and criticals per die", view,
                    notes=[rounding_note(rounding) + "; means to 2 decimals"])]


def pool_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """One table per pool: rows the upgrades (+) and downgrades (-)."""
    data = sections[0].table
    out = []
    for pool in dict.fromkeys(values(data, "pool")):
        keep = [p == pool for p in values(data, "pool")]
        part = data.where(keep)
        view = readable(part, {"modifier": "steps", "rolls": "rolls", "mean hits": "mean hits",
                               "mean criticals": "mean criticals",
                               "P(no hit, no critical)": f"P(no hit, no critical), {_unit(rounding)}"},
                        rounding)
        view = view.with_column("steps", [f"{m:+d}" if m else "0" for m in values(part, "modifier")])
        out.append(Section(f"pool_{pool}", f"Pool {pool} under upgrades (+) and downgrades (-)", view,
                           notes=[rounding_note(rounding) + "; means to 2 decimals"] if not out else []))
    return out


def attack_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """One table per count of fatigue tokens beside the attacker: rows the pool, columns the defense die."""
    data = sections[0].table
    out = []
    for tokens in dict.fromkeys(values(data, "tokens beside")):
        part = data.where([t == tokens for t in values(data, "tokens beside")])
        defenses = [n for n in part.names if n.startswith("vs ")]
        view = readable(part, {"dice": "dice", "rolls": "rolls", **{n: n for n in defenses}}, rounding)
        plural = "s" if tokens != 1 else ""
        title = (f"Expected wounds with {tokens} fatigue token{plural} beside the attacker (rolls: the pool "
                 "after its downgrades); columns: the defense die")
        out.append(Section(f"tokens_{tokens}", title, view,
                           notes=["expected wounds to 2 decimals"] if not out else []))
    return out


def charge_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    """P(reach at least d): rows d, columns the speed; a distance within the speed is certain."""
    data = sections[0].table
    found = {(s, d): p for s, d, p in zip(values(data, "speed"), values(data, "distance"),
                                          values(data, "P(reach)"), strict=True)}
    speeds = list(dict.fromkeys(values(data, "speed")))
    distances = sorted(set(values(data, "distance")))
    cells = {f"speed {s}": [probability_cell(found.get((s, d), 1.0 if d < s else 0.0), rounding)
                            for d in distances] for s in speeds}
    view = Table({"inches": distances, **cells}).where([any(c[i] for c in cells.values())
                                                        for i in range(len(distances))])
    return [Section("charge", f"P(a charge reaches at least d inches), {_unit(rounding)}; rows: d; columns: "
                              "the unit's speed", view,
                    notes=[rounding_note(rounding) + "; farther distances: none reached"])]


def face_off_views(sections: list[Section], rounding: Rounding) -> list[Section]:
    data = sections[0].table
    headings = {n: n if n in ("players", "expected rolls") else f"{n} ({'%' if rounding.percent else 'P'})"
                for n in data.names}
    view = readable(data, headings, rounding,
                    probabilities=[n for n in data.names if n not in ("players", "expected rolls")])
    return [Section("face_off", sections[0].title, view,
                    notes=[rounding_note(rounding) + "; expected rolls to 2 decimals"])]


#: The views of each standard table, by its name (Ruleset.tables()).
VIEWS = {"dice": dice_views, "pool": pool_views, "attack": attack_views, "charge": charge_views,
         "face-off": face_off_views}
