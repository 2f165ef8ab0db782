"""The UberDrakes combat, simulated (private kernels; rulesets.uberdrakes.simulate wraps them).

A trial plays one whole combat after its pre-combat plans: the initiator's rolloff total drawn from its
exact table with one 64-bit word (simcore.sampling), the defender's unrolled concession looked up, the
defender's total drawn likewise, then the counterattack move by move. A move is looked up in the policy
table the exact program recorded (rulesets.uberdrakes.combat.Policy), keyed by :func:`encode`; its dice
are rolled one by one. The counts follow simcore.runner's histogram contract (layout below).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.config import JIT, TRIAL_JIT
from simcore.rng import chunk_stream, next_u64, roll_die
from simcore.sampling import guide_pick

# a side's state, as the exact program's (rulesets.uberdrakes.combat): items and Magic left, spells unused,
# whether it used a Hide Shield or Plate Armor, whether Acid Rain waits for its next item
S_LANCES, S_SHIELDS, S_MAGIC, S_FIRE, S_PLATE, S_SHIELD_USED, S_PLATE_USED, S_ACID = range(8)
STATE = 8
# moves: 0 none (concede behind, hand over ahead), then a resource; Plate Armor with X is M_PLATE + X
M_NONE, M_LANCE, M_SHIELD, M_FIRE, M_PLATE = 0, 1, 2, 3, 4
# params
(P_BONUS_I, P_BONUS_D, P_RANGED, P_BLAST_I, P_BLAST_D, P_TIES_INITIATOR, P_OVERSHOOT, P_ACID_SPELLS,
 P_BP_ROLLOFF, P_CONCEDE_BONUSES, P_BLAST_MULTIPLY, P_ABSOLUTE, P_FIRE_COST_I, P_FIRE_COST_D, P_PRE_MAGIC_I,
 P_PRE_MAGIC_D, P_UNROLLED_LOW) = range(17)
N_PARAMS = 17
# the histogram: (winner, damage instances 0..4, conceded unrolled); (winner, the total the loser pays in
# blood points + PAID_OFFSET); Magic, Lances and Hide Shields spent by each side; keys the table missed
DAMAGE_MAX = 4
H_OUTCOME = 0
PAID_OFFSET, PAID_BINS = 64, 256
H_PAID = H_OUTCOME + 2 * (DAMAGE_MAX + 1) * 2
SPENT_BINS = 32
H_SPENT = H_PAID + 2 * PAID_BINS  # magic 0, magic 1, lances 0, lances 1, shields 0, shields 1
H_MISSED = H_SPENT + 6 * SPENT_BINS
H_SIZE = H_MISSED + 1
#: The range a total or difference of totals may take in a key.
KEY_OFFSET = 256


@nb.njit(**TRIAL_JIT)
def encode(a, b, st, mover, first, overshooting):
    """The policy key of a state: ``a``, ``b`` the difference of the totals and 0, or the two totals
    (objectives of blood points), each within +-255; both sides' states; who moves, who moved first,
    and whether the mover is ahead and may add more (57 bits)."""
    key = np.int64(a + KEY_OFFSET)
    key = (key << 9) | np.int64(b + KEY_OFFSET)
    for s in range(2):
        key = (key << 4) | st[s, S_LANCES]
        key = (key << 4) | st[s, S_SHIELDS]
        key = (key << 5) | st[s, S_MAGIC]
        for f in range(S_FIRE, STATE):
            key = (key << 1) | st[s, f]
    return (((key << 1) | mover) << 2) | (first << 1) | overshooting


_GOLDEN = 0x9E3779B97F4A7C15  # Fibonacci hashing (Knuth, TAOCP 6.4)


@nb.njit(inline="always", **TRIAL_JIT)
def _slot(key, bits):
    return np.int64((np.uint64(key) * np.uint64(_GOLDEN)) >> np.uint64(64 - bits))


@nb.njit(**JIT)
def hash_table(keys, moves, bits):
    """An open-addressing table of the policy (linear probing, 2**bits slots, at most half full): keys
    int64[2**bits] (-1 empty; a key is never negative) and moves int64[2**bits]."""
    size = 1 << bits
    table_keys = np.full(size, -1, np.int64)
    table_moves = np.zeros(size, np.int64)
    for i in range(keys.size):
        h = _slot(keys[i], bits)
        while table_keys[h] != -1:
            h = (h + 1) & (size - 1)
        table_keys[h] = keys[i]
        table_moves[h] = moves[i]
    return table_keys, table_moves


@nb.njit(inline="always", **TRIAL_JIT)
def _lookup(table_keys, table_moves, bits, key):
    """The move of ``key``, or -1 when the table does not hold it."""
    mask = (1 << bits) - 1
    h = _slot(key, bits)
    while table_keys[h] != key:
        if table_keys[h] == -1:
            return -1
        h = (h + 1) & mask
    return table_moves[h]


@nb.njit(**TRIAL_JIT)
def _record(out, c, winner, damage, unrolled, paid, st, init, params):
    out[c, H_OUTCOME + (winner * (DAMAGE_MAX + 1) + damage) * 2 + unrolled] += 1
    slot = min(max(paid + PAID_OFFSET, 0), PAID_BINS - 1)
    out[c, H_PAID + winner * PAID_BINS + slot] += 1
    for s in range(2):
        magic = params[P_PRE_MAGIC_I + s] + init[s, S_MAGIC] - st[s, S_MAGIC]
        out[c, H_SPENT + s * SPENT_BINS + min(magic, SPENT_BINS - 1)] += 1
        out[c, H_SPENT + (2 + s) * SPENT_BINS + init[s, S_LANCES] - st[s, S_LANCES]] += 1
        out[c, H_SPENT + (4 + s) * SPENT_BINS + init[s, S_SHIELDS] - st[s, S_SHIELDS]] += 1


@nb.njit(**JIT)
def combat_chunks(keys, moves, bits, params, init, at, cdf, values, guide, unrolled, seed, first_chunk,
                  total_trials, chunk_trials, out):
    """Whole combats, counted in ``out[c, H_SIZE]`` (the layout above). ``keys``, ``moves``, ``bits``:
    the policy's :func:`hash_table`; ``params`` int64[N_PARAMS]; ``init`` int64[2, STATE]: both sides'
    states after the plans; ``at`` int64[6]: the initiator's and the defender's rolloff tables (table
    start, guide start, guide bits each) in ``cdf``, ``values``, ``guide``; ``unrolled`` int8[n]: the
    defender concedes unrolled against initiator total ``P_UNROLLED_LOW + i``."""
    st = np.empty((2, STATE), np.int64)
    for c in range(out.shape[0]):
        stream, trials = chunk_stream(seed, first_chunk + c, total_trials, chunk_trials)
        for _ in range(trials):
            st[:, :] = init
            ti = guide_pick(next_u64(stream), cdf, values, guide, at[0], at[1], at[2]) + params[P_BONUS_I]
            u = ti - params[P_UNROLLED_LOW]
            if 0 <= u < unrolled.size and unrolled[u] != 0:  # line 313: two instances of damage
                paid = max(params[P_BONUS_D], 0) if params[P_CONCEDE_BONUSES] else 0
                damage = 2
                if params[P_BLAST_I]:
                    damage = 4 if params[P_BLAST_MULTIPLY] else 2
                _record(out, c, 0, damage, 1, paid, st, init, params)
                continue
            td = guide_pick(next_u64(stream), cdf, values, guide, at[3], at[4], at[5]) + params[P_BONUS_D]
            rolled_i, rolled_d = ti, td
            mover = 1 if ti >= td else 0  # the initiator wins ties (line 315)
            first = mover
            over = 0
            winner = -1
            while winner < 0:
                if params[P_ABSOLUTE]:
                    key = encode(ti, td, st, mover, first, over)
                else:
                    key = encode(ti - td, -KEY_OFFSET, st, mover, first, over)
                move = _lookup(keys, moves, bits, key)
                if move < 0:
                    out[c, H_MISSED] += 1
                    winner = 1 - mover
                    break
                me = mover
                if move == M_NONE:
                    if over:  # ahead: hand over
                        mover, over = 1 - me, 0
                    else:  # behind: concede
                        winner = 1 - me
                    continue
                destroyed = st[me, S_ACID] != 0 and (move <= M_SHIELD or params[P_ACID_SPELLS] != 0)
                add = 0
                if move == M_LANCE:
                    st[me, S_LANCES] -= 1
                    add = roll_die(stream, 6)
                elif move == M_SHIELD:
                    st[me, S_SHIELDS] -= 1
                    if not destroyed:
                        st[me, S_SHIELD_USED] = 1
                    add = roll_die(stream, 6)
                elif move == M_FIRE:
                    st[me, S_MAGIC] -= params[P_FIRE_COST_I + me]
                    st[me, S_FIRE] = 0
                    add = roll_die(stream, 6)
                else:
                    x = move - M_PLATE
                    st[me, S_MAGIC] -= x + 1
                    st[me, S_PLATE] = 0
                    if not destroyed:
                        st[me, S_PLATE_USED] = 1
                    add = x
                if destroyed:  # Acid Rain: used up, no effect (line 440)
                    st[me, S_ACID] = 0
                    add = 0
                if me == 0:
                    ti += add
                else:
                    td += add
                mine = ti - td if me == 0 else td - ti
                if mine > 0 or (mine == 0 and me == 0 and params[P_TIES_INITIATOR] != 0):
                    if params[P_OVERSHOOT]:
                        over = 1
                    else:
                        mover, over = 1 - me, 0
                else:
                    over = 0
            loser = 1 - winner
            blast = params[P_BLAST_I + winner]
            spared = (st[winner, S_SHIELD_USED] != 0 or st[winner, S_PLATE_USED] != 0
                      or (params[P_RANGED] != 0 and loser == 0))
            damage = 0 if spared and not blast else (2 if blast else 1)
            if params[P_BP_ROLLOFF]:
                paid = rolled_i if loser == 0 else rolled_d
            else:
                paid = ti if loser == 0 else td
            _record(out, c, winner, damage, 0, paid, st, init, params)
