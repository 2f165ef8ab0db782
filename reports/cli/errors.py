"""How failures reach the user: one line on stderr and an exit code (2 usage, 1 domain)."""

from __future__ import annotations

import click


class DomainError(click.ClickException):
    """Input that is well formed but that the rules or the data cannot accept (exit code 1)."""

    exit_code = 1
