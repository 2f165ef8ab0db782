"""Public API of Drakerys battles: several units a side on the TimePath, played by the game's own sequence
(seed 002: THE TIMEPATH, MAKE WAR!, UNITS ACTIONS, FIGHTING), for contests at equal points.

Side 0 (``force_a``) is the First Player. The kernels are in kernels_battle.py, whose docstring states the
rules they follow and their readings; :func:`battle_notes` says in a report what they leave out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.drakerys.fight import (
    N_BATTLE_RECORD,
    N_SIDE,
    BattleRecord,
    Combatant,
    EngagementOutcome,
    Side,
    Targeting,
    Tokens,
)
from rulesets.drakerys.kernels_battle import _battle_records
from rulesets.drakerys.rules import MAX_BATTLE_UNITS, ROUNDS, DrakerysRulings
from rulesets.drakerys.simulate import _side, _sides, _stages
from rulesets.drakerys.units import Weapon
from simcore import config, runner
from simcore.stats import Estimate, proportion, sample_mean

__all__ = ["BattleRecords", "battle_notes", "battle_records"]

#: DK-battle-targeting and DK-battle-tokens values as the kernel's codes.
_TARGETING = {"nearest": Targeting.NEAREST, "focus": Targeting.FOCUS}
_TOKENS = {"player": Tokens.PLAYER, "unit": Tokens.UNIT}


def battle_notes() -> list[str]:
    """What a report of battles must say about the rules of several units a side that are not modelled."""
    return [
        "Battles play on a line: side 0's units start at 0 cm, side 1's at the start distance; units are "
        "points that block nothing, with no terrain, obstacles or lines of sight.",
        "A Fight involves the two units of the Action only: their Advantage counts the enemy unit's "
        "warriors and Stress alone, not \"all the Enemy Units it is Engaged with\", and only they take a "
        "Morale roll.",
        "Allied units engaged with the same enemy give each fighter +1 Initiative per unit and one reroll "
        "per warrior (every warrior counts as in contact); which warriors touch which (REFORMATION, the "
        "free moves of an Attack) is not modelled.",
        "Authority gives allied units a Morale die each while its unit stands, as DK-authority-range says "
        "(every allied unit, or those within its [X] cm on the line). Safeguard's 6-9 move to an allied "
        "Guard unit within 10 cm on the line (DK-safeguard-transfer), and a Hero charges with an Infantry "
        "Guard unit within 10 cm (DK-combined-charge): cohesion is read as distance on the line.",
        "As in the duels, a Morale roll of 1 or 2 successes does not end the Active Unit's activation "
        "(MORALE: \"If this is the Active Unit, its Activation ends\").",
        "The Active Player activates the unit with the fewest Stress markers and targets by "
        "DK-battle-targeting; no other tactics are played.",
    ]


@dataclass(frozen=True)
class BattleRecords:
    """Battles of ``force_a`` (side 0, the First Player) against ``force_b`` (side 1), one record per trial
    (``records[t]``: trial t, columns BattleRecord)."""

    records: np.ndarray
    run: runner.RecordsResult
    force_a: tuple[Combatant, ...]
    force_b: tuple[Combatant, ...]
    rulings: DrakerysRulings
    start_cm: int | None
    rounds: int

    def _column(self, record: BattleRecord) -> np.ndarray:
        return self.records[:, record]

    def _share(self, outcome: EngagementOutcome) -> Estimate:
        return proportion(int(np.count_nonzero(self._column(BattleRecord.OUTCOME) == outcome)),
                          self.records.shape[0])

    def p_wins(self, side: int) -> Estimate:
        """P(``side`` wins: every enemy unit is destroyed or scattered while one of its own stands)."""
        return self._share((EngagementOutcome.SIDE_0_WINS, EngagementOutcome.SIDE_1_WINS)[_side(side)])

    def p_neither(self) -> Estimate:
        """P(both sides stand when the game ends)."""
        return self._share(EngagementOutcome.NEITHER)

    def p_both_destroyed(self) -> Estimate:
        return self._share(EngagementOutcome.BOTH_DESTROYED)

    def warriors_lost(self, side: int) -> Estimate:
        """Mean warriors ``side`` lost (a scattered unit loses every warrior)."""
        return sample_mean(self._column((BattleRecord.LOST_0, BattleRecord.LOST_1)[_side(side)]))

    def units_lost(self, side: int) -> Estimate:
        """Mean units of ``side`` destroyed or scattered."""
        return sample_mean(self._column((BattleRecord.UNITS_LOST_0, BattleRecord.UNITS_LOST_1)[_side(side)]))

    def injuries_suffered(self, side: int) -> Estimate:
        """Mean injuries ``side``'s units suffered, counted before Safeguard."""
        return sample_mean(self._column((BattleRecord.INJURIES_0, BattleRecord.INJURIES_1)[_side(side)]))

    def ts_spent(self, side: int) -> Estimate:
        """Mean Time Sections ``side``'s units spent."""
        return sample_mean(self._column((BattleRecord.TS_0, BattleRecord.TS_1)[_side(side)]))

    def activations(self) -> Estimate:
        """Mean activations of both sides."""
        return sample_mean(self._column(BattleRecord.ACTIVATIONS))


def _force(name: str, force: Sequence[Combatant]) -> tuple[Combatant, ...]:
    force = tuple(force)
    if not force:
        raise RulesError(f"{name} fields no unit; a battle needs 1 to {MAX_BATTLE_UNITS} units a side")
    if len(force) > MAX_BATTLE_UNITS:
        raise RulesError(f"{name} fields {len(force)} units; a battle takes 1 to {MAX_BATTLE_UNITS} a side")
    for c in force:
        if not isinstance(c, Combatant):
            raise RulesError(f"{name} holds {c!r}, not a Combatant")
    return force


def battle_arrays(force_a: tuple[Combatant, ...], force_b: tuple[Combatant, ...], rulings: DrakerysRulings,
                  weapons: dict[str, Weapon] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's (units_side int64[U, N_SIDE], owner int64[U], blocking int64[U, U]) of two forces:
    each pair of enemy units is set up as combat's duels set it up (side rows, weapons, DK-blocking=auto
    chosen for that pair)."""
    n0 = len(force_a)
    n = n0 + len(force_b)
    units_side = np.empty((n, N_SIDE), dtype=np.int64)
    blocking = np.zeros((n, n), dtype=np.int64)
    owner = np.array([0] * n0 + [1] * len(force_b), dtype=np.int64)
    made: dict[tuple[int, int], np.ndarray] = {}  # a force of copies holds one combatant many times
    for i, a in enumerate(force_a):
        for j, b in enumerate(force_b, start=n0):
            pair = made.get((id(a), id(b)))
            if pair is None:
                pair = made[id(a), id(b)] = _sides(a, b, rulings, weapons)
            units_side[i], units_side[j] = pair
            blocking[i, j], blocking[j, i] = pair[:, Side.BLOCKING]
    for k, c in enumerate((*force_a, *force_b)):
        # SAFEGUARD's 6-9 go to a Guard unit the battle fields (DK-safeguard-transfer), not to Combatant.guard
        units_side[k, Side.GUARD] = int(c.unit.has("safeguard") and rulings.safeguard_transfer == "always")
        units_side[k, Side.COMBINED_CHARGE] = int(c.unit.is_hero and rulings.combined_charge == "always")
    return units_side, owner, blocking


def _p_side_0_wins(records: np.ndarray) -> Estimate:
    wins = int(np.count_nonzero(records[:, BattleRecord.OUTCOME] == EngagementOutcome.SIDE_0_WINS))
    return proportion(wins, records.shape[0])


def battle_records(force_a: Sequence[Combatant], force_b: Sequence[Combatant], *,
                   rulings: DrakerysRulings | None = None, weapons: dict[str, Weapon] | None = None,
                   trials: int, seed: int, threads: int | None = None, precision: float | None = None,
                   start_cm: int | None = None, rounds: int = ROUNDS,
                   block_trials: int = config.CHUNK_TRIALS, max_batch_trials: int | None = None,
                   by_die: bool = False, progress: runner.Progress | None = None) -> BattleRecords:
    """Battles of ``force_a`` (side 0, the First Player) against ``force_b`` (side 1), one record per trial.

    The sides start ``start_cm`` apart (None: in contact, so side 0's first unit charges), as
    simulate.engagement_records' ``start_cm``: a battle of one unit a side is that duel, record for record.
    Trial t runs on the trial stream (seed, t), so the same seed gives the same battles for any thread
    count, and a variant meets the same dice (common random numbers). ``precision`` targets P(side 0
    wins); at most config.MAX_RECORD_TRIALS trials. Rulings DK-battle-targeting and DK-battle-tokens choose
    the targets and who owns the Activation Tokens.

    Raises:
        RulesError: an empty force, more than MAX_BATTLE_UNITS units a side, a bad start, rounds, trials,
            seed or threads.
    """
    rulings = rulings or DrakerysRulings()
    force_a, force_b = _force("force A", force_a), _force("force B", force_b)
    rounds = whole_number("rounds", rounds, 1, ROUNDS)
    start = 0 if start_cm is None else whole_number("start distance (cm)", start_cm, 1, 1000)
    units_side, owner, blocking = battle_arrays(force_a, force_b, rulings, weapons)
    args = (_stages(by_die), units_side, owner, blocking, np.int64(start), np.int64(rounds),
            bool(rulings.crit_chain), np.int64(_TARGETING[rulings.battle_targeting]),
            np.int64(_TOKENS[rulings.battle_tokens]))
    try:
        run = runner.run_records(_battle_records, args, N_BATTLE_RECORD, trials, seed, threads=threads,
                                 precision=precision, statistic=_p_side_0_wins, progress=progress,
                                 block_trials=block_trials, max_batch_trials=max_batch_trials)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    return BattleRecords(run.records, run, force_a, force_b, rulings, start_cm, rounds)
