"""Slow, obvious twin of the Drakerys battle kernel (rulesets/drakerys/kernels_battle.py): several units a
side on the TimePath, written from the rulebook (../shared/seeds/002_e45d2dbdce3a6f64.txt: "THE TIMEPATH",
"START PLAYING" / "FIRST PLAYER", "MAKE WAR!", "UNITS ACTIONS", "FIGHTING").

Every Fight and Shooting between two units is the duel twin's (tests/naive_fight.py: ``naive_fight``,
``naive_shooting``), and the duel twin's ``choose_action``, ``activation_cost`` and ``headquarters_phases``
choose and price each Action, as the kernel reuses the duel kernel's steps. What is new is written here:
Activation Tokens (one per player, or one per unit), the unit a player activates, targets, the line, who is
engaged with whom (a set of pairs) and the allied units engaged with an enemy.

Readings, the kernel's (each marked "Reading:" where it is made): the player activates its unit with the
fewest Stress markers (then the first listed); with a token per unit the START pile is interleaved, side 0's
first unit on top; a unit whose target is engaged does not shoot; units on the line pass each other;
cohesion with a Guard unit (SAFEGUARD) and a Combined Charge's reach are distances on the line.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace

import numpy as np
from naive_fight import activation_cost, choose_action, headquarters_phases, naive_fight, naive_shooting

from rulesets.drakerys.fight import Combatant
from rulesets.drakerys.units import Weapon

#: "The TimePath is a board made of 16 squares."
TIME_SECTIONS = 16
#: SAFEGUARD: "the Unit must comply with the cohesion of the Unit endowed with Guard (... 10 cm or less away
#: from the Leader)"; COMBINED CHARGE: "no further than 10 cm away from an Infantry Unit fitted with the
#: Guard Skill"; "Combined Charge (5 TS)", "Charge (3 TS)".
COHESION_CM = 10
COMBINED_EXTRA_TS = 5 - 3


class GuardEscort:
    """The Guard unit that takes a unit's Safeguard transfers during one Action, handed to the duel twin as
    the unit's ``guard``: naive_fight.safeguard asks ``6 <= face <= 9 and guard`` once per die of 6-9, and
    this answers yes while the Guard unit can take another injury, counting those it takes. Any other
    truth test (Combatant's own check that the unit has Safeguard) is answered without taking one."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.moved = 0

    def __bool__(self) -> bool:
        if sys._getframe(1).f_code.co_name != "safeguard":
            return True
        if self.moved < self.room:
            self.moved += 1
            return True
        return False


@dataclass
class Token:
    """An Activation Token on the TimePath."""

    position: int = 0  # squares travelled since START of round 1
    arrived: int = 0  # the highest is on top of a pile
    done: bool = False  # reached the START square that ends the game


@dataclass
class BattleUnit:
    """One unit of a battle (duck-typed as naive_fight's Player for choose_action and activation_cost)."""

    index: int
    side: int
    combatant: Combatant
    weapon: Weapon | None
    token: Token
    alive: int
    tokens: int
    stress: int
    position_cm: int
    ts_spent: int = 0
    injuries_suffered: int = 0
    lost: int = 0
    engaged: set[int] = field(default_factory=set)  # indices of the enemy units it is in contact with

    def has(self, skill: str) -> bool:
        return self.combatant.unit.has(skill)

    def unit_now(self) -> Combatant:
        return replace(self.combatant, size=self.alive, injuries=self.tokens, stress=self.stress)

    def room(self) -> int:
        """Injuries it can still take before its last warrior is withdrawn."""
        return self.alive * max(1, self.combatant.unit.profile.health) - self.tokens


def guard_for(me: BattleUnit, units: list[BattleUnit], transfer: str) -> BattleUnit | None:
    """SAFEGUARD: "Each result between 6 and 9 makes it possible to transfer an Injury to an Allied Unit
    endowed with Guard" in whose cohesion the unit stands. Reading (DK-safeguard-transfer): always: the
    first listed standing allied Guard unit within 10 cm on the line takes them; never: none does."""
    if transfer != "always" or not me.has("safeguard"):
        return None
    for u in units:
        if u.side == me.side and u is not me and u.alive > 0 and u.has("guard") and \
                abs(u.position_cm - me.position_cm) <= COHESION_CM:
            return u
    return None


def escorted(me: BattleUnit, fighter: Combatant, units: list[BattleUnit], transfer: str
             ) -> tuple[Combatant, tuple[BattleUnit, GuardEscort] | None]:
    """``fighter`` (me, as it fights) with the Guard unit that takes its Safeguard transfers, if any."""
    guard = guard_for(me, units, transfer)
    if guard is None:
        return replace(fighter, guard=False), None
    escort = GuardEscort(guard.room())
    fighter = replace(fighter, guard=True)
    object.__setattr__(fighter, "guard", escort)  # the duel twin asks it per die of 6-9
    return fighter, (guard, escort)


def wound(guard: BattleUnit, injuries: int) -> None:
    """The Guard unit takes the injuries moved to it: one warrior withdrawn per Health of tokens."""
    health = max(1, guard.combatant.unit.profile.health)
    guard.tokens += injuries
    while guard.alive > 0 and guard.tokens >= health:
        guard.tokens -= health
        guard.alive -= 1
        guard.lost += 1
    if guard.alive == 0:
        guard.tokens = 0


def combined_escort(me: BattleUnit, units: list[BattleUnit]) -> BattleUnit | None:
    """COMBINED CHARGE: "The Unit is a Hero who is not Engaged and who is no further than 10 cm away from an
    Infantry Unit fitted with the Guard Skill"; the guard makes "a Charge movement", so it is not engaged
    either. Reading: the first listed such unit."""
    for u in units:
        if u.side == me.side and u is not me and u.alive > 0 and u.has("guard") and \
                "Infantry" in u.combatant.unit.types and abs(u.position_cm - me.position_cm) <= COHESION_CM \
                and not is_engaged(u, units):
            return u
    return None


def is_engaged(me: BattleUnit, units: list[BattleUnit]) -> bool:
    return any(units[j].alive > 0 for j in me.engaged)


def target_of(me: BattleUnit, units: list[BattleUnit], targeting: str) -> BattleUnit | None:
    """ATTACK: "chooses an Enemy Unit engaged with the Active Unit" (the one with the fewest warriors);
    otherwise DK-battle-targeting: the nearest enemy (nearest), or the one with the fewest warriors (focus);
    remaining ties go to the first listed."""
    enemies = [u for u in units if u.side != me.side and u.alive > 0]
    if not enemies:
        return None
    engaged = [u for u in enemies if u.index in me.engaged]
    if engaged:
        return min(engaged, key=lambda u: (u.alive, u.index))
    if targeting == "nearest":
        return min(enemies, key=lambda u: (abs(u.position_cm - me.position_cm), u.alive, u.index))
    return min(enemies, key=lambda u: (u.alive, u.index))


def authority_in_reach(me: BattleUnit, units: list[BattleUnit], authority_range: str) -> int:
    """AUTHORITY [X]: "The Allied Units within [X] cm of the Unit benefit from one additional D10 for their
    Morale Rolls. This bonus is cumulative if several Units endowed with Authority are within reach."
    Reading (DK-authority-range): all: every other standing allied unit with Authority reaches it; range:
    those within their [X] cm of it on the line."""
    count = 0
    for u in units:
        if u.side != me.side or u is me or u.alive == 0 or not u.has("authority"):
            continue
        if authority_range == "all" or abs(u.position_cm - me.position_cm) <= \
                u.combatant.unit.skill_value("authority"):
            count += 1
    return count


def with_allies(me: BattleUnit, enemy: BattleUnit, units: list[BattleUnit],
                authority_range: str = "all") -> Combatant:
    """FIGHTING: "Every fighter gains Initiative +1 for every Allied Unit Engaged with the targeted Enemy
    Unit", and "can reroll a D10 per Allied Warrior from another Allied Unit in Contact with the targeted
    Enemy Unit" (every warrior of an engaged unit counts as in contact); and the Morale dice of the allied
    units with Authority that reach it (authority_in_reach)."""
    allies = [u for u in units
              if u.side == me.side and u is not me and u.alive > 0 and enemy.index in u.engaged]
    now = me.unit_now()
    return replace(now, allied_units_engaged=now.allied_units_engaged + len(allies),
                   rerolls=now.rerolls + sum(u.alive for u in allies),
                   authority=now.authority + authority_in_reach(me, units, authority_range))


def active_unit(units: list[BattleUnit]) -> BattleUnit | None:
    """ACTIVE PLAYER: the token "in the last position on the TimePath, or on top of the pile"; its player
    selects one of its standing units. Reading: the one with the fewest Stress markers, then the first."""
    tokens = {id(u.token): u.token for u in units if u.alive > 0 and not u.token.done}
    if not tokens:
        return None
    token = min(tokens.values(), key=lambda t: (t.position, -t.arrived))
    mine = [u for u in units if u.token is token and u.alive > 0]
    return min(mine, key=lambda u: (u.stress, u.index))


def move_token(token: Token, to: int, units: list[BattleUnit]) -> None:
    """The token moves; HEADQUARTERS PHASE each time it reaches or passes START: "withdraws a Stress marker
    from each of their Units"."""
    for _ in range(headquarters_phases(token.position, to)):
        for u in units:
            if u.token is token:
                u.stress = max(0, u.stress - 1)
    token.position = to


def naive_battle(rng: np.random.Generator, force_a: list[Combatant], force_b: list[Combatant], *,
                 weapons: dict[str, Weapon] | None = None, blocking: np.ndarray | None = None,
                 start_cm: int | None = None, rounds: int = 6, targeting: str = "nearest",
                 tokens: str = "player", crit_chain: bool = True, frontage: str | int = "all",
                 actions: str = "all", heroic_passive: str = "none", authority_range: str = "all",
                 safeguard_transfer: str = "always", combined_charge: str = "always") -> dict:
    """A battle of ``force_a`` (side 0, the First Player) against ``force_b`` (side 1).

    ``blocking[i, j]``: the kinds of Fight unit i blocks in against unit j (units numbered side 0 first), as
    battle.battle_arrays gives the kernel; None: every unit with Blocking blocks always. Side 0's units
    start at 0 cm, side 1's at ``start_cm`` (None: 0, in contact).

    Returns a dict: outcome ("a", "b", "both", "neither"); lost_a, lost_b (warriors); lead_lost_a,
    lead_lost_b (warriors lost by each side's first unit); units_lost_a, units_lost_b; injuries_a,
    injuries_b (suffered, before Safeguard); ts_a, ts_b; activations.
    """
    forces = [(0, c) for c in force_a] + [(1, c) for c in force_b]
    start = 0 if start_cm is None else start_cm
    last_start = TIME_SECTIONS * rounds
    units = []
    if tokens == "player":
        # FIRST PLAYER: "The Activation Tokens are placed on the START square in ascending order: the First
        # Player's token is thus on top!"
        pile = [Token(arrived=2), Token(arrived=1)]
    for k, (s, c) in enumerate(forces):
        if tokens == "player":
            token = pile[s]
        else:  # Reading: interleaved, side 0's first unit on top, then side 1's first, side 0's second, ...
            rank = sum(1 for side, _ in forces[:k] if side == s)
            token = Token(arrived=2 * len(forces) - (2 * rank + s))
        weapon = None if c.unit.weapon is None or weapons is None else weapons[c.unit.weapon]
        units.append(BattleUnit(k, s, c, weapon, token, alive=c.size, tokens=c.injuries, stress=c.stress,
                                position_cm=0 if s == 0 else start))
    arrivals = 2 * len(units)
    activations = 0

    def stands(s: int) -> bool:
        return any(u.alive > 0 for u in units if u.side == s)

    while stands(0) and stands(1):
        me = active_unit(units)
        if me is None:
            break
        most = max(1, me.combatant.unit.profile.actions) if actions == "all" else 1
        cost = 0
        taken = 0
        charged = False
        while taken < most and me.alive > 0:
            enemy = target_of(me, units, targeting)
            if enemy is None:
                break
            engaged = is_engaged(me, units)
            distance = abs(me.position_cm - enemy.position_cm)
            # SHOOTING: the target "Must not be Engaged"
            chooser = replace(me, weapon=None) if is_engaged(enemy, units) else me
            action = choose_action(chooser, engaged, distance, first_activation=False)
            if action == "charge" and charged:  # "only one Charge Action ... per Activation"
                action = "march"
            price = activation_cost(me, action, heroic_costs_ts=True)
            guard = None
            if action == "charge" and combined_charge == "always" and me.combatant.unit.is_hero:
                # COMBINED CHARGE (5 TS): "They resolve simultaneously a Charge movement towards the same
                # targeted Enemy Unit" when its 2 TS more fit; else the hero charges alone
                guard = combined_escort(me, units)
                dearer = price + COMBINED_EXTRA_TS
                if guard is not None and cost + dearer <= TIME_SECTIONS and \
                        me.token.position + cost + dearer <= last_start:
                    price = dearer
                else:
                    guard = None
            # RESTRICTIONS OF ACTIONS: at most 16 TS in one activation; in the last round never beyond START
            if cost + price > TIME_SECTIONS or me.token.position + cost + price > last_start:
                break
            if action == "march":  # towards the target; "cannot end their March in Contact"
                left = max(distance - me.combatant.unit.profile.march, 1)
                me.position_cm = enemy.position_cm - left if me.position_cm < enemy.position_cm else \
                    enemy.position_cm + left
            elif action == "shoot":
                target = replace(enemy.unit_now(),
                                 authority=enemy.combatant.authority
                                 + authority_in_reach(enemy, units, authority_range))
                target, to_guard = escorted(enemy, target, units, safeguard_transfer)
                shot = naive_shooting(rng, me.unit_now(), target, me.weapon, distance, crit_chain=crit_chain)
                if to_guard is not None:
                    wound(to_guard[0], to_guard[1].moved)
                enemy.injuries_suffered += shot["inflicted"]
                enemy.lost += enemy.alive - shot["alive"]
                enemy.alive, enemy.tokens, enemy.stress = shot["alive"], shot["tokens"], shot["stress"]
            else:  # charge or attack: a Fight in which the active unit is "A"
                if guard is not None:  # the guard's Charge movement: in contact when the target is in reach
                    gap = abs(guard.position_cm - enemy.position_cm)
                    if gap <= guard.combatant.unit.profile.charge:
                        guard.position_cm = enemy.position_cm
                        guard.engaged.add(enemy.index)
                        enemy.engaged.add(guard.index)
                    else:
                        left = gap - guard.combatant.unit.profile.charge
                        ahead = guard.position_cm < enemy.position_cm
                        guard.position_cm = enemy.position_cm - left if ahead else enemy.position_cm + left
                masks = None if blocking is None else (int(blocking[me.index, enemy.index]),
                                                        int(blocking[enemy.index, me.index]))
                # the Guard units that take Safeguard's 6-9 stand where they stood before the Action
                mine, my_guard = escorted(me, with_allies(me, enemy, units, authority_range), units,
                                          safeguard_transfer)
                theirs, their_guard = escorted(enemy, with_allies(enemy, me, units, authority_range), units,
                                               safeguard_transfer)
                if action == "charge":  # in contact with the target: both engaged
                    me.position_cm = enemy.position_cm
                    me.engaged.add(enemy.index)
                    enemy.engaged.add(me.index)
                fight = naive_fight(rng, mine, theirs, charge=action == "charge", crit_chain=crit_chain,
                                    frontage=frontage, heroic_passive=heroic_passive, blocking_masks=masks)
                for to_guard in (my_guard, their_guard):
                    if to_guard is not None:
                        wound(to_guard[0], to_guard[1].moved)
                me.injuries_suffered += fight["inflicted_b"]
                enemy.injuries_suffered += fight["inflicted_a"]
                me.lost += me.alive - fight["alive_a"]
                enemy.lost += enemy.alive - fight["alive_b"]
                for one, key in ((me, "a"), (enemy, "b")):
                    one.alive, one.tokens, one.stress = fight[f"alive_{key}"], fight[f"tokens_{key}"], \
                        fight[f"stress_{key}"]
                if heroic_passive == "own-ts" and enemy.combatant.heroic:
                    enemy.ts_spent += enemy.combatant.heroic
                    move_token(enemy.token, enemy.token.position + enemy.combatant.heroic, units)
            for u in units:  # a unit destroyed or scattered is in contact with nobody
                if u.alive == 0:
                    for other in units:
                        other.engaged.discard(u.index)
                    u.engaged.clear()
            charged = charged or action == "charge"
            cost += price
            taken += 1

        if taken == 0:  # "the Activation Token is directly placed on the START square"
            move_token(me.token, last_start, units)
            me.token.done = True
            continue
        activations += 1
        # SPENDING TS and STRESS: "The Active Unit receives a Stress marker", the token moves
        me.stress += 1
        me.ts_spent += cost
        move_token(me.token, me.token.position + cost, units)
        arrivals += 1
        me.token.arrived = arrivals
        for u in units:
            if u.token.position >= last_start:
                u.token.done = True

    if not stands(0) and not stands(1):
        outcome = "both"
    elif not stands(1):
        outcome = "a"
    elif not stands(0):
        outcome = "b"
    else:
        outcome = "neither"
    out = {"outcome": outcome, "activations": activations}
    for s, name in ((0, "a"), (1, "b")):
        mine = [u for u in units if u.side == s]
        out[f"lost_{name}"] = sum(u.lost for u in mine)
        out[f"lead_lost_{name}"] = mine[0].lost
        out[f"units_lost_{name}"] = sum(1 for u in mine if u.alive == 0)
        out[f"injuries_{name}"] = sum(u.injuries_suffered for u in mine)
        out[f"ts_{name}"] = sum(u.ts_spent for u in mine)
    return out
