"""Verb groups whose subcommands are rulesets: `balance <verb> <ruleset> ...`."""

from __future__ import annotations

import click

import rulesets
from reports.cli.errors import DomainError


class RulesetGroup(click.Group):
    """A verb: its commands are rulesets. Names a known but unimplemented ruleset as such (exit 1)."""

    def get_command(self, ctx, cmd_name):
        command = super().get_command(ctx, cmd_name.lower())
        if command is not None:
            return command
        if cmd_name.lower() in rulesets.names():
            done = ", ".join(self.list_commands(ctx)) or "none yet"
            raise DomainError(f"`balance {self.name} {cmd_name.lower()}` is not implemented yet; "
                              f"`balance {self.name}` covers: {done}")
        try:
            rulesets.get(cmd_name)
        except rulesets.RulesError as exc:
            raise click.UsageError(str(exc), ctx) from None
        return None

    def resolve_command(self, ctx, args):
        command = self.get_command(ctx, args[0])
        return command.name, command, args[1:]
