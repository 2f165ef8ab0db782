"""Value in context: what an entry that acts through others (a Hero, or a unit with Authority, Wizard or
Heroic Action) adds to an equal-points force (issue 30, item 2).

A hero fought as copies of itself is measured alone, which is not how the rulebook fields it: "The players
must have at least one Hero of the Allegiance chosen in their Armies. Several different Heroes can join the
same Army, but every Hero can be present only once" (seed 002, HEROES, line 709), and what it gives, its
Authority ("The Allied Units within [X] cm of the Unit benefit from one additional D10 for their Morale
Rolls"), its Combined Charge "with their personal guard", its Safeguard's transfer to "an Allied Unit
endowed with Guard", acts through the units around it. So its side fields **the hero and whole units of an
escort** bought with the rest of DK-budget, and the **baseline** spends the whole budget on the escort
alone (the hero's points spent on more of it). Both battles meet the same opponent on the same seed, trial
for trial (common random numbers, as Dragoborne prices a card against an average card and UberDrakes a
resource against none). Ruling DK-context says which escorts: the hero's faction's Guard units in turn
(default), the field's entries in turn (its average), or one named unit.

For the hero's side, per trial and averaged over its escorts:

* ``net_ap_per_100ap`` (the value) = (net AP of hero + escort - net AP of the escort alone) x 100 / budget;
* ``trade_gain`` = AP its force destroys - AP of its escort lost - net AP of the escort alone, and
  ``trade_loss`` = the hero's own units' worth lost, so that the even-trade price sum(gain) / sum(loss) is
  the cost at which the hero's force and the escort alone trade equally: value = gain - cost x loss.

Every other metric is the battle fought with the hero (win, AP destroyed and lost with the hero's warriors
at its AP and the escort's at theirs, ...), and the opponent's side is scored against that force.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesets.base import Contestant, Force, LinearScore, RulesError, copies
from rulesets.drakerys.fight import BattleRecord, Combatant, EngagementOutcome, is_object
from rulesets.drakerys.rules import MAX_BATTLE_UNITS, DrakerysRulings
from rulesets.drakerys.units import Unit, UnitSize

if TYPE_CHECKING:
    import numpy as np

    from simcore import runner

#: Skills that make an entry act through others: its worth is in the units around it.
THROUGH_OTHERS = ("authority", "wizard", "heroic_action")


def force(contestant: Contestant, rulings: DrakerysRulings) -> Force:
    """DK-composition: as many whole units of the entry at its size as DK-budget buys (copies-rarity: and
    no more Rarity than 1 point per full 100 AP of the budget), at most MAX_BATTLE_UNITS.

    Raises:
        RulesError: the budget buys not one unit of the entry.
    """
    cap = None
    entry = contestant.subject
    if rulings.composition == "copies-rarity":
        rarity = entry.unit.size_option(entry.size).rarity
        cap = (rulings.budget // 100) // rarity if rarity > 0 else None
    return copies(contestant, float(rulings.budget), MAX_BATTLE_UNITS, cap, "DK-budget")

def acts_through_others(unit: Unit) -> bool:
    """A Hero, or a unit with Authority, Wizard or Heroic Action: valued in context."""
    return unit.is_hero or any(unit.has(s) for s in THROUGH_OTHERS)


def combatant(unit: Unit, size: int, rulings: DrakerysRulings) -> Combatant:
    """A unit as a contest fields it: with DK-heroic-dice Heroic Action dice when it has the skill."""
    heroic = rulings.heroic_dice if unit.has("heroic_action") else 0
    return Combatant(unit, size, heroic=heroic)


@dataclass(frozen=True)
class Escort:
    """A unit escorting heroes, at one recruitment size."""

    unit: Unit
    option: UnitSize

    @property
    def name(self) -> str:
        return f"{self.unit.name} ({self.option.size})"


def _escort(unit: Unit) -> Escort | None:
    option = unit.standard_size
    if unit.profile is None or is_object(unit) or acts_through_others(unit) or option is None \
            or option.ap <= 0:
        return None
    return Escort(unit, option)


def escorts(hero: Unit, allies: tuple[Unit, ...], rulings: DrakerysRulings) -> tuple[Escort, ...]:
    """The escorts DK-context gives ``hero``, each at the size printed on its sheet (else its largest):
    faction-guard: the units of its faction with Guard (none: its faction's other units; none: the field's);
    field: every unit that acts through no other; a unit key: that unit.

    Raises:
        RulesError: a unit key that names no unit able to escort.
    """
    candidates = [e for e in (_escort(u) for u in sorted(allies, key=lambda u: u.key)) if e is not None]
    choice = rulings.context
    if choice == "field":
        chosen = candidates
    elif choice == "faction-guard":
        faction = [e for e in candidates if e.unit.faction == hero.faction]
        chosen = [e for e in faction if e.unit.has("guard")] or faction or candidates
    else:
        chosen = [e for e in candidates if e.unit.key == choice]
        if not chosen:
            known = ", ".join(e.unit.key for e in candidates)
            raise RulesError(f"ruling DK-context={choice}: no such unit can escort a hero (a profiled unit "
                             f"that acts through no other); accepted: faction-guard, field, {known}")
    if not chosen:
        raise RulesError(f"the catalog has no unit to escort {hero.name} (ruling DK-context={choice})")
    return tuple(chosen)


@dataclass(frozen=True)
class Layout:
    """How one side of a battle is priced: its first unit (``lead``) and the others (``rest``), each AP per
    unit (None: the contestant's own cost, which a recosted engagement changes) and warriors per unit."""

    lead_size: int
    lead_ap: float | None
    rest_size: int
    rest_ap: float | None
    units: int
    warriors: int
    own_units: int  # units priced at the contestant's cost
    fixed_ap: float  # AP of the other units

    def spent(self, cost: float) -> float:
        return self.own_units * cost + self.fixed_ap


def copies_layout(size: int, units: int) -> Layout:
    return Layout(size, None, size, None, units, units * size, units, 0.0)


def _rarity_cap(rulings: DrakerysRulings, rarity: int, already: int = 0) -> int | None:
    if rulings.composition != "copies-rarity" or rarity <= 0:
        return None
    return max(0, (rulings.budget // 100 - already) // rarity)


def hero_force(hero: Contestant, escort: Escort, rulings: DrakerysRulings) -> tuple[list[Combatant], Layout]:
    """The hero and as many whole units of ``escort`` as the rest of DK-budget buys (at most
    MAX_BATTLE_UNITS in all; under copies-rarity within the Rarity the budget allows).

    Raises:
        RulesError: the hero alone costs more than the budget (or its Rarity more than it allows).
    """
    entry = hero.subject
    rarity = entry.unit.size_option(entry.size).rarity
    if hero.cost > rulings.budget or (_rarity_cap(rulings, rarity) == 0):
        raise RulesError(f"{hero.name} ({hero.cost:g} AP) does not fit DK-budget={rulings.budget}; give a "
                         f"larger --budget")
    ap = escort.option.ap
    limits = [int((rulings.budget - hero.cost) // ap), MAX_BATTLE_UNITS - 1]
    cap = _rarity_cap(rulings, escort.option.rarity, rarity if rulings.composition == "copies-rarity" else 0)
    if cap is not None:
        limits.append(cap)
    n = max(0, min(limits))
    size = escort.option.size
    fighters = [combatant(entry.unit, entry.size, rulings)] + [combatant(escort.unit, size, rulings)] * n
    layout = Layout(entry.size, None, size if n else entry.size, float(ap) if n else None, 1 + n,
                    entry.size + n * size, 1, float(n * ap))
    return fighters, layout


def escort_units(hero: Contestant, rulings: DrakerysRulings) -> tuple:
    """What the cost of an entry valued in context changes in its battles (``Ruleset.cost_play``): the
    whole units of each escort its cost leaves room for (its battles are otherwise the same, and
    :func:`context_linear` weighs them linearly in the costs); its cost itself when it does not fit the
    budget or no escort can be found (it is then played again, and fails the same way)."""
    try:
        chosen = escorts(hero.subject.unit, hero.subject.allies, rulings)
        return tuple(hero_force(hero, e, rulings)[1].units - 1 for e in chosen)  # the hero leads them
    except RulesError:
        return ("does not fit", hero.cost)


def escort_force(escort: Escort, rulings: DrakerysRulings) -> tuple[list[Combatant], Layout]:
    """The baseline: as many whole units of ``escort`` as DK-budget buys (DK-composition).

    Raises:
        RulesError: the budget buys not one unit of it.
    """
    ap = escort.option.ap
    limits = [int(rulings.budget // ap), MAX_BATTLE_UNITS]
    cap = _rarity_cap(rulings, escort.option.rarity)
    if cap is not None:
        limits.append(cap)
    n = min(limits)
    if n < 1:
        raise RulesError(f"the escort {escort.name} ({ap} AP) does not fit DK-budget={rulings.budget}; give "
                         f"a larger --budget or another DK-context")
    size = escort.option.size
    return ([combatant(escort.unit, size, rulings)] * n,
            Layout(size, float(ap), size, float(ap), n, n * size, 0, float(n * ap)))


@dataclass(frozen=True)
class Combo:
    """One pairing of escorts: the battle fought (``main``) and, for each side that is a hero, the battle of
    its baseline against the same opponent (None for a side fought as copies); indices into the battles."""

    main: int
    baselines: tuple[int | None, int | None]
    escorts: tuple[str | None, str | None]


@dataclass(frozen=True)
class ContextRecords:
    """The battles of one engagement in context, trial for trial side by side: ``records[:, k * C + c]`` is
    column c (BattleRecord, C of them) of battle k; ``layouts[k]`` prices its two sides."""

    records: np.ndarray
    run: runner.RecordsResult
    layouts: tuple[tuple[Layout, Layout], ...]
    combos: tuple[Combo, ...]
    rulings: DrakerysRulings


#: Record features of a battle: the four outcomes as indicators, warriors lost, units lost, injuries
#: suffered, Time Sections spent (side 0, side 1), and the warriors lost by each side's first unit.
FEATURES = (
    (BattleRecord.OUTCOME, int(EngagementOutcome.SIDE_0_WINS)),
    (BattleRecord.OUTCOME, int(EngagementOutcome.SIDE_1_WINS)),
    (BattleRecord.OUTCOME, int(EngagementOutcome.NEITHER)),
    (BattleRecord.OUTCOME, int(EngagementOutcome.BOTH_DESTROYED)),
    (BattleRecord.LOST_0, -1), (BattleRecord.LOST_1, -1), (BattleRecord.UNITS_LOST_0, -1),
    (BattleRecord.UNITS_LOST_1, -1), (BattleRecord.INJURIES_0, -1), (BattleRecord.INJURIES_1, -1),
    (BattleRecord.TS_0, -1), (BattleRecord.TS_1, -1), (BattleRecord.LEAD_LOST_0, -1),
    (BattleRecord.LEAD_LOST_1, -1),
)
_F = {name: k for k, name in enumerate(("win_0", "win_1", "neither", "both", "lost_0", "lost_1",
                                        "units_lost_0", "units_lost_1", "injuries_0", "injuries_1", "ts_0",
                                        "ts_1", "lead_0", "lead_1"))}


def _terms(layouts: tuple[Layout, Layout], costs: tuple[float, float], s: int) -> dict[str, dict[str, float]]:
    """Side s's AP and loss terms in one battle, as weights on its features (by _F name)."""
    o = 1 - s

    def each(side: int) -> tuple[float, float]:
        lay = layouts[side]
        lead = (costs[side] if lay.lead_ap is None else lay.lead_ap) / lay.lead_size
        rest = (costs[side] if lay.rest_ap is None else lay.rest_ap) / lay.rest_size
        return lead, rest

    lead_o, rest_o = each(o)
    lead_s, rest_s = each(s)
    mine = layouts[s]
    return {
        "destroyed": {f"lost_{o}": rest_o, f"lead_{o}": lead_o - rest_o},
        "lost": {f"lost_{s}": rest_s, f"lead_{s}": lead_s - rest_s},
        "units_worth": {f"lost_{s}": 1.0 / mine.rest_size,
                        f"lead_{s}": 1.0 / mine.lead_size - 1.0 / mine.rest_size},
        "fraction": {f"lost_{s}": 1.0 / mine.warriors},
        "rest_lost": {f"lost_{s}": rest_s, f"lead_{s}": -rest_s},
        "lead_worth": {f"lead_{s}": 1.0 / mine.lead_size},
    }


def _plus(*parts: tuple[float, dict[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for factor, terms in parts:
        for k, w in terms.items():
            out[k] = out.get(k, 0.0) + factor * w
    return out


def context_linear(raw: ContextRecords, a: Contestant, b: Contestant, names: tuple[str, ...]) -> LinearScore:
    """Every metric of both sides (``names``: the ruleset's, in order) as weights on the battles' record
    features, averaged over the escort pairings (see the module docstring)."""
    import numpy as np

    n_battles = len(raw.layouts)
    width = len(FEATURES)
    weights = np.zeros((2 * len(names), n_battles * width))
    offsets = np.zeros(2 * len(names))
    costs = (a.cost, b.cost)
    budget = float(raw.rulings.budget)
    share = 1.0 / len(raw.combos)
    row = {name: m for m, name in enumerate(names)}

    def add(metric: str, s: int, battle: int, terms: dict[str, float]) -> None:
        for k, w in terms.items():
            weights[2 * row[metric] + s, battle * width + _F[k]] += share * w

    for combo in raw.combos:
        m = combo.main
        for s in (0, 1):
            o = 1 - s
            t = _terms(raw.layouts[m], costs, s)
            net = _plus((1.0, t["destroyed"]), (-1.0, t["lost"]))
            add("win", s, m, {f"win_{s}": 1.0})
            add("loss", s, m, {f"win_{o}": 1.0})
            add("neither", s, m, {"neither": 1.0})
            add("both_destroyed", s, m, {"both": 1.0})
            add("ap_destroyed", s, m, t["destroyed"])
            add("ap_lost", s, m, t["lost"])
            add("units_worth_lost", s, m, t["units_worth"])
            add("fraction_lost", s, m, t["fraction"])
            add("units_lost", s, m, {f"units_lost_{s}": 1.0})
            add("net_ap", s, m, net)
            add("battle_net_per_100ap", s, m, {k: w * 100.0 / budget for k, w in net.items()})
            add("injuries_inflicted", s, m, {f"injuries_{o}": 1.0})
            add("ts_spent", s, m, {f"ts_{s}": 1.0})
            base = combo.baselines[s]
            if base is None:
                add("net_ap_per_100ap", s, m, {k: w * 100.0 / budget for k, w in net.items()})
                add("trade_gain", s, m, t["destroyed"])
                add("trade_loss", s, m, t["units_worth"])
            else:
                tb = _terms(raw.layouts[base], costs, s)
                base_net = _plus((1.0, tb["destroyed"]), (-1.0, tb["lost"]))
                add("net_ap_per_100ap", s, m, {k: w * 100.0 / budget for k, w in net.items()})
                add("net_ap_per_100ap", s, base, {k: -w * 100.0 / budget for k, w in base_net.items()})
                add("trade_gain", s, m, _plus((1.0, t["destroyed"]), (-1.0, t["rest_lost"])))
                add("trade_gain", s, base, {k: -w for k, w in base_net.items()})
                add("trade_loss", s, m, t["lead_worth"])
            lay = raw.layouts[m][s]
            offsets[2 * row["units_fielded"] + s] += share * lay.units
            offsets[2 * row["ap_unspent"] + s] += share * (budget - lay.spent(costs[s]))
    columns = np.array([k * len(BattleRecord) + int(c) for k in range(n_battles) for c, _ in FEATURES],
                       np.int64)
    equals = np.array([e for _ in range(n_battles) for _, e in FEATURES], np.int64)
    return LinearScore(tuple(names), raw.records, columns, equals, weights, offsets)


def context_battles(a: Contestant, b: Contestant, rulings: DrakerysRulings
                    ) -> tuple[list[tuple[list[Combatant], list[Combatant]]], list[tuple[Layout, Layout]],
                               list[Combo]]:
    """The battles of an engagement in context: for each pairing of the two sides' escorts (a side fought
    as copies has none), the battle fought and each hero's baseline against the same opponent."""

    def options(c: Contestant) -> list[tuple[list[Combatant], Layout, tuple[list[Combatant], Layout] | None,
                                             str | None]]:
        entry = c.subject
        if not acts_through_others(entry.unit):
            n = force(c, rulings).units
            return [([combatant(entry.unit, entry.size, rulings)] * n, copies_layout(entry.size, n), None,
                     None)]
        out = []
        for e in escorts(entry.unit, entry.allies, rulings):
            fighters, layout = hero_force(c, e, rulings)
            out.append((fighters, layout, escort_force(e, rulings), e.name))
        return out

    battles: list[tuple[list[Combatant], list[Combatant]]] = []
    layouts: list[tuple[Layout, Layout]] = []
    combos: list[Combo] = []

    def battle(f0: list[Combatant], f1: list[Combatant], l0: Layout, l1: Layout) -> int:
        battles.append((f0, f1))
        layouts.append((l0, l1))
        return len(battles) - 1

    for fa, la, base_a, name_a in options(a):
        for fb, lb, base_b, name_b in options(b):
            main = battle(fa, fb, la, lb)
            b0 = None if base_a is None else battle(base_a[0], fb, base_a[1], lb)
            b1 = None if base_b is None else battle(fa, base_b[0], la, base_b[1])
            combos.append(Combo(main, (b0, b1), (name_a, name_b)))
    return battles, layouts, combos


def engage_records(a: Contestant, b: Contestant, rulings: DrakerysRulings, *, seed: int, trials: int,
                   precision: float | None, threads: int | None, block_trials: int,
                   max_batch_trials: int) -> ContextRecords:
    """Every battle of the engagement on the same seed: the first (the battle fought with the first
    escorts) until ``precision`` (or ``trials``), the others for as many trials, trial for trial."""
    import numpy as np

    from rulesets.drakerys import battle as battles_api

    battles, layouts, combos = context_battles(a, b, rulings)
    weapons = {**a.subject.weapons, **b.subject.weapons}
    start = rulings.engagement_start
    start_cm = None if start == "contact" else int(start)
    records = []
    first = None
    for f0, f1 in battles:
        rec = battles_api.battle_records(f0, f1, rulings=rulings, weapons=weapons,
                                         trials=trials if first is None else first.records.shape[0],
                                         seed=seed, start_cm=start_cm, threads=threads,
                                         precision=precision if first is None else None,
                                         block_trials=block_trials, max_batch_trials=max_batch_trials)
        first = first or rec
        records.append(rec.records)
    joined = np.hstack(records)
    run = dataclasses.replace(first.run, records=joined)
    return ContextRecords(joined, run, tuple(layouts), tuple(combos), rulings)
