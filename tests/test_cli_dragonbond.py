"""The Dragonbond commands `roll dragonbond` and `table dragonbond`: their numbers and one-line errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from cli_run import assert_one_line_error, csv, ok


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
