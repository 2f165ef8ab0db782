"""Dragoborne on the command line: `roll dragoborne condition | shield | assign` and `table dragoborne
shield | opening-hand | mulligan | early-play` (exact), `duel dragoborne DECK_A DECK_B` (whole games by
Monte Carlo) and `units dragoborne`; efficiency, whatif, sweep and `table dragoborne all` come from the
contract (rulesets/dragoborne/contest.py).

The reports (numpy) are imported when a command runs, not when the tree is built.
"""

from __future__ import annotations

import click

from reports.cli.options import (
    WholeNumber,
    catalog_option,
    emit,
    mc_options_for,
    mc_progress,
    ruling_option,
    text_output_options,
)
from rulesets.dragoborne.rules import DragoborneRulings


def _rulings(assignments) -> DragoborneRulings:
    return DragoborneRulings().with_assignments(assignments)


@click.group("dragoborne")
def roll_dragoborne():
    """Dragoborne rolls, exact: condition, shield, assign."""


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
    from reports.dragoborne.api import roll_shield

    emit(roll_shield(atk=atk, shields=shields, turns=turns, per_turn=per_turn, rulings=rulings), fmt, output)


@click.group("dragoborne")
def table_dragoborne():
    """Dragoborne standard tables, exact: shield, opening-hand, mulligan, early-play."""


def _counts(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in str(text).split(","))


def _curve(ctx, param, text):
    """The curve as typed (so that reports state it so), checked to be whole numbers."""
    try:
        _counts(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not five whole numbers of cards by cost 1,2,3,4,5+ "
                                 "(e.g. 10,12,10,10,8)") from None
    return text


def _deck(curve: str, deck: int | None) -> tuple[tuple[int, ...], int]:
    counts = _counts(curve)
    return counts, sum(counts) if deck is None else deck


def _deck_options(f):
    f = click.option("--lenient", is_flag=True, help="Allow a deck under 50 cards (line 145).")(f)
    f = click.option("--deck", type=WholeNumber(5, 1000), default=None,
                     help="The deck's size (default: the curve's sum; they must agree).")(f)
    f = click.option("--curve", default="10,12,10,10,8", show_default=True, callback=_curve,
                     metavar="N,N,N,N,N",
                     help="Cards by cost 1, 2, 3, 4, 5+ (Ambush counts as 2); the recommended curve by "
                          "default (line 158).")(f)
    return f


MULLIGANS = ("none", "back2+", "back3+", "back4+", "back5+", "curve", "all")
#: The strategies the whole game plays (rulesets.dragoborne.simulate.MULLIGANS; "curve" is exact-only), as
#: reports.dragoborne.api.GAME_MULLIGANS.
GAME_MULLIGANS = ("policy", "none", "back2+", "back3+", "back4+", "back5+", "all")


@table_dragoborne.command("opening-hand")
@_deck_options
@click.option("--mulligan", type=click.Choice(MULLIGANS), default="back3+", show_default=True,
              help="Which cards go back in the one mulligan (line 172).")
@ruling_option
@text_output_options
def table_opening_hand(curve, deck, lenient, mulligan, rulings, fmt, output, plot):
    """The 5-card opening hand, as dealt and after the mulligan (returned cards shuffled back, then as
    many drawn): for each cost, P(holding 0, 1, 2, 3+ and at least one), exact.

    Example: balance table dragoborne opening-hand --curve 10,12,10,10,8 --deck 50
    """
    from reports.dragoborne.hands_tables import opening_hand_table

    emit(opening_hand_table(_rulings(rulings), *_deck(curve, deck), lenient, mulligan), fmt, output)


@table_dragoborne.command("mulligan")
@_deck_options
@click.option("--banners", type=WholeNumber(0, 3), default=3, show_default=True,
              help="Banners that count as resources (0: they only name colours).")
@ruling_option
@text_output_options
def table_mulligan(curve, deck, lenient, banners, rulings, fmt, output, plot):
    """Every mulligan strategy compared: how often it sends cards back, what the hand holds after it, and
    the resources each player can spend on turns 1-5, exact.

    Example: balance table dragoborne mulligan --curve 10,12,10,10,8
    """
    from reports.dragoborne.hands_tables import mulligan_table

    emit(mulligan_table(_rulings(rulings), *_deck(curve, deck), lenient, banners), fmt, output)


@table_dragoborne.command("early-play")
@_deck_options
@click.option("--mulligan", type=click.Choice(MULLIGANS), default="back3+", show_default=True,
              help="Which cards go back in the one mulligan (line 172).")
@click.option("--banners", type=WholeNumber(0, 3), default=3, show_default=True,
              help="Banners that count as resources (0: they only name colours).")
@click.option("--turns", type=WholeNumber(1, 10), default=5, show_default=True, help="Turns of each player.")
@ruling_option
@text_output_options
def table_early_play(curve, deck, lenient, mulligan, banners, turns, rulings, fmt, output, plot):
    """For the first and the second player, turn by turn: resources, P(a card can be played), P(every
    resource spent) and resources spent, exact.

    Example: balance table dragoborne early-play --mulligan none --banners 0
    """
    from reports.dragoborne.hands_tables import early_play_table

    emit(early_play_table(_rulings(rulings), *_deck(curve, deck), lenient, mulligan, banners, turns), fmt,
         output)


@table_dragoborne.command("shield")
@ruling_option
@text_output_options
def table_shield(rulings, fmt, output, plot):
    """P(a fresh dragoshield stands) after 1..6 attacks of ATK 1..6 in one turn.

    Example: balance table dragoborne shield --format markdown
    """
    from reports.dragoborne.dice_tables import shield_table

    emit(shield_table(_rulings(rulings)), fmt, output)


@click.command("dragoborne")
@click.option("--deck", default=None, metavar="NAME",
              help="Check this deck of the catalog (its key or name).")
@click.option("--lenient", is_flag=True,
              help="With --deck: warn about deck size and copies instead of refusing.")
@catalog_option
@text_output_options
def units_dragoborne(deck, lenient, catalogs, fmt, output, plot):
    """The Dragoborne cards and decks (every value illustrative, marked *: the guide prints no card); --deck
    checks a deck against the deck regulations (lines 145-150).

    Example: balance units dragoborne --deck red-blaze
    """
    from reports.dragoborne.api import units

    emit(units(deck=deck, lenient=lenient, catalogs=catalogs), fmt, output)


@click.command("dragoborne", context_settings={"max_content_width": 100})
@click.argument("deck_a", metavar="DECK_A")
@click.argument("deck_b", metavar="DECK_B")
@click.option("--lenient", is_flag=True,
              help="Play decks under 50 cards or with more than 4 copies, with a warning.")
@click.option("--mulligan", type=click.Choice(GAME_MULLIGANS), default="policy", show_default=True,
              help="Which cards both players send back in the one mulligan (line 172); policy: spells, '-' "
                   "cards and creatures costing 4+.")
@click.option("--compare-mulligans", is_flag=True,
              help="Play every mulligan strategy in turn on the same seed: P(DECK_A wins) and early play "
                   "(a creature summoned, every resource spent on own turns 1-4), with intervals.")
@catalog_option
@mc_options_for("P(DECK_A wins)", probability=True, exact=False)
@ruling_option
@text_output_options
def duel_dragoborne(deck_a, deck_b, lenient, mulligan, compare_mulligans, catalogs, trials, precision, seed,
                    threads, rulings, fmt, output, plot):
    """Whole games between two decks of the catalog, played by stated policies (rulesets/dragoborne/game.py):
    P(each deck wins), the effect of going first, the game's length, how games end and each deck's early
    play, with intervals.

    Example: balance duel dragoborne red-blaze green-grove --precision 0.005
    """
    from reports.dragoborne.api import duel

    emit(duel(deck_a, deck_b, lenient=lenient, mulligan=mulligan, compare_mulligans=compare_mulligans,
              rulings=rulings, catalogs=catalogs, trials=trials, seed=seed, precision=precision,
              threads=threads, progress=mc_progress("games", precision)), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the Dragoborne subcommands to the generic verbs."""
    from reports.dragoborne.assign_cli import roll_assign

    roll_dragoborne.add_command(roll_assign)
    verbs["roll"].add_command(roll_dragoborne)
    verbs["table"].add_command(table_dragoborne)
    verbs["duel"].add_command(duel_dragoborne)
    verbs["units"].add_command(units_dragoborne)
