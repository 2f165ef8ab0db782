"""The Drakerys unit catalog as a report: one tidy row per unit, its data quirks, and the weapons."""

from __future__ import annotations

import pandas as pd

from reports.formats import Report, Section
from rulesets.drakerys.units import Catalog, Profile, Unit, UnitSize

#: The nine characteristics of a unit sheet, as tidy columns (Combat/Shooting and March/Charge are two each).
CHARACTERISTICS = ("actions", "power", "health", "initiative", "combat", "shooting", "strength",
                   "resistance", "willpower", "march", "charge")


def _size(option: UnitSize) -> str:
    return f"{option.size}/{option.ap}/{option.rarity}"


def _types(unit: Unit) -> str:
    return ", ".join(f"Awakened [{unit.skill_value('awakened')}]" if t == "Awakened" else t
                     for t in unit.types)


def _printed_profile(p: Profile) -> str:
    """The profile as a unit sheet prints it: ``2 1 1 4 3/- 2 3 3 10/15``."""
    shooting = "-" if p.shooting is None else str(p.shooting)
    return (f"{p.actions} {p.power} {p.health} {p.initiative} {p.combat}/{shooting} {p.strength} "
            f"{p.resistance} {p.willpower} {p.march}/{p.charge}")


def _characteristics(unit: Unit) -> dict[str, int | str]:
    """The characteristics as numbers; "-" for a Shooting printed "-"; blank when there is no profile."""
    if unit.profile is None:
        return dict.fromkeys(CHARACTERISTICS, "")
    values = {c: getattr(unit.profile, c) for c in CHARACTERISTICS}
    if values["shooting"] is None:
        values["shooting"] = "-"
    return values


def units_report(catalog: Catalog, profiled_only: bool = False) -> Report:
    """Every unit of ``catalog`` (only those with a profile when ``profiled_only``), its quirks and the
    ranged weapons."""
    units = catalog.with_profiles() if profiled_only else list(catalog.units.values())
    rows, view, quirks = [], [], []
    for u in units:
        sizes = "; ".join(_size(o) for o in u.all_sizes())
        common = {"key": u.key, "name": u.name, "faction": u.faction, "types": _types(u),
                  "skills": ", ".join(u.skills_as_printed)}
        rows.append({**common, "canonical_skills": ", ".join(u.skills), **_characteristics(u),
                     "weapon": u.weapon or "", "sizes": sizes, "sheet": _size(u.sheet) if u.sheet else "",
                     "quirks": "; ".join(u.quirks), "notes": u.notes, "source": u.source})
        view.append({**common, "profile": _printed_profile(u.profile) if u.profile else "",
                     "weapon": catalog.weapons[u.weapon].name if u.weapon else "",
                     "sizes (size/AP/rarity)": sizes, "sheet": _size(u.sheet) if u.sheet else "",
                     "quirks": len(u.quirks) or ""})
        quirks += [{"key": u.key, "unit": u.name, "faction": u.faction, "quirk": q} for q in u.quirks]
    weapons = pd.DataFrame([
        {"key": key, "name": w.name, "max_range_cm": w.max_range_cm,
         "strength": "warrior" if w.strength is None else w.strength, "saturation": w.saturation,
         "special": w.special, "one_shot_per_activation": w.one_shot_per_activation,
         "ignores_parry": w.ignores_parry, "source": w.source}
        for key, w in catalog.weapons.items()])
    unit_columns = ["key", "name", "faction", "types", "skills", "canonical_skills", *CHARACTERISTICS,
                    "weapon", "sizes", "sheet", "quirks", "notes", "source"]
    quirk_columns = ["key", "unit", "faction", "quirk"]
    tidy = pd.DataFrame(rows, columns=unit_columns)
    quirk_table = pd.DataFrame(quirks, columns=quirk_columns)
    shown = "units with a profile" if profiled_only else "all units"
    meta = [("ruleset", "drakerys (seed 002: unit sheets, RECRUITMENT TABLE, Ranged Weapons)"),
            ("catalog", catalog.source),
            ("units", f"{len(units)} ({shown}; {len(catalog.with_profiles())} of {len(catalog.units)} "
                      f"have a profile)"),
            ("profile", "Actions Power Health Initiative Combat/Shooting Strength Resistance Willpower "
                        "March/Charge (cm), as the unit sheets print them"),
            ("data quirks", f"{len(quirks)}, kept as printed and listed under Data quirks")]
    notes = ["sizes: the RECRUITMENT TABLE's options, plus the unit sheet's when the table has none for "
             "its size; sheet: the Size/AP/Rarity printed on the unit sheet",
             "skills are as printed; canonical_skills (tidy formats) are the names the simulation reads"]
    sections = [Section("units", "Units", tidy),
                Section("quirks", "Data quirks (kept as printed, flagged)", quirk_table),
                Section("weapons", "Ranged weapons", weapons)]
    view_columns = ["key", "name", "faction", "types", "skills", "profile", "weapon",
                    "sizes (size/AP/rarity)", "sheet", "quirks"]
    views = [Section("units", "Units", pd.DataFrame(view, columns=view_columns),
                     narrow=("key", "skills", "profile", "sizes (size/AP/rarity)", "quirks"),
                     whole=("profile",)),
             Section("quirks", "Data quirks (kept as printed, flagged)", quirk_table[["unit", "faction",
                                                                                       "quirk"]]),
             Section("weapons", "Ranged weapons", weapons.drop(columns=["key", "source"]).rename(columns={
                 "name": "weapon", "max_range_cm": "range (cm)", "one_shot_per_activation":
                 "one Shot per activation", "ignores_parry": "ignores Parry"}))]
    return Report("Drakerys: unit catalog", meta, sections, views, notes)
