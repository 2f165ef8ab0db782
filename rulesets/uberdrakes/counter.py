"""Names shared by the exact counterattack game (rulesets.uberdrakes.combat) and its declared sequencing
(rulesets.uberdrakes.declared): the resources as moves are reported, the slots of a solved value, and a
resource's price. Both modules import this one, so neither imports the other's caller."""

from __future__ import annotations

#: Resources by name, as moves are reported.
LANCE, SHIELD, FIRE, PLATE = "lance", "shield", "fire-breath", "plate-armor"

# A value is a tuple of expectations from the state onward:
#   0 P(the initiator wins); 1, 2 P(the initiator / defender deals damage); 3, 4 damage instances dealt by
#   each; 5, 6 Magic spent by each; 7, 8 items used; 9, 10 spend (UD-objective's units); 11 E[what the
#   defender adds from here on; 0 unless the initiator wins]; 12 the same for the initiator when the
#   defender wins; 13 P(the initiator wins and the defender adds an odd amount from here on); 14 P(the
#   defender wins and the initiator adds an odd amount from here on).
# Blood points follow by linearity (the loser's final total is its total now plus what it adds, and
# half of it rounded down is (total - [total odd]) / 2; its final total is odd when its total now and what
# it adds differ in parity), so the state needs the difference of the totals, not the totals themselves,
# unless an objective of blood points must see them.
WIN, ADD_D, ADD_I, ODD_D, ODD_I = 0, 11, 12, 13, 14


def price(kit, resource: str, x: int) -> float:
    """What using ``resource`` (Plate Armor with its X) costs a side with ``kit`` (rulesets.uberdrakes
    .combat.Kit), in UD-objective's units."""
    prices = {LANCE: kit.lance_price, SHIELD: kit.shield_price, FIRE: kit.fire_breath_cost, PLATE: x + 1}
    return prices[resource]
