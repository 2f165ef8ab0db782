"""The Python API (reports.api): one function per verb, DataFrames with their provenance in .attrs."""

from __future__ import annotations

import pytest

from reports import api
from rulesets.base import OptionError, RulesError
from rulesets.games import Game

SMALL = {"units": ["crows", "warriors"], "trials": 1000, "seed": 5}


def test_efficiency_tables_and_attrs():
    tables = api.efficiency("drakerys", **SMALL)
    rank = tables.ranking
    assert len(rank) == 6 and {"fair_cost", "verdict", "value_per_cost"} <= set(rank.columns)
    for frame in (rank, tables.metagame, tables.matchups, tables.win_matrix):
        assert frame.attrs["seed"] == "5" and "sha256" in frame.attrs["catalog"]
        assert frame.attrs["rulings"].startswith("DK-crit-chain=true")
        assert "efficiency(units=" in frame.attrs["overrides"]
    assert tables.metagame["share"].sum() == pytest.approx(1.0)


def test_whatif_headline_and_costing():
    diff = api.whatif("drakerys", sets=["warriors.combat=4"], **SMALL)
    assert set(diff.metric) >= {"win", "net_ap_per_100ap", "value_per_cost"}
    head = diff.attrs["headline"]
    assert head["paired_half_width"] < head["independent_half_width"]
    assert diff.attrs["change"] == "warriors.combat=4"
    assert {row["key"] for row in diff.attrs["costing"]} == {"warriors@4", "warriors@6", "warriors@12"}


def test_sweep_and_break_even():
    curve = api.sweep("drakerys", cost_range="crows=100..220/60", **SMALL)
    assert list(curve.columns) == ["unit", "parameter", "point", "metric", "value", "stderr"]
    assert set(curve.point) == {"100", "160", "220"}
    even = curve.attrs["break_even"]
    assert even is None or even[1] <= even[0] <= even[2]


def test_table_roll_duel_units():
    table = api.table("drakerys", "action")
    assert {"dice", "threshold", "successes", "probability"} <= set(table.columns)
    assert table.attrs["method"] == "exact" and "DK-crit-chain" in table.attrs["rulings"]
    roll = api.roll("drakerys", dice=2, threshold=6)
    # two dice at 6+: P(0) = 0.5^2 exactly (a 10 only adds dice to a success)
    assert roll.loc[roll.successes == 0, "probability"].item() == pytest.approx(0.25, abs=1e-15)
    duel = api.duel("drakerys", "crows", "gold-keepers", trials=2000)
    assert "P(A wins)" in set(duel.quantity)
    units = api.units("drakerys", profiled=True)
    assert "crows" in set(units.key)


def unimplemented_game(monkeypatch):
    """A sixth, unimplemented ruleset "chess" registered as a plug-in (rulesets.games): all five games
    fulfil the contract."""
    from importlib.metadata import EntryPoint

    import rulesets

    points = {**rulesets.discover(), "chess": EntryPoint("chess", "test_api:CHESS", rulesets.GROUP)}
    monkeypatch.setattr(rulesets, "discover", lambda: points)
    return rulesets.get("chess")


def _chess():
    from rulesets.base import Ruleset
    from rulesets.dragoborne.rules import DragoborneRulings

    return Ruleset("chess", "Chess", "999", DragoborneRulings, "a ruleset that declares its rulings only")


CHESS = Game(_chess)


def test_api_errors_are_rules_errors(monkeypatch):
    unimplemented_game(monkeypatch)
    with pytest.raises(RulesError, match="chess is not implemented"):
        api.efficiency("chess")
    with pytest.raises(RulesError, match="no table"):
        api.table("drakerys", "nosuch")
    with pytest.raises(OptionError, match="UNIT.STAT=VALUE"):
        api.whatif("drakerys", sets=["crows"])


def test_api_roll_defaults_to_each_games_first_kind():
    """`api.roll(game, ...)` without a kind rolls the game's own first kind (it asked every game for
    Drakerys' "action" before)."""
    pool = api.roll("dragonbond", dice="3G")
    assert abs(pool.probability.sum() - 1.0) < 1e-12
    attack = api.roll("warbound", dice=1, target=7)
    assert list(attack.columns[:4]) == ["wounds", "breaks", "stress", "probability"]
    assert abs(attack[attack.wounds == 1].probability.sum() - 5 / 12) < 1e-12
    assert abs(api.roll("drakerys", dice=1, threshold=10).probability.iloc[0] - 0.9) < 1e-12


def test_whatif_change_names_a_ruling_set_to_its_unset_defaults_value():
    """UberDrakes' UD-policy left unset prices with optimal play; set to greedy (its printed default) it is a
    change, and the change line says so."""
    report, _ = api.whatif_report("uberdrakes", rulings=["UD-policy=greedy"],
                                  units=["fire-breath", "acid-rain"])
    assert "ruling UD-policy greedy (its default, unset) → greedy" in dict(report.meta)["change"]
