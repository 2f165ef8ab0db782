"""Compiled Warbound Warband contests, part 2: plans, activations, the Hand and the Hourglass, a contest
(private; the codes, the board and the paths are rulesets/warbound/kernels_warband.py, whose docstring says
what the contest array ``W`` holds; tests/naive_warbound_warband.py's docstring is the
specification).

Each attack is drawn whole from its exact table with one 64-bit word, as in the duel (kernels.draw_attack),
so a contest of one character a side without a Formation is the duel (kernels.duel_records) draw for draw.
``at_index`` (a block of ``W``) int64[N, 2, N_KINDS, N, 2, A + 1, 2, N_AT] is where the table of an attack
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
    split_outcome,
)
from rulesets.warbound.kernels_warband import (
    ADJACENT,
    ANY_ENEMY,
    MAX_CHARACTERS,
    N_AROUND,
    N_CHAR,
    N_HEADER,
    N_KINDS,
    N_PROF,
    N_SIDE,
    N_SIDE_STATE,
    N_STATE,
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
    """Columns of the plan scratch (``plans``, int64[N, N_PLANNED] in W): a character's situation, kept until
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
def _first_open(W, is_open, want):
    """The first open space (board order) holding action ``want``, or -1; ``is_open``: where W's open flags
    to read start (:class:`StateSlot` OPEN, or a scratch block)."""
    width = W[GameSlot.SPACES] + 1
    row = W[GameSlot.SPACE_LISTS] + want * width
    for j in range(width):
        i = W[row + j]
        if i < 0 or W[is_open + i] != 0:
            return i
    return -1


@nb.njit(**TRIAL_JIT)
def _shot_kind(aim, near):
    if near:
        return Kind.AIM_NEAR if aim else Kind.SHOOT_NEAR
    return Kind.AIM_FAR if aim else Kind.SHOOT_FAR


#: The most spaces a plan's list holds (Branch.APPROACH: move+fight, run+fight, run, move, move+shoot,
#: move+fight again).
N_CANDIDATES = 6


@nb.njit(**TRIAL_JIT)
def _candidate(branch, k, near, reach, n, speed, run):
    """The k-th entry of the list of spaces c's situation fixes: (action wanted, or -1 for none at k;
    :class:`Plan`; Kind; steps). The twin's ``plan``, entry by entry."""
    if branch == Branch.FIGHT:
        if k <= 2:
            return (A_FIGHT, A_MOVE_FIGHT, A_RUN_FIGHT)[k], Plan.ATTACK, Kind.FIGHT, 0
    elif branch == Branch.FLEE:
        if k == 0 and speed >= 1:
            return A_MOVE_SHOOT, Plan.FLEE_SHOOT, 0, speed
        if k == 1 and run >= 1:
            return A_RUN, Plan.FLEE, 0, run
        if k == 2 and speed >= 1:
            return A_MOVE, Plan.FLEE, 0, speed
    elif branch == Branch.SHOOT:
        if k == 0:
            return A_AIM_SHOOT, Plan.ATTACK, _shot_kind(True, near), 0
        if k <= 2:
            return (A_SHOOT, A_MOVE_SHOOT)[k - 1], Plan.ATTACK, _shot_kind(False, near), 0
    elif branch == Branch.APPROACH:
        if k == 0 and 1 <= reach <= speed:
            return A_MOVE_FIGHT, Plan.APPROACH_FIGHT, Kind.FIGHT, speed
        if k == 1 and 1 <= reach <= run:
            return A_RUN_FIGHT, Plan.APPROACH_FIGHT, Kind.FIGHT, run
        if k == 2 and n >= 1 and run >= 1:
            return A_RUN, Plan.APPROACH, 0, run
        if 3 <= k <= 5 and n >= 1 and speed >= 1:
            return (A_MOVE, A_MOVE_SHOOT, A_MOVE_FIGHT)[k - 3], Plan.APPROACH, 0, speed
    return -1, Plan.NONE, 0, 0


@nb.njit(**TRIAL_JIT)
def _space_of(W, c, branch, near, reach, n, is_open):
    """(space, :class:`Plan`, Kind, steps) of c's plan in its situation on the open spaces (``is_open``:
    where their flags start in W; space -1: no plan): the first entry of its list (:func:`_candidate`) whose
    action has an open space."""
    pr = W[GameSlot.PROF] + (2 * c + W[W[StateSlot.ST] + c * N_STATE + CharState.PROFILE]) * N_PROF
    speed, run = W[pr + Prof.SPEED], W[pr + Prof.SPEED] + W[pr + Prof.RUN]
    space, plan, kind, steps = -1, Plan.NONE, 0, 0
    # one way out of the loop (no return in it: W used last in one place, where numba's pruning finds the
    # reference count it takes on W); the entries after the one found are passed over
    for k in range(N_CANDIDATES):
        want, p, kd, st = _candidate(branch, k, near, reach, n, speed, run)
        if space < 0 and want >= 0:
            i = _first_open(W, is_open, want)
            if i >= 0:
                space, plan, kind, steps = i, p, kd, st
    return space, plan, kind, steps


@nb.njit(**TRIAL_JIT)
def _attacks(plan):
    return plan == Plan.ATTACK or plan == Plan.APPROACH_FIGHT or plan == Plan.FLEE_SHOOT


@nb.njit(**TRIAL_JIT)
def _has_pool(W, c):
    rc = W[StateSlot.ST] + c * N_STATE
    morale = W[W[GameSlot.PROF] + (2 * c + W[rc + CharState.PROFILE]) * N_PROF + Prof.MORALE]
    return W[rc + CharState.PANICKED] == 0 and morale >= 0


@nb.njit(**TRIAL_JIT)
def _may_act(W, c, fresh):
    """Whether c may be activated: not yet this turn (or ``fresh``), or again without the Stress token of an
    additional activation (line 383) making it panic (the policy never panics itself)."""
    rc = W[StateSlot.ST] + c * N_STATE
    if W[rc + CharState.TURN_ACTS] == 0 or fresh or not _has_pool(W, c):
        return True
    return W[rc + CharState.STRESS] + 1 < W[W[GameSlot.PROF] + (2 * c + W[rc + CharState.PROFILE]) * N_PROF
                                            + Prof.MORALE]


@nb.njit(**TRIAL_JIT)
def _price(W, c, space):
    """Order tokens c pays to activate on ``space``: the Move space waives colourless costs (line 157)."""
    pr = W[GameSlot.PROF] + (2 * c + W[W[StateSlot.ST] + c * N_STATE + CharState.PROFILE]) * N_PROF
    return W[pr + Prof.MOVE_PRICE] if W[W[GameSlot.BOARD] + space] == A_MOVE else W[pr + Prof.PRICE]


@nb.njit(**TRIAL_JIT)
def _know(W, c):
    """Make c's situation as the state stands and keep it in ``plans`` (its callers call it only while its
    KNOWN is 0): its :class:`Branch`, target, whether the target is among the closest, the reach and the
    steps its walk can take."""
    pr = W[GameSlot.PROF] + (2 * c + W[W[StateSlot.ST] + c * N_STATE + CharState.PROFILE]) * N_PROF
    attacks, shoots = W[pr + Prof.ATTACK] >= 0, W[pr + Prof.ACC_NEAR] >= 0
    steps = W[pr + Prof.SPEED] + W[pr + Prof.RUN]
    branch, target, near, reach, n = Branch.NONE, -1, False, 0, 0
    if nearest_enemy(W, c) == 1:
        if attacks:
            branch, target = Branch.FIGHT, pick(W, c, ADJACENT)[0]
        elif shoots:
            _, fled = flee(W, c, 1)
            if fled > 0:
                branch, n = Branch.FLEE, fled
    else:
        if shoots:
            shot, closest = pick(W, c, VALID_SHOT)
            if shot >= 0:
                branch, target, near = Branch.SHOOT, shot, closest
        if branch == Branch.NONE and attacks:
            foe, _ = pick(W, c, ANY_ENEMY)
            if foe >= 0:
                _, n, reach = approach(W, c, foe, steps)
                branch, target = Branch.APPROACH, foe
    # written on every path alike, once the branches have met (W used last in one place, so numba's
    # pruning drops the reference count it takes on W)
    row = W[StateSlot.PLANS] + c * N_PLANNED
    W[row + Planned.KNOWN], W[row + Planned.BRANCH], W[row + Planned.TARGET] = 1, branch, target
    W[row + Planned.NEAR], W[row + Planned.REACH], W[row + Planned.WALK] = near, reach, n
    W[row + Planned.SPACE] = -2


@nb.njit(**TRIAL_JIT)
def _plan(W, c, is_open):
    """Make c's plan on the open spaces from its known situation (:func:`_space_of`) and keep it in
    ``plans`` (its callers call it only while its SPACE is -2)."""
    row = W[StateSlot.PLANS] + c * N_PLANNED
    space, plan, kind, steps = _space_of(W, c, W[row + Planned.BRANCH], W[row + Planned.NEAR] != 0,
                                         W[row + Planned.REACH], W[row + Planned.WALK], is_open)
    W[row + Planned.SPACE], W[row + Planned.PLAN] = space, plan
    W[row + Planned.KIND], W[row + Planned.STEPS] = kind, steps


@nb.njit(**TRIAL_JIT)
def _forget(W):
    """The state has changed: every situation is made again."""
    plans = W[StateSlot.PLANS]
    for c in range(W[GameSlot.CHARACTERS]):
        W[plans + c * N_PLANNED + Planned.KNOWN] = 0


@nb.njit(**TRIAL_JIT)
def _side_choice(W, s, is_open, ranking, fresh, keep):
    """The character of side s's next activation by the twin's four passes (-1: none; its plan in
    ``plans``); ``is_open``: where the open flags start in W; ``ranking``: tokens not counted; ``fresh``: as
    if no character had activated. ``keep``: the last call was on these open spaces, some closed since, so
    every plan whose space is open holds (a plan is the first open space of a list its situation fixes)."""
    n, chars = W[GameSlot.CHARACTERS], W[GameSlot.CHARS]
    st, plans = W[StateSlot.ST], W[StateSlot.PLANS]
    for c in range(n):
        space = plans + c * N_PLANNED + Planned.SPACE
        if not keep or (W[space] >= 0 and W[is_open + W[space]] == 0):
            W[space] = -2
    for rnd in range(4):
        again, attack = rnd >= 2, rnd % 2 == 0
        for c in range(n):
            rc, row = st + c * N_STATE, plans + c * N_PLANNED
            if W[rc + CharState.ALIVE] == 0 or W[chars + c * N_CHAR + Char.SIDE] != s:
                continue
            acted = W[rc + CharState.TURN_ACTS] > 0 and not fresh
            if acted != again or not _may_act(W, c, fresh):
                continue
            # c's plan: its situation made once while the state stands, its space once while it is open
            if W[row + Planned.KNOWN] == 0:
                _know(W, c)
            if W[row + Planned.SPACE] == -2:
                _plan(W, c, is_open)
            space = W[row + Planned.SPACE]
            if space < 0 or _attacks(W[row + Planned.PLAN]) != attack:
                continue
            tokens = W[W[StateSlot.SST] + s * N_SIDE_STATE + SideState.TOKENS]
            if not ranking and tokens < _price(W, c, space):
                continue
            return c
    return -1


# --- an activation --------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _attack(W, tables, stream, c, kind, e):
    """c's attack of ``kind`` on e, drawn whole from its table with one 64-bit word, as kernels.draw_attack
    draws it (split_outcome; the table's place read from W's at_index block, so no row of it is sliced)."""
    cdf, values, guide = tables
    n, armor = W[GameSlot.CHARACTERS], W[GameSlot.ARMOR]
    st = W[StateSlot.ST]
    rc, re = st + c * N_STATE, st + e * N_STATE
    q = W[re + CharState.PROFILE]
    points = W[W[GameSlot.PROF] + (2 * e + q) * N_PROF + Prof.ARMOR_POINTS]
    available = max(0, points - W[re + CharState.BREAKS])
    pool = 1 if _has_pool(W, e) else 0
    row = (((2 * c + W[rc + CharState.PROFILE]) * N_KINDS + kind) * n + e) * 2 + q
    at = W[GameSlot.AT_INDEX] + ((row * armor + available) * 2 + pool) * N_AT
    index = guide_pick(next_u64(stream), cdf, values, guide, W[at + At.START], W[at + At.GUIDE],
                       W[at + At.BITS])
    w, b, x = split_outcome(index, W[at + At.BREAK_BITS], W[at + At.STRESS_BITS])
    W[re + CharState.WOUNDS] += w
    W[re + CharState.BREAKS] += b
    W[re + CharState.STRESS] += x


@nb.njit(**TRIAL_JIT)
def _end_of_activation(W):
    """Removal of every character whose Health pool is full, then Panic (lines 227, 511, 519); the side
    that removed every enemy, or -1."""
    n, prof, chars = W[GameSlot.CHARACTERS], W[GameSlot.PROF], W[GameSlot.CHARS]
    st, occ = W[StateSlot.ST], W[StateSlot.OCC]
    alive0, alive1 = 0, 0
    removed = False
    for c in range(n):
        rc = st + c * N_STATE
        if W[rc + CharState.ALIVE] == 0:
            continue
        if W[rc + CharState.WOUNDS] >= W[prof + (2 * c + W[rc + CharState.PROFILE]) * N_PROF + Prof.HEALTH]:
            W[rc + CharState.ALIVE] = 0
            removed = True
            W[occ + W[rc + CharState.TILE_A]] = -1
            if W[rc + CharState.TILE_B] >= 0:
                W[occ + W[rc + CharState.TILE_B]] = -1
        elif W[chars + c * N_CHAR + Char.SIDE] == 0:
            alive0 += 1
        else:
            alive1 += 1
    if alive0 == 0:
        return 1
    if alive1 == 0:
        return 0
    if removed:
        measure(W, -2)
    for c in range(n):
        rc = st + c * N_STATE
        if (W[rc + CharState.ALIVE] != 0 and _has_pool(W, c)
                and W[rc + CharState.STRESS] >= W[prof + (2 * c + W[rc + CharState.PROFILE]) * N_PROF
                                                  + Prof.MORALE]):
            W[rc + CharState.PANICKED] = 1
            W[rc + CharState.STRESS] = 0
            W[rc + CharState.PROFILE] = 1
    return -1


@nb.njit(**TRIAL_JIT)
def _activate(W, tables, stream, s):
    """Side s's activation on this turn's open spaces: (the space used or -1 for none, the side that removed
    every enemy or -1)."""
    is_open = W[StateSlot.OPEN]
    c = _side_choice(W, s, is_open, False, False, False)
    if c < 0:
        return -1, -1
    rc, row = W[StateSlot.ST] + c * N_STATE, W[StateSlot.PLANS] + c * N_PLANNED
    space, plan, kind = W[row + Planned.SPACE], W[row + Planned.PLAN], W[row + Planned.KIND]
    target, steps = W[row + Planned.TARGET], W[row + Planned.STEPS]
    price = _price(W, c, space)
    side = W[StateSlot.SST] + s * N_SIDE_STATE
    W[side + SideState.TOKENS] -= price
    W[side + SideState.SPENT] += price
    W[is_open + space] = 0
    if W[rc + CharState.TURN_ACTS] > 0 and _has_pool(W, c):
        W[rc + CharState.STRESS] += 1  # "you must then add a Stress token to it" (383)
    W[rc + CharState.TURN_ACTS] += 1
    W[rc + CharState.ACTS] += 1
    if plan == Plan.ATTACK:
        _attack(W, tables, stream, c, kind, target)
    elif plan == Plan.APPROACH or plan == Plan.APPROACH_FIGHT:
        lead, n, _ = approach(W, c, target, steps)
        walk(W, c, lead, n)
        measure(W, c)
        if plan == Plan.APPROACH_FIGHT:
            _attack(W, tables, stream, c, Kind.FIGHT, target)
    else:
        lead, n = flee(W, c, steps)
        walk(W, c, lead, n)
        measure(W, c)
        if plan == Plan.FLEE_SHOOT and nearest_enemy(W, c) > 1:
            e, near = pick(W, c, VALID_SHOT)
            if e >= 0:
                _attack(W, tables, stream, c, _shot_kind(False, near), e)
    won = _end_of_activation(W)
    _forget(W)
    return space, won


# --- the Hand and the Hourglass -------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _place_hourglass(W, h):
    """Effect Phase (line 367): the first open space (board order) that the Hand holder h's choices would
    not use this turn, ranked with each chosen space closed, else the one it would use last.

    A plan is the first open space of a list its situation fixes, so the ranking closes exactly the open
    spaces each character's list takes alone, one after another: their union is found first, and the
    ranking itself is played only when it takes every open space (for its last)."""
    n, chars, n_spaces = W[GameSlot.CHARACTERS], W[GameSlot.CHARS], W[GameSlot.SPACES]
    st, plans = W[StateSlot.ST], W[StateSlot.PLANS]
    is_open, ranked, trial = W[StateSlot.OPEN], W[StateSlot.RANKED], W[StateSlot.TRIAL]
    for i in range(n_spaces):
        W[ranked + i] = 0
    for c in range(n):
        if (W[st + c * N_STATE + CharState.ALIVE] == 0 or W[chars + c * N_CHAR + Char.SIDE] != h
                or not _may_act(W, c, False)):
            continue
        row = plans + c * N_PLANNED
        if W[row + Planned.KNOWN] == 0:
            _know(W, c)
        branch, near = W[row + Planned.BRANCH], W[row + Planned.NEAR] != 0
        reach, walk_steps = W[row + Planned.REACH], W[row + Planned.WALK]
        for i in range(n_spaces):
            W[trial + i] = W[is_open + i]
        while True:
            i, _, _, _ = _space_of(W, c, branch, near, reach, walk_steps, trial)
            if i < 0:
                break
            W[trial + i] = 0
            W[ranked + i] = 1
    for i in range(n_spaces):
        if W[is_open + i] != 0 and W[ranked + i] == 0:
            return i
    for i in range(n_spaces):
        W[trial + i] = W[is_open + i]
    last = -1
    while True:
        c = _side_choice(W, h, trial, True, False, last >= 0)
        if c < 0:
            return last
        last = W[plans + c * N_PLANNED + Planned.SPACE]
        W[trial + last] = 0


@nb.njit(**TRIAL_JIT)
def _swaps(W, h, turn):
    """Cleanup (line 369): whether the Hourglass holder h exchanges it for the Hand: always, or (strike-first)
    when its first choice on the next turn's board, as things stand, would be an attack."""
    if W[GameSlot.POLICY] == Hourglass.ALWAYS:
        return True
    period, next_open = W[GameSlot.PERIOD], W[StateSlot.RANKED]
    for i in range(W[GameSlot.SPACES]):
        W[next_open + i] = 1 if W[period + i] == 0 or turn + 1 > 2 else 0
    c = _side_choice(W, h, next_open, True, True, False)
    return c >= 0 and _attacks(W[W[StateSlot.PLANS] + c * N_PLANNED + Planned.PLAN])


# --- a contest ------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _record(W, won, turn, hand_turns, out, k):
    """The contest's record (:class:`~rulesets.warbound.kernels_warband.Record`) in ``out[k]``."""
    prof, chars = W[GameSlot.PROF], W[GameSlot.CHARS]
    st, sst = W[StateSlot.ST], W[StateSlot.SST]
    out[k, :] = 0
    if won >= 0:
        out[k, Record.OUTCOME] = won
    else:
        out[k, Record.OUTCOME] = Outcome.NEITHER
    out[k, Record.TURN] = turn
    out[k, Record.HAND_0] = hand_turns
    lost0, lost1 = 0, 0
    for s in range(2):
        out[k, Record.TOKENS_0 + s] = W[sst + s * N_SIDE_STATE + SideState.SPENT]
    for c in range(W[GameSlot.CHARACTERS]):
        rc, ce = st + c * N_STATE, chars + c * N_CHAR
        s = W[ce + Char.SIDE]
        removed = W[rc + CharState.ALIVE] == 0
        out[k, Record.WOUNDS_0 + s] += W[rc + CharState.WOUNDS]
        out[k, Record.ACTS_0 + s] += W[rc + CharState.ACTS]
        out[k, Record.PANICS_0 + s] += W[rc + CharState.PANICKED]
        out[k, Record.LOST_0 + s] += 1 if removed else 0
        order = W[ce + Char.ORDER]
        if order == 0:
            out[k, Record.ENTRY_ACTS_0 + s] = W[rc + CharState.ACTS]
            out[k, Record.ENTRY_PANIC_0 + s] = W[rc + CharState.PANICKED]
        health = W[prof + 2 * c * N_PROF + Prof.HEALTH]  # its front profile's
        damage = health if removed else min(W[rc + CharState.WOUNDS], health - 1)
        out[k, Record.DAMAGE + s * MAX_CHARACTERS + order] = damage
        if s == 0:
            lost0 += damage * W[ce + Char.LOSS_WEIGHT]
        else:
            lost1 += damage * W[ce + Char.LOSS_WEIGHT]
    if won >= 0:
        out[k, Record.AHEAD] = won
    elif lost1 > lost0:
        out[k, Record.AHEAD] = Outcome.SIDE_0
    elif lost0 > lost1:
        out[k, Record.AHEAD] = Outcome.SIDE_1
    else:
        out[k, Record.AHEAD] = Outcome.NEITHER


@nb.njit(**TRIAL_JIT)
def _contest(W, tables, stream, out, k):
    """One contest (tests/naive_warbound_warband.py's docstring), its record in ``out[k]``; side 0 starts
    with the Hand (line 363)."""
    n, chars, sides, period = W[GameSlot.CHARACTERS], W[GameSlot.CHARS], W[GameSlot.SIDES], W[GameSlot.PERIOD]
    policy = W[GameSlot.POLICY]
    st, sst, occ, is_open = W[StateSlot.ST], W[StateSlot.SST], W[StateSlot.OCC], W[StateSlot.OPEN]
    for i in range(n * N_STATE):
        W[st + i] = 0
    for i in range(2 * N_SIDE_STATE):
        W[sst + i] = 0
    for t in range(W[GameSlot.TILES]):
        W[occ + t] = -1
    for c in range(n):
        rc, ce = st + c * N_STATE, chars + c * N_CHAR
        W[rc + CharState.ALIVE] = 1
        W[rc + CharState.TILE_A] = W[ce + Char.TILE_A]
        W[rc + CharState.TILE_B] = W[ce + Char.TILE_B]
        W[occ + W[ce + Char.TILE_A]] = c
        if W[ce + Char.TILE_B] >= 0:
            W[occ + W[ce + Char.TILE_B]] = c
    measure(W, -1)
    _forget(W)
    won, turn, hand, hand_turns = -1, 1, 0, 0
    side0, side1 = sst + SideState.DONE, sst + N_SIDE_STATE + SideState.DONE  # the sides' DONE
    for turn in range(1, W[GameSlot.TURNS] + 1):
        orders = SideRow.ORDERS_1 if turn <= 2 else SideRow.ORDERS_2
        for s in range(2):  # Leader Phase
            W[sst + s * N_SIDE_STATE + SideState.TOKENS] += W[sides + s * N_SIDE + orders]
            W[sst + s * N_SIDE_STATE + SideState.DONE] = 0
        for c in range(n):
            W[st + c * N_STATE + CharState.TURN_ACTS] = 0
        for i in range(W[GameSlot.SPACES]):
            W[is_open + i] = 1 if W[period + i] == 0 or turn > 2 else 0
        # Effect Phase: "the player holding the Hourglass must place it on an open Action" (367)
        hourglass = -1
        if policy != Hourglass.NOT_PLAYED:
            hourglass = _place_hourglass(W, hand)
        kept = False
        hand_turns += 1 - hand
        s = hand  # "The player holding the Hand ... at the beginning of the Action Phase activates ... first"
        while won < 0 and (W[side0] == 0 or W[side1] == 0):
            done = sst + s * N_SIDE_STATE + SideState.DONE
            if W[done] == 0:
                used, won = _activate(W, tables, stream, s)
                if used < 0:
                    W[done] = 1
                elif used == hourglass and s == hand:
                    kept = True  # "he gains the marker" (368): the Hand holder keeps the Hand (369)
            if W[sst + (1 - s) * N_SIDE_STATE + SideState.DONE] == 0:
                s = 1 - s
        if won >= 0:
            break
        for s in range(2):  # Cleanup: at most one token kept (355)
            tokens = sst + s * N_SIDE_STATE + SideState.TOKENS
            W[tokens] = min(W[tokens], 1)
        if policy != Hourglass.NOT_PLAYED and not kept and _swaps(W, 1 - hand, turn):
            hand = 1 - hand
    _record(W, won, turn, hand_turns, out, k)


@nb.njit(**TRIAL_JIT)
def _put(W, slot, at, x):
    """Block ``slot`` of ``W`` is the 1-D ``x``, written from ``at``; returns where the next block starts."""
    W[slot] = at
    W[at:at + x.size] = x
    return at + x.size


@nb.njit(**TRIAL_JIT)
def pack_contest(prof, chars, sides, board, spaces, period, dist, nbr, at_index, turns, policy, targeting):
    """The contest array ``W`` (kernels_warband's docstring) of warband_records' arguments: the game, then
    the trial's state, zeros."""
    n, n_spaces = prof.shape[0], board.size
    state = (n * N_STATE, 2 * N_SIDE_STATE, n * (n + N_AROUND), dist.shape[0], n * N_PLANNED, MAX_PATH,
             n_spaces, n_spaces, n_spaces)  # each block's size, in StateSlot order
    size = (N_HEADER + prof.size + chars.size + sides.size + board.size + spaces.size + period.size
            + dist.size + nbr.size + at_index.size + sum(state))
    W = np.zeros(size, np.int64)
    W[GameSlot.CHARACTERS], W[GameSlot.TILES], W[GameSlot.SPACES] = n, dist.shape[0], n_spaces
    W[GameSlot.ARMOR] = at_index.shape[5]
    W[GameSlot.TURNS], W[GameSlot.POLICY], W[GameSlot.TARGETING] = turns, policy, targeting
    at = _put(W, GameSlot.PROF, N_HEADER, prof.ravel())
    at = _put(W, GameSlot.CHARS, at, chars.ravel())
    at = _put(W, GameSlot.SIDES, at, sides.ravel())
    at = _put(W, GameSlot.BOARD, at, board.ravel())
    at = _put(W, GameSlot.SPACE_LISTS, at, spaces.ravel())
    at = _put(W, GameSlot.PERIOD, at, period.ravel())
    at = _put(W, GameSlot.DIST, at, dist.ravel())
    at = _put(W, GameSlot.NBR, at, nbr.ravel())
    at = _put(W, GameSlot.AT_INDEX, at, at_index.ravel())
    for k, block in enumerate(state):
        W[StateSlot.ST + k] = at
        at += block
    return W


@nb.njit(**JIT)
def warband_records(prof, chars, sides, board, spaces, period, dist, nbr, at_index, cdf, values, guide, turns,
                    policy, targeting, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record (kernels_warband.Record) of trial
    ``first_trial + k``, drawn from the stream (seed, first_trial + k) alone. ``policy``: a kernels.Hourglass
    code; ``targeting``: a kernels_warband.Targeting code; the arrays: kernels_warband's docstring, packed
    once a call into the contest array ``W`` beside the trial's state."""
    W = pack_contest(prof, chars, sides, board, spaces, period, dist, nbr, at_index, turns, policy, targeting)
    tables = (cdf, values, guide)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _contest(W, tables, stream, out, k)
