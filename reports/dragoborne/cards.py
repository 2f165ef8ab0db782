"""Dragoborne reports for the catalog: the cards and decks (`units dragoborne`) and a deck's check."""

from __future__ import annotations

from reports.formats import Report, Section, Table
from rulesets.dragoborne.rules import ANY_COLOUR

RULESET = "dragoborne (seed 001)"


def _gain_words(when: str, gain, sourced: str | None) -> str:
    """A dragocross bonus or DICE X-Y in words, as the games play it: ``red: +1 ATK, Deadly``; card text
    quoted; ``*`` after it when illustrative (no ``sourced`` line)."""
    words = [f"{n:+d} {stat}" for n, stat in ((gain.atk, "ATK"), (gain.edr, "EDR")) if n]
    words += [k.label for k in gain.keywords]
    words += [f'"{gain.text}"'] if gain.text else []
    return f"{when}: {', '.join(words)}{'' if sourced else '*'}"


def _colour_words(colour: str) -> str:
    """White is any colour: "The white icon is used when no color is being specified" (lines 278, 282)."""
    return "any colour" if colour == ANY_COLOUR else colour


def _cross_words(card) -> str:
    """The colour bonuses beyond the "+1/+1 boost when dragocrossed" (line 19)."""
    return "; ".join(_gain_words(_colour_words(b.colour), b, card.source_of(f"dragocross.{b.colour}"))
                     for b in card.dragocross)


def _dice_words(card) -> str:
    """Each DICE X-Y: gained "when you have a die of the specified color with a value within the specified
    range" (line 282): ``green 4-6: Deadly``."""
    def when(d) -> str:
        return f"{_colour_words(d.colour)} {d.low}" + (f"-{d.high}" if d.high != d.low else "")

    return "; ".join(_gain_words(when(d), d, card.source_of(f"dice[{i}]")) for i, d in enumerate(card.dice))


def units_report(catalog) -> Report:
    """Every card and deck of the catalog; a value marked * is illustrative (the guide prints no card)."""
    cards = []
    for c in catalog.cards.values():
        mark = "*" if c.is_illustrative else ""
        cards.append({"card": c.name, "key": c.key, "type": c.type, "colour": c.colour,
                      "cost": f"{c.cost_label}{mark}", "atk": "" if c.atk is None else f"{c.atk}{mark}",
                      "edr": "" if c.edr is None else f"{c.edr}{mark}",
                      "keywords": ", ".join(k.label for k in c.keywords),
                      "dragocross": _cross_words(c), "dice": _dice_words(c), "fort_burst": c.fort_burst})
    from rulesets.dragoborne.catalog import curve

    decks = [{"deck": d.name, "key": d.key, "banners": ", ".join(d.banners), "cards": d.size,
              "curve": ",".join(str(n) for n in curve(d, catalog))} for d in catalog.decks.values()]
    quirks = [{"key": e.key, "quirk": q} for table in (catalog.cards, catalog.decks) for e in table.values()
              for q in e.quirks]
    sections = [Section("cards", "Cards (* illustrative: the guide prints no card)",
                        Table.from_records(cards), narrow=("key", "type", "colour", "cost", "atk", "edr",
                                                           "keywords", "dragocross", "dice")),
                Section("decks", "Decks (curve: cards of cost 1, 2, 3, 4, 5+)", Table.from_records(decks))]
    if quirks:
        sections.append(Section("quirks", "Data quirks", Table.from_records(quirks)))
    meta = [("ruleset", RULESET), ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}")]
    notes = [*([catalog.illustrative_note] if catalog.illustrative_note else []),
             "dragocross: what the creature gains when dragocrossed with a die of that colour, beyond the "
             "+1/+1 every dragocrossed creature gets (lines 19, 217); dice: its DICE X-Y, gained while its "
             "player has a die of that colour showing those values (line 282); any colour: the white icon "
             "(lines 278, 282); the games play ATK, EDR, Deadly, Assassin and Invade, not Ambush, Immune "
             "or quoted card text"]
    return Report("Dragoborne: cards and decks", meta, sections, notes=notes)


def deck_report(catalog, name: str, lenient: bool = False) -> Report:
    """One deck checked against the deck regulations (lines 145-150), its curve and card types."""
    from rulesets.dragoborne.catalog import card_types, curve, validate_deck

    warnings = validate_deck(name, catalog, lenient)
    deck = catalog.deck(name)
    rows = [{"card": catalog.card(k).name, "key": catalog.card(k).key, "copies": n,
             "cost": catalog.card(k).cost_label, "type": catalog.card(k).type} for k, n in deck.cards]
    counts = curve(deck, catalog)
    types = card_types(deck, catalog)
    summary = Table.from_rows([("cards", deck.size), *((f"cost {c}", n) for c, n in
                                                        zip(("1", "2", "3", "4", "5+"), counts, strict=True)),
                               *((f"{t}s", n) for t, n in types.items())], ["measure", "value"])
    meta = [("ruleset", RULESET), ("deck", f"{deck.name} ({deck.key}); banners {', '.join(deck.banners)}"),
            ("check", "valid" if not warnings else "valid with warnings (--lenient)")]
    notes = [*warnings, *([catalog.illustrative_note] if catalog.illustrative_note else []),
             "regulations: 50 or more cards (line 145), up to 4 of one card name (146), 3 banners in the "
             "dice's colours (147-148); other colours allowed (150)"]
    return Report(f"Dragoborne: the deck {deck.name}", meta,
                  [Section("summary", "Size, curve and card types", summary),
                   Section("cards", "Cards", Table.from_records(rows))], notes=notes)
