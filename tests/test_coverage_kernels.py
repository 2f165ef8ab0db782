"""Every kernel run a few trials in many situations, for `make coverage`: with NUMBA_DISABLE_JIT=1 the
kernels are plain Python, so coverage measures their branches (as stumpy's test.sh). In the default suite
(compiled kernels) it is a quick smoke test that each situation runs and gives sane counts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_drakerys_fight import FIGHTS, unit

from rulesets.drakerys import ActionRoll, DrakerysRulings, catalog, simulate, simulate_action_roll
from rulesets.drakerys.fight import Combatant
from rulesets.drakerys.magic import InvocationRoll, SpellCast, invocation_distribution, simulate_spell

TRIALS = 64
RULINGS = (DrakerysRulings(), DrakerysRulings(crit_chain=False, frontage=2))
WEAPONS = catalog.load().weapons


@pytest.mark.parametrize("rulings", RULINGS, ids=["defaults", "no-chain-frontage-2"])
@pytest.mark.parametrize("name", list(FIGHTS))
def test_fight_and_engagement_in_every_situation(name, rulings):
    a, b, charge = FIGHTS[name]
    fight = simulate.simulate_fight(a, b, charge=charge, rulings=rulings, weapons=WEAPONS, trials=TRIALS,
                                  seed=1)
    assert fight.run.trials == TRIALS
    duel = simulate.engagement_records(a, b, rulings=rulings, weapons=WEAPONS, trials=TRIALS, seed=1)
    assert duel.records.shape[0] == TRIALS
    assert ((duel.lost(0) >= 0) & (duel.lost(0) <= a.size)).all()


@pytest.mark.parametrize("shooter, target, distance", [
    ("crossbowmen", "crows", 35), ("irosia-bowmen", "gold-keepers", 5), ("rockthrowers", "salik", 12),
    ("noctis", "crushers", 20)])
def test_shooting_and_opening_shots(shooter, target, distance):
    a, b = Combatant(unit(shooter), unit(shooter).standard_size.size, obstacles=1), Combatant(unit(target), 6)
    shot = simulate.simulate_shooting(a, b, distance_cm=distance, weapons=WEAPONS, trials=TRIALS, seed=2)
    assert shot.run.trials == TRIALS
    duel = simulate.simulate_engagement(a, b, shoot_from_cm=distance, weapons=WEAPONS, trials=TRIALS, seed=2)
    assert duel.run.trials == TRIALS


@pytest.mark.parametrize("roll", [ActionRoll(12, 7, swashbuckler=True), ActionRoll(5, 10, rerolls=2),
                                  ActionRoll(3, 2, heroic=2, crits="parry"),
                                  ActionRoll(4, 6, crits="expert-parry")])
@pytest.mark.parametrize("rulings", RULINGS, ids=["defaults", "no-chain"])
def test_action_roll_kernel(roll, rulings):
    dist = simulate_action_roll(roll, rulings, trials=TRIALS, seed=3)
    assert dist.successes.sum() == pytest.approx(1.0)


def test_magic_kernels():
    for cast in (SpellCast(3, 25.0, maelstroms=1, mana=4), SpellCast(1, 0.0)):
        dist = simulate_spell(cast, trials=TRIALS, seed=4)
        assert dist.tiers.sum() == pytest.approx(1.0)
    assert invocation_distribution(InvocationRoll(2, "vortex")) is not None


def test_rounds_and_stress_situations():
    crows, banes = unit("crows"), unit("blood-banes")
    a = Combatant(crows, 12, stress=3)
    b = replace(Combatant(banes, 4), injuries=1)
    duel = simulate.simulate_engagement(a, b, rounds=1, trials=TRIALS, seed=5)
    assert duel.run.trials == TRIALS
