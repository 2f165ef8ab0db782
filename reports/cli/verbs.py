"""Verb groups whose subcommands are rulesets (`balance <verb> <ruleset> ...`), and ruleset groups whose
subcommands are kinds of roll with a default (`balance roll drakerys [action|fight|...]`)."""

from __future__ import annotations

from collections.abc import Callable

import click

import rulesets
from rulesets.base import RulesError

#: Registrations of subcommands, run the first time any verb's commands are looked at: so `balance --help`,
#: which lists the verbs only, imports no game. A game's own (``when_needed(register, game)``) also runs
#: alone when a verb is asked for that game: `balance table drakerys action` imports no other game's
#: commands (about 40 ms of the four others' imports and registrations).
_PENDING: list[Callable[[], None]] = []
_GAMES: dict[str, Callable[[], None]] = {}
_registering = False


def when_needed(register: Callable[[], None], game: str | None = None) -> None:
    """Run ``register`` (which adds subcommands to the verbs) before a verb's commands are first read, or,
    for ``game``'s own, before that game's subcommand of a verb is looked for."""
    if game is None:
        _PENDING.append(register)
    else:
        _GAMES[game] = register


def _run(registers: Callable[[], None]) -> None:
    """Run registrations; the verbs' commands read while one runs are those registered so far."""
    global _registering
    if _registering:
        return
    _registering = True
    try:
        registers()
    finally:
        _registering = False


def _register_pending() -> None:
    def every() -> None:
        while _PENDING:
            _PENDING.pop(0)()
        while _GAMES:
            _GAMES.pop(next(iter(_GAMES)))()

    _run(every)


def _register_game(name: str) -> None:
    if name in _GAMES:
        _run(lambda: _GAMES.pop(name)())


#: The verbs whose commands a game's own reports side gives (not the generic layer), and what it would give.
GAME_OWN = {"roll": "roll kinds", "table": "rulebook tables", "duel": "duel", "units": "catalog listing"}


def _without_reports_side(name: str) -> bool:
    """Whether game ``name`` is a plug-in without a reports side (``Game.cli`` None): its own verbs have no
    commands for it, by design rather than not yet."""
    try:
        return rulesets.game(name).cli is None
    except RulesError:
        return False


class RulesetGroup(click.Group):
    """A verb: its commands are rulesets. Names a known but unimplemented ruleset as such (exit 1)."""

    @property
    def commands(self) -> dict[str, click.Command]:
        _register_pending()
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def get_command(self, ctx, cmd_name):
        _register_game(cmd_name.lower())  # that game's subcommands alone
        command = self._commands.get(cmd_name.lower())
        if command is None:  # not a game's name as registered: every game's subcommands, then click's lookup
            command = super().get_command(ctx, cmd_name.lower())
        if command is not None:
            return command
        name = cmd_name.lower()
        if name in rulesets.names():
            done = ", ".join(self.list_commands(ctx)) or "none yet"
            if self.name in GAME_OWN and _without_reports_side(name):
                raise RulesError(f"{name} has no reports side of its own, so no {GAME_OWN[self.name]} "
                                 f"(its plug-in gives the generic verbs only); `balance {self.name}` covers: "
                                 f"{done}")
            raise RulesError(f"`balance {self.name} {name}` is not implemented yet; "
                              f"`balance {self.name}` covers: {done}")
        try:
            rulesets.get(cmd_name)
        except rulesets.RulesError as exc:
            raise click.UsageError(str(exc), ctx) from None
        return None

    def resolve_command(self, ctx, args):
        command = self.get_command(ctx, args[0])
        return command.name, command, args[1:]


class DefaultCommandGroup(click.Group):
    """A group whose first argument may be left out: anything that is not one of its commands runs
    ``default`` with all the arguments (so `balance roll drakerys --dice 3 ...` is the action roll)."""

    def __init__(self, *args, default: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.default = default

    def parse_args(self, ctx, args):
        if not args:  # nothing chosen yet: the kinds and their help, not the default's missing options
            raise click.exceptions.NoArgsIsHelpError(ctx)
        if not args[0].startswith("-") and args[0] not in self.commands:
            kinds = ", ".join(sorted(self.commands))
            raise click.UsageError(f"unknown kind {args[0]!r} for `{ctx.command_path}`; accepted: {kinds}",
                                   ctx)
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = [self.default, *args]
        return super().parse_args(ctx, args)


@click.group("roll", cls=RulesetGroup)
def roll_group():
    """Distribution of a roll: `balance roll <ruleset> ...`."""


@click.group("table", cls=RulesetGroup)
def table_group():
    """Exact rulebook tables: `balance table <ruleset> <table>`, or `all` of them into a folder."""


@click.group("duel", cls=RulesetGroup)
def duel_group():
    """Engagements fought to the end: `balance duel <ruleset> A B`."""


@click.group("units", cls=RulesetGroup)
def units_group():
    """Catalogs: `balance units <ruleset>`."""


@click.group("efficiency", cls=RulesetGroup)
def efficiency_group():
    """Balance reports: value per cost, fair costs, the meta-game: `balance efficiency <ruleset>`."""


@click.group("whatif", cls=RulesetGroup)
def whatif_group():
    """A change of stat, cost or ruling against the baseline, on the same dice: `balance whatif <ruleset>`."""


@click.group("sweep", cls=RulesetGroup)
def sweep_group():
    """One stat or cost over a range, on the same dice: `balance sweep <ruleset>`."""


@click.group("points", cls=RulesetGroup)
def points_group():
    """The balanced points table: the costs that make every entry fair: `balance points <ruleset>`."""


@click.group("army", cls=RulesetGroup)
def army_group():
    """The army a sharp player brings at a budget, and the best counter to it: `balance army <ruleset>`."""


#: Every verb whose subcommands are rulesets, by name: what a game's `register(verbs)` receives.
VERBS: dict[str, click.Group] = {g.name: g for g in (roll_group, table_group, duel_group, units_group,
                                                      efficiency_group, whatif_group, sweep_group,
                                                      points_group, army_group)}
