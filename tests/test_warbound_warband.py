"""Warbound Warband contests: the compiled kernel (rulesets/warbound/kernels_contest.py, each attack drawn
whole from its exact table) against the plain-Python twin (tests/naive_warbound_warband.py, every die
rolled), in distribution; one character a side is the duel draw for draw; the board and the deployment; the
same seed gives the same records whatever the threads.

Tolerance of the distribution tests: every record column's distribution, kernel (KERNEL_TRIALS contests)
against twin (TWIN_TRIALS), by a chi-square two-sample test, p > P_MIN (1e-4: about one false alarm in
ten thousand columns)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from naive_warbound_warband import Game, Member, board_of
from naive_warbound_warband import warband as naive_warband
from test_warbound_duel import naive_profile

from rulesets.warbound import catalog as catalog_io
from rulesets.warbound import kernels as K
from rulesets.warbound import kernels_warband as KW
from rulesets.warbound.kernels_contest import warband_records
from rulesets.warbound.rules import BOARD_COLUMNS, BOARD_ROWS, START_TILE, WarboundRulings
from rulesets.warbound.simulate import default_leader, duel_args, fighter
from rulesets.warbound.warband import (
    Warband,
    board_geometry,
    deployment,
    warband_args,
    warband_of,
)
from simcore import runner
from simcore.stats import chisquare_two_sample

CATALOG = catalog_io.load()
REFERENCE = CATALOG.leader("reference")
KERNEL_TRIALS = 100_000
TWIN_TRIALS = 1_500
P_MIN = 1e-4


def member(name: str):
    """(Character, Formation card or None) of ``name`` or ``name@formation``."""
    base, _, formation = name.partition("@")
    c = CATALOG.character(base)
    return c, CATALOG.formation_for(c.key) if formation else None


def side(names, leader=REFERENCE) -> Warband:
    return warband_of([member(n) if isinstance(n, str) else n for n in names], leader)


def naive_members(band: Warband) -> list[Member]:
    """The twin's view of a side: each character's profiles with what an activation costs under them."""
    return [Member(naive_profile(f, f.front), naive_profile(f, f.panic) if f.panic is not None else None,
                   f.modifier, minis, f.front.cost, f.no_panic)
            for f, minis in zip(band.members, band.minis, strict=True)]


def run_kernel(a: Warband, b: Warband, rulings: WarboundRulings, trials: int = KERNEL_TRIALS, seed: int = 11,
               board=None, threads: int = 1) -> np.ndarray:
    args = warband_args(a, b, board or CATALOG.board, rulings)
    return runner.run_records(warband_records, args, KW.N_RECORD, trials, seed, threads=threads).records


def run_twin(a: Warband, b: Warband, rulings: WarboundRulings, trials: int = TWIN_TRIALS, seed: int = 11,
             board=None) -> list[dict]:
    rng = random.Random(seed)
    return [naive_warband(rng, naive_members(a), naive_members(b), board=(board or CATALOG.board).periods,
                          orders=(a.orders, b.orders), targeting=rulings.targeting,
                          stress_all_rolled=rulings.aim_stress == "all-rolled",
                          natural_one_modified=rulings.formation_bonus == "natural-1-modified",
                          hourglass=rulings.hourglass_policy, order_periods=rulings.order_periods)
            for _ in range(trials)]


def twin_columns(twin: list[dict], n: tuple[int, int]) -> dict[int, list[int]]:
    """The twin's results as the kernel's record columns."""
    R = KW.Record
    out = {R.OUTCOME: [t["outcome"] for t in twin], R.AHEAD: [t["ahead"] for t in twin],
           R.TURN: [t["turn"] for t in twin], R.HAND_0: [t["hand"] for t in twin]}
    for s in (0, 1):
        for key, col in (("wounds", R.WOUNDS_0), ("tokens", R.TOKENS_0), ("activations", R.ACTS_0),
                         ("panicked", R.PANICS_0), ("lost", R.LOST_0), ("entry_acts", R.ENTRY_ACTS_0),
                         ("entry_panic", R.ENTRY_PANIC_0)):
            out[col + s] = [t[key][s] for t in twin]
        for k in range(n[s]):
            out[KW.damage_column(s, k)] = [t["damage"][s][k] for t in twin]
    return out


def compare(a: Warband, b: Warband, rulings: WarboundRulings, board=None) -> np.ndarray:
    """KERNEL_TRIALS kernel contests against TWIN_TRIALS twin contests, every record column by a chi-square
    two-sample test (p > P_MIN); returns the kernel's records."""
    rec = run_kernel(a, b, rulings, board=board)
    twin = run_twin(a, b, rulings, board=board)
    for column, values in twin_columns(twin, (len(a.members), len(b.members))).items():
        width = max(int(rec[:, column].max()), max(values)) + 1
        fit = chisquare_two_sample(np.bincount(rec[:, column], minlength=width),
                                   np.bincount(values, minlength=width))
        assert fit.pvalue > P_MIN, (KW.Record(column).name if column < KW.Record.DAMAGE else column, fit)
    return rec


def no_fight(name: str):
    """A character that cannot Fight (its attack set to none on both sides): it flees an adjacent enemy."""
    c, card = member(name)
    front = dataclasses.replace(c.front, attack=None, attack_dice=0)
    panic = dataclasses.replace(c.panic, attack=None, attack_dice=0)
    return dataclasses.replace(c, front=front, panic=panic), card


COMPANIONS = ("oshi-goru@formation", "ork-edo-drummer@formation", "analyst")
SCENARIOS = {
    # the default contest: COPP against Roh'na, with the default companions
    "companions, the Hourglass held": (("copp", *COMPANIONS), ("roh-na", *COMPANIONS),
                                       {"hourglass_policy": "not-played"}),
    # Formations' second miniatures, swapping the Hand every turn, weakest first
    "formations alone, weakest, always swap": (("copp@formation",), ("roh-na@formation",),
                                               {"hourglass_policy": "always", "targeting": "weakest"}),
    # a shooter that cannot Fight flees the fighters walking to it; both Orders every turn
    "a fleeing shooter, most valuable": ((no_fight("copp"), "ork-edo-drummer"),
                                         ("roh-na@formation", "ork-edo-drummer"),
                                         {"targeting": "most-valuable", "order_periods": "both-each-turn",
                                          "hourglass_policy": "not-played"}),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_kernel_matches_the_twin(name):
    names_a, names_b, changes = SCENARIOS[name]
    rec = compare(side(names_a), side(names_b), WarboundRulings(**changes))
    # the scenario is a contest: wounds are dealt, and the contest does not always end alike
    assert rec[:, KW.Record.WOUNDS_0:KW.Record.WOUNDS_1 + 1].sum() > 0
    assert np.unique(rec[:, KW.Record.AHEAD]).size > 1


def test_a_fleeing_shooter_flees_and_shoots():
    """The third scenario reaches every branch of a shooter that cannot Fight: Move+Shoot away, Run away."""
    a, b = (side(names) for names in SCENARIOS["a fleeing shooter, most valuable"][:2])
    twin = Game(random.Random(3), (naive_members(a), naive_members(b)), board=CATALOG.board.periods,
                columns=BOARD_COLUMNS, rows=BOARD_ROWS, start=START_TILE, orders=(a.orders, b.orders),
                targeting="most-valuable", stress_all_rolled=True, natural_one_modified=False,
                hourglass="not-played", order_periods="both-each-turn")
    plans = set()
    shooter = twin.chars[0]
    original = twin.plan

    def spy(c, open_spaces):
        choice = original(c, open_spaces)
        if c is shooter and choice is not None:
            plans.add((choice[0], choice[1][0]))
        return choice

    twin.plan = spy
    twin.play()
    assert ("move+shoot", "flee") in plans


@pytest.mark.slow
@pytest.mark.parametrize("changes", [{}, {"targeting": "weakest", "aim_stress": "kept"},
                                     {"economy": "faction-leader", "hourglass_policy": "always"}])
def test_the_kernel_matches_the_twin_with_the_hourglass_played(changes):
    """The default contest with the Hourglass placed and the Hand taken (the twin's slowest part)."""
    rulings = WarboundRulings(**changes)
    leader_a, leader_b = ((CATALOG.leader("raiders-warlord"), CATALOG.leader("orkedo-chief"))
                          if rulings.economy == "faction-leader" else (REFERENCE, REFERENCE))
    compare(side(("copp", *COMPANIONS), leader_a), side(("roh-na", *COMPANIONS), leader_b), rulings)


# --- one character a side is the duel --------------------------------------------------------------------

DUELS = [("copp", "roh-na", {}), ("analyst", "copp", {"hourglass_policy": "always"}),
         ("ork-edo-drummer", "oshi-goru", {"order_periods": "both-each-turn", "aim_stress": "kept"}),
         ("roh-na", "splatter", {"hourglass_policy": "not-played", "targeting": "weakest"})]


@pytest.mark.parametrize(("a", "b", "changes"), DUELS)
def test_one_character_a_side_is_the_duel_draw_for_draw(a, b, changes):
    """Deployed 6 tiles apart on an open board, a character walks one tile nearer a step and the same
    attacks draw the same words: every duel record field equals the contest's, trial by trial."""
    rulings = WarboundRulings(**changes)
    ca, cb = CATALOG.character(a), CATALOG.character(b)
    fa, fb = fighter(ca, CATALOG), fighter(cb, CATALOG)
    duel = runner.run_records(K.duel_records, duel_args(fa, fb, CATALOG.board, rulings), K.N_RECORD, 20_000,
                              7, threads=1).records
    wa, wb = (warband_of([(c, None)], default_leader(c, CATALOG)) for c in (ca, cb))
    assert (wa.members[0], wb.members[0]) == (fa, fb)
    rec = run_kernel(wa, wb, rulings, trials=20_000, seed=7)
    R = KW.Record
    D = K.Record
    for d, w in ((D.OUTCOME, R.OUTCOME), (D.TURN, R.TURN), (D.HAND_0, R.HAND_0), (D.WOUNDS_0, R.WOUNDS_0),
                 (D.WOUNDS_1, R.WOUNDS_1), (D.TOKENS_0, R.TOKENS_0), (D.TOKENS_1, R.TOKENS_1),
                 (D.ACTS_0, R.ACTS_0), (D.ACTS_1, R.ACTS_1), (D.PANIC_0, R.PANICS_0), (D.PANIC_1, R.PANICS_1),
                 (D.LOST_0, R.LOST_0), (D.DAMAGE_0, KW.damage_column(0, 0)),
                 (D.DAMAGE_1, KW.damage_column(1, 0))):
        assert np.array_equal(duel[:, d], rec[:, w]), R(w).name
    assert np.array_equal(rec[:, R.ACTS_0], rec[:, R.ENTRY_ACTS_0])


# --- the board and the deployment ------------------------------------------------------------------------


def test_the_board_is_a_point_symmetric_hex_parallelogram():
    dist, nbr = board_geometry()
    tiles = BOARD_COLUMNS * BOARD_ROWS
    assert dist.shape == (tiles, tiles) and nbr.shape == (2, tiles, 6)
    flip = tiles - 1 - np.arange(tiles)
    assert np.array_equal(dist, dist.T) and np.array_equal(dist[flip][:, flip], dist)
    # axial (q, r) = (t % 16, t // 16): (0, 0) to (15, 7) is 15 + 7 = 22 steps; (15, 0) to (0, 7): 15
    assert dist[0, tiles - 1] == 22 and dist[15, 16 * 7] == 15
    # every neighbour is one step away; side 1's k-th neighbour is the reflection of side 0's k-th
    inside = nbr[0] >= 0
    assert np.all(dist[np.repeat(np.arange(tiles), 6).reshape(tiles, 6)[inside], nbr[0][inside]] == 1)
    assert np.array_equal(np.where(nbr[1] >= 0, tiles - 1 - nbr[1], -1), nbr[0][flip])
    # a corner has 2 neighbours on the board ((0, 0): (1, 0) and (0, 1)), the middle 6
    assert inside[0].sum() == 2 and inside[16 * 3 + 5].sum() == 6
    # the start tiles are the duel's 6 tiles apart
    s0 = START_TILE[0] + 16 * START_TILE[1]
    assert dist[s0, tiles - 1 - s0] == 6


@pytest.mark.parametrize("minis", [((1,), (1,)), ((1, 2, 2, 1), (2, 2, 2, 1)), ((2, 1, 2, 1, 1), (1,))])
def test_the_deployment_is_the_twins_and_a_line_facing_the_enemy(minis):
    dist, _ = board_geometry()
    placed = deployment(minis, dist)
    members = [[Member(naive_profile(fighter(CATALOG.character("copp"), CATALOG),
                                     CATALOG.character("copp").front), minis=m) for m in ms] for ms in minis]
    game = Game(random.Random(0), members, board=CATALOG.board.periods, columns=BOARD_COLUMNS,
                rows=BOARD_ROWS, start=START_TILE, orders=((1, 1), (1, 1)), targeting="nearest",
                stress_all_rolled=True, natural_one_modified=False, hourglass="not-played",
                order_periods="periods")
    assert [[c.tiles for c in game.chars if c.side == s] for s in (0, 1)] == placed
    tiles = BOARD_COLUMNS * BOARD_ROWS
    s0 = START_TILE[0] + 16 * START_TILE[1]
    assert placed[0][0][0] == s0 and placed[1][0][0] == tiles - 1 - s0  # each entry on its start tile
    everyone = [t for s in placed for c in s for t in c]
    assert len(set(everyone)) == len(everyone)
    for s in (0, 1):
        for c in placed[s]:
            if len(c) == 2:
                assert dist[c[0], c[1]] == 1  # a Formation's miniatures stand together
        # the first line: every character's first miniature as far from the enemy's start tile as its own
        # start tile is (a second miniature may stand behind when the line has no room beside the first)
        enemy_start = tiles - 1 - s0 if s == 0 else s0
        assert all(dist[c[0], enemy_start] == 6 for c in placed[s])
        assert all(dist[t, enemy_start] in (6, 7) for c in placed[s] for t in c)
    assert board_of(BOARD_COLUMNS, BOARD_ROWS).dist(0, tiles - 1) == 22


# --- seeds and threads -----------------------------------------------------------------------------------


def test_same_seed_same_records_any_threads_and_batching():
    a, b = side(("copp", *COMPANIONS)), side(("roh-na@formation", *COMPANIONS))
    rulings = WarboundRulings()
    args = warband_args(a, b, CATALOG.board, rulings)
    one = runner.run_records(warband_records, args, KW.N_RECORD, 9_000, 5, threads=1).records
    two = runner.run_records(warband_records, args, KW.N_RECORD, 9_000, 5, threads=2, block_trials=1000,
                             max_batch_trials=3000).records
    assert np.array_equal(one, two)
    other = runner.run_records(warband_records, args, KW.N_RECORD, 9_000, 6, threads=1).records
    assert not np.array_equal(one, other)
    # the first 4,000 trials of a longer run are the run of 4,000
    short = runner.run_records(warband_records, args, KW.N_RECORD, 4_000, 5, threads=2).records
    assert np.array_equal(short, one[:4_000])
