"""Drakerys Fight, Shooting and engagement kernels (private; see rulesets/drakerys/fight.py for the rules
they follow and the enums naming every column, row and code, and simcore/runner.py for the chunk and
records contracts).

Three things travel through every helper:

* ``side``: int64[2, N_SIDE], one row per side, columns :class:`Side` (built by ``fight.side_array``).
* ``state``: int64[2, N_STATE], the trial's state, one row per side, columns :class:`State`; allocated once
  per chunk or block of trials and reset by :func:`_start`.
* ``dice``: the thread's stage bank (simcore.stages), one uint64 array that is also the trial's random
  stream, followed by its per-roll substream keys and the DK-crit-chain ruling (:data:`TRIAL_KEY` ...):
  one array for all the dice, as numba counts references to each array a call passes. Every roll of known
  dice (an attack, a block, an injury roll, a Morale roll, the Safeguard dice) is one draw from its exact
  distribution, die by die only beyond the bank's range or with a ``by_die`` bank.

Fights and Shootings draw a chunk's trials from the chunk's stream. Engagements draw every trial from its
own stream (``simcore.rng.seed_trial_stream``), in both drivers, so that trial t meets the same dice in a
histogram run, in a records run and in a variant's run (common random numbers).

The steps follow the naive twin (tests/naive_fight.py) one for one: characteristics, ``_strike_order``,
``_strike``, ``_receive``, ``_advantage`` and ``_winner``, ``_morale``; on the TimePath ``_active``,
``_choose_action``, ``_action_cost``, ``_act`` and ``_spend``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from rulesets.drakerys.fight import (
    GUARD_UNLIMITED,
    N_STATE,
    Action,
    BlockIn,
    EngagementOutcome,
    EngagementRow,
    FightOutcome,
    FightRow,
    Morale,
    Record,
    ShootingRow,
    Side,
    State,
    Winner,
)
from rulesets.drakerys.rules import (
    ATTACK_TS,
    EVEN_THRESHOLD,
    MARCH_TS,
    MAX_ACTION_TS,
    MAX_THRESHOLD,
    MIN_THRESHOLD,
    MORALE_DICE,
    MORALE_WARRIORS_PER_DIE,
    MULTIPLE_SHOTS_POWER,
    QUICK_SHOT_TS,
    SAFEGUARD_CANCEL_FACE,
    SAFEGUARD_GUARD_FACE,
    SAFEGUARD_TEN_OF_SIX_UP,
    SHOOTING_SHARE_CM,
    SHOOTING_TS,
    SIDES,
    TS_PER_ROUND,
)
from simcore.config import INLINE_JIT, JIT, TRIAL_JIT
from simcore.dice import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS
from simcore.rng import STATE_WORDS, chunk_stream, seed_substream, seed_trial_stream, trial_key
from simcore.stages import KERNEL_WORDS, BankSpec, missing, success_draw

#: The stage tables of every Drakerys roll (d10).
STAGES = BankSpec(SIDES)
#: The same rolls made die by die (goodness-of-fit checks of the tables, benchmarks).
STAGES_BY_DIE = BankSpec(SIDES, by_die=True)

# Constants passed to helpers as typed numpy scalars: numba compiles a helper once per literal value it is
# called with (``f(x, 0)`` and ``f(x, 1)`` are two compilations, and each repeats for every helper below it).
_0 = np.int64(0)
_1 = np.int64(1)
_NO = np.bool_(False)
_YES = np.bool_(True)
_EXPLODE = np.int64(TOP_EXPLODE)
_PLAIN_TOP = np.int64(TOP_SUCCESS)


# --- dice ------------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _threshold(action, opposition):
    """ACTION TABLE: 6 - (action - opposition), clamped to 2..10."""
    return min(MAX_THRESHOLD, max(MIN_THRESHOLD, EVEN_THRESHOLD - (action - opposition)))


#: The kernel's words of ``dice`` (simcore.stages.KERNEL_WORDS, after the stream's): the trial's key, the
#: rolls it made, whether each roll draws from its own substream (simcore.rng.seed_substream: engagements,
#: so that a variant whose earlier roll used other dice still meets the same dice roll by roll: common
#: random numbers), and the DK-crit-chain ruling.
(TRIAL_KEY, ROLLS_MADE, BY_ROLL, CRIT_CHAIN) = range(STATE_WORDS, STATE_WORDS + KERNEL_WORDS)


@nb.njit(**JIT)
def _dice(stream, chain, bank):
    """The ``dice`` of a chunk: ``bank`` holding ``stream``'s words, one stream for every roll."""
    bank[:STATE_WORDS] = stream
    bank[TRIAL_KEY] = 0
    bank[ROLLS_MADE] = 0
    bank[BY_ROLL] = 0
    bank[CRIT_CHAIN] = np.uint64(chain)
    return bank


@nb.njit(**TRIAL_JIT)
def _start_trial(dice, seed, trial):
    """``dice`` set for trial ``trial`` of a run seeded ``seed``: its own stream, a substream per roll."""
    seed_trial_stream(seed, trial, dice)
    dice[TRIAL_KEY] = trial_key(seed, trial)
    dice[ROLLS_MADE] = 0
    dice[BY_ROLL] = 1


@nb.njit(**INLINE_JIT)
def _roll(dice, n, threshold, mode, swashbuckler, rerolls, crits):
    """An Action-Table roll of n d10: (successes, criticals), criticals drawn only when ``crits``."""
    if n <= 0:
        return 0, 0
    if dice[BY_ROLL]:
        seed_substream(dice[TRIAL_KEY], dice[ROLLS_MADE], dice)
        dice[ROLLS_MADE] += np.uint64(1)
    return success_draw(dice, dice, n, threshold, mode, np.int64(dice[CRIT_CHAIN]), swashbuckler, rerolls,
                        crits)


# --- step 1: characteristics in this Fight ---------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _charge_bonus(side, s, charger):
    """1 when side s charged and keeps the Charge bonus (Reach cancels it unless Martial Arts; no bonus for
    a Sharpshooter)."""
    if charger != s or side[s, Side.SHARPSHOOTER]:
        return 0
    if side[1 - s, Side.REACH] and not side[s, Side.MARTIAL_ARTS]:
        return 0
    return 1


@nb.njit(**TRIAL_JIT)
def _initiative(side, s, charger):
    return side[s, Side.INITIATIVE] + side[s, Side.ALLIES_ENGAGED] + _charge_bonus(side, s, charger)


@nb.njit(**TRIAL_JIT)
def _combat(side, s, charger):
    return side[s, Side.COMBAT] + _charge_bonus(side, s, charger)


@nb.njit(**TRIAL_JIT)
def _power(side, state, s, charger):
    """Power in a Fight: Berserker +1 per Stress marker, Brutal Charge +1 after charging."""
    power = side[s, Side.POWER] + side[s, Side.BERSERKER] * state[s, State.STRESS]
    if charger == s:
        power += side[s, Side.BRUTAL_CHARGE]
    return power


@nb.njit(**TRIAL_JIT)
def _resistance(side, state, s):
    """Resistance, Berserker -1 per Stress marker (minimum 0)."""
    return max(0, side[s, Side.RESISTANCE] - side[s, Side.BERSERKER] * state[s, State.STRESS])


# --- step 2: who strikes when ----------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _strike_order(side, charger):
    """The side that strikes first, or -1 when both strike at once (equal Initiative)."""
    first = _initiative(side, _0, charger)
    second = _initiative(side, _1, charger)
    if first == second:
        return -1
    return 0 if first > second else 1


@nb.njit(**TRIAL_JIT)
def _strikes(side, state, s):
    """Side s strikes: both sides have warriors, and s neither blocks nor is an Object."""
    return (state[s, State.ALIVE] > 0 and state[1 - s, State.ALIVE] > 0 and not side[s, Side.OBJECT]
            and not state[s, State.BLOCKING_NOW])


# --- step 3: a strike ------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _attack_dice(side, state, s, charger):
    """Full-power warriors x Power + supporting warriors x 1 (DK-frontage) + the Heroic Action dice it adds
    to this Fight (State.HEROIC_NOW, set by _fight)."""
    alive = state[s, State.ALIVE]
    frontage = side[s, Side.FRONTAGE]
    full = alive if frontage < 0 else min(frontage, alive)
    support = side[s, Side.SUPPORT]  # "The other Warriors do not Attack"
    behind = alive - full if support < 0 else min(support, alive - full)
    return full * _power(side, state, s, charger) + behind + state[s, State.HEROIC_NOW]


@nb.njit(**TRIAL_JIT)
def _attack_roll(dice, side, state, s, charger, crits):
    """Side s's attack roll (also its Blocking roll): (successes, criticals if ``crits``)."""
    threshold = _threshold(_combat(side, s, charger), _combat(side, 1 - s, charger))
    return _roll(dice, _attack_dice(side, state, s, charger), threshold, _EXPLODE,
                 side[s, Side.SWASHBUCKLER] != 0, side[s, Side.REROLLS], crits)


@nb.njit(**TRIAL_JIT)
def _injury_mode(side, s, ignores_parry, engaged):
    """How the criticals of side s's injury rolls count against the enemy.

    Martial Arts works against the units a unit is engaged with: the striker's ignores the enemy's
    Parry, the target's ignores the striker's Violent Blow.
    """
    e = 1 - s
    if ignores_parry or (engaged and side[s, Side.MARTIAL_ARTS]):
        return TOP_EXPLODE
    if side[s, Side.VIOLENT_BLOW] and not (engaged and side[e, Side.MARTIAL_ARTS]):
        return TOP_EXPLODE
    if side[e, Side.EXPERT_PARRY]:
        return TOP_FAIL
    if side[e, Side.PARRY]:
        return TOP_SUCCESS
    return TOP_EXPLODE


@nb.njit(**TRIAL_JIT)
def _strike(dice, side, state, s, charger):
    """Injuries side s inflicts with one strike (the enemy may block it)."""
    e = 1 - s
    deadly = side[s, Side.DEADLY_BLOW] != 0
    hits, automatic = _attack_roll(dice, side, state, s, charger, deadly)
    if state[e, State.BLOCKING_NOW] and state[e, State.ALIVE] > 0 and not side[e, Side.OBJECT]:
        blocks, _ = _attack_roll(dice, side, state, e, charger, _NO)
        hits = max(0, hits - blocks)
    threshold = _threshold(side[s, Side.STRENGTH], _resistance(side, state, e))
    wounds, _ = _roll(dice, hits, threshold, _injury_mode(side, s, _NO, _YES), _NO, _0, _NO)
    return wounds + automatic


# --- step 4: injuries received ---------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _receive(dice, side, state, s, injuries):
    """Side s receives ``injuries`` from the other side: Safeguard (one d10 per injury, drawn whole from the
    current stream), then one warrior withdrawn per leader's Health of tokens. Counts them in the state;
    returns the warriors removed.

    SAFEGUARD: "Each result of 10 cancels an Injury. Each result between 6 and 9 makes it possible to
    transfer an Injury to an Allied Unit endowed with Guard": with no room in a Guard unit (Side.GUARD 0)
    only the 10s leave; with a duel's stand-in escort (GUARD_UNLIMITED) every die of 6 or more leaves; with
    a battle's Guard unit that can take ``room`` more injuries, the dice of 6 or more are split into 10s and
    6-9s (a die of 6 or more is a 10 with probability 1/5) and min(6-9s, room) move to it
    (State.TRANSFERRED; the battle wounds the Guard unit after the Action)."""
    state[1 - s, State.INFLICTED] += injuries
    kept = injuries
    room = side[s, Side.GUARD]
    if side[s, Side.SAFEGUARD] and injuries > 0:
        leaves_from = SAFEGUARD_GUARD_FACE if room > 0 else SAFEGUARD_CANCEL_FACE
        # the injuries that stay are the dice below leaves_from: the failures of a roll at that threshold
        leave, _ = success_draw(dice, dice, injuries, leaves_from, _PLAIN_TOP, _NO, _NO, _0, _NO)
        if 0 < room < GUARD_UNLIMITED and leave > 0:
            tens, _ = success_draw(dice, dice, leave, SAFEGUARD_TEN_OF_SIX_UP, _PLAIN_TOP, _NO, _NO, _0,
                                   _NO)
            moved = min(leave - tens, room)
            leave = tens + moved
            side[s, Side.GUARD] = room - moved
            state[s, State.TRANSFERRED] += moved
        kept = injuries - leave
    state[s, State.TOKENS] += kept
    removed = 0
    health = side[s, Side.HEALTH]
    while state[s, State.TOKENS] >= health and state[s, State.ALIVE] > 0:
        state[s, State.TOKENS] -= health
        state[s, State.ALIVE] -= 1
        removed += 1
    if state[s, State.ALIVE] == 0:
        state[s, State.TOKENS] = 0
    state[s, State.REMOVED] += removed
    return removed


@nb.njit(**TRIAL_JIT)
def _exchange(dice, side, state, charger):
    """Steps 2 to 4: both sides strike in Initiative order, casualties removed between strikes. Returns
    the injuries side 0 and side 1 dealt."""
    first = _strike_order(side, charger)
    together = first < 0
    dealt0 = _0
    dealt1 = _0
    for k in range(2):
        s = k if together else (first if k == 0 else 1 - first)
        dealt = _strike(dice, side, state, s, charger) if _strikes(side, state, s) else _0
        if s == 0:
            dealt0 = dealt
        else:
            dealt1 = dealt
        if not together:
            _receive(dice, side, state, 1 - s, dealt)
    if together:
        # equal Initiative: both strike at once, then both remove their casualties
        _receive(dice, side, state, _1, dealt0)
        _receive(dice, side, state, _0, dealt1)
    return dealt0, dealt1


# --- steps 5 and 6: the winner and the loser's Morale ----------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _advantage(state, s, charged, dealt, suffered):
    """Side s's Advantage Value: +1 for charging, for inflicting more injuries, for more warriors, for
    fewer Stress markers."""
    e = 1 - s
    value = 1 if charged else 0
    if dealt > suffered:
        value += 1
    if state[s, State.ALIVE] > state[e, State.ALIVE]:
        value += 1
    if state[s, State.STRESS] < state[e, State.STRESS]:
        value += 1
    return value


@nb.njit(**TRIAL_JIT)
def _winner(state, trigger, charged, dealt0, dealt1):
    """Step 5: (Winner, the winner's Advantage minus the loser's: the loser's Morale opposition, 0 when
    no Morale roll is taken)."""
    if state[0, State.ALIVE] == 0 and state[1, State.ALIVE] == 0:
        return Winner.NONE, 0
    if state[1, State.ALIVE] == 0:
        return Winner.SIDE_0, 0
    if state[0, State.ALIVE] == 0:
        return Winner.SIDE_1, 0
    adv0 = _advantage(state, _0, charged and trigger == 0, dealt0, dealt1)
    adv1 = _advantage(state, _1, charged and trigger == 1, dealt1, dealt0)
    if adv0 == adv1:
        return Winner.BOTH, 0
    if adv0 > adv1:
        return Winner.SIDE_0, adv0 - adv1
    return Winner.SIDE_1, adv1 - adv0


@nb.njit(**TRIAL_JIT)
def _morale(dice, side, state, s, opposition, engaged):
    """Side s's Morale roll (Morale code); an Object takes none and stays steady."""
    if side[s, Side.OBJECT]:
        return Morale.STEADY
    e = 1 - s
    n = (MORALE_DICE + state[s, State.ALIVE] // MORALE_WARRIORS_PER_DIE + side[s, Side.DISCIPLINE]
         + side[s, Side.AUTHORITY])
    will = side[s, Side.WILLPOWER]
    if engaged and side[e, Side.DREADFUL] and not side[s, Side.DREADFUL]:
        will -= 1
    successes, _ = _roll(dice, n, _threshold(will, opposition), _EXPLODE, _NO, _0, _NO)
    successes += side[s, Side.BERSERKER]
    return Morale.STEADY if successes >= Morale.STEADY else successes


@nb.njit(**TRIAL_JIT)
def _suffer_morale(state, s, morale):
    """The effect of side s's Morale roll: a scatter withdraws every warrior, stress adds a marker."""
    if morale == Morale.SCATTER:
        state[s, State.ALIVE] = 0
        state[s, State.TOKENS] = 0
    elif morale == Morale.STRESS:
        state[s, State.STRESS] += 1


@nb.njit(**TRIAL_JIT)
def _fight(dice, side, state, trigger, charged):
    """One Fight triggered by side ``trigger`` (a Charge when ``charged``), the loser's Morale applied.

    Returns (Winner, the loser's Morale or Morale.NO_ROLL). HEROIC ACTION: the Active Unit (``trigger``)
    adds its Heroic Action dice, the other only under DK-heroic-passive=own-ts (Side.HEROIC_PASSIVE).
    """
    state[trigger, State.HEROIC_NOW] = side[trigger, Side.HEROIC]
    state[1 - trigger, State.HEROIC_NOW] = side[1 - trigger, Side.HEROIC_PASSIVE]
    # BLOCKING "replaces its Attack" in the kinds of Fight its policy chose (Side.BLOCKING, bits BlockIn)
    kind = BlockIn.CHARGING if charged else BlockIn.ATTACKING
    state[trigger, State.BLOCKING_NOW] = (side[trigger, Side.BLOCKING] >> kind) & 1
    passive = kind + BlockIn.CHARGED
    state[1 - trigger, State.BLOCKING_NOW] = (side[1 - trigger, Side.BLOCKING] >> passive) & 1
    dealt0, dealt1 = _exchange(dice, side, state, trigger if charged else -1)
    winner, margin = _winner(state, trigger, charged, dealt0, dealt1)
    if margin == 0:
        return winner, Morale.NO_ROLL
    loser = 1 - winner
    morale = _morale(dice, side, state, loser, margin, _YES)
    _suffer_morale(state, loser, morale)
    return winner, morale


@nb.njit(**TRIAL_JIT)
def _fight_outcome(winner, morale):
    """The FightOutcome code of a Fight of side 0 against side 1."""
    if winner == Winner.NONE:
        return FightOutcome.BOTH_DESTROYED
    if winner == Winner.BOTH:
        return FightOutcome.DRAW
    if winner == Winner.SIDE_0:
        return FightOutcome.B_DESTROYED if morale == Morale.NO_ROLL else FightOutcome.A_WINS_SCATTER + morale
    return FightOutcome.A_DESTROYED if morale == Morale.NO_ROLL else FightOutcome.B_WINS_SCATTER + morale


# --- a Shooting ------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _shooting_opposition(side, state, s, distance):
    """Every 10 cm-share begun, each Stress marker of the shooter, each obstacle, a Sharpshooter target."""
    shares = (distance + SHOOTING_SHARE_CM - 1) // SHOOTING_SHARE_CM
    return shares + state[s, State.STRESS] + side[s, Side.OBSTACLES] + side[1 - s, Side.SHARPSHOOTER]


@nb.njit(**TRIAL_JIT)
def _shoot(dice, side, state, s, distance):
    """Side s shoots at the other from ``distance`` cm, the target's Morale applied. Returns the target's
    Morale (NO_ROLL unless it lost a warrior and still stands)."""
    e = 1 - s
    power = (side[s, Side.POWER] + MULTIPLE_SHOTS_POWER * side[s, Side.MULTIPLE_SHOTS]
             + side[s, Side.BERSERKER] * state[s, State.STRESS])
    n = state[s, State.ALIVE] * power + side[s, Side.HEROIC]
    threshold = _threshold(side[s, Side.SHOOTING], _shooting_opposition(side, state, s, distance))
    hits, automatic = _roll(dice, n, threshold, _EXPLODE, _NO, _0, side[s, Side.DEADLY_BLOW] != 0)
    threshold = _threshold(side[s, Side.WEAPON_STRENGTH], _resistance(side, state, e))
    wounds, _ = _roll(dice, hits, threshold, _injury_mode(side, s, side[s, Side.IGNORES_PARRY] != 0, _NO),
                      _NO, _0, _NO)
    removed = _receive(dice, side, state, e, wounds + automatic)
    if removed > 0 and state[e, State.ALIVE] > 0:
        morale = _morale(dice, side, state, e, side[s, Side.SATURATION], _NO)
        _suffer_morale(state, e, morale)
        return morale
    return Morale.NO_ROLL


# --- an engagement on the TimePath -----------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _active(state, top):
    """ACTIVE PLAYER: the token furthest behind, the one on top of the pile on a tie (``top``); a side
    whose token reached the last START plays no more."""
    if state[0, State.DONE]:
        return 1
    if state[1, State.DONE]:
        return 0
    if state[0, State.POSITION] != state[1, State.POSITION]:
        return 0 if state[0, State.POSITION] < state[1, State.POSITION] else 1
    return top


@nb.njit(**TRIAL_JIT)
def _choose_action(side, p, engaged, distance, opening_shot, opening):
    """The unit's best available Action: a forced opening Shooting (``opening_shot``); Attack when
    Engaged; else Shooting when it has a ranged weapon and the enemy is in range (and not in contact);
    else Charge when the enemy is within its Charge; else March."""
    if opening and opening_shot:
        return Action.SHOOT
    if engaged:
        return Action.ATTACK
    reach = side[p, Side.WEAPON_RANGE]
    if reach >= 0 and side[p, Side.SHOOTING] >= 0 and 1 <= distance <= reach:
        return Action.SHOOT
    if distance <= side[p, Side.CHARGE]:
        return Action.CHARGE
    return Action.MARCH


@nb.njit(**TRIAL_JIT)
def _action_cost(side, state, p, action):
    """TS of an action: its base cost, +1 per Stress marker, +1 per Heroic Action die rolled with it;
    Quick Shot takes 1 off a Shooting (minimum 1). An activation may not spend more than the TimePath's
    16 TS in all (see _engagement)."""
    if action == Action.CHARGE:
        cost = side[p, Side.CHARGE_TS]
    elif action == Action.ATTACK:
        cost = ATTACK_TS
    elif action == Action.SHOOT:
        cost = SHOOTING_TS
    else:
        cost = MARCH_TS
    cost += state[p, State.STRESS]
    if action != Action.MARCH:
        cost += side[p, Side.HEROIC]
    if action == Action.SHOOT:
        cost = max(1, cost - QUICK_SHOT_TS * side[p, Side.QUICK_SHOT])
    return cost


@nb.njit(**TRIAL_JIT)
def _act(dice, side, state, p, action, distance):
    """Side p's action, its Morale effects applied. Returns the distance between the units after it."""
    if action == Action.SHOOT:
        _shoot(dice, side, state, p, distance)
    elif action == Action.MARCH:
        distance = max(1, distance - side[p, Side.MARCH])
    else:
        _fight(dice, side, state, p, action == Action.CHARGE)
    return distance


@nb.njit(**TRIAL_JIT)
def _move_token(state, p, to):
    """Side p's Activation Token moves to square ``to``: a Headquarters Phase (one Stress marker off) each
    time it reaches or passes START."""
    phases = to // TS_PER_ROUND - state[p, State.POSITION] // TS_PER_ROUND
    state[p, State.POSITION] = to
    for _ in range(phases):
        state[p, State.STRESS] = max(0, state[p, State.STRESS] - 1)


@nb.njit(**TRIAL_JIT)
def _spend(state, p, cost):
    """After side p's activation: TS spent, +1 Stress, the token moved."""
    state[p, State.SPENT] += cost
    state[p, State.STRESS] += 1
    _move_token(state, p, state[p, State.POSITION] + cost)


@nb.njit(**TRIAL_JIT)
def _pay_heroic(state, e, dice):
    """The unit that fought back paid its Heroic Action dice: 1 TS each on its own token, no Stress."""
    if dice > 0:
        state[e, State.SPENT] += dice
        _move_token(state, e, state[e, State.POSITION] + dice)


@nb.njit(**TRIAL_JIT)
def _note_opening(side, state, cost):
    """What side 0's opening action cost each side: warriors lost, injuries suffered, side 0's TS."""
    for s in range(2):
        state[s, State.OPENING_LOST] = side[s, Side.SIZE] - state[s, State.ALIVE]
        state[s, State.OPENING_INJURIES] = state[1 - s, State.INFLICTED]
    state[0, State.OPENING_TS] = cost


@nb.njit(**TRIAL_JIT)
def _engagement_outcome(state):
    if state[0, State.ALIVE] == 0 and state[1, State.ALIVE] == 0:
        return EngagementOutcome.BOTH_DESTROYED
    if state[1, State.ALIVE] == 0:
        return EngagementOutcome.SIDE_0_WINS
    if state[0, State.ALIVE] == 0:
        return EngagementOutcome.SIDE_1_WINS
    return EngagementOutcome.NEITHER


@nb.njit(**TRIAL_JIT)
def _engagement(dice, side, state, shoot_from, rounds):
    """Side 0 engages side 1 (charges, or shoots first from ``shoot_from`` cm when >= 0) until one is
    destroyed or scatters, or ``rounds`` rounds end (see fight.py). Returns (EngagementOutcome,
    activations); the state holds what each side lost, suffered and spent, and what side 0's opening
    action (the first Action of its first activation) cost.

    MAKE WAR!: "the Active Unit makes one after the other a number of Actions comprised between 1 and the
    Action Characteristics of its Leader" (Side.ACTIONS; 1 under DK-actions=one); the TS of all of them are
    spent together, and the unit gets one Stress "regardless of the number of Actions taken". RESTRICTIONS
    OF ACTIONS: "The players may not spend more TS during an Activation than there are on the TimePath"
    (16), and in the last round no activation may take the token beyond START: the unit takes the Actions
    that fit; when not even the first fits, "the Activation Token is directly placed on the START square"
    and the side plays no more.
    """
    engaged = False
    # shoot_from >= 0: side 0 opens fire from there; -1: it charges from contact; <= -2: the units start
    # -2 - shoot_from cm apart and every Action is chosen by the policy
    distance = shoot_from if shoot_from >= 0 else (0 if shoot_from == -1 else -2 - shoot_from)
    top = 0
    activations = 0
    end = rounds * TS_PER_ROUND
    while (state[0, State.ALIVE] > 0 and state[1, State.ALIVE] > 0
           and not (state[0, State.DONE] and state[1, State.DONE])):
        p = _active(state, top)
        spent = 0
        taken = 0
        while taken < side[p, Side.ACTIONS] and state[0, State.ALIVE] > 0 and state[1, State.ALIVE] > 0:
            opening = activations == 0 and taken == 0
            action = _choose_action(side, p, engaged, distance, shoot_from >= 0, opening)
            cost = _action_cost(side, state, p, action)
            if spent + cost > MAX_ACTION_TS or state[p, State.POSITION] + spent + cost > end:
                break
            engaged = engaged or action == Action.CHARGE or action == Action.ATTACK
            distance = _act(dice, side, state, p, action, distance)
            if action == Action.CHARGE or action == Action.ATTACK:
                _pay_heroic(state, 1 - p, side[1 - p, Side.HEROIC_PASSIVE])
            spent += cost
            taken += 1
            if opening:  # what side 0's opening action (the first of its first activation) cost each side
                _note_opening(side, state, cost)
        if taken == 0:
            # no Action fits: the token goes to START (its Headquarters Phase) and the game ends for this side
            _move_token(state, p, end)
            state[p, State.DONE] = 1
            continue
        activations += 1
        _spend(state, p, spent)
        top = p
        for s in range(2):  # the passive side may have paid its Heroic Action dice (DK-heroic-passive)
            if state[s, State.POSITION] >= end:
                state[s, State.DONE] = 1
    return _engagement_outcome(state), activations


# --- drivers ---------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _start(side, state):
    """A fresh trial: every side as it enters, nothing counted yet."""
    state[:, :] = 0
    for s in range(2):
        state[s, State.ALIVE] = side[s, Side.SIZE]
        state[s, State.TOKENS] = side[s, Side.TOKENS]
        state[s, State.STRESS] = side[s, Side.STRESS]


@nb.njit(**JIT)
def _chunk(bank, seed, chunk, total_trials, chunk_trials, chain):
    """What a chunk of Fights or Shootings starts with: its dice (on its stream), a state matrix and its
    number of trials."""
    stream, trials = chunk_stream(seed, chunk, total_trials, chunk_trials)
    return _dice(stream, chain, bank), np.empty((2, N_STATE), np.int64), trials


@nb.njit(**JIT)
def _block(bank, chain):
    """What a chunk or block of engagements starts with: dice whose stream each trial reseeds, and a
    state matrix."""
    return _dice(np.empty(STATE_WORDS, np.uint64), chain, bank), np.empty((2, N_STATE), np.int64)


@nb.njit(**TRIAL_JIT)
def _count(out, i, row, value):
    """One count of ``value`` in ``row`` of chunk i's histogram (values past the end in its last column)."""
    last = out.shape[2] - 1
    if value < last:
        out[i, row, value] += 1
    else:
        out[i, row, last] += 1


@nb.njit(**TRIAL_JIT)
def _fight_trial(dice, side, state, charged):
    """One Fight from a fresh start, side 0 acting."""
    _start(side, state)
    return _fight(dice, side, state, _0, charged)


@nb.njit(**TRIAL_JIT)
def _shooting_trial(dice, side, state, distance):
    """One Shooting from a fresh start."""
    _start(side, state)
    return _shoot(dice, side, state, _0, distance)


@nb.njit(**JIT)
def _fight_chunks(bank, side, charged, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One Fight per trial, side 0 acting (a Charge when ``charged``). Returns the chunks run: fewer when a
    trial met a stage table its bank lacked (simcore.runner builds it and runs that chunk again).

    out: int64[n_chunks, len(FightRow), L], rows FightRow. Values >= L - 1 share the last column.
    """
    for i in range(out.shape[0]):
        out[i] = 0
        dice, state, trials = _chunk(bank, seed, first_chunk + i, total_trials, chunk_trials, chain)
        for _ in range(trials):
            winner, morale = _fight_trial(dice, side, state, charged)
            if missing(bank):
                return i
            _count(out, i, FightRow.REMOVED_0, state[0, State.REMOVED])
            _count(out, i, FightRow.REMOVED_1, state[1, State.REMOVED])
            _count(out, i, FightRow.OUTCOME, _fight_outcome(winner, morale))
            _count(out, i, FightRow.INFLICTED_0, state[0, State.INFLICTED])
            _count(out, i, FightRow.INFLICTED_1, state[1, State.INFLICTED])
            _count(out, i, FightRow.CASUALTIES_0, side[0, Side.SIZE] - state[0, State.ALIVE])
            _count(out, i, FightRow.CASUALTIES_1, side[1, Side.SIZE] - state[1, State.ALIVE])
    return out.shape[0]


@nb.njit(**JIT)
def _shooting_chunks(bank, side, distance, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One Shooting of side 0 at side 1 per trial; returns the chunks run (as :func:`_fight_chunks`).

    out: int64[n_chunks, len(ShootingRow), L], rows ShootingRow (MORALE: a Morale code, NO_ROLL included).
    """
    for i in range(out.shape[0]):
        out[i] = 0
        dice, state, trials = _chunk(bank, seed, first_chunk + i, total_trials, chunk_trials, chain)
        for _ in range(trials):
            morale = _shooting_trial(dice, side, state, distance)
            if missing(bank):
                return i
            _count(out, i, ShootingRow.REMOVED, state[1, State.REMOVED])
            _count(out, i, ShootingRow.INFLICTED, state[0, State.INFLICTED])
            _count(out, i, ShootingRow.MORALE, morale)
            _count(out, i, ShootingRow.CASUALTIES, side[1, Side.SIZE] - state[1, State.ALIVE])
    return out.shape[0]


@nb.njit(**TRIAL_JIT)
def _engagement_trial(dice, side, state, shoot_from, rounds, seed, trial):
    """Trial ``trial`` of an engagement run seeded ``seed``, on the trial's own stream."""
    _start_trial(dice, seed, trial)
    _start(side, state)
    return _engagement(dice, side, state, shoot_from, rounds)


@nb.njit(**JIT)
def _engagement_chunks(bank, side, shoot_from, rounds, chain, seed, first_chunk, total_trials, chunk_trials,
                       out):
    """One engagement per trial (trial t on its trial stream, whatever chunk runs it); returns the chunks
    run (as :func:`_fight_chunks`).

    out: int64[n_chunks, len(EngagementRow), L], rows EngagementRow. Values >= L - 1 share the last column.
    """
    dice, state = _block(bank, chain)
    for i in range(out.shape[0]):
        out[i] = 0
        start = (first_chunk + i) * chunk_trials
        for trial in range(start, min(start + chunk_trials, total_trials)):
            outcome, activations = _engagement_trial(dice, side, state, shoot_from, rounds, seed, trial)
            if missing(bank):
                return i
            _count(out, i, EngagementRow.OUTCOME, outcome)
            _count(out, i, EngagementRow.INJURIES_0, state[1, State.INFLICTED])
            _count(out, i, EngagementRow.INJURIES_1, state[0, State.INFLICTED])
            _count(out, i, EngagementRow.LOST_0, side[0, Side.SIZE] - state[0, State.ALIVE])
            _count(out, i, EngagementRow.LOST_1, side[1, Side.SIZE] - state[1, State.ALIVE])
            _count(out, i, EngagementRow.TS_0, state[0, State.SPENT])
            _count(out, i, EngagementRow.TS_1, state[1, State.SPENT])
            _count(out, i, EngagementRow.ACTIVATIONS, activations)
    return out.shape[0]


@nb.njit(**JIT)
def _engagement_records(bank, side, shoot_from, rounds, chain, seed, first_trial, out):
    """One engagement per trial, recorded (simcore.runner's records contract); returns the trials run
    (fewer when one met a stage table its bank lacked: the runner builds it and goes on from that trial).

    out: int64[n, len(Record)]; ``out[k]`` is trial ``first_trial + k``, columns Record.
    """
    dice, state = _block(bank, chain)
    for k in range(out.shape[0]):
        outcome, activations = _engagement_trial(dice, side, state, shoot_from, rounds, seed, first_trial + k)
        if missing(bank):
            return k
        out[k, Record.OUTCOME] = outcome
        out[k, Record.LOST_0] = side[0, Side.SIZE] - state[0, State.ALIVE]
        out[k, Record.LOST_1] = side[1, Side.SIZE] - state[1, State.ALIVE]
        out[k, Record.INJURIES_0] = state[1, State.INFLICTED]
        out[k, Record.INJURIES_1] = state[0, State.INFLICTED]
        out[k, Record.TS_0] = state[0, State.SPENT]
        out[k, Record.TS_1] = state[1, State.SPENT]
        out[k, Record.ACTIVATIONS] = activations
        out[k, Record.OPENING_LOST_0] = state[0, State.OPENING_LOST]
        out[k, Record.OPENING_LOST_1] = state[1, State.OPENING_LOST]
        out[k, Record.OPENING_INJURIES_0] = state[0, State.OPENING_INJURIES]
        out[k, Record.OPENING_INJURIES_1] = state[1, State.OPENING_INJURIES]
        out[k, Record.OPENING_TS] = state[0, State.OPENING_TS]
    return out.shape[0]
