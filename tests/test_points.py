"""`balance points` (reports/points.py): on toy games whose fair costs are known by construction, the
iteration finds them; --fix holds; the result is the same for a seed whatever the thread count; a catalog
that cannot be balanced in range says so; tied costs move together."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from cli_run import assert_one_line_error, run
from toy_game import Piece, ToyRuleset, ToyRulings

from reports import points as pts
from rulesets.base import Engagement, FairCostRule, Metric, RulesError

RULINGS = ToyRulings()
BUDGET = 1200.0


class Lanchester(ToyRuleset):
    """Equal points in a game of Lanchester's square law, with forces bought continuously: a side fields
    BUDGET / cost units of its piece, each of ``strength``, so its force is F = BUDGET x strength / cost. The
    side with the larger force wins with probability F0^2 / (F0^2 + F1^2); the winner loses
    1 - sqrt(1 - (F_loser / F_winner)^2) of its units, the loser all of them.

    By construction two pieces are an even trade exactly when strength / cost is the same for both: the
    fair costs are proportional to strength, with the exchange rate fixed by any one piece's cost."""

    metrics = (Metric("win", "P(win)"), Metric("ap_destroyed", "cost destroyed"),
               Metric("units_worth_lost", "units lost"), Metric("net", "net per 100 of budget"))
    primary_metric = "net"
    win_metric = "win"
    payoff_metric = "net"
    fair_cost_rule = FairCostRule("even-trade", "even trade at equal points", gain="ap_destroyed",
                                  loss="units_worth_lost")

    def engage(self, a, b, rulings, *, seed, trials=None, precision=None, threads=None):
        self.engaged += 1
        n = trials or 4_000
        force = np.array([BUDGET * c.subject.strength / c.cost for c in (a, b)])
        u = np.random.Generator(np.random.SFC64(seed)).random(n)
        win0 = u < force[0] ** 2 / (force ** 2).sum()
        return Engagement(a, b, seed=seed, raw=(win0, force), score=_lanchester)

    def payoff_scale(self, a, b):
        return 1.0

    def cost_play(self, contestant, rulings):
        """A side's force is BUDGET x strength / cost: every change of cost changes the contest."""
        return contestant.cost


def _lanchester(raw, a, b):
    win0, force = raw
    win = np.vstack([win0, ~win0]).astype(float)
    ratio = force.min() / force.max()
    winner_loses = 1.0 - math.sqrt(max(0.0, 1.0 - ratio ** 2))
    lost = win * winner_loses + (1 - win)  # the share of its force each side loses
    units = np.array([BUDGET / a.cost, BUDGET / b.cost])[:, None]
    cost = np.array([a.cost, b.cost])[:, None]
    destroyed = (lost * units * cost)[::-1]
    return {"win": win, "ap_destroyed": destroyed, "units_worth_lost": lost * units,
            "net": (destroyed - lost * units * cost) * 100 / BUDGET}


def lanchester(*pieces: tuple[str, float, float]) -> Lanchester:
    return Lanchester([Piece(k, s, c) for k, s, c in pieces])


def propose(rs, threads=1, **kwargs) -> pts.Points:
    catalog = rs.load_catalog()
    kwargs.setdefault("iterations", 12)
    return pts.propose(rs, catalog, RULINGS, seed=7, precision=None, trials=4_000, threads=threads, **kwargs)


def costs(points: pts.Points) -> dict[str, float]:
    return dict(points.proposed.costs)


FIELD = (("ant", 1.0, 100.0), ("bee", 2.0, 100.0), ("cat", 3.0, 500.0), ("eel", 1.5, 150.0))


def test_converges_to_the_costs_known_by_construction_with_an_anchor():
    """ant is held at 100 for strength 1: the fair costs are 100 per point of strength (bee 200, cat 300,
    eel 150), each within the 10% tolerance."""
    points = propose(lanchester(*FIELD), fix=["ant"])
    got = costs(points)
    assert got["ant"] == 100.0
    for key, strength, _ in FIELD:
        assert got[key] == pytest.approx(100.0 * strength, rel=0.10), key
    assert points.stop.startswith("converged")
    assert all(points.status[k] == "fair" for k in ("bee", "cat", "eel"))
    assert points.status["ant"] == "held by --fix"
    rows = pts.table(points).set_index("key")
    assert (rows.loc[["bee", "cat", "eel"], "verdict"] == "fair").all()
    assert rows.loc["bee", "verdict_today"] == "under-costed"
    assert rows.loc["cat", "verdict_today"] == "over-costed"
    assert rows.loc["bee", "moved"] == got["bee"] - 100.0


def test_costs_stay_on_the_games_step():
    rs = lanchester(("ant", 1.0, 100.0), ("bee", 2.0, 200.0), ("cat", 3.0, 240.0))
    rs.cost_step = 5.0
    points = propose(rs, fix=["ant"])
    got = costs(points)
    assert all(c % 5 == 0 for s in points.steps for c in s.costs.values())
    assert got["bee"] == pytest.approx(200.0, rel=0.10)
    assert got["cat"] == pytest.approx(300.0, rel=0.10)


def test_same_seed_same_table_whatever_the_threads():
    one = pts.table(propose(lanchester(*FIELD), threads=1))
    two = pts.table(propose(lanchester(*FIELD), threads=2))
    assert one.equals(two)


def test_fewest_moves_only_the_entries_called_mis_costed():
    """Under --fewest a step moves only the entries whose verdict there is over- or under-costed (bee, 25%
    under its worth; eel and fox, a little off, are not called so and never move); without it, every entry
    outside a tenth of its band moves."""
    rs = lanchester(("ant", 1.0, 100.0), ("bee", 2.0, 150.0), ("eel", 1.5, 143.0), ("fox", 1.0, 100.0))
    points = propose(rs, fix=["ant"], fewest=True)
    first, second = points.steps[0], points.steps[1]
    called = {k for k in ("bee", "eel", "fox") if first.row(k)["verdict"] in ("over-costed", "under-costed")}
    assert called == {"bee"}
    assert {k for k in second.costs if second.costs[k] != first.costs[k]} == called
    # it stops once no entry is called mis-costed (bee may end short of 200, inside the band)
    assert all(points.proposed.row(k)["verdict"] not in ("over-costed", "under-costed") for k in called)
    assert costs(points)["eel"] == 143.0 and costs(points)["fox"] == 100.0
    everyone = propose(lanchester(("ant", 1.0, 100.0), ("bee", 2.0, 150.0), ("eel", 1.5, 143.0),
                                  ("fox", 1.0, 100.0)), fix=["ant"])
    assert set(everyone.steps[0].aiming) > called


def test_an_entry_that_dominates_at_any_price_in_range_says_so():
    """hog's strength 50 would be fair at 5,000, beyond its range (4x today's 100): it ends at the top of
    its range with a status that says it cannot be made fair, and the run stops instead of looping."""
    points = propose(lanchester(("ant", 1.0, 100.0), ("bee", 1.0, 100.0), ("hog", 50.0, 100.0)),
                     fix=["ant"], iterations=30)
    assert costs(points)["hog"] == 400.0
    assert points.status["hog"].startswith("cannot be made fair in range")
    assert "top of its range" in points.status["hog"]
    assert len(points.steps) < 31
    assert points.stop.startswith("no cost can move")


def test_a_fix_that_names_no_entry_is_refused():
    with pytest.raises(RulesError, match="--fix 'yak'"):
        propose(lanchester(*FIELD), fix=["yak"])


def test_damping_and_iterations_are_checked():
    with pytest.raises(RulesError, match="damping"):
        propose(lanchester(*FIELD), damping=0.0)
    with pytest.raises(RulesError, match="iterations"):
        propose(lanchester(*FIELD), iterations=-1)


def test_no_step_plays_an_engagement_twice():
    """An engagement whose two costs a step did not change is kept from the step before: each step plays
    exactly the pairs of costs not met before."""
    rs = lanchester(*FIELD)
    points = propose(rs, fix=["ant"])
    assert rs.engaged == points.engagements_played
    met = set()
    for step in points.steps:
        pairs = {(a, step.costs[a], b, step.costs[b]) for a in step.costs for b in step.costs if a != b}
        assert step.played == len(pairs - met)
        met |= pairs
    assert points.steps[0].played == 12


class Unseen(Lanchester):
    """hog's contests leave out a rule that can change its value (not measured)."""

    def coverage(self, contestant, rulings):
        from rulesets.base import Coverage

        if contestant.key == "hog":
            return Coverage(("strength",), ("Wallow",), ("Wallow",))
        return Coverage(("strength",))


def test_an_entry_not_measured_keeps_its_cost_and_is_no_opponent_of_the_pricing_contests():
    """hog (worth far less than its cost by what is played) would make every other entry look under-costed;
    it keeps today's cost and verdict, and the others are priced among themselves: ant anchors 100 a point
    of strength, so bee goes to about 200 whatever hog costs."""
    rs = Unseen([Piece("ant", 1.0, 100.0), Piece("bee", 2.0, 100.0), Piece("eel", 1.5, 150.0),
                 Piece("hog", 0.2, 400.0)])
    points = propose(rs, fix=["ant"])
    assert points.status["hog"].startswith("held: not measured")
    assert "hog" not in points.proposed.costs and "hog" in points.full.costs
    assert costs(points)["bee"] == pytest.approx(200.0, rel=0.10)
    rows = pts.table(points).set_index("key")
    assert rows.loc["hog", "proposed_cost"] == 400.0
    assert rows.loc["hog", "verdict_today"] == "not measured" == rows.loc["hog", "verdict"]
    assert len(points.full.field.pairs) == 12 and len(points.steps[0].field.pairs) == 6
    assert points.steps[0].played == 12  # the first step's engagements were played with hog's


# --- tied costs: a piece alone and "in formation", whose formation adds 10 -----------------------------


class Formation(Lanchester):
    """``x`` and ``x@f`` (x in formation, FORMATION times as strong, at x's cost + 10): setting either cost
    sets x's, as Warbound's Formation cards do."""

    FORMATION = 1.5

    def contestants(self, catalog, only=()):
        out = []
        for p in catalog.values():
            out += super().contestants({p.key: p})
            f = dataclasses.replace(p, key=p.key + "@f", strength=p.strength * self.FORMATION,
                                    cost=p.cost + 10)
            out += super().contestants({f.key: f})
        return out

    def variant(self, catalog, sets, costs):
        out = dict(catalog)
        for change in costs:
            base, _, f = change.target.partition("@")
            out[base] = dataclasses.replace(out[base], cost=change.cost - (10 if f else 0))
        return out


def test_tied_costs_move_together_and_say_when_no_step_suits_both():
    """x@f stays x + 10, and x alone and in formation pull apart (the formation is worth 50% more than x,
    far more than 10 gold at these prices), so the tie says so on both rows."""
    rs = Formation([Piece("ant", 1.0, 100.0), Piece("bee", 1.0, 100.0)])
    points = propose(rs, fix=["ant"])
    got = costs(points)
    assert got["bee@f"] == got["bee"] + 10
    assert got["ant"] == 100.0 and got["ant@f"] == 110.0  # --fix ant holds its formation too
    assert points.status["ant@f"].startswith("held: its cost is tied to")
    assert points.status["bee"].startswith("tied") or points.status["bee"] == "fair"
    assert points.status["bee@f"].startswith("tied")


def test_a_tie_moves_by_the_mean_of_all_its_members_gaps_and_only_more_than_half_a_step():
    """The gaps of Warbound's site table (Order tokens, a step of 1): COPP 1.44 at 2 and in Formation 4.09
    at 3 pull apart (mean +0.27: no step brings both nearer, so the tie stays, where moving by the member
    outside its aim alone swung it up and back for every step left); Oshi'goru 0.25 and 1.20 (mean 0.725)
    moves; a single entry moves by its own gap."""
    rs = Formation([Piece("ant", 1.0, 1.0)])
    rs.cost_step = 1.0
    copp = pts.Tie("copp", ("copp", "copp@f"))
    assert pts._tie_gap(rs, copp, ["copp@f"], {"copp": 1.44 - 2, "copp@f": 4.09 - 3}) is None
    assert pts._tie_gap(rs, copp, ["copp"], {"copp": 3.34 - 4, "copp@f": 4.81 - 5}) is None
    oshi = pts.Tie("oshi", ("oshi", "oshi@f"))
    assert pts._tie_gap(rs, oshi, ["oshi@f"], {"oshi": 0.25, "oshi@f": 1.20}) == pytest.approx(0.725)
    assert pts._tie_gap(rs, pts.Tie("x", ("x",)), ["x"], {"x": -0.6}) == pytest.approx(-0.6)
    rs.cost_step = 5.0  # the same gaps are within half a step of 5
    assert pts._tie_gap(rs, oshi, ["oshi@f"], {"oshi": 0.25, "oshi@f": 1.20}) is None


# --- the report and the command line -------------------------------------------------------------------


class Precise(Lanchester):
    """Lanchester's game, each engagement's precision noted: (its two costs, the precision asked)."""

    def __init__(self, pieces):
        super().__init__(pieces)
        self.asked: list[tuple[float, float, float | None]] = []

    def engage(self, a, b, rulings, *, seed, trials=None, precision=None, threads=None):
        self.asked.append((a.cost, b.cost, precision))
        return super().engage(a, b, rulings, seed=seed, trials=trials or 4_000, threads=threads)


def test_steps_after_todays_field_take_the_step_precision_and_say_so():
    """The site's steps: today's field at ``precision``, every later step at ``step_precision`` (on the same
    streams), and the method line says both."""
    rs = Precise([Piece(k, s, c) for k, s, c in FIELD])
    points = pts.propose(rs, rs.load_catalog(), RULINGS, seed=7, precision=0.02, trials=None, threads=1,
                         fix=["ant"], iterations=12, step_precision=0.04)
    today = {(a.cost, b.cost) for a in points.contestants for b in points.contestants if a.key != b.key}
    assert len(points.steps) > 1 and len(rs.asked) == points.engagements_played
    assert [p for c, d, p in rs.asked[:12]] == [0.02] * 12 and {(c, d) for c, d, _ in rs.asked[:12]} == today
    assert {p for _, _, p in rs.asked[12:]} == {0.04}
    assert points.proposed.field.precision == 0.04 and points.full.field.precision == 0.02
    report, _ = pts.report(points, provenance=[("ruleset", "toy")])
    method = dict(report.meta)["method"]
    assert "below 0.04 (today's field below 0.02; the steps coarser, on the same streams)" in method


def test_report_states_the_stop_the_steps_and_both_meta_games():
    points = propose(lanchester(*FIELD), fix=["ant"])
    report, rows = pts.report(points, provenance=[("ruleset", "toy")])
    assert report.sections[0].name == "points"
    assert [s.name for s in report.sections[1:]] == ["steps", "metagame_today", "metagame_proposed"]
    assert any("converged" in h for h in report.headline)
    assert report.facts["moved"] == 3
    assert report.facts["fair_proposed"] == 3
    assert set(rows["status"]) == {"fair", "held by --fix"}
    steps = report.sections[1].data
    assert steps["proposed"].sum() == 1
    assert len(steps) == len(points.steps)


def test_points_command_refuses_a_budget_for_a_game_without_one(capsys):
    assert_one_line_error(capsys, ["points", "uberdrakes", "--budget", "600"], 2, "--budget")


def test_points_command_refuses_a_damping_out_of_range(capsys):
    assert_one_line_error(capsys, ["points", "drakerys", "--damping", "1.5"], 2, "--damping")


DRAGONBOND_THREE = ["--unit", "bucentaur-blades", "--unit", "oathguard-duelists", "--unit", "nagasha"]


def test_points_command_takes_its_steps_at_the_step_precision_and_says_so(capsys):
    """--step-precision: today's field at --precision, the steps after it at H (the site's tables), stated in
    the method line and the overrides."""
    code, out, err = run(capsys, "points", "dragonbond", *DRAGONBOND_THREE, "--precision", "0.05",
                         "--step-precision", "0.1", "--iterations", "2", "--format", "json")
    assert code == 0, err
    meta = json.loads(out)["meta"]
    assert "below 0.1 (today's field below 0.05; the steps coarser, on the same streams)" in meta["method"]
    assert "--step-precision 0.1" in meta["overrides"]
    code, out, err = run(capsys, "points", "dragonbond", *DRAGONBOND_THREE, "--precision", "0.05",
                         "--iterations", "2", "--format", "json")
    assert code == 0, err
    assert "steps coarser" not in json.loads(out)["meta"]["method"]


@pytest.mark.parametrize(("args", "named"), [
    (["--step-precision", "0"], "--step-precision"),
    (["--step-precision", "0.7"], "--step-precision"),
    (["--trials", "300", "--step-precision", "0.04"], "step precision 0.04"),
    (["--rulings", "--step-precision", "0.04"], "--step-precision"),
])
def test_points_command_refuses_a_step_precision_it_cannot_take(capsys, args, named):
    """Out of range, beside trials alone (every engagement's trials fixed) and with --rulings (no steps):
    one line, exit 2, before any work."""
    assert_one_line_error(capsys, ["points", "dragonbond", *DRAGONBOND_THREE, *args], 2, named)


def test_the_api_refuses_a_step_precision_it_cannot_take():
    from reports import api
    from rulesets.base import OptionError

    for bad in (0, -0.1, 0.6, True, "0.04", math.nan):
        with pytest.raises(OptionError, match="step precision"):
            api.points("dragonbond", units=["nagasha", "bucentaur-blades"], step_precision=bad)
    with pytest.raises(OptionError, match="trials are fixed"):
        api.points("dragonbond", units=["nagasha", "bucentaur-blades"], trials=300, step_precision=0.04)


@pytest.mark.slow
def test_the_sites_points_table_is_the_points_command_at_the_sites_settings():
    """The site's Dragonbond points table, row for row, is `balance points dragonbond --precision 0.02
    --step-precision 0.04 --iterations 6` (the same engagements on the same streams)."""
    from reports import api
    from reports.site import SITE_ITERATIONS, SITE_PRECISION, SITE_STEP_PRECISION

    _, _, _, site_rows, _ = api.efficiency_and_points_reports(
        "dragonbond", seed=0, precision=SITE_PRECISION, iterations=SITE_ITERATIONS,
        step_precision=SITE_STEP_PRECISION, threads=2)
    _, rows = api.points_report("dragonbond", seed=0, precision=SITE_PRECISION, iterations=SITE_ITERATIONS,
                                step_precision=SITE_STEP_PRECISION, threads=2)
    assert len(rows) == 14
    assert rows.equals(site_rows)


# --- the pricing rule -------------------------------------------------------------------------------------


class Priced(ToyRuleset):
    """The toy game of tests/toy_game.py (P(win) = s0 / (s0 + s1), the loser loses all; a cost does not
    change play), whose entries name two characteristics: strength, what the fair cost is made of (an even
    trade exactly when costs are proportional to strength: 100 gold a point once ant anchors it at 100),
    and legs, which are worth nothing."""

    LEGS = {"ant": 6, "bee": 6, "cat": 4, "eel": 0, "fox": 4, "gnu": 4}
    price_features_text = "strength: the piece's strength; legs: its legs"

    def price_features(self, contestant):
        return {"strength": contestant.subject.strength, "legs": float(self.LEGS[contestant.key])}


PRICED = (("ant", 1.0, 100.0), ("bee", 2.0, 100.0), ("cat", 3.0, 500.0), ("eel", 1.5, 150.0),
          ("fox", 2.5, 200.0), ("gnu", 0.5, 80.0))


def test_the_pricing_rule_recovers_the_exchange_rate_within_its_interval():
    rs = Priced([Piece(k, s, c) for k, s, c in PRICED])
    points = propose(rs, fix=["ant"])
    assert points.stop.startswith("converged")
    rule = pts.pricing_rule(points)
    prices = rule.prices.set_index("feature")
    assert prices.loc["strength", "low"] <= 100.0 <= prices.loc["strength", "high"]
    assert prices.loc["strength", "price"] == pytest.approx(100.0, rel=0.05)
    assert prices.loc["legs", "low"] <= 0.0 <= prices.loc["legs", "high"]
    assert rule.n == len(PRICED)
    assert rule.r2 > 0.95
    assert rule.residuals["residual"].abs().max() < 0.1 * rule.residuals["fitted"].max()
    # by hand: the least-squares solution of the same numbers
    x = np.array([[s, Priced.LEGS[k]] for k, s, _ in PRICED])
    y = np.array([points.proposed.row(k)["fair_cost"] for k, _, _ in PRICED])
    np.testing.assert_allclose(prices["price"].to_numpy(), np.linalg.lstsq(x, y, rcond=None)[0])


class PerModel(Priced):
    """The priced toy with units of models: a piece of ``SIZE`` models, each with its strength."""

    SIZE = {"ant": 2, "bee": 3, "cat": 1, "eel": 2, "fox": 4, "gnu": 1}
    price_features_text = "models: 1 a model; strength: a model's strength times the models"

    def price_features(self, contestant):
        size = self.SIZE[contestant.key]
        return {"models": float(size), "strength": contestant.subject.strength * size}


class Centred(PerModel):
    price_models = "models"
    price_per_model = ("strength",)


def test_the_pricing_rule_prices_a_model_of_the_median_profile():
    """Centring the per-model stats on the entries' median profile reads the same fit another way: the
    stat's price, R² and residuals are unchanged, and the models feature prices a model of median
    strength (the uncentred base price plus the median strength times the strength's price)."""
    pieces = [Piece(k, s, c) for k, s, c in PRICED]
    plain = pts.pricing_rule(propose(PerModel(pieces), fix=["ant"]))
    centred = pts.pricing_rule(propose(Centred(pieces), fix=["ant"]))
    median = float(np.median([s for _, s, _ in PRICED]))  # strength per model: each piece's own
    assert centred.profile == (("strength", median),) and plain.profile == ()
    a, b = plain.prices.set_index("feature"), centred.prices.set_index("feature")
    assert b.loc["strength", "price"] == pytest.approx(a.loc["strength", "price"], rel=1e-9)
    assert b.loc["models", "price"] == pytest.approx(a.loc["models", "price"] + median
                                                     * a.loc["strength", "price"], rel=1e-9)
    assert centred.r2 == pytest.approx(plain.r2, rel=1e-9)
    np.testing.assert_allclose(centred.residuals["residual"], plain.residuals["residual"], atol=1e-9)
    notes = pts.rule_sections(propose(Centred(pieces), fix=["ant"]), centred)
    assert "centred: models prices a model of the entries' median profile (strength 1.75)" in str(notes)


def test_the_pricing_rule_needs_more_entries_than_features():
    rs = Priced([Piece(k, s, c) for k, s, c in PRICED[:3]])
    with pytest.raises(RulesError, match="more entries than its 2 features"):
        pts.pricing_rule(propose(rs, iterations=0))


def test_the_report_carries_the_rule_when_asked():
    rs = Priced([Piece(k, s, c) for k, s, c in PRICED])
    points = propose(rs, fix=["ant"])
    report, _ = pts.report(points, provenance=[], rule=True)
    assert [s.name for s in report.sections][-2:] == ["rule", "rule_residuals"]
    assert report.facts["rule_entries"] == len(PRICED)
    bare, _ = pts.report(points, provenance=[])
    assert "rule" not in [s.name for s in bare.sections]


def test_points_rule_is_refused_before_work_for_a_game_without_features(monkeypatch, capsys):
    import rulesets

    rs = rulesets.get("dragoborne")
    monkeypatch.setattr(type(rs), "price_features", rulesets.base.Ruleset.price_features)
    assert_one_line_error(capsys, ["points", "dragoborne", "--rule"], 1, "no pricing rule")


# --- which rulings matter -------------------------------------------------------------------------------


def test_ruling_flips_list_every_other_accepted_value_and_skip_numbers():
    import rulesets

    rulings = rulesets.get("drakerys").rulings()
    flips, skipped = pts.ruling_flips(rulings)
    assert ("DK-crit-chain", "false") in flips and ("DK-crit-chain", "true") not in flips
    assert ("DK-blocking", "always") in flips and ("DK-blocking", "never") in flips
    assert "DK-budget" in skipped and not any(k == "DK-budget" for k, _ in flips)
    assert all(v != rulings.spec(k).format(getattr(rulings, rulings.spec(k).field)) for k, v in flips)


def test_rulings_study_moves_are_those_of_two_fields_played_apart():
    from reports import efficiency as eff

    rs = lanchester(*FIELD)
    catalog = rs.load_catalog()
    study = pts.rulings_study(rs, lambda reading: catalog, RULINGS, seed=7, precision=None, trials=4_000)
    assert set(study.moves["ruling"]) == {"TOY-edge"} and len(study.moves) == len(FIELD)
    flipped = RULINGS.with_assignments(["TOY-edge=false"])
    base = eff.ranking(eff.play_field(rs, rs.contestants(catalog), RULINGS, seed=7, precision=None,
                                      trials=4_000)).set_index("key")
    other = eff.ranking(eff.play_field(rs, rs.contestants(catalog), flipped, seed=7, precision=None,
                                       trials=4_000)).set_index("key")
    got = study.moves.set_index("key")
    for key, *_ in FIELD:
        expected = other.loc[key, "fair_cost"] / base.loc[key, "fair_cost"] - 1
        assert got.loc[key, "move"] == pytest.approx(expected)
        assert got.loc[key, "verdict_base"] == base.loc[key, "verdict"]
    report = pts.rulings_report(study, rs, provenance=[])
    assert report.views[0].data["ruling"].tolist() == ["TOY-edge=false"]


@pytest.mark.parametrize(("tolerance", "beyond"), [(None, 2), (20.0, 1), (0.0, 3)])
def test_rulings_report_counts_moves_beyond_the_tolerance_given(tolerance, beyond):
    """Moves of +5%, +15%, -30% and 0: beyond the default 10% two, beyond a --tolerance of 20% one."""
    import dataclasses

    rs = lanchester(*FIELD)
    catalog = rs.load_catalog()
    study = pts.rulings_study(rs, lambda reading: catalog, RULINGS, seed=7, precision=None, trials=1_000,
                              tolerance=tolerance)
    assert rs.default_tolerance == 10.0 and study.baseline.tolerance == tolerance
    moves = study.moves.assign(move=[0.05, 0.15, -0.30, 0.0])
    report = pts.rulings_report(dataclasses.replace(study, moves=moves), rs, provenance=[])
    assert report.views[0].data.iloc[0]["moved beyond the tolerance"] == beyond


def test_points_rulings_refuses_what_it_would_ignore(capsys):
    assert_one_line_error(capsys, ["points", "warbound", "--rulings", "--rule"], 2, "--rule")


def test_the_pricing_rule_leaves_out_an_entry_not_measured():
    class UnseenPriced(Priced):
        def coverage(self, contestant, rulings):
            from rulesets.base import Coverage

            if contestant.key == "gnu":
                return Coverage(("strength",), ("Stampede",), ("Stampede",))
            return Coverage(("strength",))

    points = propose(UnseenPriced([Piece(k, s, c) for k, s, c in PRICED]), fix=["ant"])
    rule = pts.pricing_rule(points)
    assert rule.left_out == ("Gnu",) and rule.n == len(PRICED) - 1


def test_the_command_line_states_the_iterations_own_defaults():
    from reports.cli import balance as cli_balance

    assert (cli_balance.POINTS_ITERATIONS, cli_balance.POINTS_DAMPING) == (pts.DEFAULT_ITERATIONS,
                                                                         pts.DEFAULT_DAMPING)


class ZeroPoints(Lanchester):
    """The Lanchester toy valued against par (the zero rule): an entry's value is its mean win rate minus
    one half, so a cost moves a whole step at a time while the value lies outside the band."""

    fair_cost_rule = FairCostRule("zero", "par", gain=None, loss=None)
    primary_metric = "par"
    metrics = (*Lanchester.metrics, Metric("par", "P(win) - 1/2"))
    default_tolerance = 1.0

    def engage(self, a, b, rulings, *, seed, trials=None, precision=None, threads=None):
        eng = super().engage(a, b, rulings, seed=seed, trials=trials)
        return Engagement(a, b, seed=seed, raw=eng.raw, score=_par)


def _par(raw, a, b):
    out = _lanchester(raw, a, b)
    out["par"] = out["win"] - 0.5
    return out


def test_under_the_zero_rule_a_table_already_fair_is_left_as_it_is():
    """Every entry within a win-rate point of par at today's costs: nothing moves (a whole step would only
    overshoot); one far off moves by whole steps until it is within the band or turns."""
    fair = propose(ZeroPoints([Piece("ant", 1.0, 10.0), Piece("bee", 2.0, 20.0), Piece("cat", 3.0, 30.0)]))
    assert costs(fair) == {"ant": 10.0, "bee": 20.0, "cat": 30.0}
    assert fair.stop.startswith("converged") and len(fair.steps) == 1
    off = propose(ZeroPoints([Piece("ant", 1.0, 10.0), Piece("bee", 2.0, 10.0), Piece("cat", 3.0, 30.0)]),
                  fix=["ant"])
    moves = [s.costs["bee"] for s in off.steps]
    assert moves[:3] == [10.0, 11.0, 12.0]  # one step at a time, upward: bee is worth more
    assert costs(off)["bee"] > 10.0


class WholeUnits(Lanchester):
    """Lanchester's square law with whole units: a side fields BUDGET // cost units, so its cost changes
    the battle only through that count (``cost_play``); the metrics are linear in integer record features
    (the winner's side, the units each side lost) with weights that depend on the costs, so an engagement
    can be scored at other costs of the same units without being played again."""

    def __init__(self, pieces, *, by_units: bool = True) -> None:
        super().__init__(pieces)
        self.by_units = by_units

    def cost_play(self, contestant, rulings):
        return int(BUDGET // contestant.cost) if self.by_units else contestant.cost

    def engage(self, a, b, rulings, *, seed, trials=None, precision=None, threads=None):
        from rulesets.base import without_trials

        self.engaged += 1
        n = trials or 4_000
        units = np.array([BUDGET // c.cost for c in (a, b)])
        force = units * np.array([c.subject.strength for c in (a, b)])
        rng = np.random.Generator(np.random.SFC64(seed))
        win0 = rng.random(n) < force[0] ** 2 / (force ** 2).sum()
        ratio = force.min() / force.max()
        # the winner loses a binomial share of its units: 1 - sqrt(1 - ratio^2) of them on average
        share = 1.0 - math.sqrt(max(0.0, 1.0 - ratio ** 2))
        kept = rng.binomial(units.astype(np.int64)[np.where(win0, 0, 1)], share)
        lost0 = np.where(win0, kept, units[0]).astype(np.int64)
        lost1 = np.where(win0, units[1], kept).astype(np.int64)
        records = np.stack([win0.astype(np.int64), lost0, lost1], axis=1)
        raw = _UnitRecords(records, _Run(records), (a.key, b.key))
        return Engagement(a, b, seed=seed, raw=raw, score=lambda r, x, y: _whole_linear(r, x, y).samples(),
                          linear=_whole_linear, lighten=without_trials)


@dataclasses.dataclass(frozen=True)
class _Run:
    records: np.ndarray


@dataclasses.dataclass(frozen=True)
class _UnitRecords:
    records: np.ndarray
    run: _Run
    keys: tuple[str, str]


def _whole_linear(raw, a, b):
    from rulesets.base import LinearScore

    names = ("win", "ap_destroyed", "units_worth_lost", "net")
    cost = (a.cost, b.cost)
    # features: side 0 won, side 0 lost, units lost by side 0, units lost by side 1
    columns, equals = np.array([0, 0, 1, 2]), np.array([1, 0, -1, -1])
    weights, offsets = np.zeros((8, 4)), np.zeros(8)
    for s in (0, 1):
        o = 1 - s
        weights[0 + s, s] = 1.0
        weights[2 + s, 2 + o] = cost[o]
        weights[4 + s, 2 + s] = 1.0
        weights[6 + s, 2 + o], weights[6 + s, 2 + s] = cost[o] * 100 / BUDGET, -cost[s] * 100 / BUDGET
    return LinearScore(names, raw.records, columns, equals, weights, offsets)


WHOLE = (("ant", 1.0, 100.0), ("bee", 2.0, 130.0), ("cat", 3.0, 400.0), ("eel", 1.5, 140.0))


def test_an_engagement_whose_sides_buy_the_same_is_scored_again_not_played():
    """At costs that buy the same whole units an engagement is weighed anew on its kept feature sums, not
    played again, and the table is exactly the one that plays every change of cost again."""
    by_units = WholeUnits([Piece(*p) for p in WHOLE])
    by_cost = WholeUnits([Piece(*p) for p in WHOLE], by_units=False)
    fast, slow = propose(by_units, fix=["ant"]), propose(by_cost, fix=["ant"])
    assert pts.table(fast).equals(pts.table(slow))
    assert [s.costs for s in fast.steps] == [s.costs for s in slow.steps]
    assert by_units.engaged == fast.engagements_played < by_cost.engaged == slow.engagements_played
    assert len(fast.steps) > 2  # costs moved, some within the same units, some across


def test_a_field_scored_at_other_costs_equals_the_field_played_there():
    """play_field with a kept engagement at 130 for bee (9 units of 1,200) gives, at 125 (still 9 units),
    the same summaries to the last bit as playing it there."""
    from reports import efficiency as eff

    rs = WholeUnits([Piece(*p) for p in WHOLE])
    catalog = rs.load_catalog()
    at_130 = rs.contestants(catalog)
    at_125 = [dataclasses.replace(c, cost=125.0) if c.key == "bee" else c for c in at_130]
    assert rs.cost_play(at_130[1], RULINGS) == rs.cost_play(at_125[1], RULINGS) == 9
    known: dict = {}
    eff.play_field(rs, at_130, RULINGS, seed=3, precision=None, trials=2_000, reuse=known)
    played = rs.engaged
    again = eff.play_field(rs, at_125, RULINGS, seed=3, precision=None, trials=2_000, reuse=known)
    assert rs.engaged == played  # nothing played again
    fresh = eff.play_field(rs, at_125, RULINGS, seed=3, precision=None, trials=2_000)
    for pair, sides in fresh.pairs.items():
        for got, want in zip(again.pairs[pair], sides, strict=True):
            assert np.array_equal(got.mean, want.mean) and np.array_equal(got.cov, want.cov)
    # and the cost did change what bee's engagements are worth (the test can fail)
    assert not np.array_equal(fresh.pairs[0, 1][1].mean, eff.play_field(
        rs, at_130, RULINGS, seed=3, precision=None, trials=2_000).pairs[0, 1][1].mean)


@pytest.mark.parametrize("game, key, cost", [("drakerys", "gold-keepers@6", 145.0),
                                             ("dragonbond", None, None)])
@pytest.mark.filterwarnings("ignore::numba.NumbaPerformanceWarning")
def test_a_battle_scored_at_another_cost_of_the_same_units_equals_the_battle_played_there(game, key, cost):
    """Drakerys and Dragonbond battles depend on a cost only through the units the budget buys: scored at
    a cost that buys as many, a kept battle gives the summaries of the battle played there, bit for bit."""
    import rulesets
    from reports import efficiency as eff

    rs = rulesets.get(game)
    rulings = rs.rulings()
    everyone = rs.contestants(rs.load_catalog())
    field = [c for c in everyone if c.key == key][:1] + [c for c in everyone if c.key != key][:2]
    key = key or field[0].key
    entry = next(c for c in field if c.key == key)
    if cost is None:  # the nearest step of cost that buys as many units
        cost = next(entry.cost + k * rs.cost_step for k in (1, -1, 2, -2, 3, -3)
                    if rs.cost_play(dataclasses.replace(entry, cost=entry.cost + k * rs.cost_step), rulings)
                    == rs.cost_play(entry, rulings))
    moved = [dataclasses.replace(c, cost=cost) if c.key == key else c for c in field]
    assert rs.cost_play(entry, rulings) == rs.cost_play(moved[field.index(entry)], rulings)
    known: dict = {}
    eff.play_field(rs, field, rulings, seed=11, precision=None, trials=300, reuse=known, threads=1)
    kept = len(known)
    again = eff.play_field(rs, moved, rulings, seed=11, precision=None, trials=300, reuse=known, threads=1)
    assert len(known) == kept
    fresh = eff.play_field(rs, moved, rulings, seed=11, precision=None, trials=300, threads=1)
    for pair, sides in fresh.pairs.items():
        for got, want in zip(again.pairs[pair], sides, strict=True):
            assert np.array_equal(got.mean, want.mean) and np.array_equal(got.cov, want.cov)


def test_the_rule_in_a_sentence_names_a_model_of_the_median_profile():
    pieces = [Piece(k, s, c) for k, s, c in PRICED]
    centred = propose(Centred(pieces), fix=["ant"])
    text = pts.rule_answer(centred.ruleset, pts.pricing_rule(centred))
    plain = propose(PerModel(pieces), fix=["ant"])
    assert "a model of the median profile" in text and "of models" not in text
    assert "a model of the median profile" not in pts.rule_answer(plain.ruleset, pts.pricing_rule(plain))


def _step(costs: dict[str, float], fair: dict[str, float], played: int) -> pts.Step:
    """A step whose entries outside their 10% band are read off ``fair`` (no field behind it)."""
    import pandas as pd

    rank = pd.DataFrame({"key": list(costs), "cost": list(costs.values()),
                         "fair_cost": [fair[k] for k in costs]})
    outside = tuple(k for k in costs if abs(fair[k] - costs[k]) > 0.1 * costs[k])
    return pts.Step(0, dict(costs), None, rank, outside, played)


@pytest.mark.parametrize(("fair_at", "between", "asked"), [
    # the same units up to 106 (weighed anew, nothing played), one unit fewer at 107: worth less there
    ({103: 130, 104: 130, 105: 130, 106: 130, 107: 80}, (106.0, 107.0), [104, 105, 106, 107]),
    # worth more than its cost where the contest first plays anew: a step further may still be fair
    ({103: 130, 104: 130, 105: 125, 106: 140}, None, [104, 105, 106]),
    # fair within the band where the units are still the same: a whole step is fair, nothing to confirm
    ({103: 130, 104: 130, 105: 114}, None, [104, 105]),
])
def test_an_entry_outside_its_band_is_walked_to_where_its_contest_jumps(fair_at, between, asked):
    """_confirm_between walks a tie still outside its band its way over the steps that only weigh the same
    units anew, to the first step that plays anew: worth more before it and less there, its fair cost lies
    between those two steps."""
    played_at = {cost: int(cost == max(fair_at)) for cost in fair_at}  # the last cost plays anew
    seen = []

    def play_near(handles):
        cost = handles["eel"]
        seen.append(cost)
        return _step({"ant": 100.0, "eel": cost}, {"ant": 100.0, "eel": fair_at[cost]}, played_at[cost])

    best = _step({"ant": 100.0, "eel": 103.0}, {"ant": 100.0, "eel": fair_at[103]}, 1)
    found = pts._confirm_between(lanchester(*FIELD), best, [pts.Tie("eel", ("eel",))],
                                 {"ant": (1.0, 400.0), "eel": (1.0, 400.0)}, play_near)
    assert found == ({} if between is None else {"eel": between})
    assert seen == asked
