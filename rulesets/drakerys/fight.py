"""Drakerys Fights, Shootings and engagements as the rulebook plays them (seed 002: FIGHTING, SHOOTING,
MORALE, THE TIMEPATH, SKILLS), turned into kernel inputs.

One Fight (an Attack or a Charge action of unit A against unit B), in order:

1. Characteristics. Charge bonus (A charged, B has no Reach or A has Martial Arts, A is no Sharpshooter):
   Initiative +1, Combat +1 for the whole Fight (B's rolls are opposed by the raised Combat too).
   Brutal Charge: Power +1 after charging. Berserker: Power +1 and
   Resistance -1 (minimum 0) per Stress marker. Dreadful: the enemy's Willpower -1 unless it is Dreadful
   too.
2. Strike order by Initiative, highest first; equal Initiative strikes simultaneously. A side strikes with
   the warriors alive when its turn comes (casualties of an earlier strike are already removed).
3. A strike: attack dice = full-power warriors x Power + supporting warriors x 1 + Heroic Action dice,
   where ruling DK-frontage sets how many warriors fight at full Power (all by default; the rest support).
   Attack roll on the Action Table (Combat vs the enemy leader's Combat; Swashbuckler rerolls failures,
   ``rerolls`` rerolls that many failures): successes are hits. Deadly Blow: each critical of the attack
   roll is also one automatic injury. If the enemy blocks (Blocking, used instead of its attack), it rolls
   its own attack roll now (its Combat vs this side's Combat, with its bonuses) and each success cancels a
   hit (not a Deadly Blow injury). Injury roll with the remaining hits (Strength vs the enemy's
   Resistance): each success is an injury. Criticals of the injury roll count as plain successes against
   Parry, as failures against Expert Parry, unless the striker has Martial Arts (against units it is
   engaged with), or Violent Blow and the target has no Martial Arts (a unit with Martial Arts ignores
   the Violent Blow of units it is engaged with). A Heavy crossbow's shot ignores Parry too.
4. Injuries received: a unit with Safeguard rolls a d10 per injury; a 10 cancels it, 6-9 moves it to an
   escorting Guard unit when ``guard`` is set (either way it leaves this unit; a battle moves it to a Guard
   unit it fields, as far as that unit can take it: kernels_battle.py). Injury tokens then
   remove one warrior per Health of the leader; leftover tokens stay on the unit.
5. Advantage: +1 for the unit that charged, +1 for inflicting strictly more injuries (counted before
   Safeguard), +1 for more warriors than the enemy, +1 for fewer Stress markers than the enemy. The higher
   value wins; a tie means both win. A destroyed unit loses without a Morale roll.
6. The loser's Morale roll: 2 d10 + 1 per complete 5 warriors + 1 (Discipline) + 1 per Authority unit in
   range; Willpower vs (winner's - loser's Advantage); Berserker adds one success. 0 successes: the unit
   scatters (all its warriors are casualties); 1: +1 Stress; 2: doubt; 3+: steady.

Modelling limits, stated in every report: the geometry of contact (ruling DK-frontage), allied units
(initiative bonus, rerolls and Authority are options), Elemental Power, Assassination, War Cry, Sacrifice,
Harassment, Charisma and Leadership are not modelled; units with skills outside MODELLED_SKILLS are
flagged.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from rulesets.base import RulesError, whole_number
from rulesets.drakerys.rules import (
    CHARGE_TS,
    JAMMED_CHARGE_TS,
    MAX_EXTRA_OPTION,
    MAX_HEROIC,
    DrakerysRulings,
    frontage_counts,
)
from rulesets.drakerys.units import Unit, Weapon

if TYPE_CHECKING:
    import numpy as np

# --- every code the kernels (kernels.py) read or emit, named once ------------------------------------
# numba reads IntEnum members as compile-time integers, so kernels index arrays with them at no cost.


class Side(IntEnum):
    """Columns of the kernels' int64[2, N_SIDE] side array (one row per side), built by side_array."""

    SIZE = 0  # warriors alive as the unit enters
    POWER = 1
    HEALTH = 2
    INITIATIVE = 3
    COMBAT = 4
    SHOOTING = 5  # -1: no Shooting value
    STRENGTH = 6
    RESISTANCE = 7
    WILLPOWER = 8
    MARCH = 9
    CHARGE = 10  # the Charge value (cm)
    SWASHBUCKLER = 11  # skills: 1 when the unit has it
    PARRY = 12
    EXPERT_PARRY = 13
    VIOLENT_BLOW = 14
    MARTIAL_ARTS = 15
    DEADLY_BLOW = 16
    BLOCKING = 17  # the Fights it blocks in: bits 1 << BlockIn (simulate.auto_block_mask narrows them)
    BERSERKER = 18
    BRUTAL_CHARGE = 19
    REACH = 20
    DREADFUL = 21
    DISCIPLINE = 22
    SAFEGUARD = 23
    MULTIPLE_SHOTS = 24
    QUICK_SHOT = 25
    SHARPSHOOTER = 26
    OBJECT = 27  # is_object
    CHARGE_TS = 28  # charge_ts: what a Charge action costs before Stress and Heroic Action
    AUTHORITY = 29  # the situation: allied Authority units in range
    HEROIC = 30  # Heroic Action dice
    REROLLS = 31
    GUARD = 32  # room for Safeguard's 6-9 in an escorting Guard unit: 0 none, GUARD_UNLIMITED (duels) or
    # in a battle the injuries the Guard unit in cohesion can still take (set for each Action)
    TOKENS = 33  # injury tokens at the start
    STRESS = 34  # Stress markers at the start
    FRONTAGE = 35  # DK-frontage: warriors at full Power, -1 for all
    ALLIES_ENGAGED = 36  # allied units engaged with the enemy: +1 Initiative each
    OBSTACLES = 37
    WEAPON_RANGE = 38  # the ranged weapon: -1 when none
    WEAPON_STRENGTH = 39
    SATURATION = 40
    IGNORES_PARRY = 41
    ACTIONS = 42  # Actions per activation: the Leader's Action Characteristic (DK-actions=all), else 1
    HEROIC_PASSIVE = 43  # Heroic Action dice it adds when it fights back (DK-heroic-passive=own-ts), else 0
    SUPPORT = 44  # DK-frontage: warriors supporting at Power 1, -1 for every warrior not in contact
    AUTHORITY_RANGE = 45  # battles: cm within which its Authority [X] reaches allied units, 0 without it
    HAS_GUARD = 46  # 1: the unit has Guard (it takes Safeguard's transfers; an Infantry one escorts Combined
    # Charges)
    INFANTRY = 47  # 1: of type Infantry
    COMBINED_CHARGE = 48  # battles: 1: a Hero makes Combined Charges, not Charges (DK-combined-charge)
    GUARD_UNIT = 49  # battles: the row of the unit taking Safeguard's transfers in the Action, -1 none


N_SIDE = len(Side)


class State(IntEnum):
    """Columns of a side's per-trial state. They follow its Side columns in the same row: the kernels' pair
    is one int64[2, N_PAIR] matrix (one row per side: its Side columns, then these), allocated once per chunk
    or block of trials, so that a helper holds one array for both (numba counts a reference to each array a
    call passes)."""

    ALIVE = N_SIDE + 0  # warriors alive
    TOKENS = N_SIDE + 1  # injury tokens on the unit
    STRESS = N_SIDE + 2  # Stress markers
    REMOVED = N_SIDE + 3  # warriors of this side removed by enemy strikes and shots (not by a scatter)
    INFLICTED = N_SIDE + 4  # injuries this side inflicted, before the enemy's Safeguard
    SPENT = N_SIDE + 5  # Time Sections spent (engagements)
    POSITION = N_SIDE + 6  # squares travelled on the TimePath (engagements)
    DONE = N_SIDE + 7  # 1 once the side's Activation Token has reached the last START (engagements)
    OPENING_LOST = N_SIDE + 8  # warriors lost during side 0's opening action (engagements)
    OPENING_INJURIES = N_SIDE + 9  # injuries suffered during side 0's opening action (engagements)
    OPENING_TS = N_SIDE + 10  # TS spent on side 0's opening action (engagements; side 0's row)
    HEROIC_NOW = N_SIDE + 11  # Heroic Action dice this side adds to the Fight being fought (each Fight sets)
    BLOCKING_NOW = N_SIDE + 12  # 1 when this side blocks in the Fight being fought (set by each Fight)
    TRANSFERRED = N_SIDE + 13  # injuries Safeguard moved to the Guard unit (Side.GUARD_UNIT) in the Action


N_STATE = len(State)
#: Columns of a row of the kernels' pair: a side's Side columns, then its State columns.
N_PAIR = N_SIDE + N_STATE


class BlockIn(IntEnum):
    """The kinds of Fight a unit with Blocking may block in (bits of Side.BLOCKING)."""

    CHARGING = 0  # it charges
    ATTACKING = 1  # it makes an Attack action
    CHARGED = 2  # it is charged
    ATTACKED = 3  # it is attacked


#: Blocking in every kind of Fight.
BLOCK_ALWAYS = (1 << len(BlockIn)) - 1


class Winner(IntEnum):
    """Who won one Fight, as the kernels return it (a draw makes both winners)."""

    SIDE_0 = 0
    SIDE_1 = 1
    BOTH = 2
    NONE = 3  # both destroyed


class Morale(IntEnum):
    """Outcome of a Morale roll by successes (MORALE), or NO_ROLL when none is taken."""

    SCATTER = 0
    STRESS = 1
    DOUBT = 2
    STEADY = 3
    NO_ROLL = 4


#: The Morale outcomes of a roll, as reports name them.
MORALE_OUTCOMES = tuple(m.name.lower() for m in Morale if m != Morale.NO_ROLL)


class FightOutcome(IntEnum):
    """Result code of one Fight of A (side 0) against B (side 1): the winner and the loser's Morale."""

    DRAW = 0
    A_WINS_SCATTER = 1
    A_WINS_STRESS = 2
    A_WINS_DOUBT = 3
    A_WINS_STEADY = 4
    B_WINS_SCATTER = 5
    B_WINS_STRESS = 6
    B_WINS_DOUBT = 7
    B_WINS_STEADY = 8
    B_DESTROYED = 9
    A_DESTROYED = 10
    BOTH_DESTROYED = 11


N_FIGHT_OUTCOMES = len(FightOutcome)


class EngagementOutcome(IntEnum):
    """How an engagement of side 0 (A, who opens) and side 1 (B) ends."""

    SIDE_0_WINS = 0  # side 1 destroyed or scattered
    SIDE_1_WINS = 1
    NEITHER = 2  # the game ended first
    BOTH_DESTROYED = 3


class Action(IntEnum):
    """The actions of a unit in an engagement (UNITS ACTIONS)."""

    CHARGE = 0
    ATTACK = 1
    SHOOT = 2
    MARCH = 3


class FightRow(IntEnum):
    """Histogram rows of the Fight kernel (value = column)."""

    REMOVED_0 = 0  # warriors of side 0 removed by strikes
    REMOVED_1 = 1
    OUTCOME = 2  # FightOutcome
    INFLICTED_0 = 3  # injuries side 0 inflicted, before Safeguard
    INFLICTED_1 = 4
    CASUALTIES_0 = 5  # warriors side 0 lost in all (a scattered unit loses every warrior)
    CASUALTIES_1 = 6


class ShootingRow(IntEnum):
    """Histogram rows of the Shooting kernel (side 0 shoots at side 1)."""

    REMOVED = 0  # warriors of the target removed by the shot (not by a scatter)
    INFLICTED = 1  # injuries inflicted, before Safeguard
    MORALE = 2  # the target's Morale
    CASUALTIES = 3  # warriors the target lost in all: those removed, or every one when it scattered


class EngagementRow(IntEnum):
    """Histogram rows of the engagement kernel."""

    OUTCOME = 0  # EngagementOutcome
    INJURIES_0 = 1  # injuries suffered by side 0, before Safeguard
    INJURIES_1 = 2
    LOST_0 = 3  # warriors lost by side 0 (a scattered unit loses every warrior)
    LOST_1 = 4
    TS_0 = 5  # Time Sections spent by side 0
    TS_1 = 6
    ACTIVATIONS = 7


class Record(IntEnum):
    """Columns of the engagement records (one row per trial): side 0 opens (charges, or shoots first),
    then both fight on."""

    OUTCOME = 0  # EngagementOutcome
    LOST_0 = 1  # warriors lost in all by side 0 (a scattered unit loses every warrior)
    LOST_1 = 2
    INJURIES_0 = 3  # injuries suffered by side 0 in all, before Safeguard
    INJURIES_1 = 4
    TS_0 = 5  # Time Sections spent by side 0
    TS_1 = 6
    ACTIVATIONS = 7
    OPENING_LOST_0 = 8  # warriors side 0 lost during its opening action (Morale and a scatter included)
    OPENING_LOST_1 = 9
    OPENING_INJURIES_0 = 10  # injuries side 0 suffered during the opening action
    OPENING_INJURIES_1 = 11
    OPENING_TS = 12  # TS side 0 spent on its opening action


N_RECORD = len(Record)


class BattleState(IntEnum):
    """Columns of a unit's per-trial state in a battle's matrix (kernels_battle.py: a row per unit after the
    pair's rows, BattleRow: its Side columns, then these, then its blocking against each unit). State's
    columns come first with the same numbers, so the first N_PAIR columns of a row are the unit's row of a
    duel's pair; TimePath columns (POSITION, DONE, ARRIVAL) are read on the row that carries the Activation
    Token (TOKEN)."""

    ALIVE = State.ALIVE
    TOKENS = State.TOKENS
    STRESS = State.STRESS
    REMOVED = State.REMOVED
    INFLICTED = State.INFLICTED
    SPENT = State.SPENT  # TS this unit's activations cost, and the Heroic Action dice it paid fighting back
    POSITION = State.POSITION  # squares the token travelled (token rows)
    DONE = State.DONE  # 1 once the token reached the last START (token rows)
    OPENING_LOST = State.OPENING_LOST  # unused in battles
    OPENING_INJURIES = State.OPENING_INJURIES  # unused in battles
    OPENING_TS = State.OPENING_TS  # unused in battles
    HEROIC_NOW = State.HEROIC_NOW
    BLOCKING_NOW = State.BLOCKING_NOW
    TRANSFERRED = State.TRANSFERRED  # battles move them to the Guard unit after each Action (_step)
    OWNER = N_PAIR  # the side (0 or 1) the unit fights for
    POSITION_CM = N_PAIR + 1  # where the unit stands on the line (cm)
    ENGAGED_WITH = N_PAIR + 2  # the row of the enemy unit it charged or was first charged by, -1: none
    ARRIVAL = N_PAIR + 3  # when the token arrived on its square: the highest is on top of a pile (token row)
    TOKEN = N_PAIR + 4  # the row that carries this unit's Activation Token (DK-battle-tokens)


N_BATTLE = len(BattleState)
#: Columns of a unit's Side and BattleState columns: a battle's matrix holds its blocking after them.
N_UNIT = N_SIDE + N_BATTLE


class BattleRow(IntEnum):
    """Rows of a battle's matrix (kernels_battle.battle_matrix): the duel's pair first, rows 0 and 1, which
    the duel's steps read as sides 0 and 1; then one row per unit, side 0's units first. A unit is named by
    its row (BattleState.ENGAGED_WITH, BattleState.TOKEN, Side.GUARD_UNIT, the battle kernel's indices)."""

    SIDE_0 = 0  # the pair's row of side 0
    SIDE_1 = 1  # the pair's row of side 1
    FIRST_UNIT = 2  # the first unit's row


#: Column of a unit row's blocking against the unit in row e: BLOCKING_AGAINST + e (the BlockIn bits of
#: DK-blocking, after its Side and BattleState columns: a battle of U units has N_UNIT + U columns).
BLOCKING_AGAINST = N_UNIT - BattleRow.FIRST_UNIT


class BattleRecord(IntEnum):
    """Columns of the battle records (one row per trial). The first eight are Record's first eight: a
    battle of one unit a side records what its duel records."""

    OUTCOME = Record.OUTCOME  # EngagementOutcome
    LOST_0 = Record.LOST_0  # warriors lost by side 0's units (scattered units lose every warrior)
    LOST_1 = Record.LOST_1
    INJURIES_0 = Record.INJURIES_0  # injuries side 0's units suffered, before Safeguard
    INJURIES_1 = Record.INJURIES_1
    TS_0 = Record.TS_0  # Time Sections spent by side 0's units
    TS_1 = Record.TS_1
    ACTIVATIONS = Record.ACTIVATIONS  # activations of both sides
    UNITS_LOST_0 = 8  # side 0's units destroyed or scattered
    UNITS_LOST_1 = 9
    LEAD_LOST_0 = 10  # warriors lost by side 0's first unit (a hero in context: the hero; contest.py)
    LEAD_LOST_1 = 11


N_BATTLE_RECORD = len(BattleRecord)


class Targeting(IntEnum):
    """DK-battle-targeting: which enemy unit a unit acts against (kernels_battle._target)."""

    NEAREST = 0  # an unengaged unit: the nearest living enemy (then fewest warriors, then lowest index)
    FOCUS = 1  # an unengaged unit: the living enemy with the fewest warriors (then lowest index)


class Tokens(IntEnum):
    """DK-battle-tokens: who owns the Activation Tokens of a battle."""

    PLAYER = 0  # one per side; its player activates one of its units
    UNIT = 1  # one per unit


@dataclass(frozen=True)
class Combatant:
    """A unit as it enters a Fight, with the situation around it.

    Attributes:
        size: warriors alive.
        injuries: injury tokens already on the unit (fewer than its Health).
        stress: Stress markers already on the unit.
        heroic: Heroic Action dice added to its fight (and shooting) rolls (needs the skill, 0..5).
        rerolls: dice it may reroll on its attack roll (allied warriors of other units in contact).
        authority: allied units with Authority in range (one extra Morale die each).
        guard: an escorting Guard unit is in cohesion, so Safeguard can move injuries to it (6-9); a duel's
            stand-in for the escort (it takes every one). A battle fields its Guard units and moves the
            injuries to one of them by DK-safeguard-transfer, whatever this says.
        blocking: uses Blocking instead of attacking (only for units with the skill).
        allied_units_engaged: other allied units engaged with the enemy (+1 Initiative each).
        obstacles: obstacles in the line of sight when this unit shoots.
    """

    unit: Unit
    size: int
    injuries: int = 0
    stress: int = 0
    heroic: int = 0
    rerolls: int = 0
    authority: int = 0
    guard: bool = False
    blocking: bool = True
    allied_units_engaged: int = 0
    obstacles: int = 0

    def __post_init__(self) -> None:
        u = self.unit
        if u.profile is None:
            raise RulesError(f"{u.name} has no profile in the rulebook, so it cannot fight")
        whole_number(f"size of {u.name}", self.size, 1)
        whole_number(f"injury tokens on {u.name} (Health {u.profile.health})", self.injuries, 0,
                     max(0, u.profile.health - 1))
        for name in ("stress", "rerolls", "authority", "allied_units_engaged", "obstacles"):
            whole_number(f"{name} of {u.name}", getattr(self, name), 0, MAX_EXTRA_OPTION)
        whole_number(f"heroic dice of {u.name}", self.heroic, 0, MAX_HEROIC)
        if self.heroic and not u.has("heroic_action"):
            raise RulesError(f"{u.name} has no Heroic Action, so it cannot add heroic dice")
        if self.guard and not u.has("safeguard"):
            raise RulesError(f"{u.name} has no Safeguard, so a Guard unit cannot take its injuries")


def side_array(c: Combatant, rulings: DrakerysRulings, weapon: Weapon | None) -> np.ndarray:
    """The kernel's int64 row for one combatant (columns: Side), read-only: made once per combatant,
    rulings and weapon in a process (a field asks for each of them about a hundred times, 14 us each)."""
    return _side_row(c, rulings, weapon)


@functools.lru_cache(maxsize=4096)
def _side_row(c: Combatant, rulings: DrakerysRulings, weapon: Weapon | None) -> np.ndarray:
    import numpy as np  # here, not with the module: the ruleset (and the command tree) imports this one

    u, p = c.unit, c.unit.profile
    row = np.zeros(N_SIDE, dtype=np.int64)
    row[Side.SIZE] = c.size
    row[Side.POWER] = p.power
    row[Side.HEALTH] = max(1, p.health)
    row[Side.INITIATIVE] = p.initiative
    row[Side.COMBAT] = p.combat
    row[Side.SHOOTING] = -1 if p.shooting is None else p.shooting
    row[Side.STRENGTH] = p.strength
    row[Side.RESISTANCE] = p.resistance
    row[Side.WILLPOWER] = p.willpower
    row[Side.MARCH] = p.march
    row[Side.CHARGE] = p.charge
    for column in _SKILL_COLUMNS:
        row[column] = int(u.has(column.name.lower()))
    uses = u.has("blocking") and c.blocking and rulings.blocking != "never"
    row[Side.BLOCKING] = BLOCK_ALWAYS if uses else 0  # DK-blocking=auto narrows it (simulate.auto_block_mask)
    row[Side.OBJECT] = int(is_object(u))
    row[Side.CHARGE_TS] = charge_ts(u, rulings)
    row[Side.AUTHORITY] = c.authority
    row[Side.HEROIC] = c.heroic
    row[Side.REROLLS] = c.rerolls
    row[Side.GUARD] = GUARD_UNLIMITED if c.guard else 0
    row[Side.HAS_GUARD] = int(u.has("guard"))
    row[Side.INFANTRY] = int("Infantry" in u.types)
    row[Side.GUARD_UNIT] = -1
    row[Side.TOKENS] = c.injuries
    row[Side.STRESS] = c.stress
    row[Side.ACTIONS] = max(1, p.actions) if rulings.actions == "all" else 1
    row[Side.HEROIC_PASSIVE] = c.heroic if rulings.heroic_passive == "own-ts" else 0
    row[Side.FRONTAGE], row[Side.SUPPORT] = frontage_counts(rulings.frontage)
    row[Side.ALLIES_ENGAGED] = c.allied_units_engaged
    row[Side.OBSTACLES] = c.obstacles
    row[Side.AUTHORITY_RANGE] = authority_range(u, rulings)
    if weapon is not None:
        row[Side.WEAPON_RANGE] = weapon.max_range_cm
        row[Side.WEAPON_STRENGTH] = p.strength if weapon.strength is None else weapon.strength
        row[Side.SATURATION] = weapon.saturation
        row[Side.IGNORES_PARRY] = int(weapon.ignores_parry)
    else:
        row[Side.WEAPON_RANGE] = -1
    row.flags.writeable = False
    return row


#: Side.GUARD of a duel's unit whose Guard escort stands by (Combatant.guard): it takes every 6-9.
GUARD_UNLIMITED = 10**9

#: Side columns that are 1 when the unit has the skill of the same name (units.py spells skills this way).
_SKILL_COLUMNS = (Side.SWASHBUCKLER, Side.PARRY, Side.EXPERT_PARRY, Side.VIOLENT_BLOW, Side.MARTIAL_ARTS,
                  Side.DEADLY_BLOW, Side.BERSERKER, Side.BRUTAL_CHARGE, Side.REACH, Side.DREADFUL,
                  Side.DISCIPLINE, Side.SAFEGUARD, Side.MULTIPLE_SHOTS, Side.QUICK_SHOT, Side.SHARPSHOOTER)


#: DK-authority-range=all: a reach beyond any distance on the battle line.
EVERY_ALLY_CM = 10**6


def authority_range(unit: Unit, rulings: DrakerysRulings) -> int:
    """How far (cm) the unit's Authority reaches allied units in a battle, 0 without Authority. AUTHORITY
    [X]: "The Allied Units within [X] cm of the Unit benefit from one additional D10 for their Morale Rolls.
    This bonus is cumulative if several Units endowed with Authority are within reach." DK-authority-range
    =all: every allied unit (EVERY_ALLY_CM); =range: the [X] cm, measured on the battle line."""
    if not unit.has("authority"):
        return 0
    return EVERY_ALLY_CM if rulings.authority_range == "all" else max(0, unit.skill_value("authority"))


def is_object(unit: Unit) -> bool:
    """Whether the unit is an Object: of type Object, or with Power 0. An Object neither strikes nor
    blocks and takes no Morale roll (a reading: the text gives Objects no Fight rules)."""
    return "Object" in unit.types or unit.profile is not None and unit.profile.power == 0


def is_jammed(unit: Unit, rulings: DrakerysRulings) -> bool:
    """Whether the unit's Charges cost 2 TS more: Jammed, or Heavy-Loaded read as Jammed (DK-heavy-loaded)."""
    if not unit.has("jammed"):
        return False
    return "Heavy-Loaded" not in unit.skills_as_printed or rulings.heavy_loaded == "jammed"


def charge_ts(unit: Unit, rulings: DrakerysRulings) -> int:
    """Time Sections a Charge action of the unit costs before Stress and Heroic Action dice (UNITS ACTIONS,
    CHARGE: 3 TS; JAMMED, or Heavy-Loaded read as Jammed under DK-heavy-loaded: 2 TS more)."""
    return CHARGE_TS + (JAMMED_CHARGE_TS if is_jammed(unit, rulings) else 0)


def modelling_notes(*units: Unit) -> list[str]:
    """What a report must say about skills of these units that the simulation does not model."""
    notes = []
    for u in units:
        missing = u.unmodelled_skills
        if missing:
            notes.append(f"{u.name}: skills not modelled in fights: {', '.join(missing)}")
    return notes
