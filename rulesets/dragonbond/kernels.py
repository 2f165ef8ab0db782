"""Compiled Dragonbond duels: every attack drawn as two stages from exact tables (hits and criticals of the
attack pool, then the blocks of the defense pool), one 64-bit word each (simcore.sampling).

The rules played are tests/naive_dragonbond.py's (its docstring): the twin rolls every die, this kernel
draws each roll whole. rulesets.dragonbond.simulate builds the tables and the side rows.

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone.
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.dragonbond.attack import ATTACK_DOWN_PER_TOKEN, DEFENSE_DOWN_PER_TOKEN, INJURY_DOWN_PER_INJURY
from rulesets.dragonbond.rules import BASE_TURNS, TURNS_PER_UNIT
from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, chunk_stream, next_u64, seed_trial_stream
from simcore.sampling import guide_pick

# --- every column and code the duel kernels read or emit, named once ---------------------------------------
# numba reads IntEnum members as compile-time integers, so kernels index arrays with them at no cost.


class Side(IntEnum):
    """Columns of a unit's side row (int64[2, N_SIDE] in a duel; int64[U, N_SIDE] in a battle), built by
    rulesets.dragonbond.simulate.unit_arrays."""

    MODELS = 0
    STAMINA = 1
    DEFENSE = 2  # defense dice per hit (0: no defense roll)
    EPIC = 3  # Epic X: X more turns a round
    REST_ALL = 4  # 1 when its Rest removes every fatigue token
    POLICY = 5  # Policy
    CAPTAIN_AT = 6  # the captain's place in the casualty order, -1 when none
    CAP_ATT = 7  # the captain's net attack modifier
    CAP_DEF = 8  # the captain's net defense modifier against the enemy's weapon
    HUGE_HEALTH = 9  # a Huge creature's health slot size, 0 for other units
    INJURY_SLOTS = 10
    RANGED_ONLY = 11  # its only weapon is ranged: it shoots while engaged
    CAN_OPPORTUNITY = 12  # it has a melee weapon for opportunity attacks
    J_MIN = 13  # the attack tables' lowest net modifier and count of modifiers (att_at's third axis)
    K_MIN = 14  # the defense tables' lowest net modifier
    J_N = 15
    K_N = 16
    H_MAX = 17  # the most hits the defense tables cover
    PAY_FIRST = 18  # DB-fatigue-timing: 1 when fatigue is paid before the roll
    OPP_FATIGUE = 19  # DB-opportunity-fatigue
    TABLE = 20  # the slab of ``order``, ``att_at`` and ``def_at`` the row's unit uses (its side in a duel,
    # its unit index in a battle: rulesets/dragonbond/kernels_battle.py)
    SPEED = 21  # read by battles only
    FLYING = 22  # read by battles only


N_SIDE = len(Side)


class Policy(IntEnum):
    """A unit's policy (Side.POLICY): attack every turn, or Rest while fatigue lies beside its card."""

    ATTACK = 0
    REST = 1


class Record(IntEnum):
    """Columns of a duel's record (int64[n, N_RECORD], one row per trial)."""

    OUTCOME = 0  # DuelOutcome
    WOUNDS_0 = 1  # wounds side 0 took
    WOUNDS_1 = 2
    LOST_0 = 3  # models side 0 lost (a Huge creature: 1 model, 1 when dead)
    LOST_1 = 4
    FATIGUE_0 = 5  # fatigue tokens side 0 gained
    FATIGUE_1 = 6
    TURNS_0 = 7  # turns side 0 took
    TURNS_1 = 8
    ROUNDS = 9  # rounds played


N_RECORD = len(Record)


class DuelOutcome(IntEnum):
    """How a duel ends (Record.OUTCOME)."""

    SIDE_0_WINS = 0  # side 1 destroyed
    SIDE_1_WINS = 1
    NEITHER = 2  # both stand after the last round


class State(IntEnum):
    """Columns of a side's per-trial state (int64[2, N_STATE])."""

    ALIVE = 0  # models alive
    IDX = 1  # the next model in the casualty order
    CUR = 2  # wounds on it (a Huge creature: on its current health slot)
    CAP_ALIVE = 3
    CARD = 4  # fatigue tokens on the card
    BESIDE = 5  # fatigue tokens beside the card (the Exhaustion Penalty counts these)
    INJURIES = 6  # a Huge creature's injuries
    WOUNDS = 7  # wounds taken in all
    FATIGUE = 8  # fatigue gained in all
    TURNS = 9
    DEF_EXTRA = 10  # net defense upgrades a battle adds (Flying, flanking); always 0 in a duel


N_STATE = len(State)


@nb.njit(**TRIAL_JIT)
def _add_fatigue(side, st, s, n):
    st[s, State.FATIGUE] += n
    room = max(0, side[s, Side.STAMINA] - st[s, State.CARD])
    on_card = min(room, n)
    st[s, State.CARD] += on_card
    st[s, State.BESIDE] += n - on_card


@nb.njit(**TRIAL_JIT)
def _remove_fatigue(st, s, n):
    off = min(n, st[s, State.BESIDE])
    st[s, State.BESIDE] -= off
    st[s, State.CARD] = max(0, st[s, State.CARD] - (n - off))


@nb.njit(**TRIAL_JIT)
def _wound(side, order, st, s, w):
    """``w`` wounds on side s: a Huge creature's health slots (each full slot adds an injury, the last
    injury slot kills), or one model's Health, then the next, in the casualty order."""
    st[s, State.WOUNDS] += w
    if side[s, Side.HUGE_HEALTH] > 0:
        st[s, State.CUR] += w
        while st[s, State.CUR] >= side[s, Side.HUGE_HEALTH] and st[s, State.ALIVE] > 0:
            st[s, State.CUR] -= side[s, Side.HUGE_HEALTH]
            st[s, State.INJURIES] += 1
            if st[s, State.INJURIES] >= side[s, Side.INJURY_SLOTS]:
                st[s, State.ALIVE] = 0
        return
    while w > 0 and st[s, State.ALIVE] > 0:
        room = order[side[s, Side.TABLE], st[s, State.IDX]] - st[s, State.CUR]
        if w >= room:
            w -= room
            if st[s, State.IDX] == side[s, Side.CAPTAIN_AT]:
                st[s, State.CAP_ALIVE] = 0
            st[s, State.IDX] += 1
            st[s, State.ALIVE] -= 1
            st[s, State.CUR] = 0
        else:
            st[s, State.CUR] += w
            w = 0


@nb.njit(**TRIAL_JIT)
def _attack(side, order, st, a, stream, att_at, def_at, cdf, values, guide, beside_for_roll):
    """Side a attacks the other side: hits and criticals drawn from the table of its pool, blocks from the
    table of the defense pool, wounds applied."""
    d = 1 - a
    m = st[a, State.ALIVE] if side[a, Side.HUGE_HEALTH] == 0 else 1
    j = (side[a, Side.CAP_ATT] * st[a, State.CAP_ALIVE] - ATTACK_DOWN_PER_TOKEN * beside_for_roll
         - INJURY_DOWN_PER_INJURY * st[a, State.INJURIES])
    ji = min(max(j - side[a, Side.J_MIN], 0), side[a, Side.J_N] - 1)
    ta, td = side[a, Side.TABLE], side[d, Side.TABLE]
    at, gat, k, w = att_at[ta, m, ji, 0], att_at[ta, m, ji, 1], att_at[ta, m, ji, 2], att_at[ta, m, ji, 3]
    index = guide_pick(next_u64(stream), cdf, values, guide, at, gat, k)
    hits = index >> w
    crits = index & ((1 << w) - 1)
    blocks = 0
    if hits > 0 and side[d, Side.DEFENSE] > 0:
        kk = (side[d, Side.CAP_DEF] * st[d, State.CAP_ALIVE] - DEFENSE_DOWN_PER_TOKEN * st[d, State.BESIDE]
              - INJURY_DOWN_PER_INJURY * st[d, State.INJURIES] + st[d, State.DEF_EXTRA])
        ki = min(max(kk - side[d, Side.K_MIN], 0), side[d, Side.K_N] - 1)
        h = min(hits, side[d, Side.H_MAX])
        bat, bgat, bk = def_at[td, h, ki, 0], def_at[td, h, ki, 1], def_at[td, h, ki, 2]
        blocks = guide_pick(next_u64(stream), cdf, values, guide, bat, bgat, bk)
    _wound(side, order, st, d, max(0, hits - blocks) + crits)


@nb.njit(**TRIAL_JIT)
def _turn(side, order, st, p, stream, att_at, def_at, cdf, values, guide):
    """Side p's turn: Rest (when its policy says so and it is exhausted) or Attack, paying its fatigue
    before the roll (DB-fatigue-timing pay-then-act, check-after-paying) or after (act-then-pay). A unit
    whose only weapon is ranged shoots while engaged: the enemy's opportunity attack comes first."""
    e = 1 - p
    st[p, State.TURNS] += 1
    if side[p, Side.POLICY] == Policy.REST and st[p, State.BESIDE] > 0:
        if side[p, Side.REST_ALL]:
            _remove_fatigue(st, p, st[p, State.CARD] + st[p, State.BESIDE])
        else:
            _remove_fatigue(st, p, 1)
        return
    if side[p, Side.RANGED_ONLY] and side[e, Side.CAN_OPPORTUNITY]:
        _add_fatigue(side, st, e, side[e, Side.OPP_FATIGUE])
        _attack(side, order, st, e, stream, att_at, def_at, cdf, values, guide, st[e, State.BESIDE])
        if st[p, State.ALIVE] == 0:
            _add_fatigue(side, st, p, 1)
            return
    if side[p, Side.PAY_FIRST]:
        _add_fatigue(side, st, p, 1)
        _attack(side, order, st, p, stream, att_at, def_at, cdf, values, guide, st[p, State.BESIDE])
    else:
        _attack(side, order, st, p, stream, att_at, def_at, cdf, values, guide, st[p, State.BESIDE])
        _add_fatigue(side, st, p, 1)


@nb.njit(**TRIAL_JIT)
def _duel(side, order, st, stream, att_at, def_at, cdf, values, guide, rounds, out):
    for s in range(2):
        st[s, State.ALIVE] = side[s, Side.MODELS]
        st[s, State.CAP_ALIVE] = 1 if side[s, Side.CAPTAIN_AT] >= 0 else 0
        for f in range(N_STATE):
            if f != State.ALIVE and f != State.CAP_ALIVE:
                st[s, f] = 0
    played = 0
    for _ in range(rounds):
        played += 1
        left0 = BASE_TURNS + TURNS_PER_UNIT + side[0, Side.EPIC]
        left1 = BASE_TURNS + TURNS_PER_UNIT + side[1, Side.EPIC]
        p = np.int64(next_u64(stream) >> np.uint64(63))  # the face-off: both roll 3 grey, a fair coin
        while left0 + left1 > 0 and st[0, State.ALIVE] > 0 and st[1, State.ALIVE] > 0:
            if p == 0 and left0 > 0:
                left0 -= 1
                _turn(side, order, st, 0, stream, att_at, def_at, cdf, values, guide)
            elif p == 1 and left1 > 0:
                left1 -= 1
                _turn(side, order, st, 1, stream, att_at, def_at, cdf, values, guide)
            p = 1 - p
        if st[0, State.ALIVE] == 0 or st[1, State.ALIVE] == 0:
            break
        for s in range(2):  # Upkeep: the card cleared, the tokens beside moved onto it
            moved = min(st[s, State.BESIDE], side[s, Side.STAMINA])
            st[s, State.CARD] = moved
            st[s, State.BESIDE] -= moved
    if st[1, State.ALIVE] == 0:
        out[Record.OUTCOME] = DuelOutcome.SIDE_0_WINS
    elif st[0, State.ALIVE] == 0:
        out[Record.OUTCOME] = DuelOutcome.SIDE_1_WINS
    else:
        out[Record.OUTCOME] = DuelOutcome.NEITHER
    for s in range(2):  # each per-side column: its side 0 member, then side 1's (Record)
        out[Record.WOUNDS_0 + s] = st[s, State.WOUNDS]
        out[Record.LOST_0 + s] = side[s, Side.MODELS] - st[s, State.ALIVE]  # Huge: 1 model, 0 when dead
        out[Record.FATIGUE_0 + s] = st[s, State.FATIGUE]
        out[Record.TURNS_0 + s] = st[s, State.TURNS]
    out[Record.ROUNDS] = played


@nb.njit(**JIT)
def duel_records(side, order, att_at, def_at, cdf, values, guide, rounds, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record of trial ``first_trial + k``, drawn
    from the stream (seed, first_trial + k) alone."""
    st = np.zeros((2, N_STATE), np.int64)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _duel(side, order, st, stream, att_at, def_at, cdf, values, guide, rounds, out[k])


@nb.njit(**JIT)
def attack_chunks(att, blk, cdf, values, guide, healths, seed, first_chunk, total_trials, chunk_trials, out):
    """One attack per trial, in simcore.runner's histogram contract: ``out[c, 0, w]`` counts the trials
    with ``w`` wounds, ``out[c, 1, k]`` those that killed ``k`` models (``healths``: the Health of each
    model in the order wounds fill them; empty: no count of models). ``att`` = (start, guide start, k, w)
    of the attack pool's table; ``blk[h]`` = (start, guide start, k) of the defense roll against ``h``
    non-critical hits (start -1: no defense roll)."""
    last = out.shape[2] - 1
    n_models = healths.shape[0]
    for c in range(out.shape[0]):
        stream, trials = chunk_stream(seed, first_chunk + c, total_trials, chunk_trials)
        for _ in range(trials):
            index = guide_pick(next_u64(stream), cdf, values, guide, att[0], att[1], att[2])
            hits = index >> att[3]
            crits = index & ((1 << att[3]) - 1)
            blocks = 0
            if hits > 0 and blk[hits, 0] >= 0:
                blocks = guide_pick(next_u64(stream), cdf, values, guide, blk[hits, 0], blk[hits, 1],
                                    blk[hits, 2])
            wounds = max(0, hits - blocks) + crits
            out[c, 0, min(wounds, last)] += 1
            killed = 0
            left = wounds
            while killed < n_models and left >= healths[killed]:
                left -= healths[killed]
                killed += 1
            out[c, 1, killed] += 1
