"""The Dragonbond standard tables (dice, pool, attack, charge, face-off), computed exactly as tidy columns
(:class:`rulesets.base.TableData`); reports.dragonbond.tables lays them out."""

from __future__ import annotations

import numpy as np

from rulesets.base import StandardTable, TableData, record_columns
from rulesets.dragonbond.dice import (
    ACTION,
    COLOURS,
    DEFENSE,
    SYMBOLS,
    Pool,
    action_face_probabilities,
    block_probability,
    modified,
)
from rulesets.dragonbond.exact import (
    FACE_OFF_STAGES,
    Defense,
    charge_reach,
    expected_wounds,
    face_off,
    pool_distribution,
)
from rulesets.dragonbond.rules import DragonbondRulings
from simcore.exact import at_least, mean

#: The standard tables' ranges: upgrade and downgrade steps of the pool table, the attack table's dice
#: (1..8 of one colour), defense dice and fatigue tokens, the charge table's speeds and farthest distance.
POOL_STEPS = 6
ATTACK_DICE = 8
ATTACK_DEFENSES = (0, 1, 2)
ATTACK_TOKENS = (0, 1, 2)
CHARGE_SPEEDS = tuple(range(4, 11))
CHARGE_DISTANCE = 20


def default_pools() -> list[Pool]:
    """The pools of the standard pool table: three of each colour, and the Blades' 4 grey + 2 black."""
    return [Pool(ACTION, c) for c in ((0, 0, 3), (0, 3, 0), (3, 0, 0), (0, 4, 2))]


def dice_data(rulings: DragonbondRulings) -> TableData:
    """Face probabilities and expected hits of each die (part ``dice``)."""
    rows = []
    for k in (2, 1, 0):
        p = action_face_probabilities(k, rulings)
        hits = float(p[1] + rulings.double_hits * p[2])
        rows.append({"die": f"{COLOURS[ACTION][k]} action d10", **{SYMBOLS[i]: float(p[i]) for i in range(4)},
                     "block ▼": np.nan, "mean hits": hits, "mean criticals": float(p[3])})
    for k in (2, 1, 0):
        b = float(block_probability(k, rulings))
        rows.append({"die": f"{COLOURS[DEFENSE][k]} defense d6", **dict.fromkeys(SYMBOLS, np.nan),
                     "block ▼": b, "mean hits": np.nan, "mean criticals": np.nan})
    return TableData(rulings, {"dice": record_columns(rows)})


def pool_data(pools: list[Pool], max_steps: int, rulings: DragonbondRulings) -> TableData:
    """Expected hits and criticals of pools under 0..max_steps upgrades and downgrades (part ``pools``)."""
    rows = []
    for pool in pools:
        for step in range(-max_steps, max_steps + 1):
            rolled = modified(pool, max(step, 0), max(-step, 0), rulings)
            hc = pool_distribution(rolled, rulings).hits_and_criticals(rulings.double_hits)
            rows.append({"pool": str(pool), "modifier": step, "rolls": str(rolled),
                         "mean hits": mean(hc.sum(axis=1)), "mean criticals": mean(hc.sum(axis=0)),
                         "P(no hit, no critical)": float(hc[0, 0])})
    return TableData(rulings, {"pools": record_columns(rows)})


def attack_data(max_dice: int, defenses: list[int], tokens: list[int],
                rulings: DragonbondRulings) -> TableData:
    """Expected wounds for black/grey/white pools of 1..max_dice against one defense die per hit of each
    colour, with 0, 1, 2 fatigue tokens beside the attacker (part ``attack``)."""
    rows = []
    for colour in (2, 1, 0):
        for n in range(1, max_dice + 1):
            counts = [0, 0, 0]
            counts[colour] = n
            for t in tokens:
                rolled = modified(Pool(ACTION, tuple(counts)), 0, 2 * t, rulings)
                row = {"dice": str(Pool(ACTION, tuple(counts))), "tokens beside": t, "rolls": str(rolled)}
                for d in defenses:
                    row[f"vs 1 {COLOURS[DEFENSE][d]}"] = expected_wounds(rolled, Defense(1, d), rulings)
                rows.append(row)
    return TableData(rulings, {"attack": record_columns(rows)})


def charge_data(speeds: list[int], max_distance: int, rulings: DragonbondRulings) -> TableData:
    """P(a charge reaches at least d inches) by speed, no fatigue beside (part ``charge``)."""
    rows = []
    for speed in speeds:
        tail = at_least(charge_reach(speed, 0, rulings))
        for d in range(speed, min(max_distance, tail.size - 1) + 1):
            rows.append({"speed": speed, "distance": d, "P(reach)": float(tail[d])})
    return TableData(rulings, {"charge": record_columns(rows)})


def face_off_data(rulings: DragonbondRulings) -> TableData:
    """How face-offs of 2, 3 and 4 players are decided (part ``face_off``)."""
    rows = []
    for n in (2, 3, 4):
        f = face_off(n, rulings)
        rows.append({"players": n, **{f"decided on {s}" if s != "reroll" else "reroll": f.stages[s]
                                      for s in FACE_OFF_STAGES},
                     "expected rolls": f.expected_rolls, "P(win) each": f.p_win})
    return TableData(rulings, {"face_off": record_columns(rows)})


def standard_tables() -> dict[str, StandardTable]:
    """Every standard table of Dragonbond, by name."""
    return {
        "dice": StandardTable("dice", "Face probabilities of the six dice", dice_data),
        "pool": StandardTable("pool", "Expected hits of pools under upgrades and downgrades",
                              lambda r: pool_data(default_pools(), POOL_STEPS, r)),
        "attack": StandardTable("attack", "Expected wounds of an attack by pool, defense die and fatigue",
                                lambda r: attack_data(ATTACK_DICE, list(ATTACK_DEFENSES), list(ATTACK_TOKENS),
                                                      r)),
        "charge": StandardTable("charge", "P(a charge reaches d inches) by speed",
                                lambda r: charge_data(list(CHARGE_SPEEDS), CHARGE_DISTANCE, r)),
        "face-off": StandardTable("face-off", "Face-off rolls of 2 to 4 players", face_off_data),
    }
