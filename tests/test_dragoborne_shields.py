"""Dragoborne's dragoshields, exact: RULES.md's case, the attacks a shield absorbs by hand and by
enumeration, stacking and persistence."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rulesets.base import OptionError
from rulesets.dragoborne.rules import DragoborneRulings
from rulesets.dragoborne.shields import absorbed_pmf, after_attack, p_stands, p_stands_turns, shield_rows

R = DragoborneRulings()
STACK = DragoborneRulings(shield_stack="stack")


def test_rules_md_case_and_the_rule():
    """A shield of 4 blocking ATK 3 has 1 left; a second attack destroys it, blocked all the same."""
    assert after_attack(4, 3) == 1 and after_attack(1, 3) == 0 and after_attack(4, 0) == 4


def _walk(values, atk):
    """Attacks absorbed by shields of these values, one attack at a time (the brute-force twin)."""
    n = 0
    for v in values:
        while v > 0:
            v = after_attack(v, atk)
            n += 1
    return n


@pytest.mark.parametrize("atk", [1, 2, 3, 4, 6, 7])
@pytest.mark.parametrize("shields", [1, 2, 3])
def test_absorbed_against_every_roll(atk, shields):
    rulings = R if shields == 1 else STACK
    want: dict[int, F] = {}
    for values in itertools.product(range(1, 7), repeat=shields):
        n = _walk(values, atk)
        want[n] = want.get(n, F(0)) + F(1, 6 ** shields)
    assert absorbed_pmf(atk, rulings, shields) == dict(sorted(want.items()))


def test_by_hand():
    assert absorbed_pmf(1) == {n: F(1, 6) for n in range(1, 7)}
    assert absorbed_pmf(3) == {1: F(1, 2), 2: F(1, 2)}
    assert p_stands(3, 1) == F(1, 2)  # it stands with 4, 5 or 6
    assert p_stands(2, 2) == F(2, 6)  # 5 or 6
    assert p_stands(6, 1) == 0
    assert p_stands(1, 6, DragoborneRulings(die=8)) == F(2, 8)
    # persistence: two turns of one ATK-2 attack wear down a shield that one turn does not
    assert p_stands_turns(2, 1, 2) == F(2, 6)
    assert p_stands_turns(2, 1, 2, DragoborneRulings(shield_persist=False)) == F(4, 6)


def test_the_table():
    rows = shield_rows()
    assert len(rows) == 36
    by = {(r.atk, r.attacks): r.p_stands for r in rows}
    assert by[3, 1] == F(1, 2) and by[1, 6] == 0
    for a in range(1, 7):  # more attacks never help it
        assert all(by[a, k] >= by[a, k + 1] for k in range(1, 6))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: absorbed_pmf(0), "0 ATK"),
    (lambda: absorbed_pmf(2, R, 2), "DG-shield-stack"),
    (lambda: absorbed_pmf(2, STACK, 4), "3 dice"),
    (lambda: p_stands(2, 31), "0..30"),
])
def test_bad_input(call, message):
    with pytest.raises(OptionError, match=message):
        call()


@pytest.mark.parametrize("faces", [6, 10])
def test_the_table_against_icepool(faces):
    """P(a fresh shield stands after k attacks of ATK a) = P(the die shows more than a x k), as icepool
    counts it."""
    import icepool

    die = icepool.d(faces)
    rulings = DragoborneRulings(die=faces)
    for r in shield_rows(rulings):
        assert float(r.p_stands) == pytest.approx(float(die.probability(">", r.atk * r.attacks)), abs=1e-15)
