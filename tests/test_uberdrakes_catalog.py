"""The UberDrakes catalog against the rulebook (seed 003, ../shared/seeds/003_d3c05d2602cc1972.txt) and
../shared/RULES.md §4: the spell table exactly, every printed fact with its line (each cited line checked
against the seed file), every other value marked illustrative (every price), the lookups and their one-line
errors, user files applied over the packaged one, and the loader's validation (one line naming file, entry
and key)."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.base import RulesError, source_lines
from rulesets.uberdrakes.catalog import (
    HOARD_ITEMS,
    PACKAGE_LABEL,
    QUOTE_SEPARATOR,
    CatalogError,
    Item,
    load,
)
from rulesets.uberdrakes.rules import UberDrakesRulings

SEED_NAME = "003_d3c05d2602cc1972.txt"
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="module")
def catalog():
    return load()


@pytest.fixture(scope="module")
def seed() -> list[str]:
    """The rulebook's lines; ``seed[n]`` is line n (1-based, as cited)."""
    path = SHARED / "seeds" / SEED_NAME
    if not path.is_file():
        pytest.skip(f"the rulebook {SEED_NAME} is not beside the repository (../shared/seeds)")
    return ["", *path.read_text(encoding="utf-8").splitlines()]


def cited(seed: list[str], source: str) -> str:
    """The non-blank cited lines, stripped and joined by spaces (how the catalog quotes a card)."""
    return " ".join(seed[n].strip() for n in source_lines(source) if seed[n].strip())


def entries(catalog):
    for table in ("dragons", "spells", "items"):
        for key, entry in getattr(catalog, table).items():
            yield table, key, entry


# --- the spell table -----------------------------------------------------------------------------------

#: RULES.md §4's table: dragon -> (name, cost, cost_min, cost_max, cost as printed, Ultimate), printed order.
SPELL_TABLE = {
    "fire": [("Rocket Power", None, 1, 2, "1 - 2", False), ("Heat Wave", 2, 2, 2, "2", False),
             ("Fire Breath", 4, 4, 4, "4", False), ("Furnace", None, 8, 12, "8 - 12", False)],
    "water": [("River Flow", 2, 2, 2, "2", False), ("Acid Rain", 4, 4, 4, "4", False),
              ("Deep Freeze", 3, 3, 3, "3", False), ("Hailstorm", 6, 6, 6, "6", True)],
    "earth": [("Camouflage", 2, 2, 2, "2", False), ("Tunnel", 2, 2, 2, "2", False),
              ("Regrowth", 3, 3, 3, "3", False), ("Sandstorm", 8, 8, 8, "8", True)],
    "wind": [("Blowback", 2, 2, 2, "2", False), ("Windblast", 3, 3, 3, "3", False),
             ("Take to the Skies", 5, 5, 5, "5", False), ("Cyclone", 6, 6, 6, "6", True)],
    "lightning": [("Time Warp", 1, 1, 1, "1", False), ("Thunderbolt", 3, 3, 3, "3", False),
                  ("Flash", 3, 3, 3, "3", False), ("Supercharge", 6, 6, 6, "6", True)],
    "metal": [("Blink", 2, 2, 2, "2", False), ("Plate Armor", None, 2, 20, "X + 1", False),
              ("Alchemical Craft", 3, 3, 3, "3", False), ("The Claw", 10, 10, 10, "10", True)],
}


def test_the_packaged_catalog_loads_and_says_which_file_it_read(catalog):
    packaged = (ROOT / "rulesets" / "uberdrakes" / "data" / "examples.toml").read_bytes()
    digest = hashlib.sha256(packaged).hexdigest()
    assert catalog.files == ((PACKAGE_LABEL, digest),)
    assert catalog.sha256 == digest
    assert catalog.source == f"seed 003 ({PACKAGE_LABEL})"
    assert (len(catalog.dragons), len(catalog.spells), len(catalog.items)) == (6, 24, 17)
    assert {e.origin for _, _, e in entries(catalog)} == {PACKAGE_LABEL}


def test_the_six_dragons_as_printed(catalog):
    assert {k: (d.name, d.element) for k, d in catalog.dragons.items()} == {
        "fire": ("Fire Dragon", "fire"), "water": ("Water Dragon", "water"),
        "earth": ("Earth Dragon", "earth"), "wind": ("Wind Dragon", "wind"),
        "lightning": ("Lightning Dragon", "lightning"), "metal": ("Metal Dragon", "metal")}
    assert catalog.dragon("metal").spells == ("blink", "plate-armor", "alchemical-craft", "the-claw")
    assert [d.source_of("name") for d in catalog.dragons.values()] == [
        "line 383", "line 422", "line 463", "line 506", "line 547", "line 590"]


def test_the_spell_table_is_reproduced_exactly(catalog):
    got = {key: [(s.name, s.cost, s.cost_min, s.cost_max, s.cost_label, s.ultimate)
                 for s in catalog.spells_of(key)] for key in catalog.dragons}
    assert got == SPELL_TABLE
    assert [s.dragon for s in catalog.spells_of("earth")] == ["earth"] * 4
    assert [s.key for s in catalog.spells.values() if s.ultimate] == [
        "hailstorm", "sandstorm", "cyclone", "supercharge", "the-claw"]


def test_the_spell_table_matches_rules_md(catalog):
    path = SHARED / "RULES.md"
    if not path.is_file():
        pytest.skip("../shared/RULES.md is not beside the repository")
    section = path.read_text(encoding="utf-8").split("## 4. UberDrakes", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\w+) \((\d+)–(\d+)\) \| (.+) \|$", section, flags=re.MULTILINE)
    assert [r[0].lower() for r in rows] == list(catalog.dragons)
    for name, first, last, spells in rows:
        dragon = catalog.dragon(name)
        assert dragon.source_of("name") == f"line {first}"
        assert source_lines(dragon.source_of("spells"))[-1] == int(last)
        printed = [re.fullmatch(r"(.+?) (\S+?)( U)?", cell).groups() for cell in spells.split(", ")]
        assert [(n, cost.replace("–", "-"), bool(u)) for n, cost, u in printed] == [
            (s.name, s.cost_label.replace(" ", ""), s.ultimate) for s in catalog.spells_of(name)]


def test_spells_are_used_when_their_cards_say(catalog):
    timing = {k: s.timing for k, s in catalog.spells.items()}
    assert {t: sorted(k for k in timing if timing[k] == t) for t in set(timing.values())} == {
        "pre-combat": ["acid-rain", "windblast"],
        "counterattack": ["fire-breath", "plate-armor"],
        "damage": ["deep-freeze"],
        "movement": ["blink", "blowback", "cyclone", "flash", "heat-wave", "river-flow", "rocket-power",
                     "take-to-the-skies", "tunnel"],
        "other": ["alchemical-craft", "camouflage", "furnace", "hailstorm", "regrowth", "sandstorm",
                  "supercharge", "the-claw", "thunderbolt", "time-warp"]}
    with_combat = sorted(k for k, s in catalog.spells.items() if s.combat)
    assert with_combat == ["acid-rain", "camouflage", "deep-freeze", "fire-breath", "plate-armor",
                           "sandstorm", "supercharge", "take-to-the-skies", "thunderbolt", "windblast"]
    assert catalog.spell("sandstorm").combat == "You gain a +2 bonus in all combats until this effect ends."
    assert catalog.spell("fire-breath").combat == (
        "Add one die to your combat total as a counterattack. This spell can be used in both ranged and "
        "non-ranged combat.")
    assert catalog.spell("plate-armor").combat.startswith("Once per combat, add X to your total")


# --- the text's contradictions -------------------------------------------------------------------------


def test_the_contradictions_are_flagged_with_their_rulings(catalog):
    rocket = catalog.spell("rocket-power")
    assert (rocket.cost, rocket.cost_min, rocket.cost_max) == (None, 1, 2)
    assert any("UD-rocket-power-cost" in q and "line 392" in q and "(1 coin)" in q and "(2 coins.)" in q
               for q in rocket.quirks)
    furnace = catalog.spell("furnace")
    assert furnace.ultimate is False and furnace.source_of("ultimate") == "lines 413-419"
    assert any("UD-furnace-ultimate" in q and "line 260" in q for q in furnace.quirks)
    assert any("UD-furnace-ultimate" in q for q in catalog.dragon("fire").quirks)
    camouflage = catalog.spell("camouflage")
    assert camouflage.combat_quotes == (
        "If you attack an opponent while camouflaged, you gain a +3 bonus in that battle and the effect "
        "ends.",
        "You can still enter combat as long as you're the initiator. Doing so causes the spell's effect to "
        "end and gives you a +2 surprise attack bonus.")
    assert camouflage.combat == QUOTE_SEPARATOR.join(camouflage.combat_quotes)
    assert any("UD-camouflage" in q and "+3" in q and "+2" in q for q in camouflage.quirks)
    assert any("Uncommon" in q and "line 613" in q for q in catalog.item("hookshot").quirks)
    assert any("line 362" in q for q in catalog.item("hide-shield").quirks)


def test_every_ruling_a_quirk_names_exists_with_the_default_it_states(catalog):
    named, defaults = [], 0
    for table, key, entry in entries(catalog):
        for quirk in entry.quirks:
            for name, default in re.findall(r"(UD-[a-z-]+[a-z])(?: \(default ([^:;)]+))?", quirk):
                spec = UberDrakesRulings.spec(name)
                if default:
                    assert str(spec.default).lower() == default, (table, key, name)
                    defaults += 1
                named.append(name)
    assert sorted(set(named)) == ["UD-acid-scope", "UD-camouflage", "UD-furnace-ultimate", "UD-overflow-rage",
                                  "UD-rocket-power-cost", "UD-shield-ranged", "UD-windblast-stack"]
    assert (len(named), defaults) == (9, 7)


# --- every value sourced or illustrative ---------------------------------------------------------------


def test_every_value_field_is_sourced_or_illustrative_never_both(catalog):
    checked = 0
    for table, key, entry in entries(catalog):
        sourced, invented = {p for p, _ in entry.sources}, set(entry.illustrative)
        assert sourced | invented == set(entry.value_paths), (table, key)
        assert not sourced & invented, (table, key)
        for path in entry.value_paths:
            assert (entry.source_of(path) is None) == (path in invented), (table, key, path)
            checked += 1
    # dragons 6 x 3; spells 21 x 7 with a fixed cost, 2 x 8 with a range, Plate Armor 9 (its cost_printed);
    # items 6 x 8 combat items (die, ranged_ok), 11 x 6 others
    assert checked == 6 * 3 + 21 * 7 + 2 * 8 + 9 + 6 * 8 + 11 * 6


def test_every_price_is_illustrative_and_small(catalog):
    for item in catalog.items.values():
        assert "price" in item.illustrative and item.source_of("price") is None, item.key
        assert item.price is not None and 2 <= item.price <= 8, item.key
    assert {k: i.price for k, i in catalog.items.items()} == {
        "dragon-lance": 4, "long-bow": 4, "rest-potion": 3, "hide-shield": 4, "rage-potion": 3,
        "rocket-booster": 3, "blink-scroll": 3, "hookshot": 5, "gemstones": 4, "ancient-urn": 4,
        "alchemists-fire": 5, "merchants-portal": 5, "warp-scroll": 6, "monks-handbook": 4,
        "invigorating-potion": 6, "dimensional-gem": 7, "elemental-mask": 8}


def test_only_the_prices_and_four_readings_are_illustrative(catalog):
    invented = {(table, key, path) for table, key, entry in entries(catalog) for path in entry.illustrative
                if path != "price"}
    assert invented == {("spells", "plate-armor", "cost_max"), ("items", "hookshot", "ranged_ok"),
                        ("items", "alchemists-fire", "ranged_ok"), ("items", "alchemists-fire", "hoard")}
    assert not any(d.is_illustrative for d in catalog.dragons.values())
    assert [s.key for s in catalog.spells.values() if s.is_illustrative] == ["plate-armor"]


# --- against the rulebook --------------------------------------------------------------------------------


def test_every_cited_line_is_in_the_rulebook_and_not_blank(catalog, seed):
    for table, key, entry in entries(catalog):
        for path, source in entry.sources:
            for n in source_lines(source):
                assert 1 <= n < len(seed), (table, key, path, source)
            assert cited(seed, source), (table, key, path, source)
            for n in (source_lines(source)[0], source_lines(source)[-1]):
                assert seed[n].strip(), (table, key, path, source)


def test_every_spell_is_as_its_card_prints_it(catalog, seed):
    for spell in catalog.spells.values():
        assert seed[source_lines(spell.source_of("name"))[0]] == spell.name
        assert seed[source_lines(spell.source_of("dragon"))[0]] == catalog.dragons[spell.dragon].name
        cost_line = spell.source_of("cost") or spell.source_of("cost_printed") or spell.source_of("cost_max")
        assert seed[source_lines(cost_line)[0]] == spell.cost_label, spell.key
        assert spell.text == cited(seed, spell.source_of("text")), spell.key
        card = cited(seed, spell.source_of("combat"))
        assert set(source_lines(spell.source_of("combat"))) <= set(source_lines(spell.source_of("text")))
        for quote in spell.combat_quotes:
            assert quote in card, (spell.key, quote)
        label = cited(seed, spell.source_of("ultimate"))
        if spell.ultimate:
            assert label == "Ultimate Spell - cast only once per game.", spell.key
        else:
            assert "Ultimate" not in label and spell.name in label, spell.key
        words = {"pre-combat": "beginning of combat", "counterattack": "ounterattack", "damage": "damage"}
        if spell.timing in words:
            assert words[spell.timing] in cited(seed, spell.source_of("timing")), spell.key
    plate = catalog.spell("plate-armor")
    assert plate.source_of("cost_min") == "lines 602, 606" and "add X" in seed[606]


def test_every_item_is_as_its_card_prints_it(catalog, seed):
    for item in catalog.items.values():
        assert seed[source_lines(item.source_of("name"))[0]] == item.name
        assert item.text == cited(seed, item.source_of("text")), item.key
        if item.kind == "combat" and item.source_of("kind") == "line 613":
            assert item.name.replace(" ", "").lower() in seed[613].replace(" ", "").lower(), item.key
        hoard = item.source_of("hoard")
        if item.hoard:
            assert hoard is not None and "eight hoard items" in seed[233]
            assert "may be purchased in villages" in seed[source_lines(hoard)[-1]], item.key
        elif hoard is not None:
            assert "treasure" in cited(seed, hoard).lower(), item.key
    assert "add one additional die" in seed[653] and "can't be used in ranged combat" in seed[655]
    assert "add one die" in seed[692] and "both ranged and non-ranged combat" in seed[694]


# --- the items -----------------------------------------------------------------------------------------


def test_the_items_the_rulebook_describes(catalog):
    assert {k: (i.name, i.kind, i.timing, i.die, i.ranged_ok, i.hoard) for k, i in catalog.items.items()} == {
        "dragon-lance": ("Dragon Lance", "combat", "counterattack", True, False, True),
        "long-bow": ("Long Bow", "combat", "other", False, True, True),
        "rest-potion": ("Rest Potion", "potion", "other", False, False, True),
        "hide-shield": ("Hide Shield", "combat", "counterattack", True, True, True),
        "rage-potion": ("Rage Potion", "combat", "pre-combat", False, True, True),
        "rocket-booster": ("Rocket Booster", "other", "movement", False, False, True),
        "blink-scroll": ("Blink Scroll", "other", "movement", False, False, True),
        "hookshot": ("Hookshot", "combat", "damage", False, True, True),
        "gemstones": ("Gemstones", "treasure", "other", False, False, False),
        "ancient-urn": ("Ancient Urn", "treasure", "other", False, False, False),
        "alchemists-fire": ("Alchemist's Fire", "combat", "damage", False, True, False),
        "merchants-portal": ("Merchant's Portal", "other", "other", False, False, False),
        "warp-scroll": ("Warp Scroll", "other", "movement", False, False, False),
        "monks-handbook": ("Monk's Handbook", "other", "other", False, False, False),
        "invigorating-potion": ("Invigorating Potion", "potion", "other", False, False, False),
        "dimensional-gem": ("Dimensional Gem", "other", "movement", False, False, False),
        "elemental-mask": ("Elemental Mask", "other", "other", False, False, False)}
    assert sum(i.hoard for i in catalog.items.values()) == HOARD_ITEMS == 8
    assert catalog.item("dragon-lance").value_paths == (
        "name", "kind", "timing", "die", "ranged_ok", "price", "hoard", "text")
    assert catalog.item("rest-potion").value_paths == ("name", "kind", "timing", "price", "hoard", "text")


# --- lookups -------------------------------------------------------------------------------------------


def test_lookups_ignore_case_spaces_hyphens_and_apostrophes(catalog):
    for name in ("fire", "Fire", "Fire Dragon", "FIRE DRAGON"):
        assert catalog.dragon(name).key == "fire"
    for name in ("take-to-the-skies", "Take to the Skies", "TAKE TO THE SKIES", "taketotheskies"):
        assert catalog.spell(name).key == "take-to-the-skies"
    for name in ("alchemists-fire", "Alchemist's Fire", "alchemists fire"):
        assert catalog.item(name).key == "alchemists-fire"
    assert catalog.item("Longbow").key == "long-bow"  # line 613's spelling
    assert catalog.spell_of("Fire Dragon", "fire breath").key == "fire-breath"
    assert [s.name for s in catalog.spells_of("Metal")] == ["Blink", "Plate Armor", "Alchemical Craft",
                                                            "The Claw"]


def test_unknown_names_list_the_valid_ones_in_one_line(catalog):
    with pytest.raises(RulesError) as caught:
        catalog.dragon("ice")
    assert str(caught.value) == "unknown dragon 'ice'; known: earth, fire, lightning, metal, water, wind"
    with pytest.raises(RulesError) as caught:
        catalog.spell("Fire Breth")
    assert str(caught.value) == (
        "unknown spell 'Fire Breth' (did you mean fire-breath?); known: acid-rain, alchemical-craft, blink, "
        "blowback, camouflage, cyclone, deep-freeze, fire-breath, flash, furnace, hailstorm, heat-wave, "
        "plate-armor, regrowth, river-flow, rocket-power, sandstorm, supercharge, take-to-the-skies, "
        "the-claw, thunderbolt, time-warp, tunnel, windblast")
    with pytest.raises(RulesError) as caught:
        catalog.item("Dragon Lanse")
    assert str(caught.value) == (
        "unknown item 'Dragon Lanse' (did you mean dragon-lance?); known: alchemists-fire, ancient-urn, "
        "blink-scroll, dimensional-gem, dragon-lance, elemental-mask, gemstones, hide-shield, hookshot, "
        "invigorating-potion, long-bow, merchants-portal, monks-handbook, rage-potion, rest-potion, "
        "rocket-booster, warp-scroll")
    with pytest.raises(RulesError, match=r"^unknown catalog table 'riders'; accepted: dragons, spells, "
                                         r"items$"):
        catalog.entry("riders", "x")


def test_another_dragons_spell_says_whose_it_is(catalog):
    with pytest.raises(RulesError) as caught:
        catalog.spell_of("metal", "Fire Breath")
    assert str(caught.value) == ("Fire Breath is the Fire dragon's spell, not the Metal dragon's; the Metal "
                                 "dragon's spells: Blink, Plate Armor, Alchemical Craft, The Claw")
    with pytest.raises(RulesError, match=r"^unknown dragon 'frost'; known: earth, fire, "):
        catalog.spell_of("frost", "blink")


# --- user files ------------------------------------------------------------------------------------------

HORN = """
[items.war-horn]
name = "War Horn"
kind = "combat"
timing = "pre-combat"
die = false
ranged_ok = true
price = 5
hoard = false
text = "Blow it at the beginning of combat."
illustrative = ["name", "kind", "timing", "die", "ranged_ok", "price", "hoard", "text"]
"""

LANCE = """
[items.dragon-lance]
name = "Dragon Lance"
kind = "combat"
timing = "counterattack"
die = true
ranged_ok = false
price = 6
hoard = true
text = "Use the Dragon Lance during the counterattack phase of combat to add one additional die to your roll."
illustrative = ["price"]
[items.dragon-lance.sources]
name = "line 649"
kind = "line 613"
timing = "line 653"
die = "line 653"
ranged_ok = "line 655"
hoard = "lines 233, 659"
text = "lines 653-655"
"""

EMBER = """
[spells.ember]
name = "Ember"
dragon = "fire"
cost = 3
ultimate = false
timing = "counterattack"
combat = "Add one die."
text = "Add one die."
illustrative = ["name", "dragon", "cost", "ultimate", "timing", "combat", "text"]
"""

FIRE = """
[dragons.fire]
name = "Fire Dragon"
element = "fire"
spells = ["rocket-power", "heat-wave", "fire-breath", "furnace", "ember"]
sources = { name = "line 383", element = "line 43" }
illustrative = ["spells"]
"""

WATER = """
[dragons.water]
name = "Water Dragon"
element = "water"
spells = ["river-flow", "acid-rain", "deep-freeze", "hailstorm", "ember"]
sources = { name = "line 422", element = "line 43" }
illustrative = ["spells"]
"""


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_user_file_overrides_an_items_price_and_adds_an_item(tmp_path, catalog):
    path = write(tmp_path, LANCE + HORN)
    mine = load(user_paths=[path])
    assert list(mine.items) == [*catalog.items, "war-horn"]
    lance = mine.item("Dragon Lance")
    assert (lance.price, lance.die, lance.ranged_ok, lance.origin) == (6, True, False, str(path))
    assert catalog.item("dragon-lance").price == 4
    horn = mine.item("war horn")
    assert horn == Item("war-horn", "War Horn", "combat", "pre-combat", False, True, 5, False,
                        "Blow it at the beginning of combat.", (), horn.illustrative, origin=str(path))
    assert horn.is_illustrative and horn.source_of("price") is None
    assert mine.item("hide-shield") == catalog.item("hide-shield")
    assert mine.spells == catalog.spells and mine.dragons == catalog.dragons
    user_hash = hashlib.sha256(path.read_bytes()).hexdigest()
    assert mine.files == (catalog.files[0], (str(path), user_hash))
    assert mine.sha256 == hashlib.sha256(f"{catalog.sha256}\n{user_hash}".encode()).hexdigest()
    assert mine.source == f"seed 003 ({PACKAGE_LABEL}, {path})"
    assert load(user_paths=path).items == mine.items


def test_a_user_file_adds_a_spell_to_a_dragon_it_replaces(tmp_path):
    mine = load(user_paths=[write(tmp_path, FIRE + EMBER)])
    assert [s.key for s in mine.spells_of("fire")] == ["rocket-power", "heat-wave", "fire-breath", "furnace",
                                                       "ember"]
    ember = mine.spell_of("fire", "Ember")
    assert (ember.cost, ember.cost_min, ember.cost_max, ember.cost_label, ember.timing) == (
        3, 3, 3, "3", "counterattack")
    assert mine.dragon("fire").source_of("spells") is None


def item(**changes) -> str:
    """HORN with keys replaced (a value None drops the key)."""
    lines = HORN.strip().splitlines()
    out = []
    for line in lines:
        key = line.split(" = ", 1)[0]
        if key in changes:
            if changes[key] is not None:
                out.append(f"{key} = {changes.pop(key)}")
            else:
                changes.pop(key)
            continue
        out.append(line)
    out += [f"{k} = {v}" for k, v in changes.items()]
    return "\n".join(out) + "\n"


def spell(**changes) -> str:
    """FIRE + EMBER with the spell's keys replaced (a value None drops the key)."""
    lines = EMBER.strip().splitlines()
    out = []
    for line in lines:
        key = line.split(" = ", 1)[0]
        if key in changes:
            value = changes.pop(key)
            if value is not None:
                out.append(f"{key} = {value}")
            continue
        out.append(line)
    out += [f"{k} = {v}" for k, v in changes.items()]
    return FIRE + "\n".join(out) + "\n"


ALL_ITEM = '["name", "kind", "timing", "die", "ranged_ok", "price", "hoard", "text"]'
ALL_SPELLS = ", ".join(f"{k}" for k in ["acid-rain", "alchemical-craft", "blink", "blowback", "camouflage",
                                        "cyclone", "deep-freeze", "fire-breath", "flash", "furnace",
                                        "hailstorm", "heat-wave", "plate-armor", "regrowth", "river-flow",
                                        "rocket-power", "sandstorm", "supercharge", "take-to-the-skies",
                                        "the-claw", "thunderbolt", "time-warp", "tunnel", "windblast"])

#: (TOML of a user file, the one-line error after "<file>: ")
MALFORMED = [
    (item(price="-1"), "items.war-horn: price: expected a whole number from 0 to 100, got -1"),
    (item(price='"5 coins"'), "items.war-horn: price: expected a whole number, got \"5 coins\""),
    (item(kind='"weapon"'),
     "items.war-horn: kind: unknown item kind \"weapon\"; accepted: combat, potion, treasure, other"),
    (item(die=None),
     "items.war-horn: die: required key missing: a combat item says whether it adds a die (die) and whether "
     "it can be used in ranged combat (ranged_ok), true or false"),
    (item(kind='"potion"'),
     "items.war-horn: die: given for a potion item: only combat items (kind = \"combat\") have die and "
     "ranged_ok; leave it out"),
    (item(prize="5"),
     "items.war-horn: prize: unknown key; accepted: name, kind, timing, hoard, text, die, ranged_ok, price, "
     "sources, illustrative, quirks, notes; did you mean price?"),
    (item(hoard=None), "items.war-horn: hoard: required key missing"),
    (item(ranged_ok='"yes"'), "items.war-horn: ranged_ok: expected true or false, got \"yes\""),
    (item(illustrative='["name", "kind", "timing", "die", "ranged_ok", "hoard", "text"]'),
     "items.war-horn: price: neither sourced nor illustrative: give its line "
     "(sources.\"price\" = \"line N\") or list it in illustrative"),
    (item(sources='{ price = "line 5" }'),
     "items.war-horn: price: both printed (sources.price) and illustrative (\"price\"); a value is one "
     "or the other"),
    (item(illustrative='["kind", "timing", "die", "ranged_ok", "price", "hoard", "text"]',
          sources='{ name = "page 5" }'),
     "items.war-horn: sources.name: expected \"line N\", \"lines N-M\" or \"lines N, M\" with the lines in "
     "order, got \"page 5\""),
    (item(illustrative=ALL_ITEM.replace('"price"', '"prise"')),
     "items.war-horn: illustrative[5]: \"prise\" is not a value field of this entry; did you mean price?"),
    (item(illustrative=ALL_ITEM.replace('"text"]', '"text", "name"]')),
     "items.war-horn: illustrative[8]: \"name\" is listed twice"),
    (spell(cost_min="2"),
     "spells.ember: cost: given with cost_min: give either cost (a fixed cost) or cost_min and cost_max (a "
     "range or a formula), not both"),
    (spell(cost=None), "spells.ember: cost: required key missing: give cost (Magic, a whole number from 0 to "
                       "20) or cost_min and cost_max"),
    (spell(cost=None, cost_min="3"),
     "spells.ember: cost_max: required key missing: a range needs cost_min and cost_max (or give cost)"),
    (spell(cost=None, cost_min="3", cost_max="3"),
     "spells.ember: cost_max: expected a whole number above cost_min = 3, got 3; a fixed cost is given as "
     "cost = 3"),
    (spell(cost="21"), "spells.ember: cost: expected a whole number from 0 to 20, got 21"),
    (spell(timing='"phase 3"'),
     "spells.ember: timing: unknown timing \"phase 3\"; accepted: pre-combat, counterattack, damage, "
     "movement, other"),
    (spell(ultimate='"yes"'), "spells.ember: ultimate: expected true or false, got \"yes\""),
    (spell(text='""'), "spells.ember: text: expected text, got an empty string"),
    (spell(dragon='"Fire"'),
     "spells.ember: dragon: expected a lower-case key like \"fire\", got \"Fire\"; did you mean 'fire'?"),
    (spell(dragon='"ice"'),
     "spells.ember: dragon: unknown dragon \"ice\"; known: earth, fire, lightning, metal, water, wind"),
    (EMBER,
     "spells.ember: dragon: the Fire dragon does not list \"ember\" among its spells; add it to "
     "dragons.fire.spells (a user file replaces the whole dragon entry)"),
    (FIRE.replace('"ember"', '"blink"'),
     "dragons.fire: spells[4]: \"blink\" is the Metal dragon's spell (spells.blink: dragon = \"metal\"); "
     "list it under dragons.metal or change its dragon"),
    (FIRE.replace('"ember"', '"fire-breth"'),
     "dragons.fire: spells[4]: unknown spell \"fire-breth\" (did you mean fire-breath?); known: "
     + ALL_SPELLS),
    (FIRE.replace('"ember"', '"furnace"'), "dragons.fire: spells[4]: \"furnace\" is listed twice"),
    (FIRE.replace('"ember"', '"Ember"'),
     "dragons.fire: spells[4]: expected a spell key like \"fire-breath\", got \"Ember\""),
    (FIRE.replace('"fire"\nspells', '"ice"\nspells'),
     "dragons.fire: element: unknown element \"ice\"; accepted: fire, water, earth, lightning, wind, metal "
     "(the six dragons of line 43)"),
    (FIRE.replace('"rocket-power"', '"hailstorm"').replace('"ember"', '"rocket-power"'),
     "dragons.fire: spells[0]: \"hailstorm\" is the Water dragon's spell (spells.hailstorm: dragon = "
     "\"water\"); list it under dragons.water or change its dragon"),
    (WATER + EMBER.replace('"fire"', '"water"').replace("ultimate = false", "ultimate = true"),
     "dragons.water: spells: 2 Ultimate spells (hailstorm, ember); a dragon has one (line 260)"),
    (FIRE.replace('illustrative = ["spells"]', 'illustrative = ["spells", "element"]'),
     "dragons.fire: element: both printed (sources.element) and illustrative (\"element\"); a value is "
     "one or the other"),
    ('[item.horn]\nname = "Horn"\n',
     "item: unknown table; accepted: dragons, spells, items; did you mean items?"),
    ('items = 3\n', "items: expected a table of entries, got 3"),
    ('[items.War_Horn]\nname = "Horn"\n',
     "items.War_Horn: a key is a lower-case slug of the name, e.g. 'war-horn'"),
    ('[items.horn]\nname = "Horn"\n', "items.horn: kind: required key missing"),
    ("[items.horn\n", "line 1, column 12: invalid TOML: Expected ']' at the end of a table declaration"),
]


@pytest.mark.parametrize("text, message", MALFORMED,
                         ids=[f"{i}-{m[1].split(':')[0]}" for i, m in enumerate(MALFORMED)])
def test_a_malformed_file_gives_one_line_naming_file_entry_and_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(CatalogError) as caught:
        load(user_paths=[path])
    assert str(caught.value) == f"{path}: {message}"
    assert "\n" not in str(caught.value)


def test_a_missing_or_unreadable_file(tmp_path):
    with pytest.raises(CatalogError, match=r"nowhere\.toml: cannot read: No such file or directory$"):
        load(user_paths=[tmp_path / "nowhere.toml"])
    path = tmp_path / "latin1.toml"
    path.write_bytes('[items.horn]\nname = "Hörn"\n'.encode("latin-1"))
    with pytest.raises(CatalogError, match=r"latin1\.toml: not UTF-8 text \(byte 22\)$"):
        load(user_paths=[path])


def test_a_catalog_of_its_own_replaces_the_packaged_one(tmp_path):
    mine = load(write(tmp_path, HORN))
    assert (list(mine.dragons), list(mine.spells), list(mine.items)) == ([], [], ["war-horn"])
    assert mine.files[0][0] == str(tmp_path / "mine.toml")


def test_loading_the_catalog_imports_neither_numpy_nor_tomllib():
    probe = ("import sys, rulesets.uberdrakes.catalog; "
             "print([m for m in ('numpy', 'tomllib') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
