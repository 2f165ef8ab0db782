"""Tests of the naive twins of Drakerys Fights, Shootings and engagements (tests/naive_fight.py).

Every expected number is derived by hand from the rulebook (seed 002) in the comment beside it. Two
building blocks recur:

* One d10 at threshold t with chained criticals gives H successes with P(H=0) = (t-1)/10 and
  P(H=k) = q * 0.1^(k-1) for k >= 1, where q = (11-t)/10 - 0.1 + 0.1 * (t-1)/10 (the first die succeeds
  without a 10, or shows 10 and its extra die starts the same chain again). t=5: q=0.54; t=6: q=0.45;
  t=7: q=0.36.
* Injury dice at threshold 2 against Parry (a 10 is a plain success): k dice all fail with 0.1^k, so a
  1-warrior unit of Health 1 dies with P = sum_k P(H=k) (1 - 0.1^k) = q (10/9 - 10/99) = q * 100/99.
  Against Expert Parry a die fails on 1 and 10: P = q (10/9 - 0.2/0.98).

Units are made up here (not the packaged catalog). Trial counts are small; tolerances are 5 standard
errors of the estimate, with fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive_fight import (
    Player,
    active_player,
    advantage,
    attack_dice,
    headquarters_phases,
    injury_crits,
    morale_dice,
    morale_outcome,
    naive_engagement,
    naive_fight,
    naive_shooting,
    safeguard,
    set_fight_characteristics,
    shooting_dice,
    shooting_opposition,
    started_ten_cm_shares,
    unit_in_fight,
    withdraw_casualties,
)

from rulesets.drakerys.fight import Combatant, FightOutcome
from rulesets.drakerys.units import Profile, Unit, Weapon

BOW = Weapon("Bow", 50, 3, 3, "", False, False, "seed 002, ranged weapons table")
ROCKS = Weapon("Rocks", 30, None, 4, "", False, False, "seed 002, ranged weapons table")
HEAVY_CROSSBOW = Weapon("Heavy crossbow", 100, 4, 2, "Only one Shot per Activation. ...", True, True,
                        "seed 002, ranged weapons table")
STRONG_BOW = Weapon("Strong bow", 50, 6, 3, "", False, False, "made up")
STRONG_CROSSBOW = Weapon("Strong crossbow", 100, 4, 2, "", True, False, "made up (no parry rule)")


def make_unit(name: str = "Test", *, skills: tuple[str, ...] = (), types: tuple[str, ...] = ("Infantry",),
              actions: int = 1, power: int = 1, health: int = 1, initiative: int = 3, combat: int = 3,
              shooting: int | None = None, strength: int = 3, resistance: int = 3, willpower: int = 3,
              march: int = 10, charge: int = 15) -> Unit:
    profile = Profile(actions, power, health, initiative, combat, shooting, strength, resistance, willpower,
                      march, charge)
    return Unit(key=name.lower(), name=name, faction="Test", types=types, skills=tuple(skills),
                skill_values={}, skills_as_printed=tuple(skills), weapon=None, profile=profile, sheet=None,
                sizes=(), quirks=(), source="made up for tests")


def close(estimate: float, expected: float, n: int) -> bool:
    """|estimate - expected| within 5 standard errors of a proportion over n trials."""
    se = math.sqrt(max(expected * (1 - expected), 1e-12) / n)
    return abs(estimate - expected) <= 5 * se


def fights(seed: int, n: int, a: Combatant, b: Combatant, **kw) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [naive_fight(rng, a, b, **kw) for _ in range(n)]


def share(results: list[dict], test) -> float:
    return sum(1 for r in results if test(r)) / len(results)


#: Cannot be injured: Expert Parry, and Strength 1 vs Resistance 10 puts every injury roll at 10+, where
#: only a 10 succeeds and Expert Parry makes it a failure. Willpower 10 with 50 Authority units in range
#: makes a Morale roll at threshold 2 with >= 52 dice: fewer than 2 successes has odds below 1e-48.
WALL = make_unit("Wall", skills=("expert_parry",), strength=1, resistance=10, willpower=10)


# ---------------------------------------------------------------------------------------------------
# steps, one by one
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("alive", "tokens", "injuries", "health", "expected"), [
    (5, 0, 3, 1, (2, 0)),  # Health 1: one warrior per injury
    (5, 1, 3, 2, (3, 0)),  # 1 + 3 = 4 tokens, Health 2: two warriors, no token left
    (5, 0, 4, 3, (4, 1)),  # 4 tokens, Health 3: one warrior, one token stays on the unit
    (2, 0, 9, 1, (0, 0)),  # more injuries than warriors: the unit is destroyed, no token left
    (3, 2, 0, 3, (3, 2)),  # nothing received
])
def test_withdrawal_of_casualties(alive, tokens, injuries, health, expected):
    assert withdraw_casualties(alive, tokens, injuries, health) == expected


@pytest.mark.parametrize(("alive", "discipline", "authority", "dice"), [
    (1, False, 0, 2), (4, False, 0, 2), (5, False, 0, 3), (9, False, 0, 3), (10, False, 0, 4),
    (14, True, 0, 5), (15, True, 2, 8), (20, False, 1, 7),
])
def test_morale_dice_two_plus_complete_fives_discipline_authority(alive, discipline, authority, dice):
    assert morale_dice(alive, discipline, authority) == dice


def test_morale_outcomes():
    assert [morale_outcome(s) for s in range(6)] == ["scatter", "stress", "doubt", "steady", "steady",
                                                     "steady"]


@pytest.mark.parametrize(("kw", "value"), [
    (dict(charged=True, my_injuries=3, enemy_injuries=2, my_warriors=5, enemy_warriors=4, my_stress=0,
          enemy_stress=1), 4),
    (dict(charged=False, my_injuries=2, enemy_injuries=2, my_warriors=4, enemy_warriors=4, my_stress=1,
          enemy_stress=1), 0),  # ties give nothing: "more", "higher", "less" are strict
    (dict(charged=True, my_injuries=0, enemy_injuries=5, my_warriors=1, enemy_warriors=9, my_stress=3,
          enemy_stress=0), 1),
    (dict(charged=False, my_injuries=1, enemy_injuries=0, my_warriors=2, enemy_warriors=3, my_stress=0,
          enemy_stress=2), 2),
])
def test_advantage_value(kw, value):
    assert advantage(**kw) == value


@pytest.mark.parametrize(("parry", "expert", "ignores", "mode"), [
    (False, False, False, "normal"), (True, False, False, "parry"), (False, True, False, "expert-parry"),
    (True, True, False, "expert-parry"), (True, False, True, "normal"), (False, True, True, "normal"),
])
def test_injury_crits(parry, expert, ignores, mode):
    assert injury_crits(parry, expert, ignores) == mode


def test_attack_dice_frontage_and_supporting_warriors():
    unit = unit_in_fight("a", Combatant(make_unit(power=3), 10))
    assert attack_dice(unit, "all") == 30
    assert attack_dice(unit, 2) == 2 * 3 + 8 * 1  # two in contact at full Power, eight supporting at 1
    assert attack_dice(unit, 20) == 30
    cage = unit_in_fight("b", Combatant(make_unit("Cage", types=("Object",), power=0), 3))
    assert attack_dice(cage, 1) == 0  # an Object does not attack, not even as support


def test_fight_characteristics():
    berserk = make_unit("Berserk", skills=("berserker", "brutal_charge", "dreadful"), power=2, resistance=3,
                        willpower=4, initiative=3, combat=3)
    plain = make_unit("Plain", willpower=4, initiative=3, combat=3, skills=("reach",))
    me = unit_in_fight("a", Combatant(berserk, 5, stress=2, allied_units_engaged=2))
    enemy = unit_in_fight("b", Combatant(plain, 5))
    set_fight_characteristics(me, enemy, i_charged=True)
    # Reach cancels the Charge bonus; Brutal Charge +1 and Berserker +2 Power; Resistance 3-2; +2 Initiative
    assert (me.power, me.resistance, me.initiative, me.combat, me.willpower) == (5, 1, 5, 3, 4)
    set_fight_characteristics(enemy, me, i_charged=False)
    assert (enemy.power, enemy.willpower, enemy.initiative, enemy.combat) == (1, 3, 3, 3)  # Dreadful: -1

    deep = unit_in_fight("a", Combatant(berserk, 5, stress=5))
    set_fight_characteristics(deep, unit_in_fight("b", Combatant(berserk, 5)), i_charged=False)
    assert (deep.power, deep.resistance, deep.willpower) == (7, 0, 4)  # minimum 0; immune to Dreadful


def test_safeguard_cancels_tenths_and_moves_six_to_nine_to_the_guard():
    rng = np.random.default_rng(11)
    n = 20000
    assert safeguard(rng, 7, False, False) == 7
    kept = safeguard(rng, n, True, False)
    assert close(kept / n, 0.9, n)  # only a 10 cancels
    kept = safeguard(rng, n, True, True)
    assert close(kept / n, 0.5, n)  # 6, 7, 8, 9 and 10 take the injury away


def test_ten_cm_shares_and_shooting_opposition():
    assert [started_ten_cm_shares(d) for d in (0, 1, 10, 11, 20, 50, 51)] == [0, 1, 1, 2, 2, 5, 6]
    assert shooting_opposition(25, 2, 1, True) == 3 + 2 + 1 + 1
    assert shooting_opposition(0, 0, 0, False) == 0


def test_shooting_dice():
    archers = make_unit("Archers", skills=("multiple_shots", "heroic_action"), power=1, shooting=3)
    assert shooting_dice(Combatant(archers, 5, heroic=2)) == 5 * 3  # heroic dice are added by the roll
    assert shooting_dice(Combatant(make_unit(power=2, shooting=3), 4)) == 8


def test_headquarters_phase_when_reaching_or_passing_start():
    assert headquarters_phases(12, 15) == 0
    assert headquarters_phases(12, 16) == 1
    assert headquarters_phases(15, 21) == 1
    assert headquarters_phases(0, 3) == 0
    assert headquarters_phases(16, 32) == 1


def test_active_player_is_last_on_the_path_or_on_top():
    c = Combatant(WALL, 1)
    a = Player("a", c, None, 1, 0, 0, position=3, arrived=1)
    b = Player("b", c, None, 1, 0, 0, position=1, arrived=2)
    assert active_player(a, b) is b
    b.position, b.arrived = 3, 3  # B arrived on square 3 after A: B is on top
    assert active_player(a, b) is b
    a.arrived = 4
    assert active_player(a, b) is a


# ---------------------------------------------------------------------------------------------------
# Fights
# ---------------------------------------------------------------------------------------------------

def test_a_unit_that_cannot_be_hurt():
    # 60 attack dice at 2+ and injury rolls at 10+ with Expert Parry: no injury, ever. The brute cannot be
    # hurt either (Expert Parry, Resistance 10), so the Advantage values are fixed.
    brute = make_unit("Brute", skills=("expert_parry",), power=3, combat=8, strength=5, resistance=10,
                      initiative=5)
    results = fights(1, 300, Combatant(brute, 20), Combatant(WALL, 1, authority=50), charge=True)
    assert all(r["inflicted_a"] == 0 and r["kills_a"] == 0 and r["alive_b"] == 1 for r in results)
    # A: charge +1 and more warriors +1; B: nothing. B's Morale roll never scatters (see WALL).
    assert all(r["advantage_a"] == 2 and r["advantage_b"] == 0 for r in results)


KILLER = dict(power=40, combat=6, strength=10, resistance=0, health=1)


@pytest.mark.parametrize(("ia", "ib", "charge", "a_skills", "b_skills", "allied", "expected"), [
    (4, 3, False, (), (), 0, FightOutcome.B_DESTROYED),  # A strikes first and B has no one left to strike
    (3, 4, False, (), (), 0, FightOutcome.A_DESTROYED),
    (3, 3, False, (), (), 0, FightOutcome.BOTH_DESTROYED),  # equal Initiative: simultaneous
    (3, 4, True, (), (), 0, FightOutcome.BOTH_DESTROYED),  # Charge: Initiative +1
    (3, 4, True, (), ("reach",), 0, FightOutcome.A_DESTROYED),  # Reach cancels the Charge bonus
    (3, 4, True, ("martial_arts",), ("reach",), 0, FightOutcome.BOTH_DESTROYED),  # Martial Arts ignores Reach
    (3, 4, True, ("sharpshooter",), (), 0, FightOutcome.A_DESTROYED),  # no Charge bonus for a Sharpshooter
    (3, 4, False, (), (), 1, FightOutcome.BOTH_DESTROYED),  # +1 Initiative per allied unit engaged
])
def test_initiative_order(ia, ib, charge, a_skills, b_skills, allied, expected):
    # 40 dice at 6+ and injuries at 2+: the first strike kills the lone warrior (miss odds ~1e-12).
    a = Combatant(make_unit("A", skills=a_skills, initiative=ia, **KILLER), 1, allied_units_engaged=allied)
    b = Combatant(make_unit("B", skills=b_skills, initiative=ib, **KILLER), 1)
    results = fights(2, 60, a, b, charge=charge)
    assert all(r["result"] == expected for r in results)
    if expected == FightOutcome.B_DESTROYED:
        assert all(r["inflicted_b"] == 0 and r["kills_b"] == 0 for r in results)  # B rolled nothing
    if expected == FightOutcome.A_DESTROYED:
        assert all(r["inflicted_a"] == 0 for r in results)
    for r in results:
        assert r["advantage_a"] is None and r["morale"] is None  # a destroyed unit takes no Morale roll


def test_slower_side_strikes_with_the_warriors_left():
    # A kills all 3 warriors of B first (120 dice at 6+, injuries at 2+), so B's 3 x 40 dice are never
    # rolled; with B faster, B kills A's lone warrior instead and A never strikes.
    a = Combatant(make_unit("A", initiative=5, **{**KILLER, "power": 120}), 1)
    b = Combatant(make_unit("B", initiative=3, **KILLER), 3)
    assert all(r["kills_a"] == 3 and r["inflicted_b"] == 0 for r in fights(3, 40, a, b, charge=False))
    b_fast = Combatant(make_unit("B", initiative=6, **KILLER), 3)
    assert all(r["kills_b"] == 1 and r["inflicted_a"] == 0 for r in fights(3, 40, a, b_fast, charge=False))


DUELIST = dict(power=1, combat=3, strength=6, resistance=2, initiative=5)
TARGET = dict(power=1, combat=3, strength=6, resistance=2, initiative=1, health=1)


def test_one_die_strike_odds():
    # Combat 3 vs 3: 6+ (q = 0.45); Strength 6 vs Resistance 2: 2+; B has Parry: P(kill) = 0.45*100/99.
    n = 6000
    a = Combatant(make_unit("A", **DUELIST), 1)
    b = Combatant(make_unit("B", skills=("parry",), **TARGET), 1)
    assert close(share(fights(4, n, a, b, charge=False), lambda r: r["kills_a"] == 1), 5 / 11, n)


def test_charge_raises_combat_for_the_whole_fight():
    n = 6000
    # A charges: Combat 4 vs 3, 5+ (q = 0.54): P(kill) = 0.54 * 100/99 = 6/11.
    a = Combatant(make_unit("A", **DUELIST), 1)
    b = Combatant(make_unit("B", skills=("parry",), **TARGET), 1)
    assert close(share(fights(5, n, a, b, charge=True), lambda r: r["kills_a"] == 1), 6 / 11, n)
    # Reading: B's attack on the charger is opposed by its raised Combat 4: 7+ (q = 0.36) -> 4/11
    # (5/11 without the charge). A cannot hurt B here (Expert Parry at 10+).
    a = Combatant(make_unit("A", skills=("parry",), power=1, combat=3, strength=1, resistance=2,
                            initiative=5), 1)
    b = Combatant(make_unit("B", skills=("expert_parry",), power=1, combat=3, strength=6, resistance=10,
                            initiative=1), 1)
    assert close(share(fights(6, n, a, b, charge=True), lambda r: r["kills_b"] == 1), 4 / 11, n)
    assert close(share(fights(7, n, a, b, charge=False), lambda r: r["kills_b"] == 1), 5 / 11, n)


def test_swashbuckler_and_rerolls():
    # The first die is rerolled once when it fails: it ends 6-9 with 0.4 + 0.5*0.4 = 0.6, 10 with 0.15,
    # fails with 0.25. P(kill) = 0.6*0.9 + 0.15*[0.5*0.9 + 0.45*(10/9 - 0.01/0.99)] = 15/22.
    n = 6000
    b = Combatant(make_unit("B", skills=("parry",), **TARGET), 1)
    swash = Combatant(make_unit("A", skills=("swashbuckler",), **DUELIST), 1)
    assert close(share(fights(8, n, swash, b, charge=False), lambda r: r["kills_a"] == 1), 15 / 22, n)
    helped = Combatant(make_unit("A", **DUELIST), 1, rerolls=1)
    assert close(share(fights(9, n, helped, b, charge=False), lambda r: r["kills_a"] == 1), 15 / 22, n)


def test_blocking_cancels_hits_and_the_blocker_does_not_strike():
    # Hits H and blocks K are alike (6+, q = 0.45). P(H - K = r) = 0.1^(r-1) * 27/110 for r >= 1, so
    # P(kill) = (27/110) * (10/9 - 10/99) = 30/121. B would kill A with 5/11 if it struck.
    n = 6000
    a = Combatant(make_unit("A", **{**DUELIST, "resistance": 0}), 1)
    b_unit = make_unit("B", skills=("parry", "blocking"), **{**TARGET, "strength": 10})
    blocking = fights(10, n, a, Combatant(b_unit, 1), charge=False)
    assert close(share(blocking, lambda r: r["kills_a"] == 1), 30 / 121, n)
    assert all(r["inflicted_b"] == 0 for r in blocking)
    striking = fights(11, n, a, Combatant(b_unit, 1, blocking=False), charge=False)
    assert close(share(striking, lambda r: r["kills_a"] == 1), 5 / 11, n)
    assert any(r["inflicted_b"] > 0 for r in striking)


def test_blocking_cancels_every_hit_but_not_deadly_blow():
    # B blocks with 60 dice at 6+ (~30 successes) against A's 9 dice: every hit is cancelled. Deadly Blow
    # injuries stay: one per critical, 1/9 per die with chained criticals (0.1 without).
    n = 10_000  # the tolerance (4 sigma, ~0.042) is well inside the 0.1 between the chained and plain means
    a = Combatant(make_unit("A", skills=("deadly_blow",), power=1, combat=3, strength=6, initiative=5), 9)
    b = Combatant(make_unit("B", skills=("blocking",), power=3, combat=3, resistance=2, strength=10), 20)
    # Criticals C of one die: P(C >= j) = 0.1^j chained, so E = 1/9 and Var = 10/81; unchained a
    # Bernoulli(0.1): E = 0.1, Var = 0.09.
    cases = ((True, 1 / 9, 10 / 81), (False, 0.1, 0.09))
    tolerance = max(4 * math.sqrt(9 * var / n) for _, _, var in cases)
    assert 9 * (1 / 9 - 0.1) > 2 * tolerance  # each case would fail the other's expectation
    for chain, per_die, _ in cases:
        results = fights(12, n, a, b, charge=False, crit_chain=chain)
        mean = sum(r["inflicted_a"] for r in results) / n
        assert abs(mean - 9 * per_die) <= tolerance
        assert all(r["kills_a"] == r["inflicted_a"] and r["inflicted_b"] == 0 for r in results)
    # without Deadly Blow, nothing gets through
    plain = Combatant(make_unit("A", power=1, combat=3, strength=6, initiative=5), 9)
    assert all(r["inflicted_a"] == 0 for r in fights(13, 300, plain, b, charge=False))


def test_safeguard_counts_injuries_before_it():
    # B (50 warriors of Health 1, never destroyed) keeps an injury with 0.5 when a Guard is near.
    n = 1500
    a = Combatant(make_unit("A", power=1, combat=3, strength=6, initiative=5), 10)
    b = Combatant(make_unit("B", skills=("safeguard",), resistance=2, initiative=1, strength=1), 50,
                  guard=True)
    results = fights(14, n, a, b, charge=False)
    inflicted = sum(r["inflicted_a"] for r in results)
    kills = sum(r["kills_a"] for r in results)
    assert abs(kills / inflicted - 0.5) <= 5 * math.sqrt(0.25 / inflicted)


def test_advantage_and_draw():
    # A charges (+1); B has more warriors (+1): a draw, nobody rolls Morale.
    results = fights(15, 100, Combatant(WALL, 1), Combatant(WALL, 2), charge=True)
    assert all(r["result"] == FightOutcome.DRAW and r["morale"] is None for r in results)
    assert all((r["advantage_a"], r["advantage_b"]) == (1, 1) for r in results)
    # A attacks with 1 Stress; B has more warriors and less Stress: 0 vs 2.
    results = fights(16, 100, Combatant(WALL, 1, stress=1, authority=50), Combatant(WALL, 2), charge=False)
    assert all((r["advantage_a"], r["advantage_b"]) == (0, 2) and r["morale"] == "steady" for r in results)


@pytest.mark.parametrize(("a_skills", "b_skills", "authority", "p_scatter"), [
    ((), (), 0, 0.7**4),  # Willpower 1 vs 3: 8+; 2 + 10//5 = 4 dice; scatter = no die reaches 8
    ((), ("discipline",), 0, 0.7**5),
    ((), (), 1, 0.7**5),  # one Authority unit in range
    (("dreadful",), (), 0, 0.8**4),  # Willpower 0: 9+
    (("dreadful",), ("dreadful",), 0, 0.7**4),  # immune
])
def test_the_losers_morale_roll(a_skills, b_skills, authority, p_scatter):
    # A: charge +1, more warriors (11 vs 10) +1, less Stress (0 vs 1) +1 = 3; B: 0. Nobody is hurt.
    n = 4000
    a = Combatant(make_unit("A", skills=("expert_parry", *a_skills), strength=1, resistance=10), 11)
    b = Combatant(make_unit("B", skills=("expert_parry", *b_skills), strength=1, resistance=10, willpower=1),
                  10, stress=1, authority=authority)
    results = fights(17, n, a, b, charge=True)
    assert all((r["advantage_a"], r["advantage_b"]) == (3, 0) for r in results)
    scattered = [r for r in results if r["result"] == FightOutcome.A_WINS_SCATTER]
    assert close(len(scattered) / n, p_scatter, n)
    assert all(r["alive_b"] == 0 and r["kills_a"] == 0 for r in scattered)


def test_berserker_never_scatters():
    # Berserker adds one success: no die at 8+ (0.7^4) now means "stress" instead of "scatter".
    n = 4000
    a = Combatant(make_unit("A", skills=("expert_parry",), strength=1, resistance=10), 11)
    b = Combatant(make_unit("B", skills=("expert_parry", "berserker"), strength=1, resistance=10,
                            willpower=1), 10, stress=1)
    results = fights(18, n, a, b, charge=True)
    assert not any(r["result"] == FightOutcome.A_WINS_SCATTER for r in results)
    stressed = [r for r in results if r["result"] == FightOutcome.A_WINS_STRESS]
    assert close(len(stressed) / n, 0.7**4, n)
    assert all(r["stress_b"] == 2 and r["alive_b"] == 10 for r in stressed)


def test_an_object_does_not_strike_nor_roll_morale():
    cage = Combatant(make_unit("Cage", types=("Object",), power=0, combat=1, resistance=4, health=2,
                               willpower=0), 1)
    brute = Combatant(make_unit("A", power=1, combat=3, strength=1, resistance=0), 1)
    results = fights(19, 300, brute, cage, charge=True)
    assert all(r["inflicted_b"] == 0 and r["morale_successes"] is None for r in results)
    assert {r["result"] for r in results} <= {FightOutcome.A_WINS_STEADY, FightOutcome.B_DESTROYED}


def test_fight_rejects_a_bad_frontage():
    rng = np.random.default_rng(0)
    for bad in (0, -1, "some", 1.5):
        with pytest.raises(ValueError):
            naive_fight(rng, Combatant(WALL, 1), Combatant(WALL, 1), charge=False, frontage=bad)


# ---------------------------------------------------------------------------------------------------
# Shootings
# ---------------------------------------------------------------------------------------------------

def shots(seed: int, n: int, shooter: Combatant, target: Combatant, weapon: Weapon, d: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [naive_shooting(rng, shooter, target, weapon, d) for _ in range(n)]


SHOOTER = make_unit("Shooter", power=1, shooting=4, strength=6)


@pytest.mark.parametrize(("target_skills", "weapon", "d", "p_kill"), [
    (("parry",), STRONG_BOW, 30, 6 / 11),  # 3 shares: 4 vs 3 -> 5+ (q = 0.54); injuries 6 vs 2 -> 2+
    (("parry",), STRONG_BOW, 21, 6 / 11),  # 21 cm is 3 started shares too
    (("parry", "sharpshooter"), STRONG_BOW, 30, 5 / 11),  # +1 opposition: 6+
    (("expert_parry",), STRONG_CROSSBOW, 30, 24 / 49),  # injury dice fail on 1 and 10: 0.54*(10/9-10/49)
    (("expert_parry",), HEAVY_CROSSBOW, 30, 6 / 11),  # Heavy crossbow: no Expert Parry (Strength 4 vs 0)
    (("parry",), ROCKS, 30, 6 / 11),  # Rocks: the warrior's Strength 6
])
def test_shooting_odds(target_skills, weapon, d, p_kill):
    n = 6000
    resistance = 0 if weapon.strength == 4 else 2
    target = Combatant(make_unit("T", skills=target_skills, resistance=resistance, willpower=10), 1)
    results = shots(20, n, Combatant(SHOOTER, 1), target, weapon, d)
    assert close(share(results, lambda r: r["kills"] == 1), p_kill, n)
    assert all(r["morale"] is None for r in results)  # destroyed or unhurt: no Morale roll


@pytest.mark.parametrize(("weapon", "p_scatter"), [(STRONG_BOW, 0.5**3), (ROCKS, 0.6**3)])
def test_morale_after_a_shot_is_opposed_by_saturation(weapon, p_scatter):
    # 9 warriors; one die almost never kills 5 (odds ~6e-5), so the Morale roll has 2 + 1 dice.
    # Willpower 3 vs Saturation 3: 6+; vs Saturation 4: 7+. Morale only after a casualty (6/11).
    n = 8000
    target = Combatant(make_unit("T", skills=("parry",), resistance=2, willpower=3), 9)
    results = shots(21, n, Combatant(SHOOTER, 1), target, weapon, 30)
    rolled = [r for r in results if r["morale"] is not None]
    assert all((r["morale"] is not None) == (r["kills"] >= 1) for r in results)
    assert close(len(rolled) / n, 6 / 11, n)
    assert close(sum(r["morale"] == "scatter" for r in rolled) / len(rolled), p_scatter, len(rolled))


def test_shooting_rejects_out_of_range_and_non_shooters():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        naive_shooting(rng, Combatant(SHOOTER, 1), Combatant(WALL, 1), BOW, 51)
    with pytest.raises(ValueError):
        naive_shooting(rng, Combatant(WALL, 1), Combatant(WALL, 1), BOW, 10)  # no Shooting value
    assert naive_shooting(rng, Combatant(SHOOTER, 1), Combatant(WALL, 1), BOW, 50)["kills"] == 0


# ---------------------------------------------------------------------------------------------------
# Engagements on the TimePath
# ---------------------------------------------------------------------------------------------------

#: (unit, action, cost, position after, Stress after): cost = 1 + Stress (the Charge 3 + Stress); the unit
#: gains one Stress after acting; reaching or passing 16 removes one.
CHARGE_DUEL = [
    ("a", "charge", 3, 3, 1),  # A is First Player, on top of START
    ("b", "attack", 1, 1, 1),
    ("b", "attack", 2, 3, 2),  # 1 < 3: B again; now both on 3, B on top
    ("b", "attack", 3, 6, 3),
    ("a", "attack", 2, 5, 2),
    ("a", "attack", 3, 8, 3),
    ("b", "attack", 4, 10, 4),
    ("a", "attack", 4, 12, 4),
    ("b", "attack", 5, 15, 5),
    ("a", "attack", 5, 17, 4),  # passes START: Headquarters Phase, 5 - 1
    ("b", "attack", 6, 21, 5),
    ("a", "attack", 5, 22, 5),
    ("b", "attack", 6, 27, 6),
    ("a", "attack", 6, 28, 6),
    ("b", "attack", 7, 34, 6),  # passes 32
    ("a", "attack", 7, 35, 6),
    ("b", "attack", 7, 41, 7),
]


def engagement(seed: int, a: Combatant, b: Combatant, **kw) -> dict:
    return naive_engagement(np.random.default_rng(seed), a, b, trace=True, **kw)


def test_timepath_order_of_a_duel():
    r = engagement(30, Combatant(WALL, 5, authority=50), Combatant(WALL, 5, authority=50))
    assert r["trace"][:len(CHARGE_DUEL)] == CHARGE_DUEL
    assert r["outcome"] == "neither" and r["lost_a"] == r["lost_b"] == 0
    assert r["position_a"] == r["position_b"] == 96
    assert r["activations"] == sum(1 for step in r["trace"] if step[1] != "to-start")
    assert r["ts_a"] == sum(step[2] for step in r["trace"] if step[0] == "a")


def test_last_round_restriction():
    r = engagement(31, Combatant(WALL, 5, authority=50), Combatant(WALL, 5, authority=50), rounds=1)
    assert r["trace"] == [
        *CHARGE_DUEL[:9],
        ("a", "to-start", 0, 16, 3),  # 12 + 5 > 16: placed on START, Headquarters Phase
        ("b", "to-start", 0, 16, 4),  # 15 + 6 > 16
    ]
    assert (r["activations"], r["ts_a"], r["ts_b"], r["outcome"]) == (9, 12, 15, "neither")


def test_charge_costs_jammed_and_heroic():
    jammed = make_unit("Jammed", skills=("expert_parry", "jammed"), strength=1, resistance=10, willpower=10)
    r = engagement(32, Combatant(jammed, 5, authority=50), Combatant(WALL, 5, authority=50), rounds=1)
    assert r["trace"][0] == ("a", "charge", 5, 5, 1)
    hero = make_unit("Hero", skills=("expert_parry", "heroic_action"), strength=1, resistance=10,
                     willpower=10)
    a, b = Combatant(hero, 1, heroic=2, authority=50), Combatant(WALL, 1, authority=50)
    assert engagement(33, a, b, rounds=1)["trace"][0] == ("a", "charge", 5, 5, 1)
    assert engagement(33, a, b, rounds=1, heroic_costs_ts=False)["trace"][0] == ("a", "charge", 3, 3, 1)


def test_shoot_march_charge_policy():
    archer = make_unit("Archer", skills=("expert_parry",), shooting=3, strength=1, resistance=10,
                       willpower=10, march=10, charge=15)
    a, b = Combatant(archer, 5, authority=50), Combatant(WALL, 5, authority=50)
    r = engagement(34, a, b, shoot_from_cm=50, a_weapon=BOW)
    assert r["trace"][:11] == [
        ("a", "shoot", 1, 1, 1),  # 50 cm; the Bow cannot hurt the Wall (3 vs 10 and Expert Parry)
        ("b", "march", 1, 1, 1),  # 50 > Charge 15, no weapon: 40 cm
        ("b", "march", 2, 3, 2),  # 30 cm
        ("a", "shoot", 2, 3, 2),  # 30 > 15: shoot
        ("a", "shoot", 3, 6, 3),
        ("b", "march", 3, 6, 3),  # 20 cm
        ("b", "march", 4, 10, 4),  # 10 cm
        ("a", "shoot", 4, 10, 4),  # 10 cm: still in range, so A shoots rather than charge
        ("a", "shoot", 5, 15, 5),
        ("b", "charge", 7, 17, 4),  # 10 <= the Wall's Charge: B charges (3 + 4 Stress), now engaged
        ("a", "attack", 6, 21, 5),
    ]
    quick = make_unit("Quick", skills=("expert_parry", "quick_shot"), shooting=3, strength=1, resistance=10,
                      willpower=10)
    r = engagement(35, Combatant(quick, 5, authority=50), b, shoot_from_cm=50, a_weapon=BOW, rounds=1)
    assert r["trace"][:5] == [("a", "shoot", 1, 1, 1), ("b", "march", 1, 1, 1), ("b", "march", 2, 3, 2),
                              ("a", "shoot", 1, 2, 2), ("a", "shoot", 2, 4, 3)]  # 1 + Stress - 1
    runner = make_unit("Runner", skills=("expert_parry",), strength=1, resistance=10, willpower=10, march=20,
                       charge=5)
    r = engagement(36, a, Combatant(runner, 5, authority=50), shoot_from_cm=12, a_weapon=BOW, rounds=1)
    assert r["trace"][:4] == [("a", "shoot", 1, 1, 1), ("b", "march", 1, 1, 1),  # max(12 - 20, 1) = 1 cm
                              ("b", "charge", 4, 5, 2), ("a", "attack", 2, 3, 2)]


def test_engagement_ends_when_a_unit_is_destroyed():
    # A's charge (Initiative 5 + 1) kills B's lone warrior before it strikes: one activation of 3 TS.
    a = Combatant(make_unit("A", initiative=5, **KILLER), 1)
    slow = Combatant(make_unit("B", initiative=1, **KILLER), 1)
    for seed in range(20):
        r = engagement(seed, a, slow)
        assert (r["outcome"], r["activations"], r["lost_b"], r["lost_a"], r["ts_a"], r["ts_b"]) == \
            ("a", 1, 1, 0, 3, 0)
        assert r["injuries_b"] >= 1 and r["injuries_a"] == 0
    # B strikes back in A's charge (the defender strikes too): faster than 6, it kills A first
    fast = Combatant(make_unit("B", initiative=9, **KILLER), 1)
    for seed in range(20):
        r = engagement(seed, a, fast)
        assert (r["outcome"], r["activations"], r["lost_a"], r["lost_b"], r["injuries_b"]) == \
            ("b", 1, 1, 0, 0)


def test_engagement_scatter_counts_as_lost_warriors():
    # A (8) charges B (7); nobody is hurt; A: charge + more warriors = 2, B: 0. B's Willpower 1 vs 2: 7+,
    # 2 + 1 dice: B scatters at once with 0.6^3.
    n = 1500
    a = Combatant(make_unit("A", skills=("expert_parry",), strength=1, resistance=10), 8)
    b = Combatant(make_unit("B", skills=("expert_parry",), strength=1, resistance=10, willpower=1), 7)
    rng = np.random.default_rng(42)
    results = [naive_engagement(rng, a, b, rounds=1) for _ in range(n)]
    at_once = [r for r in results if r["activations"] == 1]
    assert close(len(at_once) / n, 0.6**3, n)
    assert all(r["outcome"] == "a" and r["lost_b"] == 7 and r["injuries_b"] == 0 for r in at_once)


def test_engagement_rejects_bad_input():
    rng = np.random.default_rng(0)
    a = Combatant(make_unit("A", shooting=3), 5)
    with pytest.raises(ValueError):
        naive_engagement(rng, a, Combatant(WALL, 1), shoot_from_cm=60, a_weapon=BOW)
    with pytest.raises(ValueError):
        naive_engagement(rng, a, Combatant(WALL, 1), shoot_from_cm=20)  # no weapon
    with pytest.raises(ValueError):
        naive_engagement(rng, a, Combatant(WALL, 1), rounds=0)
