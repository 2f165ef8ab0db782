"""`balance army`: the best army at a budget against the meta-game, and the best counter to it.

The toy game's armies are known by construction. Four entries cost 10 gold each and a budget of 40 buys
four units: rock, paper and scissors beat one another in a ring, and dud loses to all of them. Army A beats
army B with p = 0.5 + sum(a_i b_j M[i, j]) / 32 + bonus(A) - bonus(B), M the ring (+1 for a win, -1 for a
loss), bonus 0.05 for each pair of a rock and a paper (min(rocks, papers)). Against four of one entry the
one-entry armies win or lose outright, so the meta-game's mix is rock, paper and scissors a third each,
against which every army's ring terms cancel: P(win against the mix) = 0.5 + bonus, highest (0.6) for two
rocks and two papers alone (one rock and paper pair more than any other army). The best counter to that
army is four papers: 0.5 + 8/32 - 0.1 = 0.65, next best three papers and a scissors at 0.5875.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from cli_run import assert_one_line_error, csv, ok

import rulesets
from reports import army as armies
from rulesets.base import (
    Contestant,
    Engagement,
    Metric,
    RulesError,
    Ruleset,
    Rulings,
    army_contestant,
    army_totals,
    parse_int_range,
    ruling,
)

RING = ("rock", "paper", "scissors", "dud")
#: M[i, j]: +1 when entry i beats entry j.
M = np.array([[0, -1, 1, 1], [1, 0, -1, 1], [-1, 1, 0, 1], [-1, -1, -1, 0]], dtype=float)


@dataclass(frozen=True)
class RingRulings(Rulings):
    budget: int = ruling("RING-budget", 40, accepted="10 to 1000", meaning="gold a side spends",
                         source="tests", parse=parse_int_range(10, 1000))


def _score(raw, a: Contestant, b: Contestant) -> dict[str, np.ndarray]:
    win0 = raw.astype(np.float64)
    win = np.vstack([win0, 1.0 - win0])
    return {"win": win, "net": win - win[::-1]}


def p_win(force_a, force_b) -> float:
    a, b = (np.zeros(len(RING)) for _ in range(2))
    for counts, force in ((a, force_a), (b, force_b)):
        for c, n in force:
            counts[RING.index(c.key)] += n

    def bonus(x):
        return 0.05 * min(x[0], x[1])

    return float(np.clip(0.5 + a @ M @ b / 32 + bonus(a) - bonus(b), 0.0, 1.0))


class RingRuleset(Ruleset):
    cost_unit = "gold"
    engagement = "one toss per trial: side 0 wins when u < p(armies)"
    roles = ("first", "second")
    metrics = (Metric("win", "P(win)"), Metric("net", "win - loss"))
    primary_metric = "net"
    win_metric = "win"
    payoff_metric = "net"
    payoff_description = "win - loss"
    budget_ruling = "RING-budget"
    army_text = "whole units of the ring's entries within RING-budget, at most 16"

    def __init__(self) -> None:
        super().__init__("ring", "Ring", "none", RingRulings, "a test game", implemented=True)

    def contestants(self, catalog=None, only=()):
        return [Contestant(k, k.title(), 10.0, "gold", k, k, labels=(("unit", k),)) for k in RING
                if not only or k in only]

    def check_army(self, force, rulings):
        army_totals(force, float(rulings.budget), 16, "RING-budget")

    def army_engage(self, force_a, force_b, rulings, *, seed, trials=None, precision=None, threads=None):
        for force in (force_a, force_b):
            self.check_army(force, rulings)
        u = np.random.Generator(np.random.SFC64(seed)).random(trials or 4000)
        return Engagement(army_contestant(force_a), army_contestant(force_b), seed=seed,
                          raw=u < p_win(force_a, force_b), score=_score)


def ring_run(**options) -> armies.ArmyResult:
    rs = RingRuleset()
    settings = {"seed": 3, "precision": None, "trials": 4000, "threads": 1, "search_limit": 20, **options}
    return armies.choose(rs, rs.rulings(), rs.contestants(), **settings)


def lists(army: armies.Army, entries) -> dict[str, int]:
    return {entries[i].key: n for i, n in army.counts}


def test_the_mix_is_the_ring_and_the_search_finds_the_best_army_and_its_counter():
    result = ring_run()
    shares = dict(zip([a.key for a in result.field_armies], result.shares, strict=True))
    assert shares["dud"] < 1e-6
    assert [round(shares[k], 6) for k in RING[:3]] == [pytest.approx(1 / 3)] * 3
    assert "local search" in result.best_search.text  # 34 armies, more than --search 20
    assert lists(result.best.army, result.entries) == {"rock": 2, "paper": 2}
    assert result.best.army.cost == 40 and result.best.army.unspent == 0
    assert result.best.mix.low < 0.6 < result.best.mix.high
    # the field's plain mean: against 4 rocks 0.85, papers 0.35, scissors 0.6, duds 1 (clipped)
    assert result.best.field.low < (0.85 + 0.35 + 0.6 + 1.0) / 4 < result.best.field.high
    counter, rated = result.counters[0]
    assert lists(counter, result.entries) == {"paper": 4}
    assert rated.low < 0.65 < rated.high
    assert all(c.mix.value < result.best.mix.value for c in result.runners_up)


def test_the_exhaustive_search_agrees():
    result = ring_run(search_limit=100)
    assert result.best_search.text.startswith("every one of the 34 armies")
    assert lists(result.best.army, result.entries) == {"rock": 2, "paper": 2}
    assert lists(result.counters[0][0], result.entries) == {"paper": 4}


def test_same_seed_same_armies_for_any_threads():
    one, two = ring_run(threads=1), ring_run(threads=2)
    t1, t2 = armies.tables(one), armies.tables(two)
    for a, b in ((t1.armies, t2.armies), (t1.lists, t2.lists), (t1.field, t2.field)):
        assert a.equals(b)
    assert one.engagements == two.engagements


class PrecisionRing(RingRuleset):
    """The ring whose engagements stop at a precision: as many tosses as a proportion near 1/2 needs for a
    95% half-width below it."""

    def army_engage(self, force_a, force_b, rulings, *, seed, trials=None, precision=None, threads=None):
        tosses = trials if precision is None else int(np.ceil((1.96 * 0.5 / precision) ** 2))
        return super().army_engage(force_a, force_b, rulings, seed=seed, trials=tosses, threads=threads)


def screened_runs() -> tuple[armies.ArmyResult, armies.ArmyResult]:
    """The precision ring searched at 0.02 throughout, and screened at 0.1 (97 tosses, not 2,401)."""
    rs = PrecisionRing()
    settings = {"seed": 3, "precision": 0.02, "trials": None, "threads": 1, "search_limit": 20}
    fine = armies.choose(rs, rs.rulings(), rs.contestants(), **settings)
    return fine, armies.choose(rs, rs.rulings(), rs.contestants(), **settings, search_precision=0.1)


def test_a_search_screened_at_a_coarser_precision_shows_only_what_the_page_precision_plays():
    """The searches rate the armies they try on fewer tosses; the best, the runners-up and the counters are
    played again at the page's precision, so each P(win) shown is the one a player at that precision gives
    the army (the same streams), on the page's tosses; the best army and its counter are those the
    unscreened search finds."""
    fine, screened = screened_runs()
    assert fine.search_precision is None and fine.screened == 0
    assert screened.search_precision == 0.1 and screened.screened > 0
    rs = PrecisionRing()
    page = armies.Player(rs, rs.rulings(), seed=3, precision=0.02, trials=None, threads=1)
    mix = [(a, w) for a, w in zip(screened.field_armies, screened.shares, strict=True) if w > 1e-6]
    field = screened.field_armies
    for _, army, on_mix, on_field, vs_best in armies._shown(screened):
        for got, opponents, weights in ((on_mix, [a for a, _ in mix], [w for _, w in mix]),
                                        (on_field, field, [1 / len(field)] * len(field)),
                                        (vs_best, [screened.best.army], [1.0])):
            if got is not None:
                want = page.rate_all([army], opponents, np.array(weights) / np.sum(weights))[0]
                assert (got.value, got.stderr) == pytest.approx((want.value, want.stderr), abs=1e-15)
                assert got.trials_low == got.trials_high == 2401
    assert lists(screened.best.army, screened.entries) == {"rock": 2, "paper": 2}
    assert lists(screened.counters[0][0], screened.entries) == {"paper": 4}
    # the search's own ratings are the screen's (fewer tosses) but for the engagements the page's
    # precision had played already (the field's one-entry armies), which it takes as they are
    tosses = {n for _, r in screened.best_search.ranked for n in (r.trials_low, r.trials_high)}
    assert 97 in tosses and tosses <= {97, 2401}
    assert screened.trial_range == (97, 2401)
    method = dict(armies.report(screened, provenance=[]).meta)
    assert "the searches screen armies at 0.1" in method["method"]
    assert f"{screened.screened:,} of them at the searches' 0.1" in method["engagements"]
    assert "screen" not in dict(armies.report(fine, provenance=[]).meta)["method"]


def test_a_search_precision_equal_to_the_precision_screens_nothing():
    rs = PrecisionRing()
    settings = {"seed": 3, "precision": 0.02, "trials": None, "threads": 1, "search_limit": 20}
    same = armies.choose(rs, rs.rulings(), rs.contestants(), **settings, search_precision=0.02)
    fine, _ = screened_runs()
    assert (same.search_precision, same.screened, same.engagements) == (None, 0, fine.engagements)
    pd.testing.assert_frame_equal(armies.tables(same).armies, armies.tables(fine).armies)


def test_a_search_precision_is_refused_out_of_range_or_beside_trials_alone(capsys):
    from reports import api
    from rulesets.base import OptionError

    for bad in (0, 0.7, "0.04", True):
        with pytest.raises(OptionError, match="search precision"):
            api.army("drakerys", budget=300, units=["crows", "soldiers"], precision=0.05,
                     search_precision=bad)
    with pytest.raises(OptionError, match="search precision 0.04: the run has trials and no precision"):
        api.army("drakerys", budget=300, units=["crows", "soldiers"], trials=64, search_precision=0.04)
    with pytest.raises(OptionError, match="search precision 0.01 is finer than the precision 0.05"):
        api.army("drakerys", budget=300, units=["crows", "soldiers"], precision=0.05, search_precision=0.01)
    rs = PrecisionRing()
    for settings, said in (({"precision": None, "trials": 100}, "needs a precision to screen against"),
                           ({"precision": 0.1, "trials": None}, "is finer than the precision 0.1")):
        with pytest.raises(OptionError, match=f"search precision 0.05 {said}"):
            armies.choose(rs, rs.rulings(), rs.contestants(), seed=3, threads=1, search_precision=0.05,
                          **settings)
    assert_one_line_error(capsys, ["army", "drakerys", "--search-precision", "0.7"], 2, "0.7")
    assert_one_line_error(capsys, ["army", "drakerys", "--trials", "64", "--search-precision", "0.04"], 2,
                          "search precision 0.04")


def test_kinds_limit_the_armies():
    result = ring_run(kinds=1)
    assert all(len(c.army.counts) == 1 for c in [result.best, *result.runners_up])


def test_armies_fill_the_budget():
    rs = RingRuleset()
    space = armies.Space(rs, rs.rulings(), rs.contestants(), 40.0, 3)
    every = space.enumerate(1000)
    assert len(every) == 34  # four units of four entries, at most three kinds: 35 - 1
    assert all(sum(n for _, n in c) == 4 for c in every)
    assert space.fill(((0, 1),)) == ((0, 4),)


@pytest.mark.parametrize("game, why", [
    ("uberdrakes", "a dragon's hoard is gathered in play"),
])
def test_a_game_that_plays_no_army_is_refused_with_its_rulebook_reason(capsys, game, why):
    assert_one_line_error(capsys, ["army", game], 1, f"{game}: armies of several entries are not played: ")
    assert_one_line_error(capsys, ["army", game], 1, why)


def test_the_default_ruleset_plays_no_army():
    rs = Ruleset("plain", "Plain", "none", RingRulings, "")
    assert not rs.plays_armies and RingRuleset().plays_armies
    with pytest.raises(RulesError, match="plain: armies of several entries are not played"):
        rs.army_engage([], [], RingRulings(), seed=0)


def _entries(game: str, rulings: Rulings):
    import rulesets

    rs = rulesets.get(game)
    return rs, {c.key: c for c in rs.contestants(rs.catalog_for(rs.load_catalog(), rulings))}


def test_drakerys_armies_keep_the_rarity_and_unit_limits():
    from rulesets.drakerys.rules import DrakerysRulings

    rarity = DrakerysRulings().with_assignments(["DK-budget=400", "DK-composition=copies-rarity"])
    rs, cs = _entries("drakerys", rarity)
    rs.check_army([(cs["crushers@3"], 1), (cs["crows@12"], 1)], rarity)  # Rarity 3 + 1 of the 4 allowed
    with pytest.raises(RulesError, match="5 Rarity points is more than the 4"):
        rs.check_army([(cs["crushers@3"], 1), (cs["sakhil@1"], 1)], rarity)  # 3 + 2
    rs.check_army([(cs["crushers@3"], 1), (cs["sakhil@1"], 1)], DrakerysRulings())
    with pytest.raises(RulesError, match="more than DK-budget=400"):
        rs.check_army([(cs["crows@12"], 3)], rarity)
    plenty = DrakerysRulings().with_assignments(["DK-budget=5000"])
    with pytest.raises(RulesError, match="more than the 16"):
        rs.check_army([(cs["warriors@4"], 17)], plenty)


def test_dragonbond_armies_keep_one_of_each_huge_creature_and_one_general():
    from rulesets.dragonbond.rules import DragonbondRulings

    unique = DragonbondRulings().with_assignments(["DB-composition=copies-unique"])
    rs, cs = _entries("dragonbond", unique)
    rs.check_army([(cs["great-wyrm"], 1), (cs["dragon-queen"], 1), (cs["kirin-wardens"], 2)], unique)
    with pytest.raises(RulesError, match="Huge"):
        rs.check_army([(cs["great-wyrm"], 2)], unique)
    with pytest.raises(RulesError, match="General"):
        rs.check_army([(cs["dragon-queen"], 1), (cs["blood-emperor"], 1)], unique)
    rs.check_army([(cs["dragon-queen"], 1), (cs["blood-emperor"], 1)], DragonbondRulings())


@pytest.mark.parametrize(("game", "budget", "a", "b", "costs"), [
    ("drakerys", "DK-budget=300", "crows@12", "soldiers@6", (160, 240)),
    ("dragonbond", "DB-budget=300", "bucentaur-blades", "great-wyrm", (300, 250)),
])
def test_an_army_of_one_entry_is_its_contest(game, budget, a, b, costs):
    """The same battle and metrics as the entry's equal-points contest (the force its budget buys)."""
    import importlib

    from reports.efficiency import summarize_sides

    rs = rulesets.get(game)
    rulings = rs.rulings().with_assignments([budget])
    _, cs = _entries(game, rulings)
    force = importlib.import_module(f"rulesets.{game}.contest").force
    a, b = cs[a], cs[b]
    names = [m.name for m in rs.metrics]
    alone = summarize_sides(rs.engage(a, b, rulings, seed=5, trials=64, threads=1), names)
    army = rs.army_engage([(a, force(a, rulings).units)], [(b, force(b, rulings).units)], rulings, seed=5,
                          trials=64, threads=1)
    assert (army.a.cost, army.b.cost) == costs
    for one, other in zip(alone, summarize_sides(army, names), strict=True):
        assert np.allclose(one.mean, other.mean, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("field_seed", [5, 6])
def test_an_army_search_takes_its_field_from_a_field_played_alike(field_seed):
    """`balance report` plays each game's field once, for its efficiency page and its army: the search given
    that field (same seed, trials, rulings) reports what it reports alone; a field played on other streams
    (another seed) is not taken, so the result is again the same."""
    from reports import efficiency as eff

    rulings = rulesets.get("drakerys").rulings().with_assignments(["DK-budget=300"])
    rs, cs = _entries("drakerys", rulings)
    entries = [cs["crows@12"], cs["warriors@4"], cs["soldiers@6"]]
    settings = dict(kinds=2, search_limit=12, seed=5, precision=None, trials=64, threads=1)
    alone = armies.choose(rs, rulings, entries, **settings)
    field = eff.play_field(rs, entries, rulings, seed=field_seed, precision=None, trials=64, threads=1)
    space = armies.Space(rs, rulings, entries, 300.0, 2)
    taken = armies._already_played(field, rs, rulings, 5, None, 64, space, alone.field_armies)
    assert len(taken) == (6 if field_seed == 5 else 0)
    given = armies.choose(rs, rulings, entries, **settings, played=field)
    mine, theirs = armies.tables(alone), armies.tables(given)
    for part in ("armies", "lists", "field"):
        pd.testing.assert_frame_equal(getattr(mine, part), getattr(theirs, part))
    assert given.engagements == alone.engagements
    assert (alone.taken, given.taken) == (0, len(taken))
    said = dict(armies.report(given, provenance=[]).meta)["engagements"]
    assert ("6 of them the efficiency field's" in said) == (field_seed == 5)


def test_drakerys_army_within_the_budget(capsys):
    out = ok(capsys, "army", "drakerys", "--unit", "crows", "--unit", "warriors", "--unit", "soldiers",
             "--budget", "300", "--trials", "64", "--search", "12", "--threads", "1", "--format", "csv")
    table = csv(out)
    best = table[table["role"] == "best"].iloc[0]
    assert best["cost"] <= 300 and best["cost"] + best["unspent"] == 300
    assert 0 <= best["p_win_mix"] <= 1 and best["p_win_mix_stderr"] > 0
    assert (table["role"] == "counter").sum() == 1


def test_the_command_line_defaults_are_the_module_s():
    from reports.cli import army_cmd

    assert (army_cmd.DEFAULT_KINDS, army_cmd.DEFAULT_SEARCH) == (armies.DEFAULT_KINDS, armies.DEFAULT_SEARCH)


def test_the_api_states_the_search_and_the_provenance():
    from reports import api

    t = api.army("drakerys", budget=300, units=["crows", "soldiers"], trials=64, search=10, threads=1)
    best = t.armies[t.armies["role"] == "best"].iloc[0]
    listed = t.lists[t.lists["role"] == "best"]
    assert listed["cost"].sum() == best["cost"] <= 300
    assert set(listed["key"]) <= set(t.field["key"])
    assert t.field["share"].sum() == pytest.approx(1.0)
    for frame in (t.armies, t.lists, t.field):
        assert "DK-budget=300" in frame.attrs["rulings"] and int(frame.attrs["engagements_played"]) > 0
        assert "armies played" in frame.attrs["search"]


@pytest.mark.parametrize("game", ["drakerys", "dragonbond", "warbound", "dragoborne"])
def test_the_help_example_gives_a_budget_only_where_the_game_buys_armies_from_one(game):
    from reports.cli.army_cmd import army_command

    rs = rulesets.get(game)
    example = next(line for line in army_command(rs).help.splitlines() if "Example:" in line)
    assert ("--budget" in example) == (rs.budget_ruling is not None), example
