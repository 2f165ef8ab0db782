"""Public API of Drakerys Fights, Shootings and engagements: validate, run the kernels, summarise."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.drakerys.fight import MORALE_OUTCOMES, Combatant, side_array
from rulesets.drakerys.kernels_fight import _engagement_chunks, _fight_chunks, _shooting_chunks
from rulesets.drakerys.rules import DrakerysRulings
from rulesets.drakerys.units import Weapon
from simcore import config, runner
from simcore.stats import Estimate, histogram_mean, proportion

#: Result codes of one Fight, by meaning (see fight.py).
A_WINS = (1, 2, 3, 4, 9)
B_WINS = (5, 6, 7, 8, 10)
DRAW = (0,)
BOTH_DESTROYED = (11,)
#: The longest game: six rounds of 16 Time Sections, plus one action.
_TS_BOUND = 6 * 16 + 17


def _sides(a: Combatant, b: Combatant, rulings: DrakerysRulings, weapons: dict[str, Weapon] | None):
    def weapon(c: Combatant) -> Weapon | None:
        if c.unit.weapon is None or weapons is None:
            return None
        return weapons[c.unit.weapon]

    return np.vstack([side_array(a, rulings, weapon(a)), side_array(b, rulings, weapon(b))])


def _width(*combatants: Combatant) -> int:
    """Histogram width: every count of warriors, injuries (generously) and TS fits below it."""
    dice = max(c.size * (c.unit.profile.power + 3 + c.stress) + 10 for c in combatants)
    return max(_TS_BOUND, 3 * dice + 40)


def _run(kernel, args, shape, trials, seed, threads, precision, statistic, progress, chunk_trials,
         batch_chunks):
    try:
        return runner.run(kernel, args, shape, trials, seed, threads=threads, precision=precision,
                          statistic=statistic, progress=progress, chunk_trials=chunk_trials,
                          max_batch_chunks=batch_chunks)
    except ValueError as exc:
        raise RulesError(str(exc)) from None


@dataclass(frozen=True)
class FightResult:
    """Histograms of one Fight simulated ``run.trials`` times (rows as in kernels_fight._fight_chunks)."""

    attacker: Combatant
    target: Combatant
    charge: bool
    rulings: DrakerysRulings
    run: runner.RunResult

    def share(self, row: int, values) -> Estimate:
        """P(the row's value is one of ``values``)."""
        counts = self.run.counts[row]
        return proportion(int(counts[list(values)].sum()), self.run.trials)

    def outcome(self, codes) -> Estimate:
        return self.share(2, codes)

    def mean(self, row: int) -> Estimate:
        return histogram_mean(self.run.counts[row])

    def overflow(self) -> int:
        return int(self.run.counts[[0, 1, 3, 4], -1].sum())

    def ap_destroyed(self, side: int, ap: int) -> Estimate:
        """Army Points of ``side`` (0 attacker, 1 target) destroyed, scattered warriors included, when
        its unit costs ``ap``."""
        size = (self.attacker, self.target)[side].size
        lost = self.mean(5 + side)
        return Estimate(lost.value * ap / size, lost.stderr * ap / size, lost.trials)


def simulate_fight(attacker: Combatant, target: Combatant, *, charge: bool,
                   rulings: DrakerysRulings | None = None, weapons: dict[str, Weapon] | None = None,
                   trials: int, seed: int, threads: int | None = None, precision: float | None = None,
                   progress: runner.Progress | None = None,
                   chunk_trials: int = config.CHUNK_TRIALS,
                   batch_chunks: int | None = None) -> FightResult:
    """One Fight of ``attacker`` (Charging when ``charge``) against ``target``, ``trials`` times.

    ``precision`` stops once the 95% half-width of P(attacker wins alone) is below it.
    """
    rulings = rulings or DrakerysRulings()
    side = _sides(attacker, target, rulings, weapons)
    width = _width(attacker, target)
    run = _run(_fight_chunks, (side, bool(charge), bool(rulings.crit_chain)), (7, width), trials, seed,
               threads, precision, lambda c: proportion(int(c[2, list(A_WINS)].sum()), int(c[2].sum())),
               progress, chunk_trials,
               batch_chunks)
    return FightResult(attacker, target, charge, rulings, run)


@dataclass(frozen=True)
class ShootingResult:
    """Histograms of one Shooting (rows: warriors removed, injuries inflicted, target's morale)."""

    shooter: Combatant
    target: Combatant
    weapon: Weapon
    distance_cm: int
    rulings: DrakerysRulings
    run: runner.RunResult

    def mean(self, row: int) -> Estimate:
        return histogram_mean(self.run.counts[row])

    def morale(self) -> dict[str, Estimate]:
        counts = self.run.counts[2]
        names = (*MORALE_OUTCOMES, "no roll")
        return {n: proportion(int(counts[k]), self.run.trials) for k, n in enumerate(names)}


def check_shot(shooter: Combatant, weapon: Weapon | None, distance_cm: int) -> Weapon:
    """The weapon ``shooter`` fires at ``distance_cm``; RulesError when it cannot shoot that far."""
    u = shooter.unit
    if weapon is None or u.profile.shooting is None:
        raise RulesError(f"{u.name} has no ranged weapon, so it cannot shoot")
    distance_cm = whole_number("distance (cm)", distance_cm, 0)
    if distance_cm > weapon.max_range_cm:
        raise RulesError(f"{u.name}'s {weapon.name} reaches {weapon.max_range_cm} cm, not {distance_cm} cm")
    return weapon


def simulate_shooting(shooter: Combatant, target: Combatant, *, distance_cm: int, weapons: dict[str, Weapon],
                      rulings: DrakerysRulings | None = None, trials: int, seed: int,
                      threads: int | None = None, precision: float | None = None,
                      progress: runner.Progress | None = None,
                   chunk_trials: int = config.CHUNK_TRIALS,
                   batch_chunks: int | None = None) -> ShootingResult:
    """One Shooting of ``shooter`` at ``target`` from ``distance_cm``, ``trials`` times.

    ``precision`` stops once the 95% half-width of the mean injuries inflicted is below it.
    """
    rulings = rulings or DrakerysRulings()
    weapon = check_shot(shooter, weapons.get(shooter.unit.weapon or ""), distance_cm)
    side = _sides(shooter, target, rulings, weapons)
    run = _run(_shooting_chunks, (side, np.int64(distance_cm), bool(rulings.crit_chain)),
               (3, _width(shooter, target)), trials, seed, threads, precision,
               lambda c: histogram_mean(c[1]), progress, chunk_trials,
               batch_chunks)
    return ShootingResult(shooter, target, weapon, int(distance_cm), rulings, run)


@dataclass(frozen=True)
class EngagementResult:
    """Histograms of engagements to the end (rows as in kernels_fight._engagement_chunks)."""

    a: Combatant
    b: Combatant
    shoot_from_cm: int | None
    rounds: int
    rulings: DrakerysRulings
    run: runner.RunResult

    def outcome(self, code: int) -> Estimate:
        return proportion(int(self.run.counts[0, code]), self.run.trials)

    def mean(self, row: int) -> Estimate:
        return histogram_mean(self.run.counts[row])

    def ap_destroyed(self, side: int, ap: int) -> Estimate:
        """Army Points destroyed on ``side`` (0 = a, 1 = b) when its unit costs ``ap``."""
        size = (self.a, self.b)[side].size
        lost = self.mean(3 + side)
        return Estimate(lost.value * ap / size, lost.stderr * ap / size, lost.trials)


def simulate_engagement(a: Combatant, b: Combatant, *, shoot_from_cm: int | None = None,
                        rulings: DrakerysRulings | None = None, weapons: dict[str, Weapon] | None = None,
                        rounds: int = 6, trials: int, seed: int, threads: int | None = None,
                        precision: float | None = None,
                        progress: runner.Progress | None = None,
                   chunk_trials: int = config.CHUNK_TRIALS,
                   batch_chunks: int | None = None) -> EngagementResult:
    """``a`` charges ``b`` (or opens fire from ``shoot_from_cm``), then both fight on until one is
    destroyed or scatters or the game's ``rounds`` end. ``precision`` targets P(a wins)."""
    rulings = rulings or DrakerysRulings()
    rounds = whole_number("rounds", rounds, 1, 6)
    if shoot_from_cm is not None:
        check_shot(a, (weapons or {}).get(a.unit.weapon or ""), shoot_from_cm)
    side = _sides(a, b, rulings, weapons)
    shoot = np.int64(-1 if shoot_from_cm is None else shoot_from_cm)
    run = _run(_engagement_chunks, (side, shoot, np.int64(rounds), bool(rulings.crit_chain)),
               (8, _width(a, b)), trials, seed, threads, precision,
               lambda c: proportion(int(c[0, 0]), int(c[0].sum())), progress, chunk_trials,
               batch_chunks)
    return EngagementResult(a, b, shoot_from_cm, rounds, rulings, run)
