"""The Dragoborne catalog (seed 001, ../shared/seeds/001_1c5696b006866d5d.txt; ../shared/RULES.md §5): the
illustrative pool and its two decks built to the recommended curve (lines 155-164), every value marked
illustrative, the deck validator against the deck regulations (lines 141-150) with its one-line errors and
lenient warnings, the curve by cost class, user files applied over the packaged one, and the loader's
one-line errors naming file, entry and key."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rulesets.base import OptionError, RulesError, ancestry, source_lines
from rulesets.dragoborne.catalog import (
    CARD_TYPES,
    KEYWORDS,
    MAX_COPIES,
    MIN_DECK,
    PACKAGE_LABEL,
    RECOMMENDED_CURVE,
    CatalogError,
    Deck,
    Keyword,
    card_types,
    curve,
    load,
    validate_deck,
)
from rulesets.dragoborne.dice import Die, p_any

SEED_NAME = "001_1c5696b006866d5d.txt"
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DECKS = ("red-blaze", "green-grove")


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


def entries(catalog):
    for table in ("cards", "decks"):
        for key, entry in getattr(catalog, table).items():
            yield table, key, entry


def deck(cards: dict[str, int], banners=("red", "red", "green"), key="test") -> Deck:
    return Deck(key, key.title(), tuple(banners), tuple(cards.items()))


# --- the packaged file ------------------------------------------------------------------------------------


def test_the_packaged_catalog_loads_and_says_which_file_it_read(catalog):
    packaged = (ROOT / "rulesets" / "dragoborne" / "data" / "examples.toml").read_bytes()
    digest = hashlib.sha256(packaged).hexdigest()
    assert catalog.files == ((PACKAGE_LABEL, digest),)
    assert catalog.sha256 == digest
    assert catalog.source == f"seed 001 ({PACKAGE_LABEL})"
    assert (len(catalog.cards), len(catalog.decks)) == (25, 2)
    assert list(catalog.decks) == list(DECKS)
    assert {e.origin for _, _, e in entries(catalog)} == {PACKAGE_LABEL}
    assert catalog.colours == ("green", "red")


def test_the_types_and_keywords_are_the_ones_the_guide_prints(seed):
    assert seed[29].strip() == "CREATURE" and seed[56].strip() == seed[76].strip() == "SPELL"
    assert seed[98].strip() == "BANNERS" and "Not including banner cards" in seed[145]
    assert {t: source_lines(lines)[0] for t, lines in CARD_TYPES.items()} == {"creature": 29, "spell": 56}
    assert seed[298].strip() == "KEYWORD ABILITIES"
    headings = [line.strip() for line in seed[299:] if line.strip() and " " not in line.strip()]
    assert [h.lower() for h in headings] == list(KEYWORDS)
    for name, lines in KEYWORDS.items():
        first, last = source_lines(lines)[0], source_lines(lines)[-1]
        assert seed[first].strip().lower() == name
        assert re.search(f"with (the )?{name.capitalize()}", " ".join(seed[first + 1:last + 1])), name
    assert "Fort Burst" in seed[286] and "fort burst" in seed[288]


def test_every_value_is_illustrative_and_says_so(catalog):
    checked = 0
    for table, key, entry in entries(catalog):
        sourced, invented = {p for p, _ in entry.sources}, set(entry.illustrative)
        assert not sourced, (table, key)
        for path in entry.value_paths:
            assert set(ancestry(path)) & invented, (table, key, path)
            assert entry.source_of(path) is None, (table, key, path)
            checked += 1
        assert entry.is_illustrative, (table, key)
    # 16 creatures x 6 and 9 spells x 4 base fields; 10 keyword lists, 5 bonuses, 5 DICE, 3 fort bursts,
    # 9 texts; 2 decks x 3
    assert checked == 16 * 6 + 9 * 4 + 10 + 5 + 5 + 3 + 9 + 2 * 3
    assert catalog.is_illustrative
    assert catalog.illustrative_note == (
        "illustrative data: 25 of 25 cards and 2 of 2 decks have values invented for illustration; the "
        "Dragoborne game guide (seed 001) prints no card")


def test_the_pool_covers_every_keyword_colour_cost_and_mechanic(catalog):
    cards = catalog.cards.values()
    assert Counter(c.colour for c in cards) == {"red": 13, "green": 12}
    assert Counter(c.type for c in cards) == {"creature": 16, "spell": 9}
    assert {k.name for c in cards for k in c.keywords} == set(KEYWORDS)
    assert Counter(c.curve_class for c in cards if c.colour == "red") == {1: 3, 2: 3, 3: 2, 4: 2, 5: 3}
    assert Counter(c.curve_class for c in cards if c.colour == "green") == {1: 3, 2: 3, 3: 2, 4: 2, 5: 2}
    assert {c.key for c in cards if c.keyword("ambush")} == {"flame-ambusher", "vine-snare"}
    assert [(c.key, c.cost_label) for c in cards if c.cost is None] == [("ruin-of-embers", "-")]
    assert {c.key: [b.colour for b in c.dragocross] for c in cards if c.dragocross} == {
        "cinder-whelp": ["red"], "magma-hound": ["red"], "moss-sprite": ["green"],
        "canopy-hunter": ["green"], "elder-treant": ["green"]}
    assert {c.key: [(d.colour, d.low, d.high) for d in c.dice] for c in cards if c.dice} == {
        "ember-raider": [("red", 5, 6)], "inferno-wyrm": [("white", 6, 6)], "volcanic-wrath": [("red", 4, 6)],
        "thorn-scout": [("green", 4, 6)], "ancient-guardian": [("green", 5, 6)]}
    assert sorted(c.key for c in cards if c.fort_burst) == ["elder-treant", "fire-rain", "ruin-of-embers"]
    for card in cards:
        assert (card.atk is not None, card.edr is not None) == (card.is_creature,) * 2, card.key


def test_cards_read_as_written(catalog):
    hound = catalog.card("Magma Hound")
    assert (hound.cost, hound.atk, hound.edr, hound.keywords) == (4, 3, 4, ())
    (bonus,) = hound.dragocross
    assert (bonus.colour, bonus.atk, bonus.edr, bonus.keywords) == ("red", 1, 0, (Keyword("deadly"),))
    scout = catalog.card("thorn scout").dice[0]
    assert (scout.atk, scout.edr, [k.text for k in scout.keywords]) == (0, 0, ["deadly"])
    assert [k.text for k in catalog.card("ash-scout").keywords] == ["invade:green"]
    assert [k.label for k in catalog.card("inferno-wyrm").keywords] == ["Immune (green)"]
    assert Keyword("immune", trait="beast").text == "immune:trait=beast"
    assert Keyword("immune", trait="beast").label == "Immune (trait beast)"
    assert catalog.card("volcanic-wrath").dice[0].text == "Deal 4 damage instead."
    assert catalog.card("natures wrath").key == catalog.card("Nature's Wrath").key == "natures-wrath"


def test_a_dice_condition_gives_the_odds_of_the_dice_module(catalog):
    wyrm = catalog.card("inferno-wyrm").dice[0].condition.check(6)
    # white 6 on red, red, green d6: 1 - (5/6)^3
    assert p_any((Die("red"), Die("red"), Die("green")), (wyrm,), 6) == Fraction(91, 216)
    raider = catalog.card("ember-raider").dice[0].condition.check(6)
    assert p_any((Die("red"), Die("red"), Die("green")), (raider,), 6) == Fraction(5, 9)


def test_unknown_names_list_the_valid_ones_in_one_line(catalog):
    with pytest.raises(RulesError) as caught:
        catalog.card("Pyre Drak")
    assert str(caught.value).startswith("unknown card 'Pyre Drak' (did you mean pyre-drake?); known: "
                                        "ancient-guardian, ash-scout, blazing-fury, ")
    with pytest.raises(RulesError, match=r"^unknown deck 'blue-storm'; known: green-grove, red-blaze$"):
        catalog.deck("blue-storm")
    with pytest.raises(RulesError, match=r"^unknown catalog table 'banners'; accepted: cards, decks$"):
        catalog.entry("banners", "x")


# --- the two decks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", DECKS)
def test_each_deck_validates_to_the_recommended_curve(catalog, key):
    the_deck = catalog.deck(key)
    assert validate_deck(the_deck, catalog) == []
    assert validate_deck(key, catalog, dice=the_deck.banners) == []
    assert the_deck.size == sum(the_deck.copies.values()) == MIN_DECK == 50
    assert max(the_deck.copies.values()) <= MAX_COPIES
    assert len({catalog.card(k).name for k in the_deck.copies}) == len(the_deck.copies)
    assert curve(the_deck, catalog) == RECOMMENDED_CURVE == (10, 12, 10, 10, 8)
    types = card_types(the_deck, catalog)
    assert 30 <= types["creature"] <= 40 and 10 <= types["spell"] <= 20
    assert len(the_deck.banners) == 3
    assert set(the_deck.banners) == set(catalog.colours)


def test_the_decks_as_built(catalog):
    def colours(d):
        return Counter(catalog.card(c).colour for c, n in d.cards for _ in range(n))

    got = {key: (card_types(key, catalog), colours(d), d.banners) for key, d in catalog.decks.items()}
    assert got == {
        "red-blaze": ({"creature": 37, "spell": 13}, {"red": 43, "green": 7}, ("red", "red", "green")),
        "green-grove": ({"creature": 35, "spell": 15}, {"green": 41, "red": 9}, ("green", "green", "red"))}


def test_the_curve_counts_ambush_as_cost_2(catalog):
    assert [catalog.card(k).curve_class for k in ("vine-snare", "flame-ambusher", "world-tree-colossus",
                                                  "ruin-of-embers", "spark-bolt", "pyre-drake")] == [
        2, 2, 5, 5, 1, 4]
    mixed = deck({"spark-bolt": 3, "vine-snare": 2, "flame-ambusher": 1, "world-tree-colossus": 1,
                  "ruin-of-embers": 1, "Pyre Drake": 4, "inferno-wyrm": 2})
    assert curve(mixed, catalog) == (3, 3, 0, 4, 4)
    assert card_types(mixed, catalog) == {"creature": 8, "spell": 6}
    with pytest.raises(RulesError, match=r"^deck test: unknown card 'pyre-drak' \(did you mean "
                                         r"pyre-drake\?\)"):
        curve(deck({"pyre-drak": 4}), catalog)


# --- the deck validator -------------------------------------------------------------------------------------


def red_blaze(catalog, **changes) -> Deck:
    cards = dict(catalog.deck("red-blaze").cards)
    for key, n in changes.items():
        key = key.replace("_", "-")
        if n is None:
            cards.pop(key)
        else:
            cards[key] = n
    return deck(cards, key="mine")


def test_a_short_deck_is_refused_with_its_count_or_warned_when_lenient(catalog):
    short = red_blaze(catalog, spark_bolt=1)
    message = "deck mine: 49 cards; a deck needs 50 or more, banner cards not counted (line 145)"
    with pytest.raises(RulesError) as caught:
        validate_deck(short, catalog)
    assert str(caught.value) == f"{message}; --lenient accepts it with a warning"
    assert validate_deck(short, catalog, lenient=True) == [f"{message} (accepted: lenient)"]
    assert validate_deck(red_blaze(catalog, spark_bolt=3), catalog) == []


def test_setup_needs_eleven_cards_even_when_lenient(catalog):
    tiny = deck({"pyre-drake": 4, "cinder-whelp": 4, "spark-bolt": 2})
    with pytest.raises(RulesError, match=r"^deck test: 10 cards; a deck needs 50 or more, banner cards not "
                                         r"counted \(line 145\); --lenient accepts it with a warning$"):
        validate_deck(tiny, catalog)
    with pytest.raises(RulesError) as caught:
        validate_deck(tiny, catalog, lenient=True)
    assert str(caught.value) == ("deck test: 10 cards; setup alone takes 11: a 5-card hand (line 172) and 2 "
                                 "barriers on each of the three forts (line 173)")
    eleven = deck({"pyre-drake": 4, "cinder-whelp": 4, "spark-bolt": 3})
    warnings = validate_deck(eleven, catalog, lenient=True)
    assert warnings == ["deck test: 11 cards; a deck needs 50 or more, banner cards not counted (line 145) "
                        "(accepted: lenient)"]


def test_more_than_four_copies_is_refused_or_warned_when_lenient(catalog):
    five = red_blaze(catalog, pyre_drake=5, spark_bolt=1)
    message = ("deck mine: 5 copies of Pyre Drake; a deck may have up to 4 cards with the same card name "
               "(line 146)")
    with pytest.raises(RulesError) as caught:
        validate_deck(five, catalog)
    assert str(caught.value) == f"{message}; --lenient accepts it with a warning"
    assert validate_deck(five, catalog, lenient=True) == [f"{message} (accepted: lenient)"]
    both = red_blaze(catalog, pyre_drake=6, spark_bolt=None, cinder_whelp=2)
    assert validate_deck(both, catalog, lenient=True) == [
        "deck mine: 48 cards; a deck needs 50 or more, banner cards not counted (line 145) (accepted: "
        "lenient)",
        "deck mine: 6 copies of Pyre Drake; a deck may have up to 4 cards with the same card name (line 146) "
        "(accepted: lenient)"]


def test_copies_are_counted_by_card_name_across_keys_and_spellings(catalog, tmp_path):
    twin = write(tmp_path, card("pyre-drake-alt", name='"Pyre Drake"', colour='"red"', atk="4", edr="3"))
    mine = load(user_paths=[twin])
    split = red_blaze(mine, pyre_drake=3, pyre_drake_alt=2, spark_bolt=1)
    with pytest.raises(RulesError, match=r"^deck mine: 5 copies of Pyre Drake; a deck may have up to 4 "):
        validate_deck(split, mine)
    cards = dict(catalog.deck("red-blaze").cards)
    cards.pop("pyre-drake")
    by_name = deck({**cards, "Pyre Drake": 3, "PYRE-DRAKE": 2}, key="mine")
    with pytest.raises(RulesError, match=r"^deck mine: 5 copies of Pyre Drake;"):
        validate_deck(by_name, catalog)


def test_unknown_cards_and_bad_counts(catalog):
    with pytest.raises(RulesError) as caught:
        validate_deck(red_blaze(catalog, pyre_drak=1), catalog)
    assert str(caught.value).startswith("deck mine: unknown card 'pyre-drak' (did you mean "
                                        "pyre-drake?); known: "
                                        "ancient-guardian, ")
    assert "\n" not in str(caught.value)
    with pytest.raises(RulesError, match=r"^deck mine: pyre-drake: expected a whole number of copies >= 1, "
                                         r"got 0$"):
        validate_deck(red_blaze(catalog, pyre_drake=0), catalog)


@pytest.mark.parametrize("banners, message", [
    (("red", "green"),
     "deck test: 2 banners (red, green); a player has 3 banner cards, one per die (lines 147-148)"),
    (("red", "red", "green", "green"),
     "deck test: 4 banners (red, red, green, green); a player has 3 banner cards, one per die (lines "
     "147-148)"),
    (("red", "white", "green"),
     "deck test: banner colour 'white' is no die's colour; in an icon white means any colour (line "
     "282); give "
     "the colours of the deck's three dice"),
    (("red", "gren", "green"),
     "deck test: banners: unknown colour 'gren' (did you mean green?); known: green, red (the colours of the "
     "catalog's cards)"),
    (("red", "blue", "green"),
     "deck test: banners: unknown colour 'blue'; known: green, red (the colours of the catalog's cards)"),
])
def test_banners_must_be_three_known_colours(catalog, banners, message):
    with pytest.raises(RulesError) as caught:
        validate_deck(deck(dict(catalog.deck("red-blaze").cards), banners), catalog)
    assert str(caught.value) == message


def test_banners_must_match_the_dice(catalog):
    red_blaze_deck = catalog.deck("red-blaze")
    assert validate_deck(red_blaze_deck, catalog, dice=("green", "Red", "red")) == []
    with pytest.raises(RulesError) as caught:
        validate_deck(red_blaze_deck, catalog, dice=("red", "green", "green"))
    assert str(caught.value) == ("deck red-blaze: banner colour 'red' has no matching die: banners red, red, "
                                 "green need dice of the same colours (line 148), got red, green, green")
    with pytest.raises(RulesError, match=r"^deck red-blaze: 2 dice \(red, red\); a player has 3 "
                                         r"\(line 147\)$"):
        validate_deck(red_blaze_deck, catalog, dice=("red", "red"))


def test_cards_off_the_banners_colours_are_allowed_but_an_ambush_warns(catalog):
    all_green = deck(dict(catalog.deck("red-blaze").cards), ("green", "green", "green"))
    assert validate_deck(all_green, catalog) == [
        "deck test: Flame Ambusher has Ambush but no banner is red: it can never be played as an ambush "
        "(lines 209, 303)"]
    with_ruin = red_blaze(catalog, ruin_of_embers=1, spark_bolt=1)
    assert validate_deck(with_ruin, catalog) == [
        "deck mine: Ruin of Embers costs \"-\": it may not be played normally from hand (line 33); the curve "
        "counts it as 5+"]
    assert curve(with_ruin, catalog) == (9, 12, 10, 10, 9)


# --- user files ------------------------------------------------------------------------------------------

DRAKE = """
[cards.pyre-drake]
name = "Pyre Drake"
type = "creature"
colour = "red"
cost = 4
atk = 5
edr = 3
keywords = ["deadly", "invade:green"]
dragocross.white = { text = "Draw a card." }
dragocross.red = { atk = 1, edr = 1 }
illustrative = ["cost", "atk", "edr", "keywords", "dragocross"]
sources = { name = "line 35", type = "line 39", colour = "line 33" }
"""

FROST = """
[cards.frost-imp]
name = "Frost Imp"
type = "creature"
colour = "blue"
cost = 0
atk = 1
edr = 1
keywords = ["immune:trait=dragon", "assassin:red"]
dice = [{ colour = "blue", low = 1, high = 8, edr = 2 }]
illustrative = true

[decks.blue-storm]
name = "Blue Storm"
banners = ["blue", "blue", "red"]
cards = { frost-imp = 4, spark-bolt = 4, pyre-drake = 4 }
illustrative = ["name", "banners", "cards"]
"""


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_user_file_replaces_a_card_and_adds_cards_and_decks(tmp_path, catalog):
    path = write(tmp_path, DRAKE + FROST)
    mine = load(user_paths=[path])
    assert list(mine.cards) == [*catalog.cards, "frost-imp"]
    assert list(mine.decks) == [*DECKS, "blue-storm"]
    drake = mine.card("pyre-drake")
    assert (drake.atk, drake.origin, [k.text for k in drake.keywords]) == (5, str(path),
                                                                          ["deadly", "invade:green"])
    assert [(b.colour, b.atk, b.edr, b.text) for b in drake.dragocross] == [
        ("white", 0, 0, "Draw a card."), ("red", 1, 1, "")]
    assert drake.source_of("name") == "line 35" and drake.source_of("dragocross.red") is None
    assert catalog.card("pyre-drake").atk == 4
    assert mine.card("ash-scout") == catalog.card("ash-scout")
    imp = mine.card("frost imp")
    assert (imp.cost, imp.curve_class, imp.keywords) == (
        0, 1, (Keyword("immune", trait="dragon"), Keyword("assassin", colour="red")))
    assert mine.colours == ("blue", "green", "red")
    with pytest.raises(OptionError, match=r"^range 1-8 is not within the die's faces 1-6"):
        imp.dice[0].condition.check(6)
    assert imp.dice[0].condition.check(8).text == "blue 1-8"
    storm = mine.deck("Blue Storm")
    assert curve(storm, mine) == (8, 0, 0, 4, 0)
    with pytest.raises(RulesError, match=r"^deck blue-storm: 12 cards; a deck needs 50 or more"):
        validate_deck(storm, mine)
    user_hash = hashlib.sha256(path.read_bytes()).hexdigest()
    assert mine.files == (catalog.files[0], (str(path), user_hash))
    assert mine.sha256 == hashlib.sha256(f"{catalog.sha256}\n{user_hash}".encode()).hexdigest()
    assert mine.source == f"seed 001 ({PACKAGE_LABEL}, {path})"
    assert load(user_paths=path).cards == mine.cards


def test_a_catalog_of_its_own_replaces_the_packaged_one(tmp_path):
    own = FROST.replace(", spark-bolt = 4, pyre-drake = 4", "")
    with pytest.raises(CatalogError) as caught:
        load(write(tmp_path, own))  # its Assassin names red, and no card of this catalog is red
    assert str(caught.value) == (f"{tmp_path / 'mine.toml'}: cards.frost-imp: keywords[1]: unknown colour "
                                 "'red'; known: blue (the colours of the catalog's cards)")
    mine = load(write(tmp_path, own.replace('"assassin:red"', '"assassin:blue"')))
    assert (list(mine.cards), list(mine.decks)) == (["frost-imp"], ["blue-storm"])
    assert mine.colours == ("blue",)


def card(key: str = "ember", **fields: str | None) -> str:
    """A user file with one card: a red cost-2 creature 2/2, every value illustrative, with ``fields``
    replaced (None drops a key)."""
    values = {"name": '"Ember"', "type": '"creature"', "colour": '"red"', "cost": "2", "atk": "2", "edr": "2",
              "illustrative": "true"}
    values.update(fields)
    body = "\n".join(f"{k} = {v}" for k, v in values.items() if v is not None)
    return f"[cards.{key}]\n{body}\n"


def spell(**fields: str | None) -> str:
    return card("hex", **{"name": '"Hex"', "type": '"spell"', "atk": None, "edr": None, **fields})


CARD_FIELDS = ("name, type, colour, cost, atk, edr, keywords, dragocross, dice, fort_burst, text, sources, "
               "illustrative, quirks, notes")
KEYWORD_LIST = "accepted: ambush, assassin, deadly, immune, invade (lines 298-321)"

#: (TOML of a user file, the one-line error after "<file>: ")
MALFORMED = [
    (card(colour='"white"'),
     "cards.ember: colour: white is not a card colour: in an icon it means any colour (lines 15, 19, 282); "
     "give the card's own colour, e.g. \"red\" or \"green\" (line 149)"),
    (card(colour='"red 2"'), "cards.ember: colour: expected a colour name (letters, e.g. \"red\"), got "
                             "\"red 2\""),
    (card(cost="-1"),
     "cards.ember: cost: expected a whole number from 0 to 20, or \"-\" (not playable from hand, line 33), "
     "got -1"),
    (card(cost='"two"'),
     "cards.ember: cost: expected a whole number from 0 to 20, or \"-\" (not playable from hand, line 33), "
     "got \"two\""),
    (card(cost="2.5"),
     "cards.ember: cost: expected a whole number from 0 to 20, or \"-\" (not playable from hand, line 33), "
     "got 2.5"),
    (card(atk=None),
     "cards.ember: atk: required key missing: a creature has ATK and EDR (lines 46-51), whole numbers from 0 "
     "to 20"),
    (card(edr="-1"), "cards.ember: edr: expected a whole number from 0 to 20, got -1"),
    (spell(atk="1"),
     "cards.hex: atk: given for a spell: only creatures have ATK and EDR (lines 46-51); leave it out"),
    (card(type='"barrier"'),
     "cards.ember: type: unknown card type \"barrier\"; accepted: creature (line 29), spell (line 56); "
     "barriers "
     "are cards of the deck placed face-down on the forts (lines 122, 173), not a type"),
    (card(type='"banner"'),
     "cards.ember: type: unknown card type \"banner\"; accepted: creature (line 29), spell (line 56); banner "
     "cards are not part of a deck (line 145): a deck gives its banners' colours"),
    (card(type='"ambush"'),
     "cards.ember: type: unknown card type \"ambush\"; accepted: creature (line 29), spell (line 56); Ambush "
     "is a keyword ability (line 300): give keywords = [\"ambush\"]"),
    (card(keywords='["flying"]'), f"cards.ember: keywords[0]: unknown keyword \"flying\"; {KEYWORD_LIST}"),
    (card(keywords='["dedly"]'),
     f"cards.ember: keywords[0]: unknown keyword \"dedly\"; {KEYWORD_LIST}; did you mean deadly?"),
    (card(keywords='["Fort Burst"]'),
     "cards.ember: keywords[0]: Fort Burst is no keyword ability (lines 286-288): give the card's fort_burst "
     "text"),
    (card(keywords='["deadly", "Deadly"]'), "cards.ember: keywords[1]: \"deadly\" is listed twice"),
    (card(keywords='["invade"]'),
     "cards.ember: keywords[0]: invade names the colour it applies to (lines 318-321), e.g. "
     "\"invade:green\""),
    (card(keywords='["invade:trait=knight"]'),
     "cards.ember: keywords[0]: invade names a colour, not a trait (lines 318-321), e.g. \"invade:green\""),
    (card(keywords='["immune"]'),
     "cards.ember: keywords[0]: immune names the colour or trait it applies to (lines 314-316), e.g. "
     "\"immune:green\" or \"immune:trait=knight\""),
    (card(keywords='["immune:white"]'),
     "cards.ember: keywords[0]: immune names a colour or trait, e.g. \"immune:green\" or "
     "\"immune:trait=knight\"; got \"white\""),
    (card(keywords='["deadly:red"]'),
     "cards.ember: keywords[0]: deadly names no colour or trait (lines 310-312); write \"deadly\""),
    (card(keywords='["assassin:gren"]'),
     "cards.ember: keywords[0]: unknown colour 'gren' (did you mean green?); known: green, red (the colours "
     "of the catalog's cards)"),
    (spell(keywords='["deadly"]'),
     "cards.hex: keywords[0]: deadly is a creature's ability (lines 310-312); a spell may have ambush only"),
    (spell(**{"dragocross.red": "{ atk = 1 }"}),
     "cards.hex: dragocross: given for a spell: only creatures are dragocrossed (lines 19, 217)"),
    (card(**{"dragocross.red": "{ }"}),
     "cards.ember: dragocross.red: the bonus beyond the +1/+1 every dragocrossed creature gets (line "
     "19) gives "
     "nothing: expected atk, edr, keywords or text"),
    (card(**{"dragocross.rde": "{ atk = 1 }"}),
     "cards.ember: dragocross.rde: unknown colour 'rde' (did you mean red?); known: green, red (the "
     "colours of "
     "the catalog's cards; white: any colour)"),
    (card(**{"dragocross.red": "{ atk = 1, def = 1 }"}),
     "cards.ember: dragocross.red.def: unknown key; accepted: atk, edr, keywords, text"),
    (card(**{"dragocross.red": '{ keywords = ["flying"] }'}),
     f"cards.ember: dragocross.red.keywords[0]: unknown keyword \"flying\"; {KEYWORD_LIST}"),
    (card(dragocross="3"),
     "cards.ember: dragocross: expected a table of colour = { atk, edr, keywords, text }, got 3"),
    (card(dice='[{ colour = "red", low = 0, high = 3, atk = 1 }]'),
     "cards.ember: dice[0].low: expected a whole number from 1 to 100, got 0"),
    (card(dice='[{ colour = "red", low = 4, high = 3, atk = 1 }]'),
     "cards.ember: dice[0].high: expected a whole number from 4 to 100, got 3"),
    (card(dice='[{ colour = "red", low = 4, high = 101, atk = 1 }]'),
     "cards.ember: dice[0].high: expected a whole number from 4 to 100, got 101"),
    (card(dice='[{ colour = "red", low = 4, high = 6 }]'),
     "cards.ember: dice[0]: the DICE X-Y (line 282) gives nothing: expected atk, edr, keywords or text"),
    (card(dice='[{ colour = "purple", low = 4, high = 6, atk = 1 }]'),
     "cards.ember: dice[0].colour: unknown colour 'purple'; known: green, red (the colours of the catalog's "
     "cards; white: any colour)"),
    (card(dice='[{ low = 4, high = 6, atk = 1 }]'), "cards.ember: dice[0].colour: required key missing"),
    (spell(dice='[{ colour = "red", low = 4, high = 6, atk = 1 }]'),
     "cards.hex: dice[0].atk: given for a spell: only creatures have ATK, EDR and these keywords (lines "
     "46-51, 308-320); a spell's DICE X-Y effect is its text"),
    (card(atack="2"),
     f"cards.ember: atack: unknown key; accepted: {CARD_FIELDS}; did you mean atk?"),
    (card(name=None), "cards.ember: name: required key missing"),
    (card(illustrative="false"),
     "cards.ember: illustrative: expected true (every value illustrative) or a list of the illustrative "
     "fields, got false"),
    (card(sources='{ name = "line 35" }'),
     "cards.ember: illustrative: true makes every value illustrative, but sources.name cites a line; "
     "list the "
     "illustrative fields instead"),
    (card(illustrative='["name", "type", "colour", "cost", "atk"]'),
     "cards.ember: edr: neither sourced nor illustrative: give its line (sources.\"edr\" = \"line N\"), list "
     "it in illustrative, or mark the entry illustrative = true"),
    (card(illustrative='["name", "type", "colour", "cost", "atk", "edr", "keywords"]'),
     "cards.ember: illustrative[6]: \"keywords\" is not a value field of this entry; accepted: name, type, "
     "colour, cost, atk, edr"),
    (card(illustrative='["name", "type", "colour", "cost", "atk", "ed"]'),
     "cards.ember: illustrative[5]: \"ed\" is not a value field of this entry; did you mean edr?"),
    (card(illustrative='["name", "type", "colour", "cost", "atk", "edr", "dragocross"]',
          **{"dragocross.red": "{ atk = 1 }"}, sources='{ "dragocross.red" = "line 19" }'),
     "cards.ember: dragocross.red: both printed (sources.dragocross.red) and illustrative "
     "(\"dragocross\"); a "
     "value is one or the other"),
    (card(illustrative='["name", "type", "colour", "cost", "atk"]', sources='{ edr = "page 4" }'),
     "cards.ember: sources.edr: expected \"line N\", \"lines N-M\" or \"lines N, M\" with the lines in "
     "order, "
     "got \"page 4\""),
    ('[decks.mine]\nname = "Mine"\nbanners = ["red", "red", "green"]\ncards = { pyre-drake = 0 }\n'
     "illustrative = true\n",
     "decks.mine: cards.pyre-drake: expected a whole number >= 1, got 0"),
    ('[decks.mine]\nname = "Mine"\nbanners = ["red", "red", "green"]\ncards = {}\nillustrative = true\n',
     "decks.mine: cards: expected a table of card key = copies, got none"),
    ('[decks.mine]\nname = "Mine"\nbanners = "red"\ncards = { pyre-drake = 4 }\nillustrative = true\n',
     "decks.mine: banners: expected a list of text, got \"red\""),
    ('[decks.mine]\nname = "Mine"\ncards = { pyre-drake = 4 }\nillustrative = true\n',
     "decks.mine: banners: required key missing"),
    ('[banners.red]\nname = "Red"\n',
     "banners: unknown table; accepted: cards, decks"),
    ('[card.ember]\nname = "Ember"\n', "card: unknown table; accepted: cards, decks; did you mean cards?"),
    ('[cards.Ember_Drake]\nname = "Ember"\n',
     "cards.Ember_Drake: a key is a lower-case slug of the name, e.g. 'ember-drake'"),
    ("cards = 3\n", "cards: expected a table of entries, got 3"),
    ("[cards.ember\n", "line 1, column 13: invalid TOML: Expected ']' at the end of a table declaration"),
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
    path.write_bytes('[cards.imp]\nname = "Ïmp"\n'.encode("latin-1"))
    with pytest.raises(CatalogError, match=r"latin1\.toml: not UTF-8 text \(byte 20\)$"):
        load(user_paths=[path])


def test_a_dash_cost_and_a_white_dice_condition_load(tmp_path):
    text = card(cost='"-"', dice='[{ colour = "white", low = 1, high = 1, keywords = ["deadly"] }]',
                fort_burst='"Destroy the attacking creature."')
    ember = load(user_paths=[write(tmp_path, text)]).card("ember")
    assert (ember.cost, ember.cost_label, ember.curve_class) == (None, "-", 5)
    assert ember.dice[0].keywords == (Keyword("deadly"),)
    assert ember.value_paths == ("name", "type", "colour", "cost", "atk", "edr", "dice[0]", "fort_burst")


def test_loading_the_catalog_imports_neither_numpy_nor_tomllib():
    probe = ("import sys, rulesets.dragoborne.catalog; "
             "print([m for m in ('numpy', 'tomllib') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
