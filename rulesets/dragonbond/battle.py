"""Dragonbond battles: several units a side, played by the game's own sequence (seed 000, "Order of Play"
357-404, "Activations and Fatigue" 434-516, "Reactions" 518-535, "Upkeep" 612-639, "Combat" 649-757,
"Keywords" 861-871, "Huge Creatures" 955-977), for contests at equal points.

The reading (tests/naive_dragonbond_battle.py plays the same, die by die; the kernel is
kernels_battle.py, running the duel's steps of kernels.py on copied rows):

* Start: "each player takes a turn deploying a single unit" (355) and the game is about units in melee,
  so the lines meet: as in a duel, the units start engaged with every model in contact, fresh. Unit k of
  side 0 is engaged with unit k of side 1; the larger side's units beyond the smaller side's count wrap
  round the enemy line (its unit k engages enemy unit k mod the smaller count). A battle of one unit a side
  is the duel, draw for draw.
* Rounds: "Players start each round with a number of turns equal to 1 + their number of remaining units on
  the battlefield" (373), + X for each living unit with Epic X (871); the face-off winner takes the first
  turn and the players alternate, a player with turns left when the other has none taking them in a row
  (361-367); four rounds (643), or until a side has no unit left.
* A turn: "Select a unit to activate" (383): the player activates its living unit with the least fatigue
  (card and beside; ties: the first listed). Its target is an enemy unit engaged with it if any, else any
  living enemy unit, chosen by DB-battle-targeting. A unit with no living enemy engaged with it moves into
  contact with its target and Attacks ("Move and take an action", 385; every enemy is taken to be within a
  move: no distances are modelled); one too exhausted to move (speed minus the tokens beside it, 422,
  at most 0) Rests instead. A unit whose only weapon is ranged shoots from where it stands. Otherwise
  the turn is the duel's: Rest under the ``rest`` policy when exhausted, else Attack (fatigue 1, before
  or after its roll by DB-fatigue-timing).
* Opportunity attacks (522-535): a unit whose only weapon is ranged shooting while engaged draws a melee
  opportunity attack from each engaged enemy unit that has a melee weapon and is not flanked ("Units that
  are flanked ... are unable to make opportunity attacks"), resolved first, in unit order
  (DB-opportunity-fatigue each).
* Flanking (662-672): "A unit is considered to be Flanked if it is engaged with more than one enemy unit";
  it downgrades its defense rolls by DB-flanking-count.
* Flying (869): "Upgrades one defense die if it did not begin the turn engaged" (DB-flying-turn).
* Wounds, captains, Huge injuries, exhaustion and Upkeep are the duel's (its docstring).

What the battle leaves out, said in every report: :func:`battle_notes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.dragonbond.kernels_battle import (
    N_BATTLE_RECORD,
    BattleOutcome,
    BattleRecord,
    Flanking,
    FlyingTurn,
    Targeting,
    battle_records,
)
from rulesets.dragonbond.rules import BASE_TURNS, MAX_BATTLE_UNITS, TURNS_PER_UNIT, DragonbondRulings
from rulesets.dragonbond.simulate import ROUNDS, Fighter, unit_arrays
from simcore import config, runner
from simcore.stats import Estimate, proportion, sample_mean

__all__ = ["BattleRecords", "battle_notes", "simulate_battle", "starting_engagements"]

#: Rulings as the kernel's codes.
TARGETING = {"focus": Targeting.FOCUS, "line": Targeting.LINE}
FLANKING = {"per-extra-unit": Flanking.PER_EXTRA_UNIT, "per-engaged-unit": Flanking.PER_ENGAGED_UNIT,
            "1": Flanking.ONE}
FLYING_TURN = {"current": FlyingTurn.CURRENT, "own-activation": FlyingTurn.OWN_ACTIVATION}


def battle_notes() -> list[str]:
    """What a report of battles must say about the rules of several units a side that are not modelled."""
    return [
        "Battles start with the lines engaged (unit k against enemy unit k; a larger side's extra units "
        "wrap round the enemy line) and model no distances: a unit whose enemies have fallen moves into "
        "contact with its next target and attacks it (Run, Charge, Coordinated Move, Wait, Disengage, "
        "pile-in, consolidation and terrain are not played).",
        "A shooter whose enemies have fallen shoots from where it stands; a ranged attack into a melee "
        "does not divide its hits among the units engaged there (687).",
        "Each turn the player activates its unit with the least fatigue and targets by "
        "DB-battle-targeting; no other tactics are played.",
        "Powers and Captains' Sacrifice abilities (free text), status effects and Dragonbond pairs are not "
        "played.",
    ]


def starting_engagements(n0: int, n1: int) -> np.ndarray:
    """int64[n0 + n1]: bit e of entry u when unit u starts engaged with unit e (side 0's units first):
    unit k of each side with enemy unit k mod the other side's count."""
    masks = np.zeros(n0 + n1, np.int64)
    for k in range(max(n0, n1)):
        i, j = k % n0, n0 + k % n1
        masks[i] |= np.int64(1) << j
        masks[j] |= np.int64(1) << i
    return masks


@dataclass(frozen=True)
class BattleRecords:
    """Battles of ``force_a`` (side 0) against ``force_b`` (side 1), one record per trial (``records[t]``:
    trial t, columns BattleRecord)."""

    records: np.ndarray
    run: runner.RecordsResult
    force_a: tuple[Fighter, ...]
    force_b: tuple[Fighter, ...]
    rulings: DragonbondRulings
    rounds: int

    def _share(self, outcome: BattleOutcome) -> Estimate:
        hits = int(np.count_nonzero(self.records[:, BattleRecord.OUTCOME] == outcome))
        return proportion(hits, self.records.shape[0])

    def p_wins(self, side: int) -> Estimate:
        """P(``side`` destroys every enemy unit while one of its own stands)."""
        return self._share((BattleOutcome.SIDE_0_WINS, BattleOutcome.SIDE_1_WINS)[_side(side)])

    def p_neither(self) -> Estimate:
        return self._share(BattleOutcome.NEITHER)

    def models_lost(self, side: int) -> Estimate:
        return sample_mean(self.records[:, (BattleRecord.LOST_0, BattleRecord.LOST_1)[_side(side)]])

    def units_lost(self, side: int) -> Estimate:
        column = (BattleRecord.UNITS_LOST_0, BattleRecord.UNITS_LOST_1)[_side(side)]
        return sample_mean(self.records[:, column])


def _side(side: int) -> int:
    if side not in (0, 1):
        raise RulesError(f"side {side!r}: 0 or 1")
    return side


def _force(name: str, force: Sequence[Fighter]) -> tuple[Fighter, ...]:
    force = tuple(force)
    if not 1 <= len(force) <= MAX_BATTLE_UNITS:
        raise RulesError(f"{name} fields {len(force)} units; a battle takes 1 to {MAX_BATTLE_UNITS} a side")
    for f in force:
        if not isinstance(f, Fighter):
            raise RulesError(f"{name} holds {f!r}, not a Fighter")
    return force


def _most_tokens(own: Sequence[Fighter], enemy: Sequence[Fighter], rulings: DragonbondRulings,
                 rounds: int) -> int:
    """The most fatigue one unit of ``own`` can gain: every turn of its side and an opportunity attack in
    each of the enemy's turns (a duel's bound for one unit a side)."""
    turns = BASE_TURNS + sum(TURNS_PER_UNIT + f.unit.keywords.epic for f in own)
    theirs = BASE_TURNS + sum(TURNS_PER_UNIT + f.unit.keywords.epic for f in enemy)
    return rounds * (turns + theirs * rulings.opportunity_fatigue)


def battle_args(force_a: Sequence[Fighter], force_b: Sequence[Fighter], rulings: DragonbondRulings,
                rounds: int = ROUNDS) -> tuple:
    """The battle kernel's arguments before (seed, first_trial, out)."""
    fighters = (*force_a, *force_b)
    n0, n = len(force_a), len(force_a) + len(force_b)
    owner = np.array([0] * n0 + [1] * (n - n0), np.int64)
    enemies = [tuple(range(n0, n)) if s == 0 else tuple(range(n0)) for s in owner]
    forces = (force_a, force_b)
    tokens = [_most_tokens(forces[s], forces[1 - s], rulings, rounds) for s in owner]
    flank = {"per-extra-unit": -1, "per-engaged-unit": 0, "1": None}[rulings.flanking_count]
    reach = []
    for s, f in zip(owner, fighters, strict=True):
        engaged_max = len(forces[1 - s])
        down = 0 if engaged_max < 2 else (1 if flank is None else engaged_max + flank)
        reach.append((int(f.unit.keywords.flying), down))
    side, cap_def, order, att_at, def_at, cdf, values, guide = unit_arrays(fighters, enemies, tokens, reach,
                                                                           rulings)
    return (side, cap_def, owner, starting_engagements(n0, n - n0), order, att_at, def_at, cdf, values, guide,
            np.int64(rounds), np.int64(TARGETING[rulings.battle_targeting]),
            np.int64(FLANKING[rulings.flanking_count]), np.int64(FLYING_TURN[rulings.flying_turn]))


def _p_side_0_wins(records: np.ndarray) -> Estimate:
    wins = int(np.count_nonzero(records[:, BattleRecord.OUTCOME] == BattleOutcome.SIDE_0_WINS))
    return proportion(wins, records.shape[0])


def simulate_battle(force_a: Sequence[Fighter], force_b: Sequence[Fighter],
                    rulings: DragonbondRulings | None = None, *, trials: int, seed: int,
                    threads: int | None = None, precision: float | None = None, rounds: int = ROUNDS,
                    block_trials: int = config.CHUNK_TRIALS, max_batch_trials: int | None = None,
                    progress: runner.Progress | None = None) -> BattleRecords:
    """``trials`` battles of ``force_a`` (side 0) against ``force_b`` (side 1), one record each.

    Trial t runs on the trial stream (seed, t), as a duel's: the same seed gives the same battles for any
    thread count, a variant meets the same dice, and a battle of one unit a side gives the duel's records.
    ``precision`` stops once the 95% half-width of P(side 0 wins) is below it (``trials`` is then the cap).

    Raises:
        RulesError: an empty force or more than MAX_BATTLE_UNITS units a side, bad rounds or trials.
    """
    rulings = rulings or DragonbondRulings()
    force_a, force_b = _force("force A", force_a), _force("force B", force_b)
    rounds = whole_number("rounds", rounds, 1, 20)
    args = battle_args(force_a, force_b, rulings, rounds)
    try:
        run = runner.run_records(battle_records, args, N_BATTLE_RECORD, trials, seed, threads=threads,
                                 precision=precision, statistic=_p_side_0_wins if precision else None,
                                 progress=progress, block_trials=block_trials,
                                 max_batch_trials=max_batch_trials)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    return BattleRecords(run.records, run, force_a, force_b, rulings, rounds)
