"""UberDrakes' small chance tables (turn order, Caves, Ancient Urn) as Reports, all exact
(rulesets.uberdrakes.chance)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from reports.formats import Report, Section, Table
from reports.tables import read_as
from reports.uberdrakes import grids
from reports.uberdrakes.tables import _meta
from rulesets.uberdrakes.chance import (
    CAVE_ROOST_COINS,
    CAVE_ROUNDS,
    cave_entry,
    cave_total,
    mean,
    p_at_least,
    turn_order_rows,
    urn_magic,
    urn_spells,
)
from rulesets.uberdrakes.rules import UberDrakesRulings


def _pmf_rows(pmf: Mapping[int, Fraction]) -> list[tuple[int, float, float]]:
    """(value, probability, P(at least the value)) for each value with a chance."""
    return [(v, float(p), float(p_at_least(pmf, v))) for v, p in pmf.items() if p]


def turn_order_table(rulings: UberDrakesRulings) -> Report:
    """Turn order for 2..6 players (lines 55-57): P(a tie for the highest first roll), how many tie, the
    tie-break rounds and dice expected, and P(a given seat goes first), under UD-turn-order-ties."""
    rows = turn_order_rows(rulings)
    summary = Table.from_rows(
        [(t.players, float(t.p_tie), float(t.p_settled), float(t.expected_rounds), float(t.rounds_if_tied),
          float(t.expected_extra_dice), float(t.p_seat_first)) for t in rows],
        ["players", "p_tie", "p_settled", "expected_rounds", "rounds_if_tied", "expected_extra_dice",
         "p_seat_first"])
    tied = Table.from_rows([(t.players, j, float(p)) for t in rows for j, p in enumerate(t.tied, start=1)],
                           ["players", "tied_at_top", "probability"])
    each = "one die" if rulings.turn_order_ties == "one-die" else "2d6"
    meta = _meta(rulings, ("turn order", "each player rolls 2d6, the highest goes first; players tied for "
                                         "the highest roll again until one is highest, then play goes "
                                         "clockwise (lines 55-57)"),
                 ("tie-breaks", f"each tied player rolls {each} a round (UD-turn-order-ties="
                                f"{rulings.turn_order_ties}); only the players still tied for the highest "
                                "roll again"))
    sections = [Section("turn_order", "Turn order by the number of players", summary),
                Section("tied", "How many players share the highest first roll", tied)]
    notes = ["p_settled: one player alone highest on the first roll; ties below the highest do not matter, "
             "as the others follow clockwise (line 57)",
             "expected_rounds and expected_extra_dice count tie-break rounds and the d6 rolled in them, over "
             "all games (0 when the first roll settles it); rounds_if_tied: given a tie on the first roll",
             "\"roll additional die\" (line 55): adding a die to equal totals or rolling afresh compare the "
             "same, so both readings give these numbers",
             "p_seat_first is computed from one seat's own rolls through the chain, and comes out 1/players"]
    return read_as(Report("UberDrakes: turn order", meta, sections, notes=notes), grids.turn_order_views)


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


def caves_table(rulings: UberDrakesRulings, catalog=None) -> Report:
    """Coins from the Caves (lines 215, 859) under UD-caves: one first entry in a round, with and without
    roosting, the totals over 1..5 rounds of visits, and P(those totals pay for each item price of the
    catalog). ``catalog``: default the packaged one (its prices are illustrative)."""
    catalog = _packaged() if catalog is None else catalog
    entry = Table.from_rows([(roost, *row) for roost in (False, True)
                             for row in _pmf_rows(cave_entry(rulings, roost))],
                            ["roosting", "coins", "probability", "p_at_least"])
    totals = {(n, roost): cave_total(rulings, n, roost) for n in CAVE_ROUNDS for roost in (False, True)}
    rounds = Table.from_rows([(n, roost, float(mean(pmf)), min(pmf), max(pmf))
                              for (n, roost), pmf in totals.items()],
                             ["rounds", "roosting", "mean", "least", "most"])
    prices = _item_prices(catalog)
    afford = Table.from_rows(
        [(price, roost, ", ".join(names),
          *(float(p_at_least(totals[n, roost], price)) for n in CAVE_ROUNDS))
         for price, names in prices.items() for roost in (False, True)],
        ["price", "roosting", "items", *(f"p_after_{n}" for n in CAVE_ROUNDS)])
    found = ("1d6 coins (\"You find 1d6 coins\", line 215)" if rulings.caves == "1d6"
             else "3 coins (\"Gain 3 coins\", line 859)")
    meta = _meta(rulings, ("caves", f"the first entry in a round finds {found}, UD-caves={rulings.caves}; "
                                    f"roosting there earns {CAVE_ROOST_COINS} more (lines 215, 859)"),
                 ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}"))
    sections = [Section("entry", "Coins from one first entry in a round", entry),
                Section("rounds", "Total coins over rounds of visits, one first entry a round", rounds),
                Section("afford", "P(the caves alone pay an item's price after 1..5 rounds of visits)",
                        afford)]
    notes = ["one first entry a round, each independent; coins from other sources and spending are ignored",
             "line 859 pays the roosting coins \"at the beginning of the next round\": they are counted with "
             "the round of the visit here",
             "item prices are illustrative: the rulebook prints none (missing from the text); supply real "
             "ones with --catalog FILE; treasures (Gemstones, Ancient Urn) are found, not bought: left out"]
    return read_as(Report("UberDrakes: coins from the Caves", meta, sections, notes=notes), grids.caves_views)


def urn_table(rulings: UberDrakesRulings, catalog=None) -> Report:
    """The Ancient Urn (line 756): its 1d6 Magic, and P(one Urn alone pays for each combat spell with a fixed
    Magic cost). ``catalog``: default the packaged one."""
    catalog = _packaged() if catalog is None else catalog
    magic = urn_magic()
    spells = urn_spells(catalog)
    table = Table.from_rows([(s.dragon, s.name, s.cost, float(s.p_pays)) for s in spells],
                            ["dragon", "spell", "cost", "p_pays"])
    meta = _meta(rulings, ("ancient urn", "\"the player rolls one die and finds that many Magic tokens in "
                                          "the urn\" (line 756)"),
                 ("E[Magic]", f"{mean(magic)} ({float(mean(magic)):g})"),
                 ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}"))
    sections = [Section("magic", "Magic tokens found in the Urn",
                        Table.from_rows(_pmf_rows(magic), ["magic", "probability", "p_at_least"])),
                Section("spells", "P(one Urn alone pays for a combat spell)", table)]
    notes = ["combat spells: those whose card has a combat effect, with a fixed cost (spell pages, lines "
             "380-626); Plate Armor's X + 1 is left out: one Urn pays X + 1 with P(die >= X + 1)",
             "the Urn alone: no Magic held before (players start with none, line 258)"]
    return read_as(Report("UberDrakes: the Ancient Urn", meta, sections, notes=notes), grids.urn_views)
