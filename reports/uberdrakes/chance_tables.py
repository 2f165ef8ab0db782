"""UberDrakes' small chance tables (turn order, Caves, Ancient Urn) as Reports, all exact (their numbers:
rulesets.uberdrakes.tables, from rulesets.uberdrakes.chance)."""

from __future__ import annotations

from reports.formats import Report, Section, Table
from reports.tables import read_as
from reports.uberdrakes import grids
from rulesets.base import TableData
from rulesets.uberdrakes import tables as t
from rulesets.uberdrakes.chance import CAVE_ROOST_COINS
from rulesets.uberdrakes.rules import UberDrakesRulings

RULESET = "uberdrakes (seed 003)"


def _meta(rulings: UberDrakesRulings, *items: tuple[str, str]) -> list[tuple[str, str]]:
    """What every UberDrakes table report states first (reports.uberdrakes.tables' too): the ruleset, the
    items, the method and the rulings."""
    return [("ruleset", RULESET), *items, ("method", "exact"), ("rulings", rulings.describe())]


def turn_order_table_report(data: TableData) -> Report:
    rulings = data.rulings
    each = "one die" if rulings.turn_order_ties == "one-die" else "2d6"
    meta = _meta(rulings, ("turn order", "each player rolls 2d6, the highest goes first; players tied for "
                                         "the highest roll again until one is highest, then play goes "
                                         "clockwise (lines 55-57)"),
                 ("tie-breaks", f"each tied player rolls {each} a round (UD-turn-order-ties="
                                f"{rulings.turn_order_ties}); only the players still tied for the highest "
                                "roll again"))
    sections = [Section("turn_order", "Turn order by the number of players", Table(data.parts["turn_order"])),
                Section("tied", "How many players share the highest first roll", Table(data.parts["tied"]))]
    notes = ["p_settled: one player alone highest on the first roll; ties below the highest do not matter, "
             "as the others follow clockwise (line 57)",
             "expected_rounds and expected_extra_dice count tie-break rounds and the d6 rolled in them, over "
             "all games (0 when the first roll settles it); rounds_if_tied: given a tie on the first roll",
             "\"roll additional die\" (line 55): adding a die to equal totals or rolling afresh compare the "
             "same, so both readings give these numbers",
             "p_seat_first is computed from one seat's own rolls through the chain, and comes out 1/players"]
    return Report("UberDrakes: turn order", meta, sections, notes=notes)


def _catalog_text(data: TableData) -> str:
    return f"{data.params['catalog_source']}, sha256 {data.params['catalog_sha256'][:16]}"


def caves_table_report(data: TableData) -> Report:
    rulings = data.rulings
    found = ("1d6 coins (\"You find 1d6 coins\", line 215)" if rulings.caves == "1d6"
             else "3 coins (\"Gain 3 coins\", line 859)")
    meta = _meta(rulings, ("caves", f"the first entry in a round finds {found}, UD-caves={rulings.caves}; "
                                    f"roosting there earns {CAVE_ROOST_COINS} more (lines 215, 859)"),
                 ("catalog", _catalog_text(data)))
    sections = [Section("entry", "Coins from one first entry in a round", Table(data.parts["entry"])),
                Section("rounds", "Total coins over rounds of visits, one first entry a round",
                        Table(data.parts["rounds"])),
                Section("afford", "P(the caves alone pay an item's price after 1..5 rounds of visits)",
                        Table(data.parts["afford"]))]
    notes = ["one first entry a round, each independent; coins from other sources and spending are ignored",
             "line 859 pays the roosting coins \"at the beginning of the next round\": they are counted with "
             "the round of the visit here",
             "item prices are illustrative: the rulebook prints none (missing from the text); supply real "
             "ones with --catalog FILE; treasures (Gemstones, Ancient Urn) are found, not bought: left out"]
    return Report("UberDrakes: coins from the Caves", meta, sections, notes=notes)


def urn_table_report(data: TableData) -> Report:
    mean = data.params["mean"]
    meta = _meta(data.rulings, ("ancient urn", "\"the player rolls one die and finds that many Magic tokens "
                                               "in the urn\" (line 756)"),
                 ("E[Magic]", f"{mean} ({float(mean):g})"), ("catalog", _catalog_text(data)))
    sections = [Section("magic", "Magic tokens found in the Urn", Table(data.parts["magic"])),
                Section("spells", "P(one Urn alone pays for a combat spell)", Table(data.parts["spells"]))]
    notes = ["combat spells: those whose card has a combat effect, with a fixed cost (spell pages, lines "
             "380-626); Plate Armor's X + 1 is left out: one Urn pays X + 1 with P(die >= X + 1)",
             "the Urn alone: no Magic held before (players start with none, line 258)"]
    return Report("UberDrakes: the Ancient Urn", meta, sections, notes=notes)


def turn_order_table(rulings: UberDrakesRulings) -> Report:
    """Turn order for 2..6 players (lines 55-57): P(a tie for the highest first roll), how many tie, the
    tie-break rounds and dice expected, and P(a given seat goes first), under UD-turn-order-ties."""
    return read_as(turn_order_table_report(t.turn_order_data(rulings)), grids.turn_order_views)


def caves_table(rulings: UberDrakesRulings, catalog=None) -> Report:
    """Coins from the Caves (lines 215, 859) under UD-caves: one first entry in a round, with and without
    roosting, the totals over 1..5 rounds of visits, and P(those totals pay for each item price of the
    catalog). ``catalog``: default the packaged one (its prices are illustrative)."""
    return read_as(caves_table_report(t.caves_data(rulings, catalog)), grids.caves_views)


def urn_table(rulings: UberDrakesRulings, catalog=None) -> Report:
    """The Ancient Urn (line 756): its 1d6 Magic, and P(one Urn alone pays for each combat spell with a fixed
    Magic cost). ``catalog``: default the packaged one."""
    return read_as(urn_table_report(t.urn_data(rulings, catalog)), grids.urn_views)
