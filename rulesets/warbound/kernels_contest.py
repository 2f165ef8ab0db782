"""Compiled Warbound Warband contests, part 2: plans, activations, the Hand and the Hourglass, a contest
(private; the codes, the board and the paths are rulesets/warbound/kernels_warband.py, whose docstring says
what ``game`` and ``state`` hold; tests/naive_warbound_warband.py's docstring is the specification).

Each attack is drawn whole from its exact table with one 64-bit word, as in the duel (kernels.draw_attack),
so a contest of one character a side without a Formation is the duel (kernels.duel_records) draw for draw.
``tables`` = (at_index, cdf, values, guide): ``at_index`` int64[N, 2, N_KINDS, N, 2, A + 1, 2, 5], the table
of an attack by attacker, its profile, :class:`~rulesets.warbound.kernels_warband.Kind`, target, its profile,
armor points left and whether it has a Morale pool (simcore.sampling.TablePack).

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
    Hourglass,
    draw_attack,
)
from rulesets.warbound.kernels_warband import (
    ADJACENT,
    ANY_ENEMY,
    MAX_CHARACTERS,
    N_AROUND,
    N_SIDE_STATE,
    N_STATE,
    VALID_SHOT,
    Char,
    CharState,
    Kind,
    Outcome,
    Prof,
    Record,
    SideRow,
    SideState,
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
    """Columns of the plan scratch (``plans``, int64[N, N_PLANNED]): a character's situation, kept until an
    activation changes the state (:func:`_activate`), and its plan, kept while its space stays open."""

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
def _first_open(is_open, spaces, want):
    """The first open space (board order) holding action ``want``, or -1."""
    for j in range(spaces.shape[1]):
        i = spaces[want, j]
        if i < 0 or is_open[i] != 0:
            return i
    return -1


@nb.njit(**TRIAL_JIT)
def _shot_kind(aim, near):
    if near:
        return Kind.AIM_NEAR if aim else Kind.SHOOT_NEAR
    return Kind.AIM_FAR if aim else Kind.SHOOT_FAR


@nb.njit(**TRIAL_JIT)
def _situation(game, state, c):
    """(:class:`Branch`, target, whether it is among the closest, reach, steps the walk can take) of c as
    the state stands."""
    prof, chars, targeting = game[0], game[1], game[6]
    st, cd = state[0], state[2]
    p = st[c, CharState.PROFILE]
    if nearest_enemy(st, cd, c) == 1:
        if prof[c, p, Prof.ATTACK] >= 0:
            target, _ = pick(prof, chars, targeting, st, cd, c, ADJACENT)
            return Branch.FIGHT, target, False, 0, 0
        if prof[c, p, Prof.ACC_NEAR] >= 0:
            _, n = flee(game, state, c, 1)
            if n > 0:
                return Branch.FLEE, -1, False, 0, n
        return Branch.NONE, -1, False, 0, 0
    if prof[c, p, Prof.ACC_NEAR] >= 0:
        target, near = pick(prof, chars, targeting, st, cd, c, VALID_SHOT)
        if target >= 0:
            return Branch.SHOOT, target, near, 0, 0
    if prof[c, p, Prof.ATTACK] < 0:
        return Branch.NONE, -1, False, 0, 0
    target, _ = pick(prof, chars, targeting, st, cd, c, ANY_ENEMY)
    if target < 0:
        return Branch.NONE, -1, False, 0, 0
    _, n, reach = approach(game, state, c, target, prof[c, p, Prof.SPEED] + prof[c, p, Prof.RUN])
    return Branch.APPROACH, target, False, reach, n


@nb.njit(**TRIAL_JIT)
def _space_of(prof, spaces, st, c, branch, near, reach, n, is_open):
    """(space, :class:`Plan`, Kind, steps) of c's plan in its situation on the open spaces (space -1: no
    plan). Like every helper called many times a contest, it takes only the arrays it reads: numba counts
    a reference to each array a call passes, and passing the ``game`` and ``state`` tuples whole (twelve
    arrays) made most of a contest's time."""
    p = st[c, CharState.PROFILE]
    speed, run = prof[c, p, Prof.SPEED], prof[c, p, Prof.SPEED] + prof[c, p, Prof.RUN]
    if branch == Branch.FIGHT:
        for want in (A_FIGHT, A_MOVE_FIGHT, A_RUN_FIGHT):
            i = _first_open(is_open, spaces, want)
            if i >= 0:
                return i, Plan.ATTACK, Kind.FIGHT, 0
    elif branch == Branch.FLEE:
        if speed >= 1:
            i = _first_open(is_open, spaces, A_MOVE_SHOOT)
            if i >= 0:
                return i, Plan.FLEE_SHOOT, 0, speed
        if run >= 1:
            i = _first_open(is_open, spaces, A_RUN)
            if i >= 0:
                return i, Plan.FLEE, 0, run
        if speed >= 1:
            i = _first_open(is_open, spaces, A_MOVE)
            if i >= 0:
                return i, Plan.FLEE, 0, speed
    elif branch == Branch.SHOOT:
        i = _first_open(is_open, spaces, A_AIM_SHOOT)
        if i >= 0:
            return i, Plan.ATTACK, _shot_kind(True, near), 0
        for want in (A_SHOOT, A_MOVE_SHOOT):
            i = _first_open(is_open, spaces, want)
            if i >= 0:
                return i, Plan.ATTACK, _shot_kind(False, near), 0
    elif branch == Branch.APPROACH:
        if 1 <= reach <= speed:
            i = _first_open(is_open, spaces, A_MOVE_FIGHT)
            if i >= 0:
                return i, Plan.APPROACH_FIGHT, Kind.FIGHT, speed
        if 1 <= reach <= run:
            i = _first_open(is_open, spaces, A_RUN_FIGHT)
            if i >= 0:
                return i, Plan.APPROACH_FIGHT, Kind.FIGHT, run
        if n >= 1 and run >= 1:
            i = _first_open(is_open, spaces, A_RUN)
            if i >= 0:
                return i, Plan.APPROACH, 0, run
        if n >= 1 and speed >= 1:
            for want in (A_MOVE, A_MOVE_SHOOT, A_MOVE_FIGHT):
                i = _first_open(is_open, spaces, want)
                if i >= 0:
                    return i, Plan.APPROACH, 0, speed
    return -1, Plan.NONE, 0, 0


@nb.njit(**TRIAL_JIT)
def _attacks(plan):
    return plan == Plan.ATTACK or plan == Plan.APPROACH_FIGHT or plan == Plan.FLEE_SHOOT


@nb.njit(**TRIAL_JIT)
def _has_pool(prof, st, c):
    return st[c, CharState.PANICKED] == 0 and prof[c, st[c, CharState.PROFILE], Prof.MORALE] >= 0


@nb.njit(**TRIAL_JIT)
def _may_act(prof, st, c, fresh):
    """Whether c may be activated: not yet this turn (or ``fresh``), or again without the Stress token of an
    additional activation (line 383) making it panic (the policy never panics itself)."""
    if st[c, CharState.TURN_ACTS] == 0 or fresh or not _has_pool(prof, st, c):
        return True
    return st[c, CharState.STRESS] + 1 < prof[c, st[c, CharState.PROFILE], Prof.MORALE]


@nb.njit(**TRIAL_JIT)
def _price(prof, board, st, c, space):
    """Order tokens c pays to activate on ``space``: the Move space waives colourless costs (line 157)."""
    p = st[c, CharState.PROFILE]
    return prof[c, p, Prof.MOVE_PRICE] if board[space] == A_MOVE else prof[c, p, Prof.PRICE]


@nb.njit(**TRIAL_JIT)
def _know(game, state, c):
    """Make c's situation (:func:`_situation`) and keep it in ``plans`` while the state stands (its callers
    call it only while ``plans[c, KNOWN]`` is 0)."""
    plans = state[4]
    branch, target, near, reach, n = _situation(game, state, c)
    plans[c, Planned.KNOWN], plans[c, Planned.BRANCH], plans[c, Planned.TARGET] = 1, branch, target
    plans[c, Planned.NEAR], plans[c, Planned.REACH], plans[c, Planned.WALK] = near, reach, n
    plans[c, Planned.SPACE] = -2


@nb.njit(**TRIAL_JIT)
def _plan(prof, spaces, st, plans, c, is_open):
    """Make c's plan on the open spaces from its known situation (:func:`_space_of`) and keep it in
    ``plans`` (its callers call it only while ``plans[c, SPACE]`` is -2)."""
    space, plan, kind, steps = _space_of(prof, spaces, st, c, plans[c, Planned.BRANCH],
                                         plans[c, Planned.NEAR] != 0, plans[c, Planned.REACH],
                                         plans[c, Planned.WALK], is_open)
    plans[c, Planned.SPACE], plans[c, Planned.PLAN] = space, plan
    plans[c, Planned.KIND], plans[c, Planned.STEPS] = kind, steps


@nb.njit(**TRIAL_JIT)
def _side_choice(game, state, s, is_open, ranking, fresh, keep):
    """The character of side s's next activation by the twin's four passes (-1: none; its plan in
    ``plans``); ``ranking``: tokens not counted; ``fresh``: as if no character had activated. ``keep``: the
    last call was on these open spaces, some closed since, so every plan whose space is open holds (a plan
    is the first open space of a list its situation fixes)."""
    prof, chars, board, spaces = game[0], game[1], game[4], game[5]
    st, sst, plans = state[0], state[1], state[4]
    for c in range(st.shape[0]):
        if not keep or (plans[c, Planned.SPACE] >= 0 and is_open[plans[c, Planned.SPACE]] == 0):
            plans[c, Planned.SPACE] = -2
    for rnd in range(4):
        again, attack = rnd >= 2, rnd % 2 == 0
        for c in range(st.shape[0]):
            if st[c, CharState.ALIVE] == 0 or chars[c, Char.SIDE] != s:
                continue
            acted = st[c, CharState.TURN_ACTS] > 0 and not fresh
            if acted != again or not _may_act(prof, st, c, fresh):
                continue
            # c's plan: its situation made once while the state stands, its space once while it is open
            if plans[c, Planned.KNOWN] == 0:
                _know(game, state, c)
            if plans[c, Planned.SPACE] == -2:
                _plan(prof, spaces, st, plans, c, is_open)
            space = plans[c, Planned.SPACE]
            if space < 0 or _attacks(plans[c, Planned.PLAN]) != attack:
                continue
            if not ranking and sst[s, SideState.TOKENS] < _price(prof, board, st, c, space):
                continue
            return c
    return -1


# --- an activation --------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _attack(game, state, tables, stream, c, kind, e):
    """c's attack of ``kind`` on e, drawn whole from its table with one 64-bit word."""
    prof, st = game[0], state[0]
    at_index, cdf, values, guide = tables
    q = st[e, CharState.PROFILE]
    available = max(0, prof[e, q, Prof.ARMOR_POINTS] - st[e, CharState.BREAKS])
    pool = 1 if _has_pool(prof, st, e) else 0
    at = at_index[c, st[c, CharState.PROFILE], kind, e, q, available, pool]
    w, b, x = draw_attack(next_u64(stream), at, cdf, values, guide)
    st[e, CharState.WOUNDS] += w
    st[e, CharState.BREAKS] += b
    st[e, CharState.STRESS] += x


@nb.njit(**TRIAL_JIT)
def _end_of_activation(game, state):
    """Removal of every character whose Health pool is full, then Panic (lines 227, 511, 519); the side
    that removed every enemy, or -1."""
    prof, chars = game[0], game[1]
    st, occ = state[0], state[3]
    alive0, alive1 = 0, 0
    removed = False
    for c in range(st.shape[0]):
        if st[c, CharState.ALIVE] == 0:
            continue
        if st[c, CharState.WOUNDS] >= prof[c, st[c, CharState.PROFILE], Prof.HEALTH]:
            st[c, CharState.ALIVE] = 0
            removed = True
            occ[st[c, CharState.TILE_A]] = -1
            if st[c, CharState.TILE_B] >= 0:
                occ[st[c, CharState.TILE_B]] = -1
        elif chars[c, Char.SIDE] == 0:
            alive0 += 1
        else:
            alive1 += 1
    if alive0 == 0:
        return 1
    if alive1 == 0:
        return 0
    if removed:
        measure(game, state, -2)
    for c in range(st.shape[0]):
        if (st[c, CharState.ALIVE] != 0 and _has_pool(prof, st, c)
                and st[c, CharState.STRESS] >= prof[c, st[c, CharState.PROFILE], Prof.MORALE]):
            st[c, CharState.PANICKED] = 1
            st[c, CharState.STRESS] = 0
            st[c, CharState.PROFILE] = 1
    return -1


@nb.njit(**TRIAL_JIT)
def _activate(game, state, tables, stream, s, is_open):
    """Side s's activation: (the space used or -1 for none, the side that removed every enemy or -1)."""
    st, sst, plans = state[0], state[1], state[4]
    c = _side_choice(game, state, s, is_open, False, False, False)
    if c < 0:
        return -1, -1
    space, plan, kind = plans[c, Planned.SPACE], plans[c, Planned.PLAN], plans[c, Planned.KIND]
    target, steps = plans[c, Planned.TARGET], plans[c, Planned.STEPS]
    price = _price(game[0], game[4], st, c, space)
    sst[s, SideState.TOKENS] -= price
    sst[s, SideState.SPENT] += price
    is_open[space] = 0
    if st[c, CharState.TURN_ACTS] > 0 and _has_pool(game[0], st, c):
        st[c, CharState.STRESS] += 1  # "you must then add a Stress token to it" (383)
    st[c, CharState.TURN_ACTS] += 1
    st[c, CharState.ACTS] += 1
    if plan == Plan.ATTACK:
        _attack(game, state, tables, stream, c, kind, target)
    elif plan == Plan.APPROACH or plan == Plan.APPROACH_FIGHT:
        lead, n, _ = approach(game, state, c, target, steps)
        walk(state, c, lead, n)
        measure(game, state, c)
        if plan == Plan.APPROACH_FIGHT:
            _attack(game, state, tables, stream, c, Kind.FIGHT, target)
    else:
        lead, n = flee(game, state, c, steps)
        walk(state, c, lead, n)
        measure(game, state, c)
        if plan == Plan.FLEE_SHOOT and nearest_enemy(st, state[2], c) > 1:
            e, near = pick(game[0], game[1], game[6], st, state[2], c, VALID_SHOT)
            if e >= 0:
                _attack(game, state, tables, stream, c, _shot_kind(False, near), e)
    won = _end_of_activation(game, state)
    state[4][:, Planned.KNOWN] = 0  # the state has changed: every situation is made again
    return space, won


# --- the Hand and the Hourglass -------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _place_hourglass(game, state, h, is_open, spare):
    """Effect Phase (line 367): the first open space (board order) that the Hand holder h's choices would
    not use this turn, ranked with each chosen space closed, else the one it would use last. ``spare``:
    int64[2, S] scratch.

    A plan is the first open space of a list its situation fixes, so the ranking closes exactly the open
    spaces each character's list takes alone, one after another: their union is found first, and the
    ranking itself is played only when it takes every open space (for its last)."""
    prof, chars, spaces = game[0], game[1], game[5]
    st, plans = state[0], state[4]
    ranked, trial = spare[0], spare[1]
    ranked[:] = 0
    for c in range(st.shape[0]):
        if st[c, CharState.ALIVE] == 0 or chars[c, Char.SIDE] != h or not _may_act(prof, st, c, False):
            continue
        if plans[c, Planned.KNOWN] == 0:
            _know(game, state, c)
        branch, near = plans[c, Planned.BRANCH], plans[c, Planned.NEAR] != 0
        reach, n = plans[c, Planned.REACH], plans[c, Planned.WALK]
        for i in range(is_open.shape[0]):
            trial[i] = is_open[i]
        while True:
            i, _, _, _ = _space_of(prof, spaces, st, c, branch, near, reach, n, trial)
            if i < 0:
                break
            trial[i] = 0
            ranked[i] = 1
    for i in range(is_open.shape[0]):
        if is_open[i] != 0 and ranked[i] == 0:
            return i
    for i in range(is_open.shape[0]):
        trial[i] = is_open[i]
    last = -1
    while True:
        c = _side_choice(game, state, h, trial, True, False, last >= 0)
        if c < 0:
            return last
        last = plans[c, Planned.SPACE]
        trial[last] = 0


@nb.njit(**TRIAL_JIT)
def _swaps(game, state, h, period, turn, policy, spare):
    """Cleanup (line 369): whether the Hourglass holder h exchanges it for the Hand: always, or (strike-first)
    when its first choice on the next turn's board, as things stand, would be an attack."""
    if policy == Hourglass.ALWAYS:
        return True
    next_open = spare[0]
    for i in range(next_open.shape[0]):
        next_open[i] = 1 if period[i] == 0 or turn + 1 > 2 else 0
    c = _side_choice(game, state, h, next_open, True, True, False)
    return c >= 0 and _attacks(state[4][c, Planned.PLAN])


# --- a contest ------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _record(game, state, won, turn, hand_turns, out):
    """The contest's record (:class:`~rulesets.warbound.kernels_warband.Record`)."""
    prof, chars = game[0], game[1]
    st, sst = state[0], state[1]
    out[:] = 0
    if won >= 0:
        out[Record.OUTCOME] = won
    else:
        out[Record.OUTCOME] = Outcome.NEITHER
    out[Record.TURN] = turn
    out[Record.HAND_0] = hand_turns
    lost0, lost1 = 0, 0
    for s in range(2):
        out[Record.TOKENS_0 + s] = sst[s, SideState.SPENT]
    for c in range(st.shape[0]):
        s = chars[c, Char.SIDE]
        removed = st[c, CharState.ALIVE] == 0
        out[Record.WOUNDS_0 + s] += st[c, CharState.WOUNDS]
        out[Record.ACTS_0 + s] += st[c, CharState.ACTS]
        out[Record.PANICS_0 + s] += st[c, CharState.PANICKED]
        out[Record.LOST_0 + s] += 1 if removed else 0
        k = chars[c, Char.ORDER]
        if k == 0:
            out[Record.ENTRY_ACTS_0 + s] = st[c, CharState.ACTS]
            out[Record.ENTRY_PANIC_0 + s] = st[c, CharState.PANICKED]
        health = prof[c, 0, Prof.HEALTH]
        damage = health if removed else min(st[c, CharState.WOUNDS], health - 1)
        out[Record.DAMAGE + s * MAX_CHARACTERS + k] = damage
        if s == 0:
            lost0 += damage * chars[c, Char.LOSS_WEIGHT]
        else:
            lost1 += damage * chars[c, Char.LOSS_WEIGHT]
    if won >= 0:
        out[Record.AHEAD] = won
    elif lost1 > lost0:
        out[Record.AHEAD] = Outcome.SIDE_0
    elif lost0 > lost1:
        out[Record.AHEAD] = Outcome.SIDE_1
    else:
        out[Record.AHEAD] = Outcome.NEITHER


@nb.njit(**TRIAL_JIT)
def _contest(game, state, tables, sides, period, turns, policy, is_open, spare, stream, out):
    """One contest (tests/naive_warbound_warband.py's docstring); side 0 starts with the Hand (line 363)."""
    chars = game[1]
    st, sst, occ = state[0], state[1], state[3]
    st[:, :] = 0
    sst[:, :] = 0
    occ[:] = -1
    for c in range(st.shape[0]):
        st[c, CharState.ALIVE] = 1
        st[c, CharState.TILE_A] = chars[c, Char.TILE_A]
        st[c, CharState.TILE_B] = chars[c, Char.TILE_B]
        occ[chars[c, Char.TILE_A]] = c
        if chars[c, Char.TILE_B] >= 0:
            occ[chars[c, Char.TILE_B]] = c
    measure(game, state, -1)
    state[4][:, Planned.KNOWN] = 0
    won, turn, hand, hand_turns = -1, 1, 0, 0
    for turn in range(1, turns + 1):
        for s in range(2):  # Leader Phase
            sst[s, SideState.TOKENS] += sides[s, SideRow.ORDERS_1 if turn <= 2 else SideRow.ORDERS_2]
            sst[s, SideState.DONE] = 0
        st[:, CharState.TURN_ACTS] = 0
        for i in range(is_open.shape[0]):
            is_open[i] = 1 if period[i] == 0 or turn > 2 else 0
        # Effect Phase: "the player holding the Hourglass must place it on an open Action" (367)
        hourglass = -1
        if policy != Hourglass.NOT_PLAYED:
            hourglass = _place_hourglass(game, state, hand, is_open, spare)
        kept = False
        hand_turns += 1 - hand
        s = hand  # "The player holding the Hand ... at the beginning of the Action Phase activates ... first"
        while won < 0 and (sst[0, SideState.DONE] == 0 or sst[1, SideState.DONE] == 0):
            if sst[s, SideState.DONE] == 0:
                used, won = _activate(game, state, tables, stream, s, is_open)
                if used < 0:
                    sst[s, SideState.DONE] = 1
                elif used == hourglass and s == hand:
                    kept = True  # "he gains the marker" (368): the Hand holder keeps the Hand (369)
            if sst[1 - s, SideState.DONE] == 0:
                s = 1 - s
        if won >= 0:
            break
        for s in range(2):  # Cleanup: at most one token kept (355)
            sst[s, SideState.TOKENS] = min(sst[s, SideState.TOKENS], 1)
        if (policy != Hourglass.NOT_PLAYED and not kept
                and _swaps(game, state, 1 - hand, period, turn, policy, spare)):
            hand = 1 - hand
    _record(game, state, won, turn, hand_turns, out)


@nb.njit(**JIT)
def warband_records(prof, chars, sides, board, spaces, period, dist, nbr, at_index, cdf, values, guide, turns,
                    policy, targeting, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record (kernels_warband.Record) of trial
    ``first_trial + k``, drawn from the stream (seed, first_trial + k) alone. ``policy``: a kernels.Hourglass
    code; ``targeting``: a kernels_warband.Targeting code; the arrays: kernels_warband's docstring."""
    n = prof.shape[0]
    game = (prof, chars, dist, nbr, board, spaces, targeting)
    state = (np.zeros((n, N_STATE), np.int64), np.zeros((2, N_SIDE_STATE), np.int64),
             np.zeros((n, n + N_AROUND), np.int64), np.empty(dist.shape[0], np.int64),
             np.zeros((n, N_PLANNED), np.int64), np.zeros(MAX_PATH, np.int64))
    tables = (at_index, cdf, values, guide)
    is_open = np.zeros(board.shape[0], np.int64)
    spare = np.zeros((2, board.shape[0]), np.int64)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _contest(game, state, tables, sides, period, turns, policy, is_open, spare, stream, out[k])
