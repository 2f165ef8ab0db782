"""Drakerys battles keep their records bit for bit when their kernels are made faster.

The fingerprints below were computed with the battle kernel as it stood before its speed work (commit
ebbd736): a change to rulesets/drakerys/kernels_battle.py that alters one roll, one draw from a trial's
stream or one count of any record of these battles fails here. They cover both DK-battle-tokens values,
both DK-battle-targeting policies, Shooting and melee, a start in contact and from 30 cm, and Heroic Action
dice paid fighting back (DK-heroic-passive=own-ts).
"""

from __future__ import annotations

import hashlib

import pytest

from rulesets.drakerys import DrakerysRulings, catalog
from rulesets.drakerys.battle import battle_records
from rulesets.drakerys.fight import BattleRecord, Combatant

CATALOG = catalog.load()
TRIALS = 2_000


def units(key: str, size: int, count: int, **kw) -> list[Combatant]:
    """``count`` units of ``key`` at ``size``: a side of an equal-points contest."""
    return [Combatant(CATALOG.unit(key), size, **kw)] * count


#: name: (force A, force B, start_cm, rulings, seed, sha256 of the records' bytes (int64, trial by trial)).
BATTLES = {
    "warriors x15 against crows x6 from 30 cm (player tokens, nearest)": (
        units("warriors", 4, 15), units("crows", 9, 6), 30, (), 11,
        "2b4b8440a1e16569bf50c35a3ec4ce83c580ba946c0a6c601215604fb3b76578"),
    "crows x9 charge gold keepers x2 (unit tokens, focus)": (
        units("crows", 6, 9), units("gold-keepers", 12, 2), None,
        ("DK-battle-tokens=unit", "DK-battle-targeting=focus"), 12,
        "c2f50b2108e57c37acf520bbb199acacecc39a24c62fecbc55d67909b9b4a75d"),
    "crossbowmen x7 shoot at soldiers x6 from 30 cm (unit tokens, nearest)": (
        units("crossbowmen", 6, 7), units("soldiers", 9, 6), 30, ("DK-battle-tokens=unit",), 13,
        "621000a6eafc402563e133ad84e2b4c3095791d4daabf100fe085a0549793d84"),
    "bowmen x9 against salik x4, heroic fighting back (player tokens, focus)": (
        units("irosia-bowmen", 5, 9), units("salik", 1, 4, heroic=2), 30,
        ("DK-battle-targeting=focus", "DK-heroic-passive=own-ts"), 14,
        "8dbef4d5803bc3cfc4585863a38c299bd36b00b26d6b5d00d7f8ac5cffc7ee5b"),
}


def records_of(name: str):
    force_a, force_b, start_cm, assignments, seed, _ = BATTLES[name]
    rulings = DrakerysRulings().with_assignments(list(assignments))
    return battle_records(force_a, force_b, rulings=rulings, weapons=CATALOG.weapons, trials=TRIALS,
                          seed=seed, threads=1, start_cm=start_cm).records


@pytest.mark.parametrize("name", BATTLES)
def test_battle_records_are_unchanged(name):
    records = records_of(name)
    assert records.shape == (TRIALS, len(BattleRecord))
    assert hashlib.sha256(records.tobytes()).hexdigest() == BATTLES[name][-1]


@pytest.mark.parametrize("name", BATTLES)
def test_battle_is_decided_and_fought(name):
    """The battles fingerprinted are real ones: both sides act, both lose warriors, and some trials end
    with a side wiped out (a fingerprint of empty battles would pin nothing)."""
    records = records_of(name)
    assert records[:, BattleRecord.ACTIVATIONS].min() >= 2
    assert records[:, BattleRecord.LOST_0].sum() > 0
    assert records[:, BattleRecord.LOST_1].sum() > 0
    assert records[:, BattleRecord.TS_1].sum() > 0
