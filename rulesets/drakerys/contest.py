"""Drakerys in the balance layer (the contract of rulesets/base.py): contests at equal points.

Contestants are the units with a fighting profile at every recruitment size (RECRUITMENT TABLE, or the
unit sheet's size where the table has no row), cost in Army Points. An engagement is a **battle at equal
points**: each side spends DK-budget AP (750 by default) on as many whole units of its entry, at that size,
as the budget buys (DK-composition), and the two forces fight on the TimePath by the game's own sequence
(rulesets/drakerys/battle.py) until one is destroyed or scattered or the six rounds end, starting
DK-engagement-start apart, side 0 the First Player. What a side does not spend is stated and counts as kept
(neither lost nor fighting).

The primary value is the battle's expected net AP per 100 AP of the budget: (AP destroyed - AP lost) x 100
/ budget, where a unit losing k of its n warriors loses k/n of its AP. Its fair cost is the **even-trade
price at equal points**: the AP per unit at which what its force destroys equals what it loses over the
field, sum(AP destroyed) / sum(units' worth of warriors lost), over its battles as First and Second
Player, with the force today's cost buys. A unit whose stats are the same per model and whose price is
proportional to its size fields the same models at every size, so its fair cost per model is the same at
every size (up to how its warriors are split into units). The meta-game's payoff is the net AP per 100 AP
of the budget, averaged over who is First Player.

numpy and the catalog reader (tomllib, hashlib) are imported by the functions that use them, not with the
module: the command tree builds its verbs from this ruleset, and `balance --help` loads neither.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulesets.base import (
    Contestant,
    CostChange,
    Coverage,
    Engagement,
    FairCostRule,
    LinearScore,
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    StandardTable,
    StatChange,
    without_trials,
)
from rulesets.drakerys.context import force
from rulesets.drakerys.fight import BattleRecord, Combatant, EngagementOutcome, is_object, modelling_notes
from rulesets.drakerys.rules import MAX_BATTLE_UNITS, MAX_CHARACTERISTIC, MAX_MOVE_CM, DrakerysRulings
from rulesets.drakerys.units import MODELLED_SKILLS, Catalog, Unit, UnitSize, Weapon
from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK

if TYPE_CHECKING:
    import numpy as np

    from rulesets.drakerys.battle import BattleRecords


#: Characteristics ``--set`` accepts, with their accepted range (unit sheets, PROFILE).
CHARACTERISTICS = {
    "actions": (1, MAX_CHARACTERISTIC), "power": (0, MAX_CHARACTERISTIC),
    "health": (1, MAX_CHARACTERISTIC), "initiative": (0, MAX_CHARACTERISTIC),
    "combat": (0, MAX_CHARACTERISTIC), "shooting": (0, MAX_CHARACTERISTIC),
    "strength": (0, MAX_CHARACTERISTIC), "resistance": (0, MAX_CHARACTERISTIC),
    "willpower": (0, MAX_CHARACTERISTIC), "march": (0, MAX_MOVE_CM),
    "charge": (0, MAX_MOVE_CM),
}
#: Weapon stats ``--set UNIT.weapon.STAT=VALUE`` accepts (ranged weapons table).
WEAPON_STATS = {"range": (1, 1000), "strength": (0, MAX_CHARACTERISTIC), "saturation": (0, 50)}
STATS = (*CHARACTERISTICS, "skills", "ap", *(f"weapon.{s}" for s in WEAPON_STATS))


@dataclass(frozen=True)
class Entry:
    """A unit at one recruitment size, with the weapons of its catalog."""

    unit: Unit
    size: int
    weapons: dict[str, Weapon] = dataclasses.field(hash=False, compare=False)
    #: The catalog's units, to escort an entry valued in context (rulesets/drakerys/context.py).
    allies: tuple[Unit, ...] = dataclasses.field(default=(), hash=False, compare=False)

    @property
    def weapon(self) -> Weapon | None:
        return self.weapons.get(self.unit.weapon) if self.unit.weapon else None


def _play(unit: Unit, size: int, weapon: Weapon | None) -> tuple:
    """What decides how a unit plays: its profile, skills and types, its size and weapon; not its cost (what
    a cost changes, the units a budget buys, is :meth:`DrakerysRuleset.cost_play`), its other recruitment
    options, its quirks or its sources."""
    return (dataclasses.replace(unit, sizes=(), sheet=None, quirks=(), source="", notes=""), size, weapon)


def _contestant(unit: Unit, option: UnitSize, weapons: dict[str, Weapon],
                allies: tuple[Unit, ...] = ()) -> Contestant:
    from rulesets.drakerys.context import acts_through_others

    entry = Entry(unit, option.size, weapons, allies if acts_through_others(unit) else ())
    play = _play(unit, option.size, entry.weapon)
    if entry.allies:  # valued in context: its escorts decide how it plays too
        play = (*play, tuple(_play(u, 0, weapons.get(u.weapon) if u.weapon else None)
                             + (tuple((o.size, o.ap, o.rarity) for o in u.all_sizes()),)
                             for u in entry.allies))
    return Contestant(
        key=f"{unit.key}@{option.size}", name=f"{unit.name} ({option.size})", cost=float(option.ap),
        cost_unit="AP", group=unit.key, play=play,
        labels=(("unit", unit.name), ("size", option.size)), subject=entry)


#: Record features the metrics are linear in (simcore.moments): the four outcomes as indicators, then
#: warriors lost, units lost, injuries suffered and Time Sections spent, side 0 and side 1.
_FEATURES = (
    ("outcome", int(EngagementOutcome.SIDE_0_WINS)), ("outcome", int(EngagementOutcome.SIDE_1_WINS)),
    ("outcome", int(EngagementOutcome.NEITHER)), ("outcome", int(EngagementOutcome.BOTH_DESTROYED)),
    ("lost_0", -1), ("lost_1", -1), ("units_lost_0", -1), ("units_lost_1", -1),
    ("injuries_0", -1), ("injuries_1", -1), ("ts_0", -1), ("ts_1", -1),
)


def _linear(rec: BattleRecords, a: Contestant, b: Contestant) -> LinearScore:
    """Every metric of both sides as weights on the record features (the one definition of the metrics:
    :func:`_fields` evaluates it trial by trial)."""
    import numpy as np

    f = {name: k for k, (name, _) in enumerate(_FEATURES)}
    win = (0, 1)
    neither, both = 2, 3
    size = (a.subject.size, b.subject.size)
    cost = (a.cost, b.cost)
    units = (len(rec.force_a), len(rec.force_b))
    budget = float(rec.rulings.budget)
    weights = np.zeros((2 * len(METRIC_NAMES), len(_FEATURES)))
    offsets = np.zeros(2 * len(METRIC_NAMES))
    for s in (0, 1):
        o = 1 - s
        ap_each = (cost[0] / size[0], cost[1] / size[1])
        rows = {
            "win": {win[s]: 1.0},
            "loss": {win[o]: 1.0},
            "neither": {neither: 1.0},
            "both_destroyed": {both: 1.0},
            "ap_destroyed": {f[f"lost_{o}"]: ap_each[o]},
            "ap_lost": {f[f"lost_{s}"]: ap_each[s]},
            "units_worth_lost": {f[f"lost_{s}"]: 1.0 / size[s]},
            "fraction_lost": {f[f"lost_{s}"]: 1.0 / (size[s] * units[s])},
            "units_lost": {f[f"units_lost_{s}"]: 1.0},
            "net_ap": {f[f"lost_{o}"]: ap_each[o], f[f"lost_{s}"]: -ap_each[s]},
            "net_ap_per_100ap": {f[f"lost_{o}"]: ap_each[o] * 100.0 / budget,
                                 f[f"lost_{s}"]: -ap_each[s] * 100.0 / budget},
            "battle_net_per_100ap": {f[f"lost_{o}"]: ap_each[o] * 100.0 / budget,
                                     f[f"lost_{s}"]: -ap_each[s] * 100.0 / budget},
            "trade_gain": {f[f"lost_{o}"]: ap_each[o]},
            "trade_loss": {f[f"lost_{s}"]: 1.0 / size[s]},
            "injuries_inflicted": {f[f"injuries_{o}"]: 1.0},
            "ts_spent": {f[f"ts_{s}"]: 1.0},
            "units_fielded": {},
            "ap_unspent": {},
        }
        for m, name in enumerate(METRIC_NAMES):
            for k, w in rows[name].items():
                weights[2 * m + s, k] = w
        offsets[2 * METRIC_NAMES.index("units_fielded") + s] = units[s]
        offsets[2 * METRIC_NAMES.index("ap_unspent") + s] = budget - units[s] * cost[s]
    columns = np.array([int(BattleRecord[name.upper()]) for name, _ in _FEATURES], np.int64)
    equals = np.array([value for _, value in _FEATURES], np.int64)
    return LinearScore(METRIC_NAMES, rec.records, columns, equals, weights, offsets)


def _fields(rec: BattleRecords, a: Contestant, b: Contestant) -> dict[str, np.ndarray]:
    """Every metric for side 0 (row 0) and side 1 (row 1), per trial."""
    return _linear(rec, a, b).samples()


def _engage_in_context(a: Contestant, b: Contestant, rulings: DrakerysRulings, *, seed: int, trials: int,
                      precision: float | None, threads: int | None) -> Engagement:
    """An engagement in which a side acts through others (rulesets/drakerys/context.py): each such side
    fields it with an escort, and each is priced against its escort alone on the same dice. Its metrics
    are linear in the battles' records (context.context_linear), weighed by the costs: at other costs that
    buy the same escorts (``cost_play``) it is weighed anew on its feature sums (``lighten``)."""
    from rulesets.drakerys import context

    raw = context.engage_records(a, b, rulings, seed=seed, trials=trials, precision=precision,
                                 threads=threads, block_trials=ENGAGEMENT_BLOCK,
                                 max_batch_trials=ENGAGEMENT_BATCH)

    def linear(records: context.ContextRecords, a_: Contestant, b_: Contestant) -> LinearScore:
        return context.context_linear(records, a_, b_, METRIC_NAMES)

    def fields(records: context.ContextRecords, a_: Contestant, b_: Contestant) -> dict[str, np.ndarray]:
        return linear(records, a_, b_).samples()

    return Engagement(a, b, seed=seed, raw=raw, score=fields, method="Monte Carlo", linear=linear,
                      lighten=without_trials)


#: Skills a battle of copies does not play whose worth cannot arise in it, with why: they leave the verdict
#: standing. Every other skill it does not play can change the unit's own value (``decisive``): its verdict
#: is then ``not measured``.
_BESIDE_THE_POINT = {
    "guard": "Guard (its worth is to a hero it escorts, and a force of copies escorts none)",
    "disengagement": "Disengagement (leaving an engagement: the battle is fought to the end)",
    "camouflage": "Camouflage (\"all the Sceneries procure Concealment\", which the rulebook never defines: "
                  "no effect to play, in a battle or out of one)",
}
#: Rules of a unit no battle can play, with why (each can change the unit's value: ``decisive``).
_UNPLAYABLE = {
    "awakened": "Awakened [{value}] (summons an Elemental Warrior, \"a Unit in itself\", from a Vortex or "
                "Maelstrom within 20 cm: the rulebook prints no profile for an Elemental, only its "
                "Herald's or Overlord's skill, and the battle line has no Magical Source)",
    "wizard": "Wizard [{value}] spells ({domains}: the rulebook prints no Tempest spell, and Solar's only "
              "one, MIRAGE, removes a friendly unit and redeploys it from a table edge, which the battle "
              "line has no place for; nor does it hold a Vortex or Maelstrom to draw Mana from)",
}
#: The names a report gives the rules a duel plays or leaves out.
_SKILL_NAMES = {"heroic_action": "Heroic Action", "expert_parry": "Expert Parry",
                "violent_blow": "Violent Blow", "martial_arts": "Martial Arts", "deadly_blow": "Deadly Blow",
                "brutal_charge": "Brutal Charge", "multiple_shots": "Multiple Shots",
                "quick_shot": "Quick Shot", "elemental_power": "Elemental Power", "war_cry": "War Cry"}


def _skill_name(skill: str) -> str:
    return _SKILL_NAMES.get(skill, skill.replace("_", " ").title())


def coverage(unit: Unit, rulings: DrakerysRulings | None = None,
             allies: tuple[Unit, ...] | None = None) -> Coverage:
    """Which of a unit's rules its contest plays: its profile and ranged weapon, the modelled skills, and
    those whose worth cannot arise in it. Fought as copies (``allies`` None), Heroic Action and Authority
    are not played. Valued in context (``allies``: the catalog's units, rulesets/drakerys/context.py), it
    plays Authority over its escort (DK-authority-range) and Heroic Action by DK-heroic-dice (not when 0);
    with a Guard escort, Safeguard's transfer of injuries to it (DK-safeguard-transfer) and, for a Hero
    with an Infantry Guard escort, Combined Charge (DK-combined-charge) too. Awakened summons and Wizard
    spells no battle plays (_UNPLAYABLE): they stay decisive."""
    rulings = rulings or DrakerysRulings()
    played = ["profile", *(["ranged weapon"] if unit.weapon else [])]
    unplayed, decisive = [], []
    guarded = combined = False
    if allies is not None:
        from rulesets.drakerys.context import escorts

        chosen = escorts(unit, allies, rulings)
        guarded = any(e.unit.has("guard") for e in chosen)
        combined = unit.is_hero and any(e.unit.has("guard") and "Infantry" in e.unit.types for e in chosen)
        played.append(f"value in context (DK-context={rulings.context}: escorted by "
                      f"{', '.join(e.name for e in chosen)} in turn)")
    in_context = {"authority": f"Authority (a Morale die for each allied unit in reach, "
                               f"DK-authority-range={rulings.authority_range})",
                  "heroic_action": f"Heroic Action (DK-heroic-dice={rulings.heroic_dice} on each Fight and "
                                   f"Shooting)"}
    for skill in unit.skills:
        if skill in _BESIDE_THE_POINT:
            unplayed.append(_BESIDE_THE_POINT[skill])
        elif allies is not None and skill in in_context and not (skill == "heroic_action"
                                                                  and rulings.heroic_dice == 0):
            played.append(in_context[skill])
        elif skill == "safeguard" and guarded:
            moved = ("6-9 move it to the Guard escort within 10 cm" if rulings.safeguard_transfer == "always"
                     else "6-9 stay")
            played.append(f"Safeguard (a 10 cancels an Injury; {moved}: DK-safeguard-transfer="
                          f"{rulings.safeguard_transfer})")
        elif skill in _UNPLAYABLE:
            domains = ", ".join(p.partition("(")[2].rstrip(")") for p in unit.skills_as_printed
                                if p.startswith("Wizard")) or "no domain printed"
            name = _UNPLAYABLE[skill].format(value=unit.skill_value(skill), domains=domains)
            unplayed.append(name)
            decisive.append(name)
        elif skill in MODELLED_SKILLS and skill not in ("heroic_action", "authority"):
            played.append(_skill_name(skill))
        else:
            name = _skill_name(skill) + {"heroic_action": " (no Heroic Action dice are rolled)",
                                         "authority": " (its Morale dice for allied units in range: not "
                                                      "modelled between units)"}.get(skill, "")
            unplayed.append(name)
            decisive.append(name)
    if combined:
        played.append(f"Combined Charge with an Infantry Guard escort within 10 cm (DK-combined-charge="
                      f"{rulings.combined_charge})")
    if unit.notes:
        unplayed.append(f"the rule text printed with its row ({unit.notes})")
        decisive.append(unplayed[-1])
    return Coverage(tuple(played), tuple(unplayed), tuple(decisive))


class DrakerysRuleset(Ruleset):
    """Drakerys (seed 002) fulfilling the contract: battles at equal points between forces of whole units."""

    cost_unit = "AP"
    engagement = ("a battle at equal points: each side fields as many whole units of its entry as DK-budget "
                  "buys (DK-composition), the forces start DK-engagement-start apart (contact: side 0's "
                  "first unit charges), side 0 the First Player, and play on the TimePath (DK-battle-tokens, "
                  "DK-battle-targeting), each Action the unit's best available one (Attack when Engaged, "
                  "else Shooting when in range, else Charge, else March), until a side's units are all "
                  "destroyed or scattered or six rounds of 16 Time Sections end")
    roles = ("First Player", "Second Player")
    metrics = (
        Metric("win", "P(this side wins the battle: every enemy unit destroyed or scattered)"),
        Metric("loss", "P(this side's units are all destroyed or scattered while the enemy stands)"),
        Metric("neither", "P(both stand when the game ends)"),
        Metric("both_destroyed", "P(both are destroyed)"),
        Metric("ap_destroyed", "AP of the enemy destroyed (k of a unit's n warriors lost: k/n of its AP)"),
        Metric("ap_lost", "AP of this side destroyed"),
        Metric("units_worth_lost", "warriors lost in units' worth (warriors lost / the unit's size)"),
        Metric("fraction_lost", "fraction of this side's warriors lost (scattered units: all theirs)"),
        Metric("units_lost", "this side's units destroyed or scattered"),
        Metric("net_ap", "AP destroyed - AP lost"),
        Metric("net_ap_per_100ap", "net AP per 100 AP of the budget (the primary value); for an entry valued "
                                   "in context (a hero: DK-context), its force's net AP less the escort "
                                   "alone's, per 100 AP of the budget"),
        Metric("injuries_inflicted", "injuries this side inflicted"),
        Metric("ts_spent", "Time Sections this side's units spent"),
        Metric("units_fielded", "units this side fields (DK-composition)"),
        Metric("ap_unspent", "AP of the budget this side does not spend (kept: neither lost nor fighting)"),
        Metric("battle_net_per_100ap", "net AP per 100 AP of the budget of the battle fought (the "
                                       "meta-game's payoff: side 0's is minus side 1's)"),
        Metric("trade_gain", "what the even-trade price counts as gained: AP destroyed; in context, AP "
                             "destroyed - AP of the escort lost - the escort alone's net AP"),
        Metric("trade_loss", "what the even-trade price counts as lost: warriors lost in units' worth; in "
                             "context, the hero's own units' worth lost"),
    )
    primary_metric = "net_ap_per_100ap"
    win_metric = "win"
    payoff_metric = "battle_net_per_100ap"
    payoff_description = ("net AP per 100 AP of the budget of the battle fought, averaged over who is First "
                          "Player")
    #: Costs move in steps of 5 (the game's natural step: a fair band is never narrower).
    cost_step = 5.0
    fair_cost_rule = FairCostRule(
        "even-trade", "the even-trade price at equal points: the AP per unit at which the AP its force "
                      "destroys equals the AP it loses over its battles, with the force today's cost buys "
                      "(sum of AP destroyed / sum of units' worth of warriors lost); the same per model at "
                      "every size for a unit priced in proportion to its size; for a hero valued in "
                      "context, the AP at which its force and the escort alone trade equally (trade_gain / "
                      "trade_loss)",
        gain="trade_gain", loss="trade_loss")
    value_per_cost_description = "net AP per AP of the budget (the primary value / 100)"
    #: DK-budget: what --budget sets.
    budget_ruling = "DK-budget"

    def load_catalog(self, paths: Sequence[Path] = ()) -> Catalog:
        from rulesets.drakerys import catalog as catalog_io

        return catalog_io.load(paths)

    def catalog_files(self, catalog: Catalog) -> list[tuple[str, str]]:
        return list(catalog.files)

    def contestants(self, catalog: Catalog, only: Sequence[str] = ()) -> list[Contestant]:
        """Every profiled unit that is no Object, at every recruitment size with a cost above 0.

        ``only``: unit names or keys (every size of the unit) or contestant keys such as ``crows@12``.
        """
        wanted_units: set[str] | None = None
        wanted_keys: set[str] = set()
        if only:
            wanted_units = set()
            for name in only:
                unit_name, at, size = name.partition("@")
                unit = self._fighting_unit(catalog, unit_name)
                if at:
                    option = _size_option(unit, size)
                    wanted_keys.add(f"{unit.key}@{option.size}")
                else:
                    wanted_units.add(unit.key)
        out = []
        allies = tuple(sorted(catalog.with_profiles(), key=lambda u: u.key))
        for u in sorted(catalog.with_profiles(), key=lambda u: (u.faction, u.name)):
            if is_object(u):
                continue
            for option in u.all_sizes():
                c = _contestant(u, option, catalog.weapons, allies)
                if option.ap <= 0 or (wanted_units is not None and u.key not in wanted_units
                                      and c.key not in wanted_keys):
                    continue
                out.append(c)
        return out

    def cost_play(self, contestant: Contestant, rulings: DrakerysRulings) -> Hashable:
        """A cost changes a battle of copies only through the whole units the budget buys (the metrics are
        weighed by the costs afterwards: ``_linear``); an entry valued in context, only through the whole
        escort units its cost leaves room for (context.escort_units; ``context_linear`` weighs the
        battles by the costs): at a cost that buys the same escorts its engagements are weighed anew."""
        if contestant.subject.allies:
            from rulesets.drakerys.context import escort_units

            return escort_units(contestant, rulings)
        return force(contestant, rulings).units

    @staticmethod
    def _fighting_unit(catalog: Catalog, name: str) -> Unit:
        return _fighting(catalog.unit(name))

    def engage(self, a: Contestant, b: Contestant, rulings: DrakerysRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        from rulesets.drakerys import battle  # numba: loaded when a battle is fought, not with the ruleset

        trials = self.engagement_trials(trials, precision)
        if a.subject.allies or b.subject.allies:  # an entry that acts through others: valued in context
            return _engage_in_context(a, b, rulings, seed=seed, trials=trials, precision=precision,
                                      threads=threads)
        ea, eb = a.subject, b.subject
        weapons = {**ea.weapons, **eb.weapons}
        start = rulings.engagement_start
        rec = battle.battle_records([Combatant(ea.unit, ea.size)] * force(a, rulings).units,
                                    [Combatant(eb.unit, eb.size)] * force(b, rulings).units,
                                    rulings=rulings, weapons=weapons, trials=trials, seed=seed,
                                    start_cm=None if start == "contact" else int(start),
                                    threads=threads, precision=precision, block_trials=ENGAGEMENT_BLOCK,
                                    max_batch_trials=ENGAGEMENT_BATCH)
        return Engagement(a, b, seed=seed, raw=rec, score=_fields, method="Monte Carlo",
                          linear=_linear, lighten=without_trials)

    def representative(self, catalog: Catalog, target: str) -> str:
        """``crows@12`` as given; ``crows``: the unit at the size printed on its sheet."""
        name, at, size = target.partition("@")
        unit = self._fighting_unit(catalog, name)
        option = _size_option(unit, size) if at else unit.standard_size
        if option is None:
            raise RulesError(f"{unit.name} has no recruitment size")
        return f"{unit.key}@{option.size}"

    def catalog_for(self, catalog: Catalog, rulings: DrakerysRulings) -> Catalog:
        """DK-spearmen-sizes=lancers: the Spearmen recruited at the Irosia Lancers' sizes (their sheet's
        10 / 110 / 0 is that row's 10-size option, and the table lists no Spearmen)."""
        spearmen, lancers = catalog.units.get("spearmen"), catalog.units.get("irosia-lancers")
        if rulings.spearmen_sizes != "lancers" or spearmen is None or lancers is None or spearmen.sizes:
            return catalog
        note = "recruited at the Irosia Lancers' sizes (ruling DK-spearmen-sizes=lancers)"
        units = {**catalog.units, "spearmen": dataclasses.replace(spearmen, sizes=lancers.sizes,
                                                                  quirks=(*spearmen.quirks, note))}
        return dataclasses.replace(catalog, units=units)

    def stats(self) -> tuple[str, ...]:
        return STATS

    variant_table = "units"
    variant_word = "unit"
    list_stats = ("skills",)

    def variant_name(self, target: str) -> str:
        """``crows@12`` changes the unit crows (its AP at that size)."""
        return target.partition("@")[0].strip()

    def variant_entry(self, catalog: Catalog, change: StatChange | CostChange) -> Unit:
        """A unit with a fighting profile."""
        return _fighting(super().variant_entry(catalog, change))

    def changed_stat(self, catalog: Catalog, entry: Unit, change: StatChange) -> Catalog:
        if change.stat == "ap":
            return self.with_entry(catalog, _recosted(entry, _size_suffix(change.target),
                                                      change.number(above=0.0)))
        if "@" in change.target:
            raise OptionError(f"change {change.text!r}: stats belong to the unit, not to one size; "
                              f"drop @{_size_suffix(change.target)}")
        unit, weapons = _changed(entry, change, catalog.weapons)
        return _with(catalog, {**catalog.units, unit.key: unit}, weapons)

    def recosted(self, catalog: Catalog, entry: Unit, change: CostChange) -> Catalog:
        return self.with_entry(catalog, _recosted(entry, _size_suffix(change.target), change.cost))

    def tables(self) -> dict[str, StandardTable]:
        from rulesets.drakerys import tables

        return tables.standard_tables()

    def value_per_cost(self, value: float, cost: float) -> float:
        return value / 100.0

    def notes(self, catalog: Catalog, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.drakerys.battle import battle_notes

        units = list(dict.fromkeys(c.subject.unit for c in contestants))
        notes = ["every contest is a battle at equal points (DK-budget, DK-composition in the rulings): each "
                 "side fields whole units of its entry; matchups.csv gives each side's units_fielded and "
                 "ap_unspent (the AP it could not spend, kept: neither lost nor fighting)",
                 "every battle starts as DK-engagement-start says (30 cm apart by default, so shooters open "
                 "fire while the other side closes; contact: side 0's first unit charges); a unit with "
                 "Heroic Action adds DK-heroic-dice d10 to each Fight and Shooting (1 TS each)",
                 "entries that act through others (Heroes, Authority, Wizard, Heroic Action) are valued in "
                 "context (DK-context): their side fields them with whole units of an escort, and their "
                 "value (net_ap_per_100ap) is that force's net AP less the escort alone's on the same "
                 "budget and dice; their fair cost is the AP at which the two trade equally; every other "
                 "metric of theirs, and their opponents', is the battle fought with the hero",
                 "the fair cost keeps the force today's cost buys; `balance sweep drakerys --cost UNIT=..` "
                 "finds the cost equal to its own fair cost, with the units each cost buys",
                 *battle_notes()]
        return notes + modelling_notes(*units)

    def coverage(self, contestant: Contestant, rulings: DrakerysRulings) -> Coverage:
        entry = contestant.subject
        return coverage(entry.unit, rulings, entry.allies or None)

    price_models = "models"
    price_per_model = ("Actions", "Power", "Health", "Combat", "Strength", "Resistance")
    price_features_text = ("models: 1 a model (the base price of a model); Actions, Power, Health, Combat, "
                           "Strength, Resistance: the stat of its profile times the unit's models (a price "
                           "reads: AP per point per model)")

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The pricing rule's features: a unit's models, and the profile stats that vary across the
        catalog and decide its battles, each times its models (a unit is bought at a size, and every
        warrior of it has the profile: seed 002, "A Unit is made of one or several Warriors with the same
        name and the same Profile", line 535). As the unit sheets define them (PROFILE, lines 475-499):

        - models: 1 a warrior, so its price is the base price of a model.
        - Actions: "The maximum number of Actions the Warrior can take on each Activation" (475): how
          often it attacks on the TimePath.
        - Power: "Number of D10s to be rolled during the Attack" (479).
        - Health: "the number of Injuries a Warrior can take before they are withdrawn" (483).
        - Combat: "Used to hit enemy Warriors" (491).
        - Strength: "Used to hurt enemy Warriors" (495).
        - Resistance: "Allows to take blows" (499).

        Left out, to keep the fit far smaller than the catalog's 15 profiles: Initiative and Willpower
        (they order strikes and steady Morale: second-order in a battle of copies), Shooting and
        March/Charge (four units shoot; movement only decides who closes first) and the skills: those a
        battle plays are held by one to four of the 15 units each (Swashbuckler, Parry and Violent Blow
        by three), and the commonest, Guard and Disengagement, are worth nothing in a battle of copies.
        """
        entry = contestant.subject
        profile, models = entry.unit.profile, float(entry.size)
        return {"models": models, "Actions": models * profile.actions, "Power": models * profile.power,
                "Health": models * profile.health, "Combat": models * profile.combat,
                "Strength": models * profile.strength, "Resistance": models * profile.resistance}

    def check_army(self, force: Sequence[tuple[Contestant, int]], rulings: DrakerysRulings) -> None:
        """DK-composition for an army of several entries: whole units of profiled units at their sizes,
        within DK-budget and MAX_BATTLE_UNITS, and under copies-rarity no more Rarity than 1 point per full
        100 AP of the budget (seed 002, lines 705 and 711-719), the whole army's Rarity counted."""
        from rulesets.base import army_totals

        army_totals(force, float(rulings.budget), MAX_BATTLE_UNITS, "DK-budget")
        for c, _ in force:
            if not isinstance(c.subject, Entry):
                raise RulesError(f"{c.name} is no Drakerys unit at a recruitment size")
        if rulings.composition == "copies-rarity":
            rarity = sum(units * c.subject.unit.size_option(c.subject.size).rarity for c, units in force)
            allowed = rulings.budget // 100
            if rarity > allowed:
                raise RulesError(f"an army of {rarity} Rarity points is more than the {allowed} that "
                                 f"DK-budget={rulings.budget} allows under DK-composition=copies-rarity")

    def contest_army(self, contestant: Contestant, rulings: DrakerysRulings
                     ) -> tuple[tuple[Contestant, int], ...] | None:
        """The copies :func:`force` fields, as :meth:`army_engage` plays them; None for an entry valued in
        context (its contest adds an escort)."""
        if contestant.subject.allies:
            return None
        return ((contestant, force(contestant, rulings).units),)

    def army_engage(self, force_a: Sequence[tuple[Contestant, int]],
                    force_b: Sequence[tuple[Contestant, int]], rulings: DrakerysRulings, *, seed: int,
                    trials: int | None = None, precision: float | None = None,
                    threads: int | None = None) -> Engagement:
        """A battle of two armies, played as :meth:`engage` plays two forces of copies (the same battle
        for armies of one entry each, the units :func:`force` fields: the same records for the same seed).

        The metrics are :func:`_linear`'s, read off each side's mean unit (its AP and warriors per unit):
        the records count the warriors a side lost, not whose, so an AP metric values each warrior lost at
        the force's mean AP per warrior; win, loss, neither, units lost and the fraction lost are exact.
        """
        import types

        from rulesets.base import army_engagement
        from rulesets.drakerys import battle  # numba: loaded when a battle is fought, not with the ruleset
        from rulesets.drakerys.context import combatant

        sides = self.checked_armies(force_a, force_b, rulings)
        trials = self.engagement_trials(trials, precision)
        weapons = {k: w for force_ in sides for c, _ in force_ for k, w in c.subject.weapons.items()}
        fighters = [[combatant(c.subject.unit, c.subject.size, rulings) for c, units in force_
                     for _ in range(units)] for force_ in sides]
        start = rulings.engagement_start
        rec = battle.battle_records(fighters[0], fighters[1], rulings=rulings, weapons=weapons, trials=trials,
                                    seed=seed, start_cm=None if start == "contact" else int(start),
                                    threads=threads, precision=precision, block_trials=ENGAGEMENT_BLOCK,
                                    max_batch_trials=ENGAGEMENT_BATCH)

        def mean_subject(force_, units: int):
            return types.SimpleNamespace(size=sum(n * c.subject.size for c, n in force_) / units)

        return army_engagement(sides, rec, seed, _linear, mean_subject)


#: The metric names in the ruleset's order (rows of the linear score).
METRIC_NAMES = tuple(m.name for m in DrakerysRuleset.metrics)


def _with(catalog: Catalog, units: dict[str, Unit], weapons: dict[str, Weapon]) -> Catalog:
    return Catalog(units, weapons, catalog.source, catalog.files)


def _fighting(unit: Unit) -> Unit:
    """``unit``, which has a fighting profile; a RulesError otherwise."""
    if unit.profile is None or is_object(unit):
        raise RulesError(f"{unit.name} has no fighting profile in the rulebook, so it meets no one")
    return unit


def _size_suffix(target: str) -> int | None:
    _, at, size = target.partition("@")
    if not at:
        return None
    try:
        return int(size)
    except ValueError:
        raise OptionError(f"size {size!r} in {target!r} is not a whole number") from None


def _size_option(unit: Unit, size: str | int) -> UnitSize:
    """The recruitment option of ``size``: OptionError when it is no whole number, RulesError (naming the
    sizes the rulebook lists) when the rulebook does not recruit the unit that strong."""
    try:
        number = int(size)
    except ValueError:
        raise OptionError(f"size {size!r} of {unit.key} is not a whole number") from None
    return unit.size_option(number)


def _recosted(unit: Unit, size: int | None, cost: float) -> Unit:
    """``unit`` with the AP of one size changed (the size on its sheet when ``size`` is None)."""
    if not cost > 0:
        raise OptionError(f"a cost of {cost:g} AP for {unit.key} is not > 0")
    option = unit.size_option(size) if size is not None else unit.standard_size
    if option is None:
        raise RulesError(f"{unit.name} has no recruitment size to give a cost to")
    ap = int(cost) if float(cost).is_integer() else cost

    def swap(o: UnitSize | None) -> UnitSize | None:
        return dataclasses.replace(o, ap=ap) if o is not None and o.size == option.size else o

    return dataclasses.replace(unit, sizes=tuple(swap(o) for o in unit.sizes), sheet=swap(unit.sheet))


def _skill(name: str, text: str) -> str:
    from rulesets.drakerys import catalog as catalog_io

    canonical = catalog_io.snake(name)
    known = sorted(set(catalog_io.KNOWN_SKILLS.values()))
    if canonical not in known:
        close = difflib.get_close_matches(canonical, known, n=2)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise RulesError(f"change {text!r}: unknown skill {name!r}{hint}")
    return canonical


def _changed(unit: Unit, change: StatChange, weapons: dict[str, Weapon]) -> tuple[Unit, dict[str, Weapon]]:
    """``unit`` with ``change`` made (a stat of STATS but ap: Ruleset.variant checked it), and the weapons
    with the unit's own copy of its weapon where the change is to the weapon."""
    stat = change.stat
    if stat in CHARACTERISTICS:
        value = change.whole(*CHARACTERISTICS[stat])
        return dataclasses.replace(unit, profile=dataclasses.replace(unit.profile, **{stat: value})), weapons
    if stat == "skills":
        names = [_skill(n.strip(), change.text) for n in change.value.split(",") if n.strip()]
        if change.op == "=":
            skills = tuple(dict.fromkeys(names))
        elif change.op == "+=":
            skills = tuple(dict.fromkeys((*unit.skills, *names)))
        else:
            absent = [n for n in names if n not in unit.skills]
            if absent:
                raise RulesError(f"change {change.text!r}: {unit.name} has no skill {absent[0]!r}; it has "
                                 f"{', '.join(unit.skills) or 'none'}")
            skills = tuple(s for s in unit.skills if s not in names)
        unmodelled = [s for s in names if s not in MODELLED_SKILLS]
        if unmodelled and change.op != "-=":
            raise RulesError(f"change {change.text!r}: {unmodelled[0]} has no modelled effect in fights; "
                             f"modelled: {', '.join(sorted(MODELLED_SKILLS))}")
        return dataclasses.replace(unit, skills=skills), weapons
    name = stat.partition(".")[2]  # weapon.NAME, the one kind of stat left
    if unit.weapon is None:
        raise RulesError(f"change {change.text!r}: {unit.name} has no ranged weapon")
    value = change.whole(*WEAPON_STATS[name])
    weapon = weapons[unit.weapon]
    field = {"range": "max_range_cm"}.get(name, name)
    key = f"{unit.weapon}@{unit.key}"
    weapons = {**weapons, key: dataclasses.replace(weapon, **{field: value})}
    return dataclasses.replace(unit, weapon=key), weapons


__all__ = ["CHARACTERISTICS", "STATS", "DrakerysRuleset", "Entry"]
