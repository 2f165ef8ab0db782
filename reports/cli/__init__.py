"""The `balance` command: `balance <verb> <ruleset> [args] [options]`."""

from __future__ import annotations

import os
import sys

import click

from reports.cli.efficiency import efficiency_group
from reports.cli.fight import duel_group
from reports.cli.roll import roll_group
from reports.cli.rulesets_cmd import rulesets_command
from reports.cli.table import table_group
from reports.cli.units import units_group
from rulesets.base import RulesError, RulingError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="balance", prog_name="balance")
def cli():
    """Exact and Monte Carlo balance analysis for Drakerys, Dragonbond, Warbound, UberDrakes and
    Dragoborne.

    Exact answers by default; Monte Carlo (with standard errors and trial counts) when asked with
    --trials, --precision or --seed.
    """


cli.add_command(rulesets_command)
cli.add_command(roll_group)
cli.add_command(table_group)
cli.add_command(duel_group)
cli.add_command(efficiency_group)
cli.add_command(units_group)


def _fail(message: str, code: int) -> None:
    click.echo(f"balance: error: {message}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: runs the command; every failure becomes one line on stderr and an exit code."""
    try:
        cli.main(args=argv, prog_name="balance", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        _fail("aborted", 1)
    except click.ClickException as exc:
        _fail(exc.format_message().replace("\n", " "), exc.exit_code)
    except RulingError as exc:
        _fail(str(exc), 2)
    except RulesError as exc:
        _fail(str(exc), 1)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except OSError as exc:
        _fail(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""), 1)
    except Exception as exc:  # a bug: still one line, unless the user asks for the traceback
        if os.environ.get("BALANCE_DEBUG"):
            raise
        _fail(f"internal error ({type(exc).__name__}: {exc}); rerun with BALANCE_DEBUG=1 for details", 1)
