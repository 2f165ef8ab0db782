"""Exact distributions of UberDrakes' chance: the combat rolloff, the Furnace, Blood points and the price of
Victory Points (seed 003; ../shared/RULES.md §4).

The rolloff (lines 309-315, 371): a side rolls 2 + Rage d6, keeps the highest two and adds its bonuses; the
initiator wins ties. Each side's total is independent of the other's, so P(initiator wins) is one sum over
the two totals' PMFs, exact to rounding.

Pure numpy, no numba: the exact tables start without the compiler.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.uberdrakes.rules import (
    BP_VP,
    BP_VP_STEP,
    KEPT,
    MAX_BONUS,
    MAX_RAGE,
    MAX_ROLLED_RAGE,
    SIDES,
    UberDrakesRulings,
)


@functools.lru_cache(maxsize=64)
def dice_total_pmf(rage: int) -> np.ndarray:
    """P(the highest two of n = 2 + ``rage`` d6 sum to s), s = index (0..12), by counting the rolls: the
    top two are a > b when one die shows a and the other n - 1 show at most b, b at least once
    (n (b^(n-1) - (b-1)^(n-1)) rolls); a = b when every die shows at most a and a at least twice
    (a^n - (a-1)^n - n (a-1)^(n-1) rolls). Exact integers, divided once by 6^n. Read-only."""
    whole_number("Rage", rage, 0, MAX_ROLLED_RAGE)
    n = KEPT + rage
    counts = [0] * (KEPT * SIDES + 1)
    for (a, b), count in _pair_counts(n).items():
        counts[a + b] += count
    pmf = np.array(counts, dtype=np.float64) / float(SIDES ** n)
    pmf.setflags(write=False)
    return pmf


@functools.lru_cache(maxsize=64)
def rolled_totals(rage: int) -> tuple[np.ndarray, np.ndarray]:
    """(int64[k] the totals the highest two of 2 + ``rage`` d6 can make, float64[k] their probabilities):
    :func:`dice_total_pmf` where it is not zero. Read-only."""
    pmf = dice_total_pmf(rage)
    totals = np.flatnonzero(pmf)
    chances = pmf[totals]
    totals.setflags(write=False)
    chances.setflags(write=False)
    return totals, chances


def _pair_counts(n: int) -> dict[tuple[int, int], int]:
    """The rolls of n d6 whose highest two are (a, b), a >= b (the counts of :func:`dice_total_pmf`)."""
    out = {}
    for a in range(1, SIDES + 1):
        out[(a, a)] = a ** n - (a - 1) ** n - n * (a - 1) ** (n - 1)
        for b in range(1, a):
            out[(a, b)] = n * (b ** (n - 1) - (b - 1) ** (n - 1))
    return {pair: c for pair, c in out.items() if c}


def pair_pmf(rage: int) -> tuple[tuple[tuple[int, int], float], ...]:
    """((highest, second highest), probability) of the 2 + ``rage`` d6 of a rolloff: what a die added
    later competes with under UD-item-die=re-keep-highest-two."""
    whole_number("Rage", rage, 0, MAX_ROLLED_RAGE)
    n = KEPT + rage
    return tuple((pair, count / SIDES ** n) for pair, count in _pair_counts(n).items())


def win_table(initiator_rages, defender_rages, differences) -> np.ndarray:
    """P(the initiator wins the rolloff) for every (initiator's Rage, defender's Rage, bonus difference)
    at once: sum over the initiator's dice total t of P(t) P(defender's dice total <= t + difference)."""
    differences = np.asarray(differences)
    cdf = {r: np.concatenate([np.cumsum(dice_total_pmf(r)), [1.0]]) for r in set(defender_rages)}
    t = np.arange(KEPT * SIDES + 1)
    index = np.clip(t[None, :] + differences[:, None], -1, KEPT * SIDES + 1)  # -1: below every total
    out = np.empty((len(initiator_rages), len(defender_rages), differences.size))
    for j, rd in enumerate(defender_rages):
        at_most = np.where(index < 0, 0.0, cdf[rd][np.maximum(index, 0)])  # (differences, t)
        for i, ri in enumerate(initiator_rages):
            out[i, j] = at_most @ dice_total_pmf(ri)
    return out


@dataclass(frozen=True)
class Side:
    """One combatant's rolloff: its Rage (temporary included) and the sum of its bonuses."""

    rage: int = 0
    bonus: int = 0

    def __post_init__(self) -> None:
        whole_number("Rage", self.rage, 0, MAX_ROLLED_RAGE)
        if isinstance(self.bonus, bool) or not isinstance(self.bonus, int) or abs(self.bonus) > MAX_BONUS:
            raise RulesError(f"bonus {self.bonus!r} is not a whole number from -{MAX_BONUS} to {MAX_BONUS}")

    def total_pmf(self) -> tuple[int, np.ndarray]:
        """(lowest total, PMF from it): the dice total shifted by the bonus."""
        return self.bonus, dice_total_pmf(self.rage)


@dataclass(frozen=True)
class Rolloff:
    """The exact rolloff of ``initiator`` against ``defender``: P(the initiator wins), each side's total and
    the margin (initiator total - defender total) as (lowest value, PMF)."""

    initiator: Side
    defender: Side
    p_win: float
    initiator_total: tuple[int, np.ndarray]
    defender_total: tuple[int, np.ndarray]
    margin: tuple[int, np.ndarray]

    @property
    def p_tie(self) -> float:
        low, pmf = self.margin
        return float(pmf[-low]) if low <= 0 < low + pmf.size else 0.0


def rolloff(initiator: Side, defender: Side) -> Rolloff:
    """The rolloff, exact (lines 311-315): the initiator wins ties."""
    (lo_i, p_i), (lo_d, p_d) = initiator.total_pmf(), defender.total_pmf()
    margin = np.convolve(p_i, p_d[::-1])  # index k: margin lo_i - (lo_d + len(p_d) - 1) + k
    lo_m = lo_i - (lo_d + p_d.size - 1)
    m = np.arange(lo_m, lo_m + margin.size)
    p_win = float(margin[m >= 0].sum())
    return Rolloff(initiator, defender, p_win, (lo_i, p_i), (lo_d, p_d), (lo_m, margin))


def mean_of(total: tuple[int, np.ndarray]) -> float:
    low, pmf = total
    return float((np.arange(low, low + pmf.size) * pmf).sum())


def p_furnace(magic: int) -> float:
    """P(an opponent within reach gains a Fatigue) from a Furnace of ``magic`` Magic (lines 413-419): it
    rolls 2d6 and a total lower than the Magic spent fails."""
    whole_number("Furnace Magic", magic, 8, 12)
    two = dice_total_pmf(0)
    return float(two[:magic].sum())


def blood_points(initiator_total: int, defender_total: int) -> tuple[int, int]:
    """Blood points (initiator, defender) after a combat of these final totals (lines 315, 338): the winner
    (the initiator on a tie) gains the loser's total, the loser half of it, rounded down."""
    if initiator_total >= defender_total:
        return defender_total, defender_total // 2
    return initiator_total // 2, initiator_total


def victory_point_prices(count: int, rulings: UberDrakesRulings | None = None, bought_before: int = 0
                         ) -> list[int]:
    """Blood points for each of ``count`` Victory Points bought in one exchange (line 349: 20, "+5 for each
    additional Victory Point purchased this way"); with UD-vp-escalation=per-game the ones bought earlier
    in the game count too."""
    rulings = rulings or UberDrakesRulings()
    whole_number("Victory Points", count, 1, 100)
    start = bought_before if rulings.vp_escalation == "per-game" else 0
    return [BP_VP + BP_VP_STEP * (start + k) for k in range(count)]


@dataclass(frozen=True)
class Combatant:
    """A combatant's situation before the rolloff, from which its Rage and bonus are built (RULES.md §4):
    ``elemental`` the total of its riders' elemental bonuses against the opponent (line 303; per-rider
    values are not printed), ``mountain`` 0..4 while on a mountain (172), ``fatigued`` at 3 Fatigue (305,
    UD-fatigue-bonus), ``camouflage`` (initiator only, 472-474, UD-camouflage), ``sandstorm`` +2 (501),
    ``supercharge`` its own elemental bonuses doubled and those against it void (585-587), ``rage_potions``
    +1 temporary Rage each, before the roll (705-707), ``other`` any further bonus."""

    rage: int = 0
    elemental: int = 0
    mountain: int = 0
    fatigued: bool = False
    camouflage: bool = False
    sandstorm: bool = False
    supercharge: bool = False
    rage_potions: int = 0
    other: int = 0

    def __post_init__(self) -> None:
        whole_number("Rage", self.rage, 0, MAX_RAGE)
        whole_number("elemental bonus", self.elemental, 0, MAX_BONUS)
        whole_number("Mountain bonus", self.mountain, 0, 4)
        whole_number("Rage Potions", self.rage_potions, 0, MAX_RAGE)
        if isinstance(self.other, bool) or not isinstance(self.other, int) or abs(self.other) > MAX_BONUS:
            raise RulesError(f"bonus {self.other!r} is not a whole number from -{MAX_BONUS} to {MAX_BONUS}")


def combat_sides(initiator: Combatant, defender: Combatant, rulings: UberDrakesRulings
                 ) -> tuple[Side, Side, list[tuple[str, str]]]:
    """Each side's Rage and bonus for the rolloff, and how each was built (for reports)."""
    if defender.camouflage:
        raise RulesError("Camouflage is the initiator's only: a surprise attack bonus (lines 472-474)")
    sides, notes = [], []
    both = (initiator, defender)
    for i, (me, foe) in enumerate(((initiator, defender), (defender, initiator))):
        name = ("initiator", "defender")[i]
        parts = []
        elemental = me.elemental
        fatigue_off = me.fatigued or (rulings.fatigue_bonus == "both" and any(c.fatigued for c in both))
        if elemental and fatigue_off:
            parts.append(f"elemental {elemental} void (3 Fatigue, UD-fatigue-bonus={rulings.fatigue_bonus})")
            elemental = 0
        elif elemental and foe.supercharge:
            parts.append(f"elemental {elemental} void (the opponent's Supercharge)")
            elemental = 0
        elif elemental:
            if me.supercharge:
                elemental *= 2
            parts.append(f"elemental {elemental}{' (Supercharge: doubled)' if me.supercharge else ''}")
        bonus = elemental + me.mountain + me.other
        if me.mountain:
            parts.append(f"Mountain +{me.mountain}")
        if me.camouflage:
            bonus += rulings.camouflage
            parts.append(f"Camouflage +{rulings.camouflage} (UD-camouflage)")
        if me.sandstorm:
            bonus += 2
            parts.append("Sandstorm +2")
        if me.other:
            parts.append(f"other {me.other:+d}")
        rage = me.rage + me.rage_potions
        rage_text = f"Rage {me.rage}" + (f" + {me.rage_potions} Rage Potion(s)" if me.rage_potions else "")
        notes.append((name, f"{rage_text}: {KEPT + rage} dice, the highest two kept; bonus {bonus:+d}"
                            + (f" ({'; '.join(parts)})" if parts else "")))
        sides.append(Side(rage, bonus))  # every die said is rolled
    return sides[0], sides[1], notes
