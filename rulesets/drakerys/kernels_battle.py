"""Drakerys battle kernels: several units a side on the TimePath (private; rulesets/drakerys/battle.py is
the public wrapper, rulesets/drakerys/fight.py names every column and code, simcore/runner.py gives the
records contract).

A battle reuses the duel's per-pair steps of kernels.py (``_choose_action``, ``_action_cost``,
``_act``, hence ``_fight`` and ``_shoot``): for each Action the active unit's and its target's rows are
copied into the duel's two-row ``pair``, the first two rows of the battle's matrix (row = the unit's side,
so a battle of one unit a side is its duel roll for roll), the helper runs, and the rows' State columns
are copied back. What travels (one matrix, since numba counts a reference to each array a call passes):

* ``W``: int64[2 + U, N_UNIT + U] (:func:`battle_matrix`), rows named by :class:`BattleRow`: rows 0 and 1
  are the duel's ``pair`` (kernels.py; the duel's helpers get ``W`` as their pair and read only those two
  rows), then one row per unit, side 0's units first. A unit is named by its row. A unit's row holds its
  Side columns (fight.side_array), its trial state (columns :class:`BattleState`, whose first are State's:
  a row's first N_PAIR columns are the unit's row of a pair; OWNER is set once, by battle_matrix), then
  ``W[i, BLOCKING_AGAINST + j]``, the kinds of Fight (bits BlockIn) unit i blocks in against unit j
  (DK-blocking, chosen per pair as the duel chooses it).
* ``dice``: kernels's (the thread's stage bank, holding the trial's stream); every trial on its own stream
  and every roll on its own substream, as ``_engagement_trial`` does.

So every helper of the battle takes ``W`` (and the ``dice`` where it rolls).

The battle, step by step (the naive twin tests/naive_battle.py takes the same steps):

* THE TIMEPATH: "Every player have their own Activation Token" (DK-battle-tokens=player: one token per side,
  kept on the row of the side's first unit; =unit: one per unit). FIRST PLAYER: "The Activation Tokens are
  placed on the START square in ascending order: the First Player's token is thus on top!": side 0 is the
  First Player. With a token per unit the text gives no pile order; the tokens are piled interleaved, side
  0's first unit on top, then side 1's first, side 0's second, ..., so that the sides alternate as the
  players' tokens do. ACTIVE PLAYER: "the player whose Activation Token is in the last position on the
  TimePath, or on top of the pile if the tokens are stacked" (the token that arrived last is on top).
* MAKE WAR! step 1, "The Active Player selects one of their Units": the unit with the fewest Stress markers
  (its Actions cost least), ties the first listed. Then its Actions, as ``_engagement`` takes them: up to
  its Leader's Actions, each chosen by ``_choose_action`` against the unit's target (DK-battle-targeting;
  after a Charge, a unit whose target fell marches where it would charge again: "A Unit can only resolve
  one Charge Action ... per Activation"), at most 16 TS in all, never past START in the last round (when
  not even the first fits, the token goes to START and its owner plays no more); one Stress marker; the
  token moves; a Headquarters Phase takes a Stress marker off each unit of the token each time it reaches
  or passes START.
* The line: side 0's units stand at 0 cm, side 1's at ``start`` cm (0: contact, so the first to act
  charges). A March moves the unit towards its target, never into contact (``max(1, distance - March)``);
  a Charge puts it in contact and engages it with its target. Units are points on the line: they pass
  each other and block nothing.
* FIGHTING, before each Fight, for each of the two fighters: Initiative +1 "for every Allied Unit Engaged
  with the targeted Enemy Unit" (Side.ALLIES_ENGAGED), and "a D10 per Allied Warrior from another Allied
  Unit in Contact with the targeted Enemy Unit" to reroll (Side.REROLLS; every warrior of an engaged unit
  is in contact under DK-frontage=all).
* SHOOTING: the target "Must not be Engaged": a unit whose target is engaged does not shoot (it charges or
  marches).
* AUTHORITY [X]: "The Allied Units within [X] cm of the Unit benefit from one additional D10 for their
  Morale Rolls. This bonus is cumulative if several Units endowed with Authority are within reach." Before
  each Action, each of the two units gets one Morale die (Side.AUTHORITY) per other standing allied unit
  with Authority whose reach (Side.AUTHORITY_RANGE, set by DK-authority-range) covers it on the line.
* SAFEGUARD: "Each result between 6 and 9 makes it possible to transfer an Injury to an Allied Unit
  endowed with Guard. In order to benefit from this conditional saving, the Unit must comply with the
  cohesion of the Unit endowed with Guard (2.5 cm or less away from a fighter, 10 cm or less away from the
  Leader)." Under DK-safeguard-transfer=always (W[k, Side.GUARD] = 1), ``_load`` finds the first
  standing allied unit with Guard within 10 cm on the line (Side.GUARD_UNIT) and the injuries it can still
  take (Side.GUARD); ``_receive`` moves that many 6-9s at most (State.TRANSFERRED) and ``_step`` wounds
  the Guard unit with them after the Action (it is no fighter of the Action: no Morale roll).
* COMBINED CHARGE (5 TS): "The Unit is a Hero who is not Engaged and who is no further than 10 cm away
  from an Infantry Unit fitted with the Guard Skill ... They resolve simultaneously a Charge movement
  towards the same targeted Enemy Unit ... The Infantry Unit that escorted the Hero does not actively
  participate in the Fight and benefits from no bonus. However, because of its presence nearby, it grants
  bonuses to the Hero". Under DK-combined-charge=always (Side.COMBINED_CHARGE), a Hero whose chosen Action
  is a Charge makes it a Combined Charge when such a unit, not engaged, stands within 10 cm
  (``_combined_escort``, the first listed) and the 2 TS more fit: the guard makes its Charge movement
  first (``_escort_charges``: in contact and engaged with the target when it is within its Charge), so
  the Hero's Fight counts it as an allied unit engaged with the target (+1 Initiative, a reroll per
  warrior); the guard spends no TS and takes no Stress.

Not modelled (battle_notes() in battle.py says so in reports): Advantage counts only the two units of the
Fight (not "the total headcount of all the Enemy Units it is Engaged with", nor "every Enemy Unit" for
Stress); only the two fighters take part in a Fight and its Morale; REFORMATION and the geometry of contact
(which warriors of several units touch which; cohesion is a distance on the line); terrain, lines of sight
and obstacles between units; and, as in the duel, the end of the Active Unit's activation on a Morale roll
of 1 or 2 successes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from rulesets.drakerys.fight import (
    BLOCKING_AGAINST,
    N_PAIR,
    N_SIDE,
    N_UNIT,
    Action,
    BattleRecord,
    BattleRow,
    BattleState,
    EngagementOutcome,
    Side,
    State,
    Targeting,
    Tokens,
)
from rulesets.drakerys.kernels import _act, _action_cost, _choose_action, _dice, _start_trial
from rulesets.drakerys.rules import (
    CHARGE_TS,
    COMBINED_CHARGE_REACH_CM,
    COMBINED_CHARGE_TS,
    MAX_ACTION_TS,
    SAFEGUARD_COHESION_CM,
    TS_PER_ROUND,
)
from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS
from simcore.stages import missing

_NO = np.bool_(False)
#: The first unit's row (every loop over the units starts there).
_FIRST = BattleRow.FIRST_UNIT


# --- the line and who is engaged with whom ---------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _engaged(W, i, j):
    """Units i and j are engaged with each other: one charged the other (both still stand)."""
    return W[i, BattleState.ENGAGED_WITH] == j or W[j, BattleState.ENGAGED_WITH] == i


@nb.njit(**TRIAL_JIT)
def _distance(W, i, j):
    return abs(W[i, BattleState.POSITION_CM] - W[j, BattleState.POSITION_CM])


@nb.njit(**TRIAL_JIT)
def _release_fallen(W):
    """A unit destroyed or scattered leaves the battlefield: nobody is engaged with it any more."""
    for i in range(_FIRST, W.shape[0]):
        j = W[i, BattleState.ENGAGED_WITH]
        if W[i, BattleState.ALIVE] == 0 or (j >= 0 and W[j, BattleState.ALIVE] == 0):
            W[i, BattleState.ENGAGED_WITH] = -1


@nb.njit(**TRIAL_JIT)
def _target(W, u, targeting):
    """The enemy unit u acts against, -1 when none stands: an enemy engaged with it (the fewest warriors,
    then the lowest row); else by DK-battle-targeting, nearest: the nearest (then the fewest warriors, then
    the lowest row); focus: the fewest warriors (then the lowest row). One pass over the units finds both
    the engaged enemy and the one targeting would choose, reading the matrix in place (a helper taking an
    array, called per unit, costs reference counts on every unit of every Action)."""
    engaged = -1
    best = -1
    owner = W[u, BattleState.OWNER]
    at = W[u, BattleState.POSITION_CM]
    with_u = W[u, BattleState.ENGAGED_WITH]
    for j in range(_FIRST, W.shape[0]):
        if W[j, BattleState.OWNER] == owner or W[j, BattleState.ALIVE] == 0:
            continue
        if with_u == j or W[j, BattleState.ENGAGED_WITH] == u:  # as _engaged
            if engaged < 0 or W[j, BattleState.ALIVE] < W[engaged, BattleState.ALIVE]:
                engaged = j
            continue
        if engaged >= 0:
            continue  # an engaged enemy is the target: the others no longer matter
        if best < 0:
            best = j
            continue
        nearer = abs(W[j, BattleState.POSITION_CM] - at) - abs(W[best, BattleState.POSITION_CM] - at)
        fewer = W[j, BattleState.ALIVE] - W[best, BattleState.ALIVE]
        if targeting == Targeting.NEAREST and (nearer < 0 or (nearer == 0 and fewer < 0)):
            best = j
        elif targeting == Targeting.FOCUS and fewer < 0:
            best = j
    return engaged if engaged >= 0 else best


# --- the pair's rows, which the duel's steps read ---------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _load(W, u, t):
    """Enemy units u and t into the pair's rows of their sides (side 0's unit in row 0, as in a duel), with
    what the rest of the battle adds: allied units engaged with the enemy (Initiative, rerolls), Authority,
    the Guard unit that takes Safeguard's 6-9, and no Shooting at an engaged target. Returns whether u is
    engaged (its Action is then an Attack).

    One pass over the units finds, for both, the allied units engaged with the other and whether the other
    is engaged (every engaged pair is a pair of enemies: a unit charges only enemies). What each standing
    unit j adds to its side's unit ``own`` (pair row r) fighting ``foe``: its Authority die, its room as
    the Guard unit, its engagement with ``foe`` (Initiative, rerolls; ``own`` itself engaged with ``foe``:
    then ``foe`` is engaged). The pass reads the matrix in place, calling no helper that takes an array:
    each such call costs reference counts on every unit of every Action."""
    for k, e in ((u, t), (t, u)):
        r = BattleRow.SIDE_0 + W[k, BattleState.OWNER]
        for c in range(N_PAIR):  # its Side columns, then its State columns
            W[r, c] = W[k, c]
        W[r, Side.BLOCKING] = W[k, BLOCKING_AGAINST + e]
        W[r, Side.GUARD] = 0  # SAFEGUARD: room in a Guard unit in cohesion, found below
        W[r, Side.GUARD_UNIT] = -1
        W[r, State.TRANSFERRED] = 0
    ru = BattleRow.SIDE_0 + W[u, BattleState.OWNER]
    rt = BattleRow.SIDE_0 + W[t, BattleState.OWNER]
    t_engaged = False
    u_engaged = False
    for j in range(_FIRST, W.shape[0]):
        if W[j, BattleState.ALIVE] == 0:
            continue
        mine = W[j, BattleState.OWNER] == W[u, BattleState.OWNER]
        r = ru if mine else rt
        own = u if mine else t
        foe = t if mine else u
        apart = abs(W[j, BattleState.POSITION_CM] - W[own, BattleState.POSITION_CM])
        reach = W[j, Side.AUTHORITY_RANGE]  # AUTHORITY [X]: a Morale die for allied units in reach
        if reach > 0 and j != own and apart <= reach:
            W[r, Side.AUTHORITY] += 1
        # DK-safeguard-transfer=always (W[k, Side.GUARD]): the first allied Guard unit in cohesion, with
        # the injuries it can still take before its last warrior is withdrawn
        guard = W[j, Side.HAS_GUARD] and W[j, Side.HEALTH] > 0
        if guard and j != own and W[own, Side.GUARD] and W[r, Side.GUARD_UNIT] < 0 \
                and apart <= SAFEGUARD_COHESION_CM:
            W[r, Side.GUARD_UNIT] = j
            W[r, Side.GUARD] = W[j, BattleState.ALIVE] * W[j, Side.HEALTH] - W[j, BattleState.TOKENS]
        if W[j, BattleState.ENGAGED_WITH] != foe and W[foe, BattleState.ENGAGED_WITH] != j:
            continue  # not engaged with foe (as _engaged)
        if j != own:
            W[r, Side.ALLIES_ENGAGED] += 1
            W[r, Side.REROLLS] += W[j, BattleState.ALIVE]
        if mine:
            t_engaged = True
        else:
            u_engaged = True
    if t_engaged:
        W[ru, Side.WEAPON_RANGE] = -1
    if u_engaged:
        W[rt, Side.WEAPON_RANGE] = -1
    return u_engaged


@nb.njit(**TRIAL_JIT)
def _unload(W, u, t):
    """The pair's rows back into the units' rows (their State columns)."""
    for k in (u, t):
        r = BattleRow.SIDE_0 + W[k, BattleState.OWNER]
        for c in range(N_SIDE, N_PAIR):
            W[k, c] = W[r, c]


# --- the TimePath ----------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _active_token(W):
    """ACTIVE PLAYER: the token furthest behind, the one on top of the pile (arrived last) on a tie; -1
    when every token is done or has no unit left."""
    best = -1
    for t in range(_FIRST, W.shape[0]):
        if W[t, BattleState.TOKEN] != t or W[t, BattleState.DONE]:
            continue
        # token t still has a unit standing (row t, which carries it, is one of its units: asked first)
        stands = W[t, BattleState.ALIVE] > 0
        u = _FIRST
        while not stands and u < W.shape[0]:
            stands = W[u, BattleState.TOKEN] == t and W[u, BattleState.ALIVE] > 0
            u += 1
        if not stands:
            continue
        if best < 0:
            best = t
            continue
        behind = W[t, BattleState.POSITION] - W[best, BattleState.POSITION]
        if behind < 0 or (behind == 0 and W[t, BattleState.ARRIVAL] > W[best, BattleState.ARRIVAL]):
            best = t
    return best


@nb.njit(**TRIAL_JIT)
def _active_unit(W, t):
    """The unit token t's player activates: standing, the fewest Stress markers, then the lowest row."""
    best = -1
    for u in range(_FIRST, W.shape[0]):
        if W[u, BattleState.TOKEN] != t or W[u, BattleState.ALIVE] == 0:
            continue
        if best < 0 or W[u, BattleState.STRESS] < W[best, BattleState.STRESS]:
            best = u
    return best


@nb.njit(**TRIAL_JIT)
def _move_token(W, t, to):
    """Token t moves to square ``to``: a Headquarters Phase (a Stress marker off each of its units) each
    time it reaches or passes START."""
    phases = to // TS_PER_ROUND - W[t, BattleState.POSITION] // TS_PER_ROUND
    W[t, BattleState.POSITION] = to
    for _ in range(phases):
        for u in range(_FIRST, W.shape[0]):
            if W[u, BattleState.TOKEN] == t:
                W[u, BattleState.STRESS] = max(0, W[u, BattleState.STRESS] - 1)


@nb.njit(**TRIAL_JIT)
def _pay(W, u, ts):
    """Unit u pays ``ts`` on its token (its activation, or Heroic Action dice it added fighting back)."""
    W[u, BattleState.SPENT] += ts
    t = W[u, BattleState.TOKEN]
    _move_token(W, t, W[t, BattleState.POSITION] + ts)


# --- a battle --------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _battle_start(W, start, tokens):
    """A fresh trial: side 0's units at 0 cm, side 1's at ``start`` cm, their tokens piled at START (each
    unit's BattleState columns set, its OWNER kept)."""
    rows = W.shape[0]
    n = rows - _FIRST  # units
    first = np.int64(_FIRST)  # side 1's first unit
    while first < rows and W[first, BattleState.OWNER] == 0:
        first += 1
    for u in range(_FIRST, rows):
        s = W[u, BattleState.OWNER]
        for c in range(N_SIDE, N_UNIT):
            W[u, c] = 0
        W[u, BattleState.OWNER] = s
        W[u, BattleState.ALIVE] = W[u, Side.SIZE]
        W[u, BattleState.TOKENS] = W[u, Side.TOKENS]
        W[u, BattleState.STRESS] = W[u, Side.STRESS]
        W[u, BattleState.POSITION_CM] = 0 if s == 0 else start
        W[u, BattleState.ENGAGED_WITH] = -1
        rank = u - _FIRST if s == 0 else u - first  # the unit's place among its side's
        if tokens == Tokens.PLAYER:
            W[u, BattleState.TOKEN] = _FIRST if s == 0 else first
            W[u, BattleState.ARRIVAL] = 1 - s  # "the First Player's token is thus on top"
        else:
            W[u, BattleState.TOKEN] = u
            W[u, BattleState.ARRIVAL] = 2 * n - (2 * rank + s)  # interleaved, side 0's first on top


@nb.njit(**TRIAL_JIT)
def _stands(W, s):
    """Side s has a unit standing."""
    for u in range(_FIRST, W.shape[0]):
        if W[u, BattleState.OWNER] == s and W[u, BattleState.ALIVE] > 0:
            return True
    return False


@nb.njit(**TRIAL_JIT)
def _battle_outcome(W):
    zero = _stands(W, 0)
    one = _stands(W, 1)
    if not zero and not one:
        return EngagementOutcome.BOTH_DESTROYED
    if not one:
        return EngagementOutcome.SIDE_0_WINS
    if not zero:
        return EngagementOutcome.SIDE_1_WINS
    return EngagementOutcome.NEITHER


@nb.njit(**TRIAL_JIT)
def _wound(W, g, injuries):
    """Unit g takes ``injuries`` (Safeguard's transfers): one warrior withdrawn per Health of tokens."""
    W[g, BattleState.TOKENS] += injuries
    health = W[g, Side.HEALTH]
    while W[g, BattleState.TOKENS] >= health and W[g, BattleState.ALIVE] > 0:
        W[g, BattleState.TOKENS] -= health
        W[g, BattleState.ALIVE] -= 1
        W[g, BattleState.REMOVED] += 1
    if W[g, BattleState.ALIVE] == 0:
        W[g, BattleState.TOKENS] = 0


@nb.njit(**TRIAL_JIT)
def _step(dice, W, u, t, action, distance):
    """Unit u's Action against unit t through the duel's ``_act`` (on the pair's rows, loaded by _load); the
    line, the engagements and the injuries Safeguard moved to a Guard unit after it."""
    p = BattleRow.SIDE_0 + W[u, BattleState.OWNER]
    after = _act(dice, W, p, action, distance)
    _unload(W, u, t)
    fallen = W[u, BattleState.ALIVE] == 0 or W[t, BattleState.ALIVE] == 0
    for r in (BattleRow.SIDE_0, BattleRow.SIDE_1):
        moved = W[r, State.TRANSFERRED]
        if moved > 0:
            g = W[r, Side.GUARD_UNIT]
            _wound(W, g, moved)
            fallen = fallen or W[g, BattleState.ALIVE] == 0
    if action == Action.MARCH:  # towards t, never into contact
        if W[u, BattleState.POSITION_CM] < W[t, BattleState.POSITION_CM]:
            W[u, BattleState.POSITION_CM] = W[t, BattleState.POSITION_CM] - after
        else:
            W[u, BattleState.POSITION_CM] = W[t, BattleState.POSITION_CM] + after
    elif action == Action.CHARGE:  # in contact, engaged
        W[u, BattleState.POSITION_CM] = W[t, BattleState.POSITION_CM]
        W[u, BattleState.ENGAGED_WITH] = t
        if W[t, BattleState.ENGAGED_WITH] < 0:
            W[t, BattleState.ENGAGED_WITH] = u
    if action == Action.CHARGE or action == Action.ATTACK:
        # the unit that fought back paid its Heroic Action dice (DK-heroic-passive), 1 TS each, no Stress
        dice_paid = W[t, Side.HEROIC_PASSIVE]
        if dice_paid > 0:
            _pay(W, t, dice_paid)
    if fallen:  # only they, or a Guard unit wounded for them, may have fallen
        _release_fallen(W)


@nb.njit(**TRIAL_JIT)
def _combined_escort(W, u):
    """COMBINED CHARGE: the first allied Infantry unit with Guard standing within 10 cm of Hero u and not
    engaged (it makes a Charge movement), -1 when none."""
    for g in range(_FIRST, W.shape[0]):
        if g == u or W[g, BattleState.OWNER] != W[u, BattleState.OWNER] or W[g, BattleState.ALIVE] == 0:
            continue
        if not (W[g, Side.HAS_GUARD] and W[g, Side.INFANTRY]) \
                or _distance(W, g, u) > COMBINED_CHARGE_REACH_CM:
            continue
        engaged = False
        for j in range(_FIRST, W.shape[0]):
            enemy = W[j, BattleState.OWNER] != W[g, BattleState.OWNER]
            if enemy and W[j, BattleState.ALIVE] > 0 and _engaged(W, g, j):
                engaged = True
                break
        if not engaged:
            return g
    return -1


@nb.njit(**TRIAL_JIT)
def _escort_charges(W, g, t):
    """The guard's Charge movement towards t: in contact and engaged with it when t is within its Charge,
    else its Charge value nearer (never into contact)."""
    d = _distance(W, g, t)
    reach = W[g, Side.CHARGE]
    if d <= reach:
        W[g, BattleState.POSITION_CM] = W[t, BattleState.POSITION_CM]
        W[g, BattleState.ENGAGED_WITH] = t
    else:
        left = max(1, d - reach)
        if W[g, BattleState.POSITION_CM] < W[t, BattleState.POSITION_CM]:
            W[g, BattleState.POSITION_CM] = W[t, BattleState.POSITION_CM] - left
        else:
            W[g, BattleState.POSITION_CM] = W[t, BattleState.POSITION_CM] + left


@nb.njit(**TRIAL_JIT)
def _battle(dice, W, rounds, targeting):
    """The battle until one side has no unit standing or every token is done; returns (EngagementOutcome,
    activations). The steps of ``kernels._engagement``, for a token and the unit its player
    activates (see the module docstring)."""
    activations = 0
    end = rounds * TS_PER_ROUND
    stamp = 2 * (W.shape[0] - _FIRST) + 1  # the next token to arrive is on top of every pile
    while _stands(W, 0) and _stands(W, 1):
        t = _active_token(W)
        if t < 0:
            break
        u = _active_unit(W, t)
        spent = 0
        taken = 0
        charged = False
        while taken < W[u, Side.ACTIONS] and W[u, BattleState.ALIVE] > 0:
            e = _target(W, u, targeting)
            if e < 0:
                break
            engaged = _load(W, u, e)
            p = BattleRow.SIDE_0 + W[u, BattleState.OWNER]
            if charged:  # "A Unit can only resolve one Charge Action ... per Activation": it marches instead
                W[p, Side.CHARGE] = -1
            distance = _distance(W, u, e)
            action = _choose_action(W, p, engaged, distance, _NO, _NO)
            cost = _action_cost(W, p, action)
            if action == Action.CHARGE and W[u, Side.COMBINED_CHARGE]:
                # COMBINED CHARGE (DK-combined-charge=always): with a guard in reach, when its 2 TS more fit
                g = _combined_escort(W, u)
                combined = cost + COMBINED_CHARGE_TS - CHARGE_TS
                if g >= 0 and spent + combined <= MAX_ACTION_TS and \
                        W[t, BattleState.POSITION] + spent + combined <= end:
                    _escort_charges(W, g, e)
                    _load(W, u, e)  # the guard engaged: its bonuses
                    cost = combined
            if spent + cost > MAX_ACTION_TS or W[t, BattleState.POSITION] + spent + cost > end:
                break
            _step(dice, W, u, e, action, distance)
            charged = charged or action == Action.CHARGE
            spent += cost
            taken += 1
        if taken == 0:
            # no Action fits: the token goes to START (its Headquarters Phase); its owner plays no more
            _move_token(W, t, end)
            W[t, BattleState.DONE] = 1
            continue
        activations += 1
        W[u, BattleState.STRESS] += 1  # "The Active Unit receives a Stress marker" before the token moves
        _pay(W, u, spent)
        W[t, BattleState.ARRIVAL] = stamp
        stamp += 1
        for k in range(_FIRST, W.shape[0]):  # a token that fought back may have paid its way to START too
            if W[k, BattleState.TOKEN] == k and W[k, BattleState.POSITION] >= end:
                W[k, BattleState.DONE] = 1
    return _battle_outcome(W), activations


@nb.njit(**TRIAL_JIT)
def _battle_trial(dice, W, start, rounds, targeting, tokens, seed, trial):
    """Trial ``trial`` of a battle run seeded ``seed``, on the trial's own stream (as _engagement_trial)."""
    _start_trial(dice, seed, trial)
    _battle_start(W, start, tokens)
    return _battle(dice, W, rounds, targeting)


@nb.njit(**JIT)
def battle_matrix(units_side, owner, blocking):
    """A battle's matrix int64[2 + U, N_UNIT + U] (rows BattleRow): the pair's two rows (zeros: _load fills
    them), then each unit's row: its Side columns (``units_side``), its BattleState columns (zeros, but
    OWNER: ``owner``; each trial starts the others) and its blocking against each unit (``blocking``)."""
    n = units_side.shape[0]
    W = np.zeros((_FIRST + n, N_UNIT + n), np.int64)
    for u in range(n):
        row = _FIRST + u
        W[row, :N_SIDE] = units_side[u]
        W[row, BattleState.OWNER] = owner[u]
        W[row, BLOCKING_AGAINST + _FIRST:] = blocking[u]
    return W


@nb.njit(**JIT)
def _battle_records(bank, units_side, owner, blocking, start, rounds, chain, targeting, tokens, seed,
                    first_trial, out):
    """One battle per trial, recorded (simcore.runner's records contract); returns the trials run (fewer
    when one met a stage table its bank lacked: the runner builds it and goes on from that trial).

    units_side: int64[U, N_SIDE]; owner: int64[U] (0 for side 0's units, listed first, then 1); blocking:
    int64[U, U]; start: cm between the sides (0: contact); targeting: a Targeting code; tokens: a Tokens
    code. out: int64[n, len(BattleRecord)]; ``out[k]`` is trial ``first_trial + k``.
    """
    dice = _dice(np.empty(STATE_WORDS, np.uint64), chain, bank)
    W = battle_matrix(units_side, owner, blocking)
    for k in range(out.shape[0]):
        outcome, activations = _battle_trial(dice, W, start, rounds, targeting, tokens, seed, first_trial + k)
        if missing(bank):
            return k
        out[k, :] = 0
        out[k, BattleRecord.OUTCOME] = outcome
        out[k, BattleRecord.ACTIVATIONS] = activations
        for u in range(_FIRST, W.shape[0]):
            s = W[u, BattleState.OWNER]
            lost = W[u, Side.SIZE] - W[u, BattleState.ALIVE]
            out[k, BattleRecord.LOST_1 if s else BattleRecord.LOST_0] += lost
            # the side's first unit (a hero in context leads its force)
            if u == _FIRST or W[u - 1, BattleState.OWNER] != s:
                out[k, BattleRecord.LEAD_LOST_1 if s else BattleRecord.LEAD_LOST_0] = lost
            if W[u, BattleState.ALIVE] == 0:
                out[k, BattleRecord.UNITS_LOST_1 if s else BattleRecord.UNITS_LOST_0] += 1
            inflicted = W[u, BattleState.INFLICTED]  # injuries the other side suffered
            out[k, BattleRecord.INJURIES_0 if s else BattleRecord.INJURIES_1] += inflicted
            out[k, BattleRecord.TS_1 if s else BattleRecord.TS_0] += W[u, BattleState.SPENT]
    return out.shape[0]
