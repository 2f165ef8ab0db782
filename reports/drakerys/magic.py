"""Reports of the Drakerys magic rolls: the Spell roll (tiers, Cataclysmic Effect) and the Elemental
invocation, one roll each or as the rulebook tables."""

from __future__ import annotations

import numpy as np

from reports.drakerys.choices import MAELSTROM_SECTIONS, SPELL_SECTIONS
from reports.drakerys.tables import READING, probability_cell, rounding_note, smallest_shown
from reports.formats import Report, Section, Table
from reports.tables import EXACT_ROW_FLOOR, Rounding, distribution_rows, mean_text, method_meta
from rulesets.base import RulesError
from rulesets.drakerys import magic
from rulesets.drakerys.rules import action_threshold
from rulesets.drakerys.tables import InvocationTable, SpellTable
from simcore import exact
from simcore.stats import Z95

_SPELL_READINGS = (
    "opposition +1 per started 10 cm to the furthest source (0 cm: 0) and +1 per source after the first; "
    "criticals as on every Action-Table roll; the tier is the best one reached (a lower one may be chosen); "
    "the cataclysm is counted on every roll that uses a Maelstrom, successful or not, and includes the "
    "effects of the levels below it; 4+: the 2D10 hits are the sum of two d10; Mana elements are not "
    "modelled (the cost is paid in Mana of the right element)")


def _with_stderr(frame: dict, name: str, p: np.ndarray, trials: int | None) -> dict:
    """Add a probability column (and its binomial standard error when simulated)."""
    frame[name] = p
    if trials is not None:
        frame[f"{name}_stderr" if name != "probability" else "stderr"] = np.sqrt(p * (1 - p) / trials)
    return frame


def _at_least(p: np.ndarray, trials: int | None) -> np.ndarray:
    """P(at least k); when simulated, summed over whole trial counts so that P(at least 0) is exactly 1."""
    if trials is None:
        return exact.at_least(p)
    counts = np.rint(p * trials)
    return np.cumsum(counts[::-1])[::-1] / trials


def _p_text(p: float, trials: int | None) -> str:
    if trials is None:
        return f"{p:.6f}"
    return f"{p:.6f} ± {Z95 * np.sqrt(p * (1 - p) / trials):.6f} (95%)"


def _tier_rows(dist, trials) -> Table:
    p = dist.tiers
    frame = {"tier": np.arange(p.size), "successes": magic.tier_labels(dist.cast.tiers)}
    _with_stderr(frame, "probability", p, trials)
    return Table(_with_stderr(frame, "p_at_least", _at_least(p, trials), trials))


def _cataclysm_rows(dist, trials) -> Table:
    p = dist.cataclysm
    frame = {"cataclysm": np.arange(p.size),
             "ones": [str(c) for c in range(magic.CATACLYSM_TOP)] + [f"{magic.CATACLYSM_TOP}+"],
             "effect": list(magic.CATACLYSM_EFFECTS)}
    _with_stderr(frame, "probability", p, trials)
    return Table(_with_stderr(frame, "p_at_least", _at_least(p, trials), trials))


def _effect_rows(dist, trials) -> Table:
    labels = ["0 (or any, with a cataclysm of level 3+)", *magic.tier_labels(dist.cast.tiers)[1:]]
    effect = dist.effect
    frame = {"tier": np.arange(effect.size), "successes": labels,
             "spell": ["fails"] + ["takes effect"] * (effect.size - 1)}
    _with_stderr(frame, "probability", effect, trials)
    return Table(_with_stderr(frame, "p_with_injury", dist.effect_at_risk, trials))


def _spell_outcome(tier: int, level: int) -> str:
    if tier == 0 or level >= magic.CATACLYSM_FAILS:
        return "fails"
    if level == 2:
        return "takes effect unless the injury withdraws the Wizard"
    return "takes effect"


def _outcome_rows(dist, trials) -> Table:
    joint = dist.tier_cataclysm
    tiers, levels = np.meshgrid(np.arange(joint.shape[0]), np.arange(joint.shape[1]), indexing="ij")
    tiers, levels = tiers.ravel(), levels.ravel()
    labels = magic.tier_labels(dist.cast.tiers)
    frame = {"tier": tiers, "successes": [labels[t] for t in tiers], "cataclysm": levels,
             "spell": [_spell_outcome(t, c) for t, c in zip(tiers, levels, strict=True)]}
    return Table(_with_stderr(frame, "probability", joint.ravel(), trials))


def _injury_rows(pmf: np.ndarray) -> Table:
    rows = distribution_rows("injuries", pmf, None)
    return rows.with_column("total_injuries", rows["injuries"] + 1, at=1)


def spell_report(dist: magic.SpellDistribution, show: tuple[str, ...] | None = None) -> Report:
    """Report of a Drakerys Spell roll (exact or simulated); ``show`` picks and orders the sections
    (default: every section that applies)."""
    cast, rulings = dist.cast, dist.rulings
    if show is None:
        show = tuple(s for s in SPELL_SECTIONS if cast.has_maelstrom or s not in MAELSTROM_SECTIONS)
    trials = None if dist.exact else dist.run.trials
    left = cast.mana_for_reinforcement(rulings)
    cost = ("settled by the Maelstrom" if cast.has_maelstrom and rulings.maelstrom_mana == "after-cost"
            else str(cast.cost))
    meta = [
        ("ruleset", "drakerys (seed 002, MAGIC: CASTING A SPELL, CATACLYSMIC EFFECT OF THE MAELSTROMS; "
                    "ACTION TABLE)"),
        ("cast", cast.describe()),
        ("mana", f"{cast.describe_sources()} = {cast.mana_supplied()}; cost {cost}; {left} left for "
                 f"reinforcement, {cast.mana} spent"),
        ("opposition", f"{magic.started_tens(cast.distance_cm)} ({cast.distance_cm:g} cm, +1 per started "
                       f"10 cm) + {cast.sources - 1} (sources after the first) = {cast.opposition}"),
        ("threshold", f"level {cast.level} - opposition {cast.opposition} = "
                      f"{cast.level - cast.opposition}: {cast.threshold}+"),
        ("tiers", "0 successes: the spell fails; " + ", ".join(
            f"tier {t}: {lab}" for t, lab in enumerate(magic.tier_labels(cast.tiers)) if t) + " successes"),
        *method_meta(dist),
        ("rulings", rulings.describe()),
        ("readings", _SPELL_READINGS),
        ("mean successes", mean_text(dist.mean("successes"), dist.exact)),
        ("P(at least one success)", _p_text(1.0 - dist.successes[0], trials)),
    ]
    notes = []
    if cast.has_maelstrom:
        ones = ("every die rolled, extra dice from criticals included" if rulings.maelstrom_ones == "all"
                else "the dice first rolled only")
        meta += [
            ("cataclysm", f"natural 1s counted on {ones} (DK-maelstrom-ones={rulings.maelstrom_ones})"),
            ("P(spell takes effect)", f"{_p_text(dist.effect[1:].sum(), trials)} (cataclysm below level "
                                      f"{magic.CATACLYSM_FAILS}; level 2 counted as taking effect)"),
            ("cataclysm injury roll", f"{magic.CATACLYSM_HIT_DICE}D10 hits (2..20, mean 11), Strength "
                                      f"{magic.CATACLYSM_STRENGTH} against Resistance {cast.resistance}: "
                                      f"threshold {cast.injury_threshold}+, criticals as usual; exact"),
        ]
        notes.append(f"a 4+ cataclysm is resolved as a shot (Saturation {magic.CATACLYSM_SATURATION}): its "
                     f"Morale roll, and Parry / Expert Parry of the Wizard's unit, are not computed")
    else:
        notes.append("no Maelstrom among the sources: no Cataclysmic Effect")
    counts = None if dist.exact else dist.run.counts
    sections = []
    for what in show:
        if what in MAELSTROM_SECTIONS and not cast.has_maelstrom:
            raise RulesError(f"section {what!r} needs a Maelstrom among the sources")
        if what == "successes":
            c = None if counts is None else counts[:-1, :].sum(axis=1)
            sections.append(Section("successes", "Successes", distribution_rows("successes",
                                                                                  dist.successes, c)))
        elif what == "tiers":
            sections.append(Section("tiers", "Effect tier (best tier reached; 0: the spell fails)",
                                    _tier_rows(dist, trials)))
        elif what == "cataclysm":
            sections.append(Section("cataclysm", "Cataclysmic Effect (natural 1s; each level includes the "
                                                 "levels below)", _cataclysm_rows(dist, trials)))
        elif what == "effect":
            sections.append(Section(
                "effect", "Spell takes effect at each tier (no cataclysm of level 3+)",
                _effect_rows(dist, trials),
                notes=["p_with_injury: the part of probability where a level-2 cataclysm injures the Wizard "
                       "first; the spell fails instead if that injury withdraws the Wizard"]))
        elif what == "outcome":
            sections.append(Section("outcome", "Tier and cataclysm together", _outcome_rows(dist, trials)))
        elif what == "injuries":
            sections.append(Section(
                "injuries", "Injuries from the 2D10 hits of a 4+ cataclysm (given that cataclysm; exact)",
                _injury_rows(dist.injuries),
                notes=["total_injuries adds the injury of cataclysm level 2, which a 4+ cataclysm includes"]))
        else:
            raise ValueError(f"unknown section {what!r}")
    if dist.overflow_trials:
        notes.append(f"{dist.overflow_trials} trials fell beyond the histogram and are left out of the "
                     f"successes table (expected fewer than 1 in 10^15)")
    if counts is None:
        notes.append(f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out")
    elif "injuries" in show:
        notes.append("the injuries of a 4+ cataclysm are exact in both methods: they do not depend on the "
                     "spell roll beyond the cataclysm level")
    return Report("Drakerys: Spell roll", meta, sections, notes=notes)


def _invoked_rows(p_invoked) -> Table:
    """P(at least one success) by extra dice, from the exact fractions."""
    extra = np.arange(len(p_invoked))
    p = np.array([float(f) for f in p_invoked])
    return Table({
        "extra_dice": extra, "dice": extra + magic.INVOCATION_DICE, "extra_ts": extra,
        "probability": p, "fraction": [str(f) for f in p_invoked], "p_fail": 1.0 - p,
    })


def _element_rows(el: magic.MaelstromElements, p_success: float) -> Table:
    return Table({
        "element": [e for e, _, _ in el.elements],
        "d10": [f for _, f, _ in el.elements],
        "probability": [float(q) for _, _, q in el.elements],
        "fraction": [str(q) for _, _, q in el.elements],
        "p_invoked": [float(q) * p_success for _, _, q in el.elements],
    })


def _extra_ts_rows(el: magic.MaelstromElements) -> Table:
    ts = np.array([float(q) for q in el.extra_ts])
    tail = np.array([float(sum(el.extra_ts[k:], el.extra_ts_beyond)) for k in range(len(el.extra_ts))])
    return Table({"extra_ts": np.arange(ts.size), "probability": ts,
                  "fraction": [str(q) for q in el.extra_ts], "p_at_least": tail})


_INVOCATION_RULESET = ("drakerys (seed 002, ELEMENTAL INVOCATION: INVOKING AN ELEMENTAL; player aid "
                       "\"Invoking an Elemental\")")
_INVOCATION_CRITICALS = ("not applied: the roll is on a fixed 7+, not the Action Table; they could not "
                         "change P(at least one success), a 10 being a success already")
_EXTRA_TS_NOTE = ("extra_ts: Time Sections paid for the extra dice, on top of the invocation's own cost "
                  "(Herald 1 TS, Overlord 3 TS)")
_ELEMENT_NOTE = ("the element table is rolled only when the invocation succeeds: p_invoked is "
                 "P(at least one success and that element)")


def invocation_report(dist: magic.InvocationDistribution) -> Report:
    """Report of an Elemental invocation roll, and of the Maelstrom element table from a Maelstrom."""
    roll = dist.roll
    sections = [Section("invocation", "P(at least one success): the Elemental is invoked",
                        _invoked_rows(dist.p_invoked))]
    meta = [
        ("ruleset", _INVOCATION_RULESET),
        ("roll", f"{magic.INVOCATION_DICE}d10"
                 + (f" + 1 d10 per extra TS (0..{roll.extra_dice})" if roll.extra_dice else "")
                 + f" against a fixed {magic.INVOCATION_THRESHOLD}+; at least one success invokes"),
        ("source", roll.source + ("" if roll.source == "vortex" else
                                  " (no extra dice: only a Vortex not occupied by an Elemental takes them)")),
        ("method", "exact (fractions)"),
        ("criticals", _INVOCATION_CRITICALS),
        ("rulings", "none apply to this roll"),
        (f"P(invoked) with {roll.extra_dice} extra dice", f"{dist.p_success:.6f}"),
    ]
    notes = [_EXTRA_TS_NOTE]
    if dist.elements is not None:
        el = dist.elements
        sections.append(Section("element", "Element invoked from a Maelstrom (given an invocation)",
                                _element_rows(el, dist.p_success)))
        sections.append(Section("extra_ts", "Extra TS from the element table's 1s (given an invocation)",
                                _extra_ts_rows(el)))
        meta.append(("mean extra TS (element table)", f"{el.mean_extra_ts} = {float(el.mean_extra_ts):.6f} "
                                                      "per successful invocation"))
        notes.append(_ELEMENT_NOTE)
        notes.append(f"extra TS rows stop where P(at least k) < {float(magic.EXTRA_TS_FLOOR):g}")
    else:
        notes.append("from a Vortex the Elemental has the Vortex's element")
    return Report("Drakerys: Elemental invocation", meta, sections, notes=notes)


def _rounded(table: Table, columns: tuple[str, ...], rounding: Rounding) -> Table:
    """``table`` with ``columns`` (probabilities) as text rounded for reading."""
    for col in columns:
        table = table.with_column(col, [probability_cell(float(v), rounding) for v in table[col]])
    return table


def invocation_table_report(table: InvocationTable, rounding: Rounding = READING) -> Report:
    """The invocation table: P(the Elemental is invoked) from a Vortex with 0..N extra dice, and from a
    Maelstrom the element table and its extra TS; views rounded by ``rounding``."""
    vortex, maelstrom = table.vortex, table.maelstrom
    el = maelstrom.elements
    invoked = _invoked_rows(vortex.p_invoked)
    elements = _element_rows(el, maelstrom.p_success)
    extra_ts = _extra_ts_rows(el)
    unit = "percent" if rounding.percent else "probability"
    sections = [
        Section("invocation", "P(at least one success): the Elemental is invoked, by extra dice (a Vortex)",
                invoked),
        Section("element", "Element invoked from a Maelstrom (given an invocation; no extra dice)", elements),
        Section("extra_ts", "Extra TS from the element table's 1s (given an invocation)", extra_ts),
    ]
    views = [
        Section("invocation", f"P(the Elemental is invoked), {unit}, by extra d10 (1 TS each; a Vortex not "
                              "occupied by an Elemental)",
                _rounded(invoked.drop("extra_ts"), ("probability", "p_fail"), rounding)),
        Section("element", f"Element invoked from a Maelstrom, {unit} (given an invocation; p_invoked: with "
                           f"the roll's P = {maelstrom.p_success:g})",
                _rounded(elements, ("probability", "p_invoked"), rounding)),
        Section("extra_ts", f"Extra TS from the element table's 1s, {unit} (given an invocation)",
                _rounded(extra_ts.where(extra_ts["p_at_least"] >= smallest_shown(rounding)),
                         ("probability", "p_at_least"), rounding)),
    ]
    meta = [
        ("ruleset", _INVOCATION_RULESET),
        ("roll", f"{magic.INVOCATION_DICE}d10 + 1 d10 per extra TS (0..{vortex.roll.extra_dice}, from a "
                 f"Vortex not occupied by an Elemental; never from a Maelstrom) against a fixed "
                 f"{magic.INVOCATION_THRESHOLD}+; at least one success invokes"),
        ("element table", "from a Maelstrom, on a successful invocation: d10 1 = +1 TS and roll again, "
                          "2-3 Air, 4-5 Water, 6-7 Fire, 8-9 Earth, 10 the player's choice"),
        ("method", "exact (fractions)"),
        ("criticals", _INVOCATION_CRITICALS),
        ("rulings", f"{table.rulings.describe()} (none changes this table)"),
        ("mean extra TS (element table)", f"{el.mean_extra_ts} = {float(el.mean_extra_ts):.6f} per "
                                          "successful invocation"),
    ]
    notes = [_EXTRA_TS_NOTE, _ELEMENT_NOTE, "from a Vortex the Elemental has the Vortex's element",
             f"extra TS rows stop where P(at least k) < {float(magic.EXTRA_TS_FLOOR):g} (tidy) or rounds to "
             f"0 (views)", rounding_note(rounding)]
    return Report("Drakerys: the Elemental invocation", meta, sections, views, notes)


def _tier_cell(dist: magic.SpellDistribution | None, tier: int, rounding: Rounding) -> str:
    """P(``tier`` or better) rounded for reading; blank for a cast the rules do not allow (None)."""
    return "" if dist is None else probability_cell(float(exact.at_least(dist.tiers)[tier]), rounding)


def spell_table_report(table: SpellTable, rounding: Rounding = READING) -> Report:
    """The Spell table: P(each effect tier) by Wizard level, opposition and Mana spent reinforcing; one view
    per level and tier (P(that tier or a better one), Mana by opposition), rounded by ``rounding``."""
    labels = magic.tier_labels(table.tiers)
    rows = []
    for (level, opposition, mana), dist in sorted(table.cells.items()):
        cast = dist.cast
        p = dist.tiers
        tail = exact.at_least(p)
        for tier in range(p.size):
            rows.append((level, opposition, cast.threshold, mana, cast.dice, cast.vortexes,
                         magic.started_tens(cast.distance_cm), tier, labels[tier], p[tier], tail[tier]))
    tidy = Table.from_rows(rows, ["level", "opposition", "threshold", "mana", "dice", "vortexes",
                                  "distance_shares", "tier", "successes", "probability", "p_at_least"])
    unit = "percent" if rounding.percent else "probability"
    views = []
    for level in table.levels:
        manas = table.manas(level)
        for tier in range(1, len(table.tiers) + 1):
            # P(tier or better) grows with the Mana, so a cell rounding to 0 comes before the numbers of its
            # row and a cast the Vortexes cannot supply after them: both are blank
            columns = {f"mana {m}": [_tier_cell(table.cells.get((level, o, m)), tier, rounding)
                                     for o in table.oppositions] for m in manas}
            view = Table({"opposition": list(table.oppositions),
                          "threshold": [action_threshold(level, o) for o in table.oppositions],
                          **columns})
            low = table.tiers[tier - 1]
            what = "the spell is cast" if tier == 1 else f"tier {tier} or better"
            title = (f"Level-{level} Wizard: P(at least {low} success{'es' if low != 1 else ''}: {what}), "
                     f"{unit}; rows: opposition, columns: Mana spent reinforcing (dice = 1 + Mana)")
            views.append(Section(f"level_{level}_tier_{tier}", title, view, keys=2))
    meta = [
        ("ruleset", "drakerys (seed 002, MAGIC: CASTING A SPELL, STEP 2 to STEP 4; the MIRAGE card; ACTION "
                    "TABLE, CRITICAL SUCCESSES)"),
        ("levels", f"{', '.join(map(str, table.levels))} (Wizard [X]: the action value and the most Sources; "
                   f"the rulebook's only Wizard is Wizard [3])"),
        ("opposition", f"{', '.join(map(str, table.oppositions))}: +1 per started 10 cm to the furthest "
                       "Source, +1 per Source after the first; threshold = 6 - (level - opposition), 2..10"),
        ("dice", "1 d10 + 1 per Mana spent reinforcing; no Heroic Action"),
        ("sources", f"Vortexes only (3 Mana each), no Maelstrom (no Cataclysmic Effect); cost {table.cost} "
                    "Mana; each cell names the fewest Vortexes that pay the cost and the Mana (vortexes), "
                    "the rest of the opposition is distance (distance_shares: started 10 cm shares)"),
        ("tiers", "0 successes: the spell fails; " + ", ".join(
            f"tier {t}: {lab}" for t, lab in enumerate(labels) if t) + " successes (the best tier reached; "
                                                                        "a lower one may be chosen)"),
        ("criticals", "every 10 is a success and adds one d10 (a roll on the Action Table)"),
        ("method", "exact"), ("rulings", table.rulings.describe()),
    ]
    notes = ["blank after the numbers of a row: a level-L Wizard names at most L Sources, and each Source "
             "after the first adds 1 to the opposition: its Vortexes cannot supply the cost and this Mana "
             "within this opposition; blank before them: rounds to 0",
             "any cast with the same level, opposition and Mana rolls the same dice at the same threshold",
             rounding_note(rounding)]
    return Report("Drakerys: the Spell roll", meta, [Section("spell", "Spell roll: effect tiers", tidy)],
                  views, notes)
