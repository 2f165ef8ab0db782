"""Drakerys Fight, Shooting and Engagement kernels (private; see rulesets/drakerys/fight.py for the rules
they follow and simcore/runner.py for the chunk contract).

Sides are rows of an int64[2, SIDE_FIELDS] array (layout in fight.py). Per-trial state lives in three
int64[2] arrays: ``alive`` warriors, injury ``tokens`` and ``stress`` markers.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from rulesets.drakerys.fight import (
    F_BERSERKER,
    F_BLOCK,
    F_BRUTAL,
    F_DEADLY,
    F_DISCIPLINE,
    F_DREADFUL,
    F_EXPERT,
    F_JAMMED,
    F_MARTIAL,
    F_MULTISHOT,
    F_OBJECT,
    F_PARRY,
    F_QUICKSHOT,
    F_REACH,
    F_SAFEGUARD,
    F_SHARPSHOOTER,
    F_SWASH,
    F_VIOLENT,
    O_AUTHORITY,
    O_FRONTAGE,
    O_GUARD,
    O_HEROIC,
    O_INIT_BONUS,
    O_OBSTACLES,
    O_REROLLS,
    O_STRESS,
    O_TOKENS,
    S_CHARGE,
    S_COMBAT,
    S_HEALTH,
    S_INIT,
    S_MARCH,
    S_POWER,
    S_RESIST,
    S_SHOOTING,
    S_SIZE,
    S_STRENGTH,
    S_WILL,
    W_IGNORES_PARRY,
    W_RANGE,
    W_SATURATION,
    W_STRENGTH,
)
from simcore.config import JIT, PARALLEL_JIT
from simcore.dice import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS, all_face_tables, success_roll_tabled
from simcore.rng import chunk_stream, roll_die

_SIDES = 10
#: Fight outcome seen from side s: winner codes.
WIN_0, WIN_1, WIN_BOTH, WIN_NONE = 0, 1, 2, 3
#: Engagement actions.
ACT_CHARGE, ACT_ATTACK, ACT_SHOOT, ACT_MARCH = 0, 1, 2, 3
TS_PER_ROUND = 16
MAX_ACTION_TS = 16


@nb.njit(inline="always", **JIT)
def _threshold(action, opposition):
    return min(10, max(2, 6 - (action - opposition)))


@nb.njit(inline="always", **JIT)
def _roll(state, tables, n, threshold, mode, chain, swash, rerolls):
    """An Action-Table roll of n d10: (successes, criticals)."""
    if n <= 0:
        return 0, 0
    success, explodes, failure = tables
    s, c, _ = success_roll_tabled(state, n, _SIDES, threshold, chain, swash, rerolls,
                                  success[mode, threshold], explodes[mode, threshold],
                                  failure[mode, threshold])
    return s, c


@nb.njit(inline="always", **JIT)
def _charge_bonus(side, s, charger):
    """1 when side s charged and keeps the Charge bonus (Reach cancels it unless Martial Arts)."""
    if charger != s or side[s, F_SHARPSHOOTER]:
        return 0
    if side[1 - s, F_REACH] and not side[s, F_MARTIAL]:
        return 0
    return 1


@nb.njit(inline="always", **JIT)
def _resistance(side, s, stress):
    return max(0, side[s, S_RESIST] - side[s, F_BERSERKER] * stress[s])


@nb.njit(inline="always", **JIT)
def _injury_mode(side, s, ignores_parry, engaged):
    """How the criticals of side s's injury rolls count against the enemy.

    Martial Arts works against the units a unit is engaged with: the striker's ignores the enemy's
    Parry, the target's ignores the striker's Violent Blow.
    """
    e = 1 - s
    if ignores_parry or (engaged and side[s, F_MARTIAL]):
        return TOP_EXPLODE
    if side[s, F_VIOLENT] and not (engaged and side[e, F_MARTIAL]):
        return TOP_EXPLODE
    if side[1 - s, F_EXPERT]:
        return TOP_FAIL
    if side[1 - s, F_PARRY]:
        return TOP_SUCCESS
    return TOP_EXPLODE


@nb.njit(**JIT)
def _attack_roll(state, tables, side, s, alive, stress, charger, chain):
    """Side s's attack roll (also its Blocking roll): (successes, criticals)."""
    power = side[s, S_POWER] + side[s, F_BERSERKER] * stress[s]
    if charger == s:
        power += side[s, F_BRUTAL]
    n = alive[s]
    full = n if side[s, O_FRONTAGE] < 0 else min(side[s, O_FRONTAGE], n)
    dice = full * power + (n - full) + side[s, O_HEROIC]
    e = 1 - s
    threshold = _threshold(side[s, S_COMBAT] + _charge_bonus(side, s, charger),
                           side[e, S_COMBAT] + _charge_bonus(side, e, charger))
    return _roll(state, tables, dice, threshold, TOP_EXPLODE, chain, side[s, F_SWASH] != 0,
                 side[s, O_REROLLS])


@nb.njit(**JIT)
def _strike(state, tables, side, s, alive, stress, charger, chain):
    """Injuries side s inflicts with one strike (the enemy may block it)."""
    e = 1 - s
    hits, crits = _attack_roll(state, tables, side, s, alive, stress, charger, chain)
    automatic = crits if side[s, F_DEADLY] else 0
    if side[e, F_BLOCK] and alive[e] > 0 and not side[e, F_OBJECT]:
        blocks, _ = _attack_roll(state, tables, side, e, alive, stress, charger, chain)
        hits = max(0, hits - blocks)
    threshold = _threshold(side[s, S_STRENGTH], _resistance(side, e, stress))
    wounds, _ = _roll(state, tables, hits, threshold, _injury_mode(side, s, False, True), chain, False, 0)
    return wounds + automatic


@nb.njit(**JIT)
def _receive(state, side, s, injuries, alive, tokens):
    """Safeguard, then remove one warrior per leader's Health of tokens. Returns warriors removed."""
    kept = injuries
    if side[s, F_SAFEGUARD]:
        stays_up_to = 5 if side[s, O_GUARD] else 9  # faces above this leave the unit
        kept = 0
        for _ in range(injuries):
            if roll_die(state, _SIDES) <= stays_up_to:
                kept += 1
    tokens[s] += kept
    removed = 0
    health = side[s, S_HEALTH]
    while tokens[s] >= health and alive[s] > 0:
        tokens[s] -= health
        alive[s] -= 1
        removed += 1
    if alive[s] == 0:
        tokens[s] = 0
    return removed


@nb.njit(**JIT)
def _morale(state, tables, side, s, alive, stress, opposition, engaged, chain):
    """Side s's Morale roll: 0 scatter, 1 stress, 2 doubt, 3 steady (objects take none: steady)."""
    if side[s, F_OBJECT]:
        return 3
    e = 1 - s
    dice = 2 + alive[s] // 5 + side[s, F_DISCIPLINE] + side[s, O_AUTHORITY]
    will = side[s, S_WILL]
    if engaged and side[e, F_DREADFUL] and not side[s, F_DREADFUL]:
        will -= 1
    successes, _ = _roll(state, tables, dice, _threshold(will, opposition), TOP_EXPLODE, chain, False, 0)
    return min(3, successes + side[s, F_BERSERKER])


@nb.njit(**JIT)
def _can_strike(side, s, alive):
    return alive[s] > 0 and alive[1 - s] > 0 and not side[s, F_OBJECT] and not side[s, F_BLOCK]


@nb.njit(**JIT)
def _fight(state, tables, side, alive, tokens, stress, trigger, charged, chain, kills, inflicted):
    """One Fight triggered by side ``trigger`` (a Charge when ``charged``).

    Adds warriors removed by strikes to ``kills`` and injuries inflicted to ``inflicted`` (int64[2]).
    Returns (winner, loser's morale): winner WIN_0/WIN_1/WIN_BOTH (draw)/WIN_NONE (both destroyed);
    morale 0..3, or -1 when no Morale roll is taken.
    """
    charger = trigger if charged else -1
    init0 = side[0, S_INIT] + side[0, O_INIT_BONUS] + _charge_bonus(side, 0, charger)
    init1 = side[1, S_INIT] + side[1, O_INIT_BONUS] + _charge_bonus(side, 1, charger)
    dealt0 = 0
    dealt1 = 0
    if init0 == init1:
        if _can_strike(side, 0, alive):
            dealt0 = _strike(state, tables, side, 0, alive, stress, charger, chain)
        if _can_strike(side, 1, alive):
            dealt1 = _strike(state, tables, side, 1, alive, stress, charger, chain)
        kills[1] += _receive(state, side, 1, dealt0, alive, tokens)
        kills[0] += _receive(state, side, 0, dealt1, alive, tokens)
    else:
        first = 0 if init0 > init1 else 1
        for k in range(2):
            s = first if k == 0 else 1 - first
            if _can_strike(side, s, alive):
                dealt = _strike(state, tables, side, s, alive, stress, charger, chain)
                kills[1 - s] += _receive(state, side, 1 - s, dealt, alive, tokens)
                if s == 0:
                    dealt0 = dealt
                else:
                    dealt1 = dealt
    inflicted[0] += dealt0
    inflicted[1] += dealt1
    if alive[0] == 0 and alive[1] == 0:
        return WIN_NONE, -1
    if alive[1] == 0:
        return WIN_0, -1
    if alive[0] == 0:
        return WIN_1, -1
    adv0 = 0
    adv1 = 0
    if charged:
        if trigger == 0:
            adv0 += 1
        else:
            adv1 += 1
    if dealt0 > dealt1:
        adv0 += 1
    elif dealt1 > dealt0:
        adv1 += 1
    if alive[0] > alive[1]:
        adv0 += 1
    elif alive[1] > alive[0]:
        adv1 += 1
    if stress[0] < stress[1]:
        adv0 += 1
    elif stress[1] < stress[0]:
        adv1 += 1
    if adv0 == adv1:
        return WIN_BOTH, -1
    if adv0 > adv1:
        return WIN_0, _morale(state, tables, side, 1, alive, stress, adv0 - adv1, True, chain)
    return WIN_1, _morale(state, tables, side, 0, alive, stress, adv1 - adv0, True, chain)


@nb.njit(**JIT)
def _shoot(state, tables, side, s, alive, tokens, stress, distance, chain, kills, inflicted):
    """Side s shoots at the other from ``distance`` cm. Returns the target's morale (-1: no roll)."""
    e = 1 - s
    power = side[s, S_POWER] + 2 * side[s, F_MULTISHOT] + side[s, F_BERSERKER] * stress[s]
    dice = alive[s] * power + side[s, O_HEROIC]
    shares = (distance + 9) // 10
    opposition = shares + stress[s] + side[s, O_OBSTACLES] + side[e, F_SHARPSHOOTER]
    hits, crits = _roll(state, tables, dice, _threshold(side[s, S_SHOOTING], opposition), TOP_EXPLODE,
                        chain, False, 0)
    automatic = crits if side[s, F_DEADLY] else 0
    threshold = _threshold(side[s, W_STRENGTH], _resistance(side, e, stress))
    mode = _injury_mode(side, s, side[s, W_IGNORES_PARRY] != 0, False)
    wounds, _ = _roll(state, tables, hits, threshold, mode, chain, False, 0)
    dealt = wounds + automatic
    inflicted[s] += dealt
    removed = _receive(state, side, e, dealt, alive, tokens)
    kills[e] += removed
    if removed > 0 and alive[e] > 0:
        return _morale(state, tables, side, e, alive, stress, side[s, W_SATURATION], False, chain)
    return -1


@nb.njit(inline="always", **JIT)
def _start(side, alive, tokens, stress):
    for s in range(2):
        alive[s] = side[s, S_SIZE]
        tokens[s] = side[s, O_TOKENS]
        stress[s] = side[s, O_STRESS]


@nb.njit(**JIT)
def _chunk(seed, chunk, total_trials, chunk_trials):
    """What every chunk of these kernels starts with: its stream, the face tables, five int64[2]
    scratch arrays (alive, tokens, stress and two more) and its number of trials."""
    state, trials = chunk_stream(seed, chunk, total_trials, chunk_trials)
    return (state, all_face_tables(_SIDES), np.empty(2, np.int64), np.empty(2, np.int64),
            np.empty(2, np.int64), np.empty(2, np.int64), np.empty(2, np.int64), trials)


@nb.njit(inline="always", **JIT)
def _count(out, i, q, value):
    out[i, q, min(value, out.shape[2] - 1)] += 1


@nb.njit(**PARALLEL_JIT)
def _fight_chunks(side, charged, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One Fight per trial, side 0 acting (Charge when ``charged``).

    out: int64[n_chunks, 7, L]; rows: warriors of side 0 removed by strikes, the same for side 1,
    result code (fight.py RESULT_*), injuries inflicted by side 0, by side 1, warriors side 0 lost in
    all (a scattered unit loses every warrior), the same for side 1. Values >= L - 1 share the last
    column.
    """
    for i in nb.prange(out.shape[0]):
        state, tables, alive, tokens, stress, kills, inflicted, trials = _chunk(seed, first_chunk + i,
                                                                                total_trials, chunk_trials)
        for _ in range(trials):
            _start(side, alive, tokens, stress)
            kills[:] = 0
            inflicted[:] = 0
            winner, morale = _fight(state, tables, side, alive, tokens, stress, 0, charged, chain, kills,
                                    inflicted)
            if winner == WIN_NONE:
                code = 11
            elif winner == WIN_0:
                code = 9 if morale < 0 else 1 + morale
            elif winner == WIN_1:
                code = 10 if morale < 0 else 5 + morale
            else:
                code = 0
            _count(out, i, 0, kills[0])
            _count(out, i, 1, kills[1])
            _count(out, i, 2, code)
            _count(out, i, 3, inflicted[0])
            _count(out, i, 4, inflicted[1])
            scattered = 1 if morale == 0 else -1
            if winner == WIN_1:
                scattered = 0 if morale == 0 else -1
            for s in range(2):
                _count(out, i, 5 + s, side[s, S_SIZE] if scattered == s else side[s, S_SIZE] - alive[s])


@nb.njit(**PARALLEL_JIT)
def _shooting_chunks(side, distance, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One Shooting of side 0 at side 1 per trial.

    out: int64[n_chunks, 3, L]; rows: warriors of side 1 removed, injuries inflicted, target's morale
    (0 scatter, 1 stress, 2 doubt, 3 steady, 4 no roll).
    """
    for i in nb.prange(out.shape[0]):
        state, tables, alive, tokens, stress, kills, inflicted, trials = _chunk(seed, first_chunk + i,
                                                                                total_trials, chunk_trials)
        for _ in range(trials):
            _start(side, alive, tokens, stress)
            kills[:] = 0
            inflicted[:] = 0
            morale = _shoot(state, tables, side, 0, alive, tokens, stress, distance, chain, kills, inflicted)
            _count(out, i, 0, kills[1])
            _count(out, i, 1, inflicted[0])
            _count(out, i, 2, 4 if morale < 0 else morale)


@nb.njit(**JIT)
def _choose_action(side, p, engaged, distance, opening_shot, first_activation):
    if first_activation and opening_shot:
        return ACT_SHOOT
    if engaged:
        return ACT_ATTACK
    if distance <= side[p, S_CHARGE]:
        return ACT_CHARGE
    if side[p, W_RANGE] >= 0 and side[p, S_SHOOTING] >= 0 and distance <= side[p, W_RANGE]:
        return ACT_SHOOT
    return ACT_MARCH


@nb.njit(**JIT)
def _action_cost(side, p, action, stress):
    """TS of an action: its base cost, +1 per Stress marker, +1 per Heroic Action die rolled with it;
    Quick Shot takes 1 off a Shooting (minimum 1); never more than the 16 TS of the TimePath."""
    if action == ACT_CHARGE:
        cost = 3 + 2 * side[p, F_JAMMED]
    else:
        cost = 1
    cost += stress[p]
    if action != ACT_MARCH:
        cost += side[p, O_HEROIC]
    if action == ACT_SHOOT:
        cost = max(1, cost - side[p, F_QUICKSHOT])
    return min(MAX_ACTION_TS, cost)


@nb.njit(**JIT)
def _engagement(state, tables, side, alive, tokens, stress, shoot_from, rounds, chain, suffered, lost,
                spent):
    """Side 0 engages side 1 until one is destroyed or scatters, or the game ends (see fight.py).

    Fills suffered (injuries inflicted on each side), lost (warriors lost, scattered included) and spent
    (TS spent by each side). Returns (outcome, activations): outcome 0 side 0 wins, 1 side 1 wins,
    2 neither, 3 both destroyed.
    """
    kills = np.zeros(2, np.int64)
    inflicted = np.zeros(2, np.int64)
    position = np.zeros(2, np.int64)
    done = np.zeros(2, np.bool_)
    engaged = False
    distance = 0 if shoot_from < 0 else shoot_from
    top = 0
    activations = 0
    end = rounds * TS_PER_ROUND
    first = True
    while alive[0] > 0 and alive[1] > 0 and not (done[0] and done[1]):
        if done[0]:
            p = 1
        elif done[1]:
            p = 0
        elif position[0] != position[1]:
            p = 0 if position[0] < position[1] else 1
        else:
            p = top
        e = 1 - p
        action = _choose_action(side, p, engaged, distance, shoot_from >= 0, first)
        first = False
        cost = _action_cost(side, p, action, stress)
        if position[p] + cost > end:
            position[p] = end
            done[p] = True
            continue
        if action == ACT_SHOOT:
            morale = _shoot(state, tables, side, p, alive, tokens, stress, distance, chain, kills, inflicted)
            if morale == 0:
                alive[e] = 0
            elif morale == 1:
                stress[e] += 1
        elif action == ACT_MARCH:
            distance = max(1, distance - side[p, S_MARCH])
        else:
            charged = action == ACT_CHARGE
            engaged = True
            winner, morale = _fight(state, tables, side, alive, tokens, stress, p, charged, chain, kills,
                                    inflicted)
            if morale >= 0:
                loser = 1 if winner == WIN_0 else 0
                if morale == 0:
                    alive[loser] = 0
                elif morale == 1:
                    stress[loser] += 1
        activations += 1
        spent[p] += cost
        stress[p] += 1
        old = position[p]
        position[p] += cost
        top = p
        for _ in range(position[p] // TS_PER_ROUND - old // TS_PER_ROUND):
            stress[p] = max(0, stress[p] - 1)
        if position[p] >= end:
            done[p] = True
    for s in range(2):
        suffered[s] = inflicted[1 - s]
        lost[s] = side[s, S_SIZE] - alive[s]
    if alive[0] == 0 and alive[1] == 0:
        return 3, activations
    if alive[1] == 0:
        return 0, activations
    if alive[0] == 0:
        return 1, activations
    return 2, activations


@nb.njit(**PARALLEL_JIT)
def _engagement_chunks(side, shoot_from, rounds, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One engagement per trial.

    out: int64[n_chunks, 8, L]; rows: outcome (0 side 0 wins, 1 side 1 wins, 2 neither, 3 both
    destroyed), injuries suffered by side 0, by side 1, warriors lost by side 0, by side 1, TS spent by
    side 0, by side 1, activations.
    """
    for i in nb.prange(out.shape[0]):
        state, tables, alive, tokens, stress, suffered, lost, trials = _chunk(seed, first_chunk + i,
                                                                              total_trials, chunk_trials)
        spent = np.empty(2, np.int64)
        for _ in range(trials):
            _start(side, alive, tokens, stress)
            spent[:] = 0
            outcome, activations = _engagement(state, tables, side, alive, tokens, stress, shoot_from,
                                               rounds, chain, suffered, lost, spent)
            _count(out, i, 0, outcome)
            _count(out, i, 1, suffered[0])
            _count(out, i, 2, suffered[1])
            _count(out, i, 3, lost[0])
            _count(out, i, 4, lost[1])
            _count(out, i, 5, spent[0])
            _count(out, i, 6, spent[1])
            _count(out, i, 7, activations)
