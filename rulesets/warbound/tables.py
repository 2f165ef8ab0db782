"""The Warbound standard tables (hit, armor, stress), computed exactly as tidy columns
(:class:`rulesets.base.TableData`); reports.warbound.tables lays them out."""

from __future__ import annotations

import numpy as np

from rulesets.base import StandardTable, TableData, row_columns
from rulesets.warbound.exact import HitRoll, armor_summaries, hit_stress_pmf, hit_summaries, hits_pmf
from rulesets.warbound.rules import WarboundRulings

#: The standard tables' ranges: target values, dice, damage, armor values and points.
TABLE_VALUES = range(2, 13)
TABLE_DICE = range(1, 5)
TABLE_DAMAGE = range(1, 13)
TABLE_ARMOR_VALUES = range(2, 12)
TABLE_ARMOR_POINTS = range(1, 5)


def hit_rows(rulings: WarboundRulings) -> list[tuple]:
    """(target, dice, aim, formation, P(at least one hit), expected hits) of the hit table, computed at once
    (rulesets.warbound.exact.hit_summaries)."""
    value, dice, aim, formation = (g.ravel() for g in np.meshgrid(
        np.array(TABLE_VALUES), np.array(TABLE_DICE), [0, 1], [0, 1], indexing="ij"))
    p_any, mean = hit_summaries(dice + formation, value, aim.astype(bool), formation, rulings)
    yes = np.array(["no", "yes"])
    return list(zip(value.tolist(), dice.tolist(), yes[aim].tolist(), yes[formation].tolist(), p_any.tolist(),
                    mean.tolist(), strict=True))


def hit_data(rulings: WarboundRulings) -> TableData:
    """P(at least one hit) and the expected hits by target value (2..12), dice (1..4), Aim and Formation
    (part ``hit``); P(hit) of one die by target value, with Aim and +1 (part ``one_die``)."""
    one = [(v, *(float(hits_pmf(HitRoll(1, v, aim, modifier=mod), rulings)[1])
                 for aim, mod in ((False, 0), (True, 0), (False, 1), (True, 1)))) for v in TABLE_VALUES]
    return TableData(rulings, {
        "hit": row_columns(hit_rows(rulings), ["target", "dice", "aim", "formation", "p_hit",
                                               "expected_hits"]),
        "one_die": row_columns(one, ["target", "P(hit) one die", "P(hit) Aim", "P(hit) +1",
                                     "P(hit) Aim and +1"])})


def armor_rows() -> list[tuple]:
    """(armor value, armor points, damage, expected Wounds, expected Breaks, P(no Wound)) of the armor
    table, computed at once (rulesets.warbound.exact.armor_summaries)."""
    value, points, damage = (g.ravel() for g in np.meshgrid(
        np.array(TABLE_ARMOR_VALUES), np.array(TABLE_ARMOR_POINTS), np.array(TABLE_DAMAGE), indexing="ij"))
    wounds, breaks, none = armor_summaries(damage, value, points)
    return list(zip(value.tolist(), points.tolist(), damage.tolist(), wounds.tolist(), breaks.tolist(),
                    none.tolist(), strict=True))


def armor_data(rulings: WarboundRulings) -> TableData:
    """Expected Wound and Break tokens, and P(no Wound), of 1..12 damage by armor value and armor points
    (part ``armor``)."""
    return TableData(rulings, {"armor": row_columns(armor_rows(), [
        "armor_value", "armor_points", "damage", "expected_wounds", "expected_breaks", "p_no_wound"])})


def stress_data(rulings: WarboundRulings) -> TableData:
    """The distribution of the Stress tokens a roll gives, by dice (1..4) and Aim, under the rulings (part
    ``stress``), and their expectation (part ``mean``)."""
    rows, means = [], []
    for dice in TABLE_DICE:
        for aim in (False, True):
            p = hit_stress_pmf(HitRoll(dice, 7, aim), rulings).sum(axis=0)
            for k in range(p.size):
                rows.append((dice, "yes" if aim else "no", k, float(p[k])))
            means.append((dice, "yes" if aim else "no", float(np.arange(p.size) @ p)))
    return TableData(rulings, {"stress": row_columns(rows, ["dice", "aim", "stress", "probability"]),
                               "mean": row_columns(means, ["dice", "aim", "expected_stress"])})


def standard_tables() -> dict[str, StandardTable]:
    """Every standard table of Warbound, by name."""
    return {
        "hit": StandardTable("hit", "P(hit) and expected hits by target value, dice, Aim and Formation",
                             hit_data),
        "armor": StandardTable("armor", "Wounds and Break tokens of 1-12 damage by armor value and points",
                               armor_data),
        "stress": StandardTable("stress", "Stress tokens of a roll by dice, Aim and WB-aim-stress",
                                stress_data),
    }
