"""Dragonbond in the balance layer: contests at equal points (rulesets/dragonbond/contest.py), their forces,
metrics, notes and coverage."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import rulesets
from rulesets.base import RulesError
from rulesets.dragonbond.battle import battle_notes
from rulesets.dragonbond.contest import METRIC_NAMES, force
from rulesets.dragonbond.kernels_battle import BattleRecord
from rulesets.dragonbond.rules import DEFAULT_BUDGET, MAX_BATTLE_UNITS, DragonbondRulings
from rulesets.dragonbond.simulate import Fighter, simulate_duel

RS = rulesets.get("dragonbond")
CATALOG = RS.load_catalog()
ENTRIES = {c.key: c for c in RS.contestants(CATALOG)}


def budget(points: int) -> DragonbondRulings:
    return DragonbondRulings().with_assignments([f"DB-budget={points}"])


def test_the_default_budget_fits_two_of_the_dearest_unit():
    dearest = max(c.cost for c in ENTRIES.values())
    assert DEFAULT_BUDGET == 2 * dearest == 600
    assert RS.budget_ruling == "DB-budget" and DragonbondRulings().budget == 600
    assert "Cost???" in DragonbondRulings.spec("DB-budget").meaning
    assert DragonbondRulings.spec("DB-composition").accepted == "copies|copies-unique"
    with pytest.raises(Exception, match="DB-budget"):
        DragonbondRulings().with_assignments(["DB-budget=10"])


@pytest.mark.parametrize(("key", "points", "units", "unspent"), [
    ("bucentaur-blades", 600, 6, 0.0),  # 100 points
    ("ferellon-fulgen", 600, 2, 0.0),  # 300
    ("kirin-wardens", 600, 7, 40.0),  # 80
    ("great-wyrm", 600, 2, 100.0),  # 250
    ("kirin-wardens", 5000, MAX_BATTLE_UNITS, 5000 - 16 * 80.0),  # at most 16 units a side
])
def test_a_side_fields_as_many_whole_units_as_the_budget_buys(key, points, units, unspent):
    f = force(ENTRIES[key], budget(points))
    assert (f.units, f.unspent) == (units, unspent)


@pytest.mark.parametrize(("key", "units", "unspent"), [
    ("ferellon-fulgen", 1, 300.0),  # Huge: "may not contain two versions of the same huge creature"
    ("dragon-queen", 1, 450.0),  # a General (Dragonriding): "up to one general"
    ("bucentaur-blades", 6, 0.0),  # other units as copies
])
def test_copies_unique_fields_one_huge_creature_or_general(key, units, unspent):
    unique = DragonbondRulings().with_assignments(["DB-composition=copies-unique"])
    f = force(ENTRIES[key], unique)
    assert (f.units, f.unspent) == (units, unspent)


def test_a_budget_that_buys_no_unit_is_refused_in_one_sentence():
    with pytest.raises(RulesError, match=r"Ferellon Fulgen \(300 points\) does not fit DB-budget=250; give a "
                                         r"larger --budget"):
        force(ENTRIES["ferellon-fulgen"], budget(250))


def test_a_cost_changes_the_play_only_through_the_units_a_budget_buys():
    """The play leaves the cost out; what a cost changes is the units DB-budget buys (cost_play): of 600
    points, 100 and 95 a unit buy as many Blades (6), 150 fewer (4), so only 150 is a battle played anew."""
    blades = CATALOG.unit("bucentaur-blades")

    def at(cost):
        units = {**CATALOG.units, blades.key: dataclasses.replace(blades, cost=cost)}
        return RS.contestants(dataclasses.replace(CATALOG, units=units), ["bucentaur-blades"])[0]

    today, rulings = ENTRIES["bucentaur-blades"], budget(600)
    assert at(150.0).play == at(95.0).play == today.play
    assert [RS.cost_play(c, rulings) for c in (today, at(95.0), at(150.0))] == [6, 6, 4]
    assert RS.plays_alike(today, at(95.0), rulings) and not RS.plays_alike(today, at(150.0), rulings)


def test_a_budget_of_one_unit_a_side_is_the_duel():
    """Blades and Phalanx cost 100: a budget of 100 fields one unit a side, and the contest's battle gives
    the duel's records for the same seed."""
    a, b = ENTRIES["bucentaur-blades"], ENTRIES["ogerron-phalanx"]
    engagement = RS.engage(a, b, budget(100), seed=4, trials=3000)
    duel = simulate_duel(Fighter(a.subject), Fighter(b.subject), budget(100), trials=3000, seed=4)
    assert np.array_equal(engagement.raw.records[:, :duel.records.shape[1]], duel.records)


def test_metrics_at_equal_points():
    """Six Blades (100 points) against seven Kirin Wardens (80 points; 40 unspent): every metric from the
    records by hand; the payoff is antisymmetric trial by trial."""
    a, b = ENTRIES["bucentaur-blades"], ENTRIES["kirin-wardens"]
    engagement = RS.engage(a, b, DragonbondRulings(), seed=2, trials=4000)
    rec = engagement.raw.records
    got = engagement.samples()
    assert set(got) == set(METRIC_NAMES)
    size = (Fighter(a.subject).models, Fighter(b.subject).models)
    units = (6, 7)
    cost = (100.0, 80.0)
    lost = rec[:, BattleRecord.LOST_0], rec[:, BattleRecord.LOST_1]
    for s in (0, 1):
        o = 1 - s
        destroyed, mine = lost[o] * cost[o] / size[o], lost[s] * cost[s] / size[s]
        np.testing.assert_allclose(got["points_destroyed"][s], destroyed)
        np.testing.assert_allclose(got["points_lost"][s], mine)
        np.testing.assert_allclose(got["units_worth_lost"][s], lost[s] / size[s])
        np.testing.assert_allclose(got["fraction_lost"][s], lost[s] / (size[s] * units[s]))
        np.testing.assert_allclose(got["net_points_per_100"][s], (destroyed - mine) / 6)
        np.testing.assert_allclose(got["units_lost"][s], rec[:, BattleRecord.UNITS_LOST_0 + s])
        assert set(got["units_fielded"][s]) == {units[s]}
    np.testing.assert_allclose(got["net_points_per_100"][0], -got["net_points_per_100"][1])
    assert set(got["points_unspent"][0]) == {0.0} and set(got["points_unspent"][1]) == {40.0}
    outcomes = got["win"][0] + got["loss"][0] + got["neither"][0] + got["both_destroyed"][0]
    assert set(outcomes) == {1.0}
    assert 0.01 < got["win"][0].mean() < 0.99, "a one-sided battle tests little"
    assert RS.payoff_metric == RS.primary_metric == "net_points_per_100"
    assert RS.payoff_scale(a, b) == 1.0
    rule = RS.fair_cost_rule
    assert (rule.kind, rule.gain, rule.loss) == ("even-trade", "points_destroyed", "units_worth_lost")
    assert rule.description.startswith("the even-trade price at equal points")


def test_notes_say_budget_composition_unspent_and_what_battles_leave_out():
    notes = RS.notes(CATALOG, list(ENTRIES.values()))
    text = " ".join(notes)
    for words in ("DB-budget", "DB-composition", "points_unspent", "Cost???", "illustrative"):
        assert words in text
    assert all(note in notes for note in battle_notes())


def test_coverage_plays_flying_and_epic_in_battles():
    fulgen = RS.coverage(ENTRIES["ferellon-fulgen"], DragonbondRulings())
    assert fulgen.measured
    assert "Epic 1" in fulgen.played
    assert any(p.startswith("Flying (a defense die upgraded") for p in fulgen.played)
    assert any(u.startswith("Flying (ignoring terrain") for u in fulgen.unplayed)
