"""Dragoborne on the command line: the exact rolls and tables with RULES.md's numbers, the whole game
(`duel`), and the balance verbs."""

from __future__ import annotations

import pytest
from cli_run import assert_one_line_error, csv, run


def _csv(capsys, *args):
    code, out, err = run(capsys, *args, "--format", "csv")
    assert code == 0, err
    return csv(out)


@pytest.mark.parametrize(("dice", "colour", "span", "want"), [
    ("red,red,green", "red", "4-6", 3 / 4),
    ("red,red,green", "green", "4-6", 1 / 2),
    ("red,red,green", "red", "6", 11 / 36),
    ("red,red,green", "white", "5-6", 19 / 27),
    ("red,red,red", "red", "1-3", 7 / 8),
])
def test_condition(capsys, dice, colour, span, want):
    df = _csv(capsys, "roll", "dragoborne", "condition", "--dice", dice, "--color", colour, "--range", span)
    assert df.p_met.iloc[0] == pytest.approx(want, abs=1e-12)


def test_several_conditions_assigned_dice_and_rulings(capsys):
    code, out, err = run(capsys, "roll", "dragoborne", "condition", "--dice", "red,red,green", "--color",
                         "red", "--range", "4-6", "--condition", "green:1-2", "--format", "json")
    assert code == 0, err
    import json

    sections = json.loads(out)["sections"]
    combined = {r["conditions"]: r["exact"] for r in sections["combined"]}
    assert combined == {"all": "1/4", "any": "5/6"}  # 3/4 x 1/3; 1 - 1/4 x 2/3
    # a red die assigned at 5 is held (DG-reroll-assigned=unassigned-only): red 4-6 is sure
    held = _csv(capsys, "roll", "dragoborne", "condition", "--dice", "red,red,green", "--color", "red",
                "--range", "4-6", "--assigned", "red:5")
    assert held.p_met.iloc[0] == 1.0
    dropped = _csv(capsys, "roll", "dragoborne", "condition", "--dice", "red,red,green", "--color", "red",
                   "--range", "4-6", "--assigned", "red:5", "--ruling", "DG-condition-dice=unassigned")
    assert dropped.p_met.iloc[0] == pytest.approx(0.5)
    d8 = _csv(capsys, "roll", "dragoborne", "condition", "--dice", "red,red,green", "--color", "red",
              "--range", "7-8", "--ruling", "DG-die=8")
    assert d8.p_met.iloc[0] == pytest.approx(1 - (6 / 8) ** 2)


@pytest.mark.parametrize(("args", "code", "named"), [
    (("--dice", "red,green", "--color", "red", "--range", "1-2"), 2, "3 dice"),
    (("--dice", "red,red,green", "--color", "red", "--range", "4-7"), 2, "1-6"),
    (("--dice", "red,red,green", "--color", "blue", "--range", "4-6"), 2, "no die is blue"),
    (("--dice", "red,red,green", "--color", "red"), 2, "go together"),
    (("--dice", "red,red,green"), 2, "give a condition"),
    (("--dice", "red,red,green", "--condition", "red4-6"), 2, "COLOUR:X-Y"),
    (("--dice", "red,red,green", "--condition", "red:1-2", "--assigned", "green:1", "--assigned",
      "green:2"), 2, "no other green die"),
    (("--dice", "red,red,green", "--condition", "red:1-2", "--ruling", "DG-die=1"), 2, "DG-die"),
])
def test_bad_input(capsys, args, code, named):
    assert_one_line_error(capsys, ("roll", "dragoborne", "condition", *args), code, named)


def test_shield(capsys, tmp_path):
    code, out, err = run(capsys, "roll", "dragoborne", "shield", "--atk", "3", "--turns", "2", "--format",
                         "json")
    assert code == 0, err
    import json

    sections = json.loads(out)["sections"]
    assert {r["attacks_absorbed"]: r["exact"] for r in sections["absorbed"]} == {1: "1/2", 2: "1/2"}
    assert sections["turns"][0]["exact"] == "0"
    stacked = _csv(capsys, "roll", "dragoborne", "shield", "--atk", "6", "--shields", "2", "--ruling",
                   "DG-shield-stack=stack")
    assert stacked.set_index("attacks_absorbed").probability.loc[2] == pytest.approx(1.0)
    table = _csv(capsys, "table", "dragoborne", "shield").set_index(["atk", "attacks"])
    assert table.p_stands.loc[(3, 1)] == pytest.approx(0.5) and len(table) == 36
    assert_one_line_error(capsys, ("roll", "dragoborne", "shield", "--atk", "2", "--shields", "2"), 2,
                          "DG-shield-stack")
    assert_one_line_error(capsys, ("roll", "dragoborne", "shield", "--atk", "0"), 2, "--atk")


def test_opening_hand_and_early_play(capsys):
    """RULES.md: 22 of 50 cards cost <= 2: P(>= 1 in the opening hand) = 7216/7567; with a shuffle-back
    mulligan of every card of cost 3+, p + (1 - p) p = 0.997848."""
    df = _csv(capsys, "table", "dragoborne", "opening-hand", "--curve", "10,12,10,10,8", "--deck", "50")
    by = df.set_index(["hand", "cost"]).p_at_least_1
    p = 7216 / 7567
    assert by.loc[("dealt", "<=2")] == pytest.approx(p, abs=1e-12)
    assert by.loc[("after back3+", "<=2")] == pytest.approx(p + (1 - p) * p, abs=1e-12)
    code, out, err = run(capsys, "table", "dragoborne", "opening-hand")
    assert code == 0 and "overrides: none" in out, err
    early = _csv(capsys, "table", "dragoborne", "early-play", "--turns", "3")
    assert len(early) == 6 and set(early.player) == {"first", "second"}
    assert (early.p_play <= 1.0).all() and (early.p_play > 0.9).all()
    mull = _csv(capsys, "table", "dragoborne", "mulligan", "--curve", "5,5,5,5,5", "--lenient")
    assert len(mull) == 7


@pytest.mark.parametrize(("args", "code", "named"), [
    (("opening-hand", "--curve", "10,12,10,10,9", "--deck", "50"), 2, "sums to 51"),
    (("opening-hand", "--curve", "10,x"), 2, "--curve"),
    (("opening-hand", "--curve", "5,5,5,5,5"), 1, "50"),
    (("opening-hand", "--curve", "10,12,10,10,-1", "--deck", "41", "--lenient"), 2, "-1"),
    (("opening-hand", "--mulligan", "most"), 2, "--mulligan"),
])
def test_bad_decks(capsys, args, code, named):
    assert_one_line_error(capsys, ("table", "dragoborne", *args), code, named)


def test_units_and_a_deck(capsys):
    code, out, err = run(capsys, "units", "dragoborne", "--format", "json")
    assert code == 0, err
    import json

    data = json.loads(out)
    cards = {r["key"]: r for r in data["sections"]["cards"]}
    assert len(cards) == 25 and all(r["cost"].endswith("*") for r in cards.values())
    decks = {r["key"]: r for r in data["sections"]["decks"]}
    assert decks["red-blaze"]["cards"] == 50 and decks["red-blaze"]["curve"] == "10,12,10,10,8"
    summary = _csv(capsys, "units", "dragoborne", "--deck", "Green Grove").set_index("measure").value
    assert summary.loc["cards"] == 50 and summary.loc["cost 2"] == 12
    assert_one_line_error(capsys, ("units", "dragoborne", "--deck", "blue-tide"), 1, "blue-tide")


def test_units_show_the_gains_the_game_plays(capsys):
    """The dragocross and DICE X-Y columns say in words what the game's card table holds (the catalog's
    three examples of the issue), white as any colour (lines 278, 282), illustrative values marked *."""
    import json

    from rulesets.dragoborne import kernels as K
    from rulesets.dragoborne.catalog import load
    from rulesets.dragoborne.simulate import card_table

    code, out, err = run(capsys, "units", "dragoborne", "--format", "json")
    assert code == 0, err
    cards = {r["key"]: r for r in json.loads(out)["sections"]["cards"]}
    columns = {k: (r["dragocross"], r["dice"]) for k, r in cards.items()}
    assert columns["magma-hound"] == ("red: +1 ATK, Deadly*", "")
    assert columns["inferno-wyrm"] == ("", "any colour 6: +2 ATK*")
    assert columns["thorn-scout"] == ("", "green 4-6: Deadly*")
    assert columns["volcanic-wrath"] == ("", 'red 4-6: "Deal 4 damage instead."*')
    assert columns["pyre-drake"] == ("", "")
    catalog = load()
    table = card_table([catalog.card(k) for k in ("magma-hound", "inferno-wyrm", "thorn-scout")])
    assert table.colours == ("green", "red")
    hound, wyrm, scout = (table.index[k] for k in ("magma-hound", "inferno-wyrm", "thorn-scout"))
    cross, conditions = table.cross(), table.conditions()
    red, green = table.colours.index("red"), table.colours.index("green")
    assert tuple(cross[hound, red, [K.X_ATK, K.X_EDR, K.X_DEADLY]]) == (1, 0, 1)
    assert tuple(conditions[wyrm, 0, :K.K_DEADLY + 1]) == (-1, 6, 6, 2, 0, 0)  # any colour, 6-6, +2/+0
    assert tuple(conditions[scout, 0, :K.K_DEADLY + 1]) == (green, 4, 6, 0, 0, 1)  # green 4-6, Deadly


# --- the whole game and the balance verbs ------------------------------------------------------------------

def test_duel_reports_wins_first_player_length_and_early_play(capsys):
    code, out, err = run(capsys, "duel", "dragoborne", "red-blaze", "green-grove", "--trials", "20000",
                         "--seed", "3", "--format", "json")
    assert code == 0, err
    import json

    doc = json.loads(out)
    duel = {r["measure"]: r for r in doc["sections"]["duel"]}
    a, b = duel["P(Red Blaze wins)"]["value"], duel["P(Green Grove wins)"]["value"]
    assert a + b + duel["P(draw: 200 game turns)"]["value"] == pytest.approx(1)
    assert duel["P(Red Blaze wins)"]["ci_low"] < a < duel["P(Red Blaze wins)"]["ci_high"]
    first = duel["P(Red Blaze wins | Red Blaze goes first)"]["value"]
    second = duel["P(Red Blaze wins | Green Grove goes first)"]["value"]
    assert duel["going first adds to Red Blaze's P(win)"]["value"] == pytest.approx(first - second)
    length = doc["sections"]["length"]
    assert sum(r["games"] for r in length) == 20000 and min(r["game_turns"] for r in length) >= 4
    assert {r["own_turn"] for r in doc["sections"]["early"]} == {1, 2, 3, 4}
    # the same seed gives the same report, whatever the threads
    code2, out2, err2 = run(capsys, "duel", "dragoborne", "red-blaze", "green-grove", "--trials", "20000",
                            "--seed", "3", "--format", "json", "--threads", "1")
    assert code2 == 0, err2
    assert json.loads(out2)["sections"] == doc["sections"]


def test_duel_compare_mulligans(capsys):
    df = _csv(capsys, "duel", "dragoborne", "red-blaze", "green-grove", "--trials", "3000",
              "--compare-mulligans")
    assert list(df.mulligan) == ["policy", "none", "back2+", "back3+", "back4+", "back5+", "all"]
    assert ((df.ci_low <= df.p_red_blaze_wins) & (df.p_red_blaze_wins <= df.ci_high)).all()


def test_efficiency_whatif_sweep_and_tables(capsys, tmp_path):
    units = ("--unit", "pyre-drake", "--unit", "magma-hound", "--unit", "scorch-knight")
    rank = _csv(capsys, "efficiency", "dragoborne", *units, "--trials", "2000")
    assert set(rank.key) == {"pyre-drake", "magma-hound", "scorch-knight"}
    assert set(rank.verdict) <= {"fair", "over-costed", "under-costed", "undecided", "not measured"}
    for _, row in rank.iterrows():  # the zero rule: the gain within 1 win-rate point of par is fair
        low, high = row.value - 1.96 * row.value_stderr, row.value + 1.96 * row.value_stderr
        expected = ("fair" if abs(row.value) <= 0.01 else "under-costed" if low > 0.01 else
                    "over-costed" if high < -0.01 else "undecided")
        assert row.verdict in (expected, "not measured")
    code, out, err = run(capsys, "efficiency", "dragoborne", *units, "--trials", "2000", "--summary")
    assert code == 0, err
    assert "nan" not in out  # the zero rule's fair cost is a side of today's cost, not a number
    for _, row in rank.iterrows():
        # the fair cost's side of today's cost (outside 1.96 standard errors), or today's cost
        if row.fair_cost == row.fair_cost:
            expected = f"{row.cost:.2f} [{row.cost:.2f}, {row.cost:.2f}]"
        else:
            expected = f"above {row.cost:g}" if row.fair_cost_high == float("inf") else f"below {row.cost:g}"
        bound = "" if row.measured else "at least "
        line = f"{row.key}: {row.cost:g} resources, fair cost {bound}{expected} resources, {row.verdict}"
        assert line in out
    what = _csv(capsys, "whatif", "dragoborne", "--set", "pyre-drake.atk=8", *units, "--trials", "2000")
    assert len(what)
    sweep = _csv(capsys, "sweep", "dragoborne", "--cost", "pyre-drake=3..5", *units, "--trials", "2000")
    assert set(sweep.point.astype(str)) == {"3", "4", "5"}
    code, _, err = run(capsys, "table", "dragoborne", "all", "--output", str(tmp_path / "t"))
    assert code == 0, err
    assert {p.name for p in (tmp_path / "t").iterdir()} >= {"index.html", "shield.csv", "opening-hand.md"}


@pytest.mark.parametrize(("args", "code", "named"), [
    (("duel", "dragoborne", "red-blaze", "blue-tide"), 1, "blue-tide"),
    (("duel", "dragoborne", "red-blaze", "green-grove", "--mulligan", "curve"), 2, "curve"),
    (("duel", "dragoborne", "red-blaze", "green-grove", "--compare-mulligans", "--precision", "0.01"), 2,
     "--compare-mulligans"),
    (("efficiency", "dragoborne", "--unit", "spark-bolt", "--unit", "pyre-drake"), 1,
     "Spark Bolt is a spell"),
    (("whatif", "dragoborne", "--set", "pyre-drake.atak=3"), 1, "atak"),  # a domain error, as every game
    (("whatif", "dragoborne", "--set", "pyre-drake.edr=99"), 1, "outside 0..20"),  # as every game
    (("whatif", "dragoborne", "--cost", "pyre-drake=2.5"), 2, "whole number"),
])
def test_bad_game_input(capsys, args, code, named):
    assert_one_line_error(capsys, args, code, named)


def test_duel_refuses_a_small_deck_unless_lenient(capsys, tmp_path):
    user = tmp_path / "decks.toml"
    user.write_text('[decks.tiny]\nname = "Tiny"\nbanners = ["red", "red", "green"]\nillustrative = true\n'
                    '[decks.tiny.cards]\ncinder-whelp = 4\nash-scout = 4\nember-raider = 4\n'
                    'scorch-knight = 4\npyre-drake = 4\nmagma-hound = 4\ninferno-wyrm = 4\nmoss-sprite = 4\n'
                    'thorn-scout = 4\ngrove-warden = 4\n', encoding="utf-8")
    assert_one_line_error(capsys, ("duel", "dragoborne", "tiny", "green-grove", "--catalog", str(user),
                                   "--trials", "100"), 1, "40 cards")
    code, out, err = run(capsys, "duel", "dragoborne", "tiny", "green-grove", "--catalog", str(user),
                         "--trials", "2000", "--lenient")
    assert code == 0, err
    text = " ".join(out.split())  # notes are wrapped
    assert "40 cards; a deck needs 50 or more" in text and "accepted: lenient" in text


# the two packaged decks' spells the game never casts, copies per card (game.py "Cards"): under DG-spells=none
# every spell, under removal those whose text it does not read as a removal, under all (the default) the
# stand spell only
RED_BLAZE_DEAD = ("Red Blaze 13 of 50: Blazing Fury x4, Fire Rain x3, Nature's Wrath x2, Spark Bolt x2, "
                  "Volcanic Wrath x2")
GREEN_GROVE_DEAD = ("Green Grove 15 of 50: Fire Rain x2, Nature's Wrath x3, Verdant Growth x2, "
                    "Vine Snare x4, Volcanic Wrath x2, Wild Charge x2")
RED_BLAZE_UNREAD = "Red Blaze 4 of 50: Blazing Fury x4"
GREEN_GROVE_UNREAD = "Green Grove 8 of 50: Verdant Growth x2, Vine Snare x4, Wild Charge x2"
GREEN_GROVE_STAND = "Green Grove 2 of 50: Wild Charge x2"


def test_notes_say_how_creatures_switch_places_and_name_the_dead_cards(capsys):
    """`duel`, `efficiency` (and `report`, which prints the same ruleset notes) say that creatures move and
    switch places by one policy (line 226; DG-move=switch, the default) and name, per deck, the spell
    cards that are dead cards in the game (by default the stand spell, the only one whose text is not read;
    under DG-spells=none every spell)."""
    import json

    from rulesets import get
    from rulesets.dragoborne.catalog import load

    for args in (("duel", "dragoborne", "red-blaze", "green-grove", "--trials", "200"),
                 ("efficiency", "dragoborne", "--unit", "pyre-drake", "--unit", "moss-sprite", "--trials",
                  "200")):
        code, out, err = run(capsys, *args, "--format", "json")
        assert code == 0, err
        notes = " ".join(json.loads(out)["notes"])
        assert "creatures move and switch places by one policy only" in notes and "(line 226)" in notes, args
        assert "DG-move=switch (the default)" in notes and "never switch places" not in notes, args
        assert GREEN_GROVE_STAND + ";" not in notes and notes.count(GREEN_GROVE_STAND) == 1, args
        assert "Red Blaze" not in notes.split("dead cards")[1].split(";")[0], args
    # a card of one deck only: only its home deck is named, and a note that cannot see the rulings says
    # which it names; Red Blaze has no dead card by default
    cat = load()
    rs = get("dragoborne")
    sprite = next(c for c in rs.contestants(cat) if c.key == "moss-sprite")
    notes = " ".join(rs.notes(cat, [sprite]))
    assert GREEN_GROVE_STAND in notes and "Red Blaze" not in notes
    assert "under DG-spells=all, the default (under none, every spell card)" in notes
    drake = next(c for c in rs.contestants(cat) if c.key == "pyre-drake")
    assert "dead cards" not in " ".join(rs.notes(cat, [drake]))
    # a mirror names its deck once; under DG-spells=none every spell card is dead
    code, out, err = run(capsys, "duel", "dragoborne", "red-blaze", "red-blaze", "--trials", "100",
                         "--ruling", "DG-spells=none", "--format", "json")
    assert code == 0, err
    assert " ".join(json.loads(out)["notes"]).count(RED_BLAZE_DEAD) == 1


def test_under_dg_spells_removal_only_the_unread_spells_are_dead_cards(capsys):
    """DG-spells=removal casts Spark Bolt, Fire Rain, Nature's Wrath and Volcanic Wrath: the dead-card note
    names only the pump, stand and Ambush spells, and the not-modelled note says which are cast."""
    import json

    code, out, err = run(capsys, "duel", "dragoborne", "red-blaze", "green-grove", "--trials", "200",
                         "--ruling", "DG-spells=removal", "--format", "json")
    assert code == 0, err
    notes = " ".join(json.loads(out)["notes"])
    assert "Red Blaze 4 of 50: Blazing Fury x4;" in notes
    assert "Green Grove 8 of 50: Verdant Growth x2, Vine Snare x4, Wild Charge x2" in notes
    assert RED_BLAZE_DEAD not in notes and "Spark Bolt" not in notes
    assert "DG-spells=removal casts the removal spells" in notes
    assert RED_BLAZE_UNREAD in notes and GREEN_GROVE_UNREAD in notes


def test_under_dg_spells_all_only_the_stand_spell_is_a_dead_card(capsys):
    """DG-spells=all also casts Blazing Fury and Verdant Growth and sets Vine Snare (game.py step 6b): Red
    Blaze has no dead card left, Green Grove only Wild Charge, which the not-modelled note says is never
    cast and why (every creature of the caster stands in its Main Phase, line 182)."""
    import json

    code, out, err = run(capsys, "duel", "dragoborne", "red-blaze", "green-grove", "--trials", "200",
                         "--ruling", "DG-spells=all", "--format", "json")
    assert code == 0, err
    notes = " ".join(json.loads(out)["notes"])
    assert "dead cards (spells: never cast, held in hand and discarded first): Green Grove 2 of 50: Wild " \
           "Charge x2" in notes
    assert "Red Blaze" not in notes.split("dead cards")[1].split(";")[0]
    assert "\"Stand a creature in rest.\" is never cast" in notes and "Stand Phase, line 182" in notes
