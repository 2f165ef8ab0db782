"""Warbound contests in the balance layer: the Order economy both sides spend (WB-economy), with numbers."""

from __future__ import annotations

import numpy as np
import pytest

import rulesets
from rulesets.base import RulesError
from rulesets.warbound import kernels as K
from rulesets.warbound.catalog import ANY_FACTION, REFERENCE_LEADER
from rulesets.warbound.contest import _fighter
from rulesets.warbound.deck import Deck, DeckEntry, deck_problems
from rulesets.warbound.rules import WarboundRulings

RS = rulesets.get("warbound")
CATALOG = RS.load_catalog()
SAME, FACTION = WarboundRulings(), WarboundRulings(economy="faction-leader")


def _contestant(key: str):
    return next(c for c in RS.contestants(CATALOG) if c.key == key)


def test_same_leader_is_the_default_and_both_sides_spend_the_reference_leader():
    assert SAME.economy == "same-leader"
    ref = CATALOG.leader(REFERENCE_LEADER)
    assert (ref.faction, ref.orders, ref.is_illustrative) == (ANY_FACTION, (4, 4), True)
    copp, roh_na = _contestant("copp"), _contestant("roh-na@formation")
    for c in (copp, roh_na):
        assert c.subject.leader_for(SAME) is ref
        f = _fighter(c.subject, SAME)
        # tokens of any colour pay the coloured cost one for one: COPP 2 + 1 Raiders, Roh'na 1 + 2 Orkedo + 1
        assert f.orders == (4, 4) and f.same_faction
    assert _fighter(copp.subject, SAME).price(copp.subject.front) == 3
    assert _fighter(roh_na.subject, SAME).price(roh_na.subject.front) == 4


def test_faction_leader_is_todays_economy():
    copp, roh_na = _contestant("copp"), _contestant("roh-na")
    assert copp.subject.leader_for(FACTION).key == "raiders-warlord"
    assert roh_na.subject.leader_for(FACTION).key == "orkedo-chief"
    assert _fighter(copp.subject, FACTION).orders == (3, 4)
    assert _fighter(roh_na.subject, FACTION).orders == (4, 3)


def test_the_economy_changes_the_contest_and_its_value():
    """COPP in Formation (4 tokens an activation) against Roh'na: the Raiders Warlord makes 3 tokens in turns
    1-2, too few for one activation but the Move (its coloured token only, line 157); the reference Leader
    makes 4. COPP alone (3 tokens) acts once a turn under either, and its duel is the same draw for draw."""
    copp, formation, roh_na = _contestant("copp"), _contestant("copp@formation"), _contestant("roh-na")
    runs = {(a.key, r.economy): RS.engage(a, roh_na, r, seed=3, trials=4000)
            for a in (copp, formation) for r in (SAME, FACTION)}
    assert np.array_equal(runs["copp", "same-leader"].raw, runs["copp", "faction-leader"].raw)
    same, faction = runs["copp@formation", "same-leader"].raw, runs["copp@formation", "faction-leader"].raw
    # more shots in turns 1-2: more tokens spent, and Roh'na wounded more often
    assert same[:, K.R_TOKENS_0].mean() > faction[:, K.R_TOKENS_0].mean() + 1
    assert same[:, K.R_WOUNDS_1].mean() > faction[:, K.R_WOUNDS_1].mean() + 0.2
    value = {r: runs["copp@formation", r].samples()["net_per_token"][0].mean()
             for r in ("same-leader", "faction-leader")}
    assert value["same-leader"] > value["faction-leader"] + 0.1


def test_same_leader_without_a_reference_leader_is_a_domain_error():
    import dataclasses

    leaders = {k: v for k, v in CATALOG.leaders.items() if k != REFERENCE_LEADER}
    bare = dataclasses.replace(CATALOG, leaders=leaders)
    copp = next(c for c in RS.contestants(bare) if c.key == "copp")
    with pytest.raises(RulesError, match="no Leader 'reference'.*WB-economy=faction-leader"):
        RS.engage(copp, copp, SAME, seed=1, trials=10)
    assert np.isfinite(RS.engage(copp, copp, FACTION, seed=1, trials=10).samples()["net_tokens"]).all()


def test_the_reference_leader_makes_tokens_of_every_faction_for_upgrades():
    """A faction Vocation attaches to a Leader "that generates Order tokens of the indicated faction" (309):
    the reference Leader makes every colour, so the Raiders' Veteran's attaches to it; not to the Orkedo
    Chief."""
    entries = (DeckEntry("copp", formation="formation"), DeckEntry("analyst"), DeckEntry("roh-na"),
               DeckEntry("ork-edo-drummer"), DeckEntry("oshi-goru"))
    assert deck_problems(Deck(REFERENCE_LEADER, "veterans", entries), CATALOG) == []
    problems = deck_problems(Deck("orkedo-chief", "veterans", entries), CATALOG)
    assert len(problems) == 1 and "raiders Vocation card" in problems[0]


def test_the_notes_name_the_reference_leader_and_its_orders():
    notes = " ".join(RS.notes(CATALOG, RS.contestants(CATALOG)))
    assert "WB-economy" in notes and "Reference Leader, 4 then 4 Order tokens a turn" in notes
    assert "illustrative: not a printed card" in notes
