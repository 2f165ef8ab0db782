"""Drakerys battles (several units a side, rulesets/drakerys/battle.py) against the duel they extend, their
naive twin (tests/naive_battle.py) and the rules."""

from __future__ import annotations

import numpy as np
import pytest

from rulesets.base import RulesError
from rulesets.drakerys import DrakerysRulings, catalog, combat
from rulesets.drakerys.battle import battle_notes, battle_records
from rulesets.drakerys.fight import BattleRecord, Combatant, EngagementOutcome, Record
from rulesets.drakerys.rules import MAX_BATTLE_UNITS
from simcore import runner

CATALOG = catalog.load()
TWO_THREADS = runner.available_threads() >= 2


def unit(key: str, size: int, **kw) -> Combatant:
    return Combatant(CATALOG.unit(key), size, **kw)


def rulings(*assignments: str) -> DrakerysRulings:
    return DrakerysRulings().with_assignments(list(assignments))


#: Duels (side 0, side 1, start_cm: None = side 0 charges from contact) a battle of one unit a side replays.
DUELS = {
    "crows charge gold keepers": (unit("crows", 12), unit("gold-keepers", 6), None),
    "warriors and soldiers from 30 cm": (unit("warriors", 6), unit("soldiers", 6), 30),
    "crossbowmen shoot at warriors from 30 cm": (unit("crossbowmen", 6), unit("warriors", 6), 30),
    "irosia bowmen shoot at blood banes from 45 cm": (unit("irosia-bowmen", 5), unit("blood-banes", 4), 45),
    "salik (heroic) charges crushers": (unit("salik", 1, heroic=2), unit("crushers", 2), None),
}
#: The columns a battle records as a duel does.
SHARED = [(BattleRecord.OUTCOME, Record.OUTCOME), (BattleRecord.LOST_0, Record.LOST_0),
          (BattleRecord.LOST_1, Record.LOST_1), (BattleRecord.INJURIES_0, Record.INJURIES_0),
          (BattleRecord.INJURIES_1, Record.INJURIES_1), (BattleRecord.TS_0, Record.TS_0),
          (BattleRecord.TS_1, Record.TS_1), (BattleRecord.ACTIVATIONS, Record.ACTIVATIONS)]


@pytest.mark.parametrize("tokens", ["player", "unit"])
@pytest.mark.parametrize("name", list(DUELS))
def test_a_battle_of_one_unit_a_side_is_its_duel_record_for_record(name, tokens):
    """The battle kernel runs the duel's steps on copied rows: one unit a side meets the same dice in the
    same order, so every shared column of every trial is equal (not only in distribution)."""
    a, b, start = DUELS[name]
    r = rulings(f"DK-battle-tokens={tokens}", "DK-heroic-passive=own-ts")
    duel = combat.engagement_records(a, b, start_cm=start, rulings=r, weapons=CATALOG.weapons, trials=2000,
                                     seed=11)
    battle = battle_records([a], [b], start_cm=start, rulings=r, weapons=CATALOG.weapons, trials=2000,
                            seed=11)
    for mine, theirs in SHARED:
        assert np.array_equal(battle.records[:, mine], duel.records[:, theirs]), mine.name
    # a unit lost is a unit whose every warrior is lost
    for s, (lost, units) in enumerate([(Record.LOST_0, BattleRecord.UNITS_LOST_0),
                                       (Record.LOST_1, BattleRecord.UNITS_LOST_1)]):
        size = (a, b)[s].size
        assert np.array_equal(battle.records[:, units], (duel.records[:, lost] == size).astype(np.int64))
    # the duels are not all one-sided: the comparison sees both outcomes
    outcomes = set(battle.records[:, BattleRecord.OUTCOME])
    assert {EngagementOutcome.SIDE_0_WINS, EngagementOutcome.SIDE_1_WINS} <= outcomes


def test_bad_forces_are_refused_with_one_sentence():
    crows = unit("crows", 6)
    with pytest.raises(RulesError, match="force A fields no unit; a battle needs 1 to 16 units a side"):
        battle_records([], [crows], trials=10, seed=1)
    with pytest.raises(RulesError, match=f"force B fields {MAX_BATTLE_UNITS + 1} units"):
        battle_records([crows], [crows] * (MAX_BATTLE_UNITS + 1), trials=10, seed=1)
    with pytest.raises(RulesError, match="rounds"):
        battle_records([crows], [crows], rounds=7, trials=10, seed=1)
    with pytest.raises(RulesError, match="start distance"):
        battle_records([crows], [crows], start_cm=0, trials=10, seed=1)


def test_battle_notes_name_what_is_not_modelled():
    notes = " ".join(battle_notes())
    for words in ("Advantage", "Morale", "REFORMATION", "line", "DK-battle-targeting"):
        assert words in notes
