"""The reports side of the game contract (reports.game): each of the five games' plug-in gives an ``api``
fulfilling GameReports and a ``cli`` fulfilling GameCommands, with the Protocol's parameters."""

from __future__ import annotations

import inspect

import pytest

import rulesets
from reports.game import REPORTS_NAMES, GameCommands, GameReports

FIVE = ("drakerys", "dragonbond", "warbound", "uberdrakes", "dragoborne")


@pytest.mark.parametrize("game", FIVE)
def test_each_game_fulfils_the_reports_protocols(game):
    found = rulesets.game(game)
    side, commands = found.load_api(), found.load_cli()
    assert isinstance(side, GameReports) and isinstance(commands, GameCommands)
    for name in REPORTS_NAMES[1:]:  # the functions: their leading parameters as the Protocol's
        wanted = [p for p in inspect.signature(getattr(GameReports, name)).parameters if p != "self"]
        wanted = [p for p in wanted if p not in ("options",)]
        given = list(inspect.signature(getattr(side, name)).parameters)
        positional = [p for p in wanted if p not in ("kind",)]
        assert given[:len(positional)] == positional or name == "roll", (game, name, given)
    assert list(inspect.signature(commands.register).parameters) == ["verbs"]
    # ROLLS: keyword-only options, the default kind first and the one roll() takes without a kind
    assert len(side.ROLLS) >= 1
    for kind, function in side.ROLLS.items():
        kinds = {p.kind for p in inspect.signature(function).parameters.values()}
        assert kinds == {inspect.Parameter.KEYWORD_ONLY}, (game, kind)
    assert inspect.signature(side.roll).parameters["kind"].default == next(iter(side.ROLLS))


def test_a_module_without_the_names_does_not_fulfil_it():
    import reports.formats

    assert not isinstance(reports.formats, GameReports)
    assert not isinstance(reports.formats, GameCommands)


def test_a_ruling_declared_by_its_choices_shows_and_parses_them():
    import dataclasses

    from rulesets.base import Rulings, ruling

    @dataclasses.dataclass(frozen=True)
    class Toy(Rulings):
        colour: str = ruling("T-colour", "red", meaning="m", source="s", choices=("red", "blue"))
        strict: bool = ruling("T-strict", True, meaning="m", source="s")

    colour, strict = Toy.specs()
    assert colour.accepted == "red|blue" and colour.parse(" Blue ") == "blue"
    assert strict.accepted == "true|false" and strict.parse("no") is False
    with pytest.raises(ValueError):
        colour.parse("green")
    assert Toy().with_assignments(["T-colour=blue", "T-strict=false"]) == Toy("blue", False)


@pytest.mark.parametrize("extra", [{"accepted": "red|blue"}, {"parse": str}])
def test_a_ruling_takes_its_choices_or_its_own_parser_not_both(extra):
    from rulesets.base import ruling

    with pytest.raises(TypeError, match="T-colour"):
        ruling("T-colour", "red", meaning="m", source="s", choices=("red", "blue"), **extra)
    with pytest.raises(TypeError, match="T-colour"):
        ruling("T-colour", "red", meaning="m", source="s", **extra)
