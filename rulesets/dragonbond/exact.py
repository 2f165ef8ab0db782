"""Exact distributions of Dragonbond rolls: an action pool's successes, doubles and criticals, a defense
pool's blocks, and an attack's hits, wounds and models killed (seed 000, "Performing an Attack", 691-757).

Every distribution is a float64 PMF built by convolving the dice one at a time from their exact face
probabilities (rulesets.dragonbond.dice); the only approximation is Sharp under DB-sharp=extra-die, whose
chain of criticals is unbounded: it is cut where a die's next critical has probability below 1e-18, and the
mass cut is reported (``tail``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from rulesets.base import RulesError
from rulesets.dragonbond.dice import (
    ACTION,
    BLANK,
    CRITICAL,
    DEFENSE,
    DOUBLE,
    SUCCESS,
    Pool,
    action_face_probabilities,
    block_probability,
    modified,
)
from rulesets.dragonbond.rules import DragonbondRulings
from simcore.exact import mean

#: Sharp (extra-die): a die's chain of criticals is followed while its probability is at least this.
CHAIN_FLOOR = 1e-18


@functools.lru_cache(maxsize=64)
def die_outcomes(strength: int, rulings: DragonbondRulings,
                 sharp: bool = False) -> tuple[tuple[float, int, int, int], ...]:
    """(probability, successes, doubles, criticals) of one action die of ``strength`` (cached: a tuple).

    Sharp ("lands on a ♦, if the rerolled die lands on a ♦, repeat", 859), DB-sharp: ``extra-die``: the ◆
    stays and the die is rolled again, its face counting too, again on each ◆ (k criticals then a final
    face with probability (1/10)^k x P(face)); ``reroll-replaces``: the new face replaces the ◆, so the die
    shows its faces other than ◆ in their proportions.
    """
    p = [float(x) for x in action_face_probabilities(strength, rulings)]
    plain = [(p[BLANK], 0, 0, 0), (p[SUCCESS], 1, 0, 0), (p[DOUBLE], 0, 1, 0), (p[CRITICAL], 0, 0, 1)]
    if not sharp or p[CRITICAL] == 0:
        return tuple(o for o in plain if o[0] > 0)
    non_crit = plain[:3]
    if rulings.sharp == "reroll-replaces":
        stay = 1.0 - p[CRITICAL]
        return tuple((q / stay, s, d, c) for q, s, d, c in non_crit if q > 0)
    out = []
    k, chain = 0, 1.0
    while chain >= CHAIN_FLOOR:
        out += [(chain * q, s, d, k) for q, s, d, _ in non_crit if q > 0]
        chain *= p[CRITICAL]
        k += 1
    return tuple(out)


@dataclass(frozen=True)
class PoolDistribution:
    """Joint PMF ``joint[s, d, c]`` of Successes ◇, Double Successes ◇◇ and Criticals ◆ of one roll.

    ``tail``: probability mass not in ``joint`` (Sharp's unbounded chain; 0 otherwise)."""

    pool: Pool
    sharp: bool
    joint: np.ndarray
    tail: float

    def hits_and_criticals(self, double_hits: int) -> np.ndarray:
        """Joint PMF ``[hits, criticals]``: a ◇ is one hit, a ◇◇ ``double_hits`` (DB-double-hits)."""
        s_max, d_max, c_max = self.joint.shape
        out = np.zeros(((s_max - 1) + double_hits * (d_max - 1) + 1, c_max))
        for d in range(d_max):
            out[d * double_hits:d * double_hits + s_max, :] += self.joint[:, d, :]
        return out

    def successes(self, double_value: int = 2, crit_counts: bool = True) -> np.ndarray:
        """PMF of successes where they are counted (charge, face-off): ◇ 1, ◇◇ ``double_value``, ◆ 1 when
        ``crit_counts`` (DB-crit-success), else 0."""
        s_max, d_max, c_max = self.joint.shape
        c_weight = 1 if crit_counts else 0
        out = np.zeros((s_max - 1) + double_value * (d_max - 1) + c_weight * (c_max - 1) + 1)
        for d in range(d_max):
            for c in range(c_max):
                at = d * double_value + c * c_weight
                out[at:at + s_max] += self.joint[:, d, c]
        return out


def pool_distribution(pool: Pool, rulings: DragonbondRulings | None = None,
                      sharp: bool = False) -> PoolDistribution:
    """The exact joint distribution of an action pool's ◇, ◇◇ and ◆ (the dice as they are: apply
    :func:`rulesets.dragonbond.dice.modified` first)."""
    rulings = rulings or DragonbondRulings()
    if pool.kind != ACTION:
        raise RulesError(f"pool {pool} is a defense pool; successes are counted on action dice")
    return _pool_distribution(pool, rulings, bool(sharp))


@functools.lru_cache(maxsize=4096)
def _pool_distribution(pool: Pool, rulings: DragonbondRulings, sharp: bool) -> PoolDistribution:
    parts = [_colour_joint(k, n, rulings, sharp) for k, n in enumerate(pool.counts) if n]
    joint = parts[0] if parts else np.ones((1, 1, 1))
    for part in parts[1:]:
        joint = _convolve3(joint, part)
    joint.setflags(write=False)
    tail = max(0.0, 1.0 - float(joint.sum()))
    return PoolDistribution(pool, sharp, joint, tail)


@functools.lru_cache(maxsize=2048)
def _colour_joint(strength: int, n: int, rulings: DragonbondRulings, sharp: bool) -> np.ndarray:
    """Joint [◇, ◇◇, ◆] of ``n`` dice of one colour: the joint of n - 1 of them and one more die (each
    count computed once per process, so a table of 1..N dice costs one step a row)."""
    if n == 0:
        return np.ones((1, 1, 1))
    prev = _colour_joint(strength, n - 1, rulings, sharp)
    outcomes = die_outcomes(strength, rulings, sharp)
    s0, d0, c0 = prev.shape
    new = np.zeros((s0 + 1, d0 + 1, c0 + max(o[3] for o in outcomes)))
    for q, s, d, c in outcomes:
        new[s:s + s0, d:d + d0, c:c + c0] += q * prev
    new = _trim(new)
    new.setflags(write=False)
    return new


def _convolve3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distribution of the sum of two independent 3-D counts (``b`` added point by point)."""
    if np.count_nonzero(b) > np.count_nonzero(a):  # shift the larger array by the smaller one's cells
        a, b = b, a
    out = np.zeros(tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True)))
    for s, d, c in zip(*np.nonzero(b), strict=True):
        out[s:s + a.shape[0], d:d + a.shape[1], c:c + a.shape[2]] += b[s, d, c] * a
    return out


def _trim(a: np.ndarray) -> np.ndarray:
    """``a`` without trailing all-zero planes on each axis (keeps at least one)."""
    for axis in range(a.ndim):
        other = tuple(i for i in range(a.ndim) if i != axis)
        nz = np.flatnonzero(a.sum(axis=other) > 0)
        keep = (nz[-1] + 1) if nz.size else 1
        a = a.take(range(keep), axis=axis)
    return a


def blocks_distribution(pool: Pool, rulings: DragonbondRulings | None = None) -> np.ndarray:
    """PMF of the blocks ▼ of a defense pool (the dice as they are)."""
    rulings = rulings or DragonbondRulings()
    if pool.kind != DEFENSE:
        raise RulesError(f"pool {pool} is an action pool; blocks are rolled on defense dice")
    return _blocks(pool.counts, rulings)


@functools.lru_cache(maxsize=8192)
def _blocks(counts: tuple[int, int, int], rulings: DragonbondRulings) -> np.ndarray:
    pmf = np.ones(1)
    for strength, n in enumerate(counts):
        if n:
            pmf = np.convolve(pmf, _binomial(n, float(block_probability(strength, rulings))))
    pmf.setflags(write=False)
    return pmf


@functools.lru_cache(maxsize=4096)
def _binomial(n: int, p: float) -> np.ndarray:
    """Binomial(n, p) PMF: Binomial(n - 1, p) and one more die."""
    if n == 0:
        return np.ones(1)
    return np.convolve(_binomial(n - 1, p), [1.0 - p, p])


@dataclass(frozen=True)
class Defense:
    """How the target defends: ``dice`` defense dice of strength ``strength`` (0 red, 1 white, 2 black) per
    non-critical hit, with ``up`` upgrades and ``down`` downgrades applied once to the whole pool (728-741:
    Defense, Melee/Ranged Defense, exhaustion 1 per fatigue token, terrain, flanking, captains, Flying,
    Huge injuries, all summed by the caller)."""

    dice: int
    strength: int
    up: int = 0
    down: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.dice, int) or self.dice < 0:
            raise RulesError(f"defense {self.dice!r}: a whole number of dice per hit >= 0")
        if self.strength not in (0, 1, 2):
            raise RulesError(f"defense die strength {self.strength!r}: 0 red, 1 white, 2 black")
        if self.up < 0 or self.down < 0:
            raise RulesError(f"defense upgrades {self.up} and downgrades {self.down}: whole numbers >= 0")

    def pool(self, hits: int, rulings: DragonbondRulings) -> Pool:
        """The defense roll against ``hits`` non-critical hits: "collect ... defense dice for each
        non-critical hit" (730), then the modifiers. No hit (or a defense of 0 dice): nothing is rolled."""
        counts = [0, 0, 0]
        counts[self.strength] = hits * self.dice
        base = Pool(DEFENSE, tuple(counts))
        return modified(base, self.up, self.down, rulings) if base.size else base


@dataclass(frozen=True)
class Target:
    """The models that take the wounds: their Health in the order wounds fill them (DB-casualty-order is
    applied by :func:`casualty_order`), and the Captain's place in that order (None: no Captain)."""

    health: tuple[int, ...]
    captain: int | None = None

    def __post_init__(self) -> None:
        if not self.health or any(not isinstance(h, int) or h < 1 for h in self.health):
            raise RulesError(f"model health {self.health!r}: one whole number >= 1 per model")

    def killed(self, wounds: int) -> int:
        """Models removed by ``wounds`` filling one model's Health, then the next (771-773)."""
        left, n = wounds, 0
        for h in self.health:
            if left < h:
                break
            left -= h
            n += 1
        return n


def casualty_order(models: int, health: int, captain_health: int | None,
                   rulings: DragonbondRulings) -> Target:
    """The order wounds fill a unit's models under DB-casualty-order: ``models`` models of ``health``
    (the Captain among them when ``captain_health`` is given), captain last or first, or the model with the
    least Health left first (among equals, the Captain first)."""
    if models < 1:
        raise RulesError(f"models {models}: at least 1")
    troops = [health] * (models - (1 if captain_health is not None else 0))
    order = rulings.casualty_order
    if captain_health is None:
        return Target(tuple(troops))
    if order == "captain-first":
        healths = [captain_health] + troops
    elif order == "captain-last":
        healths = troops + [captain_health]
    else:
        healths = sorted(troops + [captain_health])
    at = {"captain-first": 0, "captain-last": len(healths) - 1}.get(order, healths.index(captain_health))
    return Target(tuple(healths), at)


@functools.lru_cache(maxsize=8192)
def _unblocked(defense: Defense, hits: int, rulings: DragonbondRulings) -> np.ndarray:
    """PMF of max(0, hits - blocks) for ``hits`` non-critical hits against ``defense``."""
    blocks = blocks_distribution(defense.pool(hits, rulings), rulings)
    m = min(blocks.size, hits + 1)
    out = np.zeros(hits + 1)
    out[hits - m + 1:] = blocks[:m][::-1]
    out[0] += blocks[m:].sum()
    out.setflags(write=False)
    return out


def expected_wounds(attack: Pool, defense: Defense, rulings: DragonbondRulings | None = None,
                    sharp: bool = False) -> float:
    """E[wounds] of one attack, by linearity: sum over hits h of P(h) E[max(0, h - blocks)] + E[criticals]
    (what the standard attack table needs, without the whole distribution)."""
    rulings = rulings or DragonbondRulings()
    p_hits, mean_crits = _hits_marginal(attack, rulings, bool(sharp))
    return float(p_hits @ _mean_unblocked(defense, p_hits.size, rulings) + mean_crits)


@functools.lru_cache(maxsize=4096)
def _hits_marginal(attack: Pool, rulings: DragonbondRulings, sharp: bool) -> tuple[np.ndarray, float]:
    """P(hits = h) and E[criticals] of one attack roll: the hits of the dice are independent, so their PMF
    is the convolution of one PMF per colour (no joint with the criticals is needed), and E[criticals] is
    a sum of the dice's means."""
    pmf, crits = np.ones(1), 0.0
    for strength, n in enumerate(attack.counts):
        if n:
            pmf = np.convolve(pmf, _colour_hits(strength, n, rulings, sharp))
            crits += n * sum(q * c for q, _, _, c in die_outcomes(strength, rulings, sharp))
    return pmf, crits


@functools.lru_cache(maxsize=1024)
def _colour_hits(strength: int, n: int, rulings: DragonbondRulings, sharp: bool) -> np.ndarray:
    """PMF of the hits of ``n`` dice of one colour (a ◇ one, a ◇◇ DB-double-hits)."""
    if n == 0:
        return np.ones(1)
    die = np.zeros(rulings.double_hits + 1)
    for q, s, d, _ in die_outcomes(strength, rulings, sharp):
        die[s + rulings.double_hits * d] += q
    out = np.convolve(_colour_hits(strength, n - 1, rulings, sharp), die)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=1024)
def _mean_unblocked(defense: Defense, size: int, rulings: DragonbondRulings) -> np.ndarray:
    """E[max(0, h - blocks)] for h = 0..size-1 (extended from the shorter vectors already computed)."""
    if size <= 1:
        return np.zeros(max(size, 0))
    head = _mean_unblocked(defense, size - 1, rulings)
    u = _unblocked(defense, size - 1, rulings)
    out = np.append(head, mean(u))
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class AttackDistribution:
    """Exact outcome of one attack: ``hits_crits[h, c]`` before defense, ``wounds`` PMF after it,
    ``killed`` PMF of models removed."""

    attack: Pool
    defense: Defense
    hits_crits: np.ndarray
    wounds: np.ndarray
    killed: np.ndarray
    tail: float
    notes: tuple[str, ...] = field(default=())

    def mean_wounds(self) -> float:
        return mean(self.wounds)

    def mean_killed(self) -> float:
        return mean(self.killed)


def attack_distribution(attack: Pool, defense: Defense, target: Target | None = None,
                        rulings: DragonbondRulings | None = None, sharp: bool = False) -> AttackDistribution:
    """The exact distribution of wounds and models killed by one attack of ``attack`` (modifiers already
    applied) against ``defense``.

    "Wounds = max(0, hits - blocks) + criticals": the defender rolls its defense dice for each non-critical
    hit (730) with its modifiers applied once to that pool (728-741); a critical wounds without a defense
    roll (751); each unblocked hit and each critical is one wound, filling one model's Health, then the
    next (771-773).
    """
    rulings = rulings or DragonbondRulings()
    dist = pool_distribution(attack, rulings, sharp)
    hc = dist.hits_and_criticals(rulings.double_hits)
    h_max, c_max = hc.shape
    wounds = np.zeros(h_max + c_max - 1)
    for h in range(h_max):
        row = hc[h]
        if row.any():
            wounds[:h + c_max] += np.convolve(_unblocked(defense, h, rulings), row)
    wounds = _trim(wounds)
    notes = []
    if defense.dice == 0:
        notes.append("defense 0: no defense dice are rolled, every hit wounds")
    killed = None
    if target is not None:
        killed = np.zeros(len(target.health) + 1)
        for w, q in enumerate(wounds):
            killed[target.killed(w)] += q
    else:
        killed = np.zeros(1)
    return AttackDistribution(attack, defense, hc, wounds, killed, dist.tail, tuple(notes))


FACE_OFF_STAGES = ("successes", "criticals", "doubles", "reroll")


@dataclass(frozen=True)
class FaceOff:
    """A face-off roll of ``players`` players (3 grey each, 218-228): the probability that it is decided on
    most successes, on most criticals, on most Double Successes, or needs a reroll; ``still_tied[j]`` the
    probability that exactly ``j`` players are still tied after the tiebreakers (they alone reroll, 228);
    the expected number of rolls. Every player wins with probability 1/players (they roll the same dice:
    symmetry)."""

    players: int
    stages: dict[str, float]
    still_tied: dict[int, float]
    expected_rolls: float

    @property
    def p_win(self) -> float:
        return 1.0 / self.players


def face_off(players: int = 2, rulings: DragonbondRulings | None = None) -> FaceOff:
    """Exact stage probabilities of a face-off (Face-Off Rolls and Tiebreakers, 218-228): "every player
    involved rolls three grey action dice, and they each count the number of successes" (a ◇◇ two, a ◆ one
    under DB-crit-success); ties among the leaders go to "the most criticals", then "the most doubles",
    then "The players who are still tied reroll the dice until a clear winner is found" (228): only they
    roll again, so the expected number of rolls follows the chain over how many are still tied,
    E[k] = 1 + sum_j P(j of k still tied) E[j]."""
    rulings = rulings or DragonbondRulings()
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise RulesError(f"players {players!r}: a face-off is between 2 and 4 players")
    pool = Pool(ACTION, (0, 3, 0))
    joint = pool_distribution(pool, rulings).joint
    crit = 1 if rulings.crit_success else 0
    outcome: dict[tuple[int, int, int], float] = {}
    for (s, d, c), q in np.ndenumerate(joint):
        if q > 0:
            key = (s + 2 * d + crit * c, c, d)
            outcome[key] = outcome.get(key, 0.0) + float(q)
    rolls: dict[int, float] = {}
    for k in range(2, players + 1):
        decided = dict.fromkeys(FACE_OFF_STAGES, 0.0)
        tied: dict[int, float] = {}
        _resolve(outcome, k, 0, 1.0, decided, tied)
        again = sum(q * rolls[j] for j, q in tied.items() if j < k)
        rolls[k] = (1.0 + again) / (1.0 - tied.get(k, 0.0))
    return FaceOff(players, decided, dict(sorted(tied.items())), rolls[players])


def _resolve(dist: dict[tuple[int, int, int], float], k: int, level: int, weight: float,
             decided: dict[str, float], tied: dict[int, float]) -> None:
    """Add to ``decided`` how ``k`` players, each drawing a key from ``dist`` (probabilities summing to 1),
    are separated by criterion ``level`` and the ones after it (weighted by ``weight``), and to ``tied[k]``
    the weight of the ``k`` still tied after the last criterion."""
    from math import comb

    if level == 3:
        decided["reroll"] += weight
        tied[k] = tied.get(k, 0.0) + weight
        return
    marginal: dict[int, float] = {}
    for key, q in dist.items():
        marginal[key[level]] = marginal.get(key[level], 0.0) + q
    below = 0.0
    for v in sorted(marginal):
        m = marginal[v]
        decided[FACE_OFF_STAGES[level]] += weight * k * m * below ** (k - 1)
        given = {key: q / m for key, q in dist.items() if key[level] == v}
        for j in range(2, k + 1):
            tie = comb(k, j) * m**j * below ** (k - j)
            if tie > 0:
                _resolve(given, j, level + 1, weight * tie, decided, tied)
        below += m


def counted_successes(pool: Pool, rulings: DragonbondRulings) -> np.ndarray:
    """PMF of the successes of a roll where successes are counted (charge, face-off): a ◇ one, a ◇◇ two (a
    "Double Success"), a ◆ one under DB-crit-success (else none)."""
    return pool_distribution(pool, rulings).successes(2, rulings.crit_success)


def charge_dice(tokens_beside: int, rulings: DragonbondRulings) -> Pool:
    """The 3 charge dice (DB-charge-dice: "Roll 3 red action dice", 488; the example rolls black) after
    the Exhaustion Penalty the charge applies to its roll (494): DB-exhaustion-other-rolls C downgrades per
    fatigue token beside the unit."""
    strength = ("white", "grey", "black").index(rulings.charge_dice)
    counts = [0, 0, 0]
    counts[strength] = 3
    return modified(Pool(ACTION, tuple(counts)), 0, rulings.charge_downgrades_per_token * tokens_beside,
                    rulings)


#: "Charge [2]": the fatigue a charge costs (445).
CHARGE_FATIGUE = 2


def charge_tokens(tokens_beside: int, rulings: DragonbondRulings) -> int:
    """The fatigue tokens beside a charging unit that bear on its charge (its speed, 422, and its dice, 494),
    given ``tokens_beside``, the tokens beside it once the charge's own 2 are paid, under DB-fatigue-timing.

    "A unit that is exhausted may not take this action" (476), and a turn's step 5 "Add fatigue to the unit
    equal to the action's cost" comes before step 6 "Take the action" (388-389). A unit that was not
    exhausted had no token beside it, so paying 2 leaves at most 2 there; pay-then-act: those count for the
    charge's roll (the Duelists' example pays, then rolls, 490-492); check-after-paying: a cost that would
    exhaust the unit bars the charge, so none may be left beside it; act-then-pay: the charge is rolled and
    moved before the 2 are added, with none beside the unit.

    Raises:
        RulesError: more than 2 tokens beside (the unit was exhausted before paying), or any under
            check-after-paying: the charge may not be taken.
    """
    if not isinstance(tokens_beside, int) or tokens_beside < 0:
        raise RulesError(f"fatigue tokens beside the unit {tokens_beside!r}: a whole number >= 0")
    if tokens_beside > CHARGE_FATIGUE:
        raise RulesError(f"{tokens_beside} fatigue tokens beside the unit after paying the charge's "
                         f"{CHARGE_FATIGUE}: it was exhausted before paying, and \"A unit that is "
                         "exhausted may not take this action\" (474-476); at most 2 can be beside a unit "
                         "that may charge")
    if rulings.fatigue_timing == "check-after-paying" and tokens_beside:
        raise RulesError(f"{tokens_beside} fatigue token(s) beside the unit after paying the charge's "
                         f"{CHARGE_FATIGUE}: under DB-fatigue-timing=check-after-paying a cost that would "
                         "exhaust the unit bars the action, so it may not charge (474-476)")
    return 0 if rulings.fatigue_timing == "act-then-pay" else tokens_beside


def charge_reach(speed: int, tokens_beside: int = 0, rulings: DragonbondRulings | None = None) -> np.ndarray:
    """PMF of a charge's reach in inches: the unit's speed, less one per fatigue token beside it (420-424),
    "For each success, add 1 to your unit's speed" (488). ``tokens_beside``: the tokens beside the unit once
    the charge's 2 are paid; :func:`charge_tokens` says which of them count (DB-fatigue-timing) or refuses
    the charge."""
    rulings = rulings or DragonbondRulings()
    if not isinstance(speed, int) or speed < 0:
        raise RulesError(f"speed {speed!r}: a whole number of inches >= 0")
    counted = charge_tokens(tokens_beside, rulings)
    base = max(0, speed - counted)
    successes = counted_successes(charge_dice(counted, rulings), rulings)
    return np.concatenate([np.zeros(base), successes])


def damage_tokens(tokens: int, tokens_beside: int = 0,
                  rulings: DragonbondRulings | None = None) -> np.ndarray:
    """PMF of the Damage tokens removed, each with one wound, at the start of a unit's turn (590-592).

    "If a unit has multiple Damage tokens, roll that many dice and remove tokens equal to the number of
    hits" (592): one black die per token, after DB-exhaustion-other-rolls D downgrades per fatigue token
    beside the unit; a ◇ is one hit and a ◇◇ DB-double-hits hits, as in every other count of hits (162);
    a ◆ is one hit under DB-damage-token=any-non-blank and none under non-critical. The tokens removed
    are the hits, at most the tokens there are.
    """
    rulings = rulings or DragonbondRulings()
    if not isinstance(tokens, int) or tokens < 0:
        raise RulesError(f"damage tokens {tokens!r}: a whole number >= 0")
    if tokens == 0:
        return np.ones(1)
    pool = modified(Pool(ACTION, (0, 0, tokens)), 0, rulings.damage_downgrades_per_token * tokens_beside,
                    rulings)
    crit_hits = 1 if rulings.damage_token == "any-non-blank" else 0
    pmf = np.ones(1)
    for strength, n in enumerate(pool.counts):
        p = action_face_probabilities(strength, rulings)
        die = np.zeros(rulings.double_hits + 1)
        die[0] += float(p[BLANK])
        die[1] += float(p[SUCCESS])
        die[rulings.double_hits] += float(p[DOUBLE])
        die[crit_hits] += float(p[CRITICAL])
        for _ in range(n):
            pmf = np.convolve(pmf, die)
    if pmf.size > tokens + 1:  # no more tokens can be removed than there are
        pmf = np.append(pmf[:tokens], pmf[tokens:].sum())
    return pmf


def shares(hits: int, crits: int, units: int) -> list[tuple[int, int]]:
    """(hits, criticals) each of ``units`` units gets from a ranged attack into a melee (685-689): "apply one
    hit to each of the units beginning with the one that is nearest ... If critical hits were rolled, those
    are applied first. Continue until all hits have been applied": criticals then hits, dealt one at a
    time round the units from the nearest (unit 0)."""
    out = [[0, 0] for _ in range(units)]
    for j in range(crits + hits):
        out[j % units][0 if j >= crits else 1] += 1
    return [(h, c) for h, c in out]


def spread_attack(attack: Pool, defenses: Sequence[Defense], rulings: DragonbondRulings | None = None,
                  sharp: bool = False) -> list[np.ndarray]:
    """The exact wounds PMF of each unit hit by a ranged attack into a melee (``defenses`` nearest first):
    each unit rolls its own defense against its share of the non-critical hits (685-689)."""
    rulings = rulings or DragonbondRulings()
    if not defenses:
        raise RulesError("a ranged attack into a melee needs at least one unit to hit")
    hc = pool_distribution(attack, rulings, sharp).hits_and_criticals(rulings.double_hits)
    k = len(defenses)
    size = hc.shape[0] + hc.shape[1]
    out = [np.zeros(size) for _ in range(k)]
    for (h, c), q in np.ndenumerate(hc):
        if q <= 0:
            continue
        for i, (hi, ci) in enumerate(shares(h, c, k)):
            u = _unblocked(defenses[i], hi, rulings)
            out[i][ci:ci + u.size] += q * u
    return [_trim(w) for w in out]
