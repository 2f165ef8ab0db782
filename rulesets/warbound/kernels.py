"""Compiled Warbound: attacks drawn whole from exact tables (one 64-bit word gives the Wound, Break and
Stress tokens of one attack, simcore.sampling), and duels of two characters over the five turns.

The duel played is tests/naive_warbound.py's (its docstring is the specification): the twin rolls every die,
this kernel draws each attack whole. rulesets.warbound.simulate builds the tables and the side rows.

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

# --- every column and code the duel kernels read or emit, named once ---------------------------------------
# numba reads IntEnum members as compile-time integers, so kernels index arrays with them at no cost.


class AttackKind(enum.IntEnum):
    """The kinds of attack (the third index of ``at_index``)."""

    FIGHT = 0
    SHOOT = 1
    AIM = 2  # an aimed shot (Aim+Shoot)


N_KINDS = len(AttackKind)


class Profile(enum.IntEnum):
    """Columns of a profile row (int64[2 sides, 2 profiles, N_PROFILE], built by
    rulesets.warbound.simulate._profile_row); -1: none."""

    ATTACK = 0  # the Fight value, -1 when it cannot Fight
    SPEED = 1
    RUN = 2
    ACCURACY = 3  # the Shoot value at the duel's range, -1 when it cannot Shoot
    HEALTH = 4
    MORALE = 5  # -1: no Stress pool
    ARMOR_POINTS = 6
    PRICE = 7  # Order tokens an activation costs
    MOVE_PRICE = 8  # the same on the Move space (colourless costs waived)


N_PROFILE = len(Profile)


class Side(enum.IntEnum):
    """Columns of the side row (int64[2, N_SIDE])."""

    ORDERS_1 = 0  # Order tokens generated each turn of Period 1 (WB-order-periods)
    ORDERS_2 = 1  # the same in Period 2


N_SIDE = len(Side)
#: The profile a panicking side flips to (rulesets.warbound.simulate.Fighter.profiles: its front again when it
#: has no panic side or keeps the front by --no-panic).
PANIC_PROFILE = 1


class Record(enum.IntEnum):
    """Columns of a duel's record (int64[n, N_RECORD], one row per trial); per-side columns: side 0's
    member, then side 1's."""

    OUTCOME = 0  # DuelOutcome
    WOUNDS_0 = 1  # Wound tokens side 0 took
    WOUNDS_1 = 2
    TOKENS_0 = 3  # Order tokens side 0 spent
    TOKENS_1 = 4
    PANIC_0 = 5  # 1 when side 0 panicked
    PANIC_1 = 6
    ACTS_0 = 7  # side 0's activations
    ACTS_1 = 8
    LOST_0 = 9  # 1 when side 0 was removed
    LOST_1 = 10
    DAMAGE_0 = 11  # the front profile's Health if removed, else the Wound tokens (at most that Health - 1)
    DAMAGE_1 = 12
    TURN = 13  # the turn the duel ended
    HAND_0 = 14  # the turns side 0 held the Hand at the start of the Action Phase


N_RECORD = len(Record)


class DuelOutcome(enum.IntEnum):
    """How a duel ends (Record.OUTCOME)."""

    SIDE_0_WINS = 0  # side 1 removed
    SIDE_1_WINS = 1
    NEITHER = 2  # both stand after the last turn


class Hourglass(enum.IntEnum):
    """WB-hourglass-policy (rulesets.warbound.rules) as the kernel's codes."""

    STRIKE_FIRST = 0  # the Hourglass holder swaps when its first choice next turn would be an attack
    ALWAYS = 1  # the Hourglass holder swaps at every Cleanup it holds the Hourglass
    NOT_PLAYED = 2  # side 0 holds the Hand for all five turns


class State(enum.IntEnum):
    """Columns of a side's per-trial state (int64[2, N_STATE])."""

    PROFILE = 0  # the profile it plays (0 front, PANIC_PROFILE)
    WOUNDS = 1
    STRESS = 2
    BREAKS = 3  # Break tokens on its armor
    POOL = 4
    TOKENS = 5  # Order tokens held
    SPENT = 6  # Order tokens spent in all
    ACTS = 7  # activations in all
    TURN_ACTS = 8  # activations this turn
    DONE = 9  # 1 once it stops activating this turn
    PANICKED = 10


N_STATE = len(State)


class At(enum.IntEnum):
    """An attack table's place (int64[N_AT], the last axis of ``at_index``; simcore.sampling.TablePack):
    the outcome index packs ``wounds << (kb + ks) | breaks << ks | stress``."""

    START = 0  # the table's start in ``cdf`` and ``values``
    GUIDE = 1  # its guide's start in ``guide``
    BITS = 2  # the guide's bits (guide_pick's k)
    BREAK_BITS = 3  # kb
    STRESS_BITS = 4  # ks


N_AT = len(At)


@nb.njit(**TRIAL_JIT)
def draw_attack(word, at, cdf, values, guide):
    """(wounds, breaks, stress) of one attack drawn from the table ``at`` = (start, guide start, k, bits of
    breaks, bits of stress) with one 64-bit word: the outcome index packs them as
    ``wounds << (kb + ks) | breaks << ks | stress``."""
    index = guide_pick(word, cdf, values, guide, at[At.START], at[At.GUIDE], at[At.BITS])
    return split_outcome(index, at[At.BREAK_BITS], at[At.STRESS_BITS])


@nb.njit(**TRIAL_JIT)
def split_outcome(index, kb, ks):
    """(wounds, breaks, stress) of a packed outcome index ``wounds << (kb + ks) | breaks << ks | stress``."""
    return index >> (kb + ks), (index >> ks) & ((1 << kb) - 1), index & ((1 << ks) - 1)


@nb.njit(**JIT)
def attack_chunks(at, cdf, values, guide, seed, first_chunk, total_trials, chunk_trials, out):
    """One attack per trial, in simcore.runner's histogram contract: ``out[c, i]`` counts the trials whose
    packed outcome (see :func:`draw_attack`) is i: one count per attack, decoded afterwards."""
    for c in range(out.shape[0]):
        stream, trials = chunk_stream(seed, first_chunk + c, total_trials, chunk_trials)
        for _ in range(trials):
            index = guide_pick(next_u64(stream), cdf, values, guide, at[At.START], at[At.GUIDE], at[At.BITS])
            out[c, index] += 1


@nb.njit(**TRIAL_JIT)
def _has_pool(prof, st, s):
    return st[s, State.PANICKED] == 0 and prof[s, st[s, State.PROFILE], Profile.MORALE] >= 0


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
    p = st[s, State.PROFILE]
    attack = prof[s, p, Profile.ATTACK]
    if distance <= 1:
        if attack >= 0:
            space = _first_open(is_open, board, _TA_FIGHT, _TA_MOVE_FIGHT, _TA_RUN_FIGHT)
            return space, AttackKind.FIGHT, distance
        if prof[s, p, Profile.ACCURACY] < 0:
            return -1, -1, distance
        # a shooter that cannot Fight steps away (no shot with an enemy adjacent, line 415), then shoots
        # a move goes "onto at least one tile" (387): no Move with speed 0, no Run with speed + run 0
        speed, run = prof[s, p, Profile.SPEED], prof[s, p, Profile.RUN]
        if speed >= 1:
            i = _first_open(is_open, board, _TA_MOVE_SHOOT, _T_NONE, _T_NONE)
            if i >= 0:
                return i, AttackKind.SHOOT, 1 + speed
        if speed + run >= 1:
            i = _first_open(is_open, board, _TA_RUN, _T_NONE, _T_NONE)
            if i >= 0:
                return i, -1, 1 + speed + run
        if speed >= 1:
            return _first_open(is_open, board, _TA_MOVE, _T_NONE, _T_NONE), -1, 1 + speed
        return -1, -1, distance
    if prof[s, p, Profile.ACCURACY] >= 0:
        i = _first_open(is_open, board, _TA_AIM_SHOOT, _T_NONE, _T_NONE)
        if i >= 0:
            return i, AttackKind.AIM, distance
        return _first_open(is_open, board, _TA_SHOOT, _TA_MOVE_SHOOT, _T_NONE), AttackKind.SHOOT, distance
    if attack < 0:
        return -1, -1, distance
    speed, run = prof[s, p, Profile.SPEED], prof[s, p, Profile.RUN]
    if distance - 1 <= speed:
        i = _first_open(is_open, board, _TA_MOVE_FIGHT, _T_NONE, _T_NONE)
        if i >= 0:
            return i, AttackKind.FIGHT, 1
    if distance - 1 <= speed + run:
        i = _first_open(is_open, board, _TA_RUN_FIGHT, _T_NONE, _T_NONE)
        if i >= 0:
            return i, AttackKind.FIGHT, 1
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
        if st[s, State.WOUNDS] >= prof[s, st[s, State.PROFILE], Profile.HEALTH]:
            return s
    for s in range(2):
        if _has_pool(prof, st, s) and st[s, State.STRESS] >= prof[s, st[s, State.PROFILE], Profile.MORALE]:
            st[s, State.PANICKED] = 1
            st[s, State.STRESS] = 0
            st[s, State.PROFILE] = PANIC_PROFILE
    return -1


@nb.njit(**TRIAL_JIT)
def _price(prof, st, s, board, space):
    """Order tokens side s pays to activate on ``space``: the Move space waives colourless costs (157)."""
    p = st[s, State.PROFILE]
    return prof[s, p, Profile.MOVE_PRICE] if board[space] == A_MOVE else prof[s, p, Profile.PRICE]


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
    p = st[s, State.PROFILE]
    if (st[s, State.TURN_ACTS] > 0 and _has_pool(prof, st, s)
            and st[s, State.STRESS] + 1 >= prof[s, p, Profile.MORALE]):
        return False, distance, -1
    space, kind, moved = _choose(prof, st, s, distance, is_open, board)
    if space < 0:
        return False, distance, -1
    price = _price(prof, st, s, board, space)
    if st[s, State.TOKENS] < price:
        return False, distance, -1
    st[s, State.TOKENS] -= price
    st[s, State.SPENT] += price
    is_open[space] = 0
    if st[s, State.TURN_ACTS] > 0 and _has_pool(prof, st, s):
        st[s, State.STRESS] += 1
    st[s, State.TURN_ACTS] += 1
    st[s, State.ACTS] += 1
    if kind >= 0:
        o = 1 - s
        q = st[o, State.PROFILE]
        available = max(0, prof[o, q, Profile.ARMOR_POINTS] - st[o, State.BREAKS])
        pool = 1 if _has_pool(prof, st, o) else 0
        w, b, x = draw_attack(next_u64(stream), at_index[s, p, kind, q, available, pool], cdf, values, guide)
        st[o, State.WOUNDS] += w
        st[o, State.BREAKS] += b
        st[o, State.STRESS] += x
    return True, moved, _end_of_activation(prof, st)


@nb.njit(**TRIAL_JIT)
def _duel(prof, side, board, period, at_index, cdf, values, guide, start, turns, policy, st, is_open, spare,
          stream, out):
    """One duel (tests/naive_warbound.py's docstring); side 0 starts with the Hand (line 363)."""
    st[:, :] = 0
    st[:, State.PROFILE] = 0
    distance = start
    removed = -1
    turn = 1
    hand = 0
    hand_turns = 0
    for turn in range(1, turns + 1):
        for s in range(2):  # Leader Phase
            st[s, State.TOKENS] += side[s, Side.ORDERS_1] if turn <= 2 else side[s, Side.ORDERS_2]
            st[s, State.TURN_ACTS] = 0
            st[s, State.DONE] = 0
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
        while removed < 0 and (st[0, State.DONE] == 0 or st[1, State.DONE] == 0):
            if st[s, State.DONE] == 0:
                was_open = hourglass >= 0 and is_open[hourglass] != 0
                acted, distance, removed = _activate(prof, st, s, distance, is_open, board, at_index,
                                                     cdf, values, guide, stream)
                # "if a player, for one of his activations, is where the Hourglass is placed, he gains
                # the marker" (368): the Hand holder then keeps the Hand (369)
                if was_open and is_open[hourglass] == 0 and s == hand:
                    kept = True
                if not acted:
                    st[s, State.DONE] = 1
            s = 1 - s
        if removed >= 0:
            break
        for s in range(2):  # Cleanup: at most one token kept
            st[s, State.TOKENS] = min(st[s, State.TOKENS], 1)
        # "the player who owns the Hourglass marker can exchange it for the Hand marker" (369); the Hand
        # holder that gained it "keeps it and gives the Hourglass to his opponent"
        if (policy != Hourglass.NOT_PLAYED and not kept
                and _swaps(prof, st, 1 - hand, distance, board, period, turn, policy, spare)):
            hand = 1 - hand
    out[Record.OUTCOME] = DuelOutcome.NEITHER if removed < 0 else 1 - removed  # the other side wins
    for s in range(2):  # each per-side column: its side 0 member, then side 1's (Record)
        out[Record.WOUNDS_0 + s] = st[s, State.WOUNDS]
        out[Record.TOKENS_0 + s] = st[s, State.SPENT]
        out[Record.PANIC_0 + s] = st[s, State.PANICKED]
        out[Record.ACTS_0 + s] = st[s, State.ACTS]
        out[Record.LOST_0 + s] = 1 if removed == s else 0
        health = prof[s, 0, Profile.HEALTH]
        out[Record.DAMAGE_0 + s] = health if removed == s else min(st[s, State.WOUNDS], health - 1)
    out[Record.TURN] = turn
    out[Record.HAND_0] = hand_turns


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
