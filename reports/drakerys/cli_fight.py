"""`balance roll drakerys fight|shoot` and `balance duel drakerys`: Fights, Shootings, engagements."""

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
)
from reports.drakerys.cli_sides import (
    NOT_IN_FIGHT,
    NOT_IN_SHOOTING,
    describe,
    side_options,
    side_options_without,
    sides_setup,
)
from rulesets.base import OptionError
from rulesets.drakerys.rules import ENGAGED_CANNOT_SHOOT


def _not_engaged(ctx, param, value):
    """A shot from 0 cm: the units are in contact, Engaged, and cannot shoot (refused before the run)."""
    if value == 0:
        raise click.BadParameter(ENGAGED_CANNOT_SHOOT, ctx, param)
    return value


def _plot_outcomes(plot, report, title: str) -> None:
    """--plot of a Fight or a Shooting: every distribution of its report, with 95% error bars."""
    if plot is not None:
        from reports.drakerys.plots import plot_outcomes

        plot_outcomes(report.sections[0].data, plot, f"Drakerys {title}")


def register(roll_drakerys: click.Group) -> None:
    """Attach `fight` and `shoot` to `balance roll drakerys`."""

    @roll_drakerys.command("fight")
    @click.argument("unit_a", metavar="A")
    @click.argument("unit_b", metavar="B")
    @click.option("--charge", is_flag=True, help="A charges (Charge bonus, Brutal Charge, +1 Advantage).")
    @side_options_without(*NOT_IN_FIGHT)
    @catalog_option
    @mc_options_for("P(A wins the Fight alone)", probability=True, exact=False)
    @ruling_option
    @output_options
    def roll_fight(unit_a, unit_b, charge, catalogs, trials, precision, seed, threads, rulings, fmt, output,
                   plot, **options):
        """One Fight: A attacks (or charges) B; both strike. Casualties, winner and the loser's morale.

        Example: balance roll drakerys fight crows gold-keepers --size-a 12 --size-b 6 --charge
        """
        # numba (the combat kernels) and pandas (the report) load when a command runs, not with the tree
        from reports.drakerys.fight import fight_report
        from rulesets.drakerys import simulate

        catalog, in_force, (a, ap_a), (b, ap_b) = sides_setup(catalogs, rulings, unit_a, unit_b, options)
        if b.heroic and in_force.heroic_passive == "none":
            raise OptionError("--heroic-b: B fights back, with no Action of its own whose cost Heroic Action "
                              "dice could raise, so under DK-heroic-passive=none (the default) it adds none; "
                              "--ruling DK-heroic-passive=own-ts lets it, paying 1 TS a die")
        _, trials, seed = monte_carlo_settings(trials, precision, seed)
        result = simulate.simulate_fight(a, b, charge=charge, rulings=in_force, weapons=catalog.weapons,
                                       trials=trials, seed=seed, threads=threads, precision=precision,
                                       progress=mc_progress("fighting", precision))
        report = fight_report(result, ap_a, ap_b, describe(a, ap_a), describe(b, ap_b))
        emit(report, fmt, output)
        _plot_outcomes(plot, report, f"Fight: {a.unit.name} ({a.size}) against {b.unit.name} ({b.size}); "
                                     f"{result.run.trials:,} trials, seed {seed}")

    @roll_drakerys.command("shoot")
    @click.argument("unit_a", metavar="SHOOTER")
    @click.argument("unit_b", metavar="TARGET")
    @click.option("--distance", type=WholeNumber(0, 1000), required=True, callback=_not_engaged,
                  help="Distance in cm (at least 1: units in contact are Engaged and cannot shoot).")
    @side_options_without(*NOT_IN_SHOOTING)
    @catalog_option
    @mc_options_for("the mean injuries inflicted", probability=False, exact=False)
    @ruling_option
    @output_options
    def roll_shoot(unit_a, unit_b, distance, catalogs, trials, precision, seed, threads, rulings, fmt,
                   output, plot, **options):
        """One Shooting of SHOOTER at TARGET: casualties, injuries and the target's Morale roll.

        Side options: a = the shooter, b = the target.
        Example: balance roll drakerys shoot crossbowmen crows --distance 35 --obstacles-a 1
        """
        from reports.drakerys.fight import shooting_report
        from rulesets.drakerys import simulate

        catalog, in_force, (a, ap_a), (b, ap_b) = sides_setup(catalogs, rulings, unit_a, unit_b, options,
                                                              a_shoots=True)
        _, trials, seed = monte_carlo_settings(trials, precision, seed)
        result = simulate.simulate_shooting(a, b, distance_cm=distance, weapons=catalog.weapons,
                                          rulings=in_force, trials=trials, seed=seed, threads=threads,
                                          precision=precision, progress=mc_progress("shooting", precision))
        report = shooting_report(result, ap_b, describe(a, ap_a), describe(b, ap_b))
        emit(report, fmt, output)
        _plot_outcomes(plot, report, f"Shooting: {a.unit.name} ({a.size}) at {b.unit.name} ({b.size}) from "
                                     f"{distance} cm; {result.run.trials:,} trials, seed {seed}")


@click.command("drakerys")
@click.argument("unit_a", metavar="A")
@click.argument("unit_b", metavar="B")
@click.option("--shoot-from", type=WholeNumber(0, 1000), default=None, callback=_not_engaged,
              help="A opens fire from this distance (cm) instead of charging.")
@click.option("--start", "start", type=WholeNumber(1, 1000), default=None,
              help="The units start this many cm apart and every Action is the unit's best available one "
                   "(as in efficiency: Attack when Engaged, else Shooting in range, else Charge, else "
                   "March).")
@click.option("--rounds", type=WholeNumber(1, 6), default=6, show_default=True,
              help="Rounds of the game left (16 Time Sections each).")
@side_options
@catalog_option
@mc_options_for("P(A wins)", probability=True, exact=False)
@ruling_option
@output_options
def duel_drakerys(unit_a, unit_b, shoot_from, start, rounds, catalogs, trials, precision, seed, threads,
                  rulings, fmt, output, plot, **options):
    """A charges B (or shoots first, or both start --start cm apart), then both fight on until one is
    destroyed or scatters or the game ends. P(A wins), P(B wins), P(neither), injuries, AP destroyed and
    Time Sections, with intervals.

    Example: balance duel drakerys crows gold-keepers --precision 0.005
    """
    from reports.drakerys.api import engagement

    report, title = engagement(dict(a=unit_a, b=unit_b, shoot_from=shoot_from, start=start, rounds=rounds,
                                    catalogs=catalogs, rulings=rulings, trials=trials, seed=seed,
                                    precision=precision, threads=threads,
                                    progress=mc_progress("duelling", precision), **options))
    emit(report, fmt, output)
    if plot is not None:
        from reports.drakerys.plots import plot_engagement

        plot_engagement(report.sections[0].data, plot, title)
