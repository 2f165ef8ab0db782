"""Options shared by every verb, defined once.

reports.formats (numpy) is imported when a report is emitted, not when the options are built: the choices of
--format come from reports.format_names.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import os
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from reports import files
from reports.format_names import FORMATS
from simcore import config, parallel

if TYPE_CHECKING:
    from reports.formats import Report
    from rulesets.base import Ruleset

PLOT_SUFFIXES = (".png", ".svg", ".pdf")

_INTEGER = re.compile(r"^\s*([+-]?\d[\d_]*)\s*$")
#: Characters (and powers of ten) beyond which a typed number is refused before it is converted.
_LONGEST_NUMBER = 100
_SCIENTIFIC = re.compile(r"^\s*(\d+)(?:\.(\d+))?[eE]\+?(\d+)\s*$")


class WholeNumber(click.ParamType):
    """A whole number, also written as 1e6 or 10**6; bounded. ``high`` may be a function, asked when a value
    is checked (a bound that costs something to know, such as the threads numba may use)."""

    name = "integer"

    def __init__(self, low: int, high: int | Callable[[], int], high_text: str | None = None) -> None:
        self.low, self.high, self.high_text = low, high, high_text

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value)
            number = None
            if len(text) > _LONGEST_NUMBER:  # int() refuses 4,300 digits, and 10**(10**9) never ends
                self._out_of_range(text, param, ctx)
            if m := _INTEGER.match(text):
                number = int(m.group(1).replace("_", ""))
            elif m := _SCIENTIFIC.match(text):
                digits = m.group(1) + (m.group(2) or "")
                exponent = int(m.group(3)) - len(m.group(2) or "")
                if 0 <= exponent <= _LONGEST_NUMBER:
                    number = int(digits) * 10**exponent
                elif exponent > _LONGEST_NUMBER:
                    self._out_of_range(text, param, ctx)
            elif m := re.match(r"^\s*10\s*\*\*\s*(\d+)\s*$", text):
                if int(m.group(1)) > _LONGEST_NUMBER:
                    self._out_of_range(text, param, ctx)
                number = 10 ** int(m.group(1))
            if number is None:
                self.fail(f"{text!r} is not a whole number", param, ctx)
        high = self.high() if callable(self.high) else self.high
        if not self.low <= number <= high:
            self.fail(f"{value} is not in the range {self.low}..{self.high_text or high}", param, ctx)
        return number

    def _out_of_range(self, text: str, param, ctx) -> None:
        high = self.high() if callable(self.high) else self.high
        self.fail(f"{text!r} is not a whole number in the range {self.low}..{self.high_text or high}", param,
                  ctx)


def _check_output(ctx, param, value):
    if value is None:
        return None
    if not str(value).strip():
        raise click.BadParameter(f"{value!r} is empty: give a file name", ctx, param)
    path = Path(value)
    try:
        files.check_writable(path)
    except OSError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return path


def _once(check=None):
    """The callback of an option that takes one value, declared ``multiple=True`` so that typing it twice
    is a usage error naming both values (click alone keeps the last one silently); then ``check``."""

    def callback(ctx, param, values):
        values = tuple(values or ())
        if len(values) > 1:
            shown = " and ".join(repr(str(v)) for v in values)
            raise click.BadParameter(f"given {len(values)} times ({shown}); give it once", ctx, param)
        value = values[0] if values else None
        return check(ctx, param, value) if check is not None else value

    return callback


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISREG, "a file"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a folder"


def _check_folder(ctx, param, value):
    """A folder output: not empty text, and not something else than a folder (a file, a FIFO), before any
    work. Whether a folder holding files may be written into is :func:`check_folder_empty`'s."""
    if value is None:
        return None
    if not str(value).strip():
        raise click.BadParameter(f"{value!r} is empty: give a folder name", ctx, param)
    path = Path(value)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise click.BadParameter(f"cannot use {str(path)!r}: {exc.strerror or exc}", ctx, param) from None
    if not stat.S_ISDIR(info.st_mode):
        raise click.BadParameter(f"{str(path)!r} is {_kind(info.st_mode)}, not a folder; name a new or "
                                 "existing folder", ctx, param)
    return path


#: The help of --force, the same for every folder output.
FORCE_HELP = ("Write into an existing non-empty folder: files of the same name are replaced, other files are "
              "left as they are.")


def folder_option(option: str, name: str, help_text: str, required: bool = False):
    """A folder output (``--save DIR``, ``--output DIR``) given at most once and checked before any work,
    and ``--force`` to write into a folder that already holds files (:func:`check_folder_empty`)."""
    flags = (option, "-o") if option == "--output" else (option,)

    def decorate(f):
        f = click.option("--force", is_flag=True, help=FORCE_HELP)(f)
        return click.option(*flags, name, type=click.Path(file_okay=False), multiple=True, required=required,
                            callback=_once(_check_folder), metavar="DIR", help=help_text)(f)

    return decorate


def check_folder_empty(folder: Path | None, force: bool, option: str) -> None:
    """An existing folder with something in it is written into only with --force (checked before any
    work): one rule for every folder output."""
    if folder is None or force or not folder.is_dir():
        return
    try:
        entries = sum(1 for _ in folder.iterdir())
    except OSError as exc:
        raise click.BadParameter(f"cannot read {str(folder)!r}: {exc.strerror or exc}",
                                 param_hint=f"'{option}'") from None
    if entries:
        raise click.BadParameter(
            f"{str(folder)!r} is not empty ({entries} entr{'y' if entries == 1 else 'ies'}); give --force to "
            "write into it (files of the same name are replaced, others left), or name a new or empty folder",
            param_hint=f"'{option}'")


def _check_plot(ctx, param, value):
    path = _check_output(ctx, param, value)
    if path is not None and path.suffix.lower() not in PLOT_SUFFIXES:
        raise click.BadParameter(f"{value!r} must end in one of {', '.join(PLOT_SUFFIXES)}", ctx, param)
    return path


def _note_threads(ctx, param, value):
    """More threads than cores is allowed (the results are the same); say that it will not be faster."""
    if value is not None:
        from simcore.parallel import available_threads

        cores = available_threads()
        if value > cores:
            click.echo(f"balance: note: --threads {value} is more than the {cores} core"
                       f"{'s' if cores > 1 else ''} this process may use: the results are the same, the run "
                       "is not faster", err=True)
    return value


class Precision(click.ParamType):
    """--precision: a finite half-width above 0 (and at most 0.5 when the target is a probability), the
    value typed named when refused."""

    name = "float"

    def __init__(self, probability: bool) -> None:
        self.probability = probability

    def convert(self, value, param, ctx):
        from rulesets.base import half_width

        try:
            return half_width(value, self.probability)
        except ValueError as exc:
            self.fail(f"{value if isinstance(value, str) else repr(value)!r} {exc}", param, ctx)


def mc_options_for(target: str, probability: bool, exact: bool = True):
    """--trials, --precision, --seed, --threads, for a verb whose --precision targets ``target`` (a
    probability or not) and that computes exactly unless asked to simulate (``exact``) or always simulates.
    """
    trials_help = "Monte Carlo trials (1e6 and 10**6 are accepted)." + (
        " Any of --trials, --precision or --seed runs the simulation instead of the exact computation."
        if exact else "")

    def decorate(f):
        f = click.option("--threads", type=WholeNumber(1, config.MAX_THREADS), default=None,
                         callback=_note_threads,
                         help="Threads for Monte Carlo (default: all cores). Results do not depend on it; "
                              "more than the cores is allowed, not faster.")(f)
        f = click.option("--seed", type=WholeNumber(0, 2**64 - 1, "2**64-1"), default=None,
                         help=f"Seed of the Monte Carlo streams (default {config.DEFAULT_SEED}).")(f)
        f = click.option("--precision", type=Precision(probability), default=None,
                         help=f"Stop once the 95% interval half-width of {target} is below this "
                              f"{'(above 0, at most 0.5) ' if probability else '(above 0) '}"
                              f"(capped by --trials, default cap {config.PRECISION_TRIAL_CAP:.0e}).")(f)
        f = click.option("--trials", type=WholeNumber(1, config.MAX_TRIALS, "10**12"), default=None,
                         help=trials_help)(f)
        return f

    return decorate


def check_rulings(ctx, param, values):
    """NAME=VALUE assignments: one ruling given twice with different values is a usage error naming both
    (the last would win silently); the same value twice is harmless."""
    seen: dict[str, str] = {}
    for text in values:
        name, sep, value = text.partition("=")
        key = name.strip().lower()
        if not sep or not key:
            continue  # the ruleset names what is not NAME=VALUE
        if key in seen and seen[key].partition("=")[2].strip() != value.strip():
            raise click.BadParameter(f"ruling {name.strip()} is given twice with different values "
                                     f"({seen[key]!r} and {text!r}); give it once", ctx, param)
        seen.setdefault(key, text)
    return values


def ruling_option(f):
    return click.option("--ruling", "rulings", multiple=True, metavar="NAME=VALUE", callback=check_rulings,
                        help="Switch a ruling (see `balance rulesets`); repeatable.")(f)


def budget_option(f):
    """--budget: the budget both sides of an equal-points contest spend (the game's budget ruling)."""
    return click.option(
        "--budget", type=click.IntRange(min=1), default=None, metavar="N",
        help="The budget both sides of an equal-points contest spend, in the game's cost unit (sets the "
             "game's budget ruling, e.g. DK-budget; default: the ruling's, stated in the report).")(f)


def with_budget(ruleset: Ruleset, rulings: tuple[str, ...], budget: int | None) -> tuple[str, ...]:
    """``rulings`` with ``--budget`` as the game's budget ruling; a usage error for a game without one."""
    if budget is None:
        return rulings
    if ruleset.budget_ruling is None:
        raise click.BadParameter(f"{budget}: {ruleset.name}'s contests are not bought from a budget "
                                 f"(accepted only by a game with a budget ruling)", param_hint="'--budget'")
    return (*rulings, f"{ruleset.budget_ruling}={budget}")


#: --wide of the command running (set by output_options, read by emit).
_WIDE = {"on": False}


def output_options(f):
    """--format, --output, --wide, --plot; --output and --plot naming the same file is a usage error."""
    return _output_options(f, plots=True)


def text_output_options(f):
    """--format, --output, --wide for a command with nothing to plot (it gets ``plot=None``): it offers no
    --plot rather than refusing one."""
    return _output_options(f, plots=False)


def _output_options(f, plots: bool):
    @functools.wraps(f)
    def command(*args, fmt, output, wide, plot=None, **kwargs):
        files.check_distinct({"--output": output, "--plot": plot})  # SharedOutputError: exit 2 (main)
        _WIDE["on"] = wide
        return f(*args, fmt=fmt, output=output, plot=plot, **kwargs)

    c = command
    if plots:
        c = click.option("--plot", type=click.Path(dir_okay=False), callback=_once(_check_plot),
                         multiple=True, metavar="FILE",
                         help="Also draw a plot to this file (.png, .svg or .pdf).")(c)
    c = click.option("--output", "-o", type=click.Path(dir_okay=False), callback=_once(_check_output),
                     multiple=True, metavar="FILE",
                     help="Write the report to this file instead of stdout.")(c)
    c = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                     show_default=True, help="Output format.")(c)
    c = click.option("--wide", is_flag=True,
                     help="Table format: one line per row and per note (it wraps within 100 columns).")(c)
    return c


def monte_carlo_settings(trials: int | None, precision: float | None, seed: int | None
                         ) -> tuple[bool, int, int]:
    """(simulate?, trials or cap, seed) from the shared options."""
    simulate = trials is not None or precision is not None or seed is not None
    if trials is None:
        trials = config.PRECISION_TRIAL_CAP if precision is not None else config.DEFAULT_TRIALS
    return simulate, trials, config.DEFAULT_SEED if seed is None else seed


#: Whether a message names an option as the command line's flag (while `balance` runs a command) or as the
#: Python API's keyword (otherwise): the game's API functions are the one implementation of both.
_AS_FLAGS = contextvars.ContextVar("balance_options_as_flags", default=False)


def option_name(keyword: str, flag: str | None = None) -> str:
    """How a message names the option ``keyword``: the keyword itself in the Python API ("target_models"),
    on the command line ``flag`` or, by default, the keyword as a flag ("--target-models")."""
    if not _AS_FLAGS.get():
        return keyword
    return flag if flag is not None else "--" + keyword.replace("_", "-")


@contextlib.contextmanager
def options_as_flags():
    """Inside, messages name options as the command line's flags (:func:`option_name`)."""
    token = _AS_FLAGS.set(True)
    try:
        yield
    finally:
        _AS_FLAGS.reset(token)


#: What the running command had completed, for the line Ctrl-C prints.
_completed = {"text": "nothing had completed"}


def reset_status() -> None:
    """Nothing has completed yet (a new command starts)."""
    _completed["text"] = "nothing had completed"


def interrupted_status() -> str:
    """What had completed when the run was interrupted (and that nothing was written half)."""
    return f"{_completed['text']}; no output file was written half"


#: A run expected to take longer than this (seconds) says so on stderr, with its estimate.
LONG_RUN_SECONDS = 60
#: The pace behind that estimate is the median of the pace between successive reports, taken once there are
#: MIN_PACES of them and RATE_WINDOW seconds have passed since the first report (or SLOW_WINDOW seconds,
#: for a run that reports rarely): one-time work between two reports (compiling a kernel that only later
#: matchups need, each thread's first call) is one slow interval among many, not the pace of the run.
RATE_WINDOW = 2.0
MIN_PACES = 8
SLOW_WINDOW = 30.0


def _duration(seconds: float) -> str:
    for size, name in ((86400, "days"), (3600, "hours"), (60, "minutes")):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {name}"
    return f"{seconds:,.0f} seconds"


#: A count at least this large is shown with SI prefixes on the bar (250k/1.00M trials); a smaller one
#: whole (17/1,122 engagements), never as "1.00/1.12k".
SCALED_COUNTS = 10_000
#: Seconds with nothing completed before a terminal is told that the run has started (a first run compiles
#: its kernels before its first engagement or trial completes, and the bar can only start then).
STARTING_NOTE_SECONDS = 3.0
#: The bar before its pace is known (see MIN_PACES): no rate and no time left, which would count the compile.
_EARLY_BAR = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}, estimating the time left]"


def progress_reporter(label: str, unit: str = "trials", *, may_stop_early: bool = False):
    """A progress callback ``(done, total)``: a bar with rate and time left on stderr when it is a terminal
    (tqdm), nothing otherwise; always remembered for Ctrl-C. Once the pace is known (the median pace between
    reports, see MIN_PACES: compiling and each thread's first call are not counted) a run expected to last
    more than LONG_RUN_SECONDS says so, bar or not, and the bar shows its rate and time left (before, its
    elapsed time only); ``may_stop_early``: the total is a cap that --precision may never reach. On a
    terminal, a run with nothing completed after STARTING_NOTE_SECONDS says that it has started."""
    import threading

    tty = sys.stderr.isatty()
    _completed["text"] = f"{label}: none of the {unit} had completed"
    state: dict = {"bar": None, "first": None, "last": None, "paces": [], "said": False, "known": False,
                   "reports": 0}

    def starting() -> None:
        click.echo(f"balance: note: {label}: started; the progress bar follows once the first {unit} "
                   "complete (a first run compiles its kernels first, which can take a minute)", err=True)

    timer = threading.Timer(STARTING_NOTE_SECONDS, starting) if tty else None
    if timer is not None:
        timer.daemon = True
        timer.start()

    def report(done: int, total: int) -> None:
        import time

        if timer is not None:
            timer.cancel()
        _completed["text"] = f"{label}: {done:,} of {total:,} {unit} had completed"
        now = time.perf_counter()
        state["reports"] += 1
        if state["first"] is None:
            state["first"] = now
        waited = now - state["first"]
        if not state["known"] and ((state["reports"] > MIN_PACES and waited >= RATE_WINDOW)
                                   or waited >= SLOW_WINDOW):
            state["known"] = True
        if not state["said"]:
            if state["last"] is not None:
                then, before = state["last"]
                if done > before:
                    state["paces"].append((done - before) / (now - then) if now > then else math.inf)
            state["last"] = (now, done)
            paces = state["paces"]
            if paces and ((len(paces) >= MIN_PACES and waited >= RATE_WINDOW) or waited >= SLOW_WINDOW):
                state["said"] = True
                paces.sort()
                rate = (paces[(len(paces) - 1) // 2] + paces[len(paces) // 2]) / 2  # the median
                left = (total - done) / rate
                if left > LONG_RUN_SECONDS:
                    cap = " at most (it stops earlier once --precision is met)" if may_stop_early else ""
                    pace = f"{rate:,.0f} {unit}/s" if rate >= 1 else f"one every {_duration(1 / rate)}"
                    click.echo(f"balance: note: {label}: {total - done:,} {unit} left at about {pace}: "
                               f"{_duration(left)}{cap}; Ctrl-C stops the run", err=True)
                state["paces"] = []
        if tty:
            from tqdm import tqdm

            if state["bar"] is None:
                one = unit[:-1] if unit.endswith("s") else unit
                state["bar"] = tqdm(total=total, initial=done, desc=label, unit=one,
                                    unit_scale=total >= SCALED_COUNTS, file=sys.stderr, leave=False,
                                    dynamic_ncols=True, bar_format=None if state["known"] else _EARLY_BAR)
            bar = state["bar"]
            if state["known"] and bar.bar_format is not None:
                bar.bar_format = None  # the pace is known: rate and time left from here on
            bar.update(done - bar.n)
            if done >= total:
                bar.close()

    def close() -> None:
        """Take the bar off the terminal (a run that ends before its total)."""
        if timer is not None:
            timer.cancel()
        if state["bar"] is not None:
            state["bar"].close()

    report.close = close
    report.timer = timer  # the starting note's (None off a terminal): tests wait on it
    return report


def mc_progress(label: str, precision: float | None):
    """The progress of a Monte Carlo run whose total is a cap when ``precision`` may stop it earlier."""
    return progress_reporter(label, may_stop_early=precision is not None)


#: Options that say what is asked for or where it goes, and change no number: not overrides.
_NOT_OVERRIDES = frozenset({"fmt", "output", "plot", "save_dir", "folder", "threads", "wide", "summary",
                            "scheduler", "dask", "force"})


def typed_options(ctx: click.Context) -> list[str]:
    """Every option the user typed on the command line (the overrides a report states), as typed."""
    out = []
    for param in ctx.command.params:
        if ctx.get_parameter_source(param.name) != click.core.ParameterSource.COMMANDLINE:
            continue
        value = ctx.params.get(param.name)
        flag = max(param.opts, key=len) if param.opts else param.name
        if isinstance(param, click.Argument) or param.name in _NOT_OVERRIDES:
            continue
        if getattr(param, "is_flag", False):
            out.append(flag)
        elif isinstance(value, tuple | list):
            out += [f"{flag} {v}" for v in value]
        else:
            out.append(f"{flag} {value}")
    return out


def _ruleset_of(ctx: click.Context):
    """The ruleset a command runs for: the nearest command of the chain named like one."""
    import rulesets

    while ctx is not None:
        if ctx.info_name in rulesets.names():
            return rulesets.get(ctx.info_name)
        ctx = ctx.parent
    return None


def with_provenance(report: Report, ctx: click.Context | None) -> Report:
    """``report`` with what its meta does not say yet of its provenance: the catalog files read (with their
    hashes) when the command takes --catalog, the options typed (the overrides) and the package version."""
    from reports.provenance import catalog_text, version

    have = {k for k, _ in report.meta}
    extra = []
    if ctx is not None:
        ruleset = _ruleset_of(ctx)
        if "catalog" not in have and "catalogs" in ctx.params and ruleset is not None and ruleset.implemented:
            catalog = ruleset.load_catalog(ctx.params["catalogs"])
            extra.append(("catalog", catalog_text(ruleset.catalog_files(catalog))))
        if "overrides" not in have:
            extra.append(("overrides", "; ".join(typed_options(ctx)) or "none"))
    if "version" not in have:
        extra.append(("version", f"balance {version()}"))
    report.meta = [*report.meta, *extra]
    return report


def emit(report: Report, fmt: str, output: Path | None) -> None:
    """Render ``report`` (its provenance completed) and send it to ``output`` (see :mod:`reports.files`)
    or stdout."""
    from reports import formats

    report = with_provenance(report, click.get_current_context(silent=True))
    text = formats.render(report, fmt, wide=_WIDE["on"])
    if fmt == "csv" and len(report.sections) > 1:
        others = ", ".join(s.name for s in report.sections[1:])
        click.echo(f"note: CSV holds the {report.sections[0].name!r} table only; the other tables "
                   f"({others}) are in the JSON, Markdown, LaTeX, HTML and table formats", err=True)
    parallel.check_stop()  # a stop a library swallowed while the report was made: nothing is sent
    if output is None:
        click.echo(text, nl=False)
    else:
        files.write_text(output, text)


#: Stack frames the check of a catalog's nesting keeps in hand: the game's loader parses the file again,
#: a few calls deeper than the check.
CATALOG_STACK_MARGIN = 100


def _nested_too_deeply(path: Path) -> bool:
    """Whether the TOML parser runs out of stack on ``path`` (arrays or tables nested hundreds deep),
    checked with :data:`CATALOG_STACK_MARGIN` frames fewer than the loader will have. Anything else wrong
    with the file is left to the game's loader, which names it."""
    import tomllib

    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit - CATALOG_STACK_MARGIN, 200))
    try:
        tomllib.loads(text)
    except RecursionError:
        return True
    except (tomllib.TOMLDecodeError, ValueError):
        return False
    finally:
        sys.setrecursionlimit(limit)
    return False


def _check_catalogs(ctx, param, paths):
    """A catalog is read more than once in a run (the rules, then its hash for the provenance): a FIFO
    (a pipe, `<(...)`) gives its content only once, so the second read would wait forever; refused (a
    usage error). A catalog nested too deeply to be parsed is a domain error naming the file."""
    from rulesets.base import RulesError

    for path in paths:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            continue  # click has checked that it exists; a race is the loader's to report
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            raise click.BadParameter(f"{str(path)!r} is {_kind(mode)}: a catalog is read more than once (its "
                                     "rules, then its hash for the provenance), so give a regular file",
                                     ctx, param)
        if stat.S_ISREG(mode) and _nested_too_deeply(path):
            raise RulesError(f"{path}: cannot read: its arrays or tables are nested too deeply to be parsed "
                             "(a catalog's values are flat)")
    return paths


def catalog_option(f):
    """--catalog FILE (repeatable): user catalogs applied over the packaged one."""
    return click.option("--catalog", "catalogs", multiple=True, metavar="FILE", callback=_check_catalogs,
                        type=click.Path(exists=True, dir_okay=False, path_type=Path),
                        help="A user catalog (TOML, the packaged schema) applied on top of the packaged "
                             "one; repeatable, later files win.")(f)


def entry_names(ctx, param, values: tuple[str, ...]) -> tuple[str, ...]:
    """--unit values: a name with an ``@`` names what follows it (a size, or Warbound's ``formation``), so
    "crows@" is a usage error, not the unit at every size (the catalogs' lookup ignores punctuation)."""
    for value in values:
        name, at, after = value.partition("@")
        if at and (not name.strip() or not after.strip()):
            side = "after" if name.strip() else "before"
            raise click.BadParameter(f"{value!r}: nothing {side} '@' (accepted: NAME, or NAME@SIZE, "
                                     "NAME@formation in Warbound)", ctx, param)
    return values
