"""Drakerys value in context (rulesets/drakerys/context.py): heroes fielded with an escort and priced against
the escort alone, by hand on made-up records, and the rulings that choose the escort and the hero's play."""

from __future__ import annotations

import numpy as np
import pytest

from rulesets.base import RulesError, RulingError
from rulesets.drakerys import RULESET, DrakerysRulings, catalog
from rulesets.drakerys.contest import METRIC_NAMES
from rulesets.drakerys.context import (
    Combo,
    ContextRecords,
    acts_through_others,
    context_linear,
    copies_layout,
    escort_force,
    escorts,
    hero_force,
)
from rulesets.drakerys.fight import BattleRecord, EngagementOutcome
from simcore import runner

CATALOG = catalog.load()
FIELD = {c.key: c for c in RULESET.contestants(CATALOG)}


def close(actual, desired) -> None:
    np.testing.assert_allclose(actual, desired, rtol=1e-9, atol=1e-9)


def rulings(*assignments: str) -> DrakerysRulings:
    return DrakerysRulings().with_assignments(list(assignments))


def test_heroes_and_units_with_authority_wizard_or_heroic_action_act_through_others():
    acting = sorted(u.key for u in CATALOG.with_profiles() if acts_through_others(u))
    assert acting == ["celeste", "noctis", "sakhil", "salik"]
    assert FIELD["salik@1"].subject.allies and not FIELD["crows@12"].subject.allies


def test_dk_context_chooses_the_escorts():
    """faction-guard: the faction's units with Guard (Escort), at their sheet sizes; field: every unit that
    acts through no other (16 profiled units less 4 heroes and the Object cage); a key: that unit; anything
    else: one sentence."""
    allies = FIELD["salik@1"].subject.allies
    names = {hero: [e.name for e in escorts(CATALOG.unit(hero), allies, DrakerysRulings())]
             for hero in ("salik", "noctis", "sakhil", "celeste")}
    assert names == {"salik": ["Crows (12)"], "noctis": ["Gold Keepers (6)", "Soldiers (6)"],
                     "sakhil": ["Warriors (6)"], "celeste": ["Spearmen (10)"]}
    field = escorts(CATALOG.unit("salik"), allies, rulings("DK-context=field"))
    assert len(field) == 11 and "prisoner-cage" not in {e.unit.key for e in field}
    assert [e.name for e in escorts(CATALOG.unit("celeste"), allies, rulings("DK-context=warriors"))] == \
        ["Warriors (6)"]
    with pytest.raises(RulesError, match="DK-context=salik: no such unit can escort"):
        escorts(CATALOG.unit("celeste"), allies, rulings("DK-context=salik"))
    with pytest.raises(RulingError, match="DK-context does not accept"):
        rulings("DK-context=no such")


def test_hero_force_spends_the_rest_of_the_budget_on_whole_escort_units():
    """Salik (160 AP) with Crows (12, 160 AP) at 750 AP: 3 Crows (590 // 160), 110 AP unspent; the baseline
    spends all 750 on Crows: 4 units. Celeste (130) with Spearmen (10, 110): 5 units; baseline 6. Heroic
    Action dice by DK-heroic-dice go to the hero, not to the escort."""
    r = rulings("DK-heroic-dice=3")
    salik = FIELD["salik@1"]
    crows, = escorts(salik.subject.unit, salik.subject.allies, r)
    fighters, layout = hero_force(salik, crows, r)
    assert [(f.unit.key, f.size, f.heroic) for f in fighters] == [("salik", 1, 3)] + [("crows", 12, 0)] * 3
    assert (layout.units, layout.warriors, layout.spent(160.0)) == (4, 37, 640.0)
    base, base_layout = escort_force(crows, r)
    assert len(base) == 4 and base_layout.spent(0.0) == 640.0
    celeste = FIELD["celeste@1"]
    spearmen, = escorts(celeste.subject.unit, celeste.subject.allies, r)
    assert hero_force(celeste, spearmen, r)[1].units == 1 + 5 and len(escort_force(spearmen, r)[0]) == 6
    with pytest.raises(RulesError, match="does not fit DK-budget=100"):
        hero_force(salik, crows, rulings("DK-budget=100"))


def _records(rows: list[tuple[int, int, int, int, int]]) -> np.ndarray:
    """Records of (outcome, lost_0, lost_1, lead_lost_0, lead_lost_1), one per trial."""
    out = np.zeros((len(rows), len(BattleRecord)), np.int64)
    for t, (outcome, l0, l1, lead0, lead1) in enumerate(rows):
        out[t, BattleRecord.OUTCOME] = outcome
        out[t, BattleRecord.LOST_0], out[t, BattleRecord.LOST_1] = l0, l1
        out[t, BattleRecord.LEAD_LOST_0], out[t, BattleRecord.LEAD_LOST_1] = lead0, lead1
    return out


def test_value_in_context_by_hand():
    """Salik (160 AP) + 3 Crows (12, 160 AP) against 5 Warriors (6, 75 AP each... 12.5 AP a warrior), and
    the baseline 4 Crows against the same Warriors, three trials each, by hand:

    trial 1: Salik falls and 6 Crows with it, 12 Warriors fall; baseline: 12 Crows, 6 Warriors.
    trial 2: Salik stands, 0 Crows lost, 30 Warriors (all) fall; baseline: 6 Crows, 30 Warriors.
    trial 3: Salik falls, 36 Crows (all) fall, 0 Warriors; baseline: 48 Crows (all), 0 Warriors.
    """
    r = DrakerysRulings()
    salik, warriors = FIELD["salik@1"], FIELD["warriors@6"]
    crows, = escorts(salik.subject.unit, salik.subject.allies, r)
    _, hero_layout = hero_force(salik, crows, r)
    _, base_layout = escort_force(crows, r)
    opp = copies_layout(6, 10)  # 750 // 75 = 10 units of Warriors
    win0, win1 = int(EngagementOutcome.SIDE_0_WINS), int(EngagementOutcome.SIDE_1_WINS)
    neither = int(EngagementOutcome.NEITHER)
    main = _records([(neither, 7, 12, 1, 0), (win0, 0, 30, 0, 0), (win1, 37, 0, 1, 0)])
    base = _records([(neither, 12, 6, 0, 0), (neither, 6, 30, 0, 0), (win1, 48, 0, 0, 0)])
    joined = np.hstack([main, base])
    run = runner.RecordsResult(joined, 3, 0, 1, 3, None, False)
    raw = ContextRecords(joined, run, ((hero_layout, opp), (base_layout, opp)),
                         (Combo(0, (1, None), ("Crows (12)", None)),), r)
    samples = context_linear(raw, salik, warriors, METRIC_NAMES).samples()
    crow, warrior = 160 / 12, 75 / 6
    destroyed = np.array([12, 30, 0]) * warrior
    lost = np.array([160 + 6 * crow, 0, 160 + 36 * crow])
    base_net = np.array([6, 30, 0]) * warrior - np.array([12, 6, 48]) * crow
    close(samples["ap_destroyed"][0], destroyed)
    close(samples["ap_lost"][0], lost)
    close(samples["battle_net_per_100ap"][0], (destroyed - lost) * 100 / 750)
    close(samples["net_ap_per_100ap"][0], (destroyed - lost - base_net) * 100 / 750)
    close(samples["trade_gain"][0], destroyed - (lost - np.array([160, 0, 160])) - base_net)
    close(samples["trade_loss"][0], [1, 0, 1])
    # value = gain - cost x loss, trial by trial: the even-trade price is the cost where the value is 0
    close(samples["net_ap_per_100ap"][0] * 750 / 100,
                               samples["trade_gain"][0] - 160 * samples["trade_loss"][0])
    close(samples["units_worth_lost"][0], [1 + 6 / 12, 0, 1 + 36 / 12])
    close(samples["fraction_lost"][0], np.array([7, 0, 37]) / 37)
    assert list(samples["win"][0]) == [0, 1, 0] and list(samples["loss"][0]) == [0, 0, 1]
    assert list(samples["units_fielded"][0]) == [4] * 3 and list(samples["ap_unspent"][0]) == [110] * 3
    # the Warriors' side is scored against the force with the hero, the hero's warrior at its 160 AP
    close(samples["ap_destroyed"][1], lost)
    close(samples["net_ap_per_100ap"][1], (lost - destroyed) * 100 / 750)
    close(samples["battle_net_per_100ap"][1], -samples["battle_net_per_100ap"][0])
    close(samples["trade_gain"][1], lost)
    close(samples["trade_loss"][1], np.array([12, 30, 0]) / 6)


def test_a_hero_in_context_plays_authority_and_heroic_action_and_names_what_it_leaves_out():
    c = FIELD["salik@1"]
    cov = RULESET.coverage(c, DrakerysRulings())
    played = " ".join(cov.played)
    assert "value in context (DK-context=faction-guard: escorted by Crows (12) in turn)" in played
    assert "Authority (a Morale die for each allied unit in reach, DK-authority-range=all)" in played
    assert "Heroic Action (DK-heroic-dice=1" in played
    assert "Safeguard (a 10 cancels an Injury; 6-9 move it to the Guard escort within 10 cm: " \
           "DK-safeguard-transfer=always)" in played
    assert "Combined Charge with an Infantry Guard escort within 10 cm (DK-combined-charge=always)" in played
    # Awakened summons no battle can play: the one rule left that keeps Salik not measured
    assert [d.partition(" (")[0] for d in cov.decisive] == ["Awakened [2]"] and not cov.measured
    celeste = RULESET.coverage(FIELD["celeste@1"], DrakerysRulings())
    assert [d.partition(" (")[0] for d in celeste.decisive] == ["Wizard [3] spells", "Awakened [2]"]
    assert "Tempest, Solar: the rulebook prints no Tempest spell" in celeste.decisive[0]
    noctis = RULESET.coverage(FIELD["noctis@1"], DrakerysRulings())
    assert any(u.startswith("Camouflage") for u in noctis.unplayed)
    assert not any(d.startswith("Camouflage") for d in noctis.decisive)
    never = RULESET.coverage(c, rulings("DK-safeguard-transfer=never", "DK-combined-charge=never"))
    assert "6-9 stay: DK-safeguard-transfer=never" in " ".join(never.played)
    assert "(DK-combined-charge=never)" in " ".join(never.played)
    none = RULESET.coverage(c, rulings("DK-heroic-dice=0"))
    assert any(d.startswith("Heroic Action") for d in none.decisive)
    assert RULESET.coverage(FIELD["crows@12"], DrakerysRulings()).measured


def test_an_engagement_in_context_runs_and_the_hero_side_reads_its_value():
    """Salik against Warriors (6) on 400 trials: the battles fought and the baseline ran on one seed, and
    the value is the difference of their net AP, whatever the numbers."""
    eng = RULESET.engage(FIELD["salik@1"], FIELD["warriors@6"], DrakerysRulings(), seed=5, trials=400)
    samples = eng.samples()
    assert eng.raw.records.shape == (400, 2 * len(BattleRecord))
    assert samples["net_ap_per_100ap"].shape == (2, 400)
    close(samples["net_ap_per_100ap"][0] * 7.5, samples["trade_gain"][0] - 160 * samples["trade_loss"][0])
    again = RULESET.engage(FIELD["salik@1"], FIELD["warriors@6"], DrakerysRulings(), seed=5, trials=400)
    np.testing.assert_array_equal(again.raw.records, eng.raw.records)


def test_a_hero_recosted_within_the_same_escorts_is_weighed_anew_not_played_again():
    """cost_play of a hero: the whole escort units its cost leaves room for. Salik (160 AP) with Crows (12,
    160 AP) at 750 AP: (750 - 160) // 160 = 3 units at 160 and at 165, 2 at 300. At 165 the battles are the
    same, record for record, and the engagement's weigher gives the weights and offsets of playing it
    again."""
    import dataclasses

    salik, warriors = FIELD["salik@1"], FIELD["warriors@6"]
    r = DrakerysRulings()
    at = {cost: dataclasses.replace(salik, cost=cost) for cost in (165.0, 300.0)}
    assert RULESET.cost_play(salik, r) == RULESET.cost_play(at[165.0], r) == (3,)
    assert RULESET.cost_play(at[300.0], r) == (2,)
    assert RULESET.plays_alike(salik, at[165.0], r) and not RULESET.plays_alike(salik, at[300.0], r)
    assert RULESET.cost_play(dataclasses.replace(salik, cost=800.0), r) == ("does not fit", 800.0)
    eng = RULESET.engage(salik, warriors, r, seed=5, trials=300)
    again = RULESET.engage(at[165.0], warriors, r, seed=5, trials=300)
    np.testing.assert_array_equal(again.raw.records, eng.raw.records)
    weighed = eng.weigher()(at[165.0], warriors)
    assert weighed.records.shape[0] == 0
    played = again.linear_score()
    np.testing.assert_allclose(weighed.weights, played.weights)
    np.testing.assert_allclose(weighed.offsets, played.offsets)
    # the value moves with the cost: 5 AP more for the same force is 5 x 100 / 750 net AP per 100 AP less
    # on every trial in which Salik falls (trade_loss 1)
    row = played.rows(["net_ap_per_100ap"], 0)[0]
    old = eng.linear_score()
    diff = (played.weights[row] - old.weights[row]) @ old.features().T
    close(diff, -5 * 100 / 750 * old.samples()["trade_loss"][0])
