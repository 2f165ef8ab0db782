"""UberDrakes reports: one rolloff, and the standard tables (rolloff, furnace, blood-points), all exact."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reports.formats import Report, Section, Table
from reports.tables import EXACT_ROW_FLOOR, READING, Rounding, read_as
from reports.uberdrakes import chance_tables as c
from reports.uberdrakes import grids
from reports.uberdrakes.chance_tables import RULESET, _meta
from rulesets.base import TableData
from rulesets.uberdrakes import tables as t
from rulesets.uberdrakes.exact import Side, mean_of, rolloff
from rulesets.uberdrakes.rules import UberDrakesRulings
from rulesets.uberdrakes.tables import rolloff_rows  # noqa: F401 (benchmarks/run.py reads it here)


def _distribution(name: str, total: tuple[int, np.ndarray]) -> Table:
    low, pmf = total
    k = np.flatnonzero(pmf >= EXACT_ROW_FLOOR)
    values = low + k
    at_least = np.cumsum(pmf[::-1])[::-1][k]
    return Table({name: values, "probability": pmf[k], "p_at_least": at_least})


def rolloff_report(initiator: Side, defender: Side, rulings: UberDrakesRulings,
                   built: list[tuple[str, str]] | None = None) -> Report:
    """One rolloff (lines 309-315): P(the initiator wins), each side's total and the margin, exact."""
    r = rolloff(initiator, defender)
    summary = Table({"p_win": [r.p_win], "p_defender_wins": [1.0 - r.p_win], "p_tie": [r.p_tie],
                     "initiator_mean": [mean_of(r.initiator_total)],
                     "defender_mean": [mean_of(r.defender_total)]})
    meta = _meta(rulings, *(built or [("initiator", f"Rage {initiator.rage}, bonus {initiator.bonus:+d}"),
                                      ("defender", f"Rage {defender.rage}, bonus {defender.bonus:+d}")]),
                 ("P(initiator wins)", f"{r.p_win:.6f} (ties to the initiator, line 315)"))
    sections = [Section("rolloff", "The rolloff", summary),
                Section("initiator_total", "The initiator's total",
                        _distribution("total", r.initiator_total)),
                Section("defender_total", "The defender's total", _distribution("total", r.defender_total)),
                Section("margin", "Margin (initiator - defender): the initiator wins at 0 and above",
                        _distribution("margin", r.margin))]
    notes = ["each side rolls 2 + Rage d6 and keeps the highest two (lines 311, 371), then adds its bonuses; "
             "this is the rolloff before any counterattack (Phase 3) or concession",
             f"rows with probability < {EXACT_ROW_FLOOR:g} are left out"]
    return Report("UberDrakes: a combat rolloff", meta, sections, notes=notes)


# --- standard tables: the numbers are rulesets.uberdrakes.tables', laid out here ----------------------------

def rolloff_table_report(data: TableData) -> Report:
    meta = _meta(data.rulings, ("rolloff", "2 + Rage d6 each, the highest two kept, plus bonuses; the "
                                           "initiator wins ties (lines 311-315, 371)"))
    return Report("UberDrakes: P(the initiator wins the rolloff)", meta,
                  [Section("rolloff", "P(initiator wins) by Rage and bonus difference",
                           Table(data.parts["rolloff"]))],
                  notes=["the rolloff alone: counterattacks (Phase 3) can still turn it"])


def furnace_table_report(data: TableData) -> Report:
    meta = _meta(data.rulings, ("furnace", "each opponent within 4 spaces rolls 2d6; lower than the Magic "
                                           "spent: +1 Fatigue, no counterattack (lines 413-419)"))
    return Report("UberDrakes: the Furnace", meta,
                  [Section("furnace", "P(Fatigue) by Magic spent", Table(data.parts["furnace"]))])


def blood_points_table_report(data: TableData) -> Report:
    rulings, means = data.rulings, data.params["means"]
    meta = _meta(rulings, ("blood points", "the winner gains the loser's total, the loser half of it, "
                                           "rounded down (line 338); a Victory Point costs 20, +5 for each "
                                           "further one (line 349, UD-vp-escalation="
                                           f"{rulings.vp_escalation})"),
                 ("combat", f"plain: Rage 0 and no bonus on either side, both roll, no counterattack; mean "
                            f"blood points a combat: initiator {means[0]:.4f}, defender {means[1]:.4f}"))
    return Report("UberDrakes: blood points and Victory Points", meta,
                  [Section("blood_points", "Expected combats to afford each Victory Point (its price "
                                           "alone, and all up to it)", Table(data.parts["blood_points"]))])


def resources_table_report(data: TableData) -> Report:
    """What each item and spell (and each dragon's spells) adds to a combat against an opponent holding
    nothing, per Magic or coin of its cost (its numbers: rulesets.uberdrakes.contest, priced under
    rulesets.uberdrakes.rules.pricing_rulings)."""
    from rulesets.uberdrakes.rules import pricing_rulings

    rulings = data.rulings
    priced = pricing_rulings(rulings)
    explicit = "" if priced.policy != "optimal" or rulings.policy == "optimal" else (
        " (pricing's default: UD-policy is not set)")
    meta = _meta(rulings, ("combat", "the counterattack game solved exactly under UD-policy="
                                     f"{priced.policy}{explicit}, UD-objective={priced.objective}; the "
                                     "resource's holder against a side holding nothing, as initiator and as "
                                     "defender"),
                 ("value", f"UD-value={rulings.value}" + ("" if rulings.value == "win" else
                            f": blood points gained + {rulings.damage_bp} per instance of damage dealt - "
                            f"taken + {rulings.win_bp} x P(win)")),
                 ("grid", "initiator Rage 0..2 x defender Rage 0..2 x bonus difference -2, 0, +2, equally "
                          "weighted"))
    notes = ["value: the combat's worth (UD-value) with the resource - without it, the mean of both roles "
             "(value_initiator, value_defender); value_greedy: the same under UD-policy=greedy; win_gain: "
             "P(win), likewise; bp_gain: blood points; damage_gain / damage_taken_gain: damage instances "
             "dealt / taken; spent: Magic and coins' worth used up (one coin counted as one Magic)",
             *data.params["notes"]]
    return Report("UberDrakes: what each resource adds to a combat", meta,
                  [Section("resources", "Gain per resource, best per Magic or coin first",
                           Table(data.parts["resources"]))], notes=notes)


def rolloff_table(rulings: UberDrakesRulings) -> Report:
    """P(the initiator wins) for Rage 0..4 against Rage 0..4 and bonus differences -6..+6 (initiator's
    bonus minus the defender's)."""
    return table_report("rolloff", t.rolloff_data(rulings))


def furnace_table(rulings: UberDrakesRulings) -> Report:
    """P(an opponent gains a Fatigue) by the Magic spent on a Furnace (lines 413-419)."""
    return table_report("furnace", t.furnace_data(rulings))


def blood_points_table(rulings: UberDrakesRulings) -> Report:
    """Expected plain combats to afford each of the first Victory Points (20, 25, 30, 35 blood points under
    UD-vp-escalation), as initiator and as defender."""
    return table_report("blood-points", t.blood_points_data(rulings))


def resources_table(rulings: UberDrakesRulings) -> Report:
    """What each item and spell (and each dragon's spells) adds to a combat against an opponent holding
    nothing, per Magic or coin of its cost, over the contest's grid of situations; exact."""
    from rulesets.uberdrakes.contest import UberDrakesRuleset

    ruleset = UberDrakesRuleset("uberdrakes", "UberDrakes", "003", UberDrakesRulings, "")
    return table_report("resources", ruleset.resources_table(rulings))


def table_report(name: str, data: TableData, rounding: Rounding = READING) -> Report:
    """A standard table's Report, with its views for reading rounded by ``rounding``."""
    reports_ = {"rolloff": rolloff_table_report, "resources": resources_table_report,
                "furnace": furnace_table_report, "blood-points": blood_points_table_report,
                "turn-order": c.turn_order_table_report, "caves": c.caves_table_report,
                "urn": c.urn_table_report}
    return read_as(reports_[name](data), grids.VIEWS[name], rounding)


def plot_table(name: str, report: Report, path: Path) -> None:
    """The rolloff table as heatmaps, one panel per initiator's Rage (rows: the defender's Rage, columns:
    the bonus difference), the others as lines or bars; sized for the tables index (reports.plots.TABLE)."""
    from reports.plots import (
        COLOURS,
        TABLE,
        figure,
        integer_ticks,
        legend_outside,
        plot_lines,
        plot_panels,
        rows_height,
        save,
    )

    df = report.sections[0].data
    if name == "rolloff":  # 25 rows in one map would be unreadable at the index's width: 5 panels of 5
        grid = df.pivot_table(index=["initiator_rage", "defender_rage"], columns="bonus_difference",
                              values="p_win")
        columns = [f"{int(c):+d}" if c else "0" for c in grid.columns]
        panels = [(f"initiator Rage {a}", grid.loc[a].to_numpy(dtype=float),
                   [f"Rage {int(b)}" for b in grid.loc[a].index])
                  for a in dict.fromkeys(grid.index.get_level_values(0))]
        plot_panels(panels, columns, Path(path), label="P(initiator wins)",
                    title="UberDrakes rolloff (exact), one panel per initiator's Rage", ylabel="defender",
                    annotate=True, xlabel="bonus difference (initiator's bonus - defender's)", where=TABLE)
        return
    fig, ax = figure(6.4, 4.0 if name != "resources" else rows_height(len(df), 6.4, TABLE, 100))
    if name == "furnace":
        plot_lines(ax, [("P(Fatigue)", df.magic, df.p_fatigue)])
        ax.set_xlabel("Magic spent")
        ax.set_ylabel("P(Fatigue)")
        integer_ticks(ax.xaxis)
    elif name == "blood-points":
        plot_lines(ax, [("initiator", df.victory_point, df.initiator),
                        ("defender", df.victory_point, df.defender)])
        ax.set_xlabel("Victory Point")
        ax.set_ylabel("expected combats to afford it")
        integer_ticks(ax.xaxis)
        ax.legend()
    elif name == "resources":
        ax.barh(df.resource[::-1], df.value_per_cost[::-1], color=COLOURS[0])
        ax.set_xlabel("gain in the combat's value (UD-value) per Magic or coin")
    elif name == "turn-order":
        plot_lines(ax, [("P(tie)", df.players, df.p_tie)])
        ax.set_xlabel("players")
        ax.set_ylabel("P(a tie for the highest first roll)")
        integer_ticks(ax.xaxis)
    elif name == "caves":  # one first entry, with and without roosting: told apart by hatching too
        for roost, part in df.groupby("roosting"):
            ax.bar(part["coins"] + (0.2 if roost else -0.2), part["probability"], width=0.4,
                   color=COLOURS[1] if roost else COLOURS[0], hatch="//" if roost else None,
                   edgecolor="white" if roost else None, label="roosting" if roost else "not roosting")
        ax.set_xlabel("coins from one first entry")
        ax.set_ylabel("probability")
        integer_ticks(ax.xaxis)
        legend_outside(ax)
    else:  # urn: the Magic found
        ax.bar(df["magic"], df["probability"], color=COLOURS[0])
        ax.set_xlabel("Magic found")
        ax.set_ylabel("probability")
        integer_ticks(ax.xaxis)
    ax.set_title(report.title + " (exact)")
    ax.grid(alpha=0.3)
    save(fig, path, TABLE)


def combat_report(combat, outcomes: dict, rulings: UberDrakesRulings, described: list[tuple[str, str]]
                  ) -> Report:
    """A combat solved exactly under each policy (``outcomes``: policy -> rulesets.uberdrakes.combat
    .Outcome), side by side: P(win), P(damage), damage, Magic, items, spend and blood points per side."""
    from rulesets.uberdrakes.combat import NOT_MODELLED

    measures = (("P(win)", "p_win"), ("P(deals damage)", "p_damage"), ("damage instances dealt", "damage"),
                ("Magic spent", "magic"), ("items used", "items"), ("spend (UD-objective units)", "spend"),
                ("blood points", "blood_points"))
    rows = []
    for label, attr in measures:
        for side, name in ((0, "initiator"), (1, "defender")):
            rows.append((f"{label}, {name}", *(getattr(o, attr)[side] for o in outcomes.values())))
    rows.append(("P(the defender concedes without rolling)",
                 *(o.p_concede_unrolled for o in outcomes.values())))
    table = Table.from_rows(rows, ["measure", *outcomes])
    plans = Table.from_rows([(side, *(o.plans[s].describe() for o in outcomes.values()))
                             for s, side in enumerate(("initiator", "defender"))], ["side", *outcomes])
    meta = _meta(rulings, *described,
                 ("policies", "greedy: every pre-combat resource used, then the fewest resources that "
                              "overtake, cheapest first (Plate Armor X just enough), never conceding while "
                              "one remains; optimal: each side maximises "
                              f"UD-objective={rulings.objective} by backward induction over the game, the "
                              f"pre-combat plans declared {rulings.precombat_order}"),
                 ("combat", "rolloff, then counterattacks one resource at a time "
                            f"(UD-counter-sequencing={rulings.counter_sequencing}), damage and blood points"))
    shown = Table.from_rows([(row[0], *(f"{v:.3f}" for v in row[1:])) for row in rows],
                            ["measure", *outcomes])
    wins = ", ".join(f"{100 * o.p_win[0]:.1f}% under {policy} play" for policy, o in outcomes.items())
    sections = [Section("combat", "Expected results under each policy", table),
                Section("plans", "Before the roll (line 307): what each side uses", plans)]
    return Report("UberDrakes: a combat, solved exactly", meta, sections,
                  [Section("combat", "Expected results under each policy (exact, to 3 decimals)", shown),
                   sections[1]],
                  notes=[f"not modelled: {'; '.join(NOT_MODELLED)}",
                         "a roosted defender (line 284): \"Roosted players cannot initiate combat. Engaging "
                         "in combat with a roosted player does not [give] blood points to either player. You "
                         "can still deal Damage to them though\"; "
                         + ("the defender has Roosted: both sides' blood points are 0 and no objective "
                            "weighs them" if combat.roosted else
                            "the defender has not Roosted (--roosted: it has, and neither side gains blood "
                            "points)")],
                  headline=[f"The initiator wins {wins} (exact)"])


def units_report(catalog) -> Report:
    """The six dragons and their spells, and the items; a value marked * is illustrative (every item's
    price: the rulebook prints none)."""
    spells = []
    for dragon in catalog.dragons.values():
        for spell in catalog.spells_of(dragon.key):
            spells.append({"dragon": dragon.name, "spell": spell.name, "key": spell.key,
                           "cost": spell.cost_label + ("*" if "cost_max" in spell.illustrative else ""),
                           "ultimate": "yes" if spell.ultimate else "", "timing": spell.timing,
                           "combat": spell.combat, "source": spell.source_of("name") or ""})
    items = []
    for i in catalog.items.values():
        ranged = "" if i.kind != "combat" else ("yes" if i.ranged_ok else "no")
        price = f"{i.price}*" if "price" in i.illustrative else f"{i.price}"
        items.append({"item": i.name, "key": i.key, "kind": i.kind, "timing": i.timing,
                      "die": "yes" if i.die else "", "ranged": ranged, "price": price,
                      "hoard": "yes" if i.hoard else "", "source": i.source_of("name") or ""})
    quirks = [{"key": e.key, "quirk": q} for table in (catalog.dragons, catalog.spells, catalog.items)
              for e in table.values() for q in e.quirks]
    sections = [Section("spells", "The dragons' spells (cost in Magic)", Table.from_records(spells),
                        narrow=("dragon", "key", "cost", "ultimate", "timing", "combat")),
                Section("items", "Items (price in coins; * illustrative: not printed)",
                        Table.from_records(items))]
    if quirks:
        sections.append(Section("quirks", "Data quirks, each settled by a ruling",
                                Table.from_records(quirks)))
    meta = [("ruleset", RULESET), ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}")]
    return Report("UberDrakes: dragons, spells and items", meta, sections,
                  notes=["the rulebook prints no item prices (missing from the text): every price is "
                         "illustrative; supply real ones with --catalog FILE"])
