"""`balance roll dragoborne assign`: the expected value of each assignment of P's dice for a board, exact.

The command object :data:`roll_assign` is attached to `roll dragoborne` with
``roll_dragoborne.add_command(roll_assign)`` (reports/dragoborne/cli.py). The report (and the ruleset's
combat) are imported when the command runs, not when the tree is built.
"""

from __future__ import annotations

import click

from reports.cli.options import WholeNumber, catalog_option, emit, ruling_option, text_output_options
from rulesets.dragoborne.rules import DragoborneRulings

_FORT_HELP = ("COLOUR:BARRIERS[:SHIELD]: the banner's colour, barriers left (0-2, line 173) and a "
              "dragoshield already there at that value (4+3: two stacked, under DG-shield-stack=stack).")
_CREATURE_HELP = (
    "ATK/EDR@FORT or CARD@FORT (a catalog key, e.g. pyre-drake@1), FORT 0-2, then comma-separated "
    "options: deadly, invade:C, assassin:C, cost=N (default 0), colour=C (default: the fort's), "
    "cross-C=+A/+E or cross-C=KEYWORD (a dragocross bonus; C white: any colour), dice=C:X-Y:+A/+E or "
    "dice=C:X-Y:KEYWORD (a DICE X-Y), cross=C:VALUE (already dragocrossed by a C die showing VALUE), "
    "damage=N")


@click.command("assign", context_settings={"max_content_width": 100})
@click.option("--fort", "forts", multiple=True, required=True, metavar="C:B[:S]",
              help=f"Your forts 0, 1, 2 (give it three times); {_FORT_HELP} Your die i has fort i's colour.")
@click.option("--their-fort", "their_forts", multiple=True, required=True, metavar="C:B[:S]",
              help="The opponent's forts 0, 1, 2 (three times), as --fort.")
@click.option("--mine", multiple=True, metavar="CREATURE",
              help=f"One of your creatures (repeatable, at most 2 a fort): {_CREATURE_HELP}, new (summoned "
                   "this turn: DG-summoning-sickness). Yours stand (line 182).")
@click.option("--theirs", multiple=True, metavar="CREATURE",
              help="One of the opponent's creatures (repeatable), as --mine, with rested (it attacked last "
                   "turn) instead of new.")
@click.option("--lost", multiple=True, metavar="COLOUR",
              help="A die of yours lost earlier, in the discard pile (repeatable).")
@click.option("--their-die", "their_dice", multiple=True, metavar="COLOUR:VALUE",
              help="An opponent's die in its Dice Zone showing VALUE (repeatable; it matters to their DICE "
                   "X-Y only). Their dice on no shield, creature or here are taken as discarded.")
@click.option("--top", type=WholeNumber(0, 100000), default=20, show_default=True,
              help="Assignments shown in the table, best first (0: all); CSV and JSON hold every one.")
@catalog_option
@ruling_option
@text_output_options
def roll_assign(forts, their_forts, mine, theirs, lost, their_dice, top, catalogs, rulings, fmt, output,
                plot):
    """The expected value of each assignment of your three dice (a dragoshield, a dragocross, or left in
    the Dice Zone; lines 210-217) for a board, exact: every roll of the dice enumerated, each followed by
    your combat phase and the opponent's next one, played by game.py's policies (steps 7-8).

    Value = E[barriers you break] - E[barriers they break]; beside it E[creatures destroyed] of each side,
    E[dice you lose], the best assignment chosen after seeing the roll, the one step 6's policy takes and
    P(each assignment is the best). The opponent rolls and assigns no new dice in this exchange.

    Example: balance roll dragoborne assign --fort red:2 --fort red:2 --fort green:2 --their-fort green:2
    --their-fort green:1:3 --their-fort red:2 --mine 3/2@0 --mine pyre-drake@1 --theirs 2/2@0
    --theirs grove-warden@1,rested
    """
    from reports.dragoborne.assign_tables import assign_report

    in_force = DragoborneRulings().with_assignments(rulings)
    emit(assign_report(forts, their_forts, mine, theirs, lost, their_dice, top, catalogs, in_force), fmt,
         output)
