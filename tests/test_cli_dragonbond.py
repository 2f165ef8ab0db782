"""The Dragonbond commands `roll dragonbond` and `table dragonbond`: their numbers and one-line errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from cli_run import assert_one_line_error, csv, ok, run


def _json(capsys, *args):
    return json.loads(ok(capsys, *args, "--format", "json"))


def test_pool_shows_the_rolled_pool_and_its_joint_distribution(capsys):
    doc = _json(capsys, "roll", "dragonbond", "pool", "3G 3W", "--down", "4")
    assert "rolls 5W" in doc["meta"]["pool"]
    joint = pd.DataFrame(doc["sections"]["joint"])
    assert joint.probability.sum() == pytest.approx(1.0, abs=1e-9)
    # five white dice: P(no ◇, no ◇◇, no ◆) = 0.7^5
    row = joint[(joint.successes == 0) & (joint.doubles == 0) & (joint.criticals == 0)]
    assert float(row.probability.iloc[0]) == pytest.approx(0.7**5, abs=1e-12)
    assert doc["meta"]["mean hits"].startswith("1.000000")  # 5 x 0.2


def test_attack_reference_case_and_models_killed(capsys):
    """4 grey + 2 black (two Blades models with 2G 1B each) against 1 white die per hit: E[wounds] 2.4."""
    doc = _json(capsys, "roll", "dragonbond", "attack", "--dice", "2G 1B", "--models", "2", "--defense", "1",
                "--defense-die", "white", "--health", "2", "--target-models", "3")
    assert doc["meta"]["mean wounds"].startswith("2.400000")
    wounds = pd.DataFrame(doc["sections"]["wounds"])
    killed = pd.DataFrame(doc["sections"]["killed"])
    # three models of Health 2: k killed <=> wounds in [2k, 2k + 1] (all three at 6 or more)
    p = dict(zip(wounds.wounds, wounds.probability, strict=True))
    assert float(killed.probability[killed.killed == 1].iloc[0]) == pytest.approx(p.get(2, 0) + p.get(3, 0),
                                                                                    abs=1e-12)
    assert "2 model(s) x 1B 2G = 2B 4G" in doc["meta"]["attack"]


def test_attack_modifiers_are_listed_and_change_the_numbers(capsys):
    base = _json(capsys, "roll", "dragonbond", "attack", "--dice", "3G", "--defense", "1")
    charged = _json(capsys, "roll", "dragonbond", "attack", "--dice", "3G", "--defense", "1", "--charge")
    tired = _json(capsys, "roll", "dragonbond", "attack", "--dice", "3G", "--defense", "1",
                  "--fatigue-beside", "1")
    flanked = _json(capsys, "roll", "dragonbond", "attack", "--dice", "3G", "--defense", "1",
                    "--engaged-enemies", "2")
    mean = {k: float(d["meta"]["mean wounds"]) for k, d in
            (("base", base), ("charged", charged), ("tired", tired), ("flanked", flanked))}
    assert mean["charged"] > mean["base"] > mean["tired"]
    assert mean["flanked"] > mean["base"]
    assert "charge: 2 melee attack upgrades (498)" in charged["meta"]["attack modifiers"]
    assert "rolls 1G 2W" in tired["meta"]["attack"]  # 3 grey, 2 downgrades: two of them to white
    assert "flanked" in flanked["meta"]["defense modifiers"]


def test_face_off_charge_and_damage(capsys):
    stages = pd.DataFrame(_json(capsys, "roll", "dragonbond", "face-off")["sections"]["stages"])
    assert dict(zip(stages.decided_on, stages.probability, strict=True))["successes"] == \
        pytest.approx(0.75718, abs=1e-12)
    reach = pd.DataFrame(_json(capsys, "roll", "dragonbond", "charge", "--speed", "9")["sections"]["reach"])
    assert float(reach.p_at_least[reach.inches == 11].iloc[0]) == pytest.approx(0.838, abs=1e-12)
    damage = _json(capsys, "roll", "dragonbond", "damage", "--tokens", "1")
    removed = pd.DataFrame(damage["sections"]["removed"])
    assert removed.probability.tolist() == pytest.approx([0.3, 0.7])


@pytest.mark.parametrize("table", ["dice", "pool", "attack", "charge", "face-off"])
@pytest.mark.parametrize("fmt", ["csv", "markdown", "latex", "html", "table"])
def test_every_table_in_every_format(capsys, table, fmt):
    out = ok(capsys, "table", "dragonbond", table, "--format", fmt)
    assert "dragonbond" in out.lower() or fmt == "csv"


def test_dice_table_numbers(capsys):
    dice = csv(ok(capsys, "table", "dragonbond", "dice", "--format", "csv"))
    black = dice[dice.die == "black action d10"].iloc[0]
    assert (black["blank"], black["◇"], black["◇◇"], black["◆"]) == pytest.approx((0.3, 0.4, 0.2, 0.1))
    assert float(dice[dice.die == "red defense d6"]["block ▼"].iloc[0]) == pytest.approx(1 / 3)


@pytest.mark.parametrize(("args", "code", "named"), [
    (("roll", "dragonbond", "pool", "2X"), 2, "'2X'"),
    (("roll", "dragonbond", "pool", ""), 2, "empty"),
    (("roll", "dragonbond", "attack", "--dice", "2B", "--down", "-1"), 2, "--down"),
    (("roll", "dragonbond", "attack", "--dice", "2B", "--health", "2"), 2, "--target-models"),
    (("roll", "dragonbond", "attack", "--dice", "2B", "--ranged", "--charge"), 1, "--charge"),
    (("roll", "dragonbond", "attack", "--dice", "2Q"), 2, "--dice"),
    (("roll", "dragonbond", "face-off", "--players", "5"), 2, "--players"),
    (("roll", "dragonbond", "charge", "--speed", "-1"), 2, "--speed"),
    (("roll", "dragonbond", "pool", "2B", "--ruling", "DB-sharp=maybe"), 2, "DB-sharp"),
    (("table", "dragonbond", "pool", "--pool", "1R"), 2, "'1R'"),
])
def test_bad_input_is_one_clear_line(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_defense_zero_says_what_happens(capsys):
    out = ok(capsys, "roll", "dragonbond", "attack", "--dice", "2B", "--defense", "0")
    assert "defense 0: no defense dice are rolled, every hit wounds" in out


def test_rulings_switch_the_numbers(capsys):
    two = _json(capsys, "roll", "dragonbond", "pool", "2B")
    one = _json(capsys, "roll", "dragonbond", "pool", "2B", "--ruling", "DB-double-hits=1")
    assert two["meta"]["mean hits"].startswith("1.600000") and one["meta"]["mean hits"].startswith("1.200000")
    assert "DB-double-hits=1" in one["meta"]["rulings"]


# --- the balance layer and the duel ----------------------------------------------------------------------

FIELD = ("--unit", "bucentaur-blades", "--unit", "ogerron-phalanx", "--unit", "blooded-claws")
FAST = ("--trials", "1000", "--seed", "3")


def test_duel_reports_outcomes_that_sum_to_one_and_says_what_is_illustrative(capsys):
    doc = _json(capsys, "duel", "dragonbond", "bucentaur-blades", "ogerron-phalanx", "--trials", "20000")
    rows = pd.DataFrame(doc["sections"]["duel"]).set_index("measure")
    outcomes = rows.value[["A destroys B", "B destroys A", "neither (both stand after the last round)"]]
    assert outcomes.sum() == pytest.approx(1.0, abs=1e-12)
    assert 0.55 < rows.value["A destroys B"] < 0.72  # 0.637 at 10^5 duels, seed 0
    assert "20,000 duels" in doc["meta"]["method"]
    assert any("illustrative" in n for n in doc["notes"])
    # two turns a round and Upkeep clearing the card: with Stamina 3 the Blades never tire, so resting
    # when exhausted changes nothing; with Stamina 1 the second Attack of a round exhausts them
    rest = _json(capsys, "duel", "dragonbond", "bucentaur-blades", "ogerron-phalanx", "--trials", "20000",
                 "--policy-a", "rest")
    assert pd.DataFrame(rest["sections"]["duel"]).value.tolist() == rows.value.tolist()


def test_duel_marks_the_illustrative_values_as_units_does(capsys):
    """The catalog marks what the rulebook does not print (the Blades' Sharp and captain, the Phalanx's
    weapon, every model count...); the duel's profiles carry the same * as `units dragonbond`, printed
    values bare (the Blades' 1B 2G, line 726; the Phalanx's defense 1, line 745), and its notes name them."""
    doc = _json(capsys, "duel", "dragonbond", "bucentaur-blades", "ogerron-phalanx", "--trials", "1000")
    a, b = doc["meta"]["A"], doc["meta"]["B"]
    assert a == ("Bucentaur Blades: 3* model(s) of Health 2*; Stamina 3*; defense 1* white*; melee 1B 2G "
                 "per model; policy attack; captain Captain of the Blades* (Health 2*; melee +1*); "
                 "keywords sharp*")
    assert b == ("Ogerron Phalanx: 3* model(s) of Health 3*; Stamina 3*; defense 1 white*; melee* 2G* per "
                 "model; policy attack; captain Captain of the Phalanx* (Health 3*; defense +1*)")
    units = pd.DataFrame(_json(capsys, "units", "dragonbond")["sections"]["units"]).set_index("key")
    for key, profile in (("bucentaur-blades", a), ("ogerron-phalanx", b)):
        row = units.loc[key]
        assert f"captain {row.captain}" in profile
        assert f"{row.models} model(s) of Health {row.health}" in profile
    notes = " ".join(doc["notes"])
    assert ("A (Bucentaur Blades) has illustrative values, marked * in its profile, not printed in the "
            "rulebook: captain.health, captain.modifiers, captain.name, cost, defense, defense_die, health, "
            "keywords.sharp, models, stamina, weapons[0].name") in notes
    assert "B (Ogerron Phalanx) has illustrative values" in notes and "weapons[0].kind" in notes


def test_a_user_catalog_and_the_rest_policy(capsys, tmp_path):
    tired = tmp_path / "tired.toml"
    tired.write_text('[units.tired-blades]\nname = "Tired Blades"\nmodels = 3\nhealth = 2\nstamina = 1\n'
                     'speed = 8\ndefense = 1\ndefense_die = "white"\ncost = 100\n'
                     '[[units.tired-blades.weapons]]\nname = "Blades"\nkind = "melee"\ndice = "2G 1B"\n',
                     encoding="utf-8")
    runs = {}
    for policy in ("attack", "rest"):
        doc = _json(capsys, "duel", "dragonbond", "tired-blades", "ogerron-phalanx", "--trials", "20000",
                    "--catalog", str(tired), "--policy-a", policy)
        runs[policy] = pd.DataFrame(doc["sections"]["duel"]).set_index("measure").value
    assert runs["rest"]["fatigue gained by A"] < runs["attack"]["fatigue gained by A"]
    assert runs["rest"]["turns taken by A"] > runs["rest"]["fatigue gained by A"]  # some turns rested
    # best: both pairings on the same dice, the maximin one played, and said
    doc = _json(capsys, "duel", "dragonbond", "tired-blades", "ogerron-phalanx", "--trials", "20000",
                "--catalog", str(tired), "--policy-a", "best")
    said = doc["meta"]["policies"]
    import re
    p = {m[0]: float(m[1]) for m in re.findall(r"A (attack|rest), B attack: P\(A wins\) ([0-9.]+)", said)}
    assert set(p) == {"attack", "rest"}
    chosen = max(p, key=lambda k: (p[k], k == "attack"))
    assert f"best chose A {chosen}, B attack" in said
    played = pd.DataFrame(doc["sections"]["duel"]).set_index("measure").value
    assert played["A destroys B"] == pytest.approx(p[chosen], abs=1e-4)  # the same 20,000 duels


@pytest.mark.slow  # 40-60 s: battles and (the summary) Drakerys' kernels compiled
def test_efficiency_whatif_sweep_and_table_all_work_for_dragonbond(capsys, tmp_path):
    rank = csv(ok(capsys, "efficiency", "dragonbond", *FIELD, *FAST, "--format", "csv"))
    assert set(rank.key) == {"bucentaur-blades", "ogerron-phalanx", "blooded-claws"}
    assert sorted(rank["rank"]) == [1, 2, 3]
    diff = _json(capsys, "whatif", "dragonbond", "--set", "ogerron-phalanx.health=5", *FIELD, *FAST)
    table = pd.DataFrame(diff["sections"]["differences"])
    win = table[(table.key == "ogerron-phalanx") & (table.metric == "win")].iloc[0]
    assert win.difference > 0 and win.significant
    sweep = _json(capsys, "sweep", "dragonbond", "--cost", "ogerron-phalanx=60..140/40", *FIELD, *FAST)
    assert len(pd.DataFrame(sweep["sections"]["sweep"]).point.unique()) == 3
    code, _, err = run(capsys, "table", "dragonbond", "all", "--output", str(tmp_path / "tables"))
    assert code == 0, err
    written = {p.name for p in (tmp_path / "tables").iterdir()}
    assert {"dice.csv", "attack.md", "face-off.html", "pool.tex", "charge.csv"} <= written, written


def test_units_lists_every_unit_and_marks_illustrative_values(capsys):
    doc = _json(capsys, "units", "dragonbond")
    units = pd.DataFrame(doc["sections"]["units"])
    assert len(units) == 14
    blades = units[units.key == "bucentaur-blades"].iloc[0]
    assert blades.speed == "8" and blades.cost.endswith("*")  # speed printed (line 424), cost invented


@pytest.mark.parametrize(("args", "code", "named"), [
    (("duel", "dragonbond", "blades", "ogerron-phalanx"), 1, "bucentaur-blades"),
    (("duel", "dragonbond", "bucentaur-blades", "ogerron-phalanx", "--trials", "1e9"), 2, "--trials"),
    (("duel", "dragonbond", "bucentaur-blades", "ogerron-phalanx", "--policy-a", "flee"), 2, "--policy-a"),
    (("whatif", "dragonbond", "--set", "ogerron-phalanx.health=0", *FIELD), 1, "health 0"),
    (("whatif", "dragonbond", "--cost", "ogerron-phalanx=0", *FIELD), 2, "not > 0"),
    (("whatif", "dragonbond", "--set", "ogerron-phalanx.speeed=3", *FIELD), 1, "speed"),
])
def test_bad_balance_input_is_one_clear_line(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_a_ranged_attack_into_a_melee_reports_each_unit(capsys):
    doc = _json(capsys, "roll", "dragonbond", "attack", "--dice", "2G", "--models", "3", "--ranged",
                "--also-engaged", "1:black", "--also-engaged", "2:red")
    assert {"wounds_0", "wounds_1", "wounds_2"} <= set(doc["sections"])
    assert "ranged attack into 3 engaged units" in doc["meta"]["into a melee"]
    attack = ("roll", "dragonbond", "attack", "--dice", "2G")
    assert_one_line_error(capsys, (*attack, "--also-engaged", "1:black"), 2, "--ranged")
    assert_one_line_error(capsys, (*attack, "--ranged", "--also-engaged", "1:green"), 2, "'1:green'")


def test_attack_simulated_on_request_agrees_with_the_exact_mean(capsys):
    args = ("roll", "dragonbond", "attack", "--dice", "2G 1B", "--models", "2", "--defense", "1",
            "--health", "2", "--target-models", "3")
    doc = _json(capsys, *args, "--trials", "200000", "--seed", "3")
    assert "Monte Carlo, 200,000 attacks, seed 3" in doc["meta"]["method"]
    value, half = (float(x) for x in doc["meta"]["mean wounds"].replace(" (95%)", "").split(" ± "))
    assert abs(value - 2.4) < 1.5 * half + 1e-9 and half < 0.02
    wounds = pd.DataFrame(doc["sections"]["wounds"])
    assert {"stderr", "p_at_least_stderr"} <= set(wounds.columns)
    assert_one_line_error(capsys, (*args[:5], "--ranged", "--also-engaged", "1:black", "--trials", "100"), 2,
                          "--also-engaged")


@pytest.mark.slow  # 40-60 s: battles and (the summary) Drakerys' kernels compiled
def test_efficiency_summary_says_the_data_is_illustrative(capsys):
    out = ok(capsys, "efficiency", "dragonbond", *FIELD, *FAST, "--summary")
    said = "illustrative data: 3 of 3 entries have values the rulebook does not print"
    assert said in " ".join(out.split())
    drakerys = ok(capsys, "efficiency", "drakerys", "--unit", "crows", "--unit", "warriors", "--trials",
                  "300", "--summary")
    assert "illustrative" not in drakerys


def test_a_defense_pool_in_the_rulebooks_notation(capsys):
    """1 black + 2 white + 1 red: P(no block) = 1/3 x 1/2 x 1/2 x 2/3 = 1/18; 2 downgrades (strongest
    first, distinct dice): black -> white and one white -> red, so 2 white and 2 red are rolled."""
    doc = _json(capsys, "roll", "dragonbond", "pool", "1B 2W 1R", "--defense")
    blocks = pd.DataFrame(doc["sections"]["blocks"])
    assert float(blocks.probability[blocks.blocks == 0].iloc[0]) == pytest.approx(1 / 18, abs=1e-15)
    assert doc["meta"]["mean blocks"].startswith(f"{2 / 3 + 1 / 2 + 1 / 2 + 1 / 3:.6f}")
    down = _json(capsys, "roll", "dragonbond", "pool", "1B 2W 1R", "--defense", "--down", "2")
    assert "rolls 2W 2R" in down["meta"]["pool"]
    assert_one_line_error(capsys, ("roll", "dragonbond", "pool", "2G", "--defense"), 2, "'2G'")
    assert_one_line_error(capsys, ("roll", "dragonbond", "pool", "2B", "--defense", "--sharp"), 2, "--sharp")


def _mean_wounds(capsys, *args: str) -> str:
    return _json(capsys, "roll", "dragonbond", "attack", *args)["meta"]["mean wounds"]


def test_a_charge_upgrades_two_melee_attack_dice(capsys):
    """Two models of 2G 1W charge (498: "upgrading two melee attack dice"): 4G 2W, both whites upgraded to
    6G. One white defense die per hit blocks half the time and never more than the hits, so E[wounds] =
    E[hits] / 2 + E[criticals] = 6 x 0.5 / 2 + 6 x 0.1 = 2.1 (one upgrade would leave 5G 1W: 1.95)."""
    assert _mean_wounds(capsys, "--dice", "2G 1W", "--models", "2", "--charge", "--defense", "1",
                        "--defense-die", "white") == "2.100000"


def test_flanking_per_extra_unit_downgrades_once_for_two_engaged_enemies(capsys):
    """3G against 1 white die per hit, the target engaged with 2 enemy units: DB-flanking-count=per-extra-unit
    downgrades one defense die (white -> red). With h >= 1 hits, E[h - blocks] = h - (h - 1)/2 - 1/3, so
    E[wounds] = E[h]/2 + P(h >= 1)/6 + E[criticals] = 0.75 + (1 - 0.6^3)/6 + 0.3 = 1.180667 (two
    downgrades, one per engaged unit, would give 1.257333)."""
    from fractions import Fraction as F

    exact = F(3, 4) + (1 - F(3, 5) ** 3) / 6 + F(3, 10)
    got = _mean_wounds(capsys, "--dice", "3G", "--defense", "1", "--engaged-enemies", "2")
    assert got == f"{float(exact):.6f}" == "1.180667"
    per_unit = _mean_wounds(capsys, "--dice", "3G", "--defense", "1", "--engaged-enemies", "2",
                            "--ruling", "DB-flanking-count=per-engaged-unit")
    assert per_unit == "1.257333"


@pytest.mark.parametrize(("ruling", "double", "crit", "expected"), [
    ("DB-double-hits=2", 2, 1, "3.234400"),
    ("DB-double-hits=1", 1, 1, "2.800000"),
    ("DB-damage-token=non-critical", 2, 0, "2.924800"),
])
def test_damage_tokens_remove_as_many_tokens_as_hits(capsys, ruling, double, crit, expected):
    """4 Damage tokens, 4 black dice: "remove tokens equal to the number of hits" (592), a ◇◇ counting
    DB-double-hits hits as everywhere else, at most the 4 tokens. Checked against every one of the 10^4
    face combinations, in fractions."""
    from fractions import Fraction as F
    from itertools import product

    hits = {**dict.fromkeys(range(1, 4), 0), 4: 1, 5: 1, 6: 1, 7: 1, 8: double, 9: double, 10: crit}
    exact = sum(F(min(sum(hits[f] for f in faces), 4), 10**4) for faces in product(range(1, 11), repeat=4))
    assert f"{float(exact):.6f}" == expected
    doc = _json(capsys, "roll", "dragonbond", "damage", "--tokens", "4", "--ruling", ruling)
    assert doc["meta"]["mean wounds"].startswith(expected + " ")
    removed = pd.DataFrame(doc["sections"]["removed"])
    assert removed.removed.max() <= 4
    assert removed.probability.sum() == pytest.approx(1.0, abs=1e-12)


def _face_off_rolls_by_enumeration(players: int):
    """Expected face-off rolls from scratch, in fractions: every 3-grey roll (10^3 faces) gives a player
    the key (successes, criticals, doubles); the players with the greatest key are still tied when there
    are two or more of them (224-228), and only they roll again: E[k] = 1 + sum_j P(j still tied) E[j]."""
    from collections import Counter
    from fractions import Fraction as F
    from itertools import product

    grey = {**dict.fromkeys(range(1, 6), (0, 0, 0)), 6: (1, 0, 0), 7: (1, 0, 0), 8: (1, 0, 0), 9: (2, 0, 1),
            10: (1, 1, 0)}  # face -> (successes, criticals, doubles); a ◆ one success (DB-crit-success)
    keys = Counter()
    for faces in product(range(1, 11), repeat=3):
        keys[tuple(sum(grey[f][i] for f in faces) for i in range(3))] += F(1, 1000)
    rolls = {}
    for k in range(2, players + 1):
        tied = Counter()
        for draw in product(keys, repeat=k):
            top = draw.count(max(draw))
            if top > 1:
                q = F(1)
                for key in draw:
                    q *= keys[key]
                tied[top] += q
        rolls[k] = (1 + sum(q * rolls[j] for j, q in tied.items() if j < k)) / (1 - tied[k])
    return rolls[players]


@pytest.mark.parametrize(("players", "printed"), [(2, "1.131181"), (3, "1.136222"), (4, "1.141386")])
def test_face_off_expected_rolls_only_the_tied_players_reroll(capsys, players, printed):
    exact = _face_off_rolls_by_enumeration(players)
    doc = _json(capsys, "roll", "dragonbond", "face-off", "--players", str(players))
    assert doc["meta"]["expected rolls"].startswith(printed + " ")
    assert f"{float(exact):.6f}" == printed
    table = csv(ok(capsys, "table", "dragonbond", "face-off", "--format", "csv"))
    assert float(table["expected rolls"][table.players == players].iloc[0]) == pytest.approx(float(exact),
                                                                                           abs=1e-9)


@pytest.mark.parametrize(("timing", "beside", "expected"), [
    # speed 6 + successes of 3 black (0.9 each: ◇ 0.4, ◇◇ 2 x 0.2, ◆ 0.1) = 8.7 with nothing beside
    ("pay-then-act", 0, "8.700000"),
    # paid first, 1 token counts: 5" and 2 downgrades, 1B 2G (grey 0.3 + 2 x 0.1 + 0.1 = 0.6): 5 + 2.1
    ("pay-then-act", 1, "7.100000"),
    # 2 tokens: 4" and 4 downgrades, 2G 1W (white 0.2 + 0.1 = 0.3): 4 + 1.5
    ("pay-then-act", 2, "5.500000"),
    ("check-after-paying", 0, "8.700000"),
    # the 2 fatigue come after the charge: its move and roll see no token
    ("act-then-pay", 1, "8.700000"),
    ("act-then-pay", 2, "8.700000"),
])
def test_charge_reach_under_each_fatigue_timing(capsys, timing, beside, expected):
    doc = _json(capsys, "roll", "dragonbond", "charge", "--speed", "6", "--fatigue-beside", str(beside),
                "--ruling", f"DB-fatigue-timing={timing}")
    assert doc["meta"]["mean reach"] == expected + '"'
    assert doc["meta"]["fatigue timing"].startswith(f"DB-fatigue-timing={timing}: ")
    assert not any("pay-then-act" in n for n in doc["notes"])


@pytest.mark.parametrize(("timing", "beside", "said"), [
    ("pay-then-act", 3, "it was exhausted before paying"),
    ("pay-then-act", 5, "it was exhausted before paying"),
    ("act-then-pay", 3, "it was exhausted before paying"),
    ("check-after-paying", 1, "a cost that would exhaust the unit bars the action"),
    ("check-after-paying", 2, "a cost that would exhaust the unit bars the action"),
])
def test_a_charge_the_rules_forbid_is_refused_in_one_line(capsys, timing, beside, said):
    args = ("roll", "dragonbond", "charge", "--speed", "6", "--fatigue-beside", str(beside), "--ruling",
            f"DB-fatigue-timing={timing}")
    assert_one_line_error(capsys, args, 1, f"--fatigue-beside {beside}: ")
    assert said in run(capsys, *args)[2]


LEGEND = "* illustrative: not printed in the rulebook"


def _units(capsys, fmt: str) -> pd.DataFrame:
    out = ok(capsys, "units", "dragonbond", "--format", fmt)
    if fmt == "csv":
        return csv(out).set_index("key")
    return pd.DataFrame(json.loads(out)["sections"]["units"]).set_index("key")


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_units_mark_every_invented_value_and_no_printed_one(capsys, fmt):
    """The catalog lists what the rulebook does not print (examples.toml `illustrative`); the table shows
    those values with a trailing *, and the values printed in the rulebook without one."""
    u = _units(capsys, fmt)
    assert len(u) == 14
    # keywords: Sharp (Blades), Reach (Halberdiers), Flying, Epic 1 and Blocking (the two dragons) invented
    assert u.keywords["bucentaur-blades"] == "sharp*"
    assert u.keywords["oathguard-halberdiers"] == "reach*"
    for dragon in ("ferellon-fulgen", "nagasha"):
        # Huge is printed (lines 957, 973), its injury slots are not
        assert u.keywords[dragon] == "flying*, epic 1*, huge (3* injury slots), blocking*"
    # weapon dice: printed for the Blades (726) and the Gore-Lancers (562) only
    dice = u.weapons.str.split(" ").str[1]
    assert dice["bucentaur-blades"] == "1B" and u.weapons["bucentaur-blades"] == "melee 1B 2G per model"
    assert u.weapons["skorpikon-gore-lancers"] == "melee* 3G 3W per unit"
    invented = [k for k, w in u.weapons.items() if " per " in w and w.split(" per ")[0].endswith("*")]
    assert len(invented) == 12 and "bucentaur-blades" not in invented and \
        "skorpikon-gore-lancers" not in invented
    # captains: only Commander Leonise is named (317); every Health and modifier is invented
    captains = u.captain[u.captain.fillna("") != ""]
    assert len(captains) == 9
    for key, text in captains.items():
        name, _, rest = text.partition(" (")
        assert name.endswith("*") == (key != "oathguard-halberdiers"), text
        assert rest.startswith("Health ") and rest.split(";")[0].endswith("*"), text
        assert rest.endswith("*)") and rest.count("*") == 2, text  # Health and the modifiers
    assert u.captain["oathguard-halberdiers"] == "Commander Leonise (Health 1*; melee-defense +1*)"
    # printed values carry no mark: the Blades' and Duelists' speeds (424, 490), the Phalanx's defense
    # (745), the Claws' 7 models (789), every name
    assert (u.speed["bucentaur-blades"], u.speed["oathguard-duelists"]) in (("8", "9"), (8, 9))
    assert str(u.defense["ogerron-phalanx"]) == "1" and str(u.models["blooded-claws"]) == "7"
    assert not u.unit.str.contains("*", regex=False).any()
    assert u.cost.str.endswith("*").all()
    # the legend heads the column of the invented fields
    assert u[LEGEND]["bucentaur-blades"].split("; ") == sorted(
        ["models", "health", "stamina", "defense", "defense_die", "cost", "keywords.sharp", "captain.name",
         "captain.health", "captain.modifiers", "weapons[0].name"])


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "html", "json", "csv"])
def test_units_say_what_the_mark_means_in_every_format(capsys, fmt):
    out = ok(capsys, "units", "dragonbond", "--format", fmt)
    assert "sharp*" in out
    flat = " ".join(out.split())
    assert LEGEND in flat or LEGEND.replace("*", r"\*") in flat  # Markdown escapes the *


def _ranged_into_melee_by_enumeration(units: int, flanking_downgrades: int):
    """E[wounds] of each unit hit by 3 grey dice (all 10^3 faces, in fractions) shared out as 685-689 say:
    criticals first, then hits, one at a time from the nearest unit (the target), round the units. Every
    unit rolls 1 white die per non-critical hit of its share (blocks 1/2); the target's pool has
    ``flanking_downgrades`` of them downgraded to red (blocks 1/3). One die per hit never blocks more than
    the hits, so E[wounds] = criticals + hits - E[blocks]."""
    from fractions import Fraction as F
    from itertools import product

    grey = {**dict.fromkeys(range(1, 6), (0, 0)), 6: (1, 0), 7: (1, 0), 8: (1, 0), 9: (2, 0), 10: (0, 1)}
    means = [F(0)] * units
    for faces in product(range(1, 11), repeat=3):
        hits, crits = (sum(grey[f][i] for f in faces) for i in range(2))
        got = [[0, 0] for _ in range(units)]
        for j in range(crits + hits):
            got[j % units][0 if j < crits else 1] += 1
        for i, (c, h) in enumerate(got):
            red = min(flanking_downgrades, h) if i == 0 else 0
            blocks = (h - red) * F(1, 2) + red * F(1, 3)
            means[i] += F(1, 1000) * (c + h - blocks)
    return means


def test_a_ranged_attack_at_an_engaged_target_shares_its_hits(capsys):
    """--engaged-enemies with --ranged: the target is in a melee with that many units, the hits go one per
    unit from the nearest (the target), criticals first (685-689); the target, engaged with 2, is flanked
    (one defense downgrade, DB-flanking-count=per-extra-unit)."""
    attack = ("roll", "dragonbond", "attack", "--dice", "3G", "--defense", "1", "--ranged")
    doc = _json(capsys, *attack, "--engaged-enemies", "2")
    exact = _ranged_into_melee_by_enumeration(3, 1)
    shown = [doc["meta"][f"mean wounds on {n}"].split(" ")[0]
             for n in ("the target", "engaged unit 1", "engaged unit 2")]
    assert shown == [f"{float(m):.6f}" for m in exact] == ["0.715667", "0.308000", "0.131000"]
    assert "not described: the target's defense, unmodified" in doc["meta"]["mean wounds on engaged unit 2"]
    assert "ranged attack into 3 engaged units" in doc["meta"]["into a melee"]
    # one unit engaged with the target: not flanked, the hits shared between two
    one = _json(capsys, *attack, "--engaged-enemies", "1")
    assert [one["meta"][f"mean wounds on {n}"].split(" ")[0] for n in ("the target", "engaged unit 1")] == \
        [f"{float(m):.6f}" for m in _ranged_into_melee_by_enumeration(2, 0)]
    # in no melee (the default for a ranged attack): every hit on the target, 3 x (0.5 / 2 + 0.1)
    alone = _json(capsys, *attack)
    assert alone["meta"]["mean wounds"] == f"{float(_ranged_into_melee_by_enumeration(1, 0)[0]):.6f}" == \
        "1.050000"
    # a described unit keeps its own defense; the number engaged defaults to the units described
    described = _json(capsys, *attack, "--also-engaged", "1:white", "--also-engaged", "1:white")
    assert [described["meta"][f"mean wounds on {n}"].split(" ")[0]
            for n in ("the target", "engaged unit 1", "engaged unit 2")] == shown
    assert_one_line_error(capsys, (*attack, "--engaged-enemies", "1", "--also-engaged", "1:black",
                                   "--also-engaged", "1:black"), 2, "--engaged-enemies 1")
    assert_one_line_error(capsys, (*attack, "--engaged-enemies", "2", "--trials", "100"), 2,
                          "--engaged-enemies")


def test_the_flying_and_rider_turn_rulings_say_where_they_change_numbers(capsys):
    """DB-rider-turns has no situation in the model (nobody mounted): `balance rulesets` says so.
    DB-flying-turn is played in battles only (a duel starts engaged, so a Flying unit begins every turn
    engaged): switching either changes no number of a duel or of `roll attack --flying`."""
    rows = pd.DataFrame(_json(capsys, "rulesets")["sections"]["rulings"]).set_index("ruling")
    assert "Has no effect in the current model" in rows.meaning["DB-rider-turns"]
    assert "Played in battles" in rows.meaning["DB-flying-turn"]
    assert "no effect in a duel" in rows.meaning["DB-flying-turn"]
    others = rows[(rows.ruleset == "dragonbond") & (rows.index != "DB-rider-turns")]
    assert not others.meaning.str.contains("no effect in the current model").any()
    flying = ("roll", "dragonbond", "attack", "--dice", "3G", "--defense", "1", "--flying")
    now, own = (_json(capsys, *flying, "--ruling", f"DB-flying-turn={v}")
                for v in ("current", "own-activation"))
    assert now["meta"]["mean wounds"] == own["meta"]["mean wounds"]
    assert "start of the turn in progress (DB-flying-turn=current)" in now["meta"]["defense modifiers"]
    assert "start of its own last activation" in own["meta"]["defense modifiers"]
    duel = ("duel", "dragonbond", "ferellon-fulgen", "blood-emperor", "--trials", "2000", "--seed", "5")
    base = pd.DataFrame(_json(capsys, *duel)["sections"]["duel"]).value.tolist()
    for ruling in ("DB-flying-turn=own-activation", "DB-rider-turns=example"):
        switched = _json(capsys, *duel, "--ruling", ruling)["sections"]["duel"]
        assert pd.DataFrame(switched).value.tolist() == base
