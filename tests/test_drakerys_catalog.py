"""The Drakerys catalog against the rulebook (seed 002): unit sheets, RECRUITMENT TABLE, ranged weapons,
data quirks, canonical skills, the loader's validation and user overrides, and `balance units drakerys`."""

from __future__ import annotations

import io
import json
import tomllib
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest
from cli_run import run

from rulesets.base import RulesError
from rulesets.drakerys.catalog import CatalogError, load
from rulesets.drakerys.units import MODELLED_SKILLS, Profile


@pytest.fixture(scope="module")
def catalog():
    return load()


# --- unit sheets: the nine characteristics as printed -------------------------------------------

#: Each sheet's row as the rulebook prints it: Actions, Power, Health, Initiative, Combat/Shooting,
#: Strength, Resistance, Willpower, March/Charge; and its "Size AP Rarity".
SHEETS = {
    "crows": ("Avaren", "2 1 1 4 3/- 2 3 3 10/15", (12, 160, 1)),
    "blood-banes": ("Avaren", "3 2 2 3 4/- 3 5 4 10/15", (4, 140, 1)),
    "salik": ("Avaren", "4 3 3 5 5/- 4 4 3 10/15", (1, 160, 2)),
    "crossbowmen": ("Aurium", "2 1 1 1 2/2 2 4 1 10/10", (6, 100, 1)),
    "gold-keepers": ("Aurium", "3 2 1 2 4/- 4 5 2 10/10", (6, 150, 2)),
    "noctis": ("Aurium", "3 3 3 5 4/3 3 3 3 10/10", (1, 130, 1)),
    "soldiers": ("Aurium", "2 1 1 1 2/- 3 5 1 10/10", (6, 80, 0)),
    "warriors": ("Ashral", "2 2 1 2 3/- 3 4 2 10/15", (6, 75, 0)),
    "rockthrowers": ("Ashral", "2 2 3 3 3/2 3 4 3 15/15", (3, 120, 1)),
    "sakhil": ("Ashral", "2 2 1 2 3/- 3 4 2 10/15", (1, 150, 2)),
    "bloodseekers": ("Ashral", "3 2 1 2 3/- 3 4 3 10/15", (6, 120, 1)),
    "irosia-bowmen": ("Irosia", "2 1 1 3 2/2 2 2 2 10/15", (5, 80, 0)),
    "crushers": ("Irosia", "2 2 3 3 3/- 4 5 4 15/25", (2, 150, 2)),
    "celeste": ("Irosia", "4 1 3 3 2/- 2 2 3 10/15", (1, 130, 2)),
    "spearmen": ("Irosia", "2 1 1 2 2/- 2 3 3 10/15", (10, 110, 0)),
}


def printed_profile(row: str) -> Profile:
    a, p, h, i, cs, st, r, w, mc = row.split()
    combat, shooting = cs.split("/")
    march, charge = mc.split("/")
    return Profile(int(a), int(p), int(h), int(i), int(combat), None if shooting == "-" else int(shooting),
                   int(st), int(r), int(w), int(march), int(charge))


@pytest.mark.parametrize("key", SHEETS)
def test_sheet_profile_faction_and_size_as_printed(catalog, key):
    faction, row, (size, ap, rarity) = SHEETS[key]
    unit = catalog.units[key]
    assert unit.faction == faction
    assert unit.profile == printed_profile(row)
    assert (unit.sheet.size, unit.sheet.ap, unit.sheet.rarity) == (size, ap, rarity)


def test_exactly_the_fifteen_sheets_and_the_cage_have_profiles(catalog):
    # RULES.md §1 says "16 units" but names 15; the rulebook has 15 "## UNIT:" sheets (+ the cage = 16).
    assert len(SHEETS) == 15
    assert {u.key for u in catalog.with_profiles()} == {*SHEETS, "prisoner-cage"}
    assert catalog.unit("Sakhil").profile == catalog.unit("Warriors").profile


def test_prisoner_cage_prints_combat_1_resistance_4_health_2_and_nothing_else(catalog):
    cage = catalog.units["prisoner-cage"]
    p = cage.profile
    assert (p.combat, p.resistance, p.health) == (1, 4, 2)
    assert (p.actions, p.power, p.initiative, p.strength, p.willpower, p.march, p.charge) == (0,) * 7
    assert p.shooting is None
    assert cage.types == ("Object",)
    assert cage.sheet is None and cage.sizes == () and cage.all_sizes() == ()
    assert any("only Combat 1, Resistance 4, Health 2" in q for q in cage.quirks)
    assert any("Object" in q for q in cage.quirks)


# --- types and skills ---------------------------------------------------------------------------

#: (types, skills as printed, canonical skills, skill values), from each unit sheet's Type and Skills.
SKILLS = {
    "crows": (("Infantry",), ("Swashbuckler", "Escort"), ("swashbuckler", "guard"), {}),
    "blood-banes": (("Infantry",), ("Berserker", "Violent Blow"), ("berserker", "violent_blow"), {}),
    "salik": (("Awakened", "Hero", "Infantry"),
              ("Heroic Action", "Reach", "Martial Arts", "Authority [20]", "Disengagement", "Parrying",
               "Saving"),
              ("heroic_action", "reach", "martial_arts", "authority", "disengagement", "parry", "safeguard",
               "awakened"), {"authority": 20, "awakened": 2}),
    "crossbowmen": (("Infantry",), ("Shooting/Repeating crossbow",), ("shooter",), {}),
    "gold-keepers": (("Infantry",), ("Swashbuckler", "Violent Blow", "Discipline", "Escort"),
                     ("swashbuckler", "violent_blow", "discipline", "guard"), {}),
    "noctis": (("Infantry", "Hero", "Awakened"),
               ("Heroic Action", "Authority [20]", "Camouflage", "Disengagement", "Multiple Shots",
                "Quick Shoot", "Shooting/Crossbow", "Saving"),
               ("heroic_action", "authority", "camouflage", "disengagement", "multiple_shots", "quick_shot",
                "shooter", "safeguard", "awakened"), {"authority": 20, "awakened": 2}),
    "soldiers": (("Infantry",), ("Blocking", "Discipline", "Escort", "Parrying"),
                 ("blocking", "discipline", "guard", "parry"), {}),
    "warriors": (("Infantry",), ("Escort", "Parrying"), ("guard", "parry"), {}),
    "rockthrowers": (("Infantry",), ("Heavy-Loaded", "Shooting/Rocks"), ("jammed", "shooter"), {}),
    "sakhil": (("Awakened", "Hero", "Infantry"), ("Heroic Action", "Berserker", "Disengagement", "Saving"),
               ("heroic_action", "berserker", "disengagement", "safeguard", "awakened"), {"awakened": 1}),
    "bloodseekers": (("Infantry",), ("Swashbuckler", "Disengagement"), ("swashbuckler", "disengagement"), {}),
    "irosia-bowmen": (("Infantry",), ("Shooting/Bow",), ("shooter",), {}),
    "crushers": (("Infantry",), ("Violent Blow", "Intimidation"), ("violent_blow", "intimidation"), {}),
    "celeste": (("Awakened", "Hero", "Infantry"),
                ("Heroic Action", "Authority [20]", "Disengagement", "Wizard [3] (Tempest, Solar)", "Saving"),
                ("heroic_action", "authority", "disengagement", "wizard", "safeguard", "awakened"),
                {"authority": 20, "wizard": 3, "awakened": 2}),
    "spearmen": (("Infantry",), ("Reach", "Disengagement", "Heavy-Loaded", "Escort", "Expert Parry"),
                 ("reach", "disengagement", "jammed", "guard", "expert_parry"), {}),
}


@pytest.mark.parametrize("key", SKILLS)
def test_types_and_skills_as_printed_and_canonical(catalog, key):
    types, printed, canonical, values = SKILLS[key]
    unit = catalog.units[key]
    assert unit.types == types
    assert unit.skills_as_printed == printed
    assert unit.skills == canonical
    assert unit.skill_values == values


def test_weapons_follow_the_shooting_skill(catalog):
    weapons = {u.key: u.weapon for u in catalog.with_profiles() if u.weapon}
    assert weapons == {"crossbowmen": "repeating-crossbow", "noctis": "crossbow", "rockthrowers": "rocks",
                       "irosia-bowmen": "bow"}


def test_heroes_have_safeguard_and_only_the_heroes_of_the_sheets_are_heroes(catalog):
    heroes = {u.key for u in catalog.units.values() if u.is_hero}
    assert heroes == {"salik", "noctis", "sakhil", "celeste"}
    assert all(catalog.units[k].has("safeguard") for k in heroes)


def test_unmodelled_skills_are_kept(catalog):
    assert catalog.units["noctis"].unmodelled_skills == ("camouflage", "disengagement", "awakened")
    assert catalog.units["crushers"].unmodelled_skills == ("intimidation",)
    assert {"jammed", "guard", "parry", "safeguard", "quick_shot", "shooter"} <= MODELLED_SKILLS


def test_maelstrom_and_mercenary_rows_keep_their_named_skills(catalog):
    assert catalog.units["isha"].skills == ("elemental_absorption", "elemental_movement")
    assert catalog.units["earth-herald"].skills_as_printed == ("Rock solid",)
    assert catalog.units["bastion"].skills == ("experimental_weapons",)
    assert catalog.units["maelstrom-warmonger"].skills == ()


# --- ranged weapons -----------------------------------------------------------------------------

#: The player aid's Ranged Weapons table: range cm, Strength (None: of the Warrior), Saturation,
#: one Shot per Activation, Parry and Expert Parry ignored.
WEAPONS = {
    "bow": ("Bow", 50, 3, 3, False, False),
    "crossbow": ("Crossbow", 80, 4, 2, True, False),
    "heavy-crossbow": ("Heavy crossbow", 100, 4, 2, True, True),
    "javelins": ("Javelins", 20, None, 1, False, False),
    "repeating-crossbow": ("Repeating crossbow", 60, 3, 2, False, False),
    "rocks": ("Rocks", 30, None, 4, False, False),
}


def test_ranged_weapons_as_the_player_aid_prints_them(catalog):
    got = {k: (w.name, w.max_range_cm, w.strength, w.saturation, w.one_shot_per_activation, w.ignores_parry)
           for k, w in catalog.weapons.items()}
    assert got == WEAPONS
    assert catalog.weapons["crossbow"].special == "Only one Shot per Activation."
    assert catalog.weapons["heavy-crossbow"].special.endswith(
        "cannot use its Parry and Expert Parry Skills until the end of the Shot.")
    assert catalog.weapons["bow"].special == ""
    assert all(w.source.startswith("seed 002, Ranged Weapons (player aid") for w in catalog.weapons.values())


# --- the RECRUITMENT TABLE ----------------------------------------------------------------------

#: Rows per section of the RECRUITMENT TABLE (counted in the rulebook).
ROWS = {"ELVES: THE KINGDOM OF AVAREN": ("Avaren", 13), "HUMANS: THE EMPIRE OF TROSIA": ("Irosia", 13),
        "DWARVES: THE AURIUM CASTE": ("Aurium", 9), "ORCS: THE KINGDOM OF ASHRAL": ("Ashral", 13),
        "WARRIORS OF THE MAELSTROM": ("Maelstrom", 11), "MERCENARIES": ("Mercenaries", 7)}


@pytest.mark.parametrize("section", ROWS)
def test_recruitment_rows_per_section(catalog, section):
    faction, count = ROWS[section]
    rows = [u for u in catalog.units.values() if f"RECRUITMENT TABLE, {section} (line" in u.source]
    assert len(rows) == count
    assert {u.faction for u in rows} == {faction}


def test_every_unit_is_a_table_row_or_a_sheet(catalog):
    assert len(catalog.units) == 66 + 2  # 66 rows, plus Spearmen and the cage, which have none
    no_row = {k for k, u in catalog.units.items() if "RECRUITMENT TABLE" not in u.source}
    assert no_row == {"spearmen", "prisoner-cage"}


#: Spot checks, cell by cell: key → (size, AP, rarity) options in printed order.
OPTIONS = {
    "crows": [(6, 80, 0), (9, 120, 0), (12, 160, 1)],
    "rockthrowers": [(3, 120, 1), (6, 250, 2), (9, 375, 3)],
    "maelan": [(1, 250, 3)],
    "slaves": [(3, 85, 1)],
    "void-runners": [(3, 135, 1), (6, 275, 2), (9, 410, 4)],
    "avaren-bowmen": [(6, 100, 1), (9, 140, 2), (12, 210, 2)],
    "irosia-bowmen": [(5, 80, 0), (10, 160, 1)],
    "celeste": [(1, 130, 1)],
    "knights-of-the-dragon": [(2, 220, 2), (4, 450, 4)],
    "aurium-enforcers": [(3, 250, 2), (6, 500, 3)],
    "irosia-enforcers": [(2, 110, 1), (3, 175, 2), (4, 230, 2)],
    "aurium-lancers": [(6, 100, 0), (9, 150, 0), (12, 200, 1)],
    "conscripts": [(5, 35, 0), (10, 80, 0), (15, 125, 0)],
    "banes": [(1, 75, 1), (2, 150, 2), (3, 300, 3)],
    "maelstrom-warmonger": [(1, 400, 5)],
    "air-herald": [],
    "earth-overlord": [],
    "ward": [(1, 25, 0)],
    "fir-the-free": [(1, 25, 1)],
}


@pytest.mark.parametrize("key", OPTIONS)
def test_recruitment_options_spot_checks(catalog, key):
    assert [(o.size, o.ap, o.rarity) for o in catalog.units[key].sizes] == OPTIONS[key]


def test_row_names_and_notes(catalog):
    assert catalog.units["maelan"].name == "Maëlan"
    assert catalog.units["fantom"].name == "Fantöm"
    assert catalog.unit("Maëlan").key == "maelan"
    assert catalog.units["quaestor-kalirus"].profile is None
    text = (resources.files("rulesets.drakerys") / "data" / "recruitment.toml").read_bytes()
    rows = tomllib.loads(text.decode())["recruitment"]
    assert rows["fire-herald"]["notes"].startswith("Blaze: A Warrior in every Allied Unit within 20 cm")
    assert "<" not in "".join(r.get("notes", "") for r in rows.values())
    assert all(r["source"].startswith("seed 002, RECRUITMENT TABLE, ") for r in rows.values())


def test_size_options_and_the_sheet(catalog):
    crows = catalog.units["crows"]
    assert crows.size_option(12).ap == 160 and crows.size_option(6).rarity == 0
    with pytest.raises(RulesError, match="Crows cannot be recruited 7 strong; the rulebook allows 6, 9, 12"):
        crows.size_option(7)
    spearmen = catalog.units["spearmen"]
    assert spearmen.sizes == ()
    assert [(o.size, o.ap, o.rarity) for o in spearmen.all_sizes()] == [(10, 110, 0)]
    assert spearmen.size_option(10).ap == 110
    celeste = catalog.units["celeste"]
    assert celeste.size_option(1).rarity == 1 and celeste.sheet.rarity == 2


# --- data quirks --------------------------------------------------------------------------------

#: Every quirk of RULES.md §1 and of the sheets, on the unit it concerns: (key, words of the quirk).
QUIRKS = [
    ("sakhil", "identical to the Warriors line"),
    ("celeste", "the unit sheet prints Rarity 2 (1 / 130 / 2) and the RECRUITMENT TABLE Rarity 1"),
    ("spearmen", "no row in the RECRUITMENT TABLE; the unit sheet's 10 / 110 / 0"),
    ("spearmen", "equals the RECRUITMENT TABLE's Irosia Lancers 10-size row (line 2033)"),
    ("warriors", "army list (line 1259) prints Size 14 in its header, but its unit sheets"),
    ("rockthrowers", "add up to 16; its AP 465 and Rarity 4 agree"),
    ("sakhil", "ASHRAL ORCS army list"),
    ("bloodseekers", "ASHRAL ORCS army list"),
    ("rockthrowers", "printed in French: Arme de Tir = Ranged Weapon"),
    ("rockthrowers", "Rocks: the Rockthrowers sheet prints Rocks with Force (Strength) 3"),
    ("bloodseekers", "PROFILE section's caption of the Bloodseeker card mislabels the columns"),
    ("noctis", 'Crossbow: the Noctis sheet prints the special rule as "Only 1 Shoot per Activation."'),
    ("crossbowmen", 'Repeating crossbow: the Crossbowmen sheet prints "/"'),
    ("irosia-bowmen", '"HUMANS: THE EMPIRE OF TROSIA"'),
    ("irosia-bowmen", '"IROSIA PALADINATE"'),
    ("salik", 'skill printed "Parrying": SKILLS names it Parry'),
    ("salik", 'skill printed "Saving", which SKILLS does not define: read as Safeguard'),
    ("crows", 'skill printed "Escort", which SKILLS does not define: read as Guard'),
    ("crows", "(an interpretation)"),
    ("noctis", 'skill printed "Quick Shoot": SKILLS names it Quick Shot'),
    ("noctis", 'skill "Camouflage" makes Sceneries procure Concealment'),
    ("rockthrowers", 'skill printed "Heavy-Loaded", which SKILLS does not define: read as Jammed'),
    ("spearmen", "the only Skill that burdens a Unit's Charge (an interpretation)"),
    ("crushers", 'skill printed "Intimidation", which SKILLS does not define: kept, with no modelled effect'),
    ("irosia-bowmen", 'skill printed "Shooting/Bow": SKILLS names it Shooter/X'),
    ("slaves", "only one option is printed"),
    ("water-overlord", '"the Fire Overlord is withdrawn from the Battlefield"'),
    ("maelan", '"Maëla"'),
    ("prisoner-cage", "set to 0"),
]


@pytest.mark.parametrize(("key", "words"), QUIRKS)
def test_quirk_is_on_the_unit_it_concerns(catalog, key, words):
    assert any(words in q for q in catalog.units[key].quirks), catalog.units[key].quirks


def test_every_printed_variant_is_flagged_where_printed(catalog):
    variants = ("Parrying", "Saving", "Escort", "Quick Shoot", "Heavy-Loaded", "Intimidation", "Camouflage",
                "Shooting/")
    for unit in catalog.with_profiles():
        for printed in unit.skills_as_printed:
            for variant in variants:
                if printed.startswith(variant):
                    assert any(f'"{printed}"' in q for q in unit.quirks), (unit.key, printed)


def test_sheets_agree_with_the_table_except_celeste(catalog):
    for key in SHEETS:
        unit = catalog.units[key]
        if key == "spearmen":
            continue
        table = unit.size_option(unit.sheet.size)
        agree = (table.ap, table.rarity) == (unit.sheet.ap, unit.sheet.rarity)
        assert agree == (key != "celeste"), key


def test_every_trosia_row_carries_the_spelling_quirk(catalog):
    humans = [u for u in catalog.units.values() if "HUMANS: THE EMPIRE OF TROSIA" in u.source]
    assert len(humans) == 13
    assert all(any("TROSIA" in q and "Irosia" in q for q in u.quirks) for u in humans)
    assert "IROSIA PALADINATE" in catalog.units["irosia-bowmen"].source
    assert "HUMANS: THE EMPIRE OF TROSIA" in catalog.units["irosia-bowmen"].source


def test_packaged_entries_name_their_source():
    folder = resources.files("rulesets.drakerys") / "data"
    for table in ("units", "weapons", "recruitment"):
        name = f"{table}.toml"
        entries = tomllib.loads((folder / name).read_bytes().decode())[table]
        assert all(e["source"].startswith("seed 002, ") for e in entries.values()), name


# --- lookups ------------------------------------------------------------------------------------

def test_unit_lookup_by_key_name_typo_and_ambiguity(catalog):
    assert catalog.unit("Gold Keepers").key == "gold-keepers"
    assert catalog.unit(" CROWS ").key == "crows"
    with pytest.raises(RulesError, match=r"(?i)unknown unit .Crowz.; did you mean .*\bcrows\b"):
        catalog.unit("Crowz")
    with pytest.raises(RulesError, match="ambiguous; use avaren-bowmen or irosia-bowmen"):
        catalog.unit("Bowmen")
    with pytest.raises(RulesError, match="aurium-lancers|irosia-lancers"):
        catalog.unit("lancers")


# --- loader: validation -------------------------------------------------------------------------

def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def toml_file(path: Path, **tables) -> Path:
    """Write ``{table: {key: {field: value}}}`` as TOML to ``path``."""
    lines = []
    for table, entries in tables.items():
        for key, fields in entries.items():
            lines.append(f"[{table}.{key}]")
            lines += [f"{k} = {toml_value(v)}" for k, v in fields.items()]
            lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def crows_sheet(**changes):
    sheet = {"name": "Crows", "faction": "Avaren", "types": ["Infantry"],
             "skills": ["Swashbuckler", "Escort"],
             "sheet": {"size": 12, "ap": 160, "rarity": 1},
             "profile": {"actions": 2, "power": 1, "health": 1, "initiative": 4, "combat": 3, "shooting": "-",
                         "strength": 2, "resistance": 3, "willpower": 3, "march": 10, "charge": 15},
             "source": "test"}
    for key, value in changes.items():
        if key.startswith("profile_"):
            sheet["profile"] = {**sheet["profile"], key.removeprefix("profile_"): value}
        else:
            sheet[key] = value
    return sheet


def crows_row(ap_12=160, **changes):
    return {"name": "Crows", "faction": "Avaren",
            "options": [{"size": 6, "ap": 80, "rarity": 0}, {"size": 9, "ap": 120, "rarity": 0},
                        {"size": 12, "ap": ap_12, "rarity": 1}], "source": "test", **changes}


def load_error(path: Path) -> str:
    with pytest.raises(CatalogError) as info:
        load([path])
    message = str(info.value)
    assert "\n" not in message
    assert isinstance(info.value, RulesError)
    return message


def test_power_two_names_file_entry_and_key(tmp_path):
    path = toml_file(tmp_path / "my.toml", units={"crows": crows_sheet(profile_power="two")})
    assert load_error(path) == f'{path}: units.crows: profile.power: expected a whole number, got "two"'


def test_toml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('[units.crows]\nname = "Crows"\nfaction = Avaren\n', encoding="utf-8")
    message = load_error(path)
    assert message.startswith(f"{path}: line 3, column 11: invalid TOML: ")


BAD = {
    "unknown key": ({"units": {"crows": crows_sheet(colour="black")}},
                    "units.crows: colour: unknown key; accepted: name, faction, types, skills, profile"),
    "missing key": ({"units": {"crows": {k: v for k, v in crows_sheet().items() if k != "profile"}}},
                    "units.crows: profile: required key missing"),
    "wrong type": ({"units": {"crows": crows_sheet(faction=3)}},
                   "units.crows: faction: expected text, got 3"),
    "list of text": ({"units": {"crows": crows_sheet(skills="Reach")}},
                     'units.crows: skills: expected a list of text, got "Reach"'),
    "bool for int": ({"units": {"crows": crows_sheet(profile_actions=True)}},
                     "units.crows: profile.actions: expected a whole number, got true"),
    "negative AP": ({"recruitment": {"crows": crows_row(ap_12=-5)}},
                    "recruitment.crows: options[2].ap: expected a whole number >= 1, got -5"),
    # a unit costing nothing would divide every per-AP figure by zero (nan and blank cells before)
    "zero AP": ({"recruitment": {"crows": crows_row(ap_12=0)}},
                "recruitment.crows: options[2].ap: expected a whole number >= 1, got 0"),
    "negative rarity": ({"recruitment": {"crows": crows_row(options=[{"size": 6, "ap": 80, "rarity": -1}])}},
                        "recruitment.crows: options[0].rarity: expected a whole number >= 0, got -1"),
    "size zero": ({"recruitment": {"crows": crows_row(options=[{"size": 0, "ap": 80, "rarity": 0}])}},
                  "recruitment.crows: options[0].size: expected a whole number >= 1, got 0"),
    "same size twice": ({"recruitment": {"crows": crows_row(options=[{"size": 6, "ap": 80,
                                                                       "rarity": 0}] * 2)}},
                        "recruitment.crows: options[1].size: size 6 is given twice"),
    "characteristic 21": ({"units": {"crows": crows_sheet(profile_combat=21)}},
                          "units.crows: profile.combat: expected a whole number from 0 to 20, got 21"),
    "health zero": ({"units": {"crows": crows_sheet(profile_health=0)}},
                    "units.crows: profile.health: expected a whole number from 1 to 20, got 0"),
    "sheet size zero": ({"units": {"crows": crows_sheet(sheet={"size": 0, "ap": 160, "rarity": 1})}},
                        "units.crows: sheet.size: expected a whole number >= 1, got 0"),
    "unknown weapon in skill": ({"units": {"crows": crows_sheet(skills=["Shooting/Musket"],
                                                                profile_shooting=3)}},
                                'units.crows: skills[0]: unknown weapon "Musket" in "Shooting/Musket"; '
                                "known: bow"),
    "unknown weapon": ({"units": {"crows": crows_sheet(weapon="musket")}},
                       'units.crows: weapon: unknown weapon "musket"; known: bow, crossbow'),
    "weapon without skill": ({"units": {"crows": crows_sheet(weapon="bow")}},
                             'units.crows: weapon: "bow" but the unit has no Shooter/X skill'),
    "shooter without shooting": ({"units": {"crows": crows_sheet(skills=["Shooting/Bow"])}},
                                 "units.crows: profile.shooting: a unit with Shooter/X needs a Shooting"),
    "unknown skill": ({"units": {"crows": crows_sheet(skills=["Swashbucklr"])}},
                      'units.crows: skills[0]: unknown skill "Swashbucklr"; did you mean Swashbuckler?'),
    "skill without value": ({"units": {"crows": crows_sheet(skills=["Authority"])}},
                            'units.crows: skills[0]: cannot read skill "Authority": Authority needs a value'),
    "unparseable skill": ({"units": {"crows": crows_sheet(skills=["Reach [[2]"])}},
                          'units.crows: skills[0]: cannot read skill "Reach [[2]"'),
    "value on a plain skill": ({"units": {"crows": crows_sheet(skills=["Reach [2]"])}},
                               'units.crows: skills[0]: cannot read skill "Reach [2]": Reach takes no '
                               "[value]"),
    "unknown type": ({"units": {"crows": crows_sheet(types=["Dragon"])}},
                     'units.crows: types[0]: unknown type "Dragon"; accepted: Infantry'),
    "awakened without value": ({"units": {"crows": crows_sheet(types=["Awakened"])}},
                               "units.crows: types[0]: Awakened needs its value"),
    "weapon range zero": ({"weapons": {"sling": {"name": "Sling", "max_range_cm": 0, "strength": 2,
                                                 "saturation": 1}}},
                          "weapons.sling: max_range_cm: expected a whole number >= 1, got 0"),
    "weapon strength text": ({"weapons": {"sling": {"name": "Sling", "max_range_cm": 20, "strength": "two",
                                                    "saturation": 1}}},
                             'weapons.sling: strength: expected a whole number or "warrior"'),
    "name differs from row": ({"units": {"crows": crows_sheet(name="Ravens")}},
                              'units.crows: name: "Ravens" differs from "Crows" in rulesets/drakerys/data/'
                              "recruitment.toml: recruitment.crows"),
    "bad key": ({"units": {"Crows": crows_sheet()}}, "units.Crows: a key is a lower-case slug of the name"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_catalog_gives_one_line_naming_file_entry_and_key(tmp_path, case):
    tables, expected = BAD[case]
    path = toml_file(tmp_path / "my.toml", **tables)
    assert load_error(path).startswith(f"{path}: {expected}")


def test_unknown_table_and_unreadable_file(tmp_path):
    path = tmp_path / "my.toml"
    path.write_text('[unit.crows]\nname = "Crows"\n', encoding="utf-8")
    assert load_error(path) == f"{path}: unit: unknown table; accepted: units, weapons, recruitment"
    path.write_bytes(b'[units.crows]\nname = "\xff"\n')
    assert load_error(path).startswith(f"{path}: not UTF-8 text")
    assert load_error(tmp_path / "absent.toml").startswith(f"{tmp_path / 'absent.toml'}: cannot read")


# --- loader: user catalogs on top of the packaged one ------------------------------------------

def test_user_file_replaces_an_entry_and_leaves_the_others(catalog, tmp_path):
    path = toml_file(tmp_path / "cheaper.toml", recruitment={"crows": crows_row(ap_12=150)})
    mine = load([path])
    assert mine.units["crows"].size_option(12).ap == 150
    assert mine.units["crows"].size_option(9).ap == 120
    assert mine.units["crows"].profile == catalog.units["crows"].profile
    assert mine.units["crows"].size_option(12).source == "test"
    assert {k: u for k, u in mine.units.items() if k != "crows"} == \
        {k: u for k, u in catalog.units.items() if k != "crows"}
    assert mine.weapons == catalog.weapons
    assert str(path) in mine.source


def test_user_file_adds_a_unit_and_a_weapon(tmp_path):
    bears = {"name": "War Bears", "faction": "Ashral", "types": ["Monster"],
             "skills": ["Brutal Charge", "Shooter/Sling"],
             "profile": {"actions": 2, "power": 3, "health": 4, "initiative": 2, "combat": 4, "shooting": 1,
                         "strength": 5, "resistance": 5, "willpower": 4, "march": 15, "charge": 20},
             "source": "house rule"}
    sling = {"name": "Sling", "max_range_cm": 25, "strength": "warrior", "saturation": 1,
             "quirks": ["homebrew"]}
    row = {"name": "War Bears", "faction": "Ashral", "options": [{"size": 2, "ap": 190, "rarity": 2}]}
    path = toml_file(tmp_path / "bears.toml", units={"war-bears": bears}, weapons={"sling": sling},
                     recruitment={"war-bears": row})
    mine = load([path])
    unit = mine.unit("War Bears")
    assert unit.profile.strength == 5 and unit.profile.charge == 20
    assert unit.skills == ("brutal_charge", "shooter", "dreadful")  # Monsters have Dreadful
    assert unit.weapon == "sling" and mine.weapons["sling"].strength is None
    assert unit.quirks == ("Sling: homebrew",)
    assert [(o.size, o.ap, o.rarity) for o in unit.sizes] == [(2, 190, 2)]
    assert unit.size_option(2).source == f"{path}: recruitment.war-bears"  # no source: the file and entry
    assert len(mine.units) == 69


def test_skills_with_values_from_the_skills_section(tmp_path):
    skills = ["War Cry [3]", "Sacrifice [4]", "Source of Fire / [2]", "Deadly Blow", "Guard"]
    path = toml_file(tmp_path / "skills.toml", units={"crows": crows_sheet(skills=skills)})
    crows = load([path]).units["crows"]
    assert crows.skills == ("war_cry", "sacrifice", "source_of_fire", "deadly_blow", "guard")
    assert crows.skill_values == {"war_cry": 3, "sacrifice": 4, "source_of_fire": 2}
    assert not any("skill" in q for q in crows.quirks)  # the SKILLS section's own names are no quirk


def test_fixing_the_data_clears_the_derived_quirk(tmp_path):
    row = {"name": "Celeste", "faction": "Irosia", "options": [{"size": 1, "ap": 130, "rarity": 2}]}
    mine = load([toml_file(tmp_path / "fix.toml", recruitment={"celeste": row})])
    assert not any("Rarity" in q for q in mine.units["celeste"].quirks)
    assert not any("TROSIA" in q for q in mine.units["celeste"].quirks)  # the row was replaced as a whole


def test_later_files_win(tmp_path):
    first = toml_file(tmp_path / "a.toml", recruitment={"crows": crows_row(ap_12=150)})
    second = toml_file(tmp_path / "b.toml", recruitment={"crows": crows_row(ap_12=140)})
    assert load([first, second]).units["crows"].size_option(12).ap == 140


# --- balance units drakerys ---------------------------------------------------------------------

def test_cli_csv_one_tidy_row_per_unit(capsys):
    code, out, err = run(capsys, "units", "drakerys", "--format", "csv")
    assert code == 0
    df = pd.read_csv(io.StringIO(out), keep_default_na=False)
    assert len(df) == 68
    assert list(df.columns[:6]) == ["key", "name", "faction", "types", "skills", "canonical_skills"]
    crows = df.set_index("key").loc["crows"]
    assert [int(crows[c]) for c in ("actions", "power", "health", "initiative", "combat")] == [2, 1, 1, 4, 3]
    assert crows["shooting"] == "-" and int(crows["charge"]) == 15
    assert crows["sizes"] == "6/80/0; 9/120/0; 12/160/1" and crows["sheet"] == "12/160/1"
    assert crows["skills"] == "Swashbuckler, Escort"
    assert "read as Guard" in crows["quirks"]
    assert df.set_index("key").loc["spearmen", "sizes"] == "10/110/0"
    assert "CSV holds the 'units' table only" in err


def test_cli_profiled_shows_units_with_a_profile(capsys):
    code, out, _ = run(capsys, "units", "drakerys", "--profiled", "--format", "csv")
    assert code == 0
    df = pd.read_csv(io.StringIO(out), keep_default_na=False)
    assert set(df["key"]) == {*SHEETS, "prisoner-cage"}


def test_cli_json_has_units_quirks_and_weapons(capsys):
    code, out, _ = run(capsys, "units", "drakerys", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc["sections"]) == {"units", "quirks", "weapons"}
    quirks = {(q["key"], q["quirk"]) for q in doc["sections"]["quirks"]}
    assert any(k == "sakhil" and "Warriors line" in q for k, q in quirks)
    assert any(k == "celeste" and "Rarity 2" in q for k, q in quirks)
    assert len(doc["sections"]["weapons"]) == 6
    salik = next(u for u in doc["sections"]["units"] if u["key"] == "salik")
    assert salik["power"] == 3 and salik["types"] == "Awakened [2], Hero, Infantry"


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "html"])
def test_cli_readable_formats_show_units_and_quirks(capsys, fmt):
    # the table format wraps long cells within 100 columns; --wide keeps each row on one line
    code, out, _ = run(capsys, "units", "drakerys", "--format", fmt, *(["--wide"] if fmt == "table" else []))
    assert code == 0
    assert "Data quirks" in out
    assert "Gold Keepers" in out and "Maelstrom Warmonger" in out
    assert "Rockthrowers" in out and "French" in out
    assert "2 1 1 4 3/- 2 3 3 10/15" in out


def test_cli_output_file(capsys, tmp_path):
    target = tmp_path / "units.md"
    code, out, _ = run(capsys, "units", "drakerys", "--profiled", "--format", "markdown",
                       "--output", str(target))
    assert code == 0 and out == ""
    assert "| crows | Crows | Avaren |" in target.read_text(encoding="utf-8")


def test_cli_catalog_override(capsys, tmp_path):
    path = toml_file(tmp_path / "cheaper.toml", recruitment={"crows": crows_row(ap_12=150)})
    code, out, _ = run(capsys, "units", "drakerys", "--catalog", str(path), "--format", "csv")
    assert code == 0
    df = pd.read_csv(io.StringIO(out), keep_default_na=False).set_index("key")
    assert df.loc["crows", "sizes"] == "6/80/0; 9/120/0; 12/150/1"


def test_cli_bad_catalog_is_one_line_exit_1(capsys, tmp_path):
    path = toml_file(tmp_path / "my.toml", units={"crows": crows_sheet(profile_power="two")})
    code, out, err = run(capsys, "units", "drakerys", "--catalog", str(path))
    assert code == 1 and out == ""
    assert err == f'balance: error: {path}: units.crows: profile.power: expected a whole number, got "two"\n'


def test_cli_missing_catalog_file_and_plot_are_usage_errors(capsys, tmp_path):
    code, _, err = run(capsys, "units", "drakerys", "--catalog", str(tmp_path / "absent.toml"))
    assert code == 2 and "absent.toml" in err and err.count("\n") == 1
    code, _, err = run(capsys, "units", "drakerys", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and "No such option '--plot'" in err
    assert not (tmp_path / "x.png").exists()


def test_ashral_army_list_header_against_its_sheets(catalog):
    """The quirk's numbers, from the catalog: the four Ashral sheets add up to 16 warriors, 465 AP and
    Rarity 4, where the army list's header prints 14 / 465 / 4."""
    sheets = [catalog.units[k].sheet for k in ("warriors", "rockthrowers", "sakhil", "bloodseekers")]
    totals = (sum(s.size for s in sheets), sum(s.ap for s in sheets), sum(s.rarity for s in sheets))
    assert totals == (16, 465, 4)


def test_spearmen_sizes_ruling_offers_the_lancers_row_without_changing_the_data(catalog):
    from rulesets.drakerys import RULESET, DrakerysRulings

    lancers = DrakerysRulings().with_assignments(["DK-spearmen-sizes=lancers"])
    read = RULESET.catalog_for(catalog, lancers)
    spearmen = read.units["spearmen"]
    sizes = [(o.size, o.ap, o.rarity) for o in spearmen.all_sizes()]
    assert sizes == [(5, 50, 0), (10, 110, 0), (15, 175, 1)]
    assert "DK-spearmen-sizes=lancers" in spearmen.quirks[-1]
    assert catalog.units["spearmen"].sizes == ()  # the printed data is unchanged
    assert RULESET.catalog_for(catalog, DrakerysRulings()) is catalog
    keys = [c.key for c in RULESET.contestants(read, ["spearmen"])]
    assert keys == ["spearmen@5", "spearmen@10", "spearmen@15"]
    assert [c.key for c in RULESET.contestants(catalog, ["spearmen"])] == ["spearmen@10"]
