"""`balance roll drakerys spell` and `balance roll drakerys invocation`: the magic rolls.

:func:`register` attaches both commands to the `roll drakerys` group. The options take their bounds,
defaults and choices from rulesets.drakerys.rules and reports.drakerys.choices; the magic rules and reports
(numpy) are imported when a command runs, not when the tree is built.
"""

from __future__ import annotations

import math

import click

from reports.cli.options import (
    WholeNumber,
    emit,
    mc_options_for,
    mc_progress,
    monte_carlo_settings,
    output_options,
    ruling_option,
    text_output_options,
)
from reports.drakerys.choices import MAELSTROM_SECTIONS, SPELL_SECTIONS
from rulesets.drakerys.rules import MAX_HEROIC, MAX_INVOCATION_EXTRA, MAX_WIZARD_LEVEL, MIRAGE_TIERS, SOURCES

#: Most sources, Mana and cost the options take (the rules then check them against the Wizard).
MAX_SOURCES = 100
MAX_MANA = 1000


#: Longest distance accepted in cm (as for shooting): ten metres of table, far past the Action Table's
#: last column (the opposition grows by 1 every 10 cm).
MAX_CM = 1000


class Centimetres(click.ParamType):
    """A finite distance in centimetres, from 0 to :data:`MAX_CM`."""

    name = "cm"

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a distance in centimetres", param, ctx)
        if not math.isfinite(number) or number < 0:
            self.fail(f"{value} is not a finite distance >= 0 cm", param, ctx)
        if number > MAX_CM:
            self.fail(f"{value} cm is beyond {MAX_CM} cm (ten metres of table; the opposition passes the "
                      "Action Table's last column long before)", param, ctx)
        return number


class Tiers(click.ParamType):
    """Comma-separated lowest success counts of the effect tiers, increasing from 1 (e.g. 1,3,5)."""

    name = "list"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            tiers = tuple(int(part) for part in str(value).split(","))
        except ValueError:
            self.fail(f"{value!r} is not a comma-separated list of whole numbers (e.g. 1,3,5)", param, ctx)
        if tiers[0] < 1 or any(b <= a for a, b in zip(tiers, tiers[1:], strict=False)):
            self.fail(f"{value!r} is not increasing success counts from 1 (e.g. 1,3,5)", param, ctx)
        return tiers


def _sources(sources: int | None, vortexes: int | None, maelstroms: int | None) -> tuple[int, int]:
    """(vortexes, maelstroms) from --sources or --vortexes/--maelstroms (default: one Vortex)."""
    if sources is not None:
        if vortexes is not None:
            raise click.UsageError("give --sources (with --maelstroms) or --vortexes, not both")
        maelstroms = maelstroms or 0
        if maelstroms > sources:
            raise click.UsageError(f"--maelstroms {maelstroms} is more than --sources {sources}")
        return sources - maelstroms, maelstroms
    if vortexes is None and maelstroms is None:
        return 1, 0
    return vortexes or 0, maelstroms or 0


@click.command("spell")
@click.option("--level", type=WholeNumber(1, MAX_WIZARD_LEVEL), required=True,
              help="The Wizard's level (Wizard [X]): action value and most sources.")
@click.option("--distance", type=Centimetres(), default=0.0, show_default=True,
              help="Distance in cm to the furthest selected source (+1 opposition per started 10 cm).")
@click.option("--sources", type=WholeNumber(1, MAX_SOURCES), default=None,
              help="Sources named; --maelstroms of them are Maelstroms, the rest Vortexes "
                   "(default: 1 Vortex).")
@click.option("--vortexes", type=WholeNumber(0, MAX_SOURCES), default=None,
              help="Vortexes named (3 Mana each), instead of --sources.")
@click.option("--maelstroms", type=WholeNumber(0, MAX_SOURCES), default=None,
              help="Maelstroms named (up to 9 Mana each; their 1s bring the Cataclysmic Effect).")
@click.option("--mana", type=WholeNumber(0, MAX_MANA), default=0, show_default=True,
              help="Mana spent reinforcing: one more d10 each.")
@click.option("--cost", type=WholeNumber(0, MAX_MANA), default=1, show_default=True,
              help="The spell's cost in Mana (not available for reinforcement).")
@click.option("--heroic", type=WholeNumber(0, MAX_HEROIC), default=0, show_default=True,
              help="Heroic Action: extra d10 added to the roll.")
@click.option("--tiers", type=Tiers(), default=",".join(map(str, MIRAGE_TIERS)), show_default=True,
              help="Lowest success count of each effect tier (the MIRAGE card: 1-2, 3-4, 5+).")
@click.option("--resistance", type=WholeNumber(0, 100), default=3, show_default=True,
              help="Resistance of the Wizard's unit against the 2D10 hits of a 4+ cataclysm.")
@click.option("--show", multiple=True, type=click.Choice(SPELL_SECTIONS),
              help="Tables to print (repeatable; default: all that apply; CSV holds the first).")
@mc_options_for("the mean successes", probability=False)
@ruling_option
@output_options
def roll_spell(level, distance, sources, vortexes, maelstroms, mana, cost, heroic, tiers, resistance, show,
               trials, precision, seed, threads, rulings, fmt, output, plot):
    """Spell roll: successes, effect tier and, from a Maelstrom, the Cataclysmic Effect; exact by default.

    Example: balance roll drakerys spell --level 3 --distance 25 --vortexes 1 --maelstroms 1 --mana 4
    """
    from reports.drakerys.magic import spell_report
    from rulesets.drakerys import magic

    n_vortexes, n_maelstroms = _sources(sources, vortexes, maelstroms)
    show = tuple(dict.fromkeys(show)) or None
    if show and n_maelstroms == 0:
        needing = [s for s in show if s in MAELSTROM_SECTIONS]
        if needing:
            raise click.UsageError(f"--show {needing[0]} needs a Maelstrom among the sources (--maelstroms)")
    in_force = magic.DrakerysRulings().with_assignments(rulings)
    cast = magic.SpellCast(level, distance, vortexes=n_vortexes, maelstroms=n_maelstroms, mana=mana,
                           cost=cost, heroic=heroic, tiers=tiers, resistance=resistance)
    cast.check_mana(in_force)
    simulate, trials, seed = monte_carlo_settings(trials, precision, seed)
    if simulate:
        dist = magic.simulate_spell(cast, in_force, trials=trials, seed=seed, threads=threads,
                                    precision=precision, progress=mc_progress("simulating", precision))
    else:
        dist = magic.spell_distribution(cast, in_force)
    emit(spell_report(dist, show), fmt, output)
    if plot is not None:
        from reports.drakerys.plots import plot_roll  # matplotlib only when a plot is asked for

        plot_roll(dist, plot)


@click.command("invocation")
@click.option("--extra-dice", type=WholeNumber(0, MAX_INVOCATION_EXTRA), default=None,
              help="Extra d10 (1 TS each, Vortex only); the table covers 0..N (default: 5 from a Vortex, "
                   "0 from a Maelstrom).")
@click.option("--source", type=click.Choice(SOURCES), default="vortex", show_default=True,
              help="The Magical Source: a Maelstrom adds the element table.")
@text_output_options
def roll_invocation(extra_dice, source, fmt, output, plot):
    """Elemental invocation: 2d10 + extra dice against 7+, and the Maelstrom element table; exact.

    Example: balance roll drakerys invocation --source maelstrom
    """
    from reports.drakerys.magic import invocation_report
    from rulesets.drakerys import magic

    if extra_dice is None:
        extra_dice = 5 if source == "vortex" else 0
    roll = magic.InvocationRoll(extra_dice, source)
    emit(invocation_report(magic.invocation_distribution(roll)), fmt, output)


def register(group: click.Group) -> None:
    """Attach `spell` and `invocation` to the `roll drakerys` group."""
    group.add_command(roll_spell)
    group.add_command(roll_invocation)
