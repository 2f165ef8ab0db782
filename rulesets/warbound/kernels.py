"""Compiled Warbound: attacks drawn whole from exact tables (one 64-bit word gives the Wound, Break and
Stress tokens of one attack, simcore.sampling), and duels of two characters over the five turns.

The duel played is tests/naive_warbound.py's (its docstring is the specification): the twin rolls every die,
this kernel draws each attack whole. rulesets.warbound.duel builds the tables and the side rows.

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone.
"""

from __future__ import annotations

import enum

import numba as nb
import numpy as np

from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, chunk_stream, next_u64, seed_trial_stream
from simcore.sampling import guide_pick

# Actions of the board (rulesets.warbound.catalog's names, in this order)
(A_MOVE, A_RUN, A_FIGHT, A_SHOOT, A_AIM_SHOOT, A_MOVE_SHOOT, A_MOVE_FIGHT, A_RUN_FIGHT, N_ACTIONS) = range(9)
ACTION_NAMES = ("move", "run", "fight", "shoot", "aim+shoot", "move+shoot", "move+fight", "run+fight")
# the same as typed numpy scalars for helper calls: numba compiles a helper once per literal value it is
# called with, once in all for an int64
(_TA_MOVE, _TA_RUN, _TA_FIGHT, _TA_SHOOT, _TA_AIM_SHOOT, _TA_MOVE_SHOOT, _TA_MOVE_FIGHT,
 _TA_RUN_FIGHT) = (np.int64(a) for a in range(8))
_T_NONE = np.int64(-1)

# attack kinds (the second index of the table index)
K_FIGHT, K_SHOOT, K_AIM, N_KINDS = range(4)

# profile row (int64[2 sides, 2 profiles, N_PROFILE]); -1: none
(P_ATTACK, P_SPEED, P_RUN, P_ACCURACY, P_HEALTH, P_MORALE, P_ARMOR_POINTS, P_PRICE, P_MOVE_PRICE,
 N_PROFILE) = range(10)
# side row (int64[2, N_SIDE])
(S_ORDERS_1, S_ORDERS_2, N_SIDE) = range(3)
#: The profile a panicking side flips to (rulesets.warbound.duel.Fighter.profiles: its front again when it
#: has no panic side or keeps the front by --no-panic).
PANIC_PROFILE = 1

# record fields (int64[n, N_RECORD])
# R_DAMAGE: the front profile's Health if removed, else the Wound tokens (at most that Health - 1);
# R_HAND_0: the turns side 0 held the Hand at the start of the Action Phase
(R_OUTCOME, R_WOUNDS_0, R_WOUNDS_1, R_TOKENS_0, R_TOKENS_1, R_PANIC_0, R_PANIC_1, R_ACTS_0, R_ACTS_1,
 R_LOST_0, R_LOST_1, R_DAMAGE_0, R_DAMAGE_1, R_TURN, R_HAND_0, N_RECORD) = range(16)
OUT_SIDE_0, OUT_SIDE_1, OUT_NEITHER = 0, 1, 2



class Hourglass(enum.IntEnum):
    """WB-hourglass-policy (rulesets.warbound.rules) as the kernel's codes."""

    STRIKE_FIRST = 0  # the Hourglass holder swaps when its first choice next turn would be an attack
    ALWAYS = 1  # the Hourglass holder swaps at every Cleanup it holds the Hourglass
    NOT_PLAYED = 2  # side 0 holds the Hand for all five turns


# per-side state
(T_PROFILE, T_WOUNDS, T_STRESS, T_BREAKS, T_POOL, T_TOKENS, T_SPENT, T_ACTS, T_TURN_ACTS, T_DONE,
 T_PANICKED, N_STATE) = range(12)


@nb.njit(**TRIAL_JIT)
def draw_attack(word, at, cdf, values, guide):
    """(wounds, breaks, stress) of one attack drawn from the table ``at`` = (start, guide start, k, bits of
    breaks, bits of stress) with one 64-bit word: the outcome index packs them as
    ``wounds << (kb + ks) | breaks << ks | stress``."""
    index = guide_pick(word, cdf, values, guide, at[0], at[1], at[2])
    return index >> (at[3] + at[4]), (index >> at[4]) & ((1 << at[3]) - 1), index & ((1 << at[4]) - 1)


@nb.njit(**JIT)
def attack_chunks(at, cdf, values, guide, seed, first_chunk, total_trials, chunk_trials, out):
    """One attack per trial, in simcore.runner's histogram contract: ``out[c, i]`` counts the trials whose
    packed outcome (see :func:`draw_attack`) is i: one count per attack, decoded afterwards."""
    for c in range(out.shape[0]):
        stream, trials = chunk_stream(seed, first_chunk + c, total_trials, chunk_trials)
        for _ in range(trials):
            out[c, guide_pick(next_u64(stream), cdf, values, guide, at[0], at[1], at[2])] += 1


@nb.njit(**TRIAL_JIT)
def _has_pool(prof, st, s):
    return st[s, T_PANICKED] == 0 and prof[s, st[s, T_PROFILE], P_MORALE] >= 0


@nb.njit(**TRIAL_JIT)
def _first_open(is_open, board, a, b, c):
    """The first open space holding action a, else b, else c (-1 for none; b or c -1: not wanted)."""
    for want in (a, b, c):
        if want < 0:
            continue
        for i in range(board.shape[0]):
            if is_open[i] != 0 and board[i] == want:
                return i
    return -1


@nb.njit(**TRIAL_JIT)
def _choose(prof, st, s, distance, is_open, board):
    """(space, kind of attack or -1, new distance) of side s's activation by the twin's policy, space -1:
    the side is done."""
    p = st[s, T_PROFILE]
    attack = prof[s, p, P_ATTACK]
    if distance <= 1:
        if attack >= 0:
            return _first_open(is_open, board, _TA_FIGHT, _TA_MOVE_FIGHT, _TA_RUN_FIGHT), K_FIGHT, distance
        if prof[s, p, P_ACCURACY] < 0:
            return -1, -1, distance
        # a shooter that cannot Fight steps away (no shot with an enemy adjacent, line 415), then shoots
        # a move goes "onto at least one tile" (387): no Move with speed 0, no Run with speed + run 0
        speed, run = prof[s, p, P_SPEED], prof[s, p, P_RUN]
        if speed >= 1:
            i = _first_open(is_open, board, _TA_MOVE_SHOOT, _T_NONE, _T_NONE)
            if i >= 0:
                return i, K_SHOOT, 1 + speed
        if speed + run >= 1:
            i = _first_open(is_open, board, _TA_RUN, _T_NONE, _T_NONE)
            if i >= 0:
                return i, -1, 1 + speed + run
        if speed >= 1:
            return _first_open(is_open, board, _TA_MOVE, _T_NONE, _T_NONE), -1, 1 + speed
        return -1, -1, distance
    if prof[s, p, P_ACCURACY] >= 0:
        i = _first_open(is_open, board, _TA_AIM_SHOOT, _T_NONE, _T_NONE)
        if i >= 0:
            return i, K_AIM, distance
        return _first_open(is_open, board, _TA_SHOOT, _TA_MOVE_SHOOT, _T_NONE), K_SHOOT, distance
    if attack < 0:
        return -1, -1, distance
    speed, run = prof[s, p, P_SPEED], prof[s, p, P_RUN]
    if distance - 1 <= speed:
        i = _first_open(is_open, board, _TA_MOVE_FIGHT, _T_NONE, _T_NONE)
        if i >= 0:
            return i, K_FIGHT, 1
    if distance - 1 <= speed + run:
        i = _first_open(is_open, board, _TA_RUN_FIGHT, _T_NONE, _T_NONE)
        if i >= 0:
            return i, K_FIGHT, 1
    if speed + run >= 1:
        i = _first_open(is_open, board, _TA_RUN, _T_NONE, _T_NONE)
        if i >= 0:
            return i, -1, max(1, distance - speed - run)
    if speed >= 1:
        i = _first_open(is_open, board, _TA_MOVE, _TA_MOVE_SHOOT, _TA_MOVE_FIGHT)
        if i >= 0:
            return i, -1, max(1, distance - speed)
    return -1, -1, distance


@nb.njit(**TRIAL_JIT)
def _end_of_activation(prof, st):
    """Death, then Panic, of both sides (lines 227, 519); the side removed, or -1."""
    for s in range(2):
        if st[s, T_WOUNDS] >= prof[s, st[s, T_PROFILE], P_HEALTH]:
            return s
    for s in range(2):
        if _has_pool(prof, st, s) and st[s, T_STRESS] >= prof[s, st[s, T_PROFILE], P_MORALE]:
            st[s, T_PANICKED] = 1
            st[s, T_STRESS] = 0
            st[s, T_PROFILE] = PANIC_PROFILE
    return -1


@nb.njit(**TRIAL_JIT)
def _price(prof, st, s, board, space):
    """Order tokens side s pays to activate on ``space``: the Move space waives colourless costs (157)."""
    p = st[s, T_PROFILE]
    return prof[s, p, P_MOVE_PRICE] if board[space] == A_MOVE else prof[s, p, P_PRICE]


@nb.njit(**TRIAL_JIT)
def _place_hourglass(prof, st, h, distance, is_open, board, spare):
    """Effect Phase (line 367): the space the Hourglass holder places it on, against the Hand holder h:
    the first open space (board order) that h's policy would not use this turn however the board closed,
    else the open space h's policy would use last; -1 when no space is open. ``spare`` is scratch."""
    for i in range(board.shape[0]):
        spare[i] = is_open[i]
    last = -1
    while True:
        i, _, _ = _choose(prof, st, h, distance, spare, board)
        if i < 0:
            break
        spare[i] = 0
        last = i
    for i in range(board.shape[0]):
        if spare[i] != 0:
            return i
    return last


@nb.njit(**TRIAL_JIT)
def _swaps(prof, st, h, distance, board, period, turn, policy, spare):
    """Cleanup (line 369): whether the Hourglass holder h exchanges it for the Hand: always, or (strike-first)
    when its first choice on the next turn's board, as things stand, would be an attack (Fight or Shoot):
    acting first then strikes first, while a side that would only move lets the enemy come to it."""
    if policy == Hourglass.ALWAYS:
        return True
    for i in range(board.shape[0]):
        spare[i] = 1 if period[i] == 0 or turn + 1 > 2 else 0
    space, kind, _ = _choose(prof, st, h, distance, spare, board)
    return space >= 0 and kind >= 0


@nb.njit(**TRIAL_JIT)
def _activate(prof, st, s, distance, is_open, board, at_index, cdf, values, guide, stream):
    """Side s's activation: (whether it activated, the new distance, the side removed or -1)."""
    p = st[s, T_PROFILE]
    if st[s, T_TURN_ACTS] > 0 and _has_pool(prof, st, s) and st[s, T_STRESS] + 1 >= prof[s, p, P_MORALE]:
        return False, distance, -1
    space, kind, moved = _choose(prof, st, s, distance, is_open, board)
    if space < 0:
        return False, distance, -1
    price = _price(prof, st, s, board, space)
    if st[s, T_TOKENS] < price:
        return False, distance, -1
    st[s, T_TOKENS] -= price
    st[s, T_SPENT] += price
    is_open[space] = 0
    if st[s, T_TURN_ACTS] > 0 and _has_pool(prof, st, s):
        st[s, T_STRESS] += 1
    st[s, T_TURN_ACTS] += 1
    st[s, T_ACTS] += 1
    if kind >= 0:
        o = 1 - s
        q = st[o, T_PROFILE]
        available = max(0, prof[o, q, P_ARMOR_POINTS] - st[o, T_BREAKS])
        pool = 1 if _has_pool(prof, st, o) else 0
        w, b, x = draw_attack(next_u64(stream), at_index[s, p, kind, q, available, pool], cdf, values, guide)
        st[o, T_WOUNDS] += w
        st[o, T_BREAKS] += b
        st[o, T_STRESS] += x
    return True, moved, _end_of_activation(prof, st)


@nb.njit(**TRIAL_JIT)
def _duel(prof, side, board, period, at_index, cdf, values, guide, start, turns, policy, st, is_open, spare,
          stream, out):
    """One duel (tests/naive_warbound.py's docstring); side 0 starts with the Hand (line 363)."""
    st[:, :] = 0
    st[:, T_PROFILE] = 0
    distance = start
    removed = -1
    turn = 1
    hand = 0
    hand_turns = 0
    for turn in range(1, turns + 1):
        for s in range(2):  # Leader Phase
            st[s, T_TOKENS] += side[s, S_ORDERS_1] if turn <= 2 else side[s, S_ORDERS_2]
            st[s, T_TURN_ACTS] = 0
            st[s, T_DONE] = 0
        for i in range(board.shape[0]):
            is_open[i] = 1 if period[i] == 0 or turn > 2 else 0
        # Effect Phase: "the player holding the Hourglass must place it on an open Action" (367)
        hourglass = -1
        if policy != Hourglass.NOT_PLAYED:
            hourglass = _place_hourglass(prof, st, hand, distance, is_open, board, spare)
        kept = False
        hand_turns += 1 - hand
        s = hand  # "The player holding the Hand ... at the beginning of the Action Phase activates ...
        # first" (365)
        while removed < 0 and (st[0, T_DONE] == 0 or st[1, T_DONE] == 0):
            if st[s, T_DONE] == 0:
                was_open = hourglass >= 0 and is_open[hourglass] != 0
                acted, distance, removed = _activate(prof, st, s, distance, is_open, board, at_index,
                                                     cdf, values, guide, stream)
                # "if a player, for one of his activations, is where the Hourglass is placed, he gains
                # the marker" (368): the Hand holder then keeps the Hand (369)
                if was_open and is_open[hourglass] == 0 and s == hand:
                    kept = True
                if not acted:
                    st[s, T_DONE] = 1
            s = 1 - s
        if removed >= 0:
            break
        for s in range(2):  # Cleanup: at most one token kept
            st[s, T_TOKENS] = min(st[s, T_TOKENS], 1)
        # "the player who owns the Hourglass marker can exchange it for the Hand marker" (369); the Hand
        # holder that gained it "keeps it and gives the Hourglass to his opponent"
        if (policy != Hourglass.NOT_PLAYED and not kept
                and _swaps(prof, st, 1 - hand, distance, board, period, turn, policy, spare)):
            hand = 1 - hand
    out[R_OUTCOME] = OUT_NEITHER if removed < 0 else 1 - removed
    for s in range(2):
        out[R_WOUNDS_0 + s] = st[s, T_WOUNDS]
        out[R_TOKENS_0 + s] = st[s, T_SPENT]
        out[R_PANIC_0 + s] = st[s, T_PANICKED]
        out[R_ACTS_0 + s] = st[s, T_ACTS]
        out[R_LOST_0 + s] = 1 if removed == s else 0
        health = prof[s, 0, P_HEALTH]
        out[R_DAMAGE_0 + s] = health if removed == s else min(st[s, T_WOUNDS], health - 1)
    out[R_TURN] = turn
    out[R_HAND_0] = hand_turns


@nb.njit(**JIT)
def duel_records(prof, side, board, period, at_index, cdf, values, guide, start, turns, policy, seed,
                 first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record of trial ``first_trial + k``, drawn
    from the stream (seed, first_trial + k) alone. ``policy``: an :class:`Hourglass` code."""
    st = np.zeros((2, N_STATE), np.int64)
    is_open = np.zeros(board.shape[0], np.int64)
    spare = np.zeros(board.shape[0], np.int64)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _duel(prof, side, board, period, at_index, cdf, values, guide, start, turns, policy, st, is_open,
              spare, stream, out[k])
