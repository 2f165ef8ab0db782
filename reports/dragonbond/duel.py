"""Dragonbond duel and catalog reports."""

from __future__ import annotations

from reports.formats import Report, Section, Table
from reports.tables import estimates_view, share_text
from rulesets.dragonbond.catalog import KEYWORDS
from rulesets.dragonbond.simulate import NOT_MODELLED, DuelResult
from simcore.stats import Z95


def _est(e) -> tuple[float, float, float, float]:
    return (e.value, e.stderr, *e.ci95)


def duel_report(result: DuelResult, extra: list[tuple[str, str]] | None = None) -> Report:
    """P(A destroys B), P(B destroys A), P(neither), and each side's wounds, models lost and fatigue, with
    their standard errors and 95% intervals."""
    a, b = result.a, result.b
    rows = [("A destroys B", *_est(result.p_wins(0))), ("B destroys A", *_est(result.p_wins(1))),
            ("neither (both stand after the last round)", *_est(result.p_neither()))]
    for side, name in ((0, "A"), (1, "B")):
        rows += [(f"wounds taken by {name}", *_est(result.wounds_taken(side))),
                 (f"models lost by {name}", *_est(result.models_lost(side))),
                 (f"fatigue gained by {name}", *_est(result.fatigue_gained(side))),
                 (f"turns taken by {name}", *_est(result.turns_taken(side)))]
    rows.append(("rounds played", *_est(result.rounds_played())))
    table = Table.from_rows(rows, ["measure", "value", "stderr", "ci_low", "ci_high"])
    how = "reached" if result.stopped_by_precision else "not reached within the trial cap"
    meta = [("ruleset", "dragonbond (seed 000)"),
            ("A", _describe(a)), ("B", _describe(b)),
            ("duel", f"engaged from the start, up to {result.rounds} rounds, 2 turns a round each (+ Epic), "
                     "the face-off winner first each round"),
            ("method", f"Monte Carlo, {result.trials:,} duels, seed {result.seed}; every attack drawn as two "
                       f"stages from exact tables; 95% interval = value ± {Z95:.2f} stderr"),
            ("rulings", result.rulings.describe()), *(extra or [])]
    if result.precision is not None:
        meta.append(("precision", f"target half-width {result.precision:g} of P(A destroys B): {how}"))
    notes = [f"not modelled: {'; '.join(NOT_MODELLED)}"]
    for f, name in ((a, "A"), (b, "B")):
        if f.unit.is_illustrative:
            notes.append(f"{name} ({f.unit.name}) has illustrative values, marked {MARK} in its profile, not "
                         f"printed in the rulebook: {', '.join(sorted(f.unit.illustrative))}")
    view = estimates_view(table["measure"], table["value"], table["ci_low"], table["ci_high"])
    p = [result.p_wins(0), result.p_wins(1)]
    headline = [f"A ({a.unit.name}) destroys B {share_text(p[0].value, p[0].stderr)}, B ({b.unit.name}) "
                f"destroys A {share_text(p[1].value, p[1].stderr)} (95% intervals, {result.trials:,} duels)"]
    return Report("Dragonbond: a duel", meta, [Section("duel", "Outcome of the duel", table)],
                  [Section("duel", "Outcome of the duel (estimates rounded to what their 95% interval "
                                   "supports)", view)], notes=notes, headline=headline)


def _describe(f) -> str:
    """The unit as it fights, each illustrative value marked * as `units dragonbond` marks it."""
    u = f.unit
    mark = _marker(u)
    dice, scales = f.per_model()
    at = f"weapons[{next(i for i, w in enumerate(u.weapons) if w is f.weapon)}]."
    printed = "dice" if f.weapon.unit_dice is None else "unit_dice"
    parts = [f"{mark('name', u.name)}: {mark('models', u.models)} model(s) of Health "
             f"{mark('health', u.health)}", f"Stamina {mark('stamina', u.stamina)}",
             f"defense {mark('defense', u.defense)} {mark('defense_die', u.defense_die)}",
             f"{mark(at + 'kind', f.weapon.kind)} {mark(at + printed, dice)}{' per model' if scales else ''}",
             f"policy {f.policy}"]
    if u.captain:
        parts.append(f"captain {_captain_cell(u, mark)}")
    if u.keywords.names():
        parts.append(f"keywords {_keyword_cell(u, mark)}")
    return "; ".join(parts)


#: The mark of an illustrative value and its legend (said in every format: a note, and a column's header).
MARK = "*"
LEGEND = "* illustrative: not printed in the rulebook"


def _marker(unit):
    """``mark(path, text)``: ``text`` with a trailing * when the value at ``path`` (or a field holding it,
    e.g. ``keywords.huge`` for ``keywords.huge.health``) is illustrative."""
    def mark(path: str, text) -> str:
        parts = path.split(".")
        held = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        return f"{text}{MARK}" if held & unit.illustrative else f"{text}"
    return mark


def _weapon_cell(unit, mark) -> str:
    out = []
    for i, w in enumerate(unit.weapons):
        at = f"weapons[{i}]."
        dice, per = ("unit_dice", "per unit") if w.unit_dice is not None else ("dice", "per model")
        pool = (w.unit_dice or w.dice).notation()
        text = f"{mark(at + 'kind', w.kind)} {mark(at + dice, pool)} {per}"
        if w.range is not None:
            text += f", range {mark(at + 'range', w.range)}\""
        out.append(text)
    return "; ".join(out)


def _keyword_cell(unit, mark) -> str:
    kw, out = unit.keywords, []
    for name in KEYWORDS:
        value = getattr(kw, name)
        if not value:
            continue
        if name == "epic":
            out.append(mark("keywords.epic", f"epic {value}"))
        elif name == "huge":
            slots = mark("keywords.huge.injury_slots", value.injury_slots)
            out.append(f"{mark('keywords.huge', 'huge')} ({slots} injury slots)")
        else:
            out.append(mark(f"keywords.{name}", name))
    return ", ".join(out)


def _captain_cell(unit, mark) -> str:
    c = unit.captain
    if c is None:
        return ""
    parts = [f"Health {mark('captain.health', c.health)}"]
    if c.modifiers:
        mods = ", ".join(f"{m.roll} {m.net:+d}" for m in c.modifiers)
        parts.append(mark("captain.modifiers", mods))
    return mark("captain", f"{mark('captain.name', c.name)} ({'; '.join(parts)})")


def units_report(catalog) -> Report:
    """The catalog, one row per unit; every value the rulebook does not print (the unit's ``illustrative``
    paths, rulesets.dragonbond.catalog) carries a trailing * wherever it is shown: stats, weapon kinds and
    dice, keywords, captains' names, Health and modifiers; the last column, headed by the legend (the one
    place a CSV has for it), lists those paths."""
    rows = []
    for u in catalog.units.values():
        mark = _marker(u)
        rows.append({"key": u.key, "unit": mark("name", u.name), "models": mark("models", u.models),
                     "health": mark("health", u.health), "stamina": mark("stamina", u.stamina),
                     "speed": mark("speed", u.speed), "defense": mark("defense", u.defense),
                     "defense die": mark("defense_die", u.defense_die), "weapons": _weapon_cell(u, mark),
                     "keywords": _keyword_cell(u, mark), "captain": _captain_cell(u, mark),
                     "cost": mark("cost", f"{u.cost:g}"), "quirks": len(u.quirks),
                     LEGEND: "; ".join(sorted(u.illustrative))})
    quirks = [{"key": u.key, "quirk": q} for u in catalog.units.values() for q in u.quirks]
    sections = [Section("units", f"Units ({LEGEND})", Table.from_records(rows), notes=[LEGEND],
                        narrow=("key", "models", "health", "speed", "defense", "weapons", "keywords",
                                "cost"))]
    if quirks:
        sections.append(Section("quirks", "Data quirks", Table.from_records(quirks)))
    meta = [("ruleset", "dragonbond (seed 000)"),
            ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}")]
    notes = ["the rulebook prints no unit cards and no points (line 295): every cost and most stats are "
             "illustrative; supply real ones with --catalog FILE"]
    return Report("Dragonbond: the units the rulebook names", meta, sections, notes=notes)
