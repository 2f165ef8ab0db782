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
   escorting Guard unit when ``guard`` is set (either way it leaves this unit). Injury tokens then
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

from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.drakerys.rules import DrakerysRulings
from rulesets.drakerys.units import Unit, Weapon

# --- layout of the int64 side array the kernels read (one row per side) --------------------------------
(S_SIZE, S_POWER, S_HEALTH, S_INIT, S_COMBAT, S_SHOOTING, S_STRENGTH, S_RESIST, S_WILL, S_MARCH, S_CHARGE,
 F_SWASH, F_PARRY, F_EXPERT, F_VIOLENT, F_MARTIAL, F_DEADLY, F_BLOCK, F_BERSERKER, F_BRUTAL, F_REACH,
 F_DREADFUL, F_DISCIPLINE, O_AUTHORITY, O_HEROIC, O_REROLLS, F_SAFEGUARD, O_GUARD, F_OBJECT, F_MULTISHOT,
 F_QUICKSHOT, F_SHARPSHOOTER, F_JAMMED, W_RANGE, W_STRENGTH, W_SATURATION, W_IGNORES_PARRY, O_TOKENS,
 O_STRESS, O_FRONTAGE, O_INIT_BONUS, O_OBSTACLES) = range(42)
SIDE_FIELDS = 42

#: Result codes of one Fight.
(RESULT_DRAW, RESULT_A_WINS_SCATTER, RESULT_A_WINS_STRESS, RESULT_A_WINS_DOUBT, RESULT_A_WINS_STEADY,
 RESULT_B_WINS_SCATTER, RESULT_B_WINS_STRESS, RESULT_B_WINS_DOUBT, RESULT_B_WINS_STEADY,
 RESULT_B_DESTROYED, RESULT_A_DESTROYED, RESULT_BOTH_DESTROYED) = range(12)
N_RESULTS = 12
MORALE_OUTCOMES = ("scatter", "stress", "doubt", "steady")

MAX_EXTRA_OPTION = 50


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
        guard: an escorting Guard unit is in cohesion, so Safeguard can move injuries to it (6-9).
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
        whole_number(f"heroic dice of {u.name}", self.heroic, 0, 5)
        if self.heroic and not u.has("heroic_action"):
            raise RulesError(f"{u.name} has no Heroic Action, so it cannot add heroic dice")
        if self.guard and not u.has("safeguard"):
            raise RulesError(f"{u.name} has no Safeguard, so a Guard unit cannot take its injuries")


def side_array(c: Combatant, rulings: DrakerysRulings, weapon: Weapon | None) -> np.ndarray:
    """The kernel's int64 row for one combatant."""
    u, p = c.unit, c.unit.profile
    row = np.zeros(SIDE_FIELDS, dtype=np.int64)
    row[S_SIZE] = c.size
    row[S_POWER] = p.power
    row[S_HEALTH] = max(1, p.health)
    row[S_INIT] = p.initiative
    row[S_COMBAT] = p.combat
    row[S_SHOOTING] = -1 if p.shooting is None else p.shooting
    row[S_STRENGTH] = p.strength
    row[S_RESIST] = p.resistance
    row[S_WILL] = p.willpower
    row[S_MARCH] = p.march
    row[S_CHARGE] = p.charge
    flags = {F_SWASH: "swashbuckler", F_PARRY: "parry", F_EXPERT: "expert_parry", F_VIOLENT: "violent_blow",
             F_MARTIAL: "martial_arts", F_DEADLY: "deadly_blow", F_BERSERKER: "berserker",
             F_BRUTAL: "brutal_charge", F_REACH: "reach", F_DREADFUL: "dreadful", F_DISCIPLINE: "discipline",
             F_SAFEGUARD: "safeguard", F_MULTISHOT: "multiple_shots", F_QUICKSHOT: "quick_shot",
             F_SHARPSHOOTER: "sharpshooter"}
    for index, skill in flags.items():
        row[index] = int(u.has(skill))
    row[F_JAMMED] = int(is_jammed(u, rulings))
    row[F_BLOCK] = int(u.has("blocking") and c.blocking)
    row[F_OBJECT] = int("Object" in u.types or p.power == 0)
    row[O_AUTHORITY] = c.authority
    row[O_HEROIC] = c.heroic
    row[O_REROLLS] = c.rerolls
    row[O_GUARD] = int(c.guard)
    row[O_TOKENS] = c.injuries
    row[O_STRESS] = c.stress
    row[O_FRONTAGE] = -1 if rulings.frontage == "all" else int(rulings.frontage)
    row[O_INIT_BONUS] = c.allied_units_engaged
    row[O_OBSTACLES] = c.obstacles
    if weapon is not None:
        row[W_RANGE] = weapon.max_range_cm
        row[W_STRENGTH] = p.strength if weapon.strength is None else weapon.strength
        row[W_SATURATION] = weapon.saturation
        row[W_IGNORES_PARRY] = int(weapon.ignores_parry)
    else:
        row[W_RANGE] = -1
    return row


def is_jammed(unit: Unit, rulings: DrakerysRulings) -> bool:
    """Whether the unit's Charges cost 2 TS more: Jammed, or Heavy-Loaded read as Jammed (DK-heavy-loaded)."""
    if not unit.has("jammed"):
        return False
    return "Heavy-Loaded" not in unit.skills_as_printed or rulings.heavy_loaded == "jammed"


def modelling_notes(*units: Unit) -> list[str]:
    """What a report must say about skills of these units that the simulation does not model."""
    notes = []
    for u in units:
        missing = u.unmodelled_skills
        if missing:
            notes.append(f"{u.name}: skills not modelled in fights: {', '.join(missing)}")
    return notes
