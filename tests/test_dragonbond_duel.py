"""Dragonbond duels: the compiled kernel (stages drawn from exact tables) against the plain-Python twin
(tests/naive_dragonbond.py, every die rolled), on common scenarios, rulings and policies."""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive_dragonbond import NaiveUnit, duel

from rulesets.dragonbond import catalog
from rulesets.dragonbond import kernels as K
from rulesets.dragonbond.rules import DragonbondRulings
from rulesets.dragonbond.simulate import Fighter, duel_args
from simcore import runner
from simcore.stats import chisquare_two_sample

CATALOG = catalog.load()
KERNEL_DUELS = 200_000
TWIN_DUELS = 4_000
P_MIN = 1e-4

NAIVE_RULINGS = {"step_mode": "step_mode", "sharp": "sharp", "double_hits": "double_hits",
                 "defense_tiers": "defense_tiers", "defense_floor": "defense_floor",
                 "casualty_order": "casualty_order", "fatigue_timing": "fatigue_timing",
                 "opportunity_fatigue": "opportunity_fatigue"}


def naive_unit(f: Fighter, enemy: Fighter) -> NaiveUnit:
    """The twin's view of a fighter: the same printed and illustrative values, written out."""
    u = f.unit
    dice, _ = f.per_model()
    names = ("white", "grey", "black")

    def split(net: int) -> tuple[int, int]:
        return (net, 0) if net >= 0 else (0, -net)

    return NaiveUnit(
        u.key, u.models, u.health, u.stamina, u.defense, u.defense_die,
        {names[k]: n for k, n in enumerate(dice.counts) if n}, sharp=u.keywords.sharp,
        captain_health=u.captain.health if u.captain else None,
        captain_attack=split(f.captain_net(("attack", f.weapon.kind))),
        captain_defense=split(f.captain_net(("defense", f"{enemy.weapon.kind}-defense"))),
        rest_removes_all=u.rest_removes_all, epic=u.keywords.epic,
        huge=(u.keywords.huge.health, u.keywords.huge.injury_slots) if u.keywords.huge else None,
        ranged_only=f.ranged_only)


KEYS = ("outcome", "lost_a", "lost_b", "wounds_a", "wounds_b", "fatigue_a", "fatigue_b", "turns_a", "turns_b")
FIELDS = tuple(K.Record[k] for k in ("OUTCOME", "LOST_0", "LOST_1", "WOUNDS_0", "WOUNDS_1", "FATIGUE_0",
                                      "FATIGUE_1", "TURNS_0", "TURNS_1"))
CODES = {"a": K.DuelOutcome.SIDE_0_WINS, "b": K.DuelOutcome.SIDE_1_WINS, "neither": K.DuelOutcome.NEITHER}

SCENARIOS = {
    "blades vs phalanx": ("bucentaur-blades", "attack", "ogerron-phalanx", "attack", {}),
    "claws vs duelists, captain first": ("blooded-claws", "attack", "oathguard-duelists", "attack",
                                         {"casualty_order": "captain-first"}),
    "casters resting vs wardens": ("dreamshaper-casters", "rest", "kirin-wardens", "rest", {}),
    "reavers shoot while engaged": ("skorpikon-reavers", "attack", "oathguard-halberdiers", "attack",
                                    {"opportunity_fatigue": 1}),
    "nagasha vs gore-lancers, act then pay": ("nagasha", "attack", "skorpikon-gore-lancers", "rest",
                                              {"fatigue_timing": "act-then-pay", "double_hits": 1}),
    "dragon queen vs claws, cascade": ("dragon-queen", "rest", "blooded-claws", "attack",
                                       {"step_mode": "cascade", "casualty_order": "fewest-health-first"}),
}


def _rulings(changes: dict) -> DragonbondRulings:
    return DragonbondRulings(**changes)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_duel_kernel_matches_the_naive_twin(name):
    key_a, pol_a, key_b, pol_b, changes = SCENARIOS[name]
    rulings = _rulings(changes)
    a, b = Fighter(CATALOG.unit(key_a), pol_a), Fighter(CATALOG.unit(key_b), pol_b)
    result = runner.run_records(K.duel_records, duel_args(a, b, rulings), K.N_RECORD, KERNEL_DUELS, 11,
                                threads=1)
    rec = result.records
    naive_rulings = {k: getattr(rulings, k) for k in NAIVE_RULINGS}
    rng = random.Random(11)
    twin = [duel(rng, naive_unit(a, b), naive_unit(b, a), naive_rulings, (pol_a, pol_b))
            for _ in range(TWIN_DUELS)]
    for key, column in zip(KEYS, FIELDS, strict=True):
        values = [CODES[o[key]] if key == "outcome" else o[key] for o in twin]
        width = max(int(rec[:, column].max()), max(values)) + 1
        fit = chisquare_two_sample(np.bincount(rec[:, column], minlength=width),
                                   np.bincount(values, minlength=width))
        assert fit.pvalue > P_MIN, (key, fit)
    # the scenario is a contest: the kernel's outcomes are not all one
    assert np.bincount(rec[:, K.Record.OUTCOME], minlength=3).max() < KERNEL_DUELS


def test_same_seed_same_records_any_threads_and_batching():
    a, b = Fighter(CATALOG.unit("bucentaur-blades")), Fighter(CATALOG.unit("blooded-claws"))
    args = duel_args(a, b, DragonbondRulings())
    one = runner.run_records(K.duel_records, args, K.N_RECORD, 50_000, 5, threads=1).records
    two = runner.run_records(K.duel_records, args, K.N_RECORD, 50_000, 5, threads=2, max_batch_trials=7_000)
    np.testing.assert_array_equal(one, two.records)
    prefix = runner.run_records(K.duel_records, args, K.N_RECORD, 20_000, 5, threads=1).records
    np.testing.assert_array_equal(one[:20_000], prefix)


@pytest.mark.parametrize(("notation", "defense", "healths", "sharp"), [
    ("4G 2B", (1, 1, 0, 0), (2, 2, 2), False),
    ("3B", (2, 0, 1, 0), (1, 1, 1, 1), True),
    ("5W", (1, 2, 0, 2), (), False),
])
def test_simulated_attacks_follow_the_exact_distribution(notation, defense, healths, sharp):
    """10^6 attacks, each two stage draws, against the exact wounds and models-killed PMFs (p > 1e-4);
    the same counts whatever the threads."""
    from rulesets.dragonbond.dice import parse_pool
    from rulesets.dragonbond.exact import Defense, Target, attack_distribution
    from rulesets.dragonbond.simulate import simulate_attack
    from simcore.stats import chisquare_gof

    pool, d = parse_pool(notation), Defense(*defense)
    exact = attack_distribution(pool, d, Target(healths) if healths else None, sharp=sharp)
    one = simulate_attack(pool, d, healths, sharp=sharp, trials=10**6, seed=4, threads=1)
    two = simulate_attack(pool, d, healths, sharp=sharp, trials=10**6, seed=4, threads=2)
    np.testing.assert_array_equal(one.run.counts, two.run.counts)
    wounds = one.run.counts[0]
    k = exact.wounds.size
    assert wounds[k:].sum() == 0
    assert chisquare_gof(wounds[:k], exact.wounds).pvalue > 1e-4
    if healths:
        killed = one.run.counts[1][:len(healths) + 1]
        assert chisquare_gof(killed, exact.killed).pvalue > 1e-4


def test_duel_result_views_read_their_named_columns():
    """DuelResult's named views are the means of the record's columns of that name, for each side; the
    outcomes' shares add up to 1 and a wrong side is refused."""
    from rulesets.base import RulesError
    from rulesets.dragonbond.simulate import simulate_duel

    a = Fighter(CATALOG.unit("bucentaur-blades"), "attack")
    b = Fighter(CATALOG.unit("ogerron-phalanx"), "attack")
    result = simulate_duel(a, b, trials=3_000, seed=3, threads=1)
    rec = result.records
    for side in (0, 1):
        views = (("wounds_taken", "WOUNDS"), ("models_lost", "LOST"), ("fatigue_gained", "FATIGUE"),
                 ("turns_taken", "TURNS"))
        for view, column in views:
            got = getattr(result, view)(side).value
            assert got == pytest.approx(rec[:, K.Record[f"{column}_{side}"]].mean(), abs=1e-12), (view, side)
        won = K.DuelOutcome.SIDE_0_WINS if side == 0 else K.DuelOutcome.SIDE_1_WINS
        assert result.p_wins(side).value == pytest.approx((rec[:, K.Record.OUTCOME] == won).mean(), abs=1e-12)
    total = result.p_wins(0).value + result.p_wins(1).value + result.p_neither().value
    assert total == pytest.approx(1.0, abs=1e-12)
    assert 1 <= result.rounds_played().value <= result.rounds
    assert result.wounds_taken(1).value > 0  # the Blades wound the Phalanx: the views read data, not zeros
    with pytest.raises(RulesError, match="side 2"):
        result.wounds_taken(2)
