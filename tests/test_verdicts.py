"""Verdicts with a tolerance, off_by, coverage (`not measured`) and each fair-cost rule with a fair cost
computed by hand from a small field (reports/efficiency.py)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
from cli_run import assert_one_line_error
from toy_game import FIELD, ToyRuleset, ToyRulings, toy

from reports import efficiency as eff
from rulesets.base import (
    MEDIAN_FAIR_COST,
    Contestant,
    Coverage,
    Engagement,
    FairCostRule,
    Metric,
    OptionError,
)
from simcore.stats import Z95

RULINGS = ToyRulings()


def play(rs, trials=20_000, seed=1, tolerance=None):
    catalog = rs.load_catalog()
    return eff.play_field(rs, rs.contestants(catalog), RULINGS, seed=seed, precision=None, trials=trials,
                          tolerance=tolerance)


def exact_side(p: float, own_cost: float, other_cost: float) -> eff.SideSummary:
    """A side that wins with probability p (the loser loses everything), as the toy game scores it, exact."""
    destroyed = p * other_cost
    lost = 1.0 - p
    net = destroyed - lost * own_cost
    mean = np.array([p, lost, destroyed, net, net * 100 / own_cost])
    return eff.SideSummary(mean, np.zeros((5, 5)), 0)


def exact_field(rs: ToyRuleset, opener: dict[tuple[int, int], float], tolerance=None) -> eff.Field:
    """A field of exact engagements: ``opener[i, j]`` is P(i wins when it opens against j)."""
    cs = rs.contestants(rs.load_catalog())
    pairs = {(i, j): (exact_side(p, cs[i].cost, cs[j].cost), exact_side(1 - p, cs[j].cost, cs[i].cost))
             for (i, j), p in opener.items()}
    return eff.Field(rs, RULINGS, cs, 1, None, None, pairs, tolerance)


# --- the even-trade rule ------------------------------------------------------------------------------------


def test_even_trade_fair_cost_by_hand():
    """ant (cost 50) meets bee (100) and cat (100); P(ant wins) opening / answering: bee 0.40 / 0.30, cat
    0.25 / 0.15. Gain: 0.40 x 100 + 0.30 x 100 + 0.25 x 100 + 0.15 x 100 = 110 cost destroyed; loss:
    0.60 + 0.70 + 0.75 + 0.85 = 2.9 of itself. Even-trade price 110 / 2.9 = 37.93, off by
    37.93 / 50 - 1 = -24.1%."""
    rs = toy(("ant", 1.0, 50.0), ("bee", 2.0, 100.0), ("cat", 4.0, 100.0))
    field = exact_field(rs, field_p())
    rank = eff.ranking(field).set_index("key")
    assert rank.loc["ant", "fair_cost"] == pytest.approx(110 / 2.9)
    assert rank.loc["ant", "fair_cost_low"] == rank.loc["ant", "fair_cost_high"] == pytest.approx(110 / 2.9)
    assert rank.loc["ant", "off_by"] == pytest.approx(110 / 2.9 / 50 - 1)
    # 37.93 is 12.07 below 50, beyond the band of 10% (5): over-costed, exactly known
    assert rank.loc["ant", "verdict"] == "over-costed"
    # with a tolerance of 25% (12.5) it is fair
    assert eff.ranking(exact_field(rs, field_p(), tolerance=25.0)) \
        .set_index("key").loc["ant", "verdict"] == "fair"


def field_p() -> dict[tuple[int, int], float]:
    return {(0, 1): 0.40, (1, 0): 0.70, (0, 2): 0.25, (2, 0): 0.85, (1, 2): 0.5, (2, 1): 0.5}


def test_an_entry_against_a_copy_of_itself_is_fair():
    """Alone with its copy, whatever opens, the even-trade price is the cost itself (p x c + (1 - q) x c over
    (1 - p) + q with q = p)."""
    rs = toy(("ant", 1.0, 50.0), ("ant-copy", 1.0, 50.0))
    rank = eff.ranking(play(rs))
    assert list(rank["verdict"]) == ["fair", "fair"]
    assert rank["fair_cost"].to_numpy() == pytest.approx([50.0, 50.0], rel=0.05)


# --- the median rule ----------------------------------------------------------------------------------------


class MedianToy(ToyRuleset):
    fair_cost_rule = MEDIAN_FAIR_COST


def test_median_fair_cost_by_hand():
    """Values 10, 20, 90 at cost 100 each: value per cost 0.1, 0.2, 0.9; median 0.2 (the mean would be 0.4),
    so the fair costs are 10 / 0.2 = 50, 100, 450."""
    rs = MedianToy([p for p in toy(("a", 1, 100.0), ("b", 1, 100.0), ("c", 1, 100.0)).pieces])
    field = exact_field(rs, {(i, j): 0.5 for i in range(3) for j in range(3) if i != j})
    fair = eff.fair_costs(field, np.array([10.0, 20.0, 90.0]), np.zeros(3))
    assert [f.value for f in fair] == pytest.approx([50.0, 100.0, 450.0])
    assert [f.low for f in fair] == pytest.approx([50.0, 100.0, 450.0])
    assert [f.high for f in fair] == pytest.approx([50.0, 100.0, 450.0])
    band = eff.band(rs, 100.0)
    assert band == 10.0
    assert [eff.verdict(100.0, f, band) for f in fair] == ["over-costed", "fair", "under-costed"]


# --- the zero rule ------------------------------------------------------------------------------------------


class ZeroToy(ToyRuleset):
    fair_cost_rule = FairCostRule("zero", "par")
    default_tolerance = 1.0


def test_zero_rule_fair_costs_by_hand():
    """A value 0.03 with standard error 0.01 lies 3 standard errors above par: the fair cost lies above
    today's cost; 0.015 lies within 1.96 x 0.01 = 0.0196 of par: today's cost is plausible."""
    rs = ZeroToy([p for p in toy(("a", 1, 3.0), ("b", 1, 3.0)).pieces])
    field = exact_field(rs, {(0, 1): 0.5, (1, 0): 0.5})
    above, plausible = eff.fair_costs(field, np.array([0.03, 0.015]), np.array([0.01, 0.01]))
    assert np.isnan(above.value) and above.low == np.nextafter(3.0, np.inf) and np.isinf(above.high)
    assert (plausible.value, plausible.low, plausible.high) == (3.0, 3.0, 3.0)


def test_zero_rule_verdict_by_hand():
    """Tolerance 1 win-rate point (0.01). 0.03 ± 0.0196: the interval [0.0104, 0.0496] lies above 0.01:
    under-costed. 0.025 ± 0.0196 reaches 0.0054, inside the band: undecided. 0.008: fair. -0.035 ± 0.0196:
    over-costed."""
    assert eff.value_verdict(0.03, 0.01, 0.01) == "under-costed"
    assert eff.value_verdict(0.025, 0.01, 0.01) == "undecided"
    assert eff.value_verdict(0.008, 0.01, 0.01) == "fair"
    assert eff.value_verdict(-0.035, 0.01, 0.01) == "over-costed"
    assert 0.03 - Z95 * 0.01 == pytest.approx(0.0104, abs=1e-4)


# --- bands, off_by, Fieller with exact estimates ------------------------------------------------------------


def test_band_is_a_share_of_the_cost_never_below_the_step():
    rs = toy(*FIELD)
    assert eff.band(rs, 300.0) == pytest.approx(30.0)
    assert eff.band(rs, 300.0, 5.0) == pytest.approx(15.0)
    assert eff.band(rs, 3.0) == 1.0  # 10% of 3 is 0.3, below the step of 1
    with pytest.raises(OptionError, match="tolerance -1"):
        eff.check_tolerance(-1.0)


def test_fieller_of_a_loss_exactly_zero_is_infinite_not_nan():
    """An entry that never loses anything, without error: its even-trade price is unbounded above."""
    assert eff.fieller(150.0, 0.0, 4.0, 0.0, 0.0) == (np.inf, np.inf)
    low, high = eff.fieller(0.0, 0.0, 0.0, 0.0, 0.0)
    assert np.isneginf(low) and np.isposinf(high)


def test_fieller_with_exact_estimates_is_the_ratio_itself():
    """Zero variances: the interval is the point num / den (rounding must not read as 'unbounded')."""
    rng = np.random.Generator(np.random.SFC64(7))
    for _ in range(1000):
        num, den = rng.uniform(0.01, 1000.0), rng.uniform(0.01, 10.0)
        low, high = eff.fieller(num, den, 0.0, 0.0, 0.0)
        assert np.isfinite(low) and np.isfinite(high)
        # the rounding of b^2 - ac leaves a width of order sqrt(machine epsilon)
        assert low == pytest.approx(num / den, rel=1e-6) and high == pytest.approx(num / den, rel=1e-6)


# --- coverage: not measured ---------------------------------------------------------------------------------


class PartlyPlayed(ToyRuleset):
    def coverage(self, contestant: Contestant, rulings) -> Coverage:
        if contestant.key == "cat":
            return Coverage(("strength",), ("Purr", "Nap"), ("Purr",))
        if contestant.key == "bee":
            return Coverage(("strength",), ("Buzz",), ())
        return Coverage(("strength",))


def test_an_unplayed_rule_that_can_change_the_value_is_not_measured():
    rs = PartlyPlayed(toy(*FIELD).pieces)
    field = play(rs)
    rank = eff.ranking(field).set_index("key")
    # cat is under-costed by the numbers (see test_balance_layer); its unplayed Purr makes it not measured
    assert rank.loc["cat", "verdict"] == "not measured" and not rank.loc["cat", "measured"]
    assert rank.loc["cat", "not_played"] == ("not played, can change its value: Purr; not played, worth "
                                             "nothing in this contest: Nap")
    assert rank.loc["bee", "measured"] and rank.loc["bee", "verdict"] != "not measured"
    assert rank.loc["dog", "verdict"] == "over-costed"
    report, _ = eff.report(field, provenance=[])
    view = report.views[0].data.set_index("unit")
    assert view.loc["cat", "value"].startswith("≥ ") and view.loc["cat", "fair cost [95%]"].startswith("≥ ")
    assert not view.loc["dog", "value"].startswith("≥")
    assert any(n.startswith("not measured") and "Cat: not played, can change its value: Purr" in n
               for n in report.notes)
    assert report.notes[0].startswith("verdicts: ") and "1 not measured" in report.notes[0]


def test_coverage_refuses_a_decisive_rule_it_does_not_list_as_unplayed():
    with pytest.raises(ValueError, match="not among the unplayed"):
        Coverage((), (), ("Purr",))


def test_worst_offenders_by_how_far_off():
    rs = toy(*FIELD)
    rank = eff.ranking(play(rs))
    worst = eff.worst_offenders(rank)
    assert set(worst["verdict"]) <= {"over-costed", "under-costed"}
    assert list(worst["off_by"].abs()) == sorted(worst["off_by"].abs(), reverse=True)
    lines = eff.offender_lines(rank, rs)
    dog = rank.set_index("key").loc["dog"]
    assert any(line.startswith(f"Dog: over-costed, off by {100 * dog.off_by:+.0f}%") for line in lines)


def test_tolerance_option_refuses_a_negative_number(capsys):
    assert_one_line_error(capsys, ["efficiency", "drakerys", "--tolerance", "-1", "--unit", "crows"], 2, "-1")


# --- the sweep's break-even is the efficiency report's fair cost ------------------------------------------


def test_break_even_of_a_fair_cost_that_does_not_depend_on_the_cost_is_that_fair_cost():
    from reports.sweep import fair_break_even

    fair = [eff.FairCost(2.5, 2.4, 2.6)] * 4
    assert fair_break_even([1, 2, 3, 4], fair) == pytest.approx((2.5, 2.4, 2.6), rel=1e-12)
    assert fair_break_even([3, 4, 5], fair[:3]) is None  # the fair cost lies below the range


def test_break_even_where_the_cost_changes_play_is_the_fixed_point_by_hand():
    """fair(2) = 2.66, fair(3) = 2.40: fair - cost goes 0.66 -> -0.60, so the cost equal to its own fair
    cost is 2 + 0.66 / 1.26 = 2.5238."""
    from reports.sweep import fair_break_even

    fair = [eff.FairCost(3.1, 3.0, 3.2), eff.FairCost(2.66, 2.6, 2.7), eff.FairCost(2.40, 2.3, 2.5),
            eff.FairCost(2.2, 2.1, 2.3)]
    mid, low, high = fair_break_even([1, 2, 3, 4], fair)
    assert mid == pytest.approx(2 + 0.66 / 1.26)
    assert low == pytest.approx(2 + 0.6 / 1.3) and high == pytest.approx(2 + 0.7 / 1.2)


def test_budget_option_sets_the_budget_ruling_or_is_refused(capsys):
    from cli_run import run

    code, out, err = run(capsys, "efficiency", "drakerys", "--unit", "crows", "--budget", "600", "--trials",
                         "200", "--format", "csv")
    assert code == 0, err
    rank = pd.read_csv(io.StringIO(out))
    assert len(rank) == 3
    assert_one_line_error(capsys, ["efficiency", "warbound", "--budget", "6"], 2, "not bought from a budget")


def test_several_budgets_give_each_entrys_verdict_at_every_budget(capsys):
    from cli_run import run

    args = ["efficiency", "drakerys", "--unit", "crows@6", "--unit", "warriors@6", "--trials", "200"]
    code, out, err = run(capsys, *args, "--budget", "300", "--budget", "600", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    tidy = pd.DataFrame(report["sections"]["ranking"])
    assert sorted(set(tidy["budget"])) == [300, 600] and len(tidy) == 4
    # each budget's rows are that budget's own efficiency report
    code, single, err = run(capsys, *args, "--budget", "600", "--format", "csv")
    alone = pd.read_csv(io.StringIO(single)).set_index("key")
    at600 = tidy[tidy["budget"] == 600].set_index("key")
    for key in alone.index:
        assert at600.loc[key, "fair_cost"] == pytest.approx(alone.loc[key, "fair_cost"])
        assert at600.loc[key, "verdict"] == alone.loc[key, "verdict"]
    assert_one_line_error(capsys, [*args, "--budget", "300", "--budget", "600", "--summary"], 2, "--summary")


# --- equal points: the fair cost per model does not depend on how the models are split into units -------


class SquareLaw(ToyRuleset):
    """Contests at equal points in a game of Lanchester's square law: each side fields as many units of its
    piece as BUDGET buys (a piece's ``strength`` is per model; its key ends in its size: "x@6"); the side
    with the larger S = models x strength wins with probability S0^2 / (S0^2 + S1^2), and the winner loses
    1 - sqrt(1 - (S_loser / S_winner)^2) of its models, the loser all of them."""

    BUDGET = 720.0
    metrics = (Metric("win", "P(win)"), Metric("ap_destroyed", "cost destroyed"),
               Metric("units_worth_lost", "models lost / unit size"), Metric("net", "net per 100 of budget"))
    primary_metric = "net"
    payoff_metric = "net"
    fair_cost_rule = FairCostRule("even-trade", "even trade at equal points", gain="ap_destroyed",
                                  loss="units_worth_lost")

    def engage(self, a, b, rulings, *, seed, trials=None, precision=None, threads=None):
        n = trials or 20_000
        sizes = [int(c.key.split("@")[1]) for c in (a, b)]
        units = [self.BUDGET // c.cost for c in (a, b)]
        strength = np.array([u * s * c.subject.strength
                             for u, s, c in zip(units, sizes, (a, b), strict=True)])
        u = np.random.Generator(np.random.SFC64(seed)).random(n)
        win0 = u < strength[0] ** 2 / (strength ** 2).sum()
        raw = (win0, strength, sizes, units)
        return Engagement(a, b, seed=seed, raw=raw, score=_square_law_score)

    def payoff_scale(self, a, b):
        return 1.0


def _square_law_score(raw, a, b):
    win0, strength, sizes, units = raw
    win = np.vstack([win0, ~win0]).astype(float)
    models = np.array([u * s for u, s in zip(units, sizes, strict=True)], dtype=float)
    ratio = min(strength) / max(strength)
    winner_loses = 1.0 - np.sqrt(1.0 - ratio ** 2)
    lost_share = win * winner_loses + (1 - win)  # fraction of its models each side loses
    lost_models = lost_share * models[:, None]
    cost_each = np.array([a.cost / sizes[0], b.cost / sizes[1]])[:, None]
    destroyed = (lost_models * cost_each)[::-1]
    net = (destroyed - lost_models * cost_each) * 100 / SquareLaw.BUDGET
    return {"win": win, "ap_destroyed": destroyed, "units_worth_lost": lost_models / np.array(sizes)[:, None],
            "net": net}


def test_a_unit_sold_at_two_sizes_in_proportion_gets_one_fair_cost_per_model():
    """x@6 at 60 and x@12 at 120 (10 a model, the same per-model strength) each field 72 models of the
    720 budget: the same battles, so the same fair cost per model, and fair against each other and a third
    piece priced at its worth; a piece twice as strong per model at the same price is under-costed."""
    from toy_game import Piece

    rs = SquareLaw([Piece("x@6", 1.0, 60.0), Piece("x@12", 1.0, 120.0), Piece("y@6", 1.0, 60.0)])
    rank = eff.ranking(play(rs)).set_index("key")
    per_model = rank["fair_cost"] / [6, 12, 6]
    assert per_model["x@6"] == pytest.approx(per_model["x@12"], rel=1e-9)
    assert (rank["verdict"] == "fair").all()
    strong = SquareLaw([Piece("x@6", 1.0, 60.0), Piece("x@12", 1.0, 120.0), Piece("z@6", 2.0, 60.0)])
    rank = eff.ranking(play(strong)).set_index("key")
    assert rank.loc["z@6", "verdict"] == "under-costed"
    # the same battles on other streams (keyed on the entries' keys): equal within their error, and well
    # within the 10% tolerance
    assert rank.loc["x@6", "fair_cost"] / 6 == pytest.approx(rank.loc["x@12", "fair_cost"] / 12, rel=0.01)


@pytest.mark.parametrize(("value", "digits", "exact", "text"), [
    (-0.0004, 3, False, "0.000 ± 0.002"),   # rounds to zero: no minus sign
    (-0.0006, 3, False, "-0.001 ± 0.002"),
    (-0.0, 2, True, "0.00"),
    (0.1234, 2, True, "0.12"),
])
def test_plus_minus_never_reads_minus_zero(value, digits, exact, text):
    from reports.efficiency import plus_minus

    assert plus_minus(value, 0.001, digits, exact) == text


def test_a_fair_cost_bound_above_today_reads_above_and_one_below_keeps_its_mark():
    """A not measured entry's fair cost is what the played rules give, marked "≥"; under the zero rule it is
    a side of today's cost: "above 4" is then certain (a bound above today's cost is above it), while
    "below 4" may not hold and keeps the mark."""
    assert eff._bounded("≥ ", eff._fair_text(np.nan, 4.0, np.inf)) == "above 4"
    assert eff._bounded("≥ ", eff._fair_text(np.nan, -np.inf, 4.0)) == "≥ below 4"
    assert eff._bounded("≥ ", eff._fair_text(5.0, 4.5, 5.5, 1)) == "≥ 5.0 [4.5, 5.5]"
    assert eff._bounded("", eff._fair_text(np.nan, 4.0, np.inf)) == "above 4"
