"""`balance efficiency drakerys`: is each unit worth its Army Points?

For every unit with a profile, at every recruitment size, against every other profiled unit (at the size
printed on its sheet): a Charge and an Attack action (one Fight each) and an engagement fought to the end.
Every figure is a Monte Carlo estimate with its standard error; each matchup has its own stream, keyed on
the seed and the two units, so adding a unit to the catalog does not change the other figures.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rulesets.base import RulesError
from rulesets.drakerys import combat
from rulesets.drakerys.fight import Combatant, is_jammed, modelling_notes
from rulesets.drakerys.rules import DrakerysRulings
from rulesets.drakerys.units import Catalog, Unit
from simcore.stats import Z95, Estimate

#: Trials per chunk in efficiency runs, and chunks per batch (one per thread): a duel run stopped by
#: --precision checks its interval every 2048 duels, so it stops close to the trials it needs.
CHUNK_TRIALS = 1024
BATCH_CHUNKS = 2
#: Fights per matchup and kind of action (means of injuries and AP carry their standard errors).
FIGHT_TRIALS = 8 * CHUNK_TRIALS
DEFAULT_PRECISION = 0.01
#: Duel trials when no precision is asked for.
DUEL_TRIAL_CAP = 10**6


def matchup_seed(seed: int, *parts) -> int:
    """A 64-bit seed for one matchup, from the run's seed and the matchup's identity."""
    text = "|".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


@dataclass(frozen=True)
class Entry:
    """A unit at one recruitment size."""

    unit: Unit
    size: int
    ap: int

    @property
    def label(self) -> str:
        return f"{self.unit.name} ({self.size})"


def entries(catalog: Catalog, only: tuple[str, ...] = ()) -> tuple[list[Entry], list[Entry]]:
    """(rows: every profiled unit at every size, opponents: every profiled unit at its sheet size).

    Objects (the prisoner cage) and units with no recruitment option are left out; ``only`` (unit names
    or keys) keeps just those units, which need a profile.
    """
    wanted = None
    if only:
        chosen = [catalog.unit(name) for name in only]
        for u in chosen:
            if u.profile is None or "Object" in u.types:
                raise RulesError(f"{u.name} has no fighting profile in the rulebook, so it has no efficiency")
        wanted = {u.key for u in chosen}
        if len(wanted) < 2:
            raise RulesError("an efficiency report needs at least two different units")
    rows, opponents = [], []
    for u in sorted(catalog.with_profiles(), key=lambda u: (u.faction, u.name)):
        if "Object" in u.types or (wanted is not None and u.key not in wanted):
            continue
        for option in u.all_sizes():
            rows.append(Entry(u, option.size, option.ap))
        reference = u.sheet or (u.all_sizes()[-1] if u.all_sizes() else None)
        if reference is not None:
            opponents.append(Entry(u, reference.size, reference.ap))
    return rows, opponents


def _per_ap(e: Estimate, ap: int) -> Estimate:
    scale = 100.0 / ap if ap else float("nan")
    return Estimate(e.value * scale, e.stderr * scale, e.trials)


def _per(e: Estimate, by: float) -> Estimate:
    return Estimate(e.value / by, e.stderr / by, e.trials)


def efficiency(catalog: Catalog, rulings: DrakerysRulings | None = None, *, seed: int = 0,
               precision: float | None = DEFAULT_PRECISION, threads: int | None = None,
               duel_trials: int | None = None, only: tuple[str, ...] = (),
               progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """The tidy matchup table: unit, size, ap, opponent, opponent_size, opponent_ap, metric, value, stderr,
    trials.

    Duels run until the 95% half-width of P(win) is below ``precision`` (at most ``duel_trials``, default
    DUEL_TRIAL_CAP), or exactly ``duel_trials`` when ``precision`` is None.
    """
    rulings = rulings or DrakerysRulings()
    rows, opponents = entries(catalog, only)
    pairs = [(r, o) for r in rows for o in opponents if o.unit.key != r.unit.key]
    out = []
    for k, (r, o) in enumerate(pairs):
        a, b = Combatant(r.unit, r.size), Combatant(o.unit, o.size)
        key = (r.unit.key, r.size, o.unit.key, o.size)
        metrics: list[tuple[str, Estimate]] = []
        for kind, charge in (("charge", True), ("attack", False)):
            fight = combat.simulate_fight(a, b, charge=charge, rulings=rulings, weapons=catalog.weapons,
                                          trials=FIGHT_TRIALS, seed=matchup_seed(seed, kind, *key),
                                          threads=threads, chunk_trials=CHUNK_TRIALS,
                                          batch_chunks=BATCH_CHUNKS)
            ts = 1 if not charge else 3 + 2 * int(is_jammed(r.unit, rulings))
            injuries = fight.mean(3)
            destroyed = fight.ap_destroyed(1, o.ap)
            metrics += [
                (f"{kind}_injuries", injuries),
                (f"{kind}_ap_destroyed", destroyed),
                (f"{kind}_injuries_per_ts", _per(injuries, ts)),
                (f"{kind}_ap_destroyed_per_ts", _per(destroyed, ts)),
                (f"{kind}_ap_destroyed_per_100ap", _per_ap(destroyed, r.ap)),
                (f"{kind}_ap_destroyed_per_ts_per_100ap", _per_ap(_per(destroyed, ts), r.ap)),
            ]
        duel = combat.simulate_engagement(a, b, rulings=rulings, weapons=catalog.weapons,
                                          trials=duel_trials or (DUEL_TRIAL_CAP if precision
                                                                 else FIGHT_TRIALS),
                                          seed=matchup_seed(seed, "duel", *key), threads=threads,
                                          precision=precision, chunk_trials=CHUNK_TRIALS,
                                          batch_chunks=BATCH_CHUNKS)
        destroyed, lost = duel.ap_destroyed(1, o.ap), duel.ap_destroyed(0, r.ap)
        net = Estimate(destroyed.value - lost.value, (destroyed.stderr**2 + lost.stderr**2) ** 0.5,
                       destroyed.trials)
        metrics += [
            ("duel_win", duel.outcome(0)),
            ("duel_loss", duel.outcome(1)),
            ("duel_neither", duel.outcome(2)),
            ("duel_ap_destroyed", destroyed),
            ("duel_ap_lost", lost),
            ("duel_ts", duel.mean(5)),
            ("duel_ap_destroyed_per_100ap", _per_ap(destroyed, r.ap)),
            ("duel_net_ap_per_100ap", _per_ap(net, r.ap)),
        ]
        for metric, e in metrics:
            out.append((r.unit.name, r.size, r.ap, o.unit.name, o.size, o.ap, metric, e.value, e.stderr,
                        e.trials))
        if progress is not None:
            progress(k + 1, len(pairs))
    return pd.DataFrame(out, columns=["unit", "size", "ap", "opponent", "opponent_size", "opponent_ap",
                                      "metric", "value", "stderr", "trials"])


def ranking(table: pd.DataFrame) -> pd.DataFrame:
    """Each unit and size, averaged over its opponents (standard errors combined as independent):
    duel win probability, net AP traded per 100 AP in duels, AP destroyed per 100 AP per TS charging."""
    def summary(metric: str) -> pd.DataFrame:
        sub = table[table.metric == metric]
        g = sub.groupby(["unit", "size", "ap"], sort=False)
        combined = g["stderr"].apply(lambda s: float(np.sqrt((s**2).sum())) / len(s))
        return pd.DataFrame({metric: g["value"].mean(), f"{metric}_stderr": combined})

    metrics = ("duel_win", "duel_net_ap_per_100ap", "charge_ap_destroyed_per_ts_per_100ap")
    parts = [summary(m) for m in metrics]
    out = pd.concat(parts, axis=1).reset_index()
    out = out.sort_values("duel_net_ap_per_100ap", ascending=False, kind="stable").reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, len(out) + 1))
    return out


def ranking_view(rank: pd.DataFrame) -> pd.DataFrame:
    """The ranking for reading: estimates with their 95% half-widths."""
    def pm(metric: str, digits: int) -> list[str]:
        pairs = zip(rank[metric], rank[f"{metric}_stderr"], strict=True)
        return [f"{v:.{digits}f} ± {Z95 * s:.{digits}f}" for v, s in pairs]

    return pd.DataFrame({
        "rank": rank["rank"], "unit": rank["unit"], "size": rank["size"], "AP": rank["ap"],
        "duel win": pm("duel_win", 3),
        "net AP / 100 AP (duel)": pm("duel_net_ap_per_100ap", 1),
        "AP destroyed / TS / 100 AP (charge)": pm("charge_ap_destroyed_per_ts_per_100ap", 2),
    })


def matrix(table: pd.DataFrame, metric: str = "duel_win") -> pd.DataFrame:
    """Unit-and-size rows by opponent columns of one metric."""
    sub = table[table.metric == metric].copy()
    sub["row"] = sub["unit"] + " (" + sub["size"].astype(str) + ")"
    sub["col"] = sub["opponent"] + " (" + sub["opponent_size"].astype(str) + ")"
    rows = list(dict.fromkeys(sub["row"]))
    cols = list(dict.fromkeys(sub["col"]))
    return sub.pivot(index="row", columns="col", values="value").reindex(index=rows, columns=cols)


def notes(catalog: Catalog, only: tuple[str, ...] = ()) -> list[str]:
    rows, _ = entries(catalog, only)
    return modelling_notes(*dict.fromkeys(r.unit for r in rows))
