"""The exact counterattack game compiled (private kernels; rulesets.uberdrakes.combat._Solver calls them).

The same backward induction as the exact program's optimal play (combat._Solver._play, _after, _ended,
_score, blood_points, _after_rolloff), with the same arithmetic in the same order, so every value is the
same to the last bit: a state is packed as in the simulation's keys (rulesets.uberdrakes.kernels), a value
is a float64[len(Value)] in counter.Value's slots, and the memo is a numba typed dict from key to value. It
plays UD-policy optimal or greedy with UD-item-die=add-value and adaptive or overshoot sequencing, and keeps
no record of the moves (combat.policy solves in Python for those).

Every recursive call passes exactly the types of the first (int64 throughout): numba's on-disk cache of a
recursive function that casts an argument crashes when it is loaded (numba issues 6061, 6713).
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.uberdrakes.counter import (
    N_SHARED,
    PLATE_ARMOR_MIN_MAGIC,
    TIE,
    WIN_DAMAGE,
    WINDBLAST_FACTOR,
    Total,
    Value,
)
from rulesets.uberdrakes.kernels import (
    B_ACID,
    B_FIRE,
    B_PLATE,
    B_PLATE_USED,
    B_SHIELD_USED,
    F_LANCES,
    F_MAGIC,
    F_SHIELDS,
    SIDE_BITS,
    SIDE_SHIFT,
    W_FLAG,
    W_LANCES,
    W_MAGIC,
    W_SHIELDS,
    Move,
    _field,
    pack_states,
)
from rulesets.uberdrakes.rules import SIDES
from simcore.config import JIT, TRIAL_JIT

N_VALUE = len(Value)
#: The totals and differences of totals a key holds: +-511 in ten bits each, above both sides' states (bits
#: 3-38 as in the simulation's keys). A combat stays within +-285: bonuses within +-60 (exact.Side), at most
#: 21 dice (10 Lances, 10 Hide Shields, Fire Breath) and Plate Armor's X at most 29 (combat.Kit).
KEY_OFFSET = 512


class Objective(IntEnum):
    """UD-objective as the kernel reads it (combat._Solver._score)."""

    WIN = 0
    BLOOD_POINTS = 1
    NET_VALUE = 2
    VALUE = 3  # UD-objective=value with a UD-value other than win
    WIN_THEN_COST = 4  # win-then-cost, and value when UD-value=win


class Arg(IntEnum):
    """The slots of ``args`` (int64[N_ARGS])."""

    RANGED = 0  # the initiator makes a Ranged attack
    ROOSTED = 1  # the defender has Roosted: no blood points
    BLAST_I = 2  # the initiator cast Windblast
    BLAST_D = 3
    TIES_INITIATOR = 4  # UD-counter-ties=initiator
    OVERSHOOT = 5  # UD-counter-sequencing=overshoot
    ACID_SPELLS = 6  # UD-acid-scope=items-and-spells
    REPLY_SPELLS = 7  # UD-reply-spells
    BARS_LANCE = 8  # UD-shield-ranged=bars-lance
    BP_ROLLOFF = 9  # UD-bp-total=rolloff
    ABSOLUTE = 10  # keys hold both totals (objectives of blood points), not their difference
    OBJECTIVE = 11  # Objective
    FIRE_COST_I = 12  # Fire Breath's Magic cost for the initiator
    FIRE_COST_D = 13
    LANCES_I = 14  # the kit's Dragon Lances, Hide Shields and Magic once the plans are made (what it spent
    LANCES_D = 15  # is these less what is left)
    SHIELDS_I = 16
    SHIELDS_D = 17
    MAGIC_I = 18
    MAGIC_D = 19
    GREEDY = 20  # UD-policy=greedy


N_ARGS = len(Arg)


def _objective(name: str, value: str) -> Objective:
    """The Objective of UD-objective ``name`` under UD-value ``value``."""
    if name == "value":
        return Objective.WIN_THEN_COST if value == "win" else Objective.VALUE
    return {"win": Objective.WIN, "blood-points": Objective.BLOOD_POINTS,
            "net-value": Objective.NET_VALUE}.get(name, Objective.WIN_THEN_COST)


class Real(IntEnum):
    """The slots of ``real`` (float64[N_REAL])."""

    LANCE_PRICE_I = 0
    LANCE_PRICE_D = 1
    SHIELD_PRICE_I = 2
    SHIELD_PRICE_D = 3
    WIN_BP = 4  # UD-win-bp
    DAMAGE_BP = 5  # UD-damage-bp


N_REAL = len(Real)


def game_args(combat, setup, rulings, absolute: bool) -> tuple[np.ndarray, np.ndarray]:
    """(``args``, ``real``) of :func:`rolloff_values` for a combat (rulesets.uberdrakes.combat.Combat)
    once both plans are made (its _Setup), under the rulings; ``absolute``: the objective sees both
    totals."""
    kits = setup.kits
    args = np.zeros(N_ARGS, np.int64)
    args[Arg.RANGED], args[Arg.ROOSTED] = combat.ranged, combat.roosted
    args[Arg.BLAST_I], args[Arg.BLAST_D] = setup.windblast
    args[Arg.TIES_INITIATOR] = rulings.counter_ties == "initiator"
    args[Arg.OVERSHOOT] = rulings.counter_sequencing == "overshoot"
    args[Arg.ACID_SPELLS] = rulings.acid_scope == "items-and-spells"
    args[Arg.REPLY_SPELLS] = rulings.reply_spells
    args[Arg.BARS_LANCE] = rulings.shield_ranged == "bars-lance"
    args[Arg.BP_ROLLOFF] = rulings.bp_total == "rolloff"
    args[Arg.ABSOLUTE] = absolute
    args[Arg.OBJECTIVE] = _objective(rulings.objective, rulings.value)
    args[Arg.GREEDY] = rulings.policy != "optimal"
    for s, kit in enumerate(kits):
        args[Arg.FIRE_COST_I + s], args[Arg.MAGIC_I + s] = kit.fire_breath_cost, kit.magic
        args[Arg.LANCES_I + s], args[Arg.SHIELDS_I + s] = kit.lances, kit.shields
    real = np.zeros(N_REAL)
    real[Real.LANCE_PRICE_I], real[Real.LANCE_PRICE_D] = (k.lance_price for k in kits)
    real[Real.SHIELD_PRICE_I], real[Real.SHIELD_PRICE_D] = (k.shield_price for k in kits)
    real[Real.WIN_BP], real[Real.DAMAGE_BP] = rulings.win_bp, rulings.damage_bp
    return args, real


@nb.njit(**TRIAL_JIT)
def _key(a, b, packed, mover, first, over):
    return (np.int64(a + KEY_OFFSET) << 49) | (np.int64(b + KEY_OFFSET) << 39) | packed | (mover << 2) | (
        first << 1) | over


@nb.njit(**TRIAL_JIT)
def _ended(winner, packed, args, real):
    """The value once ``winner`` has won, both sides' states ``packed`` (combat._Solver._ended)."""
    out = np.zeros(N_VALUE)
    loser = 1 - winner
    blast = args[Arg.BLAST_I + winner] != 0
    wbase = SIDE_SHIFT[0] - SIDE_BITS * winner
    guarded = ((packed >> (wbase + B_SHIELD_USED)) | (packed >> (wbase + B_PLATE_USED))) & 1 != 0
    spared = (guarded or (args[Arg.RANGED] != 0 and loser == 0)) and not blast
    damage = 0 if spared else WIN_DAMAGE * (WINDBLAST_FACTOR if blast else 1)
    init = winner == 0
    out[Value.WIN] = 1.0 if init else 0.0
    out[Value.DAMAGE_I] = 1.0 if damage and init else 0.0
    out[Value.DAMAGE_D] = 1.0 if damage and not init else 0.0
    out[Value.DEALT_I] = float(damage) if init else 0.0
    out[Value.DEALT_D] = 0.0 if init else float(damage)
    for s in range(2):
        lances = args[Arg.LANCES_I + s] - _field(packed, s, F_LANCES, W_LANCES)
        shields = args[Arg.SHIELDS_I + s] - _field(packed, s, F_SHIELDS, W_SHIELDS)
        magic = args[Arg.MAGIC_I + s] - _field(packed, s, F_MAGIC, W_MAGIC)
        out[Value.MAGIC_I + s] = float(magic)
        out[Value.ITEMS_I + s] = float(lances + shields)
        out[Value.SPEND_I + s] = magic + lances * real[Real.LANCE_PRICE_I + s] + shields * real[
            Real.SHIELD_PRICE_I + s]
    return out


@nb.njit(**TRIAL_JIT)
def _blood_points(v, ti, td, args):
    """(E[blood points] of the initiator, of the defender) (combat._Solver.blood_points)."""
    if args[Arg.ROOSTED]:
        return 0.0, 0.0
    w = v[Value.WIN]
    paid_by_d = td * w + v[Value.ADD_D]
    paid_by_i = ti * (1.0 - w) + v[Value.ADD_I]
    odd_d = w - v[Value.ODD_D] if td & 1 else v[Value.ODD_D]
    odd_i = (1.0 - w) - v[Value.ODD_I] if ti & 1 else v[Value.ODD_I]
    return paid_by_d + (paid_by_i - odd_i) / 2.0, paid_by_i + (paid_by_d - odd_d) / 2.0


@nb.njit(**TRIAL_JIT)
def _score(v, me, ti, td, args, real):
    """What side ``me`` maximises, as two numbers compared in order (combat._Solver._score; np.rint rounds
    half to even as Python's round, and the numbers stay below 2**53)."""
    win = v[Value.WIN] if me == 0 else 1.0 - v[Value.WIN]
    spend = v[Value.SPEND_I + me]
    objective = args[Arg.OBJECTIVE]
    if objective == Objective.WIN:
        return np.rint(win / TIE), 0.0
    if objective == Objective.BLOOD_POINTS or objective == Objective.NET_VALUE:
        bp = _blood_points(v, ti, td, args)[me]
        return np.rint((bp - (spend if objective == Objective.NET_VALUE else 0.0)) / TIE), 0.0
    if objective == Objective.VALUE:
        bp = _blood_points(v, ti, td, args)[me]
        worth = real[Real.WIN_BP] * win + bp + real[Real.DAMAGE_BP] * (v[Value.DEALT_I + me]
                                                                       - v[Value.DEALT_D - me])
        return np.rint(worth / TIE), np.rint(-spend / TIE)
    return np.rint(win / TIE), np.rint(-spend / TIE)


@nb.njit(**TRIAL_JIT)
def _cheapest(moves, n, deficit, fire_cost, me, real):
    """UD-policy=greedy's move among the ``n`` ``moves`` (combat._Solver._greedy): the cheapest, Lance,
    Hide Shield, Fire Breath and Plate Armor in that order on a tie; Plate Armor with the least X that gets
    ahead by ``deficit``, or its largest X when none does."""
    pick, price, top = np.int64(-1), np.inf, np.int64(0)
    for i in range(n):
        move = moves[i]
        if move > Move.FIRE:  # Plate Armor, X rising
            top = move - Move.PLATE
            continue
        if move == Move.LANCE:
            cost = real[Real.LANCE_PRICE_I + me]
        elif move == Move.SHIELD:
            cost = real[Real.SHIELD_PRICE_I + me]
        else:
            cost = float(fire_cost)
        if cost < price:
            pick, price = move, cost
    if top:
        x = deficit if deficit <= top else top
        if x + 1 < price:
            pick = Move.PLATE + x
    return pick


@nb.njit(**JIT)
def _play(d, ti, td, packed, me, first, over, args, real, memo):
    """float64[N_VALUE]: the value with ``me`` to act (combat._Solver._play, its _greedy, and :meth:`_after`
    inlined): ``d`` the initiator's total less the defender's, ``ti``, ``td`` the totals,
    ``packed`` both sides' states, ``first`` the side that counterattacked first, ``over`` whether ``me``
    is ahead and may add more (overshoot). ``memo``: key -> value, filled as the game is solved."""
    if args[Arg.ABSOLUTE]:
        key = _key(ti, td, packed, me, first, over)
    else:
        key = _key(d, -KEY_OFFSET, packed, me, first, over)
    if key in memo:
        return memo[key]
    other = 1 - me
    mine = d if me == 0 else -d
    level_wins = me == 0 and args[Arg.TIES_INITIATOR] != 0
    ahead = mine > 0 if mine != 0 else level_wins
    if ahead:  # only when overshooting: hand over, or add more
        best = _play(d, ti, td, packed, other, first, np.int64(0), args, real, memo)
    else:
        best = _ended(other, packed, args, real)
    # the moves in combat._moves' order: Lance, Hide Shield, Fire Breath, Plate Armor X = 1 ..
    lances = _field(packed, me, F_LANCES, W_LANCES)
    shields = _field(packed, me, F_SHIELDS, W_SHIELDS)
    magic = _field(packed, me, F_MAGIC, W_MAGIC)
    fire_cost = args[Arg.FIRE_COST_I + me]
    ranged = args[Arg.RANGED] != 0
    shield_against = _field(packed, other, B_SHIELD_USED, W_FLAG) != 0
    spells = me == first or args[Arg.REPLY_SPELLS] != 0
    moves = np.empty(3 + magic, np.int64)
    n = 0
    if lances and not (ranged or (shield_against and args[Arg.BARS_LANCE] != 0)):
        moves[n] = Move.LANCE
        n += 1
    if shields and not (ranged and me == 0):
        moves[n] = Move.SHIELD
        n += 1
    if spells and _field(packed, me, B_FIRE, W_FLAG) != 0 and magic >= fire_cost:
        moves[n] = Move.FIRE
        n += 1
    if spells and _field(packed, me, B_PLATE, W_FLAG) != 0 and magic >= PLATE_ARMOR_MIN_MAGIC:
        for x in range(1, magic):
            moves[n] = Move.PLATE + x
            n += 1
    greedy = args[Arg.GREEDY] != 0
    if greedy:  # hand over ahead, concede with nothing left, else the one cheapest move
        if ahead or n == 0:
            memo[key] = best
            return best
        moves[0] = _cheapest(moves, n, -mine + (0 if level_wins else 1), fire_cost, me, real)
        n = 1
    else:
        best0, best1 = _score(best, me, ti, td, args, real)
    base = SIDE_SHIFT[0] - SIDE_BITS * me
    sign = 1 if me == 0 else -1
    overshoot = args[Arg.OVERSHOOT]
    ahead_mover = me if overshoot else other
    odd_at = Value.ODD_D if me == 1 else Value.ODD_I
    add_at = Value.ADD_D if me == 1 else Value.ADD_I
    one = np.int64(1)
    for i in range(n):
        move = moves[i]
        acid = (packed >> (base + B_ACID)) & 1 != 0
        destroyed = acid and (move <= Move.SHIELD or args[Arg.ACID_SPELLS] != 0)
        after = packed
        single = np.int64(0)  # the one branch's add: Plate Armor's X, or nothing when Acid Rain destroys it
        if move == Move.LANCE:
            after -= one << (base + F_LANCES)
        elif move == Move.SHIELD:
            after -= one << (base + F_SHIELDS)
            if not destroyed:
                after |= one << (base + B_SHIELD_USED)
        elif move == Move.FIRE:
            after -= fire_cost << (base + F_MAGIC)
            after &= ~(one << (base + B_FIRE))
        else:
            x = move - Move.PLATE
            after -= (x + 1) << (base + F_MAGIC)
            after &= ~(one << (base + B_PLATE))
            if not destroyed:
                after |= one << (base + B_PLATE_USED)
            single = x
        if destroyed:
            after &= ~(one << (base + B_ACID))
            single = np.int64(0)
        branches = 1 if destroyed or move > Move.FIRE else SIDES
        acc = np.zeros(N_VALUE)
        added = 0.0  # what side me adds, on the paths where it ends up losing
        odd = 0.0  # P(it loses having added an odd amount from here on)
        for f in range(branches):
            add = single if branches == 1 else f + 1
            dd = d + sign * add
            if me == 0:
                t_i, t_d = ti + add, td
            else:
                t_i, t_d = ti, td + add
            m = sign * dd
            if m > 0 or (m == 0 and level_wins):
                v = _play(dd, t_i, t_d, after, ahead_mover, first, overshoot, args, real, memo)
            else:
                v = _play(dd, t_i, t_d, after, me, first, np.int64(0), args, real, memo)
            for k in range(N_VALUE):
                acc[k] += v[k]
            lost = v[Value.WIN] if me == 1 else 1.0 - v[Value.WIN]
            added += add * lost
            if add & 1:
                odd += lost - v[odd_at]
            else:
                odd += v[odd_at]
        p = 1.0 / branches
        for k in range(N_VALUE):
            acc[k] = acc[k] * p
        acc[add_at] += added * p
        acc[odd_at] = odd * p
        if greedy:
            best = acc
            continue
        s0, s1 = _score(acc, me, ti, td, args, real)
        if s0 > best0 or (s0 == best0 and s1 > best1):  # the first of equals: the cheaper move
            best, best0, best1 = acc, s0, s1
    memo[key] = best
    return best


@nb.njit(**JIT)
def rolloff_values(ti, td, init, args, real, out):
    """``out[n]`` (float64[n, N_SHARED + 2]): the value after a rolloff of totals ``ti[n]``, ``td[n]``
    (int64[n]) with the blood points made absolute (combat._Solver._after_rolloff); ``init``
    (int64[2, N_SIDE_STATE]): both sides' states after the plans. The memo lives for one call: a typed
    dict handed to Python and back costs more to box in each process than the states it would share."""
    memo = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.float64[::1])
    start = pack_states(init)
    for n in range(ti.size):
        a, b = ti[n], td[n]
        loser = np.int64(1 if a >= b else 0)  # the rolloff's ties go to the initiator (line 315)
        v = _play(a - b, a, b, start, loser, loser, np.int64(0), args, real, memo)
        for k in range(N_SHARED):
            out[n, k] = v[k]
        w = v[Value.WIN]
        if args[Arg.BP_ROLLOFF] and not args[Arg.ROOSTED]:
            out[n, Total.BP_I] = b * w + (a // 2) * (1.0 - w)
            out[n, Total.BP_D] = a * (1.0 - w) + (b // 2) * w
        else:
            out[n, Total.BP_I], out[n, Total.BP_D] = _blood_points(v, a, b, args)


