"""Dragonbond duel and catalog reports."""

from __future__ import annotations

from reports.formats import Report, Section, Table
from rulesets.dragonbond import kernels as K
from rulesets.dragonbond.duel import NOT_MODELLED, DuelResult
from simcore.stats import Z95


def _est(e) -> tuple[float, float, float, float]:
    return (e.value, e.stderr, *e.ci95)


def duel_report(result: DuelResult, extra: list[tuple[str, str]] | None = None) -> Report:
    """P(A destroys B), P(B destroys A), P(neither), and each side's wounds, models lost and fatigue, with
    their standard errors and 95% intervals."""
    a, b = result.a, result.b
    rows = []
    for label, code in (("A destroys B", K.OUT_SIDE_0), ("B destroys A", K.OUT_SIDE_1),
                        ("neither (both stand after the last round)", K.OUT_NEITHER)):
        rows.append((label, *_est(result.p_outcome(code))))
    for side, name in ((0, "A"), (1, "B")):
        rows += [(f"wounds taken by {name}", *_est(result.mean(K.R_WOUNDS_0 + side))),
                 (f"models lost by {name}", *_est(result.mean(K.R_LOST_0 + side))),
                 (f"fatigue gained by {name}", *_est(result.mean(K.R_FATIGUE_0 + side))),
                 (f"turns taken by {name}", *_est(result.mean(K.R_TURNS_0 + side)))]
    rows.append(("rounds played", *_est(result.mean(K.R_ROUNDS))))
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
            notes.append(f"{name} ({f.unit.name}) has illustrative values, not printed in the rulebook: "
                         f"{', '.join(sorted(f.unit.illustrative))}")
    return Report("Dragonbond: a duel", meta, [Section("duel", "Outcome of the duel", table)], notes=notes)


def _describe(f) -> str:
    u = f.unit
    dice, scales = f.per_model()
    parts = [f"{u.name}: {u.models} model(s) of Health {u.health}", f"Stamina {u.stamina}",
             f"defense {u.defense} {u.defense_die}",
             f"{f.weapon.kind} {dice}{' per model' if scales else ''}",
             f"policy {f.policy}"]
    if u.captain:
        parts.append(f"captain {u.captain.name} (Health {u.captain.health})")
    if u.keywords.names():
        parts.append("keywords " + ", ".join(u.keywords.names()))
    return "; ".join(parts)


def units_report(catalog) -> Report:
    """The catalog, one row per unit; a value marked * is illustrative (not printed in the rulebook)."""
    rows = []
    for u in catalog.units.values():
        def show(path: str, value, u=u) -> str:
            return f"{value}*" if path in u.illustrative else f"{value}"

        weapons = "; ".join(f"{w.kind} {w.notation}" for w in u.weapons)
        rows.append({"key": u.key, "unit": u.name, "models": show("models", u.models),
                     "health": show("health", u.health), "stamina": show("stamina", u.stamina),
                     "speed": show("speed", u.speed), "defense": show("defense", u.defense),
                     "defense die": show("defense_die", u.defense_die), "weapons": weapons,
                     "keywords": ", ".join(u.keywords.names()),
                     "captain": f"{u.captain.name} (Health {u.captain.health})" if u.captain else "",
                     "cost": show("cost", f"{u.cost:g}"), "quirks": len(u.quirks)})
    quirks = [{"key": u.key, "quirk": q} for u in catalog.units.values() for q in u.quirks]
    sections = [Section("units", "Units (* illustrative: not printed in the rulebook)",
                        Table.from_records(rows))]
    if quirks:
        sections.append(Section("quirks", "Data quirks", Table.from_records(quirks)))
    meta = [("ruleset", "dragonbond (seed 000)"),
            ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}")]
    notes = ["the rulebook prints no unit cards and no points (line 295): every cost and most stats are "
             "illustrative; supply real ones with --catalog FILE"]
    return Report("Dragonbond: the units the rulebook names", meta, sections, notes=notes)
