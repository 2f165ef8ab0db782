"""Compiled Dragonbond battles: several units a side (private; rulesets/dragonbond/battle.py is the public
wrapper and states the readings, tests/naive_dragonbond_battle.py plays the same die by die).

A battle reuses the duel kernel's per-unit steps (rulesets/dragonbond/kernels.py: ``_attack``, ``_wound``,
``_add_fatigue``, ``_remove_fatigue``): for each attack the attacker's and the defender's rows are copied
into the duel's two-row pair (row = the unit's side, so a battle of one unit a side is its duel draw for
draw), the step runs, and the rows are copied back. Everything travels in the packed array ``W``
(kernels.pack; blocks named by kernels.Slot), beside the stream and the tables where a helper draws:

* ``units_side`` (Slot.UNITS_SIDE): int64[U, N_SIDE], one duel side row per unit (side 0's units first),
  Side.TABLE = its index: ``order[u]``, ``att_at[u]`` and ``def_at[u]`` are its casualty order and table
  indices.
* ``cap_def`` (Slot.CAP_DEF): int64[U, U], ``cap_def[u, e]``: u's captain's net defense modifier against e's
  weapon.
* ``owner`` (Slot.OWNER): int64[U]; ``engaged0`` (Slot.ENGAGED0): int64[U], bit e of ``engaged0[u]``: u
  starts engaged with e.
* the trial's state (Slot.UNITS_ST): int64[U, N_BATTLE], columns :class:`BattleState`: the duel's per-side
  state columns first (kernels.State, copied into and out of the pair whole), then the battle's own.

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
    Slot,
    State,
    _add_fatigue,
    _attack,
    _remove_fatigue,
    pack,
)
from rulesets.dragonbond.rules import BASE_TURNS, TURNS_PER_UNIT
from simcore.config import INLINE_JIT, JIT, TRIAL_JIT
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
# A unit's row of the trial state is at W[Slot.UNITS_ST] + u * N_BATTLE, its side row at
# W[Slot.UNITS_SIDE] + u * N_SIDE (kernels.pack): the helpers below take those offsets from the header.


@nb.njit(**TRIAL_JIT)
def _row(W, u):
    """Where unit u's row of the trial state starts in ``W``."""
    return W[Slot.UNITS_ST] + u * N_BATTLE


@nb.njit(**TRIAL_JIT)
def _side_row(W, u):
    """Where unit u's side row starts in ``W``."""
    return W[Slot.UNITS_SIDE] + u * N_SIDE


@nb.njit(**TRIAL_JIT)
def _engaged_enemies(W, u):
    """The living enemy units engaged with unit u."""
    n = 0
    mask = W[_row(W, u) + BattleState.ENGAGED]
    for e in range(W[Slot.UNITS]):
        if (mask >> e) & 1 and W[_row(W, e) + BattleState.ALIVE] > 0:
            n += 1
    return n


@nb.njit(**TRIAL_JIT)
def _engage(W, u, e):
    W[_row(W, u) + BattleState.ENGAGED] |= np.int64(1) << e
    W[_row(W, e) + BattleState.ENGAGED] |= np.int64(1) << u


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
def _target(W, u, targeting):
    """The enemy unit u attacks: among the living enemies engaged with it if any, else among every living
    enemy; by DB-battle-targeting, focus: the fewest models alive (then the first listed), line: the first
    listed. -1 when no enemy stands."""
    engaged_only = _engaged_enemies(W, u) > 0
    ru = _row(W, u)
    mask = W[ru + BattleState.ENGAGED]
    best = -1
    for e in range(W[Slot.UNITS]):
        re = _row(W, e)
        if W[re + BattleState.OWNER] == W[ru + BattleState.OWNER] or W[re + BattleState.ALIVE] == 0:
            continue
        if engaged_only and not (mask >> e) & 1:
            continue
        if best < 0 or (targeting == Targeting.FOCUS
                        and W[re + BattleState.ALIVE] < W[_row(W, best) + BattleState.ALIVE]):
            best = e
    return best


@nb.njit(**TRIAL_JIT)
def _active_unit(W, p):
    """The unit player p activates: its living unit with the least fatigue (card and beside), then the
    first listed."""
    best = -1
    least = 0
    for u in range(W[Slot.UNITS]):
        r = _row(W, u)
        if W[r + BattleState.OWNER] != p or W[r + BattleState.ALIVE] == 0:
            continue
        tired = W[r + BattleState.CARD] + W[r + BattleState.BESIDE]
        if best < 0 or tired < least:
            best, least = u, tired
    return best


# --- the two-row scratch of the duel's steps -------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _load(W, a, d, flanking):
    """Attacker a and defender d into the pair's rows of their sides (kernels.Slot.SIDE, ST), with what the
    battle adds to the defender's roll: Flying's upgrade when it did not begin the turn engaged, flanking's
    downgrades."""
    n = W[Slot.UNITS]
    for k, e in ((a, d), (d, a)):
        rk, sk = _row(W, k), _side_row(W, k)
        r = W[rk + BattleState.OWNER]
        p, q = W[Slot.SIDE] + r * N_SIDE, W[Slot.ST] + r * N_STATE
        for c in range(N_SIDE):
            W[p + c] = W[sk + c]
        W[p + Side.CAP_DEF] = W[W[Slot.CAP_DEF] + k * n + e]
        for c in range(N_STATE):
            W[q + c] = W[rk + c]
    rd = _row(W, d)
    r = W[rd + BattleState.OWNER]
    flying = 1 if W[_side_row(W, d) + Side.FLYING] and W[rd + BattleState.BEGAN_ENGAGED] == 0 else 0
    W[W[Slot.ST] + r * N_STATE + State.DEF_EXTRA] = flying - _flank(_engaged_enemies(W, d), flanking)


@nb.njit(**TRIAL_JIT)
def _unload(W, a, d):
    for k in (a, d):
        rk = _row(W, k)
        q = W[Slot.ST] + W[rk + BattleState.OWNER] * N_STATE
        for c in range(N_STATE):
            W[rk + c] = W[q + c]
    W[_row(W, a) + BattleState.DEF_EXTRA] = 0
    W[_row(W, d) + BattleState.DEF_EXTRA] = 0


@nb.njit(**INLINE_JIT)
def _strike(W, a, d, stream, tables, flanking, fatigue, pay_first):
    """Unit a attacks unit d with the duel's ``_attack``, adding ``fatigue`` to a before its roll
    (``pay_first``) or after it."""
    _load(W, a, d, flanking)
    r = W[_row(W, a) + BattleState.OWNER]
    beside = W[Slot.ST] + r * N_STATE + State.BESIDE
    if pay_first:
        _add_fatigue(W, r, fatigue)
        _attack(W, r, stream, tables, W[beside])
    else:
        _attack(W, r, stream, tables, W[beside])
        _add_fatigue(W, r, fatigue)
    _unload(W, a, d)


@nb.njit(**TRIAL_JIT)
def _rest(W, u):
    """The Rest special action: fatigue -1 (all of it for a unit whose Rest removes all)."""
    ru = _row(W, u)
    r = W[ru + BattleState.OWNER]
    q = W[Slot.ST] + r * N_STATE
    for c in range(N_STATE):
        W[q + c] = W[ru + c]
    if W[_side_row(W, u) + Side.REST_ALL]:
        _remove_fatigue(W, r, W[q + State.CARD] + W[q + State.BESIDE])
    else:
        _remove_fatigue(W, r, 1)
    for c in range(N_STATE):
        W[ru + c] = W[q + c]


@nb.njit(**TRIAL_JIT)
def _turn(W, p, stream, tables, targeting, flanking, flying_turn):
    """Player p's turn (the duel's ``kernels._turn`` for the unit it activates and that unit's target)."""
    u = _active_unit(W, p)
    for k in range(W[Slot.UNITS]):  # Flying: engaged when this turn (or, own-activation: its own) began
        if W[_side_row(W, k) + Side.FLYING] and (flying_turn == FlyingTurn.CURRENT or k == u):
            W[_row(W, k) + BattleState.BEGAN_ENGAGED] = 1 if _engaged_enemies(W, k) > 0 else 0
    ru, su = _row(W, u), _side_row(W, u)
    W[ru + BattleState.TURNS] += 1
    if W[su + Side.POLICY] == Policy.REST and W[ru + BattleState.BESIDE] > 0:
        _rest(W, u)
        return
    e = _target(W, u, targeting)
    engaged = _engaged_enemies(W, u) > 0
    ranged_only = W[su + Side.RANGED_ONLY]
    if not engaged and not ranged_only:
        if W[su + Side.SPEED] - W[ru + BattleState.BESIDE] <= 0:  # too exhausted to move: it rests
            _rest(W, u)
            return
        _engage(W, u, e)  # moves into contact with its target, then attacks it
    if ranged_only and engaged:  # shooting while engaged: each engaged enemy's opportunity attack first
        for k in range(W[Slot.UNITS]):
            sk = _side_row(W, k)
            if ((W[ru + BattleState.ENGAGED] >> k) & 1 and W[_row(W, k) + BattleState.ALIVE] > 0
                    and W[sk + Side.CAN_OPPORTUNITY] and _engaged_enemies(W, k) < 2):
                _strike(W, k, u, stream, tables, flanking, W[sk + Side.OPP_FATIGUE], True)
                if W[ru + BattleState.ALIVE] == 0:
                    _load(W, u, k, flanking)
                    _add_fatigue(W, W[ru + BattleState.OWNER], 1)
                    _unload(W, u, k)
                    return
    _strike(W, u, e, stream, tables, flanking, 1, W[su + Side.PAY_FIRST])


@nb.njit(**TRIAL_JIT)
def _stands(W, s):
    for u in range(W[Slot.UNITS]):
        r = _row(W, u)
        if W[r + BattleState.OWNER] == s and W[r + BattleState.ALIVE] > 0:
            return True
    return False


@nb.njit(**TRIAL_JIT)
def _turns(W, s):
    """The Turn Counter of side s at the start of a round: 1 + its units on the battlefield + Epic X."""
    n = BASE_TURNS
    for u in range(W[Slot.UNITS]):
        r = _row(W, u)
        if W[r + BattleState.OWNER] == s and W[r + BattleState.ALIVE] > 0:
            n += TURNS_PER_UNIT + W[_side_row(W, u) + Side.EPIC]
    return n


@nb.njit(**TRIAL_JIT)
def _battle(W, stream, tables, rounds, targeting, flanking, flying_turn, out):
    n = W[Slot.UNITS]
    first = W[Slot.UNITS_ST]
    W[first:first + n * N_BATTLE] = 0
    for u in range(n):
        r, su = _row(W, u), _side_row(W, u)
        engaged0 = W[W[Slot.ENGAGED0] + u]
        W[r + BattleState.ALIVE] = W[su + Side.MODELS]
        W[r + BattleState.CAP_ALIVE] = 1 if W[su + Side.CAPTAIN_AT] >= 0 else 0
        W[r + BattleState.OWNER] = W[W[Slot.OWNER] + u]
        W[r + BattleState.ENGAGED] = engaged0
        W[r + BattleState.BEGAN_ENGAGED] = 1 if engaged0 != 0 else 0
    played = 0
    for _ in range(rounds):
        played += 1
        left0 = _turns(W, _0)
        left1 = _turns(W, _1)
        p = np.int64(next_u64(stream) >> np.uint64(63))  # the face-off: both roll 3 grey, a fair coin
        while left0 + left1 > 0 and _stands(W, _0) and _stands(W, _1):
            if p == 0 and left0 > 0:
                left0 -= 1
                _turn(W, _0, stream, tables, targeting, flanking, flying_turn)
            elif p == 1 and left1 > 0:
                left1 -= 1
                _turn(W, _1, stream, tables, targeting, flanking, flying_turn)
            p = 1 - p
        if not (_stands(W, _0) and _stands(W, _1)):
            break
        for u in range(n):  # Upkeep: the card cleared, the tokens beside moved onto it
            r = _row(W, u)
            moved = min(W[r + BattleState.BESIDE], W[_side_row(W, u) + Side.STAMINA])
            W[r + BattleState.CARD] = moved
            W[r + BattleState.BESIDE] -= moved
    zero, one = _stands(W, _0), _stands(W, _1)
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
    for u in range(n):
        r = _row(W, u)
        s = W[r + BattleState.OWNER]
        out[BattleRecord.WOUNDS_0 + s] += W[r + BattleState.WOUNDS]
        out[BattleRecord.LOST_0 + s] += W[_side_row(W, u) + Side.MODELS] - W[r + BattleState.ALIVE]
        out[BattleRecord.FATIGUE_0 + s] += W[r + BattleState.FATIGUE]
        out[BattleRecord.TURNS_0 + s] += W[r + BattleState.TURNS]
        if W[r + BattleState.ALIVE] == 0:
            out[BattleRecord.UNITS_LOST_0 + s] += 1
    out[BattleRecord.ROUNDS] = played


def pack_battle(units_side, cap_def, owner, engaged0, order, att_at, def_at):
    """The packed array ``W`` of a battle (kernels.pack), for tests and tools that call its helpers."""
    return pack(np.zeros((2, N_SIDE), np.int64), order, att_at, def_at, units_side, cap_def, owner, engaged0,
                N_BATTLE)


@nb.njit(**JIT)
def battle_records(units_side, cap_def, owner, engaged0, order, att_at, def_at, cdf, values, guide, rounds,
                   targeting, flanking, flying_turn, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` (int64[N_BATTLE_RECORD]) is the record of trial
    ``first_trial + k``, drawn from the stream (seed, first_trial + k) alone; targeting, flanking and
    flying_turn: Targeting, Flanking and FlyingTurn codes. The arrays are packed once a call into ``W``
    (kernels.pack), beside the trial's state."""
    W = pack(np.zeros((2, N_SIDE), np.int64), order, att_at, def_at, units_side, cap_def, owner, engaged0,
             N_BATTLE)
    tables = (cdf, values, guide)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _battle(W, stream, tables, rounds, targeting, flanking, flying_turn, out[k])
