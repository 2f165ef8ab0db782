"""UD-counter-sequencing=declared in the exact counterattack game (rulesets.uberdrakes.combat).

"Any number of these may be used in any combination to attempt to raise their total higher than the
other player's" (line 319), read as: the side to move commits its whole combination before any die is
rolled; the dice then fall together. Ahead after them, it hands the move to the other side (line 323);
still behind, it has spent its attempt and concedes ("If the losing player can't ... they must concede",
line 321). Acid Rain waiting for the side destroys the first item of the combination in the order Dragon
Lance, Hide Shield (then Fire Breath, Plate Armor under UD-acid-scope=items-and-spells).

A combination is (Lances, Hide Shields, Fire Breath 0/1, Plate Armor's X or 0). The greedy policy commits
the cheapest resources first until the combination is expected to get ahead (3.5 a die), Plate Armor's X
just enough for the rest (its largest X when that is short), and every resource when nothing gets there:
never conceding while one remains. The optimal policy weighs every combination (UD-objective).
"""

from __future__ import annotations

from rulesets.uberdrakes.counter import (
    ADD_D,
    ADD_I,
    FIRE,
    LANCE,
    LANCES_AT,
    MAGIC_AT,
    ODD_D,
    ODD_I,
    PLATE,
    SHIELD,
    SHIELDS_AT,
    WIN,
)
from rulesets.uberdrakes.counter import price as _price
from rulesets.uberdrakes.rules import SIDES

MEAN_DIE = 3.5


def combos(solver, me: int, state: tuple, moves: list) -> list[tuple[int, int, int, int]]:
    """Every non-empty combination side ``me`` (in ``state``) may commit, from the single resources it may
    use now (``moves``, rulesets.uberdrakes.combat._moves)."""
    kit = solver.kits[me]
    kinds = {m[0] for m in moves}
    lances = state[LANCES_AT] if LANCE in kinds else 0
    shields = state[SHIELDS_AT] if SHIELD in kinds else 0
    out = []
    for fire in (0, 1) if FIRE in kinds else (0,):
        left = state[MAGIC_AT] - fire * kit.fire_breath_cost
        plates = [0, *range(1, left)] if PLATE in kinds else [0]  # X + 1 Magic
        for x in plates:
            for k_lance in range(lances + 1):
                for k_shield in range(shields + 1):
                    if k_lance or k_shield or fire or x:
                        out.append((k_lance, k_shield, fire, x))
    return out


def _spent_state(solver, state: tuple, me: int, combo: tuple) -> tuple[tuple, int, int]:
    """(the side's state after committing ``combo``, dice that roll, Plate Armor's added X)."""
    k_lance, k_shield, fire, x = combo
    lances, shields, magic, fire_unused, plate_unused, shield_used, plate_used, acid = state
    destroyed = None
    if acid:  # the first item of the combination is destroyed (line 440)
        spells = solver.rulings.acid_scope == "items-and-spells"
        for kind, present in ((LANCE, k_lance), (SHIELD, k_shield), (FIRE, fire and spells),
                              (PLATE, x and spells)):
            if present:
                destroyed = kind
                break
    dice = k_lance + k_shield + fire - (destroyed in (LANCE, SHIELD, FIRE))
    plate_add = 0 if destroyed == PLATE else x
    magic -= fire * solver.kits[me].fire_breath_cost + (x + 1 if x else 0)
    new = (lances - k_lance, shields - k_shield, magic, fire_unused and not fire, plate_unused and not x,
           shield_used or k_shield - (destroyed == SHIELD) > 0, plate_used or plate_add > 0,
           acid and destroyed is None)
    return new, dice, plate_add


def _sums(solver, me: int, pairs, dice: int, plate_add: int) -> dict:
    """(what the side's total gains, its new highest pair or None) -> probability, for ``dice`` dice
    rolled together (UD-item-die: each adds its value, or joins the pool of which the highest two count)
    and Plate Armor's X."""
    if solver.keep:
        dist = {(0, pairs[me]): 1.0}
        for _ in range(dice):
            nxt: dict = {}
            for (gain, (high, second)), p in dist.items():
                for face in range(1, SIDES + 1):
                    pair = (face, high) if face > high else (high, max(face, second))
                    k = (gain + sum(pair) - high - second, pair)
                    nxt[k] = nxt.get(k, 0.0) + p / SIDES
            dist = nxt
    else:
        dist = {(0, None): 1.0}
        for _ in range(dice):
            nxt = {}
            for (gain, _), p in dist.items():
                for face in range(1, SIDES + 1):
                    nxt[(gain + face, None)] = nxt.get((gain + face, None), 0.0) + p / SIDES
            dist = nxt
    return {(gain + plate_add, pair): p for (gain, pair), p in dist.items()}


def commit(solver, key: tuple, me: int, first: int, combo: tuple) -> tuple:
    """The value after side ``me`` commits ``combo``: ahead after the dice, the other side moves; behind,
    it concedes."""
    diff, totals, sid = key
    states = solver._states[sid]
    new_side, dice, plate_add = _spent_state(solver, states[me], me, combo)
    sign = 1 if me == 0 else -1
    level_wins = me == 0 and solver.rulings.counter_ties == "initiator"
    odd_at = ODD_D if me == 1 else ODD_I
    acc = None
    added = odd = 0.0
    for (add, pair), p in _sums(solver, me, states[2] if solver.keep else None, dice, plate_add).items():
        new_states = list(states)
        new_states[me] = new_side
        if solver.keep:
            new_states[2] = (pair, states[2][1]) if me == 0 else (states[2][0], pair)
        n = solver.sid(tuple(new_states))
        d = diff + sign * add
        t = None if totals is None else ((totals[0] + add, totals[1]) if me == 0 else
                                         (totals[0], totals[1] + add))
        mine = sign * d
        if mine > 0 or (mine == 0 and level_wins):
            v = solver.play(d, t, n, 1 - me, first, False)
        else:
            v = solver._end(1 - me, n)
        lost = v[WIN] if me == 1 else 1.0 - v[WIN]
        added += p * add * lost
        odd += p * (lost - v[odd_at] if add & 1 else v[odd_at])
        acc = [p * x for x in v] if acc is None else [a + p * x for a, x in zip(acc, v, strict=True)]
    acc[ADD_D if me == 1 else ADD_I] += added
    acc[odd_at] = odd
    return tuple(acc)


def greedy_combo(solver, me: int, state: tuple, moves: list,
                 deficit: int) -> tuple[int, int, int, int] | None:
    """UD-policy=greedy under declared sequencing (module docstring), or None with nothing to commit."""
    options = combos(solver, me, state, moves)
    if not options:
        return None
    kit = solver.kits[me]
    kinds = {m[0] for m in moves}
    available = {LANCE: state[LANCES_AT] if LANCE in kinds else 0,
                 SHIELD: state[SHIELDS_AT] if SHIELD in kinds else 0,
                 FIRE: 1 if FIRE in kinds else 0}
    counts = dict.fromkeys(available, 0)
    expected = 0.0
    for _, _, r in sorted((_price(kit, r, 0), order, r) for order, r in enumerate((LANCE, SHIELD, FIRE))):
        while counts[r] < available[r] and expected < deficit:
            counts[r] += 1
            expected += MEAN_DIE
    base = (counts[LANCE], counts[SHIELD], counts[FIRE])
    plates = sorted(c[3] for c in options if c[:3] == base and c[3])
    x = 0
    if expected < deficit and plates:
        enough = [p for p in plates if p >= deficit - expected]
        x = min(enough) if enough else max(plates)
    if expected + x < deficit:  # nothing gets there: commit everything it has
        return max(options, key=lambda c: (c[0] + c[1] + c[2], c[3]))
    return (*base, x)
