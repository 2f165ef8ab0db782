"""UberDrakes in the balance layer: contestants, exact engagements (checked against independent solves and
hand sums over the rolloff's margin), what-if variants and their errors."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from rulesets import get
from rulesets.base import CostChange, OptionError, RulesError, StatChange
from rulesets.uberdrakes.combat import Combat, Kit, solve
from rulesets.uberdrakes.contest import SITUATIONS, Loadout, grid_values, resource_gains
from rulesets.uberdrakes.exact import Side, rolloff
from rulesets.uberdrakes.rules import UberDrakesRulings, pricing_rulings

R = UberDrakesRulings()
#: What pricing plays when UD-policy and UD-objective are left unset: optimal, for the combat's value.
P = pricing_rulings(R)
GREEDY = R.with_assignments(["UD-policy=greedy"])
RS = get("uberdrakes")


@pytest.fixture(scope="module")
def catalog():
    return RS.load_catalog()


def _sides(ri, rd, d, camouflage=0):
    return Side(ri, max(d, 0) + camouflage), Side(rd, max(-d, 0))


def test_contestants_and_their_costs(catalog):
    cs = {c.key: c for c in RS.contestants(catalog)}
    assert cs["fire-breath"].cost == 4 and cs["fire-breath"].cost_unit == "Magic"
    assert not cs["fire-breath"].illustrative
    assert cs["dragon-lance"].cost_unit == "coins" and cs["dragon-lance"].illustrative  # no printed price
    assert [cs[f"plate-armor@{x}"].cost for x in range(1, 6)] == [2, 3, 4, 5, 6]  # X + 1 (line 602)
    assert cs["metal-dragon"].cost == 8 and cs["metal-dragon"].illustrative
    assert {"sandstorm", "supercharge"}.isdisjoint(cs)  # three-turn spells are left out, and said so
    assert any("Sandstorm" in n for n in RS.notes(catalog, list(cs.values())))
    # names as printed, and a group for every X of Plate Armor
    only = RS.contestants(catalog, ["Fire Breath", "Metal Dragon", "plate-armor"])
    assert [c.key for c in only] == ["fire-breath", "plate-armor@1", "plate-armor@2", "plate-armor@3",
                                     "plate-armor@4", "plate-armor@5", "metal-dragon"]
    assert [c.key for c in RS.contestants(catalog, ["plate-armor@9"])] == ["plate-armor@9"]


@pytest.mark.parametrize(("name", "message"), [
    ("fire-breth", "did you mean fire-breath"),
    ("plate-armor@0", "1..19"),
    ("dragon-lance@2", "only Plate Armor"),
])
def test_unknown_contestants(catalog, name, message):
    with pytest.raises(RulesError, match=message):
        RS.contestants(catalog, [name])


def test_the_bare_combat_is_the_rolloff():
    """Nobody holding anything: P(the initiator wins) in each situation is the rolloff's."""
    v = grid_values(Loadout(Kit()), Loadout(Kit()), R)
    want = [rolloff(*_sides(ri, rd, d)).p_win for ri, rd, d in SITUATIONS]
    assert np.allclose(v[:, 0], want, atol=1e-14, rtol=0)
    assert np.all(v[:, 5:11] == 0.0)  # nothing spent


def test_a_defenders_lance_by_hand():
    """A defender with one Dragon Lance against nothing, by hand over the rolloff's margin m (initiator -
    defender): behind by m >= 0 it must get above, (6 - m)/6; ahead (m < 0) it has won."""
    v = grid_values(Loadout(Kit()), Loadout(Kit(lances=1)), R)
    for row, (ri, rd, d) in enumerate(SITUATIONS):
        low, pmf = rolloff(*_sides(ri, rd, d)).margin
        p = sum(q * (1.0 if m < 0 else max(0, 6 - m) / 6) for m, q in zip(range(low, low + pmf.size), pmf,
                                                                            strict=True))
        assert 1.0 - v[row, 0] == pytest.approx(p, abs=1e-13)


def test_an_engagement_against_independent_solves(catalog):
    """Fire Breath (initiator) against a Dragon Lance: every metric from solve() of the three combats under
    the pricing rulings (optimal, for the value: UD-policy and UD-objective unset)."""
    cs = {c.key: c for c in RS.contestants(catalog, ["fire-breath", "dragon-lance"])}
    a, b = cs["fire-breath"], cs["dragon-lance"]
    e = RS.engage(a, b, R, seed=0)
    assert e.exact and e.trials == 0 and e.weights.sum() == pytest.approx(1.0)
    s = e.samples()
    fb, lance = Kit(magic=4, fire_breath=True), Kit(lances=1, lance_price=4.0)
    for row, (ri, rd, d) in enumerate(SITUATIONS):
        sides = _sides(ri, rd, d)
        both = solve(Combat(*sides, fb, lance), P)
        a_without = solve(Combat(*sides, Kit(), lance), P)
        b_without = solve(Combat(*sides, fb, Kit()), P)
        assert s["win"][:, row] == pytest.approx(both.p_win, abs=1e-13)
        assert s["win_gain"][0, row] == pytest.approx(both.p_win[0] - a_without.p_win[0], abs=1e-13)
        assert s["win_gain"][1, row] == pytest.approx(both.p_win[1] - b_without.p_win[1], abs=1e-13)
        assert s["bp_gain"][1, row] == pytest.approx(both.blood_points[1] - b_without.blood_points[1],
                                                     abs=1e-12)
        assert s["magic_spent"][:, row] == pytest.approx(both.magic, abs=1e-13)
        assert s["damage_dealt"][:, row] == pytest.approx(both.damage, abs=1e-13)
        # the value in blood points: blood points + 8 x (damage dealt - taken) (UD-damage-bp, UD-win-bp 0)
        for side, without in ((0, a_without), (1, b_without)):
            def worth(o, side=side):
                return o.blood_points[side] + 8 * (o.damage[side] - o.damage[1 - side])
            assert s["value"][side, row] == pytest.approx(worth(both) - worth(without), abs=1e-12)
    assert np.allclose(s["win"] + s["loss"], 1.0) and np.allclose(s["net"][0], -s["net"][1])


def test_initiator_only_resources(catalog):
    """Camouflage is +3 (UD-camouflage) to an initiator and nothing to a defender; a ranged attack bars the
    defender's Lance (line 655) and spares the loser's damage, at the spell's Magic."""
    cs = {c.key: c for c in RS.contestants(catalog, ["camouflage", "thunderbolt", "dragon-lance"])}
    e = RS.engage(cs["camouflage"], cs["dragon-lance"], R, seed=0).samples()
    row = SITUATIONS.index((0, 0, 0))
    with_camo = solve(Combat(Side(0, 3), Side(0, 0), Kit(), Kit(lances=1, lance_price=4.0)), P)
    assert e["win"][0, row] == pytest.approx(with_camo.p_win[0], abs=1e-13)
    assert e["magic_spent"][0, row] == 2.0
    two = RS.engage(cs["camouflage"], cs["dragon-lance"], UberDrakesRulings(camouflage=2), seed=0).samples()
    assert two["win"][0, row] < e["win"][0, row]
    back = RS.engage(cs["dragon-lance"], cs["camouflage"], R, seed=0).samples()
    assert np.all(back["win_gain"][1] == 0.0)
    bolt = RS.engage(cs["thunderbolt"], cs["dragon-lance"], R, seed=0).samples()
    bare = rolloff(Side(), Side()).p_win
    assert bolt["win"][0, row] == pytest.approx(bare, abs=1e-13)  # the defender's Lance is barred
    assert bolt["damage_taken"][0, row] == 0.0 and bolt["magic_spent"][0, row] == 3.0


def test_resource_gains_against_nothing():
    rows = {r["key"]: r for r in resource_gains(RS.load_catalog(), R.with_assignments(["UD-value=win"]))}
    for r in rows.values():  # UD-value=win: the former value
        assert r["value"] == pytest.approx(r["win_gain"], abs=1e-14)
    # a die is a die: Dragon Lance, Hide Shield and Fire Breath add the same P(win)
    assert rows["dragon-lance"]["win_gain"] == pytest.approx(rows["fire-breath"]["win_gain"], abs=1e-14)
    assert rows["hide-shield"]["win_gain"] == pytest.approx(rows["fire-breath"]["win_gain"], abs=1e-14)
    assert rows["hide-shield"]["damage_gain"] == 0.0  # its user deals no damage when it wins
    # nothing to destroy, nothing to gain; Windblast only doubles damage
    assert rows["acid-rain"]["win_gain"] == 0.0 and rows["windblast"]["win_gain"] == 0.0
    # optimal play for P(win) alone never casts it; for the value (the default) it always does
    assert rows["windblast"]["damage_gain"] == 0.0
    assert {r["key"]: r for r in resource_gains(RS.load_catalog(), R)}["windblast"]["damage_gain"] == 0.5
    assert rows["camouflage"]["win_gain_defender"] == 0.0 and rows["camouflage"]["win_gain_initiator"] > 0
    # more X, more P(win)
    gains = [rows[f"plate-armor@{x}"]["win_gain"] for x in range(1, 6)]
    assert gains == sorted(gains) and gains[0] > 0
    assert rows["fire-dragon"]["win_gain"] == pytest.approx(rows["fire-breath"]["win_gain"], abs=1e-14)


def test_variants(catalog):
    v = RS.variant(catalog, [], [CostChange("fire-breath", 3.0), CostChange("metal-dragon", 10.0)])
    cs = {c.key: c for c in RS.contestants(v)}
    assert cs["fire-breath"].cost == 3 and cs["metal-dragon"].cost == 10
    assert cs["fire-breath"].play[0].kit.fire_breath_cost == 3
    assert cs["fire-dragon"].play[0].kit.fire_breath_cost == 3  # the dragon casts the same spell
    lance = RS.variant(catalog, [StatChange("dragon-lance", "cost", "=", "2")], [])
    assert {c.key: c for c in RS.contestants(lance)}["dragon-lance"].cost == 2
    with pytest.raises(RulesError, match="X \\+ 1"):
        RS.variant(catalog, [], [CostChange("plate-armor@2", 5.0)])
    with pytest.raises(RulesError, match="unknown stat"):
        RS.variant(catalog, [StatChange("fire-breath", "dice", "=", "2")], [])
    with pytest.raises(OptionError, match="whole number"):
        RS.variant(catalog, [], [CostChange("fire-breath", 2.5)])
    with pytest.raises(OptionError, match="plate-armor@1"):
        RS.representative(catalog, "plate-armor")
    assert RS.representative(catalog, "Fire Breath") == "fire-breath"


# --- the value: what winning is made of (UD-value) --------------------------------------------------------


def _two_d6_margins() -> dict[int, F]:
    """P(initiator's 2d6 - defender's 2d6 = m), Rage 0 each, by enumerating the 6^4 rolls."""
    out: dict[int, F] = {}
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        out[a + b - c - d] = out.get(a + b - c - d, F(0)) + F(1, 6 ** 4)
    return out


def test_windblast_is_worth_its_extra_damage_exactly(catalog):
    """Windblast changes only damage, and the value counts it: UD-damage-bp (8 blood points) for each win,
    the second instance of damage it deals. Against nothing, as initiator (P(win) p) and as defender (1 - p)
    in the same situation, it is worth 8 x 1/2 = 4 over the grid whatever p is; against a defender's Dragon
    Lance in the plain rolloff, 8 x P(the initiator wins), the Lance overtaking a margin m >= 0 with
    (6 - m)/6 (enumerated below)."""
    rows = {r["key"]: r for r in resource_gains(catalog, R)}
    assert rows["windblast"]["value"] == pytest.approx(4.0, abs=1e-12)
    assert rows["windblast"]["win_gain"] == 0.0 and rows["windblast"]["bp_gain"] == 0.0
    p = sum((q * F(min(m, 6), 6) for m, q in _two_d6_margins().items() if m >= 0), F(0))
    assert p == F(287, 1296)
    cs = {c.key: c for c in RS.contestants(catalog, ["windblast", "dragon-lance"])}
    e = RS.engage(cs["windblast"], cs["dragon-lance"], R, seed=0).samples()
    row = SITUATIONS.index((0, 0, 0))
    assert e["win"][0, row] == pytest.approx(float(p), abs=1e-13)
    assert e["value"][0, row] == pytest.approx(float(8 * p), abs=1e-12)  # 1.7716...
    assert e["win_gain"][0, row] == 0.0
    # UD-damage-bp scales it; UD-value=win prices P(win) alone: nothing
    five = RS.engage(cs["windblast"], cs["dragon-lance"], R.with_assignments(["UD-damage-bp=5"]), seed=0)
    assert five.samples()["value"][0, row] == pytest.approx(float(5 * p), abs=1e-12)
    win = RS.engage(cs["windblast"], cs["dragon-lance"], R.with_assignments(["UD-value=win"]), seed=0)
    assert win.samples()["value"][0, row] == 0.0


def test_a_win_weighs_in_by_ud_win_bp(catalog):
    """UD-win-bp adds its blood points for each win: the Dragon Lance's value rises by 10 x its win_gain."""
    cs = {c.key: c for c in RS.contestants(catalog, ["dragon-lance", "rage-potion"])}
    base = RS.engage(cs["dragon-lance"], cs["rage-potion"], R, seed=0).samples()
    ten = RS.engage(cs["dragon-lance"], cs["rage-potion"], R.with_assignments(["UD-win-bp=10"]), seed=0)
    assert np.allclose(ten.samples()["value"], base["value"] + 10 * base["win_gain"], atol=1e-9, rtol=0)


# --- priced under the optimal policy (the issue's numbers) ------------------------------------------------


def test_the_issues_combats_greedy_and_optimal(catalog):
    """Metal with 6 Magic against 2 Lances: 0.210 greedy, 0.363 optimal; Metal defending with 10 Magic
    against Fire (a Lance and 6 Magic): 0.152 greedy, 0.637 optimal. A single combat keeps greedy by
    default; pricing plays optimal."""
    from rulesets.uberdrakes.combat import kit_for

    metal6 = Combat(Side(), Side(), kit_for(catalog.catalog, "metal", magic=6),
                    kit_for(catalog.catalog, "fire", lances=2))
    fire = Combat(Side(), Side(), kit_for(catalog.catalog, "fire", magic=6, lances=1),
                  kit_for(catalog.catalog, "metal", magic=10))
    assert solve(metal6, R).p_win[0] == pytest.approx(17 / 81, abs=1e-13)  # 0.2099
    assert solve(metal6, GREEDY).p_win[0] == pytest.approx(17 / 81, abs=1e-13)
    assert solve(metal6, P).p_win[0] == pytest.approx(5647 / 15552, abs=1e-13)  # 0.3631
    assert solve(fire, R).p_win[1] == pytest.approx(197 / 1296, abs=1e-13)  # 0.1520
    assert solve(fire, P).p_win[1] == pytest.approx(1 - 5647 / 15552, abs=1e-13)  # 0.6369
    assert P.policy == "optimal" and P.objective == "value"


def test_pricing_plays_optimal_unless_ud_policy_is_set(catalog):
    """The Metal dragon holding 6 Magic against a Dragon Lance: the engagement plays the optimal policy
    (its win is the optimal solve's), greedy beside (win_gain_greedy, value_greedy from greedy solves);
    with UD-policy=greedy set, greedy prices and the two agree."""
    six = RS.variant(catalog, [], [CostChange("metal-dragon", 6.0)])
    cs = {c.key: c for c in RS.contestants(six, ["metal-dragon", "dragon-lance"])}
    metal, lance = cs["metal-dragon"].play[0].kit, Kit(lances=1, lance_price=4.0)
    e = RS.engage(cs["metal-dragon"], cs["dragon-lance"], R, seed=0).samples()
    g = RS.engage(cs["metal-dragon"], cs["dragon-lance"], GREEDY, seed=0).samples()
    differs = 0
    for row, (ri, rd, d) in enumerate(SITUATIONS):
        sides = _sides(ri, rd, d)
        optimal = solve(Combat(*sides, metal, lance), P)
        greedy = solve(Combat(*sides, metal, lance), GREEDY)
        bare = solve(Combat(*sides, Kit(magic=6), lance), GREEDY)  # the stand-in: Magic, no spells
        assert e["win"][0, row] == pytest.approx(optimal.p_win[0], abs=1e-13)
        assert e["win_gain_greedy"][0, row] == pytest.approx(greedy.p_win[0] - bare.p_win[0], abs=1e-13)
        assert g["win"][0, row] == pytest.approx(greedy.p_win[0], abs=1e-13)
        differs += abs(optimal.p_win[0] - greedy.p_win[0]) > 0.01
    assert differs >= 9
    assert e["value"][0].mean() > e["value_greedy"][0].mean() + 1.0  # blood points: greedy undervalues it
    assert np.array_equal(g["value"], g["value_greedy"])
    assert np.array_equal(g["win_gain"], g["win_gain_greedy"])
    # UD-policy=optimal set: optimal for the objective as set (win-then-cost), greedy beside
    o = RS.engage(cs["metal-dragon"], cs["dragon-lance"], R.with_assignments(["UD-policy=optimal"]), seed=0)
    row = SITUATIONS.index((0, 0, 0))
    want = solve(Combat(*_sides(0, 0, 0), metal, lance), R.with_assignments(["UD-policy=optimal"]))
    assert o.samples()["win"][0, row] == pytest.approx(want.p_win[0], abs=1e-13)
    # the notes say which policy prices
    assert any("priced under the optimal policy" in n for n in RS.notes(catalog, []))


def test_an_unset_policy_is_told_apart_from_one_set():
    """UD-policy and UD-objective left at their defaults print as RULES.md's (greedy, win-then-cost) yet
    differ from the same values set explicitly (a what-if from one to the other replays), survive pickling
    (a cluster) and resolve to optimal play for the value when pricing only."""
    import pickle

    explicit = R.with_assignments(["UD-policy=greedy", "UD-objective=win-then-cost"])
    assert dict(R.in_force())["UD-policy"] == "greedy" == dict(explicit.in_force())["UD-policy"]
    assert R != explicit and R == UberDrakesRulings() and hash(R) == hash(UberDrakesRulings())
    assert pickle.loads(pickle.dumps(R)) == R and pickle.loads(pickle.dumps(explicit)) == explicit
    assert pricing_rulings(explicit) == explicit
    assert (P.policy, P.objective) == ("optimal", "value")
    assert pricing_rulings(R.with_assignments(["UD-objective=win"])).objective == "win"
