"""Warbound duel, catalog and deck reports."""

from __future__ import annotations

from pathlib import Path

from reports.formats import Report, Section, Table
from reports.tables import estimates_view, share_text
from rulesets.warbound.simulate import NOT_MODELLED, DuelResult
from simcore.stats import Z95

RULESET = "warbound (seed 004)"


def _est(e) -> tuple[float, float, float, float]:
    return (e.value, e.stderr, *e.ci95)


def _describe(f) -> str:
    p = f.front

    def hit(v):
        return "-" if v is None else f"{v}+"

    parts = [f"{f.name}: attack {hit(p.attack)} x{p.attack_dice}",
             f"accuracy {hit(p.accuracy_near)}/{hit(p.accuracy_far)} x{p.shoot_dice}",
             f"speed {p.speed} +{p.run}", f"Health {p.health}",
             f"morale {p.morale if p.morale is not None else '-'}",
             f"armor {p.armor_points} at {hit(p.armor_value)}",
             f"{f.price(p)} token(s) an activation ({f.price(p, move=True)} on Move)",
             f"Leader's Orders {f.orders[0]}/{f.orders[1]}"
             + ("" if f.same_faction else " of another faction (coloured costs at two tokens each)")]
    if f.modifier:
        parts.append(f"{f.modifier:+d} to hit (Formation)")
    if f.no_panic or f.panic is None:
        parts.append("keeps its front on Panic")
    return "; ".join(parts)


def duel_report(result: DuelResult, catalog=None) -> Report:
    """P(A removes B), P(B removes A), P(both stand), and each side's Panic, Wound tokens, Order tokens
    spent, activations and wounds dealt per token, with standard errors and 95% intervals."""
    a, b = result.a, result.b
    rows = [("A removes B", *_est(result.p_wins(0))), ("B removes A", *_est(result.p_wins(1))),
            ("both stand after turn 5", *_est(result.p_neither()))]
    for side, name in ((0, "A"), (1, "B")):
        rows += [(f"P({name} panics)", *_est(result.p_panics(side))),
                 (f"Wound tokens taken by {name}", *_est(result.wounds_taken(side))),
                 (f"Order tokens spent by {name}", *_est(result.tokens_spent(side))),
                 (f"activations of {name}", *_est(result.activations(side)))]
        per_token = result.wounds_per_token(side)
        if per_token is not None:
            rows.append((f"Wound tokens dealt by {name} per Order token it spent", *_est(per_token)))
    rows.append(("turn the duel ended", *_est(result.end_turn())))
    rows.append(("turns A held the Hand", *_est(result.hand_turns())))
    table = Table.from_rows(rows, ["measure", "value", "stderr", "ci_low", "ci_high"])
    how = "reached" if result.stopped_by_precision else "not reached within the trial cap"
    meta = [("ruleset", RULESET), ("A", _describe(a)), ("B", _describe(b)),
            ("duel", f"{result.distance} tile(s) apart at the start, "
                     f"{'far' if result.range_far else 'near'} accuracy; five turns; A starts with the Hand "
                     f"(acts first), B with the Hourglass (WB-hourglass-policy: "
                     f"{result.rulings.hourglass_policy}); each side shoots when it can, else closes in and "
                     f"Fights, and takes additional activations while they do not make it panic"),
            ("method", f"Monte Carlo, {result.trials:,} duels, seed {result.seed}; every attack drawn whole "
                       f"(Wound, Break and Stress tokens) from its exact table with one 64-bit word; 95% "
                       f"interval = value ± {Z95:.2f} stderr; per-token ratios by the delta method"),
            ("rulings", result.rulings.describe())]
    if result.precision is not None:
        meta.append(("precision", f"target half-width {result.precision:g} of P(A removes B): {how}"))
    notes = [f"not modelled: {'; '.join(NOT_MODELLED)}"]
    if catalog is not None and catalog.board.illustrative:
        notes.append("the Action Board's layout is an image missing from the text: the board used is "
                     "illustrative: " + " | ".join(f"Period {i + 1}: {', '.join(p)}"
                                                   for i, p in enumerate(catalog.board.periods)))
    view = estimates_view(table["measure"], table["value"], table["ci_low"], table["ci_high"])
    p = [result.p_wins(0), result.p_wins(1)]
    headline = [f"A ({a.name}) removes B {share_text(p[0].value, p[0].stderr)}, B ({b.name}) removes A "
                f"{share_text(p[1].value, p[1].stderr)} (95% intervals, {result.trials:,} duels)"]
    return Report("Warbound: a duel", meta, [Section("duel", "Outcome of the duel", table)],
                  [Section("duel", "Outcome of the duel (estimates rounded to what their 95% interval "
                                   "supports)", view)], notes=notes, headline=headline)


def _hit(v) -> str:
    return "-" if v is None else f"{v}+"


def _profile_row(c, side: str, p) -> dict:
    illustrative = set(c.illustrative)

    def show(path: str, value) -> str:
        marked = any(a in illustrative for a in _ancestors(f"{side}.{path}"))
        return f"{value}*" if marked else f"{value}"

    return {"key": c.key, "character": c.name, "side": side, "faction": show("faction", c.faction),
            "attack": show("attack", f"{_hit(p.attack)} x{p.attack_dice}"),
            "accuracy": show("accuracy_near",
                             f"{_hit(p.accuracy_near)}/{_hit(p.accuracy_far)} x{p.shoot_dice}"),
            "speed": show("speed", f"{p.speed} +{p.run}"),
            "cost": show("cost_colourless", f"{p.cost_colourless}+{p.cost_coloured}c"),
            "health": show("health", p.health), "morale": show("morale", p.morale if p.morale else "-"),
            "armor": show("armor_points",
                          f"{p.armor_points} {_hit(p.armor_value)}" if p.armor_points else "0"),
            "equipment": ", ".join(p.equipment_icons), "skills": ", ".join(s.name for s in p.skills)}


def _ancestors(path: str) -> list[str]:
    from rulesets.base import ancestry

    return [*ancestry(path), path.split(".")[-1]]


def units_report(catalog) -> Report:
    """Every card of the catalog; a value marked * is illustrative (not printed in the rulebook)."""
    rows = []
    for c in catalog.characters.values():
        rows.append(_profile_row(c, "front", c.front))
        if c.panic is not None:
            rows.append(_profile_row(c, "panic", c.panic))
    leaders = [{"key": x.key, "leader": x.name, "faction": x.faction,
                "orders": f"{x.orders[0]}/{x.orders[1]}", "skill": x.skill,
                "illustrative": ", ".join(x.illustrative)} for x in catalog.leaders.values()]
    formations = [{"key": f.key, "formation": f.name, "for": f.character or "any character",
                   "cost": f"+{f.cost_colourless}", "hit": f"+{f.hit_bonus}", "dice": f"+{f.extra_dice}",
                   "health": f"+{f.extra_health}"} for f in catalog.formations.values()]
    equipment = [{"key": e.key, "equipment": e.name, "icon": e.icon or "-", "faction": e.faction or "any",
                  "changes": ", ".join(f"{k} {v:+d}" for k, v in e.changes), "text": e.text}
                 for e in catalog.equipment.values()]
    vocations = [{"key": v.key, "vocation": v.name, "faction": v.faction or "any", "text": v.text}
                 for v in catalog.vocations.values()]
    board = [{"period": i + 1, "turns": "1-2" if i == 0 else "3-5", "actions": ", ".join(p)}
             for i, p in enumerate(catalog.board.periods)]
    sources = [{"key": c.key, "value": path, "source": line}
               for table in (catalog.characters, catalog.leaders, catalog.formations)
               for c in table.values() for path, line in c.sources]
    quirks = [{"key": c.key, "quirk": q} for c in catalog.characters.values() for q in c.quirks]
    sections = [Section("characters", "Characters, front and panic side (* illustrative: not printed; cost "
                                      "colourless + coloured)", Table.from_records(rows),
                        narrow=("key", "side", "attack", "accuracy", "speed", "cost", "health", "morale",
                                "armor", "skills"))]
    for name, title, records in (("leaders", "Leaders (Order tokens per turn, Period 1 / Period 2)", leaders),
                                 ("formations", "Formation cards (lines 543-575)", formations),
                                 ("equipment", "Equipment", equipment), ("vocations", "Vocations", vocations),
                                 ("board", "The Action Board (illustrative: its image is missing)", board),
                                 ("sources", "Printed values and their lines", sources),
                                 ("quirks", "Data quirks", quirks)):
        if records:
            sections.append(Section(name, title, Table.from_records(records)))
    meta = [("ruleset", RULESET), ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}")]
    notes = ["the rulebook prints no character profiles, costs or Leader values: most values are "
             "illustrative; supply real ones with --catalog FILE",
             "skills, equipment effects and Vocations are listed, not modelled in duels"]
    return Report("Warbound: the cards the rulebook names", meta, sections, notes=notes)


def deck_report(catalog, path: str | Path) -> Report:
    """A deck read from ``path`` and checked against the Exploration deck-building limits (a broken limit
    is an error naming it)."""
    from rulesets.warbound.deck import parse_deck, validate_deck

    deck = parse_deck(Path(path).read_text(encoding="utf-8"), catalog, label=str(path))
    validate_deck(deck, catalog)
    def name(table: dict, key: str) -> str:
        return table[key].name if key in table else key

    leader = name(catalog.leaders, deck.leader)
    rows = [{"card": "Leader", "name": leader, "key": deck.leader, "attached to": ""}]
    if deck.vocation:
        rows.append({"card": "Vocation", "name": name(catalog.vocations, deck.vocation), "key": deck.vocation,
                     "attached to": leader})
    for e in deck.entries:
        character = name(catalog.characters, e.character)
        rows.append({"card": "Character", "name": character, "key": e.character, "attached to": ""})
        if e.equipment:
            rows.append({"card": "Equipment", "name": name(catalog.equipment, e.equipment),
                         "key": e.equipment, "attached to": character})
        if e.formation:
            rows.append({"card": "Formation", "name": name(catalog.formations, e.formation),
                         "key": e.formation, "attached to": character})
    meta = [("ruleset", RULESET), ("deck", str(path)),
            ("check", f"{deck.cards} cards, {deck.upgrades} Upgrades: every Exploration limit holds (8 "
                      f"cards, one Leader, at least 2 Upgrades, unique names but Formations, at most one "
                      f"Equipment and one Formation per Character, one Vocation per Leader, faction cards)")]
    return Report("Warbound: a deck", meta, [Section("deck", "The deck's cards", Table.from_records(rows))])
