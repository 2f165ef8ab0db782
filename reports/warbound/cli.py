"""Warbound on the command line: `roll warbound attack`, `table warbound` (hit, armor, stress),
`duel warbound` and `units warbound`.

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
    monte_carlo_settings,
    output_options,
    ruling_option,
    text_output_options,
)
from rulesets.warbound.rules import MAX_DICE, MAX_VALUE, MIN_VALUE, WarboundRulings

MAX_POOL = 50
VALUE = WholeNumber(MIN_VALUE, MAX_VALUE)


def _rulings(assignments) -> WarboundRulings:
    return WarboundRulings().with_assignments(assignments)


@click.group("warbound")
def roll_warbound():
    """Warbound rolls, exact: attack (hit roll, Stress, armor, death and Panic)."""


@roll_warbound.command("attack", context_settings={"max_content_width": 100})
@click.option("--dice", type=WholeNumber(1, MAX_DICE - 2), required=True,
              help="Attack dice (one unless Actions, skills or upgrades add more, line 457).")
@click.option("--target", "value", type=VALUE, required=True,
              help="The value to roll: attack (Fight) or accuracy (Shoot: the first value against the "
                   "closest target, the second otherwise), 1..12.")
@click.option("--aim", is_flag=True, help="Aim: one more die, the lowest discarded (line 492).")
@click.option("--formation", is_flag=True,
              help="The attacker is a Formation: one more die, +1 to the result.")
@click.option("--modifier", type=int, default=0, show_default=True,
              help="Other modifiers added to each die's result (WB-formation-bonus decides a natural [1]).")
@click.option("--armor-points", type=WholeNumber(0, MAX_POOL), default=0, show_default=True,
              help="The target's armor points.")
@click.option("--armor-value", type=VALUE, default=None,
              help="The roll that saves (needed with armor points).")
@click.option("--broken", type=WholeNumber(0, MAX_POOL), default=0, show_default=True,
              help="Break tokens already in the target's armor pool.")
@click.option("--health", type=WholeNumber(1, MAX_POOL), default=None,
              help="The target's Health points (for P(removed)).")
@click.option("--wounds", type=WholeNumber(0, MAX_POOL), default=0, show_default=True,
              help="Tokens already in the target's Health Point pool.")
@click.option("--morale", type=WholeNumber(1, MAX_POOL), default=None,
              help="The target's morale value (for P(Panic)).")
@click.option("--stress", type=WholeNumber(0, MAX_POOL), default=0, show_default=True,
              help="Tokens already in the target's Morale Point pool.")
@click.option("--panicked", is_flag=True,
              help="The target is in the Panic state: no Morale pool, no Stress (line 525).")
@click.option("--add-wounds", type=WholeNumber(0, MAX_POOL), default=0, show_default=True,
              help='Wound tokens added by an effect that "adds a Wound token": no armor roll (line 474).')
@mc_options_for("the mean Wound tokens", probability=False)
@ruling_option
@text_output_options
def roll_attack(dice, value, aim, formation, modifier, armor_points, armor_value, broken, health, wounds,
                morale, stress, panicked, add_wounds, trials, precision, seed, threads, rulings, fmt, output,
                plot):
    """One Shoot or Fight attack, exact: the joint distribution of the new Wound, Break and Stress tokens,
    and P(removed) and P(Panic) at the end of the activation.

    Example: balance roll warbound attack --dice 2 --target 7 --aim --armor-points 1 --armor-value 6
    """
    from reports.warbound.api import roll_attack as attack

    simulate, _, _ = monte_carlo_settings(trials, precision, seed)
    emit(attack(dice=dice, target=value, aim=aim, formation=formation, modifier=modifier,
                armor_points=armor_points, armor_value=armor_value, broken=broken, health=health,
                wounds=wounds, morale=morale, stress=stress, panicked=panicked, add_wounds=add_wounds,
                rulings=rulings, trials=trials, seed=seed, precision=precision, threads=threads,
                progress=mc_progress("attacking", precision) if simulate else None), fmt, output)


@click.group("warbound")
def table_warbound():
    """Warbound standard tables, exact: hit, armor, stress."""


def _table(name: str, rulings, fmt, output, plot) -> None:
    from reports.warbound import tables as t

    report = {"hit": t.hit_table, "armor": t.armor_table, "stress": t.stress_table}[name](_rulings(rulings))
    emit(report, fmt, output)
    if plot is not None:
        t.plot_table(name, report, plot)


@table_warbound.command("hit")
@ruling_option
@output_options
def table_hit(rulings, fmt, output, plot):
    """P(at least one hit) and expected hits by target value (2..12), dice (1..4), Aim and Formation.

    Example: balance table warbound hit --format markdown
    """
    _table("hit", rulings, fmt, output, plot)


@table_warbound.command("armor")
@ruling_option
@output_options
def table_armor(rulings, fmt, output, plot):
    """Expected Wound and Break tokens of 1..12 damage by armor value (2..11) and armor points (1..4).

    Example: balance table warbound armor --plot armor.png
    """
    _table("armor", rulings, fmt, output, plot)


@table_warbound.command("stress")
@ruling_option
@output_options
def table_stress(rulings, fmt, output, plot):
    """The Stress tokens a roll gives, by dice (1..4) and Aim, under WB-aim-stress.

    Example: balance table warbound stress --ruling WB-aim-stress=kept
    """
    _table("stress", rulings, fmt, output, plot)


@click.command("warbound")
@click.argument("char_a", metavar="A")
@click.argument("char_b", metavar="B")
@click.option("--leader-a", default=None,
              help="A's Leader (default: by WB-economy, the Reference Leader or the first of A's faction).")
@click.option("--leader-b", default=None, help="B's Leader.")
@click.option("--distance", type=WholeNumber(1, 40), default=None,
              help="Tiles between them at the start (1: adjacent; default 6, illustrative).")
@click.option("--range", "range_", type=click.Choice(("near", "far")), default="near", show_default=True,
              help="near: the enemy is the closest target (first accuracy value); far: another enemy is "
                   "closer (second value, line 459).")
@click.option("--no-panic", is_flag=True, help="A panicking character keeps its front profile.")
@catalog_option
@mc_options_for("P(A removes B)", probability=True, exact=False)
@ruling_option
@text_output_options
def duel_warbound(char_a, char_b, leader_a, leader_b, distance, range_, no_panic, catalogs, trials, precision,
                  seed, threads, rulings, fmt, output, plot):
    """Two characters trade activations over the five turns, paying with their Leaders' Order tokens:
    P(A removes B), P(Panic), wounds, tokens spent and wounds dealt per token, with intervals. Name a
    character NAME@formation to field it in Formation.

    Example: balance duel warbound copp roh-na --precision 0.005
    """
    from reports.warbound.api import duel

    emit(duel(char_a, char_b, leader_a=leader_a, leader_b=leader_b, distance=distance, range=range_,
              no_panic=no_panic, rulings=rulings, catalogs=catalogs, trials=trials, seed=seed,
              precision=precision, threads=threads, progress=mc_progress("duelling", precision)), fmt, output)


@click.command("warbound")
@click.option("--deck", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A deck (TOML [deck] table) to check against the deck-building limits.")
@catalog_option
@text_output_options
def units_warbound(deck, catalogs, fmt, output, plot):
    """The Warbound characters (both sides of each card), Leaders, Formations, Equipment, Vocations and the
    Action Board; printed values as printed, illustrative ones marked *. --deck checks a deck.

    Example: balance units warbound --format markdown
    """
    from reports.warbound.api import units

    emit(units(deck=deck, catalogs=catalogs), fmt, output)


def register(verbs: dict[str, click.Group]) -> None:
    """Attach the Warbound subcommands to the generic verbs."""
    verbs["roll"].add_command(roll_warbound)
    verbs["table"].add_command(table_warbound)
    verbs["duel"].add_command(duel_warbound)
    verbs["units"].add_command(units_warbound)
