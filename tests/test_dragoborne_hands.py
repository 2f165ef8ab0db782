"""Dragoborne opening hands, mulligans and early plays (rulesets.dragoborne.hands,
reports.dragoborne.hands_tables): the issue's numbers by hand, scipy's hypergeometric, brute force over every
hand of a small deck, and a card-by-card simulation (standard ``random``, fixed seed, 5-sigma) of the deal,
mulligan, barriers, draws, resource cards and plays (seed 001, lines 145-253)."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from fractions import Fraction as F

import pytest
from scipy.stats import hypergeom, multivariate_hypergeom

from reports.dragoborne.hands_tables import early_play_table, mulligan_table, opening_hand_table
from rulesets.base import RulesError
from rulesets.dragoborne import DragoborneRulings
from rulesets.dragoborne import hands as h

RULINGS = DragoborneRulings()
CURVE = (10, 12, 10, 10, 8)
CURVE_60 = (12, 14, 12, 12, 10)
SMALL = (3, 2, 2, 2, 2)  # 11 cards: every hand and every redraw can be listed
SIM_DECK = (5, 6, 5, 4, 4)  # 24 cards: enough for 5 turns (5 + 6 + 5 draws + 5 resources)


# --- the issue's numbers ---------------------------------------------------------------------------------


def test_issue_numbers_exact():
    dealt = h.dealt_distribution(CURVE, exact=True)
    p = h.p_holding(dealt, [0, 1])
    assert p == F(7216, 7567) == 1 - F(math.comb(28, 5), math.comb(50, 5))
    after = h.opening_distribution(CURVE, "back3+", exact=True)
    # a hand with no card of cost <= 2 sends back all five, which are shuffled in: a fresh hand
    assert h.p_holding(after, [0, 1]) == p + (1 - p) * p
    assert float(p + (1 - p) * p) == pytest.approx(0.997848, abs=1e-6)
    assert h.p_holding(h.opening_distribution(CURVE, "back3+"), [0, 1]) == pytest.approx(0.997848, abs=1e-6)
    assert sum(after.values()) == 1 and sum(dealt.values()) == 1


def test_issue_numbers_in_the_report():
    report = opening_hand_table(RULINGS)
    rows = {(r["hand"], r["cost"]): r for r in report.sections[0].table.records()}
    assert rows["dealt", "<=2"]["p_at_least_1"] == pytest.approx(7216 / 7567, abs=1e-12)
    assert rows["after back3+", "<=2"]["p_at_least_1"] == pytest.approx(0.997848, abs=1e-6)
    assert report.facts["p_cost_le_2_dealt"] == pytest.approx(0.953614, abs=1e-6)
    assert rows["dealt", "<=2"]["cards"] == 22 and rows["dealt", "5+"]["cards"] == 8


# --- scipy's hypergeometric ---------------------------------------------------------------------------------


@pytest.mark.parametrize("curve", [CURVE, CURVE_60])
def test_dealt_hand_against_scipy(curve):
    n = sum(curve)
    dealt = h.dealt_distribution(curve)
    for classes in ([0], [1], [2], [3], [4], [0, 1], [0, 1, 2], [0, 1, 2, 3]):
        k = sum(curve[i] for i in classes)
        counts = h.count_distribution(dealt, classes)
        for j in range(6):
            assert counts[j] == pytest.approx(hypergeom.pmf(j, n, k, 5), abs=1e-12), (classes, j)
        assert h.mean_holding(dealt, classes) == pytest.approx(5 * k / n, abs=1e-12)
    for profile, p in dealt.items():
        assert p == pytest.approx(multivariate_hypergeom.pmf(profile, m=list(curve), n=5), rel=1e-9)
    assert len(dealt) == 126  # every way of putting 5 cards in 5 classes (every class holds >= 5 cards)


def test_send_back_all_and_keep_all_are_the_same_hand():
    assert h.opening_distribution(CURVE, "all", exact=True) == h.dealt_distribution(CURVE, exact=True)
    assert h.opening_distribution(CURVE, "none", exact=True) == h.dealt_distribution(CURVE, exact=True)


def test_back5_plus_by_hand():
    # j cards of cost 5+ dealt are sent back; j are drawn from the 45 + j cards left, all 8 of 5+ among them
    n, k = 50, 8
    expected = F(0)
    for j in range(6):
        dealt = F(math.comb(k, j) * math.comb(n - k, 5 - j), math.comb(n, 5))
        pool = n - (5 - j)  # the deck with the j cards shuffled back; all 8 cards of 5+ are in it
        expected += dealt * F(math.comb(pool - k, j), math.comb(pool, j))
    after = h.opening_distribution(CURVE, "back5+", exact=True)
    assert h.count_distribution(after, [4])[0] == expected
    assert h.p_mulligan(CURVE, "back5+", exact=True) == (1 - F(math.comb(42, 5), math.comb(50, 5)), F(4, 5))


# --- brute force: every hand of a small deck and every redraw -----------------------------------------------


def _brute_force(curve, mulligan):
    """P(final profile) over every 5 labelled cards and every set of replacements, exact."""
    cards = [c for c, count in enumerate(curve) for _ in range(count)]
    out = Counter()
    hands = list(itertools.combinations(range(len(cards)), 5))
    for hand in hands:
        profile = tuple(sum(cards[i] == c for i in hand) for c in range(5))
        back = list(h.returned(mulligan, profile))
        kept = []
        for i in hand:  # any cards of a class will do: they are alike
            if back[cards[i]]:
                back[cards[i]] -= 1
            else:
                kept.append(i)
        pool = [i for i in range(len(cards)) if i not in kept]  # the returned cards shuffled in
        redraws = list(itertools.combinations(pool, 5 - len(kept)))
        for new in redraws:
            final = tuple(sum(cards[i] == c for i in (*kept, *new)) for c in range(5))
            out[final] += F(1, len(hands) * len(redraws))
    return dict(out)


@pytest.mark.parametrize("mulligan", list(h.MULLIGANS))
def test_mulligan_against_brute_force(mulligan):
    exact = h.opening_distribution(SMALL, mulligan, lenient=True, exact=True)
    assert exact == _brute_force(SMALL, mulligan)
    assert h.opening_distribution(SMALL, mulligan, lenient=True) == pytest.approx(exact, abs=1e-12)


def test_strategies_read_as_stated():
    assert h.returned("back3+", (1, 1, 1, 1, 1)) == (0, 0, 1, 1, 1)
    assert h.returned("back2+", (2, 1, 0, 1, 1)) == (0, 1, 0, 1, 1)
    assert h.returned("curve", (2, 1, 0, 1, 1)) == (1, 0, 0, 1, 1)
    assert h.returned("curve", (0, 3, 2, 0, 0)) == (0, 2, 1, 0, 0)
    assert h.returned("all", (2, 1, 0, 1, 1)) == (2, 1, 0, 1, 1)
    assert h.p_mulligan(CURVE, "curve", exact=True)[0] == 1  # five cards never fit one of each cost 1-3
    assert h.p_mulligan(CURVE, "back3+", exact=True) == (1 - F(math.comb(22, 5), math.comb(50, 5)), F(14, 5))
    custom = h.opening_distribution(CURVE, lambda hand: h.returned("back3+", hand), exact=True)
    assert custom == h.opening_distribution(CURVE, "back3+", exact=True)


# --- early plays --------------------------------------------------------------------------------------------


def test_resources_by_turn():
    assert [h.resources_on(t, True) for t in range(1, 6)] == [3, 4, 5, 6, 7]
    assert [h.resources_on(t, False) for t in range(1, 6)] == [4, 5, 6, 7, 8]
    assert [h.resources_on(t, True, banners=0) for t in range(1, 6)] == [0, 1, 2, 3, 4]


def test_best_play_and_discard():
    assert h.best_play((1, 1, 1, 1, 1), 3) == (3, (0, 0, 1, 0, 0))  # one card of 3 before 1 + 2
    assert h.best_play((1, 2, 0, 0, 0), 4) == (4, (0, 2, 0, 0, 0))  # 2 + 2 beats 1 + 2
    assert h.best_play((1, 0, 1, 1, 0), 4) == (4, (0, 0, 0, 1, 0))
    assert h.best_play((0, 0, 0, 1, 1), 3) == (0, (0, 0, 0, 0, 0))
    assert h.best_play((2, 0, 1, 0, 1), 7) == (7, (2, 0, 0, 0, 1))
    assert h.discard_to_limit((2, 2, 2, 2, 2)) == (2, 2, 2, 1, 0)
    assert h.discard_to_limit((3, 0, 0, 0, 0)) == (3, 0, 0, 0, 0)


@pytest.mark.parametrize("curve", [CURVE, CURVE_60])
def test_first_turn_against_scipy(curve):
    n = sum(curve)
    # no mulligan: the hand on turn 1 is 6 cards, uniform; a card of cost <= R in it
    for first, banners in ((True, 3), (False, 3), (True, 1), (False, 0)):
        r = h.resources_on(1, first, banners)
        k = sum(curve[i] for i in h.classes_up_to(r))
        turn = h.early_play(curve, "none", first=first, banners=banners)[0]
        assert turn.p_play == pytest.approx(1 - hypergeom.pmf(0, n, k, 6), abs=1e-12)
        assert turn.mean_hand == pytest.approx(6, abs=1e-12)
    assert h.early_play(curve, "back3+", first=True, banners=0)[0].p_play == 0


def _p_full_turn_1(curve, resources):
    """P(some cards of a uniform 6-card hand cost exactly ``resources``): turn 1 without a mulligan, by
    multivariate hypergeometric over the hand's profile and subset sums (no call into rulesets)."""
    n, total = sum(curve), F(0)
    for prof in itertools.product(*(range(min(k, 6) + 1) for k in curve)):
        if sum(prof) != 6:
            continue
        sums = {0}
        for cost, count in zip((1, 2, 3, 4, 5), prof, strict=True):
            sums = {s + cost * x for s in sums for x in range(count + 1)}
        if resources in sums:
            total += F(math.prod(math.comb(k, x) for k, x in zip(curve, prof, strict=True)), math.comb(n, 6))
    return total


@pytest.mark.parametrize("banners", [0, 1, 2, 3, 4])
def test_p_full_turn_1_every_banner_count(banners):
    # "the player who starts first skips this step for their first turn" (line 194): with no banners the
    # first player has 0 resources on turn 1, and spending 0 of 0 is every resource (line 202)
    for first in (True, False):
        r = h.resources_on(1, first, banners)
        turn = h.early_play(CURVE, "none", first=first, banners=banners, exact=True)[0]
        assert turn.p_full == _p_full_turn_1(CURVE, r), (banners, first)
    assert h.early_play(CURVE, "back3+", first=True, banners=0, exact=True)[0].p_full == 1
    assert h.early_play(CURVE, "back3+", first=True, banners=0)[0].p_play == 0
    table = early_play_table(RULINGS, banners=0).sections[0].table
    assert table["p_full"][0] == 1 and table["resources"][0] == 0


def test_exact_and_float_agree():
    exact = h.early_play(SIM_DECK, "curve", first=False, lenient=True, exact=True)
    floats = h.early_play(SIM_DECK, "curve", first=False, lenient=True)
    for a, b in zip(exact, floats, strict=True):
        assert isinstance(a.p_full, F)
        for name in ("mean_hand", "p_play", "p_full", "mean_spent", "mean_spent_total"):
            assert float(getattr(a, name)) == pytest.approx(getattr(b, name), abs=1e-12)
    assert exact[0].mean_hand == 6


def _simulate(curve, mulligan, first, banners, trials, seed):
    """The game's first five turns card by card: deal, mulligan, barriers, then each turn draw, take a
    resource card (not the first player's first turn), play the costliest total, discard to 7."""
    rng = random.Random(seed)
    cards = [c for c, count in enumerate(curve, start=1) for _ in range(count)]
    sums = [[0, 0, 0] for _ in range(5)]  # p_play, p_full, spent
    for _ in range(trials):
        deck = cards[:]
        rng.shuffle(deck)
        hand, deck = deck[:5], deck[5:]
        back = list(h.returned(mulligan, tuple(hand.count(c) for c in range(1, 6))))
        kept = []
        for c in hand:
            if back[c - 1]:
                back[c - 1] -= 1
                deck.append(c)
            else:
                kept.append(c)
        rng.shuffle(deck)
        hand, deck = kept + deck[:5 - len(kept)], deck[5 - len(kept):]
        deck = deck[6:]  # barriers
        resources = banners
        for t in range(5):
            hand.append(deck.pop(0))
            if t > 0 or not first:
                deck.pop(0)
                resources += 1
            best = (0, 0, ())
            for size in range(1, len(hand) + 1):
                for play in itertools.combinations(sorted(hand, reverse=True), size):
                    if sum(play) <= resources:
                        best = max(best, (sum(play), -size, play))
            spent, _, play = best
            for c in play:
                hand.remove(c)
            while len(hand) > 7:
                hand.remove(max(hand))
            sums[t][0] += spent > 0
            sums[t][1] += spent == resources
            sums[t][2] += spent
    return [[s / trials for s in row] for row in sums]


@pytest.mark.parametrize(("mulligan", "first", "banners"),
                         [("back3+", True, 3), ("curve", False, 3), ("none", True, 0), ("back2+", False, 0)])
def test_early_play_against_simulation(mulligan, first, banners):
    trials = 4000
    sim = _simulate(SIM_DECK, mulligan, first, banners, trials, seed=20261122)
    exact = h.early_play(SIM_DECK, mulligan, first=first, banners=banners, lenient=True)
    for t, (row, turn) in enumerate(zip(sim, exact, strict=True), start=1):
        for got, p in ((row[0], turn.p_play), (row[1], turn.p_full)):
            sigma = math.sqrt(max(p * (1 - p), 1 / trials) / trials)
            assert abs(got - p) <= 5 * sigma, (t, got, p)
        # spent is at most resources: its variance is at most (resources / 2)^2
        assert abs(row[2] - turn.mean_spent) <= 5 * (turn.resources / 2) / math.sqrt(trials), t


# --- bad input ----------------------------------------------------------------------------------------------


def test_bad_curves():
    with pytest.raises(RulesError, match=r"10,12,10,10,9 sums to 51 cards, not the deck's 50"):
        h.validate_curve((10, 12, 10, 10, 9), 50)
    with pytest.raises(RulesError, match=r"cost 2 is negative \(-1\)"):
        h.validate_curve((10, -1, 10, 10, 8), 37, lenient=True)
    with pytest.raises(RulesError, match=r"deck 40 has fewer than the 50 cards"):
        h.validate_curve((8, 8, 8, 8, 8), 40)
    assert h.validate_curve((8, 8, 8, 8, 8), 40, lenient=True) == (8, 8, 8, 8, 8)
    with pytest.raises(RulesError, match=r"curve 10,12,10,18 has 4 counts"):
        h.validate_curve((10, 12, 10, 18), 50)
    with pytest.raises(RulesError, match=r"2\.5"):
        h.validate_curve((10, 12, 10, 10, 2.5), lenient=True)
    with pytest.raises(RulesError, match=r"deck 3 has fewer cards than the 5-card hand"):
        h.dealt_distribution((1, 1, 1, 0, 0), lenient=True)
    with pytest.raises(RulesError, match=r"deck 40"):
        opening_hand_table(RULINGS, (8, 8, 8, 8, 8), 40)
    with pytest.raises(RulesError, match=r"sums to 60 cards, not the deck's 50"):
        early_play_table(RULINGS, CURVE_60)
    with pytest.raises(RulesError, match=r"mulligan 'some' is not one of none, back2\+"):
        opening_hand_table(RULINGS, mulligan="some")
    with pytest.raises(RulesError, match=r"deck 19 is too small for 5 turns: .* take 20"):
        h.early_play((4, 4, 4, 4, 3), lenient=True)
    assert len(h.early_play((4, 4, 4, 4, 4), lenient=True)) == 5


# --- the reports -------------------------------------------------------------------------------------------


def test_reports_follow_the_conventions():
    for report in (opening_hand_table(RULINGS), mulligan_table(RULINGS, CURVE_60, 60),
                   early_play_table(RULINGS, turns=3)):
        meta = dict(report.meta)
        assert meta["ruleset"] == "dragoborne (seed 001)" and meta["method"] == "exact"
        assert meta["rulings"] == RULINGS.describe()
        curve = CURVE_60 if meta["deck"] == "60 cards" else CURVE
        assert meta["curve"].startswith(",".join(map(str, curve)))
        assert any("line 172" in n for n in report.notes)
        for section in report.sections:
            for name in section.table.names:
                values = section.table[name]
                if name.startswith("p_"):
                    assert all(0 <= v <= 1 for v in values), name
    early = early_play_table(RULINGS, turns=3).sections[0].table
    assert early["resources"] == [3, 4, 5, 4, 5, 6]
    mull = {r["mulligan"]: r for r in mulligan_table(RULINGS, play=False).sections[0].table.records()}
    assert mull["back3+"]["p_cost_le_2"] == pytest.approx(0.997848, abs=1e-6)
    assert mull["none"]["mean_cost"] == pytest.approx(5 * (10 + 24 + 30 + 40 + 40) / 50, abs=1e-12)
    assert "spent_first" not in mull["none"]


def test_sixty_card_timing(record_property):
    """Measured, not asserted: the opening-hand table of a 60-card deck (target: under 50 ms)."""
    start = time.perf_counter()
    report = opening_hand_table(RULINGS, CURVE_60, 60)
    ms = 1000 * (time.perf_counter() - start)
    record_property("opening_hand_60_ms", round(ms, 2))
    print(f"opening-hand table, 60 cards: {ms:.1f} ms")
    assert len(report.sections[0].table.rows()) == 16
