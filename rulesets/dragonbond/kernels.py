"""Compiled Dragonbond duels: every attack drawn as two stages from exact tables (hits and criticals of the
attack pool, then the blocks of the defense pool), one 64-bit word each (simcore.sampling).

The rules played are tests/naive_dragonbond.py's (its docstring): the twin rolls every die, this kernel
draws each roll whole. rulesets.dragonbond.simulate builds the tables and the side rows.

The helpers read one packed int64 array ``W`` (:func:`pack`, once a call of a records kernel): a header
(:class:`Slot`: where each block starts, its sizes), the pair's side and state rows (a duel's two sides; a
battle copies its two fighters' rows in), the casualty orders and the tables' indices, and a battle's
units. numba counts a reference to every array a function is passed, an atomic operation at each call:
so the helpers hold ``W`` alone, and the stream and the tables (cdf, values, guide) where they draw.
``_attack`` is inlined into its callers (simcore.config.INLINE_JIT) so that the
references to the stream and the tables it takes meet their releases in one function and are pruned.

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone.
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.dragonbond.attack import ATTACK_DOWN_PER_TOKEN, DEFENSE_DOWN_PER_TOKEN, INJURY_DOWN_PER_INJURY
from rulesets.dragonbond.rules import BASE_TURNS, TURNS_PER_UNIT
from simcore.config import INLINE_JIT, JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, chunk_stream, next_u64, seed_trial_stream
from simcore.sampling import guide_pick

# --- every column and code the duel kernels read or emit, named once ---------------------------------------
# numba reads IntEnum members as compile-time integers, so kernels index arrays with them at no cost.


class Side(IntEnum):
    """Columns of a unit's side row (int64[2, N_SIDE] in a duel; int64[U, N_SIDE] in a battle), built by
    rulesets.dragonbond.simulate.unit_arrays."""

    MODELS = 0
    STAMINA = 1
    DEFENSE = 2  # defense dice per hit (0: no defense roll)
    EPIC = 3  # Epic X: X more turns a round
    REST_ALL = 4  # 1 when its Rest removes every fatigue token
    POLICY = 5  # Policy
    CAPTAIN_AT = 6  # the captain's place in the casualty order, -1 when none
    CAP_ATT = 7  # the captain's net attack modifier
    CAP_DEF = 8  # the captain's net defense modifier against the enemy's weapon
    HUGE_HEALTH = 9  # a Huge creature's health slot size, 0 for other units
    INJURY_SLOTS = 10
    RANGED_ONLY = 11  # its only weapon is ranged: it shoots while engaged
    CAN_OPPORTUNITY = 12  # it has a melee weapon for opportunity attacks
    J_MIN = 13  # the attack tables' lowest net modifier and count of modifiers (att_at's third axis)
    K_MIN = 14  # the defense tables' lowest net modifier
    J_N = 15
    K_N = 16
    H_MAX = 17  # the most hits the defense tables cover
    PAY_FIRST = 18  # DB-fatigue-timing: 1 when fatigue is paid before the roll
    OPP_FATIGUE = 19  # DB-opportunity-fatigue
    TABLE = 20  # the slab of ``order``, ``att_at`` and ``def_at`` the row's unit uses (its side in a duel,
    # its unit index in a battle: rulesets/dragonbond/kernels_battle.py)
    SPEED = 21  # read by battles only
    FLYING = 22  # read by battles only


N_SIDE = len(Side)


class Policy(IntEnum):
    """A unit's policy (Side.POLICY): attack every turn, or Rest while fatigue lies beside its card."""

    ATTACK = 0
    REST = 1


class Record(IntEnum):
    """Columns of a duel's record (int64[n, N_RECORD], one row per trial)."""

    OUTCOME = 0  # DuelOutcome
    WOUNDS_0 = 1  # wounds side 0 took
    WOUNDS_1 = 2
    LOST_0 = 3  # models side 0 lost (a Huge creature: 1 model, 1 when dead)
    LOST_1 = 4
    FATIGUE_0 = 5  # fatigue tokens side 0 gained
    FATIGUE_1 = 6
    TURNS_0 = 7  # turns side 0 took
    TURNS_1 = 8
    ROUNDS = 9  # rounds played


N_RECORD = len(Record)


class DuelOutcome(IntEnum):
    """How a duel ends (Record.OUTCOME)."""

    SIDE_0_WINS = 0  # side 1 destroyed
    SIDE_1_WINS = 1
    NEITHER = 2  # both stand after the last round


class State(IntEnum):
    """Columns of a side's per-trial state (int64[2, N_STATE])."""

    ALIVE = 0  # models alive
    IDX = 1  # the next model in the casualty order
    CUR = 2  # wounds on it (a Huge creature: on its current health slot)
    CAP_ALIVE = 3
    CARD = 4  # fatigue tokens on the card
    BESIDE = 5  # fatigue tokens beside the card (the Exhaustion Penalty counts these)
    INJURIES = 6  # a Huge creature's injuries
    WOUNDS = 7  # wounds taken in all
    FATIGUE = 8  # fatigue gained in all
    TURNS = 9
    DEF_EXTRA = 10  # net defense upgrades a battle adds (Flying, flanking); always 0 in a duel


N_STATE = len(State)


class Slot(IntEnum):
    """The header of the packed array ``W`` a duel's or a battle's helpers read (:func:`pack`): where each
    block starts and its sizes. Each block is its array in C order; a helper reads the offsets it needs into
    local ints: ``W[W[Slot.ST] + s * N_STATE + State.ALIVE]`` is side s's models alive."""

    UNITS = 0  # U: the battle's units (a duel: 2)
    SIDE = 1  # the pair's side rows int64[2, N_SIDE] (a duel's two sides; a battle loads its two fighters')
    ST = 2  # the pair's state rows int64[2, N_STATE]
    ORDER = 3  # order int64[T, ORDER_W]: the Health of each model in the casualty order, per table slab
    ORDER_W = 4
    ATT = 5  # att_at int64[T, ATT_M, ATT_J, ATT_C]: (start, guide start, k, w) of each attack table
    ATT_M = 6
    ATT_J = 7
    ATT_C = 8
    DEF = 9  # def_at int64[T, DEF_H, DEF_K, DEF_C]: (start, guide start, k) of each defense table
    DEF_H = 10
    DEF_K = 11
    DEF_C = 12
    UNITS_SIDE = 13  # a battle's int64[U, N_SIDE] (kernels_battle); a duel: empty
    CAP_DEF = 14  # a battle's int64[U, U]
    OWNER = 15  # a battle's int64[U]
    ENGAGED0 = 16  # a battle's int64[U]
    UNITS_ST = 17  # a battle's trial state int64[U, N_BATTLE]


N_HEADER = len(Slot)


@nb.njit(**TRIAL_JIT)
def _block(W, slot, at, block):
    """``block`` (C order) into ``W`` from ``at``, its start noted in the header word ``slot``: the next
    free word."""
    W[slot] = at
    flat = block.ravel()
    W[at:at + flat.size] = flat
    return at + flat.size


@nb.njit(**TRIAL_JIT)
def pack(side, order, att_at, def_at, units_side, cap_def, owner, engaged0, n_battle):
    """The packed array ``W`` of a duel (``side``: its two sides; the battle's blocks empty) or of a battle
    (``side`` zeros; ``units_side``, ``cap_def``, ``owner``, ``engaged0`` its units, and ``n_battle`` words
    of trial state a unit); why one array: the module's docstring."""
    u = units_side.shape[0] if units_side.shape[0] else 2
    size = (N_HEADER + 2 * N_SIDE + 2 * N_STATE + order.size + att_at.size + def_at.size + units_side.size
            + cap_def.size + owner.size + engaged0.size + u * n_battle)
    W = np.zeros(size, np.int64)
    W[Slot.UNITS] = u
    W[Slot.ORDER_W] = order.shape[1]
    W[Slot.ATT_M], W[Slot.ATT_J], W[Slot.ATT_C] = att_at.shape[1], att_at.shape[2], att_at.shape[3]
    W[Slot.DEF_H], W[Slot.DEF_K], W[Slot.DEF_C] = def_at.shape[1], def_at.shape[2], def_at.shape[3]
    at = _block(W, Slot.SIDE, N_HEADER, side)
    W[Slot.ST] = at
    at += 2 * N_STATE
    at = _block(W, Slot.ORDER, at, order)
    at = _block(W, Slot.ATT, at, att_at)
    at = _block(W, Slot.DEF, at, def_at)
    at = _block(W, Slot.UNITS_SIDE, at, units_side)
    at = _block(W, Slot.CAP_DEF, at, cap_def)
    at = _block(W, Slot.OWNER, at, owner)
    at = _block(W, Slot.ENGAGED0, at, engaged0)
    W[Slot.UNITS_ST] = at
    return W


@nb.njit(**TRIAL_JIT)
def _add_fatigue(W, s, n):
    p = W[Slot.SIDE] + s * N_SIDE
    q = W[Slot.ST] + s * N_STATE
    W[q + State.FATIGUE] += n
    room = max(0, W[p + Side.STAMINA] - W[q + State.CARD])
    on_card = min(room, n)
    W[q + State.CARD] += on_card
    W[q + State.BESIDE] += n - on_card


@nb.njit(**TRIAL_JIT)
def _remove_fatigue(W, s, n):
    q = W[Slot.ST] + s * N_STATE
    off = min(n, W[q + State.BESIDE])
    W[q + State.BESIDE] -= off
    W[q + State.CARD] = max(0, W[q + State.CARD] - (n - off))


@nb.njit(**TRIAL_JIT)
def _wound(W, s, w):
    """``w`` wounds on side s: a Huge creature's health slots (each full slot adds an injury, the last
    injury slot kills), or one model's Health, then the next, in the casualty order."""
    p = W[Slot.SIDE] + s * N_SIDE
    q = W[Slot.ST] + s * N_STATE
    W[q + State.WOUNDS] += w
    huge = W[p + Side.HUGE_HEALTH]
    if huge > 0:
        W[q + State.CUR] += w
        while W[q + State.CUR] >= huge and W[q + State.ALIVE] > 0:
            W[q + State.CUR] -= huge
            W[q + State.INJURIES] += 1
            if W[q + State.INJURIES] >= W[p + Side.INJURY_SLOTS]:
                W[q + State.ALIVE] = 0
        return
    order = W[Slot.ORDER] + W[p + Side.TABLE] * W[Slot.ORDER_W]
    while w > 0 and W[q + State.ALIVE] > 0:
        room = W[order + W[q + State.IDX]] - W[q + State.CUR]
        if w >= room:
            w -= room
            if W[q + State.IDX] == W[p + Side.CAPTAIN_AT]:
                W[q + State.CAP_ALIVE] = 0
            W[q + State.IDX] += 1
            W[q + State.ALIVE] -= 1
            W[q + State.CUR] = 0
        else:
            W[q + State.CUR] += w
            w = 0


@nb.njit(**INLINE_JIT)
def _attack(W, a, stream, tables, beside_for_roll):
    """Side a attacks the other side: hits and criticals drawn from the table of its pool, blocks from the
    table of the defense pool, wounds applied. ``tables``: (cdf, values, guide)."""
    cdf, values, guide = tables
    d = 1 - a
    pa, pd = W[Slot.SIDE] + a * N_SIDE, W[Slot.SIDE] + d * N_SIDE
    qa, qd = W[Slot.ST] + a * N_STATE, W[Slot.ST] + d * N_STATE
    m = W[qa + State.ALIVE] if W[pa + Side.HUGE_HEALTH] == 0 else 1
    j = (W[pa + Side.CAP_ATT] * W[qa + State.CAP_ALIVE] - ATTACK_DOWN_PER_TOKEN * beside_for_roll
         - INJURY_DOWN_PER_INJURY * W[qa + State.INJURIES])
    ji = min(max(j - W[pa + Side.J_MIN], 0), W[pa + Side.J_N] - 1)
    x = W[Slot.ATT] + ((W[pa + Side.TABLE] * W[Slot.ATT_M] + m) * W[Slot.ATT_J] + ji) * W[Slot.ATT_C]
    w = W[x + 3]
    index = guide_pick(next_u64(stream), cdf, values, guide, W[x], W[x + 1], W[x + 2])
    hits = index >> w
    crits = index & ((1 << w) - 1)
    blocks = 0
    if hits > 0 and W[pd + Side.DEFENSE] > 0:
        kk = (W[pd + Side.CAP_DEF] * W[qd + State.CAP_ALIVE] - DEFENSE_DOWN_PER_TOKEN * W[qd + State.BESIDE]
              - INJURY_DOWN_PER_INJURY * W[qd + State.INJURIES] + W[qd + State.DEF_EXTRA])
        ki = min(max(kk - W[pd + Side.K_MIN], 0), W[pd + Side.K_N] - 1)
        h = min(hits, W[pd + Side.H_MAX])
        y = W[Slot.DEF] + ((W[pd + Side.TABLE] * W[Slot.DEF_H] + h) * W[Slot.DEF_K] + ki) * W[Slot.DEF_C]
        blocks = guide_pick(next_u64(stream), cdf, values, guide, W[y], W[y + 1], W[y + 2])
    _wound(W, d, max(0, hits - blocks) + crits)


@nb.njit(**TRIAL_JIT)
def _turn(W, p, stream, tables):
    """Side p's turn: Rest (when its policy says so and it is exhausted) or Attack, paying its fatigue
    before the roll (DB-fatigue-timing pay-then-act, check-after-paying) or after (act-then-pay). A unit
    whose only weapon is ranged shoots while engaged: the enemy's opportunity attack comes first."""
    e = 1 - p
    pp, pe = W[Slot.SIDE] + p * N_SIDE, W[Slot.SIDE] + e * N_SIDE
    qp, qe = W[Slot.ST] + p * N_STATE, W[Slot.ST] + e * N_STATE
    W[qp + State.TURNS] += 1
    if W[pp + Side.POLICY] == Policy.REST and W[qp + State.BESIDE] > 0:
        if W[pp + Side.REST_ALL]:
            _remove_fatigue(W, p, W[qp + State.CARD] + W[qp + State.BESIDE])
        else:
            _remove_fatigue(W, p, 1)
        return
    if W[pp + Side.RANGED_ONLY] and W[pe + Side.CAN_OPPORTUNITY]:
        _add_fatigue(W, e, W[pe + Side.OPP_FATIGUE])
        _attack(W, e, stream, tables, W[qe + State.BESIDE])
        if W[qp + State.ALIVE] == 0:
            _add_fatigue(W, p, 1)
            return
    if W[pp + Side.PAY_FIRST]:
        _add_fatigue(W, p, 1)
        _attack(W, p, stream, tables, W[qp + State.BESIDE])
    else:
        _attack(W, p, stream, tables, W[qp + State.BESIDE])
        _add_fatigue(W, p, 1)


@nb.njit(**TRIAL_JIT)
def _duel(W, stream, tables, rounds, out):
    sd, st = W[Slot.SIDE], W[Slot.ST]
    for s in range(2):
        p, q = sd + s * N_SIDE, st + s * N_STATE
        for f in range(N_STATE):
            W[q + f] = 0
        W[q + State.ALIVE] = W[p + Side.MODELS]
        W[q + State.CAP_ALIVE] = 1 if W[p + Side.CAPTAIN_AT] >= 0 else 0
    alive0, alive1 = st + State.ALIVE, st + N_STATE + State.ALIVE
    played = 0
    for _ in range(rounds):
        played += 1
        left0 = BASE_TURNS + TURNS_PER_UNIT + W[sd + Side.EPIC]
        left1 = BASE_TURNS + TURNS_PER_UNIT + W[sd + N_SIDE + Side.EPIC]
        p = np.int64(next_u64(stream) >> np.uint64(63))  # the face-off: both roll 3 grey, a fair coin
        while left0 + left1 > 0 and W[alive0] > 0 and W[alive1] > 0:
            if p == 0 and left0 > 0:
                left0 -= 1
                _turn(W, np.int64(0), stream, tables)
            elif p == 1 and left1 > 0:
                left1 -= 1
                _turn(W, np.int64(1), stream, tables)
            p = 1 - p
        if W[alive0] == 0 or W[alive1] == 0:
            break
        for s in range(2):  # Upkeep: the card cleared, the tokens beside moved onto it
            p_, q = sd + s * N_SIDE, st + s * N_STATE
            moved = min(W[q + State.BESIDE], W[p_ + Side.STAMINA])
            W[q + State.CARD] = moved
            W[q + State.BESIDE] -= moved
    if W[alive1] == 0:
        out[Record.OUTCOME] = DuelOutcome.SIDE_0_WINS
    elif W[alive0] == 0:
        out[Record.OUTCOME] = DuelOutcome.SIDE_1_WINS
    else:
        out[Record.OUTCOME] = DuelOutcome.NEITHER
    for s in range(2):  # each per-side column: its side 0 member, then side 1's (Record)
        p_, q = sd + s * N_SIDE, st + s * N_STATE
        out[Record.WOUNDS_0 + s] = W[q + State.WOUNDS]
        out[Record.LOST_0 + s] = W[p_ + Side.MODELS] - W[q + State.ALIVE]  # Huge: 1 model, 0 when dead
        out[Record.FATIGUE_0 + s] = W[q + State.FATIGUE]
        out[Record.TURNS_0 + s] = W[q + State.TURNS]
    out[Record.ROUNDS] = played


@nb.njit(**JIT)
def duel_records(side, order, att_at, def_at, cdf, values, guide, rounds, seed, first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record of trial ``first_trial + k``, drawn
    from the stream (seed, first_trial + k) alone; the arrays are packed once a call (:func:`pack`)."""
    none = np.zeros((0, N_SIDE), np.int64)
    W = pack(side, order, att_at, def_at, none, np.zeros((0, 0), np.int64), np.zeros(0, np.int64),
             np.zeros(0, np.int64), 0)
    tables = (cdf, values, guide)
    stream = np.empty(STATE_WORDS, np.uint64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, stream)
        _duel(W, stream, tables, rounds, out[k])


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
