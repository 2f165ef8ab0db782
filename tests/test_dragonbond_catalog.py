"""The Dragonbond catalog against the beta rulebook (seed 000, ../shared/seeds/000_c0897a60c1579de5.txt):
every printed fact as the text gives it, every cited line checked against the seed file, every other value
marked illustrative, the quirks, the loader's validation (one line naming unit, field and value) and user
catalogs applied over the packaged one."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from rulesets.base import RulesError, source_lines
from rulesets.dragonbond.catalog import (
    PACKAGE_FILE,
    CatalogError,
    Unit,
    load,
)
from rulesets.dragonbond.dice import DEFENSE, Pool, modified, parse_pool

SEED_NAME = "000_c0897a60c1579de5.txt"


def _seed_path() -> Path | None:
    for folder in (Path(__file__).resolve().parents[2] / "shared" / "seeds",):
        if (folder / SEED_NAME).is_file():
            return folder / SEED_NAME
    return None


@pytest.fixture(scope="module")
def catalog():
    return load()


@pytest.fixture(scope="module")
def seed() -> list[str]:
    """The rulebook's lines; ``seed[n]`` is line n (1-based, as cited)."""
    path = _seed_path()
    if path is None:
        pytest.skip(f"the rulebook {SEED_NAME} is not beside the repository (../shared/seeds)")
    return ["", *path.read_text(encoding="utf-8").splitlines()]


def cited(seed: list[str], source: str) -> str:
    lines = source_lines(source)
    assert all(1 <= n < len(seed) for n in lines), f"{source} is beyond the rulebook's {len(seed) - 1} lines"
    return "\n".join(seed[n] for n in lines)


# --- the units the rulebook names --------------------------------------------------------------------

#: Every unit, general, dragon and creature the rulebook names, with the line that first names it.
NAMED = {
    "bucentaur-blades": ("Bucentaur Blades", 424),
    "ogerron-phalanx": ("Ogerron Phalanx", 706),
    "skorpikon-gore-lancers": ("Skorpikon Gore-Lancers", 562),
    "oathguard-duelists": ("Oathguard Duelists", 490),
    "blooded-claws": ("Blooded Claws", 490),
    "skorpikon-reavers": ("Skorpikon Reavers", 537),
    "dreamshaper-casters": ("Dreamshaper Casters", 541),
    "nagasha": ("Nagasha", 973),
    "oathguard-halberdiers": ("Oathguard Halberdiers", 317),
    "kirin-wardens": ("Kirin Wardens", 403),
    "ferellon-fulgen": ("Ferellon Fulgen", 319),
    "dragon-queen": ("Dragon Queen", 1003),
    "blood-emperor": ("Blood Emperor", 1011),
    "great-wyrm": ("Great wyrm", 55),
}


def test_every_named_unit_is_in_the_catalog_and_nothing_else(catalog, seed):
    assert set(catalog.units) == set(NAMED)
    for key, (name, line) in NAMED.items():
        assert catalog.units[key].name == name
        assert name in seed[line], (key, line)
    # the only named captain is Commander Leonise, of the Oathguard Halberdiers (317)
    assert "led by Commander Leonise" in seed[317]
    assert catalog.units["oathguard-halberdiers"].captain.name == "Commander Leonise"


# --- printed facts, as the text gives them -----------------------------------------------------------


def test_blades_speed_8_line_424(catalog, seed):
    blades = catalog.unit("bucentaur-blades")
    assert "the Blades' normal speed of 8" in seed[424]
    assert blades.speed == 8 and blades.sources["speed"] == "line 424"
    assert "speed" not in blades.illustrative
    # two tokens beside the unit: 8 - 2 = 6 inches (424)
    assert blades.speed - 2 == 6


def test_blades_roll_4_grey_and_2_black_with_two_models_line_726(catalog, seed):
    blades = catalog.unit("bucentaur-blades")
    assert "two living models" in seed[726] and "4 grey dice and 2 black dice" in seed[726]
    melee = blades.melee
    assert melee is not None and melee.kind == "melee" and blades.ranged is None
    assert melee.pool(2) == parse_pool("4G 2B")
    assert melee.dice == parse_pool("2G 1B") and melee.pool(3) == parse_pool("6G 3B")
    assert blades.sources["weapons[0].dice"] == "line 726"
    assert blades.at_least["models"] == 2 and blades.models >= 2 and "models" in blades.illustrative


def test_duelists_speed_9_charge_11_line_490(catalog, seed):
    duelists = catalog.unit("oathguard-duelists")
    assert "her Duelists have a speed of 9" in seed[490] and "11 (9 + 2) inches" in seed[492]
    assert duelists.speed == 9 and duelists.sources["speed"] == "line 490"
    assert duelists.speed + 2 == 11  # 2 successes on the charge roll


def test_claws_7_models_are_6_plus_their_captain_line_789(catalog, seed):
    claws = catalog.unit("blooded-claws")
    assert "the Blooded Claws have 7 models; they have 6 standard models plus their captain" in seed[789]
    assert claws.models == 7 == 6 + 1 and claws.sources["models"] == "line 789"
    assert claws.captain is not None and claws.sources["captain"] == "line 789"
    assert "captain.name" in claws.illustrative  # the captain's name is not printed


def test_gore_lancers_roll_3_grey_and_3_white_line_562(catalog, seed):
    lancers = catalog.unit("skorpikon-gore-lancers")
    assert "roll 3 grey dice and 3 white dice" in seed[562] and "roll 5 white dice" in seed[562]
    lances = lancers.melee
    assert lances.name == "Lances" and lances.dice is None
    assert lances.unit_dice == parse_pool("3G 3W")
    assert lances.pool(1) == lances.pool(3) == parse_pool("3G 3W")  # the whole unit's roll
    # two tokens beside the unit: 2 x 2 = 4 downgrades -> 5 white dice (562; colour words garbled)
    assert modified(lances.pool(3), down=4) == parse_pool("5W")
    assert "weapons[0].kind" in lancers.illustrative  # "with their lances": melee is a reading


def test_phalanx_defense_1_die_per_hit_line_745(catalog, seed):
    phalanx = catalog.unit("ogerron-phalanx")
    assert "their defense stat is 1" in seed[745] and "roll 2 grey dice" in seed[745]
    assert phalanx.defense == 1 and phalanx.sources["defense"] == "line 745"
    assert phalanx.defense_pool(2).size == 2  # two non-critical hits -> 2 dice
    assert phalanx.defense_pool(2).kind == DEFENSE
    assert "defense_die" in phalanx.illustrative  # printed "grey": not a defense colour
    assert phalanx.at_least["models"] == 2


def test_nagasha_is_huge_with_at_least_3_injury_slots_line_973(catalog, seed):
    nagasha = catalog.unit("Nagasha")
    assert "Nagasha has received two injuries" in seed[973] and "she attacks, defends" in seed[973]
    huge = nagasha.keywords.huge
    assert huge is not None and huge.injury_slots >= 3 and huge.health == nagasha.health
    assert nagasha.at_least["keywords.huge.injury_slots"] == 3
    assert nagasha.sources["at_least.keywords.huge.injury_slots"] == "line 973"
    assert {"keywords.huge.injury_slots", "keywords.huge.health"} <= nagasha.illustrative
    assert nagasha.captain is None  # Huge creatures have archetype cards, not captains (303)


def test_dreamshaper_casters_rest_removes_all_fatigue_line_543(catalog, seed):
    casters = catalog.unit("dreamshaper-casters")
    assert casters.rest_removes_all and casters.sources["rest_removes_all"] == "line 543"
    assert [u.key for u in catalog.units.values() if u.rest_removes_all] == ["dreamshaper-casters"]
    (power,) = casters.powers
    assert power.name == "Restful Dream" and f'"{power.name}"' in seed[541]
    assert power.text == seed[543].strip()
    assert power.timing == "reaction" and not power.modelled
    assert "powers[0].fatigue" in casters.illustrative  # the cost is not printed


def test_reavers_throw_javelins_line_537(catalog, seed):
    reavers = catalog.unit("skorpikon-reavers")
    assert "ranged attack with the reavers javelins" in seed[537]
    javelins = reavers.ranged
    assert javelins is not None and javelins.name == "Javelins" and reavers.melee is None
    assert reavers.sources["weapons[0].name"] == reavers.sources["weapons[0].kind"] == "line 537"
    assert {"weapons[0].dice", "weapons[0].range"} <= reavers.illustrative


def test_generals_ride_and_dragons_are_huge(catalog, seed):
    pairs = (("dragon-queen", "ferellon-fulgen", 1003), ("blood-emperor", "nagasha", 1011))
    for general, dragon, line in pairs:
        g, d = catalog.units[general], catalog.units[dragon]
        assert g.name in seed[line] and d.name.split()[0] in seed[line]
        assert g.keywords.dragonriding and g.captain is None and g.keywords.huge is None
        assert d.keywords.huge is not None and not d.keywords.dragonriding and d.captain is None
    assert "huge creature" in seed[313] and "Ferellon Fulgen" in seed[319]


# --- sources: every cited line says what it is cited for ----------------------------------------------

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                9: "nine", 10: "ten"}
COLOUR_WORDS = {"W": "white", "G": "grey", "B": "black"}


def _value(unit: Unit, path: str):
    """The value at ``path`` (``speed``, ``keywords.huge``, ``weapons[0].dice``, ``captain.name``)."""
    if m := re.match(r"^(weapons|powers)\[(\d+)\]\.(\w+)$", path):
        return getattr(getattr(unit, m[1])[int(m[2])], m[3])
    if path.startswith("captain."):
        return getattr(unit.captain, path.split(".", 1)[1])
    if path == "captain":
        return unit.captain
    if path.startswith("keywords.huge."):
        return getattr(unit.keywords.huge, path.rsplit(".", 1)[1])
    if path.startswith("keywords."):
        return getattr(unit.keywords, path.split(".", 1)[1])
    return getattr(unit, path)


def value_evidence(unit: Unit, path: str, text: str) -> bool:
    """Whether ``text`` states the value at ``path``: the number (digits or a word), the name, the
    keyword, each colour of a pool (with its count for a whole-unit pool), the power text verbatim."""
    low = text.lower()
    if path.startswith("at_least."):
        least = unit.at_least[path.removeprefix("at_least.")]
        # "two living models" -> at least 2; "received two injuries" (alive) -> at least 3 slots
        return any(re.search(rf"\b({n}|{NUMBER_WORDS.get(n, n)})\b", low) for n in (least, least - 1))
    if path.startswith("keywords."):
        return path.split(".")[1] in low
    if path == "captain":
        return "captain" in low
    if path == "rest_removes_all":
        return "rest" in low and "remove all" in low
    value = _value(unit, path)
    if path.endswith(".text"):
        return value in text
    if isinstance(value, Pool):
        for letter, count in zip("WGB", value.counts, strict=True):
            wanted = f"{count} {COLOUR_WORDS[letter]}" if path.endswith("unit_dice") else COLOUR_WORDS[letter]
            if count and wanted not in low:
                return False
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return re.search(rf"\b({value}|{NUMBER_WORDS.get(value, value)})\b", low) is not None
    return str(value).lower() in low


def mentions_unit(unit: Unit, text: str) -> bool:
    low = text.lower()
    return any(word.lower() in low for word in re.split(r"[\s-]+", unit.name) if len(word) >= 4)


#: Sources whose lines name the unit but not the value in words: each is a reading of the text.
READINGS = {
    # "if any of the reavers models are killed by this" (537): more than one model.
    ("skorpikon-reavers", "at_least.models"): "plural models (537)",
}


def _all_sources(catalog):
    return [(key, path) for key, unit in catalog.units.items() for path in unit.sources]


@pytest.mark.parametrize("key, path", _all_sources(load()))
def test_every_cited_line_states_the_value_or_names_the_unit(catalog, seed, key, path):
    unit = catalog.units[key]
    text = cited(seed, unit.sources[path])
    if (key, path) in READINGS:
        assert mentions_unit(unit, text), (key, path, text)
        assert not value_evidence(unit, path, text), "the value is stated: no longer a reading"
        return
    assert value_evidence(unit, path, text), f"{key}: {path} = {_value(unit, path)!r} not in {text!r}"


def test_sources_name_every_unit_on_its_name_line(catalog, seed):
    for unit in catalog.units.values():
        assert unit.name in cited(seed, unit.sources["name"]), unit.key


def test_source_line_notation():
    assert source_lines("line 424") == (424,)
    assert source_lines("lines 539-541") == (539, 540, 541)
    assert source_lines("lines 490, 498") == (490, 498)
    with pytest.raises(RulesError, match="page 3"):
        source_lines("page 3")


# --- illustrative values -----------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(NAMED))
def test_every_value_is_either_printed_or_illustrative(catalog, key):
    unit = catalog.units[key]
    printed = {p for p in unit.sources if not p.startswith("at_least.")}
    assert printed | unit.illustrative == unit.value_paths
    assert not printed & unit.illustrative
    assert unit.is_illustrative
    for path in unit.at_least:
        assert f"at_least.{path}" in unit.sources


def test_every_cost_is_positive_and_illustrative_and_every_unit_has_a_weapon(catalog):
    for unit in catalog.units.values():
        assert unit.cost > 0 and isinstance(unit.cost, float)
        assert "cost" in unit.illustrative and "cost" not in unit.sources
        assert unit.melee is not None or unit.ranged is not None


def test_the_few_printed_values(catalog):
    """Everything else in the catalog is illustrative: the printed values, by unit."""
    printed = {key: {p: s for p, s in u.sources.items() if p not in ("name", "captain")}
               for key, u in catalog.units.items()}
    assert printed == {
        "bucentaur-blades": {"speed": "line 424", "weapons[0].kind": "line 706",
                             "weapons[0].dice": "line 726", "at_least.models": "line 726"},
        "oathguard-duelists": {"speed": "line 490", "weapons[0].kind": "lines 490, 498"},
        "oathguard-halberdiers": {"captain.name": "line 317"},
        "dragon-queen": {"keywords.dragonriding": "lines 999, 1003"},
        "ferellon-fulgen": {"keywords.huge": "lines 313-319"},
        "ogerron-phalanx": {"defense": "line 745", "at_least.models": "line 745"},
        "blooded-claws": {"models": "line 789"},
        "skorpikon-reavers": {"weapons[0].name": "line 537", "weapons[0].kind": "line 537",
                              "at_least.models": "line 537"},
        "skorpikon-gore-lancers": {"weapons[0].name": "line 562", "weapons[0].unit_dice": "line 562"},
        "nagasha": {"keywords.huge": "lines 971-973", "at_least.keywords.huge.injury_slots": "line 973"},
        "blood-emperor": {"keywords.dragonriding": "lines 999, 1011"},
        "dreamshaper-casters": {"rest_removes_all": "line 543", "powers[0].name": "line 541",
                                "powers[0].timing": "lines 539-541", "powers[0].text": "line 543"},
        "kirin-wardens": {},
        "great-wyrm": {},
    }


# --- quirks ------------------------------------------------------------------------------------------

QUIRKS = {
    "bucentaur-blades": ("line 726", "attack stat is 4", "4 grey dice and 2 black dice"),
    "ogerron-phalanx": ("line 745", "2 grey dice"),
    "skorpikon-gore-lancers": ("line 562", "garbled"),
    "nagasha": ("line 973", "at least 3 injury slots"),
    "skorpikon-reavers": ("line 537", "halberdiers"),
    "oathguard-duelists": ("line 537", "halberdiers", "3 red action dice"),
    "dreamshaper-casters": ("line 849", "reactions"),
    "blood-emperor": ("line 1011", "remaining half of his movement"),
}


@pytest.mark.parametrize("key", sorted(QUIRKS))
def test_quirks_are_flagged(catalog, key):
    text = " ".join(catalog.units[key].quirks)
    for words in QUIRKS[key]:
        assert words in text, (key, words)


def test_quirks_quote_the_rulebook(catalog, seed):
    """Every passage a quirk quotes with its line is on that line."""
    book = "\n".join(seed)
    for unit in catalog.units.values():
        for quirk in unit.quirks:
            for quoted in (q for q in re.findall(r'"([^"]*)"', quirk) if len(q) >= 12):
                parts = [p.strip() for p in quoted.split("...")]
                assert all(p in book for p in parts), (unit.key, quoted)


# --- the catalog's API -------------------------------------------------------------------------------


def test_unit_lookup_by_key_or_name_and_suggestions(catalog):
    assert catalog.unit("Bucentaur Blades") is catalog.units["bucentaur-blades"]
    assert catalog.unit("ogerron-phalanx").name == "Ogerron Phalanx"
    with pytest.raises(RulesError) as info:
        catalog.unit("bucentaur-blade")
    assert str(info.value) == "unknown Dragonbond unit 'bucentaur-blade'; did you mean bucentaur-blades?"
    with pytest.raises(RulesError, match="'blades'.*bucentaur-blades"):
        catalog.unit("blades")


def test_weapon_pool_needs_a_whole_number_of_models(catalog):
    melee = catalog.unit("bucentaur-blades").melee
    for bad in (0, -1, 1.5, True):
        with pytest.raises(RulesError, match="engaged models"):
            melee.pool(bad)


def test_catalog_hash_and_source(catalog):
    data = resources.files("rulesets.dragonbond").joinpath("data", PACKAGE_FILE).read_bytes()
    assert catalog.sha256 == hashlib.sha256(data).hexdigest()
    assert catalog.source == "seed 000 (rulesets/dragonbond/data/examples.toml)"


def test_loading_imports_no_numpy():
    code = ("import sys; from rulesets.dragonbond.catalog import load; load(); "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "False"


# --- user catalogs -------------------------------------------------------------------------------------


def _toml(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def toml_file(path: Path, units: dict, text: str = "") -> Path:
    lines = [text]
    for key, unit in units.items():
        lines.append(f"[units.{key}]")
        lines += [f"{k} = {_toml(v)}" for k, v in unit.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def good_unit(**changes) -> dict:
    """A valid unit; a change of None removes the key."""
    unit = {
        "name": "Test Knights", "models": 3, "health": 2, "stamina": 3, "speed": 8, "defense": 1,
        "defense_die": "white", "cost": 100,
        "weapons": [{"name": "Lances", "kind": "melee", "dice": "2G 1B"}],
        "illustrative": ["models", "health", "stamina", "speed", "defense", "defense_die", "cost",
                         "weapons[0].name", "weapons[0].kind", "weapons[0].dice"],
    }
    for key, value in changes.items():
        if value is None:
            unit.pop(key, None)
        else:
            unit[key] = value
    return unit


def test_user_catalog_replaces_a_unit_and_adds_another(catalog, tmp_path):
    blades = good_unit(name="Bucentaur Blades", speed=9, cost=120.5,
                       sources={"name": "line 424"},
                       illustrative=["models", "health", "stamina", "speed", "defense", "defense_die", "cost",
                                     "weapons[0].name", "weapons[0].kind", "weapons[0].dice"])
    path = toml_file(tmp_path / "mine.toml", {"bucentaur-blades": blades, "test-knights": good_unit()})
    mine = load(user_paths=[path])
    assert set(mine.units) == set(catalog.units) | {"test-knights"}
    replaced = mine.unit("bucentaur-blades")
    assert (replaced.speed, replaced.cost) == (9, 120.5)
    assert not replaced.keywords.sharp and replaced.captain is None
    assert replaced.origin == str(path) and mine.unit("ogerron-phalanx") == catalog.unit("ogerron-phalanx")
    knights = mine.unit("Test Knights")
    assert knights.melee.pool(2) == parse_pool("4G 2B") and knights.is_illustrative
    assert mine.sha256 != catalog.sha256 and str(path) in mine.source
    # a later user file overrides an earlier one; the packaged file can be replaced altogether
    later = toml_file(tmp_path / "later.toml", {"test-knights": good_unit(cost=50)})
    assert load(user_paths=[path, later]).unit("test-knights").cost == 50.0
    only = load(path)
    assert set(only.units) == {"bucentaur-blades", "test-knights"}


def test_packaged_file_loaded_by_path_is_the_same(catalog):
    with resources.as_file(resources.files("rulesets.dragonbond").joinpath("data", PACKAGE_FILE)) as path:
        again = load(path)
    assert again.sha256 == catalog.sha256 and again.units.keys() == catalog.units.keys()
    for key, unit in again.units.items():
        assert unit.origin == str(path)
        assert dataclasses.replace(unit, origin=catalog.units[key].origin) == catalog.units[key]


# --- validation: one line naming the unit, the field and the value -----------------------------------

W0 = {"name": "Lances", "kind": "melee", "dice": "2G 1B"}

BAD = {
    "cost zero": (good_unit(cost=0), "cost: expected a number of points > 0, got 0"),
    "cost negative": (good_unit(cost=-5.5), "cost: expected a number of points > 0, got -5.5"),
    "cost text": (good_unit(cost="cheap"), 'cost: expected a number of points > 0, got "cheap"'),
    "grey defense": (good_unit(defense_die="grey"),
                     'defense_die: unknown defense die "grey"; accepted: red, white, black (grey is an '
                     'action die)'),
    "no models": (good_unit(models=0), "models: expected a whole number from 1 to 100, got 0"),
    "negative speed": (good_unit(speed=-1), "speed: expected a whole number from 0 to 100, got -1"),
    "negative stamina": (good_unit(stamina=-2), "stamina: expected a whole number from 0 to 100, got -2"),
    "negative defense": (good_unit(defense=-1), "defense: expected a whole number from 0 to 100, got -1"),
    "health text": (good_unit(health="two"), 'health: expected a whole number, got "two"'),
    "missing speed": (good_unit(speed=None), "speed: required key missing"),
    "unknown field": (good_unit(colour="red"), "colour: unknown key; accepted: name, models, health, "
                      "stamina, speed, defense, defense_die, cost, weapons, keywords, captain, powers, "
                      "rest_removes_all, illustrative, sources, quirks, at_least, notes"),
    "bad pool": (good_unit(weapons=[{**W0, "dice": "2Q 1B"}]),
                 'weapons[0].dice: cannot read "2Q 1B": action pool term \'2Q\': accepted a count and a '
                 "colour letter (B black, G grey, W white), e.g. 2B 4G 1W"),
    "empty pool": (good_unit(weapons=[{**W0, "dice": "0G"}]),
                   'weapons[0].dice: cannot read "0G": action pool \'0G\' has no dice'),
    "pool and unit pool": (good_unit(weapons=[{**W0, "unit_dice": "3G 3W"}]),
                           "weapons[0].dice: give exactly one of dice (per model, e.g. \"2G 1B\") and "
                           "unit_dice (the whole unit's pool), got dice and unit_dice"),
    "weapon kind": (good_unit(weapons=[{**W0, "kind": "thrown"}]),
                    'weapons[0].kind: unknown weapon kind "thrown"; accepted: melee, ranged'),
    "ranged without range": (good_unit(weapons=[{**W0, "kind": "ranged"}]),
                             "weapons[0].range: required key missing (a ranged weapon needs its range in "
                             "inches)"),
    "no weapon": (good_unit(weapons=[]),
                  "weapons: expected at least one weapon (a table with name, kind and dice)"),
    "unknown keyword": (good_unit(keywords={"flyng": True}),
                        "keywords.flyng: unknown keyword; accepted: sharp, agile, reach, flying, epic, "
                        "dragonriding, huge, blocking; did you mean flying?"),
    "keyword not a flag": (good_unit(keywords={"reach": 1}), "keywords.reach: expected true or false, got 1"),
    "epic zero": (good_unit(keywords={"epic": 0}),
                  "keywords.epic: expected a whole number from 1 to 100, got 0"),
    "huge health": (good_unit(keywords={"huge": {"health": 5, "injury_slots": 3}}),
                    "keywords.huge.health: 5 differs from the unit's health 2; a Huge creature's health is "
                    "its health slots (line 965), give the same number"),
    "captain roll": (good_unit(captain={"name": "C", "health": 2, "modifiers": [{"roll": "magic", "up": 1}]}),
                     'captain.modifiers[0].roll: unknown roll type "magic"; accepted: attack, melee, ranged, '
                     "defense, melee-defense, ranged-defense"),
    "empty modifier": (good_unit(captain={"name": "C", "health": 2, "modifiers": [{"roll": "melee"}]}),
                       "captain.modifiers[0]: a modifier needs up = N or down = N (N >= 1)"),
    "power cost": (good_unit(powers=[{"name": "P", "fatigue": "X", "timing": "action", "text": "T."}]),
                   'powers[0].fatigue: expected a whole number >= 0 or "E" (Exhaustion, line 841), got "X"'),
    "power timing": (good_unit(powers=[{"name": "P", "fatigue": "E", "timing": "sometimes", "text": "T."}]),
                     'powers[0].timing: unknown timing "sometimes"; accepted: passive, action, reaction'),
    "unknown path": (good_unit(illustrative=["speeed"]),
                     'illustrative[0]: "speeed" is not a field of this unit; did you mean speed?'),
    "both": (good_unit(sources={"speed": "line 424"}),
             'sources.speed: "speed" is also listed as illustrative; a value is printed (sources) or '
             "illustrative, not both"),
    "bad source": (good_unit(sources={"name": "page 3"}),
                   'sources.name: expected "line N", "lines N-M" or "lines N, M", got "page 3"'),
    "backwards source": (good_unit(sources={"name": "lines 20-10"}),
                         'sources.name: line range "lines 20-10" runs backwards'),
    "below at_least": (good_unit(models=1, at_least={"models": 2}, sources={"at_least.models": "line 726"}),
                       "models: 1 is below 2, the least the rulebook allows (at_least.models)"),
    "at_least unsourced": (good_unit(at_least={"models": 2}),
                           'at_least.models: needs the line that implies it: sources."at_least.models" = '
                           '"line N"'),
    "weapon path": (good_unit(weapons=[{**W0, "illustrative": ["range"]}]),
                    'weapons[0].illustrative[0]: "range" is not a field of this table; accepted: name, kind, '
                    "dice"),
}


def load_error(path: Path) -> str:
    with pytest.raises(CatalogError) as info:
        load(user_paths=[path])
    message = str(info.value)
    assert "\n" not in message
    assert isinstance(info.value, RulesError)
    return message


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_catalog_gives_one_line_naming_unit_field_and_value(tmp_path, case):
    unit, expected = BAD[case]
    path = toml_file(tmp_path / "bad.toml", {"test-knights": unit})
    assert load_error(path) == f"{path}: units.test-knights: {expected}"


def test_bad_keys_tables_and_syntax(tmp_path):
    path = toml_file(tmp_path / "key.toml", {"Test_Knights": good_unit()})
    assert load_error(path) == f"{path}: units.Test_Knights: a key is a lower-case slug of the name, e.g. " \
                               "'test-knights'"
    path = toml_file(tmp_path / "table.toml", {}, text='[weapons.lances]\nname = "Lances"')
    assert load_error(path) == f"{path}: weapons: unknown table; accepted: units"
    path = tmp_path / "broken.toml"
    path.write_text('[units.test-knights]\nname = Knights\n', encoding="utf-8")
    assert load_error(path).startswith(f"{path}: line 2, column 8: invalid TOML: ")
    missing = tmp_path / "absent.toml"
    assert load_error(missing).startswith(f"{missing}: cannot read: ")
