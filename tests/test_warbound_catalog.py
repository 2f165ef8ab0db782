"""The Warbound catalog against the rulebook (seed 004, ../shared/seeds/004_f95fe7e1e7e670bd.txt): every
printed fact with its line (each cited line checked against the seed file), every other value marked
illustrative, the loader's validation (one line naming file, entry and key), user files applied over the
packaged one, the Formation profile, and the deck-building rules of the Exploration format."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.base import RulesError, source_lines
from rulesets.warbound.catalog import (
    ACTIONS,
    PACKAGE_LABEL,
    CatalogError,
    Profile,
    load,
    with_formation,
)
from rulesets.warbound.deck import Deck, DeckEntry, DeckError, parse_deck, validate_deck

SEED_NAME = "004_f95fe7e1e7e670bd.txt"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalog():
    return load()


@pytest.fixture(scope="module")
def seed() -> list[str]:
    """The rulebook's lines; ``seed[n]`` is line n (1-based, as cited)."""
    path = ROOT.parent / "shared" / "seeds" / SEED_NAME
    if not path.is_file():
        pytest.skip(f"the rulebook {SEED_NAME} is not beside the repository (../shared/seeds)")
    return ["", *path.read_text(encoding="utf-8").splitlines()]


def value_at(entry, path: str):
    """The value a path names (``front.skills[0].name``), read independently of the catalog's code."""
    value = entry
    for part in re.findall(r"[a-z_]+|\[\d+\]", path):
        value = value[int(part[1:-1])] if part.startswith("[") else getattr(value, part)
    return value


def covering(listed: set[str], path: str) -> list[str]:
    """The listed paths that cover ``path``: itself or an ancestor (``panic`` covers ``panic.attack``)."""
    return [p for p in listed if path == p or path.startswith(p + ".") or path.startswith(p + "[")]


def all_entries(catalog):
    for table in ("characters", "leaders", "formations", "equipment", "vocations"):
        for key, entry in getattr(catalog, table).items():
            yield table, key, entry


# --- the packaged catalog ----------------------------------------------------------------------------


def test_the_packaged_catalog_holds_the_named_cards(catalog):
    assert list(catalog.characters) == ["copp", "analyst", "splatter", "roh-na", "rah-na", "oshi-goru",
                                        "ork-edo-drummer", "orkedo-player"]
    assert [c.name for c in catalog.characters.values()] == [
        "COPP", "Analyst", "Splatter", "Roh'na", "Rah'na", "Oshi'goru", "Ork'edo Drummer", "Orkedo Player"]
    assert list(catalog.leaders) == ["raiders-warlord", "orkedo-chief", "reference"]
    assert {k: f.character for k, f in catalog.formations.items()} == {
        "formation": None, "oshi-goru": "oshi-goru", "rah-na": "rah-na"}
    assert {k: (e.icon, e.faction, e.changes) for k, e in catalog.equipment.items()} == {
        "long-rifle": ("ranged", None, (("shoot_dice", 1),)),
        "war-axe": ("melee", None, (("attack_dice", 1),)),
        "raider-plate": ("armor", "raiders", (("armor_points", 1),))}
    vocations = {k: (v.name, v.faction) for k, v in catalog.vocations.items()}
    assert vocations == {"veterans": ("Veteran's", "raiders")}
    assert {k: (le.faction, le.orders) for k, le in catalog.leaders.items()} == {
        "raiders-warlord": ("raiders", (3, 4)), "orkedo-chief": ("orkedo", (4, 3)),
        "reference": ("any", (4, 4))}
    assert catalog.board.periods == (("move", "run", "fight", "shoot", "move+shoot"),
                                     ("move", "fight", "fight", "aim+shoot", "shoot", "run+fight"))
    assert catalog.board.illustrative is True


def test_the_catalog_says_which_files_it_read(catalog):
    packaged = (ROOT / "rulesets" / "warbound" / "data" / "examples.toml").read_bytes()
    digest = hashlib.sha256(packaged).hexdigest()
    assert catalog.files == ((PACKAGE_LABEL, digest),)
    assert catalog.sha256 == digest
    assert catalog.source == f"seed 004 ({PACKAGE_LABEL})"
    assert {c.origin for c in catalog.characters.values()} == {PACKAGE_LABEL}


#: (table, key, path, value as printed, its source, words of the cited lines that print it)
PRINTED = [
    ("characters", "copp", "name", "COPP", "line 245", "the COPP"),
    ("characters", "copp", "front.equipment_icons", ("ranged",), "line 245", "ranged weapon included"),
    ("characters", "copp", "front.cost_colourless", 2, "line 217", "two colorless Order tokens"),
    ("characters", "copp", "front.cost_coloured", 1, "line 217", "one Raiders faction token"),
    ("characters", "analyst", "name", "Analyst", "line 413", "allied Analyst"),
    ("characters", "splatter", "name", "Splatter", "line 429", "the Splatter (S)"),
    ("characters", "splatter", "front.skills[0].name", "Opportunist", "line 557", "Splatter's Opportunist"),
    ("characters", "roh-na", "name", "Roh'na", "line 413", "the Roh'na (R)"),
    ("characters", "rah-na", "name", "Rah'na", "line 569", "two Rah'na"),
    ("characters", "oshi-goru", "name", "Oshi'goru", "line 419", "Oshi'goru Formation"),
    ("characters", "ork-edo-drummer", "name", "Ork'edo Drummer", "line 455", "Ork'edo Drummer (D)"),
    ("characters", "orkedo-player", "name", "Orkedo Player", "line 527", "of the Orkedo Player"),
    ("characters", "orkedo-player", "front.skills[0].name", "Ki'hai", "line 527", "the Ki'hai skill"),
    ("leaders", "raiders-warlord", "faction", "raiders", "line 261", "representing the Raiders faction"),
    ("vocations", "veterans", "name", "Veteran's", "line 307", "*Veteran's* Vocation card"),
    ("formations", "formation", "name", "Formation", "line 83", "A Formation card is an upgrade"),
    ("formations", "formation", "character", None, "line 83", "for a chosen Character"),
    ("formations", "oshi-goru", "name", "Oshi'goru Formation", "line 551", "the Oshi'goru Formation"),
    ("formations", "oshi-goru", "character", "oshi-goru", "line 551", "Oshi'goru miniatures"),
    ("formations", "rah-na", "character", "rah-na", "line 569", "the two Rah'na"),
    *((("formations", key, "cost_colourless", 1, "line 543", "activation cost of **1**"),
       ("formations", key, "hit_bonus", 1, "line 545", "+1 bonus to all its Hit rolls"),
       ("formations", key, "extra_dice", 1, "lines 559, 565", "additional"),
       ("formations", key, "extra_health", 1, "line 573", "an additional Health Point"))
      for key in ("formation", "oshi-goru", "rah-na")),
]
PRINTED = [row for group in PRINTED for row in (group if isinstance(group[0], tuple) else (group,))]


@pytest.mark.parametrize("table, key, path, value, source, words", PRINTED,
                         ids=[f"{r[1]}.{r[2]}" for r in PRINTED])
def test_every_printed_fact_is_kept_with_its_line(catalog, seed, table, key, path, value, source, words):
    entry = getattr(catalog, table)[key]
    assert value_at(entry, path) == value
    assert entry.source_of(path) == source
    assert words in "\n".join(seed[n] for n in source_lines(source))


def test_the_extra_dice_lines_print_one_ranged_and_one_melee_die(seed):
    assert "an additional shooting die" in seed[559]
    assert "an additional melee attack die" in seed[565]


def test_the_skills_are_as_printed(catalog, seed):
    opportunist = catalog.character("splatter").front.skills[0]
    assert (opportunist.name, opportunist.active, opportunist.roll, opportunist.modelled) == (
        "Opportunist", False, 0, False)
    assert opportunist.text.startswith("Not printed")
    kihai = catalog.character("orkedo-player").front.skills[0]
    assert (kihai.name, kihai.active, kihai.roll, kihai.modelled) == ("Ki'hai", True, 0, False)
    assert kihai.text == ("you cannot move a character in a Panic state with the Ki'hai skill of the Orkedo "
                          "Player, you need to be able to receive a Stress token for this skill to work")
    assert kihai.text in seed[527].replace("*", "")
    assert catalog.character("orkedo-player").source_of("front.skills[0].text") == "line 527"
    assert catalog.character("orkedo-player").source_of("front.skills[0].active") is None
    others = [c.key for c in catalog.characters.values() for side in (c.front, c.panic) if side.skills]
    assert others == ["splatter", "orkedo-player"]


def test_the_copp_shoots_with_its_built_in_weapon_and_pays_the_printed_cost(catalog):
    copp = catalog.character("COPP")
    assert copp.front.accuracy_near is not None and copp.front.shoot_dice == 1
    assert (copp.front.cost_colourless, copp.front.cost_coloured, copp.front.cost) == (2, 1, 3)
    assert copp.faction == "raiders" and "faction" in copp.illustrative
    assert any("line 217" in q and "line 245" in q for q in copp.quirks)


def test_roh_na_and_rah_na_say_they_may_be_one_name(catalog):
    roh, rah = catalog.character("roh-na"), catalog.character("rah-na")
    for character in (roh, rah):
        assert any("Roh'na" in q and "Rah'na" in q and "one name" in q for q in character.quirks)
    assert (roh.front, roh.panic) == (rah.front, rah.panic)


def test_every_value_field_is_sourced_or_illustrative_never_both(catalog):
    checked = 0
    for table, key, entry in all_entries(catalog):
        cited, invented = {p for p, _ in entry.sources}, set(entry.illustrative)
        for path in entry.value_paths:
            by_source, by_invention = covering(cited, path), covering(invented, path)
            assert len(by_source) + len(by_invention) == 1, (table, key, path, by_source, by_invention)
            assert (entry.source_of(path) is None) == bool(by_invention), (table, key, path)
            checked += 1
        assert entry.is_illustrative == bool(entry.illustrative)
    assert checked == 226 + 3 * 4 + 3 * 6 + 3 * 5 + 3  # characters (counted by hand), the other cards


def test_the_value_paths_of_a_card(catalog):
    assert catalog.character("analyst").value_paths == (
        "name", "faction", "front.attack", "front.attack_dice", "front.speed", "front.run",
        "front.accuracy_near", "front.accuracy_far", "front.shoot_dice", "front.cost_colourless",
        "front.cost_coloured", "front.health", "front.morale", "front.armor_points", "front.equipment_icons",
        "panic.attack", "panic.attack_dice", "panic.speed", "panic.run", "panic.accuracy_near",
        "panic.accuracy_far", "panic.shoot_dice", "panic.cost_colourless", "panic.cost_coloured",
        "panic.health", "panic.morale", "panic.armor_points", "panic.equipment_icons")
    roh = catalog.character("roh-na")
    assert "front.shoot_dice" not in roh.value_paths and "front.armor_value" in roh.value_paths
    assert catalog.leader("raiders-warlord").value_paths == ("name", "faction", "orders", "skill")


def test_every_cited_line_is_in_the_rulebook_and_not_blank(catalog, seed):
    for table, key, entry in all_entries(catalog):
        for path, source in entry.sources:
            for n in source_lines(source):
                assert 1 <= n < len(seed) and seed[n].strip(), (table, key, path, source)


def test_the_illustrative_values_are_small_and_plausible(catalog):
    for character in catalog.characters.values():
        for side in (character.front, character.panic):
            hits = [v for v in (side.attack, side.accuracy_near, side.accuracy_far) if v is not None]
            assert all(5 <= v <= 9 for v in hits), character.key
            assert 2 <= side.health <= 4 and 1 <= side.cost <= 4, character.key
            assert side.morale is None or 3 <= side.morale <= 5, character.key
            assert (side.armor_value is None) == (side.armor_points == 0), character.key


def test_every_character_has_a_worse_and_costlier_illustrative_panic_side(catalog):
    for character in catalog.characters.values():
        front, panic = character.front, character.panic
        assert panic is not None and "panic" in character.illustrative
        assert panic.morale is None and front.morale is not None
        assert panic.cost == front.cost + 1 and panic.cost_colourless == front.cost_colourless + 1
        assert (panic.attack is None) == (front.attack is None)
        assert (panic.accuracy_near is None) == (front.accuracy_near is None)
        for name in ("attack", "accuracy_near", "accuracy_far"):
            if getattr(front, name) is not None:
                assert getattr(panic, name) == getattr(front, name) + 1, (character.key, name)
        assert panic.skills == ()


def test_lookups_ignore_case_spaces_and_apostrophes(catalog):
    for name in ("roh-na", "Roh'na", "ROH NA", "rohna"):
        assert catalog.character(name).key == "roh-na"
    assert catalog.character("Ork'edo Drummer").key == "ork-edo-drummer"
    assert catalog.leader("Raiders Warlord").key == "raiders-warlord"
    assert catalog.entry("vocations", "veteran's").key == "veterans"
    with pytest.raises(RulesError) as caught:
        catalog.character("Roh'nah")
    assert str(caught.value) == ("unknown character \"Roh'nah\" (did you mean roh-na or rah-na?); known: "
                                 "analyst, copp, ork-edo-drummer, orkedo-player, oshi-goru, rah-na, roh-na, "
                                 "splatter")
    with pytest.raises(RulesError,
                       match=r"^unknown leader 'nobody'; known: orkedo-chief, raiders-warlord, reference$"):
        catalog.leader("nobody")


def test_formation_cards_and_the_formation_profile(catalog):
    assert catalog.formation_for("Oshi'goru").key == "oshi-goru"
    assert catalog.formation_for("rah-na").key == "rah-na"
    assert catalog.formation_for("copp").key == "formation"
    copp = catalog.character("copp").front
    assert with_formation(copp, catalog.formation_for("copp")) == Profile(
        attack=8, attack_dice=2, speed=3, run=1, accuracy_near=6, accuracy_far=8, shoot_dice=2,
        cost_colourless=3, cost_coloured=1, health=4, morale=4, armor_points=1, armor_value=7,
        equipment_icons=("ranged",), skills=())
    roh = catalog.character("roh-na").front
    paired = with_formation(roh, catalog.formation_for("roh-na"))
    assert (paired.attack, paired.attack_dice, paired.shoot_dice, paired.cost, paired.health) == (
        5, 2, 0, 4, 5)
    assert (roh.attack_dice, roh.shoot_dice, roh.cost, roh.health) == (1, 0, 3, 4)


# --- user files ---------------------------------------------------------------------------------------

BRUTE = """
[characters.brute]
name = "Brute"
faction = "raiders"
illustrative = ["name", "faction", "front"]

[characters.brute.front]
attack = 6
speed = 3
run = 1
cost_colourless = 1
cost_coloured = 1
health = 3
morale = 4
armor_points = 0
"""


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_user_file_replaces_an_entry_and_adds_one(tmp_path, catalog):
    copp = BRUTE.replace("brute", "copp").replace('"Brute"', '"COPP"').replace("attack = 6", "attack = 5")
    board = '[board]\nperiod_1 = ["move", "shoot"]\nperiod_2 = ["Aim + Shoot"]\nillustrative = false\n'
    path = write(tmp_path, BRUTE + copp + board)
    mine = load(user_paths=[path])
    assert list(mine.characters) == [*catalog.characters, "brute"]
    assert mine.character("copp").front.attack == 5 and mine.character("copp").panic is None
    assert mine.character("copp").origin == str(path) and mine.character("splatter").origin == PACKAGE_LABEL
    assert mine.character("brute").front == Profile(6, 1, 3, 1, None, None, 0, 1, 1, 3, 4, 0, None, (), ())
    assert mine.board.periods == (("move", "shoot"), ("aim+shoot",)) and mine.board.illustrative is False
    assert mine.leaders == catalog.leaders and mine.formations == catalog.formations
    user_hash = hashlib.sha256(path.read_bytes()).hexdigest()
    assert mine.files == (catalog.files[0], (str(path), user_hash))
    assert mine.sha256 == hashlib.sha256(f"{catalog.sha256}\n{user_hash}".encode()).hexdigest()
    assert load(user_paths=path).characters == mine.characters


def test_a_user_formation_card_takes_the_printed_numbers_and_their_lines(tmp_path):
    path = write(tmp_path, BRUTE + '[formations.brute]\nname = "Brute Formation"\ncharacter = "brute"\n'
                                   'illustrative = ["name", "character"]\n')
    card = load(user_paths=[path]).formation_for("brute")
    assert (card.cost_colourless, card.hit_bonus, card.extra_dice, card.extra_health) == (1, 1, 1, 1)
    assert card.sources == (("cost_colourless", "line 543"), ("hit_bonus", "line 545"),
                            ("extra_dice", "lines 559, 565"), ("extra_health", "line 573"))


#: (TOML of a user file, the one-line error after "<file>: ")
MALFORMED = [
    (BRUTE.replace("attack = 6", "attack = 13"),
     "characters.brute: front.attack: expected a whole number from 2 to 12, got 13"),
    (BRUTE.replace("armor_points = 0", "armor_points = 1"),
     "characters.brute: front.armor_value: required key missing: 1 armor points need the value to roll on an "
     "armor die (line 239), a whole number from 2 to 12"),
    (BRUTE.replace("armor_points = 0", "armor_points = 0\narmor_value = 7"),
     "characters.brute: front.armor_value: given with armor_points = 0: a character without armor points has "
     "no armor value (line 239); give armor_points >= 1 or leave armor_value out"),
    (BRUTE.replace("attack = 6", "atack = 6"),
     "characters.brute: front.atack: unknown key; accepted: speed, run, cost_colourless, cost_coloured, "
     "health, armor_points, attack, attack_dice, accuracy_near, accuracy_far, shoot_dice, morale, "
     "armor_value, equipment_icons, skills; did you mean attack?"),
    (BRUTE.replace('faction = "raiders"', 'faction = "raiders"\nfactoin = "x"'),
     "characters.brute: factoin: unknown key; accepted: name, faction, front, panic, sources, illustrative, "
     "quirks, notes; did you mean faction?"),
    (BRUTE.replace("morale = 4", "morale = 4\nshoot_dice = 2"),
     "characters.brute: front.shoot_dice: given without accuracy_near: a character with no accuracy cannot "
     "Shoot (lines 139, 203); give accuracy_near or leave it out"),
    (BRUTE.replace("cost_colourless = 1", "cost_colourless = 0").replace("cost_coloured = 1",
                                                                         "cost_coloured = 0"),
     "characters.brute: front.cost_coloured: the activation cost is 0: a character costs at least 1 Order "
     "token (lines 213-217); give cost_colourless or cost_coloured >= 1"),
    (BRUTE.replace("armor_points = 0", 'armor_points = 0\nequipment_icons = ["ranged", "bow"]'),
     "characters.brute: front.equipment_icons[1]: unknown equipment icon \"bow\"; accepted, each once: "
     "ranged, "
     "melee, armor"),
    (BRUTE.replace('"name", "faction", "front"', '"name", "faction"'),
     "characters.brute: front.attack: neither sourced nor illustrative: give its line "
     "(sources.\"front.attack\" "
     "= \"line N\") or list it in illustrative"),
    (BRUTE.replace('"name", "faction", "front"', '"name", "faction", "front"]\nsources = { "front.health" = '
                                                 '"line 227" }\n#'),
     "characters.brute: front.health: both printed (sources.front.health) and illustrative (\"front\"); a "
     "value "
     "is one or the other"),
    (BRUTE.replace('"front"]', '"front", "front.acuracy_far"]'),
     "characters.brute: illustrative[3]: \"front.acuracy_far\" is not a value field of this entry; did you "
     "mean "
     "front.accuracy_near?"),
    (BRUTE.replace('"name", "faction", "front"', '"faction", "front"]\nsources = { name = "page 5" }\n#'),
     "characters.brute: sources.name: expected \"line N\", \"lines N-M\" or \"lines N, M\" with the lines in "
     "order, got \"page 5\""),
    (BRUTE.replace('"name", "faction", "front"', '"faction", "front"]\n[characters.brute.sources]\n'
                                                 'front.attack = "line 197"\nname = "line 1"\n#'),
     "characters.brute: sources.front: expected \"line N\", \"lines N-M\" or \"lines N, M\" with the lines "
     "in "
     "order (quote a dotted path: \"front.attack\" = \"line N\"), got a table"),
    ('[board]\nperiod_1 = ["move"]\nperiod_2 = ["fight", "aim+shot"]\n',
     "board: period_2[1]: unknown action \"aim+shot\"; accepted: " + ", ".join(ACTIONS)
     + "; did you mean aim+shoot?"),
    ('[board]\nperiod_1 = []\nperiod_2 = ["fight"]\n', "board: period_1: expected at least one Action (lines "
                                                         "127, 137)"),
    ('[charcters.brute]\nname = "Brute"\n',
     "charcters: unknown table; accepted: characters, leaders, formations, equipment, vocations, board; did "
     "you mean characters?"),
    ('[formations.brute]\nname = "Brute Formation"\ncharacter = "brut"\n'
     'illustrative = ["name", "character"]\n',
     "formations.brute: character: unknown character \"brut\"; known: analyst, copp, ork-edo-drummer, "
     "orkedo-player, oshi-goru, rah-na, roh-na, splatter"),
    ('[formations.second]\nname = "Second"\ncharacter = "oshi-goru"\nillustrative = ["name", "character"]\n',
     "formations.second: character: \"oshi-goru\" already has the Formation card 'oshi-goru'; give each "
     "character at most one"),
    ('[leaders.boss]\nname = "Boss"\nfaction = "Raiders"\norders = [3, 4]\nskill = "x"\n',
     "leaders.boss: faction: expected a lower-case faction key like \"raiders\", got \"Raiders\"; did you "
     "mean "
     "'raiders'?"),
    ('[leaders.boss]\nname = "Boss"\nfaction = "raiders"\norders = [3, 4, 5]\nskill = "x"\n',
     "leaders.boss: orders: expected [left, right], the Order tokens of Periods 1 and 2 (line 261), got a "
     "list "
     "of 3"),
    ('[equipment.gun]\nname = "Gun"\nicon = "ranged"\nchanges = { shot_dice = 1 }\ntext = "x"\n',
     "equipment.gun: changes.shot_dice: unknown key; accepted: " + ", ".join(
         ["attack", "attack_dice", "speed", "run", "accuracy_near", "accuracy_far", "shoot_dice",
          "cost_colourless", "cost_coloured", "health", "morale", "armor_points", "armor_value"])
     + "; did you mean shoot_dice?"),
    ('[characters.Brute]\nname = "Brute"\n',
     "characters.Brute: a key is a lower-case slug of the name, e.g. 'brute'"),
    ("[characters.brute\n",
     "line 1, column 18: invalid TOML: Expected ']' at the end of a table declaration"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=[m[1].split(":")[0] + f"-{i}"
                                                          for i, m in enumerate(MALFORMED)])
def test_a_malformed_file_gives_one_line_naming_file_entry_and_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(CatalogError) as caught:
        load(user_paths=[path])
    assert str(caught.value) == f"{path}: {message}"
    assert "\n" not in str(caught.value)


def test_a_missing_file_and_a_catalog_without_a_board(tmp_path):
    with pytest.raises(CatalogError, match=r"nowhere\.toml: cannot read: No such file or directory$"):
        load(user_paths=[tmp_path / "nowhere.toml"])
    path = write(tmp_path, BRUTE)
    with pytest.raises(CatalogError, match=r"^.*mine\.toml: board: required table missing"):
        load(path)


def test_loading_the_catalog_and_the_deck_module_imports_neither_numpy_nor_tomllib():
    probe = ("import sys, rulesets.warbound.catalog, rulesets.warbound.deck; "
             "print([m for m in ('numpy', 'tomllib') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --- decks --------------------------------------------------------------------------------------------

LEGAL = """
[deck]
leader = "Raiders Warlord"
vocation = "Veteran's"

[[deck.characters]]
name = "COPP"
equipment = "War Axe"

[[deck.characters]]
name = "Splatter"

[[deck.characters]]
name = "Analyst"

[[deck.characters]]
name = "Roh'na"
formation = true
"""

ORKEDO = """
[deck]
leader = "Orkedo Chief"
[[deck.characters]]
name = "Roh'na"
equipment = "Raider Plate"
[[deck.characters]]
name = "Oshi'goru"
formation = true
[[deck.characters]]
name = "Rah'na"
[[deck.characters]]
name = "Ork'edo Drummer"
[[deck.characters]]
name = "Orkedo Player"
"""


def test_a_legal_deck_is_read_and_accepted(catalog):
    deck = parse_deck(LEGAL, catalog)
    assert deck == Deck("raiders-warlord", "veterans", (
        DeckEntry("copp", "war-axe"), DeckEntry("splatter"), DeckEntry("analyst"),
        DeckEntry("roh-na", formation="formation")))
    assert (deck.cards, deck.upgrades) == (8, 3)
    assert validate_deck(deck, catalog) is None
    import tomllib

    assert parse_deck(tomllib.loads(LEGAL), catalog) == deck
    assert parse_deck(tomllib.loads(LEGAL)["deck"], catalog) == deck


def test_formation_cards_may_repeat_and_a_character_takes_both_upgrade_kinds(catalog):
    text = LEGAL.replace('vocation = "Veteran\'s"\n', "").replace('name = "Splatter"',
                                                                   'name = "Splatter"\nformation = true')
    deck = parse_deck(text, catalog)
    assert [e.formation for e in deck.entries] == [None, "formation", None, "formation"]
    validate_deck(deck, catalog)
    both = parse_deck(ORKEDO.replace('"Raider Plate"', '"War Axe"\nformation = true')
                      .replace('name = "Oshi\'goru"\nformation = true', 'name = "Oshi\'goru"'), catalog)
    assert both.entries[0] == DeckEntry("roh-na", "war-axe", "formation")
    validate_deck(both, catalog)
    assert parse_deck(ORKEDO, catalog).entries[1].formation == "oshi-goru"


#: (how the legal deck is broken, the error message)
BROKEN = {
    "8 cards (line 69)": (
        LEGAL.replace('[[deck.characters]]\nname = "Analyst"\n', ""),
        "illegal deck: 7 cards (1 Leader, 1 Vocation, 3 Characters, 2 Equipment and Formation); an "
        "Exploration "
        "deck has exactly 8 (line 69)"),
    "one Leader (lines 77, 255): two": (
        LEGAL.replace('"Raiders Warlord"', '["Raiders Warlord", "Orkedo Chief"]'),
        "deck: deck.leader: 2 cards given; a deck has exactly one Leader card (lines 77, 255)"),
    "one Leader (lines 77, 255): none": (
        LEGAL.replace('leader = "Raiders Warlord"\n', ""),
        "deck: deck.leader: no Leader card; a deck has exactly one Leader card (lines 77, 255)"),
    "two Upgrades (lines 79, 269)": (
        LEGAL.replace('vocation = "Veteran\'s"\n', "").replace("formation = true\n", "")
        + '[[deck.characters]]\nname = "Oshi\'goru"\n[[deck.characters]]\nname = "Orkedo Player"\n',
        "illegal deck: 1 Upgrade card; a deck needs at least 2 (lines 79, 269)"),
    "unique names (lines 71, 85)": (
        LEGAL.replace('name = "Analyst"', 'name = "copp"'),
        "illegal deck: COPP appears 2 times; cards are unique by name, Formation cards excepted (lines 71, "
        "85)"),
    "unique names (lines 71, 85): Equipment": (
        LEGAL.replace('name = "Analyst"', 'name = "Analyst"\nequipment = "war axe"').replace(
            "formation = true\n", ""),
        "illegal deck: War Axe appears 2 times; cards are unique by name, Formation cards excepted (lines "
        "71, "
        "85)"),
    "one Equipment per Character (lines 81, 271)": (
        LEGAL.replace('"War Axe"', '["War Axe", "Long Rifle"]'),
        "deck: deck.characters[0].equipment: 2 cards given; each Character receives at most one Equipment "
        "card "
        "(lines 81, 271)"),
    "no Equipment of a type printed (lines 243, 283)": (
        LEGAL.replace('"War Axe"', '"Long Rifle"'),
        "illegal deck: COPP already carries ranged equipment (an icon on its card), so it cannot take the "
        "ranged "
        "Equipment card Long Rifle (lines 243, 283)"),
    "one Formation per Character (line 83)": (
        LEGAL.replace("formation = true", 'formation = ["Formation", "Formation"]'),
        "deck: deck.characters[3].formation: 2 cards given; each Character receives at most one Formation "
        "card "
        "(line 83)"),
    "a Formation card of its own Character (line 83)": (
        LEGAL.replace("formation = true", 'formation = "Oshi\'goru Formation"'),
        "illegal deck: Oshi'goru Formation is the Formation card of Oshi'goru, not of Roh'na: it adds a "
        "miniature of the Character it is attached to (line 83)"),
    "one Vocation per Leader (line 87)": (
        LEGAL.replace('"Veteran\'s"', '["Veteran\'s", "veterans"]'),
        "deck: deck.vocation: 2 cards given; each Leader card receives at most one Vocation card (line 87)"),
    "a faction Vocation on its faction's Leader (line 309)": (
        LEGAL.replace('"Raiders Warlord"', '"Orkedo Chief"'),
        "illegal deck: Veteran's is a raiders Vocation card; it attaches only to a Leader that generates "
        "raiders Order tokens, and Orkedo Chief generates orkedo ones (line 309)"),
    "a faction Equipment with its faction's Leader (line 310)": (
        ORKEDO,
        "illegal deck: Raider Plate is a raiders Equipment card; it needs a Leader that generates raiders "
        "Order "
        "tokens, and Orkedo Chief generates orkedo ones (line 310)"),
}


@pytest.mark.parametrize("text, message", BROKEN.values(), ids=BROKEN.keys())
def test_each_broken_limit_is_named_with_its_line(catalog, text, message):
    with pytest.raises(DeckError) as caught:
        validate_deck(parse_deck(text, catalog), catalog)
    assert str(caught.value) == message


def test_the_same_deck_is_legal_with_its_own_faction_leader(catalog):
    validate_deck(parse_deck(ORKEDO.replace('"Orkedo Chief"', '"Raiders Warlord"'), catalog), catalog)


def test_every_broken_limit_is_listed_in_one_line(catalog):
    deck = Deck("orkedo-chief", "veterans", (DeckEntry("copp", "long-rifle"), DeckEntry("copp")))
    with pytest.raises(DeckError) as caught:
        validate_deck(deck, catalog)
    assert str(caught.value) == (
        "illegal deck: COPP already carries ranged equipment (an icon on its card), so it cannot take the "
        "ranged Equipment card Long Rifle (lines 243, 283); COPP appears 2 times; cards are unique by name, "
        "Formation cards excepted (lines 71, 85); Veteran's is a raiders Vocation card; it attaches only to "
        "a "
        "Leader that generates raiders Order tokens, and Orkedo Chief generates orkedo ones (line 309); 5 "
        "cards (1 Leader, 1 Vocation, 2 Characters, 1 Equipment and Formation); an Exploration deck has "
        "exactly 8 (line 69)")
    small = dataclasses.replace(parse_deck(LEGAL, catalog), entries=parse_deck(LEGAL, catalog).entries[:3])
    validate_deck(small, catalog, size=6)
    with pytest.raises(DeckError, match=r"^illegal deck: 6 cards .*; a 9-card deck has exactly 9 "
                                        r"\(line 69\)$"):
        validate_deck(small, catalog, size=9)


def test_unknown_cards_are_named_with_suggestions(catalog):
    with pytest.raises(DeckError) as caught:
        parse_deck(LEGAL.replace('"War Axe"', '"War Ax"'), catalog)
    assert str(caught.value) == ("deck: deck.characters[0].equipment: unknown Equipment card 'War Ax' (did "
                                 "you mean war-axe?); known: long-rifle, raider-plate, war-axe")
    with pytest.raises(DeckError, match=r"^deck: deck\.characters\[1\]\.name: unknown character 'Splater' "
                                        r"\(did you mean splatter\?\); known: "):
        parse_deck(LEGAL.replace('"Splatter"', '"Splater"'), catalog)
    with pytest.raises(DeckError, match=r"^mydeck\.toml: deck\.characters\[0\]\.x: unknown key; accepted: "
                                        r"name, equipment, formation$"):
        parse_deck(LEGAL.replace('equipment = "War Axe"', 'equipment = "War Axe"\n[deck.characters.x]\n'),
                   catalog, label="mydeck.toml")
    with pytest.raises(RulesError, match=r"^unknown leader 'warlord' \(did you mean raiders-warlord\?\)"):
        validate_deck(Deck("warlord", None, ()), catalog)
