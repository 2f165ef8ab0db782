"""The Drakerys rulebook tables a designer or rulebook author prints, computed exactly (seed 002).

Each table is a function returning exact data (numpy arrays, fractions, catalog rows); the reports lay
them out. How the text is read, where it needs reading:

* Morale (MORALE): "The player rolls 2D10s. They then add 1D10 for every complete share of five Warriors
  still present in the Unit." DISCIPLINE: "The Unit gains an additional D10 on its Morale Rolls."
  AUTHORITY [X]: "The Allied Units within [X] cm of the Unit benefit from one additional D10 for their
  Morale Rolls. This bonus is cumulative". The table is by number of dice, so it covers all of these; the
  threshold is the Action Table's for "Action Value: Willpower of the Leader" against "Opposition Value:
  According to the reason for the Morale Roll" (FIGHTING, MORALE ROLL: "Advantage Value of the winner -
  Advantage Value of the vanquished"; SHOOTING, MORALE ROLL: "Saturation of the Ranged weapons used").
  It is a roll "using the Action Table", so CRITICAL SUCCESSES applies ("every 10 on a die is a Critical
  Success. The player can then roll one extra D10 for this roll"), chained by ruling DK-crit-chain.
  Outcomes: "0 Success: The Unit scatters", "1 Success: ... gains a Stress marker", "2 Successes: The
  Unit is in doubt", "3 Successes and more: The Morale of the Unit is intact" (rulesets.drakerys.fight
  .Morale names them scatter, stress, doubt, steady).
  BERSERKER: "The Unit gains an additional Success on its Morale Rolls": one success added after the roll.
  CHARISMA: Allied Units within 20 cm "can reroll their Failures to Morale Rolls once": every failed die
  rerolled once, as REROLLS allows ("Each die can only be rerolled once. The D10s obtained through
  Critical Successes can never be rerolled.") -- the same rerolls as Swashbuckler's on an attack.
* Spell (CASTING A SPELL): see rulesets.drakerys.magic. The table is by Wizard level, total opposition
  ("For every 10 cm-share (even incomplete) between the Wizard and the furthest selected Source: +1",
  "For every extra Source after the first one: +1") and Mana spent reinforcing ("1D10 per Mana points they
  spent to Reinforce the Spell"), Vortexes only ("A Vortex produces 3 Manas"; no Maelstrom, so no
  Cataclysmic Effect). A cell exists when the Sources a Wizard may name ("maximum number of Sources = level
  of the Wizard") can pay the cost and the Mana within that opposition: the cast behind it names the
  fewest Vortexes that supply cost + Mana, each Vortex after the first taking one of the opposition's
  points, the rest being distance. Every cast with the same level, opposition and Mana has the same roll.
* Invocation (INVOKING AN ELEMENTAL): "The player rolls 2D10s against a Threshold of 7+", extra d10 for
  1 TS each from a Vortex "not occupied by an Elemental (NOT a Maelstrom)"; the element table is read
  "If it comes from a Maelstrom". See rulesets.drakerys.magic.
* Weapons: the Ranged Weapons table as the catalog holds it (seed 002 player aid and SHOOTING).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from rulesets.base import RulesError, StandardTable, whole_number
from rulesets.drakerys import exact as _exact
from rulesets.drakerys import magic
from rulesets.drakerys.fight import MORALE_OUTCOMES, Morale
from rulesets.drakerys.rules import (
    INVOCATION_MAX_EXTRA,
    MAX_DICE,
    MAX_THRESHOLD,
    MIN_THRESHOLD,
    MORALE_DICE,
    MORALE_MAX_DICE,
    SPELL_COST,
    SPELL_MAX_OPPOSITION,
    ActionRoll,
    DrakerysRulings,
)
from rulesets.drakerys.units import Catalog, Weapon

#: BERSERKER: "The Unit gains an additional Success on its Morale Rolls."
BERSERKER_MORALE_SUCCESSES = 1
#: How a ranged weapon's Strength is printed when it is the shooter's own.
WARRIOR_STRENGTH_PRINTED = "Strength of the Warrior"
#: What the rulebook's weapon tables themselves get wrong (the catalog keeps the values as printed).
WEAPON_TABLE_QUIRKS = (
    "the ranged-weapons table in SHOOTING prints its header as \"Ranged Weapon  Max. Range  [blank]  "
    "Saturation  Special\": the Strength column lost its name; its values are those of the player aid's "
    "Ranged Weapons table, which names it",
)


# --- morale -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MoraleTable:
    """P(each Morale outcome) for each number of dice and threshold (MORALE).

    ``outcomes[dice, threshold]`` is indexed by :class:`rulesets.drakerys.fight.Morale` (SCATTER..STEADY);
    ``successes[dice, threshold]`` is the success PMF of the roll before Berserker's success.
    """

    dice: tuple[int, ...]
    thresholds: tuple[int, ...]
    berserker: bool
    charisma: bool
    rulings: DrakerysRulings
    successes: MappingProxyType
    outcomes: MappingProxyType

    def p(self, dice: int, threshold: int, outcome: Morale) -> float:
        """P(``outcome``) of a Morale roll of ``dice`` d10 at ``threshold``."""
        return float(self.outcomes[dice, threshold][outcome])


def morale_outcomes(successes: np.ndarray, berserker: bool = False) -> np.ndarray:
    """P(scatter, stress, doubt, steady) from the PMF of a Morale roll's successes."""
    bonus = BERSERKER_MORALE_SUCCESSES if berserker else 0
    out = np.zeros(len(MORALE_OUTCOMES))
    np.add.at(out, np.minimum(np.arange(successes.size) + bonus, Morale.STEADY), successes)
    return out


def morale_table(max_dice: int = MORALE_MAX_DICE,
                 thresholds=range(MIN_THRESHOLD, MAX_THRESHOLD + 1), rulings: DrakerysRulings | None = None,
                 *, berserker: bool = False, charisma: bool = False) -> MoraleTable:
    """Exact Morale outcomes for 2..max_dice d10 at each threshold.

    Args:
        berserker: the unit has BERSERKER (one more success).
        charisma: a unit with CHARISMA is within 20 cm (every failed die rerolled once).
    """
    rulings = rulings or DrakerysRulings()
    max_dice = whole_number("max dice", max_dice, MORALE_DICE, MAX_DICE)
    thresholds = tuple(thresholds)
    if not thresholds:
        raise RulesError("a morale table needs at least one threshold")
    for t in thresholds:
        ActionRoll(max_dice, t)  # validates the threshold
    dice = tuple(range(MORALE_DICE, max_dice + 1))
    successes, outcomes = {}, {}
    for t, by_dice in zip(thresholds, _exact.success_pmfs_table(max_dice, thresholds, rulings,
                                                                swashbuckler=charisma), strict=True):
        for n in dice:
            successes[n, t] = by_dice[n]
            outcomes[n, t] = morale_outcomes(by_dice[n], berserker)
    return MoraleTable(dice, thresholds, bool(berserker), bool(charisma), rulings,
                       MappingProxyType(successes), MappingProxyType(outcomes))


# --- spell --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SpellTable:
    """The Spell roll by Wizard level, opposition and Mana spent reinforcing, Vortexes only.

    ``cells[level, opposition, mana]`` is the exact :class:`rulesets.drakerys.magic.SpellDistribution` of
    the cast behind the cell (see :func:`spell_table`); a missing key is a cast the rules do not allow.
    """

    levels: tuple[int, ...]
    oppositions: tuple[int, ...]
    cost: int
    tiers: tuple[int, ...]
    rulings: DrakerysRulings
    cells: MappingProxyType

    def manas(self, level: int) -> tuple[int, ...]:
        """The Mana rows a level has: 0 up to what its Vortexes leave after the cost."""
        return tuple(sorted({m for (lv, _, m) in self.cells if lv == level}))


def fewest_vortexes(mana: int, cost: int) -> int:
    """The fewest Vortexes (3 Mana each) that pay ``cost`` and ``mana`` of reinforcement (at least one)."""
    return max(1, math.ceil((cost + mana) / magic.VORTEX_MANA))


def spell_table(levels=range(1, magic.MAX_WIZARD_LEVEL + 1), oppositions=range(0, SPELL_MAX_OPPOSITION + 1),
                rulings: DrakerysRulings | None = None, *, cost: int = SPELL_COST,
                max_mana: int | None = None, tiers: tuple[int, ...] = magic.MIRAGE_TIERS) -> SpellTable:
    """Exact Spell rolls (:func:`rulesets.drakerys.magic.spell_distribution`) for each Wizard level, total
    opposition and Mana spent reinforcing that Vortexes can supply.

    The cast of a cell names v = :func:`fewest_vortexes` Vortexes, its furthest Source in the
    (opposition - v + 1)-th 10 cm share (0: at the Wizard); the cell exists when v <= level and
    v - 1 <= opposition. ``max_mana`` caps the Mana rows (default: all a level-5 Wizard's Vortexes allow).
    """
    rulings = rulings or DrakerysRulings()
    levels = tuple(sorted({whole_number("level", lv, 1, magic.MAX_WIZARD_LEVEL) for lv in levels}))
    oppositions = tuple(sorted({whole_number("opposition", o, 0, 100) for o in oppositions}))
    if not levels or not oppositions:
        raise RulesError("a spell table needs at least one level and one opposition")
    most = magic.VORTEX_MANA * magic.MAX_WIZARD_LEVEL
    cost = whole_number("cost", cost, 0, most)
    top = most - cost if max_mana is None else whole_number("max mana", max_mana, 0, most)
    cells = {}
    for level in levels:
        for opposition in oppositions:
            for mana in range(top + 1):
                v = fewest_vortexes(mana, cost)
                if v > level or v - 1 > opposition:
                    continue
                cast = magic.SpellCast(level, 10.0 * (opposition - v + 1), vortexes=v, mana=mana, cost=cost,
                                       tiers=tiers)
                cells[level, opposition, mana] = magic.spell_distribution(cast, rulings)
    if not cells:
        raise RulesError(f"no Wizard of level {', '.join(map(str, levels))} can pay a cost of {cost} Mana "
                         f"from Vortexes within opposition {', '.join(map(str, oppositions))}")
    return SpellTable(levels, oppositions, cost, tuple(tiers), rulings, MappingProxyType(cells))


# --- invocation ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class InvocationTable:
    """The invocation roll from a Vortex with 0..max extra dice, and from a Maelstrom with its element
    table."""

    vortex: magic.InvocationDistribution
    maelstrom: magic.InvocationDistribution
    rulings: DrakerysRulings


def invocation_table(max_extra: int = INVOCATION_MAX_EXTRA,
                     rulings: DrakerysRulings | None = None) -> InvocationTable:
    """Exact invocation odds (0..max_extra extra dice from a Vortex) and the Maelstrom element table."""
    vortex = magic.invocation_distribution(magic.InvocationRoll(max_extra, "vortex"))
    maelstrom = magic.invocation_distribution(magic.InvocationRoll(0, "maelstrom"))
    return InvocationTable(vortex, maelstrom, rulings or DrakerysRulings())


# --- weapons ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WeaponsTable:
    """The ranged weapons of a catalog, the units carrying each, and the data quirks about them.

    Attributes:
        weapons: (catalog key, weapon), catalog order.
        carried_by: weapon key -> "Name (Faction)" of the units whose Shooter skill names it.
        quirks: the catalog's quirks about weapons (as "Unit: quirk" when a unit sheet prints it), then
            :data:`WEAPON_TABLE_QUIRKS`.
        catalog: the catalog's source and its files (name, sha256).
    """

    weapons: tuple[tuple[str, Weapon], ...]
    carried_by: MappingProxyType
    quirks: tuple[str, ...]
    catalog_source: str
    catalog_files: tuple[tuple[str, str], ...]


def printed_strength(weapon: Weapon) -> int | str:
    """A weapon's Strength as the table prints it: a number, or "Strength of the Warrior"."""
    return WARRIOR_STRENGTH_PRINTED if weapon.strength is None else weapon.strength


def _is_weapon_quirk(quirk: str, weapon: Weapon) -> bool:
    """The catalog lists a weapon's quirks on each unit carrying it as "Weapon: ..."; a unit's own quirk
    about its weapon table (the Rockthrowers' French table) names the weapon table."""
    return quirk.startswith(f"{weapon.name}: ") or "weapon table" in quirk.lower()


def weapons_table(catalog: Catalog) -> WeaponsTable:
    """The Ranged Weapons table of ``catalog``."""
    carried: dict[str, list[str]] = {key: [] for key in catalog.weapons}
    quirks: list[str] = []
    for unit in catalog.units.values():
        if unit.weapon is None:
            continue
        weapon = catalog.weapons[unit.weapon]
        carried[unit.weapon].append(f"{unit.name} ({unit.faction})")
        for q in unit.quirks:
            if _is_weapon_quirk(q, weapon):
                quirks.append(q if q.startswith(f"{weapon.name}: ") else f"{unit.name}: {q}")
    return WeaponsTable(tuple(catalog.weapons.items()),
                        MappingProxyType({k: tuple(v) for k, v in carried.items()}),
                        (*dict.fromkeys(quirks), *WEAPON_TABLE_QUIRKS), catalog.source, tuple(catalog.files))


# --- the standard tables ------------------------------------------------------------------------------------

def _action(rulings: DrakerysRulings):
    from rulesets.drakerys.rolls import action_table

    return action_table(rulings=rulings)


def _weapons(rulings: DrakerysRulings) -> WeaponsTable:
    from rulesets.drakerys import catalog

    return weapons_table(catalog.load())


def standard_tables() -> dict[str, StandardTable]:
    """Every standard table of Drakerys, by name."""
    return {
        "action": StandardTable("action", "The Action Table: P(at least k successes) by dice and threshold",
                                _action),
        "morale": StandardTable("morale", "Morale roll: P(scatter, stress, doubt, steady) by dice and "
                                          "threshold", lambda rulings: morale_table(rulings=rulings)),
        "spell": StandardTable("spell", "Spell roll: P(each effect tier) by Wizard level, opposition and "
                                        "Mana", lambda rulings: spell_table(rulings=rulings)),
        "invocation": StandardTable("invocation", "Elemental invocation: P(success) by extra dice, and the "
                                                  "Maelstrom element table",
                                    lambda rulings: invocation_table(rulings=rulings)),
        "weapons": StandardTable("weapons", "Ranged weapons", _weapons),
    }
