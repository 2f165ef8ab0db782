"""The UberDrakes combat, simulated (private kernels; rulesets.uberdrakes.simulate wraps them).

A trial plays one whole combat after its pre-combat plans: the initiator's rolloff total drawn from its
exact table with one 64-bit word (simcore.sampling), the defender's unrolled concession looked up, the
defender's total drawn likewise, then the counterattack move by move. A move is looked up in the policy
table the exact program recorded (rulesets.uberdrakes.combat.Policy), keyed by :func:`encode`; its dice
are rolled one by one. The counts follow simcore.runner's histogram contract (layout below).
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.uberdrakes.counter import (
    N_SIDE_STATE,
    PLATE_ARMOR_MIN_MAGIC,
    UNROLLED_CONCESSION_DAMAGE,
    WIN_DAMAGE,
    WINDBLAST_FACTOR,
    SideState,
)
from rulesets.uberdrakes.rules import SIDES
from simcore.config import JIT, TRIAL_JIT
from simcore.rng import chunk_stream, next_u64, roll_die
from simcore.sampling import guide_pick

# --- every column, code and slot the kernel reads or emits, named once ----------------------------------
# numba reads IntEnum members as compile-time integers, so kernels index arrays with them at no cost.
# A side's state is the exact program's (counter.SideState, N_SIDE_STATE columns).


class Move(IntEnum):
    """A move of the policy table: none (concede behind, hand over ahead), or a resource; Plate Armor with X
    is PLATE + X."""

    NONE = 0
    LANCE = 1
    SHIELD = 2
    FIRE = 3
    PLATE = 4


class Param(IntEnum):
    """The slots of ``params`` (int64[N_PARAMS]), set by rulesets.uberdrakes.simulate.combat_args."""

    BONUS_I = 0  # the initiator's total bonus
    BONUS_D = 1
    RANGED = 2  # the initiator makes a Ranged attack
    BLAST_I = 3  # the initiator cast Windblast
    BLAST_D = 4
    TIES_INITIATOR = 5  # UD-counter-ties=initiator
    OVERSHOOT = 6  # UD-counter-sequencing=overshoot
    ACID_SPELLS = 7  # UD-acid-scope=items-and-spells
    BP_ROLLOFF = 8  # UD-bp-total=rolloff
    CONCEDE_BONUSES = 9  # UD-concede-total=bonuses
    BLAST_MULTIPLY = 10  # UD-windblast-stack=multiply
    ABSOLUTE = 11  # keys hold both totals (objectives of blood points), not their difference
    FIRE_COST_I = 12  # Fire Breath's Magic cost for the initiator
    FIRE_COST_D = 13
    PRE_MAGIC_I = 14  # Magic the initiator's pre-combat plan spent
    PRE_MAGIC_D = 15
    UNROLLED_LOW = 16  # the initiator total of ``unrolled[0]``


N_PARAMS = len(Param)


class At(IntEnum):
    """The slots of ``at`` (int64[N_AT]): where the rolloff tables lie in ``cdf``, ``values``, ``guide``
    (simcore.sampling.guide_pick's table start, guide start and guide bits)."""

    I_START = 0  # the initiator's rolloff total
    I_GUIDE = 1
    I_BITS = 2
    D_START = 3  # the defender's
    D_GUIDE = 4
    D_BITS = 5
    BOTH_START = 6  # both totals with one word: value = initiator's << BOTH_SPLIT | defender's
    BOTH_GUIDE = 7
    BOTH_BITS = 8
    BOTH_SPLIT = 9  # the bits of the defender's total in a joint value


N_AT = len(At)


class Spent(IntEnum):
    """The spent histograms, in blocks of SPENT_BINS from H_SPENT: block ``member + side``."""

    MAGIC = 0
    LANCES = 2
    SHIELDS = 4


N_SPENT_BLOCKS = 6

# the histogram: (winner, damage instances 0..4, conceded unrolled); (winner, the total the loser pays in
# blood points + PAID_OFFSET); Magic, Lances and Hide Shields spent by each side (Spent); keys the table
# missed
DAMAGE_MAX = UNROLLED_CONCESSION_DAMAGE * WINDBLAST_FACTOR
H_OUTCOME = 0
PAID_OFFSET, PAID_BINS = 64, 256
H_PAID = H_OUTCOME + 2 * (DAMAGE_MAX + 1) * 2
SPENT_BINS = 32
H_SPENT = H_PAID + 2 * PAID_BINS
H_MISSED = H_SPENT + N_SPENT_BLOCKS * SPENT_BINS
H_SIZE = H_MISSED + 1
#: The range a total or difference of totals may take in a key.
KEY_OFFSET = 256


# the key's layout: (a + 256) << 48 | (b + 256) << 39 | side 0 << 21 | side 1 << 3 | mover << 2 | first << 1 |
# overshooting; a side's 18 bits: Lances << 14 | Shields << 10 | Magic << 5 | the five flags (Fire Breath
# unused << 4 ... Acid Rain waiting << 0). The kernel keeps both sides packed and updates the bits in place.
SIDE_SHIFT = (21, 3)
SIDE_BITS = 18  # SIDE_SHIFT[s] == SIDE_SHIFT[0] - SIDE_BITS * s, computed (no tuple indexed at run time)
F_LANCES, F_SHIELDS, F_MAGIC = 14, 10, 5
W_LANCES, W_SHIELDS, W_MAGIC, W_FLAG = 4, 4, 5, 1  # the fields' widths (bits)
F_FLAG = (4, 3, 2, 1, 0)  # SideState.FIRE .. SideState.ACID
B_FIRE, B_PLATE, B_SHIELD_USED, B_PLATE_USED, B_ACID = F_FLAG


@nb.njit(**TRIAL_JIT)
def _pack_side(st, s):
    side = ((st[s, SideState.LANCES] << F_LANCES) | (st[s, SideState.SHIELDS] << F_SHIELDS)
            | (st[s, SideState.MAGIC] << F_MAGIC))
    for f in range(SideState.FIRE, N_SIDE_STATE):
        side |= st[s, f] << F_FLAG[f - SideState.FIRE]
    return side


@nb.njit(**TRIAL_JIT)
def pack_states(st):
    """Both sides' states (int64[2, N_SIDE_STATE]) packed as in a key."""
    return (_pack_side(st, 0) << SIDE_SHIFT[0]) | (_pack_side(st, 1) << (SIDE_SHIFT[0] - SIDE_BITS))


@nb.njit(**TRIAL_JIT)
def _key(a, b, packed, mover, first, overshooting):
    return (np.int64(a + KEY_OFFSET) << 48) | (np.int64(b + KEY_OFFSET) << 39) | packed | (mover << 2) | (
        first << 1) | overshooting


@nb.njit(**TRIAL_JIT)
def encode(a, b, st, mover, first, overshooting):
    """The policy key of a state: ``a``, ``b`` the difference of the totals and -256, or the two totals
    (objectives of blood points), each within +-255; both sides' states; who moves, who moved first,
    and whether the mover is ahead and may add more (57 bits, the layout above)."""
    return _key(a, b, pack_states(st), mover, first, overshooting)


@nb.njit(**JIT)
def encode_all(a, b, states, mover, first, overshooting):
    """:func:`encode` of n states at once: int64[n] keys from int64[n] a, b, mover, first, overshooting
    and int64[n, 2, N_SIDE_STATE] states."""
    out = np.empty(a.size, np.int64)
    for i in range(a.size):
        out[i] = encode(a[i], b[i], states[i], mover[i], first[i], overshooting[i])
    return out


@nb.njit(**TRIAL_JIT)
def _field(packed, s, shift, width):
    return (packed >> (SIDE_SHIFT[0] - SIDE_BITS * s + shift)) & ((1 << width) - 1)


_GOLDEN = 0x9E3779B97F4A7C15  # Fibonacci hashing (Knuth, TAOCP 6.4)


@nb.njit(**TRIAL_JIT)
def _slot(key, bits):
    return np.int64((np.uint64(key) * np.uint64(_GOLDEN)) >> np.uint64(64 - bits))


MOVE_BITS = 6  # a move code (at most Move.PLATE + 31) beside its 57-bit key in one table entry


@nb.njit(**JIT)
def hash_table(keys, moves, bits):
    """An open-addressing table of the policy (linear probing, 2**bits slots, at most half full): int64
    entries key << MOVE_BITS | move, -1 empty (a key is never negative), one load per probe."""
    size = 1 << bits
    table = np.full(size, -1, np.int64)
    for i in range(keys.size):
        h = _slot(keys[i], bits)
        while table[h] != -1:
            h = (h + 1) & (size - 1)
        table[h] = (keys[i] << MOVE_BITS) | moves[i]
    return table


@nb.njit(**TRIAL_JIT)
def _lookup(table, bits, key):
    """The move of ``key``, or -1 when the table does not hold it."""
    mask = (1 << bits) - 1
    h = _slot(key, bits)
    while True:
        entry = table[h]
        if entry == -1:
            return np.int64(-1)
        if entry >> MOVE_BITS == key:
            return entry & ((1 << MOVE_BITS) - 1)
        h = (h + 1) & mask


@nb.njit(**TRIAL_JIT)
def _spent_out(packed, s, fire_cost):
    """Whether side s has nothing it could still use: no Lance, no Hide Shield, no Fire Breath it can pay
    for, no Plate Armor it can pay for (X >= 1 costs 2)."""
    magic = _field(packed, s, F_MAGIC, W_MAGIC)
    return (_field(packed, s, F_LANCES, W_LANCES) == 0 and _field(packed, s, F_SHIELDS, W_SHIELDS) == 0
            and (_field(packed, s, B_FIRE, W_FLAG) == 0 or magic < fire_cost)
            and (_field(packed, s, B_PLATE, W_FLAG) == 0 or magic < PLATE_ARMOR_MIN_MAGIC))


@nb.njit(**TRIAL_JIT)
def _record(out, c, winner, damage, unrolled, paid, packed, init, params):
    out[c, H_OUTCOME + (winner * (DAMAGE_MAX + 1) + damage) * 2 + unrolled] += 1
    slot = min(max(paid + PAID_OFFSET, 0), PAID_BINS - 1)
    out[c, H_PAID + winner * PAID_BINS + slot] += 1
    # what was spent; nothing spent is left to _zeros (fewer writes to the same few counters)
    for s in range(2):
        magic = params[Param.PRE_MAGIC_I + s] + init[s, SideState.MAGIC] - _field(packed, s, F_MAGIC, W_MAGIC)
        if magic:
            out[c, H_SPENT + (Spent.MAGIC + s) * SPENT_BINS + min(magic, SPENT_BINS - 1)] += 1
        lances = init[s, SideState.LANCES] - _field(packed, s, F_LANCES, W_LANCES)
        if lances:
            out[c, H_SPENT + (Spent.LANCES + s) * SPENT_BINS + lances] += 1
        shields = init[s, SideState.SHIELDS] - _field(packed, s, F_SHIELDS, W_SHIELDS)
        if shields:
            out[c, H_SPENT + (Spent.SHIELDS + s) * SPENT_BINS + shields] += 1


@nb.njit(**TRIAL_JIT)
def _zeros(out, c, trials):
    """Each spent histogram's count of nothing spent: the chunk's trials less the others."""
    for k in range(N_SPENT_BLOCKS):
        at = H_SPENT + k * SPENT_BINS
        others = 0
        for i in range(1, SPENT_BINS):
            others += out[c, at + i]
        out[c, at] = trials - others


@nb.njit(**JIT)
def combat_chunks(table, bits, params, init, at, cdf, values, guide, unrolled, seed, first_chunk,
                  total_trials, chunk_trials, out):
    """Whole combats, counted in ``out[c, H_SIZE]`` (the layout above). ``table``, ``bits``: the policy's
    :func:`hash_table`; ``params`` int64[N_PARAMS]; ``init`` int64[2, N_SIDE_STATE]: both sides'
    states after the plans; ``at`` int64[N_AT] (At): the initiator's and the defender's rolloff tables (table
    start, guide start, guide bits each) and their joint table (the same and the defender's bits) in
    ``cdf``, ``values``, ``guide``; ``unrolled`` int8[n]: the
    defender concedes unrolled against initiator total ``Param.UNROLLED_LOW + i``."""
    start = pack_states(init)
    absolute = params[Param.ABSOLUTE] != 0
    overshoot = params[Param.OVERSHOOT] != 0
    ties_initiator = params[Param.TIES_INITIATOR] != 0
    acid_spells = params[Param.ACID_SPELLS] != 0
    for c in range(out.shape[0]):
        stream, trials = chunk_stream(seed, first_chunk + c, total_trials, chunk_trials)
        for _ in range(trials):
            packed = start
            if unrolled.size == 0:  # both totals with one word (the defender never concedes unrolled)
                both = guide_pick(next_u64(stream), cdf, values, guide, at[At.BOTH_START], at[At.BOTH_GUIDE],
                                  at[At.BOTH_BITS])
                ti = (both >> at[At.BOTH_SPLIT]) + params[Param.BONUS_I]
                td = (both & ((1 << at[At.BOTH_SPLIT]) - 1)) + params[Param.BONUS_D]
            else:
                ti = guide_pick(next_u64(stream), cdf, values, guide, at[At.I_START], at[At.I_GUIDE],
                                at[At.I_BITS]) + params[Param.BONUS_I]
                td = -1
            u = ti - params[Param.UNROLLED_LOW]
            if 0 <= u < unrolled.size and unrolled[u] != 0:  # lines 313, 331: two instances of damage
                paid = max(params[Param.BONUS_D], 0) if params[Param.CONCEDE_BONUSES] else 0
                damage = UNROLLED_CONCESSION_DAMAGE
                if params[Param.BLAST_I] and params[Param.BLAST_MULTIPLY]:
                    damage *= WINDBLAST_FACTOR
                _record(out, c, 0, damage, 1, paid, packed, init, params)
                continue
            if unrolled.size != 0:
                td = guide_pick(next_u64(stream), cdf, values, guide, at[At.D_START], at[At.D_GUIDE],
                                at[At.D_BITS]) + params[Param.BONUS_D]
            rolled_i, rolled_d = ti, td
            mover = np.int64(1 if ti >= td else 0)  # the initiator wins ties (line 315)
            first = mover
            over = np.int64(0)
            winner = -1
            while winner < 0:
                me = mover
                if _spent_out(packed, me, params[Param.FIRE_COST_I + me]):
                    move = np.int64(Move.NONE)  # nothing left to use: every policy concedes or hands over
                else:
                    if absolute:
                        key = _key(ti, td, packed, mover, first, over)
                    else:
                        key = _key(ti - td, -KEY_OFFSET, packed, mover, first, over)
                    move = _lookup(table, bits, key)
                    if move < 0:
                        out[c, H_MISSED] += 1
                        winner = 1 - mover
                        break
                if move == Move.NONE:
                    if over:  # ahead: hand over
                        mover, over = 1 - me, np.int64(0)
                    else:  # behind: concede
                        winner = 1 - me
                    continue
                base = SIDE_SHIFT[0] - SIDE_BITS * me
                destroyed = (packed >> (base + B_ACID)) & 1 != 0 and (move <= Move.SHIELD or acid_spells)
                add = 0
                if move == Move.LANCE:
                    packed -= np.int64(1) << (base + F_LANCES)
                    add = roll_die(stream, SIDES)
                elif move == Move.SHIELD:
                    packed -= np.int64(1) << (base + F_SHIELDS)
                    if not destroyed:
                        packed |= np.int64(1) << (base + B_SHIELD_USED)
                    add = roll_die(stream, SIDES)
                elif move == Move.FIRE:
                    packed -= params[Param.FIRE_COST_I + me] << (base + F_MAGIC)
                    packed &= ~(np.int64(1) << (base + B_FIRE))
                    add = roll_die(stream, SIDES)
                else:
                    x = move - Move.PLATE
                    packed -= (x + 1) << (base + F_MAGIC)
                    packed &= ~(np.int64(1) << (base + B_PLATE))
                    if not destroyed:
                        packed |= np.int64(1) << (base + B_PLATE_USED)
                    add = x
                if destroyed:  # Acid Rain: used up, no effect (line 440)
                    packed &= ~(np.int64(1) << (base + B_ACID))
                    add = 0
                if me == 0:
                    ti += add
                else:
                    td += add
                mine = ti - td if me == 0 else td - ti
                if mine > 0 or (mine == 0 and me == 0 and ties_initiator):
                    if overshoot:
                        over = np.int64(1)
                    else:
                        mover, over = 1 - me, np.int64(0)
                else:
                    over = np.int64(0)
            loser = 1 - winner
            blast = params[Param.BLAST_I + winner]
            wbase = SIDE_SHIFT[0] - SIDE_BITS * winner
            spared = (((packed >> (wbase + B_SHIELD_USED)) | (packed >> (wbase + B_PLATE_USED))) & 1 != 0
                      or (params[Param.RANGED] != 0 and loser == 0))
            damage = 0 if spared and not blast else WIN_DAMAGE * (WINDBLAST_FACTOR if blast else 1)
            if params[Param.BP_ROLLOFF]:
                paid = rolled_i if loser == 0 else rolled_d
            else:
                paid = ti if loser == 0 else td
            _record(out, c, winner, damage, 0, paid, packed, init, params)
        _zeros(out, c, trials)
