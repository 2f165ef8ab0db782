"""A toy game that fulfils the ruleset contract, for testing the generic balance layer without numba.

Each contestant has a strength s and a cost. In an engagement side 0 wins a trial when u < p with
p = s0 / (s0 + s1) + EDGE (the opener's edge), u uniform from the engagement's stream (one draw per trial,
so trial t meets the same u whatever the stats: common random numbers). The loser loses everything
(fraction 1) and the winner nothing. So its exact means are known: P(win as side 0) = p.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from rulesets.base import (
    Contestant,
    Engagement,
    FairCostRule,
    Metric,
    OptionError,
    RulesError,
    Ruleset,
    Rulings,
    parse_bool,
    ruling,
)

EDGE = 0.05


@dataclass(frozen=True)
class ToyRulings(Rulings):
    edge: bool = ruling("TOY-edge", True, accepted="true|false", meaning="the opener has an edge of 0.05",
                        source="tests", parse=parse_bool)


@dataclass(frozen=True)
class Piece:
    key: str
    strength: float
    cost: float


def p_win(a: Piece, b: Piece, rulings: ToyRulings) -> float:
    return min(1.0, a.strength / (a.strength + b.strength) + (EDGE if rulings.edge else 0.0))


def _score(raw, a: Contestant, b: Contestant) -> dict[str, np.ndarray]:
    win0 = raw.astype(np.float64)
    win = np.vstack([win0, 1 - win0])
    lost = win[::-1]
    cost = np.array([a.cost, b.cost])[:, None]
    destroyed = lost[::-1] * cost[::-1]
    net = destroyed - lost * cost
    return {"win": win, "fraction_lost": lost, "ap_destroyed": destroyed, "net_ap": net,
            "net_ap_per_100ap": net * 100 / cost}


class ToyRuleset(Ruleset):
    cost_unit = "gold"
    engagement = "one toss: side 0 wins when u < s0 / (s0 + s1) + 0.05"
    roles = ("opens", "answers")
    metrics = (Metric("win", "P(win)"), Metric("fraction_lost", "fraction lost"),
               Metric("ap_destroyed", "cost destroyed"), Metric("net_ap", "net cost"),
               Metric("net_ap_per_100ap", "net cost per 100 of own cost"))
    primary_metric = "net_ap_per_100ap"
    win_metric = "win"
    payoff_metric = "net_ap"
    payoff_description = "net cost per 100 of the pair's mean cost"
    fair_cost_rule = FairCostRule("even-trade", "even trade", gain="ap_destroyed", loss="fraction_lost")

    def __init__(self, pieces: list[Piece]) -> None:
        super().__init__("toy", "Toy", "none", ToyRulings, "a test game", implemented=True)
        self.pieces = pieces
        self.engaged = 0

    def load_catalog(self, paths=()):
        return {p.key: p for p in self.pieces}

    def catalog_files(self, catalog):
        return [("toy.toml", "0" * 64)]

    def contestants(self, catalog, only=()):
        for name in only:
            if name not in catalog:
                raise RulesError(f"unknown piece {name!r}")
        return [Contestant(p.key, p.key.title(), p.cost, "gold", p.key, (p.key, p.strength),
                           labels=(("unit", p.key),), subject=p)
                for p in catalog.values() if not only or p.key in only]

    def engage(self, a, b, rulings, *, seed, trials=None, precision=None, threads=None):
        self.engaged += 1
        rng = np.random.Generator(np.random.SFC64(seed))
        n = trials or 20_000
        u = rng.random(n)
        return Engagement(a, b, seed=seed, raw=u < p_win(a.subject, b.subject, rulings), score=_score)

    def stats(self):
        return ("strength",)

    def variant(self, catalog, sets, costs):
        out = dict(catalog)
        for change in sets:
            if change.target not in out:
                raise RulesError(f"unknown piece {change.target!r}")
            if change.stat != "strength":
                raise RulesError(f"unknown stat {change.stat!r}")
            try:
                value = float(change.value)
            except ValueError:
                raise OptionError(f"{change.value!r} is not a number") from None
            out[change.target] = dataclasses.replace(out[change.target], strength=value)
        for change in costs:
            if change.target not in out:
                raise RulesError(f"unknown piece {change.target!r}")
            out[change.target] = dataclasses.replace(out[change.target], cost=change.cost)
        return out

    def value_per_cost(self, value, cost):
        return value / 100.0

    def payoff_scale(self, a, b):
        return 100.0 / ((a.cost + b.cost) / 2)


def toy(*pieces: tuple[str, float, float]) -> ToyRuleset:
    return ToyRuleset([Piece(k, s, c) for k, s, c in pieces])


FIELD = (("ant", 1.0, 50.0), ("bee", 2.0, 100.0), ("cat", 4.0, 100.0), ("dog", 3.0, 300.0))
