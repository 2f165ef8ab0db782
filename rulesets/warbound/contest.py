"""Warbound in the balance layer (the contract of rulesets/base.py).

Contestants are the catalog's characters, each alone and in Formation, priced by their activation cost in
Order tokens (lines 213-217; a Formation adds one, line 543). The rulebook prints no profile: the packaged
characters are illustrative except for the facts the text gives (rulesets/warbound/data/examples.toml), and
reports say so.

An engagement is a duel (rulesets.warbound.duel): the two characters start DEFAULT_DISTANCE tiles apart,
each led by its faction's Leader, and trade activations for the five turns. A character's damage is the
fraction of its front Health destroyed (1 when removed). The primary value is the duel's net Order tokens
per token of its own cost: (enemy cost x enemy fraction destroyed - own cost x own fraction destroyed) /
own cost. The fair cost is the even-trade price: the cost at which the tokens' worth it destroys equals the
share of itself it loses (sum of cost destroyed / sum of the fraction lost). Activation costs drive how
often a character acts, so a cost is part of how it plays: a cost change is simulated again, not re-scored.

numpy and the catalog reader are imported by the functions that use them: the command tree imports this.
"""

from __future__ import annotations

import dataclasses
import difflib
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
from rulesets.warbound.rules import WarboundRulings

DEFAULT_TRIALS = 10_000
PRECISION_TRIAL_CAP = 10**6
FORMATION_SUFFIX = "@formation"

#: Profile stats ``--set NAME.STAT=VALUE`` accepts (``panic.STAT`` for the panic side), with their range;
#: those in OPTIONAL also take "none" (the character cannot Fight / Shoot far / has no Morale pool).
PROFILE_STATS = ("attack", "attack_dice", "speed", "run", "accuracy_near", "accuracy_far", "shoot_dice",
                 "cost_colourless", "cost_coloured", "health", "morale", "armor_points", "armor_value")
OPTIONAL = ("attack", "accuracy_near", "accuracy_far", "morale", "armor_value")
STATS = (*PROFILE_STATS, *(f"panic.{s}" for s in PROFILE_STATS), "cost")


@dataclasses.dataclass(frozen=True)
class Entry:
    """A contestant: a character, alone or in Formation, its faction's Leader and the catalog's reference
    Leader (None when the catalog has none): WB-economy says whose tokens it spends."""

    character: Any
    formation: bool
    leader: Any
    card: Any = None  # the Formation card
    board: Any = None  # the catalog's Action Board
    reference: Any = None  # the catalog's Reference Leader

    def leader_for(self, rulings: WarboundRulings):
        """The Leader whose Order tokens pay its activations under WB-economy."""
        if rulings.economy == "faction-leader":
            return self.leader
        if self.reference is None:
            from rulesets.warbound.catalog import REFERENCE_LEADER

            raise RulesError(f"the catalog has no Leader {REFERENCE_LEADER!r}: WB-economy=same-leader needs "
                             f"it (give one, or --ruling WB-economy=faction-leader)")
        return self.reference

    @property
    def front(self):
        from rulesets.warbound.catalog import with_formation

        return with_formation(self.character.front, self.card) if self.formation else self.character.front


def _contestant(entry: Entry) -> Contestant:
    c = entry.character
    key = c.key + (FORMATION_SUFFIX if entry.formation else "")
    name = c.name + (" (Formation)" if entry.formation else "")
    leaders = [x for x in (entry.leader, entry.reference) if x is not None]
    illustrative = c.is_illustrative or any(x.is_illustrative for x in leaders)
    plays = dataclasses.replace(c, sources=(), quirks=(), notes="", origin="")
    return Contestant(key=key, name=name, cost=float(entry.front.cost), cost_unit="Order tokens", group=c.key,
                      play=(plays, entry.formation, entry.card, *((x.orders, x.faction) for x in leaders)),
                      labels=(("character", c.name), ("formation", "yes" if entry.formation else "no")),
                      illustrative=illustrative, subject=entry)


def _features():
    from rulesets.warbound import kernels as K

    return ((K.R_OUTCOME, K.OUT_SIDE_0), (K.R_OUTCOME, K.OUT_SIDE_1), (K.R_OUTCOME, K.OUT_NEITHER),
            (K.R_DAMAGE_0, -1), (K.R_DAMAGE_1, -1), (K.R_WOUNDS_0, -1), (K.R_WOUNDS_1, -1),
            (K.R_TOKENS_0, -1), (K.R_TOKENS_1, -1), (K.R_PANIC_0, -1), (K.R_PANIC_1, -1))


def _linear(records, a: Contestant, b: Contestant) -> LinearScore:
    """Every metric of both sides as weights on the record features (the one definition of the metrics)."""
    import numpy as np

    feats = _features()
    win, neither = (0, 1), 2
    damage, wounds, tokens, panic = (3, 4), (5, 6), (7, 8), (9, 10)
    health = (a.subject.front.health, b.subject.front.health)
    cost = (a.cost, b.cost)
    weights = np.zeros((2 * len(METRIC_NAMES), len(feats)))
    for s in (0, 1):
        o = 1 - s
        frac = (1.0 / health[0], 1.0 / health[1])
        rows = {
            "win": {win[s]: 1.0},
            "loss": {win[o]: 1.0},
            "neither": {neither: 1.0},
            "wounds_inflicted": {wounds[o]: 1.0},
            "wounds_taken": {wounds[s]: 1.0},
            "tokens_spent": {tokens[s]: 1.0},
            "panicked": {panic[s]: 1.0},
            "fraction_lost": {damage[s]: frac[s]},
            "cost_destroyed": {damage[o]: cost[o] * frac[o]},
            "net_tokens": {damage[o]: cost[o] * frac[o], damage[s]: -cost[s] * frac[s]},
            "net_per_token": {damage[o]: cost[o] * frac[o] / cost[s], damage[s]: -frac[s]},
        }
        for m, name in enumerate(METRIC_NAMES):
            for k, w in rows[name].items():
                weights[2 * m + s, k] = w
    columns = np.array([c for c, _ in feats], np.int64)
    equals = np.array([v for _, v in feats], np.int64)
    return LinearScore(METRIC_NAMES, records, columns, equals, weights, np.zeros(2 * len(METRIC_NAMES)))


def _fields(records, a: Contestant, b: Contestant):
    return _linear(records, a, b).samples()


#: Formation rules a duel does not play, whose worth cannot arise in it (nothing blocks a path or a line of
#: sight, and the two miniatures fight as one): they leave the verdict standing.
_FORMATION_BESIDE_THE_POINT = ("moving its two miniatures by separate paths (nothing blocks a duel's path)",
                               "one miniature's line of sight sufficing (no line of sight is ever blocked)")


def coverage(entry: Entry) -> Coverage:
    """Which of a character's rules a duel plays: both sides of its card (attack, shooting, armor, Health,
    morale, activation cost; the Equipment its icons say it carries is in that profile) and its Formation
    card's +1s; not its skills (their texts are not played: decisive), nor the Formation's moving and
    line-of-sight rules (nothing blocks in a duel)."""
    c = entry.character
    played = ["profile", *(["Panic side"] if c.panic is not None else []), "activation cost"]
    icons = c.front.equipment_icons
    if icons:
        played.append(f"the {', '.join(icons)} equipment its icons show (in its profile)")
    unplayed = []
    if entry.formation:
        f = entry.card
        played.append(f"{f.name} (+{f.cost_colourless} cost, +{f.hit_bonus} to hit, +{f.extra_dice} die, "
                      f"+{f.extra_health} Health)")
        unplayed += [f"{f.name}: {rule}" for rule in _FORMATION_BESIDE_THE_POINT]
    decisive = []
    for side, profile in (("", c.front), (" (Panic side)", c.panic)):
        for skill in profile.skills if profile is not None else ():
            kind = "active" if skill.active else "passive"
            decisive.append(f"{skill.name}{side} ({kind} skill: the duel plays no skill)")
    return Coverage(tuple(played), (*unplayed, *decisive), tuple(decisive))


class WarboundRuleset(Ruleset):
    """Warbound (seed 004) fulfilling the contract: duels of characters over the five turns."""

    cost_unit = "Order tokens"
    examples = {"efficiency": "--unit copp --unit analyst --unit splatter --format markdown",
                "whatif": '--set "copp.speed=4" --cost "copp=2" --unit copp --unit analyst',
                "sweep": '--cost "copp=1..5" --plot copp.png'}
    engagement = ("a duel: the two characters start 6 tiles apart (illustrative), each spending the Order "
                  "tokens of the Leader WB-economy names (same-leader: the same Reference Leader for both), "
                  "and trade activations for the five turns (shoot when they can, "
                  "else close in and Fight; additional activations while they add no Panic); the side "
                  "holding the Hand activates first each turn; the Hand and the Hourglass change hands by "
                  "WB-hourglass-policy")
    roles = ("starts with the Hand", "starts with the Hourglass")
    metrics = (
        Metric("win", "P(this side removes the enemy)"),
        Metric("loss", "P(this side is removed)"),
        Metric("neither", "P(both stand after the five turns)"),
        Metric("wounds_inflicted", "Wound tokens this side dealt"),
        Metric("wounds_taken", "Wound tokens this side took"),
        Metric("tokens_spent", "Order tokens this side spent on activations"),
        Metric("panicked", "P(this side panicked)"),
        Metric("fraction_lost", "fraction of this side's Health destroyed (1 when removed)"),
        Metric("cost_destroyed", "Order tokens' worth of the enemy destroyed (its cost x fraction lost)"),
        Metric("net_tokens", "tokens' worth destroyed - tokens' worth lost"),
        Metric("net_per_token", "net tokens' worth per token of this side's cost (the primary value)"),
    )
    primary_metric = "net_per_token"
    win_metric = "win"
    payoff_metric = "net_tokens"
    payoff_description = "net tokens' worth per token of the pair's mean cost, averaged over both roles"
    fair_cost_rule = FairCostRule(
        "even-trade", "the even-trade price: the activation cost at which the tokens' worth it destroys "
                      "equals the share of itself it loses over its duels (sum of cost destroyed / sum of "
                      "the fraction of itself lost)", gain="cost_destroyed", loss="fraction_lost")
    value_per_cost_description = "net tokens' worth per token spent on its cost (the primary value)"

    def load_catalog(self, paths: Sequence[Path] = ()) -> Any:
        from rulesets.warbound import catalog as catalog_io

        return catalog_io.load(user_paths=tuple(paths))

    def catalog_files(self, catalog: Any) -> list[tuple[str, str]]:
        return list(getattr(catalog, "files", ())) or [(catalog.source, catalog.sha256)]

    def contestants(self, catalog: Any, only: Sequence[str] = ()) -> list[Contestant]:
        from rulesets.warbound.catalog import REFERENCE_LEADER
        from rulesets.warbound.duel import default_leader

        wanted = None
        if only:
            wanted = set()
            for name in only:
                base, formation = _split(name)
                character = catalog.character(base)
                if character.panic is None:
                    raise RulesError(f"{character.name} has no panic side in the catalog, and a duel flips a "
                                     f"panicking character's card (line 517): give its panic profile")
                key = character.key
                wanted.add(key + (FORMATION_SUFFIX if formation else ""))
                if not formation and not name.strip().lower().endswith(FORMATION_SUFFIX):
                    wanted.add(key + FORMATION_SUFFIX)
        out = []
        for c in catalog.characters.values():
            if c.panic is None:
                continue  # a duel needs the panic side (reports say which were left out)
            leader = default_leader(c, catalog)
            for formation in (False, True):
                entry = Entry(c, formation, leader, catalog.formation_for(c.key) if formation else None,
                              catalog.board, catalog.leaders.get(REFERENCE_LEADER))
                contestant = _contestant(entry)
                if wanted is None or contestant.key in wanted:
                    out.append(contestant)
        return out

    def engage(self, a: Contestant, b: Contestant, rulings: WarboundRulings, *, seed: int,
               trials: int | None = None, precision: float | None = None,
               threads: int | None = None) -> Engagement:
        from rulesets.warbound.duel import PRECISION_BATCH, PRECISION_BLOCK, simulate_duel

        if trials is None:
            trials = PRECISION_TRIAL_CAP if precision is not None else DEFAULT_TRIALS
        result = simulate_duel(_fighter(a.subject, rulings), _fighter(b.subject, rulings), a.subject.board,
                               rulings, trials=trials, seed=seed, threads=threads, precision=precision,
                               block_trials=PRECISION_BLOCK, max_batch_trials=PRECISION_BATCH)
        return Engagement(a, b, seed=seed, raw=result.records, score=_fields, method="Monte Carlo",
                          linear=_linear)

    def stats(self) -> tuple[str, ...]:
        return STATS

    def variant(self, catalog: Any, sets: Sequence[StatChange], costs: Sequence[CostChange]) -> Any:
        chars = dict(catalog.characters)

        def target(name: str, text: str):
            if not name.strip():
                raise OptionError(f"{text!r} names no character")
            base, _ = _split(name)
            return dataclasses.replace(catalog, characters=chars).character(base)

        for change in sets:
            c = target(change.target, change.text)
            chars[c.key] = _changed(c, change)
        for change in costs:
            c = target(change.target, change.text)
            cost = change.cost
            if _split(change.target)[1]:  # NAME@formation=COST: the Formation's total, its card's share out
                cost -= catalog.formation_for(c.key).cost_colourless
            chars[c.key] = _recosted(c, cost, change.text)
        return dataclasses.replace(catalog, characters=chars)

    def representative(self, catalog: Any, target: str) -> str:
        """A character's name stands for the character alone; NAME@formation for its Formation."""
        base, formation = _split(target)
        return catalog.character(base).key + (FORMATION_SUFFIX if formation else "")

    price_features_text = ("Health, Attack, Accuracy, Armor: of the character's own card (Attack and "
                           "Accuracy: the faces of the 12 on a Warbound die that hit, times its dice; Armor: "
                           "the faces that pass an armor roll, times its armor points; 0 where it has none); "
                           "Formation: 1 in Formation (the price of its Formation card)")

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The pricing rule's features: the stats of the character's card that vary across the catalog
        (seed 004, "Attributes", lines 197-239), and the Formation it may fight in. A target value counts
        the faces of the 12 on a Warbound die (1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 10: lines 111-115) that
        reach it, so that more is better and a price reads per face (7+: 5 faces):

        - Health: "if the number of tokens in this pool equals or exceeds the Character's total Health
          Points, the Character is removed" (227).
        - Attack: "the result to roll on a Warbound die in order to hit an opponent in melee" (197): its
          faces times its melee dice.
        - Accuracy: "the result needed to hit an opponent with a ranged shot", the first value "for
          targeting the nearest enemy" (203): its faces times its ranged dice; 0: it cannot Shoot.
        - Armor: "The value next to the armor point indicate the result to roll on a die to pass an armor
          check" (239), one wound saved per armor point (478): its faces times its armor points.
        - Formation: 1 in Formation: the card adds to the cost (543), "+1 bonus to all its Hit rolls"
          (545), "an additional melee attack die" (565) and "an additional Health Point" (573).

        Left out, to keep the fit far smaller than the 16 entries (8 characters): Morale (one more than
        Health on every card of the catalog), Speed and Run (3 or 4, 1 or 2) and the skills (two cards
        have one, and no contest plays them).
        """
        from rulesets.warbound.rules import FACES

        def faces(value: int | None, dice: int) -> float:
            return 0.0 if value is None else float(dice * sum(face >= value for face in FACES))

        entry = contestant.subject
        card = entry.character.front
        return {"Health": float(card.health), "Attack": faces(card.attack, card.attack_dice),
                "Accuracy": faces(card.accuracy_near, card.shoot_dice),
                "Armor": faces(card.armor_value, card.armor_points), "Formation": float(entry.formation)}

    def tables(self) -> dict[str, StandardTable]:
        from reports.warbound import tables as t

        return {
            "hit": StandardTable("hit", "P(hit) and expected hits by target value, dice, Aim and Formation",
                                 t.hit_table),
            "armor": StandardTable("armor", "Wounds and Break tokens of 1-12 damage by armor value and "
                                            "points",
                                   t.armor_table),
            "stress": StandardTable("stress", "Stress tokens of a roll by dice, Aim and WB-aim-stress",
                                    t.stress_table),
        }

    def value_per_cost(self, value: float, cost: float) -> float:
        return value

    def payoff_scale(self, a: Contestant, b: Contestant) -> float:
        return 1.0 / ((a.cost + b.cost) / 2.0)

    def notes(self, catalog: Any, contestants: Sequence[Contestant]) -> list[str]:
        from rulesets.warbound.duel import DEFAULT_DISTANCE, NOT_MODELLED

        notes = ["the rulebook prints no character profiles: values marked illustrative are invented to make "
                 "the characters playable (`balance units warbound` lists them); give real ones with "
                 "--catalog",
                 _economy_note(catalog),
                 f"duels start {DEFAULT_DISTANCE} tiles apart (illustrative: the scenario that places the "
                 f"characters is not in the rulebook, line 324); the Action Board's layout is an image "
                 f"missing from the text, so the packaged board is illustrative",
                 "initiative is played (WB-hourglass-policy): side A starts with the Hand (the roles: who "
                 "starts with it); each turn the Hourglass holder places it on an Action the Hand "
                 "holder's character would not use, and the Hand changes sides at Cleanup by the ruling's "
                 "policy; a mirror is even with roles averaged, but not per role (the starter holds the "
                 "Hand in turns 1, 3 and 5 when it changes every turn)"]
        illustrative = sorted({c.group for c in contestants if c.illustrative})
        if illustrative:
            notes.append(f"illustrative data in: {', '.join(illustrative)}")
        left_out = sorted(c.key for c in catalog.characters.values() if c.panic is None)
        if left_out:
            notes.append(f"left out (no panic side to flip to): {', '.join(left_out)}")
        notes.append(f"not modelled in duels: {'; '.join(NOT_MODELLED)}")
        return notes

    def coverage(self, contestant: Contestant, rulings: WarboundRulings) -> Coverage:
        return coverage(contestant.subject)


METRIC_NAMES = tuple(m.name for m in WarboundRuleset.metrics)


def _economy_note(catalog) -> str:
    """What WB-economy means for this catalog: which Leader pays, with its Orders."""
    from rulesets.warbound.catalog import ANY_FACTION, REFERENCE_LEADER

    ref = catalog.leaders.get(REFERENCE_LEADER)
    same = (f"{ref.name}, {ref.orders[0]} then {ref.orders[1]} Order tokens a turn (Periods 1 and 2) of "
            f"{'any colour' if ref.faction == ANY_FACTION else ref.faction + ' colour'}"
            f"{', illustrative: not a printed card' if ref.is_illustrative else ''}"
            if ref is not None else f"no {REFERENCE_LEADER!r} Leader in this catalog")
    return (f"the Order economy (WB-economy): same-leader, the default, prices every character on one "
            f"economy: both sides spend the same Leader's tokens ({same}), so that a cost is paid from the "
            f"same tokens whoever it meets and no faction's coloured cost is favoured; faction-leader: each "
            f"side spends its own faction's Leader (a contest of two factions compares two economies)")


def _split(name: str) -> tuple[str, bool]:
    low = name.strip().lower()
    if low.endswith(FORMATION_SUFFIX):
        return low[: -len(FORMATION_SUFFIX)], True
    return low, False


def _fighter(entry: Entry, rulings: WarboundRulings):
    from rulesets.warbound.duel import side_of

    return side_of(entry.character, entry.leader_for(rulings), entry.card)


def _changed(c, change: StatChange):
    if change.op != "=":
        raise OptionError(f"change {change.text!r}: {change.stat} takes =, not {change.op}")
    if change.stat == "cost":
        return _recosted(c, change.number(), change.text)
    side, stat = ("panic", change.stat[6:]) if change.stat.startswith("panic.") else ("front", change.stat)
    if stat not in PROFILE_STATS:
        close = difflib.get_close_matches(change.stat, STATS, n=2)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise RulesError(f"change {change.text!r}: unknown stat {change.stat!r}{hint}; "
                         f"accepted: {', '.join(STATS)}")
    profile = getattr(c, side)
    if profile is None:
        raise RulesError(f"change {change.text!r}: {c.name} has no panic side in the catalog")
    if stat in OPTIONAL and change.value.strip().lower() == "none":
        value = None
    else:
        value = change.whole(*_bounds(stat))
    changed = dataclasses.replace(profile, **{stat: value})
    # the catalog's pairings (rulesets.warbound.catalog.Profile): no attack, no attack dice; no near
    # accuracy, no shooting at all; no armor points, no armor value
    if stat == "attack":
        dice = 0 if value is None else max(1, profile.attack_dice)
        changed = dataclasses.replace(changed, attack_dice=dice)
    if stat == "accuracy_near":
        changed = dataclasses.replace(changed, shoot_dice=0 if value is None else max(1, profile.shoot_dice),
                                      accuracy_far=None if value is None else profile.accuracy_far)
    if stat == "accuracy_far" and value is not None and changed.accuracy_near is None:
        raise RulesError(f"change {change.text!r}: {c.name} cannot Shoot (no accuracy_near): set it first")
    if stat in ("attack_dice", "shoot_dice") and getattr(changed, "attack" if stat == "attack_dice"
                                                         else "accuracy_near") is None:
        raise RulesError(f"change {change.text!r}: {c.name} cannot "
                         f"{'Fight' if stat == 'attack_dice' else 'Shoot'} on its {side} side")
    if stat == "armor_points" and value == 0:
        changed = dataclasses.replace(changed, armor_value=None)
    if stat == "armor_points" and value and changed.armor_value is None:
        raise RulesError(f"change {change.text!r}: armor points need an armor value (set armor_value too)")
    if stat == "armor_value" and value is not None and changed.armor_points == 0:
        raise RulesError(f"change {change.text!r}: {c.name} has no armor points on its {side} side")
    if changed.cost < 1:
        raise RulesError(f"change {change.text!r}: an activation cost of {changed.cost} Order tokens is not "
                         f">= 1")
    return dataclasses.replace(c, **{side: changed})


def _bounds(stat: str) -> tuple[int, int]:
    """The range a catalog accepts for ``stat`` (rulesets.warbound.catalog): the one rule for both."""
    from rulesets.warbound import catalog as cat

    return {"attack": cat.HIT, "accuracy_near": cat.HIT, "accuracy_far": cat.HIT, "armor_value": cat.HIT,
            "attack_dice": cat.DICE, "shoot_dice": cat.DICE, "speed": cat.MOVE, "run": cat.MOVE,
            "cost_colourless": cat.COST, "cost_coloured": cat.COST, "health": cat.HEALTH,
            "morale": cat.MORALE, "armor_points": cat.ARMOR_POINTS}[stat]


def _recosted(c, cost: float, text: str):
    """The front card's activation cost set to ``cost`` tokens: its coloured part kept, the rest
    colourless (a panic side keeps its own cost, raised by as much)."""
    if not float(cost).is_integer() or cost < 1:
        raise OptionError(f"change {text!r}: an activation cost is a whole number of Order tokens >= 1, "
                          f"not {cost:g}")
    total = int(cost)
    front = c.front
    coloured = min(front.cost_coloured, total)
    delta = total - front.cost
    new_front = dataclasses.replace(front, cost_coloured=coloured, cost_colourless=total - coloured)
    panic = c.panic
    if panic is not None:
        colourless = max(0, panic.cost_colourless + delta)
        panic = dataclasses.replace(panic, cost_colourless=colourless)
    return dataclasses.replace(c, front=new_front, panic=panic)
