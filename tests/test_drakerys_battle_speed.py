"""Drakerys battles keep their records bit for bit when their kernels are made faster.

The fingerprints below were computed with the battle kernel as it stood before its speed work (commit
ebbd736): a change to rulesets/drakerys/kernels_battle.py that alters one roll, one draw from a trial's
stream or one count of any record of these battles fails here. They cover both DK-battle-tokens values,
both DK-battle-targeting policies, Shooting and melee, a start in contact and from 30 cm, and Heroic Action
dice paid fighting back (DK-heroic-passive=own-ts).

They were recomputed when the records gained the lead units' losses (BattleRecord.LEAD_LOST_0/1; the first
three battles' first ten columns are still those of ebbd736) and Authority began to reach allied units
(the four Saliks give each other Morale dice); Safeguard's transfer to a Guard unit and the Combined Charge
left all four unchanged, and the fifth battle pins them.
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
        "b41ce7a0aca4ffd1cdd8e67f31d4e7f1dd4361a8009ce1a257b00586dbb06a81"),
    "crows x9 charge gold keepers x2 (unit tokens, focus)": (
        units("crows", 6, 9), units("gold-keepers", 12, 2), None,
        ("DK-battle-tokens=unit", "DK-battle-targeting=focus"), 12,
        "b5ee448f65dd74bf44947229a11141cbea7766b0d014f7d6d981295f5868450e"),
    "crossbowmen x7 shoot at soldiers x6 from 30 cm (unit tokens, nearest)": (
        units("crossbowmen", 6, 7), units("soldiers", 9, 6), 30, ("DK-battle-tokens=unit",), 13,
        "cba8514822de08d33bf4fbab2fd8752781f05875cac3fc2096083bf77dbe86bf"),
    "bowmen x9 against salik x4, heroic fighting back (player tokens, focus)": (
        units("irosia-bowmen", 5, 9), units("salik", 1, 4, heroic=2), 30,
        ("DK-battle-targeting=focus", "DK-heroic-passive=own-ts"), 14,
        "c47f135393786b138e089814a4dd054e06f6ad4b86b6b4d5f80ed65cdacdc9d6"),
    "salik with 2 crows charges sakhil with 2 warriors (Safeguard to Guard, Combined Charge)": (
        units("salik", 1, 1, heroic=1) + units("crows", 6, 2),
        units("sakhil", 1, 1) + units("warriors", 6, 2), None, (), 15,
        "6bf94b40f7ac98112f288a778be46933b734dcb22cec09a290e7e08c4016da84"),
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
