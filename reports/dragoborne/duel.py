"""`balance duel dragoborne DECK_A DECK_B`: whole games between two decks by Monte Carlo, with intervals.

The game is rulesets/dragoborne/game.py's (stated policies, rulings switchable); rulesets.dragoborne.simulate
runs it. Every estimate carries its standard error and 95% interval, and the trial count is stated.
"""

from __future__ import annotations

import math

import numpy as np

from reports.formats import Report, Section, Table
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne.rules import DragoborneRulings
from simcore.stats import Z95

RULESET = "dragoborne (seed 001)"
DEFAULT_DUEL_TRIALS = 200_000


def _prop(k: int, n: int) -> tuple[float, float, float, float]:
    """A proportion with its standard error and Wilson 95% interval."""
    from simcore.stats import wilson_interval

    if n == 0:
        return (math.nan,) * 4
    p = k / n
    low, high = wilson_interval(k, n)
    return p, math.sqrt(p * (1 - p) / n), float(low), float(high)


def _mean(x: np.ndarray) -> tuple[float, float, float, float]:
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan
    return m, se, m - Z95 * se, m + Z95 * se


def _diff(p1, n1, p2, n2) -> tuple[float, float, float, float]:
    d = p1 - p2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) if n1 and n2 else math.nan
    return d, se, d - Z95 * se, d + Z95 * se


def duel_report(records: np.ndarray, names: tuple[str, str], rulings: DragoborneRulings, *, seed: int,
                precision: float | None, stopped: bool, catalog, warnings=()) -> Report:
    """P(win) per deck, the effect of going first, the game's length and how games end."""
    from rulesets.dragoborne.simulate import NOT_MODELLED, POLICY

    n = len(records)
    w, first = records[:, K.R_WINNER], records[:, K.R_FIRST]
    a, b = names
    rows = [(f"P({a} wins)", *_prop(int((w == 0).sum()), n)),
            (f"P({b} wins)", *_prop(int((w == 1).sum()), n)),
            ("P(draw: 200 game turns)", *_prop(int((w == K.DRAW).sum()), n)),
            ("P(the first player wins)", *_prop(int((w == first).sum()), n))]
    a_first = first == 0
    n1, n2 = int(a_first.sum()), int((~a_first).sum())
    k1, k2 = int((w[a_first] == 0).sum()), int((w[~a_first] == 0).sum())
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    rows += [(f"P({a} wins | {a} goes first)", *_prop(k1, n1)),
             (f"P({a} wins | {b} goes first)", *_prop(k2, n2)),
             (f"going first adds to {a}'s P(win)", *_diff(p1, n1, p2, n2)),
             ("game turns played (both players')", *_mean(records[:, K.R_TURNS].astype(float))),
             ("P(ended by barriers)", *_prop(int((records[:, K.R_END] == K.END_BARRIERS).sum()), n)),
             ("P(ended by a deck-out)", *_prop(int((records[:, K.R_END] == K.END_DECK_OUT).sum()), n))]
    for s, name in enumerate(names):
        rows += [(f"{name}: barriers left", *_mean(records[:, K.R_BARRIERS_0 + s].astype(float))),
                 (f"{name}: creatures summoned", *_mean(records[:, K.R_SUMMONED_0 + s].astype(float))),
                 (f"{name}: dice lost", *_mean(records[:, K.R_DICE_LOST_0 + s].astype(float)))]
    outcome = Table.from_rows(rows, ["measure", "value", "stderr", "ci_low", "ci_high"])
    turns = records[:, K.R_TURNS]
    values, counts = np.unique(turns, return_counts=True)
    length = Table.from_rows([(int(t), int(c), c / n, float((turns <= t).sum() / n))
                              for t, c in zip(values, counts, strict=True)],
                             ["game_turns", "games", "share", "cumulative"])
    how = "reached" if stopped else "not reached within the trial cap"
    meta = [("ruleset", RULESET), ("A", a), ("B", b),
            ("method", f"Monte Carlo, {n:,} games, seed {seed}; every card shuffled and every die rolled; "
                       f"95% interval: Wilson for probabilities, value ± {Z95:.2f} stderr otherwise"),
            ("first player", "chosen at random, 1/2 each (line 170)"),
            ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}"),
            ("rulings", rulings.describe())]
    if precision is not None:
        meta.append(("precision", f"target half-width {precision:g} of P({a} wins): {how}"))
    notes = [f"policies (a reading of ours, the same for both decks): {POLICY}",
             f"not modelled: {'; '.join(NOT_MODELLED)}", *warnings]
    if catalog.illustrative_note:
        notes.append(catalog.illustrative_note)
    return Report(f"Dragoborne: {a} against {b}", meta,
                  [Section("duel", "Outcome of the games", outcome),
                   Section("length", "Game length (game turns, both players' turns counted)", length)],
                  notes=notes)


def duel(deck_a: str, deck_b: str, rulings: DragoborneRulings, *, catalogs=(), trials: int | None = None,
         seed: int = 0, precision: float | None = None, threads: int | None = None, lenient: bool = False,
         progress=None) -> Report:
    """Load, check both decks, play the games, report."""
    from rulesets.dragoborne import catalog as catalog_io
    from rulesets.dragoborne import simulate

    cat = catalog_io.load(user_paths=tuple(catalogs))
    decks = [cat.deck(d) for d in (deck_a, deck_b)]
    warnings = [w for d in decks for w in catalog_io.validate_deck(d, cat, lenient)]
    if trials is None:
        trials = 10**6 if precision is not None else DEFAULT_DUEL_TRIALS
    m = simulate.matchup(cat, decks[0], decks[1], rulings=rulings)
    result = simulate.run(m, trials, seed, threads=threads, precision=precision, progress=progress)
    names = (decks[0].name, decks[1].name)
    if names[0] == names[1]:
        names = (f"{names[0]} (A)", f"{names[1]} (B)")
    return duel_report(result.records, names, rulings, seed=seed, precision=precision,
                       stopped=result.stopped_by_precision, catalog=cat, warnings=warnings)
