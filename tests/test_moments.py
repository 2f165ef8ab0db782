"""simcore.moments: metric summaries from one compiled pass over integer records, against numpy; and the
Drakerys metrics' linear form against their per-trial definitions."""

from __future__ import annotations

import numpy as np
import pytest

from reports.efficiency import SideSummary, summarize_sides
from rulesets.base import Engagement
from simcore.moments import feature_sums, linear_moments


def _features(records, columns, equals):
    values = records[:, columns]
    return np.where(equals >= 0, values == equals, values).astype(np.int64)


@pytest.mark.parametrize("seed", range(5))
def test_feature_sums_match_numpy(seed):
    rng = np.random.default_rng(seed)
    records = rng.integers(-3, 40, size=(1 + 997 * seed, 7)).astype(np.int64)
    records[:, 0] = rng.integers(0, 4, size=records.shape[0])
    columns = np.array([0, 0, 0, 1, 2, 5, 6], np.int64)
    equals = np.array([0, 1, 3, -1, -1, -1, 17], np.int64)
    f = _features(records, columns, equals)
    s1, s2 = feature_sums(records, columns, equals)
    np.testing.assert_array_equal(s1, f.sum(axis=0))
    np.testing.assert_array_equal(s2, f.T @ f)


def test_linear_moments_are_the_sample_mean_and_covariance_of_the_mean():
    rng = np.random.default_rng(7)
    records = rng.integers(0, 12, size=(5000, 4)).astype(np.int64)
    columns, equals = np.array([0, 1, 2, 3], np.int64), np.array([-1, 3, -1, -1], np.int64)
    weights = rng.normal(size=(6, 4))
    offsets = rng.normal(size=6)
    metrics = _features(records, columns, equals) @ weights.T + offsets
    mean, cov, n = linear_moments(records, columns, equals, weights, offsets)
    assert n == 5000
    np.testing.assert_allclose(mean, metrics.mean(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cov, np.cov(metrics.T) / n, rtol=1e-10, atol=1e-15)
    one_mean, one_cov, one = linear_moments(records[:1], columns, equals, weights, offsets)
    assert one == 1 and not one_cov.any()
    np.testing.assert_allclose(one_mean, metrics[0], rtol=1e-12)
    with pytest.raises(ValueError, match="no trials"):
        linear_moments(records[:0], columns, equals, weights, offsets)


@pytest.fixture(scope="module")
def drakerys_engagements():
    from rulesets.drakerys import RULESET
    from rulesets.drakerys.rules import DrakerysRulings

    contestants = RULESET.contestants(RULESET.load_catalog())
    return [RULESET.engage(contestants[i], contestants[j], DrakerysRulings(), seed=i * 100 + j, trials=3000,
                           threads=1) for i, j in ((0, 5), (7, 3), (12, 20))]


def test_drakerys_summaries_from_moments_equal_those_from_the_samples(drakerys_engagements):
    from rulesets.drakerys import RULESET

    names = [m.name for m in RULESET.metrics]
    for eng in drakerys_engagements:
        assert eng.linear_score() is not None
        fast = summarize_sides(eng, names)
        samples = eng.samples()
        for side in (0, 1):
            x = np.vstack([samples[n][side] for n in names])
            assert isinstance(fast[side], SideSummary) and fast[side].trials == x.shape[1] == 3000
            np.testing.assert_allclose(fast[side].mean, x.mean(axis=1), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(fast[side].cov, np.cov(x) / x.shape[1], rtol=1e-9, atol=1e-14)
        # without the linear form the same summaries come from the samples
        plain = Engagement(eng.a, eng.b, seed=eng.seed, raw=eng.raw, score=eng._score)
        assert plain.linear_score() is None
        slow = summarize_sides(plain, names[::-1])
        for side in (0, 1):
            np.testing.assert_allclose(slow[side].mean, fast[side].mean[::-1], rtol=1e-12, atol=1e-12)


def test_drakerys_linear_metrics_are_the_rulebook_quantities(drakerys_engagements):
    """The weights say what each metric is: checked against the battle records column by column (each side
    fields the units DK-budget buys; a unit losing k of its n warriors loses k/n of its AP)."""
    from rulesets.drakerys.fight import BattleRecord, EngagementOutcome

    for eng in drakerys_engagements:
        rec = eng.raw.records
        s = eng.samples()
        size = np.array([eng.a.subject.size, eng.b.subject.size])
        cost = np.array([eng.a.cost, eng.b.cost])
        units = np.array([len(eng.raw.force_a), len(eng.raw.force_b)])
        assert (units == 750 // cost).all()
        lost = np.vstack([rec[:, BattleRecord.LOST_0], rec[:, BattleRecord.LOST_1]])
        outcome = rec[:, BattleRecord.OUTCOME]
        np.testing.assert_array_equal(s["win"][0], outcome == EngagementOutcome.SIDE_0_WINS)
        np.testing.assert_array_equal(s["loss"][0], outcome == EngagementOutcome.SIDE_1_WINS)
        np.testing.assert_allclose(s["ap_lost"], lost * (cost / size)[:, None], rtol=1e-14)
        np.testing.assert_allclose(s["units_worth_lost"], lost / size[:, None], rtol=1e-14)
        np.testing.assert_allclose(s["fraction_lost"], lost / (size * units)[:, None], rtol=1e-14)
        net_1 = lost[0] * cost[0] / size[0] - lost[1] * cost[1] / size[1]
        np.testing.assert_allclose(s["net_ap_per_100ap"][1], net_1 * 100 / 750, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(s["net_ap_per_100ap"][0], -s["net_ap_per_100ap"][1], atol=1e-12)
        np.testing.assert_array_equal(s["injuries_inflicted"][0], rec[:, BattleRecord.INJURIES_1])
        np.testing.assert_array_equal(s["ts_spent"][1], rec[:, BattleRecord.TS_1])
        np.testing.assert_array_equal(s["units_lost"][1], rec[:, BattleRecord.UNITS_LOST_1])
        np.testing.assert_allclose(s["ap_unspent"][0], 750 - units[0] * cost[0])
