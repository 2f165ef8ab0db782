"""UberDrakes on the command line: `roll uberdrakes rolloff`, `table uberdrakes …` (seven exact tables),
`duel uberdrakes` (one combat, greedy and optimal) and `units uberdrakes`; the balance verbs come from the
contract (reports.cli.balance).

The reports (numpy) are imported when a command runs, not when the tree is built.
"""

from __future__ import annotations

import click

from reports.cli.options import (
    WholeNumber,
    catalog_option,
    emit,
    output_options,
    ruling_option,
    text_output_options,
)
from rulesets.uberdrakes.rules import MAX_BONUS, MAX_RAGE, UberDrakesRulings

RAGE = WholeNumber(0, MAX_RAGE)
ELEMENTAL = WholeNumber(0, MAX_BONUS)


def _rulings(assignments) -> UberDrakesRulings:
    return UberDrakesRulings().with_assignments(assignments)


@click.group("uberdrakes")
def roll_uberdrakes():
    """UberDrakes rolls, exact: rolloff."""


@roll_uberdrakes.command("rolloff", context_settings={"max_content_width": 100})
@click.option("--rage", type=RAGE, default=0, show_default=True, help="The initiator's Rage (permanent).")
@click.option("--vs-rage", type=RAGE, default=0, show_default=True, help="The defender's Rage.")
@click.option("--bonus", type=click.IntRange(-MAX_BONUS, MAX_BONUS), default=0, show_default=True,
              help="Any other bonus of the initiator.")
@click.option("--vs-bonus", type=click.IntRange(-MAX_BONUS, MAX_BONUS), default=0, show_default=True,
              help="Any other bonus of the defender.")
@click.option("--elemental", type=ELEMENTAL, default=0, show_default=True,
              help="The initiator's elemental bonuses against the defender, in total (line 303).")
@click.option("--vs-elemental", type=ELEMENTAL, default=0, show_default=True,
              help="The defender's elemental bonuses against the initiator.")
@click.option("--mountain", type=click.IntRange(0, 4), default=0, show_default=True,
              help="The initiator's Mountain bonus, 1..4 while on one (line 172).")
@click.option("--vs-mountain", type=click.IntRange(0, 4), default=0, show_default=True,
              help="The defender's Mountain bonus.")
@click.option("--fatigued", is_flag=True, help="The initiator has 3 Fatigue (UD-fatigue-bonus).")
@click.option("--vs-fatigued", is_flag=True, help="The defender has 3 Fatigue.")
@click.option("--camouflage", is_flag=True, help="The initiator cast Camouflage (UD-camouflage).")
@click.option("--sandstorm", is_flag=True, help="The initiator's Sandstorm: +2 (line 501).")
@click.option("--vs-sandstorm", is_flag=True, help="The defender's Sandstorm: +2.")
@click.option("--supercharge", is_flag=True,
              help="The initiator's Supercharge: its elemental bonuses doubled, the defender's void.")
@click.option("--vs-supercharge", is_flag=True, help="The defender's Supercharge.")
@click.option("--rage-potions", type=RAGE, default=0, show_default=True,
              help="Rage Potions the initiator drinks before the roll: +1 temporary Rage each.")
@click.option("--vs-rage-potions", type=RAGE, default=0, show_default=True,
              help="Rage Potions the defender drinks.")
@ruling_option
@output_options
def roll_rolloff(rage, vs_rage, bonus, vs_bonus, elemental, vs_elemental, mountain, vs_mountain, fatigued,
                 vs_fatigued, camouflage, sandstorm, vs_sandstorm, supercharge, vs_supercharge, rage_potions,
                 vs_rage_potions, rulings, fmt, output, plot):
    """The combat rolloff, exact: each side rolls 2 + Rage d6, keeps the highest two and adds its bonuses;
    the initiator wins ties. P(the initiator wins) (CSV column p_win), each total and the margin.

    Example: balance roll uberdrakes rolloff --rage 1 --vs-bonus 2 --mountain 1
    """
    from reports.uberdrakes.api import roll

    report = roll(rage=rage, vs_rage=vs_rage, bonus=bonus, vs_bonus=vs_bonus, elemental=elemental,
                  vs_elemental=vs_elemental, mountain=mountain, vs_mountain=vs_mountain, fatigued=fatigued,
                  vs_fatigued=vs_fatigued, camouflage=camouflage, sandstorm=sandstorm,
                  vs_sandstorm=vs_sandstorm,
                  supercharge=supercharge, vs_supercharge=vs_supercharge, rage_potions=rage_potions,
                  vs_rage_potions=vs_rage_potions, rulings=_rulings(rulings))
    emit(report, fmt, output)
    if plot is not None:
        _plot_margin(report, plot)


def _plot_margin(report, path) -> None:
    """P(each margin), the initiator's wins plain and the defender's hatched (told apart without colour)."""
    from reports.plots import COLOURS, figure, integer_ticks, save

    df = report.sections[3].data
    fig, ax = figure(7, 4)
    for wins, part in ((True, df[df.margin >= 0]), (False, df[df.margin < 0])):
        ax.bar(part.margin, part.probability, color=COLOURS[0] if wins else COLOURS[1],
               hatch=None if wins else "//", edgecolor=None if wins else "white",
               label="the initiator wins (margin ≥ 0)" if wins else "the defender wins")
    ax.set_xlabel("margin: initiator total - defender total")
    ax.set_ylabel("probability (exact)")
    integer_ticks(ax.xaxis)
    ax.set_title(report.title)
    ax.legend()
    ax.grid(alpha=0.3)
    save(fig, path)


@click.group("uberdrakes")
def table_uberdrakes():
    """UberDrakes standard tables, exact: rolloff, resources, furnace, blood-points, turn-order, caves,
    urn; `all` writes every one into a folder."""


def _table(name: str, rulings, fmt, output, plot) -> None:
    from reports.uberdrakes import tables as t
    from rulesets import get

    report = t.table_report(name, get("uberdrakes").tables()[name].compute(_rulings(rulings)))
    emit(report, fmt, output)
    if plot is not None:
        t.plot_table(name, report, plot)


#: The standard tables: name -> help (the text before the example) and the example's options.
TABLES = {
    "rolloff": ("P(the initiator wins the rolloff) for Rage 0..4 against 0..4 and bonus differences -6..+6; "
                "--plot draws it as a heatmap.", "--plot rolloff.png"),
    "resources": ("What each item, spell and dragon adds to a combat against an opponent holding nothing "
                  "(gain in the combat's value, UD-value; in P(win), blood points, damage), per Magic or "
                  "coin, over a stated grid of Rage and bonuses; exact; optimal play unless UD-policy is "
                  "set, greedy beside.", "--ruling UD-policy=greedy"),
    "furnace": ("P(an opponent gains a Fatigue) by the Magic spent on a Furnace, 8..12.",
                "--format markdown"),
    "blood-points": ("Expected plain combats to afford each of the first four Victory Points, as initiator "
                     "and defender.", "--ruling UD-vp-escalation=per-exchange"),
    "turn-order": ("Turn order for 2..6 players: P(a tie for the highest 2d6), the tie-breaks "
                   "(UD-turn-order-ties) and P(each seat goes first).", "--ruling UD-turn-order-ties=2d6"),
    "caves": ("Coins from the Caves (UD-caves): one entry, 1..5 rounds of visits, and P(affording each item "
              "price).", "--ruling UD-caves=3"),
    "urn": ("The Ancient Urn's 1d6 Magic and P(it alone pays for each combat spell).", "--format csv"),
}


def _table_command(name: str, text: str, example: str) -> click.Command:
    @ruling_option
    @output_options
    def command(rulings, fmt, output, plot):
        _table(name, rulings, fmt, output, plot)

    command.__doc__ = f"{text}\n\nExample: balance table uberdrakes {name} {example}"
    return click.command(name)(command)


for _name, (_text, _example) in TABLES.items():
    table_uberdrakes.add_command(_table_command(_name, _text, _example))


DRAGONS = ("fire", "water", "earth", "wind", "lightning", "metal")
MAX_ITEMS = 10


@click.command("uberdrakes", context_settings={"max_content_width": 100})
@click.option("--dragon", type=click.Choice(DRAGONS), required=True, help="The initiator's dragon.")
@click.option("--vs-dragon", type=click.Choice(DRAGONS), required=True, help="The defender's dragon.")
@click.option("--magic", type=WholeNumber(0, 30), default=0, show_default=True,
              help="The initiator's Magic.")
@click.option("--vs-magic", type=WholeNumber(0, 30), default=0, show_default=True,
              help="The defender's Magic.")
@click.option("--lances", type=WholeNumber(0, MAX_ITEMS), default=0, show_default=True,
              help="The initiator's Dragon Lances.")
@click.option("--vs-lances", type=WholeNumber(0, MAX_ITEMS), default=0, show_default=True,
              help="The defender's Dragon Lances.")
@click.option("--shields", type=WholeNumber(0, MAX_ITEMS), default=0, show_default=True,
              help="The initiator's Hide Shields.")
@click.option("--vs-shields", type=WholeNumber(0, MAX_ITEMS), default=0, show_default=True,
              help="The defender's Hide Shields.")
@click.option("--rage", type=RAGE, default=0, show_default=True,
              help="The initiator's Rage (temporary included).")
@click.option("--vs-rage", type=RAGE, default=0, show_default=True, help="The defender's Rage.")
@click.option("--bonus", type=click.IntRange(0, MAX_BONUS), default=0, show_default=True,
              help="The initiator's total bonus (see `roll uberdrakes rolloff` for their sources).")
@click.option("--vs-bonus", type=click.IntRange(0, MAX_BONUS), default=0, show_default=True,
              help="The defender's total bonus.")
@click.option("--potions", type=WholeNumber(0, MAX_ITEMS), default=0, show_default=True,
              help="The initiator's Rage Potions (drunk before the roll).")
@click.option("--vs-potions", type=WholeNumber(0, MAX_ITEMS), default=0, show_default=True,
              help="The defender's Rage Potions.")
@click.option("--ranged", is_flag=True,
              help="The initiator makes a Ranged attack (Long Bow, Thunderbolt...).")
@click.option("--roosted", is_flag=True,
              help="The defender has Roosted: no blood points to either side, damage as usual (line 284).")
@click.option("--spell", "spells", multiple=True, metavar="SPELL",
              help="Only these of the initiator's combat spells (repeatable; default: all of them).")
@click.option("--vs-spell", "vs_spells", multiple=True, metavar="SPELL",
              help="Only these of the defender's combat spells.")
@ruling_option
@text_output_options
def duel_uberdrakes(dragon, vs_dragon, magic, vs_magic, lances, vs_lances, shields, vs_shields, rage, vs_rage,
                    bonus, vs_bonus, potions, vs_potions, ranged, roosted, spells, vs_spells, rulings, fmt,
                    output, plot):
    """One combat, solved exactly under the greedy and the optimal policy side by side: the pre-combat
    choices (Rage Potions; Acid Rain and Windblast for the Water and Wind dragons), the rolloff, the
    counterattacks (Dragon Lance, Hide Shield, Fire Breath, Plate Armor), damage and blood points. Each
    dragon brings its own spells; items are valued at the catalog's (illustrative) prices.

    Example: balance duel uberdrakes --dragon fire --magic 6 --lances 1 --vs-dragon metal --vs-magic 10
    """
    from reports.uberdrakes.api import duel

    emit(duel(dragon, vs_dragon, magic=magic, vs_magic=vs_magic, lances=lances, vs_lances=vs_lances,
              shields=shields, vs_shields=vs_shields, potions=potions, vs_potions=vs_potions, rage=rage,
              vs_rage=vs_rage, bonus=bonus, vs_bonus=vs_bonus, ranged=ranged, roosted=roosted,
              rulings=_rulings(rulings), spells=spells or None, vs_spells=vs_spells or None),
         fmt, output)


@click.command("uberdrakes")
@catalog_option
@text_output_options
def units_uberdrakes(catalogs, fmt, output, plot):
    """The six dragons and their spells, and the items: printed values as printed, illustrative ones
    (every item price) marked *.

    Example: balance units uberdrakes --format markdown
    """
    from reports.uberdrakes.api import units

    emit(units(catalogs=catalogs), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the UberDrakes subcommands built so far to the generic verbs."""
    verbs["roll"].add_command(roll_uberdrakes)
    verbs["table"].add_command(table_uberdrakes)
    verbs["duel"].add_command(duel_uberdrakes)
    verbs["units"].add_command(units_uberdrakes)
