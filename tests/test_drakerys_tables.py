"""The Drakerys rulebook tables (seed 002): morale, spell, invocation, weapons, and `table drakerys all`.

Rulebook sections: "MORALE", "MORALE ROLL" (FIGHTING and SHOOTING), "BERSERKER", "CHARISMA", "ACTION TABLE",
"CRITICAL SUCCESSES", "REROLLS", "CASTING A SPELL", the MIRAGE card, "INVOKING AN ELEMENTAL", the player aid
"Ranged Weapons" (../shared/seeds/002_e45d2dbdce3a6f64.txt). The morale table is checked whole against
icepool models built here; the other tables against hand computations and the library's own functions.
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from cli_run import csv, run

from reports import api
from rulesets.base import RulesError
from rulesets.drakerys import RULESET, DrakerysRulings, catalog
from rulesets.drakerys.fight import MORALE_OUTCOMES, Morale
from rulesets.drakerys.magic import InvocationRoll, SpellCast, invocation_distribution, spell_distribution
from rulesets.drakerys.tables import (
    WARRIOR_STRENGTH_PRINTED,
    invocation_table,
    morale_outcomes,
    morale_table,
    spell_table,
    weapons_table,
)

CHAIN = DrakerysRulings()
NO_CHAIN = DrakerysRulings(crit_chain=False)
TABLE_NAMES = ("action", "morale", "spell", "invocation", "weapons")


# ---------------------------------------------------------------------------------------------------
# morale
# ---------------------------------------------------------------------------------------------------

def test_morale_two_dice_at_six_by_hand():
    """2 d10 at 6+. One die: it fails on 1-5 (1/2) -- a 10 is a success, so criticals cannot touch
    P(0 successes): P(scatter) = (1/2)^2 = 0.25 exactly. One die's successes with the chain (DK-crit-chain):
    6-9 give 1 (0.4), a 10 gives 1 + the extra die's successes, so P(1) = 0.4 + 0.1 x 0.5 = 0.45 and
    P(k) = 0.45 x 0.1^(k-1) for k >= 1 (P(2) = 0.045). Two dice:
    stress (exactly 1) = 2 x 0.5 x 0.45 = 0.45;
    doubt (exactly 2) = 2 x 0.5 x 0.045 + 0.45^2 = 0.045 + 0.2025 = 0.2475;
    steady = 1 - 0.25 - 0.45 - 0.2475 = 0.0525."""
    table = morale_table(rulings=CHAIN)
    assert table.p(2, 6, Morale.SCATTER) == pytest.approx(0.25, abs=1e-15)
    assert table.p(2, 6, Morale.STRESS) == pytest.approx(0.45, abs=1e-15)
    assert table.p(2, 6, Morale.DOUBT) == pytest.approx(0.2475, abs=1e-15)
    assert table.p(2, 6, Morale.STEADY) == pytest.approx(0.0525, abs=1e-15)


def test_morale_two_dice_at_six_without_the_chain():
    """DK-crit-chain=false: an extra die's 10 is a plain success. One die: P(1) = 0.4 + 0.1 x 0.5 = 0.45,
    P(2) = 0.1 x 0.5 = 0.05; two dice: doubt = 2 x 0.5 x 0.05 + 0.45^2 = 0.2525, steady = 0.0475."""
    table = morale_table(rulings=NO_CHAIN)
    assert table.p(2, 6, Morale.SCATTER) == pytest.approx(0.25, abs=1e-15)
    assert table.p(2, 6, Morale.STRESS) == pytest.approx(0.45, abs=1e-15)
    assert table.p(2, 6, Morale.DOUBT) == pytest.approx(0.2525, abs=1e-15)
    assert table.p(2, 6, Morale.STEADY) == pytest.approx(0.0475, abs=1e-15)


@pytest.mark.parametrize(("dice", "threshold", "scatter"), [(2, 2, 0.01), (3, 10, 0.729), (8, 7, 0.6**8),
                                                             (5, 4, 0.3**5)])
def test_morale_scatter_is_all_dice_failing(dice, threshold, scatter):
    """0 successes: every die shows less than the threshold (a 10 always succeeds)."""
    assert morale_table().p(dice, threshold, Morale.SCATTER) == pytest.approx(scatter, rel=1e-12)


def test_morale_table_shape_and_outcome_names():
    table = morale_table()
    assert table.dice == tuple(range(2, 9))
    assert table.thresholds == tuple(range(2, 11))
    assert MORALE_OUTCOMES == ("scatter", "stress", "doubt", "steady")


@pytest.mark.parametrize("berserker", [False, True])
@pytest.mark.parametrize("charisma", [False, True])
def test_morale_rows_sum_to_one(berserker, charisma):
    table = morale_table(berserker=berserker, charisma=charisma)
    for n in table.dice:
        for t in table.thresholds:
            assert table.outcomes[n, t].sum() == pytest.approx(1.0, abs=1e-12), (n, t)
            assert (table.outcomes[n, t] >= 0).all()


def test_berserker_adds_one_success():
    """BERSERKER: "The Unit gains an additional Success on its Morale Rolls": no scatter; what scattered
    gains a Stress marker, what stressed doubts, what doubted stays steady."""
    plain, berserk = morale_table(), morale_table(berserker=True)
    assert berserk.berserker and not plain.berserker
    for n in plain.dice:
        for t in plain.thresholds:
            p, b = plain.outcomes[n, t], berserk.outcomes[n, t]
            assert b[Morale.SCATTER] == 0.0
            assert b[Morale.STRESS] == pytest.approx(p[Morale.SCATTER], abs=1e-15)
            assert b[Morale.DOUBT] == pytest.approx(p[Morale.STRESS], abs=1e-15)
            assert b[Morale.STEADY] == pytest.approx(p[Morale.DOUBT] + p[Morale.STEADY], abs=1e-15)
    # 2 dice at 6+: steady = 0.2475 + 0.0525
    assert berserk.p(2, 6, Morale.STEADY) == pytest.approx(0.3, abs=1e-15)


def test_charisma_rerolls_failures_once():
    """CHARISMA: each failed die rerolled once; 2 dice at 6+ scatter only if both fail twice: 0.25^2."""
    table = morale_table(charisma=True)
    assert table.p(2, 6, Morale.SCATTER) == pytest.approx(0.0625, abs=1e-15)
    assert table.p(3, 9, Morale.SCATTER) == pytest.approx(0.64**3, rel=1e-12)


def test_morale_outcomes_from_successes():
    pmf = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    assert morale_outcomes(pmf) == pytest.approx([0.1, 0.2, 0.3, 0.4], abs=1e-15)
    assert morale_outcomes(pmf, berserker=True) == pytest.approx([0.0, 0.1, 0.2, 0.7], abs=1e-15)


def test_morale_table_rejects_bad_input():
    with pytest.raises(RulesError, match="max dice 1 "):
        morale_table(1)
    with pytest.raises(RulesError, match="threshold 11 "):
        morale_table(thresholds=(6, 11))
    with pytest.raises(RulesError, match="at least one threshold"):
        morale_table(thresholds=())


# icepool: one die's successes. An extra die's outcome is encoded as successes + CRIT_BASE x criticals, so
# that a 10 (CRIT) is the one outcome that explodes; decoded to successes before dice are summed.
CRIT_BASE = 1000
CRIT = CRIT_BASE + 1
ICE_DEPTH = 16  # chains cut after 16 extra dice: mass lost per die ~1e-17


def ice_morale_die(threshold: int, chain: bool, charisma: bool) -> icepool.Die:
    """Successes of one first-rolled d10 of a Morale roll, its critical's extra dice included."""
    fail_faces = list(range(1, threshold))
    if chain:
        extra = icepool.d10.map(lambda f: CRIT if f == 10 else int(f >= threshold)).explode(
            [CRIT], depth=ICE_DEPTH).map(lambda v: v % CRIT_BASE)
    else:
        extra = icepool.d10.map(lambda f: int(f >= threshold))
    first = icepool.d10.reroll(fail_faces, depth=1) if charisma and fail_faces else icepool.d10
    return first.map(lambda f: 0 if f < threshold else (1 + extra if f == 10 else 1))


def ice_morale(n: int, threshold: int, chain: bool, berserker: bool, charisma: bool) -> np.ndarray:
    """P(scatter, stress, doubt, steady), exact fractions turned to floats."""
    successes = n @ ice_morale_die(threshold, chain, charisma)
    bonus = 1 if berserker else 0
    outcome = successes.map(lambda s: min(s + bonus, 3))
    den = outcome.denominator()
    return np.array([float(Fraction(outcome.quantity(k), den)) for k in range(4)])


@pytest.mark.parametrize(("chain", "berserker", "charisma"), [
    (True, False, False), (False, False, False), (True, True, False), (True, False, True),
])
def test_morale_table_matches_icepool_whole_table(chain, berserker, charisma):
    table = morale_table(rulings=CHAIN if chain else NO_CHAIN, berserker=berserker, charisma=charisma)
    for n in table.dice:
        for t in table.thresholds:
            expected = ice_morale(n, t, chain, berserker, charisma)
            assert np.abs(table.outcomes[n, t] - expected).max() <= 1e-12, (n, t)


# ---------------------------------------------------------------------------------------------------
# spell
# ---------------------------------------------------------------------------------------------------

def test_spell_level_one_at_the_source_by_hand():
    """Level 1, opposition 0: threshold 6 - (1 - 0) = 5; 1 d10 (no Mana). It fails on 1-4 (0.4); 5-9 give
    one success, a 10 one plus its extra die's: P(1) = 0.5 + 0.1 x 0.4 = 0.54, P(k) = 0.54 x 0.1^(k-1),
    P(at least k) = 0.6 x 0.1^(k-1). MIRAGE tiers 1-2, 3-4, 5+:
    P(1-2) = 0.54 + 0.054 = 0.594; P(3-4) = 0.0054 + 0.00054 = 0.00594; P(5+) = 0.6 x 0.1^4 = 0.00006."""
    dist = spell_table().cells[1, 0, 0]
    assert dist.cast.threshold == 5 and dist.cast.dice == 1
    assert dist.tiers == pytest.approx([0.4, 0.594, 0.00594, 0.00006], abs=1e-15)


def test_spell_table_cells_are_spell_distribution():
    """Each cell is spell_distribution of its cast; any cast with the same level, opposition and Mana
    has the same tiers (e.g. level 3, opposition 2, Mana 2: one Vortex 11-20 cm away, or two within
    10 cm)."""
    table = spell_table()
    dist = table.cells[3, 2, 2]
    assert (dist.cast.vortexes, dist.cast.distance_cm, dist.cast.mana) == (1, 20.0, 2)
    assert dist.cast.opposition == 2 and dist.cast.threshold == 5
    np.testing.assert_array_equal(dist.tiers, spell_distribution(dist.cast, CHAIN).tiers)
    other = spell_distribution(SpellCast(3, 7.5, vortexes=2, mana=2), CHAIN)
    assert other.cast.opposition == 2
    np.testing.assert_allclose(other.tiers, dist.tiers, atol=1e-15)
    for (level, opposition, mana), d in table.cells.items():
        assert (d.cast.level, d.cast.opposition, d.cast.mana, d.cast.dice) == (level, opposition, mana,
                                                                               1 + mana)
        assert not d.cast.has_maelstrom


def test_spell_table_rows_sum_to_one():
    for key, d in spell_table().cells.items():
        assert d.tiers.sum() == pytest.approx(1.0, abs=1e-12), key


def test_spell_table_only_casts_the_rules_allow():
    """"maximum number of Sources = level of the Wizard", 3 Mana per Vortex, cost 1: a level-1 Wizard has
    2 Mana to reinforce; 3 Mana needs a second Vortex, so an opposition of at least 1."""
    table = spell_table()
    assert table.levels == (1, 2, 3, 4, 5) and table.oppositions == tuple(range(7))
    assert table.manas(1) == (0, 1, 2)
    assert table.manas(5) == tuple(range(15))
    assert (3, 0, 3) not in table.cells
    assert table.cells[3, 1, 3].cast.vortexes == 2 and table.cells[3, 1, 3].cast.distance_cm == 0.0
    assert (2, 6, 6) not in table.cells  # 7 Mana needs 3 Vortexes


def test_spell_table_options():
    table = spell_table((2,), range(3), cost=3, max_mana=4)
    assert set(table.cells) == {(2, o, m) for o in (1, 2) for m in range(4)} | {(2, 0, 0)}
    with pytest.raises(RulesError, match="no Wizard of level 1 can pay a cost of 4 Mana"):
        spell_table((1,), cost=4)
    with pytest.raises(RulesError, match="level 6 "):
        spell_table((6,))


def test_spell_report_tidy_columns_and_tiers():
    report = api.table_report("drakerys", "spell")
    tidy = report.sections[0].data
    assert list(tidy.columns) == ["level", "opposition", "threshold", "mana", "dice", "vortexes",
                                  "distance_shares", "tier", "successes", "probability", "p_at_least"]
    sums = tidy.groupby(["level", "opposition", "mana"])["probability"].sum()
    assert np.allclose(sums, 1.0, atol=1e-12)
    row = tidy[(tidy.level == 1) & (tidy.opposition == 0) & (tidy.mana == 0) & (tidy.tier == 2)].iloc[0]
    assert row.successes == "3-4" and row.probability == pytest.approx(0.00594, abs=1e-15)
    assert row.p_at_least == pytest.approx(0.006, abs=1e-15)


# ---------------------------------------------------------------------------------------------------
# invocation
# ---------------------------------------------------------------------------------------------------

def test_invocation_two_dice_at_seven_by_hand():
    """2 d10 against 7+: a die fails on 1-6 (0.6). A critical could only add dice to a roll that already
    has its success (a 10), so P(at least one success) = 1 - 0.6^2 = 0.64 = 16/25 with or without them;
    with k extra dice 1 - 0.6^(2+k)."""
    table = invocation_table()
    assert table.vortex.p_invoked[0] == Fraction(16, 25)
    assert [float(p) for p in table.vortex.p_invoked] == pytest.approx(
        [1 - 0.6 ** (2 + k) for k in range(6)], abs=1e-15)
    assert table.maelstrom.p_success == pytest.approx(0.64, abs=1e-15)
    assert table.vortex.p_invoked == invocation_distribution(InvocationRoll(5)).p_invoked


def test_element_table_sums_to_one():
    """d10: 1 rolls again (+1 TS), 2-3 Air, 4-5 Water, 6-7 Fire, 8-9 Earth, 10 choice: 2/9 each element,
    1/9 the choice; the extra TS are geometric (P(k) = 0.1^k x 0.9)."""
    el = invocation_table().maelstrom.elements
    assert sum(q for _, _, q in el.elements) == 1
    assert {e: q for e, _, q in el.elements} == {"Air": Fraction(2, 9), "Water": Fraction(2, 9),
                                                "Fire": Fraction(2, 9), "Earth": Fraction(2, 9),
                                                "player's choice": Fraction(1, 9)}
    assert sum(el.extra_ts) + el.extra_ts_beyond == 1
    assert el.extra_ts[:3] == (Fraction(9, 10), Fraction(9, 100), Fraction(9, 1000))


def test_invocation_report_sections():
    report = api.table_report("drakerys", "invocation")
    names = [s.name for s in report.sections]
    assert names == ["invocation", "element", "extra_ts"]
    element = report.sections[1].data
    assert element["probability"].sum() == pytest.approx(1.0, abs=1e-15)
    assert element["p_invoked"].sum() == pytest.approx(0.64, abs=1e-15)


# ---------------------------------------------------------------------------------------------------
# weapons
# ---------------------------------------------------------------------------------------------------

#: RULES.md §1 and the player aid "Ranged Weapons": Max. Range, Strength, Saturation, Special.
PRINTED_WEAPONS = {
    "Bow": (50, 3, 3, ""),
    "Crossbow": (80, 4, 2, "Only one Shot per Activation."),
    "Heavy crossbow": (100, 4, 2, "Only one Shot per Activation. The targeted Unit cannot use its Parry and "
                                  "Expert Parry Skills until the end of the Shot."),
    "Javelins": (20, WARRIOR_STRENGTH_PRINTED, 1, ""),
    "Repeating crossbow": (60, 3, 2, ""),
    "Rocks": (30, WARRIOR_STRENGTH_PRINTED, 4, ""),
}


def test_weapons_table_has_the_six_printed_weapons():
    report = api.table_report("drakerys", "weapons")
    tidy = report.sections[0].data
    got = {r.weapon: (r.max_range_cm, r.strength, r.saturation, r.special) for r in tidy.itertuples()}
    assert got == PRINTED_WEAPONS
    assert all(tidy["source"].str.startswith("seed 002"))
    assert tidy.set_index("weapon").loc["Rocks", "carried_by"] == "Rockthrowers (Ashral)"


def test_weapons_quirks_are_in_the_notes():
    table = weapons_table(catalog.load())
    assert any("French" in q and q.startswith("Rockthrowers: ") for q in table.quirks)
    assert any(q.startswith("Rocks: ") and "Force (Strength) 3" in q for q in table.quirks)
    notes = " ".join(api.table_report("drakerys", "weapons").notes)
    assert "printed in French" in notes and "Strength column lost its name" in notes


# ---------------------------------------------------------------------------------------------------
# registration and the command line
# ---------------------------------------------------------------------------------------------------

def test_every_table_is_registered():
    assert tuple(RULESET.tables()) == TABLE_NAMES


def test_morale_csv_has_the_tidy_columns(capsys):
    code, out, _ = run(capsys, "table", "drakerys", "morale", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert list(df.columns) == ["dice", "threshold", "outcome", "probability"]
    assert len(df) == 7 * 9 * 4
    cell = df[(df.dice == 2) & (df.threshold == 6)].set_index("outcome")["probability"]
    assert cell.to_dict() == pytest.approx({"scatter": 0.25, "stress": 0.45, "doubt": 0.2475,
                                            "steady": 0.0525}, abs=1e-15)


def test_morale_cli_options(capsys):
    code, out, _ = run(capsys, "table", "drakerys", "morale", "--berserker", "--max-dice", "3",
                       "--threshold", "6", "--ruling", "DK-crit-chain=false", "--format", "csv")
    assert code == 0
    df = csv(out).set_index(["dice", "outcome"])["probability"]
    assert df[2, "scatter"] == 0.0
    assert df[2, "steady"] == pytest.approx(0.2525 + 0.0475, abs=1e-15)
    assert sorted({d for d, _ in df.index}) == [2, 3]


@pytest.mark.parametrize(("name", "title"), [("morale", "the Morale roll"), ("spell", "the Spell roll"),
                                             ("invocation", "the Elemental invocation"),
                                             ("weapons", "the ranged weapons")])
def test_each_table_command_runs(capsys, name, title):
    code, out, err = run(capsys, "table", "drakerys", name, "--format", "markdown")
    assert code == 0, err
    assert title in out and "method" in out


def test_spell_and_invocation_cli_options(capsys):
    code, out, _ = run(capsys, "table", "drakerys", "spell", "--level", "2", "--max-opposition", "1",
                       "--cost", "2", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert set(df.level) == {2} and set(df.opposition) == {0, 1}
    assert df.groupby(["opposition", "mana"]).ngroups == 2 + 5  # opp 0: Mana 0..1 (1 Vortex); opp 1: 0..4
    code, out, _ = run(capsys, "table", "drakerys", "invocation", "--max-extra", "8", "--format", "csv")
    assert code == 0
    df = csv(out)
    assert df["extra_dice"].tolist() == list(range(9))
    assert df["probability"].iloc[-1] == pytest.approx(1 - 0.6**10, abs=1e-15)


def test_table_plots(capsys, tmp_path):
    png = tmp_path / "morale.png"
    assert run(capsys, "table", "drakerys", "morale", "--max-dice", "3", "--plot", str(png))[0] == 0
    assert png.stat().st_size > 0
    code, out, err = run(capsys, "table", "drakerys", "weapons", "--plot", str(tmp_path / "w.png"))
    # nothing to plot: the command offers no --plot (a usage error naming it)
    assert code == 2 and "No such option '--plot'" in err and out == ""
    assert not (tmp_path / "w.png").exists()


def test_table_all_writes_every_table(capsys, tmp_path):
    folder = tmp_path / "t"
    code, _, err = run(capsys, "table", "drakerys", "all", "--output", str(folder))
    assert code == 0, err
    files = {p.name for p in folder.iterdir()}
    for name in TABLE_NAMES:
        assert {f"{name}{suffix}" for suffix in (".md", ".csv", ".tex", ".html")} <= files, name
    assert {"index.html", "index.md", "action.png", "morale.png", "spell.png"} <= files
    index_md = (folder / "index.md").read_text()
    index_html = (folder / "index.html").read_text()
    rulings = DrakerysRulings().describe()
    for index in (index_md, index_html):
        assert rulings in index
        assert "probabilities rounded to 4 decimals" in index
        for name in TABLE_NAMES:
            assert f"{name}.csv" in index
    for name in TABLE_NAMES:
        assert f"(`{name}`)" in index_md
    assert list(csv((folder / "morale.csv").read_text()).columns) == ["dice", "threshold", "outcome",
                                                                      "probability"]
    assert "| 2 | 0.0100 | 0.0400 |" in (folder / "morale.md").read_text()


def test_table_all_rounding_and_rulings(capsys, tmp_path):
    folder = tmp_path / "t"
    code, _, err = run(capsys, "table", "drakerys", "all", "--output", str(folder), "--percent", "--digits",
                       "2", "--ruling", "DK-crit-chain=false")
    assert code == 0, err
    index = (folder / "index.md").read_text()
    assert "percentages rounded to 2 decimals" in index
    assert "DK-crit-chain=false" in index
    morale = (folder / "morale.md").read_text()
    assert "| 2 | 1.00 | 4.00 |" in morale and "DK-crit-chain=false" in morale
    df = csv((folder / "morale.csv").read_text())
    doubt = df[(df.dice == 2) & (df.threshold == 6) & (df.outcome == "doubt")]["probability"].iloc[0]
    assert doubt == pytest.approx(0.2525, abs=1e-15)  # CSV: full precision, the ruling applied
