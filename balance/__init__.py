"""balance: exact and Monte Carlo balance analysis for five tabletop games (and any game a plug-in adds).

The public face of :mod:`reports.api` (and :func:`reports.site.report`, the site): one function per verb
of the `balance` command, with the command's options as keyword arguments named the same, each returning
pandas DataFrames whose ``.attrs`` state where the numbers come from::

    import balance

    rank = balance.efficiency("drakerys", trials=2000, seed=1).ranking     # value, fair cost, verdict
    diff = balance.whatif("drakerys", sets=["crows.combat=4"], units=["crows", "warriors"])
    curve = balance.sweep("drakerys", cost_range="crows=120..200/20", units=["crows", "warriors"])
    table = balance.points("dragonbond", iterations=2)                      # the balanced points table
    odds = balance.roll("drakerys", "spell", level=3, distance=25)          # any kind `balance roll` has
    balance.report(output="site", games=["uberdrakes"], trials=2000)        # the static site, as files
    balance.games()                                                         # ('drakerys', ..., plug-ins)

Importing ``balance`` imports nothing heavy: each name loads :mod:`reports.api` (pandas, the kernels) the
first time it is used. ``help(balance.roll)`` lists every kind of roll of every game and its options.
Errors are :class:`RulesError` (what the rules or the data cannot accept) and :class:`OptionError` (a bad
option, e.g. an unknown keyword, named with the accepted ones), each one line.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for readers and type checkers (not imported at run time)
    from reports.api import (  # noqa: F401
        EfficiencyTables,
        army,
        duel,
        efficiency,
        export_tables,
        points,
        points_rulings,
        roll,
        roll_kinds,
        sweep,
        table,
        units,
        whatif,
    )
    from reports.site import report  # noqa: F401
    from rulesets import available, get, names  # noqa: F401
    from rulesets.base import OptionError, RulesError  # noqa: F401
    from rulesets.games import Game  # noqa: F401

#: Each public name and the module it comes from (imported on first use).
_SOURCES: dict[str, tuple[str, str]] = {
    **{name: ("reports.api", name) for name in (
        "efficiency", "whatif", "sweep", "points", "points_rulings", "army", "table", "export_tables", "roll",
        "roll_kinds", "duel", "units", "EfficiencyTables")},
    "report": ("reports.site", "report"),
    "games": ("rulesets", "names"),
    "ruleset": ("rulesets", "get"),
    "Game": ("rulesets.games", "Game"),
    "RulesError": ("rulesets.base", "RulesError"),
    "OptionError": ("rulesets.base", "OptionError"),
}

__all__ = sorted(_SOURCES)


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module the first time it is asked for."""
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module 'balance' has no attribute {name!r}; it has: {', '.join(__all__)}")
    module, attribute = source
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # asked once: the next lookup finds it directly
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
