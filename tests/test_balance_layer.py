"""The generic balance layer (reports/efficiency, whatif, sweep, exports) on a toy game whose exact answers
are known (tests/toy_game.py), and the parsing of --set, --cost and ranges."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from toy_game import FIELD, Piece, ToyRulings, p_win, toy

from reports import efficiency as eff
from reports import sweep as sweeps
from reports import whatif as whatifs
from rulesets.base import (
    CostChange,
    OptionError,
    RulesError,
    StatChange,
    expand_range,
    parse_cost,
    parse_set,
)
from simcore.stats import Z95

RULINGS = ToyRulings()
TRIALS = 20_000


def play(rs, trials=TRIALS, seed=1):
    catalog = rs.load_catalog()
    return eff.play_field(rs, rs.contestants(catalog), RULINGS, seed=seed, precision=None, trials=trials)


def exact_even_trade(pieces: list[Piece], i: int) -> float:
    me = pieces[i]
    gain = loss = 0.0
    for j, other in enumerate(pieces):
        if j == i:
            continue
        p = p_win(me, other, RULINGS)  # me opens
        q = p_win(other, me, RULINGS)  # other opens
        gain += p * other.cost + (1 - q) * other.cost
        loss += (1 - p) + q
    return gain / loss


# --- parsing ---------------------------------------------------------------------------------------------


def test_parse_set_cost_and_ranges():
    assert parse_set("crows.combat=4") == StatChange("crows", "combat", "=", "4")
    assert parse_set(" Soldiers.skills += swashbuckler ") == StatChange("soldiers", "skills", "+=",
                                                                        "swashbuckler")
    assert parse_set("crossbowmen.weapon.range=60") == StatChange("crossbowmen", "weapon.range", "=", "60")
    assert parse_set("crows@12.ap=150").target == "crows@12"
    assert parse_cost("crows=150") == CostChange("crows", 150.0)
    assert parse_cost("crows@18 = 212.5").cost == 212.5
    assert expand_range("2..6", "x") == ["2", "3", "4", "5", "6"]
    assert expand_range("60..240/20", "x") == [str(v) for v in range(60, 241, 20)]
    assert expand_range("60..250/20", "x")[-1] == "240"
    assert expand_range("0.5..1.5/0.5", "x") == ["0.5", "1", "1.5"]
    assert expand_range("7", "x") is None


@pytest.mark.parametrize("bad", ["crows", "crows=4", ".combat=4", "crows.combat", "crows.combat="])
def test_parse_set_rejects(bad):
    with pytest.raises(OptionError, match="UNIT.STAT=VALUE"):
        parse_set(bad)


@pytest.mark.parametrize("bad, named", [("crows", "UNIT=COST"), ("crows=0", "not > 0"),
                                        ("crows=-5", "not > 0"), ("crows=abc", "not a number"),
                                        ("crows=inf", "not a finite")])
def test_parse_cost_rejects(bad, named):
    with pytest.raises(OptionError, match=named):
        parse_cost(bad)


@pytest.mark.parametrize("bad, named", [("6..2", "no point"), ("60..240/0", "step 0 is not > 0"),
                                        ("60..240/-20", "not > 0"), ("1..100000", "at most")])
def test_ranges_reject(bad, named):
    with pytest.raises(OptionError, match=named):
        expand_range(bad, "--cost")


# --- Fieller's interval ------------------------------------------------------------------------------------


def test_fieller_agrees_with_the_delta_method_when_the_denominator_is_sharp():
    num, den, v_num, v_den, cov = 50.0, 2.0, 0.04, 1e-6, 0.0
    low, high = eff.fieller(num, den, v_num, v_den, cov)
    delta = Z95 * np.sqrt(v_num) / den
    assert low == pytest.approx(25 - delta, rel=1e-3)
    assert high == pytest.approx(25 + delta, rel=1e-3)


def test_fieller_is_exact_for_the_ratio_of_normal_estimates():
    # coverage: the interval contains the true ratio 2 in about 95% of simulated draws
    rng = np.random.Generator(np.random.SFC64(3))
    hits = 0
    for _ in range(4000):
        num, den = rng.normal(10.0, 1.0), rng.normal(5.0, 1.0)
        low, high = eff.fieller(num, den, 1.0, 1.0, 0.0)
        hits += low <= 2.0 <= high
    assert 0.93 < hits / 4000 < 0.97


def test_fieller_is_unbounded_when_the_denominator_may_be_zero():
    low, high = eff.fieller(10.0, 0.1, 1.0, 1.0, 0.0)
    assert np.isinf(high) or np.isinf(low)


# --- efficiency ------------------------------------------------------------------------------------------


def test_ranking_columns_and_even_trade_fair_costs():
    rs = toy(*FIELD)
    rank = eff.ranking(play(rs))
    assert list(rank.columns) == ["unit", "cost", "cost_unit", "value", "value_stderr", "value_per_cost",
                                  "rank", "fair_cost", "fair_cost_low", "fair_cost_high", "off_by",
                                  "off_by_low", "off_by_high", "verdict", "measured", "not_played", "win",
                                  "win_stderr", "key", "name"]
    assert list(rank["rank"]) == [1, 2, 3, 4]
    assert (np.diff(rank["value"]) <= 0).all()
    for i, piece in enumerate(rs.pieces):
        row = rank[rank.key == piece.key].iloc[0]
        exact = exact_even_trade(rs.pieces, i)
        assert row.fair_cost_low <= exact <= row.fair_cost_high, piece.key
        assert row.fair_cost == pytest.approx(exact, rel=0.05)
    verdict = dict(zip(rank.key, rank.verdict, strict=True))
    assert verdict["cat"] == "under-costed" and verdict["dog"] == "over-costed"


def test_value_is_the_mean_over_both_roles_of_the_exact_expectation():
    rs = toy(*FIELD)
    rank = eff.ranking(play(rs)).set_index("key")
    pieces = {p.key: p for p in rs.pieces}
    for key, me in pieces.items():
        values = []
        for other in pieces.values():
            if other is me:
                continue
            p, q = p_win(me, other, RULINGS), p_win(other, me, RULINGS)
            values.append((p * other.cost - (1 - p) * me.cost) * 100 / me.cost)
            values.append(((1 - q) * other.cost - q * me.cost) * 100 / me.cost)
        row = rank.loc[key]
        assert abs(row.value - np.mean(values)) < 4 * row.value_stderr


def test_payoff_matrix_is_antisymmetric_and_the_meta_game_favours_value():
    field = play(toy(*FIELD))
    m, se = eff.payoff_matrix(field)
    assert np.array_equal(m, -m.T)
    assert np.array_equal(se, se.T) and (se[~np.eye(4, dtype=bool)] > 0).all()
    table, game = eff.meta_game(field)
    assert game.shares.sum() == pytest.approx(1.0)
    assert table.iloc[0]["key"] == "cat"
    shares = dict(zip(table.key, table.share, strict=True))
    assert shares["dog"] == 0.0
    # the bootstrap intervals hold the estimates; the clear winner's share is certain, the dog never plays
    assert (table.share_low <= table.share + 1e-12).all() and (table.share <= table.share_high + 1e-12).all()
    assert (table.nash_rating_low <= table.nash_rating + 1e-9).all()
    assert (table.nash_rating <= table.nash_rating_high + 1e-9).all()
    assert table.set_index("key").loc["dog", "share_high"] == 0.0


def test_the_meta_games_bootstrap_gives_the_same_intervals_with_its_support_hints_as_without(monkeypatch):
    """The bootstrap tries the supports its replicates found before the LPs; each is a proof, so the
    table is the one every replicate solved by the LPs gives, and fewer LPs run."""
    import reports.metagame as mg

    field = play(toy(*FIELD))
    lps = []
    monkeypatch.setattr(mg, "_value_lp", lambda m, real=mg._value_lp: lps.append(1) or real(m))
    hinted, _ = eff.meta_game(field)
    hinted_lps = len(lps)
    real_solve = mg.solve
    monkeypatch.setattr(mg, "solve", lambda m, keys, support_hint=None: real_solve(m, keys))
    plain, _ = eff.meta_game(field)
    assert hinted_lps < len(lps) - hinted_lps
    pd.testing.assert_frame_equal(hinted, plain, rtol=0, atol=1e-12)


def test_same_seed_same_field_and_streams_keyed_on_keys_only():
    rs = toy(*FIELD)
    one, two = eff.ranking(play(rs)), eff.ranking(play(rs))
    assert one.equals(two)
    a, b = rs.contestants(rs.load_catalog())[:2]
    assert eff.engagement_seed(7, a, b) != eff.engagement_seed(7, b, a)
    stronger = rs.contestants(rs.variant(rs.load_catalog(), [StatChange("ant", "strength", "=", "9")], []))[0]
    assert eff.engagement_seed(7, stronger, b) == eff.engagement_seed(7, a, b)


# --- what-if --------------------------------------------------------------------------------------------


def test_whatif_that_changes_nothing_gives_exactly_zero():
    rs = toy(*FIELD)
    w = whatifs.what_if(rs, rs.load_catalog(), RULINGS, seed=2, precision=None, trials=TRIALS)
    table = whatifs.differences(w)
    assert ((table["difference"] == 0).all() and (table["diff_low"] == 0).all()
            and (table["diff_high"] == 0).all())
    assert not table["significant"].any()
    assert w.simulated_again == 0


def test_whatif_pairs_the_dice_so_its_interval_is_much_narrower():
    rs = toy(*FIELD)
    w = whatifs.what_if(rs, rs.load_catalog(), RULINGS, sets=[StatChange("ant", "strength", "=", "1.5")],
                        seed=2, precision=None, trials=TRIALS)
    head = whatifs.headline(w)
    assert head["contestants"] == "ant"
    assert head["paired_half_width"] < 0.6 * head["independent_half_width"]
    table = whatifs.differences(w).set_index(["key", "metric"])
    ant = toy(("ant", 1.5, 50.0), *FIELD[1:]).pieces[0]
    others = rs.pieces[1:]
    exact = np.mean([p_win(ant, o, RULINGS) - p_win(rs.pieces[0], o, RULINGS) for o in others]
                    + [p_win(o, rs.pieces[0], RULINGS) - p_win(o, ant, RULINGS) for o in others])
    row = table.loc[("ant", "win")]
    assert row.diff_low <= exact <= row.diff_high and row.significant
    assert w.simulated_again == 2 * len(others)


def test_whatif_cost_change_scores_the_same_trials_and_moves_the_verdict():
    rs = toy(*FIELD)
    before = rs.engaged
    w = whatifs.what_if(rs, rs.load_catalog(), RULINGS, costs=[CostChange("dog", 60.0)], seed=2,
                        precision=None, trials=TRIALS)
    assert rs.engaged - before == 12 and w.simulated_again == 0
    costing = whatifs.costing(w).set_index("key")
    assert costing.loc["dog", "verdict"] == "over-costed"
    assert costing.loc["dog", "variant_verdict"] == "under-costed"
    assert costing.loc["dog", "variant_rank"] < costing.loc["dog", "rank"]
    # the fair cost depends on what the dog destroys and loses, not on its own cost
    assert costing.loc["dog", "variant_fair_cost"] == pytest.approx(costing.loc["dog", "fair_cost"])


def test_whatif_unknown_piece_is_a_rules_error():
    rs = toy(*FIELD)
    with pytest.raises(RulesError, match="unknown piece"):
        whatifs.what_if(rs, rs.load_catalog(), RULINGS, sets=[StatChange("emu", "strength", "=", "1")],
                        seed=2, precision=None, trials=100)


# --- sweep ---------------------------------------------------------------------------------------------


def test_cost_sweep_rescores_and_finds_the_break_even():
    rs = toy(*FIELD)
    plan = sweeps.plan(None, "cat=20..400/20")
    before = rs.engaged
    result = sweeps.sweep(rs, rs.load_catalog(), RULINGS, plan, seed=4, precision=None, trials=TRIALS)
    assert rs.engaged - before == 12  # the baseline field only: cost points re-score its trials
    vpc = result.curve[result.curve.metric == "value_per_cost"]["value"].to_numpy()
    assert (np.diff(vpc) < 0).all()
    cost, low, high = result.break_even
    assert low < cost < high and 20 < cost < 400
    # even-trade: the break-even is the efficiency report's fair cost, number and interval (a cost changes no
    # dice, so every point gives the same); its net value there is 0 up to the interpolation between points
    rank = eff.ranking(result.baseline).set_index("key")
    assert (cost, low, high) == pytest.approx(tuple(rank.loc["cat", ["fair_cost", "fair_cost_low",
                                                                     "fair_cost_high"]]), rel=1e-12)
    points = np.arange(20, 401, 20)
    value = result.curve[result.curve.metric == "value"]["value"].to_numpy()
    assert abs(np.interp(cost, points, value)) < 0.05 * np.abs(value).max()


def test_stat_sweep_simulates_each_point_and_rises_with_strength():
    rs = toy(*FIELD)
    result = sweeps.sweep(rs, rs.load_catalog(), RULINGS, sweeps.plan("ant.strength=1..4", None), seed=4,
                          precision=None, trials=TRIALS)
    win = result.curve[result.curve.metric == "win"]["value"].to_numpy()
    assert (np.diff(win) > 0).all()
    assert result.break_even is None


@pytest.mark.parametrize("set_text, cost_text, named", [
    (None, None, "give one of"), ("ant.strength=1..4", "ant=1..4", "give one of"),
    ("ant.strength=3", None, "not a range"), (None, "ant=0..100/50", "not > 0"),
    (None, "ant=100..50", "no point")])
def test_sweep_plan_errors(set_text, cost_text, named):
    with pytest.raises(OptionError, match=named):
        sweeps.plan(set_text, cost_text)


def test_verdict_band_is_closed_and_needs_the_whole_interval_outside():
    """fair: |fair - cost| <= band (closed); over/under only when the whole interval is beyond the band."""
    assert eff.verdict(100.0, eff.FairCost(110.0, 105.0, 115.0), 10.0) == "fair"
    assert eff.verdict(100.0, eff.FairCost(90.0, 80.0, 95.0), 10.0) == "fair"
    assert eff.verdict(100.0, eff.FairCost(np.nextafter(110.0, np.inf), 105.0, 115.0), 10.0) == "undecided"
    assert eff.verdict(100.0, eff.FairCost(120.0, np.nextafter(110.0, np.inf), 130.0), 10.0) == "under-costed"
    assert eff.verdict(100.0, eff.FairCost(120.0, 110.0, 130.0), 10.0) == "undecided"
    assert eff.verdict(100.0, eff.FairCost(80.0, 70.0, np.nextafter(90.0, -np.inf)), 10.0) == "over-costed"
    assert eff.verdict(100.0, eff.FairCost(80.0, 70.0, 90.0), 10.0) == "undecided"
    # no band: the old significance test's answer for an estimate off the cost
    assert eff.verdict(100.0, eff.FairCost(120.0, 101.0, 130.0)) == "under-costed"


def test_value_per_cost_stderr_of_a_paired_difference_by_hand():
    """Var(k' v - k b) = k'^2 Var v + k^2 Var b - 2 k k' Cov(v, b), Cov from Var(v - b) = Var v + Var b -
    2 Cov; here with the toy game's value per cost (value / 100 whatever the cost) and two engagements, by
    hand: the variance comes down to k^2 Var(v - b), the paired variance."""
    rs = toy(*FIELD)
    sides = [whatifs.PairedSide(np.array([0.1]), np.array([0.04]), np.array([0.09]), np.array([0.16])),
             whatifs.PairedSide(np.array([0.2]), np.array([0.01]), np.array([0.25]), np.array([0.36]))]
    cost, new_cost, k = 50.0, 80.0, 2
    kb = kv = 1 / 100
    var = 0.0
    for vp, vb, vv in ((0.04, 0.09, 0.16), (0.01, 0.25, 0.36)):
        cov = (vb + vv - vp) / 2  # 0.105 and 0.3: strongly paired
        var += kv**2 * vv + kb**2 * vb - 2 * kb * kv * cov
    assert var == pytest.approx(kb**2 * (0.04 + 0.01))
    assert whatifs._vpc_stderr(rs, sides, 0, cost, new_cost, k) == pytest.approx(var**0.5 / k, rel=1e-12)


def test_break_even_and_its_interval_by_hand():
    """A straight value-per-cost line 1 - x/100 with standard error 0.05 everywhere, median 0.5: it crosses
    at x = 50, and its 95% band holds the median while |0.5 - x/100| <= 1.96 x 0.05, from 40.2 to 59.8."""
    import pandas as pd

    x = np.arange(0, 101, 10)
    curve = pd.DataFrame({"metric": "value_per_cost", "point": x, "value": 1 - x / 100, "stderr": 0.05})
    mid, low, high = sweeps.break_even(curve, 0.5)
    assert mid == pytest.approx(50.0)
    half = 100 * Z95 * 0.05  # 9.80 cost units
    grid_step = 100 / 4000
    assert low == pytest.approx(50 - half, abs=grid_step) and high == pytest.approx(50 + half, abs=grid_step)
    assert sweeps.break_even(curve, 5.0) is None  # never crosses


def test_an_even_trade_price_below_zero_is_zero():
    """A side that loses more than it destroys whatever it costs (a negative gain: Warbound's companions'
    losses) has no even price: 0, with its interval cut at 0, never a negative number of tokens."""
    side = eff.SideSummary(np.array([-1.8, 0.01]), np.diag([0.04, 1e-6]), 1000)
    fair = eff.even_trade([side, side], 0, 1)
    assert (fair.value, fair.low, fair.high) == (0.0, 0.0, 0.0)
    kept = eff.even_trade([eff.SideSummary(np.array([1.8, 0.01]), np.diag([0.04, 1e-6]), 1000)], 0, 1)
    assert kept.value == pytest.approx(180.0) and 0 < kept.low < 180 < kept.high


def test_fair_costs_of_a_few_tokens_keep_two_decimals():
    assert eff.cost_digits([50, 120]) == 0 and eff.cost_digits([2, 3, 4]) == 2 and eff.cost_digits([]) == 2
    assert eff._fair_text(2.304, 2.281, 2.326, eff.cost_digits([2, 3])) == "2.30 [2.28, 2.33]"
    assert eff._fair_text(110.4, 109.2, 111.0) == "110 [109, 111]"
    assert eff._fair_text(np.nan, 3.0000001, np.inf) == "above 3"
    # the zero rule's par within the value's interval (or an exact estimate): the cost, no [4.00, 4.00]
    assert eff._fair_text(4.0, 4.0, 4.0, eff.cost_digits([1, 4])) == "4.00"


def test_a_half_width_never_shows_as_zero():
    assert eff.decimals([0.004, 0.007]) == 3
    assert eff.decimals([0.004, 0.007], [0.0003, 0.0004]) == 4  # ± 0.0003, not ± 0.000
    assert eff.decimals([0.004], [0.00003]) == 5
    assert eff.decimals([0.004], [1e-9]) == 5  # at most five decimals
    assert eff.decimals([42.0], [0.3]) == 1 and eff.decimals([42.0], [0.03]) == 2
    assert eff.decimals([0.5], [0.0]) == 3  # exact: nothing to show
