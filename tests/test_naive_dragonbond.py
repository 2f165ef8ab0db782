"""The plain-Python Dragonbond twin (tests/naive_dragonbond.py) against the exact maths: two independent
writings of the same rules must agree (the modifier algebra exactly, the rolls in distribution)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from naive_dragonbond import ACTION_ORDER, DEFENSE_ORDER, NaiveUnit, Side, attack, duel, modify

from rulesets.dragonbond.dice import ACTION, DEFENSE, Pool, modified
from rulesets.dragonbond.exact import Defense, attack_distribution
from rulesets.dragonbond.rules import DragonbondRulings
from simcore.stats import chisquare_gof


@pytest.mark.parametrize("mode", ["per-die", "cascade"])
@pytest.mark.parametrize("kind", [ACTION, DEFENSE])
def test_twin_modifiers_equal_the_library_on_every_small_pool(kind, mode):
    rulings = DragonbondRulings(step_mode=mode)
    order = ACTION_ORDER if kind == ACTION else DEFENSE_ORDER
    for counts in itertools.product(range(3), repeat=3):
        if not sum(counts):
            continue
        dice = [order[k] for k in range(3) for _ in range(counts[k])]
        for up, down in itertools.product(range(5), repeat=2):
            ours = modified(Pool(kind, counts), up, down, rulings)
            twin = modify(dice, up, down, order, cascade=mode == "cascade", added=order[0], floor=order[0])
            assert ours == Pool.of(kind, [order.index(c) for c in twin]), (counts, up, down)


@pytest.mark.parametrize(("dice", "models", "defense", "die", "beside"), [
    ({"grey": 2, "black": 1}, 2, 1, "white", 0),
    ({"white": 3}, 2, 2, "black", 1),
    ({"black": 2}, 1, 1, "red", 2),
])
def test_twin_attacks_follow_the_exact_wound_distribution(dice, models, defense, die, beside):
    """20,000 attacks rolled die by die against the exact PMF (chi-square, p > 1e-4)."""
    unit = NaiveUnit("a", models, 1, 3, 1, "white", dice)
    target = NaiveUnit("b", 50, 1, 3, defense, die, {"white": 1})
    rng = random.Random(7)
    counts = np.zeros(200, np.int64)
    for _ in range(20_000):
        att = Side(unit, [1] * models)
        dfn = Side(target, [1] * 50, beside=beside)
        counts[attack(rng, att, dfn, {}, 0)] += 1
    pool = Pool(ACTION, tuple(dice.get(c, 0) * models for c in ACTION_ORDER))
    exact = attack_distribution(pool, Defense(defense, DEFENSE_ORDER.index(die), 0, beside)).wounds
    k = exact.size
    assert counts[k:].sum() == 0
    assert chisquare_gof(counts[:k], exact).pvalue > 1e-4


def test_twin_duel_runs_to_an_end_and_counts_consistently():
    blades = NaiveUnit("blades", 2, 4, 3, 2, "black", {"grey": 1, "white": 1})
    phalanx = NaiveUnit("phalanx", 3, 3, 2, 2, "black", {"white": 2})
    rng = random.Random(3)
    seen = set()
    for _ in range(500):
        o = duel(rng, blades, phalanx)
        seen.add(o["outcome"])
        assert 0 <= o["lost_a"] <= 2 and 0 <= o["lost_b"] <= 3
        assert (o["outcome"] == "a") == (o["lost_b"] == 3)
        assert o["turns_a"] <= 8 and o["turns_b"] <= 8
        assert o["fatigue_a"] == o["turns_a"]  # policy attack: one token a turn
    assert seen == {"a", "b", "neither"}
