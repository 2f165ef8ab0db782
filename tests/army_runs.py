"""Shared by the army search's game tests: a search run twice (1 and 2 threads) and the armies it shows."""

from __future__ import annotations

from reports import army as armies


def searched_twice(ruleset, rulings, entries, *, seed: int, search_limit: int
                   ) -> tuple[armies.ArmyResult, armies.ArmyResult]:
    """The search of ``entries`` at 256 trials an engagement, with 1 and with 2 threads."""
    return tuple(armies.choose(ruleset, rulings, list(entries), seed=seed, precision=None, trials=256,
                               threads=threads, search_limit=search_limit) for threads in (1, 2))


def assert_same_tables(one: armies.ArmyResult, two: armies.ArmyResult) -> None:
    t1, t2 = armies.tables(one), armies.tables(two)
    for x, y in ((t1.armies, t2.armies), (t1.lists, t2.lists), (t1.field, t2.field)):
        assert x.equals(y)


def shown_forces(result: armies.ArmyResult) -> list:
    """(army, its (entry, units) pairs) of the best army, the runners-up and the counters."""
    shown = (result.best.army, *(c.army for c in result.runners_up), *(a for a, _ in result.counters))
    return [(army, [(result.entries[i], n) for i, n in army.counts]) for army in shown]
