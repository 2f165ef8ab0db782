"""The UberDrakes combat by Monte Carlo (rulesets.uberdrakes.simulate): the compiled kernel plays the exact
program's policy move by move with rolled dice, and must agree with the exact program's expectations;
seeded, the same for any thread count and any split of the work."""

from __future__ import annotations

import numpy as np
import pytest

from rulesets.uberdrakes.combat import Combat, Kit, policy
from rulesets.uberdrakes.exact import Side
from rulesets.uberdrakes.rules import UberDrakesRulings
from rulesets.uberdrakes.simulate import simulate_combat

R = UberDrakesRulings()
OPTIMAL = UberDrakesRulings(policy="optimal")

PLATE = Kit(lances=1, magic=6, plate_armor=True)
SCENARIOS = {
    "lances and plate, greedy": (Combat(Side(1, 1), Side(0, 0), Kit(lances=2), PLATE), R),
    "lances and plate, optimal": (Combat(Side(1, 1), Side(0, 0), Kit(lances=2), PLATE), OPTIMAL),
    "acid on a potion, shields": (Combat(Side(0, 2), Side(1, 0), Kit(magic=4, acid_rain=True, shields=1),
                                         Kit(potions=2, lances=1, shields=1)), R),
    "acid on an item, spells too": (Combat(Side(0, 0), Side(0, 1), Kit(magic=4, acid_rain=True),
                                           Kit(magic=8, fire_breath=True, lances=1)),
                                    UberDrakesRulings(acid_scope="items-and-spells")),
    "windblast, ranged": (Combat(Side(2, 0), Side(0, 2), Kit(magic=3, windblast=True, shields=1),
                                 Kit(lances=2, shields=1), ranged=True), R),
    "overshoot, strict ties, optimal": (
        Combat(Side(0, 1), Side(1, 0), Kit(lances=1, magic=4, fire_breath=True),
               Kit(magic=9, plate_armor=True, lances=1)),
        UberDrakesRulings(policy="optimal", counter_sequencing="overshoot", counter_ties="strict")),
    "blood points objective": (
        Combat(Side(1, 0), Side(0, 1), Kit(lances=1, shields=1), Kit(magic=7, plate_armor=True)),
        UberDrakesRulings(policy="optimal", objective="net-value", bp_total="rolloff")),
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_simulated_combat_agrees_with_the_exact_program(name):
    """400,000 combats: every expectation within 5 standard errors of the exact one (equal when the
    sample has no spread), and no state missing from the policy table."""
    combat, rulings = SCENARIOS[name]
    run = simulate_combat(combat, rulings, trials=400_000, seed=11)
    assert run.missed == 0 and run.trials == 400_000
    exact = run.policy.outcome
    for measure, (means, errors) in run.samples_mean().items():
        for side in (0, 1):
            want, got, se = getattr(exact, measure)[side], means[side], errors[side]
            if se == 0:
                assert got == pytest.approx(want, abs=1e-12), (measure, side)
            else:
                assert abs(got - want) < 5 * se, (measure, side, got, want, se)


def test_the_simulation_can_tell_a_wrong_policy():
    """The same combats under the greedy policy's table, compared with the optimal program: the Metal
    defender's extra wins are far outside the error (the check has power)."""
    combat = Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(magic=10, plate_armor=True))
    greedy = simulate_combat(combat, R, trials=200_000, seed=2)
    optimal = policy(combat, OPTIMAL).outcome
    (p0, _), (se0, _) = greedy.samples_mean()["p_win"]
    assert abs(p0 - optimal.p_win[0]) > 20 * se0


def test_same_seed_same_counts_for_any_threads_and_batches():
    from rulesets.uberdrakes import kernels as K
    from rulesets.uberdrakes.simulate import combat_args
    from simcore import runner

    combat, rulings = SCENARIOS["acid on a potion, shields"]
    pol = policy(combat, rulings)
    one = simulate_combat(combat, rulings, trials=300_001, seed=5, threads=1, pol=pol)
    two = simulate_combat(combat, rulings, trials=300_001, seed=5, threads=2, pol=pol)
    assert np.array_equal(one.counts, two.counts)
    split = runner.run(K.combat_chunks, combat_args(pol, rulings), (K.H_SIZE,), 300_001, 5, threads=2,
                       max_batch_chunks=1)
    assert np.array_equal(split.counts, one.counts)
    other = simulate_combat(combat, rulings, trials=300_001, seed=6, threads=1, pol=pol)
    assert not np.array_equal(other.counts, one.counts)


def test_an_unrolled_concession_in_the_kernel():
    """No policy of the objectives prefers an unrolled concession, so it is forced here: every combat ends
    at the roll, two instances of damage (four with the initiator's Windblast, UD-windblast-stack=
    multiply), even against a ranged initiator (line 327: the loser made no Ranged attack); the defender
    pays its bonus (UD-concede-total=bonuses), half of it to itself."""
    from dataclasses import replace

    from rulesets.uberdrakes.combat import Plan

    for blast, damage in ((False, 2), (True, 4)):
        combat = Combat(Side(0, 2), Side(0, 5), Kit(magic=3, windblast=blast), Kit(lances=1), ranged=True)
        pol = policy(combat, R)
        assert pol.outcome.plans[0] == Plan(windblast=blast)
        pol = replace(pol, unrolled=frozenset(range(0, 40)))
        run = simulate_combat(combat, R, trials=50_000, seed=4, pol=pol)
        assert run.outcome()[0, damage, 1] == 50_000
        assert run.paid()[0, 5 + 64] == 50_000
        means, _ = run.samples_mean()["blood_points"]
        assert means == (5.0, 2.0)


@pytest.mark.parametrize("name", ["lances and plate, optimal", "acid on a potion, shields",
                                  "windblast, ranged"])
def test_the_kernel_and_the_die_by_die_twin_agree_in_distribution(name):
    """The compiled combat against tests/naive_uberdrakes.py (every die rolled with `random`, every rule
    applied by the twin itself, the same policy): winner x damage, the loser's paid total and each side's
    Magic, as histograms (chi-square, p > 1e-4)."""
    import random

    from naive_uberdrakes import play_combat

    from rulesets.uberdrakes import kernels as K
    from simcore.stats import chisquare_two_sample

    combat, rulings = SCENARIOS[name]
    pol = policy(combat, rulings)
    run = simulate_combat(combat, rulings, trials=300_000, seed=8, pol=pol)
    rng = random.Random(8)
    n = 20_000
    outcome = np.zeros((2, K.DAMAGE_MAX + 1), np.int64)
    paid = np.zeros((2, K.PAID_BINS), np.int64)
    magic = np.zeros((2, K.SPENT_BINS), np.int64)
    for _ in range(n):
        r = play_combat(rng, pol, rulings)
        loser = 1 - r.winner
        outcome[r.winner, r.damage] += 1
        pays = r.totals[loser] if rulings.bp_total == "final" else r.rolloff[loser]
        paid[r.winner, pays + K.PAID_OFFSET] += 1
        for s in (0, 1):
            magic[s, r.magic[s]] += 1
    pairs = [(run.outcome().sum(axis=2), outcome), (run.paid(), paid),
             (run.spent("magic", 0), magic[0]), (run.spent("magic", 1), magic[1])]
    for ours, twin in pairs:
        assert chisquare_two_sample(ours, twin).pvalue > 1e-4
