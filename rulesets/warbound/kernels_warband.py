"""Compiled Warbound Warband contests, part 1: the codes, the board and the paths (private;
rulesets/warbound/kernels_contest.py plays the contest, rulesets/warbound/warband.py is the public wrapper,
tests/naive_warbound_warband.py's docstring is the specification and its twin rolls every die).

A contest reads one packed int64 array ``W`` (kernels_contest.pack_contest), so that each helper holds one
array: numba counts a reference to every array a function holds, an atomic operation at each call, and
passing tuples of twelve arrays made most of a contest's time. ``W`` is a header, the game's blocks (fixed
for a run) and the trial's state's blocks (its state and scratch); each block is its array in C order:

* the header: the game's sizes and codes and where each of its blocks starts (:class:`GameSlot`), then
  where each of the state's blocks starts (:class:`StateSlot`);
* the game: ``prof`` int64[N, 2, N_PROF]: character c's front (0) and panic (1) profile, columns
  :class:`Prof` (-1: none), side 0's characters first, each side in its warband order (the entry first);
  ``chars`` int64[N, N_CHAR]: columns :class:`Char`; ``sides`` int64[2, N_SIDE]: columns :class:`SideRow`;
  ``board`` int64[S]: each Action space's action (kernels.A_*); ``spaces`` int64[N_ACTIONS, S + 1]: the
  spaces of each action (:func:`spaces_by_action`); ``period`` int64[S]: each space's Period; ``dist``
  int64[T, T]: hex distances; ``nbr`` int64[2, T, 6]: each tile's neighbours in side 0's and side 1's
  direction order (-1 off the board); ``at_index`` (kernels_contest);
* the trial's state: ``st`` int64[N, N_STATE], one row per character, columns :class:`CharState`; ``sst``
  int64[2, N_SIDE_STATE], columns :class:`SideState`; ``cd`` int64[N, N + N_AROUND], the distances between
  characters and :class:`Around`; ``occ`` int64[T], the character on each tile or -1; ``plans`` int64[N,
  N_PLANNED] (kernels_contest); ``path`` int64[MAX_PATH], a walk's tiles; the open Action spaces int64[S]
  and two int64[S] scratch blocks.

A helper reads the offsets it needs from the header into local ints and indexes ``W`` with them:
``W[W[StateSlot.ST] + c * N_STATE + CharState.WOUNDS]`` is character c's Wound tokens, ``W[W[GameSlot.DIST]
+ t * T + u]`` the distance between tiles t and u.
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


# --- the contest array ----------------------------------------------------------------------------------


class GameSlot(IntEnum):
    """The first part of ``W``'s header: the game's sizes and codes, then where each of its blocks starts;
    each block is its array in C order (``W[W[GameSlot.DIST] + t * T + u]`` is ``dist[t, u]``)."""

    CHARACTERS = 0  # N
    TILES = 1  # T
    SPACES = 2  # S, the board's Action spaces
    ARMOR = 3  # at_index's armor points axis: the most armor points + 1
    TURNS = 4
    POLICY = 5  # a kernels.Hourglass code
    TARGETING = 6  # a Targeting code
    PROF = 7  # int64[N, 2, N_PROF]
    CHARS = 8  # int64[N, N_CHAR]
    SIDES = 9  # int64[2, N_SIDE]
    BOARD = 10  # int64[S]
    SPACE_LISTS = 11  # int64[N_ACTIONS, S + 1] (spaces_by_action)
    PERIOD = 12  # int64[S]: each space's Period
    DIST = 13  # int64[T, T]
    NBR = 14  # int64[2, T, 6]
    AT_INDEX = 15  # int64[N, 2, N_KINDS, N, 2, ARMOR, 2, kernels.N_AT] (kernels_contest)


N_GAME_HEADER = len(GameSlot)


class StateSlot(IntEnum):
    """The second part of ``W``'s header, after :class:`GameSlot`'s: where each block of the trial's state
    starts."""

    ST = N_GAME_HEADER  # int64[N, N_STATE]: a row per character, columns CharState
    SST = N_GAME_HEADER + 1  # int64[2, N_SIDE_STATE]: columns SideState
    CD = N_GAME_HEADER + 2  # int64[N, N + N_AROUND]: the distances between characters, then Around
    OCC = N_GAME_HEADER + 3  # int64[T]: the character on each tile or -1
    PLANS = N_GAME_HEADER + 4  # int64[N, N_PLANNED] (kernels_contest.Planned)
    PATH = N_GAME_HEADER + 5  # int64[MAX_PATH]: a walk's tiles
    OPEN = N_GAME_HEADER + 6  # int64[S]: the open Action spaces this turn
    RANKED = N_GAME_HEADER + 7  # int64[S] scratch (kernels_contest._place_hourglass, _swaps)
    TRIAL = N_GAME_HEADER + 8  # int64[S] scratch


N_HEADER = N_GAME_HEADER + len(StateSlot)


@nb.njit(**TRIAL_JIT)
def char_dist(W, c, e):
    """The least distance between a miniature of c and one of e."""
    dist, tiles = W[GameSlot.DIST], W[GameSlot.TILES]
    rc, re = W[StateSlot.ST] + c * N_STATE, W[StateSlot.ST] + e * N_STATE
    a0, a1 = W[rc + CharState.TILE_A], W[rc + CharState.TILE_B]
    b0, b1 = W[re + CharState.TILE_A], W[re + CharState.TILE_B]
    # a miniature a character does not have (-1) stands in as its first: the four distances are read on
    # every path (W read last in one place, so numba's pruning drops the count it takes on W)
    a1 = a1 if a1 >= 0 else a0
    b1 = b1 if b1 >= 0 else b0
    return min(min(W[dist + a0 * tiles + b0], W[dist + a0 * tiles + b1]),
               min(W[dist + a1 * tiles + b0], W[dist + a1 * tiles + b1]))


@nb.njit(**TRIAL_JIT)
def _tile_dist(W, t, e):
    """The least distance from tile t to a miniature of e."""
    row = W[GameSlot.DIST] + t * W[GameSlot.TILES]
    re = W[StateSlot.ST] + e * N_STATE
    a, b = W[re + CharState.TILE_A], W[re + CharState.TILE_B]
    return min(W[row + a], W[row + (b if b >= 0 else a)])  # as char_dist: W read last in one place


@nb.njit(**TRIAL_JIT)
def _room(W, side, t):
    """The least distance from tile t to a living miniature of the enemies of ``side``."""
    chars, st = W[GameSlot.CHARS], W[StateSlot.ST]
    best = FAR
    for e in range(W[GameSlot.CHARACTERS]):
        if W[st + e * N_STATE + CharState.ALIVE] != 0 and W[chars + e * N_CHAR + Char.SIDE] != side:
            best = min(best, _tile_dist(W, t, e))
    return best


@nb.njit(**TRIAL_JIT)
def measure(W, moved):
    """``cd[c, e]``: the distance between characters c and e, for every pair (``moved`` -1) or the pairs of
    character ``moved`` (after its move), then :class:`Around` (``moved`` -2: after a removal)."""
    n, chars = W[GameSlot.CHARACTERS], W[GameSlot.CHARS]
    st, cd = W[StateSlot.ST], W[StateSlot.CD]
    width = n + N_AROUND
    if moved != -2:
        for c in range(n):
            for e in range(c + 1, n):
                if moved < 0 or c == moved or e == moved:
                    d = char_dist(W, c, e)
                    W[cd + c * width + e] = d
                    W[cd + e * width + c] = d
    for c in range(n):
        row = cd + c * width
        near = row + n + Around.NEAREST_ENEMY
        W[near] = FAR
        W[row + n + Around.ADJACENT_SIDE_0] = 0
        W[row + n + Around.ADJACENT_SIDE_1] = 0
        side = W[chars + c * N_CHAR + Char.SIDE]
        for e in range(n):
            if e == c or W[st + e * N_STATE + CharState.ALIVE] == 0:
                continue
            other = W[chars + e * N_CHAR + Char.SIDE]
            if other != side:
                W[near] = min(W[near], W[row + e])
            if W[row + e] == 1:
                W[row + n + Around.ADJACENT_SIDE_0 + other] += 1


@nb.njit(**TRIAL_JIT)
def nearest_enemy(W, c):
    """The distance from c to its nearest living enemy."""
    n = W[GameSlot.CHARACTERS]
    return W[W[StateSlot.CD] + c * (n + N_AROUND) + n + Around.NEAREST_ENEMY]


# --- targets --------------------------------------------------------------------------------------------

#: Which enemies :func:`pick` chooses among.
ADJACENT, VALID_SHOT, ANY_ENEMY = 0, 1, 2


@nb.njit(**TRIAL_JIT)
def _next_to_ally(W, c, e):
    """Whether enemy e stands next to a living ally of c (no Shoot at it, line 409)."""
    n, cd = W[GameSlot.CHARACTERS], W[StateSlot.CD]
    width = n + N_AROUND
    allies = W[cd + e * width + n + Around.ADJACENT_SIDE_0 + W[W[GameSlot.CHARS] + c * N_CHAR + Char.SIDE]]
    alive, adjacent = W[W[StateSlot.ST] + c * N_STATE + CharState.ALIVE] != 0, W[cd + c * width + e] == 1
    return allies - (1 if alive and adjacent else 0) > 0  # as char_dist: W read last in one place


@nb.njit(**TRIAL_JIT)
def pick(W, c, mode):
    """(target, whether it is among the closest) by WB-targeting among c's adjacent enemies, valid Shoot
    targets or living enemies (``mode``); ties to the first in the enemy's warband order; target -1: none."""
    n, prof, chars, targeting = (W[GameSlot.CHARACTERS], W[GameSlot.PROF], W[GameSlot.CHARS],
                                 W[GameSlot.TARGETING])
    st, row = W[StateSlot.ST], W[StateSlot.CD] + c * (n + N_AROUND)
    least = nearest_enemy(W, c)
    far = W[prof + (2 * c + W[st + c * N_STATE + CharState.PROFILE]) * N_PROF + Prof.ACC_FAR]
    side = W[chars + c * N_CHAR + Char.SIDE]
    best, k1, k2, k3 = -1, 0, 0, 0
    for e in range(n):
        re, ce = st + e * N_STATE, chars + e * N_CHAR
        if W[re + CharState.ALIVE] == 0 or W[ce + Char.SIDE] == side:
            continue
        d = W[row + e]
        if mode == ADJACENT and d != 1:
            continue
        if mode == VALID_SHOT and (_next_to_ally(W, c, e) or (d != least and far < 0)):
            continue
        order = W[ce + Char.ORDER]
        if targeting == Targeting.WEAKEST:
            health = W[prof + (2 * e + W[re + CharState.PROFILE]) * N_PROF + Prof.HEALTH]
            a1, a2, a3 = health - W[re + CharState.WOUNDS], d, order
        elif targeting == Targeting.MOST_VALUABLE:
            a1, a2, a3 = -W[ce + Char.WORTH], d, order
        else:
            a1, a2, a3 = d, order, 0
        if best < 0 or (a1, a2, a3) < (k1, k2, k3):
            best, k1, k2, k3 = e, a1, a2, a3
    closest = W[row + max(best, 0)] == least  # read whether or not one was found: W's last read in one place
    return best, best >= 0 and closest


# --- paths ----------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def approach(W, c, target, steps):
    """(lead miniature's column, steps written to ``path``, reach): c's lead walks towards ``target`` (the
    twin's approach); reach = the step that ends next to it, 0 if none does."""
    tiles, nbr = W[GameSlot.TILES], W[GameSlot.NBR]
    occ, path = W[StateSlot.OCC], W[StateSlot.PATH]
    rc = W[StateSlot.ST] + c * N_STATE
    a, b = W[rc + CharState.TILE_A], W[rc + CharState.TILE_B]
    # both measured whether or not the second miniature exists (W read on every path alike)
    from_b, from_a = _tile_dist(W, b if b >= 0 else a, target), _tile_dist(W, a, target)
    lead = CharState.TILE_B if b >= 0 and from_b < from_a else CharState.TILE_A
    side = W[W[GameSlot.CHARS] + c * N_CHAR + Char.SIDE]
    cur = W[rc + lead]
    n, reach, best = 0, 0, 0
    # one way out of the walk (no break: W read last at one place, where numba's pruning finds it)
    while best >= 0 and n < steps:  # until no free neighbour is nearer (best -1), or next to it
        d = _tile_dist(W, cur, target)
        best, best_d = -1, d
        if d > 1:
            around = nbr + (side * tiles + cur) * 6
            for k in range(6):
                t = W[around + k]
                if t < 0 or W[occ + t] >= 0:
                    continue
                dt = _tile_dist(W, t, target)
                if dt < best_d:
                    best, best_d = t, dt
                    if dt == d - 1:
                        break  # one step changes a distance by one at most: no later neighbour is nearer
        if best >= 0:
            W[path + n] = best
            n += 1
            cur = best
            if reach == 0 and best_d <= 1:
                reach = n
    return lead, n, reach


@nb.njit(**TRIAL_JIT)
def flee(W, c, steps):
    """(lead miniature's column, steps written to ``path``): c's lead walks away from the enemies."""
    tiles, nbr = W[GameSlot.TILES], W[GameSlot.NBR]
    occ, path = W[StateSlot.OCC], W[StateSlot.PATH]
    rc = W[StateSlot.ST] + c * N_STATE
    side = W[W[GameSlot.CHARS] + c * N_CHAR + Char.SIDE]
    a, b = W[rc + CharState.TILE_A], W[rc + CharState.TILE_B]
    room_b, room_a = _room(W, side, b if b >= 0 else a), _room(W, side, a)  # as approach: both measured
    lead = CharState.TILE_B if b >= 0 and room_b > room_a else CharState.TILE_A
    cur = W[rc + lead]
    n, best = 0, 0
    while best >= 0 and n < steps:  # as approach: one way out, until no free neighbour has more room
        best, best_m = -1, _room(W, side, cur)
        around = nbr + (side * tiles + cur) * 6
        for k in range(6):
            t = W[around + k]
            if t < 0 or W[occ + t] >= 0:
                continue
            m = _room(W, side, t)
            if m > best_m:
                best, best_m = t, m
        if best >= 0:
            W[path + n] = best
            n += 1
            cur = best
    return lead, n


@nb.njit(**TRIAL_JIT)
def walk(W, c, lead, n):
    """c's lead along the first n tiles of ``path``; its other miniature to the last tile the lead left."""
    if n == 0:
        return
    occ, path = W[StateSlot.OCC], W[StateSlot.PATH]
    rc = W[StateSlot.ST] + c * N_STATE
    start = W[rc + lead]
    left = W[path + n - 2] if n >= 2 else start
    other = CharState.TILE_B if lead == CharState.TILE_A else CharState.TILE_A
    W[occ + start] = -1
    if W[rc + other] >= 0:
        W[occ + W[rc + other]] = -1
        W[rc + other] = left
        W[occ + left] = c
    end = W[path + n - 1]
    W[rc + lead] = end
    W[occ + end] = c
