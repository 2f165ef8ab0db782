"""The Drakerys verbs beyond the Action Table: fight, shoot, duel, efficiency (small runs), and their
one-line errors."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from cli_run import assert_one_line_error, ok, run

FIGHT = ("roll", "drakerys", "fight", "crows", "gold-keepers", "--size-a", "12", "--size-b", "6", "--charge",
         "--trials", "20000", "--seed", "1")


def test_fight_tidy_rows_and_meta(capsys):
    code, out, _ = run(capsys, *FIGHT, "--format", "json")
    assert code == 0
    doc = json.loads(out)
    rows = pd.DataFrame(doc["sections"]["fight"])
    assert {"measure", "outcome", "probability", "stderr"} <= set(rows.columns)
    for measure in ("winner", "morale_A", "morale_B", "casualties_A", "casualties_B"):
        assert rows[rows.measure == measure]["probability"].sum() == pytest.approx(1.0, abs=1e-9), measure
    assert set(rows[rows.measure == "morale_B"]["outcome"]) >= {"scatter", "stress", "doubt", "steady"}
    assert "20,000 trials" in doc["meta"]["method"] and "(charging)" in doc["meta"]["A"]
    assert "DK-frontage=all" in doc["meta"]["rulings"]


def test_fight_options_change_the_numbers(capsys):
    fight = ("roll", "drakerys", "fight", "warriors", "soldiers", "--charge", "--trials", "20000",
             "--seed", "1", "--format", "csv")
    base = ok(capsys, *fight)
    for extra in (("--stress-b", "2"), ("--rerolls-a", "3"), ("--authority-b", "2"),
                  ("--ruling", "DK-frontage=2"), ("--stress-a", "1"), ("--ruling", "DK-blocking=always")):
        changed = ok(capsys, *fight, *extra)
        assert changed != base, extra
    # charged Soldiers win more by attacking (DK-blocking=auto chose so): forbidding Blocking changes nothing
    # then, and changes the Fight when they would block always
    never = ok(capsys, *fight, "--no-blocking-b")
    assert never == base
    always = ok(capsys, *fight, "--ruling", "DK-blocking=always")
    always_never = ok(capsys, *fight, "--ruling", "DK-blocking=always", "--no-blocking-b")
    assert always_never == base != always
    # three allied units engaged lift the Gold Keepers' Initiative 2 to the charging Crows' 5: both strike
    # at once, so the Keepers strike before losing anyone to the Crows
    crows = ok(capsys, *FIGHT, "--format", "csv")
    allies = ok(capsys, *FIGHT, "--allies-b", "3", "--format", "csv")
    assert crows != allies
    # Crows have Swashbuckler: every failed die is rerolled already, so extra rerolls change nothing
    crows_rerolls = ok(capsys, *FIGHT, "--rerolls-a", "3", "--format", "csv")
    assert crows == crows_rerolls


def test_fight_heroic_and_guard_on_a_hero(capsys):
    code, out, _ = run(capsys, "roll", "drakerys", "fight", "salik", "crushers", "--heroic-a", "2",
                       "--guard-a", "--trials", "5000", "--format", "json")
    assert code == 0
    assert "heroic dice 2" in json.loads(out)["meta"]["A"]


def test_shoot(capsys):
    code, out, _ = run(capsys, "roll", "drakerys", "shoot", "crossbowmen", "crows", "--distance", "35",
                       "--obstacles-a", "1", "--trials", "20000", "--format", "csv")
    assert code == 0
    rows = pd.read_csv(io.StringIO(out))
    assert set(rows.measure) == {"morale_B", "casualties_B", "removed_B"}
    for measure in ("morale_B", "casualties_B", "removed_B"):
        assert rows[rows.measure == measure]["probability"].sum() == pytest.approx(1.0, abs=1e-9)
    lost = rows[rows.measure == "casualties_B"].set_index("outcome")["probability"]
    scatter = rows[(rows.measure == "morale_B") & (rows.outcome == "scatter")]["probability"].iloc[0]
    assert lost.loc["12"] >= scatter > 0  # a scattered unit of 12 Crows is 12 warriors lost


def test_duel_and_shoot_from(capsys):
    code, out, _ = run(capsys, "duel", "drakerys", "crows", "gold-keepers", "--trials", "20000",
                       "--format", "csv")
    assert code == 0
    table = pd.read_csv(io.StringIO(out)).set_index("quantity")
    total = sum(table.loc[q, "value"] for q in ("P(A wins)", "P(B wins)", "P(neither: the game ends first)",
                                                "P(both destroyed)"))
    assert total == pytest.approx(1.0, abs=1e-12)
    assert (table["ci_low"] <= table["value"]).all() and (table["value"] <= table["ci_high"]).all()
    code, out, _ = run(capsys, "duel", "drakerys", "irosia-bowmen", "crows", "--shoot-from", "45",
                       "--trials", "5000")
    assert code == 0 and "A shoots first from 45 cm" in out


def test_efficiency_small(capsys, tmp_path):
    args = ("efficiency", "drakerys", "--unit", "crows", "--unit", "warriors", "--unit", "soldiers",
            "--trials", "2000")
    code, out, _ = run(capsys, *args, "--format", "json", "--plot", str(tmp_path / "m.png"),
                       "--save", str(tmp_path / "out"))
    assert code == 0
    doc = json.loads(out)
    matchups = pd.DataFrame(doc["sections"]["matchups"])
    assert {"unit", "size", "cost", "opponent", "opponent_size", "role", "metric", "value", "stderr",
            "trials"} <= set(matchups.columns)
    win = matchups[(matchups.metric == "win") & (matchups.role == "First Player")]
    # 3 Crows sizes + 3 Warriors sizes + 3 Soldiers sizes, each against the 8 other entries
    assert len(win) == 9 * 8
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        ["efficiency.csv", "efficiency.md", "efficiency.json", "efficiency.png", "metagame.csv",
         "matchups.csv"])
    code, out, _ = run(capsys, *args)
    assert code == 0 and "Ranking" in out and "Win probability" in out and "Meta-game" in out


def test_units_and_spell_are_registered(capsys):
    assert run(capsys, "units", "drakerys", "--profiled", "--format", "csv")[0] == 0
    spell = ("roll", "drakerys", "spell", "--level", "3", "--distance", "15", "--format", "csv")
    assert run(capsys, *spell)[0] == 0
    assert run(capsys, "roll", "drakerys", "invocation", "--format", "csv")[0] == 0


BAD = [
    (("roll", "drakerys", "fight", "crowz", "warriors"), 1, "did you mean crows"),
    (("roll", "drakerys", "fight", "bowmen", "warriors"), 1,
     "'bowmen' is ambiguous; use irosia-bowmen (avaren-bowmen cannot fight)"),
    (("roll", "drakerys", "shoot", "bowmen", "crows", "--distance", "10"), 1,
     "use irosia-bowmen (avaren-bowmen cannot shoot)"),
    # only units that can fight are suggested (it offered units with no profile)
    (("duel", "drakerys", "dragon", "crows"), 1, "no close name among the units that can fight"),
    (("roll", "drakerys", "fight", "crows", "warriors", "--size-a", "7"), 1, "6, 9, 12"),
    (("roll", "drakerys", "fight", "crows", "warriors", "--size-a", "0"), 2, "--size-a"),
    (("roll", "drakerys", "fight", "scouts", "warriors"), 1, "no profile"),
    (("roll", "drakerys", "fight", "crows", "warriors", "--heroic-a", "1"), 1, "Heroic Action"),
    (("roll", "drakerys", "shoot", "crossbowmen", "crows", "--distance", "-5"), 2, "-5"),
    (("roll", "drakerys", "shoot", "crossbowmen", "crows", "--distance", "61"), 1, "60 cm"),
    (("roll", "drakerys", "shoot", "crows", "warriors", "--distance", "10"), 1, "no ranged weapon"),
    (("duel", "drakerys", "crows", "warriors", "--rounds", "7"), 2, "--rounds"),
    (("duel", "drakerys", "crows", "warriors", "--catalog", "/no/such.toml"), 2, "/no/such.toml"),
    (("efficiency", "drakerys", "--unit", "crows@12"), 1, "at least two"),
    (("efficiency", "drakerys", "--unit", "crows", "--unit", "scouts"), 1, "no fighting profile"),
    (("efficiency", "drakerys", "--unit", "crows", "--unit", "warriors", "--save", "/proc/no/such"), 2,
     "--save"),
    # the bound a unit's Health sets, said in words (it read "12 is not a whole number from 0 to 0")
    (("roll", "drakerys", "fight", "crows", "warriors", "--injuries-a", "12"), 2,
     "--injuries-a 12: Crows have Health 1, so a warrior dies when it takes 1 injury and the unit carries at "
     "most 0 injury tokens"),
    (("roll", "drakerys", "fight", "crows", "warriors", "--ap-a", "0"), 2, "--ap-a"),
    (("roll", "drakerys", "spell", "--level", "3", "--distance", "1e9"), 2, "1e9 cm is beyond 1000 cm"),
    # B fights back: its Heroic Action dice join no Action of its own (DK-heroic-passive=none)
    (("roll", "drakerys", "fight", "crushers", "salik", "--heroic-b", "2"), 2,
     "--heroic-b: B fights back"),
    # units in contact are Engaged: neither shoots (seed 002, SHOOTING prerequisite)
    (("roll", "drakerys", "shoot", "crossbowmen", "crows", "--distance", "0"), 2,
     "--distance': at 0 cm the units are in contact, so both are Engaged"),
    (("duel", "drakerys", "crossbowmen", "crows", "--shoot-from", "0"), 2, "--shoot-from': at 0 cm"),
    (("duel", "drakerys", "crossbowmen", "crows", "--shoot-from", "20", "--start", "30"), 2,
     "--start and --shoot-from: give one"),
]


@pytest.mark.parametrize(("args", "code", "named"), BAD, ids=[" ".join(a) for a, _, _ in BAD])
def test_bad_input_is_one_clear_line(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_custom_size_with_ap(capsys):
    code, out, _ = run(capsys, "duel", "drakerys", "crows", "warriors", "--size-a", "7", "--ap-a", "95",
                       "--trials", "3000", "--format", "json")
    assert code == 0 and "7 warriors, 95 AP" in json.loads(out)["meta"]["A"]


def test_malformed_catalog_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[units.crows.profile]\npower = "two"\n')
    code, out, err = run(capsys, "duel", "drakerys", "crows", "warriors", "--catalog", str(bad))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "bad.toml" in err and "crows" in err


@pytest.mark.parametrize("args", [
    ("roll", "drakerys", "fight", "crows", "gold-keepers", "--charge"),
    ("roll", "drakerys", "shoot", "crossbowmen", "crows", "--distance", "35"),
    ("duel", "drakerys", "crows", "gold-keepers"),
], ids=["fight", "shoot", "duel"])
def test_plot_draws_the_distributions_of_fights_shootings_and_duels(capsys, tmp_path, args):
    """--plot works on every verb that lists it (it was refused on these three)."""
    plot = tmp_path / "out.png"
    code, out, err = run(capsys, *args, "--trials", "3000", "--plot", str(plot), "--format", "csv")
    assert code == 0, err
    assert out  # the report still goes to stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 10_000
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]


def test_options_that_would_do_nothing_are_not_offered(capsys):
    """No one shoots in a Fight and no one strikes in a Shooting: their per-side options are not listed,
    and typed anyway they are refused (a duel, which does both, keeps them all)."""
    fight_help = ok(capsys, "roll", "drakerys", "fight", "--help")
    shoot_help = ok(capsys, "roll", "drakerys", "shoot", "--help")
    duel_help = ok(capsys, "duel", "drakerys", "--help")
    assert "--obstacles-a" not in fight_help and "--rerolls-a" in fight_help
    assert not {"--rerolls-a", "--allies-b", "--no-blocking-b"} & set(shoot_help.split())
    assert "--obstacles-a" in shoot_help
    assert {"--obstacles-a", "--rerolls-a", "--allies-b", "--no-blocking-b"} <= set(duel_help.split())
    assert_one_line_error(capsys, ("roll", "drakerys", "fight", "crows", "warriors", "--obstacles-a", "1"), 2,
                          "--obstacles-a")


def test_duel_from_a_distance(capsys):
    """--start: the units start apart and shoot, charge or march by the policy (as efficiency's duels)."""
    args = ("duel", "drakerys", "irosia-bowmen", "crows", "--trials", "4000", "--format", "csv")
    code, start, err = run(capsys, *args, "--start", "30")
    assert code == 0, err
    contact = ok(capsys, *args)
    start, contact = (pd.read_csv(io.StringIO(t)).set_index("quantity")["value"] for t in (start, contact))
    # Bowmen shooting from 30 cm before the Crows close fare better than charging them
    assert start["P(A wins)"] > contact["P(A wins)"]
    assert start["activations"] > contact["activations"]
