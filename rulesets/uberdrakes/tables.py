"""The UberDrakes standard tables (rolloff, resources, furnace, blood-points, turn-order, caves, urn),
computed exactly as tidy columns (:class:`rulesets.base.TableData`); reports.uberdrakes lays them out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np

from rulesets.base import StandardTable, TableData, row_columns
from rulesets.uberdrakes.chance import (
    CAVE_ROUNDS,
    cave_entry,
    cave_total,
    mean,
    p_at_least,
    turn_order_rows,
    urn_magic,
    urn_spells,
)
from rulesets.uberdrakes.exact import blood_points, dice_total_pmf, p_furnace, victory_point_prices, win_table
from rulesets.uberdrakes.rules import FURNACE_MAGIC, UberDrakesRulings

#: The rolloff table's Rage (each side) and bonus differences; the Victory Points the blood-points table
#: prices.
TABLE_RAGE = range(0, 5)
TABLE_DIFFERENCE = range(-6, 7)
VICTORY_POINTS = 4


def rolloff_rows() -> list[tuple]:
    """(initiator's Rage, defender's Rage, bonus difference, P(the initiator wins)) of the rolloff table,
    computed at once (rulesets.uberdrakes.exact.win_table)."""
    grid = win_table(list(TABLE_RAGE), list(TABLE_RAGE), list(TABLE_DIFFERENCE))
    ri, rd, d = (g.ravel().tolist() for g in np.meshgrid(np.array(TABLE_RAGE), np.array(TABLE_RAGE),
                                                         np.array(TABLE_DIFFERENCE), indexing="ij"))
    return list(zip(ri, rd, d, grid.ravel().tolist(), strict=True))


def rolloff_data(rulings: UberDrakesRulings) -> TableData:
    """P(the initiator wins) for Rage 0..4 against Rage 0..4 and bonus differences -6..+6 (initiator's
    bonus minus the defender's): part ``rolloff``."""
    return TableData(rulings, {"rolloff": row_columns(rolloff_rows(), ["initiator_rage", "defender_rage",
                                                                       "bonus_difference", "p_win"])})


def furnace_data(rulings: UberDrakesRulings) -> TableData:
    """P(an opponent gains a Fatigue) by the Magic spent on a Furnace (lines 413-419): part ``furnace``."""
    rows = [(m, p_furnace(m)) for m in FURNACE_MAGIC]
    return TableData(rulings, {"furnace": row_columns(rows, ["magic", "p_fatigue"])})


def bp_per_combat(role: int) -> np.ndarray:
    """P(b blood points from one plain combat) for the initiator (role 0) or the defender: Rage 0 and no
    bonus on either side, no counterattack, both roll (line 338)."""
    two = dice_total_pmf(0)
    out = np.zeros(13)
    for ti in range(2, 13):
        for td in range(2, 13):
            out[blood_points(ti, td)[role]] += two[ti] * two[td]
    return out


def expected_combats(pmf: np.ndarray, price: int) -> float:
    """E[combats until the blood points gathered reach ``price``], every combat giving an independent draw
    of ``pmf`` (at least one point each): E[n] = 1 + sum_b P(b) E[n - b], E[<= 0] = 0."""
    e = np.zeros(price + 1)
    for need in range(1, price + 1):
        e[need] = 1.0 + sum(pmf[b] * e[max(0, need - b)] for b in range(1, pmf.size) if pmf[b])
    return float(e[price])


def blood_points_data(rulings: UberDrakesRulings) -> TableData:
    """Expected plain combats to afford each of the first Victory Points (20, 25, 30, 35 blood points under
    UD-vp-escalation), as initiator and as defender: part ``blood_points``; params ``means``: the mean
    blood points of a combat, initiator and defender."""
    prices = victory_point_prices(VICTORY_POINTS, rulings)
    per = {role: bp_per_combat(role) for role in (0, 1)}
    rows = []
    gathered = 0
    for k, price in enumerate(prices, start=1):
        gathered += price
        rows.append((k, price, gathered, expected_combats(per[0], price), expected_combats(per[1], price),
                     expected_combats(per[0], gathered), expected_combats(per[1], gathered)))
    means = tuple(float(np.arange(13) @ per[role]) for role in (0, 1))
    columns = row_columns(rows, ["victory_point", "price", "cumulative", "initiator", "defender",
                                 "cumulative_initiator", "cumulative_defender"])
    return TableData(rulings, {"blood_points": columns}, {"means": means})


def _pmf_rows(pmf: Mapping[int, Fraction]) -> list[tuple[int, float, float]]:
    """(value, probability, P(at least the value)) for each value with a chance."""
    return [(v, float(p), float(p_at_least(pmf, v))) for v, p in pmf.items() if p]


def turn_order_data(rulings: UberDrakesRulings) -> TableData:
    """Turn order for 2..6 players (lines 55-57): P(a tie for the highest first roll), the tie-break rounds
    and dice expected, and P(a given seat goes first), under UD-turn-order-ties (part ``turn_order``); how
    many players share the highest first roll (part ``tied``)."""
    rows = turn_order_rows(rulings)
    summary = row_columns(
        [(t.players, float(t.p_tie), float(t.p_settled), float(t.expected_rounds), float(t.rounds_if_tied),
          float(t.expected_extra_dice), float(t.p_seat_first)) for t in rows],
        ["players", "p_tie", "p_settled", "expected_rounds", "rounds_if_tied", "expected_extra_dice",
         "p_seat_first"])
    tied = row_columns([(t.players, j, float(p)) for t in rows for j, p in enumerate(t.tied, start=1)],
                       ["players", "tied_at_top", "probability"])
    return TableData(rulings, {"turn_order": summary, "tied": tied})


def _packaged():
    """The packaged catalog (rulesets/uberdrakes/data/examples.toml)."""
    from rulesets.uberdrakes.catalog import load

    return load()


def _item_prices(catalog) -> dict[int, list[str]]:
    """Price -> names of the catalog's items at that price, prices ascending; treasures (found, not bought:
    a gemstone's price is its sale value) are left out."""
    out: dict[int, list[str]] = {}
    for item in catalog.items.values():
        if item.price is not None and item.kind != "treasure":
            out.setdefault(item.price, []).append(item.name)
    return dict(sorted(out.items()))


def _catalog_params(catalog) -> dict[str, str]:
    return {"catalog_source": catalog.source, "catalog_sha256": catalog.sha256}


def caves_data(rulings: UberDrakesRulings, catalog=None) -> TableData:
    """Coins from the Caves (lines 215, 859) under UD-caves: one first entry in a round, with and without
    roosting (part ``entry``), the totals over 1..5 rounds of visits (``rounds``), and P(those totals pay
    for each item price of the catalog) (``afford``). ``catalog``: default the packaged one (its prices are
    illustrative)."""
    catalog = _packaged() if catalog is None else catalog
    entry = row_columns([(roost, *row) for roost in (False, True)
                         for row in _pmf_rows(cave_entry(rulings, roost))],
                        ["roosting", "coins", "probability", "p_at_least"])
    totals = {(n, roost): cave_total(rulings, n, roost) for n in CAVE_ROUNDS for roost in (False, True)}
    rounds = row_columns([(n, roost, float(mean(pmf)), min(pmf), max(pmf))
                          for (n, roost), pmf in totals.items()],
                         ["rounds", "roosting", "mean", "least", "most"])
    afford = row_columns(
        [(price, roost, ", ".join(names), *(float(p_at_least(totals[n, roost], price)) for n in CAVE_ROUNDS))
         for price, names in _item_prices(catalog).items() for roost in (False, True)],
        ["price", "roosting", "items", *(f"p_after_{n}" for n in CAVE_ROUNDS)])
    return TableData(rulings, {"entry": entry, "rounds": rounds, "afford": afford}, _catalog_params(catalog))


def urn_data(rulings: UberDrakesRulings, catalog=None) -> TableData:
    """The Ancient Urn (line 756): its 1d6 Magic (part ``magic``; params ``mean``: E[Magic], a Fraction),
    and P(one Urn alone pays for each combat spell with a fixed Magic cost) (``spells``). ``catalog``:
    default the packaged one."""
    catalog = _packaged() if catalog is None else catalog
    magic = urn_magic()
    spells = row_columns([(s.dragon, s.name, s.cost, float(s.p_pays)) for s in urn_spells(catalog)],
                         ["dragon", "spell", "cost", "p_pays"])
    return TableData(rulings, {"magic": row_columns(_pmf_rows(magic), ["magic", "probability", "p_at_least"]),
                               "spells": spells}, {"mean": mean(magic), **_catalog_params(catalog)})


def standard_tables(resources: Callable[[UberDrakesRulings], TableData]) -> dict[str, StandardTable]:
    """Every standard table of UberDrakes, by name; ``resources`` computes the resources table (the
    contest's own pricing: rulesets.uberdrakes.contest)."""
    return {
        "rolloff": StandardTable("rolloff", "P(the initiator wins the rolloff) by Rage and bonus difference",
                                 rolloff_data),
        "resources": StandardTable("resources", "What each item and spell adds to a combat, per Magic or "
                                                "coin", resources),
        "furnace": StandardTable("furnace", "P(Fatigue) from Furnace by the Magic spent", furnace_data),
        "blood-points": StandardTable("blood-points", "Blood points and the combats to afford each Victory "
                                                      "Point", blood_points_data),
        "turn-order": StandardTable("turn-order", "Turn order: ties for the highest 2d6 and their "
                                                  "tie-breaks, 2-6 players", turn_order_data),
        "caves": StandardTable("caves", "Coins from the caves", caves_data),
        "urn": StandardTable("urn", "The Ancient Urn's Magic and the spells it pays for", urn_data),
    }
