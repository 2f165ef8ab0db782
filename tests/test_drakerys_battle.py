"""Drakerys battles (several units a side, rulesets/drakerys/battle.py) against the duel they extend, their
naive twin (tests/naive_battle.py) and the rules."""

from __future__ import annotations

import zlib

import numba as nb
import numpy as np
import pytest
from naive_battle import BattleUnit, Token, active_unit, naive_battle, target_of
from scipy import stats

from rulesets.base import RulesError
from rulesets.drakerys import DrakerysRulings, catalog, simulate
from rulesets.drakerys.battle import battle_arrays, battle_notes, battle_records
from rulesets.drakerys.fight import (
    N_PAIR,
    N_UNIT,
    BattleRecord,
    BattleRow,
    BattleState,
    Combatant,
    EngagementOutcome,
    Record,
    Side,
    State,
    Targeting,
)
from rulesets.drakerys.kernels_battle import (
    _active_unit,
    _combined_escort,
    _escort_charges,
    _load,
    _target,
    battle_matrix,
)
from rulesets.drakerys.rules import MAX_BATTLE_UNITS
from simcore import runner
from simcore.stats import chisquare_two_sample

CATALOG = catalog.load()
TWO_THREADS = runner.available_threads() >= 2
#: The first unit's row of a battle's matrix (the duel's pair holds the rows before): the kernel names unit
#: i by its row R + i (BattleState.ENGAGED_WITH, BattleState.TOKEN, Side.GUARD_UNIT, its helpers' indices).
R = BattleRow.FIRST_UNIT


def stable_seed(name: str) -> int:
    """A seed fixed by the case's name (zlib.crc32: Python's str hash is salted per process)."""
    return zlib.crc32(name.encode())


def unit(key: str, size: int, **kw) -> Combatant:
    return Combatant(CATALOG.unit(key), size, **kw)


def rulings(*assignments: str) -> DrakerysRulings:
    return DrakerysRulings().with_assignments(list(assignments))


#: Duels (side 0, side 1, start_cm: None = side 0 charges from contact) a battle of one unit a side replays.
DUELS = {
    "crows charge gold keepers": (unit("crows", 12), unit("gold-keepers", 6), None),
    "warriors and soldiers from 30 cm": (unit("warriors", 6), unit("soldiers", 6), 30),
    "crossbowmen shoot at warriors from 30 cm": (unit("crossbowmen", 6), unit("warriors", 6), 30),
    "irosia bowmen shoot at blood banes from 45 cm": (unit("irosia-bowmen", 5), unit("blood-banes", 4), 45),
    "salik (heroic) charges crushers": (unit("salik", 1, heroic=2), unit("crushers", 2), None),
}
#: The columns a battle records as a duel does.
SHARED = [(BattleRecord.OUTCOME, Record.OUTCOME), (BattleRecord.LOST_0, Record.LOST_0),
          (BattleRecord.LOST_1, Record.LOST_1), (BattleRecord.INJURIES_0, Record.INJURIES_0),
          (BattleRecord.INJURIES_1, Record.INJURIES_1), (BattleRecord.TS_0, Record.TS_0),
          (BattleRecord.TS_1, Record.TS_1), (BattleRecord.ACTIVATIONS, Record.ACTIVATIONS)]


@pytest.mark.parametrize("tokens", ["player", "unit"])
@pytest.mark.parametrize("name", list(DUELS))
def test_a_battle_of_one_unit_a_side_is_its_duel_record_for_record(name, tokens):
    """The battle kernel runs the duel's steps on copied rows: one unit a side meets the same dice in the
    same order, so every shared column of every trial is equal (not only in distribution)."""
    a, b, start = DUELS[name]
    r = rulings(f"DK-battle-tokens={tokens}", "DK-heroic-passive=own-ts")
    duel = simulate.engagement_records(a, b, start_cm=start, rulings=r, weapons=CATALOG.weapons, trials=2000,
                                     seed=11)
    battle = battle_records([a], [b], start_cm=start, rulings=r, weapons=CATALOG.weapons, trials=2000,
                            seed=11)
    for mine, theirs in SHARED:
        assert np.array_equal(battle.records[:, mine], duel.records[:, theirs]), mine.name
    # a unit lost is a unit whose every warrior is lost
    for s, (lost, units) in enumerate([(Record.LOST_0, BattleRecord.UNITS_LOST_0),
                                       (Record.LOST_1, BattleRecord.UNITS_LOST_1)]):
        size = (a, b)[s].size
        assert np.array_equal(battle.records[:, units], (duel.records[:, lost] == size).astype(np.int64))
    # the duels are not all one-sided: the comparison sees both outcomes
    outcomes = set(battle.records[:, BattleRecord.OUTCOME])
    assert {EngagementOutcome.SIDE_0_WINS, EngagementOutcome.SIDE_1_WINS} <= outcomes


def test_bad_forces_are_refused_with_one_sentence():
    crows = unit("crows", 6)
    with pytest.raises(RulesError, match="force A fields no unit; a battle needs 1 to 16 units a side"):
        battle_records([], [crows], trials=10, seed=1)
    with pytest.raises(RulesError, match=f"force B fields {MAX_BATTLE_UNITS + 1} units"):
        battle_records([crows], [crows] * (MAX_BATTLE_UNITS + 1), trials=10, seed=1)
    with pytest.raises(RulesError, match="rounds"):
        battle_records([crows], [crows], rounds=7, trials=10, seed=1)
    with pytest.raises(RulesError, match="start distance"):
        battle_records([crows], [crows], start_cm=0, trials=10, seed=1)


def test_battle_notes_name_what_is_not_modelled():
    notes = " ".join(battle_notes())
    for words in ("Advantage", "Morale", "REFORMATION", "line", "DK-battle-targeting"):
        assert words in notes


# ---------------------------------------------------------------------------------------------------
# the kernel against its naive twin
# ---------------------------------------------------------------------------------------------------

#: Battles (side 0, side 1, start_cm) the kernel and the twin both play.
BATTLES = {
    "3 crows (6) vs 2 gold keepers (6)": ([unit("crows", 6)] * 3, [unit("gold-keepers", 6)] * 2, 30),
    "2 warriors (4) vs 3 soldiers (6)": ([unit("warriors", 4)] * 2, [unit("soldiers", 6)] * 3, 30),
    "crossbowmen and warriors vs 2 crows": ([unit("crossbowmen", 6), unit("warriors", 6)],
                                            [unit("crows", 6), unit("crows", 9)], 50),
    "salik (heroic 2) and 2 crows vs 2 warriors": ([unit("salik", 1, heroic=2), unit("crows", 6),
                                                    unit("crows", 6)], [unit("warriors", 6)] * 2, 30),
    # Authority on both sides: Celeste's over the Spearmen, Noctis' (who shoots) over the Soldiers
    "celeste and spearmen vs noctis and soldiers": ([unit("celeste", 1, heroic=1), unit("spearmen", 10)],
                                                    [unit("noctis", 1), unit("soldiers", 6)], 40),
    # Combined Charge from contact and Safeguard's 6-9 moved to the Crows (Guard), Sakhil's to the Warriors
    "salik (heroic 1) and 2 crows vs sakhil and 2 warriors": (
        [unit("salik", 1, heroic=1), unit("crows", 6), unit("crows", 6)],
        [unit("sakhil", 1), unit("warriors", 6), unit("warriors", 4)], None),
}
#: The twin's keys of the kernel's record columns.
TWIN_KEYS = {BattleRecord.LOST_0: "lost_a", BattleRecord.LOST_1: "lost_b",
             BattleRecord.UNITS_LOST_0: "units_lost_a", BattleRecord.UNITS_LOST_1: "units_lost_b",
             BattleRecord.INJURIES_0: "injuries_a", BattleRecord.INJURIES_1: "injuries_b",
             BattleRecord.TS_0: "ts_a", BattleRecord.TS_1: "ts_b", BattleRecord.ACTIVATIONS: "activations",
             BattleRecord.LEAD_LOST_0: "lead_lost_a", BattleRecord.LEAD_LOST_1: "lead_lost_b"}
TWIN_OUTCOMES = {"a": EngagementOutcome.SIDE_0_WINS, "b": EngagementOutcome.SIDE_1_WINS,
                 "neither": EngagementOutcome.NEITHER, "both": EngagementOutcome.BOTH_DESTROYED}
P_MIN = 1e-3
KERNEL_TRIALS = 100_000


def twin_records(name: str, r: DrakerysRulings, n: int, seed: int) -> np.ndarray:
    """``n`` battles of the twin as records (columns BattleRecord), handed the kernel's Blocking choices."""
    a, b, start = BATTLES[name]
    _, _, blocking = battle_arrays(tuple(a), tuple(b), r, CATALOG.weapons)
    rng = np.random.default_rng(seed)
    out = np.zeros((n, len(BattleRecord)), dtype=np.int64)
    for k in range(n):
        o = naive_battle(rng, a, b, weapons=CATALOG.weapons, blocking=blocking, start_cm=start,
                         targeting=r.battle_targeting, tokens=r.battle_tokens,
                         heroic_passive=r.heroic_passive, authority_range=r.authority_range,
                         safeguard_transfer=r.safeguard_transfer, combined_charge=r.combined_charge)
        out[k, BattleRecord.OUTCOME] = TWIN_OUTCOMES[o["outcome"]]
        for column, key in TWIN_KEYS.items():
            out[k, column] = o[key]
    return out


def assert_same_battles(kernel: np.ndarray, twin: np.ndarray) -> None:
    """P(side 0 wins) by a two-sample z test, then every column's distribution by a chi-square test."""
    wins = [np.mean(x[:, BattleRecord.OUTCOME] == EngagementOutcome.SIDE_0_WINS) for x in (kernel, twin)]
    pooled = (wins[0] * len(kernel) + wins[1] * len(twin)) / (len(kernel) + len(twin))
    se = np.sqrt(pooled * (1 - pooled) * (1 / len(kernel) + 1 / len(twin)))
    if se > 0:
        assert 2 * stats.norm.sf(abs(wins[0] - wins[1]) / se) > P_MIN, (wins, se)
    for column in BattleRecord:
        width = int(max(kernel[:, column].max(), twin[:, column].max())) + 1
        test = chisquare_two_sample(np.bincount(kernel[:, column], minlength=width),
                                    np.bincount(twin[:, column], minlength=width))
        assert test.pvalue > P_MIN, (column.name, test)


def kernel_and_twin(name: str, assignments: tuple[str, ...], twin_trials: int) -> tuple[np.ndarray, ...]:
    """The kernel's and the twin's battles of one case under one policy, seeded by the case's name and its
    assignments: each of the comparisons is its own sample (the three policies of a battle once shared the
    twin's seed).

    At the former seed (the name alone) the twin's first 6,000 battles of "3 crows (6) vs 2 gold keepers
    (6)" under nearest strayed in LEAD_LOST_1: P(the first Keepers unit loses 1 warrior) 0.173 against the
    kernel's 0.194 (4.2 standard errors, chi-square p = 0.00017). Chance, not a rule: the next 6,000 battles
    of that stream gave 0.189, and 60,000 on twelve other seeds 0.1937 against 0.1940 in 400,000 kernel
    battles (chi-square p = 0.76); kernel and twin take the same tie-breaks (the test below). 18 comparisons
    of 12 columns at p = 0.001 expect 0.2 such strays: about one choice of seeds in five meets one."""
    a, b, start = BATTLES[name]
    r = rulings(*assignments)
    seed = stable_seed(" ".join((name, *assignments)))
    kernel = battle_records(a, b, start_cm=start, rulings=r, weapons=CATALOG.weapons, trials=KERNEL_TRIALS,
                            seed=seed + 1).records
    return kernel, twin_records(name, r, twin_trials, seed)


POLICIES = [("DK-battle-targeting=nearest",), ("DK-battle-targeting=focus",),
            ("DK-battle-targeting=focus", "DK-battle-tokens=unit", "DK-heroic-passive=own-ts",
             "DK-authority-range=range", "DK-safeguard-transfer=never", "DK-combined-charge=never")]


@pytest.mark.parametrize("assignments", POLICIES)
@pytest.mark.parametrize("name", list(BATTLES))
def test_battle_kernel_matches_naive_twin_quickly(name, assignments):
    """A quick look (600 twin battles, 1.5-3 ms each): catches a kernel that plays another game, not a
    small bias (the slow test below does)."""
    assert_same_battles(*kernel_and_twin(name, assignments, 600))


@pytest.mark.slow
@pytest.mark.parametrize("assignments", POLICIES)
@pytest.mark.parametrize("name", list(BATTLES))
def test_battle_kernel_matches_naive_twin(name, assignments):
    """6,000 twin battles against 100,000 kernel ones. Power: at P(side 0 wins) = 0.5 (the worst case) the
    standard error of the difference is sqrt(0.25 (1/6000 + 1/100000)) = 0.0066, so a shift of 0.03 is 4.6
    standard errors and the two-sided test at p = 0.001 (3.29 standard errors) finds it 90% of the time
    (at the 0.35 of 2 Warriors (4) vs 3 Soldiers: 92%; at the 0.006 of 3 Crows vs 2 Gold Keepers: ~100%)."""
    assert_same_battles(*kernel_and_twin(name, assignments, 6000))


def test_identical_units_are_told_apart_by_the_rules_then_by_list_order_in_kernel_and_twin():
    """Which of two identical Gold Keepers (6) units the Crows go for, and which one its player activates,
    decides which takes the Crows' wounds: BattleRecord.LEAD_LOST_1 is the first listed unit's losses.
    ATTACK: the target is "an Enemy Unit engaged with the Active Unit" (the fewest warriors); else
    DK-battle-targeting=nearest: the nearest, then the fewest warriors, then the first listed; =focus: the
    fewest warriors, then the first listed. MAKE WAR! step 1, "The Active Player selects one of their
    Units": the fewest Stress markers, then the first listed. The kernel (_target, _active_unit) and the twin
    (target_of, active_unit) choose the same unit in every scene."""
    crows, keepers = CATALOG.unit("crows"), CATALOG.unit("gold-keepers")
    sides = [0, 0, 0, 1, 1]  # "3 crows (6) vs 2 gold keepers (6)": the Crows 0-2, the Gold Keepers 3-4
    # scenes: (alive, position_cm, stress, engaged pairs) of the five units -> (the first Crows' target
    # under nearest, under focus, the Keepers unit side 1 activates)
    scenes = [
        ([6, 6, 6, 6, 6], [0, 0, 0, 30, 30], [0] * 5, [], (3, 3, 3)),  # all alike: the first listed
        ([6, 6, 6, 4, 6], [0, 0, 0, 30, 30], [0] * 5, [], (3, 3, 3)),  # the first has fewer warriors
        ([6, 6, 6, 6, 3], [0, 0, 0, 30, 30], [0] * 5, [], (4, 4, 3)),  # the second has fewer
        ([6, 6, 6, 2, 6], [0, 0, 0, 30, 25], [0] * 5, [], (4, 3, 3)),  # nearer beats fewer (nearest)
        ([6, 6, 6, 6, 6], [0, 0, 0, 30, 30], [0, 0, 0, 1, 0], [], (3, 3, 4)),  # the first is Stressed
        ([6, 6, 6, 3, 6], [0, 0, 0, 1, 30], [0] * 5, [(0, 4)], (4, 4, 3)),  # engaged beats nearer, fewer
    ]
    for alive, where, stress, pairs, (nearest, focus, activated) in scenes:
        matrix = np.zeros((R + 5, N_UNIT + 5), dtype=np.int64)
        units = matrix[R:]  # the units' rows (a view)
        units[:, BattleState.ALIVE] = alive
        units[:, BattleState.OWNER] = sides
        units[:, BattleState.POSITION_CM] = where
        units[:, BattleState.STRESS] = stress
        units[:, BattleState.ENGAGED_WITH] = -1
        # DK-battle-tokens=player: side 1's token on its first unit's row
        units[:, BattleState.TOKEN] = [R, R, R, R + 3, R + 3]
        tokens = [Token(position=5), Token(position=2)]  # side 1's token is behind: its player is active
        twin = [BattleUnit(k, side, Combatant(crows if side == 0 else keepers, 6), None, tokens[side],
                           alive=alive[k], tokens=0, stress=stress[k], position_cm=where[k])
                for k, side in enumerate(sides)]
        for i, j in pairs:
            units[i, BattleState.ENGAGED_WITH] = R + j
            twin[i].engaged.add(j)
            twin[j].engaged.add(i)
        nearest_twin, focus_twin = target_of(twin[0], twin, "nearest"), target_of(twin[0], twin, "focus")
        assert _target(matrix, R, Targeting.NEAREST) - R == nearest_twin.index == nearest
        assert _target(matrix, R, Targeting.FOCUS) - R == focus_twin.index == focus
        assert _active_unit(matrix, R + 3) - R == active_unit(twin).index == activated


def test_marching_battles_meet_no_dice_and_the_twin_exactly():
    """1000 cm apart nobody reaches anybody: every trial is the same march, and the twin plays it to the same
    record. THE TIMEPATH: one token per player (DK-battle-tokens=player) holds a side to the 6 x 16 = 96 TS
    of the game however many units it has (side 0 stops at 94: the last round's restriction); a token per
    unit gives each unit its 96 TS, 3 units 282."""
    soldiers = unit("soldiers", 6)
    for tokens, ts in (("player", (94, 96)), ("unit", (282, 188))):
        r = rulings(f"DK-battle-tokens={tokens}")
        battle = battle_records([soldiers] * 3, [soldiers] * 2, start_cm=1000, rulings=r, trials=50, seed=4)
        twin = naive_battle(np.random.default_rng(0), [soldiers] * 3, [soldiers] * 2, start_cm=1000,
                            tokens=tokens)
        assert len(np.unique(battle.records, axis=0)) == 1
        record = battle.records[0]
        assert record[BattleRecord.OUTCOME] == EngagementOutcome.NEITHER
        assert (record[BattleRecord.TS_0], record[BattleRecord.TS_1]) == ts == (twin["ts_a"], twin["ts_b"])
        assert record[BattleRecord.ACTIVATIONS] == twin["activations"]
        assert record[BattleRecord.LOST_0] == record[BattleRecord.LOST_1] == 0


def test_same_seed_same_battles_on_any_thread_count_and_targeting_matters():
    a, b, start = BATTLES["2 warriors (4) vs 3 soldiers (6)"]
    b = [b[0], unit("soldiers", 3), b[2]]  # a weaker unit in the middle of the line: focus picks it first
    one = battle_records(a, b, start_cm=start, trials=20_001, seed=8, threads=1)
    two = battle_records(a, b, start_cm=start, trials=20_001, seed=8, threads=2 if TWO_THREADS else 1)
    assert np.array_equal(one.records, two.records)
    other_seed = battle_records(a, b, start_cm=start, trials=20_001, seed=9, threads=1)
    assert not np.array_equal(one.records, other_seed.records)
    a3 = [unit("crows", 6)] * 3
    b2 = [unit("gold-keepers", 6), unit("gold-keepers", 3)]
    nearest = battle_records(a3, b2, start_cm=60, trials=20_000, seed=8)
    focus = battle_records(a3, b2, start_cm=60, rulings=rulings("DK-battle-targeting=focus"), trials=20_000,
                           seed=8)
    assert not np.array_equal(nearest.records, focus.records)
    # the first battles of both meet the same dice (common random numbers): most records agree
    same = np.all(nearest.records == focus.records, axis=1).mean()
    assert 0.05 < same < 0.95, same


def test_precision_stops_a_battle_run_early():
    a, b, start = BATTLES["2 warriors (4) vs 3 soldiers (6)"]
    run = battle_records(a, b, start_cm=start, trials=200_000, precision=0.02, seed=3, block_trials=1024)
    assert run.run.stopped_by_precision and run.records.shape == (run.run.trials, len(BattleRecord))
    assert run.run.trials < 200_000 and run.p_wins(0).half_width < 0.02
    full = battle_records(a, b, start_cm=start, trials=run.run.trials, seed=3)
    assert np.array_equal(run.records, full.records)  # the first n records of any run are a run of n


@pytest.mark.parametrize("key", ["warriors", "crows", "soldiers"])
def test_two_units_beat_one_identical_unit_far_more_often(key):
    """Two units against one identical unit: twice the warriors, allied units engaged with the enemy
    (Initiative +1, rerolls), and the enemy alone to lose Advantage by headcount. From 30 cm the side that
    moves first loses most 1 vs 1 duels (it marches, the enemy charges): 0.17 (Warriors), 0.26 (Crows),
    0.30 (Soldiers) against 0.93, 0.91, 0.90 with two units (20,000 trials each)."""
    c = unit(key, 6)
    one = battle_records([c], [c], start_cm=30, trials=4000, seed=5)
    two = battle_records([c, c], [c], start_cm=30, trials=4000, seed=5)
    assert two.p_wins(0).value - one.p_wins(0).value > 0.5
    assert two.p_wins(1).value < 0.15 < one.p_wins(1).value
    assert two.units_lost(1).value > one.units_lost(1).value + 0.5


@nb.njit
def _loaded(matrix, u, t):
    """The pair the battle kernel hands the duel's steps for unit u's Action against unit t: the matrix's
    first two rows, their Side and State columns (a copy, returned twice: read as the sides and as the
    state)."""
    matrix[:R, :] = -7  # whatever an earlier Action left: _load sets every column the duel reads
    _load(matrix, R + u, R + t)
    pair = matrix[:R, :N_PAIR].copy()
    return pair, pair


def _battle_matrix(units_side, owner, blocking):
    """A battle's matrix, its units standing whole, and its units' rows (a view: unit i is row R + i)."""
    matrix = battle_matrix(units_side, owner, blocking)
    units = matrix[R:]
    assert list(units[:, BattleState.OWNER]) == list(owner)
    units[:, BattleState.ALIVE] = units_side[:, Side.SIZE]
    return matrix, units


def test_allied_units_engaged_with_the_enemy_give_initiative_and_rerolls():
    """FIGHTING: "Every fighter gains Initiative +1 for every Allied Unit Engaged with the targeted Enemy
    Unit" and "can reroll a D10 per Allied Warrior from another Allied Unit in Contact with the targeted
    Enemy Unit". Two Crows units (6 and 4 warriors) and a third unengaged one (5) against Gold Keepers
    engaged with the first two: the second Crows unit attacks with 1 allied unit and 6 rerolls; the Keepers
    fight back with none; a Shooting at an engaged unit is off."""
    crows = CATALOG.unit("crows")
    force_a = (Combatant(crows, 6), Combatant(crows, 4), Combatant(crows, 5, rerolls=2))
    force_b = (unit("gold-keepers", 6), unit("crossbowmen", 6))
    units_side, owner, blocking = battle_arrays(force_a, force_b, DrakerysRulings(), CATALOG.weapons)
    matrix, units = _battle_matrix(units_side, owner, blocking)
    # crows 0 charged the keepers, then crows 1
    units[:, BattleState.ENGAGED_WITH] = [R + 3, R + 3, -1, R, -1]
    side, state = _loaded(matrix, 1, 3)
    assert side[0, Side.ALLIES_ENGAGED] == 1 and side[0, Side.REROLLS] == 6
    assert side[1, Side.ALLIES_ENGAGED] == 0 and side[1, Side.REROLLS] == 0
    assert state[0, State.ALIVE] == 4 and state[1, State.ALIVE] == 6
    # the third Crows unit, not engaged yet, would charge helped by both others: 2 units, their 10 warriors'
    # rerolls on top of its own 2 (and, not engaged, it gave the second unit nothing above)
    side, _ = _loaded(matrix, 2, 3)
    assert side[0, Side.ALLIES_ENGAGED] == 2 and side[0, Side.REROLLS] == 2 + 10
    # the crossbowmen may shoot at the free third unit, not at an engaged one
    side, _ = _loaded(matrix, 4, 2)
    assert side[1, Side.WEAPON_RANGE] == CATALOG.weapons["repeating-crossbow"].max_range_cm
    side, _ = _loaded(matrix, 4, 0)
    assert side[1, Side.WEAPON_RANGE] == -1
    # one unit alone: nothing added (the duel's rows)
    units[:, BattleState.ENGAGED_WITH] = [R + 3, -1, -1, R, -1]
    side, _ = _loaded(matrix, 0, 3)
    assert side[0, Side.ALLIES_ENGAGED] == 0 and side[0, Side.REROLLS] == 0


def test_authority_gives_allied_units_in_reach_a_morale_die_each():
    """AUTHORITY [X]: "The Allied Units within [X] cm of the Unit benefit from one additional D10 for their
    Morale Rolls. This bonus is cumulative". Salik (Authority [20]) and Celeste (Authority [20]) with two
    Crows units against Warriors: under DK-authority-range=all each Crows unit has 2 dice, each hero 1 (the
    other's: not its own); under =range only the heroes within 20 cm count; a fallen hero gives none."""
    force_a = (unit("salik", 1), unit("celeste", 1), unit("crows", 6), unit("crows", 6))
    force_b = (unit("warriors", 6),)
    for ruling, reach in (("all", 10**6), ("range", 20)):
        units_side, owner, blocking = battle_arrays(force_a, force_b, rulings(f"DK-authority-range={ruling}"),
                                                    CATALOG.weapons)
        assert list(units_side[:, Side.AUTHORITY_RANGE]) == [reach, reach, 0, 0, 0]
        matrix, units = _battle_matrix(units_side, owner, blocking)
        units[:, BattleState.ENGAGED_WITH] = -1
        units[:, BattleState.POSITION_CM] = [0, 30, 10, 45, 50]  # Salik, Celeste, Crows, Crows, Warriors
        side, _ = _loaded(matrix, 2, 4)  # the first Crows: Salik 10 cm, Celeste 20 cm
        assert side[0, Side.AUTHORITY] == 2 and side[1, Side.AUTHORITY] == 0
        side, _ = _loaded(matrix, 3, 4)  # the second: Salik 45 cm, Celeste 15 cm
        assert side[0, Side.AUTHORITY] == (2 if ruling == "all" else 1)
        side, _ = _loaded(matrix, 0, 4)  # Salik: Celeste's only (30 cm away)
        assert side[0, Side.AUTHORITY] == (1 if ruling == "all" else 0)
        units[1, BattleState.ALIVE] = 0  # Celeste falls: only Salik's is left
        side, _ = _loaded(matrix, 2, 4)
        assert side[0, Side.AUTHORITY] == 1


def test_safeguard_finds_the_first_guard_unit_in_cohesion_and_its_room():
    """SAFEGUARD: 6-9 "transfer an Injury to an Allied Unit endowed with Guard" whose cohesion the unit keeps
    (10 cm on the line, DK-safeguard-transfer=always). Salik at 0 cm; Crows (6) at 12 cm, out of reach;
    Crows (4) at 10 cm: they take the transfers, room 4 x Health 1 = 4 injuries; Warriors (no Safeguard)
    look for none; under =never nobody does."""
    force_a = (unit("salik", 1), unit("crows", 6), unit("crows", 4))
    force_b = (unit("warriors", 6),)
    for ruling, flag, room in (("always", 1, 4), ("never", 0, 0)):
        r = rulings(f"DK-safeguard-transfer={ruling}")
        units_side, owner, blocking = battle_arrays(force_a, force_b, r, CATALOG.weapons)
        assert list(units_side[:, Side.GUARD]) == [flag, 0, 0, 0]
        assert list(units_side[:, Side.HAS_GUARD]) == [0, 1, 1, 1]
        matrix, units = _battle_matrix(units_side, owner, blocking)
        units[:, BattleState.ENGAGED_WITH] = -1
        units[:, BattleState.POSITION_CM] = [0, 12, 10, 0]
        side, state = _loaded(matrix, 3, 0)  # the Warriors attack Salik
        assert side[1, Side.GUARD] == 0 and side[1, Side.GUARD_UNIT] == -1
        assert side[0, Side.GUARD] == room and side[0, Side.GUARD_UNIT] == (R + 2 if room else -1)
        assert state[0, State.TRANSFERRED] == 0
        units[2, BattleState.ALIVE] = 2  # two Crows left: room for 2
        side, _ = _loaded(matrix, 3, 0)
        assert side[0, Side.GUARD] == (2 if room else 0)
        units[1, BattleState.POSITION_CM] = 5  # the first Crows come within reach: listed first, they take it
        side, _ = _loaded(matrix, 3, 0)
        assert side[0, Side.GUARD] == (6 if room else 0)
        assert side[0, Side.GUARD_UNIT] == (R + 1 if room else -1)


def test_safeguard_moves_injuries_to_the_guard_unit_on_the_same_dice():
    """Warriors (6) charge Salik with a Crows unit (6) beside him, one round, 20,000 battles each way on the
    same seed: with DK-safeguard-transfer=always (2.52 Crows and 0.39 Salik lost on average at seed 3) the
    Crows take Salik's 6-9s, so they lose more warriors and Salik falls less often than under =never (1.76
    and 0.53)."""
    force_a = (unit("warriors", 6),)
    force_b = (unit("salik", 1), unit("crows", 6))
    runs = {ruling: battle_records(force_a, force_b, rulings=rulings(f"DK-safeguard-transfer={ruling}"),
                                   weapons=CATALOG.weapons, trials=20_000, seed=3, rounds=1).records
            for ruling in ("always", "never")}
    crows_lost = {k: (x[:, BattleRecord.LOST_1] - x[:, BattleRecord.LEAD_LOST_1]).mean()
                  for k, x in runs.items()}
    salik_lost = {k: x[:, BattleRecord.LEAD_LOST_1].mean() for k, x in runs.items()}
    assert crows_lost["always"] > crows_lost["never"] + 0.5
    assert salik_lost["always"] < salik_lost["never"] - 0.1


def test_combined_charge_takes_the_first_free_infantry_guard_within_10_cm_along():
    """COMBINED CHARGE: a Hero "no further than 10 cm away from an Infantry Unit fitted with the Guard Skill"
    charges with it: "They resolve simultaneously a Charge movement towards the same targeted Enemy Unit".
    Salik at 0 cm; Crows (6) at 11 cm (too far), Crows (4) at 10 cm, engaged with the Warriors; Soldiers
    (6) at 8 cm, free: they go. Their Charge (10 cm) brings them into contact with a target 9 cm away
    (engaged with it); one 25 cm away they leave 15 cm from it."""
    force_a = (unit("salik", 1), unit("crows", 6), unit("crows", 4), unit("soldiers", 6))
    force_b = (unit("warriors", 6), unit("warriors", 6))
    units_side, owner, blocking = battle_arrays(force_a, force_b, DrakerysRulings(), CATALOG.weapons)
    assert list(units_side[:, Side.COMBINED_CHARGE]) == [1, 0, 0, 0, 0, 0]
    never, _, _ = battle_arrays(force_a, force_b, rulings("DK-combined-charge=never"), CATALOG.weapons)
    assert not never[:, Side.COMBINED_CHARGE].any()
    matrix, units = _battle_matrix(units_side, owner, blocking)
    units[:, BattleState.ENGAGED_WITH] = [-1, -1, R + 4, -1, -1, -1]
    units[:, BattleState.POSITION_CM] = [0, 11, 10, 8, 17, 33]
    assert _combined_escort(matrix, R) == R + 3
    charge = CATALOG.unit("soldiers").profile.charge
    assert charge == 10
    _escort_charges(matrix, R + 3, R + 4)
    assert units[3, BattleState.POSITION_CM] == 17 and units[3, BattleState.ENGAGED_WITH] == R + 4
    units[3, BattleState.POSITION_CM] = 8
    units[3, BattleState.ENGAGED_WITH] = -1
    _escort_charges(matrix, R + 3, R + 5)
    assert units[3, BattleState.POSITION_CM] == 33 - 15 and units[3, BattleState.ENGAGED_WITH] == -1
    units[3, BattleState.ALIVE] = 0  # the Soldiers fall: no free Guard unit within 10 cm is left
    assert _combined_escort(matrix, R) == -1


def test_combined_charge_and_safeguard_change_a_hero_s_battle_on_the_same_dice():
    """Salik (Heroic Action 1) and two Crows units charge Sakhil and two Warriors units from contact, 20,000
    battles each way on the same seed: the Combined Charge costs 2 TS more and brings the Crows into the
    Fight (Initiative, rerolls), so side 0 spends more TS (15.8 against 14.5 at seed 4) and Salik falls
    less often (0.14 against 0.18) than when heroes charge alone."""
    a = (unit("salik", 1, heroic=1), unit("crows", 6), unit("crows", 6))
    b = (unit("sakhil", 1), unit("warriors", 6), unit("warriors", 4))
    runs = {ruling: battle_records(a, b, rulings=rulings(f"DK-combined-charge={ruling}"),
                                   weapons=CATALOG.weapons, trials=20_000, seed=4).records
            for ruling in ("always", "never")}
    ts = {k: x[:, BattleRecord.TS_0].mean() for k, x in runs.items()}
    salik = {k: x[:, BattleRecord.LEAD_LOST_0].mean() for k, x in runs.items()}
    assert ts["always"] > ts["never"] + 0.8
    assert salik["always"] < salik["never"] - 0.02
