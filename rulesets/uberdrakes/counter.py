"""Names shared by the exact counterattack game (rulesets.uberdrakes.combat), its declared sequencing
(rulesets.uberdrakes.declared) and the simulated combat (rulesets.uberdrakes.kernels): the resources as
moves are reported, a side's state, the slots of a solved value, the damage rule's numbers and a
resource's price. Those modules import this one, so none imports its own caller. Imports nothing heavy."""

from __future__ import annotations

from enum import IntEnum

#: Resources by name, as moves are reported.
LANCE, SHIELD, FIRE, PLATE = "lance", "shield", "fire-breath", "plate-armor"



class SideState(IntEnum):
    """A side during the counterattack: a tuple in the exact program (combat._side_state), a row of the
    kernel's int64[2, N_SIDE_STATE] (kernels.py). What it spent is its kit less what remains."""

    LANCES = 0  # Dragon Lances left
    SHIELDS = 1  # Hide Shields left
    MAGIC = 2  # Magic left
    FIRE = 3  # Fire Breath unused (once a combat)
    PLATE = 4  # Plate Armor unused (once a combat)
    SHIELD_USED = 5  # it used a Hide Shield: it deals no damage when it wins (line 327)
    PLATE_USED = 6  # it used Plate Armor: the same (lines 604-606)
    ACID = 7  # Acid Rain waits for its next item (line 440)


N_SIDE_STATE = len(SideState)

#: Damage, in instances (lines 325-331): the winner deals one ("decides what sort of Damage to inflict",
#: 329); "The loser takes two instances of Damage if they conceded during the Rolloff phase without rolling
#: dice" (331); Windblast: "If you win the battle, you deal double damage" (522).
WIN_DAMAGE = 1
UNROLLED_CONCESSION_DAMAGE = 2
WINDBLAST_FACTOR = 2
#: Plate Armor costs "X + 1" Magic (line 602) for X >= 1: it needs 2 Magic at the least.
PLATE_ARMOR_MIN_MAGIC = 2
#: Probabilities and costs closer than this are a tie between moves.
TIE = 1e-12



class Value(IntEnum):
    """The slots of a value: a tuple of expectations from a state of the counterattack onward (the exact
    program's, rulesets.uberdrakes.combat); a per-side pair is the initiator's slot, then the defender's.

    Blood points follow by linearity (the loser's final total is its total now plus what it adds, and half
    of it rounded down is (total - [total odd]) / 2; its final total is odd when its total now and what it
    adds differ in parity), so the state needs the difference of the totals, not the totals themselves,
    unless an objective of blood points must see them."""

    WIN = 0  # P(the initiator wins)
    DAMAGE_I = 1  # P(the initiator deals damage)
    DAMAGE_D = 2  # P(the defender deals damage)
    DEALT_I = 3  # damage instances the initiator deals
    DEALT_D = 4
    MAGIC_I = 5  # Magic the initiator spends
    MAGIC_D = 6
    ITEMS_I = 7  # items the initiator uses
    ITEMS_D = 8
    SPEND_I = 9  # what the initiator spends, in UD-objective's units
    SPEND_D = 10
    ADD_D = 11  # E[what the defender adds from here on; 0 unless the initiator wins]
    ADD_I = 12  # the same for the initiator when the defender wins
    ODD_D = 13  # P(the initiator wins and the defender adds an odd amount from here on)
    ODD_I = 14  # P(the defender wins and the initiator adds an odd amount from here on)


#: A total (a value once the rolloff totals are known) keeps a value's slots before ADD_D, then each side's
#: expected blood points (Total).
N_SHARED = int(Value.ADD_D)


class Total(IntEnum):
    """The slots a total adds after the first N_SHARED of a value."""

    BP_I = N_SHARED  # the initiator's expected blood points
    BP_D = N_SHARED + 1


# Plain-int copies of the slots the exact program's inner loops read (rulesets.uberdrakes.combat, .declared):
# reading an IntEnum member costs an attribute lookup several times the tuple index it feeds (CPython).
WIN, ADD_D, ADD_I, ODD_D, ODD_I = (int(v) for v in (Value.WIN, Value.ADD_D, Value.ADD_I, Value.ODD_D,
                                                     Value.ODD_I))
DEALT_I, DEALT_D, SPEND_I, BP_I = (int(v) for v in (Value.DEALT_I, Value.DEALT_D, Value.SPEND_I, Total.BP_I))
LANCES_AT, SHIELDS_AT, MAGIC_AT = (int(f) for f in (SideState.LANCES, SideState.SHIELDS, SideState.MAGIC))
SHIELD_USED_AT, PLATE_USED_AT, ACID_AT = (int(f) for f in (SideState.SHIELD_USED, SideState.PLATE_USED,
                                                           SideState.ACID))


def price(kit, resource: str, x: int) -> float:
    """What using ``resource`` (Plate Armor with its X) costs a side with ``kit`` (rulesets.uberdrakes
    .combat.Kit), in UD-objective's units."""
    prices = {LANCE: kit.lance_price, SHIELD: kit.shield_price, FIRE: kit.fire_breath_cost, PLATE: x + 1}
    return prices[resource]
