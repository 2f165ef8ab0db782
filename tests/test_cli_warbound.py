"""The Warbound commands: `roll warbound attack`, `table warbound`, `duel warbound`, `units warbound` and the
generic verbs (efficiency, whatif, sweep) on Warbound; their numbers, checked against hand computations
where they are exact, and their one-line errors.

Hand values use the Warbound d12 (faces 1,2,3,4,5,5,6,7,8,9,10,10; a natural [1] always fails, a natural
[10] always succeeds, RULES.md §3): one die hits 7+ w.p. 5/12, 6+ w.p. 1/2, and is not a natural [1] (gives
Stress) w.p. 11/12.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction as F

import pandas as pd
import pytest
from cli_run import assert_one_line_error, csv, ok, run

ATTACK = ("roll", "warbound", "attack")
DUEL = ("duel", "warbound", "copp", "roh-na")
FAST_DUEL = ("--trials", "2000", "--seed", "1")
FIELD = ("--unit", "copp", "--unit", "roh-na", "--trials", "2000")
KEYS = {"copp", "copp@formation", "roh-na", "roh-na@formation"}


def _json(capsys, *args):
    return json.loads(ok(capsys, *args, "--format", "json"))


def _section(doc, name: str) -> pd.DataFrame:
    return pd.DataFrame(doc["sections"][name])


def _marginal(doc, axis: str) -> dict[int, float]:
    table = _section(doc, axis)
    return {int(k): float(p) for k, p in zip(table[axis], table.probability, strict=True)}


def _binomial(n: int, p: F) -> dict[int, F]:
    return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def _meta_number(doc, label: str) -> float:
    return float(doc["meta"][label])


# --- roll warbound attack --------------------------------------------------------------------------------

def test_attack_csv_is_the_joint_table_and_sums_to_one(capsys):
    joint = csv(ok(capsys, *ATTACK, "--dice", "3", "--target", "7", "--aim", "--armor-points", "1",
                   "--armor-value", "6", "--morale", "10", "--format", "csv"))
    assert list(joint.columns) == ["wounds", "breaks", "stress", "probability"]
    assert joint.probability.sum() == pytest.approx(1.0, abs=1e-12)
    assert (joint.probability > 0).all()
    assert joint.breaks.max() == 1  # one armor point: at most one Break token


def test_stress_example_three_dice_at_7(capsys):
    """Line 467: 3 dice at 7+ rolling 1, 4, 8 give 1 hit and 2 Stress; the distribution by hand."""
    doc = _json(capsys, *ATTACK, "--dice", "3", "--target", "7", "--morale", "10")
    stress = _marginal(doc, "stress")
    for k, p in _binomial(3, F(11, 12)).items():
        assert stress[k] == pytest.approx(float(p), abs=1e-15), k
    assert stress[2] == pytest.approx(float(3 * F(11, 12) ** 2 * F(1, 12)), abs=1e-15)
    wounds = _marginal(doc, "wounds")
    for k, p in _binomial(3, F(5, 12)).items():
        assert wounds[k] == pytest.approx(float(p), abs=1e-15), k
    # 1 hit and 2 Stress: one natural [1], one hit, one miss that is not a [1]
    joint = _section(doc, "joint").set_index(["wounds", "breaks", "stress"]).probability
    assert joint[(1, 0, 2)] == pytest.approx(float(3 * 2 * F(1, 12) * F(5, 12) * F(6, 12)), abs=1e-15)
    assert doc["meta"]["mean stress"] == "2.750000"
    assert doc["meta"]["mean wounds"] == "1.250000"
    assert "3 dice at 7+: 3 rolled, 3 kept" in doc["meta"]["roll"]
    assert _meta_number(doc, "P(Panic at the end of the activation)") == 0.0  # 3 Stress < morale 10


@pytest.mark.parametrize("target", [("--target", "2"), ("--target", "1", "--modifier", "12")])
def test_armor_example_three_hits_one_armor_point(capsys, target):
    """Line 480: 3 hits against one 6+ armor point: 1 Break (P = 7/8) and 2 Wounds. Every die but a natural
    [1] hits (the [1] fails under the default WB-formation-bonus even with +12)."""
    doc = _json(capsys, *ATTACK, "--dice", "3", *target, "--armor-points", "1", "--armor-value", "6")
    joint = _section(doc, "joint").groupby(["wounds", "breaks"]).probability.sum()
    three_hits = F(11, 12) ** 3
    assert joint[(2, 1)] == pytest.approx(float(three_hits * F(7, 8)), abs=1e-15)
    assert joint[(3, 0)] == pytest.approx(float(three_hits * F(1, 8)), abs=1e-15)
    hits = _binomial(3, F(11, 12))
    p_break = sum(hits[h] * (1 - F(1, 2) ** h) for h in range(4))
    breaks = _marginal(doc, "breaks")
    assert breaks[1] == pytest.approx(float(p_break), abs=1e-15)
    assert set(breaks) == {0, 1}
    assert "1 armor point(s) at 6+, 0 broken" in doc["meta"]["target"]


def test_broken_armor_saves_nothing(capsys):
    doc = _json(capsys, *ATTACK, "--dice", "2", "--target", "7", "--armor-points", "1", "--armor-value", "6",
                "--broken", "1")
    assert _marginal(doc, "breaks") == {0: 1.0}
    wounds = _marginal(doc, "wounds")
    for k, p in _binomial(2, F(5, 12)).items():
        assert wounds[k] == pytest.approx(float(p), abs=1e-15)


# one die, P(hit) at 6+/7+/10+/11+: plain, Aim, +1, Aim and +1 (RULES.md §3 test cases)
HIT_CASES = {
    (): {6: F(1, 2), 7: F(5, 12), 10: F(1, 6), 11: F(1, 6)},
    ("--aim",): {6: F(3, 4), 7: F(95, 144), 10: F(11, 36), 11: F(11, 36)},
    ("--modifier", "1"): {6: F(2, 3), 7: F(1, 2), 10: F(1, 4), 11: F(1, 6)},
    ("--aim", "--modifier", "1"): {6: F(8, 9), 7: F(3, 4), 10: F(7, 16), 11: F(11, 36)},
}


@pytest.mark.parametrize(("extra", "target", "expected"),
                         [(extra, t, p) for extra, row in HIT_CASES.items() for t, p in row.items()])
def test_one_die_hit_probability_with_aim_and_modifier(capsys, extra, target, expected):
    doc = _json(capsys, *ATTACK, "--dice", "1", "--target", str(target), *extra)
    wounds = _marginal(doc, "wounds")
    assert 1 - wounds[0] == pytest.approx(float(expected), abs=1e-15)
    assert set(wounds) == {0, 1}  # Aim keeps one die


def test_formation_adds_a_die_and_one_to_the_result(capsys):
    doc = _json(capsys, *ATTACK, "--dice", "1", "--target", "7", "--formation")
    assert "2 rolled, 2 kept" in doc["meta"]["roll"]
    wounds = _marginal(doc, "wounds")
    for k, p in _binomial(2, F(1, 2)).items():  # two dice at 7+ with +1: each 1/2
        assert wounds[k] == pytest.approx(float(p), abs=1e-15)
    # the natural [1] still fails under the default ruling, and hits with natural-1-modified at 2+
    fails = _json(capsys, *ATTACK, "--dice", "1", "--target", "2", "--modifier", "1")
    modified = _json(capsys, *ATTACK, "--dice", "1", "--target", "2", "--modifier", "1",
                     "--ruling", "WB-formation-bonus=natural-1-modified")
    assert _marginal(fails, "wounds")[1] == pytest.approx(11 / 12, abs=1e-15)
    assert _marginal(modified, "wounds") == {1: pytest.approx(1.0, abs=1e-15)}


def test_aim_stress_ruling(capsys):
    """One die + Aim: E[Stress] 11/6 when the discarded die gives Stress, 143/144 when only the kept one
    does."""
    args = (*ATTACK, "--dice", "1", "--target", "7", "--aim", "--morale", "5")
    rolled = _json(capsys, *args)
    kept = _json(capsys, *args, "--ruling", "WB-aim-stress=kept")
    assert rolled["meta"]["mean stress"] == f"{11 / 6:.6f}"
    assert kept["meta"]["mean stress"] == f"{143 / 144:.6f}"
    assert _marginal(rolled, "stress")[2] == pytest.approx(float(F(11, 12) ** 2), abs=1e-15)
    assert _marginal(kept, "stress") == {0: pytest.approx(1 / 144, abs=1e-15),
                                         1: pytest.approx(143 / 144, abs=1e-15)}
    assert rolled["meta"]["mean wounds"] == kept["meta"]["mean wounds"] == f"{95 / 144:.6f}"
    assert "WB-aim-stress=kept" in kept["meta"]["rulings"]


def test_removed_and_panic_probabilities(capsys):
    """3 dice at 7+ against Health 3 with 1 Wound, morale 4 with 1 Stress: removed on 2+ Wounds, panics on 3
    Stress (no natural [1]); panics and stands: no [1] and at most one hit."""
    doc = _json(capsys, *ATTACK, "--dice", "3", "--target", "7", "--health", "3", "--wounds", "1",
                "--morale", "4", "--stress", "1")
    w = _binomial(3, F(5, 12))
    assert _meta_number(doc, "P(removed at the end of the activation)") == \
        pytest.approx(float(w[2] + w[3]), abs=1e-6)
    assert _meta_number(doc, "P(Panic at the end of the activation)") == \
        pytest.approx(float(F(11, 12) ** 3), abs=1e-6)
    stands = F(6, 12) ** 3 + 3 * F(5, 12) * F(6, 12) ** 2
    assert _meta_number(doc, "P(Panic and not removed)") == pytest.approx(float(stands), abs=1e-6)
    # two dice at 2+ against one 6+ armor point and Health 2: both hit and both armor dice fail
    armored = _json(capsys, *ATTACK, "--dice", "2", "--target", "2", "--armor-points", "1",
                    "--armor-value", "6", "--health", "2")
    assert _meta_number(armored, "P(removed at the end of the activation)") == \
        pytest.approx(float(F(11, 12) ** 2 / 4), abs=1e-6)
    # Wound tokens added without an armor roll (line 474): 2 added + one die at 7+ against Health 3
    added = _json(capsys, *ATTACK, "--dice", "1", "--target", "7", "--add-wounds", "2", "--health", "3",
                  "--armor-points", "2", "--armor-value", "2")
    assert min(_marginal(added, "wounds")) == 2
    assert "2 (no armor roll, line 474)" in added["meta"]["added Wound tokens"]


def test_without_morale_stress_is_counted_and_panic_not_judged(capsys):
    doc = _json(capsys, *ATTACK, "--dice", "1", "--target", "7", "--aim")
    assert doc["meta"]["mean stress"] == f"{11 / 6:.6f}"
    assert "P(Panic at the end of the activation)" not in doc["meta"]
    assert "morale not given (Stress counted, Panic not judged)" in doc["meta"]["target"]


def test_a_panicked_target_takes_no_stress(capsys):
    base = (*ATTACK, "--dice", "3", "--target", "7", "--morale", "4")
    calm = _json(capsys, *base)
    panicked = _json(capsys, *base, "--panicked")
    assert _marginal(panicked, "stress") == {0: 1.0}
    assert panicked["meta"]["mean stress"] == "0.000000"
    assert _meta_number(panicked, "P(Panic at the end of the activation)") == 0.0
    assert _marginal(panicked, "wounds") == _marginal(calm, "wounds")
    assert "panicked: no Morale pool" in panicked["meta"]["target"]


def test_monte_carlo_agrees_with_the_exact_table_and_ignores_threads(capsys):
    args = (*ATTACK, "--dice", "3", "--target", "7", "--aim", "--armor-points", "1", "--armor-value", "6",
            "--morale", "10", "--trials", "20000", "--seed", "3", "--format", "json")
    one = ok(capsys, *args, "--threads", "1")
    two = ok(capsys, *args, "--threads", "2")
    assert one == two
    doc = json.loads(one)
    assert "Monte Carlo, 20,000 attacks, seed 3" in doc["meta"]["simulated"]
    n = 20_000
    for axis in ("wounds", "breaks", "stress"):
        table = _section(doc, axis)
        assert {"simulated", "sim_stderr"} <= set(table.columns)
        assert table.simulated.sum() == pytest.approx(1.0, abs=1e-12)
        for p, sim in zip(table.probability, table.simulated, strict=True):
            se = math.sqrt(p * (1 - p) / n)
            assert abs(sim - p) <= 5 * se + 1e-12, (axis, p, sim)
        # the simulated counts are whole numbers of attacks
        assert ((table.simulated * n).round() - table.simulated * n).abs().max() < 1e-6
    other_seed = json.loads(ok(capsys, *args[:-4], "--seed", "4", "--format", "json"))
    assert _section(other_seed, "stress").simulated.tolist() != _section(doc, "stress").simulated.tolist()


# --- table warbound ------------------------------------------------------------------------------------

def test_hit_table_spot_values(capsys):
    hit = csv(ok(capsys, "table", "warbound", "hit", "--format", "csv"))
    assert list(hit.columns) == ["target", "dice", "aim", "formation", "p_hit", "expected_hits"]
    assert len(hit) == 11 * 4 * 2 * 2
    rows = hit.set_index(["target", "dice", "aim", "formation"])
    assert rows.p_hit[(7, 1, "no", "no")] == pytest.approx(5 / 12, abs=1e-15)
    for extra, aim in (((), "no"), (("--aim",), "yes")):
        for target, p in HIT_CASES[extra].items():
            assert rows.p_hit[(target, 1, aim, "no")] == pytest.approx(float(p), abs=1e-15)
    # 3 dice at 7+: 1 - (7/12)^3; expected hits 3 x 5/12
    assert rows.p_hit[(7, 3, "no", "no")] == pytest.approx(1 - (7 / 12) ** 3, abs=1e-15)
    assert rows.expected_hits[(7, 3, "no", "no")] == pytest.approx(1.25, abs=1e-15)
    # a Formation: 2 dice at 6+ with +1, each 2/3
    assert rows.expected_hits[(6, 1, "no", "yes")] == pytest.approx(4 / 3, abs=1e-15)


def test_armor_table_spot_values(capsys):
    armor = csv(ok(capsys, "table", "warbound", "armor", "--format", "csv"))
    assert list(armor.columns) == ["armor_value", "armor_points", "damage", "expected_wounds",
                                   "expected_breaks", "p_no_wound"]
    row = armor[(armor.armor_value == 6) & (armor.armor_points == 1) & (armor.damage == 3)].iloc[0]
    assert row.p_no_wound == 0.0
    assert row.expected_breaks == pytest.approx(7 / 8, abs=1e-15)
    assert row.expected_wounds == pytest.approx(3 - 7 / 8, abs=1e-15)
    # two armor points at 6+, two damage: no Wound iff both save
    two = armor[(armor.armor_value == 6) & (armor.armor_points == 2) & (armor.damage == 2)].iloc[0]
    assert two.p_no_wound == pytest.approx(1 / 4, abs=1e-15)
    # at 11+ only a natural [10] saves (2/12)
    hard = armor[(armor.armor_value == 11) & (armor.armor_points == 4) & (armor.damage == 1)].iloc[0]
    assert hard.expected_breaks == pytest.approx(1 / 6, abs=1e-15)


@pytest.mark.parametrize("table", ["hit", "armor", "stress"])
@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown", "latex", "html"])
def test_every_table_in_every_format(capsys, table, fmt):
    out = ok(capsys, "table", "warbound", table, "--format", fmt)
    if fmt == "json":
        assert json.loads(out)["meta"]["ruleset"] == "warbound (seed 004)"
    elif fmt == "csv":
        assert not csv(out).empty
    else:
        assert "Warbound" in out


@pytest.mark.parametrize("table", ["hit", "armor", "stress"])
def test_table_plot_writes_a_png(capsys, tmp_path, table):
    png = tmp_path / f"{table}.png"
    ok(capsys, "table", "warbound", table, "--plot", str(png))
    data = png.read_bytes()
    assert len(data) > 1000
    assert data.startswith(b"\x89PNG\r\n\x1a\n")


def test_table_all_writes_every_table_and_an_index(capsys, tmp_path):
    out = tmp_path / "tables"
    code, _, err = run(capsys, "table", "warbound", "all", "--output", str(out))
    assert code == 0, err
    written = {p.name for p in out.iterdir()}
    expected = {f"{t}.{ext}" for t in ("hit", "armor", "stress")
                for ext in ("md", "csv", "tex", "html", "png")}
    assert expected | {"index.html", "index.md"} == written
    index = (out / "index.md").read_text(encoding="utf-8")
    for t in ("hit", "armor", "stress"):
        assert f"({t}.csv)" in index
    assert "WB-aim-stress=all-rolled" in index
    stress = pd.read_csv(out / "stress.csv")
    assert stress.groupby(["dice", "aim"]).probability.sum().tolist() == pytest.approx([1.0] * 8, abs=1e-12)


def test_aim_stress_kept_changes_the_stress_table(capsys):
    rolled = _json(capsys, "table", "warbound", "stress")
    kept = _json(capsys, "table", "warbound", "stress", "--ruling", "WB-aim-stress=kept")
    mean_rolled = _section(rolled, "mean").set_index(["dice", "aim"]).expected_stress
    mean_kept = _section(kept, "mean").set_index(["dice", "aim"]).expected_stress
    assert mean_rolled[(1, "yes")] == pytest.approx(11 / 6, abs=1e-15)
    assert mean_kept[(1, "yes")] == pytest.approx(143 / 144, abs=1e-15)
    for dice in range(1, 5):
        plain = pytest.approx(dice * 11 / 12, abs=1e-14)
        assert mean_rolled[(dice, "no")] == mean_kept[(dice, "no")] == plain
        assert mean_rolled[(dice, "yes")] == pytest.approx((dice + 1) * 11 / 12, abs=1e-14)
        assert mean_kept[(dice, "yes")] < mean_rolled[(dice, "yes")]
    assert "WB-aim-stress=kept" in kept["meta"]["stress"]


# --- duel warbound -------------------------------------------------------------------------------------

def test_duel_outcomes_sum_to_one_and_threads_do_not_matter(capsys):
    one = ok(capsys, *DUEL, *FAST_DUEL, "--threads", "1", "--format", "csv")
    two = ok(capsys, *DUEL, *FAST_DUEL, "--threads", "2", "--format", "csv")
    assert one == two
    rows = csv(one)
    assert list(rows.columns) == ["measure", "value", "stderr", "ci_low", "ci_high"]
    value = rows.set_index("measure").value
    outcomes = value[["A removes B", "B removes A", "both stand after turn 5"]]
    assert outcomes.sum() == pytest.approx(1.0, abs=1e-12)
    assert ((rows.ci_low <= rows.value) & (rows.value <= rows.ci_high)).all()
    # with the Hand all game (WB-hourglass-policy=not-played) the COPP (morale 4) takes at most 3 Stress:
    # Roh'na runs in turn 1, finds the only Fight space taken in turn 2 and Fights once a turn after; the
    # COPP never affords an additional activation. So it never panics, and pays its 3 tokens at every
    # activation (it shoots or Fights, never Moves). With the Hourglass the Hand changes sides, and the COPP
    # panics in some duels
    held = csv(ok(capsys, *DUEL, *FAST_DUEL, "--ruling", "WB-hourglass-policy=not-played",
                  "--format", "csv")).set_index("measure").value
    assert held["P(A panics)"] == 0.0
    assert value["P(A panics)"] > 0.1
    assert value["Order tokens spent by A"] == pytest.approx(3 * value["activations of A"], rel=1e-12)
    assert value["activations of A"] <= 5
    doc = _json(capsys, *DUEL, *FAST_DUEL)
    assert "2,000 duels, seed 1" in doc["meta"]["method"]
    assert any("illustrative" in n for n in doc["notes"])


def test_duel_formation_distance_range_and_leader(capsys):
    base = _json(capsys, *DUEL, *FAST_DUEL)
    assert base["meta"]["A"].startswith("COPP: attack 8+ x1; accuracy 6+/8+ x1")
    # WB-economy=same-leader: the Reference Leader's 4 tokens a turn, of any colour
    assert "3 token(s) an activation (1 on Move); Leader's Orders 4/4" in base["meta"]["A"]
    faction = _json(capsys, *DUEL, *FAST_DUEL, "--ruling", "WB-economy=faction-leader")
    assert "3 token(s) an activation (1 on Move); Leader's Orders 3/4" in faction["meta"]["A"]
    assert "Leader's Orders 4/3" in faction["meta"]["B"] and "Leader's Orders 4/4" in base["meta"]["B"]
    assert "6 tile(s) apart" in base["meta"]["duel"] and "near accuracy" in base["meta"]["duel"]
    formation = _json(capsys, "duel", "warbound", "copp@formation", "roh-na", *FAST_DUEL)
    a = formation["meta"]["A"]
    assert a.startswith("COPP (Formation): attack 8+ x2; accuracy 6+/8+ x2")
    assert "Health 4" in a and "4 token(s) an activation" in a and "+1 to hit (Formation)" in a
    assert formation["meta"]["B"] == base["meta"]["B"]
    values = {}
    for label, extra in (("base", ()), ("adjacent", ("--distance", "1")), ("far", ("--range", "far"))):
        doc = _json(capsys, *DUEL, *FAST_DUEL, *extra)
        values[label] = _section(doc, "duel").value.tolist()
        if label == "adjacent":
            assert "1 tile(s) apart" in doc["meta"]["duel"]
        if label == "far":
            assert "far accuracy" in doc["meta"]["duel"]
    assert values["adjacent"] != values["base"] and values["far"] != values["base"]
    leader = _json(capsys, *DUEL, *FAST_DUEL, "--leader-a", "orkedo-chief")
    assert "Leader's Orders 4/3 of another faction" in leader["meta"]["A"]
    assert "4 token(s) an activation (2 on Move)" in leader["meta"]["A"]  # the coloured token costs two


def test_duel_of_an_unknown_character_suggests_a_close_name(capsys):
    assert_one_line_error(capsys, ("duel", "warbound", "copq", "roh-na", "--trials", "100"), 1,
                          "did you mean copp?")
    assert_one_line_error(capsys, (*DUEL, "--trials", "100", "--leader-a", "warlord-of-nowhere"), 1,
                          "warlord-of-nowhere")


# --- units warbound ------------------------------------------------------------------------------------

def test_units_lists_both_sides_marks_illustrative_values_and_sources(capsys):
    doc = _json(capsys, "units", "warbound")
    chars = _section(doc, "characters")
    keys = ["copp", "analyst", "splatter", "roh-na", "rah-na", "oshi-goru", "ork-edo-drummer",
            "orkedo-player"]
    assert sorted(set(chars.key)) == sorted(keys)
    for key in keys:
        assert sorted(chars[chars.key == key].side) == ["front", "panic"], key
    copp = chars[chars.key == "copp"].set_index("side")
    assert copp.cost["front"] == "2+1c"  # printed (line 217): no *
    assert copp.attack["front"] == "8+ x1*"  # invented
    assert copp.equipment["front"] == "ranged"
    assert copp.cost["panic"].endswith("*") and copp.morale["panic"] == "-*"
    sources = _section(doc, "sources")
    copp_sources = sources[sources.key == "copp"].set_index("value").source
    assert copp_sources["name"] == "line 245"
    assert copp_sources["front.equipment_icons"] == "line 245"
    assert copp_sources["front.cost_colourless"] == "line 217"
    text = ok(capsys, "units", "warbound")
    assert "line 245" in text and "8+ x1*" in text


def _deck_names(capsys) -> dict[str, str]:
    """Printed names of the packaged catalog's cards, by key."""
    doc = _json(capsys, "units", "warbound")
    names = {r["key"]: r["character"] for r in doc["sections"]["characters"]}
    names |= {r["key"]: r["leader"] for r in doc["sections"]["leaders"]}
    names |= {r["key"]: r["equipment"] for r in doc["sections"]["equipment"]}
    names |= {r["key"]: r["vocation"] for r in doc["sections"]["vocations"]}
    return names


def _write_deck(path, names, characters) -> str:
    lines = ["[deck]", f'leader = "{names["raiders-warlord"]}"', f'vocation = "{names["veterans"]}"']
    for key, extra in characters:
        lines += ["[[deck.characters]]", f'name = "{names[key]}"', *extra]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_units_checks_a_deck(capsys, tmp_path):
    names = _deck_names(capsys)
    axe = f'equipment = "{names["war-axe"]}"'
    legal = [("copp", [axe]), ("analyst", []), ("splatter", ["formation = true"]), ("roh-na", [])]
    deck = _write_deck(tmp_path / "deck.toml", names, legal)  # 1 Leader + 4 Characters + 3 Upgrades
    doc = _json(capsys, "units", "warbound", "--deck", deck)
    assert "8 cards, 3 Upgrades: every Exploration limit holds" in doc["meta"]["check"]
    cards = _section(doc, "deck")
    assert cards.card.tolist().count("Character") == 4
    assert len(cards) == 8
    assert set(cards[cards.card == "Equipment"]["attached to"]) == {names["copp"]}
    assert set(cards[cards.card == "Equipment"]["key"]) == {"war-axe"}
    assert cards[cards.card == "Leader"]["name"].tolist() == [names["raiders-warlord"]]
    seven = _write_deck(tmp_path / "seven.toml", names, legal[:3])
    assert_one_line_error(capsys, ("units", "warbound", "--deck", seven), 1, "exactly 8 (line 69)")
    plate = f'"{names["raider-plate"]}"'
    two = [("copp", [f'equipment = ["{names["war-axe"]}", {plate}]']), *legal[1:]]
    two_deck = _write_deck(tmp_path / "two.toml", names, two)
    assert_one_line_error(capsys, ("units", "warbound", "--deck", two_deck), 1,
                          "at most one Equipment card")


# --- efficiency, whatif, sweep -------------------------------------------------------------------------

def test_efficiency_ranks_each_character_alone_and_in_formation(capsys):
    doc = _json(capsys, "efficiency", "warbound", *FIELD)
    rank = _section(doc, "ranking")
    assert set(rank.key) == KEYS
    assert set(rank.cost_unit) == {"Order tokens"}
    assert sorted(rank["rank"]) == [1, 2, 3, 4]
    cost = dict(zip(rank.key, rank.cost, strict=True))
    assert cost == {"copp": 3, "copp@formation": 4, "roh-na": 3, "roh-na@formation": 4}
    matchups = _section(doc, "matchups")
    for _, row in rank.iterrows():
        mine = matchups[(matchups.character == row.character) & (matchups.formation == row.formation)]
        by = {m: mine[mine.metric == m].value for m in ("trade_gain", "fraction_lost", "net_per_token")}
        assert len(by["net_per_token"]) == 6  # three opponents, two roles
        # the even-trade price and the value, from the engagements: the entry's cost at which its side's net
        # tokens' worth is zero (what it destroys less its companions' losses, over its own loss)
        even_trade = by["trade_gain"].sum() / by["fraction_lost"].sum()
        assert row.fair_cost == pytest.approx(even_trade, rel=1e-9)
        assert row.value == pytest.approx(by["net_per_token"].mean(), rel=1e-9, abs=1e-12)
        assert row.fair_cost_low <= row.fair_cost <= row.fair_cost_high
        band = max(0.1 * row.cost, 1.0)  # 10% of the cost, at least one Order token
        assert row.verdict == ("fair" if abs(row.fair_cost - row.cost) <= band else
                               "over-costed" if row.fair_cost_high < row.cost - band else
                               "under-costed" if row.fair_cost_low > row.cost + band else "undecided")
    # net tokens per token of the entry's cost, engagement by engagement; the even-trade gain is the net
    # tokens' worth with the entry's own loss left out
    for _, m in matchups[matchups.metric == "net_per_token"].iterrows():
        same = matchups[(matchups.character == m.character) & (matchups.formation == m.formation)
                        & (matchups.opponent_character == m.opponent_character)
                        & (matchups.opponent_formation == m.opponent_formation) & (matchups.role == m.role)]
        got = same.set_index("metric").value
        assert m.value == pytest.approx((got["cost_destroyed"] - got["cost_lost"]) / m.cost, abs=1e-12)
        entry_lost = m.cost * got["fraction_lost"]
        assert got["trade_gain"] == pytest.approx(got["net_tokens"] + entry_lost, abs=1e-12)
    table = csv(ok(capsys, "efficiency", "warbound", *FIELD, "--format", "csv"))
    assert table.fair_cost.tolist() == pytest.approx(rank.fair_cost.tolist(), rel=1e-12)


def test_efficiency_summary(capsys):
    out = " ".join(ok(capsys, "efficiency", "warbound", *FIELD, "--summary").split())
    assert "top 4 by value per Order tokens" in out
    assert "illustrative data: 4 of 4 entries" in out
    assert "copp@formation: 4 Order tokens, fair cost" in out


def test_the_value_is_per_token_already_so_the_views_show_it_once(capsys):
    """Warbound's value is net tokens' worth per token of cost: a 'value / cost' column would repeat it."""
    text = ok(capsys, "efficiency", "warbound", *FIELD, "--wide")  # every column, the win matrix
    header = next(line for line in text.splitlines() if line.startswith("rank "))
    assert "value" in header and "value / cost" not in header
    # the win matrix's columns are the rows' numbers, not the entries' names again
    matrix = text[text.index("\nWin probability of the row entry"):].splitlines()[2:7]
    assert matrix[0].split() == ["#", "entry", "1", "2", "3", "4"]
    assert [row.split()[0] for row in matrix[1:]] == ["1", "2", "3", "4"]
    sweep = ok(capsys, "sweep", "warbound", "--cost", "copp=2..4", *FIELD)
    table = sweep[sweep.index("\nSweep\n"):].splitlines()[2:5]
    assert "value / cost" not in sweep and len(table) == 3
    for line in table:  # every 95% half-width shows a non-zero digit (the win at 4 tokens is ~0.07)
        for half in re.findall(r"± (\d+\.\d+)", line):
            assert float(half) > 0, line


def test_whatif_set_changes_copp_and_a_no_op_changes_nothing(capsys):
    assert "8+ x1*" in _section(_json(capsys, "units", "warbound"), "characters").attack.tolist()
    diff = _section(_json(capsys, "whatif", "warbound", "--set", "copp.attack=5", *FIELD), "differences")
    assert set(diff.key) == KEYS
    win = diff[(diff.key == "copp") & (diff.metric == "win")].iloc[0]
    assert win.difference > 0 and win.significant
    assert (diff[diff.key == "copp"].difference != 0).any()
    same = _section(_json(capsys, "whatif", "warbound", "--set", "copp.attack=8", *FIELD), "differences")
    assert set(same.key) == KEYS
    assert (same.difference == 0).all() and (same.diff_low == 0).all() and (same.diff_high == 0).all()
    assert not same.significant.any()


def test_whatif_cost_is_a_re_simulation(capsys):
    doc = _json(capsys, "whatif", "warbound", "--cost", "copp=4", *FIELD)
    # COPP may be a companion in any contest neither of whose entries it is (WB-warband): every contest of
    # the field is played again (those of Roh'na against its Formation the same, their companions being
    # Oshi'goru, the Ork'edo Drummer and the Analyst)
    assert "all 12 engagements simulated again" in " ".join(doc["meta"]["method"].split())
    costing = _section(doc, "costing").set_index("key")
    assert (costing.cost["copp"], costing.variant_cost["copp"]) == (3, 4)
    assert (costing.cost["copp@formation"], costing.variant_cost["copp@formation"]) == (4, 5)
    assert costing.variant_cost["roh-na"] == 3
    diff = _section(doc, "differences")
    # a dearer COPP activates less often: it wins less
    win = diff[(diff.key == "copp@formation") & (diff.metric == "win")].iloc[0]
    assert win.difference < 0 and win.significant
    # NAME@formation=COST prices the Formation itself: the character alone costs one token less
    both = _section(_json(capsys, "whatif", "warbound", "--cost", "copp@formation=5", *FIELD),
                    "costing").set_index("key")
    assert both.variant_cost["copp@formation"] == 5 and both.variant_cost["copp"] == 4


def test_whatif_panic_side_set_to_none(capsys):
    doc = _json(capsys, "whatif", "warbound", "--set", "copp.panic.attack=none", *FIELD)
    diff = _section(doc, "differences")
    assert set(diff.key) == KEYS
    # every engagement is played again (COPP may be a companion: test_whatif_cost_is_a_re_simulation); a
    # panicked COPP that cannot Fight plays differently
    assert "all 12 engagements simulated again" in " ".join(doc["meta"]["method"].split())
    assert (diff[diff.key.str.startswith("copp")].difference != 0).any()


def test_sweep_of_a_cost_gives_three_points(capsys):
    doc = _json(capsys, "sweep", "warbound", "--cost", "copp=2..4", *FIELD)
    sweep = _section(doc, "sweep")
    assert list(sweep.columns) == ["unit", "parameter", "point", "metric", "value", "stderr"]
    assert sorted(sweep.point.astype(int).unique()) == [2, 3, 4]
    assert set(sweep.unit) == {"COPP"}
    cost = sweep[sweep.metric == "cost"]
    assert cost.value.tolist() == [2.0, 3.0, 4.0]
    assert "COPP (copp): cost over 2, 3, 4" in doc["meta"]["swept"]
    assert "break-even cost" in doc["meta"]
    # at today's cost (3) the sweep plays the efficiency run's engagements: the same value
    rank = csv(ok(capsys, "efficiency", "warbound", *FIELD, "--format", "csv")).set_index("key")
    today = sweep[(sweep.metric == "value") & (sweep.point.astype(int) == 3)].value.iloc[0]
    assert today == pytest.approx(rank.value["copp"], rel=1e-9)
    # NAME@formation=COST sweeps the Formation's own total cost
    formation = _section(_json(capsys, "sweep", "warbound", "--cost", "copp@formation=3..5", *FIELD), "sweep")
    assert set(formation.unit) == {"COPP (Formation)"}
    fcost = formation[formation.metric == "cost"]
    assert fcost.value.tolist() == fcost.point.astype(float).tolist() == [3.0, 4.0, 5.0]
    at_four = formation[(formation.metric == "value") & (formation.point.astype(int) == 4)].value.iloc[0]
    assert at_four == pytest.approx(rank.value["copp@formation"], rel=1e-9)


def test_sweep_of_a_stat(capsys):
    sweep = _section(_json(capsys, "sweep", "warbound", "--set", "copp.attack=6..8", *FIELD), "sweep")
    assert sorted(sweep.point.astype(int).unique()) == [6, 7, 8]
    win = sweep[sweep.metric == "win"].set_index(sweep[sweep.metric == "win"].point.astype(int)).value
    assert win[6] > win[8]  # hitting on 6+ wins more than on 8+


# --- bad input -----------------------------------------------------------------------------------------

ROLL = (*ATTACK, "--dice", "1", "--target", "7")


@pytest.mark.parametrize(("args", "code", "named"), [
    ((*ATTACK, "--dice", "1", "--target", "0"), 2, "--target"),
    ((*ATTACK, "--dice", "1", "--target", "13"), 2, "--target"),
    ((*ATTACK, "--dice", "0", "--target", "7"), 2, "--dice"),
    ((*ATTACK, "--dice", "-1", "--target", "7"), 2, "--dice"),
    ((*ROLL, "--broken", "2", "--armor-points", "1", "--armor-value", "6"), 2, "--broken 2"),
    ((*ROLL, "--armor-points", "1"), 2, "--armor-value"),
    ((*ROLL, "--wounds", "3", "--health", "3"), 1, "already reach the Health points 3"),
    ((*ROLL, "--stress", "3", "--morale", "3"), 1, "--panicked"),
    ((*ROLL, "--modifier", "13"), 2, "--modifier"),
    ((*ROLL, "--ruling", "WB-aim-stress=some"), 2, "WB-aim-stress"),
    (("table", "warbound", "hit", "--ruling", "WB-order-periods=never"), 2, "WB-order-periods"),
    (("whatif", "warbound", "--cost", "copp=0", *FIELD), 2, "not > 0"),
    (("whatif", "warbound", "--cost", "copp=2.5", *FIELD), 2, "whole number"),
    (("whatif", "warbound", "--set", "copp.nosuch=3", *FIELD), 1, "accepted: attack, attack_dice"),
    (("whatif", "warbound", "--set", "copp.attak=3", *FIELD), 1, "did you mean attack"),
    (("whatif", "warbound", "--set", "copp.attack=13", *FIELD), 1, "attack 13"),
    (("whatif", "warbound", "--set", "nobody.attack=5", *FIELD), 1, "nobody"),
])
def test_bad_input_is_one_clear_line(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_a_character_without_a_panic_side_needs_no_panic_for_a_duel(capsys, tmp_path):
    catalog = tmp_path / "brute.toml"
    catalog.write_text('[characters.brute]\nname = "Brute"\nfaction = "orkedo"\n'
                       'illustrative = ["name", "faction", "front"]\n'
                       '[characters.brute.front]\nattack = 6\nattack_dice = 2\nspeed = 3\nrun = 1\n'
                       'cost_colourless = 1\ncost_coloured = 1\nhealth = 3\nmorale = 4\narmor_points = 0\n',
                       encoding="utf-8")
    args = ("duel", "warbound", "brute", "copp", "--catalog", str(catalog), "--trials", "500", "--seed", "2")
    assert_one_line_error(capsys, args, 1, "--no-panic")
    doc = _json(capsys, *args, "--no-panic")
    assert "keeps its front on Panic" in doc["meta"]["A"]
    value = _section(doc, "duel").set_index("measure").value
    assert value[["A removes B", "B removes A", "both stand after turn 5"]].sum() == pytest.approx(1.0)
    # efficiency: naming it is an error; the whole field leaves it out and the summary says so
    assert_one_line_error(capsys, ("efficiency", "warbound", "--catalog", str(catalog), "--unit", "brute",
                                   "--unit", "copp", "--trials", "200"), 1, "no panic side")
    code, out, err = run(capsys, "efficiency", "warbound", "--catalog", str(catalog), "--trials", "200",
                         "--summary")
    assert code == 0, err
    assert "left out (no panic side to flip to): brute" in out


def test_set_takes_the_catalogs_ranges_and_pairings(capsys):
    """--set accepts what a catalog file accepts (hit values 2..12), and keeps a profile's pairings: no
    attack, no attack dice; an attack again, one die."""
    assert_one_line_error(capsys, ("whatif", "warbound", "--set", "copp.attack=1", "--unit", "copp",
                                   "--trials", "10"), 1, "outside 2..12")
    from rulesets.base import parse_set
    from rulesets.warbound import RULESET

    cat = RULESET.load_catalog()
    none = RULESET.variant(cat, [parse_set("copp.attack=none")], []).character("copp").front
    assert none.attack is None and none.attack_dice == 0
    again = RULESET.variant(cat, [parse_set("roh-na.accuracy_near=7")], []).character("roh-na").front
    assert again.accuracy_near == 7 and again.shoot_dice == 1
    bare = RULESET.variant(cat, [parse_set("copp.armor_points=0")], []).character("copp").front
    assert bare.armor_points == 0 and bare.armor_value is None
    assert_one_line_error(capsys, ("whatif", "warbound", "--set", "copp.armor_points=0", "--set",
                                   "copp.armor_value=5", "--unit", "copp", "--trials", "10"), 1,
                          "no armor points")


def test_table_all_rounds_every_probability_as_its_index_says(capsys, tmp_path):
    out = tmp_path / "t"
    code, _, err = run(capsys, "table", "warbound", "all", "--output", str(out), "--digits", "2", "--percent")
    assert code == 0, err
    hit = (out / "hit.md").read_text(encoding="utf-8")
    # grids, rows the target value: P(at least one hit) 5/12 (1 die) as a percentage, 1 - (7/12)^2 = 65.97%
    # (2 dice, and 1 die with Aim); the expected hits a number; the one-die cases
    assert "| 7+ | 41.67 | 65.97 | 80.15 | 88.42 | 65.97 | 80.15 | 88.42 | 93.25 |" in hit
    assert "| 7+ | 0.42 | 0.83 | 1.25 | 1.67 | 0.66 | 1.18 | 1.64 | 2.07 |" in hit
    assert "| 7+ | 41.67 | 65.97 | 50.00 | 75.00 |" in hit
    armor = (out / "armor.md").read_text(encoding="utf-8")
    # 1 armor point at 6+, 3 damage: 2.12 Wound tokens (so 0.88 Breaks), never no Wound (a blank cell)
    assert "| 6+ | 0.50 | 1.25 | 2.12 | 3.06 |" in armor
    grid = armor.split("## P(no Wound token), percent")[1]
    assert "\n| armor | 1 | 2 | 3 | 4 |\n" in grid and "\n| 6+ | 50.00 | 25.00 | 12.50 | 6.25 |\n" in grid
    assert "0.916667" not in hit and "0.875" in (out / "armor.csv").read_text(encoding="utf-8")
