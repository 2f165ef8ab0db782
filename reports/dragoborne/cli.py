"""Dragoborne on the command line: `roll dragoborne condition | shield` and `table dragoborne shield` (exact)
so far; the balance verbs come once the ruleset fulfils the contract.

The reports (numpy) are imported when a command runs, not when the tree is built.
"""

from __future__ import annotations

import click

from reports.cli.options import WholeNumber, emit, ruling_option, text_output_options
from rulesets.dragoborne.rules import DragoborneRulings


def _rulings(assignments) -> DragoborneRulings:
    return DragoborneRulings().with_assignments(assignments)


@click.group("dragoborne")
def roll_dragoborne():
    """Dragoborne rolls, exact: condition, shield."""


@roll_dragoborne.command("condition", context_settings={"max_content_width": 100})
@click.option("--dice", required=True, metavar="C,C,C",
              help="The three dice's colours, as the banners (e.g. red,red,green).")
@click.option("--color", "colour", metavar="COLOUR",
              help="The condition's colour (white: any colour); with --range.")
@click.option("--range", "span", metavar="X-Y", help="The condition's range of values, e.g. 4-6 or 6.")
@click.option("--condition", "conditions", multiple=True, metavar="COLOUR:X-Y",
              help="More conditions (repeatable), e.g. green:1-2; reported each, all and any.")
@click.option("--assigned", multiple=True, metavar="COLOUR:VALUE",
              help="A die assigned (as a dragoshield or dragocross) at this value before the Dice Step "
                   "(repeatable); DG-reroll-assigned and DG-condition-dice say what that changes.")
@ruling_option
@text_output_options
def roll_condition(dice, colour, span, conditions, assigned, rulings, fmt, output, plot):
    """P(you have a die of a colour with a value in X-Y): a card's DICE X-Y condition (line 282), exact,
    for each condition, all of them and any of them.

    Example: balance roll dragoborne condition --dice red,red,green --color red --range 4-6
    """
    from reports.dragoborne.api import roll

    emit(roll(dice=dice, color=colour, range=span, conditions=conditions, assigned=assigned,
              rulings=_rulings(rulings)), fmt, output)


@roll_dragoborne.command("shield", context_settings={"max_content_width": 100})
@click.option("--atk", type=WholeNumber(1, 99), required=True, help="The attackers' ATK.")
@click.option("--shields", type=WholeNumber(1, 3), default=1, show_default=True,
              help="Dragoshields on the fort (more than one under DG-shield-stack=stack).")
@click.option("--turns", type=WholeNumber(0, 30), default=0, show_default=True,
              help="Also P(one shield stands) after this many turns of --per-turn attacks "
                   "(DG-shield-persist).")
@click.option("--per-turn", type=WholeNumber(0, 30), default=1, show_default=True,
              help="Attacks a turn, with --turns.")
@ruling_option
@text_output_options
def roll_shield(atk, shields, turns, per_turn, rulings, fmt, output, plot):
    """A fort's fresh dragoshield against attacks of one ATK: the attacks it absorbs (ceil(X / ATK), X the
    die's value) and P(it stands) after each number of attacks, exact.

    Example: balance roll dragoborne shield --atk 3 --turns 2 --per-turn 1
    """
    from reports.dragoborne.dice_tables import shield_report

    emit(shield_report(atk, shields, per_turn, turns, _rulings(rulings)), fmt, output)


@click.group("dragoborne")
def table_dragoborne():
    """Dragoborne standard tables, exact: shield."""


@table_dragoborne.command("shield")
@ruling_option
@text_output_options
def table_shield(rulings, fmt, output, plot):
    """P(a fresh dragoshield stands) after 1..6 attacks of ATK 1..6 in one turn.

    Example: balance table dragoborne shield --format markdown
    """
    from reports.dragoborne.dice_tables import shield_table

    emit(shield_table(_rulings(rulings)), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the Dragoborne subcommands built so far to the generic verbs."""
    verbs["roll"].add_command(roll_dragoborne)
    verbs["table"].add_command(table_dragoborne)
