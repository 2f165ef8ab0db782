"""Warbound's exact rolls (rulesets.warbound.exact; seed 004, "Game rules" 359, "Shoot" 405-494, "Fight"
496-509, Death and Panic 511-527, Formations 529-575): RULES.md §3's reference numbers, the rulebook's
examples, the errors, and icepool asked for the same distributions with the dice rolled as natural faces
(Aim's lowest die discarded by sorting, not by the three-kind shortcut of the module)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from icepool import Die

from rulesets.base import RulesError
from rulesets.warbound.exact import (
    HitRoll,
    Target,
    armor_pmf,
    attack_outcome,
    attack_pmf,
    die_kinds,
    expected_hits,
    hit_stress_pmf,
    hits_pmf,
    p_success,
)
from rulesets.warbound.rules import FACES, WarboundRulings

R = WarboundRulings()
KEPT = WarboundRulings(aim_stress="kept")
N1M = WarboundRulings(formation_bonus="natural-1-modified")
F = Fraction


def exactly(x: float, fraction: Fraction) -> bool:
    """``x`` is ``fraction`` to rounding: the nearest fraction of denominator <= 10**6 and within 1e-12."""
    return Fraction(float(x)).limit_denominator(10**6) == fraction and abs(float(x) - float(fraction)) < 1e-12


def p_hit(roll: HitRoll, rulings: WarboundRulings = R) -> float:
    """P(at least one hit) of a roll."""
    return float(hits_pmf(roll, rulings)[1:].sum())


def mean_stress(roll: HitRoll, rulings: WarboundRulings) -> float:
    s = hit_stress_pmf(roll, rulings).sum(axis=0)
    return float(np.arange(s.size) @ s)


# --- RULES.md §3's test cases ---------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "plain", "aim", "plus", "aim_plus"), [
    (6, F(1, 2), F(3, 4), F(2, 3), F(8, 9)),
    (7, F(5, 12), F(95, 144), F(1, 2), F(3, 4)),
    (10, F(1, 6), F(11, 36), F(1, 4), F(7, 16)),
    (11, F(1, 6), F(11, 36), F(1, 6), F(11, 36)),  # 11+ and 11+ with +1: a natural [10] only
])
def test_p_hit_one_die_plain_aim_plus_one(value, plain, aim, plus, aim_plus):
    assert exactly(p_success(value), plain)
    assert exactly(p_hit(HitRoll(1, value)), plain)
    assert exactly(p_hit(HitRoll(1, value, aim=True)), aim)
    assert exactly(p_success(value, modifier=1), plus)
    assert exactly(p_hit(HitRoll(1, value, modifier=1)), plus)
    assert exactly(p_hit(HitRoll(1, value, aim=True, modifier=1)), aim_plus)
    # one die kept: E[hits] = P(hit)
    assert exactly(expected_hits(HitRoll(1, value, aim=True, modifier=1), R), aim_plus)


def test_one_aimed_die_gives_11_6_or_143_144_stress():
    """All-rolled: 2 dice x 11/12. Kept: the kept die is a natural [1] only if both are: 1 - 1/144."""
    roll = HitRoll(1, 7, aim=True)
    assert exactly(mean_stress(roll, R), F(11, 6))
    assert exactly(mean_stress(roll, KEPT), F(143, 144))
    # without Aim both readings give 11/12 per die
    assert exactly(mean_stress(HitRoll(3, 7), R), F(11, 4))
    assert exactly(mean_stress(HitRoll(3, 7), KEPT), F(11, 4))


def test_stress_example_three_dice_at_7():
    """Line 467: 1, 4, 8 at 7+ -> 1 hit, 2 Stress; the joint cell is 3!/(1!1!1!) x 1/12 x 6/12 x 5/12
    (a natural [1], a miss that is not one, a hit)."""
    joint = hit_stress_pmf(HitRoll(3, 7), R)
    assert joint.shape == (4, 4)
    # P(1 hit, 2 Stress) = P(one [1], one other miss, one hit) = 6 x 1/12 x 6/12 x 5/12
    assert exactly(joint[1, 2], F(6 * 1 * 6 * 5, 12**3))
    assert exactly(joint.sum(), F(1))
    assert joint[2, 1] == 0 and joint[3, 2] == 0  # a hit always gives Stress


def test_armor_example_two_wounds_one_break():
    """Line 480: 3 damage, one 6+ armor point: any save (1 - 1/2^3) gives 2 Wounds and 1 Break."""
    table = armor_pmf(3, 6, 1)
    assert table.shape == (4, 2)
    assert exactly(table[2, 1], F(7, 8))
    assert exactly(table[3, 0], F(1, 8))
    # two points: 0, 1, 2+ saves of 3 at 1/2 -> 3, 2, 1 wounds
    two = armor_pmf(3, 6, 2)
    assert exactly(two[3, 0], F(1, 8)) and exactly(two[2, 1], F(3, 8)) and exactly(two[1, 2], F(1, 2))
    # the same through a whole attack: 3 dice that always hit (12+: natural [10] only is 1/6 each)
    out = attack_pmf(HitRoll(3, 12), Target(armor_points=1, armor_value=6, panicked=True), R)
    assert exactly(out[2, 1, 0], F(1, 216) * F(7, 8))
    # no armor points left: every damage is a Wound
    assert armor_pmf(2, 6, 0)[2, 0] == 1.0


def test_natural_ten_always_succeeds_and_natural_one_always_fails():
    assert exactly(p_success(12), F(1, 6))  # only the two [10] faces
    assert exactly(p_success(12, modifier=-9), F(1, 6))
    assert exactly(p_success(1), F(11, 12))  # everything but the natural [1]
    assert exactly(p_success(2, modifier=11), F(11, 12))
    assert exactly(p_success(1, 0, natural_one_modified=True), F(1))
    assert exactly(p_success(3, 2, natural_one_modified=True), F(1))
    assert exactly(p_success(3, 1, natural_one_modified=True), F(11, 12))
    assert die_kinds(7) == pytest.approx((1 / 12, 6 / 12, 5 / 12), abs=1e-15)
    # an armor roll obeys the same rule: 12+ armor saves on a natural [10] only
    assert exactly(armor_pmf(1, 12, 1)[0, 1], F(1, 6))
    assert exactly(armor_pmf(1, 1, 1)[0, 1], F(11, 12))


@pytest.mark.parametrize("value", [2, 6, 7, 10])
def test_formation_is_one_more_die_and_plus_one(value):
    for aim in (False, True):
        formation = HitRoll(2, value, aim=aim, formation=True)
        assert (formation.kept, formation.rolled) == (3, 3 + aim)
        same = HitRoll(3, value, aim=aim, modifier=1)
        for rulings in (R, KEPT):
            np.testing.assert_array_equal(hit_stress_pmf(formation, rulings), hit_stress_pmf(same, rulings))
    assert exactly(p_hit(HitRoll(1, 7, formation=True)), 1 - F(6, 12) ** 2)


# --- death and panic (227, 511, 519) ---------------------------------------------------------------------

def test_death_and_panic_of_two_dice_at_7():
    """Health 2 with 1 Wound, morale 3 with 1 Stress: death = any hit = 1 - (7/12)^2; panic = no natural
    [1] = (11/12)^2; panic and alive = two misses that are not [1]s = (6/12)^2."""
    o = attack_outcome(HitRoll(2, 7), Target(health=2, wounds=1, morale=3, stress=1), R)
    assert exactly(o.p_death, 1 - F(49, 144))
    assert exactly(o.p_panic, F(121, 144))
    assert exactly(o.p_panic_survives, F(1, 4))
    assert exactly(o.mean("stress"), F(11, 6))
    assert exactly(o.mean("wounds"), F(5, 6))


def test_death_through_armor_and_added_wounds():
    # one die at 7+ through one 6+ armor point, Health 1: hit and a failed save = 5/12 x 1/2
    o = attack_outcome(HitRoll(1, 7), Target(armor_points=1, armor_value=6, health=1), R)
    assert exactly(o.p_death, F(5, 24))
    assert o.p_panic is None and o.p_panic_survives is None  # no morale given
    # a broken armor point is no armor: 5/12
    o = attack_outcome(HitRoll(1, 7), Target(armor_points=1, armor_value=6, broken=1, health=1), R)
    assert exactly(o.p_death, F(5, 12))
    # one Wound token added without armor (474) and 1 Wound already: Health 3 dies on any hit
    o = attack_outcome(HitRoll(1, 12), Target(armor_points=3, armor_value=2, health=3, wounds=1), R,
                       add_wounds=1)
    assert exactly(o.p_death, F(1, 6) * F(1, 12))  # a natural [10], then a natural [1] on the armor die
    assert o.pmf.shape[0] == 3 and o.pmf[0].sum() == 0  # at least the added Wound


def test_a_panicked_target_takes_no_stress_and_does_not_panic_again():
    o = attack_outcome(HitRoll(3, 7), Target(health=5, morale=2, panicked=True), R)
    assert o.pmf.shape[2] == 1
    assert o.p_panic == 0.0 and o.p_panic_survives == 0.0
    # no morale value given: the target still has a Morale pool and takes Stress; Panic is not judged
    o = attack_outcome(HitRoll(3, 7), Target(health=5), R)
    assert o.pmf.shape[2] == 4 and o.p_panic is None
    assert exactly(o.marginal("stress")[3], F(11, 12) ** 3)
    # a morale of 1: any die but a natural [1] panics it
    o = attack_outcome(HitRoll(2, 7), Target(health=9, morale=1), R)
    assert exactly(o.p_panic, 1 - F(1, 144))


@pytest.mark.parametrize(("make", "message"), [
    (lambda: HitRoll(1, 0), "target value 0"),
    (lambda: HitRoll(1, 13), "target value 13"),
    (lambda: HitRoll(0, 7), "dice 0"),
    (lambda: Target(armor_points=1, armor_value=6, broken=2), "Break tokens 2"),
    (lambda: Target(armor_points=1), "armor value"),
    (lambda: Target(armor_points=1, armor_value=13), "armor value 13"),
    (lambda: Target(health=2, wounds=2), "Wound tokens 2"),
    (lambda: Target(morale=2, stress=2), "Stress tokens 2"),
    (lambda: attack_pmf(HitRoll(1, 7), Target(), R, add_wounds=-1), "added Wound tokens -1"),
])
def test_errors_name_the_value(make, message):
    with pytest.raises(RulesError, match=message):
        make()


# --- icepool: the dice rolled as natural faces, Aim by sorting ------------------------------------------

def _hit(face: int, value: int, modifier: int, n1m: bool) -> bool:
    return face == 10 or ((face != 1 or n1m) and face + modifier >= value)


def icepool_hits_stress(kept: int, aim: bool, value: int, modifier: int, all_rolled: bool,
                        n1m: bool = False, stressable: bool = True) -> Die:
    """hits * 100 + stress of ``kept`` dice (+1 with Aim, the lowest natural face discarded)."""
    rolled = Die(list(FACES)).pool(kept + (1 if aim else 0)).expand()  # sorted tuples

    def score(faces: tuple) -> int:
        keep = faces[1:] if aim else faces
        hits = sum(_hit(f, value, modifier, n1m) for f in keep)
        stress = sum(f != 1 for f in (faces if all_rolled else keep)) if stressable else 0
        return 100 * hits + stress

    return rolled.map(score)


def _assert_matches(ours: np.ndarray, die: Die, decode) -> None:
    total = 0.0
    seen = np.zeros(ours.shape, bool)
    for outcome, p in zip(die.outcomes(), die.probabilities(), strict=True):
        index = decode(outcome)
        assert ours[index] == pytest.approx(float(p), abs=1e-12), index
        seen[index] = True
        total += float(p)
    assert total == pytest.approx(1.0, abs=1e-12)
    assert np.all(ours[~seen] == 0)  # nothing where icepool has nothing


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("aim", [False, True])
@pytest.mark.parametrize("aim_stress", ["all-rolled", "kept"])
def test_hit_stress_matches_icepool(dice, aim, aim_stress):
    rulings = WarboundRulings(aim_stress=aim_stress)
    for value, modifier in ((2, 0), (6, 0), (7, 1), (7, -2), (10, 0), (11, 1), (12, 0)):
        ours = hit_stress_pmf(HitRoll(dice, value, aim=aim, modifier=modifier), rulings)
        die = icepool_hits_stress(dice, aim, value, modifier, aim_stress == "all-rolled")
        _assert_matches(ours, die, lambda x: (x // 100, x % 100))


@pytest.mark.parametrize(("dice", "value", "modifier"), [(2, 4, 2), (3, 5, 1), (1, 2, 0), (2, 7, 5)])
def test_natural_one_modified_hits_match_icepool(dice, value, modifier):
    """WB-formation-bonus natural-1-modified: a natural [1] plus the modifier may hit. The hits agree in
    every case."""
    for aim in (False, True):
        ours = hits_pmf(HitRoll(dice, value, aim=aim, modifier=modifier), N1M)
        die = icepool_hits_stress(dice, aim, value, modifier, True, n1m=True).map(lambda x: x // 100)
        _assert_matches(ours, die, lambda x: x)
        if 1 + modifier < value:
            ours = hit_stress_pmf(HitRoll(dice, value, aim=aim, modifier=modifier), N1M)
            die = icepool_hits_stress(dice, aim, value, modifier, True, n1m=True)
            _assert_matches(ours, die, lambda x: (x // 100, x % 100))


def test_a_natural_one_that_hits_gives_no_stress():
    ours = hit_stress_pmf(HitRoll(1, 3, modifier=2), N1M)
    die = icepool_hits_stress(1, False, 3, 2, True, n1m=True)
    _assert_matches(ours, die, lambda x: (x // 100, x % 100))  # icepool: P(1 hit, 0 Stress) = 1/12


def icepool_attack(dice: int, value: int, *, aim: bool = False, modifier: int = 0, all_rolled: bool = True,
                   stressable: bool = True, armor_value: int = 6, available: int = 0,
                   add_wounds: int = 0) -> Die:
    """wounds * 10000 + breaks * 100 + stress of one attack: the hit roll, then one armor die per damage
    while any armor point is unbroken, at most ``available`` saves."""
    armor_die = Die(list(FACES)).map(lambda f: int(f == 10 or (f != 1 and f >= armor_value)))

    def resolve(x: int):
        hits, stress = divmod(x, 100)
        if hits == 0 or available == 0:
            return (hits + add_wounds) * 10000 + stress
        saves = armor_die.pool(hits).sum()
        return saves.map(lambda s: (hits - min(s, available) + add_wounds) * 10000 + min(s, available) * 100
                         + stress)

    return icepool_hits_stress(dice, aim, value, modifier, all_rolled, stressable=stressable).map(resolve)


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize(("value", "aim", "modifier", "armor", "broken", "morale", "add"), [
    (7, False, 0, (1, 6), 0, 20, 0),
    (6, True, 0, (2, 6), 0, 20, 0),
    (7, True, 1, (3, 8), 1, 20, 0),
    (10, False, -2, (2, 5), 0, "panicked", 0),
    (5, True, 0, (4, 10), 2, 20, 1),
    (8, False, 1, (0, None), 0, 20, 2),
])
def test_attack_pmf_matches_icepool(dice, value, aim, modifier, armor, broken, morale, add):
    points, armor_value = armor
    panicked = morale == "panicked"
    target = Target(armor_points=points, armor_value=armor_value, broken=broken,
                    morale=None if panicked else morale, panicked=panicked)
    for aim_stress in ("all-rolled", "kept") if aim else ("all-rolled",):
        rulings = WarboundRulings(aim_stress=aim_stress)
        ours = attack_pmf(HitRoll(dice, value, aim=aim, modifier=modifier), target, rulings, add_wounds=add)
        die = icepool_attack(dice, value, aim=aim, modifier=modifier, all_rolled=aim_stress == "all-rolled",
                             stressable=not panicked, armor_value=armor_value or 12,
                             available=points - broken, add_wounds=add)
        _assert_matches(ours, die, lambda x: (x // 10000, x // 100 % 100, x % 100))


def test_the_tables_closed_forms_equal_the_distributions():
    """The hit and armor tables are computed whole in closed form (hit_summaries, armor_summaries); every
    entry equals the one read off the (icepool-checked) distributions, under both natural-[1] rulings."""
    import numpy as np

    from rulesets.warbound.exact import armor_summaries, hit_summaries

    for rulings in (R, WarboundRulings(formation_bonus="natural-1-modified")):
        for value in range(1, 13):
            for dice in range(1, 5):
                for aim in (False, True):
                    for modifier in (-2, 0, 1, 3):
                        p = hits_pmf(HitRoll(dice, value, aim, modifier=modifier), rulings)
                        any_hit, mean = hit_summaries(dice, value, aim, modifier, rulings)
                        assert any_hit == pytest.approx(1.0 - p[0], abs=1e-14)
                        assert mean == pytest.approx(float(np.arange(p.size) @ p), abs=1e-13)
    for damage in range(1, 13):
        for value in range(1, 13):
            for points in range(0, 5):
                pmf = armor_pmf(damage, value, points)
                wounds, breaks = pmf.sum(axis=1), pmf.sum(axis=0)
                w, b, none = armor_summaries(damage, value, points)
                assert w == pytest.approx(float(np.arange(wounds.size) @ wounds), abs=1e-13)
                assert b == pytest.approx(float(np.arange(breaks.size) @ breaks), abs=1e-13)
                assert none == pytest.approx(wounds[0], abs=1e-14)
