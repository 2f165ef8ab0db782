"""Registry of the games: ``names()``, ``get(name)``, ``available()`` and ``game(name)``.

Every game, the five built-in ones included, is found through the entry points of the group
``balance.games`` (pyproject.toml; :mod:`rulesets.games` says what one names). Listing them reads the
installed packages' metadata only; a game's modules are imported when it is first asked for.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from typing import Any

from rulesets.base import RulesError, Ruleset
from rulesets.games import BUILTIN, Game, check

#: The entry point group a game registers in.
GROUP = "balance.games"


@dataclass(frozen=True)
class _Builtin:
    """A built-in game missing from the installed metadata, shaped as its entry point."""

    name: str
    game: Game

    @property
    def value(self) -> str:
        return f"rulesets.games:{self.name.upper()}"

    def load(self) -> Game:
        return self.game


@functools.cache
def discover() -> dict[str, Any]:
    """The games' entry points by name (lower case): objects with ``.value`` and ``.load()``.

    The built-in games' are this package's own entry points; a built-in one missing from the metadata (an
    editable install older than its pyproject.toml: `make setup` refreshes it) is taken from
    :data:`rulesets.games.BUILTIN`, so a stale install still runs the five games."""
    from importlib.metadata import entry_points

    found: dict[str, Any] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name.strip().lower(), point)
    for name, builtin in BUILTIN.items():
        found.setdefault(name, _Builtin(name, builtin))
    return found


def names() -> tuple[str, ...]:
    """Every game's name: the five built-in ones in their order, then the plug-ins' in alphabetical order."""
    found = discover()
    return (*(n for n in BUILTIN if n in found), *sorted(n for n in found if n not in BUILTIN))


def _unknown(name: str) -> RulesError:
    known = names()
    close = difflib.get_close_matches(name.strip().lower(), known, n=2)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return RulesError(f"unknown ruleset {name!r}{hint}; known: {', '.join(known)}")


def game(name: str) -> Game:
    """The plug-in called ``name`` (case-insensitive): its ruleset and reports side, not loaded yet.
    :class:`RulesError` naming the entry point when it does not load."""
    key = name.strip().lower()
    point = discover().get(key)
    if point is None:
        raise _unknown(name)
    where = f"entry point {point.value!r} in group {GROUP}"
    try:
        found = point.load()
    except (ImportError, AttributeError) as exc:  # a module or an attribute that is not there
        raise RulesError(f"the game plug-in {key!r} ({where}) does not load: "
                         f"{type(exc).__name__}: {' '.join(str(exc).split())}") from exc
    return check(key, found, where)


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (case-insensitive); :class:`RulesError` with suggestions otherwise."""
    key = name.strip().lower()
    found = game(key)
    try:
        ruleset = found.load_ruleset()
    except (ImportError, AttributeError) as exc:
        raise RulesError(f"the game plug-in {key!r}: its ruleset {found.ruleset!r} does not load: "
                         f"{type(exc).__name__}: {' '.join(str(exc).split())}") from exc
    if not isinstance(ruleset, Ruleset):
        raise RulesError(f"the game plug-in {key!r}: {found.ruleset!r} gives a {type(ruleset).__name__}, "
                         "not a rulesets.base.Ruleset")
    if ruleset.name != key:
        raise RulesError(f"the game plug-in {key!r} gives the ruleset {ruleset.name!r}: the entry point's "
                         "name and the ruleset's must be the same")
    return ruleset


def available() -> list[Ruleset]:
    """Every ruleset, in the registry's order."""
    return [get(n) for n in names()]
