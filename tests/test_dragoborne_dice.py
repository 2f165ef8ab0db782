"""Dragoborne's dice conditions (DICE X-Y, line 282), exact: RULES.md §5's cases, a brute-force
enumeration of every roll, icepool, and the rulings that change which dice count."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import icepool
import pytest

from rulesets.base import OptionError
from rulesets.dragoborne.dice import (
    Condition,
    condition_odds,
    parse_condition,
    parse_dice,
)
from rulesets.dragoborne.rules import DragoborneRulings

R = DragoborneRulings()
RRG = ("red", "red", "green")


@pytest.mark.parametrize(("dice", "condition", "want"), [
    (RRG, Condition("red", 4, 6), F(3, 4)),
    (RRG, Condition("green", 4, 6), F(1, 2)),
    (RRG, Condition("red", 6, 6), F(11, 36)),
    (RRG, Condition("white", 5, 6), F(19, 27)),
    (("red", "red", "red"), Condition("red", 1, 3), F(7, 8)),
])
def test_rules_md_cases(dice, condition, want):
    assert condition_odds(dice, (condition,)).each[0] == want


def _brute(dice, conditions, faces, mode):
    hits = 0
    for roll in itertools.product(range(1, faces + 1), repeat=len(dice)):
        met = [any(c.met_by(col, v) for col, v in zip(dice, roll, strict=True)) for c in conditions]
        hits += all(met) if mode == "all" else any(met)
    return F(hits, faces ** len(dice))


@pytest.mark.parametrize("faces", [6, 8])
@pytest.mark.parametrize("conditions", [
    (Condition("red", 4, 6), Condition("green", 1, 2)),
    (Condition("red", 5, 6), Condition("red", 1, 1)),  # two conditions of one colour
    (Condition("white", 6, 6), Condition("red", 3, 5), Condition("green", 2, 2)),
])
def test_all_and_any_against_every_roll(faces, conditions):
    """Inclusion-exclusion against the enumeration of every roll, a die free to meet several conditions."""
    rulings = DragoborneRulings(die=faces)
    odds = condition_odds(RRG, conditions, rulings)
    assert odds.all == _brute(RRG, conditions, faces, "all")
    assert odds.any == _brute(RRG, conditions, faces, "any")
    for c, p in zip(conditions, odds.each, strict=True):
        assert p == _brute(RRG, (c,), faces, "any")


@pytest.mark.parametrize(("k", "low", "high"), [(1, 4, 6), (2, 6, 6), (3, 1, 3), (2, 2, 5)])
def test_icepool(k, low, high):
    """P(at least one of k dice of the colour in X-Y) as icepool counts it."""
    hits = k @ icepool.d6.map(lambda x: 1 if low <= x <= high else 0)
    want = hits.probability(">=", 1)
    dice = ("red",) * k + ("green",) * (3 - k)
    assert float(condition_odds(dice, (Condition("red", low, high),)).each[0]) == pytest.approx(
        float(want), abs=1e-15)


def test_assigned_dice_and_the_rulings():
    """A red die assigned at 5: unassigned-only keeps it at 5 (it meets red 4-6 surely); all-keep rolls it
    again; all-return rolls it again and it counts as unassigned. DG-condition-dice=unassigned drops it
    (unless it came back)."""
    cond = (Condition("red", 4, 6),)
    assert condition_odds(RRG, cond, R, {0: 5}).each[0] == 1
    assert condition_odds(RRG, cond, DragoborneRulings(reroll_assigned="all-keep"), {0: 5}).each[0] == F(3, 4)
    only = DragoborneRulings(condition_dice="unassigned")
    assert condition_odds(RRG, cond, only, {0: 5}).each[0] == F(1, 2)  # the other red die alone
    back = DragoborneRulings(condition_dice="unassigned", reroll_assigned="all-return")
    assert condition_odds(RRG, cond, back, {0: 5}).each[0] == F(3, 4)
    # both red dice held at 2 and 3 meet nothing of 4-6
    assert condition_odds(RRG, cond, R, {0: 2, 1: 3}).each[0] == 0


@pytest.mark.parametrize(("call", "message"), [
    (lambda: parse_dice("red,green"), "3 dice"),
    (lambda: parse_dice("red,white,green"), "white"),
    (lambda: parse_dice("red,gr33n,green"), "colour name"),
    (lambda: parse_condition("red 4-6"), "COLOUR:X-Y"),
    (lambda: condition_odds(RRG, (Condition("red", 4, 7),)), "1-6"),
    (lambda: condition_odds(RRG, (Condition("red", 5, 4),)), "low <= high"),
    (lambda: condition_odds(RRG, (Condition("blue", 1, 6),)), "no die is blue"),
    (lambda: condition_odds(RRG, (Condition("red", 1, 6),), R, {0: 9}), "not a face"),
])
def test_bad_input(call, message):
    with pytest.raises(OptionError, match=message):
        call()


def test_parsing():
    assert parse_dice(" Red, red ,GREEN") == RRG
    assert parse_condition("white:6") == Condition("white", 6, 6)
    assert parse_condition("red:4-6") == Condition("red", 4, 6)
