"""Drakerys Fight, Shooting and engagement kernels (private; see rulesets/drakerys/fight.py for the rules
they follow and the enums naming every column, row and code, and simcore/runner.py for the chunk and
records contracts).

Two things travel through every helper:

* ``pair``: int64[2, N_PAIR], one row per side: its Side columns (built by ``fight.side_array``), then its
  State columns, the trial's state (:class:`State` numbers them after Side's); made once per chunk or block
  of trials (:func:`_pair`) and its State columns reset by :func:`_start`. One matrix for both, as numba
  counts a reference to each array a call passes: the sides' and the state's matrices made two counts a
  call.
* ``dice``: the thread's stage bank (simcore.stages), one uint64 array that is also the trial's random
  stream, followed by its per-roll substream keys and the DK-crit-chain ruling (:data:`TRIAL_KEY` ...):
  one array for all the dice, as numba counts references to each array a call passes. Every roll of known
  dice (an attack, a block, an injury roll, a Morale roll, the Safeguard dice) is one draw from its exact
  distribution, die by die only beyond the bank's range or with a ``by_die`` bank.

Where a helper taking them has branches (``if``, ``and``, ``or``, several returns), the references numba
takes on them at its entry often outlive LLVM's inlining: its pruning removes the pair of counts only when
they meet in one basic block, or in a plain diamond. So the getters a strike calls several times
(``_charge_bonus``, ``_power``, ``_strikes``) join their conditions with ``&`` and ``|`` and return once,
and cost no count (see docs/performance.md).

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
    N_PAIR,
    N_SIDE,
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
def _charge_bonus(pair, s, charger):
    """1 when side s charged and keeps the Charge bonus (Reach cancels it unless Martial Arts; no bonus for
    a Sharpshooter). Without branches, as ``_power`` and ``_strikes``: see the module docstring."""
    kept = (pair[1 - s, Side.REACH] == 0) | (pair[s, Side.MARTIAL_ARTS] != 0)
    return np.int64((charger == s) & (pair[s, Side.SHARPSHOOTER] == 0) & kept)


@nb.njit(**TRIAL_JIT)
def _initiative(pair, s, charger):
    return pair[s, Side.INITIATIVE] + pair[s, Side.ALLIES_ENGAGED] + _charge_bonus(pair, s, charger)


@nb.njit(**TRIAL_JIT)
def _combat(pair, s, charger):
    return pair[s, Side.COMBAT] + _charge_bonus(pair, s, charger)


@nb.njit(**TRIAL_JIT)
def _power(pair, s, charger):
    """Power in a Fight: Berserker +1 per Stress marker, Brutal Charge +1 after charging."""
    power = pair[s, Side.POWER] + pair[s, Side.BERSERKER] * pair[s, State.STRESS]
    return power + np.int64(charger == s) * pair[s, Side.BRUTAL_CHARGE]


@nb.njit(**TRIAL_JIT)
def _resistance(pair, s):
    """Resistance, Berserker -1 per Stress marker (minimum 0)."""
    return max(0, pair[s, Side.RESISTANCE] - pair[s, Side.BERSERKER] * pair[s, State.STRESS])


# --- step 2: who strikes when ----------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _strike_order(pair, charger):
    """The side that strikes first, or -1 when both strike at once (equal Initiative)."""
    first = _initiative(pair, _0, charger)
    second = _initiative(pair, _1, charger)
    if first == second:
        return -1
    return 0 if first > second else 1


@nb.njit(**TRIAL_JIT)
def _strikes(pair, s):
    """Side s strikes: both sides have warriors, and s neither blocks nor is an Object."""
    return ((pair[s, State.ALIVE] > 0) & (pair[1 - s, State.ALIVE] > 0) & (pair[s, Side.OBJECT] == 0)
            & (pair[s, State.BLOCKING_NOW] == 0))


# --- step 3: a strike ------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _attack_dice(pair, s, charger):
    """Full-power warriors x Power + supporting warriors x 1 (DK-frontage) + the Heroic Action dice it adds
    to this Fight (State.HEROIC_NOW, set by _fight)."""
    alive = pair[s, State.ALIVE]
    frontage = pair[s, Side.FRONTAGE]
    full = alive if frontage < 0 else min(frontage, alive)
    support = pair[s, Side.SUPPORT]  # "The other Warriors do not Attack"
    behind = alive - full if support < 0 else min(support, alive - full)
    return full * _power(pair, s, charger) + behind + pair[s, State.HEROIC_NOW]


@nb.njit(**TRIAL_JIT)
def _attack_roll(dice, pair, s, charger, crits):
    """Side s's attack roll (also its Blocking roll): (successes, criticals if ``crits``)."""
    threshold = _threshold(_combat(pair, s, charger), _combat(pair, 1 - s, charger))
    return _roll(dice, _attack_dice(pair, s, charger), threshold, _EXPLODE,
                 pair[s, Side.SWASHBUCKLER] != 0, pair[s, Side.REROLLS], crits)


@nb.njit(**TRIAL_JIT)
def _injury_mode(pair, s, ignores_parry, engaged):
    """How the criticals of side s's injury rolls count against the enemy.

    Martial Arts works against the units a unit is engaged with: the striker's ignores the enemy's
    Parry, the target's ignores the striker's Violent Blow.
    """
    e = 1 - s
    if ignores_parry or (engaged and pair[s, Side.MARTIAL_ARTS]):
        return TOP_EXPLODE
    if pair[s, Side.VIOLENT_BLOW] and not (engaged and pair[e, Side.MARTIAL_ARTS]):
        return TOP_EXPLODE
    if pair[e, Side.EXPERT_PARRY]:
        return TOP_FAIL
    if pair[e, Side.PARRY]:
        return TOP_SUCCESS
    return TOP_EXPLODE


@nb.njit(**TRIAL_JIT)
def _strike(dice, pair, s, charger):
    """Injuries side s inflicts with one strike (the enemy may block it)."""
    e = 1 - s
    deadly = pair[s, Side.DEADLY_BLOW] != 0
    hits, automatic = _attack_roll(dice, pair, s, charger, deadly)
    if pair[e, State.BLOCKING_NOW] and pair[e, State.ALIVE] > 0 and not pair[e, Side.OBJECT]:
        blocks, _ = _attack_roll(dice, pair, e, charger, _NO)
        hits = max(0, hits - blocks)
    threshold = _threshold(pair[s, Side.STRENGTH], _resistance(pair, e))
    wounds, _ = _roll(dice, hits, threshold, _injury_mode(pair, s, _NO, _YES), _NO, _0, _NO)
    return wounds + automatic


# --- step 4: injuries received ---------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _receive(dice, pair, s, injuries):
    """Side s receives ``injuries`` from the other side: Safeguard (one d10 per injury, drawn whole from the
    current stream), then one warrior withdrawn per leader's Health of tokens. Counts them in the state;
    returns the warriors removed.

    SAFEGUARD: "Each result of 10 cancels an Injury. Each result between 6 and 9 makes it possible to
    transfer an Injury to an Allied Unit endowed with Guard": with no room in a Guard unit (Side.GUARD 0)
    only the 10s leave; with a duel's stand-in escort (GUARD_UNLIMITED) every die of 6 or more leaves; with
    a battle's Guard unit that can take ``room`` more injuries, the dice of 6 or more are split into 10s and
    6-9s (a die of 6 or more is a 10 with probability 1/5) and min(6-9s, room) move to it
    (State.TRANSFERRED; the battle wounds the Guard unit after the Action)."""
    pair[1 - s, State.INFLICTED] += injuries
    kept = injuries
    room = pair[s, Side.GUARD]
    if pair[s, Side.SAFEGUARD] and injuries > 0:
        leaves_from = SAFEGUARD_GUARD_FACE if room > 0 else SAFEGUARD_CANCEL_FACE
        # the injuries that stay are the dice below leaves_from: the failures of a roll at that threshold
        leave, _ = success_draw(dice, dice, injuries, leaves_from, _PLAIN_TOP, _NO, _NO, _0, _NO)
        if 0 < room < GUARD_UNLIMITED and leave > 0:
            tens, _ = success_draw(dice, dice, leave, SAFEGUARD_TEN_OF_SIX_UP, _PLAIN_TOP, _NO, _NO, _0,
                                   _NO)
            moved = min(leave - tens, room)
            leave = tens + moved
            pair[s, Side.GUARD] = room - moved
            pair[s, State.TRANSFERRED] += moved
        kept = injuries - leave
    pair[s, State.TOKENS] += kept
    removed = 0
    health = pair[s, Side.HEALTH]
    while pair[s, State.TOKENS] >= health and pair[s, State.ALIVE] > 0:
        pair[s, State.TOKENS] -= health
        pair[s, State.ALIVE] -= 1
        removed += 1
    if pair[s, State.ALIVE] == 0:
        pair[s, State.TOKENS] = 0
    pair[s, State.REMOVED] += removed
    return removed


@nb.njit(**TRIAL_JIT)
def _exchange(dice, pair, charger):
    """Steps 2 to 4: both sides strike in Initiative order, casualties removed between strikes. Returns
    the injuries side 0 and side 1 dealt."""
    first = _strike_order(pair, charger)
    together = first < 0
    dealt0 = _0
    dealt1 = _0
    for k in range(2):
        s = k if together else (first if k == 0 else 1 - first)
        dealt = _strike(dice, pair, s, charger) if _strikes(pair, s) else _0
        if s == 0:
            dealt0 = dealt
        else:
            dealt1 = dealt
        if not together:
            _receive(dice, pair, 1 - s, dealt)
    if together:
        # equal Initiative: both strike at once, then both remove their casualties
        _receive(dice, pair, _1, dealt0)
        _receive(dice, pair, _0, dealt1)
    return dealt0, dealt1


# --- steps 5 and 6: the winner and the loser's Morale ----------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _advantage(pair, s, charged, dealt, suffered):
    """Side s's Advantage Value: +1 for charging, for inflicting more injuries, for more warriors, for
    fewer Stress markers."""
    e = 1 - s
    value = 1 if charged else 0
    if dealt > suffered:
        value += 1
    if pair[s, State.ALIVE] > pair[e, State.ALIVE]:
        value += 1
    if pair[s, State.STRESS] < pair[e, State.STRESS]:
        value += 1
    return value


@nb.njit(**TRIAL_JIT)
def _winner(pair, trigger, charged, dealt0, dealt1):
    """Step 5: (Winner, the winner's Advantage minus the loser's: the loser's Morale opposition, 0 when
    no Morale roll is taken)."""
    if pair[0, State.ALIVE] == 0 and pair[1, State.ALIVE] == 0:
        return Winner.NONE, 0
    if pair[1, State.ALIVE] == 0:
        return Winner.SIDE_0, 0
    if pair[0, State.ALIVE] == 0:
        return Winner.SIDE_1, 0
    adv0 = _advantage(pair, _0, charged and trigger == 0, dealt0, dealt1)
    adv1 = _advantage(pair, _1, charged and trigger == 1, dealt1, dealt0)
    if adv0 == adv1:
        return Winner.BOTH, 0
    if adv0 > adv1:
        return Winner.SIDE_0, adv0 - adv1
    return Winner.SIDE_1, adv1 - adv0


@nb.njit(**TRIAL_JIT)
def _morale(dice, pair, s, opposition, engaged):
    """Side s's Morale roll (Morale code); an Object takes none and stays steady."""
    if pair[s, Side.OBJECT]:
        return Morale.STEADY
    e = 1 - s
    n = (MORALE_DICE + pair[s, State.ALIVE] // MORALE_WARRIORS_PER_DIE + pair[s, Side.DISCIPLINE]
         + pair[s, Side.AUTHORITY])
    will = pair[s, Side.WILLPOWER]
    if engaged and pair[e, Side.DREADFUL] and not pair[s, Side.DREADFUL]:
        will -= 1
    successes, _ = _roll(dice, n, _threshold(will, opposition), _EXPLODE, _NO, _0, _NO)
    successes += pair[s, Side.BERSERKER]
    return Morale.STEADY if successes >= Morale.STEADY else successes


@nb.njit(**TRIAL_JIT)
def _suffer_morale(pair, s, morale):
    """The effect of side s's Morale roll: a scatter withdraws every warrior, stress adds a marker."""
    if morale == Morale.SCATTER:
        pair[s, State.ALIVE] = 0
        pair[s, State.TOKENS] = 0
    elif morale == Morale.STRESS:
        pair[s, State.STRESS] += 1


@nb.njit(**TRIAL_JIT)
def _fight(dice, pair, trigger, charged):
    """One Fight triggered by side ``trigger`` (a Charge when ``charged``), the loser's Morale applied.

    Returns (Winner, the loser's Morale or Morale.NO_ROLL). HEROIC ACTION: the Active Unit (``trigger``)
    adds its Heroic Action dice, the other only under DK-heroic-passive=own-ts (Side.HEROIC_PASSIVE).
    """
    pair[trigger, State.HEROIC_NOW] = pair[trigger, Side.HEROIC]
    pair[1 - trigger, State.HEROIC_NOW] = pair[1 - trigger, Side.HEROIC_PASSIVE]
    # BLOCKING "replaces its Attack" in the kinds of Fight its policy chose (Side.BLOCKING, bits BlockIn)
    kind = BlockIn.CHARGING if charged else BlockIn.ATTACKING
    pair[trigger, State.BLOCKING_NOW] = (pair[trigger, Side.BLOCKING] >> kind) & 1
    passive = kind + BlockIn.CHARGED
    pair[1 - trigger, State.BLOCKING_NOW] = (pair[1 - trigger, Side.BLOCKING] >> passive) & 1
    dealt0, dealt1 = _exchange(dice, pair, trigger if charged else -1)
    winner, margin = _winner(pair, trigger, charged, dealt0, dealt1)
    if margin == 0:
        return winner, Morale.NO_ROLL
    loser = 1 - winner
    morale = _morale(dice, pair, loser, margin, _YES)
    _suffer_morale(pair, loser, morale)
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
def _shooting_opposition(pair, s, distance):
    """Every 10 cm-share begun, each Stress marker of the shooter, each obstacle, a Sharpshooter target."""
    shares = (distance + SHOOTING_SHARE_CM - 1) // SHOOTING_SHARE_CM
    return shares + pair[s, State.STRESS] + pair[s, Side.OBSTACLES] + pair[1 - s, Side.SHARPSHOOTER]


@nb.njit(**TRIAL_JIT)
def _shoot(dice, pair, s, distance):
    """Side s shoots at the other from ``distance`` cm, the target's Morale applied. Returns the target's
    Morale (NO_ROLL unless it lost a warrior and still stands)."""
    e = 1 - s
    power = (pair[s, Side.POWER] + MULTIPLE_SHOTS_POWER * pair[s, Side.MULTIPLE_SHOTS]
             + pair[s, Side.BERSERKER] * pair[s, State.STRESS])
    n = pair[s, State.ALIVE] * power + pair[s, Side.HEROIC]
    threshold = _threshold(pair[s, Side.SHOOTING], _shooting_opposition(pair, s, distance))
    hits, automatic = _roll(dice, n, threshold, _EXPLODE, _NO, _0, pair[s, Side.DEADLY_BLOW] != 0)
    threshold = _threshold(pair[s, Side.WEAPON_STRENGTH], _resistance(pair, e))
    wounds, _ = _roll(dice, hits, threshold, _injury_mode(pair, s, pair[s, Side.IGNORES_PARRY] != 0, _NO),
                      _NO, _0, _NO)
    removed = _receive(dice, pair, e, wounds + automatic)
    if removed > 0 and pair[e, State.ALIVE] > 0:
        morale = _morale(dice, pair, e, pair[s, Side.SATURATION], _NO)
        _suffer_morale(pair, e, morale)
        return morale
    return Morale.NO_ROLL


# --- an engagement on the TimePath -----------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _active(pair, top):
    """ACTIVE PLAYER: the token furthest behind, the one on top of the pile on a tie (``top``); a side
    whose token reached the last START plays no more."""
    if pair[0, State.DONE]:
        return 1
    if pair[1, State.DONE]:
        return 0
    if pair[0, State.POSITION] != pair[1, State.POSITION]:
        return 0 if pair[0, State.POSITION] < pair[1, State.POSITION] else 1
    return top


@nb.njit(**TRIAL_JIT)
def _choose_action(pair, p, engaged, distance, opening_shot, opening):
    """The unit's best available Action: a forced opening Shooting (``opening_shot``); Attack when
    Engaged; else Shooting when it has a ranged weapon and the enemy is in range (and not in contact);
    else Charge when the enemy is within its Charge; else March."""
    if opening and opening_shot:
        return Action.SHOOT
    if engaged:
        return Action.ATTACK
    reach = pair[p, Side.WEAPON_RANGE]
    if reach >= 0 and pair[p, Side.SHOOTING] >= 0 and 1 <= distance <= reach:
        return Action.SHOOT
    if distance <= pair[p, Side.CHARGE]:
        return Action.CHARGE
    return Action.MARCH


@nb.njit(**TRIAL_JIT)
def _action_cost(pair, p, action):
    """TS of an action: its base cost, +1 per Stress marker, +1 per Heroic Action die rolled with it;
    Quick Shot takes 1 off a Shooting (minimum 1). An activation may not spend more than the TimePath's
    16 TS in all (see _engagement)."""
    if action == Action.CHARGE:
        cost = pair[p, Side.CHARGE_TS]
    elif action == Action.ATTACK:
        cost = ATTACK_TS
    elif action == Action.SHOOT:
        cost = SHOOTING_TS
    else:
        cost = MARCH_TS
    cost += pair[p, State.STRESS]
    if action != Action.MARCH:
        cost += pair[p, Side.HEROIC]
    if action == Action.SHOOT:
        cost = max(1, cost - QUICK_SHOT_TS * pair[p, Side.QUICK_SHOT])
    return cost


@nb.njit(**TRIAL_JIT)
def _act(dice, pair, p, action, distance):
    """Side p's action, its Morale effects applied. Returns the distance between the units after it."""
    if action == Action.SHOOT:
        _shoot(dice, pair, p, distance)
    elif action == Action.MARCH:
        distance = max(1, distance - pair[p, Side.MARCH])
    else:
        _fight(dice, pair, p, action == Action.CHARGE)
    return distance


@nb.njit(**TRIAL_JIT)
def _move_token(pair, p, to):
    """Side p's Activation Token moves to square ``to``: a Headquarters Phase (one Stress marker off) each
    time it reaches or passes START."""
    phases = to // TS_PER_ROUND - pair[p, State.POSITION] // TS_PER_ROUND
    pair[p, State.POSITION] = to
    for _ in range(phases):
        pair[p, State.STRESS] = max(0, pair[p, State.STRESS] - 1)


@nb.njit(**TRIAL_JIT)
def _spend(pair, p, cost):
    """After side p's activation: TS spent, +1 Stress, the token moved."""
    pair[p, State.SPENT] += cost
    pair[p, State.STRESS] += 1
    _move_token(pair, p, pair[p, State.POSITION] + cost)


@nb.njit(**TRIAL_JIT)
def _pay_heroic(pair, e, dice):
    """The unit that fought back paid its Heroic Action dice: 1 TS each on its own token, no Stress."""
    if dice > 0:
        pair[e, State.SPENT] += dice
        _move_token(pair, e, pair[e, State.POSITION] + dice)


@nb.njit(**TRIAL_JIT)
def _note_opening(pair, cost):
    """What side 0's opening action cost each side: warriors lost, injuries suffered, side 0's TS."""
    for s in range(2):
        pair[s, State.OPENING_LOST] = pair[s, Side.SIZE] - pair[s, State.ALIVE]
        pair[s, State.OPENING_INJURIES] = pair[1 - s, State.INFLICTED]
    pair[0, State.OPENING_TS] = cost


@nb.njit(**TRIAL_JIT)
def _engagement_outcome(pair):
    if pair[0, State.ALIVE] == 0 and pair[1, State.ALIVE] == 0:
        return EngagementOutcome.BOTH_DESTROYED
    if pair[1, State.ALIVE] == 0:
        return EngagementOutcome.SIDE_0_WINS
    if pair[0, State.ALIVE] == 0:
        return EngagementOutcome.SIDE_1_WINS
    return EngagementOutcome.NEITHER


@nb.njit(**TRIAL_JIT)
def _engagement(dice, pair, shoot_from, rounds):
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
    while (pair[0, State.ALIVE] > 0 and pair[1, State.ALIVE] > 0
           and not (pair[0, State.DONE] and pair[1, State.DONE])):
        p = _active(pair, top)
        spent = 0
        taken = 0
        while taken < pair[p, Side.ACTIONS] and pair[0, State.ALIVE] > 0 and pair[1, State.ALIVE] > 0:
            opening = activations == 0 and taken == 0
            action = _choose_action(pair, p, engaged, distance, shoot_from >= 0, opening)
            cost = _action_cost(pair, p, action)
            if spent + cost > MAX_ACTION_TS or pair[p, State.POSITION] + spent + cost > end:
                break
            engaged = engaged or action == Action.CHARGE or action == Action.ATTACK
            distance = _act(dice, pair, p, action, distance)
            if action == Action.CHARGE or action == Action.ATTACK:
                _pay_heroic(pair, 1 - p, pair[1 - p, Side.HEROIC_PASSIVE])
            spent += cost
            taken += 1
            if opening:  # what side 0's opening action (the first of its first activation) cost each side
                _note_opening(pair, cost)
        if taken == 0:
            # no Action fits: the token goes to START (its Headquarters Phase) and the game ends for this side
            _move_token(pair, p, end)
            pair[p, State.DONE] = 1
            continue
        activations += 1
        _spend(pair, p, spent)
        top = p
        for s in range(2):  # the passive side may have paid its Heroic Action dice (DK-heroic-passive)
            if pair[s, State.POSITION] >= end:
                pair[s, State.DONE] = 1
    return _engagement_outcome(pair), activations


# --- drivers ---------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _start(pair):
    """A fresh trial: every side as it enters, nothing counted yet (the pair's State columns)."""
    pair[:, N_SIDE:] = 0
    for s in range(2):
        pair[s, State.ALIVE] = pair[s, Side.SIZE]
        pair[s, State.TOKENS] = pair[s, Side.TOKENS]
        pair[s, State.STRESS] = pair[s, Side.STRESS]


@nb.njit(**JIT)
def _pair(side):
    """The pair of a chunk or block of trials: ``side``'s rows (int64[2, N_SIDE]), then the trial's state
    (State columns, set by :func:`_start`)."""
    pair = np.zeros((2, N_PAIR), np.int64)
    pair[:, :N_SIDE] = side
    return pair


@nb.njit(**JIT)
def _chunk(bank, side, seed, chunk, total_trials, chunk_trials, chain):
    """What a chunk of Fights or Shootings starts with: its dice (on its stream), its pair and its number
    of trials."""
    stream, trials = chunk_stream(seed, chunk, total_trials, chunk_trials)
    return _dice(stream, chain, bank), _pair(side), trials


@nb.njit(**JIT)
def _block(bank, chain, side):
    """What a chunk or block of engagements starts with: dice whose stream each trial reseeds, and its
    pair."""
    return _dice(np.empty(STATE_WORDS, np.uint64), chain, bank), _pair(side)


@nb.njit(**TRIAL_JIT)
def _count(out, i, row, value):
    """One count of ``value`` in ``row`` of chunk i's histogram (values past the end in its last column)."""
    last = out.shape[2] - 1
    if value < last:
        out[i, row, value] += 1
    else:
        out[i, row, last] += 1


@nb.njit(**TRIAL_JIT)
def _fight_trial(dice, pair, charged):
    """One Fight from a fresh start, side 0 acting."""
    _start(pair)
    return _fight(dice, pair, _0, charged)


@nb.njit(**TRIAL_JIT)
def _shooting_trial(dice, pair, distance):
    """One Shooting from a fresh start."""
    _start(pair)
    return _shoot(dice, pair, _0, distance)


@nb.njit(**JIT)
def _fight_chunks(bank, side, charged, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One Fight per trial, side 0 acting (a Charge when ``charged``). Returns the chunks run: fewer when a
    trial met a stage table its bank lacked (simcore.runner builds it and runs that chunk again).

    out: int64[n_chunks, len(FightRow), L], rows FightRow. Values >= L - 1 share the last column.
    """
    for i in range(out.shape[0]):
        out[i] = 0
        dice, pair, trials = _chunk(bank, side, seed, first_chunk + i, total_trials, chunk_trials, chain)
        for _ in range(trials):
            winner, morale = _fight_trial(dice, pair, charged)
            if missing(bank):
                return i
            _count(out, i, FightRow.REMOVED_0, pair[0, State.REMOVED])
            _count(out, i, FightRow.REMOVED_1, pair[1, State.REMOVED])
            _count(out, i, FightRow.OUTCOME, _fight_outcome(winner, morale))
            _count(out, i, FightRow.INFLICTED_0, pair[0, State.INFLICTED])
            _count(out, i, FightRow.INFLICTED_1, pair[1, State.INFLICTED])
            _count(out, i, FightRow.CASUALTIES_0, pair[0, Side.SIZE] - pair[0, State.ALIVE])
            _count(out, i, FightRow.CASUALTIES_1, pair[1, Side.SIZE] - pair[1, State.ALIVE])
    return out.shape[0]


@nb.njit(**JIT)
def _shooting_chunks(bank, side, distance, chain, seed, first_chunk, total_trials, chunk_trials, out):
    """One Shooting of side 0 at side 1 per trial; returns the chunks run (as :func:`_fight_chunks`).

    out: int64[n_chunks, len(ShootingRow), L], rows ShootingRow (MORALE: a Morale code, NO_ROLL included).
    """
    for i in range(out.shape[0]):
        out[i] = 0
        dice, pair, trials = _chunk(bank, side, seed, first_chunk + i, total_trials, chunk_trials, chain)
        for _ in range(trials):
            morale = _shooting_trial(dice, pair, distance)
            if missing(bank):
                return i
            _count(out, i, ShootingRow.REMOVED, pair[1, State.REMOVED])
            _count(out, i, ShootingRow.INFLICTED, pair[0, State.INFLICTED])
            _count(out, i, ShootingRow.MORALE, morale)
            _count(out, i, ShootingRow.CASUALTIES, pair[1, Side.SIZE] - pair[1, State.ALIVE])
    return out.shape[0]


@nb.njit(**TRIAL_JIT)
def _engagement_trial(dice, pair, shoot_from, rounds, seed, trial):
    """Trial ``trial`` of an engagement run seeded ``seed``, on the trial's own stream."""
    _start_trial(dice, seed, trial)
    _start(pair)
    return _engagement(dice, pair, shoot_from, rounds)


@nb.njit(**JIT)
def _engagement_chunks(bank, side, shoot_from, rounds, chain, seed, first_chunk, total_trials, chunk_trials,
                       out):
    """One engagement per trial (trial t on its trial stream, whatever chunk runs it); returns the chunks
    run (as :func:`_fight_chunks`).

    out: int64[n_chunks, len(EngagementRow), L], rows EngagementRow. Values >= L - 1 share the last column.
    """
    dice, pair = _block(bank, chain, side)
    for i in range(out.shape[0]):
        out[i] = 0
        start = (first_chunk + i) * chunk_trials
        for trial in range(start, min(start + chunk_trials, total_trials)):
            outcome, activations = _engagement_trial(dice, pair, shoot_from, rounds, seed, trial)
            if missing(bank):
                return i
            _count(out, i, EngagementRow.OUTCOME, outcome)
            _count(out, i, EngagementRow.INJURIES_0, pair[1, State.INFLICTED])
            _count(out, i, EngagementRow.INJURIES_1, pair[0, State.INFLICTED])
            _count(out, i, EngagementRow.LOST_0, pair[0, Side.SIZE] - pair[0, State.ALIVE])
            _count(out, i, EngagementRow.LOST_1, pair[1, Side.SIZE] - pair[1, State.ALIVE])
            _count(out, i, EngagementRow.TS_0, pair[0, State.SPENT])
            _count(out, i, EngagementRow.TS_1, pair[1, State.SPENT])
            _count(out, i, EngagementRow.ACTIVATIONS, activations)
    return out.shape[0]


@nb.njit(**JIT)
def _engagement_records(bank, side, shoot_from, rounds, chain, seed, first_trial, out):
    """One engagement per trial, recorded (simcore.runner's records contract); returns the trials run
    (fewer when one met a stage table its bank lacked: the runner builds it and goes on from that trial).

    out: int64[n, len(Record)]; ``out[k]`` is trial ``first_trial + k``, columns Record.
    """
    dice, pair = _block(bank, chain, side)
    for k in range(out.shape[0]):
        outcome, activations = _engagement_trial(dice, pair, shoot_from, rounds, seed, first_trial + k)
        if missing(bank):
            return k
        out[k, Record.OUTCOME] = outcome
        out[k, Record.LOST_0] = pair[0, Side.SIZE] - pair[0, State.ALIVE]
        out[k, Record.LOST_1] = pair[1, Side.SIZE] - pair[1, State.ALIVE]
        out[k, Record.INJURIES_0] = pair[1, State.INFLICTED]
        out[k, Record.INJURIES_1] = pair[0, State.INFLICTED]
        out[k, Record.TS_0] = pair[0, State.SPENT]
        out[k, Record.TS_1] = pair[1, State.SPENT]
        out[k, Record.ACTIVATIONS] = activations
        out[k, Record.OPENING_LOST_0] = pair[0, State.OPENING_LOST]
        out[k, Record.OPENING_LOST_1] = pair[1, State.OPENING_LOST]
        out[k, Record.OPENING_INJURIES_0] = pair[0, State.OPENING_INJURIES]
        out[k, Record.OPENING_INJURIES_1] = pair[1, State.OPENING_INJURIES]
        out[k, Record.OPENING_TS] = pair[0, State.OPENING_TS]
    return out.shape[0]
