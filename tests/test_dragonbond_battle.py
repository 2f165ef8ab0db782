"""Dragonbond battles (several units a side, rulesets/dragonbond/battle.py) against the duel they extend,
their naive twin (tests/naive_dragonbond_battle.py) and the rules."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from naive_dragonbond_battle import naive_battle
from scipy import stats
from test_dragonbond_duel import naive_unit

from rulesets.base import RulesError
from rulesets.dragonbond import catalog
from rulesets.dragonbond import kernels as K
from rulesets.dragonbond.battle import battle_args, battle_notes, simulate_battle, starting_engagements
from rulesets.dragonbond.kernels_battle import (
    N_BATTLE,
    BattleOutcome,
    BattleRecord,
    BattleState,
    _load,
    pack_battle,
)
from rulesets.dragonbond.rules import MAX_BATTLE_UNITS, DragonbondRulings
from rulesets.dragonbond.simulate import Fighter, simulate_duel
from simcore import runner
from simcore.stats import chisquare_two_sample

CATALOG = catalog.load()
TWO_THREADS = runner.available_threads() >= 2


def fighter(key: str, policy: str = "attack") -> Fighter:
    return Fighter(CATALOG.unit(key), policy)


def twin_unit(f: Fighter, enemy: Fighter):
    """The twin's view of a battle's unit: the duel twin's, with its speed and Flying."""
    return dataclasses.replace(naive_unit(f, enemy), speed=f.unit.speed, flying=f.unit.keywords.flying)


def test_battle_columns_extend_the_duel_state_and_record():
    """A unit's row copies into the duel's scratch whole: the duel's columns come first, in order."""
    for name in ("ALIVE", "BESIDE", "DEF_EXTRA"):
        assert BattleState[name] == K.State[name]
    assert [int(c) for c in BattleState][:K.N_STATE] == list(range(K.N_STATE))
    assert [int(c) for c in BattleRecord][:K.N_RECORD] == list(range(K.N_RECORD))
    assert (BattleOutcome.SIDE_0_WINS, BattleOutcome.SIDE_1_WINS, BattleOutcome.NEITHER) == (
        K.DuelOutcome.SIDE_0_WINS, K.DuelOutcome.SIDE_1_WINS, K.DuelOutcome.NEITHER)


#: Duels (side 0, side 1, rulings) a battle of one unit a side replays draw for draw.
DUELS = {
    "blades vs phalanx": ("bucentaur-blades", "attack", "ogerron-phalanx", "attack", {}),
    "reavers shoot while engaged": ("skorpikon-reavers", "attack", "oathguard-halberdiers", "attack",
                                    {"opportunity_fatigue": 1}),
    "casters resting vs wardens, act then pay": ("dreamshaper-casters", "rest", "kirin-wardens", "rest",
                                                 {"fatigue_timing": "act-then-pay"}),
    "fulgen (flying, huge, epic) vs claws": ("ferellon-fulgen", "attack", "blooded-claws", "rest",
                                             {"casualty_order": "captain-first",
                                              "flying_turn": "own-activation"}),
    "nagasha vs fulgen, cascade": ("nagasha", "rest", "ferellon-fulgen", "attack", {"step_mode": "cascade"}),
}


@pytest.mark.parametrize("name", list(DUELS))
def test_a_battle_of_one_unit_a_side_is_its_duel_record_for_record(name):
    """The battle kernel runs the duel's steps on copied rows and keys trial t on the stream (seed, t): one
    unit a side meets the same dice in the same order, so every duel column of every trial is equal."""
    ka, pa, kb, pb, changes = DUELS[name]
    r = DragonbondRulings(**changes)
    a, b = fighter(ka, pa), fighter(kb, pb)
    duel = simulate_duel(a, b, r, trials=4000, seed=11).records
    battle = simulate_battle([a], [b], r, trials=4000, seed=11).records
    assert np.array_equal(battle[:, :K.N_RECORD], duel)
    for s in (0, 1):  # a unit lost is a unit whose every model is lost
        size = (a, b)[s].models
        lost = duel[:, BattleRecord.LOST_0 + s] == size
        assert np.array_equal(battle[:, BattleRecord.UNITS_LOST_0 + s], lost.astype(np.int64))
    wins = {K.DuelOutcome.SIDE_0_WINS, K.DuelOutcome.SIDE_1_WINS}
    assert wins <= set(np.unique(duel[:, K.Record.OUTCOME])), "a one-sided duel"


def test_lines_meet_unit_against_unit_and_the_larger_side_wraps_round():
    masks = starting_engagements(3, 2)
    # units 0, 1, 2 of side 0; 3, 4 of side 1: 0-3, 1-4, 2-3
    assert list(masks) == [1 << 3, 1 << 4, 1 << 3, (1 << 0) | (1 << 2), 1 << 1]
    assert list(starting_engagements(1, 1)) == [2, 1]
    assert list(starting_engagements(1, 3)) == [0b1110, 1, 1, 1]


def test_bad_forces_are_refused_with_one_sentence():
    blades = fighter("bucentaur-blades")
    with pytest.raises(RulesError, match="force A fields 0 units; a battle takes 1 to 16 a side"):
        simulate_battle([], [blades], trials=10, seed=1)
    with pytest.raises(RulesError, match=f"force B fields {MAX_BATTLE_UNITS + 1} units"):
        simulate_battle([blades], [blades] * (MAX_BATTLE_UNITS + 1), trials=10, seed=1)
    with pytest.raises(RulesError, match="rounds"):
        simulate_battle([blades], [blades], rounds=0, trials=10, seed=1)


def test_battle_notes_name_what_is_not_modelled():
    notes = " ".join(battle_notes())
    for words in ("distances", "Charge", "687", "DB-battle-targeting", "Sacrifice", "terrain"):
        assert words in notes


def _loaded(args, units, a, d, flanking):
    """The pair's side and state rows after ``_load`` of attacker a and defender d, in the battle of
    ``args`` (battle_args) at the trial state ``units``."""
    W = pack_battle(*args[:7])
    first = W[K.Slot.UNITS_ST]
    W[first:first + units.size] = units.ravel()
    _load(W, a, d, flanking)
    side, st = W[K.Slot.SIDE], W[K.Slot.ST]
    return (W[side:side + 2 * K.N_SIDE].reshape(2, K.N_SIDE).copy(),
            W[st:st + 2 * K.N_STATE].reshape(2, K.N_STATE).copy())


def test_flanked_and_flying_defenders_roll_with_the_battles_modifiers():
    """Flanking (664-672): a unit engaged with n >= 2 enemy units downgrades n - 1 (per-extra-unit), n
    (per-engaged-unit) or 1 defense dice; Flying (869) upgrades one when it did not begin the turn engaged.
    Ferellon Fulgen (Flying) engaged with three Blades, then unengaged."""
    r = DragonbondRulings()
    force_a, force_b = [fighter("ferellon-fulgen")], [fighter("bucentaur-blades")] * 3
    args = battle_args(force_a, force_b, r)
    units_side, cap_def, owner, engaged0 = args[:4]
    units = np.zeros((4, N_BATTLE), np.int64)
    units[:, BattleState.ALIVE] = units_side[:, K.Side.MODELS]
    units[:, BattleState.OWNER] = owner
    units[:, BattleState.ENGAGED] = engaged0
    units[:, BattleState.BEGAN_ENGAGED] = 1
    for code, down in ((0, 2), (1, 3), (2, 1)):
        side, st = _loaded(args, units, 1, 0, code)
        assert st[0, K.State.DEF_EXTRA] == -down and st[1, K.State.DEF_EXTRA] == 0
        assert side[0, K.Side.TABLE] == 0 and side[1, K.Side.TABLE] == 1
    units[1:, BattleState.ALIVE] = [0, 0, 3]  # two Blades fallen: engaged with one, not flanked
    _, st = _loaded(args, units, 3, 0, 0)
    assert st[0, K.State.DEF_EXTRA] == 0
    units[0, BattleState.BEGAN_ENGAGED] = 0
    _, st = _loaded(args, units, 3, 0, 0)
    assert st[0, K.State.DEF_EXTRA] == 1
    # the Blades, no Flying, never upgrade; the tables reach every modifier the battle can give
    units[3, BattleState.BEGAN_ENGAGED] = 0
    _, st = _loaded(args, units, 0, 3, 0)
    assert st[1, K.State.DEF_EXTRA] == 0
    k_max = units_side[0, K.Side.K_MIN] + units_side[0, K.Side.K_N] - 1
    assert k_max == 1 and units_side[0, K.Side.K_MIN] <= -2  # flanked by two extra units, at the least


# ---------------------------------------------------------------------------------------------------
# the kernel against its naive twin
# ---------------------------------------------------------------------------------------------------

#: Battles (side 0, units, side 1, units, rulings) the kernel and the twin both play: flanking (3 against
#: 2), opportunity attacks of engaged and flanked units, a Flying Huge Epic creature against three units.
BATTLES = {
    "3 blades vs 2 phalanx": ("bucentaur-blades", 3, "ogerron-phalanx", 2, {}),
    "3 reavers vs 2 halberdiers": ("skorpikon-reavers", 3, "oathguard-halberdiers", 2,
                                   {"opportunity_fatigue": 1}),
    "fulgen vs 3 duelists": ("ferellon-fulgen", 1, "oathguard-duelists", 3,
                             {"flanking_count": "per-engaged-unit", "flying_turn": "own-activation"}),
    "2 wardens vs 3 claws, act then pay": ("kirin-wardens", 2, "blooded-claws", 3,
                                           {"fatigue_timing": "act-then-pay", "flanking_count": "1"}),
}
TWIN_KEYS = {BattleRecord.OUTCOME: "outcome", BattleRecord.LOST_0: "lost_a", BattleRecord.LOST_1: "lost_b",
             BattleRecord.WOUNDS_0: "wounds_a", BattleRecord.WOUNDS_1: "wounds_b",
             BattleRecord.FATIGUE_0: "fatigue_a", BattleRecord.FATIGUE_1: "fatigue_b",
             BattleRecord.TURNS_0: "turns_a", BattleRecord.TURNS_1: "turns_b", BattleRecord.ROUNDS: "rounds",
             BattleRecord.UNITS_LOST_0: "units_lost_a", BattleRecord.UNITS_LOST_1: "units_lost_b"}
TWIN_OUTCOMES = {"a": BattleOutcome.SIDE_0_WINS, "b": BattleOutcome.SIDE_1_WINS,
                 "neither": BattleOutcome.NEITHER, "both": BattleOutcome.BOTH_DESTROYED}
NAIVE_RULINGS = ("opportunity_fatigue", "fatigue_timing", "flanking_count", "flying_turn", "casualty_order",
                 "step_mode", "sharp", "double_hits", "defense_tiers", "defense_floor")
P_MIN = 1e-3
KERNEL_TRIALS = 100_000


def kernel_and_twin(name: str, targeting: str, twin_trials: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    ka, na, kb, nb_, changes = BATTLES[name]
    r = DragonbondRulings(battle_targeting=targeting, **changes)
    a, b = fighter(ka), fighter(kb)
    kernel = simulate_battle([a] * na, [b] * nb_, r, trials=KERNEL_TRIALS, seed=seed).records
    rng = random.Random(seed)
    naive_rulings = {k: getattr(r, k) for k in NAIVE_RULINGS}
    twin = np.zeros((twin_trials, len(BattleRecord)), np.int64)
    for t in range(twin_trials):
        o = naive_battle(rng, [twin_unit(a, b)] * na, [twin_unit(b, a)] * nb_, naive_rulings,
                         targeting=targeting)
        for column, key in TWIN_KEYS.items():
            twin[t, column] = TWIN_OUTCOMES[o[key]] if key == "outcome" else o[key]
    return kernel, twin


def assert_same_battles(kernel: np.ndarray, twin: np.ndarray) -> None:
    """P(side 0 wins) by a two-sample z test, then every column's distribution by a chi-square test."""
    wins = [np.mean(x[:, BattleRecord.OUTCOME] == BattleOutcome.SIDE_0_WINS) for x in (kernel, twin)]
    pooled = (wins[0] * len(kernel) + wins[1] * len(twin)) / (len(kernel) + len(twin))
    se = np.sqrt(pooled * (1 - pooled) * (1 / len(kernel) + 1 / len(twin)))
    if se > 0:
        assert 2 * stats.norm.sf(abs(wins[0] - wins[1]) / se) > P_MIN, (wins, se)
    for column in BattleRecord:
        width = int(max(kernel[:, column].max(), twin[:, column].max())) + 1
        test = chisquare_two_sample(np.bincount(kernel[:, column], minlength=width),
                                    np.bincount(twin[:, column], minlength=width))
        assert test.pvalue > P_MIN, (column.name, test)


@pytest.mark.parametrize("targeting", ["focus", "line"])
@pytest.mark.parametrize("name", list(BATTLES))
def test_battle_kernel_matches_naive_twin(name, targeting):
    """2,000 twin battles (1-2 ms each) against 100,000 kernel ones. Power: at P(side 0 wins) = 0.5 (the
    worst case) the standard error of the difference is sqrt(0.25 (1/2000 + 1/100000)) = 0.0113, so a shift
    of 0.05 is 4.4 standard errors and the two-sided test at p = 0.001 (3.29 standard errors) finds it 87%
    of the time; the slow test below finds a shift of 0.025 as often."""
    kernel, twin = kernel_and_twin(name, targeting, 2000, 20 + len(name))
    assert_same_battles(kernel, twin)
    assert len(np.unique(kernel[:, BattleRecord.OUTCOME])) > 1, "a one-sided battle tests little"


@pytest.mark.slow
@pytest.mark.parametrize("targeting", ["focus", "line"])
@pytest.mark.parametrize("name", list(BATTLES))
def test_battle_kernel_matches_naive_twin_closely(name, targeting):
    """10,000 twin battles: the standard error of the difference at P = 0.5 is 0.0052, so a shift of 0.025
    (4.8 standard errors) is found 93% of the time at p = 0.001."""
    assert_same_battles(*kernel_and_twin(name, targeting, 10_000, 40 + len(name)))


def test_same_seed_same_battles_on_any_thread_count_and_targeting_matters():
    a, b = [fighter("bucentaur-blades")] * 3, [fighter("ogerron-phalanx")] * 2
    one = simulate_battle(a, b, trials=20_001, seed=8, threads=1)
    two = simulate_battle(a, b, trials=20_001, seed=8, threads=2 if TWO_THREADS else 1)
    assert np.array_equal(one.records, two.records)
    assert not np.array_equal(one.records, simulate_battle(a, b, trials=20_001, seed=9).records)
    line = simulate_battle(a, b, DragonbondRulings(battle_targeting="line"), trials=20_001, seed=8)
    assert not np.array_equal(one.records, line.records)
    # common random numbers: most battles are the same under either targeting, not all
    same = np.all(one.records == line.records, axis=1).mean()
    assert 0.05 < same < 0.99, same


def test_precision_stops_a_battle_run_early_and_its_records_are_a_prefix():
    a, b = [fighter("skorpikon-reavers")] * 3, [fighter("oathguard-halberdiers")] * 2
    run = simulate_battle(a, b, trials=200_000, precision=0.02, seed=3, block_trials=1024)
    assert run.run.stopped_by_precision and run.run.trials < 200_000 and run.p_wins(0).half_width < 0.02
    full = simulate_battle(a, b, trials=run.run.trials, seed=3)
    assert np.array_equal(run.records, full.records)


@pytest.mark.parametrize("key", ["bucentaur-blades", "ogerron-phalanx", "oathguard-duelists"])
def test_two_units_beat_one_identical_unit_far_more_often(key):
    """Twice the models, three turns a round against two, and the lone unit flanked (one defense die down,
    no opportunity attacks): two units win far more often than one does against one."""
    c = fighter(key)
    one = simulate_battle([c], [c], trials=4000, seed=5)
    two = simulate_battle([c, c], [c], trials=4000, seed=5)
    assert two.p_wins(0).value - one.p_wins(0).value > 0.4
    assert two.p_wins(1).value < 0.05
    assert two.units_lost(1).value > one.units_lost(1).value + 0.4
    # the turn counter: 1 + units a round, so two units take more turns than one
    assert two.records[:, BattleRecord.TURNS_0].mean() > one.records[:, BattleRecord.TURNS_0].mean()


def test_defense_tables_from_a_grown_grid_are_those_of_the_range_asked_for():
    # a field's engagements ask for defense ranges a few fatigue tokens apart; the tables come from the
    # widest grid held for the unit, sliced: every cell must sit on the table of its own pool
    from rulesets.dragonbond import simulate as S
    from simcore.sampling import TablePack

    unit, rulings = CATALOG.units["oathguard-halberdiers"], DragonbondRulings()
    S._DEFENSE_HELD.pop((unit, rulings), None)
    asked = [(-6, 0, 5), (-9, 1, 8), (-6, 0, 5), (-3, 0, 12)]  # the third and part of the fourth: held
    for k_min, k_max, hits in asked:
        pack = TablePack()
        at = S._defense_at(pack, unit, k_min, k_max, hits, rulings)
        cdf, values, guide = pack.arrays()
        assert at.shape == (hits + 1, k_max - k_min + 1, 4)
        alone = S._defense_grid(unit, k_min, k_max, hits, rulings)  # the range built on its own
        for h in range(hits + 1):
            for j in range(k_max - k_min + 1):
                assert alone.real[h, j] == (at[h, j] != 0).any()
                if not alone.real[h, j]:
                    continue
                start, gstart, k, _ = at[h, j]
                a_start, a_gstart, a_k, _ = alone.at[h, j]
                # a table ends at the last word
                m = int(np.argmax(alone.cdf[a_start:] == np.uint64(2**64 - 1))) + 1
                assert k == a_k
                assert (cdf[start:start + m] == alone.cdf[a_start:a_start + m]).all()
                assert (values[start:start + m] == alone.values[a_start:a_start + m]).all()
                assert (guide[gstart:gstart + 2**k] == alone.guide[a_gstart:a_gstart + 2**k]).all()
    held = S._DEFENSE_HELD[unit, rulings]
    assert held[:3] == (-9, 1, 12)  # grown to cover every range asked for
