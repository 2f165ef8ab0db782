"""The compiled counterattack game (rulesets.uberdrakes.kernels_exact) against the Python recursion it
twins (rulesets.uberdrakes.combat._Solver): the same outcomes to the last bit, under every ruling the kernel
reads, in combats that use every resource."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rulesets.uberdrakes.combat import Combat, Kit, _Game
from rulesets.uberdrakes.exact import Side
from rulesets.uberdrakes.rules import UberDrakesRulings

OPTIMAL = UberDrakesRulings(policy="optimal", objective="value")

COMBATS = {
    "plate against plate": Combat(initiator_kit=Kit(magic=6, plate_armor=True),
                                  defender_kit=Kit(magic=8, plate_armor=True)),
    "windblast against fire": Combat(initiator_kit=Kit(magic=8, windblast=True),
                                     defender_kit=Kit(magic=8, fire_breath=True, lances=1)),
    "acid against items": Combat(initiator_kit=Kit(magic=4, acid_rain=True, lances=1),
                                 defender_kit=Kit(lances=1, shields=1, potions=1, lance_price=3.0,
                                                  shield_price=2.0)),
    "ranged against a shield": Combat(initiator_kit=Kit(lances=1, magic=5, fire_breath=True),
                                      defender_kit=Kit(shields=2, magic=3, plate_armor=True), ranged=True),
    "a Lance priced as Plate Armor": Combat(initiator_kit=Kit(shields=1, magic=4, fire_breath=True),
                                            defender_kit=Kit(lances=1, lance_price=3.0, magic=5,
                                                             plate_armor=True, fire_breath=True)),
    "roosted": Combat(initiator_kit=Kit(lances=2), defender_kit=Kit(magic=4, fire_breath=True, shields=1),
                      defender=Side(0, 2), roosted=True),
}

RULINGS = {
    "value": OPTIMAL,
    "value, damage and a win priced": dataclasses.replace(OPTIMAL, damage_bp=5, win_bp=3),
    "value=win": dataclasses.replace(OPTIMAL, value="win"),
    "win": dataclasses.replace(OPTIMAL, objective="win"),
    "win-then-cost": dataclasses.replace(OPTIMAL, objective="win-then-cost"),
    "blood-points": dataclasses.replace(OPTIMAL, objective="blood-points"),
    "net-value, rolloff totals": dataclasses.replace(OPTIMAL, objective="net-value", bp_total="rolloff"),
    "overshoot, strict ties": dataclasses.replace(OPTIMAL, counter_sequencing="overshoot",
                                                  counter_ties="strict"),
    "no reply spells, lance barred, acid on spells": dataclasses.replace(
        OPTIMAL, reply_spells=False, shield_ranged="bars-lance", acid_scope="items-and-spells"),
    "defender first": dataclasses.replace(OPTIMAL, precombat_order="defender-first"),
    "greedy": UberDrakesRulings(),
    "greedy, overshoot, strict ties, acid on spells": UberDrakesRulings(
        counter_sequencing="overshoot", counter_ties="strict", acid_scope="items-and-spells"),
    "greedy, no reply spells, lance barred": UberDrakesRulings(reply_spells=False,
                                                               shield_ranged="bars-lance"),
}

SITUATIONS = ((Side(0, 0), Side(0, 2)), (Side(1, 0), Side(2, 0)), (Side(2, 2), Side(0, 0)))


@pytest.mark.parametrize("ruling", RULINGS)
@pytest.mark.parametrize("name", COMBATS)
def test_the_compiled_game_is_the_python_recursion_to_the_last_bit(name, ruling):
    combat, rulings = COMBATS[name], RULINGS[ruling]
    compiled, python = _Game(combat, rulings), _Game(combat, rulings, compiled=False)
    for sides in SITUATIONS:
        assert compiled.best(sides) == python.best(sides)  # Outcome: its floats compared exactly
    assert compiled.solvers.keys() == python.solvers.keys()
    for key, solver in compiled.solvers.items():
        assert solver.compiled and not solver._memo  # the kernel solved it, not the Python recursion
        twin = python.solvers[key]
        assert solver._tables.keys() == twin._tables.keys()
        for bonuses, table in solver._tables.items():
            np.testing.assert_array_equal(table, twin._tables[bonuses])



def test_the_widest_combat_fits_the_keys():
    """The largest bonus gap and every resource a kit may hold (10 Lances, 10 Hide Shields, 30 Magic with
    Fire Breath and Plate Armor): each side's reach, with both totals, stays within the keys' +-511."""
    from rulesets.uberdrakes.kernels_exact import KEY_OFFSET
    from rulesets.uberdrakes.rules import KEPT, MAX_BONUS, SIDES

    widest = Kit(lances=10, shields=10, magic=30, fire_breath=True, plate_armor=True)
    reach = SIDES * (widest.lances + widest.shields + 1) + widest.magic - 1
    high, low = KEPT * SIDES + MAX_BONUS + reach, KEPT - MAX_BONUS
    assert high - low < KEY_OFFSET and high < KEY_OFFSET and low > -KEY_OFFSET
