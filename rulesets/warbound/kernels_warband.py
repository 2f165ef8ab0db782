"""Compiled Warbound Warband contests, part 1: the codes, the board and the paths (private;
rulesets/warbound/kernels_contest.py plays the contest, rulesets/warbound/warband.py is the public wrapper,
tests/naive_warbound_warband.py's docstring is the specification and its twin rolls every die).

A contest's arrays travel as two tuples, unpacked where they are used:

* ``game`` = (prof, chars, dist, nbr, board, spaces, targeting), fixed for a run:
  ``prof`` int64[N, 2, N_PROF]: character c's front (0) and panic (1) profile, columns :class:`Prof` (-1:
  none), side 0's characters first, each side in its warband order (the entry first); ``chars`` int64[N,
  N_CHAR]: columns :class:`Char`; ``dist`` int64[T, T]: hex distances; ``nbr`` int64[2, T, 6]: each tile's
  neighbours in side 0's and side 1's direction order (-1 off the board); ``board`` int64[S]: each Action
  space's action (kernels.A_*); ``spaces`` int64[N_ACTIONS, S + 1]: the spaces of each action
  (:func:`spaces_by_action`); ``targeting``: a :class:`Targeting` code.
* ``state`` = (st, sst, cd, occ, plans, path), the trial's state and scratch: ``st`` int64[N, N_STATE], one
  packed row per character, columns :class:`CharState`; ``sst`` int64[2, N_SIDE_STATE], columns
  :class:`SideState`; ``cd`` int64[N, N + N_AROUND], the distances between characters and :class:`Around`;
  ``occ`` int64[T], the character on each tile or -1; ``plans`` int64[N, N_PLANNED] (kernels_contest);
  ``path`` int64[MAX_PATH], a walk's tiles.
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.warbound.kernels import N_ACTIONS
from rulesets.warbound.rules import MAX_CHARACTERS
from simcore.config import TRIAL_JIT

#: A distance no two tiles reach.
FAR = 1 << 30


class Prof(IntEnum):
    """Columns of a profile row (one side of a Character card); -1: the character has none."""

    ATTACK = 0
    SPEED = 1
    RUN = 2
    ACC_NEAR = 3
    ACC_FAR = 4
    HEALTH = 5
    MORALE = 6
    ARMOR_POINTS = 7
    PRICE = 8  # Order tokens an activation costs
    MOVE_PRICE = 9  # on the Move space: colourless costs waived (line 157)


N_PROF = len(Prof)


class Char(IntEnum):
    """Columns of a character's fixed row."""

    SIDE = 0
    ORDER = 1  # its place in its warband (0: the entry)
    MINIS = 2  # miniatures: 2 in Formation
    WORTH = 3  # its total activation cost (WB-targeting=most-valuable)
    TILE_A = 4  # where its miniatures deploy (TILE_B -1: one miniature)
    TILE_B = 5
    LOSS_WEIGHT = 6  # worth x L / front Health, L a common multiple of every front Health: a Health token
    # of it lost is worth LOSS_WEIGHT / L tokens, in whole numbers


N_CHAR = len(Char)


class SideRow(IntEnum):
    """Columns of a side's fixed row: its Leader's Order tokens each turn of Period 1 and of Period 2."""

    ORDERS_1 = 0
    ORDERS_2 = 1


N_SIDE = len(SideRow)


class CharState(IntEnum):
    """Columns of a character's row of the trial's state."""

    ALIVE = 0
    PROFILE = 1  # 0 front, 1 panic side
    WOUNDS = 2
    STRESS = 3
    BREAKS = 4
    PANICKED = 5
    TURN_ACTS = 6  # activations this turn
    ACTS = 7  # activations this contest
    TILE_A = 8  # its miniatures' tiles (TILE_B -1: none)
    TILE_B = 9


N_STATE = len(CharState)


class SideState(IntEnum):
    """Columns of a side's row of the trial's state."""

    TOKENS = 0
    SPENT = 1
    DONE = 2  # done for this turn


N_SIDE_STATE = len(SideState)


class Around(IntEnum):
    """Columns of a row of ``cd`` after the N distances to every character: what stands around the
    character, kept by :func:`measure`."""

    NEAREST_ENEMY = 0  # the distance to the nearest living enemy
    ADJACENT_SIDE_0 = 1  # living characters of side 0 next to it
    ADJACENT_SIDE_1 = 2


N_AROUND = len(Around)


class Kind(IntEnum):
    """The attack an attack table is for: a Fight, or a Shoot (with Aim) at the first accuracy value (the
    closest target) or the second."""

    FIGHT = 0
    SHOOT_NEAR = 1
    AIM_NEAR = 2
    SHOOT_FAR = 3
    AIM_FAR = 4


N_KINDS = len(Kind)


class Targeting(IntEnum):
    """WB-targeting as the kernel's codes."""

    NEAREST = 0
    WEAKEST = 1
    MOST_VALUABLE = 2


class Outcome(IntEnum):
    SIDE_0 = 0  # side 0 removed every enemy character (Record.OUTCOME); side 0 ahead (Record.AHEAD)
    SIDE_1 = 1
    NEITHER = 2  # both stand after the last turn; even


class Record(IntEnum):
    """Columns of a contest's record; DAMAGE + s * MAX_CHARACTERS + k is the damage of side s's k-th
    character (:func:`damage_column`): its front Health if removed, else min(Wound tokens, its front Health
    - 1)."""

    OUTCOME = 0
    TURN = 1  # the turn it ended
    HAND_0 = 2  # turns side 0 held the Hand at the start of the Action Phase
    WOUNDS_0 = 3  # Wound tokens side 0's characters took
    WOUNDS_1 = 4
    TOKENS_0 = 5  # Order tokens spent
    TOKENS_1 = 6
    ACTS_0 = 7  # activations
    ACTS_1 = 8
    PANICS_0 = 9  # characters that panicked
    PANICS_1 = 10
    LOST_0 = 11  # characters removed
    LOST_1 = 12
    ENTRY_ACTS_0 = 13  # the entry's activations
    ENTRY_ACTS_1 = 14
    ENTRY_PANIC_0 = 15  # the entry panicked
    ENTRY_PANIC_1 = 16
    AHEAD = 17  # the side ahead: the one that removed every enemy, else the one that destroyed more tokens'
    # worth than it lost (worth x fraction of Health destroyed, Char.LOSS_WEIGHT); NEITHER when even
    DAMAGE = 18


N_RECORD = Record.DAMAGE + 2 * MAX_CHARACTERS


def damage_column(side: int, k: int) -> int:
    """The record column of the damage of side ``side``'s ``k``-th character (0: its entry)."""
    return int(Record.DAMAGE) + side * MAX_CHARACTERS + k


def spaces_by_action(codes: np.ndarray) -> np.ndarray:
    """int64[N_ACTIONS, S + 1]: row a lists the spaces (board order) holding action a, then -1."""
    out = np.full((N_ACTIONS, codes.shape[0] + 1), -1, np.int64)
    for a in range(N_ACTIONS):
        where = np.flatnonzero(codes == a)
        out[a, :where.size] = where
    return out


# --- where the characters stand -------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def char_dist(st, dist, c, e):
    """The least distance between a miniature of c and one of e."""
    a0, a1 = st[c, CharState.TILE_A], st[c, CharState.TILE_B]
    b0, b1 = st[e, CharState.TILE_A], st[e, CharState.TILE_B]
    best = dist[a0, b0]
    if b1 >= 0:
        best = min(best, dist[a0, b1])
    if a1 >= 0:
        best = min(best, dist[a1, b0])
        if b1 >= 0:
            best = min(best, dist[a1, b1])
    return best


@nb.njit(**TRIAL_JIT)
def _tile_dist(st, dist, t, e):
    """The least distance from tile t to a miniature of e."""
    best = dist[t, st[e, CharState.TILE_A]]
    b = st[e, CharState.TILE_B]
    if b >= 0 and dist[t, b] < best:
        best = dist[t, b]
    return best


@nb.njit(**TRIAL_JIT)
def _room(game, st, side, t):
    """The least distance from tile t to a living miniature of the enemies of ``side``."""
    _, chars, dist, _, _, _, _ = game
    best = FAR
    for e in range(st.shape[0]):
        if st[e, CharState.ALIVE] != 0 and chars[e, Char.SIDE] != side:
            best = min(best, _tile_dist(st, dist, t, e))
    return best


@nb.njit(**TRIAL_JIT)
def measure(game, state, moved):
    """``cd[c, e]``: the distance between characters c and e, for every pair (``moved`` -1) or the pairs of
    character ``moved`` (after its move), then :class:`Around` (``moved`` -2: after a removal)."""
    _, chars, dist, _, _, _, _ = game
    st, _, cd, _, _, _ = state
    n = st.shape[0]
    if moved != -2:
        for c in range(n):
            for e in range(c + 1, n):
                if moved < 0 or c == moved or e == moved:
                    d = char_dist(st, dist, c, e)
                    cd[c, e] = d
                    cd[e, c] = d
    for c in range(n):
        cd[c, n + Around.NEAREST_ENEMY] = FAR
        cd[c, n + Around.ADJACENT_SIDE_0] = 0
        cd[c, n + Around.ADJACENT_SIDE_1] = 0
        for e in range(n):
            if e == c or st[e, CharState.ALIVE] == 0:
                continue
            if chars[e, Char.SIDE] != chars[c, Char.SIDE]:
                cd[c, n + Around.NEAREST_ENEMY] = min(cd[c, n + Around.NEAREST_ENEMY], cd[c, e])
            if cd[c, e] == 1:
                cd[c, n + Around.ADJACENT_SIDE_0 + chars[e, Char.SIDE]] += 1


@nb.njit(**TRIAL_JIT)
def nearest_enemy(st, cd, c):
    """The distance from c to its nearest living enemy (``state``'s ``st`` and ``cd``)."""
    return cd[c, st.shape[0] + Around.NEAREST_ENEMY]


# --- targets --------------------------------------------------------------------------------------------

#: Which enemies :func:`pick` chooses among.
ADJACENT, VALID_SHOT, ANY_ENEMY = 0, 1, 2


@nb.njit(**TRIAL_JIT)
def _next_to_ally(chars, st, cd, c, e):
    """Whether enemy e stands next to a living ally of c (no Shoot at it, line 409)."""
    allies = cd[e, st.shape[0] + Around.ADJACENT_SIDE_0 + chars[c, Char.SIDE]]
    if st[c, CharState.ALIVE] != 0 and cd[c, e] == 1:
        allies -= 1
    return allies > 0


@nb.njit(**TRIAL_JIT)
def pick(prof, chars, targeting, st, cd, c, mode):
    """(target, whether it is among the closest) by WB-targeting among c's adjacent enemies, valid Shoot
    targets or living enemies (``mode``); ties to the first in the enemy's warband order; target -1: none.
    It takes ``game``'s and ``state``'s arrays it reads, not the tuples (see kernels_contest._space_of)."""
    least = nearest_enemy(st, cd, c)
    p = st[c, CharState.PROFILE]
    best, k1, k2, k3 = -1, 0, 0, 0
    for e in range(st.shape[0]):
        if st[e, CharState.ALIVE] == 0 or chars[e, Char.SIDE] == chars[c, Char.SIDE]:
            continue
        d = cd[c, e]
        if mode == ADJACENT and d != 1:
            continue
        if mode == VALID_SHOT and (_next_to_ally(chars, st, cd, c, e)
                                   or (d != least and prof[c, p, Prof.ACC_FAR] < 0)):
            continue
        order = chars[e, Char.ORDER]
        if targeting == Targeting.WEAKEST:
            a1, a2, a3 = prof[e, st[e, CharState.PROFILE], Prof.HEALTH] - st[e, CharState.WOUNDS], d, order
        elif targeting == Targeting.MOST_VALUABLE:
            a1, a2, a3 = -chars[e, Char.WORTH], d, order
        else:
            a1, a2, a3 = d, order, 0
        if best < 0 or (a1, a2, a3) < (k1, k2, k3):
            best, k1, k2, k3 = e, a1, a2, a3
    return best, best >= 0 and cd[c, best] == least


# --- paths ----------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def approach(game, state, c, target, steps):
    """(lead miniature's column, steps written to ``path``, reach): c's lead walks towards ``target`` (the
    twin's approach); reach = the step that ends next to it, 0 if none does."""
    _, chars, dist, nbr, _, _, _ = game
    st, _, _, occ, _, path = state
    lead = CharState.TILE_A
    b = st[c, CharState.TILE_B]
    if b >= 0 and _tile_dist(st, dist, b, target) < _tile_dist(st, dist, st[c, CharState.TILE_A], target):
        lead = CharState.TILE_B
    side = chars[c, Char.SIDE]
    cur = st[c, lead]
    n, reach = 0, 0
    for _ in range(steps):
        d = _tile_dist(st, dist, cur, target)
        if d <= 1:
            break
        best, best_d = -1, d
        for k in range(6):
            t = nbr[side, cur, k]
            if t < 0 or occ[t] >= 0:
                continue
            dt = _tile_dist(st, dist, t, target)
            if dt < best_d:
                best, best_d = t, dt
                if dt == d - 1:
                    break  # one step changes a distance by one at most: no later neighbour is nearer
        if best < 0:
            break
        path[n] = best
        n += 1
        cur = best
        if reach == 0 and best_d <= 1:
            reach = n
    return lead, n, reach


@nb.njit(**TRIAL_JIT)
def flee(game, state, c, steps):
    """(lead miniature's column, steps written to ``path``): c's lead walks away from the enemies."""
    _, chars, _, nbr, _, _, _ = game
    st, _, _, occ, _, path = state
    side = chars[c, Char.SIDE]
    lead = CharState.TILE_A
    b = st[c, CharState.TILE_B]
    if b >= 0 and _room(game, st, side, b) > _room(game, st, side, st[c, CharState.TILE_A]):
        lead = CharState.TILE_B
    cur = st[c, lead]
    n = 0
    for _ in range(steps):
        best, best_m = -1, _room(game, st, side, cur)
        for k in range(6):
            t = nbr[side, cur, k]
            if t < 0 or occ[t] >= 0:
                continue
            m = _room(game, st, side, t)
            if m > best_m:
                best, best_m = t, m
        if best < 0:
            break
        path[n] = best
        n += 1
        cur = best
    return lead, n


@nb.njit(**TRIAL_JIT)
def walk(state, c, lead, n):
    """c's lead along the first n tiles of ``path``; its other miniature to the last tile the lead left."""
    st, _, _, occ, _, path = state
    if n == 0:
        return
    start = st[c, lead]
    left = path[n - 2] if n >= 2 else start
    other = CharState.TILE_B if lead == CharState.TILE_A else CharState.TILE_A
    occ[start] = -1
    if st[c, other] >= 0:
        occ[st[c, other]] = -1
        st[c, other] = left
        occ[left] = c
    st[c, lead] = path[n - 1]
    occ[path[n - 1]] = c
