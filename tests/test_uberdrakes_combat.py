"""The UberDrakes counterattack game, solved exactly: the rulebook's cases (RULES.md §4), damage and blood
points by hand, the rulings that change it, and a plain-Python twin that plays the greedy policy die by
die."""

from __future__ import annotations

import random
from fractions import Fraction as F

import numpy as np
import pytest

from rulesets.base import RulesError
from rulesets.uberdrakes.combat import Combat, Kit, solve, solve_from
from rulesets.uberdrakes.exact import Side, rolloff
from rulesets.uberdrakes.rules import UberDrakesRulings

R = UberDrakesRulings()
OPTIMAL = UberDrakesRulings(policy="optimal")


def exactly(x: float, want: F) -> bool:
    return abs(x - float(want)) < 1e-12


def p_2d6_above(d: int) -> F:
    return F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > d), 36)


@pytest.mark.parametrize("d", range(1, 7))
def test_behind_by_d_with_die_items(d):
    """RULES.md: the defender behind by d with one die item wins (6 - d)/6 (it must get above); the
    initiator (7 - d)/6 (it wins ties); the defender with two items P(2d6 > d), one die at a time."""
    assert exactly(solve_from(10, 10 - d, Combat(defender_kit=Kit(lances=1))).p_win[1], F(6 - d, 6))
    assert exactly(solve_from(10 - d, 10, Combat(initiator_kit=Kit(lances=1))).p_win[0], F(7 - d, 6))
    assert exactly(solve_from(10, 10 - d, Combat(defender_kit=Kit(lances=2))).p_win[1], p_2d6_above(d))
    # the same with Fire Breath (a die for 4 Magic) and with a Hide Shield
    assert exactly(solve_from(10, 10 - d, Combat(defender_kit=Kit(magic=4, fire_breath=True))).p_win[1],
                   F(6 - d, 6))
    assert exactly(solve_from(10, 10 - d, Combat(defender_kit=Kit(shields=1))).p_win[1], F(6 - d, 6))


def test_the_metal_defender_greedy_and_optimal():
    """RULES.md: a Metal defender behind by 1 with 10 Magic against one Lance: greedy Plate Armor X = 2
    (just enough) loses to the Lance (the initiator wins ties); optimal wins surely (X = 8, the least that
    does: +8 against a die of at most 6, 9 Magic; RULES.md's X = 9 also wins, for one more Magic)."""
    c = Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(magic=10, plate_armor=True))
    greedy, optimal = solve_from(10, 9, c), solve_from(10, 9, c, OPTIMAL)
    assert exactly(greedy.p_win[1], F(0)) and greedy.magic == (0.0, 3.0)
    assert greedy.items == pytest.approx((1.0, 0.0))
    assert exactly(optimal.p_win[1], F(1)) and optimal.magic == (0.0, 9.0)
    # the beaten initiator keeps its Lance: spending it cannot help (win-then-cost)
    assert optimal.items == (0.0, 0.0)
    # blood points: greedy, the initiator wins against 9 + 2 = 11 (the loser keeps half of its own total);
    # optimal, the defender wins against the initiator's 10
    assert greedy.blood_points == pytest.approx((11.0, 5.0))
    assert optimal.blood_points == pytest.approx((5.0, 10.0))


def test_damage_and_its_exceptions():
    """Damage (lines 325-331): the winner deals one instance, none when it used a Hide Shield or Plate
    Armor or the loser made a Ranged attack, unless the winner cast Windblast (two)."""
    plain = solve_from(10, 5, Combat())  # the defender has nothing: it concedes
    assert plain.p_win == (1.0, 0.0) and plain.damage == (1.0, 0.0)
    # the defender behind by 1 wins with a Hide Shield die of 2+ (5/6) but deals no damage
    shield = solve_from(10, 9, Combat(defender_kit=Kit(shields=1)))
    assert exactly(shield.p_win[1], F(5, 6)) and shield.damage[1] == 0.0
    assert exactly(shield.damage[0], F(1, 6))
    # ... unless it cast Windblast: double damage
    blast = solve_from(10, 9, Combat(defender_kit=Kit(shields=1, magic=3, windblast=True)))
    assert exactly(blast.damage[1], F(5, 6) * 2)
    # Plate Armor: the winner deals no damage
    plate = solve_from(10, 9, Combat(defender_kit=Kit(magic=3, plate_armor=True)))
    assert plate.p_win[1] == 1.0 and plate.damage == (0.0, 0.0) and plate.magic == (0.0, 3.0)
    # a ranged attacker that loses deals nothing and takes nothing; that wins deals damage (356)
    ranged = solve_from(9, 10, Combat(ranged=True))
    assert ranged.p_win == (0.0, 1.0) and ranged.damage == (0.0, 0.0)
    assert solve_from(10, 9, Combat(ranged=True)).damage == (1.0, 0.0)
    # no Lance in ranged combat (655), no Hide Shield for the ranged attacker (362)
    assert solve_from(9, 10, Combat(ranged=True, initiator_kit=Kit(lances=3, shields=2))).p_win[0] == 0.0


def test_rulings_that_change_the_game():
    # UD-counter-ties=strict: the initiator behind by d must get above too: (6 - d)/6
    strict = UberDrakesRulings(counter_ties="strict")
    assert exactly(solve_from(8, 10, Combat(initiator_kit=Kit(lances=1)), strict).p_win[0], F(4, 6))
    # UD-reply-spells=false: the side replying to a counterattack may use items only
    c = Combat(initiator_kit=Kit(magic=4, fire_breath=True), defender_kit=Kit(magic=3, plate_armor=True))
    with_spells = solve_from(10, 9, c)  # plate +2, then the initiator's Fire Breath: a die of 1+ ties back
    assert with_spells.p_win[0] == pytest.approx(1.0)
    no_spells = solve_from(10, 9, c, UberDrakesRulings(reply_spells=False))
    assert no_spells.p_win[1] == pytest.approx(1.0)
    # UD-shield-ranged=bars-lance: after the defender's Hide Shield the initiator may not Lance
    c = Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(shields=1))
    damage_only = solve_from(10, 4, c)  # the defender needs 7+: impossible; it still tries (greedy)
    assert damage_only.p_win[0] == pytest.approx(1.0) and damage_only.items[1] == pytest.approx(1.0)
    barred = solve_from(10, 9, c, UberDrakesRulings(shield_ranged="bars-lance"))
    open_ = solve_from(10, 9, c)
    assert barred.p_win[1] > open_.p_win[1]
    # UD-bp-total=rolloff: the loser's rolloff total pays, not its final one
    c = Combat(defender_kit=Kit(magic=3, plate_armor=True))
    assert solve_from(10, 9, c).blood_points == pytest.approx((5.0, 10.0))
    by_rolloff = UberDrakesRulings(bp_total="rolloff")
    assert solve_from(10, 9, c, by_rolloff).blood_points == pytest.approx((5.0, 10.0))
    g = solve_from(10, 9, Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(magic=3, plate_armor=True)))
    rolloff_paid = solve_from(10, 9, Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(magic=3,
                                                                                            plate_armor=True)),
                              UberDrakesRulings(bp_total="rolloff"))
    assert g.blood_points == pytest.approx((11.0, 5.0))
    assert rolloff_paid.blood_points == pytest.approx((9.0, 4.0))


def test_combat_bonuses_are_never_negative():
    with pytest.raises(RulesError, match="below 0"):
        Combat(Side(0, 0), Side(0, -1))


def test_a_whole_combat_without_resources_is_the_rolloff():
    c = Combat(Side(1, 0), Side(0, 2))
    out = solve(c)
    assert out.p_win[0] == pytest.approx(rolloff(Side(1, 0), Side(0, 2)).p_win, abs=1e-14)
    assert out.spend == (0.0, 0.0)


def test_conceding_without_rolling():
    """An unrolled concession (line 313): two instances of damage, four with the winner's Windblast
    (UD-windblast-stack=multiply) or two (cap-2); the loser's total is its bonuses (UD-concede-total) or 0.
    It gains the defender nothing under any objective (rolling then conceding costs nothing and spares it
    the double damage), so the optimal defender always rolls, even when it cannot win."""
    from rulesets.uberdrakes.combat import Plan, _setup, _Solver

    def unrolled(combat, rulings, blast=False):
        chosen = (Plan(windblast=blast), Plan())
        return _Solver(combat, _setup(combat, chosen, rulings), rulings).conceded_unrolled(32)

    c = Combat(Side(0, 30), Side(0, 3), defender_kit=Kit(lances=2))
    v = unrolled(c, OPTIMAL)
    assert v[0] == 1.0 and v[3] == 2.0 and v[11:13] == (3.0, 1.0)
    blast = Combat(Side(0, 30), Side(0, 3), Kit(magic=3, windblast=True))
    assert unrolled(blast, OPTIMAL, True)[3] == 4.0
    capped = UberDrakesRulings(policy="optimal", windblast_stack="cap-2")
    assert unrolled(blast, capped, True)[3] == 2.0
    assert unrolled(c, UberDrakesRulings(concede_total="zero"))[11:13] == (0.0, 0.0)
    out = solve(c, OPTIMAL)
    assert out.p_concede_unrolled == 0.0 and out.p_win[0] == pytest.approx(1.0)
    assert out.damage == pytest.approx((1.0, 0.0)) and out.items == pytest.approx((0.0, 0.0))
    greedy = solve(c)  # greedy spends both Lances before it concedes
    assert greedy.p_concede_unrolled == 0.0 and greedy.items == pytest.approx((0.0, 2.0))


# --- a plain-Python twin of the greedy policy --------------------------------------------------------------

def _greedy_twin(rng: random.Random, ti: int, td: int, kits: tuple[dict, dict]) -> tuple[int, int, int]:
    """One combat from the rolloff totals, greedy, die by die (UD defaults): (winner, blood points of the
    initiator, of the defender). Lances and shields cost 1, Plate Armor X + 1 with X just enough."""
    kits = [dict(k) for k in kits]
    totals = [ti, td]
    mover = 1 if ti >= td else 0

    def ahead(me: int) -> bool:
        return totals[me] > totals[1 - me] or (me == 0 and totals[0] == totals[1])

    while True:
        k = kits[mover]
        need = totals[1 - mover] - totals[mover] + (0 if mover == 0 else 1)
        if k.get("lances", 0):
            k["lances"] -= 1
            totals[mover] += int(rng.random() * 6) + 1
        elif k.get("plate") and k.get("magic", 0) >= 2:
            x = min(need, k["magic"] - 1)
            k["plate"] = False
            k["magic"] -= x + 1
            totals[mover] += x
        else:
            winner = 1 - mover
            loser_total = totals[mover]
            bp = [0, 0]
            bp[winner], bp[mover] = loser_total, loser_total // 2
            return winner, bp[0], bp[1]
        if ahead(mover):
            mover = 1 - mover


def test_the_greedy_game_against_its_twin():
    """20,000 combats played die by die, greedy, from each rolloff pair of a small combat: P(win) and mean
    blood points agree with the exact program (z < 5)."""
    kits = ({"lances": 2}, {"lances": 1, "magic": 6, "plate": True})
    c = Combat(Side(0, 1), Side(0, 0), Kit(lances=2), Kit(lances=1, magic=6, plate_armor=True))
    exact = solve(c)
    rng = random.Random(5)
    n = 20_000
    wins, bp0, bp1 = np.zeros(n), np.zeros(n), np.zeros(n)
    for t in range(n):
        ti = sum(int(rng.random() * 6) + 1 for _ in range(2)) + 1
        td = sum(int(rng.random() * 6) + 1 for _ in range(2))
        w, a, b = _greedy_twin(rng, ti, td, kits)
        wins[t], bp0[t], bp1[t] = w == 0, a, b
    for sample, want in ((wins, exact.p_win[0]), (bp0, exact.blood_points[0]), (bp1, exact.blood_points[1])):
        z = (sample.mean() - want) / (sample.std(ddof=1) / np.sqrt(n))
        assert abs(z) < 5, (sample.mean(), want)


# --- before the roll: Rage Potions, Acid Rain, Windblast (line 307) ----------------------------------------

def test_rage_potions_are_drunk_before_the_roll():
    """A Rage Potion is +1 temporary Rage for the roll (lines 705-707): greedy drinks what it holds, and the
    combat without other resources is the rolloff at that Rage (RULES.md: (1,0) vs (0,0) 1877/2592)."""
    out = solve(Combat(initiator_kit=Kit(potions=1)))
    assert exactly(out.p_win[0], F(1877, 2592))
    assert out.items == (1.0, 0.0) and out.spend == (1.0, 0.0) and out.plans[0].potions == 1
    # optimal drinks it too: a die more can only raise the chance of winning
    assert solve(Combat(initiator_kit=Kit(potions=1)), OPTIMAL).plans[0].potions == 1


def test_acid_rain_destroys_the_first_potion_drunk_after_it():
    """Acid Rain destroys "the next combat item your opponent uses" (line 440), a Rage Potion drunk before
    the roll (441). UD-precombat-order=initiator-first: the initiator's Acid Rain is cast before the
    defender drinks, so one of its two potions is lost; defender-first: the defender has drunk both
    already, and the Acid Rain waits for its first counterattack item (none here)."""
    c = Combat(initiator_kit=Kit(magic=4, acid_rain=True), defender_kit=Kit(potions=2))
    out = solve(c)
    assert out.p_win[0] == pytest.approx(rolloff(Side(0, 0), Side(1, 0)).p_win, abs=1e-14)
    assert out.magic == (4.0, 0.0) and out.items == (0.0, 2.0)
    later = solve(c, UberDrakesRulings(precombat_order="defender-first"))
    assert later.p_win[0] == pytest.approx(rolloff(Side(0, 0), Side(2, 0)).p_win, abs=1e-14)


def test_acid_rain_destroys_the_first_counterattack_item():
    """With no potion to meet, Acid Rain waits for the opponent's first counterattack item: a defender
    behind by 1 with two Lances wins surely without it (5/6 with the first die, else the second), 5/6 with
    it (the first Lance is destroyed and adds nothing)."""
    from rulesets.uberdrakes.combat import Plan

    c = Combat(initiator_kit=Kit(magic=4, acid_rain=True), defender_kit=Kit(lances=2))
    assert exactly(solve_from(10, 9, c, chosen=(Plan(), Plan())).p_win[1], F(1))
    hit = solve_from(10, 9, c, chosen=(Plan(acid_rain=True), Plan()))
    assert exactly(hit.p_win[1], F(5, 6)) and hit.items == (0.0, 2.0) and hit.magic == (4.0, 0.0)
    # a Hide Shield destroyed has no effect: no Ranged attack, so the initiator still takes damage (greedy
    # uses the cheaper Shield first)
    shield = Combat(initiator_kit=Kit(magic=4, acid_rain=True),
                    defender_kit=Kit(shields=1, lances=1, shield_price=0.5))
    s = solve_from(10, 9, shield, chosen=(Plan(acid_rain=True), Plan()))
    assert exactly(s.p_win[1], F(5, 6)) and exactly(s.p_damage[1], F(5, 6))
    intact = solve_from(10, 9, shield, chosen=(Plan(), Plan()))
    assert exactly(intact.p_win[1], F(1)) and intact.p_damage[1] == 0.0


def test_acid_rain_scope():
    """UD-acid-scope: "the next combat item" (line 440) spares Fire Breath (items), or destroys it too
    (items-and-spells)."""
    from rulesets.uberdrakes.combat import Plan

    c = Combat(initiator_kit=Kit(magic=4, acid_rain=True), defender_kit=Kit(magic=4, fire_breath=True))
    chosen = (Plan(acid_rain=True), Plan())
    assert exactly(solve_from(10, 9, c, chosen=chosen).p_win[1], F(5, 6))
    wide = UberDrakesRulings(acid_scope="items-and-spells")
    out = solve_from(10, 9, c, wide, chosen=chosen)
    assert out.p_win[1] == 0.0 and out.magic == (4.0, 4.0)


def test_optimal_pre_combat_plans():
    """Optimal plans: a Water defender casts Acid Rain against an initiator's Lance (it wins what the bare
    rolloff gives it); Windblast, which changes only damage, is never worth its Magic to an objective of
    winning (UD-objective=win-then-cost), though greedy casts it."""
    c = Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(magic=4, acid_rain=True))
    out = solve(c, OPTIMAL)
    assert out.plans[1].acid_rain and out.magic[1] == 4.0
    assert out.p_win[1] == pytest.approx(1.0 - rolloff(Side(), Side()).p_win, abs=1e-14)
    blast = Combat(initiator_kit=Kit(magic=3, windblast=True))
    assert not solve(blast, OPTIMAL).plans[0].windblast and solve(blast).plans[0].windblast
    assert solve(blast).damage[0] == pytest.approx(2 * solve(Combat()).damage[0])


# --- UD-item-die=re-keep-highest-two: an item's die joins the pool, the highest two count ---------------

KEEP = UberDrakesRulings(item_die="re-keep-highest-two")


def test_a_die_that_joins_the_pool_by_hand():
    """Highest two (5, 5) against (4, 4), the defender with a Lance: a new die makes at most 4 + 6 = 10,
    level with the initiator, who wins ties: 0 (add-value: (6 - 2)/6). The initiator on (5, 4) against
    (5, 5) with a Lance: a 6 makes 11, a 5 makes 10 (a tie it wins), less keeps 9: 2/6."""
    c = Combat(defender_kit=Kit(lances=1))
    assert solve_from(10, 8, c, KEEP, pairs=((5, 5), (4, 4))).p_win[1] == 0.0
    assert exactly(solve_from(10, 8, c).p_win[1], F(4, 6))
    c = Combat(initiator_kit=Kit(lances=1))
    assert exactly(solve_from(9, 10, c, KEEP, pairs=((5, 4), (5, 5))).p_win[0], F(2, 6))
    with pytest.raises(RulesError, match="highest two"):
        solve_from(9, 10, c, KEEP)


def _brute_keep(lances: tuple[int, int]) -> tuple[F, F, F]:
    """P(the initiator wins) and each side's expected blood points of a whole combat, Rage 0, no bonus,
    Lances only, greedy (every Lance used while behind), every die enumerated: a die joins its side's
    pool and the highest two count."""
    from itertools import product

    def top2(dice):
        a, b = sorted(dice, reverse=True)[:2]
        return a + b

    def play(pools, left, mover):
        totals = [top2(p) for p in pools]
        ahead = totals[mover] > totals[1 - mover] or (mover == 0 and totals[0] == totals[1])
        if ahead:
            return play(pools, left, 1 - mover)
        if not left[mover]:
            winner, paid = 1 - mover, totals[mover]
            bp = [0, 0]
            bp[winner], bp[mover] = paid, paid // 2
            return F(1 if winner == 0 else 0), F(bp[0]), F(bp[1])
        out = [F(0)] * 3
        for face in range(1, 7):
            new_pools = [list(p) for p in pools]
            new_pools[mover].append(face)
            new_left = list(left)
            new_left[mover] -= 1
            r = play(new_pools, new_left, mover)
            out = [a + b / 6 for a, b in zip(out, r, strict=True)]
        return tuple(out)

    acc = [F(0)] * 3
    for a, b, c, d in product(range(1, 7), repeat=4):
        loser = 1 if a + b >= c + d else 0
        r = play([[a, b], [c, d]], list(lances), loser)
        acc = [x + y / 1296 for x, y in zip(acc, r, strict=True)]
    return tuple(acc)


def test_the_whole_combat_with_dice_joining_the_pool_by_enumeration():
    for lances in ((1, 1), (2, 1)):
        want = _brute_keep(lances)
        got = solve(Combat(initiator_kit=Kit(lances=lances[0]), defender_kit=Kit(lances=lances[1])), KEEP)
        assert got.p_win[0] == pytest.approx(float(want[0]), abs=1e-13)
        assert got.blood_points == pytest.approx((float(want[1]), float(want[2])), abs=1e-12)
    # it differs from adding the die's value
    plain = solve(Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(lances=1)))
    assert abs(plain.p_win[0] - float(_brute_keep((1, 1))[0])) > 0.01


# --- UD-counter-sequencing=declared: the whole combination committed before the dice -----------------

DECLARED = UberDrakesRulings(counter_sequencing="declared")
DECLARED_OPTIMAL = UberDrakesRulings(counter_sequencing="declared", policy="optimal")


def test_declared_combinations_by_hand():
    """Behind by 1 with two Lances: greedy commits one (3.5 expected covers the 2 it needs) and wins 5/6,
    where adaptive play wins surely; optimal commits both and wins surely, for both Lances. Behind by 8,
    greedy commits both (nothing less is expected to get there): P(2d6 >= 9) = 10/36."""
    c = Combat(defender_kit=Kit(lances=2))
    greedy = solve_from(10, 9, c, DECLARED)
    assert exactly(greedy.p_win[1], F(5, 6)) and greedy.items == pytest.approx((0.0, 1.0))
    optimal = solve_from(10, 9, c, DECLARED_OPTIMAL)
    assert exactly(optimal.p_win[1], F(1)) and optimal.items == pytest.approx((0.0, 2.0))
    assert exactly(solve_from(10, 2, c, DECLARED).p_win[1], F(10, 36))
    # a failed commitment ends the counterattack: no second try
    one_by_one = Combat(defender_kit=Kit(lances=1, shields=1, shield_price=2.0))
    assert exactly(solve_from(10, 9, one_by_one, DECLARED).p_win[1], F(5, 6))
    assert exactly(solve_from(10, 9, one_by_one).p_win[1], F(1))


def test_declared_with_acid_rain_and_with_dice_joining_the_pool():
    """Acid Rain destroys the combination's first item (a Lance before a Hide Shield): committing both,
    only the Shield's die rolls, and the Shield still counts for damage. Joining the pool: (5, 5) against
    (4, 4), both Lances at once reach above 10 only with (6, 5) or (6, 6): 3/36."""
    from rulesets.uberdrakes.combat import Plan

    c = Combat(initiator_kit=Kit(magic=4, acid_rain=True), defender_kit=Kit(lances=1, shields=1))
    out = solve_from(10, 9, c, DECLARED_OPTIMAL, chosen=(Plan(acid_rain=True), Plan()))
    assert exactly(out.p_win[1], F(5, 6)) and out.p_damage[1] == 0.0
    assert out.items == pytest.approx((0.0, 2.0))
    both = UberDrakesRulings(counter_sequencing="declared", policy="optimal", item_die="re-keep-highest-two")
    keep = solve_from(10, 8, Combat(defender_kit=Kit(lances=2)), both, pairs=((5, 5), (4, 4)))
    assert exactly(keep.p_win[1], F(3, 36))


def test_declared_whole_combats_are_distributions():
    for rulings in (DECLARED, DECLARED_OPTIMAL):
        out = solve(Combat(Side(1, 0), Side(0, 1), Kit(lances=1, magic=6, plate_armor=True),
                           Kit(shields=2, magic=4, fire_breath=True)), rulings)
        assert 0.0 < out.p_win[0] < 1.0 and out.p_win[0] + out.p_win[1] == pytest.approx(1.0)
        assert out.blood_points[0] > 0 and out.blood_points[1] > 0
