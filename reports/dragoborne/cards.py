"""Dragoborne reports for the catalog: the cards and decks (`units dragoborne`) and a deck's check."""

from __future__ import annotations

from reports.formats import Report, Section, Table

RULESET = "dragoborne (seed 001)"


def units_report(catalog) -> Report:
    """Every card and deck of the catalog; a value marked * is illustrative (the guide prints no card)."""
    cards = []
    for c in catalog.cards.values():
        mark = "*" if c.is_illustrative else ""
        cards.append({"card": c.name, "key": c.key, "type": c.type, "colour": c.colour,
                      "cost": f"{c.cost_label}{mark}", "atk": "" if c.atk is None else f"{c.atk}{mark}",
                      "edr": "" if c.edr is None else f"{c.edr}{mark}",
                      "keywords": ", ".join(k.label for k in c.keywords),
                      "dragocross": "; ".join(b.text for b in c.dragocross),
                      "dice": "; ".join(d.text for d in c.dice), "fort_burst": c.fort_burst})
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
    notes = [catalog.illustrative_note] if catalog.illustrative_note else []
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
