"""Compiled Dragonbond duels: every attack drawn as two stages from exact tables (hits and criticals of the
attack pool, then the blocks of the defense pool), one 64-bit word each (simcore.sampling).

The rules played are tests/naive_dragonbond.py's (its docstring): the twin rolls every die, this kernel
draws each roll whole. rulesets.dragonbond.duel builds the tables and the side rows.

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, chunk_stream, next_u64, seed_trial_stream
from simcore.sampling import guide_pick

# side row (int64[2, N_SIDE])
(S_MODELS, S_STAMINA, S_DEFENSE, S_EPIC, S_REST_ALL, S_POLICY, S_CAPTAIN_AT, S_CAP_ATT, S_CAP_DEF,
 S_HUGE_HEALTH, S_INJURY_SLOTS, S_RANGED_ONLY, S_CAN_OPPORTUNITY, S_J_MIN, S_K_MIN, S_J_N, S_K_N,
 S_H_MAX, S_PAY_FIRST, S_OPP_FATIGUE, S_TABLE, S_SPEED, S_FLYING, N_SIDE) = range(24)
# S_TABLE: the slab of ``order``, ``att_at`` and ``def_at`` the row's unit uses (its side in a duel, its unit
# index in a battle: rulesets/dragonbond/kernels_battle.py); S_SPEED, S_FLYING: read by battles only
POLICY_ATTACK, POLICY_REST = 0, 1

# record fields (int64[n, N_RECORD])
(R_OUTCOME, R_WOUNDS_0, R_WOUNDS_1, R_LOST_0, R_LOST_1, R_FATIGUE_0, R_FATIGUE_1, R_TURNS_0, R_TURNS_1,
 R_ROUNDS, N_RECORD) = range(11)
OUT_SIDE_0, OUT_SIDE_1, OUT_NEITHER = 0, 1, 2

# per-side state
# T_DEF_EXTRA: net defense upgrades a battle adds (Flying, flanking); always 0 in a duel
(T_ALIVE, T_IDX, T_CUR, T_CAP_ALIVE, T_CARD, T_BESIDE, T_INJURIES, T_WOUNDS, T_FATIGUE, T_TURNS,
 T_DEF_EXTRA, N_STATE) = range(12)


@nb.njit(**TRIAL_JIT)
def _add_fatigue(side, st, s, n):
    st[s, T_FATIGUE] += n
    room = max(0, side[s, S_STAMINA] - st[s, T_CARD])
    on_card = min(room, n)
    st[s, T_CARD] += on_card
    st[s, T_BESIDE] += n - on_card


@nb.njit(**TRIAL_JIT)
def _remove_fatigue(st, s, n):
    off = min(n, st[s, T_BESIDE])
    st[s, T_BESIDE] -= off
    st[s, T_CARD] = max(0, st[s, T_CARD] - (n - off))


@nb.njit(**TRIAL_JIT)
def _wound(side, order, st, s, w):
    """``w`` wounds on side s: a Huge creature's health slots (each full slot adds an injury, the last
    injury slot kills), or one model's Health, then the next, in the casualty order."""
    st[s, T_WOUNDS] += w
    if side[s, S_HUGE_HEALTH] > 0:
        st[s, T_CUR] += w
        while st[s, T_CUR] >= side[s, S_HUGE_HEALTH] and st[s, T_ALIVE] > 0:
            st[s, T_CUR] -= side[s, S_HUGE_HEALTH]
            st[s, T_INJURIES] += 1
            if st[s, T_INJURIES] >= side[s, S_INJURY_SLOTS]:
                st[s, T_ALIVE] = 0
        return
    while w > 0 and st[s, T_ALIVE] > 0:
        room = order[side[s, S_TABLE], st[s, T_IDX]] - st[s, T_CUR]
        if w >= room:
            w -= room
            if st[s, T_IDX] == side[s, S_CAPTAIN_AT]:
                st[s, T_CAP_ALIVE] = 0
            st[s, T_IDX] += 1
            st[s, T_ALIVE] -= 1
            st[s, T_CUR] = 0
        else:
            st[s, T_CUR] += w
            w = 0


@nb.njit(**TRIAL_JIT)
def _attack(side, order, st, a, stream, att_at, def_at, cdf, values, guide, beside_for_roll):
    """Side a attacks the other side: hits and criticals drawn from the table of its pool, blocks from the
    table of the defense pool, wounds applied."""
    d = 1 - a
    m = st[a, T_ALIVE] if side[a, S_HUGE_HEALTH] == 0 else 1
    j = side[a, S_CAP_ATT] * st[a, T_CAP_ALIVE] - 2 * beside_for_roll - st[a, T_INJURIES]
    ji = min(max(j - side[a, S_J_MIN], 0), side[a, S_J_N] - 1)
    ta, td = side[a, S_TABLE], side[d, S_TABLE]
    at, gat, k, w = att_at[ta, m, ji, 0], att_at[ta, m, ji, 1], att_at[ta, m, ji, 2], att_at[ta, m, ji, 3]
    index = guide_pick(next_u64(stream), cdf, values, guide, at, gat, k)
    hits = index >> w
    crits = index & ((1 << w) - 1)
    blocks = 0
    if hits > 0 and side[d, S_DEFENSE] > 0:
        kk = (side[d, S_CAP_DEF] * st[d, T_CAP_ALIVE] - st[d, T_BESIDE] - st[d, T_INJURIES]
              + st[d, T_DEF_EXTRA])
        ki = min(max(kk - side[d, S_K_MIN], 0), side[d, S_K_N] - 1)
        h = min(hits, side[d, S_H_MAX])
        bat, bgat, bk = def_at[td, h, ki, 0], def_at[td, h, ki, 1], def_at[td, h, ki, 2]
        blocks = guide_pick(next_u64(stream), cdf, values, guide, bat, bgat, bk)
    _wound(side, order, st, d, max(0, hits - blocks) + crits)


@nb.njit(**TRIAL_JIT)
def _turn(side, order, st, p, stream, att_at, def_at, cdf, values, guide):
    """Side p's turn: Rest (when its policy says so and it is exhausted) or Attack, paying its fatigue
    before the roll (DB-fatigue-timing pay-then-act, check-after-paying) or after (act-then-pay). A unit
    whose only weapon is ranged shoots while engaged: the enemy's opportunity attack comes first."""
    e = 1 - p
    st[p, T_TURNS] += 1
    if side[p, S_POLICY] == POLICY_REST and st[p, T_BESIDE] > 0:
        if side[p, S_REST_ALL]:
            _remove_fatigue(st, p, st[p, T_CARD] + st[p, T_BESIDE])
        else:
            _remove_fatigue(st, p, 1)
        return
    if side[p, S_RANGED_ONLY] and side[e, S_CAN_OPPORTUNITY]:
        _add_fatigue(side, st, e, side[e, S_OPP_FATIGUE])
        _attack(side, order, st, e, stream, att_at, def_at, cdf, values, guide, st[e, T_BESIDE])
        if st[p, T_ALIVE] == 0:
            _add_fatigue(side, st, p, 1)
            return
    if side[p, S_PAY_FIRST]:
        _add_fatigue(side, st, p, 1)
        _attack(side, order, st, p, stream, att_at, def_at, cdf, values, guide, st[p, T_BESIDE])
    else:
        _attack(side, order, st, p, stream, att_at, def_at, cdf, values, guide, st[p, T_BESIDE])
        _add_fatigue(side, st, p, 1)


@nb.njit(**TRIAL_JIT)
def _duel(side, order, st, stream, att_at, def_at, cdf, values, guide, rounds, out):
    for s in range(2):
        st[s, T_ALIVE] = side[s, S_MODELS]
        st[s, T_CAP_ALIVE] = 1 if side[s, S_CAPTAIN_AT] >= 0 else 0
        for f in range(N_STATE):
            if f != T_ALIVE and f != T_CAP_ALIVE:
                st[s, f] = 0
    played = 0
    for _ in range(rounds):
        played += 1
        left0 = 2 + side[0, S_EPIC]
        left1 = 2 + side[1, S_EPIC]
        p = np.int64(next_u64(stream) >> np.uint64(63))  # the face-off: both roll 3 grey, a fair coin
        while left0 + left1 > 0 and st[0, T_ALIVE] > 0 and st[1, T_ALIVE] > 0:
            if p == 0 and left0 > 0:
                left0 -= 1
                _turn(side, order, st, 0, stream, att_at, def_at, cdf, values, guide)
            elif p == 1 and left1 > 0:
                left1 -= 1
                _turn(side, order, st, 1, stream, att_at, def_at, cdf, values, guide)
            p = 1 - p
        if st[0, T_ALIVE] == 0 or st[1, T_ALIVE] == 0:
            break
        for s in range(2):  # Upkeep: the card cleared, the tokens beside moved onto it
            moved = min(st[s, T_BESIDE], side[s, S_STAMINA])
            st[s, T_CARD] = moved
            st[s, T_BESIDE] -= moved
    if st[1, T_ALIVE] == 0:
        out[R_OUTCOME] = OUT_SIDE_0
    elif st[0, T_ALIVE] == 0:
        out[R_OUTCOME] = OUT_SIDE_1
    else:
        out[R_OUTCOME] = OUT_NEITHER
    for s in range(2):
        out[R_WOUNDS_0 + s] = st[s, T_WOUNDS]
        out[R_LOST_0 + s] = side[s, S_MODELS] - st[s, T_ALIVE]  # a Huge creature: 1 model, 0 when dead
        out[R_FATIGUE_0 + s] = st[s, T_FATIGUE]
        out[R_TURNS_0 + s] = st[s, T_TURNS]
    out[R_ROUNDS] = played


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
