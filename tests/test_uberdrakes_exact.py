"""UberDrakes' exact rolloffs, Furnace, Blood points and Victory Point prices: the rulebook's numbers
(RULES.md §4 test cases), hand arithmetic, and icepool for the rolloff."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from rulesets.base import RulesError
from rulesets.uberdrakes.exact import (
    Combatant,
    Side,
    blood_points,
    combat_sides,
    dice_total_pmf,
    mean_of,
    p_furnace,
    rolloff,
    victory_point_prices,
)
from rulesets.uberdrakes.rules import UberDrakesRulings

R = UberDrakesRulings()


def exactly(x: float, want: F) -> bool:
    return abs(x - float(want)) < 1e-14


@pytest.mark.parametrize(("a", "b", "want"), [
    ((0, 0), (0, 0), F(721, 1296)),
    ((1, 0), (0, 0), F(1877, 2592)),
    ((0, 2), (3, 0), F(121667, 279936)),
    ((0, 0), (0, 4), F(103, 648)),
])
def test_the_rulebooks_rolloffs(a, b, want):
    assert exactly(rolloff(Side(*a), Side(*b)).p_win, want)


def test_two_dice_by_hand_and_the_mean_of_the_best_two_of_three():
    two = dice_total_pmf(0)
    assert np.allclose(two[2:], np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36, atol=1e-15)
    assert exactly(mean_of(Side(1, 0).total_pmf()), F(203, 24))
    # a tie of two plain rolls: sum of squares of the 2d6 PMF, 146/1296; the initiator's win is half the
    # rest plus the tie
    r = rolloff(Side(), Side())
    assert exactly(r.p_tie, F(146, 1296))
    low, margin = r.margin
    support = np.arange(low, low + margin.size)[margin > 0]
    assert (support.min(), support.max()) == (-10, 10) and exactly(margin.sum(), F(1))


def _brute_force(rage_a: int, bonus_a: int, rage_b: int, bonus_b: int) -> F:
    """Every roll of every die, exactly: the highest two of each side, the initiator winning ties."""
    wins = total = 0
    for a in itertools.product(range(1, 7), repeat=2 + rage_a):
        ta = sum(sorted(a)[-2:]) + bonus_a
        for b in itertools.product(range(1, 7), repeat=2 + rage_b):
            total += 1
            wins += ta >= sum(sorted(b)[-2:]) + bonus_b
    return F(wins, total)


@pytest.mark.parametrize(("a", "b"), [((0, 1), (1, 0)), ((2, -1), (0, 3)), ((1, 2), (2, 2))])
def test_rolloffs_against_every_roll(a, b):
    assert exactly(rolloff(Side(*a), Side(*b)).p_win, _brute_force(*a, *b))


def test_rolloffs_against_icepool():
    icepool = pytest.importorskip("icepool")
    for ra, ba, rb, bb in itertools.product(range(4), (-2, 0, 3), range(3), (0, 4)):
        ice_a = icepool.d6.pool(2 + ra).highest(2).sum() + ba
        ice_b = icepool.d6.pool(2 + rb).highest(2).sum() + bb
        want = (ice_a - ice_b).map(lambda m: m >= 0).probability(True)
        assert rolloff(Side(ra, ba), Side(rb, bb)).p_win == pytest.approx(float(want), abs=1e-12)


def test_furnace():
    for magic, want in zip(range(8, 13), (F(7, 12), F(13, 18), F(5, 6), F(11, 12), F(35, 36)), strict=True):
        assert exactly(p_furnace(magic), want)
    with pytest.raises(RulesError, match="Furnace Magic 7"):
        p_furnace(7)


def test_blood_points_and_victory_point_prices():
    assert blood_points(9, 7) == (7, 3)
    assert blood_points(8, 8) == (8, 4)
    assert blood_points(3, 12) == (1, 3)
    assert victory_point_prices(4) == [20, 25, 30, 35]
    assert victory_point_prices(2, R, bought_before=2) == [30, 35]
    per_exchange = UberDrakesRulings(vp_escalation="per-exchange")
    assert victory_point_prices(2, per_exchange, bought_before=2) == [20, 25]


def test_bonuses_built_from_their_sources():
    a, b, notes = combat_sides(Combatant(rage=1, elemental=2, supercharge=True, camouflage=True),
                               Combatant(elemental=3, fatigued=True, mountain=2), R)
    assert a == Side(1, 2 * 2 + 3) and b == Side(0, 2)
    assert "Supercharge" in notes[0][1] and "void" in notes[1][1]
    # UD-camouflage=2, and a Supercharge voids the bonuses against its caster
    a, b, _ = combat_sides(Combatant(camouflage=True, elemental=1), Combatant(elemental=5, supercharge=True),
                           UberDrakesRulings(camouflage=2))
    assert a == Side(0, 2) and b == Side(0, 10)
    # UD-fatigue-bonus=both: one fatigued side voids both sides' elemental bonuses
    a, b, _ = combat_sides(Combatant(elemental=2, fatigued=True), Combatant(elemental=3),
                           UberDrakesRulings(fatigue_bonus="both"))
    assert a == Side(0, 0) and b == Side(0, 0)
    a, b, _ = combat_sides(Combatant(elemental=2, fatigued=True), Combatant(elemental=3), R)
    assert a == Side(0, 0) and b == Side(0, 3)
    # Rage Potions are temporary Rage; Sandstorm +2
    a, _, _ = combat_sides(Combatant(rage=1, rage_potions=2, sandstorm=True), Combatant(), R)
    assert a == Side(3, 2)
    with pytest.raises(RulesError, match="Camouflage is the initiator's only"):
        combat_sides(Combatant(), Combatant(camouflage=True), R)
    with pytest.raises(RulesError, match="Mountain bonus 5"):
        Combatant(mountain=5)


def test_the_rolloff_table_in_one_piece_equals_each_rolloff():
    """win_table (the whole rolloff table at once) against rolloff() cell by cell, Rage 0..5 and bonus
    differences -9..+9, and the closed-form best-two PMF against simcore's keep_highest_pmf."""
    from rulesets.uberdrakes.exact import win_table
    from simcore.exact import keep_highest_pmf

    for rage in range(8):
        assert np.allclose(dice_total_pmf(rage), keep_highest_pmf(2 + rage, 6, 2), atol=1e-15)
    grid = win_table(list(range(6)), list(range(6)), list(range(-9, 10)))
    for ri in range(6):
        for rd in range(6):
            for k, d in enumerate(range(-9, 10)):
                assert grid[ri, rd, k] == pytest.approx(rolloff(Side(ri, d), Side(rd, 0)).p_win, abs=1e-14)
