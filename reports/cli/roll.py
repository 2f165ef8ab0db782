"""`balance roll <ruleset>`: the distribution of one roll, exact or simulated."""

from __future__ import annotations

import click

from reports.cli import fight
from reports.cli.errors import DomainError
from reports.cli.options import (
    WholeNumber,
    emit,
    mc_options,
    monte_carlo_settings,
    output_options,
    progress_reporter,
    ruling_option,
)
from reports.cli.roll_magic import register as register_magic
from reports.cli.verbs import DefaultCommandGroup, RulesetGroup
from reports.tables import roll_report
from rulesets import drakerys
from rulesets.base import RulesError, RulingError

SHOW = ("successes", "criticals", "joint")


@click.group("roll", cls=RulesetGroup)
def roll_group():
    """Distribution of a roll: `balance roll <ruleset> ...`."""


@roll_group.group("drakerys", cls=DefaultCommandGroup, default="action")
def roll_drakerys():
    """Drakerys rolls: action (the default), and more kinds below."""


@roll_drakerys.command("action", context_settings={"max_content_width": 100})
@click.option("--dice", type=WholeNumber(1, drakerys.MAX_DICE), required=True,
              help="d10 rolled (the sum of the Powers, the hits, ...).")
@click.option("--action", "action_value", type=WholeNumber(-1000, 1000), default=None,
              help="Action value (Combat, Strength, Shooting, Willpower...).")
@click.option("--opposition", type=WholeNumber(-1000, 1000), default=None,
              help="Opposition value (enemy Combat, Resistance, distance...).")
@click.option("--threshold", type=WholeNumber(drakerys.MIN_THRESHOLD, drakerys.MAX_THRESHOLD),
              default=None, help="Give the threshold directly instead of --action/--opposition.")
@click.option("--heroic", type=WholeNumber(0, drakerys.MAX_HEROIC), default=0, show_default=True,
              help="Heroic Action: extra d10 added to the roll.")
@click.option("--swashbuckler", is_flag=True, help="Reroll every failed die once (Swashbuckler).")
@click.option("--rerolls", type=WholeNumber(0, drakerys.MAX_DICE + drakerys.MAX_HEROIC), default=0,
              show_default=True, help="Reroll up to this many failed dice once (allied warriors in contact).")
@click.option("--crits", type=click.Choice(tuple(drakerys.CRIT_MODES)), default="normal", show_default=True,
              help="How 10s count: normal (success + extra die), parry (plain success), "
                   "expert-parry (failure): the target's skill on an injury roll.")
@click.option("--show", multiple=True, type=click.Choice(SHOW),
              help="Tables to print (repeatable; default: successes and criticals).")
@mc_options
@ruling_option
@output_options
def roll_action(dice, action_value, opposition, threshold, heroic, swashbuckler, rerolls, crits,
                  show, trials, precision, seed, threads, rulings, fmt, output, plot):
    """Action-Table roll: successes and criticals, exact by default (`action` may be left out).

    Example: balance roll drakerys --dice 12 --action 3 --opposition 4 --swashbuckler
    """
    if threshold is None:
        if action_value is None or opposition is None:
            raise click.UsageError("give --action and --opposition, or --threshold")
        threshold = drakerys.action_threshold(action_value, opposition)
    elif action_value is not None or opposition is not None:
        raise click.UsageError("give either --threshold or --action/--opposition, not both")
    try:
        in_force = drakerys.DrakerysRulings().with_assignments(rulings)
        roll = drakerys.ActionRoll(dice, threshold, heroic=heroic, swashbuckler=swashbuckler,
                                   rerolls=rerolls, crits=crits)
    except RulingError as exc:
        raise click.UsageError(str(exc)) from None
    except RulesError as exc:
        raise DomainError(str(exc)) from None
    show = tuple(dict.fromkeys(show)) or ("successes", "criticals")
    simulate, trials, seed = monte_carlo_settings(trials, precision, seed)
    if simulate:
        dist = drakerys.simulate_action_roll(roll, in_force, trials=trials, seed=seed, threads=threads,
                                             precision=precision, progress=progress_reporter("simulating"))
    else:
        dist = drakerys.exact_action_roll(roll, in_force, joint="joint" in show)
    emit(roll_report(dist, show), fmt, output)
    if plot is not None:
        from reports.plots import plot_roll  # matplotlib only when a plot is asked for

        plot_roll(dist, plot)


fight.register(roll_drakerys)
register_magic(roll_drakerys)
