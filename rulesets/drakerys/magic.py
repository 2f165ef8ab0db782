"""Drakerys magic (seed 002, "MAGIC" and "ELEMENTAL INVOCATION"): the Spell roll with the Maelstroms'
Cataclysmic Effect, and the Elemental invocation roll with the Maelstrom element table.

Public API: :class:`SpellCast`, :class:`InvocationRoll`,
:func:`spell_distribution` (exact), :func:`simulate_spell` (Monte Carlo), :func:`invocation_distribution`,
:func:`maelstrom_element_table`.

How the text is read (fixed readings; the switchable ones are rulings of :class:`DrakerysRulings`):

* Spell roll (CASTING A SPELL, STEP 4; player aid "Roll"): an Action-Table roll of 1 d10 + 1 per Mana
  spent reinforcing (+ 0..5 Heroic Action dice, HEROIC ACTION), action value = the Wizard's level,
  opposition = +1 per started 10 cm to the furthest selected Source (0 cm: 0; 1..10 cm: 1; 11..20: 2)
  + 1 per Source after the first. Criticals apply as on every Action-Table roll (DK-crit-chain).
* Effect tier: 0 successes fail; otherwise the tier is the highest one whose lowest success count is
  reached (the MIRAGE card: 1-2, 3-4, 5+). "An inferior level effect can be selected": the report gives
  the best tier available.
* Cataclysm (CATACLYSMIC EFFECT OF THE MAELSTROMS): counted on every spell roll that uses a Maelstrom,
  whether or not it succeeds. Level = number of natural 1s, 4 and more being one level. "The player
  applies the corresponding Cataclysmic Effect and all inferior level Effects": level 3 also brings the
  Stress marker and the injury. Level 2's injury makes the spell fail only if it withdraws the Wizard,
  which depends on the unit's Health and tokens: reported as its own outcome, not decided here.
* Level 4+: "2D10s Hits (Strength 3) as if it were a Shot (Saturation 3)": the number of hits is the sum
  of two d10 (2..20), then an injury roll on the Action Table (Strength 3 against the unit's Resistance,
  criticals as usual). Computed exactly. The Morale roll a shot brings (opposition = Saturation 3) and
  Parry / Expert Parry of the Wizard's unit are not modelled.
* Mana: a Vortex supplies 3 Mana per cast, a Maelstrom up to 9; at most as many Sources as the Wizard's
  level. Elements are not modelled: the cost is taken as paid in Mana of the right element (no 2-for-1
  conversion).
* Invocation (INVOKING AN ELEMENTAL, step 3): 2 d10 + 1 per extra TS against a fixed 7+; extra dice only
  from a Vortex not occupied by an Elemental, never from a Maelstrom. This is not an Action-Table roll,
  so CRITICAL SUCCESSES ("During a dice roll using the Action Table") does not apply; it could not change
  the answer anyway: the roll only asks for at least one success, and a 10 is a success already.
* Maelstrom element table (step 4), read on a successful invocation: d10 1 = +1 TS and roll again,
  2-3 Air, 4-5 Water, 6-7 Fire, 8-9 Earth, 10 the player's choice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.drakerys import exact as _exact
from rulesets.drakerys.rules import (
    MAELSTROM_MANA,
    MAX_HEROIC,
    MAX_INVOCATION_EXTRA,
    MAX_WIZARD_LEVEL,
    MIRAGE_TIERS,
    SIDES,
    SOURCES,
    VORTEX_MANA,
    ActionRoll,
    DrakerysRulings,
    action_threshold,
)
from simcore import exact as simexact
from simcore.exact_faces import success_roll_marked_joint
from simcore.faces import TOP_SUCCESS
from simcore.stats import Estimate, histogram_mean

if TYPE_CHECKING:
    from simcore import runner

#: Face whose count sets the Cataclysmic Effect.
CATACLYSM_FACE = 1
#: Highest cataclysm level ("4 or more").
CATACLYSM_TOP = 4
#: Cataclysm level from which the spell fails whatever the successes ("3: The casting of the Spell fails").
CATACLYSM_FAILS = 3
#: The 4+ effect: "2D10s Hits (Strength 3) as if it were a Shot (Saturation 3)".
CATACLYSM_HIT_DICE = 2
CATACLYSM_STRENGTH = 3
CATACLYSM_SATURATION = 3
#: What each cataclysm level does, with the inferior levels it includes.
CATACLYSM_EFFECTS = (
    "none",
    "Stress marker",
    "Stress marker + one injury (the spell fails if the injury withdraws the Wizard)",
    "Stress marker + one injury; the spell fails and the Wizard's activation ends",
    "Stress marker + one injury; the spell fails, the activation ends; 2D10 hits at Strength 3 "
    f"(a shot, Saturation {CATACLYSM_SATURATION})",
)

#: Elemental invocation: "2D10s against a Threshold of 7+", 1 TS per extra d10.
INVOCATION_DICE = 2
INVOCATION_THRESHOLD = 7
#: The Maelstrom element table (d10 face -> outcome); ``None`` is "+1 TS, roll again".
ELEMENT_TABLE = {1: None, 2: "Air", 3: "Air", 4: "Water", 5: "Water", 6: "Fire", 7: "Fire", 8: "Earth",
                 9: "Earth", 10: "player's choice"}
#: Rows of the extra-TS table are kept while P(at least k extra TS) is at least this.
EXTRA_TS_FLOOR = Fraction(1, 10**12)


def started_tens(distance_cm: float) -> int:
    """Opposition for a distance: +1 "for every 10 cm-share (even incomplete)"."""
    return math.ceil(distance_cm / 10)


def tier_labels(tiers: tuple[int, ...]) -> list[str]:
    """Success counts of tier 0 (fails) and of each tier, as printed on a spell card ("1-2", "5+")."""
    out = ["0"]
    for i, low in enumerate(tiers):
        if i + 1 == len(tiers):
            out.append(f"{low}+")
        else:
            high = tiers[i + 1] - 1
            out.append(str(low) if high == low else f"{low}-{high}")
    return out


@dataclass(frozen=True)
class SpellCast:
    """One Spell roll (CASTING A SPELL).

    Attributes:
        level: the Wizard's level (Wizard [X]): the action value and the most Sources it may name.
        distance_cm: distance to the furthest selected Source.
        vortexes, maelstroms: the Sources named (at least one); ``vortexes`` defaults to one Vortex when
            no Maelstrom is named, none otherwise.
        mana: Mana spent reinforcing (one d10 each), out of what the Sources leave after the cost.
        cost: the spell's cost in Mana.
        heroic: Heroic Action dice (0..5).
        tiers: lowest success count of each effect tier, increasing (MIRAGE: 1, 3, 5).
        resistance: Resistance of the Wizard's unit, against the 2D10 hits of a 4+ cataclysm.
    """

    level: int
    distance_cm: float = 0.0
    vortexes: int | None = None
    maelstroms: int = 0
    mana: int = 0
    cost: int = 1
    heroic: int = 0
    tiers: tuple[int, ...] = MIRAGE_TIERS
    resistance: int = 3

    def __post_init__(self) -> None:
        level = whole_number("level", self.level, 1, MAX_WIZARD_LEVEL)
        object.__setattr__(self, "level", level)
        d = self.distance_cm
        if isinstance(d, bool | np.bool_) or not isinstance(d, int | float | np.integer | np.floating) \
                or not math.isfinite(d) or d < 0:
            raise RulesError(f"distance {d!r} cm is not a finite number of centimetres >= 0")
        object.__setattr__(self, "distance_cm", float(d))
        if self.vortexes is None:
            object.__setattr__(self, "vortexes", 0 if self.maelstroms else 1)
        for name in ("vortexes", "maelstroms"):
            object.__setattr__(self, name, whole_number(name, getattr(self, name), 0, 100))
        if self.sources == 0:
            raise RulesError("a spell needs at least one Source (a Vortex or a Maelstrom)")
        if self.sources > level:
            raise RulesError(f"{self.sources} sources is more than a level-{level} Wizard may name "
                             f"(maximum number of Sources = level of the Wizard)")
        object.__setattr__(self, "mana", whole_number("mana", self.mana, 0, 1000))
        object.__setattr__(self, "cost", whole_number("cost", self.cost, 0, 1000))
        object.__setattr__(self, "heroic", whole_number("heroic dice", self.heroic, 0, MAX_HEROIC))
        object.__setattr__(self, "resistance", whole_number("resistance", self.resistance, 0, 100))
        tiers = tuple(self.tiers)
        for t in tiers:
            whole_number("tier boundary", t, 1, 1000)
        if not tiers or any(b <= a for a, b in zip(tiers, tiers[1:], strict=False)):
            raise RulesError(f"tiers {tiers!r} are not increasing success counts from 1")
        object.__setattr__(self, "tiers", tuple(int(t) for t in tiers))

    @property
    def sources(self) -> int:
        return self.vortexes + self.maelstroms

    @property
    def has_maelstrom(self) -> bool:
        return self.maelstroms > 0

    @property
    def opposition(self) -> int:
        return started_tens(self.distance_cm) + self.sources - 1

    @property
    def threshold(self) -> int:
        return action_threshold(self.level, self.opposition)

    @property
    def dice(self) -> int:
        """d10 rolled first: 1 + reinforcement + Heroic Action."""
        return 1 + self.mana + self.heroic

    @property
    def action_roll(self) -> ActionRoll:
        """The spell roll as an Action-Table roll (successes and criticals only)."""
        return ActionRoll(1 + self.mana, self.threshold, heroic=self.heroic)

    @property
    def injury_threshold(self) -> int:
        """Threshold of the injury roll of a 4+ cataclysm (Strength 3 against the unit's Resistance)."""
        return action_threshold(CATACLYSM_STRENGTH, self.resistance)

    def mana_supplied(self) -> int:
        return VORTEX_MANA * self.vortexes + MAELSTROM_MANA * self.maelstroms

    def mana_for_reinforcement(self, rulings: DrakerysRulings | None = None) -> int:
        """Mana the Sources leave for reinforcement once the cost is paid (RulesError if they cannot pay)."""
        rulings = rulings or DrakerysRulings()
        supplied = self.mana_supplied()
        if self.has_maelstrom and rulings.maelstrom_mana == "after-cost":
            return supplied
        if self.cost > supplied:
            raise RulesError(f"cost {self.cost} is more than the {supplied} Mana the sources supply "
                             f"({self.describe_sources()})")
        return supplied - self.cost

    def check_mana(self, rulings: DrakerysRulings | None = None) -> None:
        """RulesError unless the Sources can pay the cost and the reinforcement."""
        left = self.mana_for_reinforcement(rulings)
        if self.mana > left:
            raise RulesError(f"mana {self.mana} is more than the {left} the sources leave for reinforcement "
                             f"({self.describe_sources()}, cost {self.cost})")

    def describe_sources(self) -> str:
        parts = []
        if self.vortexes:
            parts.append(f"{self.vortexes} Vortex{'es' if self.vortexes != 1 else ''} × {VORTEX_MANA}")
        if self.maelstroms:
            parts.append(f"{self.maelstroms} Maelstrom{'s' if self.maelstroms != 1 else ''} × "
                         f"{MAELSTROM_MANA}")
        return " + ".join(parts)

    def describe(self) -> str:
        dice = f"1 + {self.mana} Mana" + (f" + {self.heroic} heroic" if self.heroic else "")
        return (f"level-{self.level} Wizard, {self.distance_cm:g} cm, {self.sources} source"
                f"{'s' if self.sources != 1 else ''}: {dice} = {self.dice}d10, threshold {self.threshold}+")


@dataclass(frozen=True)
class SpellDistribution:
    """Distribution of a Spell roll: successes, effect tier, natural 1s and Cataclysmic Effect.

    ``joint[s, o]`` is P(s successes, o natural 1s counted), exact or estimated from ``run`` (then
    ``run.counts`` holds the histogram; its last row collects overflow, expected empty). ``injuries`` is
    the exact PMF of injuries from the 2D10 hits of a 4+ cataclysm (None without a Maelstrom).
    """

    cast: SpellCast
    rulings: DrakerysRulings
    joint: np.ndarray
    injuries: np.ndarray | None
    run: runner.RunResult | None = None

    @property
    def exact(self) -> bool:
        return self.run is None

    @property
    def roll(self) -> SpellCast:
        """The cast (named ``roll`` like the other roll distributions, for plots)."""
        return self.cast

    @property
    def successes(self) -> np.ndarray:
        return self.joint.sum(axis=1)

    @property
    def ones(self) -> np.ndarray:
        return self.joint.sum(axis=0)

    @property
    def overflow_trials(self) -> int:
        """Trials beyond the histogram's success range (kept in its last row; expected 0)."""
        return 0 if self.run is None else int(self.run.counts[-1, :].sum())

    def _tier_of(self, size: int) -> np.ndarray:
        return np.searchsorted(np.asarray(self.cast.tiers), np.arange(size), side="right")

    @property
    def tiers(self) -> np.ndarray:
        """P(tier t) for t = 0 (no success: the spell fails) .. len(tiers)."""
        out = np.zeros(len(self.cast.tiers) + 1)
        np.add.at(out, self._tier_of(self.joint.shape[0]), self.successes)
        return out

    @property
    def cataclysm(self) -> np.ndarray:
        """P(cataclysm level c) for c = 0..4 (4: four 1s or more)."""
        out = np.zeros(CATACLYSM_TOP + 1)
        np.add.at(out, np.minimum(np.arange(self.joint.shape[1]), CATACLYSM_TOP), self.ones)
        return out

    @property
    def tier_cataclysm(self) -> np.ndarray:
        """Joint ``p[tier, cataclysm level]``."""
        out = np.zeros((len(self.cast.tiers) + 1, CATACLYSM_TOP + 1))
        tier = self._tier_of(self.joint.shape[0])
        level = np.minimum(np.arange(self.joint.shape[1]), CATACLYSM_TOP)
        np.add.at(out, (tier[:, None], level[None, :]), self.joint)
        return out

    @property
    def effect(self) -> np.ndarray:
        """P(the spell takes effect at tier t): tier t reached and, with a Maelstrom, no cataclysm of level
        3 or more. Index 0 is P(the spell fails). Level 2 counts as taking effect (see ``effect_at_risk``)."""
        joint = self.tier_cataclysm
        out = joint.sum(axis=1) if not self.cast.has_maelstrom else joint[:, :CATACLYSM_FAILS].sum(axis=1)
        out[0] = 1.0 - out[1:].sum()
        return out

    @property
    def effect_at_risk(self) -> np.ndarray:
        """P(tier t and a level-2 cataclysm): the spell takes effect unless the injury withdraws the
        Wizard."""
        if not self.cast.has_maelstrom:
            return np.zeros(len(self.cast.tiers) + 1)
        out = self.tier_cataclysm[:, 2].copy()
        out[0] = 0.0
        return out

    def mean(self, what: str = "successes") -> Estimate:
        """Mean successes or natural 1s (standard error 0 when exact)."""
        axis = 1 if what == "successes" else 0
        if self.run is None:
            return Estimate(simexact.mean(self.joint.sum(axis=axis)), 0.0, 0)
        return histogram_mean(self.run.counts.sum(axis=axis))


def _ones_joint(cast: SpellCast, rulings: DrakerysRulings) -> np.ndarray:
    return success_roll_marked_joint(cast.dice, SIDES, cast.threshold, [CATACLYSM_FACE],
                                     chain=rulings.crit_chain, mark_extra=rulings.maelstrom_ones == "all")


def cataclysm_injuries(resistance: int, rulings: DrakerysRulings | None = None) -> np.ndarray:
    """Exact PMF of the injuries dealt by the 2D10 hits (Strength 3) of a 4+ cataclysm: the number of hits
    is the sum of two d10, each hit one die of an injury roll against ``resistance``."""
    rulings = rulings or DrakerysRulings()
    resistance = whole_number("resistance", resistance, 0, 100)
    hits = simexact.convolve_power(simexact.die_pmf(SIDES), CATACLYSM_HIT_DICE)
    by_dice = _exact.success_pmfs_by_dice(hits.size - 1, action_threshold(CATACLYSM_STRENGTH, resistance),
                                          rulings)
    return simexact.mixture(hits, by_dice)


def spell_distribution(cast: SpellCast, rulings: DrakerysRulings | None = None) -> SpellDistribution:
    """Exact distribution of a Spell roll and, with a Maelstrom, of its Cataclysmic Effect."""
    rulings = rulings or DrakerysRulings()
    cast.check_mana(rulings)
    injuries = cataclysm_injuries(cast.resistance, rulings) if cast.has_maelstrom else None
    return SpellDistribution(cast, rulings, _ones_joint(cast, rulings), injuries)


def simulate_spell(cast: SpellCast, rulings: DrakerysRulings | None = None, *, trials: int, seed: int,
                   threads: int | None = None, precision: float | None = None,
                   progress: runner.Progress | None = None,
                   max_batch_chunks: int | None = None) -> SpellDistribution:
    """Monte Carlo distribution of a Spell roll: every roll one draw (one 64-bit word) from the exact joint
    distribution of its successes and natural 1s (simcore.sampling). The injuries of a 4+ cataclysm stay
    exact (they do not depend on the roll).

    ``precision`` stops the run once the 95% half-width of the mean number of successes is below it.
    """
    # the runner loads numba: imported here, so that the exact rolls and tables never do
    from simcore import runner

    rulings = rulings or DrakerysRulings()
    cast.check_mana(rulings)
    c_max = _exact.criticals_bound(cast.action_roll, rulings)
    # every first die ends its chain of extra dice on one face below 10, so at most one 1 per first die
    shape = (cast.dice + c_max + 2, cast.dice + 1)
    try:
        result = runner.run_table(_ones_joint(cast, rulings), shape, trials, seed, threads=threads,
                                  precision=precision,
                                  statistic=lambda counts: histogram_mean(counts.sum(axis=1)),
                                  progress=progress, max_batch_chunks=max_batch_chunks)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    injuries = cataclysm_injuries(cast.resistance, rulings) if cast.has_maelstrom else None
    return SpellDistribution(cast, rulings, result.counts / result.trials, injuries, result)


@dataclass(frozen=True)
class InvocationRoll:
    """An Elemental invocation roll (INVOKING AN ELEMENTAL, step 3).

    Attributes:
        extra_dice: d10 added for 1 TS each (0..20); only from a Vortex not occupied by an Elemental.
        source: ``vortex`` or ``maelstrom``.
    """

    extra_dice: int = 0
    source: str = "vortex"

    def __post_init__(self) -> None:
        extra = whole_number("extra dice", self.extra_dice, 0, MAX_INVOCATION_EXTRA)
        object.__setattr__(self, "extra_dice", extra)
        if self.source not in SOURCES:
            raise RulesError(f"source {self.source!r} is not one of {', '.join(SOURCES)}")
        if self.source == "maelstrom" and self.extra_dice:
            raise RulesError(f"extra dice {self.extra_dice}: only a Vortex not occupied by an Elemental "
                             f"takes extra dice, not a Maelstrom (INVOKING AN ELEMENTAL, step 3)")

    @property
    def dice(self) -> int:
        return INVOCATION_DICE + self.extra_dice


@dataclass(frozen=True)
class MaelstromElements:
    """The Maelstrom element table, exactly.

    Attributes:
        elements: (element, d10 faces, probability) for each final outcome, table order.
        extra_ts: P(k extra TS) for k = 0..len - 1 (one per 1 rolled before the final face).
        extra_ts_beyond: P(more extra TS than the table lists).
        mean_extra_ts: expected extra TS.
    """

    elements: tuple[tuple[str, str, Fraction], ...]
    extra_ts: tuple[Fraction, ...]
    extra_ts_beyond: Fraction
    mean_extra_ts: Fraction


def maelstrom_element_table(max_extra_ts: int | None = None) -> MaelstromElements:
    """Exact outcome of the Maelstrom element table: each element with probability (its faces) / (faces
    that are not "roll again"); the rolls again are geometric.

    Args:
        max_extra_ts: list P(k extra TS) for k = 0..max_extra_ts (default: while P(at least k) >= 1e-12).
    """
    again = Fraction(sum(1 for v in ELEMENT_TABLE.values() if v is None), len(ELEMENT_TABLE))
    stop = 1 - again
    faces: dict[str, list[int]] = {}
    for face, outcome in ELEMENT_TABLE.items():
        if outcome is not None:
            faces.setdefault(outcome, []).append(face)
    elements = tuple((name, f"{fs[0]}-{fs[-1]}" if len(fs) > 1 else str(fs[0]),
                      Fraction(len(fs), len(ELEMENT_TABLE)) / stop) for name, fs in faces.items())
    if max_extra_ts is None:
        max_extra_ts = 0
        while again ** (max_extra_ts + 1) >= EXTRA_TS_FLOOR:
            max_extra_ts += 1
    max_extra_ts = whole_number("max extra TS", max_extra_ts, 0, 100)
    extra_ts = tuple(again**k * stop for k in range(max_extra_ts + 1))
    return MaelstromElements(elements, extra_ts, again ** (max_extra_ts + 1), again / stop)


@dataclass(frozen=True)
class InvocationDistribution:
    """Exact outcome of an invocation roll.

    Attributes:
        successes: PMF of successes of the roll (no criticals: not an Action-Table roll).
        p_invoked: P(at least one success) with 0..roll.extra_dice extra dice, as exact fractions.
        elements: the Maelstrom element table (None for a Vortex: its own element).
    """

    roll: InvocationRoll
    successes: np.ndarray
    p_invoked: tuple[Fraction, ...]
    elements: MaelstromElements | None

    @property
    def p_success(self) -> float:
        """P(at least one success) of the roll itself (with all its extra dice)."""
        return float(1.0 - self.successes[0])


def invocation_distribution(roll: InvocationRoll) -> InvocationDistribution:
    """Exact distribution of an Elemental invocation roll (and the element table from a Maelstrom)."""
    fail = Fraction(INVOCATION_THRESHOLD - 1, SIDES)
    p_invoked = tuple(1 - fail ** (INVOCATION_DICE + k) for k in range(roll.extra_dice + 1))
    successes = simexact.success_roll_joint(roll.dice, SIDES, INVOCATION_THRESHOLD, TOP_SUCCESS, marginal=0)
    elements = maelstrom_element_table() if roll.source == "maelstrom" else None
    return InvocationDistribution(roll, successes, p_invoked, elements)


__all__ = [
    "CATACLYSM_EFFECTS",
    "CATACLYSM_FAILS",
    "CATACLYSM_TOP",
    "ELEMENT_TABLE",
    "EXTRA_TS_FLOOR",
    "INVOCATION_THRESHOLD",
    "MAELSTROM_MANA",
    "MAX_INVOCATION_EXTRA",
    "MAX_WIZARD_LEVEL",
    "MIRAGE_TIERS",
    "SOURCES",
    "VORTEX_MANA",
    "InvocationDistribution",
    "InvocationRoll",
    "MaelstromElements",
    "SpellCast",
    "SpellDistribution",
    "cataclysm_injuries",
    "invocation_distribution",
    "maelstrom_element_table",
    "simulate_spell",
    "spell_distribution",
    "started_tens",
    "tier_labels",
]
