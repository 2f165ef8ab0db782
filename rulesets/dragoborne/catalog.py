"""Load the Dragoborne catalog: a pool of cards and example decks, and check a deck against the deck
regulations (seed 001; ../shared/RULES.md §5).

The game guide prints no card. It names a card's parts (cost, name, type, dragocross, text, ATK, EDR,
nation symbol; lines 27-54, 56-74), two card types a deck holds, creature (line 29) and spell (lines 56,
76), and the banner cards that stay out of it (lines 98-108, 145); the five keyword abilities (lines
298-321), the DICE X-Y icons (line 282) and Fort Burst (lines 246, 286-288). So the packaged
``data/examples.toml`` is ILLUSTRATIVE throughout: its cards and decks are invented to exercise the rules,
every entry says ``illustrative = true``, and reports must say so (:attr:`Catalog.is_illustrative`,
:attr:`Catalog.illustrative_note`). Its header comment describes the schema. User files given to
:func:`load` use the same schema and are applied on top: an entry whose key exists in the same table
replaces it as a whole, a new key adds one.

Each value field of an entry (``name``, ``cost``, ``dragocross.red``, ``dice[0]``...;
:attr:`Card.value_paths`; an ancestor such as ``dragocross`` stands for every value under it) is in exactly
one of ``sources`` and ``illustrative``; ``illustrative = true`` lists them all. Breaking the schema raises
:class:`CatalogError`, one line naming file, entry, key and value, and what is accepted:
``my.toml: cards.ember-drake: cost: expected a whole number from 0 to 20, or "-" ..., got -1``.

Colours are the players' (only red and green are named, line 149): a card's colour is any colour name but
white, which in an icon means any colour (lines 15, 19, 274-282). A colour that a DICE X-Y, a dragocross
bonus, a keyword or a banner names must be the colour of some card of the catalog (white too, where an
icon allows it), which catches misspellings.

The deck regulations (lines 141-150) are checked by :func:`validate_deck`, not on loading, so that
``lenient`` can turn the size and copy limits into warnings. :func:`curve` gives a deck's cards by cost
class as the recommended curve counts them (lines 158-164).

Pure Python: the command tree may import this; tomllib (rulesets.toml_fields) is imported when reading.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesets.base import EntryTables, Provenance, RulesError, lookup, plain_name
from rulesets.dragoborne.rules import (  # noqa: F401 (re-exported for the catalog's readers)
    ANY_COLOUR,
    BANNERS,
    BARRIERS,
    CURVE_CLASSES,
    DICE,
    HAND,
    MAX_COPIES,
    MIN_DECK,
    RECOMMENDED_CURVE,
)

if TYPE_CHECKING:
    from rulesets.dragoborne.dice import Condition
    from rulesets.toml_fields import Fields

PACKAGE_FILE = "examples.toml"
PACKAGE_LABEL = f"rulesets/dragoborne/data/{PACKAGE_FILE}"
#: The tables of a catalog file, with what one entry is called in messages.
TABLES = {"cards": "card", "decks": "deck"}
#: The card types a deck holds, with the lines describing them: creature (29-54), spell (56-93). Banner
#: cards (98-108) are not part of a deck (line 145): a deck gives its banners' colours.
CARD_TYPES = {"creature": "lines 29-54", "spell": "lines 56-93"}
#: The keyword abilities (lines 298-321), with the lines defining each.
KEYWORDS = {"ambush": "lines 300-304", "assassin": "lines 306-308", "deadly": "lines 310-312",
            "immune": "lines 314-316", "invade": "lines 318-321"}
#: Keywords only a creature has ("Creatures with the Assassin ability", line 308; 312; 316; 320); Ambush is
#: any card's (lines 158, 209, 302).
CREATURE_KEYWORDS = ("assassin", "deadly", "immune", "invade")
#: The one creature text the game plays: an Ambush creature's (kernels.Spell.AMBUSHER, DG-spells=all), the
#: whole text matched, case and surrounding blanks aside.
AMBUSHER_TEXT = re.compile(r"if this card is an ambush: when an opposing creature attacks this fort, "
                           r"summon this creature to it; it blocks that attack\.")
#: Keywords naming a colour or a trait ("the color or trait specified", lines 308, 316) or a colour only
#: ("a fort of the specified color", line 320); the others name neither.
TARGETED = {"assassin": "colour or trait", "immune": "colour or trait", "invade": "colour"}
#: No cap on a cost, ATK or EDR is printed; a catalog accepts these at most.
MAX_COST, MAX_STAT = 20, 20
#: The highest face a DICE X-Y may name here; the die's faces (ruling DG-die, 2..100) bound it later.
MAX_FACE = 100
#: Cards setup takes from the deck: the hand and the barriers (lines 172-173).
SETUP_CARDS = HAND + BARRIERS
#: Recommended creatures and spells in a deck (line 156).
RECOMMENDED_CREATURES, RECOMMENDED_SPELLS = (30, 40), (10, 20)
#: The cost printed on a card that may not be played normally from hand (lines 33, 60).
NO_COST = "-"

_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_COLOUR = re.compile(r"^[a-z][a-z-]*$")
_KEYWORD = re.compile(r"^(?P<name>[a-z]+)\s*(?::\s*(?P<target>.*))?$")
_EXAMPLE_KEYS = {"cards": "ember-drake", "decks": "red-blaze"}


class CatalogError(RulesError):
    """A catalog file that cannot be read or breaks the schema (one line: file, entry, key, value)."""


def slug(name: str) -> str:
    """``"Pyre Drake"`` → ``pyre-drake``: the form of catalog keys."""
    return re.sub(r"[^a-z0-9]+", "-", str(name).lower().replace("'", "")).strip("-")


# --- the catalog's types ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Keyword:
    """A keyword ability (lines 298-321) and the colour or trait it names, if any: ``invade:green`` (a fort
    of that colour, line 320), ``immune:red``, ``assassin:trait=knight`` (lines 308, 316)."""

    name: str
    colour: str = ""
    trait: str = ""

    @property
    def text(self) -> str:
        """As a catalog writes it: ``deadly``, ``invade:green``, ``immune:trait=beast``."""
        if self.colour:
            return f"{self.name}:{self.colour}"
        return f"{self.name}:trait={self.trait}" if self.trait else self.name

    @property
    def label(self) -> str:
        """For reading: ``Deadly``, ``Invade (green)``, ``Immune (trait beast)``."""
        target = self.colour or (f"trait {self.trait}" if self.trait else "")
        return f"{self.name.capitalize()}{f' ({target})' if target else ''}"


@dataclass(frozen=True)
class CrossBonus:
    """What a creature gains when dragocrossed with a die of ``colour`` (``white``: any colour), beyond the
    +1/+1 every dragocrossed creature gets (lines 19, 217), which is never stored."""

    colour: str
    atk: int = 0
    edr: int = 0
    keywords: tuple[Keyword, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class DiceCondition:
    """A DICE X-Y (line 282): while the player has a die of ``colour`` (``white``: any colour) showing
    ``low``..``high``, the card gains ``atk``, ``edr``, ``keywords`` and the effect ``text``."""

    colour: str
    low: int
    high: int
    atk: int = 0
    edr: int = 0
    keywords: tuple[Keyword, ...] = ()
    text: str = ""

    @property
    def condition(self) -> Condition:
        """The condition as rulesets.dragoborne.dice computes its odds (``.check(faces)`` against DG-die)."""
        from rulesets.dragoborne.dice import Condition

        return Condition(self.colour, self.low, self.high)


@dataclass(frozen=True)
class Card(Provenance):
    """A creature or spell card (lines 27-93). ``cost``: resources to play it, None for a printed "-" (not
    playable normally from hand, lines 33, 60); ``atk``/``edr``: a creature's (lines 46-51), None for a
    spell; ``dragocross``: creatures' colour bonuses (line 19); ``dice``: its DICE X-Y (line 282);
    ``fort_burst``: its Fort Burst text, "" if none (lines 246, 288); ``text``: other card text."""

    key: str
    name: str
    type: str
    colour: str
    cost: int | None
    atk: int | None = None
    edr: int | None = None
    keywords: tuple[Keyword, ...] = ()
    dragocross: tuple[CrossBonus, ...] = ()
    dice: tuple[DiceCondition, ...] = ()
    fort_burst: str = ""
    text: str = ""
    sources: tuple[tuple[str, str], ...] = ()
    illustrative: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""

    def _paths(self) -> list[str]:
        return ["name", "type", "colour", "cost", *(["atk", "edr"] if self.is_creature else []),
                *(["keywords"] if self.keywords else []),
                *(f"dragocross.{b.colour}" for b in self.dragocross),
                *(f"dice[{i}]" for i in range(len(self.dice))),
                *(["fort_burst"] if self.fort_burst else []), *(["text"] if self.text else [])]

    @property
    def is_creature(self) -> bool:
        return self.type == "creature"

    @property
    def cost_label(self) -> str:
        """The cost as printed: ``3`` or ``-``."""
        return NO_COST if self.cost is None else str(self.cost)

    def keyword(self, name: str) -> Keyword | None:
        """Its printed keyword of this name (gains from dragocross or DICE X-Y not counted), or None."""
        return next((k for k in self.keywords if k.name == name.lower()), None)

    @property
    def ambusher(self) -> bool:
        """A creature with a printed Ambush whose text is the one the game plays (AMBUSHER_TEXT)."""
        return self.is_creature and self.keyword("ambush") is not None and bool(
            AMBUSHER_TEXT.fullmatch(" ".join(self.text.lower().split())))

    @property
    def curve_class(self) -> int:
        """Its row of the recommended curve, 1..5 (5: "5 or more", line 164). Ambush counts as cost 2 (line
        158). Readings: cost 0 counts with cost 1; a "-" cost (not playable from hand) with 5 or more."""
        if self.keyword("ambush"):
            return 2
        return len(CURVE_CLASSES) if self.cost is None else min(max(self.cost, 1), len(CURVE_CLASSES))


@dataclass(frozen=True)
class Deck(Provenance):
    """A deck: its three banners' colours (= its dice's, line 148) and ``cards`` as (card key or name,
    copies), banner cards not included (line 145)."""

    key: str
    name: str
    banners: tuple[str, ...]
    cards: tuple[tuple[str, int], ...]
    sources: tuple[tuple[str, str], ...] = ()
    illustrative: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    notes: str = ""
    origin: str = ""
    _PATHS = ("name", "banners", "cards")

    @property
    def copies(self) -> dict[str, int]:
        """``{card: copies}``."""
        out: dict[str, int] = {}
        for card, n in self.cards:
            out[card] = out.get(card, 0) + n
        return out

    @property
    def size(self) -> int:
        """Cards in the deck, banners not counted (line 145)."""
        return sum(n for _, n in self.cards)


@dataclass(frozen=True)
class Catalog(EntryTables):
    """The cards and decks of the packaged file and the user files; ``files`` the (file, sha256) of every
    file read, packaged first; ``sha256`` the packaged file's own hash when no user file was given, else the
    hash of the files' hashes."""

    cards: dict[str, Card] = field(hash=False)
    decks: dict[str, Deck] = field(hash=False)
    source: str
    sha256: str
    files: tuple[tuple[str, str], ...]
    ENTRY_TABLES = TABLES


    def card(self, name: str) -> Card:
        """A card by key or name: ``pyre-drake``, ``Pyre Drake``."""
        return self.entry("cards", name)

    def deck(self, name: str) -> Deck:
        """A deck by key or name: ``red-blaze``, ``Red Blaze``."""
        return self.entry("decks", name)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours of the catalog's cards, sorted."""
        return tuple(sorted({card.colour for card in self.cards.values()}))

    @property
    def is_illustrative(self) -> bool:
        """Whether any value of any card or deck is illustrative (not printed in the guide)."""
        return any(e.is_illustrative for e in (*self.cards.values(), *self.decks.values()))

    @property
    def illustrative_note(self) -> str:
        """What every output from this catalog must say about its values ("" if none is illustrative)."""
        if not self.is_illustrative:
            return ""
        cards = sum(c.is_illustrative for c in self.cards.values())
        decks = sum(d.is_illustrative for d in self.decks.values())
        return (f"illustrative data: {cards} of {len(self.cards)} cards and {decks} of {len(self.decks)} "
                "decks have values invented for illustration; the Dragoborne game guide (seed 001) prints no "
                "card")


# --- decks ---------------------------------------------------------------------------------------------


def _resolve(deck: Deck | str, catalog: Catalog) -> Deck:
    return deck if isinstance(deck, Deck) else catalog.deck(deck)


def _deck_cards(deck: Deck, catalog: Catalog) -> list[tuple[Card, int]]:
    """(card, copies) of each line of the deck; a RulesError for an unknown card or a bad count."""
    out = []
    for name, copies in deck.cards:
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise RulesError(f"deck {deck.key}: {name}: expected a whole number of copies >= 1, got "
                             f"{copies!r}")
        try:
            card = lookup(catalog.cards, name, "card")
        except RulesError as exc:
            raise RulesError(f"deck {deck.key}: {exc}") from None
        out.append((card, copies))
    return out


def _unknown_colour(colour: str, known: Sequence[str], also: str = "") -> str:
    close = difflib.get_close_matches(colour, list(known), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return (f"unknown colour {colour!r}{hint}; known: {', '.join(known) or 'none'} (the colours of the "
            f"catalog's cards{also})")


def _check_banners(deck: Deck, catalog: Catalog, dice: Sequence[str] | None) -> None:
    banners = tuple(str(b).strip().lower() for b in deck.banners)
    shown = ", ".join(str(b) for b in banners) or "none"
    if len(banners) != BANNERS:
        raise RulesError(f"deck {deck.key}: {len(banners)} banners ({shown}); a player has {BANNERS} banner "
                         f"cards, one per die (lines 147-148)")
    for banner in banners:
        if banner == ANY_COLOUR:
            raise RulesError(f"deck {deck.key}: banner colour 'white' is no die's colour; in an icon white "
                             "means any colour (line 282); give the colours of the deck's three dice")
        if banner not in catalog.colours:
            raise RulesError(f"deck {deck.key}: banners: {_unknown_colour(banner, catalog.colours)}")
    if dice is None:
        return
    dice = tuple(str(d).strip().lower() for d in dice)
    if len(dice) != BANNERS:
        raise RulesError(f"deck {deck.key}: {len(dice)} dice ({', '.join(dice)}); a player has {DICE} "
                         "(line 147)")
    short = Counter(banners) - Counter(dice)
    if short:
        colour = next(iter(short))
        raise RulesError(f"deck {deck.key}: banner colour {colour!r} has no matching die: banners {shown} "
                         f"need dice of the same colours (line 148), got {', '.join(dice)}")


def validate_deck(deck: Deck | str, catalog: Catalog, lenient: bool = False, *,
                  dice: Sequence[str] | None = None) -> list[str]:
    """Check a deck against the deck regulations (lines 141-150) and return its warnings.

    Args:
        deck: a Deck, or the key or name of one of the catalog's decks.
        catalog: the catalog its cards are looked up in (by key or printed name).
        lenient: fewer than 50 cards or more than 4 of one name become warnings instead of errors.
        dice: the player's dice colours, when known: the banners must be the same colours (line 148).

    Returns:
        Warnings, one line each: the limits broken under ``lenient``; an Ambush card whose colour no banner
        has (it can never be played as an ambush, lines 209, 303); cards with a "-" cost (not playable
        from hand, line 33). Cards of colours the banners lack are allowed (line 150).

    Raises:
        RulesError: one line naming the deck and the count or value: banners not three, a banner colour
            white or not a colour of the catalog's cards, or matched by no die; an unknown card (with the
            closest) or a count of copies below 1; fewer than 50 cards or more than 4 copies of one card
            name (unless ``lenient``); fewer than the 11 cards setup draws even when ``lenient``.
    """
    deck = _resolve(deck, catalog)
    _check_banners(deck, catalog, dice)
    cards = _deck_cards(deck, catalog)
    warnings = []
    size = sum(n for _, n in cards)
    if size < MIN_DECK:
        message = (f"deck {deck.key}: {size} cards; a deck needs {MIN_DECK} or more, banner cards not "
                   "counted (line 145)")
        if not lenient:
            raise RulesError(f"{message}; --lenient accepts it with a warning")
        if size < SETUP_CARDS:
            raise RulesError(f"deck {deck.key}: {size} cards; setup alone takes {SETUP_CARDS}: a 5-card hand "
                             "(line 172) and 2 barriers on each of the three forts (line 173)")
        warnings.append(f"{message} (accepted: lenient)")
    by_name: dict[str, list[Any]] = {}
    for card, n in cards:
        by_name.setdefault(plain_name(card.name), [card.name, 0])[1] += n
    for name, n in by_name.values():
        if n > MAX_COPIES:
            message = (f"deck {deck.key}: {n} copies of {name}; a deck may have up to {MAX_COPIES} cards "
                       "with the same card name (line 146)")
            if not lenient:
                raise RulesError(f"{message}; --lenient accepts it with a warning")
            warnings.append(f"{message} (accepted: lenient)")
    banners = {str(b).strip().lower() for b in deck.banners}
    for card in dict.fromkeys(card for card, _ in cards):
        if card.keyword("ambush") and card.colour not in banners:
            warnings.append(f"deck {deck.key}: {card.name} has Ambush but no banner is {card.colour}: it can "
                            "never be played as an ambush (lines 209, 303)")
        if card.cost is None and not card.keyword("ambush"):
            warnings.append(f"deck {deck.key}: {card.name} costs \"-\": it may not be played normally from "
                            "hand (line 33); the curve counts it as 5+")
    return warnings


def curve(deck: Deck | str, catalog: Catalog) -> tuple[int, int, int, int, int]:
    """The deck's cards by cost class 1, 2, 3, 4 and 5 or more, as the recommended curve counts them (lines
    158-164): Ambush cards count as cost 2; cost 0 counts with 1, a "-" cost with 5+ (readings)."""
    counts = [0] * len(CURVE_CLASSES)
    for card, n in _deck_cards(_resolve(deck, catalog), catalog):
        counts[card.curve_class - 1] += n
    return tuple(counts)  # type: ignore[return-value]


def card_types(deck: Deck | str, catalog: Catalog) -> dict[str, int]:
    """The deck's cards by type, ``{"creature": n, "spell": m}`` (recommended 30-40 and 10-20, line 156)."""
    counts = dict.fromkeys(CARD_TYPES, 0)
    for card, n in _deck_cards(_resolve(deck, catalog), catalog):
        counts[card.type] += n
    return counts


# --- reading ------------------------------------------------------------------------------------------


def _show(value: Any) -> str:
    from rulesets.toml_fields import show

    return show(value)


@functools.cache
def _fields() -> type[Fields]:
    """rulesets.toml_fields.Fields raising CatalogError, built on first use (it imports tomllib)."""
    from rulesets.toml_fields import Fields

    class _Fields(Fields):
        error = CatalogError

        def colour(self, key: str, value: Any, white: bool) -> str:
            """A colour name, lower-cased; ``white`` (any colour) only where an icon may say it."""
            if not isinstance(value, str) or not _COLOUR.match(value.strip().lower()):
                also = ' or "white"' if white else ""
                self.fail(key, f"expected a colour name (letters, e.g. \"red\"{also}), got {_show(value)}")
            value = value.strip().lower()
            if value == ANY_COLOUR and not white:
                self.fail(key, "white is not a card colour: in an icon it means any colour (lines 15, 19, "
                               "282); give the card's own colour, e.g. \"red\" or \"green\" (line 149)")
            return value

    return _Fields


def _provenance(f: Any, entry: Any) -> Any:
    """``entry`` with its sources and illustrative paths read and checked (rulesets.toml_fields.Fields
    .provenance); ``illustrative = true`` covers every value."""
    return f.provenance(entry, dotted_example="dragocross.red", whole=True)


def _extras(f: Any) -> dict[str, Any]:
    return {"quirks": f.texts("quirks"), "notes": f.text("notes", "", empty=True),
            "origin": f.where.split(": ", 1)[0]}


def _read_keyword(f: Any, key: str, value: Any, creature: bool) -> Keyword:
    accepted = f"accepted: {', '.join(KEYWORDS)} (lines 298-321)"
    if isinstance(value, str) and plain_name(value) == "fortburst":
        f.fail(key, "Fort Burst is no keyword ability (lines 286-288): give the card's fort_burst text")
    m = _KEYWORD.match(value.strip().lower()) if isinstance(value, str) else None
    if m is None:
        f.fail(key, f"expected a keyword like \"deadly\" or \"invade:green\", got {_show(value)}; {accepted}")
    name, target = m["name"], m["target"]
    if name not in KEYWORDS:
        close = difflib.get_close_matches(name, list(KEYWORDS), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ""
        f.fail(key, f"unknown keyword {_show(value)}; {accepted}{hint}")
    line = KEYWORDS[name]
    if name in CREATURE_KEYWORDS and not creature:
        f.fail(key, f"{name} is a creature's ability ({line}); a spell may have ambush only")
    if name not in TARGETED:
        if target is not None:
            f.fail(key, f"{name} names no colour or trait ({line}); write \"{name}\"")
        return Keyword(name)
    wanted = TARGETED[name]
    example = f"\"{name}:green\"" + (f" or \"{name}:trait=knight\"" if "trait" in wanted else "")
    if not target:
        f.fail(key, f"{name} names the {wanted} it applies to ({line}), e.g. {example}")
    if trait_of := re.match(r"^trait\s*(?:=\s*(.*))?$", target):
        trait = (trait_of[1] or "").strip()
        if "trait" not in wanted:
            f.fail(key, f"{name} names a colour, not a trait ({line}), e.g. {example}")
        if not trait:
            f.fail(key, f"expected a trait after \"trait=\", e.g. {example}, got {_show(value)}")
        return Keyword(name, trait=trait)
    if not _COLOUR.match(target) or target == ANY_COLOUR:
        f.fail(key, f"{name} names a {wanted}, e.g. {example}; got {_show(target)}")
    return Keyword(name, colour=target)


def _read_keywords(f: Any, creature: bool) -> tuple[Keyword, ...]:
    out: list[Keyword] = []
    for i, text in enumerate(f.texts("keywords")):
        keyword = _read_keyword(f, f"keywords[{i}]", text, creature)
        if keyword in out:
            f.fail(f"keywords[{i}]", f"{_show(keyword.text)} is listed twice")
        out.append(keyword)
    return tuple(out)


_BONUS = ("atk", "edr", "keywords", "text")


def _read_gain(f: Any, creature: bool, what: str) -> dict[str, Any]:
    """The ``atk``, ``edr``, ``keywords`` and ``text`` a dragocross bonus or DICE X-Y gives."""
    if not creature:
        for key in ("atk", "edr", "keywords"):
            if f.has(key):
                f.fail(key, "given for a spell: only creatures have ATK, EDR and these keywords (lines "
                            "46-51, 308-320); a spell's DICE X-Y effect is its text")
    gain = {"atk": f.whole("atk", 0, MAX_STAT) if f.has("atk") else 0,
            "edr": f.whole("edr", 0, MAX_STAT) if f.has("edr") else 0,
            "keywords": _read_keywords(f, creature), "text": f.text("text") if f.has("text") else ""}
    if not (gain["atk"] or gain["edr"] or gain["keywords"] or gain["text"]):
        f.fail("", f"{what} gives nothing: expected atk, edr, keywords or text")
    return gain


def _read_dragocross(f: Any, creature: bool) -> tuple[CrossBonus, ...]:
    if not f.has("dragocross"):
        return ()
    table = f.data["dragocross"]
    if not creature:
        f.fail("dragocross", "given for a spell: only creatures are dragocrossed (lines 19, 217)")
    if not isinstance(table, dict):
        f.fail("dragocross", f"expected a table of colour = {{ atk, edr, keywords, text }}, got "
                             f"{_show(table)}")
    out = []
    for colour, data in table.items():
        if f.colour(f"dragocross.{colour}", colour, white=True) != colour:
            f.fail(f"dragocross.{colour}", f"expected a lower-case colour, got {_show(colour)}")
        sub = type(f)(f.where, f"{f.prefix}dragocross.{colour}.", data, (), _BONUS)
        what = "the bonus beyond the +1/+1 every dragocrossed creature gets (line 19)"
        out.append(CrossBonus(colour, **_read_gain(sub, creature, what)))
    return tuple(out)


def _read_dice(f: Any, creature: bool) -> tuple[DiceCondition, ...]:
    out = []
    for sub in f.subs("dice", ("colour", "low", "high"), _BONUS):
        colour = sub.colour("colour", sub.data["colour"], white=True)
        low = sub.whole("low", 1, MAX_FACE)
        high = sub.whole("high", low, MAX_FACE)
        out.append(DiceCondition(colour, low, high, **_read_gain(sub, creature, "the DICE X-Y (line 282)")))
    return tuple(out)


_TYPE_HINTS = {
    "barrier": "; barriers are cards of the deck placed face-down on the forts (lines 122, 173), not a type",
    "banner": "; banner cards are not part of a deck (line 145): a deck gives its banners' colours",
    "ambush": "; Ambush is a keyword ability (line 300): give keywords = [\"ambush\"]",
}


def _read_cost(f: Any) -> int | None:
    value = f.data["cost"]
    if value == NO_COST:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COST:
        f.fail("cost", f"expected a whole number from 0 to {MAX_COST}, or \"-\" (not playable from hand, "
                       f"line 33), got {_show(value)}")
    return value


def _read_card(where: str, key: str, data: Any) -> Card:
    f = _fields()(where, "", data, ("name", "type", "colour", "cost"),
                  ("atk", "edr", "keywords", "dragocross", "dice", "fort_burst", "text", "sources",
                   "illustrative", "quirks", "notes"))
    name = f.text("name")
    kind = f.data["type"]
    if not isinstance(kind, str) or kind.strip().lower() not in CARD_TYPES:
        hint = _TYPE_HINTS.get(kind.strip().lower(), "") if isinstance(kind, str) else ""
        f.fail("type", f"unknown card type {_show(kind)}; accepted: creature (line 29), spell (line "
                       f"56){hint}")
    kind = kind.strip().lower()
    creature = kind == "creature"
    colour = f.colour("colour", f.data["colour"], white=False)
    cost = _read_cost(f)
    for stat in ("atk", "edr"):
        if creature and not f.has(stat):
            f.fail(stat, f"required key missing: a creature has ATK and EDR (lines 46-51), whole numbers "
                         f"from 0 to {MAX_STAT}")
        if not creature and f.has(stat):
            f.fail(stat, "given for a spell: only creatures have ATK and EDR (lines 46-51); leave it out")
    atk, edr = (f.whole(s, 0, MAX_STAT) if creature else None for s in ("atk", "edr"))
    card = Card(key, name, kind, colour, cost, atk, edr, _read_keywords(f, creature),
                _read_dragocross(f, creature), _read_dice(f, creature),
                f.text("fort_burst") if f.has("fort_burst") else "", f.text("text") if f.has("text") else "",
                **_extras(f))
    return _provenance(f, card)


def _read_deck(where: str, key: str, data: Any) -> Deck:
    f = _fields()(where, "", data, ("name", "banners", "cards"),
                  ("sources", "illustrative", "quirks", "notes"))
    name = f.text("name")
    banners = tuple(f.colour(f"banners[{i}]", b, white=True) for i, b in enumerate(f.texts("banners")))
    table = f.data["cards"]
    if not isinstance(table, dict) or not table:
        f.fail("cards", f"expected a table of card key = copies, got {_show(table) if table else 'none'}")
    cards = tuple((card, f.whole(f"cards.{card}", 1, value=n)) for card, n in table.items())
    return _provenance(f, Deck(key, name, banners, cards, **_extras(f)))


_READERS = {"cards": _read_card, "decks": _read_deck}


def _parse(label: str, text: str) -> dict[str, dict[str, Any]]:
    """The entries of one catalog file, by table."""
    from rulesets.toml_fields import parse_entries

    return parse_entries(label, text, CatalogError, _READERS,
                         lambda table, key: slug(key) or _EXAMPLE_KEYS[table])[0]


def _named_colours(card: Card) -> list[tuple[str, str, bool]]:
    """(path, colour, white allowed) of every colour a card's bonuses, conditions and keywords name."""
    out = [(f"keywords[{i}]", k.colour, False) for i, k in enumerate(card.keywords) if k.colour]
    for bonus in card.dragocross:
        out.append((f"dragocross.{bonus.colour}", bonus.colour, True))
        out += [(f"dragocross.{bonus.colour}.keywords[{i}]", k.colour, False)
                for i, k in enumerate(bonus.keywords) if k.colour]
    for n, condition in enumerate(card.dice):
        out.append((f"dice[{n}].colour", condition.colour, True))
        out += [(f"dice[{n}].keywords[{i}]", k.colour, False) for i, k in enumerate(condition.keywords)
                if k.colour]
    return out


def _check(cards: Mapping[str, Card]) -> None:
    """Every colour a card names is a colour of the catalog's cards (or white, where an icon may say it)."""
    known = sorted({card.colour for card in cards.values()})
    for key, card in cards.items():
        for path, colour, white in _named_colours(card):
            if colour not in known and not (white and colour == ANY_COLOUR):
                also = "; white: any colour" if white else ""
                unknown = _unknown_colour(colour, known, also)
                raise CatalogError(f"{card.origin}: cards.{key}: {path}: {unknown}")


def load(path: Path | str | None = None, user_paths: Sequence[Path | str] = ()) -> Catalog:
    """The Dragoborne catalog: ``path`` (default: the packaged, illustrative ``data/examples.toml``), then
    each user file in ``user_paths`` on top (an entry with an existing key in the same table replaces it as
    a whole, a new key adds one).

    Raises:
        CatalogError: a file cannot be read or breaks the schema (one line naming file, entry and key).
    """
    from rulesets.toml_fields import catalog_files, fingerprint

    files = catalog_files(__package__, PACKAGE_FILE, PACKAGE_LABEL, path, user_paths, CatalogError)
    tables: dict[str, dict[str, Any]] = {table: {} for table in TABLES}
    for label, text in files:
        for table, read in _parse(label, text).items():
            tables[table].update(read)
    _check(tables["cards"])
    source, digest, hashes = fingerprint(files, "001")
    return Catalog(**tables, source=source, sha256=digest, files=hashes)
