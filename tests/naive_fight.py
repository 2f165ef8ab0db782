"""Slow, obvious twins of the Drakerys Fight, Shooting and engagement kernels (seed 002).

Written straight from the rulebook (../shared/seeds/002_e45d2dbdce3a6f64.txt: "FIGHTING", "SHOOTING",
"MORALE", "INJURIES AND WITHDRAWAL OF THE CASUALTIES", "THE TIMEPATH", "STRESS", "UNITS ACTIONS",
"SKILLS") and from the resolution order in the docstring of ``rulesets/drakerys/fight.py``. Each step of
the rules is one small function; dice are rolled one by one with a ``numpy.random.Generator`` or a
``random.Random``, always through :func:`naive._d10`. Every Action-Table roll goes through
:func:`naive.naive_action_roll` and every threshold is read off the printed table with
:func:`naive.naive_threshold` (the existing twins of one roll). Nothing from ``simcore`` is used.

Public functions:

* :func:`naive_fight` - one Fight between two units (an Attack or a Charge of unit A).
* :func:`naive_shooting` - one Shooting action.
* :func:`naive_engagement` - a duel of one unit each on the TimePath, for the whole game or until a unit
  is destroyed or scatters.

Readings where the text leaves a choice (each is marked "Reading:" where it is made):

* the Charge bonus Combat +1 is a characteristic of the charger for the whole Fight, so it also raises
  the opposition of the enemy's attack roll (and of its Blocking roll);
* the DK-frontage ruling applies to both units' strikes and to a Blocking roll;
* a unit with both Parry and Expert Parry uses Expert Parry;
* an Object (type Object or Power 0) neither strikes nor blocks and takes no Morale roll (it is reported
  as "steady");
* Berserker's Power +1 per Stress counts on Shooting rolls too (the rule says "Power", not "Power in a
  Fight");
* Heroic Action dice cost the active unit 1 TS each in an engagement (switch: ``heroic_costs_ts``);
* Quick Shot takes 1 TS off the whole cost of the Shooting action (Stress included), minimum 1.

* Martial Arts works only against "the Enemy Units with which they are Engaged": it does nothing on a
  Shooting (the target is never engaged), and a target with it ignores the striker's Violent Blow;
* the Charge's Advantage +1 is kept by a Sharpshooter ("does not benefit from the bonuses of Charge"
  is read as the Initiative and Combat bonus), and Brutal Charge is not cancelled by Reach or
  Sharpshooter.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from naive import _d10, naive_action_roll, naive_threshold

from rulesets.drakerys.fight import BlockIn, Combatant, FightOutcome
from rulesets.drakerys.units import Weapon

#: "The TimePath is a board made of 16 squares."
TIME_SECTIONS = 16

#: UNITS ACTIONS: cost in TS of each action the duel uses.
ACTION_COST = {"march": 1, "attack": 1, "charge": 3, "shoot": 1}

#: Result code of a Fight by (winner, the loser's Morale outcome).
WIN_CODES = {
    ("a", "scatter"): FightOutcome.A_WINS_SCATTER,
    ("a", "stress"): FightOutcome.A_WINS_STRESS,
    ("a", "doubt"): FightOutcome.A_WINS_DOUBT,
    ("a", "steady"): FightOutcome.A_WINS_STEADY,
    ("b", "scatter"): FightOutcome.B_WINS_SCATTER,
    ("b", "stress"): FightOutcome.B_WINS_STRESS,
    ("b", "doubt"): FightOutcome.B_WINS_DOUBT,
    ("b", "steady"): FightOutcome.B_WINS_STEADY,
}


# ---------------------------------------------------------------------------------------------------
# A unit in a Fight
# ---------------------------------------------------------------------------------------------------

@dataclass
class FightingUnit:
    """One unit while a Fight is resolved: what is left of it and its characteristics in this Fight."""

    name: str  # "a" or "b"
    combatant: Combatant
    alive: int
    tokens: int
    stress: int
    power: int = 0
    initiative: int = 0
    combat: int = 0
    strength: int = 0
    resistance: int = 0
    willpower: int = 0
    health: int = 1
    inflicted: int = 0  # injuries this unit dealt, before the enemy's Safeguard
    kills: int = 0  # enemy warriors its strikes removed

    def has(self, skill: str) -> bool:
        return self.combatant.unit.has(skill)

    @property
    def is_object(self) -> bool:
        unit = self.combatant.unit
        return "Object" in unit.types or unit.profile.power == 0


def unit_in_fight(name: str, c: Combatant) -> FightingUnit:
    """The unit as it enters the Fight, with the characteristics printed on its profile."""
    p = c.unit.profile
    return FightingUnit(name=name, combatant=c, alive=c.size, tokens=c.injuries, stress=c.stress,
                        power=p.power, initiative=p.initiative, combat=p.combat, strength=p.strength,
                        resistance=p.resistance, willpower=p.willpower, health=max(1, p.health))


def charge_bonus_applies(charger: FightingUnit, target: FightingUnit) -> bool:
    """CHARGE gives Initiative +1 and Combat +1, unless the target has REACH (which MARTIAL ARTS ignores);
    a SHARPSHOOTER "does not benefit from the bonuses of Charge"."""
    if charger.has("sharpshooter"):
        return False
    if target.has("reach") and not charger.has("martial_arts"):
        return False
    return True


def set_fight_characteristics(me: FightingUnit, enemy: FightingUnit, *, i_charged: bool) -> None:
    """Step 1: the characteristics of ``me`` for this Fight.

    Reading: the Charge bonus changes the charger's Combat for the whole Fight, so the enemy's attack roll
    is opposed by the raised Combat too.
    """
    if i_charged and charge_bonus_applies(me, enemy):
        me.initiative += 1
        me.combat += 1
    if i_charged and me.has("brutal_charge"):  # "Power +1 during any Fight following the Unit's Charges"
        me.power += 1
    if me.has("berserker"):  # "every Stress marker ... gives Power +1 and Resistance -1 (minimum 0)"
        for _ in range(me.stress):
            me.power += 1
            me.resistance = max(0, me.resistance - 1)
    if enemy.has("dreadful") and not me.has("dreadful"):  # "Units endowed with this Skill are immune"
        me.willpower -= 1
    for _ in range(me.combatant.allied_units_engaged):  # "+1 for every Allied Unit Engaged"
        me.initiative += 1


# ---------------------------------------------------------------------------------------------------
# Step 2: who strikes when
# ---------------------------------------------------------------------------------------------------

def strike_order(a: FightingUnit, b: FightingUnit) -> list[list[FightingUnit]]:
    """"Attacks in descending order of Initiative. In case of draw, the Attacks are made simultaneously."""
    if a.initiative > b.initiative:
        return [[a], [b]]
    if b.initiative > a.initiative:
        return [[b], [a]]
    return [[a, b]]


def is_blocking(unit: FightingUnit) -> bool:
    """BLOCKING "replaces its Attack" (only when the unit has the skill and chooses to use it)."""
    return unit.has("blocking") and unit.combatant.blocking and not unit.is_object


def strikes(unit: FightingUnit) -> bool:
    """A unit strikes unless it blocks, is an Object, or has no warrior left."""
    return unit.alive > 0 and not is_blocking(unit) and not unit.is_object


# ---------------------------------------------------------------------------------------------------
# Step 3: a strike
# ---------------------------------------------------------------------------------------------------

def attack_dice(unit: FightingUnit, frontage: str | int) -> int:
    """D10s of the attack roll before Heroic Action: the Power of every warrior in contact, and 1 for
    every supporting warrior ("Supporting Warriors have Power = 1")."""
    if unit.is_object:
        return 0
    if frontage == "all":
        in_contact, supporting = unit.alive, 0
    elif isinstance(frontage, str):  # "C/S": C in contact, S supporting, "The other Warriors do not Attack"
        contact, support = (int(x) for x in frontage.split("/"))
        in_contact = min(unit.alive, contact)
        supporting = min(unit.alive - in_contact, support)
    else:
        in_contact = min(unit.alive, frontage)
        supporting = unit.alive - in_contact
    dice = 0
    for _ in range(in_contact):
        dice += unit.power
    for _ in range(supporting):
        dice += 1
    return dice


def attack_roll(rng: np.random.Generator, unit: FightingUnit, enemy: FightingUnit, frontage: str | int,
                crit_chain: bool) -> tuple[int, int]:
    """STEP 1: ATTACK ROLL (also the roll of a Blocking unit). Returns (successes, criticals)."""
    dice = attack_dice(unit, frontage)
    heroic = unit.combatant.heroic
    if dice + heroic == 0:
        return 0, 0
    threshold = naive_threshold(unit.combat, enemy.combat)
    return naive_action_roll(rng, dice, threshold, heroic=heroic, swashbuckler=unit.has("swashbuckler"),
                             rerolls=unit.combatant.rerolls, crits="normal", crit_chain=crit_chain)


def injury_crits(target_parry: bool, target_expert_parry: bool, striker_ignores_parry: bool) -> str:
    """How the 10s of an injury roll count against the target: PARRY ("count as normal Successes. They do
    not generate extra D10s"), EXPERT PARRY ("count as Failures"), or normally (a Critical Success).
    VIOLENT BLOW and MARTIAL ARTS take both skills away.
    Reading: a unit with both skills uses Expert Parry."""
    if striker_ignores_parry:
        return "normal"
    if target_expert_parry:
        return "expert-parry"
    if target_parry:
        return "parry"
    return "normal"


def injury_roll(rng: np.random.Generator, hits: int, strength: int, resistance: int, crits: str,
                crit_chain: bool) -> int:
    """STEP 2: INJURY ROLL: one d10 per hit; each success is one injury."""
    if hits == 0:
        return 0
    threshold = naive_threshold(strength, resistance)
    successes, _ = naive_action_roll(rng, hits, threshold, crits=crits, crit_chain=crit_chain)
    return successes


def strike(rng: np.random.Generator, striker: FightingUnit, target: FightingUnit, frontage: str | int,
           crit_chain: bool) -> int:
    """One strike of ``striker`` on ``target``: the injuries it deals (before Safeguard)."""
    hits, criticals = attack_roll(rng, striker, target, frontage, crit_chain)
    automatic = 0
    if striker.has("deadly_blow"):  # "Every Critical Success ... automatically inflicts an Injury"
        automatic = criticals
    if is_blocking(target):
        # "it is realized after the Attack Roll of the Enemy Unit ... every Success cancels a Hit"
        cancels, _ = attack_roll(rng, target, striker, frontage, crit_chain)
        hits = max(0, hits - cancels)
    # MARTIAL ARTS: "ignore the effects of the Skills Reach, Violent Blow, Parry and Expert Parry of the
    # Enemy Units with which they are Engaged": the striker's beats Parry, the target's beats Violent Blow
    ignores_parry = striker.has("martial_arts") or (striker.has("violent_blow")
                                                    and not target.has("martial_arts"))
    crits = injury_crits(target.has("parry"), target.has("expert_parry"), ignores_parry)
    wounds = injury_roll(rng, hits, striker.strength, target.resistance, crits, crit_chain)
    return automatic + wounds


# ---------------------------------------------------------------------------------------------------
# Step 4: injuries received
# ---------------------------------------------------------------------------------------------------

def safeguard(rng: np.random.Generator, injuries: int, has_safeguard: bool, guard: bool) -> int:
    """SAFEGUARD: "1D10 is rolled for every Injury received": a 10 cancels it, 6-9 transfers it to the
    Guard unit (when one is in cohesion). Returns the injuries that stay on this unit."""
    if not has_safeguard:
        return injuries
    kept = 0
    for _ in range(injuries):
        face = _d10(rng)
        if face == 10:
            continue
        if 6 <= face <= 9 and guard:
            continue
        kept += 1
    return kept


def withdraw_casualties(alive: int, tokens: int, injuries: int, health: int) -> tuple[int, int]:
    """INJURIES AND WITHDRAWAL OF THE CASUALTIES: "As soon as the amount of Injury tokens ... is equal or
    above its Leader's Health, its owner immediately withdraws the same number of Injury tokens and one
    Warrior". Returns (warriors alive, tokens left)."""
    tokens = tokens + injuries
    while alive > 0 and tokens >= health:
        tokens -= health
        alive -= 1
    if alive == 0:
        tokens = 0
    return alive, tokens


def receive_injuries(rng: np.random.Generator, striker: FightingUnit, target: FightingUnit,
                     injuries: int) -> None:
    striker.inflicted += injuries
    kept = safeguard(rng, injuries, target.has("safeguard"), target.combatant.guard)
    before = target.alive
    target.alive, target.tokens = withdraw_casualties(target.alive, target.tokens, kept, target.health)
    striker.kills += before - target.alive


# ---------------------------------------------------------------------------------------------------
# Step 5 and 6: the winner and the loser's Morale
# ---------------------------------------------------------------------------------------------------

def advantage(*, charged: bool, my_injuries: int, enemy_injuries: int, my_warriors: int,
              enemy_warriors: int, my_stress: int, enemy_stress: int) -> int:
    """DETERMINING THE WINNER OF A FIGHT: the Advantage Value of one unit."""
    value = 0
    if charged:  # "The Unit is Active and has just made a Charge Action"
        value += 1
    if my_injuries > enemy_injuries:  # "inflicted the more Injuries"
        value += 1
    if my_warriors > enemy_warriors:  # "headcount ... higher than the total headcount of all the Enemy Units"
        value += 1
    if my_stress < enemy_stress:  # "less Stress Markers than every Enemy Unit"
        value += 1
    return value


def morale_dice(alive: int, discipline: bool, authority: int) -> int:
    """MORALE: "2D10s ... add 1D10 for every complete share of five Warriors", DISCIPLINE +1 die,
    AUTHORITY +1 die per unit in range."""
    dice = 2
    complete_fives = 0
    counted = 0
    while counted + 5 <= alive:
        counted += 5
        complete_fives += 1
    dice += complete_fives
    if discipline:
        dice += 1
    dice += authority
    return dice


def morale_outcome(successes: int) -> str:
    """Effect of the Morale Roll."""
    if successes == 0:
        return "scatter"
    if successes == 1:
        return "stress"
    if successes == 2:
        return "doubt"
    return "steady"


def morale_roll(rng: np.random.Generator, combatant: Combatant, alive: int, willpower: int,
                opposition: int, crit_chain: bool) -> int:
    """A Morale roll on the Action Table: Willpower of the Leader vs ``opposition``. BERSERKER: "an
    additional Success on its Morale Rolls". Returns the successes."""
    unit = combatant.unit
    dice = morale_dice(alive, unit.has("discipline"), combatant.authority)
    threshold = naive_threshold(willpower, opposition)
    successes, _ = naive_action_roll(rng, dice, threshold, crit_chain=crit_chain)
    if unit.has("berserker"):
        successes += 1
    return successes


def _check_frontage(frontage: str | int) -> None:
    if frontage == "all":
        return
    if isinstance(frontage, str) and "/" in frontage:
        contact, support = frontage.split("/")
        if not (contact.isdigit() and support.isdigit() and int(contact) >= 1):
            raise ValueError(f"frontage {frontage!r} is not C/S with whole numbers C >= 1, S >= 0")
        return
    if isinstance(frontage, bool) or not isinstance(frontage, int | np.integer) or frontage < 1:
        raise ValueError(f"frontage {frontage!r} is not 'all' or a whole number >= 1")


# ---------------------------------------------------------------------------------------------------
# One Fight
# ---------------------------------------------------------------------------------------------------

def naive_fight(rng: np.random.Generator, a: Combatant, b: Combatant, *, charge: bool,
                crit_chain: bool = True, frontage: str | int = "all", a_weapon: Weapon | None = None,
                b_weapon: Weapon | None = None, heroic_passive: str = "none",
                blocking_masks: tuple[int, int] | None = None) -> dict:
    """One Fight: unit A made an Attack (or, with ``charge``, a Charge) against unit B; both strike.

    HEROIC ACTION dice "increase the cost of the Action": A's join its Action; B, which fights back, has
    none to raise and adds its own only with ``heroic_passive`` "own-ts" (DK-heroic-passive).

    ``a_weapon``/``b_weapon`` are accepted so the call mirrors the kernel's inputs; a Fight uses no ranged
    weapon, so they change nothing.

    Returns a dict:
        kills_a, kills_b: warriors of the enemy that A's (B's) strikes removed.
        inflicted_a, inflicted_b: injuries A (B) dealt, counted before the enemy's Safeguard.
        result: a FightOutcome of rulesets.drakerys.fight.
        advantage_a, advantage_b: Advantage Values (None when a unit was destroyed).
        morale: the loser's Morale outcome ("scatter", "stress", "doubt", "steady") or None;
        morale_successes: successes of that roll (Berserker's included) or None.
        alive_a, alive_b, tokens_a, tokens_b, stress_a, stress_b: each unit after the Fight, the Morale
            outcome applied (a scattered unit has 0 warriors; "stress" adds one Stress marker).
    """
    _check_frontage(frontage)
    if heroic_passive not in ("none", "own-ts"):
        raise ValueError(f"heroic_passive {heroic_passive!r} is not none or own-ts")
    if heroic_passive == "none":
        b = replace(b, heroic=0)
    if blocking_masks is not None:  # bits of BlockIn: the kinds of Fight each unit blocks in
        kind_a = BlockIn.CHARGING if charge else BlockIn.ATTACKING
        kind_b = BlockIn.CHARGED if charge else BlockIn.ATTACKED
        a = replace(a, blocking=a.blocking and bool(blocking_masks[0] >> kind_a & 1))
        b = replace(b, blocking=b.blocking and bool(blocking_masks[1] >> kind_b & 1))
    unit_a = unit_in_fight("a", a)
    unit_b = unit_in_fight("b", b)
    set_fight_characteristics(unit_a, unit_b, i_charged=charge)
    set_fight_characteristics(unit_b, unit_a, i_charged=False)

    for group in strike_order(unit_a, unit_b):
        # "Casualties of an earlier strike are already removed"; a group strikes all at once, then the
        # casualties of the group are withdrawn.
        dealt = []
        for striker in group:
            target = unit_b if striker is unit_a else unit_a
            if strikes(striker) and target.alive > 0:
                dealt.append((striker, target, strike(rng, striker, target, frontage, crit_chain)))
        for striker, target, injuries in dealt:
            receive_injuries(rng, striker, target, injuries)

    out = {"kills_a": unit_a.kills, "kills_b": unit_b.kills,
           "inflicted_a": unit_a.inflicted, "inflicted_b": unit_b.inflicted,
           "advantage_a": None, "advantage_b": None, "morale": None, "morale_successes": None}

    if unit_a.alive == 0 and unit_b.alive == 0:
        out["result"] = FightOutcome.BOTH_DESTROYED
    elif unit_b.alive == 0:
        out["result"] = FightOutcome.B_DESTROYED
    elif unit_a.alive == 0:
        out["result"] = FightOutcome.A_DESTROYED
    else:
        adv_a = advantage(charged=charge, my_injuries=unit_a.inflicted, enemy_injuries=unit_b.inflicted,
                          my_warriors=unit_a.alive, enemy_warriors=unit_b.alive,
                          my_stress=unit_a.stress, enemy_stress=unit_b.stress)
        adv_b = advantage(charged=False, my_injuries=unit_b.inflicted, enemy_injuries=unit_a.inflicted,
                          my_warriors=unit_b.alive, enemy_warriors=unit_a.alive,
                          my_stress=unit_b.stress, enemy_stress=unit_a.stress)
        out["advantage_a"], out["advantage_b"] = adv_a, adv_b
        if adv_a == adv_b:
            out["result"] = FightOutcome.DRAW  # "In the event of a draw, both Units are considered winners."
        else:
            winner, loser = (unit_a, unit_b) if adv_a > adv_b else (unit_b, unit_a)
            # "Advantage Value of the winner - Advantage Value of the vanquished"
            opposition = abs(adv_a - adv_b)
            if loser.is_object:
                outcome = "steady"  # Reading: an Object has no morale to lose
            else:
                successes = morale_roll(rng, loser.combatant, loser.alive, loser.willpower, opposition,
                                        crit_chain)
                outcome = morale_outcome(successes)
                out["morale_successes"] = successes
                if outcome == "scatter":  # "Withdrawn from the Battlefield as Casualties"
                    loser.alive = 0
                    loser.tokens = 0
                elif outcome == "stress":
                    loser.stress += 1
            out["morale"] = outcome
            out["result"] = WIN_CODES[winner.name, outcome]

    for u in (unit_a, unit_b):
        out[f"alive_{u.name}"] = u.alive
        out[f"tokens_{u.name}"] = u.tokens
        out[f"stress_{u.name}"] = u.stress
    return out


# ---------------------------------------------------------------------------------------------------
# One Shooting
# ---------------------------------------------------------------------------------------------------

def started_ten_cm_shares(distance_cm: int) -> int:
    """"For every 10 cm-share, even incomplete": 0 cm -> 0, 1..10 -> 1, 11..20 -> 2, ..."""
    shares = 0
    covered = 0
    while covered < distance_cm:
        covered += 10
        shares += 1
    return shares


def shooting_opposition(distance_cm: int, shooter_stress: int, obstacles: int,
                        target_sharpshooter: bool) -> int:
    """STEP 1: SHOOTING ROLL opposition, plus SHARPSHOOTER ("Opposition Value of the Shootings which target
    the Unit is increased by 1")."""
    opposition = started_ten_cm_shares(distance_cm)
    opposition += shooter_stress
    opposition += obstacles
    if target_sharpshooter:
        opposition += 1
    return opposition


def shooting_dice(shooter: Combatant) -> int:
    """D10s of the Shooting roll before Heroic Action: the Power of every warrior; MULTIPLE SHOTS Power +2;
    BERSERKER Power +1 per Stress (reading: its Power bonus is not limited to Fights)."""
    unit = shooter.unit
    power = unit.profile.power
    if unit.has("multiple_shots"):
        power += 2
    if unit.has("berserker"):
        power += shooter.stress
    dice = 0
    for _ in range(shooter.size):
        dice += power
    return dice


def naive_shooting(rng: np.random.Generator, shooter: Combatant, target: Combatant, weapon: Weapon,
                   distance_cm: int, *, crit_chain: bool = True) -> dict:
    """One Shooting action of ``shooter`` at ``target`` ``distance_cm`` away with ``weapon``.

    Returns a dict: kills (warriors removed by the shot), inflicted (injuries before Safeguard), morale
    (the target's Morale outcome, or None when it took no casualty or was destroyed), morale_successes,
    alive, tokens, stress (the target afterwards, its Morale outcome applied).

    Raises:
        ValueError: no weapon, a shooter without a Shooting value, or a distance out of range.
    """
    if weapon is None:
        raise ValueError(f"{shooter.unit.name} has no ranged weapon")
    if shooter.unit.profile.shooting is None:
        raise ValueError(f"{shooter.unit.name} has no Shooting value, so it cannot shoot")
    if isinstance(distance_cm, bool) or not isinstance(distance_cm, int | np.integer) or distance_cm < 0:
        raise ValueError(f"distance {distance_cm!r} is not a whole number of cm >= 0")
    if distance_cm > weapon.max_range_cm:
        raise ValueError(f"{target.unit.name} at {distance_cm} cm is beyond the {weapon.max_range_cm} cm "
                         f"range of the {weapon.name}")

    # STEP 1: SHOOTING ROLL
    dice = shooting_dice(shooter)
    opposition = shooting_opposition(distance_cm, shooter.stress, shooter.obstacles,
                                     target.unit.has("sharpshooter"))
    threshold = naive_threshold(shooter.unit.profile.shooting, opposition)
    if dice + shooter.heroic > 0:
        hits, criticals = naive_action_roll(rng, dice, threshold, heroic=shooter.heroic,
                                            crit_chain=crit_chain)
    else:
        hits, criticals = 0, 0
    automatic = criticals if shooter.unit.has("deadly_blow") else 0

    # STEP 2: INJURY ROLL
    strength = shooter.unit.profile.strength if weapon.strength is None else weapon.strength
    resistance = target.unit.profile.resistance
    if target.unit.has("berserker"):
        for _ in range(target.stress):
            resistance = max(0, resistance - 1)
    # a shooting target is not Engaged with the shooter, so MARTIAL ARTS plays no part on either side;
    # VIOLENT BLOW works "when facing Attacks and Shots"
    ignores_parry = weapon.ignores_parry or shooter.unit.has("violent_blow")
    crits = injury_crits(target.unit.has("parry"), target.unit.has("expert_parry"), ignores_parry)
    wounds = injury_roll(rng, hits, strength, resistance, crits, crit_chain)
    inflicted = automatic + wounds

    # STEP 3: WITHDRAWAL OF THE CASUALTIES
    kept = safeguard(rng, inflicted, target.unit.has("safeguard"), target.guard)
    health = max(1, target.unit.profile.health)
    alive, tokens = withdraw_casualties(target.size, target.injuries, kept, health)
    kills = target.size - alive
    stress = target.stress

    # MORALE ROLL: "if it suffered at least one Casualty"; opposition: Saturation of the weapon
    outcome = None
    successes = None
    if kills >= 1 and alive > 0:
        successes = morale_roll(rng, target, alive, target.unit.profile.willpower, weapon.saturation,
                                crit_chain)
        outcome = morale_outcome(successes)
        if outcome == "scatter":
            alive = 0
            tokens = 0
        elif outcome == "stress":
            stress += 1
    return {"kills": kills, "inflicted": inflicted, "morale": outcome, "morale_successes": successes,
            "alive": alive, "tokens": tokens, "stress": stress}


# ---------------------------------------------------------------------------------------------------
# The duel on the TimePath
# ---------------------------------------------------------------------------------------------------

@dataclass
class Player:
    """One player of the duel: their only unit and their Activation Token."""

    name: str  # "a" or "b"
    combatant: Combatant  # the unit as it entered the game; its current state is below
    weapon: Weapon | None
    alive: int
    tokens: int
    stress: int
    position: int = 0  # squares travelled since START of round 1
    arrived: int = 0  # when the token arrived on its square; the highest is on top of a pile
    done: bool = False  # the token has reached the START square that ends the game
    ts_spent: int = 0
    injuries_suffered: int = 0
    lost: int = 0

    def unit_now(self) -> Combatant:
        return replace(self.combatant, size=self.alive, injuries=self.tokens, stress=self.stress)

    def has(self, skill: str) -> bool:
        return self.combatant.unit.has(skill)


def active_player(one: Player, other: Player) -> Player:
    """ACTIVE PLAYER: "the player whose Activation Token is in the last position on the TimePath, or on
    top of the pile if the tokens are stacked"."""
    if one.position < other.position:
        return one
    if other.position < one.position:
        return other
    return one if one.arrived > other.arrived else other


def choose_action(me: Player, engaged: bool, distance: int | None, first_activation: bool,
                  opening_shot: bool = False) -> str:
    """The duel's policy: A opens with a Charge from contact (``distance`` None), or a Shooting when
    ``opening_shot``; then an engaged unit attacks; a free unit shoots when it has a weapon and the enemy
    is in range (and not in contact), else charges when the enemy is within its Charge, else marches."""
    if engaged:
        return "attack"
    if distance is None:
        return "charge"
    if first_activation and opening_shot:
        return "shoot"
    profile = me.combatant.unit.profile
    if me.weapon is not None and profile.shooting is not None and 1 <= distance <= me.weapon.max_range_cm:
        return "shoot"
    if distance <= profile.charge:
        return "charge"
    return "march"


def activation_cost(me: Player, action: str, heroic_costs_ts: bool) -> int:
    """The TS of one action: its cost (JAMMED: Charge +2), +1 per Stress marker ("EFFECT OF THE STRESS
    MARKERS"), +1 per Heroic Action die on a Fight or Shooting roll, QUICK SHOT -1 on a Shooting (minimum
    1). An activation may not spend more than the 16 TS of the TimePath in all (see naive_engagement)."""
    cost = ACTION_COST[action]
    if action == "charge" and me.has("jammed"):
        cost += 2
    cost += me.stress
    if heroic_costs_ts and action in ("attack", "charge", "shoot"):
        cost += me.combatant.heroic
    if action == "shoot" and me.has("quick_shot"):
        cost = max(1, cost - 1)
    return cost


def headquarters_phases(old_position: int, new_position: int) -> int:
    """How many times the token reached or passed START (a multiple of 16) moving old -> new."""
    count = 0
    square = old_position + 1
    while square <= new_position:
        if square % TIME_SECTIONS == 0:
            count += 1
        square += 1
    return count


def headquarters_phase(me: Player) -> None:
    """HEADQUARTERS PHASE: "withdraws a Stress marker from each of their Units"."""
    me.stress = max(0, me.stress - 1)


def _apply_fight(active: Player, passive: Player, fight: dict) -> None:
    active.injuries_suffered += fight["inflicted_b"]
    passive.injuries_suffered += fight["inflicted_a"]
    active.lost += active.alive - fight["alive_a"]
    passive.lost += passive.alive - fight["alive_b"]
    active.alive, active.tokens, active.stress = fight["alive_a"], fight["tokens_a"], fight["stress_a"]
    passive.alive, passive.tokens, passive.stress = fight["alive_b"], fight["tokens_b"], fight["stress_b"]


def _apply_shot(target: Player, shot: dict) -> None:
    target.injuries_suffered += shot["inflicted"]
    target.lost += target.alive - shot["alive"]
    target.alive, target.tokens, target.stress = shot["alive"], shot["tokens"], shot["stress"]


def naive_engagement(rng: np.random.Generator, a: Combatant, b: Combatant, *, crit_chain: bool = True,
                     frontage: str | int = "all", shoot_from_cm: int | None = None,
                     a_weapon: Weapon | None = None, b_weapon: Weapon | None = None, rounds: int = 6,
                     heroic_costs_ts: bool = True, actions: str = "all", heroic_passive: str = "none",
                     blocking_masks: tuple[int, int] | None = None, start_cm: int | None = None,
                     trace: bool = False) -> dict:
    """A duel of unit A (First Player) against unit B on the TimePath.

    Without ``shoot_from_cm`` A opens with a Charge, and from then on the active unit Attacks. With it the
    units start ``shoot_from_cm`` apart and A opens with a Shooting action; then each unit charges when the
    enemy is within its Charge value, otherwise shoots when it has a weapon in range, otherwise marches.
    An activation is up to the Leader's Actions (``actions`` "all"; one with "one"), taken one after the
    other while both units stand, each priced on its own; together they may not exceed the 16 TS of the
    TimePath, nor, in the last round, take the token beyond START. When not even the first fits, the token
    goes to START and its player is done. After each activation the unit gains a Stress marker; each time a
    token reaches or passes START its player's Headquarters Phase removes one.

    Returns a dict:
        outcome: "a" (B destroyed or scattered), "b", "both", or "neither" (the game ended).
        injuries_a, injuries_b: injuries A (B) suffered, counted before Safeguard.
        lost_a, lost_b: warriors A (B) lost, scattered ones included.
        ts_a, ts_b: TS each player spent on activations.
        activations: activations taken (both players).
        alive_a, alive_b, stress_a, stress_b, position_a, position_b, distance: the final state.
        trace (with ``trace``): one tuple per activation (unit, action, cost, position after, Stress after
            the Headquarters Phase); a token moved to START by the last-round restriction shows as
            (unit, "to-start", 0, position, Stress).
    """
    _check_frontage(frontage)
    if isinstance(rounds, bool) or not isinstance(rounds, int | np.integer) or rounds < 1:
        raise ValueError(f"rounds {rounds!r} is not a whole number >= 1")
    if shoot_from_cm is not None:
        if a_weapon is None:
            raise ValueError(f"{a.unit.name} cannot open with a Shooting: it has no ranged weapon")
        if shoot_from_cm > a_weapon.max_range_cm:
            raise ValueError(f"{shoot_from_cm} cm is beyond the {a_weapon.max_range_cm} cm range of the "
                             f"{a_weapon.name}")

    # FIRST PLAYER: "the First Player's token is thus on top" of the START pile.
    player_a = Player("a", a, a_weapon, alive=a.size, tokens=a.injuries, stress=a.stress, arrived=1)
    player_b = Player("b", b, b_weapon, alive=b.size, tokens=b.injuries, stress=b.stress, arrived=0)
    last_start = TIME_SECTIONS * rounds
    arrivals = 1
    engaged = False
    distance = shoot_from_cm if start_cm is None else start_cm
    activations = 0
    steps = []

    while not (player_a.done and player_b.done):
        me = active_player(player_a, player_b)
        enemy = player_b if me is player_a else player_a
        most = max(1, me.combatant.unit.profile.actions) if actions == "all" else 1
        cost = 0
        taken = []
        while len(taken) < most and player_a.alive > 0 and player_b.alive > 0:
            action = choose_action(me, engaged, distance, first_activation=activations == 0 and not taken,
                                   opening_shot=shoot_from_cm is not None)
            price = activation_cost(me, action, heroic_costs_ts)
            # RESTRICTIONS OF ACTIONS: at most the TimePath's 16 TS in one activation; in the last round,
            # never beyond START
            if cost + price > TIME_SECTIONS or me.position + cost + price > last_start:
                break
            if action == "march":
                distance = max(distance - me.combatant.unit.profile.march, 1)
            elif action == "shoot":
                shot = naive_shooting(rng, me.unit_now(), enemy.unit_now(), me.weapon, distance,
                                      crit_chain=crit_chain)
                _apply_shot(enemy, shot)
            else:  # charge or attack: a Fight in which the active unit is "A"
                masks = None if blocking_masks is None else (
                    blocking_masks if me is player_a else blocking_masks[::-1])
                fight = naive_fight(rng, me.unit_now(), enemy.unit_now(), charge=action == "charge",
                                    crit_chain=crit_chain, frontage=frontage, a_weapon=me.weapon,
                                    b_weapon=enemy.weapon, heroic_passive=heroic_passive,
                                    blocking_masks=masks)
                engaged = True
                _apply_fight(me, enemy, fight)
                if heroic_passive == "own-ts" and enemy.combatant.heroic:
                    # the unit that fought back pays its Heroic Action dice on its own token, no Stress
                    old = enemy.position
                    enemy.position += enemy.combatant.heroic
                    enemy.ts_spent += enemy.combatant.heroic
                    for _ in range(headquarters_phases(old, enemy.position)):
                        headquarters_phase(enemy)
            cost += price
            taken.append(action)

        if not taken:  # the token goes to START and the activation ends
            old = me.position
            me.position = last_start
            arrivals += 1
            me.arrived = arrivals
            for _ in range(headquarters_phases(old, me.position)):
                headquarters_phase(me)
            me.done = True
            steps.append((me.name, "to-start", 0, me.position, me.stress))
            continue
        activations += 1
        action = "+".join(taken)

        # SPENDING TS, STRESS, HEADQUARTERS PHASE
        old = me.position
        me.position += cost
        me.ts_spent += cost
        arrivals += 1
        me.arrived = arrivals
        me.stress += 1
        for _ in range(headquarters_phases(old, me.position)):
            headquarters_phase(me)
        for player in (me, enemy):
            if player.position >= last_start:
                player.done = True
        steps.append((me.name, action, cost, me.position, me.stress))

        if player_a.alive == 0 or player_b.alive == 0:
            break

    if player_a.alive == 0 and player_b.alive == 0:
        outcome = "both"
    elif player_b.alive == 0:
        outcome = "a"
    elif player_a.alive == 0:
        outcome = "b"
    else:
        outcome = "neither"
    out = {"outcome": outcome,
           "injuries_a": player_a.injuries_suffered, "injuries_b": player_b.injuries_suffered,
           "lost_a": player_a.lost, "lost_b": player_b.lost,
           "ts_a": player_a.ts_spent, "ts_b": player_b.ts_spent, "activations": activations,
           "alive_a": player_a.alive, "alive_b": player_b.alive,
           "stress_a": player_a.stress, "stress_b": player_b.stress,
           "position_a": player_a.position, "position_b": player_b.position, "distance": distance}
    if trace:
        out["trace"] = steps
    return out
