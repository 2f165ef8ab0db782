"""The `balance` command: `balance <verb> <ruleset> [args] [options]`.

Games are plug-ins (:mod:`rulesets.games`), found through the entry points of the group ``balance.games``:
a game's reports side (``cli``, e.g. ``reports.<game>.cli``) attaches its own subcommands (rolls, tables,
duels, units) to the verbs with ``register(verbs)``, and the generic layer adds `efficiency`, `whatif`,
`sweep`, `points`, `army` and `table <game> all` for it through its ruleset's contract; a game without a
reports side gets the generic verbs alone.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import sys
import threading

import click

import rulesets
from reports.cli import balance, options
from reports.cli.report_cmd import report_command
from reports.cli.rulesets_cmd import rulesets_command
from reports.cli.verbs import VERBS, when_needed
from reports.files import SharedOutputError
from rulesets.base import OptionError, RulesError
from simcore import parallel

#: The built-in games, registered one by one (`balance table drakerys action` registers Drakerys' commands
#: alone); any other game an entry point of ``balance.games`` names is registered when the verbs' commands
#: are first listed. A game whose ruleset does not fulfil the contract yet (``implemented`` False) gets its
#: own commands only.
GAMES = tuple(rulesets.games.BUILTIN)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="balance", prog_name="balance")
def cli():
    """Exact and Monte Carlo balance analysis for Drakerys, Dragonbond, Warbound, UberDrakes and
    Dragoborne.

    Exact answers by default; Monte Carlo (with standard errors and trial counts) when asked with
    --trials, --precision or --seed.

    Example: balance efficiency drakerys --unit crows --unit warriors --format markdown
    """


cli.add_command(rulesets_command)
cli.add_command(report_command)
for _verb in VERBS.values():
    cli.add_command(_verb)


def _register_game(game: str) -> None:
    """``game``'s own subcommands (its reports side, if it has one) and, once its ruleset fulfils the
    contract, the generic verbs for it."""
    commands = rulesets.game(game).load_cli()
    if commands is not None:
        commands.register(VERBS)
    ruleset = rulesets.get(game)
    if ruleset.implemented:
        balance.register(VERBS, ruleset)


def _broken(game: str, error: RulesError) -> click.Command:
    """A command standing for plug-in ``game`` that does not load: listed with the reason, and run it
    fails with that one line (exit 1), so one broken plug-in does not break the other games' commands."""

    def fail(args):
        raise error

    return click.Command(game, callback=fail, help=f"(does not load) {error}", add_help_option=False,
                         params=[click.Argument(["args"], nargs=-1)],
                         context_settings={"ignore_unknown_options": True})


def _register_plugins() -> None:
    """Every game the entry points name beyond the built-in ones (discovered when first needed); one that
    does not load is listed as such under each generic verb and fails when it is asked for."""
    for game in rulesets.names():
        if game in GAMES:
            continue
        try:
            _register_game(game)
        except RulesError as exc:
            for verb in ("efficiency", "whatif", "sweep", "points", "army", "roll", "table", "duel", "units"):
                VERBS[verb].add_command(_broken(game, exc))


for _game in GAMES:
    when_needed(functools.partial(_register_game, _game), _game)
when_needed(_register_plugins)


#: A value longer than this in an error message is cut to its first VALUE_SHOWN characters, "…" and its
#: length (a 1 MB name typed by mistake, a path of 100 KB): the line stays one that a terminal shows.
VALUE_LONGEST = 100
VALUE_SHOWN = 80
#: The longest error line, whatever it holds.
MESSAGE_LONGEST = 2000


def _cut(value: str) -> str:
    return f"{value[:VALUE_SHOWN]}… ({len(value):,} characters)"


def shorten(message: str) -> str:
    """``message`` with every long value cut (:data:`VALUE_LONGEST`): a quoted one inside its quotes, any
    other run without spaces as a whole; then the line itself cut to :data:`MESSAGE_LONGEST`."""
    long = VALUE_LONGEST + 1
    for quote in ("'", '"'):
        message = re.sub(rf"{quote}([^{quote}\n]{{{long},}}){quote}",
                         lambda m, q=quote: f"{q}{_cut(m.group(1))}{q}", message)
    message = re.sub(rf"[^\s'\"]{{{long},}}", lambda m: _cut(m.group(0)), message)
    if len(message) > MESSAGE_LONGEST:
        message = f"{message[:MESSAGE_LONGEST]}… ({len(message):,} characters)"
    return message


def _fail(message: str, code: int) -> None:
    click.echo(f"balance: error: {shorten(message)}", err=True)
    sys.exit(code)


#: Environment variables that size the BLAS libraries' thread pools (numpy's and scipy's OpenBLAS, MKL,
#: OpenMP), read once when the library loads.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")


def one_blas_thread() -> None:
    """One BLAS thread in this process (and in the helper processes it starts), unless the user set one.

    balance runs its own threads (whole matchups, pieces of a run); the matrix products it asks of BLAS
    are small (an exact stage table, a covariance). OpenBLAS would still split some of them over every core,
    and its idle threads then spin for a while waiting for more work, taking a core from the simulation
    threads: 8-13% of the CPU samples of a warm `balance efficiency drakerys`, none with one thread.
    Effective before numpy is imported, which the command tree never does."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: stopped as Ctrl-C stops a run (what the run created is removed), exit
    128 + the signal's number. `timeout`, `kill`, CI cancellation and service managers send SIGTERM."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The signals that end a run as Ctrl-C does.
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _stop(signum: int, _frame) -> None:
    """The handler of the ending signals: Ctrl-C raises KeyboardInterrupt, the others :class:`Terminated`.
    The stop is noted as well, in case the library the main thread is in swallows the exception."""
    exc = KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)
    parallel.note_stop(exc)
    raise exc


@contextlib.contextmanager
def _signals_end_the_run():
    """While the command runs, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread, and Ctrl-C
    raises KeyboardInterrupt as Python's own handler does (left alone where SIGINT is ignored, as in a
    shell's background job); each stop is noted (:func:`simcore.parallel.note_stop`). The handlers in
    place before are put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    ending = list(ENDING_SIGNALS)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        ending.append(signal.SIGINT)
    parallel.clear_stop()
    before = {s: signal.signal(s, _stop) for s in ending}
    hook = sys.unraisablehook
    sys.unraisablehook = functools.partial(_unless_the_stop, hook)
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        sys.unraisablehook = hook
        parallel.clear_stop()


def _unless_the_stop(hook, unraisable) -> None:
    """``sys.unraisablehook`` while a command runs. A signal can arrive while Python runs code whose
    exception it cannot pass on (a weakref callback such as the import system's module locks, a ``__del__``);
    the stop the handler raised there would be printed as "Exception ignored in ..." with its traceback. It is
    already noted (:func:`simcore.parallel.note_stop`) and taken up again by the run, so it is dropped here;
    any other such exception goes to the hook that was in place."""
    if not parallel.is_noted_stop(unraisable.exc_value):
        hook(unraisable)


def _interrupted(exc: BaseException) -> None:
    if isinstance(exc, Terminated):
        name = signal.Signals(exc.signum).name
        _fail(f"terminated by {name}; {options.interrupted_status()}", 128 + exc.signum)
    _fail(f"interrupted; {options.interrupted_status()}", 130)


def main(argv: list[str] | None = None) -> None:
    """Entry point: runs the command; every failure becomes one line on stderr and an exit code.

    This is the one place that maps errors to exit codes: 2 for usage (bad options, unknown rulings,
    outputs that collide), 1 for the domain (what the rules or the data cannot accept), 130 for Ctrl-C,
    128 + the signal's number for SIGTERM (143) and SIGHUP (129), which stop a run as Ctrl-C does.
    """
    one_blas_thread()
    options.reset_status()
    try:
        with _signals_end_the_run(), options.options_as_flags():
            cli.main(args=argv, prog_name="balance", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort as exc:  # click turns Ctrl-C (KeyboardInterrupt) into Abort
        if isinstance(exc.__cause__, KeyboardInterrupt):
            _interrupted(exc.__cause__)
        _fail("aborted", 1)
    except click.exceptions.NoArgsIsHelpError as exc:  # `balance`, or a verb with nothing after it
        click.echo(exc.ctx.get_help())
        sys.exit(0)
    except click.ClickException as exc:
        _fail(exc.format_message().replace("\n", " "), exc.exit_code)
    except (OptionError, SharedOutputError) as exc:
        _fail(str(exc), 2)
    except RulesError as exc:
        _fail(str(exc), 1)
    except KeyboardInterrupt as exc:
        _interrupted(exc)
    except OSError as exc:
        _fail(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""), 1)
    except Exception as exc:  # a bug: still one line, unless the user asks for the traceback
        if os.environ.get("BALANCE_DEBUG"):
            raise
        _fail(f"internal error ({type(exc).__name__}: {exc}); rerun with BALANCE_DEBUG=1 for details", 1)


#: The exit codes of a stopped run: Ctrl-C, SIGHUP, SIGTERM.
STOPPED = (130, *(128 + s for s in ENDING_SIGNALS))


def console_main() -> None:
    """The `balance` command (the console script): :func:`main` on the command line's arguments.

    A stopped run whose engagements still run on other threads ends the process at once, its output already
    removed and its line already written: the interpreter's exit would wait for each running call, and a
    compiled call (or a kernel's compilation) cannot be interrupted, so a SIGTERM could wait a minute.
    """
    try:
        main()
    except SystemExit as exc:
        if exc.code in STOPPED and parallel.running():
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exc.code)
        raise
