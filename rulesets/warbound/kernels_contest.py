"""Compiled Warbound Warband contests, part 2: plans, activations, the Hand and the Hourglass, a contest
(private; the codes, the board and the paths are rulesets/warbound/kernels_warband.py, whose docstring says
what the packed game ``G`` and state ``S`` hold; tests/naive_warbound_warband.py's docstring is the
specification).

Each attack is drawn whole from its exact table with one 64-bit word, as in the duel (kernels.draw_attack),
so a contest of one character a side without a Formation is the duel (kernels.duel_records) draw for draw.
``at_index`` (a block of ``G``) int64[N, 2, N_KINDS, N, 2, A + 1, 2, N_AT] is where the table of an attack
sits in ``tables`` = (cdf, values, guide), by attacker, its profile,
:class:`~rulesets.warbound.kernels_warband.Kind`, target, its profile, armor points left and whether it has
a Morale pool (simcore.sampling.TablePack).

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone.
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.warbound.kernels import (
    A_AIM_SHOOT,
    A_FIGHT,
    A_MOVE,
    A_MOVE_FIGHT,
    A_MOVE_SHOOT,
    A_RUN,
    A_RUN_FIGHT,
    A_SHOOT,
    N_AT,
    At,
    Hourglass,
)
from rulesets.warbound.kernels_warband import (
    ADJACENT,
    ANY_ENEMY,
    MAX_CHARACTERS,
    N_AROUND,
    N_CHAR,
    N_KINDS,
    N_PROF,
    N_SIDE,
    N_SIDE_STATE,
    N_STATE,
    N_STATE_HEADER,
    VALID_SHOT,
    Char,
    CharState,
    GameSlot,
    Kind,
    Outcome,
    Prof,
    Record,
    SideRow,
    SideState,
    StateSlot,
    approach,
    flee,
    measure,
    nearest_enemy,
    pack_game,
    pick,
    walk,
)
from rulesets.warbound.rules import MAX_PATH
from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, next_u64, seed_trial_stream
from simcore.sampling import guide_pick


class Plan(IntEnum):
    """What an activation does (the twin's plans)."""

    NONE = 0
    ATTACK = 1  # Fight or Shoot from where it stands
    APPROACH = 2  # move towards the target
    APPROACH_FIGHT = 3  # move next to the target, then Fight it
    FLEE = 4  # move away from the enemies
    FLEE_SHOOT = 5  # move away, then Shoot if it can


class Branch(IntEnum):
    """What a character's plan is made of as the state stands (the twin's ``plan``): the branch fixes its
    list of spaces, and the plan is the first open one (:func:`_space_of`)."""

    NONE = 0
    FIGHT = 1  # an enemy adjacent: "fight", "move+fight", "run+fight"
    FLEE = 2  # an enemy adjacent, it cannot Fight but can Shoot: "move+shoot", "run", "move"
    SHOOT = 3  # a valid target: "aim+shoot", "shoot", "move+shoot"
    APPROACH = 4  # walk to the target: "move+fight" and "run+fight" in reach, "run", "move", ...


class Planned(IntEnum):
    """Columns of the plan scratch (``plans``, int64[N, N_PLANNED] in S): a character's situation, kept until
    an activation changes the state (:func:`_activate`), and its plan, kept while its space stays open."""

    KNOWN = 0  # the situation is made
    BRANCH = 1
    TARGET = 2
    NEAR = 3
    REACH = 4
    WALK = 5  # steps its walk can take
    SPACE = 6  # the plan's space (-2: not made)
    PLAN = 7
    KIND = 8
    STEPS = 9


N_PLANNED = len(Planned)


# --- plans ----------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _first_open(G, S, is_open, want):
    """The first open space (board order) holding action ``want``, or -1; ``is_open``: where S's open flags
    to read start (:class:`StateSlot` OPEN, or a scratch block)."""
    width = G[GameSlot.SPACES] + 1
    row = G[GameSlot.SPACE_LISTS] + want * width
    for j in range(width):
        i = G[row + j]
        if i < 0 or S[is_open + i] != 0:
            return i
    return -1


@nb.njit(**TRIAL_JIT)
def _shot_kind(aim, near):
    if near:
        return Kind.AIM_NEAR if aim else Kind.SHOOT_NEAR
    return Kind.AIM_FAR if aim else Kind.SHOOT_FAR


@nb.njit(**TRIAL_JIT)
def _situation(G, S, c):
    """(:class:`Branch`, target, whether it is among the closest, reach, steps the walk can take) of c as
    the state stands."""
    pr = G[GameSlot.PROF] + (2 * c + S[S[StateSlot.ST] + c * N_STATE + CharState.PROFILE]) * N_PROF
    if nearest_enemy(G, S, c) == 1:
        if G[pr + Prof.ATTACK] >= 0:
            target, _ = pick(G, S, c, ADJACENT)
            return Branch.FIGHT, target, False, 0, 0
        if G[pr + Prof.ACC_NEAR] >= 0:
            _, n = flee(G, S, c, 1)
            if n > 0:
                return Branch.FLEE, -1, False, 0, n
        return Branch.NONE, -1, False, 0, 0
    if G[pr + Prof.ACC_NEAR] >= 0:
        target, near = pick(G, S, c, VALID_SHOT)
        if target >= 0:
            return Branch.SHOOT, target, near, 0, 0
    if G[pr + Prof.ATTACK] < 0:
        return Branch.NONE, -1, False, 0, 0
    target, _ = pick(G, S, c, ANY_ENEMY)
    if target < 0:
        return Branch.NONE, -1, False, 0, 0
    _, n, reach = approach(G, S, c, target, G[pr + Prof.SPEED] + G[pr + Prof.RUN])
    return Branch.APPROACH, target, False, reach, n


@nb.njit(**TRIAL_JIT)
def _space_of(G, S, c, branch, near, reach, n, is_open):
    """(space, :class:`Plan`, Kind, steps) of c's plan in its situation on the open spaces (``is_open``:
    where their flags start in S; space -1: no plan)."""
    pr = G[GameSlot.PROF] + (2 * c + S[S[StateSlot.ST] + c * N_STATE + CharState.PROFILE]) * N_PROF
    speed, run = G[pr + Prof.SPEED], G[pr + Prof.SPEED] + G[pr + Prof.RUN]
    if branch == Branch.FIGHT:
        for want in (A_FIGHT, A_MOVE_FIGHT, A_RUN_FIGHT):
            i = _first_open(G, S, is_open, want)
            if i >= 0:
                return i, Plan.ATTACK, Kind.FIGHT, 0
    elif branch == Branch.FLEE:
        if speed >= 1:
            i = _first_open(G, S, is_open, A_MOVE_SHOOT)
            if i >= 0:
                return i, Plan.FLEE_SHOOT, 0, speed
        if run >= 1:
            i = _first_open(G, S, is_open, A_RUN)
            if i >= 0:
                return i, Plan.FLEE, 0, run
        if speed >= 1:
            i = _first_open(G, S, is_open, A_MOVE)
            if i >= 0:
                return i, Plan.FLEE, 0, speed
    elif branch == Branch.SHOOT:
        i = _first_open(G, S, is_open, A_AIM_SHOOT)
        if i >= 0:
            return i, Plan.ATTACK, _shot_kind(True, near), 0
        for want in (A_SHOOT, A_MOVE_SHOOT):
            i = _first_open(G, S, is_open, want)
            if i >= 0:
                return i, Plan.ATTACK, _shot_kind(False, near), 0
    elif branch == Branch.APPROACH:
        if 1 <= reach <= speed:
            i = _first_open(G, S, is_open, A_MOVE_FIGHT)
            if i >= 0:
                return i, Plan.APPROACH_FIGHT, Kind.FIGHT, speed
        if 1 <= reach <= run:
            i = _first_open(G, S, is_open, A_RUN_FIGHT)
            if i >= 0:
                return i, Plan.APPROACH_FIGHT, Kind.FIGHT, run
        if n >= 1 and run >= 1:
            i = _first_open(G, S, is_open, A_RUN)
            if i >= 0:
                return i, Plan.APPROACH, 0, run
        if n >= 1 and speed >= 1:
            for want in (A_MOVE, A_MOVE_SHOOT, A_MOVE_FIGHT):
                i = _first_open(G, S, is_open, want)
                if i >= 0:
                    return i, Plan.APPROACH, 0, speed
    return -1, Plan.NONE, 0, 0


@nb.njit(**TRIAL_JIT)
def _attacks(plan):
    return plan == Plan.ATTACK or plan == Plan.APPROACH_FIGHT or plan == Plan.FLEE_SHOOT


@nb.njit(**TRIAL_JIT)
def _has_pool(G, S, c):
    rc = S[StateSlot.ST] + c * N_STATE
    morale = G[G[GameSlot.PROF] + (2 * c + S[rc + CharState.PROFILE]) * N_PROF + Prof.MORALE]
    return S[rc + CharState.PANICKED] == 0 and morale >= 0


@nb.njit(**TRIAL_JIT)
def _may_act(G, S, c, fresh):
    """Whether c may be activated: not yet this turn (or ``fresh``), or again without the Stress token of an
    additional activation (line 383) making it panic (the policy never panics itself)."""
    rc = S[StateSlot.ST] + c * N_STATE
    if S[rc + CharState.TURN_ACTS] == 0 or fresh or not _has_pool(G, S, c):
        return True
    return S[rc + CharState.STRESS] + 1 < G[G[GameSlot.PROF] + (2 * c + S[rc + CharState.PROFILE]) * N_PROF
                                            + Prof.MORALE]


@nb.njit(**TRIAL_JIT)
def _price(G, S, c, space):
    """Order tokens c pays to activate on ``space``: the Move space waives colourless costs (line 157)."""
    pr = G[GameSlot.PROF] + (2 * c + S[S[StateSlot.ST] + c * N_STATE + CharState.PROFILE]) * N_PROF
    return G[pr + Prof.MOVE_PRICE] if G[G[GameSlot.BOARD] + space] == A_MOVE else G[pr + Prof.PRICE]


@nb.njit(**TRIAL_JIT)
def _know(G, S, c):
    """Make c's situation (:func:`_situation`) and keep it in ``plans`` while the state stands (its callers
    call it only while its KNOWN is 0)."""
    branch, target, near, reach, n = _situation(G, S, c)
    row = S[StateSlot.PLANS] + c * N_PLANNED
    S[row + Planned.KNOWN], S[row + Planned.BRANCH], S[row + Planned.TARGET] = 1, branch, target
    S[row + Planned.NEAR], S[row + Planned.REACH], S[row + Planned.WALK] = near, reach, n
    S[row + Planned.SPACE] = -2


@nb.njit(**TRIAL_JIT)
def _plan(G, S, c, is_open):
    """Make c's plan on the open spaces from its known situation (:func:`_space_of`) and keep it in
    ``plans`` (its callers call it only while its SPACE is -2)."""
    row = S[StateSlot.PLANS] + c * N_PLANNED
    space, plan, kind, steps = _space_of(G, S, c, S[row + Planned.BRANCH], S[row + Planned.NEAR] != 0,
                                         S[row + Planned.REACH], S[row + Planned.WALK], is_open)
    S[row + Planned.SPACE], S[row + Planned.PLAN] = space, plan
    S[row + Planned.KIND], S[row + Planned.STEPS] = kind, steps


@nb.njit(**TRIAL_JIT)
def _forget(G, S):
    """The state has changed: every situation is made again."""
    plans = S[StateSlot.PLANS]
    for c in range(G[GameSlot.CHARACTERS]):
        S[plans + c * N_PLANNED + Planned.KNOWN] = 0


@nb.njit(**TRIAL_JIT)
def _side_choice(G, S, s, is_open, ranking, fresh, keep):
    """The character of side s's next activation by the twin's four passes (-1: none; its plan in
    ``plans``); ``is_open``: where the open flags start in S; ``ranking``: tokens not counted; ``fresh``: as
    if no character had activated. ``keep``: the last call was on these open spaces, some closed since, so
    every plan whose space is open holds (a plan is the first open space of a list its situation fixes)."""
    n, chars = G[GameSlot.CHARACTERS], G[GameSlot.CHARS]
    st, plans = S[StateSlot.ST], S[StateSlot.PLANS]
    for c in range(n):
        space = plans + c * N_PLANNED + Planned.SPACE
        if not keep or (S[space] >= 0 and S[is_open + S[space]] == 0):
            S[space] = -2
    for rnd in range(4):
        again, attack = rnd >= 2, rnd % 2 == 0
        for c in range(n):
            rc, row = st + c * N_STATE, plans + c * N_PLANNED
            if S[rc + CharState.ALIVE] == 0 or G[chars + c * N_CHAR + Char.SIDE] != s:
                continue
            acted = S[rc + CharState.TURN_ACTS] > 0 and not fresh
            if acted != again or not _may_act(G, S, c, fresh):
                continue
            # c's plan: its situation made once while the state stands, its space once while it is open
            if S[row + Planned.KNOWN] == 0:
                _know(G, S, c)
            if S[row + Planned.SPACE] == -2:
                _plan(G, S, c, is_open)
            space = S[row + Planned.SPACE]
            if space < 0 or _attacks(S[row + Planned.PLAN]) != attack:
                continue
            tokens = S[S[StateSlot.SST] + s * N_SIDE_STATE + SideState.TOKENS]
            if not ranking and tokens < _price(G, S, c, space):
                continue
            return c
    return -1


# --- an activation --------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _attack(G, S, tables, stream, c, kind, e):
    """c's attack of ``kind`` on e, drawn whole from its table with one 64-bit word, as kernels.draw_attack
    draws it (the table's place read from G's at_index block, so no row of it is sliced)."""
    cdf, values, guide = tables
    n, armor = G[GameSlot.CHARACTERS], G[GameSlot.ARMOR]
    st = S[StateSlot.ST]
    rc, re = st + c * N_STATE, st + e * N_STATE
    q = S[re + CharState.PROFILE]
    points = G[G[GameSlot.PROF] + (2 * e + q) * N_PROF + Prof.ARMOR_POINTS]
    available = max(0, points - S[re + CharState.BREAKS])
    pool = 1 if _has_pool(G, S, e) else 0
    row = (((2 * c + S[rc + CharState.PROFILE]) * N_KINDS + kind) * n + e) * 2 + q
    at = G[GameSlot.AT_INDEX] + ((row * armor + available) * 2 + pool) * N_AT
    index = guide_pick(next_u64(stream), cdf, values, guide, G[at + At.START], G[at + At.GUIDE],
                       G[at + At.BITS])
    kb, ks = G[at + At.BREAK_BITS], G[at + At.STRESS_BITS]
    S[re + CharState.WOUNDS] += index >> (kb + ks)
    S[re + CharState.BREAKS] += (index >> ks) & ((1 << kb) - 1)
    S[re + CharState.STRESS] += index & ((1 << ks) - 1)


@nb.njit(**TRIAL_JIT)
def _end_of_activation(G, S):
    """Removal of every character whose Health pool is full, then Panic (lines 227, 511, 519); the side
    that removed every enemy, or -1."""
    n, prof, chars = G[GameSlot.CHARACTERS], G[GameSlot.PROF], G[GameSlot.CHARS]
    st, occ = S[StateSlot.ST], S[StateSlot.OCC]
    alive0, alive1 = 0, 0
    removed = False
    for c in range(n):
        rc = st + c * N_STATE
        if S[rc + CharState.ALIVE] == 0:
            continue
        if S[rc + CharState.WOUNDS] >= G[prof + (2 * c + S[rc + CharState.PROFILE]) * N_PROF + Prof.HEALTH]:
            S[rc + CharState.ALIVE] = 0
            removed = True
            S[occ + S[rc + CharState.TILE_A]] = -1
            if S[rc + CharState.TILE_B] >= 0:
                S[occ + S[rc + CharState.TILE_B]] = -1
        elif G[chars + c * N_CHAR + Char.SIDE] == 0:
            alive0 += 1
        else:
            alive1 += 1
    if alive0 == 0:
        return 1
    if alive1 == 0:
        return 0
    if removed:
        measure(G, S, -2)
    for c in range(n):
        rc = st + c * N_STATE
        if (S[rc + CharState.ALIVE] != 0 and _has_pool(G, S, c)
                and S[rc + CharState.STRESS] >= G[prof + (2 * c + S[rc + CharState.PROFILE]) * N_PROF
                                                  + Prof.MORALE]):
            S[rc + CharState.PANICKED] = 1
            S[rc + CharState.STRESS] = 0
            S[rc + CharState.PROFILE] = 1
    return -1


@nb.njit(**TRIAL_JIT)
def _activate(G, S, tables, stream, s):
    """Side s's activation on this turn's open spaces: (the space used or -1 for none, the side that removed
    every enemy or -1)."""
    is_open = S[StateSlot.OPEN]
    c = _side_choice(G, S, s, is_open, False, False, False)
    if c < 0:
        return -1, -1
    rc, row = S[StateSlot.ST] + c * N_STATE, S[StateSlot.PLANS] + c * N_PLANNED
    space, plan, kind = S[row + Planned.SPACE], S[row + Planned.PLAN], S[row + Planned.KIND]
    target, steps = S[row + Planned.TARGET], S[row + Planned.STEPS]
    price = _price(G, S, c, space)
    side = S[StateSlot.SST] + s * N_SIDE_STATE
    S[side + SideState.TOKENS] -= price
    S[side + SideState.SPENT] += price
    S[is_open + space] = 0
    if S[rc + CharState.TURN_ACTS] > 0 and _has_pool(G, S, c):
        S[rc + CharState.STRESS] += 1  # "you must then add a Stress token to it" (383)
    S[rc + CharState.TURN_ACTS] += 1
    S[rc + CharState.ACTS] += 1
    if plan == Plan.ATTACK:
        _attack(G, S, tables, stream, c, kind, target)
    elif plan == Plan.APPROACH or plan == Plan.APPROACH_FIGHT:
        lead, n, _ = approach(G, S, c, target, steps)
        walk(S, c, lead, n)
        measure(G, S, c)
        if plan == Plan.APPROACH_FIGHT:
            _attack(G, S, tables, stream, c, Kind.FIGHT, target)
    else:
        lead, n = flee(G, S, c, steps)
        walk(S, c, lead, n)
        measure(G, S, c)
        if plan == Plan.FLEE_SHOOT and nearest_enemy(G, S, c) > 1:
            e, near = pick(G, S, c, VALID_SHOT)
            if e >= 0:
                _attack(G, S, tables, stream, c, _shot_kind(False, near), e)
    won = _end_of_activation(G, S)
    _forget(G, S)
    return space, won


# --- the Hand and the Hourglass -------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _place_hourglass(G, S, h):
    """Effect Phase (line 367): the first open space (board order) that the Hand holder h's choices would
    not use this turn, ranked with each chosen space closed, else the one it would use last.

    A plan is the first open space of a list its situation fixes, so the ranking closes exactly the open
    spaces each character's list takes alone, one after another: their union is found first, and the
    ranking itself is played only when it takes every open space (for its last)."""
    n, chars, n_spaces = G[GameSlot.CHARACTERS], G[GameSlot.CHARS], G[GameSlot.SPACES]
    st, plans = S[StateSlot.ST], S[StateSlot.PLANS]
    is_open, ranked, trial = S[StateSlot.OPEN], S[StateSlot.RANKED], S[StateSlot.TRIAL]
    for i in range(n_spaces):
        S[ranked + i] = 0
    for c in range(n):
        if (S[st + c * N_STATE + CharState.ALIVE] == 0 or G[chars + c * N_CHAR + Char.SIDE] != h
                or not _may_act(G, S, c, False)):
            continue
        row = plans + c * N_PLANNED
        if S[row + Planned.KNOWN] == 0:
            _know(G, S, c)
        branch, near = S[row + Planned.BRANCH], S[row + Planned.NEAR] != 0
        reach, walk_steps = S[row + Planned.REACH], S[row + Planned.WALK]
        for i in range(n_spaces):
            S[trial + i] = S[is_open + i]
        while True:
            i, _, _, _ = _space_of(G, S, c, branch, near, reach, walk_steps, trial)
            if i < 0:
                break
            S[trial + i] = 0
            S[ranked + i] = 1
    for i in range(n_spaces):
        if S[is_open + i] != 0 and S[ranked + i] == 0:
            return i
    for i in range(n_spaces):
        S[trial + i] = S[is_open + i]
    last = -1
    while True:
        c = _side_choice(G, S, h, trial, True, False, last >= 0)
        if c < 0:
            return last
        last = S[plans + c * N_PLANNED + Planned.SPACE]
        S[trial + last] = 0


@nb.njit(**TRIAL_JIT)
def _swaps(G, S, h, turn):
    """Cleanup (line 369): whether the Hourglass holder h exchanges it for the Hand: always, or (strike-first)
    when its first choice on the next turn's board, as things stand, would be an attack."""
    if G[GameSlot.POLICY] == Hourglass.ALWAYS:
        return True
    period, next_open = G[GameSlot.PERIOD], S[StateSlot.RANKED]
    for i in range(G[GameSlot.SPACES]):
        S[next_open + i] = 1 if G[period + i] == 0 or turn + 1 > 2 else 0
    c = _side_choice(G, S, h, next_open, True, True, False)
    return c >= 0 and _attacks(S[S[StateSlot.PLANS] + c * N_PLANNED + Planned.PLAN])


# --- a contest ------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _record(G, S, won, turn, hand_turns, out, k):
    """The contest's record (:class:`~rulesets.warbound.kernels_warband.Record`) in ``out[k]``."""
    prof, chars = G[GameSlot.PROF], G[GameSlot.CHARS]
    st, sst = S[StateSlot.ST], S[StateSlot.SST]
    out[k, :] = 0
    if won >= 0:
        out[k, Record.OUTCOME] = won
    else:
        out[k, Record.OUTCOME] = Outcome.NEITHER
    out[k, Record.TURN] = turn
    out[k, Record.HAND_0] = hand_turns
    lost0, lost1 = 0, 0
    for s in range(2):
        out[k, Record.TOKENS_0 + s] = S[sst + s * N_SIDE_STATE + SideState.SPENT]
    for c in range(G[GameSlot.CHARACTERS]):
        rc, ce = st + c * N_STATE, chars + c * N_CHAR
        s = G[ce + Char.SIDE]
        removed = S[rc + CharState.ALIVE] == 0
        out[k, Record.WOUNDS_0 + s] += S[rc + CharState.WOUNDS]
        out[k, Record.ACTS_0 + s] += S[rc + CharState.ACTS]
        out[k, Record.PANICS_0 + s] += S[rc + CharState.PANICKED]
        out[k, Record.LOST_0 + s] += 1 if removed else 0
        order = G[ce + Char.ORDER]
        if order == 0:
            out[k, Record.ENTRY_ACTS_0 + s] = S[rc + CharState.ACTS]
            out[k, Record.ENTRY_PANIC_0 + s] = S[rc + CharState.PANICKED]
        health = G[prof + 2 * c * N_PROF + Prof.HEALTH]  # its front profile's
        damage = health if removed else min(S[rc + CharState.WOUNDS], health - 1)
        out[k, Record.DAMAGE + s * MAX_CHARACTERS + order] = damage
        if s == 0:
            lost0 += damage * G[ce + Char.LOSS_WEIGHT]
        else:
            lost1 += damage * G[ce + Char.LOSS_WEIGHT]
    if won >= 0:
        out[k, Record.AHEAD] = won
    elif lost1 > lost0:
        out[k, Record.AHEAD] = Outcome.SIDE_0
    elif lost0 > lost1:
        out[k, Record.AHEAD] = Outcome.SIDE_1
    else:
        out[k, Record.AHEAD] = Outcome.NEITHER


@nb.njit(**TRIAL_JIT)
def _contest(G, S, tables, stream, out, k):
    """One contest (tests/naive_warbound_warband.py's docstring), its record in ``out[k]``; side 0 starts
    with the Hand (line 363)."""
    n, chars, sides, period = G[GameSlot.CHARACTERS], G[GameSlot.CHARS], G[GameSlot.SIDES], G[GameSlot.PERIOD]
    policy = G[GameSlot.POLICY]
    st, sst, occ, is_open = S[StateSlot.ST], S[StateSlot.SST], S[StateSlot.OCC], S[StateSlot.OPEN]
    for i in range(n * N_STATE):
        S[st + i] = 0
    for i in range(2 * N_SIDE_STATE):
        S[sst + i] = 0
    for t in range(G[GameSlot.TILES]):
        S[occ + t] = -1
    for c in range(n):
        rc, ce = st + c * N_STATE, chars + c * N_CHAR
        S[rc + CharState.ALIVE] = 1
        S[rc + CharState.TILE_A] = G[ce + Char.TILE_A]
        S[rc + CharState.TILE_B] = G[ce + Char.TILE_B]
        S[occ + G[ce + Char.TILE_A]] = c
        if G[ce + Char.TILE_B] >= 0:
            S[occ + G[ce + Char.TILE_B]] = c
    measure(G, S, -1)
    _forget(G, S)
    won, turn, hand, hand_turns = -1, 1, 0, 0
    side0, side1 = sst + SideState.DONE, sst + N_SIDE_STATE + SideState.DONE  # the sides' DONE
    for turn in range(1, G[GameSlot.TURNS] + 1):
        orders = SideRow.ORDERS_1 if turn <= 2 else SideRow.ORDERS_2
        for s in range(2):  # Leader Phase
            S[sst + s * N_SIDE_STATE + SideState.TOKENS] += G[sides + s * N_SIDE + orders]
            S[sst + s * N_SIDE_STATE + SideState.DONE] = 0
        for c in range(n):
            S[st + c * N_STATE + CharState.TURN_ACTS] = 0
        for i in range(G[GameSlot.SPACES]):
            S[is_open + i] = 1 if G[period + i] == 0 or turn > 2 else 0
        # Effect Phase: "the player holding the Hourglass must place it on an open Action" (367)
        hourglass = -1
        if policy != Hourglass.NOT_PLAYED:
            hourglass = _place_hourglass(G, S, hand)
        kept = False
        hand_turns += 1 - hand
        s = hand  # "The player holding the Hand ... at the beginning of the Action Phase activates ... first"
        while won < 0 and (S[side0] == 0 or S[side1] == 0):
            done = sst + s * N_SIDE_STATE + SideState.DONE
            if S[done] == 0:
                used, won = _activate(G, S, tables, stream, s)
                if used < 0:
                    S[done] = 1
                elif used == hourglass and s == hand:
                    kept = True  # "he gains the marker" (368): the Hand holder keeps the Hand (369)
            if S[sst + (1 - s) * N_SIDE_STATE + SideState.DONE] == 0:
                s = 1 - s
        if won >= 0:
            break
        for s in range(2):  # Cleanup: at most one token kept (355)
            tokens = sst + s * N_SIDE_STATE + SideState.TOKENS
            S[tokens] = min(S[tokens], 1)
        if policy != Hourglass.NOT_PLAYED and not kept and _swaps(G, S, 1 - hand, turn):
            hand = 1 - hand
    _record(G, S, won, turn, hand_turns, out, k)


@nb.njit(**TRIAL_JIT)
def new_state(G):
    """The packed trial state ``S`` (kernels_warband.StateSlot) of the game ``G``, zeros after its header."""
    n, n_spaces = G[GameSlot.CHARACTERS], G[GameSlot.SPACES]
    # each block's size, in StateSlot order
    sizes = np.array((n * N_STATE, 2 * N_SIDE_STATE, n * (n + N_AROUND), G[GameSlot.TILES], n * N_PLANNED,
                      MAX_PATH, n_spaces, n_spaces, n_spaces), np.int64)
    S = np.zeros(N_STATE_HEADER + sizes.sum(), np.int64)
    at = N_STATE_HEADER
    for slot in range(N_STATE_HEADER):
        S[slot] = at
        at += sizes[slot]
    return S


@nb.njit(**JIT)
def warband_records(prof, chars, sides, board, spaces, period, dist, nbr, at_index, cdf, values, guide, turns,
                    policy, targeting, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record (kernels_warband.Record) of trial
    ``first_trial + k``, drawn from the stream (seed, first_trial + k) alone. ``policy``: a kernels.Hourglass
    code; ``targeting``: a kernels_warband.Targeting code; the arrays: kernels_warband's docstring, packed
    once a call into the game ``G`` the contests read."""
    G = pack_game(prof, chars, sides, board, spaces, period, dist, nbr, at_index, turns, policy, targeting)
    S = new_state(G)
    tables = (cdf, values, guide)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _contest(G, S, tables, stream, out, k)
