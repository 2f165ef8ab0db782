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
