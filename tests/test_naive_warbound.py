"""The plain-Python Warbound twin (tests/naive_warbound.py) against the rulebook's examples (dice scripted
face by face), against the exact tables of rulesets.warbound.exact (200,000 attacks rolled die by die,
chi-square p > 1e-4), and duels whose every die is a [10], played by hand in the docstrings."""

from __future__ import annotations

import random
import zlib

import numpy as np
import pytest
from naive_warbound import FACES, Profile, Side, duel, roll_attack
from scipy.stats import chisquare

from rulesets.warbound.exact import HitRoll, Target, attack_pmf
from rulesets.warbound.rules import FACES as RULES_FACES
from rulesets.warbound.rules import WarboundRulings


class Script:
    """An rng whose dice come out as the given faces, in order; it refuses to roll more."""

    def __init__(self, faces):
        self.values = [(FACES.index(f) + 0.5) / 12 for f in faces]

    def random(self) -> float:
        if not self.values:
            raise AssertionError("rolled more dice than scripted")
        return self.values.pop(0)


class Always:
    """Every die a [10]: int(0.99 * 12) = 11, the second [10] face."""

    def random(self) -> float:
        return 0.99


def test_the_twin_reads_the_dice_as_the_rules_do():
    assert FACES == RULES_FACES
    assert [FACES[int(Script([f]).random() * 12)] for f in range(1, 11)] == list(range(1, 11))


# --- the rulebook's examples, die by die -----------------------------------------------------------------

def test_stress_example_1_4_8_at_7():
    """"He rolls the results 1, 4, and 8. The opponent must therefore add two Stress tokens despite only one
    die being a success" (467)."""
    rng = Script([1, 4, 8])
    assert roll_attack(rng, 3, 7) == (1, 0, 2)
    assert not rng.values


def test_armor_example_6_7_10_against_one_6_plus_point():
    """Three hits, three Stress; armor rolls 6, 7, 10 all succeed but one armor point prevents one wound:
    "the Character still receives two Wound tokens (and one Break token)" (480)."""
    rng = Script([10, 9, 8, 6, 7, 10])
    assert roll_attack(rng, 3, 7, armor_points=1, armor_value=6) == (2, 1, 3)
    assert not rng.values  # all three armor dice rolled
    # two armor points, one already broken: the same
    rng = Script([10, 9, 8, 6, 7, 10])
    assert roll_attack(rng, 3, 7, armor_points=2, armor_value=6, broken=1) == (2, 1, 3)
    # every point broken: no armor roll at all (482)
    rng = Script([10, 9, 8])
    assert roll_attack(rng, 3, 7, armor_points=1, armor_value=6, broken=1) == (3, 0, 3)
    # a natural [1] fails even 1+ armor, a natural [10] saves against 12+ (359)
    assert roll_attack(Script([10, 10, 1, 10]), 2, 7, armor_points=2, armor_value=12) == (1, 1, 2)
    assert roll_attack(Script([10, 1]), 1, 7, armor_points=1, armor_value=1) == (1, 0, 1)


def test_aim_discards_the_lowest_die_and_the_stress_readings_differ():
    # 1, 9, 5 at 7+ with Aim: the 1 is discarded; 9 hits, 5 misses; Stress 2 either way
    assert roll_attack(Script([1, 9, 5]), 2, 7, aim=True) == (1, 0, 2)
    assert roll_attack(Script([1, 9, 5]), 2, 7, aim=True, stress_all_rolled=False) == (1, 0, 2)
    # 3, 9, 5: the 3 is discarded; all-rolled counts it (3 Stress), kept does not (2)
    assert roll_attack(Script([3, 9, 5]), 2, 7, aim=True) == (1, 0, 3)
    assert roll_attack(Script([3, 9, 5]), 2, 7, aim=True, stress_all_rolled=False) == (1, 0, 2)
    # 1, 1 with Aim on one die: a [1] is kept, no hit, no Stress
    assert roll_attack(Script([1, 1]), 1, 2, aim=True) == (0, 0, 0)
    # an unstressable target (no Morale pool, 525)
    assert roll_attack(Script([3, 9, 5]), 2, 7, aim=True, stressable=False) == (1, 0, 0)


def test_formation_and_modifiers_add_to_the_result_but_a_natural_one_fails():
    # Formation: 1 + 1 dice at +1: 6 + 1 = 7 hits, [1] fails (WB-formation-bonus natural-1-fails)
    assert roll_attack(Script([6, 1]), 1, 7, formation=True) == (1, 0, 1)
    assert roll_attack(Script([1]), 1, 2, modifier=5) == (0, 0, 0)
    # natural-1-modified: 1 + 1 >= 2 hits; it is still a natural [1]: no Stress (465, 507)
    assert roll_attack(Script([6, 1]), 1, 2, formation=True, natural_one_modified=True) == (2, 0, 1)
    # a [10] hits at any value and modifier; -2 turns a 9 into a miss at 8+
    assert roll_attack(Script([10, 9]), 2, 12, modifier=-2) == (1, 0, 2)
    # add_wounds: Wound tokens with no armor roll (474)
    assert roll_attack(Script([1]), 1, 7, armor_points=3, armor_value=2, add_wounds=2) == (2, 0, 0)


# --- the twin's attacks against the exact tables ------------------------------------------------------

def chi2_pvalue(counts: np.ndarray, pmf: np.ndarray, min_expected: float = 5.0) -> float:
    """Pearson chi-square of a histogram against a PMF of the same shape; cells expecting fewer than
    ``min_expected`` are pooled into one bin (merged with the smallest other bin if still too small).
    A count where the PMF is 0 rejects the fit outright (p-value 0)."""
    c = counts.ravel().astype(float)
    p = pmf.ravel() / pmf.sum()
    if np.any((p == 0) & (c > 0)):
        return 0.0
    expected = p * c.sum()
    big = expected >= min_expected
    obs, exp = list(c[big]), list(expected[big])
    if (~big).any() and expected[~big].sum() > 0:
        rest_obs, rest_exp = c[~big].sum(), expected[~big].sum()
        if rest_exp < min_expected:
            k = int(np.argmin(exp))
            obs[k] += rest_obs
            exp[k] += rest_exp
        else:
            obs.append(rest_obs)
            exp.append(rest_exp)
    assert len(obs) >= 2, "a degenerate distribution: nothing to test"
    return float(chisquare(obs, exp).pvalue)


CASES = {
    "plain 3 dice 7+": (HitRoll(3, 7), Target(morale=20), {}, {}),
    "aim 6+ all-rolled, 2 points 6+": (
        HitRoll(2, 6, aim=True), Target(armor_points=2, armor_value=6, morale=20), {}, {}),
    "aim 7+ kept, 3 points 8+ one broken": (
        HitRoll(2, 7, aim=True), Target(armor_points=3, armor_value=8, broken=1, morale=20),
        {"aim_stress": "kept"}, {"stress_all_rolled": False}),
    "formation 6+, 1 point 5+": (
        HitRoll(2, 6, formation=True), Target(armor_points=1, armor_value=5, morale=20), {}, {}),
    "modifier -2 at 8+, armor all broken": (
        HitRoll(3, 8, modifier=-2), Target(armor_points=2, armor_value=7, broken=2, morale=20), {}, {}),
    "aim and +1 at 6+, unstressable, 2 points 10+": (
        HitRoll(1, 6, aim=True, modifier=1), Target(armor_points=2, armor_value=10), {}, {}),
    "natural-1-modified 3+ and +2, unstressable": (
        HitRoll(3, 3, modifier=2), Target(armor_points=1, armor_value=6),
        {"formation_bonus": "natural-1-modified"}, {"natural_one_modified": True}),
    "natural-1-modified formation aim 4+": (
        HitRoll(2, 4, aim=True, formation=True), Target(armor_points=1, armor_value=7, morale=20),
        {"formation_bonus": "natural-1-modified"}, {"natural_one_modified": True}),
    "one added Wound, 1 point 6+": (
        HitRoll(2, 6), Target(armor_points=1, armor_value=6, morale=20), {}, {"add_wounds": 1}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_twin_attacks_follow_the_exact_distribution(name):
    roll, target, rulings, twin = CASES[name]
    exact = attack_pmf(roll, target, WarboundRulings(**rulings), add_wounds=twin.get("add_wounds", 0))
    rng = random.Random(zlib.crc32(name.encode()))
    counts = np.zeros(exact.shape, np.int64)
    for _ in range(200_000):
        w, b, s = roll_attack(
            rng, roll.dice, roll.value, aim=roll.aim, formation=roll.formation, modifier=roll.modifier,
            stressable=target.has_morale_pool, armor_points=target.armor_points,
            armor_value=target.armor_value, broken=target.broken, **twin)
        counts[w, b, s] += 1  # an IndexError is an outcome the exact table does not have
    assert chi2_pvalue(counts, exact) > 1e-4


def test_the_chi_square_rejects_a_wrong_reading():
    """The same test tells the two WB-aim-stress readings apart: it can fail."""
    exact = attack_pmf(HitRoll(1, 7, aim=True), Target(morale=20), WarboundRulings(aim_stress="kept"))
    rng = random.Random(1)
    counts = np.zeros(exact.shape, np.int64)
    for _ in range(20_000):
        w, b, s = roll_attack(rng, 1, 7, aim=True)  # all-rolled: up to 2 Stress, the table has at most 1
        counts[w, b, min(s, exact.shape[2] - 1)] += 1
    assert chi2_pvalue(counts, exact) < 1e-10


def test_a_natural_one_that_hits_under_natural_1_modified_gives_no_stress():
    exact = attack_pmf(HitRoll(2, 3, modifier=2), Target(morale=20),
                       WarboundRulings(formation_bonus="natural-1-modified"))
    rng = random.Random(2)
    counts = np.zeros((3, 1, 3), np.int64)
    for _ in range(20_000):
        w, b, s = roll_attack(rng, 2, 3, modifier=2, natural_one_modified=True)
        counts[w, b, s] += 1
    assert chi2_pvalue(counts, exact) > 1e-4


# --- duels with every die a [10] -------------------------------------------------------------------------

BRUTE = Profile(attack=6, attack_dice=2, speed=2, run=1, health=3, morale=4)
GUN = Profile(accuracy_near=7, shoot_dice=1, health=2, morale=3, armor_points=1, armor_value=6)
BOARD = (("move", "run", "shoot"), ("fight", "aim+shoot"))
#: WB-hourglass-policy=not-played: A holds the Hand for all five turns (the duels below are played so)
HELD = "not-played"


def brute() -> Side:
    return Side(BRUTE, price=1, move_price=0, orders=(2, 1))


def test_a_brute_runs_in_and_fights_a_gunner_to_death():
    """Distance 5, every die a [10].
    Turn 1 (A 2 tokens, B 1; open: move, run, shoot): A cannot reach (4 > 2 + 1): Run, d = 2 (1 token).
    B shoots 1 die: 1 Wound, 1 Stress to A. A, again: Move (free, move price 0), d = 1; an additional
    activation: Stress 2. B cannot fight (no attack) with A adjacent: done. A: no Fight space open: done.
    Turn 2 (A 1 + 2, B 0 + 1): "fight" is a Period-2 space: nobody acts.
    Turn 3 (A 1 + 1, B 1 + 1): A fights: 2 hits, 2 Stress to B (2 < 3); 2 armor dice both save, one
    point: 1 Break, 1 Wound (B 1 < 2). Turn 4: A fights: 2 Stress (B 4 >= 3), the point is broken: 2 Wounds,
    B 3 >= 2: removed. Death is checked before panic: B does not panic."""
    trace = []
    b = Side(GUN, price=1, move_price=1, orders=(1, 1))
    out = duel(Always(), brute(), b, board=BOARD, distance=5, trace=trace, hourglass=HELD)
    assert trace == [(1, 0, "run", 2), (1, 1, "shoot", 2), (1, 0, "move", 1), (3, 0, "fight", 1),
                     (4, 0, "fight", 1)]
    assert out == {"outcome": 0, "wounds": [1, 3], "tokens": [3, 1], "panicked": [0, 0],
                   "activations": [4, 1], "turn": 4, "hand": 4}


def test_a_panicked_gunner_turns_its_card_and_its_health():
    """As above with B's morale 2: A's first Fight (2 Stress) panics B at the end of turn 3's activation
    after 1 Wound and 1 Break; B's back (Health 4, no armor, no Morale pool) then takes 2 Wounds a turn
    and no Stress: 3 after turn 4, 5 >= 4 in turn 5. With no_panic, B keeps its front (Health 2, the
    point broken) but still has no Morale pool: removed in turn 4."""
    gun = Profile(accuracy_near=7, shoot_dice=1, health=2, morale=2, armor_points=1, armor_value=6)
    back = Profile(health=4)
    trace = []
    out = duel(Always(), brute(), Side(gun, back, price=1, orders=(1, 1)), board=BOARD, distance=5,
               trace=trace)
    assert trace[3:] == [(3, 0, "fight", 1), (4, 0, "fight", 1), (5, 0, "fight", 1)]
    assert out == {"outcome": 0, "wounds": [1, 5], "tokens": [4, 1], "panicked": [0, 1],
                   "activations": [5, 1], "turn": 5, "hand": 5}
    out = duel(Always(), brute(), Side(gun, back, price=1, orders=(1, 1), no_panic=True), board=BOARD,
               distance=5, hourglass=HELD)
    assert out == {"outcome": 0, "wounds": [1, 3], "tokens": [3, 1], "panicked": [0, 1],
                   "activations": [4, 1], "turn": 4, "hand": 4}


def test_no_additional_activation_that_would_panic_oneself():
    """A shooter of morale 2 against a target that does nothing (board: shoot, aim+shoot, move+shoot):
    turn 1 Aim+Shoot, then Shoot (an additional activation: Stress 1), then 1 + 1 >= 2: done. Turns 2-5:
    Aim+Shoot only (its Stress stays 1). Each shot is 1 hit: 6 Wounds of 10: both stand."""
    a = Side(Profile(accuracy_near=7, health=5, morale=2), price=1, orders=(3, 3))
    b = Side(Profile(health=10), orders=(0, 0))
    board = (("shoot", "aim+shoot", "move+shoot"), ())
    trace = []
    out = duel(Always(), a, b, board=board, distance=4, trace=trace, hourglass=HELD)
    assert [t[:3] for t in trace] == [(1, 0, "aim+shoot"), (1, 0, "shoot")] + [
        (t, 0, "aim+shoot") for t in (2, 3, 4, 5)]
    assert out == {"outcome": 2, "wounds": [0, 6], "tokens": [6, 0], "panicked": [0, 0],
                   "activations": [6, 0], "turn": 5, "hand": 5}
    # without a second accuracy it cannot shoot at a target that is not the closest (461): nothing happens
    out = duel(Script([]), a, b, board=board, distance=4, range_far=True, hourglass=HELD)
    assert out["activations"] == [0, 0] and out["wounds"] == [0, 0]


def test_a_panicked_side_activates_again_without_stress():
    """A (morale 1) Aim+Shoots, then may not activate again (0 + 1 >= 1); B shoots: 1 Stress panics A,
    whose back shoots 2 dice and has no Morale pool, so it takes the Move+Shoot space at once. Turns 2-5:
    A Aim+Shoots (2 kept hits), B Shoots, A Move+Shoots (2). B: 1 + 2 + 4 x 4 = 19 Wounds of 20, A 5."""
    back = Profile(accuracy_near=12, shoot_dice=2, health=10)
    a = Side(Profile(accuracy_near=7, health=10, morale=1), back, price=1, orders=(3, 3))
    b = Side(Profile(accuracy_near=7, health=20), price=1, orders=(1, 1))
    trace = []
    out = duel(Always(), a, b, board=(("aim+shoot", "shoot", "move+shoot"), ()), distance=3,
              trace=trace, hourglass=HELD)
    assert [t[:3] for t in trace[:3]] == [(1, 0, "aim+shoot"), (1, 1, "shoot"), (1, 0, "move+shoot")]
    assert out == {"outcome": 2, "wounds": [5, 19], "tokens": [10, 5], "panicked": [1, 0],
                   "activations": [10, 5], "turn": 5, "hand": 5}


@pytest.mark.parametrize(("orders", "price", "periods", "acts"), [
    ((5, 0), 1, "periods", 3),  # turns 1, 2, and turn 3 on the one token kept at Cleanup (355)
    ((5, 0), 2, "periods", 2),  # the kept token does not pay a price of 2
    ((0, 5), 1, "periods", 3),  # Period 2 only
    ((5, 0), 1, "both-each-turn", 5),
    ((1, 0), 1, "both-each-turn", 5),
])
def test_orders_by_period_and_the_token_kept_at_cleanup(orders, price, periods, acts):
    """One Shoot space a turn, a shooter with no Morale pool, a target that does nothing."""
    a = Side(Profile(accuracy_near=7, health=5), price=price, orders=orders)
    b = Side(Profile(health=50), orders=(0, 0))
    out = duel(Always(), a, b, board=(("shoot",), ()), distance=2, rulings_order_periods=periods)
    assert out["activations"] == [acts, 0]
    assert out["tokens"] == [acts * price, 0]
    assert out["wounds"] == [0, acts]


def test_a_duel_with_no_tokens_does_nothing():
    """Nobody can pay, so the Hand moves by WB-hourglass-policy=strike-first alone: the Hourglass holder
    takes the Hand when its first choice next turn is an attack. Adjacent (1): the gun (speed 0) can neither
    shoot nor step away, so A keeps the Hand all game (5 turns). At 2: the gun would shoot, so B takes the
    Hand after turn 1; the brute would Move+Fight (turn 3's board), so A takes it back; and so on: A holds
    it in turns 1, 3, 5. At 6: B takes it after turn 1, and the brute, out of reach (6 - 1 > 2 + 1), would
    only Run: it never takes it back (turn 1 only)."""
    a = Side(BRUTE, price=1, move_price=1, orders=(0, 0))
    b = Side(GUN, price=1, move_price=1, orders=(0, 0))
    board = (("move", "run", "fight", "shoot"), ("aim+shoot", "move+shoot", "move+fight", "run+fight"))
    for distance, hand in ((1, 5), (2, 3), (6, 1)):
        out = duel(Script([]), a, b, board=board, distance=distance)  # Script([]): no die may be rolled
        assert out == {"outcome": 2, "wounds": [0, 0], "tokens": [0, 0], "panicked": [0, 0],
                       "activations": [0, 0], "turn": 5, "hand": hand}
        held = duel(Script([]), a, b, board=board, distance=distance, hourglass="not-played")
        assert held["hand"] == 5
        always = duel(Script([]), a, b, board=board, distance=distance, hourglass="always")
        assert always["hand"] == 3


# --- the Hand and the Hourglass (lines 363-371), every die a [10] ----------------------------------------

def _shooter(orders=(1, 1)) -> Side:
    """A shooter (7+, one die) with no Morale pool, 1 token an activation, Health 50."""
    return Side(Profile(accuracy_near=7, health=50), price=1, orders=orders)


def test_the_hand_passes_each_turn_between_two_shooters():
    """Board shoot, aim+shoot, move; 1 token a turn each. Turn 1: B places the Hourglass against A: A would
    Aim+Shoot, then Shoot, never Move: the Hourglass goes on "move". A (the Hand) Aim+Shoots, B Shoots;
    nobody Moves, so at Cleanup B, whose first choice next turn is an attack, swaps the Hourglass for the
    Hand: B Aim+Shoots first in turn 2, and so on. A holds the Hand in turns 1, 3 and 5."""
    trace = []
    out = duel(Always(), _shooter(), _shooter(), board=(("shoot", "aim+shoot", "move"), ()), distance=4,
               trace=trace)
    first = [(t, 0 if t % 2 else 1, "aim+shoot") for t in range(1, 6)]
    second = [(t, 1 if t % 2 else 0, "shoot") for t in range(1, 6)]
    assert [x[:3] for x in trace] == [x for pair in zip(first, second, strict=True) for x in pair]
    assert out == {"outcome": 2, "wounds": [5, 5], "tokens": [5, 5], "panicked": [0, 0],
                   "activations": [5, 5], "turn": 5, "hand": 3}
    assert duel(Always(), _shooter(), _shooter(), board=(("shoot", "aim+shoot", "move"), ()), distance=4,
                hourglass="not-played")["hand"] == 5


def test_the_hand_holder_that_uses_the_hourglass_action_keeps_the_hand():
    """Board aim+shoot, shoot: A would use both, so the Hourglass goes on the one it would use last, shoot.
    A (2 tokens a turn) Aim+Shoots, B (nothing to do) is done, A Shoots again: it gains the Hourglass and
    keeps the Hand every turn (5), whatever the policy of the Hourglass holder."""
    target = Side(Profile(health=50), orders=(0, 0))
    for policy in ("strike-first", "always"):
        trace = []
        out = duel(Always(), _shooter((2, 2)), target, board=(("aim+shoot", "shoot"), ()), distance=3,
                   trace=trace, hourglass=policy)
        assert [x[:3] for x in trace] == [(t, 0, a) for t in range(1, 6) for a in ("aim+shoot", "shoot")]
        assert out["hand"] == 5 and out["wounds"] == [0, 10]


def test_strike_first_leaves_the_hand_to_an_enemy_it_would_only_walk_to():
    """A shooter (speed 0) and a brute (attack 6+, speed 1) 4 tiles apart on a board of shoot and move.
    strike-first: the brute, which would only Move next turn, never takes the Hand: A shoots first every
    turn, the brute Moves (4 -> 3 -> 2 -> 1); adjacent from turn 3 on, with no Fight space, it has nothing
    to take the Hand for, and the shooter (speed 0) cannot step away: turns 4-5 pass. always: B takes the
    Hand after turn 1 and moves first in turn 2; A takes it back, and so on."""
    brute = Side(Profile(attack=6, speed=1, health=50), price=1, orders=(1, 1))
    board = (("shoot", "move"), ())
    trace = []
    out = duel(Always(), _shooter(), brute, board=board, distance=4, trace=trace)
    assert trace == [(1, 0, "shoot", 4), (1, 1, "move", 3), (2, 0, "shoot", 3), (2, 1, "move", 2),
                     (3, 0, "shoot", 2), (3, 1, "move", 1)]
    assert out["hand"] == 5 and out["wounds"] == [0, 3]
    trace = []
    out = duel(Always(), _shooter(), brute, board=board, distance=4, trace=trace, hourglass="always")
    assert trace == [(1, 0, "shoot", 4), (1, 1, "move", 3), (2, 1, "move", 2), (2, 0, "shoot", 2),
                     (3, 0, "shoot", 2), (3, 1, "move", 1)]
    assert out["hand"] == 3 and out["wounds"] == [0, 3]


def test_a_free_move_needs_no_tokens_and_sides_as_dicts():
    """Move price 0 (colourless costs waived, 157): one Move space a turn, speed 1 from 10 tiles: 5."""
    a = {"front": {"attack": 6, "speed": 1, "health": 3}, "price": 1, "move_price": 0, "orders": [0, 0]}
    b = {"front": {"health": 3}, "orders": (0, 0)}
    trace = []
    out = duel(Script([]), a, b, board=(("move",), ()), distance=10, trace=trace)
    assert trace == [(t, 0, "move", 10 - t) for t in range(1, 6)]
    assert out["activations"] == [5, 0] and out["tokens"] == [0, 0]


def test_random_duels_keep_their_books():
    """Random dice: every outcome occurs, both sides panic at times, the winner removed the loser (Health 4
    front and back), nobody spends more than it got, and B (Move price = price = 1) pays 1 an activation."""
    board = (("run", "shoot", "move+fight"), ("fight", "aim+shoot", "fight"))
    a = Side(Profile(attack=6, attack_dice=2, speed=2, run=1, health=4, morale=3),
             Profile(attack=8, speed=1, health=4), price=1, move_price=0, orders=(2, 2), modifier=1)
    b = Side(Profile(attack=6, attack_dice=2, accuracy_near=6, shoot_dice=2, health=4, morale=3,
                     armor_points=2, armor_value=6, speed=1),
             Profile(attack=9, health=4, armor_points=2, armor_value=6), price=1, orders=(2, 2))
    rng = random.Random(11)
    seen, panics = set(), np.zeros(2, int)
    for _ in range(400):
        out = duel(rng, a, b, board=board, distance=4)
        seen.add(out["outcome"])
        panics += out["panicked"]
        if out["outcome"] < 2:
            assert out["wounds"][1 - out["outcome"]] >= 4
        else:
            assert out["turn"] == 5 and max(out["wounds"]) < 4
        assert out["tokens"][0] <= min(10, out["activations"][0]) and out["tokens"][1] <= 10
        assert out["tokens"][1] == out["activations"][1]
    assert seen == {0, 1, 2}
    assert panics.min() > 0
