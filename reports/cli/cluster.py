"""--scheduler ADDRESS and --dask: the matchups of a command as tasks on a Dask distributed cluster
(:mod:`simcore.distributed`). They change no number: a run gives the same bytes on a cluster as here.

Light to import (click only): the command tree is built without numpy, and ``distributed`` is imported only
when one of the options is given.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator

import click

from reports.cli.options import option_name
from rulesets.base import OptionError, RulesError


@contextlib.contextmanager
def cluster(scheduler: str | None, dask: bool) -> Iterator[None]:
    """Run the matchups of what runs inside on the Dask cluster at ``scheduler``, or on a local cluster
    started for the duration (``dask``), or here as usual (neither); connected (started) at the first
    matchups, so that an error found before costs no cluster. The one implementation of both the command
    line's options and the Python API's keywords (:mod:`reports.api`); its failures are one line, the
    options named as the caller typed them: an OptionError (exit 2) for both options or a malformed address,
    a RulesError (exit 1) for a cluster that cannot be used or a task that failed on it; a task's own
    RulesError is raised as it would be here."""
    if scheduler is not None and dask:
        raise OptionError(f"{option_name('scheduler')} and {option_name('dask')} cannot be used together: "
                          "give one")
    if scheduler is None and not dask:
        yield
        return
    from simcore import distributed

    try:
        with distributed.installed(scheduler, lazy=True):
            yield
    except distributed.AddressError as exc:
        raise OptionError(f"{option_name('scheduler')}: {exc}") from None
    except distributed.TaskFailed as exc:
        if isinstance(exc.error, RulesError):
            raise exc.error from None
        raise RulesError(str(exc)) from None
    except distributed.ClusterError as exc:
        raise RulesError(str(exc)) from None


def cluster_options(f):
    """--scheduler ADDRESS and --dask (one or neither), the command run inside :func:`cluster`; the command
    itself does not see them."""

    @functools.wraps(f)
    def command(*args, scheduler: str | None, dask: bool, **kwargs):
        with cluster(scheduler, dask):
            return f(*args, **kwargs)

    c = click.option("--dask", is_flag=True,
                     help="Start a local Dask cluster for this run (one worker process per core) and run the "
                          "matchups as its tasks; needs pip install 'balance[dask]'.")(command)
    c = click.option("--scheduler", metavar="ADDRESS", default=None,
                     help="Run the matchups as tasks on the Dask cluster at ADDRESS, e.g. tcp://host:8786; "
                          "needs pip install 'balance[dask]'. The results are the same as here.")(c)
    return c
