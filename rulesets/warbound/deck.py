"""Warbound decks (lines 63-87, 243, 253-283, 305-310): reading a deck from TOML and checking it against
the deck-building rules of the Exploration format.

A deck file::

    [deck]
    leader = "Raiders Warlord"          # exactly one Leader card (lines 77, 255)
    vocation = "Veteran's"              # at most one Vocation card, attached to the Leader (line 87)
    [[deck.characters]]
    name = "COPP"
    equipment = "War Axe"               # at most one Equipment card per Character (lines 81, 271)
    [[deck.characters]]
    name = "Roh'na"
    formation = true                    # its Formation card (catalog.formation_for), or a card's name

Names are catalog keys or printed names (case, spaces and apostrophes ignored). :func:`validate_deck`
lists every limit the deck breaks, each with its line, in one :class:`DeckError`.

Pure Python: the command tree may import this; tomllib (rulesets.toml_fields) is imported when reading.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesets.base import RulesError
from rulesets.warbound.catalog import ANY_FACTION

if TYPE_CHECKING:
    from rulesets.toml_fields import Fields
    from rulesets.warbound.catalog import Catalog

#: Cards in an Exploration deck (line 69).
EXPLORATION_SIZE = 8
#: Upgrade cards an Exploration deck needs at least (lines 79, 269).
MIN_UPGRADES = 2


class DeckError(RulesError):
    """A deck that cannot be read or breaks a deck-building rule (one line naming each rule and its line)."""


@dataclass(frozen=True)
class DeckEntry:
    """A Character card with the Upgrade cards attached to it (keys, or names to look up)."""

    character: str
    equipment: str | None = None
    formation: str | None = None


@dataclass(frozen=True)
class Deck:
    """A deck: its Leader, the Vocation attached to it, and the Characters with their Upgrades."""

    leader: str
    vocation: str | None
    entries: tuple[DeckEntry, ...]

    @property
    def upgrades(self) -> int:
        """Upgrade cards: the Vocation, the Equipment and the Formation cards (line 79)."""
        return (self.vocation is not None) + sum((e.equipment is not None) + (e.formation is not None)
                                                 for e in self.entries)

    @property
    def cards(self) -> int:
        """Cards in the deck: the Leader, the Characters and the Upgrades (line 69)."""
        return 1 + len(self.entries) + self.upgrades


@functools.cache
def _fields() -> type[Fields]:
    from rulesets.toml_fields import Fields

    class _Fields(Fields):
        error = DeckError

        def one(self, key: str, limit: str) -> str | None:
            """The single card name under ``key`` (a name or a list of one); ``limit`` names the rule broken
            by a list of several."""
            value = self.data.get(key)
            if isinstance(value, list):
                if len(value) > 1:
                    self.fail(key, f"{len(value)} cards given; {limit}")
                value = value[0] if value else None
            if value is not None and (not isinstance(value, str) or not value.strip()):
                self.fail(key, f"expected a card name, got {self._show(value)}")
            return value

        @staticmethod
        def _show(value: Any) -> str:
            from rulesets.toml_fields import show

            return show(value)

    return _Fields


def _look_up(f: Any, key: str, find: Any, name: str | None) -> str | None:
    """The catalog key of card ``name`` found by ``find``, or the error naming file, entry and key."""
    if name is None:
        return None
    try:
        return find(name).key
    except RulesError as exc:
        f.fail(key, str(exc))


def parse_deck(source: str | Mapping[str, Any], catalog: Catalog, label: str = "deck") -> Deck:
    """The deck of a TOML text (or of its parsed mapping: the document with a ``deck`` table, or that
    table), with every name resolved to its catalog key. ``label`` names the file in errors.

    Raises:
        DeckError: invalid TOML, unknown keys, several Leaders, Vocations, Equipment or Formation cards
            where one is allowed (each with its line), or an unknown card (with the closest names).
    """
    if isinstance(source, str):
        from rulesets.toml_fields import parse_toml

        source = parse_toml(label, source, DeckError)
    if not isinstance(source, Mapping):
        raise DeckError(f"{label}: expected a TOML text or a mapping, got {type(source).__name__}")
    document = dict(source)
    if "deck" not in document and {"leader", "vocation", "characters"} & document.keys():
        document = {"deck": document}  # the [deck] table itself
    if "deck" not in document:
        raise DeckError(f"{label}: deck: required table missing ([deck] with leader and [[deck.characters]])")
    for table in document:
        if table != "deck":
            raise DeckError(f"{label}: {table}: unknown table; accepted: deck")
    f = _fields()(label, "deck.", document["deck"], ("characters",), ("leader", "vocation"))
    leader = f.one("leader", "a deck has exactly one Leader card (lines 77, 255)")
    if leader is None:
        f.fail("leader", "no Leader card; a deck has exactly one Leader card (lines 77, 255)")
    vocation = f.one("vocation", "each Leader card receives at most one Vocation card (line 87)")
    entries = []
    for c in f.subs("characters", ("name",), ("equipment", "formation")):
        character = _look_up(c, "name", catalog.character, c.text("name"))
        equipment = c.one("equipment", "each Character receives at most one Equipment card (lines 81, 271)")
        formation = c.data.get("formation", False)
        if isinstance(formation, bool):
            formation = _look_up(c, "formation", catalog.formation_for, character if formation else None)
        else:
            formation = _look_up(c, "formation", lambda n: catalog.entry("formations", n),
                                 c.one("formation", "each Character receives at most one Formation card "
                                                    "(line 83)"))
        entries.append(DeckEntry(
            character, _look_up(c, "equipment", lambda n: catalog.entry("equipment", n), equipment),
            formation))
    return Deck(_look_up(f, "leader", catalog.leader, leader),
                _look_up(f, "vocation", lambda n: catalog.entry("vocations", n), vocation), tuple(entries))


def deck_problems(deck: Deck, catalog: Catalog, size: int = EXPLORATION_SIZE) -> list[str]:
    """Every deck-building limit ``deck`` breaks, each naming the limit and its line (empty: legal).

    Raises:
        RulesError: a card the catalog does not know (with the closest names).
    """
    if not deck.leader:
        return ["no Leader card; a deck has exactly one Leader card (lines 77, 255)"]
    leader = catalog.leader(deck.leader)
    vocation = catalog.entry("vocations", deck.vocation) if deck.vocation is not None else None
    problems = []
    names = [leader.name, *([vocation.name] if vocation else [])]
    factions: list[tuple[Any, str]] = [(vocation, "Vocation card")] if vocation else []
    for entry in deck.entries:
        character = catalog.character(entry.character)
        names.append(character.name)
        if entry.equipment is not None:
            equipment = catalog.entry("equipment", entry.equipment)
            names.append(equipment.name)
            factions.append((equipment, "Equipment card"))
            if equipment.icon is not None and equipment.icon in character.front.equipment_icons:
                problems.append(f"{character.name} already carries {equipment.icon} equipment (an icon on "
                                f"its card), so it cannot take the {equipment.icon} Equipment card "
                                f"{equipment.name} (lines 243, 283)")
        if entry.formation is not None:
            formation = catalog.entry("formations", entry.formation)
            if formation.character not in (None, character.key):
                owner = catalog.character(formation.character).name
                problems.append(f"{formation.name} is the Formation card of {owner}, not of "
                                f"{character.name}: it adds a miniature of the Character it is attached to "
                                "(line 83)")
    for name, count in Counter(names).items():
        if count > 1:
            problems.append(f"{name} appears {count} times; cards are unique by name, Formation cards "
                            "excepted (lines 71, 85)")
    for card, kind in factions:
        # a Leader of ANY_FACTION (the reference Leader) "generates Order tokens of the indicated faction"
        # (lines 309-310) whatever that faction is
        if card.faction is not None and leader.faction not in (card.faction, ANY_FACTION):
            where = "attaches only to a Leader" if kind == "Vocation card" else "needs a Leader"
            problems.append(f"{card.name} is a {card.faction} {kind}; it {where} that generates "
                            f"{card.faction} Order tokens, and {leader.name} generates {leader.faction} ones "
                            f"(line {309 if kind == 'Vocation card' else 310})")
    if deck.upgrades < MIN_UPGRADES:
        problems.append(f"{deck.upgrades} Upgrade card{'s' * (deck.upgrades != 1)}; a deck needs at least "
                        f"{MIN_UPGRADES} (lines 79, 269)")
    if deck.cards != size:
        rule = "an Exploration deck" if size == EXPLORATION_SIZE else f"a {size}-card deck"
        attached = deck.upgrades - (vocation is not None)
        problems.append(f"{deck.cards} cards (1 Leader, {int(vocation is not None)} Vocation, "
                        f"{len(deck.entries)} Characters, {attached} Equipment and Formation); {rule} has "
                        f"exactly {size} (line 69)")
    return problems


def validate_deck(deck: Deck, catalog: Catalog, size: int = EXPLORATION_SIZE) -> None:
    """Nothing if ``deck`` follows every deck-building rule; a :class:`DeckError` listing every limit it
    breaks (each with its line) otherwise, or a RulesError for a card the catalog does not know."""
    problems = deck_problems(deck, catalog, size)
    if problems:
        raise DeckError(f"illegal deck: {'; '.join(problems)}")
