"""Compiled Dragonbond battles: several units a side (private; rulesets/dragonbond/battle.py is the public
wrapper and states the readings, tests/naive_dragonbond_battle.py plays the same die by die).

A battle reuses the duel kernel's per-unit steps (rulesets/dragonbond/kernels.py: ``_attack``, ``_wound``,
``_add_fatigue``, ``_remove_fatigue``): for each attack the attacker's and the defender's rows are copied
into the duel's two-row scratch ``side``/``st`` (row = the unit's side, so a battle of one unit a side is
its duel draw for draw), the step runs, and the rows are copied back. What travels:

* ``units_side``: int64[U, N_SIDE], one duel side row per unit (side 0's units first), Side.TABLE = its index:
  ``order[u]``, ``att_at[u]`` and ``def_at[u]`` are its casualty order and table indices.
* ``cap_def``: int64[U, U], ``cap_def[u, e]``: u's captain's net defense modifier against e's weapon.
* ``owner``: int64[U]; ``engaged0``: int64[U], bit e of ``engaged0[u]``: u starts engaged with e.
* ``units``: int64[U, N_BATTLE], the trial's state, columns :class:`BattleState`: the duel's per-side state
  columns first (kernels.State, copied into and out of the scratch whole), then the battle's own.

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone, as a duel.
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.dragonbond.kernels import (
    N_RECORD,
    N_SIDE,
    N_STATE,
    DuelOutcome,
    Policy,
    Record,
    Side,
    State,
    _add_fatigue,
    _attack,
    _remove_fatigue,
)
from rulesets.dragonbond.rules import BASE_TURNS, TURNS_PER_UNIT
from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, next_u64, seed_trial_stream


class BattleState(IntEnum):
    """Columns of a unit's row of the battle state (int64[U, N_BATTLE]): the duel's state first."""

    ALIVE = State.ALIVE
    IDX = State.IDX
    CUR = State.CUR
    CAP_ALIVE = State.CAP_ALIVE
    CARD = State.CARD
    BESIDE = State.BESIDE
    INJURIES = State.INJURIES
    WOUNDS = State.WOUNDS
    FATIGUE = State.FATIGUE
    TURNS = State.TURNS
    DEF_EXTRA = State.DEF_EXTRA
    OWNER = N_STATE  # the unit's side
    ENGAGED = N_STATE + 1  # bit e: engaged with unit e
    BEGAN_ENGAGED = N_STATE + 2  # engaged with a living enemy when the turn Flying looks at began (kept
    # for Flying units only, the only ones that read it)


N_BATTLE = len(BattleState)

# sides as typed numpy scalars for helper calls: numba compiles a helper once per literal value it is called
# with, once in all for an int64
_0 = np.int64(0)
_1 = np.int64(1)


class BattleRecord(IntEnum):
    """Columns of a battle's record: the duel's record (kernels.Record), then the units each side lost."""

    OUTCOME = Record.OUTCOME
    WOUNDS_0 = Record.WOUNDS_0
    WOUNDS_1 = Record.WOUNDS_1
    LOST_0 = Record.LOST_0  # models lost (a Huge creature: 1 when dead)
    LOST_1 = Record.LOST_1
    FATIGUE_0 = Record.FATIGUE_0
    FATIGUE_1 = Record.FATIGUE_1
    TURNS_0 = Record.TURNS_0
    TURNS_1 = Record.TURNS_1
    ROUNDS = Record.ROUNDS
    UNITS_LOST_0 = N_RECORD
    UNITS_LOST_1 = N_RECORD + 1


N_BATTLE_RECORD = len(BattleRecord)


class BattleOutcome(IntEnum):
    """A battle's outcome (the duel's codes, and both destroyed: never reached, an attack wounds one side)."""

    SIDE_0_WINS = DuelOutcome.SIDE_0_WINS
    SIDE_1_WINS = DuelOutcome.SIDE_1_WINS
    NEITHER = DuelOutcome.NEITHER
    BOTH_DESTROYED = 3


class Targeting(IntEnum):
    """DB-battle-targeting: focus: the enemy with the fewest models alive; line: the first listed."""

    FOCUS = 0
    LINE = 1


class Flanking(IntEnum):
    """DB-flanking-count: defense downgrades of a unit engaged with n >= 2 enemy units."""

    PER_EXTRA_UNIT = 0  # n - 1
    PER_ENGAGED_UNIT = 1  # n
    ONE = 2  # 1


class FlyingTurn(IntEnum):
    """DB-flying-turn: the turn whose start Flying looks at."""

    CURRENT = 0
    OWN_ACTIVATION = 1


# --- who is engaged with whom ----------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _engaged_enemies(units, u):
    """The living enemy units engaged with unit u."""
    n = 0
    mask = units[u, BattleState.ENGAGED]
    for e in range(units.shape[0]):
        if (mask >> e) & 1 and units[e, BattleState.ALIVE] > 0:
            n += 1
    return n


@nb.njit(**TRIAL_JIT)
def _engage(units, u, e):
    units[u, BattleState.ENGAGED] |= np.int64(1) << e
    units[e, BattleState.ENGAGED] |= np.int64(1) << u


@nb.njit(**TRIAL_JIT)
def _flank(n, flanking):
    """Defense downgrades of a unit engaged with n living enemy units (flanked when n >= 2)."""
    if n < 2:
        return 0
    if flanking == Flanking.PER_EXTRA_UNIT:
        return n - 1
    if flanking == Flanking.PER_ENGAGED_UNIT:
        return n
    return 1


@nb.njit(**TRIAL_JIT)
def _target(units, u, targeting):
    """The enemy unit u attacks: among the living enemies engaged with it if any, else among every living
    enemy; by DB-battle-targeting, focus: the fewest models alive (then the first listed), line: the first
    listed. -1 when no enemy stands."""
    engaged_only = _engaged_enemies(units, u) > 0
    mask = units[u, BattleState.ENGAGED]
    best = -1
    for e in range(units.shape[0]):
        if units[e, BattleState.OWNER] == units[u, BattleState.OWNER] or units[e, BattleState.ALIVE] == 0:
            continue
        if engaged_only and not (mask >> e) & 1:
            continue
        if best < 0 or (targeting == Targeting.FOCUS
                        and units[e, BattleState.ALIVE] < units[best, BattleState.ALIVE]):
            best = e
    return best


@nb.njit(**TRIAL_JIT)
def _active_unit(units, p):
    """The unit player p activates: its living unit with the least fatigue (card and beside), then the
    first listed."""
    best = -1
    for u in range(units.shape[0]):
        if units[u, BattleState.OWNER] != p or units[u, BattleState.ALIVE] == 0:
            continue
        tired = units[u, BattleState.CARD] + units[u, BattleState.BESIDE]
        if best < 0 or tired < units[best, BattleState.CARD] + units[best, BattleState.BESIDE]:
            best = u
    return best


# --- the two-row scratch of the duel's steps -------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _load(units_side, cap_def, units, a, d, side, st, flanking):
    """Attacker a and defender d into the scratch rows of their sides, with what the battle adds to the
    defender's roll: Flying's upgrade when it did not begin the turn engaged, flanking's downgrades."""
    for k, e in ((a, d), (d, a)):
        r = units[k, BattleState.OWNER]
        for c in range(N_SIDE):
            side[r, c] = units_side[k, c]
        side[r, Side.CAP_DEF] = cap_def[k, e]
        for c in range(N_STATE):
            st[r, c] = units[k, c]
    r = units[d, BattleState.OWNER]
    flying = 1 if units_side[d, Side.FLYING] and units[d, BattleState.BEGAN_ENGAGED] == 0 else 0
    st[r, State.DEF_EXTRA] = flying - _flank(_engaged_enemies(units, d), flanking)


@nb.njit(**TRIAL_JIT)
def _unload(units, a, d, st):
    for k in (a, d):
        r = units[k, BattleState.OWNER]
        for c in range(N_STATE):
            units[k, c] = st[r, c]
    units[a, BattleState.DEF_EXTRA] = 0
    units[d, BattleState.DEF_EXTRA] = 0


@nb.njit(**TRIAL_JIT)
def _strike(units_side, cap_def, order, units, side, st, a, d, stream, att_at, def_at, cdf, values, guide,
            flanking, fatigue, pay_first):
    """Unit a attacks unit d with the duel's ``_attack``, adding ``fatigue`` to a before its roll
    (``pay_first``) or after it."""
    _load(units_side, cap_def, units, a, d, side, st, flanking)
    r = units[a, BattleState.OWNER]
    if pay_first:
        _add_fatigue(side, st, r, fatigue)
        _attack(side, order, st, r, stream, att_at, def_at, cdf, values, guide, st[r, State.BESIDE])
    else:
        _attack(side, order, st, r, stream, att_at, def_at, cdf, values, guide, st[r, State.BESIDE])
        _add_fatigue(side, st, r, fatigue)
    _unload(units, a, d, st)


@nb.njit(**TRIAL_JIT)
def _rest(units_side, units, side, st, u):
    """The Rest special action: fatigue -1 (all of it for a unit whose Rest removes all)."""
    r = units[u, BattleState.OWNER]
    for c in range(N_STATE):
        st[r, c] = units[u, c]
    if units_side[u, Side.REST_ALL]:
        _remove_fatigue(st, r, st[r, State.CARD] + st[r, State.BESIDE])
    else:
        _remove_fatigue(st, r, 1)
    for c in range(N_STATE):
        units[u, c] = st[r, c]


@nb.njit(**TRIAL_JIT)
def _turn(units_side, cap_def, order, units, side, st, p, stream, att_at, def_at, cdf, values, guide,
          targeting, flanking, flying_turn):
    """Player p's turn (the duel's ``kernels._turn`` for the unit it activates and that unit's target)."""
    u = _active_unit(units, p)
    for k in range(units.shape[0]):  # Flying: engaged when this turn (or, own-activation: its own) began
        if units_side[k, Side.FLYING] and (flying_turn == FlyingTurn.CURRENT or k == u):
            units[k, BattleState.BEGAN_ENGAGED] = 1 if _engaged_enemies(units, k) > 0 else 0
    units[u, BattleState.TURNS] += 1
    if units_side[u, Side.POLICY] == Policy.REST and units[u, BattleState.BESIDE] > 0:
        _rest(units_side, units, side, st, u)
        return
    e = _target(units, u, targeting)
    engaged = _engaged_enemies(units, u) > 0
    ranged_only = units_side[u, Side.RANGED_ONLY]
    if not engaged and not ranged_only:
        if units_side[u, Side.SPEED] - units[u, BattleState.BESIDE] <= 0:  # too exhausted to move: it rests
            _rest(units_side, units, side, st, u)
            return
        _engage(units, u, e)  # moves into contact with its target, then attacks it
    if ranged_only and engaged:  # shooting while engaged: each engaged enemy's opportunity attack first
        for k in range(units.shape[0]):
            if ((units[u, BattleState.ENGAGED] >> k) & 1 and units[k, BattleState.ALIVE] > 0
                    and units_side[k, Side.CAN_OPPORTUNITY] and _engaged_enemies(units, k) < 2):
                _strike(units_side, cap_def, order, units, side, st, k, u, stream, att_at, def_at, cdf,
                        values, guide, flanking, units_side[k, Side.OPP_FATIGUE], True)
                if units[u, BattleState.ALIVE] == 0:
                    _load(units_side, cap_def, units, u, k, side, st, flanking)
                    _add_fatigue(side, st, units[u, BattleState.OWNER], 1)
                    _unload(units, u, k, st)
                    return
    _strike(units_side, cap_def, order, units, side, st, u, e, stream, att_at, def_at, cdf, values, guide,
            flanking, 1, units_side[u, Side.PAY_FIRST])


@nb.njit(**TRIAL_JIT)
def _stands(units, s):
    for u in range(units.shape[0]):
        if units[u, BattleState.OWNER] == s and units[u, BattleState.ALIVE] > 0:
            return True
    return False


@nb.njit(**TRIAL_JIT)
def _turns(units_side, units, s):
    """The Turn Counter of side s at the start of a round: 1 + its units on the battlefield + Epic X."""
    n = BASE_TURNS
    for u in range(units.shape[0]):
        if units[u, BattleState.OWNER] == s and units[u, BattleState.ALIVE] > 0:
            n += TURNS_PER_UNIT + units_side[u, Side.EPIC]
    return n


@nb.njit(**TRIAL_JIT)
def _battle(units_side, cap_def, owner, engaged0, order, units, side, st, stream, att_at, def_at, cdf,
            values, guide, rounds, targeting, flanking, flying_turn, out):
    units[:, :] = 0
    for u in range(units.shape[0]):
        units[u, BattleState.ALIVE] = units_side[u, Side.MODELS]
        units[u, BattleState.CAP_ALIVE] = 1 if units_side[u, Side.CAPTAIN_AT] >= 0 else 0
        units[u, BattleState.OWNER] = owner[u]
        units[u, BattleState.ENGAGED] = engaged0[u]
        units[u, BattleState.BEGAN_ENGAGED] = 1 if engaged0[u] != 0 else 0
    played = 0
    for _ in range(rounds):
        played += 1
        left0 = _turns(units_side, units, _0)
        left1 = _turns(units_side, units, _1)
        p = np.int64(next_u64(stream) >> np.uint64(63))  # the face-off: both roll 3 grey, a fair coin
        while left0 + left1 > 0 and _stands(units, _0) and _stands(units, _1):
            if p == 0 and left0 > 0:
                left0 -= 1
                _turn(units_side, cap_def, order, units, side, st, _0, stream, att_at, def_at, cdf, values,
                      guide, targeting, flanking, flying_turn)
            elif p == 1 and left1 > 0:
                left1 -= 1
                _turn(units_side, cap_def, order, units, side, st, _1, stream, att_at, def_at, cdf, values,
                      guide, targeting, flanking, flying_turn)
            p = 1 - p
        if not (_stands(units, _0) and _stands(units, _1)):
            break
        for u in range(units.shape[0]):  # Upkeep: the card cleared, the tokens beside moved onto it
            moved = min(units[u, BattleState.BESIDE], units_side[u, Side.STAMINA])
            units[u, BattleState.CARD] = moved
            units[u, BattleState.BESIDE] -= moved
    zero, one = _stands(units, _0), _stands(units, _1)
    if not zero and not one:
        out[BattleRecord.OUTCOME] = BattleOutcome.BOTH_DESTROYED
    elif not one:
        out[BattleRecord.OUTCOME] = BattleOutcome.SIDE_0_WINS
    elif not zero:
        out[BattleRecord.OUTCOME] = BattleOutcome.SIDE_1_WINS
    else:
        out[BattleRecord.OUTCOME] = BattleOutcome.NEITHER
    for f in range(1, N_BATTLE_RECORD):
        out[f] = 0
    for u in range(units.shape[0]):
        s = owner[u]
        out[BattleRecord.WOUNDS_0 + s] += units[u, BattleState.WOUNDS]
        out[BattleRecord.LOST_0 + s] += units_side[u, Side.MODELS] - units[u, BattleState.ALIVE]
        out[BattleRecord.FATIGUE_0 + s] += units[u, BattleState.FATIGUE]
        out[BattleRecord.TURNS_0 + s] += units[u, BattleState.TURNS]
        if units[u, BattleState.ALIVE] == 0:
            out[BattleRecord.UNITS_LOST_0 + s] += 1
    out[BattleRecord.ROUNDS] = played


@nb.njit(**JIT)
def battle_records(units_side, cap_def, owner, engaged0, order, att_at, def_at, cdf, values, guide, rounds,
                   targeting, flanking, flying_turn, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` (int64[N_BATTLE_RECORD]) is the record of trial
    ``first_trial + k``, drawn from the stream (seed, first_trial + k) alone; targeting, flanking and
    flying_turn: Targeting, Flanking and FlyingTurn codes."""
    units = np.zeros((units_side.shape[0], N_BATTLE), np.int64)
    side = np.zeros((2, N_SIDE), np.int64)
    st = np.zeros((2, N_STATE), np.int64)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _battle(units_side, cap_def, owner, engaged0, order, units, side, st, stream, att_at, def_at, cdf,
                values, guide, rounds, targeting, flanking, flying_turn, out[k])
