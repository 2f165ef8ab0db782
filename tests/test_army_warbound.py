"""`balance army warbound`: armies are Exploration decks (seed 004 lines 65-79).

"To build your deck for The Exploration format, you'll need to select 8 cards" (line 69), "A deck must
contain exactly one Leader card" (77), "An Exploration deck must include at least 2 Upgrade cards" (79),
"it is prohibited to have multiple cards with the same name within a deck" (71). An army spends the 7
cards beside its Leader: a character 1, its Formation card 1 more; the catalog's one Vocation fills a
card left over (its text is not printed: nothing is played).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from army_runs import assert_same_tables, searched_twice, shown_forces
from cli_run import assert_one_line_error

import rulesets
from reports import army as armies
from reports import efficiency as eff
from rulesets.base import RulesError
from rulesets.warbound.deck import deck_problems
from rulesets.warbound.kernels_warband import damage_column
from rulesets.warbound.warband import army_deck, army_order, army_warband, companions, simulate_warband

RS = rulesets.get("warbound")
RULINGS = RS.rulings()
CATALOG = RS.catalog_for(RS.load_catalog(), RULINGS)
CS = {c.key: c for c in RS.contestants(CATALOG)}


def force(*keys: str):
    return [(CS[k], 1) for k in keys]


def test_a_deck_is_priced_in_cards_beside_its_leader():
    spend = RS.army_budget(RULINGS)
    assert (spend.amount, spend.unit, spend.of(1), spend.of(3)) == (7, "cards", "1 card", "3 cards")
    assert RS.army_price(CS["copp"]) == 1 and RS.army_price(CS["copp@formation"]) == 2
    assert RS.army_kinds == 5


@pytest.mark.parametrize("keys, why", [
    (("copp", "copp@formation"), "COPP and COPP (Formation): one card of a name"),
    # the catalog's quirk: perhaps one name misspelt (line 569)
    (("roh-na", "rah-na"), "Roh'na and Rah'na: one card"),
    (("copp", "analyst", "splatter", "roh-na", "oshi-goru", "ork-edo-drummer"), "6 characters"),
    (("copp@formation", "analyst@formation", "splatter@formation", "roh-na@formation"), "8 character"),
])
def test_what_a_deck_may_not_hold(keys, why):
    with pytest.raises(RulesError, match=re.escape(why)):
        RS.check_army(force(*keys), RULINGS)
    with pytest.raises(RulesError, match="not 2"):
        RS.check_army([(CS["copp"], 2)], RULINGS)


@pytest.mark.parametrize("keys, complete", [
    # 5 characters alone: 1 Leader + 5 + the Vocation = 7 cards and 1 Upgrade
    (("copp", "analyst", "splatter", "roh-na", "oshi-goru"), False),
    # one in Formation: 1 + 5 + 1 Formation card + the Vocation = 8 cards, 2 Upgrades
    (("copp@formation", "analyst", "splatter", "roh-na", "oshi-goru"), True),
    # 4 characters, 3 in Formation: 1 + 4 + 3 = 8, no Vocation
    (("copp@formation", "analyst@formation", "splatter@formation", "roh-na"), True),
    # 3 in Formation: 1 + 3 + 3 + the Vocation = 8
    (("copp@formation", "analyst@formation", "splatter@formation"), True),
    (("copp@formation", "analyst@formation"), False),
])
def test_a_deck_is_complete_at_8_cards_with_2_upgrades(keys, complete):
    RS.check_army(force(*keys), RULINGS)
    why = RS.army_incomplete(force(*keys), RULINGS)
    assert (why is None) == complete, why
    deck, problems = army_deck(force(*keys), RULINGS)
    assert (deck.cards == 8 and deck.upgrades >= 2) == complete and (not problems) == complete


def test_the_field_army_is_the_entry_with_its_companions():
    got = RS.field_army(CS["splatter"], list(CS.values()), RULINGS)
    want = [("splatter", None), *((c.key, card) for c, card in companions(CATALOG, "splatter"))]
    assert [(c.subject.character.key, c.subject.card) for c, _ in got] == want
    assert [c.key for c, _ in got] == ["splatter", "oshi-goru@formation", "ork-edo-drummer@formation",
                                       "analyst"]
    assert RS.army_incomplete(got, RULINGS) is None
    alone = RULINGS.with_assignments(["WB-warband=alone"])
    with pytest.raises(RulesError, match="WB-warband=alone plays each entry alone"):
        RS.field_army(CS["splatter"], list(CS.values()), alone)


def test_a_deck_acts_in_catalog_order_whatever_its_listing():
    listed = force("ork-edo-drummer@formation", "copp", "analyst@formation", "splatter")
    assert [e.character.key for e in army_order(listed)] == ["copp", "analyst", "splatter", "ork-edo-drummer"]
    band = army_warband(listed, RULINGS)
    assert band.minis == (1, 2, 1, 2) and band.worths == (3, 3, 2, 3)


def test_an_army_engagement_plays_the_decks_and_values_each_character_at_its_own_cost():
    a = force("copp@formation", "analyst", "splatter", "oshi-goru@formation")
    b = force("roh-na@formation", "ork-edo-drummer@formation", "orkedo-player", "analyst")
    eng = RS.army_engage(a, b, RULINGS, seed=5, trials=600, threads=1)
    bands = army_warband(a, RULINGS), army_warband(b, RULINGS)
    direct = simulate_warband(*bands, CATALOG.board, RULINGS, trials=600, seed=5, threads=1)
    assert np.array_equal(eng.raw.records, direct.records)
    names = [m.name for m in RS.metrics]
    side0, side1 = eff.summarize_sides(eng, names)
    # tokens' worth destroyed by side 0: each enemy character's cost x the fraction of its Health lost
    rec = direct.records
    destroyed = sum(bands[1].worths[k] * rec[:, damage_column(1, k)].mean() / bands[1].members[k].front.health
                    for k in range(4))
    assert side0.mean[names.index("cost_destroyed")] == pytest.approx(destroyed)
    assert side1.mean[names.index("cost_lost")] == pytest.approx(destroyed)
    assert eng.a.cost == 3 + 3 + 2 + 3 and eng.b.cost == sum(bands[1].worths)
    with pytest.raises(RulesError, match="not an Exploration deck"):
        RS.army_engage(force("copp"), b, RULINGS, seed=5, trials=100, threads=1)


@pytest.fixture(scope="module")
def searched():
    return searched_twice(RS, RULINGS, CS.values(), seed=2, search_limit=30)


def test_the_search_brings_a_legal_deck_the_same_for_any_threads(searched):
    one, two = searched
    assert_same_tables(one, two)
    assert one.kinds == 5 and one.budget == 7 and one.spend.unit == "cards"
    for army, force_ in shown_forces(one):
        assert deck_problems(army_deck(force_, RULINGS)[0], CATALOG) == []
        assert army.unspent == 7 - sum(RS.army_price(c) for c, _ in force_)
    # every entry's field army is its deck, keyed by the first entry it is the deck of: a deck that is
    # several entries' (the same characters) is fielded once
    fielding = sorted(n for a in one.field_armies for n in one.fielded_by[a.key])
    assert fielding == sorted(c.name for c in CS.values())
    assert all(CS[a.key].name == one.fielded_by[a.key][0] for a in one.field_armies)
    assert len({a.counts for a in one.field_armies}) == len(one.field_armies) < len(CS)
    assert all(len(a.counts) == 4 for a in one.field_armies)
    # the best army is at least as good against the mix as every field army that started the search
    start = {a.key: r.value for a, r in one.best_search.ranked}
    assert all(one.best.mix.value >= start[a.key] - 1e-12 for a in one.field_armies if a.key in start)


def test_the_report_names_the_deck_and_its_cards(searched):
    result, _ = searched
    report = armies.report(result, provenance=[])
    assert report.title == "Warbound: the army a sharp player brings at 7 cards"
    meta = dict(report.meta)
    assert meta["budget"].startswith("an Exploration deck: 8 cards")
    assert "taking at most 7 cards" in meta["armies"]
    shared = f"{len(result.field_armies)} armies, those the game's rules give its entries"
    assert meta["field"].startswith(shared)
    assert report.facts["budget_unit"] == "cards"
    assert " unspent)" in report.headline[0] and "Order tokens" in report.headline[0]


def test_a_budget_is_refused_for_decks(capsys):
    assert_one_line_error(capsys, ["army", "warbound", "--budget", "5"], 2,
                          "warbound's contests are not bought from a budget")
