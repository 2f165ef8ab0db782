"""Dragonbond reports of single rolls (a pool, an attack, a face-off, a charge, Damage tokens) and of the
standard tables (dice, pool, attack, charge, face-off), all exact."""

from __future__ import annotations

import numpy as np

from reports.dragonbond import grids
from reports.formats import Report, Section, Table
from reports.tables import EXACT_ROW_FLOOR, READING, Rounding, distribution_rows, read_as
from rulesets.base import TableData
from rulesets.dragonbond import tables as t
from rulesets.dragonbond.attack import AttackSetup
from rulesets.dragonbond.dice import COLOURS, DEFENSE, Pool, modified
from rulesets.dragonbond.exact import (
    FACE_OFF_STAGES,
    Defense,
    Target,
    attack_distribution,
    blocks_distribution,
    charge_reach,
    damage_tokens,
    face_off,
    pool_distribution,
)
from rulesets.dragonbond.rules import DragonbondRulings
from rulesets.dragonbond.tables import default_pools  # noqa: F401 (the command line's pool table)
from simcore.exact import mean

RULESET = "dragonbond (seed 000)"


def _meta(rulings: DragonbondRulings, *items: tuple[str, str]) -> list[tuple[str, str]]:
    return [("ruleset", RULESET), *items, ("method", "exact"), ("rulings", rulings.describe())]


def _floor_note() -> str:
    return f"rows with P(at least k) < {EXACT_ROW_FLOOR:g} are left out"


def pool_report(pool: Pool, up: int, down: int, rulings: DragonbondRulings, sharp: bool = False) -> Report:
    """A pool after its upgrades and downgrades, and the exact joint distribution of its ◇, ◇◇ and ◆."""
    rolled = modified(pool, up, down, rulings)
    dist = pool_distribution(rolled, rulings, sharp)
    joint = dist.joint
    s, d, c = np.nonzero(joint >= EXACT_ROW_FLOOR)
    hc = dist.hits_and_criticals(rulings.double_hits)
    hits = hc.sum(axis=1)
    crits = hc.sum(axis=0)
    meta = _meta(rulings, ("pool", f"{pool} with {up} upgrade(s) and {down} downgrade(s): rolls {rolled} "
                                   f"(they cancel first, 216; DB-step-mode={rulings.step_mode})"),
                 ("Sharp", "yes (DB-sharp=" + rulings.sharp + ")" if sharp else "no"),
                 ("mean hits", f"{mean(hits):.6f} (a ◇◇ is {rulings.double_hits} hits: DB-double-hits)"),
                 ("mean criticals", f"{mean(crits):.6f}"))
    sections = [
        Section("joint", "Successes ◇, Double Successes ◇◇ and Criticals ◆ together",
                Table({"successes": s, "doubles": d, "criticals": c, "probability": joint[s, d, c]})),
        Section("hits", "Hits (◇ 1, ◇◇ DB-double-hits)", distribution_rows("hits", hits, None)),
        Section("criticals", "Criticals", distribution_rows("criticals", crits, None)),
    ]
    notes = [_floor_note()]
    if dist.tail > 0:
        notes.append(f"Sharp's chain of criticals is followed while a die's next ◆ has probability >= 1e-18; "
                     f"the mass left out is {dist.tail:.1e}")
    return Report("Dragonbond: a roll of action dice", meta, sections, notes=notes)


def blocks_report(pool: Pool, up: int, down: int, rulings: DragonbondRulings) -> Report:
    """A roll of defense dice: the pool after its upgrades and downgrades, and the exact blocks."""
    rolled = modified(pool, up, down, rulings)
    pmf = blocks_distribution(rolled, rulings)
    meta = _meta(rulings, ("pool", f"{pool} (defense) with {up} upgrade(s) and {down} downgrade(s): rolls "
                                   f"{rolled} (DB-step-mode={rulings.step_mode}, "
                                   f"DB-defense-tiers={rulings.defense_tiers}, "
                                   f"DB-defense-floor={rulings.defense_floor})"),
                 ("mean blocks", f"{mean(pmf):.6f}"))
    return Report("Dragonbond: a roll of defense dice", meta,
                  [Section("blocks", "Blocks ▼", distribution_rows("blocks", pmf, None))],
                  notes=[_floor_note()])


def _spread_sections(setup: AttackSetup, defense: Defense, others: list[Defense], rulings: DragonbondRulings,
                     described: int) -> tuple[list[Section], list[tuple[str, str]]]:
    from rulesets.dragonbond.exact import spread_attack

    units = [defense, *others]
    pmfs = spread_attack(setup.attack_pool(rulings), units, rulings, setup.sharp)
    sections, meta = [], []
    for i, (d, pmf) in enumerate(zip(units, pmfs, strict=True)):
        name = "the target" if i == 0 else f"engaged unit {i}"
        alike = "; not described: the target's defense, unmodified" if i > described else ""
        meta.append((f"mean wounds on {name}", f"{mean(pmf):.6f} ({d.dice} {COLOURS[DEFENSE][d.strength]} "
                                               f"defense die (dice) per hit{alike})"))
        sections.append(Section(f"wounds_{i}", f"Wounds on {name} (unit {i + 1} from the nearest)",
                                distribution_rows("wounds", pmf, None)))
    return sections, meta


def attack_report(setup: AttackSetup, target: Target | None, rulings: DragonbondRulings,
                  others: list[Defense] | None = None, run=None, described: int | None = None) -> Report:
    """One attack: the dice collected and rolled, every modifier with its source, the exact wounds and
    models killed; with ``run`` (rulesets.dragonbond.simulate.AttackRun), the simulated ones beside them.
    ``others``: for a ranged attack into a melee, the units after the target that share its hits
    (AttackSetup.melee_defenses), of which the first ``described`` (default all) were described."""
    rolled = setup.attack_pool(rulings)
    up, down = setup.defense_totals(rulings)
    defense = Defense(setup.defense, setup.defense_die, up, down)
    dist = attack_distribution(rolled, defense, target, rulings, setup.sharp)
    a_mods = "; ".join(f"{w} (+{u}/-{d})" for w, u, d in setup.attack_modifiers()) or "none"
    d_mods = "; ".join(f"{w} (+{u}/-{d})" for w, u, d in setup.defense_modifiers(rulings)) or "none"
    die = COLOURS[DEFENSE][setup.defense_die]
    meta = _meta(
        rulings,
        ("attack", f"{setup.kind}: {setup.models} model(s) x {setup.dice} = {setup.collected()}; rolls "
                   f"{rolled}{' (Sharp)' if setup.sharp else ''}"),
        ("attack modifiers", a_mods),
        ("defense", f"{setup.defense} {die} die (dice) per non-critical hit (730), modifiers applied once "
                    f"to the whole pool: +{up} -{down} (net {up - down:+d})"),
        ("defense modifiers", d_mods),
        ("mean wounds", f"{dist.mean_wounds():.6f}"),
    )
    if target is not None:
        healths = ", ".join(map(str, target.health))
        meta.append(("target", f"{len(target.health)} model(s) of Health {healths} "
                               f"in the order wounds fill them (DB-casualty-order={rulings.casualty_order})"))
        meta.append(("mean models killed", f"{dist.mean_killed():.6f}"))
    hits = dist.hits_crits.sum(axis=1)
    sections = [Section("wounds", "Wounds: max(0, hits - blocks) + criticals",
                        distribution_rows("wounds", dist.wounds, None))]
    if target is not None:
        sections.append(Section("killed", "Models killed", distribution_rows("killed", dist.killed, None)))
    sections += [Section("hits", "Hits before defense", distribution_rows("hits", hits, None)),
                 Section("criticals", "Criticals (wound without a defense roll)",
                         distribution_rows("criticals", dist.hits_crits.sum(axis=0), None))]
    notes = [_floor_note(), *dist.notes]
    if others:
        spread, spread_meta = _spread_sections(setup, defense, others, rulings,
                                               len(others) if described is None else described)
        meta = [m for m in meta if m[0] != "mean wounds"]
        meta += [("into a melee", f"ranged attack into {len(others) + 1} engaged units (the target, nearest, "
                                   f"and the {len(others)} it is engaged with): criticals then hits dealt "
                                   "one at a time from the nearest unit (685-689); each unit rolls its own "
                                   "defense against its share"), *spread_meta]
        sections = spread + sections[1:]
        notes.append("the hits and criticals tables are the whole attack's, before they are shared out")
    if run is not None:
        from reports.tables import mean_text
        from simcore.stats import Z95, histogram_mean

        counts = run.run.counts
        meta = [m for m in meta if m[0] not in ("method", "mean wounds", "mean models killed")]
        meta.append(("method", f"Monte Carlo, {run.trials:,} attacks, seed {run.run.seed}: each two stage "
                               f"draws from the exact tables; stderr is the standard error, 95% interval = "
                               f"estimate ± {Z95:.2f} stderr (exact mean wounds: {dist.mean_wounds():.6f})"))
        meta.append(("mean wounds", mean_text(histogram_mean(counts[0]), False)))
        sim = [Section("wounds", "Wounds (simulated)",
                       distribution_rows("wounds", counts[0] / run.trials, counts[0]))]
        if target is not None:
            k = len(target.health) + 1
            meta.append(("mean models killed", mean_text(histogram_mean(counts[1][:k]), False)))
            sim.append(Section("killed", "Models killed (simulated)",
                               distribution_rows("killed", counts[1][:k] / run.trials, counts[1][:k])))
        sections = sim + [s for s in sections if s.name not in ("wounds", "killed")]
        notes = [n for n in notes if "rows with" not in n]
    if rulings.double_hits == 2:
        notes.append("a Double Success ◇◇ counts 2 hits (DB-double-hits=2; the text never says)")
    return Report("Dragonbond: an attack", meta, sections, notes=notes)


def face_off_report(players: int, rulings: DragonbondRulings) -> Report:
    f = face_off(players, rulings)
    rows = Table({"decided_on": list(FACE_OFF_STAGES), "probability": [f.stages[s] for s in FACE_OFF_STAGES]})
    meta = _meta(rulings, ("players", str(players)),
                 ("roll", "3 grey action dice each; successes: ◇ 1, ◇◇ 2, ◆ "
                          + ("1" if rulings.crit_success else "0") + " (DB-crit-success)"),
                 ("P(a given player wins)", f"1/{players} = {f.p_win:.6f}: every player rolls the same dice, "
                                            "so by symmetry each wins equally often"),
                 ("still tied after the tiebreakers", "; ".join(f"{j} players {q:.6f}"
                                                               for j, q in f.still_tied.items())),
                 ("expected rolls", f"{f.expected_rolls:.6f} (only the players still tied reroll, 228, until "
                                    "one wins)"))
    return Report("Dragonbond: a face-off roll", meta,
                  [Section("stages", "How the face-off is decided (218-228)", rows)])


def charge_report(speed: int, tokens_beside: int, rulings: DragonbondRulings) -> Report:
    """A charge's reach; ``tokens_beside``: the fatigue tokens beside the unit once the charge's 2 are paid
    (DB-fatigue-timing says which count, rulesets.dragonbond.exact.charge_tokens)."""
    from rulesets.dragonbond.exact import charge_tokens

    reach = charge_reach(speed, tokens_beside, rulings)
    counted = charge_tokens(tokens_beside, rulings)
    timing = {
        "pay-then-act": "the 2 fatigue are paid before the charge (388-389, the example at 490-492), so the "
                        f"{tokens_beside} token(s) beside the unit count for its move and roll",
        "check-after-paying": "a cost that would exhaust the unit bars the action: this charge leaves no "
                              "token beside it",
        "act-then-pay": "the 2 fatigue are added after the charge, so its move and roll see no token beside "
                        "the unit",
    }[rulings.fatigue_timing]
    meta = _meta(rulings, ("unit", f"speed {speed}\", {tokens_beside} fatigue token(s) beside it once the "
                                   f"charge's 2 are paid, {counted} of them counted: "
                                   f"{max(0, speed - counted)}\" before the dice (420-424)"),
                 ("fatigue timing", f"DB-fatigue-timing={rulings.fatigue_timing}: {timing}"),
                 ("dice", f"3 {rulings.charge_dice} (DB-charge-dice), "
                          f"{rulings.charge_downgrades_per_token * counted} downgrade(s) "
                          f"(DB-exhaustion-other-rolls); +1\" per success (488)"),
                 ("mean reach", f"{mean(reach):.6f}\""))
    return Report("Dragonbond: charge reach", meta,
                  [Section("reach", "Reach in inches: P(exactly d) and P(at least d)",
                           distribution_rows("inches", reach, None))], notes=[_floor_note()])


def damage_report(tokens: int, tokens_beside: int, rulings: DragonbondRulings) -> Report:
    pmf = damage_tokens(tokens, tokens_beside, rulings)
    crit = "1 hit" if rulings.damage_token == "any-non-blank" else "no hit"
    meta = _meta(rulings, ("tokens", f"{tokens} Damage token(s): one black die each, tokens removed = hits, "
                                     f"at most {tokens} (590-592); ◇ 1 hit, ◇◇ {rulings.double_hits} "
                                     f"(DB-double-hits), ◆ {crit} (DB-damage-token={rulings.damage_token})"),
                 ("mean wounds", f"{mean(pmf):.6f} (each token removed adds one wound)"))
    return Report("Dragonbond: Damage tokens at the start of a turn", meta,
                  [Section("removed", "Tokens removed (= wounds)", distribution_rows("removed", pmf, None))],
                  notes=[_floor_note()])


# --- standard tables -------------------------------------------------------------------------------------
# The numbers are rulesets.dragonbond.tables'; these lay them out.

def dice_table_report(data: TableData) -> Report:
    return Report("Dragonbond: the dice", _meta(data.rulings, ("source", "Using Standard Dice (172-201)")),
                  [Section("dice", "Face probabilities per die", Table(data.parts["dice"]))])


def pool_table_report(data: TableData) -> Report:
    return Report("Dragonbond: pools under upgrades (+) and downgrades (-)",
                  _meta(data.rulings, ("step mode", data.rulings.step_mode)),
                  [Section("pools", "Expected hits and criticals", Table(data.parts["pools"]))])


def attack_table_report(data: TableData) -> Report:
    return Report("Dragonbond: expected wounds of an attack", _meta(
        data.rulings, ("defense", "1 defense die per non-critical hit, no defense modifier"),
        ("exhaustion", "2 attack downgrades per fatigue token beside the attacker (560)")),
        [Section("attack", "Expected wounds", Table(data.parts["attack"]))])


def charge_table_report(data: TableData) -> Report:
    return Report("Dragonbond: P(a charge reaches d inches)",
                  _meta(data.rulings, ("dice", f"3 {data.rulings.charge_dice}, +1\" per success, no fatigue "
                                               "beside")),
                  [Section("charge", "P(reach >= distance)", Table(data.parts["charge"]))])


def face_off_table_report(data: TableData) -> Report:
    return Report("Dragonbond: face-off rolls", _meta(data.rulings),
                  [Section("face_off", "How face-offs are decided", Table(data.parts["face_off"]))])


#: The Report of each standard table (Ruleset.tables() names them) from its data.
TABLE_REPORTS = {"dice": dice_table_report, "pool": pool_table_report, "attack": attack_table_report,
                 "charge": charge_table_report, "face-off": face_off_table_report}


def table_report(name: str, data: TableData, rounding: Rounding = READING) -> Report:
    """A standard table's Report, with its views for reading rounded by ``rounding``."""
    return read_as(TABLE_REPORTS[name](data), grids.VIEWS[name], rounding)


def dice_table(rulings: DragonbondRulings) -> Report:
    """Face probabilities and expected hits of each die."""
    return table_report("dice", t.dice_data(rulings))


def pool_table(pools: list[Pool], max_steps: int, rulings: DragonbondRulings) -> Report:
    """Expected hits and criticals of pools under 0..max_steps upgrades and downgrades."""
    return table_report("pool", t.pool_data(pools, max_steps, rulings))


def attack_table(max_dice: int, defenses: list[int], tokens: list[int], rulings: DragonbondRulings) -> Report:
    """Expected wounds for black/grey/white pools of 1..max_dice against one defense die per hit of each
    colour, with 0, 1, 2 fatigue tokens beside the attacker."""
    return table_report("attack", t.attack_data(max_dice, defenses, tokens, rulings))


def charge_table(speeds: list[int], max_distance: int, rulings: DragonbondRulings) -> Report:
    return table_report("charge", t.charge_data(speeds, max_distance, rulings))


def face_off_table(rulings: DragonbondRulings) -> Report:
    return table_report("face-off", t.face_off_data(rulings))
