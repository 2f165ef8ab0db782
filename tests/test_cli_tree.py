"""The whole command tree: every command documented with an example, every implemented game under every
verb (as sqlite-utils' test_docs.py walks its CLI)."""

from __future__ import annotations

import click
import pytest
from cli_run import run

from reports.cli import GAMES, cli
from reports.cli.verbs import VERBS
from rulesets import get as get_ruleset
from rulesets import names as ruleset_names

#: Games that fulfil the contract: every verb works for them. The others say they are not implemented
#: (a game under way may offer its own rolls and tables first).
IMPLEMENTED = [g for g in GAMES if get_ruleset(g).implemented]
NOT_YET = [g for g in ruleset_names() if not get_ruleset(g).implemented]


def walk(command: click.Command, path: tuple[str, ...] = ()):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from walk(sub, (*path, name))


COMMANDS = list(walk(cli))
LEAVES = [(p, c) for p, c in COMMANDS if not isinstance(c, click.Group)]


@pytest.mark.parametrize("path, command", COMMANDS, ids=[" ".join(p) or "balance" for p, _ in COMMANDS])
def test_every_command_has_help(path, command):
    assert command.help and command.help.strip(), path


@pytest.mark.parametrize("path, command", LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_every_leaf_has_an_example_that_names_itself(path, command):
    lines = [line.strip() for line in command.help.splitlines() if line.strip().startswith("Example:")]
    assert lines, f"`balance {' '.join(path)}` has no Example: line"
    words = lines[0].removeprefix("Example:").split()
    assert words[0] == "balance"
    # the example runs this very command (a default kind of roll may be left out)
    assert words[1 : 1 + min(len(path), 2)] == list(path[:2]), lines[0]


@pytest.mark.parametrize("game", IMPLEMENTED)
@pytest.mark.parametrize("verb", sorted(VERBS))
def test_every_implemented_game_has_every_verb(verb, game):
    assert game in VERBS[verb].commands, f"`balance {verb} {game}` is missing"


@pytest.mark.parametrize("game", NOT_YET)
def test_a_game_not_implemented_yet_says_so(capsys, game):
    assert game not in IMPLEMENTED
    code, out, err = run(capsys, "efficiency", game)
    assert code == 1 and out == "" and "not implemented yet" in err


@pytest.mark.parametrize("game", IMPLEMENTED)
def test_table_all_exists_for_every_game(game):
    assert "all" in VERBS["table"].commands[game].commands


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS],
                         ids=[" ".join(p) or "balance" for p, _ in COMMANDS])
def test_help_runs(capsys, path):
    code, out, err = run(capsys, *path, "--help")
    assert code == 0 and "Usage:" in out and err == ""


def test_every_plot_option_offered_draws_something():
    """--plot is offered only by commands that draw (it was listed, then refused, by rulesets, units and
    the weapons and invocation tables)."""
    from reports.cli import cli

    def commands(group, path=()):
        for name, sub in group.commands.items():
            if isinstance(sub, click.Group):
                yield from commands(sub, (*path, name))
            else:
                yield (*path, name), sub

    offers = {" ".join(p) for p, c in commands(cli) if any("--plot" in o.opts for o in c.params)}
    for silent in ("rulesets", "units drakerys", "table drakerys weapons", "table drakerys invocation",
                   "roll drakerys invocation"):
        assert silent not in offers
    assert {"roll drakerys fight", "duel drakerys", "efficiency drakerys", "table drakerys action"} <= offers


@pytest.mark.parametrize("game", [g for g in IMPLEMENTED if g != "drakerys"])
@pytest.mark.parametrize("verb", ["whatif", "sweep", "efficiency"])
def test_generic_help_speaks_of_the_game_itself(verb, game):
    """The generic verbs' help gives the game's own examples and stats, not Drakerys' (crows, skills)."""
    command = VERBS[verb].commands[game]
    text = " ".join(" ".join(p.get_help_record(click.Context(command))[1].split())
                    for p in command.params if p.get_help_record(click.Context(command))) + command.help
    assert "crows" not in text.lower()
    if "skills" not in get_ruleset(game).stats():
        assert "skills" not in text
