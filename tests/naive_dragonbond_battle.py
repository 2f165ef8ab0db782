"""Plain-Python twin of Dragonbond battles (rulesets/dragonbond/kernels_battle.py): several units a side,
every die rolled one by one, written from the rulebook (../shared/seeds/000_c0897a60c1579de5.txt: "Turn
Counter" 369-375, "Turn Order" 379-389, "Reactions" 518-535, "Flanking" 662-672, "Keywords: Flying" 869).

Every attack, wound, fatigue token and Upkeep is the duel twin's (tests/naive_dragonbond.py: ``Side``,
``attack``, ``casualty_healths``, ``face_off``); what is new is written here: the turn counter of several
units, the unit a player activates, targets, who is engaged with whom (a set per unit), flanking, Flying and
the opportunity attacks of several engaged units.

Readings, the kernel's (rulesets/dragonbond/battle.py states them with the rulebook's words): the lines
start engaged, unit k against enemy unit k, the larger side's extra units wrapping round; the player
activates its living unit with the least fatigue (then the first listed); a unit with no living enemy
engaged with it moves into contact with its target and attacks (a shooter shoots from where it stands), or
Rests when too exhausted to move; targets by DB-battle-targeting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from naive_dragonbond import NaiveUnit, Side, attack, casualty_healths, face_off


@dataclass
class BattleUnit:
    """One unit of a battle: the duel twin's ``Side`` and what a battle adds."""

    index: int
    side: int
    state: Side
    policy: str
    engaged: set[int] = field(default_factory=set)  # indices of the enemy units it is in contact with
    began_engaged: bool = True
    turns: int = 0

    @property
    def unit(self) -> NaiveUnit:
        return self.state.unit

    @property
    def alive(self) -> int:
        return self.state.alive


def new_side(u: NaiveUnit, rulings: dict) -> Side:
    """A fresh unit, as the duel twin sets one up."""
    healths, captain_at = casualty_healths(u, rulings.get("casualty_order", "captain-last"))
    if u.huge:
        healths, captain_at = [u.huge[0]], None
    return Side(u, healths, captain_at=captain_at, captain_alive=captain_at is not None)


def engaged_enemies(me: BattleUnit, units: list[BattleUnit]) -> list[BattleUnit]:
    return [units[j] for j in sorted(me.engaged) if units[j].alive]


def flank_downgrades(n: int, flanking: str) -> int:
    """"Flanked units must downgrade one die when defending for each unit they are flanked by" (664), a
    unit engaged with n enemy units being flanked when n >= 2 (DB-flanking-count)."""
    if n < 2:
        return 0
    return {"per-extra-unit": n - 1, "per-engaged-unit": n, "1": 1}[flanking]


def naive_battle(rng: random.Random, force_a: list[NaiveUnit], force_b: list[NaiveUnit],
                 rulings: dict | None = None, policies: tuple[str, str] = ("attack", "attack"),
                 targeting: str = "focus", rounds: int = 4) -> dict:
    """One battle to the end of the fourth round or the destruction of a side."""
    rulings = rulings or {}
    flanking = rulings.get("flanking_count", "per-extra-unit")
    flying_turn = rulings.get("flying_turn", "current")
    units = [BattleUnit(i, 0 if i < len(force_a) else 1, new_side(u, rulings),
                        policies[0 if i < len(force_a) else 1])
             for i, u in enumerate([*force_a, *force_b])]
    n0, n1 = len(force_a), len(force_b)
    for k in range(max(n0, n1)):  # the lines meet; the larger side's extra units wrap round
        a, b = units[k % n0], units[n0 + k % n1]
        a.engaged.add(b.index)
        b.engaged.add(a.index)

    def stands(s: int) -> bool:
        return any(u.alive for u in units if u.side == s)

    def defense_extra(d: BattleUnit) -> int:
        flying = 1 if d.unit.flying and not d.began_engaged else 0
        return flying - flank_downgrades(len(engaged_enemies(d, units)), flanking)

    def strike(att: BattleUnit, dfn: BattleUnit, fatigue: int, pay_first: bool) -> None:
        if pay_first:
            att.state.add_fatigue(fatigue)
            attack(rng, att.state, dfn.state, rulings, att.state.beside, defense_extra(dfn))
        else:
            attack(rng, att.state, dfn.state, rulings, att.state.beside, defense_extra(dfn))
            att.state.add_fatigue(fatigue)

    def rest(me: BattleUnit) -> None:
        me.state.remove_fatigue(me.state.card + me.state.beside if me.unit.rest_removes_all else 1)

    def turn(p: int) -> None:
        me = min((u for u in units if u.side == p and u.alive),
                 key=lambda u: (u.state.card + u.state.beside, u.index))
        for u in units:
            if flying_turn == "current" or u is me:
                u.began_engaged = bool(engaged_enemies(u, units))
        me.turns += 1
        if me.policy == "rest" and me.state.beside > 0:
            rest(me)
            return
        engaged = engaged_enemies(me, units)
        candidates = engaged or [u for u in units if u.side != p and u.alive]
        if targeting == "focus":
            target = min(candidates, key=lambda u: (u.alive, u.index))
        else:
            target = min(candidates, key=lambda u: u.index)
        if not engaged and not me.unit.ranged_only:
            if me.unit.speed - me.state.beside <= 0:  # "unable to move" (422)
                rest(me)
                return
            me.engaged.add(target.index)  # "Move and take an action": into contact, then the attack
            target.engaged.add(me.index)
        if me.unit.ranged_only and engaged:
            for enemy in engaged:  # opportunity attacks, resolved first; flanked units make none
                if not enemy.unit.ranged_only and len(engaged_enemies(enemy, units)) < 2:
                    strike(enemy, me, rulings.get("opportunity_fatigue", 0), True)
                    if not me.alive:
                        me.state.add_fatigue(1)
                        return
        strike(me, target, 1, rulings.get("fatigue_timing", "pay-then-act") != "act-then-pay")

    played = 0
    for _ in range(rounds):
        played += 1
        left = [1 + sum(1 + u.unit.epic for u in units if u.side == s and u.alive) for s in (0, 1)]
        order = []
        p = face_off(rng)
        while left[0] or left[1]:
            if left[p]:
                order.append(p)
                left[p] -= 1
            p = 1 - p
        for p in order:
            if not (stands(0) and stands(1)):
                break
            turn(p)
        if not (stands(0) and stands(1)):
            break
        for u in units:
            u.state.upkeep()
    zero, one = stands(0), stands(1)
    outcome = "both" if not (zero or one) else "a" if not one else "b" if not zero else "neither"
    out = {"outcome": outcome, "rounds": played}
    for s, name in ((0, "a"), (1, "b")):
        mine = [u for u in units if u.side == s]
        out[f"wounds_{name}"] = sum(u.state.wounds_taken for u in mine)
        out[f"lost_{name}"] = sum((0 if u.alive else 1) if u.unit.huge else u.unit.models - u.alive
                                  for u in mine)
        out[f"fatigue_{name}"] = sum(u.state.fatigue_gained for u in mine)
        out[f"turns_{name}"] = sum(u.turns for u in mine)
        out[f"units_lost_{name}"] = sum(not u.alive for u in mine)
    return out
