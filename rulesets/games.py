"""Games as plug-ins: what an entry point of the group ``balance.games`` names.

A game is a :class:`Game`: its :class:`rulesets.base.Ruleset` and, optionally, its reports side (the
module the Python API asks for tables, rolls, duels and the catalog, and the module whose ``register(verbs)``
adds the game's own subcommands to `balance`). A separate package declares one in its pyproject.toml::

    [project.entry-points."balance.games"]
    chess = "balance_chess:GAME"        # GAME = Game("balance_chess.rules:RULESET")

and `balance efficiency chess`, ``rulesets.get("chess")`` and ``reports.api.efficiency("chess")`` find it.
A game without a reports side still gets every generic verb (efficiency, whatif, sweep, points, army)
once its ruleset fulfils the contract. The five built-in games are declared the same way (pyproject.toml),
each pointing at one of the descriptors below.

The parts are given as import paths ("package.module" whose ``RULESET``, or "package.module:attribute") or
as the objects themselves: a path is imported on first use, so listing the games imports none of them.
"""

from __future__ import annotations

import importlib
import types
from dataclasses import dataclass
from typing import Any

from rulesets.base import RulesError, Ruleset

#: The attribute a ruleset path without ":attribute" names.
RULESET_ATTRIBUTE = "RULESET"


def _resolve(what: Any, default_attribute: str | None = None) -> Any:
    """``what`` itself, or the object its import path names ("module" or "module:attribute")."""
    if not isinstance(what, str):
        return what() if isinstance(what, types.FunctionType) else what  # a function makes it
    module_name, _, attribute = what.partition(":")
    module = importlib.import_module(module_name)
    attribute = attribute or default_attribute
    if not attribute:
        return module
    target: Any = module
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class Game:
    """One game as a plug-in.

    ``ruleset``: the game's :class:`~rulesets.base.Ruleset`, a function returning it, or the import path of
    the module holding it as ``RULESET`` ("package.module" or "package.module:attribute").
    ``api``: the reports side for the Python API (an object or module fulfilling
    :class:`reports.game.GameReports`: ``table_report``, ``has_plot``, ``table_plot``, ``ROLLS``, ``roll``,
    ``duel``, ``units``), or its import path; None: the game has generic verbs only.
    ``cli``: the object or module whose ``register(verbs)`` attaches the game's own subcommands of
    `roll`, `table`, `duel` and `units` (:class:`reports.game.GameCommands`), or its import path; None:
    generic verbs only.
    """

    ruleset: Any
    api: Any = None
    cli: Any = None

    def load_ruleset(self) -> Ruleset:
        return _resolve(self.ruleset, RULESET_ATTRIBUTE)

    def load_api(self) -> Any:
        return None if self.api is None else _resolve(self.api)

    def load_cli(self) -> Any:
        return None if self.cli is None else _resolve(self.cli)


def _builtin(name: str) -> Game:
    return Game(f"rulesets.{name}", api=f"reports.{name}.api", cli=f"reports.{name}.cli")


#: The five built-in games, as pyproject.toml's entry points name them ("rulesets.games:DRAKERYS", ...).
DRAKERYS = _builtin("drakerys")
DRAGONBOND = _builtin("dragonbond")
WARBOUND = _builtin("warbound")
UBERDRAKES = _builtin("uberdrakes")
DRAGOBORNE = _builtin("dragoborne")

#: The built-in games by name, in the registry's order (also what a stale install without the entry
#: points falls back to: see :func:`rulesets.discover`).
BUILTIN: dict[str, Game] = {"drakerys": DRAKERYS, "dragonbond": DRAGONBOND, "warbound": WARBOUND,
                            "uberdrakes": UBERDRAKES, "dragoborne": DRAGOBORNE}


def check(name: str, found: Any, where: str) -> Game:
    """``found`` (what an entry point loaded) as a Game; a RulesError naming the entry point otherwise."""
    if isinstance(found, Game):
        return found
    if isinstance(found, Ruleset):  # a bare Ruleset: a game with generic verbs only
        return Game(found)
    raise RulesError(f"the game plug-in {name!r} ({where}) gives a {type(found).__name__}, not a "
                     "rulesets.games.Game or a Ruleset")
