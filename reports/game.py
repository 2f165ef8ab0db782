"""The reports side of the game contract, typed: what a game's plug-in gives beside its ruleset.

:class:`rulesets.base.Ruleset` is the rules side (catalogs, engagements, rulings, tables' data); a game's
plug-in (:class:`rulesets.games.Game`) may add a reports side in two parts:

* ``api`` (:class:`GameReports`), e.g. ``reports.drakerys.api``: the Reports of its standard tables, every
  kind of roll `balance roll <game>` has, its duel and its catalog listing, for :mod:`reports.api`;
* ``cli`` (:class:`GameCommands`), e.g. ``reports.drakerys.cli``: ``register(verbs)`` attaching the game's
  own subcommands of `roll`, `table`, `duel` and `units` to the verbs.

A module fulfils a Protocol by having the functions named here (``isinstance(module, GameReports)`` checks
the names; tests/test_game_contract.py also checks the parameters).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import click

    from reports.formats import Report
    from reports.tables import Rounding


@runtime_checkable
class GameReports(Protocol):
    """A game's reports for the Python API (``Game.api``)."""

    #: Every kind of roll `balance roll <game>` has, by its name there, the default kind first: each a
    #: function taking the command's options as keyword arguments named the same (the arguments A, B as
    #: ``a``, ``b``; a repeatable option in the plural) and returning a Report.
    ROLLS: Mapping[str, Callable[..., Report]]

    def table_report(self, name: str, data: Any, rounding: Rounding) -> Report:
        """The Report of standard table ``name`` (one of ``Ruleset.tables()``) from its computed ``data``,
        probabilities rounded by ``rounding`` for reading."""
        ...

    def has_plot(self, name: str) -> bool:
        """Whether standard table ``name`` reads better with a plot beside it (``table_plot`` draws it)."""
        ...

    def table_plot(self, name: str, data: Any, path: Path) -> None:
        """Draw standard table ``name`` from its ``data`` into ``path`` (a PNG)."""
        ...

    def roll(self, kind: str = ..., **options: Any) -> Report:
        """The roll ``kind`` of ``ROLLS`` (default: its first) with ``options``."""
        ...

    def duel(self, a: str, b: str, **options: Any) -> Report:
        """``a`` against ``b`` fought to the end (`balance duel <game> A B` and its options)."""
        ...

    def units(self, **options: Any) -> Report:
        """The catalog as a table (`balance units <game>` and its options)."""
        ...


@runtime_checkable
class GameCommands(Protocol):
    """A game's own subcommands for `balance` (``Game.cli``)."""

    def register(self, verbs: dict[str, click.Group]) -> None:
        """Attach the game's subcommands to the verbs (``verbs["roll"]``, ``["table"]``, ``["duel"]``,
        ``["units"]``): each a command or group named as the game."""
        ...


#: The names a GameReports gives, for the contract's checks and messages.
REPORTS_NAMES = ("ROLLS", "table_report", "has_plot", "table_plot", "roll", "duel", "units")
