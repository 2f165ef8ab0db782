"""UberDrakes' small chance tables (rulesets.uberdrakes.chance, reports.uberdrakes.chance_tables): turn
order (seed 003, lines 55-57), Caves (215, 859) and the Ancient Urn (756). Hand arithmetic, brute force over
every die, value iteration, Monte Carlo at a fixed seed, and icepool."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction as F

import icepool
import pytest

from reports.uberdrakes.chance_tables import caves_table, turn_order_table, urn_table
from reports.uberdrakes.tables import RULESET
from rulesets.uberdrakes.chance import (
    cave_entry,
    cave_total,
    dice_pmf,
    mean,
    p_at_least,
    p_urn_pays,
    seat_top_ties,
    top_ties,
    turn_order,
    turn_order_rows,
    urn_magic,
    urn_spells,
)
from rulesets.uberdrakes.rules import UberDrakesRulings

ONE_DIE = UberDrakesRulings()
TWO_D6 = UberDrakesRulings(turn_order_ties="2d6")
CAVES_3 = UberDrakesRulings(caves="3")
TIES = [ONE_DIE, TWO_D6]


# --- turn order: by hand --------------------------------------------------------------------------------


def test_two_players_by_hand():
    # a tie of two 2d6: the sum of the squares of 1,2,3,4,5,6,5,4,3,2,1 over 36^2 = 146/1296
    assert dice_pmf(2)[7] == F(6, 36)
    for r in TIES:
        t = turn_order(2, r)
        assert t.p_tie == F(146, 1296) == F(73, 648)
        assert t.tied == (F(575, 648), F(73, 648)) and t.p_settled == F(575, 648)
        assert t.p_seat_first == F(1, 2)
    # one die each: a round ties again with 1/6, so 6/5 rounds from a tie, 2 dice a round
    one = turn_order(2, ONE_DIE)
    assert one.rounds_if_tied == F(6, 5)
    assert one.expected_rounds == F(73, 648) * F(6, 5) == F(73, 540)
    assert one.expected_extra_dice == 2 * F(73, 540) == F(73, 270)
    # 2d6 each: a round ties again with 73/648, so 648/575 rounds from a tie, 4 dice a round
    two = turn_order(2, TWO_D6)
    assert two.rounds_if_tied == F(648, 575)
    assert two.expected_rounds == F(73, 575)
    assert two.expected_extra_dice == 4 * F(73, 575) == F(292, 575)


def test_three_players_one_die_by_hand():
    # first roll: all three tie with sum p^3 = 666/46656; any tie with 839/5184 (brute force below)
    t = turn_order(3, ONE_DIE)
    all_three = F(1 + 8 + 27 + 64 + 125 + 216 + 125 + 64 + 27 + 8 + 1, 36**3)
    assert all_three == F(666, 46656) and t.tied[2] == all_three
    two_top = t.p_tie - all_three
    # a one-die round among 3: all tie 6/216 = 1/36; two share the top 3 * (1/36) * (0+1+..+5)/6 = 5/24
    assert top_ties(3, dice_pmf(1)) == [F(55, 72), F(5, 24), F(1, 36)]
    # rounds from 3 tied: R3 = (1 + 5/24 * 6/5) / (1 - 1/36) = 9/7; dice: D3 = (3 + 5/24 * 12/5) * 36/35
    assert t.expected_rounds == two_top * F(6, 5) + all_three * F(9, 7) == F(197, 1008)
    assert t.expected_extra_dice == two_top * F(12, 5) + all_three * F(18, 5)


def test_every_table_size_and_both_rulings_invariants():
    for r in TIES:
        rows = turn_order_rows(r)
        assert [t.players for t in rows] == [2, 3, 4, 5, 6]
        for t in rows:
            assert len(t.tied) == t.players and sum(t.tied) == 1
            # a seat's own chain sums to 1/n: no symmetry was used to get it
            assert t.p_seat_first == F(1, t.players)
            assert sum(j / F(t.players) * p for j, p in enumerate(t.tied, start=1)) == sum(
                seat_top_ties(t.players, dice_pmf(2)))
            # every tie-break round has at least two players rolling
            assert t.expected_extra_dice >= 2 * t.tie_break_dice * t.expected_rounds > 0
            assert t.rounds_if_tied > 1
        assert all(a.p_tie < b.p_tie for a, b in itertools.pairwise(rows))
    # the first roll does not depend on the ruling; the tie-breaks do
    for a, b in zip(turn_order_rows(ONE_DIE), turn_order_rows(TWO_D6), strict=True):
        assert a.tied == b.tied
        assert a.expected_rounds > b.expected_rounds  # 2d6 ties less often than one die
        assert a.expected_extra_dice < b.expected_extra_dice  # but rolls twice the dice
    with pytest.raises(ValueError, match="at least 2 players"):
        turn_order(1, ONE_DIE)


# --- turn order: brute force over every die, and value iteration ----------------------------------------


def _round(k: int, dice: int) -> tuple[Counter, Counter]:
    """Every roll of every die of ``k`` players rolling ``dice`` d6 each: (count of j tied at the top,
    count of seat 0 among j tied at the top)."""
    ties, seat = Counter(), Counter()
    for faces in itertools.product(range(1, 7), repeat=k * dice):
        totals = [sum(faces[i * dice:(i + 1) * dice]) for i in range(k)]
        j = totals.count(max(totals))
        ties[j] += 1
        if totals[0] == max(totals):
            seat[j] += 1
    return ties, seat


def _iterate(step: dict[int, dict[int, float]], cost: dict[int, float], sweeps: int = 400
             ) -> dict[int, float]:
    """value(k) = cost(k) + sum_j step[k][j] value(j), value(1) = 0, by repeated substitution."""
    value = {k: 0.0 for k in step} | {1: 0.0}
    for _ in range(sweeps):
        value = {k: cost[k] + sum(p * value[j] for j, p in step[k].items()) for k in step} | {1: 0.0}
    return value


@pytest.mark.parametrize("r", TIES, ids=["one-die", "2d6"])
def test_three_players_by_brute_force(r):
    dice = {"one-die": 1, "2d6": 2}[r.turn_order_ties]
    first_ties, first_seat = _round(3, 2)
    total = 36**3
    t = turn_order(3, r)
    assert t.tied == tuple(F(first_ties[j], total) for j in (1, 2, 3))
    assert t.p_tie == F(839, 5184)
    assert seat_top_ties(3, dice_pmf(2)) == [F(first_seat[j], total) for j in (1, 2, 3)]
    # the tie-break chain from brute-forced rounds among 2 and 3, solved by value iteration
    step, seat_step = {}, {}
    for k in (2, 3):
        ties, seat = _round(k, dice)
        n = 6 ** (k * dice)
        step[k] = {j: c / n for j, c in ties.items() if j > 1}
        seat_step[k] = {j: c / n for j, c in seat.items()}
    rounds = _iterate(step, {2: 1.0, 3: 1.0})
    extra = _iterate(step, {2: 2.0 * dice, 3: 3.0 * dice})
    assert abs(sum(first_ties[j] / total * rounds[j] for j in (2, 3)) - t.expected_rounds) < 1e-12
    assert abs(sum(first_ties[j] / total * extra[j] for j in (2, 3)) - t.expected_extra_dice) < 1e-12
    # P(seat 0 first): win(1) = 1, win(k) = sum_j P(seat 0 among j at the top) win(j)
    win = {1: 1.0, 2: 0.0, 3: 0.0}
    for _ in range(400):
        win = {1: 1.0} | {k: sum(p * win[j] for j, p in seat_step[k].items()) for k in (2, 3)}
    seat_first = sum(first_seat[j] / total * win[j] for j in (1, 2, 3))
    assert abs(seat_first - 1 / 3) < 1e-12 and abs(seat_first - t.p_seat_first) < 1e-12


# --- turn order: Monte Carlo, the rulebook's procedure die by die ---------------------------------------


def _play(rng: random.Random, players: int, dice: int) -> tuple[int, int, int, int]:
    """(first seat, tie on the first roll, tie-break rounds, tie-break dice) of one game's turn order."""
    def roll(seats, count):
        return {s: sum(rng.randint(1, 6) for _ in range(count)) for s in seats}

    totals = roll(range(players), 2)
    tied = [s for s, v in totals.items() if v == max(totals.values())]
    tie, rounds, rolled = int(len(tied) > 1), 0, 0
    while len(tied) > 1:
        rounds, rolled = rounds + 1, rolled + len(tied) * dice
        totals = roll(tied, dice)
        tied = [s for s, v in totals.items() if v == max(totals.values())]
    return tied[0], tie, rounds, rolled


@pytest.mark.parametrize("r", TIES, ids=["one-die", "2d6"])
def test_four_players_monte_carlo(r):
    rng = random.Random(20240603)
    n, players = 40_000, 4
    games = [_play(rng, players, {"one-die": 1, "2d6": 2}[r.turn_order_ties]) for _ in range(n)]
    t = turn_order(players, r)
    for column, want in ((lambda g: g[0] == 0, t.p_seat_first), (lambda g: g[1], t.p_tie),
                         (lambda g: g[2], t.expected_rounds), (lambda g: g[3], t.expected_extra_dice)):
        xs = [float(column(g)) for g in games]
        m = sum(xs) / n
        se = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
        assert abs(m - float(want)) < 5 * se, (m, float(want), se)


# --- Caves ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("roosting", [False, True])
@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5])
def test_cave_totals_match_icepool(rounds, roosting):
    ice = rounds @ (icepool.d6 + (3 if roosting else 0))
    ours = cave_total(ONE_DIE, rounds, roosting)
    assert set(ours) == set(ice.outcomes())
    assert max(abs(float(p) - float(ice.probability(v))) for v, p in ours.items()) < 1e-12
    assert mean(ours) == F(7 * rounds, 2) + (3 * rounds if roosting else 0) == ice.mean()
    for price in range(1, 13):
        assert abs(float(p_at_least(ours, price)) - float(ice.probability(">=", price))) < 1e-12


def test_caves_by_hand_and_the_fixed_ruling():
    assert cave_entry(ONE_DIE) == {v: F(1, 6) for v in range(1, 7)}
    assert cave_entry(ONE_DIE, roosting=True) == {v: F(1, 6) for v in range(4, 10)}
    # two visits: 21 of the 36 pairs of dice reach 7 or more
    assert p_at_least(cave_total(ONE_DIE, 2), 7) == F(21, 36)
    assert p_at_least(cave_total(ONE_DIE, 3), 8) == 1 - F(35, 216)  # 3..7 on 3d6: 1+3+6+10+15 = 35
    assert cave_entry(CAVES_3) == {3: F(1)} and cave_entry(CAVES_3, roosting=True) == {6: F(1)}
    assert cave_total(CAVES_3, 4) == {12: F(1)} and cave_total(CAVES_3, 5, roosting=True) == {30: F(1)}
    assert cave_total(ONE_DIE, 0) == {0: F(1)}
    with pytest.raises(ValueError, match="0 or more"):
        cave_total(ONE_DIE, -1)


# --- Ancient Urn ----------------------------------------------------------------------------------------


def test_urn_magic_and_the_combat_spells():
    assert urn_magic() == {v: F(1, 6) for v in range(1, 7)} and mean(urn_magic()) == F(7, 2)
    for cost in range(0, 9):
        assert abs(float(p_urn_pays(cost)) - float(icepool.d6.probability(">=", cost))) < 1e-12
    paid = {s.key: s for s in urn_spells()}
    assert {k: s.p_pays for k, s in paid.items()} == {
        "fire-breath": F(1, 2), "acid-rain": F(1, 2), "deep-freeze": F(2, 3), "camouflage": F(5, 6),
        "sandstorm": F(0), "windblast": F(2, 3), "take-to-the-skies": F(1, 3), "thunderbolt": F(2, 3),
        "supercharge": F(1, 6)}
    assert paid["fire-breath"].cost == 4 and paid["fire-breath"].dragon == "Fire Dragon"
    # a cost printed as a formula (Plate Armor X + 1) or a range is not a fixed cost; Heat Wave has no
    # combat effect
    assert not {"plate-armor", "rocket-power", "furnace", "heat-wave"} & set(paid)


# --- the Reports ----------------------------------------------------------------------------------------


def _meta(report) -> dict[str, str]:
    return dict(report.meta)


def test_turn_order_report():
    for r in TIES:
        report = turn_order_table(r)
        meta = _meta(report)
        assert meta["ruleset"] == RULESET and meta["method"] == "exact"
        assert f"UD-turn-order-ties={r.turn_order_ties}" in meta["rulings"]
        assert f"UD-turn-order-ties={r.turn_order_ties}" in meta["tie-breaks"]
        assert [s.name for s in report.sections] == ["turn_order", "tied"]
        table = report.sections[0].table
        assert table.names == ["players", "p_tie", "p_settled", "expected_rounds", "rounds_if_tied",
                               "expected_extra_dice", "p_seat_first"]
        assert list(table["players"]) == [2, 3, 4, 5, 6]
        assert [float(x) for x in table["expected_rounds"]] == [float(t.expected_rounds)
                                                              for t in turn_order_rows(r)]
        tied = report.sections[1].table
        assert len(tied["players"]) == 2 + 3 + 4 + 5 + 6
        assert any("line 55" in n for n in report.notes)
    one, two = (turn_order_table(r).sections[0].table for r in TIES)
    assert abs(one["expected_rounds"][0] - 73 / 540) < 1e-15
    assert abs(two["expected_rounds"][0] - 73 / 575) < 1e-15


def test_caves_report():
    report = caves_table(ONE_DIE)
    meta = _meta(report)
    assert meta["ruleset"] == RULESET and meta["method"] == "exact" and "UD-caves=1d6" in meta["caves"]
    assert "UD-caves=1d6" in meta["rulings"] and "examples.toml" in meta["catalog"]
    assert [s.name for s in report.sections] == ["entry", "rounds", "afford"]
    afford = report.sections[2].table
    assert afford.names == ["price", "roosting", "items", *(f"p_after_{n}" for n in range(1, 6))]
    row = afford.rows()[list(zip(afford["price"], afford["roosting"], strict=True)).index((7, False))]
    assert row[2] == "Dimensional Gem" and row[3] == 0 and abs(row[4] - 21 / 36) < 1e-15
    assert "Gemstones" not in " ".join(afford["items"])
    assert any("illustrative" in n for n in report.notes)
    fixed = caves_table(CAVES_3)
    assert "UD-caves=3" in _meta(fixed)["caves"] and "line 859" in _meta(fixed)["caves"]
    entry = fixed.sections[0].table
    assert list(entry["coins"]) == [3, 6] and list(entry["probability"]) == [1.0, 1.0]


def test_urn_report():
    report = urn_table(TWO_D6)
    meta = _meta(report)
    assert meta["ruleset"] == RULESET and meta["method"] == "exact" and meta["E[Magic]"].startswith("7/2")
    assert "UD-turn-order-ties=2d6" in meta["rulings"] and "line 756" in meta["ancient urn"]
    assert [s.name for s in report.sections] == ["magic", "spells"]
    spells = report.sections[1].table
    assert spells.names == ["dragon", "spell", "cost", "p_pays"]
    pays = dict(zip(spells["spell"], spells["p_pays"], strict=True))
    assert pays["Fire Breath"] == 0.5 and abs(pays["Windblast"] - 2 / 3) < 1e-15 and pays["Acid Rain"] == 0.5
    assert list(report.sections[0].table["p_at_least"])[3] == 0.5
