"""Efficiency, fair cost and the meta-game over any ruleset's contestants.

Every contestant meets every other in both roles (side 0 and side 1 of ``Ruleset.engage``). Each
engagement is reduced at once to the mean of every metric for each side and the covariance of those means
(from the trials; zero when exact), so a field of a thousand engagements holds a few kilobytes each.

- **Value**: the ruleset's primary metric averaged over the contestant's engagements (both roles), its
  standard error combining theirs as independent runs (each engagement has its own streams).
- **Fair cost**: the ruleset's rule. ``even-trade``: sum(gain) / sum(loss) over its engagements, with
  Fieller's 95% interval for a ratio of two correlated estimates (Fieller 1954), unbounded when the loss
  cannot be told from 0. ``median``: value / (field median of value per cost), its interval from a
  parametric bootstrap over every contestant's value (seeded, so reproducible).
- **Verdict** (practical, with a tolerance): ``fair`` when the fair cost lies within the band of today's
  cost (``--tolerance``: 10% of the cost by default, never less than the game's step of cost; for the
  ``zero`` rule the value within that many points of par); ``over-costed`` / ``under-costed`` only when the
  whole 95% interval lies outside the band; ``undecided`` when the estimate is outside but the interval
  reaches into the band (more trials decide); ``not measured`` when the contest leaves out a rule of the
  entry that can change its value (Ruleset.coverage), whatever the numbers say.
- **Off by**: fair cost / cost - 1, with the interval of the fair cost divided by the cost.
- **Meta-game**: the antisymmetric payoff matrix M[i, j] = (i's payoff against j as side 0 + i's payoff
  against j as side 1) / 2 x ``payoff_scale``, solved by reports.metagame (maximum-entropy Nash
  equilibrium and Nash averaging).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports import metagame
from rulesets.base import (
    Contestant,
    Coverage,
    Engagement,
    LinearScore,
    OptionError,
    RulesError,
    Ruleset,
    Rulings,
)
from simcore.parallel import check_threads, map_ordered
from simcore.stats import Z95

Progress = Callable[[int, int], None]
#: Default target: the 95% half-width of each engagement's win probability.
DEFAULT_PRECISION = 0.01
#: Parametric bootstrap replicates for the median fair-cost rule.
BOOTSTRAP = 2000


def engagement_seed(seed: int, a: Contestant, b: Contestant) -> int:
    """The 64-bit seed of the engagement of ``a`` (side 0) against ``b``: from the run's seed and the two
    keys only, never their stats, so a variant meets the same dice."""
    text = "|".join(("engage", str(seed), a.key, b.key)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


@dataclass(frozen=True)
class SideSummary:
    """One side of one engagement: the mean of every metric and the covariance of those means."""

    mean: np.ndarray
    cov: np.ndarray
    trials: int


def summarize(engagement: Engagement, side: int, names: Sequence[str]) -> SideSummary:
    """Means (in ``names`` order) of side ``side`` and the covariance matrix of the mean estimates."""
    return summarize_sides(engagement, names)[side]


def summarize_sides(engagement: Engagement, names: Sequence[str]) -> tuple[SideSummary, SideSummary]:
    """:func:`summarize` of side 0 and side 1 from one pass over the samples (one centred product for the
    covariances of both sides)."""
    linear = engagement.linear_score()
    if linear is not None:
        from simcore.moments import record_sums

        return _weighed_sides(record_sums(linear.records, linear.columns, linear.equals), linear, names)
    samples = engagement.samples()
    x = np.concatenate([samples[n] for n in names])  # rows: metric 0 side 0, metric 0 side 1, metric 1 ...
    k = len(names)
    if engagement.exact:
        mean = x @ engagement.weights
        return tuple(SideSummary(mean[side::2], np.zeros((k, k)), 0) for side in (0, 1))
    n = x.shape[1]
    mean = x.mean(axis=1)
    if n > 1:
        centred = x - mean[:, None]
        cov = (centred @ centred.T) / ((n - 1) * n)
    else:
        cov = np.zeros((2 * k, 2 * k))
    return tuple(SideSummary(mean[side::2], cov[side::2, side::2], n) for side in (0, 1))


def _weighed_sides(sums: tuple[np.ndarray, np.ndarray, int], linear: LinearScore,
                   names: Sequence[str]) -> tuple[SideSummary, SideSummary]:
    """Both sides' summaries from the feature sums of an engagement's trials, weighed by ``linear``."""
    from simcore.moments import weighed_moments

    rows = linear.rows(names, 0) + linear.rows(names, 1)
    mean, cov, n = weighed_moments(*sums, linear.weights[rows], linear.offsets[rows])
    k = len(names)
    return tuple(SideSummary(mean[side * k:(side + 1) * k], cov[side * k:(side + 1) * k,
                                                                side * k:(side + 1) * k], n)
                 for side in (0, 1))


@dataclass(frozen=True)
class Played:
    """An engagement as a field keeps it for reuse (:func:`play_field`): both sides' summaries at the costs
    it was played at, and, when its game can weigh it anew (:meth:`Engagement.weigher`), its trials'
    feature sums, which give its summaries at other costs of the same play exactly."""

    costs: tuple[float, float]
    sides: tuple[SideSummary, SideSummary]
    sums: tuple[np.ndarray, np.ndarray, int] | None = None
    weigher: Callable[[Contestant, Contestant], LinearScore] | None = None

    def usable(self, a: Contestant, b: Contestant) -> bool:
        return (a.cost, b.cost) == self.costs or self.weigher is not None

    def at(self, a: Contestant, b: Contestant, names: Sequence[str]) -> tuple[SideSummary, SideSummary]:
        """The summaries for ``a`` against ``b`` (same keys and play, these costs)."""
        if (a.cost, b.cost) == self.costs:
            return self.sides
        if self.weigher is None or self.sums is None:  # pragma: no cover - usable() is checked first
            raise ValueError("this engagement cannot be scored at other costs")
        return _weighed_sides(self.sums, self.weigher(a, b), names)


def _played(engagement: Engagement, names: Sequence[str]) -> Played:
    """What a field keeps of an engagement it played (see :class:`Played`)."""
    weigher = engagement.weigher()
    linear = engagement.linear_score()
    if weigher is None or linear is None:
        return Played((engagement.a.cost, engagement.b.cost), summarize_sides(engagement, names))
    from simcore.moments import record_sums

    sums = record_sums(linear.records, linear.columns, linear.equals)
    return Played((engagement.a.cost, engagement.b.cost), _weighed_sides(sums, linear, names), sums, weigher)


@dataclass
class Field:
    """Every engagement of a set of contestants, reduced to side summaries.

    ``pairs[i, j]`` holds (side 0, side 1) of the engagement of contestant i (side 0) against j.
    """

    ruleset: Ruleset
    rulings: Rulings
    contestants: list[Contestant]
    seed: int
    precision: float | None
    trials: int | None
    pairs: dict[tuple[int, int], tuple[SideSummary, SideSummary]]
    #: ``--tolerance`` in percent (None: the ruleset's default_tolerance).
    tolerance: float | None = None

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.ruleset.metrics]

    def index(self, metric: str) -> int:
        return self.names.index(metric)

    def sides(self, i: int) -> list[tuple[int, int, SideSummary]]:
        """(opponent, role, summary) of every engagement contestant i took part in."""
        out = []
        for (p, q), (s0, s1) in self.pairs.items():
            if p == i:
                out.append((q, 0, s0))
            elif q == i:
                out.append((p, 1, s1))
        return out

    def trial_range(self) -> tuple[int, int]:
        counts = [s0.trials for s0, _ in self.pairs.values()]
        return (min(counts), max(counts)) if counts else (0, 0)

    @property
    def exact(self) -> bool:
        """Every engagement is exact (no trials): no Monte Carlo error anywhere."""
        return bool(self.pairs) and self.trial_range() == (0, 0)

    def method(self, monte_carlo: str) -> str:
        """The report's method line: ``monte_carlo`` (how the trials were run), or that all is exact."""
        if self.exact:
            return ("exact: every engagement computed exactly (no trials, no Monte Carlo error; --trials, "
                    "--precision and --seed change nothing)")
        return monte_carlo


def pairings(n: int) -> list[tuple[int, int]]:
    """Every ordered pair of distinct contestants: both roles of every matchup."""
    return [(i, j) for i in range(n) for j in range(n) if i != j]


def played_as(ruleset: Ruleset, rulings: Rulings, a: Contestant, b: Contestant) -> tuple:
    """What identifies an engagement of one field among fields that differ only in costs: both keys, plays
    and what each cost changes beyond its play (:meth:`Ruleset.cost_play`: e.g. the units a budget buys)."""
    return (a.key, a.play, ruleset.cost_play(a, rulings), b.key, b.play, ruleset.cost_play(b, rulings))


def play_field(ruleset: Ruleset, contestants: list[Contestant], rulings: Rulings, *, seed: int,
               precision: float | None = DEFAULT_PRECISION, trials: int | None = None,
               threads: int | None = None, progress: Progress | None = None,
               keep: Callable[[int, int], bool] | None = None, kept: dict | None = None,
               meanwhile: Callable[[], object] | None = None, tolerance: float | None = None,
               reuse: dict | None = None) -> Field:
    """Engage every contestant with every other, in both roles.

    The engagements are spread whole over ``threads`` threads (each on its own seeded streams, so the field
    is the same for any thread count). ``keep(i, j)`` true: the whole engagement of i against j is stored
    in ``kept[i, j]`` (for re-scoring). ``tolerance``: the verdicts' band in percent (None: the
    ruleset's). ``meanwhile()`` runs in this thread while the engagements run on
    others (see :func:`simcore.parallel.map_ordered`). ``reuse``: engagements already played
    (:class:`Played`), by :func:`played_as`; an engagement found there is not played again but scored at
    this field's costs (an engagement's seed depends on the keys alone, so a replay would give the same
    trials), and every one played is added.
    """
    if len(contestants) < 2:
        raise RulesError("a field needs at least two contestants")
    if tolerance is not None:
        tolerance = check_tolerance(tolerance)
    names = [m.name for m in ruleset.metrics]
    known = {} if reuse is None else reuse

    def found(i: int, j: int) -> Played | None:
        a, b = contestants[i], contestants[j]
        kept_ = known.get(played_as(ruleset, rulings, a, b))
        return kept_ if kept_ is not None and kept_.usable(a, b) else None

    todo = [(i, j) for i, j in pairings(len(contestants)) if found(i, j) is None]

    def play(pair: tuple[int, int]) -> tuple[Played, Engagement | None]:
        i, j = pair
        a, b = contestants[i], contestants[j]
        eng = ruleset.engage(a, b, rulings, seed=engagement_seed(seed, a, b), trials=trials,
                             precision=precision, threads=1)
        stored = eng if keep is not None and kept is not None and keep(i, j) else None
        return _played(eng, names), stored

    try:
        threads = check_threads(threads)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    played = map_ordered(play, todo, threads,
                         None if progress is None else lambda k: progress(k, len(todo)), meanwhile)
    for (i, j), (summary, stored) in zip(todo, played, strict=True):
        known[played_as(ruleset, rulings, contestants[i], contestants[j])] = summary
        if stored is not None and kept is not None:
            kept[i, j] = stored
    pairs = {(i, j): found(i, j).at(contestants[i], contestants[j], names)
             for i, j in pairings(len(contestants))}
    return Field(ruleset, rulings, contestants, seed, precision, trials, pairs, tolerance)


@dataclass(frozen=True)
class Averaged:
    """A metric averaged over a contestant's engagements: value and standard error."""

    value: float
    stderr: float


def averaged(field: Field, i: int, metric: str) -> Averaged:
    m = field.index(metric)
    sides = field.sides(i)
    values = np.array([s.mean[m] for _, _, s in sides])
    variances = np.array([s.cov[m, m] for _, _, s in sides])
    return Averaged(float(values.mean()), float(np.sqrt(variances.sum()) / len(sides)))


def fieller(num: float, den: float, v_num: float, v_den: float, cov: float,
            z: float = Z95) -> tuple[float, float]:
    """Fieller's interval for num / den from correlated normal estimates (variances and covariance given).

    Bounded only when the denominator is significantly non-zero (den^2 > z^2 v_den); otherwise the interval
    is the part of the line it cannot exclude: (low, inf), (-inf, high) or (-inf, inf).
    """
    a = den * den - z * z * v_den
    b = num * den - z * z * cov
    c = num * num - z * z * v_num
    disc = b * b - a * c
    if a > 0:
        # num / den itself always lies in the set, so disc >= 0 here: a negative one is rounding (exact
        # estimates, zero variances), which must not read as "every ratio is plausible"
        disc = max(disc, 0.0)
        root = np.sqrt(disc)
        return (b - root) / a, (b + root) / a
    if disc < 0:  # a <= 0: every ratio is plausible
        return -np.inf, np.inf
    if a == 0:  # the condition is linear in r: -2 b r + c <= 0
        if b != 0:
            edge = c / (2 * b)
            return (edge, np.inf) if b > 0 else (-np.inf, edge)
        # a denominator exactly 0 with no error (nothing ever lost): the ratio itself, unbounded
        return (np.inf, np.inf) if num > 0 else (-np.inf, np.inf)
    root = np.sqrt(disc)
    r1, r2 = (b - root) / a, (b + root) / a
    # a < 0: the set is outside the roots; report the side of it that holds the estimate's sign
    low, high = min(r1, r2), max(r1, r2)
    return (high, np.inf) if num >= 0 else (-np.inf, low)


@dataclass(frozen=True)
class FairCost:
    value: float
    low: float
    high: float


#: Every verdict, in the order reports count them.
VERDICTS = ("under-costed", "fair", "over-costed", "undecided", "not measured")


def check_tolerance(tolerance: float) -> float:
    """``--tolerance`` in percent: a finite number >= 0; OptionError otherwise."""
    if not (isinstance(tolerance, int | float) and np.isfinite(tolerance) and tolerance >= 0):
        raise OptionError(f"tolerance {tolerance!r} is not a number of percent >= 0")
    return float(tolerance)


def band(ruleset: Ruleset, cost: float, tolerance: float | None = None) -> float:
    """Half-width of the ``fair`` band around ``cost``, in cost units: ``tolerance`` percent of the cost
    (the ruleset's default when None), never less than the game's step of cost."""
    pct = ruleset.default_tolerance if tolerance is None else tolerance
    return max(pct / 100.0 * cost, ruleset.cost_step)


def verdict(cost: float, fair: FairCost, half_width: float = 0.0) -> str:
    """``fair`` when the fair cost lies within ``half_width`` of ``cost``; over- or under-costed only when
    the whole interval lies outside that band; ``undecided`` otherwise."""
    if abs(fair.value - cost) <= half_width:
        return "fair"
    if fair.high < cost - half_width:
        return "over-costed"
    if fair.low > cost + half_width:
        return "under-costed"
    return "undecided"


def value_verdict(value: float, stderr: float, tolerance: float) -> str:
    """The ``zero`` rule's verdict: ``fair`` when the value lies within ``tolerance`` of par (0), under- or
    over-costed when its whole 95% interval lies above or below that band, ``undecided`` otherwise."""
    if abs(value) <= tolerance:
        return "fair"
    if value - Z95 * stderr > tolerance:
        return "under-costed"
    if value + Z95 * stderr < -tolerance:
        return "over-costed"
    return "undecided"


def fair_costs(field: Field, values: np.ndarray, value_stderrs: np.ndarray,
               only: Sequence[int] | None = None) -> list[FairCost]:
    """Each contestant's fair cost under the ruleset's rule, with its 95% interval (``only``: an even-trade
    price for these contestants alone, the others None)."""
    rule = field.ruleset.fair_cost_rule
    n = len(field.contestants)
    if rule.kind == "even-trade":
        g, loss = field.index(rule.gain), field.index(rule.loss)
        return [None if only is not None and i not in only else
                even_trade([s for _, _, s in field.sides(i)], g, loss) for i in range(n)]
    if rule.kind == "zero":
        out = []
        for c, v, se in zip(field.contestants, values, value_stderrs, strict=True):
            if abs(v) <= Z95 * se or v == 0:
                out.append(FairCost(c.cost, c.cost, c.cost))
            elif v > 0:  # under-costed: the fair cost lies above today's
                out.append(FairCost(np.nan, float(np.nextafter(c.cost, np.inf)), np.inf))
            else:
                out.append(FairCost(np.nan, 0.0, float(np.nextafter(c.cost, -np.inf))))
        return out
    return median_fair_costs(values, value_stderrs, np.array([c.cost for c in field.contestants]), field.seed)


def even_trade(sides: Sequence[SideSummary], gain: int, loss: int) -> FairCost:
    """The even-trade price over a contestant's sides: sum(gain) / sum(loss) with Fieller's 95% interval,
    all cut at 0 below. A gain can be negative (Warbound: what the side destroys less its companions'
    losses): no price is then even, and the fair cost is 0, a price cannot be less."""
    num = sum(s.mean[gain] for s in sides)
    den = sum(s.mean[loss] for s in sides)
    v_num = sum(s.cov[gain, gain] for s in sides)
    v_den = sum(s.cov[loss, loss] for s in sides)
    cov = sum(s.cov[gain, loss] for s in sides)
    value = num / den if den > 0 else np.inf
    low, high = fieller(num, den, v_num, v_den, cov)
    return FairCost(float(max(value, 0.0)), float(max(low, 0.0)), float(max(high, 0.0)))


def median_fair_costs(values: np.ndarray, value_stderrs: np.ndarray, costs: np.ndarray,
                      seed: int) -> list[FairCost]:
    """The median rule: value / (the field's median value per cost), with the 95% interval of a parametric
    bootstrap over every contestant's value (BOOTSTRAP replicates, seeded)."""
    n = len(values)
    median = float(np.median(values / costs))
    rng = np.random.Generator(np.random.SFC64(seed))
    draws = values[None, :] + value_stderrs[None, :] * rng.standard_normal((BOOTSTRAP, n))
    medians = np.median(draws / costs[None, :], axis=1)
    fair_draws = draws / medians[:, None]
    low, high = np.quantile(fair_draws, [0.025, 0.975], axis=0)
    return [FairCost(values[i] / median if median else np.inf, float(low[i]), float(high[i]))
            for i in range(n)]


def _labels(c: Contestant) -> dict:
    return dict(c.labels) if c.labels else {"contestant": c.name}


def judged(field: Field, i: int, fair: FairCost, value: Averaged, coverage: Coverage) -> str:
    """Contestant i's verdict: ``not measured`` when an unplayed rule can change its value, else by the
    ruleset's rule with the field's tolerance (:func:`verdict`, :func:`value_verdict`)."""
    if not coverage.measured:
        return "not measured"
    rs = field.ruleset
    if rs.fair_cost_rule.kind == "zero":
        pct = rs.default_tolerance if field.tolerance is None else field.tolerance
        return value_verdict(value.value, value.stderr, pct / 100.0)
    cost = field.contestants[i].cost
    return verdict(cost, fair, band(rs, cost, field.tolerance))


def off_by(cost: float, fair: FairCost) -> tuple[float, float, float]:
    """fair / cost - 1 and its interval (NaN when the rule estimates no fair cost)."""
    return fair.value / cost - 1.0, fair.low / cost - 1.0, fair.high / cost - 1.0


def ranking(field: Field) -> pd.DataFrame:
    """One row per contestant: value, value per cost, rank, fair cost with its interval, off_by, verdict,
    win, and what its contests leave out (coverage)."""
    rs = field.ruleset
    n = len(field.contestants)
    value = [averaged(field, i, rs.primary_metric) for i in range(n)]
    win = [averaged(field, i, rs.win_metric) for i in range(n)]
    values = np.array([v.value for v in value])
    stderrs = np.array([v.stderr for v in value])
    fair = fair_costs(field, values, stderrs)
    order = np.argsort(-values, kind="stable")
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(1, n + 1)
    rows = []
    for i, c in enumerate(field.contestants):
        coverage = rs.coverage(c, field.rulings)
        # the zero rule estimates no fair cost (only the side of today's cost it lies on): nothing is off by
        zero = rs.fair_cost_rule.kind == "zero"
        off, off_low, off_high = (np.nan,) * 3 if zero else off_by(c.cost, fair[i])
        rows.append({
            **_labels(c), "cost": c.cost, "cost_unit": c.cost_unit, "value": values[i],
            "value_stderr": stderrs[i], "value_per_cost": rs.value_per_cost(values[i], c.cost),
            "rank": int(rank[i]), "fair_cost": fair[i].value, "fair_cost_low": fair[i].low,
            "fair_cost_high": fair[i].high, "off_by": off, "off_by_low": off_low, "off_by_high": off_high,
            "verdict": judged(field, i, fair[i], value[i], coverage), "measured": coverage.measured,
            "not_played": coverage.text(), "win": win[i].value, "win_stderr": win[i].stderr, "key": c.key,
            "name": c.name,
        })
    return pd.DataFrame(rows).sort_values("rank", kind="stable").reset_index(drop=True)


def worst_offenders(rank: pd.DataFrame, count: int = 5) -> pd.DataFrame:
    """The over- and under-costed rows furthest off, worst first: by |off_by|, or by |value| under the
    ``zero`` rule (no fair cost estimated)."""
    wrong = rank[rank["verdict"].isin(("over-costed", "under-costed"))]
    size = wrong["off_by"].abs()
    size = size.where(size.notna(), wrong["value"].abs())
    return wrong.loc[size.sort_values(ascending=False, kind="stable").index].head(count)


def offender_lines(rank: pd.DataFrame, ruleset: Ruleset, count: int = 5) -> list[str]:
    """One line per worst offender: name, verdict and how far off ("Crows (12): under-costed, off by +35%
    [+20%, +52%]"), or the value against par under the ``zero`` rule."""
    out = []
    for _, row in worst_offenders(rank, count).iterrows():
        name = _row_name(row)
        if np.isnan(row["off_by"]):
            how = f"value {row['value']:+.4f} ± {Z95 * row['value_stderr']:.4f} against par 0"
        elif row["off_by_low"] == row["off_by_high"]:  # exact: no interval to show
            how = f"off by {_percent(row['off_by'])}"
        else:
            how = f"off by {_percent(row['off_by'])} [{_percent(row['off_by_low'])}, " \
                  f"{_percent(row['off_by_high'])}]"
        out.append(f"{name}: {row['verdict']}, {how} ({row['cost']:g} {ruleset.cost_unit} today)")
    return out


def _percent(x: float) -> str:
    return "+∞" if np.isposinf(x) else ("-∞" if np.isneginf(x) else f"{100 * x:+.0f}%")


def _row_name(row: pd.Series) -> str:
    """An entry's name from its ranking row ("Crows (12)")."""
    return str(row["name"])


def verdict_counts(rank: pd.DataFrame) -> str:
    """"3 under-costed, 20 fair, 2 over-costed, 1 undecided, 8 not measured" (zero counts left out but
    for the first three)."""
    counts = rank["verdict"].value_counts()
    return counts_text({v: int(counts.get(v, 0)) for v in VERDICTS})


def counts_text(counts: dict[str, int]) -> str:
    """The verdict counts in VERDICTS order; undecided and not measured only when there are some."""
    return ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS if v in VERDICTS[:3] or counts.get(v, 0))


def payoff_matrix(field: Field) -> tuple[np.ndarray, np.ndarray]:
    """M[i, j]: what i gains against j, averaged over both roles, scaled by the ruleset (antisymmetric),
    and the standard error of each entry (the two engagements are independent runs)."""
    rs = field.ruleset
    p = field.index(rs.payoff_metric)
    n = len(field.contestants)
    m = np.zeros((n, n))
    se = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                first, second = field.pairs[i, j][0], field.pairs[j, i][1]
                scale = 0.5 * rs.payoff_scale(field.contestants[i], field.contestants[j])
                m[i, j] = (first.mean[p] + second.mean[p]) * scale
                se[i, j] = np.sqrt(first.cov[p, p] + second.cov[p, p]) * abs(scale)
    return m, se


#: Replicates of the parametric bootstrap that puts intervals on the meta-game's shares and ratings.
META_BOOTSTRAP = 200


def meta_game(field: Field) -> tuple[pd.DataFrame, metagame.MetaGame]:
    """Each contestant's share of the maximum-entropy Nash mix and its Nash-averaged rating, with 95%
    intervals from a parametric bootstrap: the payoff matrix redrawn META_BOOTSTRAP times from its
    estimates and standard errors (antisymmetry kept), the game solved again each time (seeded)."""
    m, se = payoff_matrix(field)
    keys = [c.key for c in field.contestants]
    game = metagame.solve(m, keys)
    rng = np.random.Generator(np.random.SFC64(field.seed))
    upper = np.triu(np.ones_like(m, dtype=bool), 1)
    shares, ratings = [], []
    # the replicates' equilibria sit on a few supports: each one found is tried (a proof, not a guess:
    # metagame.solve) before the two LPs a new one costs, the most often found first
    masks = {game.support.tobytes(): game.support}
    found = Counter(masks.keys())
    for _ in range(META_BOOTSTRAP if se.any() else 0):
        noise = np.where(upper, rng.standard_normal(m.shape) * se, 0.0)
        redrawn = metagame.solve(m + noise - noise.T, keys,
                                 support_hint=[masks[key] for key, _ in found.most_common()])
        masks.setdefault(redrawn.support.tobytes(), redrawn.support)
        found[redrawn.support.tobytes()] += 1
        shares.append(redrawn.shares)
        ratings.append(redrawn.nash_ratings)
    if shares:
        share_low, share_high = np.quantile(np.array(shares), [0.025, 0.975], axis=0)
        rating_low, rating_high = np.quantile(np.array(ratings), [0.025, 0.975], axis=0)
    else:  # exact payoffs: no Monte Carlo error to carry
        share_low = share_high = game.shares
        rating_low = rating_high = game.nash_ratings
    rows = [{**_labels(c), "cost": c.cost, "share": float(game.shares[i]),
             "nash_rating": float(game.nash_ratings[i]), "share_low": float(share_low[i]),
             "share_high": float(share_high[i]), "nash_rating_low": float(rating_low[i]),
             "nash_rating_high": float(rating_high[i]), "key": c.key}
            for i, c in enumerate(field.contestants)]
    table = pd.DataFrame(rows).sort_values(["share", "nash_rating"], ascending=False, kind="stable")
    return table.reset_index(drop=True), game


def win_matrix(field: Field, keys: Sequence[str] | None = None) -> pd.DataFrame:
    """P(row contestant wins), averaged over both roles; rows and columns named, both in the order of
    ``keys`` (contestant keys, e.g. the ranking's; default the field's order), so that the empty
    self-matchups form the diagonal."""
    w = field.index(field.ruleset.win_metric)
    where = {c.key: i for i, c in enumerate(field.contestants)}
    order = [where[k] for k in keys] if keys is not None else list(range(len(field.contestants)))
    names = [field.contestants[i].name for i in order]
    n = len(order)
    grid = np.full((n, n), np.nan)
    for r, i in enumerate(order):
        for c, j in enumerate(order):
            if i != j:
                grid[r, c] = 0.5 * (field.pairs[i, j][0].mean[w] + field.pairs[j, i][1].mean[w])
    return pd.DataFrame(grid, index=pd.Index(names, name="contestant"), columns=names)


def matchups(field: Field) -> pd.DataFrame:
    """Tidy: contestant, opponent, role, metric, value, stderr, trials (every engagement, both sides)."""
    roles = field.ruleset.roles
    names = field.names
    heads, means, stderrs, trials = [], [], [], []
    for (i, j), summaries in field.pairs.items():
        for side, s in enumerate(summaries):
            me, other = (i, j) if side == 0 else (j, i)
            head = {**_labels(field.contestants[me]), "cost": field.contestants[me].cost}
            head.update({f"opponent_{k}" if k not in ("unit", "contestant") else "opponent": v
                         for k, v in _labels(field.contestants[other]).items()})
            head["opponent_cost"] = field.contestants[other].cost
            head["role"] = roles[side]
            heads.append(head)
            means.append(s.mean[:len(names)])
            stderrs.append(np.sqrt(np.diagonal(s.cov)[:len(names)]))
            trials.append(s.trials)
    keys = list(heads[0]) if heads else []
    if any(list(h) != keys for h in heads):  # entries labelled differently: pandas aligns the keys
        return pd.DataFrame([{**h, "metric": name, "value": mean[m], "stderr": float(se[m]), "trials": n}
                             for h, mean, se, n in zip(heads, means, stderrs, trials, strict=True)
                             for m, name in enumerate(names)])
    # a column at a time: the same frame as one dict per row (the values' types alike); Drakerys' 27,000
    # rows in 69-85 ms against 80-139 ms
    each = len(names)
    columns = {k: [h[k] for h in heads for _ in range(each)] for k in keys}
    columns["metric"] = names * len(heads)
    columns["value"] = [float(v) for mean in means for v in mean]
    columns["stderr"] = [float(v) for se in stderrs for v in se]
    columns["trials"] = [n for n in trials for _ in range(each)]
    return pd.DataFrame(columns)


# --- the report ----------------------------------------------------------------------------------------


def plus_minus(value: float, stderr: float, digits: int, exact: bool = False) -> str:
    """``value ± its 95% half-width``; the value alone when it is exact. A value that rounds to zero reads
    0, never -0."""
    text = f"{value:.{digits}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text if exact else f"{text} ± {Z95 * stderr:.{digits}f}"


def decimals(values, half_widths=None) -> int:
    """Decimals for values of this size: 1 for points and tokens in the tens, 3 for fractions; more (up to 5)
    when a 95% half-width would otherwise show as 0 (a win-rate change of a few thousandths)."""
    finite = np.abs(np.asarray(values, dtype=float))
    finite = finite[np.isfinite(finite)]
    digits = 1 if finite.size and finite.max() >= 10 else 3
    if half_widths is not None:
        widths = np.asarray(half_widths, dtype=float)
        widths = widths[np.isfinite(widths) & (widths > 0)]
        while widths.size and digits < 5 and widths.min() < 0.5 * 10.0 ** -digits:
            digits += 1
    return digits


def per_cost_is_value(values, per_cost) -> bool:
    """Whether the value per cost is the value itself, or the value times one constant (a game whose value
    is already per unit of cost or of the budget: Warbound's net tokens' worth per token, Drakerys' net AP
    per 100 AP of the budget): the views then show the value alone."""
    values = np.asarray(values, dtype=float)
    per_cost = np.asarray(per_cost, dtype=float)
    if np.array_equal(values, per_cost, equal_nan=True):
        return True
    shown = np.isfinite(values) & (values != 0)
    if not shown.any() or not np.array_equal(np.isfinite(values), np.isfinite(per_cost)):
        return False
    ratio = per_cost[shown] / values[shown]
    zeros = per_cost[~shown & np.isfinite(values)]
    return bool(np.allclose(ratio, ratio[0], rtol=1e-12, atol=0) and np.all(zeros == 0))


def _cost_text(x: float, digits: int = 0) -> str:
    return "∞" if np.isinf(x) else ("?" if np.isnan(x) else f"{x:.{digits}f}")


def cost_digits(costs) -> int:
    """Decimals a cost is shown with: none for costs in the tens and hundreds (AP, points), two for a few
    tokens, resources or Magic."""
    costs = np.asarray(costs, dtype=float)
    return 0 if costs.size and costs.min() >= 20 else 2


def _fair_text(f: float, lo: float, hi: float, digits: int = 0) -> str:
    """A fair cost with its interval; one not estimated (the ``zero`` rule) as the side of today's cost it
    lies on."""
    if np.isnan(f):
        return f"above {lo:g}" if np.isinf(hi) else f"below {hi:g}"
    if f == lo == hi:  # no error (the ``zero`` rule's par, within the value's interval): no interval shown
        return _cost_text(f, digits)
    return f"{_cost_text(f, digits)} [{_cost_text(lo, digits)}, {_cost_text(hi, digits)}]"


def _bounded(mark: str, text: str) -> str:
    """A fair cost's text marked as a lower bound (``mark`` "≥ ": the entry is not measured); a side of
    today's cost ("above 4") needs no mark when it is above: a bound above today's cost is above it."""
    return text if text.startswith("above") else mark + text


def ranking_view(rank: pd.DataFrame, label_columns: Sequence[str], ruleset: Ruleset,
                 exact: bool = False) -> pd.DataFrame:
    """The ranking for reading: estimates with their 95% half-widths, fair cost with its interval (exact:
    the values alone, the fair cost to two decimals)."""
    out = {"rank": rank["rank"]}
    for col in label_columns:
        out[col] = rank[col]
    out[ruleset.cost_unit] = [f"{c:g}" for c in rank["cost"]]
    digits = decimals(rank["value"], None if exact else Z95 * rank["value_stderr"])
    bound = ["" if m else "≥ " for m in rank["measured"]]  # not measured: what the played rules give
    out["value"] = [b + plus_minus(v, s, digits, exact)
                    for b, v, s in zip(bound, rank["value"], rank["value_stderr"], strict=True)]
    if not per_cost_is_value(rank["value"], rank["value_per_cost"]):
        per_cost = max(digits, 3) + (1 if exact else 0)
        out["value / cost"] = [f"{v:.{per_cost}f}" for v in rank["value_per_cost"]]
    out["win"] = [plus_minus(v, s, 3, exact) for v, s in zip(rank["win"], rank["win_stderr"], strict=True)]
    if exact:
        out["fair cost"] = [b + ("∞" if np.isinf(f) else f"{f:.2f}") for b, f in zip(bound, rank["fair_cost"],
                                                                                    strict=True)]
    else:
        d = cost_digits(rank["cost"])
        out["fair cost [95%]"] = [_bounded(b, _fair_text(f, lo, hi, d)) for b, f, lo, hi in
                                  zip(bound, rank["fair_cost"], rank["fair_cost_low"], rank["fair_cost_high"],
                                      strict=True)]
    if not rank["off_by"].isna().all():  # its interval: the fair cost's over the cost (off_by_low, _high)
        out["off by"] = ["" if np.isnan(o) else _percent(o) for o in rank["off_by"]]
    out["verdict"] = rank["verdict"]
    return pd.DataFrame(out)


def estimate_text(value: float, half_width: float) -> str:
    """An estimate and its 95% half-width in one cell ("0.517 ± 0.012"), both to the decimals the
    half-width supports (:func:`reports.tables.decimals_for`); exact (no half-width): the value alone."""
    from reports.tables import decimals_for, plain_number

    d = decimals_for(half_width)
    if d is None or not np.isfinite(value):
        return plain_number(value, None)
    return f"{value:.{d}f} ± {half_width:.{d}f}"


def narrow_ranking(rank: pd.DataFrame, ruleset: Ruleset, exact: bool = False) -> pd.DataFrame:
    """The ranking for a terminal, each row one line: the entry by its name, today's cost, the value with
    its 95% half-width, the win probability, the fair cost with its interval, how far off and the verdict
    (a value or fair cost not measured marked "≥": what the played rules give)."""
    bound = ["" if m else "≥ " for m in rank["measured"]]
    digits = decimals(rank["value"], None if exact else Z95 * rank["value_stderr"])

    def estimates(values, stderrs, exact_digits: int) -> list[str]:
        if exact:  # no error bar: the digits the ranking's wide view shows
            return [f"{v:.{exact_digits}f}" for v in values]
        return [estimate_text(v, Z95 * s) for v, s in zip(values, stderrs, strict=True)]

    out = {"#": [str(r) for r in rank["rank"]], "entry": rank["name"].astype(str).tolist(),
           ruleset.cost_unit: [f"{c:g}" for c in rank["cost"]],
           "value" if exact else "value ± 95%":
               [b + e for b, e in zip(bound, estimates(rank["value"], rank["value_stderr"], digits),
                                      strict=True)]}
    if not per_cost_is_value(rank["value"], rank["value_per_cost"]):
        out["value / cost"] = [f"{v:.{max(digits, 3)}f}" for v in rank["value_per_cost"]]
    out["win" if exact else "win ± 95%"] = estimates(rank["win"], rank["win_stderr"], 3)
    d = cost_digits(rank["cost"])
    if exact:
        out["fair cost"] = [b + ("∞" if np.isinf(f) else f"{f:.2f}")
                            for b, f in zip(bound, rank["fair_cost"], strict=True)]
    else:
        out["fair cost [95%]"] = [_bounded(b, _fair_text(f, lo, hi, d)) for b, f, lo, hi in
                                  zip(bound, rank["fair_cost"], rank["fair_cost_low"], rank["fair_cost_high"],
                                      strict=True)]
        out["fair cost"] = [_bounded(b, "above" if np.isnan(f) and np.isinf(hi) else "below" if np.isnan(f)
                                     else _cost_text(f, d))
                            for b, f, hi in zip(bound, rank["fair_cost"], rank["fair_cost_high"],
                                                strict=True)]
    if not rank["off_by"].isna().all():
        out["off by"] = ["" if np.isnan(o) else _percent(o) for o in rank["off_by"]]
    out["verdict"] = rank["verdict"].astype(str).tolist()
    return pd.DataFrame(out)


def terminal(rank: pd.DataFrame, ruleset: Ruleset, exact: bool, meta_view: pd.DataFrame,
             matrix_view: pd.DataFrame, offenders: Sequence[str]):
    """The efficiency report as a terminal shows it: the verdicts and the worst offenders first, then the
    ranking one line per entry, the meta-game's mix, and the win matrix when it fits the width (where it is
    when it does not)."""
    from reports.formats import Section, Terminal, fits, narrowed

    lead = [f"verdicts: {verdict_counts(rank)}"]
    if offenders:
        lead += ["worst offenders (over- or under-costed beyond the tolerance, furthest off first):",
                 *(f"  {o}" for o in offenders)]
    else:
        lead.append("worst offenders: none (no entry is over- or under-costed beyond the tolerance)")
    table = narrow_ranking(rank, ruleset, exact)
    # the richest first: every column (the fair cost with its interval); no win or value per cost; the
    # fair cost without its interval
    every = [c for c in table.columns if c != "fair cost" or exact]
    no_win = [c for c in every if c not in ("win", "win ± 95%", "value / cost")]
    choices = [every, no_win, [c if c != "fair cost [95%]" else "fair cost" for c in no_win]]
    ranking_section = narrowed(Section("ranking", "Ranking (value averaged over opponents and roles)", table),
                               choices, [("fair cost [95%]", "fair cost")])
    views = [ranking_section,
             Section("metagame", "Meta-game: the equilibrium mix (entries with a share or one within 95%)",
                     meta_view)]
    matrix = Section("matrix", "Win probability of the row entry, percent, averaged over both roles",
                     matrix_view, ["columns: the opponents by their row numbers (#), the ranking's order"])
    if fits(matrix):
        views.append(matrix)
    else:
        n = len(matrix_view)
        ranking_section.notes = [*ranking_section.notes,
                                 f"the win matrix ({n} x {n}) is wider than the terminal: --wide prints it, "
                                 "--plot draws it, --format json holds it (win_matrix)"]
    return Terminal(lead, views, ("verdicts:", "worst offenders:"))


def verdict_description(ruleset: Ruleset, tolerance: float | None) -> str:
    """The report's line saying how verdicts are given, with the tolerance in force."""
    pct = ruleset.default_tolerance if tolerance is None else tolerance
    if ruleset.fair_cost_rule.kind == "zero":
        band_text = f"the value within {pct:g} points of par (±{pct / 100:g})"
        inside = "its value"
    else:
        band_text = (f"the fair cost within {pct:g}% of today's cost (at least the game's step, "
                     f"{ruleset.cost_step:g} {ruleset.cost_unit})")
        inside = "its fair cost"
    return (f"tolerance --tolerance {pct:g}: fair when {band_text}; over- or under-costed only when the "
            f"whole 95% interval of {inside} lies outside that band; undecided when the estimate is outside "
            "but the interval reaches into the band (more trials decide); not measured when the contest "
            "leaves out a rule of the entry that can change its value (its row says which)")


def label_columns(contestants: Sequence[Contestant]) -> list[str]:
    return [k for k, _ in contestants[0].labels] if contestants[0].labels else ["contestant"]


def report(field: Field, *, provenance: list[tuple[str, str]], notes: Sequence[str] = ()):
    """The efficiency report (ranking with fair costs first, for CSV; meta-game, every engagement, win
    matrix) and the win matrix itself, for a plot."""
    from reports.formats import Report, Section

    rs = field.ruleset
    rank = ranking(field)
    grid = win_matrix(field, list(rank["key"]))  # in the ranking's order
    low, high = field.trial_range()
    how = (f"until the 95% half-width of each engagement's win probability is below {field.precision:g}"
           if field.precision else f"{field.trials:,} trials per engagement")
    method = field.method(f"Monte Carlo, seed {field.seed}: {how} ({low:,} to {high:,} trials); "
                          "± is the 95% interval (1.96 standard errors)")
    meta_table, _ = meta_game(field)
    cols = label_columns(field.contestants)
    meta = [*provenance,
            ("method", method),
            ("contestants", f"{len(field.contestants)}: " + ", ".join(c.name for c in field.contestants)),
            ("engagement", f"{rs.engagement}; every contestant meets every other in both roles "
                           f"({len(field.pairs):,} engagements)"),
            ("value", f"{rs.primary_metric}, averaged over both roles and every opponent"),
            ("value per cost", rs.value_per_cost_description),
            ("fair cost", rs.fair_cost_rule.description),
            ("verdict", verdict_description(rs, field.tolerance)),
            ("meta-game", f"payoff: {rs.payoff_description}; maximum-entropy Nash equilibrium and Nash "
                          f"averaging (Balduzzi et al., 2018); 95% intervals from {META_BOOTSTRAP} payoff "
                          "matrices redrawn from their standard errors")]
    invented = [c.key for c in field.contestants if c.illustrative]
    if invented:
        meta.append(("illustrative data", f"{len(invented)} of {len(field.contestants)} entries have "
                                          f"values the rulebook does not print (costs, stats): "
                                          f"{', '.join(invented)}"))
    shown = meta_table[(meta_table.share > 1e-9) | (meta_table.share_high > 1e-9)]
    meta_view = pd.DataFrame({
        **{c: shown[c] for c in cols}, rs.cost_unit: shown["cost"].map(lambda x: f"{x:g}"),
        "share % [95%]": [f"{100 * v:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]" for v, lo, hi in
                          zip(shown["share"], shown["share_low"], shown["share_high"], strict=True)],
        "Nash rating [95%]": [f"{v:.2f} [{lo:.2f}, {hi:.2f}]" for v, lo, hi in
                              zip(shown["nash_rating"], shown["nash_rating_low"], shown["nash_rating_high"],
                                  strict=True)]})
    # columns by the entries' rank numbers (the rows'): full names as headers made Drakerys' matrix 529
    # characters wide; the data section and matchups.csv keep the names
    cells = grid.map(lambda p: "" if p != p else f"{100 * p:.0f}")
    matrix_view = pd.DataFrame({"#": [str(i + 1) for i in range(len(grid))], "entry": list(grid.index),
                                **{str(i + 1): cells.iloc[:, i].tolist() for i in range(grid.shape[1])}})
    offenders = offender_lines(rank, rs)
    unmeasured = [f"{row['name']}: {row['not_played']}" for _, row in rank.iterrows() if not row["measured"]]
    report_notes = [
        f"verdicts: {verdict_counts(rank)}",
        *(["worst offenders: " + "; ".join(offenders)] if offenders else
          ["worst offenders: none (no entry is over- or under-costed beyond the tolerance)"]),
        *(["not measured (a rule the contest does not play can change its value; value and fair cost are "
           "what the played rules give): " + "; ".join(unmeasured)] if unmeasured else []),
        f"meta-game: {int((meta_table.share > 1e-9).sum())} of {len(meta_table)} entries in the equilibrium "
        "mix; an entry with no share is dominated (its Nash rating, < 0, is what it loses against the mix); "
        "a large share marks a candidate for a cost increase",
        *notes,
    ]
    sections = [Section("ranking", "Ranking with fair costs", rank),
                Section("metagame", "Meta-game", meta_table),
                Section("matchups", "Every engagement (tidy)", matchups(field)),
                Section("win_matrix", "Win probability", grid.reset_index())]
    views = [Section("ranking", "Ranking (value averaged over opponents and roles)",
                     ranking_view(rank, cols, rs, field.exact)),
             Section("metagame", "Meta-game: the equilibrium mix (entries with a share or one within 95%)",
                     meta_view),
             Section("matrix", "Win probability of the row entry, percent, averaged over both roles",
                     matrix_view, ["columns: the opponents by their row numbers (#), the ranking's order"])]
    names = {c.key: c.name for c in field.contestants}
    narrow_mix = pd.DataFrame({"entry": [names[k] for k in shown["key"]],
                               **{c: meta_view[c] for c in meta_view.columns if c not in cols}})
    return Report(f"{rs.title}: efficiency per {rs.cost_unit}, fair costs and the meta-game", meta, sections,
                  views, report_notes,
                  terminal=terminal(rank, rs, field.exact, narrow_mix, matrix_view, offenders)), grid


def by_budget(ruleset: Ruleset, reports: Sequence[tuple[int, object]]):
    """One report of several budgets' efficiency reports (``efficiency --budget A --budget B``): each
    entry's fair cost and verdict at every budget side by side (does the verdict depend on the size of the
    game?), then each budget's ranking; the tidy ranking of all of them (with a ``budget`` column) first."""
    from reports.formats import Report, Section

    ranks = []
    for budget, rep in reports:
        rank = rep.sections[0].data.copy()
        rank.insert(0, "budget", budget)
        ranks.append(rank)
    tidy = pd.concat(ranks, ignore_index=True)
    first = ranks[0]
    d = cost_digits(first["cost"])
    side = {"entry": first["name"].tolist(), ruleset.cost_unit: [f"{c:g}" for c in first["cost"]]}
    for budget, rank in zip((b for b, _ in reports), ranks, strict=True):
        by_key = rank.set_index("key")
        fair = [by_key.loc[k] for k in first["key"]]
        side[f"fair at {budget}"] = [
            _bounded("" if r["measured"] else "≥ ", _fair_text(r["fair_cost"], r["fair_cost_low"],
                                                               r["fair_cost_high"], d))
            for r in fair]
        side[f"verdict at {budget}"] = [r["verdict"] for r in fair]
    changed = [first["name"].iloc[i] for i in range(len(first))
               if len({side[f"verdict at {b}"][i] for b, _ in reports}) > 1]
    budgets = ", ".join(f"{b:g}" for b, _ in reports)
    meta = list(reports[0][1].meta)
    meta.append(("budgets", f"{budgets} {ruleset.cost_unit} ({ruleset.budget_ruling}; the rulings above are "
                            "the first budget's, the others differ in it alone)"))
    views = [Section("by_budget", f"Fair cost and verdict at each budget ({ruleset.cost_unit})",
                     pd.DataFrame(side), keys=1)]
    for (budget, rep) in reports:
        views.append(Section(f"ranking_{budget}", f"Ranking at {budget:g} {ruleset.cost_unit}",
                             rep.views[0].data))
    headline = [f"{best_entries(ruleset, reports, ranks)}; {len(changed)} of {len(first)} entries change "
                f"verdict between budgets {budgets}" + (f": {', '.join(changed)}." if changed else ".")]
    notes = [f"at {b:g}: {rep.notes[0]}" for b, rep in reports]
    return Report(f"{ruleset.title}: efficiency per {ruleset.cost_unit} at budgets {budgets}", meta,
                  [Section("ranking", "Ranking at every budget (tidy)", tidy)], views, notes,
                  {"budgets": [b for b, _ in reports], "verdicts_changed": len(changed)}, headline,
                  budgets_terminal(ruleset, reports, ranks))


def best_entries(ruleset: Ruleset, reports: Sequence[tuple[int, object]],
                 ranks: Sequence[pd.DataFrame]) -> str:
    """Which entry ranks first at each budget, budgets with the same one together: "at 300 AP the best
    entry is Blood Banes (4), at 450 and 600 AP Warriors (6)"."""
    by_best: dict[str, list[str]] = {}
    for (budget, _), rank in zip(reports, ranks, strict=True):
        by_best.setdefault(str(rank.loc[rank["rank"].idxmin(), "name"]), []).append(f"{budget:g}")

    def listed(items: list[str]) -> str:
        return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"

    parts = [f"{listed(b)} {ruleset.cost_unit} {'the best entry is ' if not n else ''}{name}"
             for n, (name, b) in enumerate(by_best.items())]
    return "at " + ", at ".join(parts)


def _fair_cells(fair, low, high) -> list[tuple[str, str]]:
    """(the fair cost, its 95% interval "[lo, hi]") of each entry, one column's worth rounded alike: to the
    decimals its widest interval supports (:func:`reports.tables.decimals_for`), so the column reads
    "298, 105, 56"; exact (no interval anywhere) to two decimals; one not estimated (the ``zero`` rule) as
    the side of today's cost it lies on."""
    from reports.tables import decimals_for, plain_number

    fair, low, high = (np.asarray(x, dtype=float) for x in (fair, low, high))
    halves = (high - low) / 2
    halves = halves[np.isfinite(halves) & (halves > 0)]
    d = decimals_for(float(halves.max())) if halves.size else 2  # no finite interval: as an exact one
    out = []
    for f, lo, hi in zip(fair, low, high, strict=True):
        if np.isnan(f):
            out.append((_fair_text(f, lo, hi), ""))
        elif not hi > lo:
            out.append((_cost_text(f, 2), ""))
        else:
            top = _cost_text(hi) if np.isinf(hi) else plain_number(hi, d)
            middle = _cost_text(f, d) if np.isinf(f) else plain_number(f, d)
            out.append((middle, f"[{plain_number(lo, d)}, {top}]"))
    return out


#: A verdict as the by-budget comparison shows it when it moves with the budget ("under → fair").
_SHORT_VERDICT = {"under-costed": "under", "over-costed": "over"}


def budgets_terminal(ruleset: Ruleset, reports: Sequence[tuple[int, object]], ranks: Sequence[pd.DataFrame]):
    """The several-budget report as a terminal shows it: each entry's fair cost at every budget (rounded to
    the digits its interval supports) and its verdict, one column when it holds at every budget ("under
    → fair" in budget order when it moves), then each budget's ranking as the single-budget report narrows
    it. The headline states the best entry at each budget and how many verdicts move."""
    from reports.formats import Section, Terminal, fits

    first = ranks[0]
    rows = [rank.set_index("key").loc[first["key"]] for rank in ranks]
    table = {"entry": first["name"].astype(str).tolist(),
             ruleset.cost_unit: [f"{c:g}" for c in first["cost"]]}
    budgets = [f"{b:g}" for b, _ in reports]
    for budget, rank in zip(budgets, rows, strict=True):
        bound = ["" if m else "≥ " for m in rank["measured"]]
        cells = _fair_cells(rank["fair_cost"], rank["fair_cost_low"], rank["fair_cost_high"])
        table[f"at {budget} [95%]"] = [_bounded(b, f"{v} {i}" if i else v) for b, (v, i) in
                                       zip(bound, cells, strict=True)]
        table[f"at {budget}"] = [_bounded(b, v) for b, (v, _) in zip(bound, cells, strict=True)]
    verdicts = list(zip(*(rank["verdict"].astype(str).tolist() for rank in rows), strict=True))
    table["verdict"] = [v[0] if len(set(v)) == 1 else " → ".join(_SHORT_VERDICT.get(x, x) for x in v)
                        for v in verdicts]
    frame = pd.DataFrame(table)
    title = f"Fair cost at each budget and verdict ({ruleset.cost_unit})"
    notes = ([f"verdict: at {', '.join(budgets)} in turn where it moves with the budget"]
             if any(len(set(v)) > 1 for v in verdicts) else [])
    comparison = Section("by_budget", title, frame[[c for c in frame.columns if not c.startswith("at ")
                                                    or c.endswith("[95%]")]], notes, keys=2)
    if not fits(comparison):  # the estimates alone; stacked in blocks when even they do not fit
        comparison = Section("by_budget", title, frame[[c for c in frame.columns if not c.endswith("[95%]")]],
                             [*notes, "fair costs without their 95% intervals here: --wide shows them"],
                             keys=2)
    views = [comparison]
    for budget, (_, rep) in zip(budgets, reports, strict=True):
        # the ranking as the single-budget report narrows it (its notes speak of that report's win matrix)
        shown = rep.terminal.views[0] if rep.terminal is not None and rep.terminal.views else rep.views[0]
        views.append(Section(f"ranking_{budget}", f"Ranking at {budget} {ruleset.cost_unit}", shown.data,
                             narrow=shown.narrow, keys=shown.keys, whole=shown.whole))
    return Terminal([], views)
