"""The plain-Python UberDrakes combat twin (tests/naive_uberdrakes.py) against the exact counterattack game
(rulesets.uberdrakes.combat): whole combats played die by die must average to ``policy.outcome``, the
twin's pre-combat declarations must give the solver's setup, its greedy rule the solver's greedy moves,
and RULES.md §4's worked cases must come out of the twin."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from naive_uberdrakes import (
    CombatRecord,
    greedy_move,
    play_combat,
    play_from,
    precombat,
    split_key,
)

from rulesets.uberdrakes.combat import (
    LANCE,
    PLATE,
    Combat,
    Kit,
    Plan,
    _setup,
    _Solver,
    plans,
    policy,
)
from rulesets.uberdrakes.exact import Side
from rulesets.uberdrakes.rules import UberDrakesRulings as R

Z_MAX = 5.0

# (id, combat, rulings): each names the mechanics it exercises.
SCENARIOS = [
    ("lances-shields", Combat(Side(0, 1), Side(1, 0), Kit(lances=2, shields=1), Kit(lances=1, shields=2)),
     R()),
    ("fire-plate-windblast",
     Combat(Side(0, 0), Side(0, 1),
            Kit(lances=1, magic=12, fire_breath=True, plate_armor=True, windblast=True),
            Kit(lances=2, shields=1, magic=8, plate_armor=True)), R()),
    # the initiator's Acid Rain destroys the defender's first potion; the defender's waits for an item: the
    # initiator's Hide Shield (cheaper than its Lance here), which then neither bars its damage nor counts
    ("acid-potion-and-item",
     Combat(Side(0, 0), Side(0, 0), Kit(lances=1, shields=1, lance_price=2.0, potions=1, acid_rain=True,
                                        magic=4),
            Kit(lances=1, shields=1, potions=2, acid_rain=True, magic=5)), R()),
    ("acid-defender-first-optimal",
     Combat(Side(0, 0), Side(0, 0), Kit(lances=1, potions=1, acid_rain=True, magic=5),
            Kit(shields=1, potions=2, magic=4, acid_rain=True, lances=1)),
     R(policy="optimal", precombat_order="defender-first")),
    ("acid-items-and-spells",
     Combat(Side(0, 1), Side(0, 0), Kit(magic=10, fire_breath=True, plate_armor=True),
            Kit(acid_rain=True, magic=4, shields=1)), R(acid_scope="items-and-spells")),
    ("ranged-windblast",
     Combat(Side(0, 2), Side(0, 0), Kit(lances=2, shields=1, magic=6, fire_breath=True),
            Kit(lances=1, shields=2, magic=3, windblast=True), ranged=True), R()),
    ("strict-bars-lance-no-reply-spells",
     Combat(Side(0, 0), Side(0, 0), Kit(lances=2, shields=1, magic=5, plate_armor=True),
            Kit(lances=1, shields=2, magic=4, fire_breath=True)),
     R(counter_ties="strict", shield_ranged="bars-lance", reply_spells=False)),
    ("optimal-spells",
     Combat(Side(0, 0), Side(0, 0), Kit(lances=2, shields=1, magic=6, plate_armor=True),
            Kit(lances=2, shields=1, magic=5, fire_breath=True)), R(policy="optimal")),
    ("optimal-overshoot",
     Combat(Side(0, 0), Side(0, 1), Kit(lances=2, shields=1), Kit(lances=2, shields=1)),
     R(policy="optimal", counter_sequencing="overshoot")),
    # blood-point objective: absolute keys (an unrolled concession never pays the defender: see below)
    ("optimal-bp-rolloff-concede-zero",
     Combat(Side(0, 0), Side(0, 1), Kit(lances=1, shields=1), Kit(lances=1, shields=1)),
     R(policy="optimal", objective="blood-points", bp_total="rolloff", concede_total="zero")),
    ("optimal-net-value-strict-ranged",
     Combat(Side(0, 1), Side(0, 0), Kit(shields=1, magic=5, fire_breath=True, potions=1),
            Kit(shields=2, magic=4, plate_armor=True), ranged=True),
     R(policy="optimal", objective="net-value", counter_ties="strict")),
]
N = 25_000


def _z_check(name: str, values: list, exact: float) -> float:
    """|z| of the sample mean against the exact value (sample standard deviation); a sample without
    variance must equal it."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var == 0:
        assert mean == pytest.approx(exact, abs=1e-9), (name, mean, exact)
        return 0.0
    z = (mean - exact) / math.sqrt(var / n)
    assert abs(z) < Z_MAX, (name, mean, exact, z)
    return z


def _metrics(records: list[CombatRecord]) -> dict[str, tuple[list, list]]:
    def dealt(r: CombatRecord, s: int) -> int:
        return r.damage if r.winner == s else 0

    return {
        "p_win": ([r.winner == 0 for r in records], [r.winner == 1 for r in records]),
        "p_damage": ([dealt(r, 0) > 0 for r in records], [dealt(r, 1) > 0 for r in records]),
        "damage": ([dealt(r, 0) for r in records], [dealt(r, 1) for r in records]),
        "magic": ([r.magic[0] for r in records], [r.magic[1] for r in records]),
        "items": ([r.items[0] for r in records], [r.items[1] for r in records]),
        "blood_points": ([r.blood_points[0] for r in records], [r.blood_points[1] for r in records]),
    }


@pytest.mark.parametrize(("combat", "rulings"), [pytest.param(c, r, id=i) for i, c, r in SCENARIOS])
def test_twin_combats_average_to_the_exact_outcome(combat, rulings):
    pol = policy(combat, rulings)
    rng = random.Random(20240603)
    records = [play_combat(rng, pol, rulings) for _ in range(N)]
    out = pol.outcome
    for name, (ini, dfn) in _metrics(records).items():
        exact = getattr(out, name)
        _z_check(f"{name}[0]", ini, exact[0])
        _z_check(f"{name}[1]", dfn, exact[1])
    _z_check("p_concede_unrolled", [r.conceded_unrolled for r in records], out.p_concede_unrolled)
    # the twin went where the scenario says it goes
    moves = [m for r in records for m in r.moves]
    assert moves or out.p_concede_unrolled == 1.0
    if rulings.counter_sequencing == "overshoot":
        assert any(m[4] for m in moves), "no side ever added more once ahead"
    if combat.ranged:
        assert not any(m[1] == LANCE for m in moves)
    if rulings.acid_scope == "items-and-spells":
        assert any(m[0] == 0 and m[1] != LANCE and m[3] == 0 for m in moves), "Acid Rain never met a spell"


def test_scenarios_cover_the_mechanics():
    """The scenarios above reach every resource, both policies, the pre-combat spells and the rulings the
    brief names (a guard against a scenario being edited into a no-op)."""
    kits = [k for _, c, _ in SCENARIOS for k in c.kits]
    resources = ("lances", "shields", "fire_breath", "plate_armor", "potions", "acid_rain", "windblast")
    assert all(any(getattr(k, a) for k in kits) for a in resources)
    fields = ("policy", "counter_sequencing", "counter_ties", "bp_total", "concede_total", "acid_scope",
              "precombat_order")
    seen = {(f, str(getattr(r, f))) for _, _, r in SCENARIOS for f in fields}  # a default prints as set
    for want in [("policy", "greedy"), ("policy", "optimal"), ("counter_sequencing", "overshoot"),
                 ("counter_ties", "strict"), ("bp_total", "rolloff"), ("concede_total", "zero"),
                 ("acid_scope", "items-and-spells"), ("precombat_order", "defender-first")]:
        assert want in seen, want
    assert any(c.ranged for _, c, _ in SCENARIOS)


@pytest.mark.parametrize("order", ["initiator-first", "defender-first"])
def test_twin_precombat_declarations_give_the_solvers_setup(order):
    """Every pair of plans: the Rage each side rolls with, the Magic left, Acid Rain waiting, Windblast."""
    rulings = R(precombat_order=order)
    kits = (Kit(potions=2, acid_rain=True, windblast=True, magic=7, lances=1),
            Kit(potions=1, acid_rain=True, windblast=True, magic=9, shields=1))
    combat = Combat(Side(1, 0), Side(0, 2), *kits)
    checked = 0
    for chosen in product(plans(kits[0]), plans(kits[1])):
        setup = _setup(combat, chosen, rulings)
        fighters = precombat(combat, chosen, rulings)
        assert tuple(f.rage for f in fighters) == setup.rage, chosen
        assert tuple(f.magic for f in fighters) == tuple(k.magic for k in setup.kits), chosen
        assert tuple(f.acid_waiting for f in fighters) == setup.acid_against, chosen
        assert tuple(f.windblast for f in fighters) == setup.windblast, chosen
        assert tuple(f.potions_drunk for f in fighters) == tuple(p.potions for p in chosen)
        checked += 1
    assert checked == 2 * 3 * 4 * 2 * 2  # 2x2 spells, 3 and 2 potion counts (all affordable)


def test_acid_rain_destroys_the_second_declarers_first_potion():
    """Line 441 by hand: the first declarer's Acid Rain eats the first of two potions drunk after it; the
    second declarer's, cast after the first drank, waits for an item."""
    combat = Combat(Side(0, 0), Side(0, 0), Kit(acid_rain=True, magic=4, potions=1),
                    Kit(potions=2, acid_rain=True, magic=4))
    both = (Plan(1, True, False), Plan(2, True, False))
    f0, f1 = precombat(combat, both, R())
    assert (f0.rage, f1.rage) == (1, 1) and (f0.acid_waiting, f1.acid_waiting) == (True, False)
    f0, f1 = precombat(combat, both, R(precombat_order="defender-first"))
    assert (f0.rage, f1.rage) == (0, 2) and (f0.acid_waiting, f1.acid_waiting) == (False, True)


GREEDY_CASES = [
    (combat, replace(rulings, policy="greedy")) for _, combat, rulings in SCENARIOS
] + [
    (Combat(Side(0, 0), Side(0, 0), Kit(lances=2, shields=2, magic=9, fire_breath=True, plate_armor=True),
            Kit(lances=2, shields=1, magic=10, fire_breath=True, plate_armor=True)), rulings)
    for rulings in (R(), R(counter_sequencing="overshoot"), R(counter_ties="strict"),
                    R(shield_ranged="bars-lance", reply_spells=False), R(acid_scope="items-and-spells"))
] + [
    (Combat(Side(0, 0), Side(0, 0), Kit(lances=1, shields=2, magic=7, plate_armor=True, lance_price=3.0),
            Kit(shields=1, lances=1, magic=8, fire_breath=True, plate_armor=True, shield_price=5.0),
            ranged=True),
     R()),
]


@pytest.mark.parametrize(("combat", "rulings"), GREEDY_CASES)
def test_twin_greedy_rule_makes_every_greedy_decision(combat, rulings):
    pol = policy(combat, rulings)
    moves = 0
    for key, decided in pol.decisions.items():
        diff, _totals, states, mover, first, _overshooting = split_key(key)
        mine = greedy_move(diff, states, mover, first, combat.kits[mover], combat.ranged, rulings)
        assert mine == decided, key
        moves += decided is not None
    assert moves or not any(k.lances or k.shields or k.plate_armor or k.fire_breath for k in combat.kits)


# --- RULES.md §4's worked cases through the twin -------------------------------------------------------


@pytest.mark.parametrize(("initiator", "defender", "p"), [
    ((0, 0), (0, 0), Fraction(721, 1296)),
    ((1, 0), (0, 0), Fraction(1877, 2592)),
    ((0, 2), (3, 0), Fraction(121667, 279936)),
    ((0, 0), (0, 4), Fraction(103, 648)),
])
def test_twin_rolloff_matches_the_worked_probabilities(initiator, defender, p):
    rulings = R()
    pol = policy(Combat(Side(*initiator), Side(*defender)), rulings)
    assert pol.outcome.p_win[0] == pytest.approx(float(p), abs=1e-12)
    rng = random.Random(5)
    _z_check("p_win", [play_combat(rng, pol, rulings).winner == 0 for _ in range(20_000)], float(p))


@pytest.mark.parametrize(("totals", "bp"), [((9, 7), (7, 3)), ((8, 8), (8, 4)), ((3, 12), (1, 3))])
def test_twin_blood_points_match_the_worked_cases(totals, bp):
    rulings = R()
    pol = policy(Combat(), rulings)
    record = play_from(random.Random(0), pol, rulings, *totals)
    assert record.blood_points == bp and record.moves == ()


def _rate(pol, rulings, totals, n=6000, seed=11) -> list:
    rng = random.Random(seed)
    return [play_from(rng, pol, rulings, *totals) for _ in range(n)]


@pytest.mark.parametrize("d", [0, 2, 5])
def test_twin_counterattack_matches_the_worked_cases(d):
    """Opponent spent: defender behind by d with one die item (6 - d)/6, with two P(2d6 > d); initiator
    behind by d with one (7 - d)/6."""
    rulings = R()
    one = policy(Combat(defender_kit=Kit(lances=1)), rulings)
    _z_check("one", [r.winner == 1 for r in _rate(one, rulings, (7 + d, 7))], (6 - d) / 6)
    two = policy(Combat(defender_kit=Kit(lances=1, shields=1)), rulings)
    p_two = sum(a + b > d for a in range(1, 7) for b in range(1, 7)) / 36
    _z_check("two", [r.winner == 1 for r in _rate(two, rulings, (7 + d, 7))], p_two)
    ini = policy(Combat(initiator_kit=Kit(lances=1)), rulings)
    if d:
        _z_check("initiator", [r.winner == 0 for r in _rate(ini, rulings, (7, 7 + d))], (7 - d) / 6)


@pytest.mark.parametrize(("rule", "x", "wins"), [("greedy", 2, 0), ("optimal", 8, 1)])
def test_twin_metal_defender_behind_by_one_against_one_lance(rule, x, wins):
    """RULES.md: a Metal defender behind by 1 with 10 Magic against one Lance: greedy (X = 2) wins 0,
    optimal wins 1. RULES.md says X = 9, but X = 8 (9 Magic) already puts it 7 ahead of 8 + one die, so
    win-then-cost takes X = 8."""
    rulings = R(policy=rule)
    pol = policy(Combat(initiator_kit=Kit(lances=1), defender_kit=Kit(magic=10, plate_armor=True)), rulings)
    for record in _rate(pol, rulings, (8, 7), n=300):
        assert record.winner == wins  # the defender (side 1) wins exactly when `wins`
        assert record.moves[0][:3] == (1, PLATE, x)
        assert record.magic == (0, x + 1)
        assert record.damage == (0 if wins else 1)  # a Plate Armor winner deals none (604-606)


# --- the unrolled concession (313, 331, 338) --------------------------------------------------------------

_UNROLLED = [pytest.param(ranged, windblast, id=f"ranged={ranged}-windblast={windblast}")
             for ranged in (False, True) for windblast in (False, True)]


@pytest.mark.parametrize("stack", ["multiply", "cap-2"])
@pytest.mark.parametrize("concede", ["bonuses", "zero"])
@pytest.mark.parametrize("bonus", [5, 0])
@pytest.mark.parametrize(("ranged", "windblast"), _UNROLLED)
def test_twin_unrolled_concession_against_the_solver(stack, concede, bonus, ranged, windblast):
    """A policy forced to concede unrolled at every total: the twin's damage and blood points against the
    solver's value of the concession (``_Solver.conceded_unrolled``)."""
    rulings = R(windblast_stack=stack, concede_total=concede)
    combat = Combat(Side(0, 2), Side(0, bonus), Kit(magic=3, windblast=True), Kit(lances=1), ranged=ranged)
    chosen = (Plan(0, False, windblast), Plan())
    pol = policy(combat, rulings)
    pol = replace(pol, outcome=replace(pol.outcome, plans=chosen), unrolled=frozenset(range(-60, 80)))
    solver = _Solver(combat, _setup(combat, chosen, rulings), rulings)
    rng = random.Random(3)
    for _ in range(20):
        record = play_combat(rng, pol, rulings)
        assert record.conceded_unrolled and record.winner == 0 and record.rolloff[1] is None
        assert record.magic == (3 * windblast, 0) and record.items == (0, 0)
        value = solver.conceded_unrolled(record.rolloff[0])
        assert (record.damage, *record.blood_points) == (value[3], value[11], value[12])
    assert record.damage == ((4 if stack == "multiply" else 2) if windblast else 2)
    paid = max(bonus, 0) if concede == "bonuses" else 0
    assert record.blood_points == (paid, paid // 2)


# --- the twin refuses what it cannot follow ---------------------------------------------------------------


def test_twin_raises_on_a_state_missing_from_the_decisions():
    rulings = R()
    pol = policy(Combat(Side(0, 0), Side(0, 0), Kit(lances=1), Kit(lances=1)), rulings)
    with pytest.raises(KeyError):
        play_combat(random.Random(1), replace(pol, decisions={}), rulings)


def test_twin_raises_on_an_illegal_move():
    """A Lance in ranged combat (653-655); a Shield for the ranged attacker (362)."""
    rulings = R()
    combat = Combat(Side(0, 0), Side(0, 0), Kit(lances=1, shields=1), Kit(lances=1), ranged=True)
    pol = policy(combat, rulings)
    for bad in ((LANCE, 0), ("shield", 0)):
        forced = replace(pol, decisions={k: bad for k in pol.decisions})
        rng = random.Random(2)
        with pytest.raises(ValueError, match="illegal move"):
            for _ in range(50):
                play_combat(rng, forced, rulings)


@pytest.mark.parametrize("rulings", [R(counter_sequencing="declared"), R(item_die="re-keep-highest-two")])
def test_twin_refuses_the_readings_it_does_not_play(rulings):
    pol = policy(Combat(Side(0, 0), Side(0, 0), Kit(lances=1), Kit(lances=1)), R())
    with pytest.raises(NotImplementedError):
        play_combat(random.Random(1), pol, rulings)
