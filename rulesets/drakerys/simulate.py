"""Public API of Drakerys Fights, Shootings and engagements: validate, run the kernels, answer by name.

Results are read only through their named views (``p_wins(side)``, ``casualties(side)``, ``morale(side)``,
``ts_spent(side)``, ...); side 0 is A, the unit that acts (attacks, charges, shoots or opens the
engagement), side 1 is B.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.drakerys.fight import (
    MORALE_OUTCOMES,
    N_FIGHT_OUTCOMES,
    N_RECORD,
    BlockIn,
    Combatant,
    EngagementOutcome,
    EngagementRow,
    FightOutcome,
    FightRow,
    Morale,
    Record,
    ShootingRow,
    Side,
    side_array,
)
from rulesets.drakerys.kernels import (
    STAGES,
    STAGES_BY_DIE,
    _engagement_chunks,
    _engagement_records,
    _fight_chunks,
    _shooting_chunks,
)
from rulesets.drakerys.rules import ENGAGED_CANNOT_SHOOT, MAX_ACTION_TS, ROUNDS, TS_PER_ROUND, DrakerysRulings
from rulesets.drakerys.units import Weapon
from simcore import config, runner
from simcore.stages import BankSpec
from simcore.stats import Estimate, histogram_mean, proportion

__all__ = [
    "EngagementOutcome", "EngagementRecords", "EngagementResult", "FightOutcome", "FightResult",
    "ShootingResult", "check_shot", "engagement_records", "simulate_engagement", "simulate_fight",
    "simulate_shooting",
]

#: Fight outcomes in which side 0 (A) or side 1 (B) wins alone.
_WINS = (
    (FightOutcome.A_WINS_SCATTER, FightOutcome.A_WINS_STRESS, FightOutcome.A_WINS_DOUBT,
     FightOutcome.A_WINS_STEADY, FightOutcome.B_DESTROYED),
    (FightOutcome.B_WINS_SCATTER, FightOutcome.B_WINS_STRESS, FightOutcome.B_WINS_DOUBT,
     FightOutcome.B_WINS_STEADY, FightOutcome.A_DESTROYED),
)
#: The Fight outcome with the side's unit beaten, by its Morale outcome (FightOutcome.X_WINS_<morale>).
_BEATEN = (FightOutcome.B_WINS_SCATTER, FightOutcome.A_WINS_SCATTER)
_DESTROYED = (FightOutcome.A_DESTROYED, FightOutcome.B_DESTROYED)
#: The longest game: every round's Time Sections, plus one action.
_TS_BOUND = ROUNDS * TS_PER_ROUND + MAX_ACTION_TS + 1


def _side(side: int) -> int:
    if side not in (0, 1):
        raise ValueError(f"side {side!r} is not 0 (A) or 1 (B)")
    return int(side)


def _sides(a: Combatant, b: Combatant, rulings: DrakerysRulings, weapons: dict[str, Weapon] | None):
    def weapon(c: Combatant) -> Weapon | None:
        if c.unit.weapon is None or weapons is None:
            return None
        return weapons[c.unit.weapon]

    side = np.vstack([side_array(a, rulings, weapon(a)), side_array(b, rulings, weapon(b))])
    if rulings.blocking == "auto":
        for s, (me, other) in enumerate(((a, b), (b, a))):
            if side[s, Side.BLOCKING]:
                side[s, Side.BLOCKING] = auto_block_mask(me, other, rulings)
    return side


#: Fights simulated each way (blocking, attacking) to choose under DK-blocking=auto, and their seed (fixed:
#: the choice depends on the two units and the rulings only, so a baseline and a variant of a what-if
#: that leave them alone choose alike).
AUTO_BLOCK_TRIALS = 4000
AUTO_BLOCK_SEED = 0xB10C


@functools.lru_cache(maxsize=4096)
def auto_block_mask(me: Combatant, other: Combatant, rulings: DrakerysRulings) -> int:
    """DK-blocking=auto: the kinds of Fight (bits BlockIn) in which ``me`` blocks, each chosen by the
    higher probability of winning that Fight, blocking or attacking, on the same dice."""
    always = dataclasses.replace(rulings, blocking="always")
    mask = 0
    for kind in BlockIn:
        active = kind in (BlockIn.CHARGING, BlockIn.ATTACKING)
        charge = kind in (BlockIn.CHARGING, BlockIn.CHARGED)
        won = []
        for blocks in (True, False):
            mine = dataclasses.replace(me, blocking=blocks)
            attacker, target = (mine, other) if active else (other, mine)
            fight = simulate_fight(attacker, target, charge=charge, rulings=always, trials=AUTO_BLOCK_TRIALS,
                                   seed=AUTO_BLOCK_SEED + kind, threads=1)
            won.append(fight.p_wins(0 if active else 1).value)
        if won[0] > won[1]:
            mask |= 1 << kind
    return mask


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


def _share(counts: np.ndarray, values, trials: int) -> Estimate:
    """P(a histogram row's value is one of ``values``)."""
    return proportion(int(counts[list(values)].sum()), trials)


def _distribution(counts: np.ndarray, top: int, trials: int) -> list[Estimate]:
    """P(value = k) for k = 0..top."""
    return [proportion(int(counts[k]), trials) for k in range(top + 1)]


def _ap(lost: Estimate, size: int, ap: int) -> Estimate:
    """Army Points destroyed when ``lost`` warriors of a unit of ``size`` costing ``ap`` are lost."""
    return Estimate(lost.value * ap / size, lost.stderr * ap / size, lost.trials)


@dataclass(frozen=True)
class FightResult:
    """One Fight of ``attacker`` (side 0) against ``target`` (side 1), simulated ``run.trials`` times."""

    attacker: Combatant
    target: Combatant
    charge: bool
    rulings: DrakerysRulings
    run: runner.RunResult

    def _row(self, row: FightRow) -> np.ndarray:
        return self.run.counts[row]

    def p_wins(self, side: int) -> Estimate:
        """P(``side`` wins alone: it has the higher Advantage, or destroys the enemy and stands)."""
        return _share(self._row(FightRow.OUTCOME), _WINS[_side(side)], self.run.trials)

    def p_draw(self) -> Estimate:
        """P(equal Advantage: both are winners)."""
        return _share(self._row(FightRow.OUTCOME), (FightOutcome.DRAW,), self.run.trials)

    def p_both_destroyed(self) -> Estimate:
        return _share(self._row(FightRow.OUTCOME), (FightOutcome.BOTH_DESTROYED,), self.run.trials)

    def morale(self, side: int) -> dict[str, Estimate]:
        """``side``'s Morale after the Fight: P(scatter), P(stress), P(doubt), P(steady) when it lost and
        rolled, P(destroyed) by strikes, P(no roll) otherwise (it won, or a draw)."""
        side = _side(side)
        counts, n = self._row(FightRow.OUTCOME), self.run.trials
        beaten = _BEATEN[side]
        out = {name: _share(counts, (beaten + k,), n) for k, name in enumerate(MORALE_OUTCOMES)}
        destroyed = (_DESTROYED[side], FightOutcome.BOTH_DESTROYED)
        out["destroyed"] = _share(counts, destroyed, n)
        rolled = [beaten + k for k in range(len(MORALE_OUTCOMES))]
        out["no roll"] = proportion(n - int(counts[[*rolled, *destroyed]].sum()), n)
        return out

    def casualties(self, side: int) -> Estimate:
        """Mean warriors ``side`` lost (a scattered unit loses every warrior)."""
        return histogram_mean(self._row((FightRow.CASUALTIES_0, FightRow.CASUALTIES_1)[_side(side)]))

    def casualty_distribution(self, side: int) -> list[Estimate]:
        """P(``side`` lost k warriors, a scatter included), k = 0 .. its size."""
        side = _side(side)
        size = (self.attacker, self.target)[side].size
        return _distribution(self._row((FightRow.CASUALTIES_0, FightRow.CASUALTIES_1)[side]), size,
                             self.run.trials)

    def removed_distribution(self, side: int) -> list[Estimate]:
        """P(the enemy's strikes removed k warriors of ``side``), k = 0 .. its size (no scatter)."""
        side = _side(side)
        size = (self.attacker, self.target)[side].size
        return _distribution(self._row((FightRow.REMOVED_0, FightRow.REMOVED_1)[side]), size,
                             self.run.trials)

    def injuries_inflicted(self, side: int) -> Estimate:
        """Mean injuries ``side`` inflicted, counted before the enemy's Safeguard."""
        return histogram_mean(self._row((FightRow.INFLICTED_0, FightRow.INFLICTED_1)[_side(side)]))

    def ap_destroyed(self, side: int, ap: int) -> Estimate:
        """Army Points of ``side`` destroyed (scattered warriors included) when its unit costs ``ap``."""
        size = (self.attacker, self.target)[_side(side)].size
        return _ap(self.casualties(side), size, ap)

    def overflow(self) -> int:
        """Trials whose count of warriors or injuries fell in the histogram's last column."""
        rows = [FightRow.REMOVED_0, FightRow.REMOVED_1, FightRow.INFLICTED_0, FightRow.INFLICTED_1]
        return int(self.run.counts[rows, -1].sum())


def _p_wins_alone(counts: np.ndarray) -> Estimate:
    return _share(counts[FightRow.OUTCOME], _WINS[0], int(counts[FightRow.OUTCOME].sum()))


def simulate_fight(attacker: Combatant, target: Combatant, *, charge: bool,
                   rulings: DrakerysRulings | None = None, weapons: dict[str, Weapon] | None = None,
                   trials: int, seed: int, threads: int | None = None, precision: float | None = None,
                   progress: runner.Progress | None = None,
                   chunk_trials: int = config.CHUNK_TRIALS,
                   batch_chunks: int | None = None, by_die: bool = False) -> FightResult:
    """One Fight of ``attacker`` (Charging when ``charge``) against ``target``, ``trials`` times.

    ``precision`` stops once the 95% half-width of P(attacker wins alone) is below it. Every roll is drawn
    whole from its exact distribution (simcore.stages); ``by_die`` rolls every die one by one instead (the
    same distribution, slower: for checks), here and in every simulation of this module.
    """
    rulings = rulings or DrakerysRulings()
    side = _sides(attacker, target, rulings, weapons)
    width = max(_width(attacker, target), N_FIGHT_OUTCOMES)
    args = (_stages(by_die), side, bool(charge), bool(rulings.crit_chain))
    run = _run(_fight_chunks, args, (len(FightRow), width), trials, seed, threads, precision, _p_wins_alone,
               progress, chunk_trials, batch_chunks)
    return FightResult(attacker, target, charge, rulings, run)


@dataclass(frozen=True)
class ShootingResult:
    """One Shooting of ``shooter`` at ``target`` from ``distance_cm``, simulated ``run.trials`` times."""

    shooter: Combatant
    target: Combatant
    weapon: Weapon
    distance_cm: int
    rulings: DrakerysRulings
    run: runner.RunResult

    def morale(self) -> dict[str, Estimate]:
        """The target's Morale: P(scatter), P(stress), P(doubt), P(steady), P(no roll: no casualty, or
        destroyed)."""
        counts = self.run.counts[ShootingRow.MORALE]
        out = {name: proportion(int(counts[k]), self.run.trials) for k, name in enumerate(MORALE_OUTCOMES)}
        out["no roll"] = proportion(int(counts[Morale.NO_ROLL]), self.run.trials)
        return out

    def removed(self) -> Estimate:
        """Mean warriors of the target the shot removed (a scatter not counted: see casualties())."""
        return histogram_mean(self.run.counts[ShootingRow.REMOVED])

    def removed_distribution(self) -> list[Estimate]:
        """P(the shot removed k warriors of the target), k = 0 .. its size."""
        return _distribution(self.run.counts[ShootingRow.REMOVED], self.target.size, self.run.trials)

    def casualties(self) -> Estimate:
        """Mean warriors the target lost: those removed, or every one when its Morale roll scattered it (as
        the Fight and the duel count them)."""
        return histogram_mean(self.run.counts[ShootingRow.CASUALTIES])

    def casualty_distribution(self) -> list[Estimate]:
        """P(the target lost k warriors, a scatter included), k = 0 .. its size."""
        return _distribution(self.run.counts[ShootingRow.CASUALTIES], self.target.size, self.run.trials)

    def injuries_inflicted(self) -> Estimate:
        """Mean injuries the shot inflicted, counted before the target's Safeguard."""
        return histogram_mean(self.run.counts[ShootingRow.INFLICTED])

    def ap_destroyed(self, ap: int) -> Estimate:
        """Army Points of the target destroyed (warriors removed, and every warrior of a unit that scattered)
        when the target costs ``ap``."""
        return _ap(self.casualties(), self.target.size, ap)


def check_shot(shooter: Combatant, weapon: Weapon | None, distance_cm: int) -> Weapon:
    """The weapon ``shooter`` fires at ``distance_cm``; RulesError when it cannot shoot that far."""
    u = shooter.unit
    if weapon is None or u.profile.shooting is None:
        raise RulesError(f"{u.name} has no ranged weapon, so it cannot shoot")
    distance_cm = whole_number("distance (cm)", distance_cm, 0)
    if distance_cm == 0:
        raise RulesError(ENGAGED_CANNOT_SHOOT)
    if distance_cm > weapon.max_range_cm:
        raise RulesError(f"{u.name}'s {weapon.name} reaches {weapon.max_range_cm} cm, not {distance_cm} cm")
    return weapon


def simulate_shooting(shooter: Combatant, target: Combatant, *, distance_cm: int, weapons: dict[str, Weapon],
                      rulings: DrakerysRulings | None = None, trials: int, seed: int,
                      threads: int | None = None, precision: float | None = None,
                      progress: runner.Progress | None = None,
                      chunk_trials: int = config.CHUNK_TRIALS,
                      batch_chunks: int | None = None, by_die: bool = False) -> ShootingResult:
    """One Shooting of ``shooter`` at ``target`` from ``distance_cm``, ``trials`` times.

    ``precision`` stops once the 95% half-width of the mean injuries inflicted is below it.
    """
    rulings = rulings or DrakerysRulings()
    weapon = check_shot(shooter, weapons.get(shooter.unit.weapon or ""), distance_cm)
    side = _sides(shooter, target, rulings, weapons)
    width = max(_width(shooter, target), len(Morale))
    run = _run(_shooting_chunks, (_stages(by_die), side, np.int64(distance_cm), bool(rulings.crit_chain)),
               (len(ShootingRow), width), trials, seed, threads, precision,
               lambda c: histogram_mean(c[ShootingRow.INFLICTED]), progress, chunk_trials, batch_chunks)
    return ShootingResult(shooter, target, weapon, int(distance_cm), rulings, run)


@dataclass(frozen=True)
class EngagementResult:
    """Engagements to the end of ``a`` (side 0, who opens) and ``b`` (side 1), as histograms."""

    a: Combatant
    b: Combatant
    shoot_from_cm: int | None
    rounds: int
    rulings: DrakerysRulings
    run: runner.RunResult
    start_cm: int | None = None

    def _outcome(self, outcome: EngagementOutcome) -> Estimate:
        return proportion(int(self.run.counts[EngagementRow.OUTCOME, outcome]), self.run.trials)

    def _mean(self, row: EngagementRow) -> Estimate:
        return histogram_mean(self.run.counts[row])

    def p_wins(self, side: int) -> Estimate:
        """P(``side`` wins: the enemy is destroyed or scatters while it stands)."""
        return self._outcome((EngagementOutcome.SIDE_0_WINS, EngagementOutcome.SIDE_1_WINS)[_side(side)])

    def p_neither(self) -> Estimate:
        """P(both stand when the game ends)."""
        return self._outcome(EngagementOutcome.NEITHER)

    def p_both_destroyed(self) -> Estimate:
        return self._outcome(EngagementOutcome.BOTH_DESTROYED)

    def casualties(self, side: int) -> Estimate:
        """Mean warriors ``side`` lost (a scattered unit loses every warrior)."""
        return self._mean((EngagementRow.LOST_0, EngagementRow.LOST_1)[_side(side)])

    def injuries_suffered(self, side: int) -> Estimate:
        """Mean injuries ``side`` suffered, counted before its Safeguard."""
        return self._mean((EngagementRow.INJURIES_0, EngagementRow.INJURIES_1)[_side(side)])

    def ap_destroyed(self, side: int, ap: int) -> Estimate:
        """Army Points of ``side`` destroyed when its unit costs ``ap``."""
        return _ap(self.casualties(side), (self.a, self.b)[_side(side)].size, ap)

    def ts_spent(self, side: int) -> Estimate:
        """Mean Time Sections ``side`` spent on its activations."""
        return self._mean((EngagementRow.TS_0, EngagementRow.TS_1)[_side(side)])

    def activations(self) -> Estimate:
        """Mean activations of both sides."""
        return self._mean(EngagementRow.ACTIVATIONS)


def _check_engagement(a: Combatant, shoot_from_cm: int | None, weapons: dict[str, Weapon] | None,
                      rounds: int, start_cm: int | None = None) -> int:
    rounds = whole_number("rounds", rounds, 1, ROUNDS)
    if start_cm is not None:
        if shoot_from_cm is not None:
            raise RulesError("an engagement starts with an opening Shooting or at a distance, not both")
        whole_number("start distance (cm)", start_cm, 1, 1000)
    if shoot_from_cm is not None:
        check_shot(a, (weapons or {}).get(a.unit.weapon or ""), shoot_from_cm)
    return rounds


def _engagement_args(a, b, shoot_from_cm, rulings, weapons, rounds, by_die, start_cm=None) -> tuple:
    side = _sides(a, b, rulings, weapons)
    opening = shoot_from_cm if shoot_from_cm is not None else (-1 if start_cm is None else -2 - start_cm)
    shoot = np.int64(opening)
    return _stages(by_die), side, shoot, np.int64(rounds), bool(rulings.crit_chain)


def _stages(by_die: bool) -> BankSpec:
    """The stage bank the kernels draw whole rolls from (one that rolls die by die with ``by_die``)."""
    return STAGES_BY_DIE if by_die else STAGES


def simulate_engagement(a: Combatant, b: Combatant, *, shoot_from_cm: int | None = None,
                        rulings: DrakerysRulings | None = None, weapons: dict[str, Weapon] | None = None,
                        rounds: int = ROUNDS, trials: int, seed: int, threads: int | None = None,
                        precision: float | None = None,
                        progress: runner.Progress | None = None,
                        chunk_trials: int = config.CHUNK_TRIALS,
                        batch_chunks: int | None = None, by_die: bool = False,
                        start_cm: int | None = None) -> EngagementResult:
    """``a`` charges ``b`` from contact (or opens fire from ``shoot_from_cm``, or both start ``start_cm``
    apart and act by the policy of _choose_action), then both fight on until one is destroyed or scatters
    or the game's ``rounds`` end. ``precision`` targets P(a wins).

    Trial t runs on the trial stream (seed, t), so it meets the same dice as trial t of
    :func:`engagement_records`; ``chunk_trials`` and ``batch_chunks`` only split the work.
    """
    rulings = rulings or DrakerysRulings()
    rounds = _check_engagement(a, shoot_from_cm, weapons, rounds, start_cm)
    args = _engagement_args(a, b, shoot_from_cm, rulings, weapons, rounds, by_die, start_cm)
    outcome = EngagementRow.OUTCOME
    run = _run(_engagement_chunks, args, (len(EngagementRow), _width(a, b)), trials, seed, threads, precision,
               lambda c: proportion(int(c[outcome, EngagementOutcome.SIDE_0_WINS]), int(c[outcome].sum())),
               progress, chunk_trials, batch_chunks)
    return EngagementResult(a, b, shoot_from_cm, rounds, rulings, run, start_cm)


@dataclass(frozen=True)
class EngagementRecords:
    """Engagements of ``a`` (side 0, who opens) and ``b`` (side 1), one record per trial
    (``records[t]``: trial t, columns Record). Every view returns one int64 value per trial."""

    records: np.ndarray
    run: runner.RecordsResult
    a: Combatant
    b: Combatant
    rulings: DrakerysRulings

    def _column(self, record: Record) -> np.ndarray:
        return self.records[:, record]

    def outcome(self) -> np.ndarray:
        """The EngagementOutcome of each trial."""
        return self._column(Record.OUTCOME)

    def lost(self, side: int) -> np.ndarray:
        """Warriors ``side`` lost in all (a scattered unit loses every warrior)."""
        return self._column((Record.LOST_0, Record.LOST_1)[_side(side)])

    def injuries(self, side: int) -> np.ndarray:
        """Injuries ``side`` suffered in all, counted before its Safeguard."""
        return self._column((Record.INJURIES_0, Record.INJURIES_1)[_side(side)])

    def ts(self, side: int) -> np.ndarray:
        """Time Sections ``side`` spent."""
        return self._column((Record.TS_0, Record.TS_1)[_side(side)])

    def activations(self) -> np.ndarray:
        """Activations of both sides."""
        return self._column(Record.ACTIVATIONS)

    def opening_lost(self, side: int) -> np.ndarray:
        """Warriors ``side`` lost during side 0's opening action (its Morale roll and a scatter included)."""
        return self._column((Record.OPENING_LOST_0, Record.OPENING_LOST_1)[_side(side)])

    def opening_injuries(self, side: int) -> np.ndarray:
        """Injuries ``side`` suffered during side 0's opening action."""
        return self._column((Record.OPENING_INJURIES_0, Record.OPENING_INJURIES_1)[_side(side)])

    def opening_ts(self) -> np.ndarray:
        """Time Sections side 0 spent on its opening action."""
        return self._column(Record.OPENING_TS)


def _p_side_0_wins(records: np.ndarray) -> Estimate:
    wins = int(np.count_nonzero(records[:, Record.OUTCOME] == EngagementOutcome.SIDE_0_WINS))
    return proportion(wins, records.shape[0])


def engagement_records(a: Combatant, b: Combatant, *, shoot_from_cm: int | None = None,
                       rulings: DrakerysRulings | None = None, weapons: dict[str, Weapon] | None = None,
                       rounds: int = ROUNDS, trials: int, seed: int, threads: int | None = None,
                       precision: float | None = None,
                       progress: runner.Progress | None = None, block_trials: int = config.CHUNK_TRIALS,
                       max_batch_trials: int | None = None, by_die: bool = False,
                       start_cm: int | None = None) -> EngagementRecords:
    """The engagements of :func:`simulate_engagement`, one record per trial: trial t runs on the trial
    stream (seed, t) whatever ran before it, so two engagements that differ in one stat meet the same dice
    (common random numbers). ``precision`` targets P(a wins); at most config.MAX_RECORD_TRIALS trials.
    ``block_trials`` and ``max_batch_trials`` set how often the precision is checked (see runner.run_records).
    """
    rulings = rulings or DrakerysRulings()
    rounds = _check_engagement(a, shoot_from_cm, weapons, rounds, start_cm)
    args = _engagement_args(a, b, shoot_from_cm, rulings, weapons, rounds, by_die, start_cm)
    try:
        run = runner.run_records(_engagement_records, args, N_RECORD, trials, seed, threads=threads,
                                 precision=precision, statistic=_p_side_0_wins, progress=progress,
                                 block_trials=block_trials, max_batch_trials=max_batch_trials)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    return EngagementRecords(run.records, run, a, b, rulings)
