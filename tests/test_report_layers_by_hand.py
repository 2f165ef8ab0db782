"""The report layer (the Python that turns raw Monte Carlo counts and records into reported numbers) against
hand computation, on tiny hand-made histograms, records and per-matchup summaries: no simulation runs.

Each test builds its raw material by hand, wraps it in the library's own result objects and checks every
figure against arithmetic written out here, so that a one-line slip in that layer (a figure credited to the
wrong side, divided by the wrong size or cost, a scatter not counted as lost, a mean over the wrong axis, a
wrong standard error) fails. Means of per-trial values have the standard error sqrt(s^2 / n) with s^2 the
sample variance (n - 1); probabilities read from a histogram (simcore.stats.proportion) have the binomial
sqrt(p (1 - p) / n).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reports import efficiency as eff
from reports.drakerys.fight import engagement_report, shooting_report
from rulesets.base import Engagement
from rulesets.drakerys import RULESET, DrakerysRulings, catalog, simulate
from rulesets.drakerys.battle import BattleRecords
from rulesets.drakerys.contest import _fields, _linear
from rulesets.drakerys.fight import (
    BattleRecord,
    Combatant,
    EngagementOutcome,
    EngagementRow,
    Morale,
    Record,
    ShootingRow,
)
from simcore import runner

CATALOG = catalog.load()
Z = 1.959963984540054
METRICS = [m.name for m in RULESET.metrics]


def hand_mean_stderr(xs: list[float]) -> tuple[float, float]:
    """The mean of per-trial values and its standard error, sqrt(sample variance / n), written out."""
    n = len(xs)
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def hand_cov_of_means(xs: list[float], ys: list[float]) -> float:
    """The covariance of the means of two per-trial series: sample covariance / n."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / (n - 1) / n


def contestants(*keys: str):
    by_key = {c.key: c for c in RULESET.contestants(CATALOG, only=list(keys))}
    return [by_key[k] for k in keys]


# --- 1. Shooting -------------------------------------------------------------------------------------------


def test_shooting_report_numbers_from_a_tiny_histogram_by_hand():
    """Five hand-made Shootings of 6 Crossbowmen (100 AP) at 12 Crows (160 AP, 160/12 AP a warrior), one
    of which scatters the Crows: casualties and AP destroyed count the scattered warriors, removed_B does
    not; every figure of the Shooting's result and of its report computed by hand."""
    shooter, target = Combatant(CATALOG.unit("crossbowmen"), 6), Combatant(CATALOG.unit("crows"), 12)
    weapon = CATALOG.weapons["repeating-crossbow"]
    trials = [  # (removed by the shot, casualties in all, injuries inflicted, the target's Morale)
        (2, 12, 3, Morale.SCATTER),  # 2 shot down, then the Morale roll scatters the other 10
        (1, 1, 2, Morale.STRESS),
        (0, 0, 0, Morale.NO_ROLL),  # no casualty: no roll
        (3, 3, 5, Morale.STEADY),
        (0, 0, 0, Morale.NO_ROLL),
    ]
    counts = np.zeros((len(ShootingRow), 20), dtype=np.int64)
    for removed, lost, inflicted, morale in trials:
        for row, value in ((ShootingRow.REMOVED, removed), (ShootingRow.CASUALTIES, lost),
                           (ShootingRow.INFLICTED, inflicted), (ShootingRow.MORALE, morale)):
            counts[row, value] += 1
    run = runner.RunResult(counts, 5, 0, 1, 5, None, False)
    result = simulate.ShootingResult(shooter, target, weapon, 35, DrakerysRulings(), run)

    # the scenario: the scatter makes casualties differ from the warriors the shot removed
    assert result.removed().value == pytest.approx((2 + 1 + 0 + 3 + 0) / 5)
    assert result.casualties().value == pytest.approx((12 + 1 + 0 + 3 + 0) / 5)
    assert result.ap_destroyed(160).value != pytest.approx(result.removed().value * 160 / 12)

    # means and their standard errors (sample variance over n - 1, then / n)
    lost_var = ((12 - 3.2) ** 2 + (1 - 3.2) ** 2 + (0 - 3.2) ** 2 + (3 - 3.2) ** 2 + (0 - 3.2) ** 2) / 4
    assert result.casualties().stderr == pytest.approx(math.sqrt(lost_var / 5))
    removed_var = ((2 - 1.2) ** 2 + (1 - 1.2) ** 2 + (0 - 1.2) ** 2 + (3 - 1.2) ** 2 + (0 - 1.2) ** 2) / 4
    assert result.removed().stderr == pytest.approx(math.sqrt(removed_var / 5))
    inflicted_var = ((3 - 2) ** 2 + (2 - 2) ** 2 + (0 - 2) ** 2 + (5 - 2) ** 2 + (0 - 2) ** 2) / 4
    assert result.injuries_inflicted().value == (3 + 2 + 0 + 5 + 0) / 5
    assert result.injuries_inflicted().stderr == pytest.approx(math.sqrt(inflicted_var / 5))
    # AP destroyed: the target's cost and size (not the shooter's 100 AP / 6 warriors), the scatter included
    ap = result.ap_destroyed(160)
    assert ap.value == pytest.approx((12 + 1 + 0 + 3 + 0) / 5 * 160 / 12)
    assert ap.stderr == pytest.approx(math.sqrt(lost_var / 5) * 160 / 12)
    assert ap.trials == 5

    morale = result.morale()
    assert list(morale) == ["scatter", "stress", "doubt", "steady", "no roll"]
    assert [morale[k].value for k in morale] == [1 / 5, 1 / 5, 0, 1 / 5, 2 / 5]
    assert morale["scatter"].stderr == pytest.approx(math.sqrt(1 / 5 * 4 / 5 / 5))
    assert morale["no roll"].stderr == pytest.approx(math.sqrt(2 / 5 * 3 / 5 / 5))
    casualty_p = [e.value for e in result.casualty_distribution()]
    removed_p = [e.value for e in result.removed_distribution()]
    assert len(casualty_p) == len(removed_p) == 12 + 1  # k = 0 .. the target's 12 warriors
    assert casualty_p == [2 / 5, 1 / 5, 0, 1 / 5] + [0] * 8 + [1 / 5]
    assert removed_p == [2 / 5, 1 / 5, 1 / 5, 1 / 5] + [0] * 9

    report = shooting_report(result, 160, "6 Crossbowmen (100 AP)", "12 Crows (160 AP)")
    meta = dict(report.meta)
    assert meta["shooter"] == "6 Crossbowmen (100 AP)" and meta["target"] == "12 Crows (160 AP)"
    assert meta["shot"] == "Repeating crossbow (range 60 cm, Saturation 2) from 35 cm"
    assert meta["method"].startswith("Monte Carlo, 5 trials, seed 0; ")
    assert meta["AP destroyed"] == (f"{(12 + 1 + 0 + 3 + 0) / 5 * 160 / 12:.4f} ± "
                                    f"{Z * math.sqrt(lost_var / 5) * 160 / 12:.4f} (95%)")
    assert meta["injuries inflicted"] == f"{10 / 5:.4f} ± {Z * math.sqrt(inflicted_var / 5):.4f} (95%)"
    rows = report.sections[0].data

    def shown(measure: str) -> dict[str, float]:
        part = rows[rows.measure == measure]
        return dict(zip(part.outcome, part.probability, strict=True))

    assert shown("morale_B") == {"scatter": 1 / 5, "stress": 1 / 5, "doubt": 0, "steady": 1 / 5,
                                 "no roll": 2 / 5}
    assert shown("casualties_B") == {str(k): p for k, p in enumerate([2 / 5, 1 / 5, 0, 1 / 5] + [0] * 8
                                                                     + [1 / 5])}
    assert shown("removed_B") == {str(k): p for k, p in enumerate([2 / 5] + [1 / 5] * 3 + [0] * 9)}
    assert set(rows.measure) == {"morale_B", "casualties_B", "removed_B"}
    assert len(rows) == 5 + 13 + 13
    scatter_row = rows[(rows.measure == "morale_B") & (rows.outcome == "scatter")].iloc[0]
    assert scatter_row.stderr == pytest.approx(math.sqrt(1 / 5 * 4 / 5 / 5))


# --- 2. Duel / engagement ----------------------------------------------------------------------------------

#: Ten hand-made duels of 12 Crows (side 0, 160 AP: 160/12 a warrior) against 6 Gold Keepers (side 1,
#: 150 AP: 25 a warrior): (outcome, lost 0, lost 1, injuries 0, injuries 1, TS 0, TS 1, activations,
#: opening lost 0, opening lost 1, opening injuries 0, opening injuries 1, opening TS). The outcomes come
#: 4, 3, 2 and 1 times, so any two swapped show.
W0, W1 = EngagementOutcome.SIDE_0_WINS, EngagementOutcome.SIDE_1_WINS
NEITHER, BOTH = EngagementOutcome.NEITHER, EngagementOutcome.BOTH_DESTROYED
DUELS = [
    (W0, 3, 6, 4, 3, 10, 8, 4, 1, 2, 1, 3, 3),  # the Gold Keepers scatter after 3 injuries: all 6 lost
    (W1, 12, 2, 15, 3, 14, 12, 6, 0, 1, 0, 2, 3),
    (NEITHER, 5, 4, 6, 5, 96, 90, 20, 2, 0, 2, 1, 3),
    (BOTH, 12, 6, 14, 8, 20, 18, 8, 1, 1, 1, 2, 3),
    (W0, 0, 6, 1, 7, 4, 0, 1, 0, 6, 1, 7, 4),  # destroyed by the opening Charge (+1 TS for a Stress)
    (W0, 7, 6, 9, 6, 30, 28, 10, 2, 1, 2, 2, 3),
    (W1, 12, 3, 13, 4, 25, 24, 9, 3, 0, 3, 0, 3),
    (NEITHER, 2, 1, 3, 2, 98, 96, 30, 0, 0, 0, 0, 3),
    (W1, 12, 0, 12, 0, 6, 5, 3, 12, 0, 12, 0, 3),  # the Crows scatter after their own Charge
    (W0, 1, 6, 2, 2, 18, 16, 7, 1, 6, 1, 2, 3),  # the Gold Keepers scatter after the Charge
]
COLUMNS = (Record.OUTCOME, Record.LOST_0, Record.LOST_1, Record.INJURIES_0, Record.INJURIES_1, Record.TS_0,
           Record.TS_1, Record.ACTIVATIONS, Record.OPENING_LOST_0, Record.OPENING_LOST_1,
           Record.OPENING_INJURIES_0, Record.OPENING_INJURIES_1, Record.OPENING_TS)
#: The columns of DUELS, read by hand.
LOST_0 = [3, 12, 5, 12, 0, 7, 12, 2, 12, 1]
LOST_1 = [6, 2, 4, 6, 6, 6, 3, 1, 0, 6]
INJURIES_0 = [4, 15, 6, 14, 1, 9, 13, 3, 12, 2]
INJURIES_1 = [3, 3, 5, 8, 7, 6, 4, 2, 0, 2]
TS_0 = [10, 14, 96, 20, 4, 30, 25, 98, 6, 18]
TS_1 = [8, 12, 90, 18, 0, 28, 24, 96, 5, 16]
ACTIVATIONS = [4, 6, 20, 8, 1, 10, 9, 30, 3, 7]
OPENING_LOST_0 = [1, 0, 2, 1, 0, 2, 3, 0, 12, 1]
OPENING_LOST_1 = [2, 1, 0, 1, 6, 1, 0, 0, 0, 6]
WIN_0 = [1, 0, 0, 0, 1, 1, 0, 0, 0, 1]
WIN_1 = [0, 1, 0, 0, 0, 0, 1, 0, 1, 0]
IS_NEITHER = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0]
IS_BOTH = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0]


def duel_records() -> simulate.EngagementRecords:
    records = np.zeros((len(DUELS), len(Record)), dtype=np.int64)
    for t, duel in enumerate(DUELS):
        for column, value in zip(COLUMNS, duel, strict=True):
            records[t, column] = value
    run = runner.RecordsResult(records, len(DUELS), 0, 1, len(DUELS), None, False)
    return simulate.EngagementRecords(records, run, Combatant(CATALOG.unit("crows"), 12),
                                    Combatant(CATALOG.unit("gold-keepers"), 6), DrakerysRulings())


def battle_records() -> BattleRecords:
    """The ten duels as battles of one unit a side (BattleRecord columns: a unit that lost every warrior is
    a unit lost), under the default rulings (DK-budget=750)."""
    records = np.zeros((len(DUELS), len(BattleRecord)), dtype=np.int64)
    for t, duel in enumerate(DUELS):
        for column, value in zip(COLUMNS[:8], duel[:8], strict=True):
            records[t, column] = value
    records[:, BattleRecord.UNITS_LOST_0] = [k == 12 for k in LOST_0]
    records[:, BattleRecord.UNITS_LOST_1] = [k == 6 for k in LOST_1]
    run = runner.RecordsResult(records, len(DUELS), 0, 1, len(DUELS), None, False)
    return BattleRecords(records, run, (Combatant(CATALOG.unit("crows"), 12),),
                         (Combatant(CATALOG.unit("gold-keepers"), 6),), DrakerysRulings(), 30, 6)


def hand_duel_metrics() -> dict[str, tuple[list[float], list[float]]]:
    """Every metric per trial for side 0 (one unit of 12 Crows) and side 1 (one of 6 Gold Keepers), by
    hand, each side's budget 750 AP."""
    destroyed_0 = [k * 150 / 6 for k in LOST_1]  # side 0 destroys Gold Keepers at 25 AP each
    destroyed_1 = [k * 160 / 12 for k in LOST_0]  # side 1 destroys Crows at 160/12 AP each
    net_0 = [d - k for d, k in zip(destroyed_0, destroyed_1, strict=True)]
    net_1 = [d - k for d, k in zip(destroyed_1, destroyed_0, strict=True)]
    return {
        "win": (WIN_0, WIN_1),
        "loss": (WIN_1, WIN_0),
        "neither": (IS_NEITHER, IS_NEITHER),
        "both_destroyed": (IS_BOTH, IS_BOTH),
        "ap_destroyed": (destroyed_0, destroyed_1),
        "ap_lost": (destroyed_1, destroyed_0),
        "units_worth_lost": ([k / 12 for k in LOST_0], [k / 6 for k in LOST_1]),
        "fraction_lost": ([k / 12 for k in LOST_0], [k / 6 for k in LOST_1]),
        "units_lost": ([float(k == 12) for k in LOST_0], [float(k == 6) for k in LOST_1]),
        "net_ap": (net_0, net_1),
        "net_ap_per_100ap": ([x * 100 / 750 for x in net_0], [x * 100 / 750 for x in net_1]),
        "injuries_inflicted": (INJURIES_1, INJURIES_0),
        "ts_spent": (TS_0, TS_1),
        "units_fielded": ([1] * 10, [1] * 10),
        "ap_unspent": ([750 - 160] * 10, [750 - 150] * 10),
        "battle_net_per_100ap": ([x * 100 / 750 for x in net_0], [x * 100 / 750 for x in net_1]),
        "trade_gain": (destroyed_0, destroyed_1),
        "trade_loss": ([k / 12 for k in LOST_0], [k / 6 for k in LOST_1]),
    }


def test_duel_metrics_and_their_summaries_from_hand_made_records():
    """Every metric of the balance layer's duel (contest._linear: the one definition of the metrics), per
    trial and summarized (mean, covariance of the means), for both sides, against hand arithmetic on ten
    hand-made records; then the histogram report of `balance duel drakerys` on the same ten duels."""
    rec = duel_records()
    a, b = contestants("crows@12", "gold-keepers@6")
    assert (a.cost, a.subject.size, b.cost, b.subject.size) == (160.0, 12, 150.0, 6)
    hand = hand_duel_metrics()
    assert set(hand) == set(METRICS)

    # the records' views read the right columns
    assert list(rec.outcome()) == [d[0] for d in DUELS]
    assert list(rec.lost(0)) == LOST_0 and list(rec.lost(1)) == LOST_1
    assert list(rec.injuries(0)) == INJURIES_0 and list(rec.injuries(1)) == INJURIES_1
    assert list(rec.ts(0)) == TS_0 and list(rec.ts(1)) == TS_1 and list(rec.activations()) == ACTIVATIONS
    assert list(rec.opening_lost(0)) == OPENING_LOST_0 and list(rec.opening_lost(1)) == OPENING_LOST_1
    assert list(rec.opening_injuries(1)) == [3, 2, 1, 2, 7, 2, 0, 0, 0, 2]
    assert list(rec.opening_ts()) == [3, 3, 3, 3, 4, 3, 3, 3, 3, 3]

    # the scenario: a warrior of each side is worth a different AP; the scatters of trials 1 and 10 lose
    # the Gold Keepers more warriors than the injuries they suffered; the four outcomes' counts differ
    assert 160 / 12 != 150 / 6 and (LOST_1[0], INJURIES_1[0], LOST_1[9], INJURIES_1[9]) == (6, 3, 6, 2)
    assert len({sum(WIN_0), sum(WIN_1), sum(IS_NEITHER), sum(IS_BOTH)}) == 4

    # per trial (contest._fields), the ten duels as battles of one unit a side
    brec = battle_records()
    samples = _fields(brec, a, b)
    assert list(samples) == METRICS
    for name in METRICS:
        assert samples[name].shape == (2, 10), name
        for side in (0, 1):
            assert samples[name][side] == pytest.approx(hand[name][side]), (name, side)
    assert list(samples["ap_destroyed"][0]) == pytest.approx([150, 50, 100, 150, 150, 150, 75, 25, 0, 150])
    assert samples["net_ap_per_100ap"][0].mean() == pytest.approx(
        ((6 + 2 + 4 + 6 + 6 + 6 + 3 + 1 + 0 + 6) / 10 * 150 / 6
         - (3 + 12 + 5 + 12 + 0 + 7 + 12 + 2 + 12 + 1) / 10 * 160 / 12) * 100 / 750)
    assert list(samples["units_lost"][0]) == [0, 1, 0, 1, 0, 0, 1, 0, 1, 0]

    # summarized, through the compiled linear moments and through the plain samples alike
    linear = Engagement(a, b, seed=0, raw=brec, score=_fields, method="Monte Carlo", linear=_linear)
    plain = Engagement(a, b, seed=0, raw=brec, score=_fields, method="Monte Carlo")
    assert linear.linear_score() is not None and plain.linear_score() is None
    g, loss = METRICS.index("ap_destroyed"), METRICS.index("fraction_lost")
    for engagement in (linear, plain):
        assert engagement.trials == 10
        sides = eff.summarize_sides(engagement, METRICS)
        for side, s in enumerate(sides):
            k = len(METRICS)
            assert s.trials == 10 and s.mean.shape == (k,) and s.cov.shape == (k, k)
            for m, name in enumerate(METRICS):
                mean, stderr = hand_mean_stderr(hand[name][side])
                assert s.mean[m] == pytest.approx(mean), (name, side)
                assert math.sqrt(max(s.cov[m, m], 0.0)) == pytest.approx(stderr, abs=1e-12), (name, side)
            assert s.cov[g, loss] == pytest.approx(
                hand_cov_of_means(hand["ap_destroyed"][side], hand["fraction_lost"][side]))
        assert eff.summarize(engagement, 1, METRICS).mean == pytest.approx(sides[1].mean)

    s0, s1 = eff.summarize_sides(linear, METRICS)
    win = METRICS.index("win")
    # the win probability's stderr from the records: sample variance of the 0/1 values over n - 1
    assert s0.mean[win] == 4 / 10 and s1.mean[win] == 3 / 10
    assert math.sqrt(s0.cov[win, win]) == pytest.approx(
        math.sqrt(((1 - 0.4) ** 2 * 4 + (0 - 0.4) ** 2 * 6) / 9 / 10))
    assert s0.mean[METRICS.index("neither")] == s1.mean[METRICS.index("neither")] == 2 / 10
    assert s0.mean[METRICS.index("both_destroyed")] == 1 / 10
    ap = METRICS.index("ap_destroyed")
    assert s0.mean[ap] == pytest.approx((6 + 2 + 4 + 6 + 6 + 6 + 3 + 1 + 0 + 6) / 10 * 150 / 6)
    assert s1.mean[ap] == pytest.approx((3 + 12 + 5 + 12 + 0 + 7 + 12 + 2 + 12 + 1) / 10 * 160 / 12)
    assert s0.mean[loss] == pytest.approx((3 + 12 + 5 + 12 + 0 + 7 + 12 + 2 + 12 + 1) / 10 / 12)
    assert s1.mean[loss] == pytest.approx((6 + 2 + 4 + 6 + 6 + 6 + 3 + 1 + 0 + 6) / 10 / 6)
    assert s0.mean[METRICS.index("ts_spent")] == pytest.approx(
        (10 + 14 + 96 + 20 + 4 + 30 + 25 + 98 + 6 + 18) / 10)
    assert s1.mean[METRICS.index("injuries_inflicted")] == pytest.approx(
        (4 + 15 + 6 + 14 + 1 + 9 + 13 + 3 + 12 + 2) / 10)
    # net AP of side 0 is minus that of side 1 in every trial (the meta-game's payoff)
    net = METRICS.index("net_ap")
    assert s0.mean[net] == pytest.approx(-s1.mean[net])

    # `balance duel drakerys`: the same ten duels as a histogram (EngagementRow), the report's table
    counts = np.zeros((len(EngagementRow), 100), dtype=np.int64)
    for outcome, lost0, lost1, inj0, inj1, ts0, ts1, acts, *_ in DUELS:
        for row, value in ((EngagementRow.OUTCOME, outcome), (EngagementRow.LOST_0, lost0),
                           (EngagementRow.LOST_1, lost1), (EngagementRow.INJURIES_0, inj0),
                           (EngagementRow.INJURIES_1, inj1), (EngagementRow.TS_0, ts0),
                           (EngagementRow.TS_1, ts1), (EngagementRow.ACTIVATIONS, acts)):
            counts[row, value] += 1
    run = runner.RunResult(counts, 10, 7, 1, 10, None, False)
    result = simulate.EngagementResult(rec.a, rec.b, None, 6, DrakerysRulings(), run, 30)
    report = engagement_report(result, 160, 150, "12 Crows (160 AP)", "6 Gold Keepers (150 AP)")
    table = report.sections[0].data.set_index("quantity")

    def binomial(p: float) -> tuple[float, float]:  # simcore.stats.proportion: sqrt(p (1 - p) / n)
        return p, math.sqrt(p * (1 - p) / 10)

    expected = {
        "P(A wins)": binomial(4 / 10),
        "P(B wins)": binomial(3 / 10),
        "P(neither: the game ends first)": binomial(2 / 10),
        "P(both destroyed)": binomial(1 / 10),
        "injuries suffered by A": hand_mean_stderr(INJURIES_0),
        "injuries suffered by B": hand_mean_stderr(INJURIES_1),
        "AP destroyed of A": hand_mean_stderr([k * 160 / 12 for k in LOST_0]),
        "AP destroyed of B": hand_mean_stderr([k * 150 / 6 for k in LOST_1]),
        "warriors lost by A": hand_mean_stderr(LOST_0),
        "warriors lost by B": hand_mean_stderr(LOST_1),
        "Time Sections spent by A": hand_mean_stderr(TS_0),
        "Time Sections spent by B": hand_mean_stderr(TS_1),
        "activations": hand_mean_stderr(ACTIVATIONS),
    }
    assert list(table.index) == list(expected)
    for quantity, (value, stderr) in expected.items():
        assert table.loc[quantity, "value"] == pytest.approx(value), quantity
        assert table.loc[quantity, "stderr"] == pytest.approx(stderr), quantity
        assert table.loc[quantity, "ci_low"] == pytest.approx(value - Z * stderr), quantity
        assert table.loc[quantity, "ci_high"] == pytest.approx(value + Z * stderr), quantity
    assert table.loc["AP destroyed of A", "value"] == pytest.approx(66 / 10 * 160 / 12)
    assert table.loc["AP destroyed of B", "value"] == pytest.approx(40 / 10 * 150 / 6)
    # the report agrees with the balance layer's metrics on the same duels
    assert table.loc["AP destroyed of B", "value"] == pytest.approx(s0.mean[ap])
    assert table.loc["AP destroyed of A", "value"] == pytest.approx(s1.mean[ap])
    meta = dict(report.meta)
    assert meta["A"] == "12 Crows (160 AP)" and meta["B"] == "6 Gold Keepers (150 AP)"
    assert meta["opening"].startswith("the units start 30 cm apart, A acting first")
    assert meta["game"].startswith("6 rounds of 16 Time Sections; ")
    assert meta["method"].startswith("Monte Carlo, 10 trials, seed 7; ")


# --- 3. Efficiency -----------------------------------------------------------------------------------------

#: A field of three, by hand: costs, and for each engagement (i as side 0, j as side 1) the mean fraction
#: of itself each side lost, their variances and covariance (of the means), and each side's P(win).
COSTS = {"gold-keepers@6": 150.0, "crows@12": 160.0, "warriors@6": 75.0}
KEYS = list(COSTS)  # 0: Gold Keepers, 1: Crows, 2: Warriors
#: (i, j): (lost_i, lost_j, var lost_i, var lost_j, cov, win_i, win_j)
DUEL_SUMMARIES = {
    (0, 1): (0.55, 0.35, 0.0025, 0.0016, -0.0006, 0.30, 0.45),
    (1, 0): (0.30, 0.60, 0.0016, 0.0025, -0.0008, 0.55, 0.20),
    (0, 2): (0.40, 0.60, 0.0016, 0.0036, -0.0005, 0.50, 0.25),
    (2, 0): (0.65, 0.40, 0.0036, 0.0025, -0.0007, 0.15, 0.60),
    (1, 2): (0.25, 0.75, 0.0016, 0.0036, -0.0009, 0.70, 0.10),
    (2, 1): (0.60, 0.30, 0.0036, 0.0016, -0.0010, 0.20, 0.65),
}
TRIALS = 400


def side_summary(own: float, other: float, v_own: float, v_other: float, cov: float, win: float,
                 loss: float, cost: float, other_cost: float) -> eff.SideSummary:
    """One side of an engagement, consistent metric by metric: every AP metric is linear in the fractions
    of both sides lost, (other, own), whose covariance is [[v_other, cov], [cov, v_own]]."""
    weights = {  # metric: (weight of the other side's fraction lost, weight of its own)
        "ap_destroyed": (other_cost, 0.0), "ap_lost": (0.0, cost), "fraction_lost": (0.0, 1.0),
        "units_worth_lost": (0.0, 1.0), "trade_gain": (other_cost, 0.0), "trade_loss": (0.0, 1.0),
        "net_ap": (other_cost, -cost), "net_ap_per_100ap": (other_cost * 100 / 750, -cost * 100 / 750),
        "battle_net_per_100ap": (other_cost * 100 / 750, -cost * 100 / 750),
    }
    mean = np.zeros(len(METRICS))
    jac = np.zeros((len(METRICS), 2))
    for name, (w_other, w_own) in weights.items():
        m = METRICS.index(name)
        mean[m] = w_other * other + w_own * own
        jac[m] = w_other, w_own
    cov_matrix = jac @ np.array([[v_other, cov], [cov, v_own]]) @ jac.T
    for name, p in (("win", win), ("loss", loss)):
        m = METRICS.index(name)
        mean[m] = p
        cov_matrix[m, m] = p * (1 - p) / TRIALS
    mean[METRICS.index("neither")] = 1 - win - loss
    return eff.SideSummary(mean, cov_matrix, TRIALS)


def hand_field() -> eff.Field:
    field_contestants = contestants(*KEYS)
    assert [c.cost for c in field_contestants] == list(COSTS.values())
    cost = list(COSTS.values())
    pairs = {}
    for (i, j), (li, lj, vi, vj, c, wi, wj) in DUEL_SUMMARIES.items():
        pairs[i, j] = (side_summary(li, lj, vi, vj, c, wi, wj, cost[i], cost[j]),
                       side_summary(lj, li, vj, vi, c, wj, wi, cost[j], cost[i]))
    return eff.Field(RULESET, DrakerysRulings(), field_contestants, 1, None, TRIALS, pairs)


def crows_fair_by_hand() -> float:
    return (0.55 * 150 + 0.60 * 150 + 0.75 * 75 + 0.60 * 75) / (0.30 + 0.35 + 0.25 + 0.30)


def hand_sides(i: int) -> list[tuple[float, float, float, float, float, float, float]]:
    """Contestant i's four engagements (both roles against both opponents), by hand from DUEL_SUMMARIES:
    (own fraction lost, its variance, opponent's fraction lost, its variance, covariance, opponent's
    cost, own P(win))."""
    cost = list(COSTS.values())
    out = []
    for (p, q), (lp, lq, vp, vq, c, wp, wq) in DUEL_SUMMARIES.items():
        if p == i:
            out.append((lp, vp, lq, vq, c, cost[q], wp))
        elif q == i:
            out.append((lq, vq, lp, vp, c, cost[p], wq))
    return out


def hand_fieller(num: float, den: float, v_num: float, v_den: float, cov: float) -> tuple[float, float]:
    """The textbook Fieller interval of num / den: the r with (num - r den)^2 = Z^2 (v_num - 2 r cov +
    r^2 v_den), i.e. the roots of a r^2 + b r + c = 0 (the denominator significant: a > 0)."""
    a = den ** 2 - Z ** 2 * v_den
    b = -2 * num * den + 2 * Z ** 2 * cov
    c = num ** 2 - Z ** 2 * v_num
    assert a > 0 and b * b - 4 * a * c > 0
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def test_efficiency_ranking_fair_cost_and_verdicts_from_a_hand_made_field():
    """reports.efficiency on a field of three entries built from hand-made per-engagement summaries: the
    value (net AP per 100 AP averaged over opponents and roles) with its stderr, value per cost, rank, the
    even-trade fair cost with Fieller's interval, the verdicts, the win matrix and the meta-game payoffs."""
    field = hand_field()
    cost = list(COSTS.values())

    # the value: net AP per 100 AP of the budget (750), over the four engagements of each entry
    values = [
        ((0.35 * 160 - 0.55 * 150) + (0.30 * 160 - 0.60 * 150) + (0.60 * 75 - 0.40 * 150)
         + (0.65 * 75 - 0.40 * 150)) * 100 / 750 / 4,  # Gold Keepers: -3.16
        ((0.60 * 150 - 0.30 * 160) + (0.55 * 150 - 0.35 * 160) + (0.75 * 75 - 0.25 * 160)
         + (0.60 * 75 - 0.30 * 160)) * 100 / 750 / 4,  # Crows: 2.72
        ((0.40 * 150 - 0.65 * 75) + (0.40 * 150 - 0.60 * 75) + (0.30 * 160 - 0.60 * 75)
         + (0.25 * 160 - 0.75 * 75)) * 100 / 750 / 4,  # Warriors
    ]
    # Var(net per 100 AP of the budget) of one engagement = (100 / 750)^2 (opp cost^2 Var(opp lost) + own
    # cost^2 Var(own lost) - 2 opp cost own cost Cov); the four engagements are independent: sqrt(sum) / 4
    stderrs = [math.sqrt(sum((100 / 750) ** 2 * (co ** 2 * vo + cost[i] ** 2 * vl - 2 * co * cost[i] * c)
                             for _, vl, _, vo, c, co, _ in hand_sides(i))) / 4
               for i in range(3)]
    wins = [(0.30 + 0.20 + 0.50 + 0.60) / 4, (0.55 + 0.45 + 0.70 + 0.65) / 4, (0.15 + 0.25 + 0.20 + 0.10) / 4]
    win_stderrs = [math.sqrt(sum(w * (1 - w) / TRIALS for *_, w in hand_sides(i))) / 4 for i in range(3)]
    # even trade: sum of AP destroyed / sum of the fraction of itself lost
    nums = [0.35 * 160 + 0.30 * 160 + 0.60 * 75 + 0.65 * 75,
            0.55 * 150 + 0.60 * 150 + 0.75 * 75 + 0.60 * 75,
            0.40 * 150 + 0.40 * 150 + 0.30 * 160 + 0.25 * 160]
    dens = [0.55 + 0.60 + 0.40 + 0.40, 0.30 + 0.35 + 0.25 + 0.30, 0.60 + 0.65 + 0.75 + 0.60]
    assert nums[0] / dens[0] == pytest.approx(197.75 / 1.95)
    fieller = []
    for i in range(3):
        sides = hand_sides(i)
        v_num = sum(co ** 2 * vo for _, _, _, vo, _, co, _ in sides)
        v_den = sum(vl for _, vl, *_ in sides)
        cov = sum(co * c for _, _, _, _, c, co, _ in sides)  # cov(other's lost x its cost, own lost)
        low, high = hand_fieller(nums[i], dens[i], v_num, v_den, cov)
        for r in (low, high):  # the defining equation holds at both ends
            assert (nums[i] - r * dens[i]) ** 2 == pytest.approx(
                Z ** 2 * (v_num - 2 * r * cov + r ** 2 * v_den))
        assert low < nums[i] / dens[i] < high
        assert eff.fieller(nums[i], dens[i], v_num, v_den, cov) == pytest.approx((low, high))
        fieller.append((low, high))

    # the scenario: the roles differ (averaging one role alone would show), the three verdicts differ
    gk_role_0 = ((0.35 * 160 - 0.55 * 150) + (0.60 * 75 - 0.40 * 150)) * 100 / 750 / 2
    assert abs(gk_role_0 - values[0]) > 0.2
    assert fieller[0][1] < 150 and fieller[1][0] > 160 and fieller[2][0] < 75 < fieller[2][1]

    for i in range(3):
        value = eff.averaged(field, i, "net_ap_per_100ap")
        assert value.value == pytest.approx(values[i]) and value.stderr == pytest.approx(stderrs[i])
        win = eff.averaged(field, i, "win")
        assert win.value == pytest.approx(wins[i]) and win.stderr == pytest.approx(win_stderrs[i])

    rank = eff.ranking(field)
    # sorted by value: Crows (2.72), Warriors (0.41), Gold Keepers (-3.16): a 3-cycle of the field order
    assert list(rank["key"]) == ["crows@12", "warriors@6", "gold-keepers@6"]
    assert list(rank["rank"]) == [1, 2, 3]
    row = {r["key"]: r for r in rank.to_dict("records")}
    for i, key in enumerate(KEYS):
        r = row[key]
        assert r["cost"] == cost[i] and r["cost_unit"] == "AP"
        assert r["value"] == pytest.approx(values[i]) and r["value_stderr"] == pytest.approx(stderrs[i])
        assert r["value_per_cost"] == pytest.approx(values[i] / 100)  # net AP per AP spent
        assert r["fair_cost"] == pytest.approx(nums[i] / dens[i])
        assert r["fair_cost_low"] == pytest.approx(max(fieller[i][0], 0.0))
        assert r["fair_cost_high"] == pytest.approx(fieller[i][1])
        assert r["win"] == pytest.approx(wins[i]) and r["win_stderr"] == pytest.approx(win_stderrs[i])
    assert row["crows@12"]["fair_cost"] == pytest.approx((0.55 * 150 + 0.60 * 150 + 0.75 * 75 + 0.60 * 75)
                                                          / (0.30 + 0.35 + 0.25 + 0.30))
    assert (row["gold-keepers@6"]["verdict"], row["crows@12"]["verdict"], row["warriors@6"]["verdict"]) \
        == ("over-costed", "under-costed", "fair")
    # off by: fair / cost - 1, its interval the fair cost's over the cost
    assert row["crows@12"]["off_by"] == pytest.approx(crows_fair_by_hand() / cost[1] - 1)
    assert row["crows@12"]["off_by_low"] == pytest.approx(fieller[1][0] / cost[1] - 1)

    view = eff.ranking_view(rank, ["unit", "size"], RULESET).set_index("unit")
    crows_fair = (0.55 * 150 + 0.60 * 150 + 0.75 * 75 + 0.60 * 75) / (0.30 + 0.35 + 0.25 + 0.30)
    assert view.loc["Crows", "fair cost [95%]"] == (f"{crows_fair:.0f} [{fieller[1][0]:.0f}, "
                                                    f"{fieller[1][1]:.0f}]")
    # values below 10: three places
    assert view.loc["Warriors", "value"] == f"{values[2]:.3f} ± {Z * stderrs[2]:.3f}"
    # value per cost is the value / 100 for every entry (both per the budget): shown once, as the value
    assert "value / cost" not in view.columns

    # win matrix: P(row wins) over both roles; payoff: net AP per 100 AP of the budget
    grid = eff.win_matrix(field)
    assert grid.loc["Gold Keepers (6)", "Crows (12)"] == pytest.approx((0.30 + 0.20) / 2)
    assert grid.loc["Crows (12)", "Gold Keepers (6)"] == pytest.approx((0.55 + 0.45) / 2)
    assert grid.loc["Warriors (6)", "Crows (12)"] == pytest.approx((0.20 + 0.10) / 2)
    m, se = eff.payoff_matrix(field)
    gk_vs_crows = ((0.35 * 160 - 0.55 * 150) + (0.30 * 160 - 0.60 * 150)) / 2 * 100 / 750
    assert m[0, 1] == pytest.approx(gk_vs_crows) and m[1, 0] == pytest.approx(-gk_vs_crows)
    assert se[0, 1] == pytest.approx(
        math.sqrt((160 ** 2 * 0.0016 + 150 ** 2 * 0.0025 - 2 * 160 * 150 * -0.0006)
                  + (160 ** 2 * 0.0016 + 150 ** 2 * 0.0025 - 2 * 160 * 150 * -0.0008)) / 2 * 100 / 750)
    assert m[2, 1] == pytest.approx(((0.30 * 160 - 0.60 * 75) + (0.25 * 160 - 0.75 * 75)) / 2 * 100 / 750)
    assert np.allclose(m, -m.T)

    tidy = eff.matchups(field)
    assert len(tidy) == 6 * 2 * len(METRICS)
    one = tidy[(tidy.unit == "Warriors") & (tidy.opponent == "Crows") & (tidy.role == "Second Player")
               & (tidy.metric == "fraction_lost")].iloc[0]
    assert one.value == 0.75 and one.stderr == pytest.approx(math.sqrt(0.0036)) and one.trials == TRIALS


def test_a_fair_cost_interval_never_goes_below_zero():
    """An entry that destroys almost nothing, uncertainly: Fieller's interval for its even-trade price
    reaches below 0 by hand, and a cost is never negative, so the reported interval starts at 0."""
    cost = list(COSTS.values())
    summaries = {  # (i, j): (lost_i, lost_j, var lost_i, var lost_j, cov, win_i, win_j); the Warriors (2)
        # lose most of themselves and destroy 0.5% of their opponents, with a standard error of 4%
        (0, 2): (0.01, 0.80, 0.0001, 0.0016, 0.0, 0.95, 0.01), (2, 0): (0.80, 0.005, 0.0016, 0.0016, 0.0,
                                                                       0.01, 0.95),
        (1, 2): (0.01, 0.85, 0.0001, 0.0016, 0.0, 0.95, 0.01), (2, 1): (0.85, 0.005, 0.0016, 0.0016, 0.0,
                                                                       0.01, 0.95),
        (0, 1): (0.50, 0.50, 0.0025, 0.0025, 0.0, 0.45, 0.45), (1, 0): (0.50, 0.50, 0.0025, 0.0025, 0.0,
                                                                       0.45, 0.45),
    }
    pairs = {(i, j): (side_summary(li, lj, vi, vj, c, wi, wj, cost[i], cost[j]),
                      side_summary(lj, li, vj, vi, c, wj, wi, cost[j], cost[i]))
             for (i, j), (li, lj, vi, vj, c, wi, wj) in summaries.items()}
    field = eff.Field(RULESET, DrakerysRulings(), contestants(*KEYS), 1, None, TRIALS, pairs)
    # by hand, for the Warriors: AP destroyed 0.005 x (150 + 160) x 2 roles... per engagement
    num = 0.005 * 150 + 0.01 * 150 + 0.005 * 160 + 0.01 * 160
    v_num = 150 ** 2 * (0.0016 + 0.0001) + 160 ** 2 * (0.0016 + 0.0001)
    den = 0.80 + 0.80 + 0.85 + 0.85
    v_den = 4 * 0.0016
    low, high = hand_fieller(num, den, v_num, v_den, 0.0)
    assert low < 0 < num / den < high
    fair = eff.fair_costs(field, np.zeros(3), np.zeros(3))[2]
    assert fair.low == 0.0 and fair.high == pytest.approx(high) and fair.value == pytest.approx(num / den)


def matchups_row_by_row(field: eff.Field):
    """The engagements' tidy table as one dict per row (what eff.matchups builds a column at a time)."""
    import pandas as pd

    rows = []
    for (i, j), summaries in field.pairs.items():
        for side, s in enumerate(summaries):
            me, other = (i, j) if side == 0 else (j, i)
            head = {**eff._labels(field.contestants[me]), "cost": field.contestants[me].cost}
            head.update({f"opponent_{k}" if k not in ("unit", "contestant") else "opponent": v
                         for k, v in eff._labels(field.contestants[other]).items()})
            head["opponent_cost"] = field.contestants[other].cost
            head["role"] = field.ruleset.roles[side]
            for m, name in enumerate(field.names):
                rows.append({**head, "metric": name, "value": s.mean[m],
                             "stderr": float(np.sqrt(s.cov[m, m])), "trials": s.trials})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("relabel", [False, True], ids=["alike", "one entry labelled apart"])
def test_the_engagements_table_is_the_frame_of_one_dict_per_row(relabel):
    import dataclasses

    import pandas as pd

    field = hand_field()
    if relabel:  # keys that differ between entries: pandas aligns them (missing cells), so the rows path
        apart = dataclasses.replace(field.contestants[2], labels=(("unit", "Warriors"),))
        field = dataclasses.replace(field, contestants=[*field.contestants[:2], apart])
    tidy = eff.matchups(field)
    pd.testing.assert_frame_equal(tidy, matchups_row_by_row(field), check_exact=True)
    assert len(tidy) == 6 * 2 * len(field.names)
    assert tidy["size"].isna().any() == relabel
