"""Warbound contests in the balance layer: the Order economy both sides spend (WB-economy), with numbers."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import rulesets
from rulesets.base import RulesError
from rulesets.warbound import kernels_warband as KW
from rulesets.warbound.catalog import ANY_FACTION, REFERENCE_LEADER
from rulesets.warbound.deck import Deck, DeckEntry, deck_problems
from rulesets.warbound.rules import WarboundRulings
from rulesets.warbound.simulate import side_of

RS = rulesets.get("warbound")
CATALOG = RS.load_catalog()
SAME, FACTION = WarboundRulings(), WarboundRulings(economy="faction-leader")


def _fighter(entry, rulings):
    """The entry as its contests play it: led by the Leader WB-economy names."""
    return side_of(entry.character, entry.leader_for(rulings), entry.card)


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
    """One character a side (WB-warband=alone): COPP in Formation (4 tokens an activation) against Roh'na:
    the Raiders Warlord makes 3 tokens in turns 1-2, too few for one activation but the Move (its coloured
    token only, line 157); the reference Leader makes 4. COPP alone (3 tokens) acts once a turn under either,
    and its contest is the same draw for draw. With companions the economy changes COPP's contest too (the
    Orkedo companions' coloured costs take two Raiders tokens each)."""
    copp, formation, roh_na = _contestant("copp"), _contestant("copp@formation"), _contestant("roh-na")
    alone = {r.economy: dataclasses.replace(r, warband="alone") for r in (SAME, FACTION)}
    runs = {(a.key, economy): RS.engage(a, roh_na, r, seed=3, trials=4000).raw.records
            for a in (copp, formation) for economy, r in alone.items()}
    assert np.array_equal(runs["copp", "same-leader"], runs["copp", "faction-leader"])
    same, faction = runs["copp@formation", "same-leader"], runs["copp@formation", "faction-leader"]
    # more shots in turns 1-2: more tokens spent, and Roh'na wounded more often
    assert same[:, KW.Record.TOKENS_0].mean() > faction[:, KW.Record.TOKENS_0].mean() + 1
    assert same[:, KW.Record.WOUNDS_1].mean() > faction[:, KW.Record.WOUNDS_1].mean() + 0.2
    value = {economy: RS.engage(formation, roh_na, r, seed=3, trials=4000).samples()["net_per_token"][0]
             .mean() for economy, r in alone.items()}
    assert value["same-leader"] > value["faction-leader"] + 0.1
    companions = {r.economy: RS.engage(copp, roh_na, r, seed=3, trials=4000).raw.records
                  for r in (SAME, FACTION)}
    assert not np.array_equal(companions["same-leader"], companions["faction-leader"])


def test_same_leader_without_a_reference_leader_is_a_domain_error():
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
    assert ("the first 2 in Formation: Oshi'goru (Formation), Ork'edo Drummer (Formation), Analyst unless "
            "an entry is one of them") in notes


# --- Warband contests (WB-warband, WB-targeting) -----------------------------------------------------------


def test_companions_are_the_first_three_that_no_entry_is_and_two_are_in_formation():
    from rulesets.warbound.warband import companions

    names = [(c.key, card.key if card is not None else None) for c, card in companions(CATALOG, "splatter",
                                                                                        "copp")]
    assert names == [("oshi-goru", "oshi-goru"), ("ork-edo-drummer", "formation"), ("analyst", None)]
    # an entry that is a companion is replaced by the next; Rah'na counts as Roh'na (one name, line 569)
    assert [c.key for c, _ in companions(CATALOG, "oshi-goru", "analyst")] == ["ork-edo-drummer", "copp",
                                                                               "roh-na"]
    assert [c.key for c, _ in companions(CATALOG, "rah-na", "analyst")] == ["oshi-goru", "ork-edo-drummer",
                                                                            "copp"]


def test_every_contest_fields_two_legal_exploration_decks():
    """Under the defaults every side's deck is legal: 8 cards, one Leader, at least 2 Upgrades, no two cards
    of a name (lines 69-87) - the entry alone takes the Vocation Veteran's to make 8 cards."""
    from rulesets.warbound.deck import EXPLORATION_SIZE
    from rulesets.warbound.warband import companions, deck_of

    entries = RS.contestants(CATALOG)
    for a in entries:
        for b in entries:
            if a.key == b.key:
                continue
            fielded = companions(CATALOG, a.group, b.group)
            for e in (a.subject, b.subject):
                deck, problems = deck_of(CATALOG, (e.character, e.card), fielded, e.leader_for(SAME))
                assert problems == [] and deck.cards == EXPLORATION_SIZE, (a.key, b.key, problems)
                assert (deck.vocation is not None) == (not e.formation)
    # under WB-economy=faction-leader an Orkedo entry alone has no Vocation its Leader can take: 7 cards,
    # as the notes say
    roh_na = _contestant("roh-na").subject
    deck, problems = deck_of(CATALOG, (roh_na.character, None), companions(CATALOG, "roh-na", "copp"),
                             roh_na.leader_for(FACTION))
    assert deck.cards == 7 and deck.vocation is None and "exactly 8 (line 69)" in problems[0]
    assert "none fits Orkedo Chief (WB-economy=faction-leader): 7 cards" in " ".join(RS.notes(CATALOG, []))


def _result(records, a, b):
    """A WarbandResult of hand-made records for contestants a and b under the defaults."""
    from rulesets.warbound.warband import WarbandResult, contest_sides

    side_a, side_b = contest_sides(a.subject, b.subject, SAME)
    return WarbandResult(side_a, side_b, SAME, np.array(records, np.int64), 0, None, False)


def test_the_metrics_by_hand():
    """COPP (3 tokens, Health 3) with Oshi'goru in Formation (3 tokens, Health 3), the Ork'edo Drummer in
    Formation (3, Health 4) and the Analyst (2, Health 2), against Roh'na (3, Health 4) with the same. One
    contest: side A loses 2 of COPP's 3 Health and the whole Analyst; side B loses Roh'na (removed) and
    1 Health of the Drummer. Worth lost by A: 3 x 2/3 + 2 = 4; by B: 3 + 3/4 = 3.75."""
    from rulesets.warbound.kernels_warband import N_RECORD, Outcome, Record, damage_column

    copp, roh_na = _contestant("copp"), _contestant("roh-na")
    row = np.zeros(N_RECORD, np.int64)
    row[Record.OUTCOME], row[Record.AHEAD] = Outcome.NEITHER, Outcome.SIDE_1
    row[damage_column(0, 0)], row[damage_column(0, 3)] = 2, 2
    row[damage_column(1, 0)], row[damage_column(1, 2)] = 4, 1
    row[Record.WOUNDS_0], row[Record.WOUNDS_1] = 4, 5
    row[Record.ENTRY_PANIC_1], row[Record.LOST_0], row[Record.LOST_1] = 1, 1, 1
    from rulesets.warbound.contest import _fields  # the contest's one definition of its metrics

    m = {k: v[:, 0] for k, v in _fields(_result([row], copp, roh_na), copp, roh_na).items()}
    assert m["win"].tolist() == [0, 1] and m["loss"].tolist() == [1, 0] and m["neither"].tolist() == [0, 0]
    assert m["removed_all"].tolist() == [0, 0] and m["panicked"].tolist() == [0, 1]
    assert m["wounds_inflicted"].tolist() == [5, 4] and m["characters_lost"].tolist() == [1, 1]
    assert m["fraction_lost"] == pytest.approx([2 / 3, 1.0])
    assert m["cost_lost"] == pytest.approx([4.0, 3.75])
    assert m["cost_destroyed"] == pytest.approx([3.75, 4.0])
    assert m["net_tokens"] == pytest.approx([-0.25, 0.25])
    assert m["net_per_token"] == pytest.approx([-0.25 / 3, 0.25 / 3])
    # the even-trade gain: destroyed less the companions' worth lost (A: the Analyst, 2; B: the Drummer)
    assert m["trade_gain"] == pytest.approx([3.75 - 2.0, 4.0 - 0.75])


def test_an_entry_against_a_copy_of_itself_is_even_at_its_own_cost():
    """One contest of COPP against COPP: what one side gains the other loses, trial by trial, and the
    even-trade price over both roles is COPP's cost exactly (sum of trade_gain / sum of fraction lost)."""
    copp = _contestant("copp")
    copy = dataclasses.replace(copp, key="copp-copy")
    e = RS.engage(copp, copy, SAME, seed=4, trials=3000)
    m = e.samples()
    assert np.allclose(m["net_tokens"][0], -m["net_tokens"][1])
    assert m["fraction_lost"].sum() > 100  # the entries are hit: the price is no ratio of noise
    assert m["trade_gain"].sum() / m["fraction_lost"].sum() == pytest.approx(copp.cost, rel=1e-12)


@pytest.mark.parametrize("key", ["copp", "roh-na@formation"])
def test_the_mirror_is_even_within_error_with_roles_averaged(key):
    """A field of an entry and a copy of it under another name (the same card: its own streams): each is
    valued at 0 within 3 standard errors, its fair cost interval holds its cost, and its verdict is fair."""
    from reports import efficiency

    entry = _contestant(key)
    copy = dataclasses.replace(entry, key=f"{key}-copy", name=f"{entry.name} (copy)")
    field = efficiency.play_field(RS, [entry, copy], SAME, seed=2, precision=None, trials=8000)
    for _, row in efficiency.ranking(field).iterrows():
        assert abs(row["value"]) < 3 * row["value_stderr"] + 1e-12, row
        assert row["verdict"] == "fair", row


def test_the_composition_and_the_targeting_change_the_contest():
    copp, roh_na = _contestant("copp"), _contestant("roh-na@formation")
    runs = {name: RS.engage(copp, roh_na, r, seed=5, trials=3000) for name, r in (
        ("default", SAME), ("alone", WarboundRulings(warband="alone")),
        ("weakest", WarboundRulings(targeting="weakest")))}
    assert runs["default"].raw.records.shape[1] == runs["alone"].raw.records.shape[1]
    assert len(runs["default"].raw.a.members) == 4 and len(runs["alone"].raw.a.members) == 1
    # the same companions on both sides, in the same order, led by the same Leader
    a, b = runs["default"].raw.a, runs["default"].raw.b
    assert a.members[1:] == b.members[1:] and a.orders == b.orders == (4, 4)
    values = {k: r.samples()["net_per_token"][0].mean() for k, r in runs.items()}
    assert len({round(v, 4) for v in values.values()}) == 3
