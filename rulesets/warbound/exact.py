"""Exact distributions of Warbound's rolls: hit rolls (Aim, Formation, modifiers), the Stress they give,
armor saves with Break tokens, and the joint outcome of one attack with the death and panic it may cause.

Every die is one of three kinds (seed 004): a natural [1] (fails, gives no Stress: lines 359, 465), a
miss that gives Stress, or a hit (which gives Stress too); under WB-formation-bonus=natural-1-modified a
natural [1] may hit, and still gives no Stress. Success is monotone in the face (a natural [1]
is the lowest face and a natural [10] the highest), so Aim's "roll 1 additional die and discard the
lowest" (line 492) keeps min(dice, hits of all the dice rolled) hits, and the discarded die is a natural
[1] whenever any die shows one. The dice are independent, so a roll of n dice is a trinomial: all sums
are over non-negative terms, exact to rounding.

Pure numpy, no numba: the exact tables start without the compiler.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.warbound.rules import (
    FACES,
    MAX_DICE,
    MAX_VALUE,
    MIN_VALUE,
    NATURAL_FAIL,
    NATURAL_SUCCESS,
    SIDES,
    WarboundRulings,
)

#: Most Health, morale, armor points, tokens already placed and direct wounds a roll accepts.
MAX_POOL = 50


def succeeds(face: int, value: int, modifier: int = 0, natural_one_modified: bool = False) -> bool:
    """Whether a die showing ``face`` meets ``value`` with ``modifier`` added to its result."""
    if face == NATURAL_SUCCESS:
        return True
    if face == NATURAL_FAIL and not natural_one_modified:
        return False
    return face + modifier >= value


@functools.lru_cache(maxsize=512)
def die_kinds(value: int, modifier: int = 0,
              natural_one_modified: bool = False) -> tuple[float, float, float]:
    """(P(natural [1]), P(a miss that is not a natural [1]), P(a hit that is not a natural [1])) of one die
    against ``value``: the natural [1] gives no Stress, hit or miss (lines 465, 507); whether it hits is
    :func:`natural_one_hits`."""
    ones = misses = hits = 0
    for face in FACES:
        if face == NATURAL_FAIL:
            ones += 1
        elif succeeds(face, value, modifier, natural_one_modified):
            hits += 1
        else:
            misses += 1
    return ones / SIDES, misses / SIDES, hits / SIDES


def natural_one_hits(value: int, modifier: int = 0, natural_one_modified: bool = False) -> bool:
    """Whether a natural [1] hits: never (line 359), unless WB-formation-bonus=natural-1-modified and
    1 + ``modifier`` reaches ``value`` (then every face hits)."""
    return succeeds(NATURAL_FAIL, value, modifier, natural_one_modified)


def p_success(value: int, modifier: int = 0, natural_one_modified: bool = False) -> float:
    """P(one die meets ``value``): a hit roll, or an armor roll (no modifier)."""
    p_one, _, p_hit = die_kinds(value, modifier, natural_one_modified)
    return p_hit + (p_one if natural_one_hits(value, modifier, natural_one_modified) else 0.0)


def _trinomial(n: int, kinds: tuple[float, float, float]) -> np.ndarray:
    """[h, u]: P(h hits that are not a natural [1] and u dice other than a natural [1] among n dice),
    0 <= h <= u <= n."""
    p_one, p_miss, p_hit = kinds
    out = np.zeros((n + 1, n + 1))
    for u in range(n + 1):
        base = math.comb(n, u) * p_one ** (n - u)
        for h in range(u + 1):
            out[h, u] = base * math.comb(u, h) * p_miss ** (u - h) * p_hit ** h
    return out


@dataclass(frozen=True)
class HitRoll:
    """One Shoot or Fight roll: ``dice`` dice at ``value`` or better, Aim, and the modifiers to the result.

    ``formation`` is the attacker's Formation (lines 543-565): one more die and +1 to the result.
    ``stressable``: the target has a Morale Point pool (a panicked character has none and takes no Stress,
    line 525).
    """

    dice: int
    value: int
    aim: bool = False
    formation: bool = False
    modifier: int = 0
    stressable: bool = True

    def __post_init__(self) -> None:
        whole_number("dice", self.dice, 1, MAX_DICE - 2)
        whole_number("target value", self.value, MIN_VALUE, MAX_VALUE)
        whole_number("modifier", self.modifier, -MAX_VALUE, MAX_VALUE)

    @property
    def kept(self) -> int:
        """Dice whose results count: the dice, and the Formation's."""
        return self.dice + (1 if self.formation else 0)

    @property
    def rolled(self) -> int:
        """Dice rolled: the kept ones and Aim's extra die."""
        return self.kept + (1 if self.aim and self.kept > 0 else 0)

    @property
    def total_modifier(self) -> int:
        return self.modifier + (1 if self.formation else 0)


@functools.lru_cache(maxsize=4096)
def _hit_stress(kept: int, rolled: int, value: int, modifier: int, natural_one_modified: bool,
                stress_all_rolled: bool) -> np.ndarray:
    table = _trinomial(rolled, die_kinds(value, modifier, natural_one_modified))
    ones_hit = natural_one_hits(value, modifier, natural_one_modified)
    out = np.zeros((kept + 1, rolled + 1))
    for h in range(rolled + 1):
        for u in range(h, rolled + 1):
            # u dice are not a natural [1]; the rolled - u natural [1]s are the lowest dice (Aim discards
            # one of them first) and hit only when every face does
            hits = h + (rolled - u if ones_hit else 0)
            stress = u if stress_all_rolled else min(kept, u)
            out[min(kept, hits), stress] += table[h, u]
    out.setflags(write=False)
    return out


def hit_stress_pmf(roll: HitRoll, rulings: WarboundRulings) -> np.ndarray:
    """[hits, stress]: the joint distribution of the hits a roll scores and the Stress it gives the target
    (lines 457-467, 492, 507; rulings WB-aim-stress and WB-formation-bonus). A target without a Morale pool
    takes no Stress: the stress axis then has one entry."""
    pmf = _hit_stress(roll.kept, roll.rolled, roll.value, roll.total_modifier,
                      rulings.formation_bonus == "natural-1-modified", rulings.aim_stress == "all-rolled")
    if roll.stressable:
        return pmf
    return pmf.sum(axis=1, keepdims=True)


def hits_pmf(roll: HitRoll, rulings: WarboundRulings) -> np.ndarray:
    """P(k hits), k = 0..kept dice."""
    return hit_stress_pmf(roll, rulings).sum(axis=1)


@functools.lru_cache(maxsize=4096)
def armor_pmf(damage: int, armor_value: int, available: int) -> np.ndarray:
    """[wounds, breaks] after ``damage`` damage against ``available`` unbroken armor points of
    ``armor_value`` (lines 476-482): one die per damage, each at ``armor_value`` or better saves, at most
    ``available`` saves count, each adding a Break token; the others are Wound tokens. Read-only."""
    out = np.zeros((damage + 1, min(damage, available) + 1))
    if available <= 0:
        out[damage, 0] = 1.0
    else:
        q = p_success(armor_value)
        for saves in range(damage + 1):
            p = math.comb(damage, saves) * q ** saves * (1.0 - q) ** (damage - saves)
            breaks = min(saves, available)
            out[damage - breaks, breaks] += p
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class Target:
    """The character attacked, as it stands before the attack (lines 227-237, 476-482, 517-527).

    ``panicked``: no Morale Point pool (no Stress, no Panic, line 525); ``morale`` None: a pool whose value
    is not given (Stress counted, Panic not judged).
    """

    armor_points: int = 0
    armor_value: int | None = None
    broken: int = 0
    health: int | None = None
    wounds: int = 0
    morale: int | None = None
    stress: int = 0
    panicked: bool = False

    def __post_init__(self) -> None:
        whole_number("armor points", self.armor_points, 0, MAX_POOL)
        whole_number("Break tokens", self.broken, 0, MAX_POOL)
        if self.broken > self.armor_points:
            raise RulesError(f"Break tokens {self.broken} are more than the armor points "
                             f"{self.armor_points} (a pool holds at most one per armor point, line 482)")
        if self.armor_points > 0:
            if self.armor_value is None:
                raise RulesError("armor points need an armor value (the roll that saves, line 239)")
            whole_number("armor value", self.armor_value, MIN_VALUE, MAX_VALUE)
        if self.health is not None:
            whole_number("Health points", self.health, 1, MAX_POOL)
        whole_number("Wound tokens", self.wounds, 0, MAX_POOL)
        if self.morale is not None:
            whole_number("morale value", self.morale, 1, MAX_POOL)
        whole_number("Stress tokens", self.stress, 0, MAX_POOL)
        if self.health is not None and self.wounds >= self.health:
            raise RulesError(f"Wound tokens {self.wounds} already reach the Health points {self.health}: the "
                             f"character was removed at the end of the activation that wounded it (line 227)")
        if self.has_morale_pool and self.morale is not None and self.stress >= self.morale:
            raise RulesError(f"Stress tokens {self.stress} already reach the morale value {self.morale}: the "
                             f"character panicked at the end of the last activation (line 519); say "
                             f"--panicked")

    @property
    def has_morale_pool(self) -> bool:
        """Every character has one until it panics (line 519); ``morale`` None: its value is not given."""
        return not self.panicked

    @property
    def available_armor(self) -> int:
        """Armor points not yet broken (line 482)."""
        return self.armor_points - self.broken if self.armor_value is not None else 0


@dataclass(frozen=True)
class AttackOutcome:
    """The exact outcome of one attack: ``pmf[wounds, breaks, stress]`` (new tokens only), and the chances
    that the target is removed or panics at the end of the activation (None where the target's Health or
    morale was not given)."""

    roll: HitRoll
    target: Target
    add_wounds: int
    pmf: np.ndarray
    p_death: float | None
    p_panic: float | None
    p_panic_survives: float | None

    def marginal(self, axis: str) -> np.ndarray:
        keep = {"wounds": 0, "breaks": 1, "stress": 2}[axis]
        return self.pmf.sum(axis=tuple(a for a in range(3) if a != keep))

    def mean(self, axis: str) -> float:
        p = self.marginal(axis)
        return float(np.arange(p.size) @ p)


def attack_pmf(roll: HitRoll, target: Target, rulings: WarboundRulings, add_wounds: int = 0) -> np.ndarray:
    """[wounds, breaks, stress]: the new tokens of one attack (hit roll, Stress, armor rolls), with
    ``add_wounds`` Wound tokens added by effects that allow no armor roll (line 474)."""
    whole_number("added Wound tokens", add_wounds, 0, MAX_POOL)
    if target.has_morale_pool != roll.stressable:
        roll = HitRoll(roll.dice, roll.value, roll.aim, roll.formation, roll.modifier, target.has_morale_pool)
    hs = hit_stress_pmf(roll, rulings)
    available = target.available_armor
    out = np.zeros((roll.kept + add_wounds + 1, min(roll.kept, available) + 1, hs.shape[1]))
    for hits in range(hs.shape[0]):
        row = hs[hits]
        if not row.any():
            continue
        armor = armor_pmf(hits, target.armor_value or MAX_VALUE, available)
        w, b = armor.shape
        out[add_wounds:add_wounds + w, :b, :] += armor[:, :, None] * row[None, None, :]
    return out


def attack_outcome(roll: HitRoll, target: Target, rulings: WarboundRulings,
                   add_wounds: int = 0) -> AttackOutcome:
    """The attack's exact outcome and P(removed), P(Panic), P(Panic and not removed) at the end of the
    activation (lines 227, 511, 519: tokens in the pool equal to or above the value; the Death text's
    "morale points value" read as Health points, RULES.md)."""
    pmf = attack_pmf(roll, target, rulings, add_wounds)
    wounds = np.arange(pmf.shape[0])[:, None, None]
    stress = np.arange(pmf.shape[2])[None, None, :]
    dead = (target.wounds + wounds >= target.health) if target.health is not None else None
    judged = target.has_morale_pool and target.morale is not None
    panics = (target.stress + stress >= target.morale) if judged else None
    p_death = float((pmf * dead).sum()) if dead is not None else None
    if target.panicked:
        p_panic = p_panic_survives = 0.0
    elif panics is None:
        p_panic = p_panic_survives = None
    else:
        p_panic = float((pmf * panics).sum())
        p_panic_survives = float((pmf * (panics & ~dead)).sum()) if dead is not None else None
    return AttackOutcome(roll, target, add_wounds, pmf, p_death, p_panic, p_panic_survives)


def expected_hits(roll: HitRoll, rulings: WarboundRulings) -> float:
    p = hits_pmf(roll, rulings)
    return float(np.arange(p.size) @ p)


# --- whole tables at once (closed forms over arrays) -------------------------------------------------------

def hit_summaries(dice, values, aim, modifiers, rulings: WarboundRulings) -> tuple[np.ndarray, np.ndarray]:
    """P(at least one hit) and the expected hits of many rolls at once (arrays broadcast together; ``dice``
    the dice kept, a Formation's included, ``modifiers`` its +1 included). Each die hits independently with
    p, so with n dice rolled (one more with Aim): P(any) = 1 - (1 - p)^n, and the hits kept are the hits
    rolled, less one when Aim's extra die hit too: E = n p - [Aim] p^n (the lowest die is discarded)."""
    dice, values, aim, modifiers = np.broadcast_arrays(np.asarray(dice), np.asarray(values),
                                                       np.asarray(aim, dtype=bool), np.asarray(modifiers))
    n1m = rulings.formation_bonus == "natural-1-modified"
    low, high = int(modifiers.min()), int(modifiers.max())
    by_value = np.array([[p_success(v, m, n1m) if v >= MIN_VALUE else 1.0 for m in range(low, high + 1)]
                         for v in range(MAX_VALUE + 1)])
    p = by_value[values, modifiers - low]
    rolled = dice + aim
    all_hit = p ** rolled
    return 1.0 - (1.0 - p) ** rolled, rolled * p - np.where(aim, all_hit, 0.0)


def armor_summaries(damage, armor_values, points) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Expected Wound and Break tokens and P(no Wound) of ``damage`` against ``points`` unbroken armor points
    at ``armor_values`` (arrays broadcast together): the saves S ~ Binomial(damage, q), Breaks min(S,
    points) with E = sum over k = 1..points of P(S >= k), Wounds damage - Breaks, none only when every
    damage is saved and the points suffice."""
    damage, armor_values, points = np.broadcast_arrays(np.asarray(damage), np.asarray(armor_values),
                                                       np.asarray(points))
    top = int(damage.max()) if damage.size else 0
    q = np.array([p_success(v) if v >= MIN_VALUE else 1.0 for v in range(MAX_VALUE + 1)])[armor_values]
    k = np.arange(top + 1)
    choose = np.zeros((top + 1, top + 1))
    choose[:, 0] = 1.0
    for a in range(1, top + 1):
        choose[a, 1:] = choose[a - 1, 1:] + choose[a - 1, :-1]
    d = damage[..., None]
    pmf = np.where(k <= d, choose[damage][..., :] * q[..., None] ** k * (1.0 - q[..., None]) ** np.maximum(
        d - k, 0), 0.0)
    at_least = np.cumsum(pmf[..., ::-1], axis=-1)[..., ::-1]  # P(S >= k)
    counted = (k >= 1) & (k <= points[..., None])
    breaks = np.where(counted, at_least, 0.0).sum(axis=-1)
    no_wound = np.where(points >= damage, q ** damage, 0.0)
    return damage - breaks, breaks, no_wound
