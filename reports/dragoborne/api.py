"""Dragoborne for the Python API (reports.api): its standard tables, rolls, games and catalog as Reports;
the command line calls the same functions."""

from __future__ import annotations

from pathlib import Path

from reports.formats import Report
from reports.tables import Rounding
from rulesets.base import OptionError
from rulesets.dragoborne.rules import DragoborneRulings


def table_report(name: str, data, rounding: Rounding) -> Report:
    """A standard table (its data: rulesets.dragoborne.tables) as a Report, its probabilities kept whole,
    with its views for reading rounded by ``rounding``."""
    from reports.dragoborne.dice_tables import shield_table_report
    from reports.dragoborne.grids import VIEWS
    from reports.dragoborne.hands_tables import (
        early_play_table_report,
        mulligan_table_report,
        opening_hand_table_report,
    )
    from reports.tables import read_as

    reports_ = {"shield": shield_table_report, "opening-hand": opening_hand_table_report,
                "mulligan": mulligan_table_report, "early-play": early_play_table_report}
    return read_as(reports_[name](data), VIEWS[name], rounding)


def has_plot(name: str) -> bool:
    """No Dragoborne standard table has a plot."""
    return False


def table_plot(name: str, data: Report, path: Path) -> None:
    raise OptionError(f"the Dragoborne table {name!r} has no plot")


def duel(a: str, b: str, *, rulings=(), catalogs=(), trials: int | None = None, seed: int | None = None,
         precision: float | None = None, threads: int | None = None, lenient: bool = False) -> Report:
    """Whole games between decks ``a`` and ``b`` of the catalog (reports.dragoborne.duel)."""
    from reports.dragoborne.duel import duel as play

    return play(a, b, _in_force(rulings), catalogs=catalogs, trials=trials, seed=0 if seed is None else seed,
                precision=precision, threads=threads, lenient=lenient)


def units(*, catalogs=()) -> Report:
    from reports.dragoborne.cards import units_report
    from rulesets.dragoborne import catalog as catalog_io

    return units_report(catalog_io.load(user_paths=tuple(catalogs)))


def _in_force(rulings) -> DragoborneRulings:
    if isinstance(rulings, DragoborneRulings):
        return rulings
    return DragoborneRulings().with_assignments(rulings)


def roll_condition(*, dice: str, color: str | None = None, range: str | None = None,  # noqa: A002
                   conditions=(), assigned=(), rulings=()) -> Report:
    """DICE X-Y conditions (`balance roll dragoborne condition`), exact: ``color`` and ``range`` give one,
    ``conditions`` more as COLOUR:X-Y; ``assigned`` dice as COLOUR:VALUE."""
    from reports.dragoborne.dice_tables import condition_report
    from rulesets.dragoborne.dice import Condition, condition_odds, parse_condition, parse_dice, parse_range

    in_force = _in_force(rulings)
    colours = parse_dice(dice)
    wanted = []
    if (color is None) != (range is None):
        raise OptionError("--color and --range go together: a condition is a colour and a range of values")
    if color is not None:
        wanted.append(Condition(color.strip().lower(), *parse_range(range)))
    wanted += [parse_condition(text) for text in conditions]
    if not wanted:
        raise OptionError("give a condition: --color C --range X-Y, or --condition COLOUR:X-Y")
    held: dict[int, int] = {}
    for text in assigned:
        c = parse_condition(text)
        if c.low != c.high:
            raise OptionError(f"--assigned {text!r}: an assigned die has one value (COLOUR:VALUE)")
        free = [i for i, col in enumerate(colours) if col == c.colour and i not in held]
        if not free:
            raise OptionError(f"--assigned {text!r}: no other {c.colour} die among {', '.join(colours)}")
        held[free[0]] = c.low
    odds = condition_odds(colours, tuple(wanted), in_force, held)
    return condition_report(colours, odds, held, in_force)


def roll_shield(*, atk: int, shields: int = 1, turns: int = 0, per_turn: int = 1, rulings=()) -> Report:
    """A fort's fresh dragoshield against attacks of ATK ``atk`` (`balance roll dragoborne shield`), exact."""
    from reports.dragoborne.dice_tables import shield_report

    return shield_report(atk, shields, per_turn, turns, _in_force(rulings))


def roll_assign(*, forts, their_forts, mine=(), theirs=(), lost=(), their_dice=(), top: int = 20, catalogs=(),
                rulings=()) -> Report:
    """The expected value of each assignment of your three dice for a board (`balance roll dragoborne
    assign`): ``forts`` and ``their_forts`` three "C:B[:S]" each, creatures as the command's --mine and
    --theirs, ``lost`` colours, ``their_dice`` "COLOUR:VALUE"."""
    from reports.dragoborne.assign_tables import assign_report

    return assign_report(tuple(forts), tuple(their_forts), tuple(mine), tuple(theirs), tuple(lost),
                         tuple(their_dice), top, tuple(catalogs), _in_force(rulings))


#: Every kind of `balance roll dragoborne`, the default first.
ROLLS = {"condition": roll_condition, "shield": roll_shield, "assign": roll_assign}


def roll(kind: str = "condition", **options) -> Report:
    """The roll ``kind`` of :data:`ROLLS` (reports.api.roll checks the options' names first)."""
    return ROLLS[kind](**options)
