"""`balance army dragoborne`: armies are decks (seed 001 lines 143-149).

"A deck consisting of 50 or more cards. (Not including banner cards.) A deck may have up to 4 cards with the
same card name." (lines 145-146). An army is a catalog deck's spells and banners (its frame, kept) and
creature cards, 50 cards in all; the field is the entries' home decks as they stand.
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
from rulesets.dragoborne import army, simulate
from rulesets.dragoborne.contest import home_deck

RS = rulesets.get("dragoborne")
RULINGS = RS.rulings()
CATALOG = RS.catalog_for(RS.load_catalog(), RULINGS)
CS = {c.key: c for c in RS.contestants(CATALOG)}
RED = army.frame_contestant(CATALOG.deck("red-blaze"), CATALOG)
GREEN = army.frame_contestant(CATALOG.deck("green-grove"), CATALOG)


def field(key: str):
    return list(RS.field_army(CS[key], list(CS.values()), RULINGS))


def swapped(force, out: str, into: str):
    """``force`` with one copy of card ``out`` replaced by one of ``into``."""
    units = {c.key: [c, n] for c, n in force}
    units[out][1] -= 1
    units.setdefault(into, [CS[into], 0])[1] += 1
    return [(c, n) for c, n in units.values() if n]


def test_a_deck_spends_50_cards_a_frame_its_spells_a_creature_one():
    spend = RS.army_budget(RULINGS)
    assert (spend.amount, spend.unit, spend.of(1), spend.of(50)) == (50, "cards", "1 card", "50 cards")
    # Red Blaze's spells: Spark Bolt 2, Blazing Fury 4, Fire Rain 3, Nature's Wrath 2, Volcanic Wrath 2
    assert RS.army_price(RED) == 13 and RS.army_price(GREEN) == 15
    assert RS.army_price(CS["pyre-drake"]) == 1
    # the frame's cost: its spells' printed costs, 2x1 + 4x2 + 3x3 + 2x4 + 2x6
    assert RED.cost == 39


def test_the_field_army_is_the_home_deck_as_it_stands():
    for key in ("pyre-drake", "ember-raider", "elder-treant"):
        force = field(key)
        deck = army.deck(force, "k")
        home = home_deck(CS[key].subject[0], CATALOG)
        assert deck.copies == home.copies and deck.banners == home.banners
        assert RS.army_incomplete(force, RULINGS) is None
        assert RS.army_name(force) == home.name


@pytest.mark.parametrize("change, why", [
    (lambda f: [*f, (GREEN, 1)], "one catalog deck's spells and banners"),
    (lambda f: [(c, n + 1 if c.key == "pyre-drake" else n) for c, n in f], "5 copies of Pyre Drake"),
    (lambda f: [*f, (CS["moss-sprite"], 1)], "a deck of 51 cards"),
    (lambda f: [(c, 2 if army.is_frame(c) else n) for c, n in f], "once, not 2 times"),
])
def test_what_a_deck_may_not_hold(change, why):
    with pytest.raises(RulesError, match=re.escape(why)):
        RS.check_army(change(field("pyre-drake")), RULINGS)


def test_a_deck_is_complete_with_a_frame_at_50_cards():
    force = field("pyre-drake")
    assert RS.army_incomplete(force[1:], RULINGS).startswith("not a deck: no catalog deck's spells")
    short = [(c, n - 1 if c.key == "pyre-drake" else n) for c, n in force]
    assert RS.army_incomplete(short, RULINGS) == "not a deck: 49 cards, not 50 (lines 145-146)"
    assert RS.army_incomplete(swapped(force, "pyre-drake", "moss-sprite"), RULINGS) is None


def test_a_deck_is_named_by_its_catalog_deck_and_the_cards_it_changes():
    force = swapped(swapped(field("pyre-drake"), "ash-scout", "moss-sprite"), "cinder-whelp", "moss-sprite")
    assert RS.army_name(force) == "Red Blaze -1 Ash Scout -1 Cinder Whelp +2 Moss Sprite"
    deck = army.deck(force, "k")
    assert deck.copies["moss-sprite"] == 2 and deck.copies["ash-scout"] == 3 and deck.size == 50
    assert deck.banners == ("red", "red", "green")


def test_an_army_engagement_plays_the_two_decks_games():
    a, b = field("pyre-drake"), field("elder-treant")
    eng = RS.army_engage(a, b, RULINGS, seed=5, trials=600, threads=1)
    m = simulate.matchup(CATALOG, "red-blaze", "green-grove", rulings=RULINGS)
    direct = simulate.run(m, 600, 5, threads=1, block_trials=256, max_batch_trials=256)
    assert np.array_equal(eng.raw, direct.records)
    names = [m.name for m in RS.metrics]
    side0, side1 = eff.summarize_sides(eng, names)
    winner = direct.records[:, simulate.K.R_WINNER]
    assert side0.mean[names.index("win")] == pytest.approx((winner == 0).mean())
    assert side1.mean[names.index("win")] == pytest.approx((winner == 1).mean())
    # no card replaced: no change that a card made
    assert side0.mean[names.index("win_gain")] == 0 == side1.mean[names.index("win_gain")]
    assert eng.a.name == "Red Blaze" and eng.b.name == "Green Grove"
    with pytest.raises(RulesError, match="not a deck: 49 cards"):
        RS.army_engage(a[:-1] + [(a[-1][0], a[-1][1] - 1)], b, RULINGS, seed=5, trials=100, threads=1)


@pytest.fixture(scope="module")
def searched():
    return searched_twice(RS, RULINGS, CS.values(), seed=3, search_limit=25)


def test_the_search_brings_a_legal_deck_the_same_for_any_threads(searched):
    one, two = searched
    assert_same_tables(one, two)
    assert one.kinds == 51 and one.budget == 50 and one.spend.unit == "cards"
    for deck_army, force in shown_forces(one):
        RS.check_army(force, RULINGS)
        assert RS.army_incomplete(force, RULINGS) is None and deck_army.unspent == 0
        assert army.deck(force, "k").size == 50
    # the field: each home deck once, named and keyed as a deck, with the entries it is the army of
    assert [a.name for a in one.field_armies] == ["Green Grove", "Red Blaze"]
    assert sorted(len(one.fielded_by[a.key]) for a in one.field_armies) == [8, 8]
    assert list(armies.tables(one).field["entry"]) == ["Green Grove", "Red Blaze"]
    start = {a.key: r.value for a, r in one.best_search.ranked}
    assert all(one.best.mix.value >= start[a.key] - 1e-12 for a in one.field_armies if a.key in start)


def test_the_report_names_the_decks_and_the_field_once(searched):
    result, _ = searched
    report = armies.report(result, provenance=[])
    assert report.title == "Dragoborne: the army a sharp player brings at 50 cards"
    meta = dict(report.meta)
    assert meta["budget"].startswith("a deck: 50 cards beside its banners")
    assert meta["field"].startswith("2 armies, those the game's rules give its entries")
    assert "Red Blaze, the army of Ash Scout, Cinder Whelp" in meta["field"]
    assert report.headline[0].startswith(f"Best army at 50 cards: {result.best.army.name} (")


def test_a_budget_is_refused_for_decks(capsys):
    assert_one_line_error(capsys, ["army", "dragoborne", "--budget", "5"], 2,
                          "dragoborne's contests are not bought from a budget")


def test_entries_of_one_home_deck_field_one_army_too_few_for_a_meta_game(capsys):
    assert_one_line_error(capsys, ["army", "dragoborne", "--unit", "pyre-drake", "--unit", "magma-hound"], 1,
                          "2 entries field 1 army at a deck: 50 cards")
    assert_one_line_error(capsys, ["army", "dragoborne", "--unit", "pyre-drake", "--unit", "magma-hound"], 1,
                          "the meta-game needs two: give more --unit")
    # a deck holds about a dozen names: five kinds make none
    assert_one_line_error(capsys, ["army", "dragoborne", "--kinds", "5"], 1,
                          "give a larger --kinds or more --unit")
