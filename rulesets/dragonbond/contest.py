"""Dragonbond in the balance layer (the contract of rulesets/base.py).

Contestants are the catalog's units, cost in points. The rulebook prints no points ("<SECTION STILL UNDER
DEVELOPMENT>", seed 000 line 295): every packaged cost is illustrative, and so is most of every unit
(rulesets/dragonbond/data/examples.toml); reports say so. A designer gives real costs and stats with
``--catalog FILE``, ``--cost`` and ``--set``.

An engagement is a duel (rulesets.dragonbond.duel): the units start engaged, both Attack every turn, for
four rounds or until one is destroyed. The primary value is the duel's expected net points per 100 points:
(points destroyed - points lost) x 100 / own cost, a unit losing k of its n models losing k/n of its cost
(a Huge creature: all or nothing). The fair cost is the even-trade price: sum of points destroyed / sum of
the fraction of itself lost, over its duels in both roles. The two roles differ only in their dice
streams: the face-off decides who acts first each round.

numpy and the catalog reader are imported by the functions that use them: the command tree imports this.
"""

from __future__ import annotations

import dataclasses
import difflib
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
    LinearScore,
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    StandardTable,
    StatChange,
)
from rulesets.dragonbond.rules import DragonbondRulings

DEFAULT_TRIALS = 10_000
PRECISION_TRIAL_CAP = 10**6
PRECISION_BLOCK = 1024
PRECISION_BATCH = 2048

#: Stats ``--set UNIT.STAT=VALUE`` accepts, with their range.
WHOLE_STATS = {"models": (1, 100), "health": (1, 100), "stamina": (0, 100), "speed": (0, 100),
               "defense": (0, 20)}
STATS = (*WHOLE_STATS, "defense_die", "cost")


def _play(unit) -> tuple:
    """What decides how a unit plays: everything but its cost, sources, quirks and notes."""
    return (dataclasses.replace(unit, cost=1.0, quirks=(), notes="", origin=""),)


def _contestant(unit) -> Contestant:
    return Contestant(key=unit.key, name=unit.name, cost=float(unit.cost), cost_unit="points", group=unit.key,
                      play=_play(unit), labels=(("unit", unit.name),), illustrative=unit.is_illustrative,
                      subject=unit)


#: Record features the metrics are linear in: the three outcomes, then models lost, wounds taken and
#: fatigue gained, side 0 and side 1 (columns of rulesets.dragonbond.kernels' records).
def _features():
    from rulesets.dragonbond import kernels as K

    return ((K.R_OUTCOME, K.OUT_SIDE_0), (K.R_OUTCOME, K.OUT_SIDE_1), (K.R_OUTCOME, K.OUT_NEITHER),
            (K.R_LOST_0, -1), (K.R_LOST_1, -1), (K.R_WOUNDS_0, -1), (K.R_WOUNDS_1, -1),
            (K.R_FATIGUE_0, -1), (K.R_FATIGUE_1, -1))


def _linear(records, a: Contestant, b: Contestant) -> LinearScore:
    """Every metric of both sides as weights on the record features (the one definition of the metrics)."""
    import numpy as np

    feats = _features()
    win, neither = (0, 1), 2
    lost, wounds, fatigue = (3, 4), (5, 6), (7, 8)
    from rulesets.dragonbond.duel import Fighter

    size = (Fighter(a.subject).models, Fighter(b.subject).models)
    cost = (a.cost, b.cost)
    names = METRIC_NAMES
    weights = np.zeros((2 * len(names), len(feats)))
    for s in (0, 1):
        o = 1 - s
        each = (cost[0] / size[0], cost[1] / size[1])
        rows = {
            "win": {win[s]: 1.0},
            "loss": {win[o]: 1.0},
            "neither": {neither: 1.0},
            "points_destroyed": {lost[o]: each[o]},
            "points_lost": {lost[s]: each[s]},
            "fraction_lost": {lost[s]: 1.0 / size[s]},
            "net_points": {lost[o]: each[o], lost[s]: -each[s]},
            "net_points_per_100": {lost[o]: each[o] * 100.0 / cost[s], lost[s]: -each[s] * 100.0 / cost[s]},
            "wounds_inflicted": {wounds[o]: 1.0},
            "fatigue": {fatigue[s]: 1.0},
        }
        for m, name in enumerate(names):
            for k, w in rows[name].items():
                weights[2 * m + s, k] = w
    columns = np.array([c for c, _ in feats], np.int64)
    equals = np.array([v for _, v in feats], np.int64)
    return LinearScore(names, records, columns, equals, weights, np.zeros(2 * len(names)))


def _fields(records, a: Contestant, b: Contestant):
    return _linear(records, a, b).samples()


#: Keywords a duel of engaged units does not play, with why their worth cannot arise in it: they leave the
#: verdict standing. Sharp, Epic X and Huge's health and injuries are played.
_BESIDE_THE_POINT = {
    "agile": "Agile (moving through other units: the units start engaged and never move)",
    "reach": "Reach (engaged at 1\": the units start engaged, every model in contact)",
    "flying": "Flying (ignoring terrain, moving through units, and a defense upgrade when it did not begin "
              "the turn engaged: an engaged unit never began a turn unengaged)",
    "dragonriding": "Dragonriding (mounting a bonded dragon: no dragon of its own in a duel)",
    "blocking": "Blocking (blocking line of sight: the units start engaged and draw none)",
}


def coverage(unit) -> Coverage:
    """Which of a unit's rules a duel plays: its profile and the weapon it attacks with, Sharp, Epic X,
    Huge's injuries and its captain's typed modifiers; not its other weapons, unmodelled powers or
    Sacrifice (free text: decisive), nor keywords whose worth cannot arise between engaged units."""
    from rulesets.dragonbond.duel import Fighter

    weapon = Fighter(unit).weapon
    played = ["profile", f"{weapon.name} ({weapon.kind})"]
    unplayed, decisive = [], []
    for other in unit.weapons:
        if other is not weapon:
            unplayed.append(f"{other.name} ({other.kind}: the duel attacks with the {weapon.name})")
            decisive.append(unplayed[-1])
    k = unit.keywords
    played += [name for name, on in (("Sharp", k.sharp), (f"Epic {k.epic}", k.epic)) if on]
    if k.huge is not None:
        played.append(f"Huge ({k.huge.health} health a slot, {k.huge.injury_slots} injury slots)")
        unplayed.append("Huge: ignoring terrain (no terrain in a duel)")
    unplayed += [why for name, why in _BESIDE_THE_POINT.items() if getattr(k, name)]
    captain = unit.captain
    if captain is not None:
        mods = ", ".join(f"{m.roll} {m.net:+d}" for m in captain.modifiers)
        played.append(f"{captain.name} ({mods or 'no modifier'} while it lives)")
        if captain.sacrifice:
            unplayed.append(f"{captain.name}'s Sacrifice (\"{captain.sacrifice}\": free text the duel does "
                            f"not play)")
            decisive.append(unplayed[-1])
    for power in unit.powers:
        if power.modelled:
            played.append(power.name)
        else:
            unplayed.append(f"{power.name} ({power.timing} power, \"{power.text}\": free text the duel does "
                            f"not play)")
            decisive.append(unplayed[-1])
    return Coverage(tuple(played), tuple(unplayed), tuple(decisive))


class DragonbondRuleset(Ruleset):
    """Dragonbond (seed 000) fulfilling the contract: duels of engaged units."""

    cost_unit = "points"
    examples = {"efficiency": "--unit bucentaur-blades --unit oathguard-duelists --unit ogerron-phalanx",
                "whatif": '--set "bucentaur-blades.health=3" --unit bucentaur-blades --unit ogerron-phalanx',
                "sweep": '--cost "bucentaur-blades=60..140/20" --plot blades.png'}
    engagement = ("a duel: the units start engaged with every model in contact, both Attack every turn (two "
                  "turns a round each, + Epic), the face-off winner first each round, for four rounds or "
                  "until one is destroyed; fatigue, exhaustion and Upkeep as written")
    roles = ("side A", "side B")
    metrics = (
        Metric("win", "P(this side destroys the enemy)"),
        Metric("loss", "P(this side is destroyed)"),
        Metric("neither", "P(both stand after four rounds)"),
        Metric("points_destroyed", "points of the enemy destroyed (k of n models: k/n of its cost)"),
        Metric("points_lost", "points of this side destroyed"),
        Metric("fraction_lost", "fraction of this side's models lost"),
        Metric("net_points", "points destroyed - points lost"),
        Metric("net_points_per_100", "net points per 100 points of this side (the primary value)"),
        Metric("wounds_inflicted", "wounds this side dealt"),
        Metric("fatigue", "fatigue tokens this side gained"),
    )
    primary_metric = "net_points_per_100"
    win_metric = "win"
    payoff_metric = "net_points"
    payoff_description = "net points per 100 points of the pair's mean cost, averaged over both roles"
    #: Costs move in steps of 5 (the game's natural step: a fair band is never narrower).
    cost_step = 5.0
    fair_cost_rule = FairCostRule(
        "even-trade", "the even-trade price: the cost at which the points it destroys equal the points it "
                      "loses over its duels (sum of points destroyed / sum of the fraction of itself lost)",
        gain="points_destroyed", loss="fraction_lost")
    value_per_cost_description = "net points per point spent (the primary value / 100)"

    def load_catalog(self, paths: Sequence[Path] = ()) -> Any:
        from rulesets.dragonbond import catalog as catalog_io

        return catalog_io.load(user_paths=tuple(paths))

    def catalog_files(self, catalog: Any) -> list[tuple[str, str]]:
        return list(getattr(catalog, "files", ())) or [(catalog.source, catalog.sha256)]

    def contestants(self, catalog: Any, only: Sequence[str] = ()) -> list[Contestant]:
        wanted = {catalog.unit(name).key for name in only} if only else None
        return [_contestant(u) for u in catalog.units.values()
                if u.cost > 0 and (wanted is None or u.key in wanted)]

    def engage(self, a: Contestant, b: Contestant, rulings: DragonbondRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        from rulesets.dragonbond.duel import Fighter, simulate_duel

        if trials is None:
            trials = PRECISION_TRIAL_CAP if precision is not None else DEFAULT_TRIALS
        result = simulate_duel(Fighter(a.subject), Fighter(b.subject), rulings, trials=trials, seed=seed,
                               threads=threads, precision=precision, block_trials=PRECISION_BLOCK,
                               max_batch_trials=PRECISION_BATCH)
        return Engagement(a, b, seed=seed, raw=result.records, score=_fields, method="Monte Carlo",
                          linear=_linear)

    def stats(self) -> tuple[str, ...]:
        return STATS

    def variant(self, catalog: Any, sets: Sequence[StatChange], costs: Sequence[CostChange]) -> Any:
        units = dict(catalog.units)

        def target(name: str, text: str):
            if not name.strip():
                raise OptionError(f"{text!r} names no unit")
            return dataclasses.replace(catalog, units=units).unit(name.strip())

        for change in sets:
            unit = target(change.target, change.text)
            units[unit.key] = _changed(unit, change)
        for change in costs:
            unit = target(change.target, change.text)
            units[unit.key] = _recosted(unit, change.cost, change.text)
        return dataclasses.replace(catalog, units=units)

    def tables(self) -> dict[str, StandardTable]:
        from reports.dragonbond import tables as t  # the standard tables are Reports already

        return {
            "dice": StandardTable("dice", "Face probabilities of the six dice", t.dice_table),
            "pool": StandardTable("pool", "Expected hits of pools under upgrades and downgrades",
                                  lambda r: t.pool_table(t.default_pools(), 6, r)),
            "attack": StandardTable("attack", "Expected wounds of an attack by pool, defense die and fatigue",
                                    lambda r: t.attack_table(8, [0, 1, 2], [0, 1, 2], r)),
            "charge": StandardTable("charge", "P(a charge reaches d inches) by speed",
                                    lambda r: t.charge_table(list(range(4, 11)), 20, r)),
            "face-off": StandardTable("face-off", "Face-off rolls of 2 to 4 players", t.face_off_table),
        }

    def value_per_cost(self, value: float, cost: float) -> float:
        return value / 100.0

    def payoff_scale(self, a: Contestant, b: Contestant) -> float:
        return 100.0 / ((a.cost + b.cost) / 2.0)

    def notes(self, catalog: Any, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.dragonbond.duel import NOT_MODELLED

        units = [c.subject for c in contestants]
        notes = ["the rulebook prints no points and few stats: values marked illustrative are invented to "
                 "make the units playable (`balance units dragonbond` lists them); give real ones with "
                 "--catalog"]
        illustrative = [u.key for u in units if u.is_illustrative]
        if illustrative:
            notes.append(f"illustrative data in: {', '.join(illustrative)}")
        notes.append(f"not modelled in duels: {'; '.join(NOT_MODELLED)}")
        return notes

    def coverage(self, contestant: Contestant, rulings: DragonbondRulings) -> Coverage:
        return coverage(contestant.subject)


METRIC_NAMES = tuple(m.name for m in DragonbondRuleset.metrics)


def _changed(unit, change: StatChange):
    if change.op != "=":
        raise OptionError(f"change {change.text!r}: {change.stat} takes =, not {change.op}")
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
    if change.stat == "cost":
        return _recosted(unit, change.number(), change.text)
    close = difflib.get_close_matches(change.stat, STATS, n=2)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise RulesError(f"change {change.text!r}: unknown stat {change.stat!r}{hint}; "
                     f"accepted: {', '.join(STATS)}")


def _recosted(unit, cost: float, text: str):
    if not (math.isfinite(cost) and cost > 0):
        raise OptionError(f"change {text!r}: a cost of {cost:g} points is not > 0")
    return dataclasses.replace(unit, cost=float(cost))
