"""Dragonbond in the balance layer (the contract of rulesets/base.py): contests at equal points.

Contestants are the catalog's units, cost in points. The rulebook prints no points (the unit card's "14.
Cost???", seed 000 line 68; "<SECTION STILL UNDER DEVELOPMENT>", 295): every packaged cost is illustrative,
and so is most of every unit (rulesets/dragonbond/data/examples.toml); reports say so. A designer gives real
costs and stats with ``--catalog FILE``, ``--cost`` and ``--set``.

An engagement is a **battle at equal points** (rulesets/dragonbond/battle.py): each side spends DB-budget
points (600 by default) on as many whole units of its entry as the budget buys (DB-composition), and the two
forces fight by the game's own sequence - the lines start engaged, a turn counter of 1 + units + Epic a
round, the face-off winner first, alternating turns - for four rounds or until a side has no unit left.
What a side does not spend is stated and counts as kept (neither lost nor fighting).

The primary value is the battle's expected net points per 100 points of the budget: (points destroyed -
points lost) x 100 / budget, a unit losing k of its n models losing k/n of its cost (a Huge creature: all
or nothing). Its fair cost is the **even-trade price at equal points**: the cost per unit at which what its
force destroys equals what it loses, sum(points destroyed) / sum(units' worth of models lost), over its
battles as side A and side B, with the force today's cost buys. The two roles differ only in their dice
streams: the face-off decides who acts first each round. The meta-game's payoff is the primary value
(antisymmetric at equal budgets).

numpy and the catalog reader are imported by the functions that use them: the command tree imports this.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulesets.base import (
    Contestant,
    CostChange,
    Coverage,
    Engagement,
    FairCostRule,
    Force,
    LinearScore,
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    StandardTable,
    StatChange,
    copies,
    without_trials,
)
from rulesets.dragonbond.rules import MAX_BATTLE_UNITS, DragonbondRulings
from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK

#: Stats ``--set UNIT.STAT=VALUE`` accepts, with their range.
WHOLE_STATS = {"models": (1, 100), "health": (1, 100), "stamina": (0, 100), "speed": (0, 100),
               "defense": (0, 20)}
STATS = (*WHOLE_STATS, "defense_die", "cost")


def _play(unit) -> tuple:
    """What decides how a unit plays: everything but its sources, quirks and notes, and its cost (what a cost
    changes, the units a budget buys, is :meth:`DragonbondRuleset.cost_play`)."""
    return (dataclasses.replace(unit, cost=1.0, quirks=(), notes="", origin=""),)


def _contestant(unit) -> Contestant:
    return Contestant(key=unit.key, name=unit.name, cost=float(unit.cost), cost_unit="points", group=unit.key,
                      play=_play(unit), labels=(("unit", unit.name),), illustrative=unit.is_illustrative,
                      subject=unit)


def force(contestant: Contestant, rulings: DragonbondRulings) -> Force:
    """DB-composition: as many whole units of the entry as DB-budget buys, at most MAX_BATTLE_UNITS
    (copies-unique: and one of a Huge creature or a General, a unit with Dragonriding).

    Raises:
        RulesError: the budget buys not one unit of the entry.
    """
    keywords = contestant.subject.keywords
    unique = rulings.composition == "copies-unique" and (keywords.huge is not None or keywords.dragonriding)
    return copies(contestant, float(rulings.budget), MAX_BATTLE_UNITS, 1 if unique else None, "DB-budget")


#: Record features the metrics are linear in (simcore.moments): the four outcomes, then models lost, units
#: lost, wounds taken and fatigue gained, side 0 and side 1 (rulesets.dragonbond.kernels_battle.BattleRecord).
_FEATURES = (("OUTCOME", 0), ("OUTCOME", 1), ("OUTCOME", 2), ("OUTCOME", 3),
             ("LOST_0", -1), ("LOST_1", -1), ("UNITS_LOST_0", -1), ("UNITS_LOST_1", -1),
             ("WOUNDS_0", -1), ("WOUNDS_1", -1), ("FATIGUE_0", -1), ("FATIGUE_1", -1))


def _linear(rec, a: Contestant, b: Contestant) -> LinearScore:
    """Every metric of both sides as weights on the record features (the one definition of the metrics:
    :func:`_fields` evaluates it trial by trial)."""
    import numpy as np

    from rulesets.dragonbond.kernels_battle import BattleOutcome, BattleRecord
    from rulesets.dragonbond.simulate import Fighter

    f = {name: k for k, (name, _) in enumerate(_FEATURES)}
    outcome = {o: k for k, (name, o) in enumerate(_FEATURES) if name == "OUTCOME"}
    win = (outcome[BattleOutcome.SIDE_0_WINS], outcome[BattleOutcome.SIDE_1_WINS])
    neither, both = outcome[BattleOutcome.NEITHER], outcome[BattleOutcome.BOTH_DESTROYED]
    size = (Fighter(a.subject).models, Fighter(b.subject).models)
    cost = (a.cost, b.cost)
    units = (len(rec.force_a), len(rec.force_b))
    budget = float(rec.rulings.budget)
    weights = np.zeros((2 * len(METRIC_NAMES), len(_FEATURES)))
    offsets = np.zeros(2 * len(METRIC_NAMES))
    for s in (0, 1):
        o = 1 - s
        each = (cost[0] / size[0], cost[1] / size[1])
        lost_s, lost_o = f[f"LOST_{s}"], f[f"LOST_{o}"]
        rows = {
            "win": {win[s]: 1.0},
            "loss": {win[o]: 1.0},
            "neither": {neither: 1.0},
            "both_destroyed": {both: 1.0},
            "points_destroyed": {lost_o: each[o]},
            "points_lost": {lost_s: each[s]},
            "units_worth_lost": {lost_s: 1.0 / size[s]},
            "fraction_lost": {lost_s: 1.0 / (size[s] * units[s])},
            "units_lost": {f[f"UNITS_LOST_{s}"]: 1.0},
            "net_points": {lost_o: each[o], lost_s: -each[s]},
            "net_points_per_100": {lost_o: each[o] * 100.0 / budget, lost_s: -each[s] * 100.0 / budget},
            "wounds_inflicted": {f[f"WOUNDS_{o}"]: 1.0},
            "fatigue": {f[f"FATIGUE_{s}"]: 1.0},
            "units_fielded": {},
            "points_unspent": {},
        }
        for m, name in enumerate(METRIC_NAMES):
            for k, w in rows[name].items():
                weights[2 * m + s, k] = w
        offsets[2 * METRIC_NAMES.index("units_fielded") + s] = units[s]
        offsets[2 * METRIC_NAMES.index("points_unspent") + s] = budget - units[s] * cost[s]
    columns = np.array([int(BattleRecord[name]) for name, _ in _FEATURES], np.int64)
    equals = np.array([value for _, value in _FEATURES], np.int64)
    return LinearScore(METRIC_NAMES, rec.records, columns, equals, weights, offsets)


def _fields(rec, a: Contestant, b: Contestant):
    """Every metric for side 0 (row 0) and side 1 (row 1), per trial."""
    return _linear(rec, a, b).samples()


#: Keywords a battle of copies does not play, with why their worth cannot arise in it: they leave the
#: verdict standing. Sharp, Epic X, Flying's defense upgrade and Huge's health and injuries are played.
_BESIDE_THE_POINT = {
    "agile": "Agile (moving through other units: a battle models no distances or positions)",
    "reach": "Reach (engaged at 1\": the lines start engaged, every model in contact)",
    "flying": "Flying (ignoring terrain and moving through units: a battle models no terrain or positions)",
    "blocking": "Blocking (blocking line of sight: a battle draws none)",
}


def coverage(unit) -> Coverage:
    """Which of a unit's rules a battle of copies plays: its profile and the weapon it attacks with, Sharp,
    Epic X (its side's turns), Flying's defense upgrade, Huge's injuries and its captain's typed modifiers;
    not its other weapons, unmodelled powers, Sacrifice (free text) or a General's Dragonriding (the mounted
    cards are not printed), all decisive, nor keywords whose worth cannot arise in a battle without
    distances or terrain."""
    from rulesets.dragonbond.simulate import Fighter

    weapon = Fighter(unit).weapon
    played = ["profile", f"{weapon.name} ({weapon.kind})"]
    unplayed, decisive = [], []
    for other in unit.weapons:
        if other is not weapon:
            unplayed.append(f"{other.name} ({other.kind}: the battle attacks with the {weapon.name})")
            decisive.append(unplayed[-1])
    k = unit.keywords
    played += [name for name, on in (("Sharp", k.sharp), (f"Epic {k.epic}", k.epic)) if on]
    if k.flying:
        played.append("Flying (a defense die upgraded when it did not begin the turn engaged)")
    if k.huge is not None:
        played.append(f"Huge ({k.huge.health} health a slot, {k.huge.injury_slots} injury slots)")
        unplayed.append("Huge: ignoring terrain (no terrain in a battle)")
    unplayed += [why for name, why in _BESIDE_THE_POINT.items() if getattr(k, name)]
    if k.dragonriding:
        # A General's worth is its bond: mounted, general and dragon are one unit with "new abilities as well
        # as a powerful combined power" (999), whose cards' mounted sides the rulebook shows only as
        # pictures (1005, 1017: "as shown below:"). Unplayable, and decisive: never over- or under-costed.
        unplayed.append("Dragonriding (mounting its bonded dragon: the mounted card sides and the combined "
                        "power are not printed, lines 999-1021)")
        decisive.append(unplayed[-1])
    captain = unit.captain
    if captain is not None:
        mods = ", ".join(f"{m.roll} {m.net:+d}" for m in captain.modifiers)
        played.append(f"{captain.name} ({mods or 'no modifier'} while it lives)")
        if captain.sacrifice:
            unplayed.append(f"{captain.name}'s Sacrifice (\"{captain.sacrifice}\": free text the battle "
                            f"does not play)")
            decisive.append(unplayed[-1])
    for power in unit.powers:
        if power.modelled:
            played.append(power.name)
        else:
            unplayed.append(f"{power.name} ({power.timing} power, \"{power.text}\": free text the battle "
                            f"does not play)")
            decisive.append(unplayed[-1])
    return Coverage(tuple(played), tuple(unplayed), tuple(decisive))


class DragonbondRuleset(Ruleset):
    """Dragonbond (seed 000) fulfilling the contract: battles at equal points between forces of whole
    units."""

    cost_unit = "points"
    examples = {"efficiency": "--unit bucentaur-blades --unit oathguard-duelists --unit ogerron-phalanx",
                "whatif": '--set "bucentaur-blades.health=3" --unit bucentaur-blades --unit ogerron-phalanx',
                "sweep": '--cost "bucentaur-blades=60..140/20" --plot blades.png'}
    engagement = ("a battle at equal points: each side fields as many whole units of its entry as DB-budget "
                  "buys (DB-composition); the lines start engaged, unit against unit, with every model in "
                  "contact; each round a side has 1 + its units + Epic turns, the face-off winner first, "
                  "the sides alternating; a turn activates the side's least fatigued unit, which Attacks its "
                  "target (DB-battle-targeting; one whose enemies have fallen moves in first), for four "
                  "rounds or until a side has no unit left; fatigue, exhaustion, flanking, opportunity "
                  "attacks and Upkeep as written")
    roles = ("side A", "side B")
    metrics = (
        Metric("win", "P(this side destroys every enemy unit)"),
        Metric("loss", "P(this side's units are all destroyed)"),
        Metric("neither", "P(both stand after four rounds)"),
        Metric("both_destroyed", "P(both are destroyed)"),
        Metric("points_destroyed", "points of the enemy destroyed (k of a unit's n models: k/n of its cost)"),
        Metric("points_lost", "points of this side destroyed"),
        Metric("units_worth_lost", "models lost in units' worth (models lost / the unit's models)"),
        Metric("fraction_lost", "fraction of this side's models lost"),
        Metric("units_lost", "this side's units destroyed"),
        Metric("net_points", "points destroyed - points lost"),
        Metric("net_points_per_100", "net points per 100 points of the budget (the primary value)"),
        Metric("wounds_inflicted", "wounds this side dealt"),
        Metric("fatigue", "fatigue tokens this side's units gained"),
        Metric("units_fielded", "units this side fields (DB-composition)"),
        Metric("points_unspent", "points of the budget this side does not spend (kept: neither lost nor "
                                 "fighting)"),
    )
    primary_metric = "net_points_per_100"
    win_metric = "win"
    payoff_metric = "net_points_per_100"
    payoff_description = "net points per 100 points of the budget, averaged over both roles"
    #: Costs move in steps of 5 (the game's natural step: a fair band is never narrower).
    cost_step = 5.0
    fair_cost_rule = FairCostRule(
        "even-trade", "the even-trade price at equal points: the points per unit at which the points its "
                      "force destroys equal the points it loses over its battles, with the force today's "
                      "cost buys (sum of points destroyed / sum of units' worth of models lost)",
        gain="points_destroyed", loss="units_worth_lost")
    value_per_cost_description = "net points per point of the budget (the primary value / 100)"
    #: DB-budget: what --budget sets.
    budget_ruling = "DB-budget"

    def load_catalog(self, paths: Sequence[Path] = ()) -> Any:
        from rulesets.dragonbond import catalog as catalog_io

        return catalog_io.load(user_paths=tuple(paths))

    def catalog_files(self, catalog: Any) -> list[tuple[str, str]]:
        return list(getattr(catalog, "files", ())) or [(catalog.source, catalog.sha256)]

    def contestants(self, catalog: Any, only: Sequence[str] = ()) -> list[Contestant]:
        wanted = {catalog.unit(name).key for name in only} if only else None
        return [_contestant(u) for u in catalog.units.values()
                if u.cost > 0 and (wanted is None or u.key in wanted)]

    def cost_play(self, contestant: Contestant, rulings: DragonbondRulings) -> int:
        """A cost changes a battle only through the whole units the budget buys (the metrics are weighed
        by the costs afterwards: ``_linear``)."""
        return force(contestant, rulings).units

    def engage(self, a: Contestant, b: Contestant, rulings: DragonbondRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        from rulesets.dragonbond.battle import simulate_battle  # numba: loaded when a battle is fought
        from rulesets.dragonbond.simulate import Fighter

        trials = self.engagement_trials(trials, precision)
        rec = simulate_battle([Fighter(a.subject)] * force(a, rulings).units,
                              [Fighter(b.subject)] * force(b, rulings).units, rulings, trials=trials,
                              seed=seed, threads=threads, precision=precision, block_trials=ENGAGEMENT_BLOCK,
                              max_batch_trials=ENGAGEMENT_BATCH)
        return Engagement(a, b, seed=seed, raw=rec, score=_fields, method="Monte Carlo", linear=_linear,
                          lighten=without_trials)

    def stats(self) -> tuple[str, ...]:
        return STATS

    variant_table = "units"
    variant_word = "unit"

    def changed_stat(self, catalog: Any, entry: Any, change: StatChange) -> Any:
        return self.with_entry(catalog, _changed(entry, change))

    def recosted(self, catalog: Any, entry: Any, change: CostChange) -> Any:
        return self.with_entry(catalog, _recosted(entry, change.cost, change.text))

    def tables(self) -> dict[str, StandardTable]:
        from rulesets.dragonbond import tables

        return tables.standard_tables()

    def value_per_cost(self, value: float, cost: float) -> float:
        return value / 100.0

    def notes(self, catalog: Any, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.dragonbond.battle import battle_notes

        units = [c.subject for c in contestants]
        notes = ["the rulebook prints no points and few stats: values marked illustrative are invented to "
                 "make the units playable (`balance units dragonbond` lists them); give real ones with "
                 "--catalog",
                 "every contest is a battle at equal points (DB-budget, DB-composition in the rulings): each "
                 "side fields whole units of its entry; the card's cost reads \"Cost???\", so the budget is "
                 "as illustrative as the costs; every copy plays the entry's one captain card, and under "
                 "DB-composition=copies-unique a Huge creature or a General fields one unit (Duplicates, "
                 "Generals); matchups.csv gives each side's units_fielded and points_unspent (the points it "
                 "could not spend, kept: neither lost nor fighting)",
                 "the fair cost keeps the force today's cost buys; `balance sweep dragonbond --cost UNIT=..` "
                 "finds the cost equal to its own fair cost, with the units each cost buys"]
        illustrative = [u.key for u in units if u.is_illustrative]
        if illustrative:
            notes.append(f"illustrative data in: {', '.join(illustrative)}")
        return notes + battle_notes()

    def coverage(self, contestant: Contestant, rulings: DragonbondRulings) -> Coverage:
        return coverage(contestant.subject)

    price_models = "models"
    price_per_model = ("Health", "Attack", "Defense")
    price_features_text = ("models: 1 a model (the base price of a model; a Huge creature is one); Health: "
                           "the wounds a model takes (a Huge creature's health slots times its injury slots) "
                           "times the models; Attack: a model's attack dice by tier (white 1, grey 2, black "
                           "3) times the models (a pool printed for the whole unit: once); Defense: its "
                           "defense dice per hit by tier (red 1, white 2, black 3) times the models")

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The pricing rule's features: a unit's models and what each model brings to the battle, per
        model (a price reads: points per point per model), as the unit card defines them (seed 000,
        "Anatomy of a Unit Card", lines 58-64):

        - models: 1 a model (a Huge creature is one: duel.Fighter.models).
        - Health: "The number of wounds that models in this unit can take before being killed" (58); a
          Huge creature's health slots fill, empty and add an injury (965) until one "fills its last
          remaining injury slot" (977): its health times its injury slots.
        - Attack: "The type and number of dice that the unit rolls" (64), collected "for each model that
          is engaged" (710); "DB:BoV uses three tiers of dice ... black being the strongest and white
          being the weakest" (152): each die counts its tier, white 1, grey 2, black 3. A pool printed for
          the whole unit that does not split evenly among its models counts once (duel.Fighter).
        - Defense: "The type and color of dice that this unit rolls for defense" (61), red "Tier 1",
          white "Tier 2", black "Tier 3" (34-36): the die's tier times the dice it rolls per hit.

        Left out, to keep the fit far smaller than the 14 units: Speed and Stamina (the lines start
        engaged; Stamina is 3 or 4 throughout), the keywords (Sharp, Reach, Flying, Epic: one to three
        units each, most beside the point in a battle with no distances) and the captains' modifiers.
        """
        from rulesets.dragonbond.dice import COLOURS, DEFENSE
        from rulesets.dragonbond.simulate import Fighter

        unit = contestant.subject
        fighter = Fighter(unit)
        models = float(fighter.models)
        huge = unit.keywords.huge
        health = huge.health * huge.injury_slots if huge is not None else unit.health
        dice, scales = fighter.per_model()  # counts weakest first: the tier is the index + 1
        attack = sum((k + 1) * count for k, count in enumerate(dice.counts))
        defense = (COLOURS[DEFENSE].index(unit.defense_die) + 1) * unit.defense
        return {"models": models, "Health": models * health, "Attack": models * attack if scales else attack,
                "Defense": models * defense}

    army_text = ("an army is whole units of several entries bought from DB-budget: at most "
                 f"{MAX_BATTLE_UNITS} units a side, and under DB-composition=copies-unique at most one unit "
                 "of each Huge creature and one General (a unit with Dragonriding) in all; its units stand "
                 "in the order of its list (unit k engages enemy unit k) and fight as a force of copies "
                 "does; win, loss and units lost are exact for any army, the points metrics value a model "
                 "lost at its force's mean cost per model (a Huge creature one model; exact for a force of "
                 "one entry)")

    def check_army(self, force: Sequence[tuple[Contestant, int]], rulings: DragonbondRulings) -> None:
        """DB-composition for an army of several entries: whole units within DB-budget and
        MAX_BATTLE_UNITS, and under copies-unique one unit of each Huge creature ("may not contain two
        versions of the same huge creature", 313) and one General in all ("up to one general", 299)."""
        from rulesets.base import army_totals

        army_totals(force, float(rulings.budget), MAX_BATTLE_UNITS, "DB-budget")
        if rulings.composition != "copies-unique":
            return
        for c, units in force:
            if c.subject.keywords.huge is not None and units > 1:
                raise RulesError(f"an army of {units} units of {c.name}, a Huge creature, breaks "
                                 "DB-composition=copies-unique (one of each Huge creature)")
        generals = sum(units for c, units in force if c.subject.keywords.dragonriding)
        if generals > 1:
            raise RulesError(f"an army of {generals} Generals (units with Dragonriding) breaks "
                             "DB-composition=copies-unique (up to one General)")

    def contest_army(self, contestant: Contestant, rulings: DragonbondRulings
                     ) -> tuple[tuple[Contestant, int], ...] | None:
        """The copies :func:`force` fields, as :meth:`army_engage` plays them."""
        return ((contestant, force(contestant, rulings).units),)

    def army_engage(self, force_a: Sequence[tuple[Contestant, int]],
                    force_b: Sequence[tuple[Contestant, int]], rulings: DragonbondRulings, *, seed: int,
                    trials: int | None = None, precision: float | None = None,
                    threads: int | None = None) -> Engagement:
        """A battle of two armies, played as :meth:`engage` plays two forces of copies (the same battle
        for armies of one entry each, the units :func:`force` fields: the same records for the same seed).

        The metrics are :func:`_linear`'s, read off each side's mean unit (its cost and models per unit):
        the records count the models a side lost, not whose, so a points metric values each model lost at
        the force's mean cost per model; win, loss, neither, units lost and the fraction lost are exact.
        """
        import types

        from rulesets.base import army_engagement
        from rulesets.dragonbond.battle import simulate_battle  # numba: loaded when a battle is fought
        from rulesets.dragonbond.simulate import Fighter

        sides = self.checked_armies(force_a, force_b, rulings)
        trials = self.engagement_trials(trials, precision)
        fighters = [[Fighter(c.subject) for c, units in force_ for _ in range(units)] for force_ in sides]
        rec = simulate_battle(fighters[0], fighters[1], rulings, trials=trials, seed=seed, threads=threads,
                              precision=precision, block_trials=ENGAGEMENT_BLOCK,
                              max_batch_trials=ENGAGEMENT_BATCH)

        def mean_subject(force_, units: int):
            models = sum(n * Fighter(c.subject).models for c, n in force_)
            return types.SimpleNamespace(models=models / units, keywords=types.SimpleNamespace(huge=None))

        return army_engagement(sides, rec, seed, _linear, mean_subject)


METRIC_NAMES = tuple(m.name for m in DragonbondRuleset.metrics)


def _changed(unit, change: StatChange):
    if change.stat in WHOLE_STATS:
        value = change.whole(*WHOLE_STATS[change.stat])
        if change.stat == "models" and unit.keywords.huge is not None:
            raise RulesError(f"change {change.text!r}: {unit.name} is a Huge creature (one model)")
        return dataclasses.replace(unit, **{change.stat: value})
    if change.stat == "defense_die":
        die = change.value.strip().lower()
        if die not in ("red", "white", "black"):
            raise OptionError(f"change {change.text!r}: defense_die {change.value!r}; accepted red, white, "
                              f"black")
        return dataclasses.replace(unit, defense_die=die)
    return _recosted(unit, change.number(), change.text)  # cost, the one stat left


def _recosted(unit, cost: float, text: str):
    if not (math.isfinite(cost) and cost > 0):
        raise OptionError(f"change {text!r}: a cost of {cost:g} points is not > 0")
    return dataclasses.replace(unit, cost=float(cost))
