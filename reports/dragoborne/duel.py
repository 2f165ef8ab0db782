"""`balance duel dragoborne DECK_A DECK_B`: whole games between two decks by Monte Carlo, with intervals.

The game is rulesets/dragoborne/game.py's (stated policies, rulings switchable); rulesets.dragoborne.simulate
runs it. Every estimate carries its standard error and 95% interval, and the trial count is stated.
"""

from __future__ import annotations

import math

import numpy as np

from reports.formats import Report, Section, Table
from reports.tables import decimals_for, estimates_view, share_text
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne.rules import DragoborneRulings
from rulesets.dragoborne.simulate import GameRecords
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


def early_rows(records: np.ndarray, names: tuple[str, str]) -> list[tuple]:
    """For each deck and own turn 1..K.CURVE_TURNS: P(it summoned a creature), P(it spent every resource)."""
    games = GameRecords(records)
    n = len(games)
    rows = []
    for s, name in enumerate(names):
        for t in range(1, K.CURVE_TURNS + 1):
            rows.append((name, t, "summoned a creature", *_prop(int(games.summoned_on(s, t).sum()), n)))
            rows.append((name, t, "spent every resource", *_prop(int(games.spent_all_on(s, t).sum()), n)))
    return rows


def duel_report(records: np.ndarray, names: tuple[str, str], rulings: DragoborneRulings, *, seed: int,
                precision: float | None, stopped: bool, catalog, warnings=(), decks=()) -> Report:
    """P(win) per deck, the effect of going first, the game's length and how games end; ``decks``: the two
    Deck entries, whose spells the notes name as dead cards."""
    from rulesets.dragoborne.simulate import NOT_MODELLED, POLICY, dead_cards

    games = GameRecords(records)
    n = len(games)
    w, first = games.winner(), games.first()
    a, b = names
    rows = [(f"P({a} wins)", *_prop(int((w == 0).sum()), n)),
            (f"P({b} wins)", *_prop(int((w == 1).sum()), n)),
            (f"P(draw: {K.MAX_TURNS} game turns)", *_prop(int((w == K.DRAW).sum()), n)),
            ("P(the first player wins)", *_prop(int((w == first).sum()), n))]
    a_first = first == 0
    n1, n2 = int(a_first.sum()), int((~a_first).sum())
    k1, k2 = int((w[a_first] == 0).sum()), int((w[~a_first] == 0).sum())
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    rows += [(f"P({a} wins | {a} goes first)", *_prop(k1, n1)),
             (f"P({a} wins | {b} goes first)", *_prop(k2, n2)),
             (f"going first adds to {a}'s P(win)", *_diff(p1, n1, p2, n2)),
             ("game turns played (both players')", *_mean(games.turns().astype(float))),
             ("P(ended by barriers)", *_prop(int((games.end() == K.End.BARRIERS).sum()), n)),
             ("P(ended by a deck-out)", *_prop(int((games.end() == K.End.DECK_OUT).sum()), n))]
    for s, name in enumerate(names):
        rows += [(f"{name}: barriers left", *_mean(games.barriers_left(s).astype(float))),
                 (f"{name}: creatures summoned", *_mean(games.summoned(s).astype(float))),
                 (f"{name}: dice lost", *_mean(games.dice_lost(s).astype(float)))]
    outcome = Table.from_rows(rows, ["measure", "value", "stderr", "ci_low", "ci_high"])
    early = Table.from_rows(early_rows(records, names), ["deck", "own_turn", "measure", "value", "stderr",
                                                         "ci_low", "ci_high"])
    turns = games.turns()
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
    dead = dead_cards(catalog, decks, rulings)
    if dead:
        notes.insert(2, dead)
    if catalog.illustrative_note:
        notes.append(catalog.illustrative_note)
    titles = {"duel": "Outcome of the games",
              "length": "Game length (game turns, both players' turns counted)",
              "early": "Early play: each deck's own turns 1-4 (a player on turn t may have lost before; P "
                       "over all games)"}
    views = _views(outcome, length, early, n, titles)
    headline = [f"{a} wins {share_text(*rows[0][1:3])}, {b} {share_text(*rows[1][1:3])} (95% intervals, "
                f"{n:,} games)"]
    return Report(f"Dragoborne: {a} against {b}", meta,
                  [Section(name, titles[name], table)
                   for name, table in (("duel", outcome), ("length", length), ("early", early))],
                  views, notes=notes, headline=headline)


def _views(outcome: Table, length: Table, early: Table, n: int, titles: dict[str, str]) -> list[Section]:
    """The duel's tables for reading: estimates and intervals rounded to what the intervals support,
    shares and early play as percentages to the decimals the widest 95% interval among them supports."""
    d = decimals_for(Z95 * math.sqrt(0.25 / n) * 100) if n else 0

    def percent(p: float) -> str:
        return "" if p != p else f"{100 * p:.{d}f}"

    shares = Table({"game turns": length["game_turns"], "games": length["games"],
                    "share (%)": [percent(p) for p in length["share"]],
                    "this many or fewer (%)": [percent(p) for p in length["cumulative"]]})
    rows: dict[tuple[str, str], dict[int, str]] = {}
    for deck, turn, measure, value in zip(early["deck"], early["own_turn"], early["measure"], early["value"],
                                          strict=True):
        rows.setdefault((deck, measure), {})[int(turn)] = percent(value)
    turns = sorted({int(t) for t in early["own_turn"]})
    grid = Table({"deck": [k[0] for k in rows], "P(…) on its own turn, %": [k[1] for k in rows],
                  **{f"turn {t}": [cells.get(t, "") for cells in rows.values()] for t in turns}})
    return [Section("duel", titles["duel"] + " (rounded to what each 95% interval supports)",
                    estimates_view(outcome["measure"], outcome["value"], outcome["ci_low"],
                                   outcome["ci_high"])),
            Section("length", titles["length"], shares),
            Section("early", titles["early"], grid, keys=2)]


def duel(deck_a: str, deck_b: str, rulings: DragoborneRulings, *, catalogs=(), trials: int | None = None,
         seed: int = 0, precision: float | None = None, threads: int | None = None, lenient: bool = False,
         mulligan: str = "policy", compare_mulligans: bool = False, progress=None) -> Report:
    """Load, check both decks, play the games, report; ``compare_mulligans``: every mulligan strategy in
    turn (both decks playing it), on the same seed."""
    from rulesets.dragoborne import catalog as catalog_io
    from rulesets.dragoborne import simulate

    cat = catalog_io.load(user_paths=tuple(catalogs))
    decks = [cat.deck(d) for d in (deck_a, deck_b)]
    warnings = [w for d in decks for w in catalog_io.validate_deck(d, cat, lenient)]
    if trials is None:
        trials = 10**6 if precision is not None else DEFAULT_DUEL_TRIALS
    names = (decks[0].name, decks[1].name)
    if names[0] == names[1]:
        names = (f"{names[0]} (A)", f"{names[1]} (B)")
    if compare_mulligans:
        runs = {}
        for name in simulate.MULLIGANS:
            m = simulate.matchup(cat, decks[0], decks[1], rulings=rulings, mulligan=name)
            runs[name] = simulate.run(m, trials, seed, threads=threads).records
        return mulligan_report(runs, names, rulings, seed=seed, catalog=cat, warnings=warnings,
                               decks=decks)
    m = simulate.matchup(cat, decks[0], decks[1], rulings=rulings, mulligan=mulligan)
    result = simulate.run(m, trials, seed, threads=threads, precision=precision, progress=progress)
    report = duel_report(result.records, names, rulings, seed=seed, precision=precision,
                         stopped=result.stopped_by_precision, catalog=cat, warnings=warnings, decks=decks)
    report.meta.insert(3, ("mulligan", MULLIGAN_TEXT[mulligan]))
    return report


MULLIGAN_TEXT = {
    "policy": "policy: spells, '-' cards and creatures costing 4 or more go back (game.py)",
    "none": "none: the hand is kept",
    **{f"back{k}+": f"back{k}+: every card costing {k} or more (and '-') goes back" for k in range(2, 6)},
    "all": "all: the whole hand goes back",
}


def mulligan_report(runs: dict, names: tuple[str, str], rulings: DragoborneRulings, *, seed: int, catalog,
                    warnings=(), decks=()) -> Report:
    """Every mulligan strategy (both decks playing it): P(A wins) and each deck's early play, with
    intervals, from the same seed (common random numbers: the same shuffles and dice until the hands
    differ)."""
    rows, early = [], []
    n = 0
    for name, records in runs.items():
        n = len(records)
        w = GameRecords(records).winner()
        rows.append((name, MULLIGAN_TEXT[name], *_prop(int((w == 0).sum()), n)))
        for deck, t, what, *est in early_rows(records, names):
            early.append((name, deck, t, what, *est))
    wins = Table.from_rows(rows, ["mulligan", "strategy", f"p_{names[0]}_wins".replace(" ", "_").lower(),
                                  "stderr", "ci_low", "ci_high"])
    play = Table.from_rows(early, ["mulligan", "deck", "own_turn", "measure", "value", "stderr", "ci_low",
                                   "ci_high"])
    meta = [("ruleset", RULESET), ("A", names[0]), ("B", names[1]),
            ("method", f"Monte Carlo, {n:,} games per strategy, seed {seed} for each (common random "
                       "numbers); 95% Wilson intervals"),
            ("catalog", f"{catalog.source}, sha256 {catalog.sha256[:16]}"), ("rulings", rulings.describe())]
    from rulesets.dragoborne.simulate import NOT_MODELLED, dead_cards

    notes = ["both decks play the strategy of the row; `balance table dragoborne mulligan` gives the exact "
             "hand-only comparison (the hand is the only randomness there)",
             f"not modelled: {'; '.join(NOT_MODELLED)}", *warnings]
    dead = dead_cards(catalog, decks, rulings)
    if dead:
        notes.insert(2, dead)
    if catalog.illustrative_note:
        notes.append(catalog.illustrative_note)
    return Report(f"Dragoborne: mulligan strategies, {names[0]} against {names[1]}", meta,
                  [Section("wins", "P(A wins) by mulligan strategy", wins),
                   Section("early", "Early play by strategy: own turns 1-4", play)], notes=notes)
