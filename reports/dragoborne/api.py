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


def _flag(keyword: str, flag: str | None = None) -> str:
    from reports.cli.options import option_name

    return option_name(keyword, flag)


#: The mulligan strategies a whole game plays (rulesets.dragoborne.simulate.MULLIGANS; "curve" is
#: exact-only).
GAME_MULLIGANS = ("policy", "none", "back2+", "back3+", "back4+", "back5+", "all")


def duel(a: str, b: str, *, lenient: bool = False, mulligan: str = "policy", compare_mulligans: bool = False,
         rulings=(), catalogs=(), trials: int | None = None, seed: int | None = None,
         precision: float | None = None, threads: int | None = None, progress=None) -> Report:
    """Whole games between decks ``a`` and ``b`` of the catalog, played by stated policies (`balance duel
    dragoborne DECK_A DECK_B`): P(each deck wins), the effect of going first, the game's length, how games
    end and each deck's early play, with intervals.

    Keywords, as the command's options: ``lenient`` (play decks under 50 cards or with more than 4 copies,
    with a warning), ``mulligan`` (which cards both players send back: policy, none, back2+ .. back5+,
    all), ``compare_mulligans`` (every strategy in turn on the same seed; a fixed number of games: give
    ``trials``, not ``precision``), ``rulings``, ``catalogs``, ``trials`` (at most one record per game:
    config.MAX_RECORD_TRIALS), ``seed``, ``precision``, ``threads``; ``progress(done, total)``."""
    from reports.cli.options import monte_carlo_settings
    from reports.dragoborne.duel import DEFAULT_DUEL_TRIALS
    from reports.dragoborne.duel import duel as play
    from simcore import config

    if mulligan not in GAME_MULLIGANS:
        raise OptionError(f"{_flag('mulligan')} {mulligan!r}: accepted {', '.join(GAME_MULLIGANS)}")
    typed = trials is not None
    if typed and trials > config.MAX_RECORD_TRIALS:
        raise OptionError(f"{_flag('trials')} {trials}: a duel run keeps one record per game, so at most "
                          f"{config.MAX_RECORD_TRIALS:.0e}")
    if compare_mulligans and precision is not None:
        raise OptionError(f"{_flag('compare_mulligans')} plays a fixed number of games per strategy: give "
                          f"{_flag('trials')}, not {_flag('precision')}")
    _, cap, seed = monte_carlo_settings(trials, precision, seed)
    if not typed:
        cap = min(cap, config.MAX_RECORD_TRIALS) if precision is not None else DEFAULT_DUEL_TRIALS
    return play(a, b, _in_force(rulings), catalogs=catalogs, trials=cap, seed=seed, precision=precision,
                threads=threads, lenient=lenient, mulligan=mulligan, compare_mulligans=compare_mulligans,
                progress=progress)


def units(*, deck: str | None = None, lenient: bool = False, catalogs=()) -> Report:
    """The Dragoborne cards and decks (`balance units dragoborne`; every value illustrative, marked *: the
    guide prints no card). Keywords: ``deck`` (a deck of the catalog, its key or name: checked against the
    deck regulations, lines 145-150, instead), ``lenient`` (with ``deck``: warn about deck size and copies
    instead of refusing), ``catalogs``."""
    from reports.dragoborne.cards import deck_report, units_report
    from rulesets.dragoborne import catalog as catalog_io

    cat = catalog_io.load(user_paths=tuple(catalogs))
    return deck_report(cat, deck, lenient) if deck else units_report(cat)


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
        raise OptionError(f"{_flag('color')} and {_flag('range')} go together: a condition is a colour and a "
                          "range of values")
    if color is not None:
        wanted.append(Condition(color.strip().lower(), *parse_range(range)))
    wanted += [parse_condition(text) for text in conditions]
    if not wanted:
        raise OptionError(f"give a condition: {_flag('color')} C {_flag('range')} X-Y, or "
                          f"{_flag('conditions', '--condition')} COLOUR:X-Y")
    held: dict[int, int] = {}
    for text in assigned:
        c = parse_condition(text)
        if c.low != c.high:
            raise OptionError(f"{_flag('assigned')} {text!r}: an assigned die has one value (COLOUR:VALUE)")
        free = [i for i, col in enumerate(colours) if col == c.colour and i not in held]
        if not free:
            raise OptionError(f"{_flag('assigned')} {text!r}: no other {c.colour} die among "
                              f"{', '.join(colours)}")
        held[free[0]] = c.low
    odds = condition_odds(colours, tuple(wanted), in_force, held)
    report = condition_report(colours, odds, held, in_force)
    # a colour no card of the catalog has is likely a typo ("gren"): said, not refused (a die's colour is a
    # label, and the illustrative catalog does not hold every colour of the game)
    from rulesets.dragoborne import catalog as catalog_io
    from rulesets.dragoborne.rules import ANY_COLOUR

    known = catalog_io.load().colours
    named = dict.fromkeys([*colours, *(w.colour for w in wanted)])
    unknown = [c for c in named if c not in known and c != ANY_COLOUR]
    if unknown:
        report.notes.append(f"colours no card of the catalog has: {', '.join(unknown)} (the catalog's: "
                            f"{', '.join(known)}); check the spelling")
    return report


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
