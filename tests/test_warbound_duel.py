"""Warbound duels and attacks: the compiled kernel (each attack drawn whole from its exact table) against the
plain-Python twin (tests/naive_warbound.py, every die rolled), on catalog characters, Formations, rulings and
ranges; thread and batching independence; simulated attacks against the exact distribution."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from naive_warbound import Profile as NaiveProfile
from naive_warbound import Side as NaiveSide
from naive_warbound import duel as naive_duel

from rulesets.warbound import catalog as catalog_io
from rulesets.warbound import kernels as K
from rulesets.warbound.exact import HitRoll, Target, attack_pmf
from rulesets.warbound.rules import WarboundRulings
from rulesets.warbound.simulate import Fighter, duel_args, fighter, simulate_attack, simulate_duel
from simcore import runner
from simcore.stats import chisquare_gof, chisquare_two_sample

CATALOG = catalog_io.load()
KERNEL_DUELS = 200_000
TWIN_DUELS = 12_000
P_MIN = 1e-4


def naive_profile(f: Fighter, p) -> NaiveProfile:
    """The twin's view of one side of a card, with what an activation costs under it."""
    return NaiveProfile(attack=p.attack, attack_dice=p.attack_dice, speed=p.speed, run=p.run,
                        accuracy_near=p.accuracy_near, accuracy_far=p.accuracy_far, shoot_dice=p.shoot_dice,
                        health=p.health, morale=p.morale, armor_points=p.armor_points,
                        armor_value=p.armor_value, price=f.price(p), move_price=f.price(p, move=True))


def naive_side(f: Fighter) -> NaiveSide:
    return NaiveSide(naive_profile(f, f.front), naive_profile(f, f.panic) if f.panic is not None else None,
                     price=f.price(f.front), move_price=f.price(f.front, move=True), orders=f.orders,
                     modifier=f.modifier, no_panic=f.no_panic)


SCENARIOS = {
    "copp shoots roh-na in": ("copp", "roh-na", {}, 6, False),
    "copp shoots roh-na in, the hand held": ("copp", "roh-na", {"hourglass_policy": "not-played"}, 6, False),
    "splatter in formation vs analyst, adjacent": ("splatter@formation", "analyst", {}, 1, False),
    "oshi-goru formation vs drummer, both each turn": ("oshi-goru@formation", "ork-edo-drummer",
                                                       {"order_periods": "both-each-turn"}, 4, False),
    "analyst vs copp far, kept stress, always swap": ("analyst", "copp", {"aim_stress": "kept",
                                                                          "hourglass_policy": "always"}, 8,
                                                      True),
    "copp mirror": ("copp", "copp", {}, 6, False),
}
KEYS = ("outcome", "turn", "hand")
FIELDS = (K.Record.OUTCOME, K.Record.TURN, K.Record.HAND_0)
SIDE_KEYS = ("wounds", "tokens", "panicked", "activations")
SIDE_FIELDS = (K.Record.WOUNDS_0, K.Record.TOKENS_0, K.Record.PANIC_0, K.Record.ACTS_0)


def _fighter(name: str) -> Fighter:
    base, _, formation = name.partition("@")
    return fighter(CATALOG.character(base), CATALOG, formation=formation == "formation")


def _compare_with_twin(a: Fighter, b: Fighter, board, rulings: WarboundRulings, distance: int,
                       far: bool) -> np.ndarray:
    """KERNEL_DUELS kernel duels against TWIN_DUELS twin duels, every recorded field's distribution by a
    chi-square two-sample test (p > P_MIN); returns the kernel's records."""
    args = duel_args(a, b, board, rulings, distance=distance, range_far=far)
    rec = runner.run_records(K.duel_records, args, K.N_RECORD, KERNEL_DUELS, 11, threads=1).records
    rng = random.Random(11)
    twin = [naive_duel(rng, naive_side(a), naive_side(b), board=board.periods, distance=distance,
                       range_far=far, rulings_order_periods=rulings.order_periods,
                       stress_all_rolled=rulings.aim_stress == "all-rolled",
                       hourglass=rulings.hourglass_policy) for _ in range(TWIN_DUELS)]
    checks = [(key, col, [o[key] for o in twin]) for key, col in zip(KEYS, FIELDS, strict=True)]
    checks += [(f"{key}[{s}]", col + s, [o[key][s] for o in twin])
               for key, col in zip(SIDE_KEYS, SIDE_FIELDS, strict=True) for s in (0, 1)]
    for label, column, values in checks:
        width = max(int(rec[:, column].max()), max(values)) + 1
        fit = chisquare_two_sample(np.bincount(rec[:, column], minlength=width),
                                   np.bincount(values, minlength=width))
        assert fit.pvalue > P_MIN, (label, fit)
    # the scenario is a contest: something happens, and not always the same thing
    assert rec[:, K.Record.WOUNDS_0:K.Record.WOUNDS_1 + 1].sum() > 0
    assert np.unique(rec[:, K.Record.TURN]).size > 1 or np.unique(rec[:, K.Record.OUTCOME]).size > 1
    return rec


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_duel_kernel_matches_the_naive_twin(name):
    key_a, key_b, changes, distance, far = SCENARIOS[name]
    _compare_with_twin(_fighter(key_a), _fighter(key_b), CATALOG.board, WarboundRulings(**changes), distance,
                       far)


@pytest.mark.parametrize("policy", ["strike-first", "always"])
def test_the_hand_kept_and_not_taken_in_kernel_and_twin(policy):
    """Every branch of the Hand: a COPP with 6 Order tokens a turn against Roh'na 12 tiles off, on a board
    of Aim+Shoot and Shoot (Period 1) and Move, Run, Run+Fight, Fight (Period 2). Turns 1-2: the COPP would
    use both spaces, so the Hourglass goes on the one it would use last (Shoot) and the COPP keeps the Hand
    with its second activation (Roh'na has nothing to do). From turn 3 the Hourglass goes on Move, which the
    COPP never uses; under strike-first Roh'na takes the Hand only when it would Run+Fight next turn. Kernel
    and twin agree, and the records show all three: the Hand kept all game, changing sides, and left."""
    from rulesets.warbound.catalog import ActionBoard

    board = ActionBoard((("aim+shoot", "shoot"), ("move", "run", "run+fight", "fight")))
    a = dataclasses.replace(_fighter("copp"), orders=(6, 6))
    rec = _compare_with_twin(a, _fighter("roh-na"), board, WarboundRulings(hourglass_policy=policy), 12,
                             False)
    hand, turn = rec[:, K.Record.HAND_0], rec[:, K.Record.TURN]
    assert np.any(hand == turn) and np.any(hand < turn)
    # turns 1 and 2 are always side A's: it keeps the Hand with its second shot
    assert np.all(hand >= np.minimum(turn, 2))


def test_same_seed_same_records_any_threads_and_batching():
    a, b = _fighter("copp"), _fighter("roh-na@formation")
    args = duel_args(a, b, CATALOG.board, WarboundRulings())
    one = runner.run_records(K.duel_records, args, K.N_RECORD, 50_000, 5, threads=1).records
    two = runner.run_records(K.duel_records, args, K.N_RECORD, 50_000, 5, threads=2, max_batch_trials=7_000)
    np.testing.assert_array_equal(one, two.records)
    prefix = runner.run_records(K.duel_records, args, K.N_RECORD, 20_000, 5, threads=1).records
    np.testing.assert_array_equal(one[:20_000], prefix)


def test_records_add_up():
    result = simulate_duel(_fighter("splatter"), _fighter("roh-na"), CATALOG.board, trials=20_000, seed=2)
    rec = result.records
    removed = rec[:, K.Record.OUTCOME]
    assert np.array_equal(rec[:, K.Record.LOST_1] == 1, removed == K.DuelOutcome.SIDE_0_WINS)
    assert np.array_equal(rec[:, K.Record.LOST_0] == 1, removed == K.DuelOutcome.SIDE_1_WINS)
    assert np.all(rec[rec[:, K.Record.OUTCOME] == K.DuelOutcome.NEITHER, K.Record.TURN] == 5)
    front = (result.a.front.health, result.b.front.health)
    for s in (0, 1):
        lost = rec[:, K.Record.LOST_0 + s] == 1
        assert np.all(rec[lost, K.Record.DAMAGE_0 + s] == front[s])
        wounds = rec[~lost, K.Record.WOUNDS_0 + s]
        assert np.all(rec[~lost, K.Record.DAMAGE_0 + s] == np.minimum(wounds, front[s] - 1))
    for s, f in enumerate((result.a, result.b)):
        # an activation costs at least the cheapest price of the side's profiles; the tokens spent never
        # exceed the Leader's five turns of Orders
        cheapest = min(f.price(p, move=True) for p in f.profiles)
        assert np.all(rec[:, K.Record.TOKENS_0 + s] >= rec[:, K.Record.ACTS_0 + s] * cheapest)
        assert rec[:, K.Record.TOKENS_0 + s].max() <= 2 * f.orders[0] + 3 * f.orders[1]
        assert rec[:, K.Record.ACTS_0 + s].max() > 0


@pytest.mark.parametrize(("roll", "target", "changes"), [
    (HitRoll(2, 7, aim=True), Target(2, 6, morale=3), {}),
    (HitRoll(3, 6, formation=True), Target(1, 8, broken=0, morale=5), {"aim_stress": "kept"}),
    (HitRoll(1, 9, aim=True, modifier=-1), Target(3, 5, broken=1), {}),
    (HitRoll(4, 3, modifier=2), Target(morale=9), {"formation_bonus": "natural-1-modified"}),
])
def test_simulated_attacks_follow_the_exact_distribution(roll, target, changes):
    """10^6 attacks, each one draw, against the exact marginals (p > 1e-4); the same counts whatever the
    threads."""
    rulings = WarboundRulings(**changes)
    exact = attack_pmf(roll, target, rulings)
    one = simulate_attack(roll, target, rulings, trials=10**6, seed=4, threads=1)
    two = simulate_attack(roll, target, rulings, trials=10**6, seed=4, threads=2)
    np.testing.assert_array_equal(one.run.counts, two.run.counts)
    for axis, pmf in (("wounds", exact.sum(axis=(1, 2))), ("breaks", exact.sum(axis=(0, 2))),
                      ("stress", exact.sum(axis=(0, 1)))):
        counts = one.counts(axis)
        assert counts[pmf.size:].sum() == 0
        assert chisquare_gof(counts[:pmf.size], pmf).pvalue > P_MIN, axis


def test_a_wrong_stress_reading_is_caught():
    """The check has power: attacks simulated under WB-aim-stress=kept fail against all-rolled's PMF."""
    roll, target = HitRoll(2, 7, aim=True), Target(morale=9)
    sim = simulate_attack(roll, target, WarboundRulings(aim_stress="kept"), trials=10**5, seed=1)
    pmf = attack_pmf(roll, target, WarboundRulings()).sum(axis=(0, 1))
    counts = sim.counts("stress")[:pmf.size]
    assert chisquare_gof(counts, pmf).pvalue < 1e-10


# --- the Hand and the Hourglass (WB-hourglass-policy) ------------------------------------------------------

def _mirror(name: str, policy: str, seed: int, trials: int = 40_000) -> np.ndarray:
    f = _fighter(name)
    return simulate_duel(f, f, CATALOG.board, WarboundRulings(hourglass_policy=policy), trials=trials,
                         seed=seed).records


def test_the_hand_changes_sides_every_turn_between_two_copps():
    """Two COPPs shoot and never Move: the Hourglass, placed on a Move space, is never used, so its holder
    takes the Hand at every Cleanup: side A holds it in turns 1, 3, 5 of the turns played. Not played: in
    every turn."""
    rec = _mirror("copp", "strike-first", 3, 5_000)
    np.testing.assert_array_equal(rec[:, K.Record.HAND_0], (rec[:, K.Record.TURN] + 1) // 2)
    held = _mirror("copp", "not-played", 3, 5_000)
    np.testing.assert_array_equal(held[:, K.Record.HAND_0], held[:, K.Record.TURN])


@pytest.mark.parametrize("name", ["copp", "splatter", "analyst", "oshi-goru"])
def test_a_mirror_is_even_with_roles_averaged_and_the_hourglass_narrows_each_role(name):
    """A character against itself. Roles averaged (side A's wins in one run of 40,000 duels and side B's in
    another, against the reverse): even within 3.5 standard errors. Per role, the Hourglass narrows the
    gap the Hand held all game opens (not-played: COPP 0.447 vs 0.128, Splatter 0.751 vs 0.175, Analyst
    0.635 vs 0.237, Oshi'goru 0.689 vs 0.296; strike-first: 0.307 / 0.211, 0.490 / 0.369, 0.523 / 0.328,
    0.546 / 0.437): what is left is side A's Hand in turns 1, 3 and 5 against B's in 2 and 4."""
    one, two = _mirror(name, "strike-first", 1), _mirror(name, "strike-first", 2)
    wins = [(r[:, K.Record.OUTCOME] == K.DuelOutcome.SIDE_0_WINS).astype(float)
            - (r[:, K.Record.OUTCOME] == K.DuelOutcome.SIDE_1_WINS) for r in (one, two)]
    # X plays side A in run one, side B in run two: its mean edge and its standard error
    edge = (wins[0].mean() - wins[1].mean()) / 2
    stderr = np.sqrt(wins[0].var() / wins[0].size + wins[1].var() / wins[1].size) / 2
    assert abs(edge) < 3.5 * stderr
    held = _mirror(name, "not-played", 1)
    outcome = {"strike-first": one[:, K.Record.OUTCOME], "not-played": held[:, K.Record.OUTCOME]}
    gap = {policy: abs(np.mean(o == K.DuelOutcome.SIDE_0_WINS) - np.mean(o == K.DuelOutcome.SIDE_1_WINS))
           for policy, o in outcome.items()}
    assert gap["strike-first"] < 0.7 * gap["not-played"], gap


def test_the_twin_comparison_sees_a_missing_hourglass():
    """Power: the kernel with the Hourglass against the twin without it (COPP vs Roh'na) is rejected."""
    a, b = _fighter("copp"), _fighter("roh-na")
    args = duel_args(a, b, CATALOG.board, WarboundRulings())
    rec = runner.run_records(K.duel_records, args, K.N_RECORD, KERNEL_DUELS, 11, threads=1).records
    rng = random.Random(12)
    twin = [naive_duel(rng, naive_side(a), naive_side(b), board=CATALOG.board.periods, distance=6,
                       hourglass="not-played")["outcome"] for _ in range(TWIN_DUELS)]
    fit = chisquare_two_sample(np.bincount(rec[:, K.Record.OUTCOME], minlength=3),
                               np.bincount(twin, minlength=3))
    assert fit.pvalue < 1e-8


def test_duel_result_views_read_their_named_columns():
    """DuelResult's named views are the means of the record's columns of that name, for each side; the
    per-token ratio divides the wounds one side dealt by the tokens it spent; a wrong side is refused."""
    from rulesets.base import RulesError

    result = simulate_duel(_fighter("splatter"), _fighter("roh-na"), CATALOG.board, trials=3_000, seed=4)
    rec = result.records.astype(float)
    for side in (0, 1):
        views = (("p_panics", "PANIC"), ("wounds_taken", "WOUNDS"), ("tokens_spent", "TOKENS"),
                 ("activations", "ACTS"))
        for view, column in views:
            got = getattr(result, view)(side).value
            assert got == pytest.approx(rec[:, K.Record[f"{column}_{side}"]].mean(), abs=1e-12), (view, side)
        dealt = rec[:, K.Record[f"WOUNDS_{1 - side}"]].mean() / rec[:, K.Record[f"TOKENS_{side}"]].mean()
        assert result.wounds_per_token(side).value == pytest.approx(dealt, rel=1e-12)
    total = result.p_wins(0).value + result.p_wins(1).value + result.p_neither().value
    assert total == pytest.approx(1.0, abs=1e-12)
    assert result.p_wins(0).value > 0 and result.wounds_taken(1).value > 0  # the views read data
    assert 1 <= result.end_turn().value <= 5 and 0 < result.hand_turns().value <= 5
    with pytest.raises(RulesError, match="side -1"):
        result.p_wins(-1)
