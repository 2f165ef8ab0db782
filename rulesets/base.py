"""Types shared by every ruleset: errors, rulings, and the contract a game fulfils (ENGINEERING.md §1)."""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Self

from simcore import config

if TYPE_CHECKING:
    import numpy as np


class RulesError(ValueError):
    """Input that the rules cannot accept (a domain error: exit code 1 on the command line)."""


def whole_number(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int if it is a whole number (numpy integers too, never bool) in ``low..high``;
    a RulesError naming ``name``, the value and the accepted range otherwise."""
    import numpy as np  # here, not with the module: the command tree imports this one

    accepted = f"from {low} to {high}" if high is not None else f">= {low}"
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer) \
            or value < low or (high is not None and value > high):
        raise RulesError(f"{name} {value!r} is not a whole number {accepted}")
    return int(value)


def half_width(value: object, probability: bool = True) -> float:
    """``value`` as a 95% half-width to run to: a finite number above 0, at most 0.5 when the target is a
    probability (numbers, or their text as typed); a ValueError saying why otherwise, its message read
    after the value (``f"{value!r} {exc}"``)."""
    text = value if isinstance(value, str) else repr(value)
    try:
        number = math.nan if isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        raise ValueError("is not a number") from None
    if isinstance(value, bool) or not math.isfinite(number):
        raise ValueError("is not a finite number (give a half-width such as 0.01)")
    if number <= 0.0:
        nonzero = any(ch in "123456789" for ch in text.lower().split("e")[0])
        why = "is too small to be told from 0" if number == 0.0 and nonzero else "is not above 0"
        raise ValueError(f"{why} (give a half-width such as 0.01)")
    if probability and number > 0.5:
        raise ValueError("is above 0.5: the target is a probability, whose 95% interval is never that wide, "
                         "so the run would stop at its first batch")
    return number


def plain_name(name: object) -> str:
    """A name or key without case, spaces, hyphens or apostrophes: ``Roh'na`` and ``roh-na`` are ``rohna``."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def lookup(entries: Mapping[str, Any], name: str, what: str) -> Any:
    """The entry of a catalog table (``{key: entry with .name}``) with this key or else this printed name
    (case, spaces, hyphens and apostrophes ignored); a RulesError naming it, with the entries a printed name
    shared by several could mean, or with the closest and the known keys, otherwise."""
    if isinstance(name, str) and name in entries:  # a key as it stands (a deck's list of card keys)
        return entries[name]
    wanted = plain_name(name)
    found = ([k for k in entries if wanted and plain_name(k) == wanted]
             or [k for k, e in entries.items() if wanted and plain_name(e.name) == wanted])
    if len(found) == 1:
        return entries[found[0]]
    if found:  # a printed name several entries share (the Drakerys catalog prints two Bowmen)
        raise RulesError(f"{what} name {name!r} is ambiguous; use {' or '.join(found)}")
    labels = {**{k: k for k in entries}, **{e.name.lower(): k for k, e in entries.items()}}
    close = difflib.get_close_matches(str(name).strip().lower(), list(labels), n=3, cutoff=0.6)
    close = list(dict.fromkeys(labels[c] for c in close))
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    raise RulesError(f"unknown {what} {name!r}{hint}; known: {', '.join(sorted(entries))}")


class EntryTables:
    """A catalog whose tables of entries (attributes ``{key: entry with .name}``) are found by key or printed
    name: ``ENTRY_TABLES`` maps each such table to the word for one of its entries ("card")."""

    ENTRY_TABLES: ClassVar[Mapping[str, str]] = {}

    def entry(self, table: str, name: str) -> Any:
        """The entry of ``table`` with this key or printed name (case, spaces, hyphens and apostrophes
        ignored); a RulesError naming it, with the closest and the known keys, otherwise."""
        if table not in self.ENTRY_TABLES:
            raise RulesError(f"unknown catalog table {table!r}; accepted: {', '.join(self.ENTRY_TABLES)}")
        return lookup(getattr(self, table), name, self.ENTRY_TABLES[table])


class OptionError(RulesError):
    """A value typed by the user that is malformed or not accepted (a usage error: exit code 2)."""


class RulingError(OptionError):
    """An unknown ruling name or a value the ruling does not accept (a usage error: exit code 2)."""


@dataclass(frozen=True)
class RulingSpec:
    """One user-switchable interpretation of ambiguous rulebook text."""

    key: str
    field: str
    default: Any
    accepted: str
    meaning: str
    source: str
    parse: Callable[[str], Any]

    def format(self, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def ruling(key: str, default: Any, *, meaning: str, source: str, choices: Sequence[str] | None = None,
           accepted: str | None = None, parse: Callable[[str], Any] | None = None) -> Any:
    """Declare a ruling as a field of a :class:`Rulings` dataclass.

    ``choices``: the values it accepts, as words (what ``accepted`` shows and ``parse`` takes, made from
    them); a ruling whose default is a bool accepts true or false unless told otherwise; any other gives
    ``accepted`` (the text shown) and ``parse`` (text to value, ValueError when not accepted) itself.
    """
    if choices is not None:
        if accepted is not None or parse is not None:
            raise TypeError(f"ruling {key}: give choices, or accepted and parse, not both")
        accepted, parse = "|".join(choices), parse_choice(*choices)
    elif isinstance(default, bool) and accepted is None and parse is None:
        accepted, parse = "true|false", parse_bool
    if accepted is None or parse is None:
        raise TypeError(f"ruling {key}: give its choices, or both accepted and parse")
    meta = {"key": key, "accepted": accepted, "meaning": meaning, "source": source, "parse": parse}
    return dataclasses.field(default=default, metadata={"ruling": meta})


def parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in {"true", "yes", "on", "1"}:
        return True
    if low in {"false", "no", "off", "0"}:
        return False
    raise ValueError(text)


def parse_choice(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        low = text.strip().lower()
        if low not in choices:
            raise ValueError(text)
        return low

    return parse


def parse_int_range(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text.strip())
        if not low <= value <= high:
            raise ValueError(text)
        return value

    return parse


@dataclass(frozen=True)
class Rulings:
    """Base of every ruleset's rulings: a frozen dataclass whose fields are declared with :func:`ruling`."""

    @classmethod
    def specs(cls) -> tuple[RulingSpec, ...]:
        out = []
        for f in dataclasses.fields(cls):
            m = f.metadata["ruling"]
            out.append(RulingSpec(m["key"], f.name, f.default, m["accepted"], m["meaning"], m["source"],
                                  m["parse"]))
        return tuple(out)

    @classmethod
    def spec(cls, key: str) -> RulingSpec:
        for s in cls.specs():
            if s.key.lower() == key.strip().lower():
                return s
        known = ", ".join(s.key for s in cls.specs())
        raise RulingError(f"unknown ruling {key!r}; this ruleset accepts: {known}")

    def with_overrides(self, assignments: Mapping[str, str]) -> Self:
        """A copy with rulings set from ``{key: text}``; :class:`RulingError` names a bad key or value."""
        changes = {}
        for key, text in assignments.items():
            s = self.spec(key)
            try:
                changes[s.field] = s.parse(text)
            except ValueError:
                message = f"ruling {s.key} does not accept {text!r}; accepted: {s.accepted}"
                raise RulingError(message) from None
        return dataclasses.replace(self, **changes)

    def with_assignments(self, texts: Iterable[str]) -> Self:
        """A copy with rulings set from ``KEY=VALUE`` strings."""
        pairs = {}
        for text in texts:
            key, sep, value = text.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise RulingError(f"ruling {text!r} is not of the form NAME=VALUE")
            pairs[key.strip()] = value.strip()
        return self.with_overrides(pairs)

    def in_force(self) -> list[tuple[str, str]]:
        """(key, value) of every ruling, as a report states them."""
        return [(s.key, s.format(getattr(self, s.field))) for s in self.specs()]

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.in_force())


# --- the contract a game fulfils (ENGINEERING.md §1) ---------------------------------------------------


@dataclass(frozen=True)
class Contestant:
    """Something with a cost that meets others head to head: a unit at one size, a character, a card.

    Attributes:
        key: unique in its field; engagement streams are keyed on it (never on stats), so a variant of the
            same contestant meets the same dice.
        name: for reading, e.g. "Crows (12)".
        cost: what it costs, in ``cost_unit`` (AP, points, Order tokens, Magic, resources).
        group: the catalog entry it comes from, as ``--unit``, ``--set`` and ``--cost`` name it (a unit
            recruited at several sizes gives several contestants of one group).
        play: everything but the cost that decides how it plays (hashable): two contestants with equal
            keys and plays give the same engagements, whatever their costs.
        labels: the columns that name it in tables, e.g. (("unit", "Crows"), ("size", 12)).
        illustrative: its data is illustrative, not from a rulebook.
        subject: the game's own object (unit and size...), for the ruleset only.
    """

    key: str
    name: str
    cost: float
    cost_unit: str
    group: str
    play: Hashable
    labels: tuple[tuple[str, Any], ...] = ()
    illustrative: bool = False
    subject: Any = field(default=None, compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class Metric:
    """A named quantity an engagement measures for each side, per trial (its mean is what reports show)."""

    name: str
    description: str


@dataclass(frozen=True)
class FairCostRule:
    """How a ruleset prices a contestant fairly.

    ``median``: the cost at which its value per cost equals the field's median value per cost (for a
    ruleset whose value per cost is value / cost, the default: the fair cost is value / median).
    ``even-trade``: the cost at which what it takes equals what it gives over its engagements, i.e.
    sum(mean ``gain``) / sum(mean ``loss``), where ``gain`` is cost destroyed (in cost units) and ``loss`` the
    fraction of itself lost per engagement.
    ``zero``: for a value measured against an average entry of the same cost (0 is par at any cost): fair
    when the value's 95% interval contains 0, under-costed when it lies above, over-costed below. No fair-cost
    number is estimated (it would need the value at other costs: a cost sweep finds where it crosses 0).
    """

    kind: str
    description: str
    gain: str | None = None
    loss: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("median", "even-trade", "zero"):
            raise ValueError(f"fair-cost rule {self.kind!r} is not median, even-trade or zero")
        if self.kind == "even-trade" and not (self.gain and self.loss):
            raise ValueError("an even-trade fair cost names its gain and loss metrics")


@dataclass(frozen=True)
class Coverage:
    """Which of a contestant's rules its contests play (ENGINEERING.md §1: honest coverage).

    Attributes:
        played: its rules that the contest plays, in words ("profile", "Swashbuckler", ...).
        unplayed: its rules that the contest does not play.
        decisive: the unplayed rules that can change its value: while any is left, its value is a lower
            bound at best and its verdict is ``not measured``, never over- or under-costed. An unplayed rule
            that is not decisive is one whose worth cannot arise in this contest (a duel has no ally for
            an Authority to steady), stated on the row all the same.
    """

    played: tuple[str, ...] = ()
    unplayed: tuple[str, ...] = ()
    decisive: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        stray = [r for r in self.decisive if r not in self.unplayed]
        if stray:
            raise ValueError(f"decisive rules {stray} are not among the unplayed ones")

    @property
    def measured(self) -> bool:
        """No unplayed rule can change the value: a verdict can be given."""
        return not self.decisive

    def text(self) -> str:
        """One line for a report's row: what is not played, decisive rules first."""
        if not self.unplayed:
            return "every rule played"
        rest = [r for r in self.unplayed if r not in self.decisive]
        parts = []
        if self.decisive:
            parts.append("not played, can change its value: " + ", ".join(self.decisive))
        if rest:
            parts.append("not played, worth nothing in this contest: " + ", ".join(rest))
        return "; ".join(parts)


@dataclass(frozen=True)
class Force:
    """What one side of an equal-points contest fields: ``units`` whole units of its entry, ``unspent`` of
    the budget left over (kept: neither lost nor fighting)."""

    units: int
    unspent: float


def copies(contestant: Contestant, budget: float, most: int, cap: int | None = None,
           budget_ruling: str = "the budget") -> Force:
    """As many whole units of ``contestant`` as ``budget`` buys, at most ``most`` (and ``cap``, a limit of
    the game's recruitment rules, when given).

    Raises:
        RulesError: the budget buys not one unit of the entry.
    """
    units = min(int(budget // contestant.cost), most, *(() if cap is None else (cap,)))
    if units < 1:
        raise RulesError(f"{contestant.name} ({contestant.cost:g} {contestant.cost_unit}) does not fit "
                         f"{budget_ruling}={budget:g}; give a larger --budget")
    return Force(units, budget - units * contestant.cost)


def without_trials(raw: Any) -> Any:
    """A Monte Carlo outcome (a frozen dataclass with per-trial ``records`` and the ``run`` that made them)
    with no trials kept: what :meth:`Engagement.weigher` needs of it is the rest (forces, rulings)."""
    empty = raw.records[:0].copy()
    return dataclasses.replace(raw, records=empty, run=dataclasses.replace(raw.run, records=empty))


def army_key(force: Sequence[tuple[Contestant, int]]) -> str:
    """The key of an army: ``2xcrows@12+1xwarriors@10`` (units and entry keys, in the army's order)."""
    return "+".join(f"{units}x{c.key}" for c, units in force)


def army_contestant(force: Sequence[tuple[Contestant, int]], key: str | None = None,
                    name: str | None = None) -> Contestant:
    """An army ((entry, whole units) pairs) as one side of an engagement: its cost is what its units cost,
    its subject the pairs themselves; ``key`` (default :func:`army_key`) keys its engagements' streams;
    ``name`` (default: its units, ``2 × Crows (12) + 1 × Warriors (10)``) names it."""
    force = tuple((c, int(units)) for c, units in force)
    if not force:
        raise RulesError("an army fields at least one unit")
    name = name or " + ".join(f"{units} × {c.name}" for c, units in force)
    return Contestant(key=key or army_key(force), name=name, cost=sum(c.cost * units for c, units in force),
                      cost_unit=force[0][0].cost_unit, group="army",
                      play=tuple((c.key, c.play, units) for c, units in force), labels=(("army", name),),
                      illustrative=any(c.illustrative for c, _ in force), subject=force)


def army_engagement(sides: tuple[Sequence[tuple[Contestant, int]], Sequence[tuple[Contestant, int]]],
                    raw: Any, seed: int, linear_of: Callable[..., LinearScore],
                    mean_subject: Callable[[Sequence[tuple[Contestant, int]], int], Any]) -> Engagement:
    """The Engagement of two armies whose battle gave ``raw``, scored as a battle of copies of each side's
    mean unit: ``linear_of(records, a, b)`` is the game's linear score of two one-entry forces, here given
    each army's first entry at the army's mean cost a unit with ``mean_subject(army, units)`` as its
    subject (what the score reads of a unit: its models, warriors, ...). The records count what a side
    lost, not whose, so a points metric values each model lost at the army's mean cost per model."""

    def mean_unit(force: Sequence[tuple[Contestant, int]]) -> Contestant:
        units = sum(n for _, n in force)
        spent = sum(n * c.cost for c, n in force)
        return dataclasses.replace(force[0][0], cost=spent / units, subject=mean_subject(force, units))

    means = (mean_unit(sides[0]), mean_unit(sides[1]))

    def linear(records: Any, _a: Contestant, _b: Contestant) -> LinearScore:
        return linear_of(records, *means)

    def fields(records: Any, _a: Contestant, _b: Contestant) -> dict[str, np.ndarray]:
        return linear_of(records, *means).samples()

    return Engagement(army_contestant(sides[0]), army_contestant(sides[1]), seed=seed, raw=raw, score=fields,
                      method="Monte Carlo", linear=linear)


def army_totals(force: Sequence[tuple[Contestant, int]], budget: float, most: int,
                budget_ruling: str = "the budget") -> tuple[int, float]:
    """(units, cost) of an army ((entry, whole units) pairs), checked against what every game's armies
    obey: each entry once with 1 unit or more, at most ``most`` units, a cost within ``budget``.

    Raises:
        RulesError: naming the limit the army breaks.
    """
    if not force:
        raise RulesError("an army fields at least one unit")
    seen: set[str] = set()
    units, spent = 0, 0.0
    for c, n in force:
        if c.key in seen:
            raise RulesError(f"an army lists {c.name} twice; give its units once")
        seen.add(c.key)
        units += whole_number(f"units of {c.name}", n, 1)
        spent += c.cost * n
    if units > most:
        raise RulesError(f"an army of {units} units is more than the {most} a side may field")
    if spent > budget:
        raise RulesError(f"an army of {spent:g} {force[0][0].cost_unit} costs more than "
                         f"{budget_ruling}={budget:g}")
    return units, spent


#: The range ``balance points`` searches: up to this factor times today's cost, and at least this many steps
#: of cost above it (Ruleset.cost_bounds).
COST_RANGE_FACTOR = 4.0
COST_RANGE_STEPS = 4


MEDIAN_FAIR_COST = FairCostRule(
    "median", "the cost at which the contestant's value per cost equals the field's median value per cost")


@dataclass(frozen=True)
class ArmyBudget:
    """What an army may spend (``balance army``): ``amount`` of ``unit``, each unit of an entry taking
    :meth:`Ruleset.army_price` of it; ``text`` states it in a report (the ruling setting it, or the rule)."""

    amount: float
    unit: str
    text: str
    #: the unit's name for one (``unit`` when empty)
    one: str = ""

    def of(self, amount: float) -> str:
        """``amount`` with its unit ("1 card", "3 cards")."""
        return f"{amount:g} {self.one or self.unit if amount == 1 else self.unit}"


@dataclass(frozen=True)
class LinearScore:
    """Metrics linear in integer features of per-trial records (what lets a summary be one compiled pass
    over the records instead of per-metric arrays: :func:`simcore.moments.linear_moments`).

    Feature j of trial t is ``records[t, columns[j]]``, or 1 if it equals ``equals[j]`` and 0 if not (when
    ``equals[j] >= 0``). Row ``2 * m + s`` of ``weights`` and ``offsets`` gives metric ``names[m]`` of side
    s: ``weights[2m+s] @ features + offsets[2m+s]``.
    """

    names: tuple[str, ...]
    records: np.ndarray
    columns: np.ndarray
    equals: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray

    def features(self) -> np.ndarray:
        """float64[n, r]: every feature of every trial."""
        import numpy as np

        values = self.records[:, self.columns]
        return np.where(self.equals >= 0, values == self.equals, values).astype(np.float64)

    def samples(self) -> dict[str, np.ndarray]:
        """``{metric: float64[2, n]}``, as :meth:`Engagement.samples` holds them."""
        values = self.weights @ self.features().T + self.offsets[:, None]
        return {name: values[2 * m:2 * m + 2] for m, name in enumerate(self.names)}

    def rows(self, names: Sequence[str], side: int) -> list[int]:
        """Rows of ``weights`` holding ``names`` (in that order) for ``side``."""
        return [2 * self.names.index(name) + side for name in names]


class Engagement:
    """One head-to-head between contestants ``a`` (side 0) and ``b`` (side 1).

    ``score(raw, a, b)`` turns the game's raw outcome into ``{metric: float64[2, n]}``: row s holds the
    metric for side s in each of n trials (Monte Carlo, ``weights`` None: each trial weighs 1/n) or each of
    n outcomes of an exact distribution (``weights`` their probabilities). Trial t of every engagement of
    the same two keys, seed and trials uses the same random stream, so a baseline and a variant can be
    compared trial by trial (common random numbers).
    """

    def __init__(self, a: Contestant, b: Contestant, *, seed: int, raw: Any,
                 score: Callable[[Any, Contestant, Contestant], Mapping[str, np.ndarray]],
                 weights: np.ndarray | None = None, method: str = "",
                 linear: Callable[[Any, Contestant, Contestant], LinearScore] | None = None,
                 lighten: Callable[[Any], Any] | None = None) -> None:
        self.a, self.b, self.seed, self.raw, self._score = a, b, seed, raw, score
        self.weights, self.method, self._linear, self._lighten = weights, method, linear, lighten
        self._samples: Mapping[str, np.ndarray] | None = None
        self._linear_score: LinearScore | None = None

    def weigher(self) -> Callable[[Contestant, Contestant], LinearScore] | None:
        """The metrics' weights for contestants of other costs whose play is the same
        (:meth:`Ruleset.cost_play`), as a LinearScore without trials; None unless the game gives its
        metrics as linear (``linear``) and says how to drop the trials from its outcome (``lighten``).
        Weighed on this engagement's feature sums, they give its summaries at those costs exactly, without
        playing it again and without keeping its trials."""
        if self._linear is None or self._lighten is None or self.exact:
            return None
        light, linear = self._lighten(self.raw), self._linear
        return lambda a, b: linear(light, a, b)

    def linear_score(self) -> LinearScore | None:
        """The metrics as linear in record features, when the game gives them so (Monte Carlo only; built
        once)."""
        if self._linear is None or self.exact:
            return None
        if self._linear_score is None:
            self._linear_score = self._linear(self.raw, self.a, self.b)
        return self._linear_score

    @property
    def exact(self) -> bool:
        return self.weights is not None

    def samples(self) -> Mapping[str, np.ndarray]:
        """Every metric per trial (or per exact outcome): ``{name: float64[2, n]}``."""
        if self._samples is None:
            self._samples = self._score(self.raw, self.a, self.b)
        return self._samples

    @property
    def trials(self) -> int:
        """Trials simulated (0 for an exact engagement)."""
        if self.exact:
            return 0
        linear = self.linear_score()
        return linear.records.shape[0] if linear is not None else next(iter(self.samples().values())).shape[1]

    def recosted(self, a: Contestant, b: Contestant) -> Engagement:
        """The same play scored for contestants of other costs (same keys and plays)."""
        if (a.key, a.play, b.key, b.play) != (self.a.key, self.a.play, self.b.key, self.b.play):
            raise ValueError("recosting needs the same contestants, differing only in cost")
        return Engagement(a, b, seed=self.seed, raw=self.raw, score=self._score, weights=self.weights,
                          method=self.method, linear=self._linear)


@dataclass(frozen=True)
class StandardTable:
    """A rulebook table a game can print: ``compute(rulings)`` returns its exact data (a game's own type, or
    a :class:`TableData`); the game's reports lay it out."""

    name: str
    title: str
    compute: Callable[[Rulings], Any]


@dataclass(frozen=True)
class TableData:
    """A standard table's exact data, numbers only: the rulings it was computed under, its tidy parts by
    name (each named columns of plain values, one row per index, in the order a report shows them) and the
    other figures its report states (``params``). What is written around the numbers (titles, headings,
    notes) belongs to the reports."""

    rulings: Rulings
    parts: Mapping[str, Mapping[str, Sequence]]
    params: Mapping[str, Any] = field(default_factory=dict)


def row_columns(rows: Iterable[Sequence], names: Sequence[str]) -> dict[str, list]:
    """Rows (sequences in the order of ``names``) as named columns."""
    rows = list(rows)
    return {name: [row[i] for row in rows] for i, name in enumerate(names)}


def record_columns(records: Sequence[Mapping]) -> dict[str, list]:
    """Records (mappings, each with the keys of the first, in its order) as named columns."""
    names = list(records[0]) if records else []
    return {name: [r[name] for r in records] for name in names}


class Ruleset:
    """A game: its rulings, and (once implemented) the contract every generic verb relies on.

    A game subclasses this and overrides the contract's methods; one that only declares its rulings is an
    instance with ``implemented=False``.
    """

    #: What costs are counted in, and how one engagement is described in reports.
    cost_unit: str = "points"
    engagement: str = ""
    #: What side 0 and side 1 of an engagement do (e.g. "charges", "is charged").
    roles: tuple[str, str] = ("side 0", "side 1")
    #: Metrics of an engagement, each per side and per trial.
    metrics: tuple[Metric, ...] = ()
    #: The metric efficiency, fair cost and what-if rank by (more is better), and the win probability.
    primary_metric: str = ""
    win_metric: str = ""
    #: A metric whose value for side 0 is minus its value for side 1 in every trial (the meta-game's
    #: payoff before ``payoff_scale``).
    payoff_metric: str = ""
    payoff_description: str = ""
    fair_cost_rule: FairCostRule = MEDIAN_FAIR_COST
    #: The game's natural step of cost (a fair-cost band is never narrower than this).
    cost_step: float = 1.0
    #: The ruling that holds the budget both sides of an equal-points contest spend (what ``--budget``
    #: sets), or None where entries are not bought from a budget.
    budget_ruling: str | None = None
    #: The default ``--tolerance``, in percent: of today's cost for a priced rule; for the ``zero`` rule,
    #: in points of the value itself (a win-rate difference: 1 point = 0.01).
    default_tolerance: float = 10.0
    value_per_cost_description: str = "primary value divided by cost"
    #: Trials of one engagement when neither trials nor a precision is given, and the most trials of one
    #: stopped by precision when no trials are given (simcore.config; a game that needs others says why).
    default_trials: int = config.ENGAGEMENT_TRIALS
    precision_trial_cap: int = config.ENGAGEMENT_TRIAL_CAP
    #: The arguments of each generic verb's help example (efficiency, whatif, sweep), in this game's names.
    examples: Mapping[str, str] = MappingProxyType({
        "efficiency": "--unit crows --unit warriors --unit soldiers --format markdown",
        "whatif": '--set "crows.combat=4" --cost "crows=150" --unit crows --unit warriors',
        "sweep": '--cost "crows=60..240/20" --plot crows.png'})

    def __init__(self, name: str, title: str, seed: str, rulings: type[Rulings], summary: str,
                 implemented: bool = False) -> None:
        self.name, self.title, self.seed, self.rulings = name, title, seed, rulings
        self.summary, self.implemented = summary, implemented

    def _missing(self) -> RulesError:
        return RulesError(f"{self.name}: the balance layer is not implemented for this ruleset yet")

    def load_catalog(self, paths: Sequence[Any] = ()) -> Any:
        """The packaged catalog with the user's files (in the packaged schema) applied over it."""
        raise self._missing()

    def catalog_for(self, catalog: Any, rulings: Rulings) -> Any:
        """The catalog as ``rulings`` read it (a ruling may say how printed data is read; the printed data
        itself is never changed). By default the catalog as loaded."""
        return catalog

    def catalog_files(self, catalog: Any) -> list[tuple[str, str]]:
        """(file, sha256 of its content) of every file the catalog was read from, for provenance."""
        raise self._missing()

    def contestants(self, catalog: Any, only: Sequence[str] = ()) -> list[Contestant]:
        """Everything in the catalog that has a cost and can meet another; ``only`` names groups or keys."""
        raise self._missing()

    def cost_play(self, contestant: Contestant, rulings: Rulings) -> Hashable:
        """What a contestant's cost changes in how its engagements are played, beyond its ``play``: by
        default nothing (a game whose contests depend on a cost puts the cost in ``play``). A game whose
        contests depend on a cost only through what a budget buys leaves the cost out of ``play`` and
        returns that here (whole units): an engagement whose two sides buy the same at other costs is then
        weighed anew at those costs (its engagements give ``lighten``), not played again."""
        return None

    def plays_alike(self, x: Contestant, y: Contestant, rulings: Rulings) -> bool:
        """Whether two versions of one contestant play every engagement alike (the same ``play`` and the same
        :meth:`cost_play`), so that one's engagements, scored at the other's cost, are the other's."""
        return x.play == y.play and self.cost_play(x, rulings) == self.cost_play(y, rulings)

    def engagement_trials(self, trials: int | None, precision: float | None) -> int:
        """The trials an engagement runs: ``trials`` when given, else :attr:`precision_trial_cap` for a run
        stopped by ``precision``, else :attr:`default_trials`."""
        if trials is not None:
            return trials
        return self.precision_trial_cap if precision is not None else self.default_trials

    def engage(self, a: Contestant, b: Contestant, rulings: Rulings, *, seed: int, trials: int | None = None,
               precision: float | None = None, threads: int | None = None) -> Engagement:
        """One head-to-head; ``precision`` stops once the 95% half-width of ``win_metric`` for side 0 is
        below it (``trials`` then caps the run)."""
        raise self._missing()

    #: What ``--set`` and ``--cost`` change (:meth:`variant`): the catalog's table of entries (an attribute
    #: ``{key: entry with .name}``) and the word for one of its entries in messages ("unit").
    variant_table: str = ""
    variant_word: str = "entry"
    #: Stats that take ``+=`` and ``-=`` besides ``=`` (a list, such as a unit's skills).
    list_stats: tuple[str, ...] = ()

    def variant(self, catalog: Any, sets: Sequence[StatChange], costs: Sequence[CostChange]) -> Any:
        """A catalog with ``GROUP.STAT=VALUE`` and ``GROUP=COST`` changes applied and validated, one after
        the other, the stat changes first: each finds its entry in the catalog as changed so far
        (:meth:`variant_entry`); a stat change is checked against :meth:`stats` and its operator, then
        :meth:`changed_stat` applies it; :meth:`recosted` applies a cost change."""
        for change in sets:
            entry = self.variant_entry(catalog, change)
            accepted = self.stats()
            if change.stat not in accepted:
                close = difflib.get_close_matches(change.stat, accepted, n=2)
                hint = f" (did you mean {' or '.join(close)}?)" if close else ""
                raise RulesError(f"change {change.text!r}: unknown stat {change.stat!r}{hint}; "
                                 f"accepted: {', '.join(accepted)}")
            if change.op != "=" and change.stat not in self.list_stats:
                raise OptionError(f"change {change.text!r}: {change.stat} takes =, not {change.op}")
            catalog = self.changed_stat(catalog, entry, change)
        for change in costs:
            catalog = self.recosted(catalog, self.variant_entry(catalog, change), change)
        return catalog

    def variant_name(self, target: str) -> str:
        """The entry's name in a change's target (a game whose targets say more, such as a size after
        ``@``, strips it)."""
        return target.strip()

    def variant_entry(self, catalog: Any, change: StatChange | CostChange) -> Any:
        """The entry ``change`` names: :func:`lookup` in the catalog's ``variant_table``."""
        if not self.variant_table:
            raise self._missing()
        name = self.variant_name(change.target)
        if not name:
            raise OptionError(f"{change.text!r} names no {self.variant_word}")
        return lookup(getattr(catalog, self.variant_table), name, self.variant_word)

    def with_entry(self, catalog: Any, entry: Any) -> Any:
        """The catalog (a dataclass) with ``entry`` in place of the entry of its key in ``variant_table``."""
        table = getattr(catalog, self.variant_table)
        return dataclasses.replace(catalog, **{self.variant_table: {**table, entry.key: entry}})

    def changed_stat(self, catalog: Any, entry: Any, change: StatChange) -> Any:
        """The catalog with ``change`` (a stat :meth:`stats` accepts, with an operator it takes) made to
        ``entry``; a RulesError or OptionError naming the change when the value does not fit."""
        raise self._missing()

    def recosted(self, catalog: Any, entry: Any, change: CostChange) -> Any:
        """The catalog with ``entry`` at the cost ``change`` gives (a positive number); an error naming the
        change when the game does not take that cost."""
        raise self._missing()

    def representative(self, catalog: Any, target: str) -> str:
        """The key of the contestant that ``target`` (a key or a group) stands for in a sweep: the key
        itself, or the only contestant of the group; a game with several per group overrides this."""
        found = [c for c in self.contestants(catalog) if target in (c.key, c.group)]
        if len(found) == 1:
            return found[0].key
        if not found:
            raise RulesError(f"{target!r} names no contestant")
        raise OptionError(f"{target!r} names {len(found)} contestants; give one of "
                          f"{', '.join(c.key for c in found)}")

    def stats(self) -> tuple[str, ...]:
        """The stats ``--set`` accepts, for help and for suggestions."""
        return ()

    def tables(self) -> dict[str, StandardTable]:
        """The game's standard rulebook tables, by name."""
        return {}

    def value_per_cost(self, value: float, cost: float) -> float:
        """The primary value per unit of cost (a linear function of ``value``)."""
        return value / cost

    def payoff_scale(self, a: Contestant, b: Contestant) -> float:
        """What the payoff metric is multiplied by in the meta-game (cost normalisation)."""
        return 1.0

    def notes(self, catalog: Any, contestants: Sequence[Contestant]) -> list[str]:
        """What reports about these contestants must say (rules not modelled, data quirks...)."""
        return []

    def coverage(self, contestant: Contestant, rulings: Rulings) -> Coverage:
        """Which of the contestant's rules its contests play and which they do not (a game states every
        rule of its entries it leaves out; an unplayed rule that can change the value is ``decisive``)."""
        return Coverage()

    #: How :meth:`price_features` counts an entry's characteristics, for the pricing rule's report (e.g.
    #: "each stat times the unit's models; a skill or keyword counts the models that have it").
    price_features_text: str = ""
    #: The feature of :meth:`price_features` that counts an entry's models, and the features that are a
    #: stat of each model times the models. The pricing rule then prices a model of the fitted entries'
    #: median profile (the models feature) and each stat by the points a model has above or below that
    #: median: every model has some of each stat, so an uncentred base price absorbs them and can read
    #: negative. The same fit, read another way. None: no such centring.
    price_models: str | None = None
    price_per_model: tuple[str, ...] = ()

    def price_features(self, contestant: Contestant) -> dict[str, float]:
        """The entry's characteristics the pricing rule (``balance points --rule``) fits costs on: a short
        name each (a stat, a skill, a keyword; the same names for every entry, 0 where it lacks one) and a
        number such that cost ~ sum(price x number) is the rule. Empty: the game offers no pricing rule."""
        return {}

    def budget(self, rulings: Rulings) -> float | None:
        """The budget both sides of an equal-points contest spend under ``rulings`` (None: no budget)."""
        if self.budget_ruling is None:
            return None
        return float(getattr(rulings, rulings.spec(self.budget_ruling).field))

    def cost_bounds(self, contestant: Contestant, rulings: Rulings) -> tuple[float, float]:
        """The costs a proposed points table may give ``contestant`` (``balance points``): one step of cost
        up to COST_RANGE_FACTOR times today's (at least COST_RANGE_STEPS steps above it), and never more
        than the budget, since a side must be able to field one unit of it. A game overrides this where its
        rules bound a cost otherwise."""
        high = max(COST_RANGE_FACTOR * contestant.cost, contestant.cost + COST_RANGE_STEPS * self.cost_step)
        budget = self.budget(rulings)
        if budget is not None:
            high = min(high, budget)
        return self.cost_step, max(high, self.cost_step)

    #: How the game plays an army of several entries (``balance army``): what a side may field and how its
    #: units fight; for a game that plays none, why not (the default: its contests field one entry a side).
    army_text: str = ("its contest plays one entry a side against one other, and no contest of a force of "
                      "several entries is written for it")

    @property
    def plays_armies(self) -> bool:
        """Whether the game plays armies of several entries (it overrides :meth:`army_engage`)."""
        return type(self).army_engage is not Ruleset.army_engage

    def armies_not_played(self) -> RulesError:
        """The error of a game that plays no army of several entries, naming the game and why."""
        return RulesError(f"{self.name}: armies of several entries are not played: {self.army_text}")

    def check_army(self, force: Sequence[tuple[Contestant, int]], rulings: Rulings) -> None:
        """Nothing when ``force`` ((entry, whole units) pairs, each entry once) is an army a side may field
        under ``rulings`` (its budget, the most units a side, the game's limits of recruitment); a
        RulesError saying which limit it breaks otherwise."""
        raise self.armies_not_played()

    def checked_armies(self, force_a: Sequence[tuple[Contestant, int]],
                       force_b: Sequence[tuple[Contestant, int]], rulings: Rulings
                       ) -> tuple[tuple[tuple[Contestant, int], ...], tuple[tuple[Contestant, int], ...]]:
        """Both armies of an :meth:`army_engage` as tuples, each passing :meth:`check_army` and complete
        (:meth:`army_incomplete`)."""
        sides = (tuple(force_a), tuple(force_b))
        for force in sides:
            self.check_army(force, rulings)
            why = self.army_incomplete(force, rulings)
            if why is not None:
                raise RulesError(why)
        return sides

    def army_budget(self, rulings: Rulings) -> ArmyBudget | None:
        """What an army spends under ``rulings`` (default: :meth:`budget` in the game's cost unit, set by its
        budget ruling); None: its armies are not bought (the army search says so)."""
        budget = self.budget(rulings)
        if budget is None:
            return None
        return ArmyBudget(budget, self.cost_unit, f"{self.budget_ruling}={budget:g}")

    def army_price(self, contestant: Contestant) -> float:
        """What one unit of ``contestant`` takes of :meth:`army_budget` (default: its cost)."""
        return contestant.cost

    #: The most entries the game's own rules let one army hold, when they bound it (``balance army``'s
    #: --kinds defaults to it; None: reports.army.DEFAULT_KINDS).
    army_kinds: int | None = None

    def army_name(self, force: Sequence[tuple[Contestant, int]]) -> str | None:
        """The name of an army when the game names its armies otherwise than by their units (a deck by the
        catalog deck it is made from and the cards it changes); None (the default): by its units. An army
        the game names is keyed by its units in the field too, not by the entry that fields it."""
        return None

    def field_army(self, contestant: Contestant, entries: Sequence[Contestant], rulings: Rulings
                   ) -> tuple[tuple[Contestant, int], ...] | None:
        """The army ``contestant`` fields in the army search's field, when the game's rules give it one
        (entries besides it may come from the catalog, not only ``entries``); None (the default): as many of
        its units as the game allows at the budget."""
        return None

    @property
    def gives_field_armies(self) -> bool:
        """Whether the game gives each entry its own army in the army search's field (it overrides
        :meth:`field_army`)."""
        return type(self).field_army is not Ruleset.field_army

    def army_incomplete(self, force: Sequence[tuple[Contestant, int]], rulings: Rulings) -> str | None:
        """Why ``force``, within every limit :meth:`check_army` checks, is not yet an army a side may field
        (a game whose armies have an exact size: a deck); None (the default) when it is one."""
        return None

    def contest_army(self, contestant: Contestant, rulings: Rulings
                     ) -> tuple[tuple[Contestant, int], ...] | None:
        """The army :meth:`engage` fields for ``contestant`` when it plays it exactly as :meth:`army_engage`
        plays that army (the same records and metrics for the same seed), so that a field's engagements are
        an army search's (``balance report`` plays its field once for both); None (the default) when the
        contest plays the entry otherwise."""
        return None

    def army_engage(self, force_a: Sequence[tuple[Contestant, int]],
                    force_b: Sequence[tuple[Contestant, int]], rulings: Rulings, *, seed: int,
                    trials: int | None = None, precision: float | None = None,
                    threads: int | None = None) -> Engagement:
        """One head-to-head of two armies ((entry, whole units) pairs, each passing :meth:`check_army`),
        ``force_a`` side 0, with the game's own metrics (so ``win_metric`` and ``payoff_metric`` read as
        for :meth:`engage`); the Engagement's contestants are the armies (:func:`army_contestant`).
        ``precision`` as for :meth:`engage`. A game that plays no army raises :meth:`armies_not_played`."""
        raise self.armies_not_played()


# --- --set, --cost and ranges ----------------------------------------------------------------------------

_SET = re.compile(r"^\s*(?P<target>[^.=+\-\s][^.=]*?)\s*\.\s*(?P<stat>[a-z_][a-z0-9_.]*?)\s*"
                  r"(?P<op>\+=|-=|=)\s*(?P<value>\S.*?)\s*$", re.IGNORECASE)
_COST = re.compile(r"^\s*(?P<target>[^=\s][^=]*?)\s*=\s*(?P<value>\S.*?)\s*$")
_RANGE = re.compile(r"^\s*(?P<low>[-+]?\d+(?:\.\d+)?)\s*\.\.\s*(?P<high>[-+]?\d+(?:\.\d+)?)\s*"
                    r"(?:/\s*(?P<step>[-+]?\d+(?:\.\d+)?))?\s*$")
#: Most points a range may expand to.
MAX_RANGE_POINTS = 1000


@dataclass(frozen=True)
class StatChange:
    """``TARGET.STAT=VALUE`` (or ``+=`` / ``-=`` for list stats such as skills), as typed."""

    target: str
    stat: str
    op: str
    value: str

    @property
    def text(self) -> str:
        return f"{self.target}.{self.stat}{self.op}{self.value}"

    def whole(self, low: int, high: int) -> int:
        """The value as a whole number from ``low`` to ``high``: OptionError when it is not a whole number
        (a usage error), RulesError when it is one outside the range (the rules do not accept it)."""
        try:
            value = int(self.value)
        except ValueError:
            raise OptionError(f"change {self.text!r}: {self.value!r} is not a whole number from {low} to "
                              f"{high}") from None
        if not low <= value <= high:
            raise RulesError(f"change {self.text!r}: {self.stat} {value} is outside {low}..{high}")
        return value

    def number(self, above: float | None = None) -> float:
        """The value as a finite number (above ``above`` when given); OptionError otherwise."""
        try:
            value = float(self.value)
        except ValueError:
            raise OptionError(f"change {self.text!r}: {self.value!r} is not a number") from None
        if not math.isfinite(value) or (above is not None and value <= above):
            bound = f" > {above:g}" if above is not None else ""
            raise OptionError(f"change {self.text!r}: {self.value!r} is not a number{bound}")
        return value


@dataclass(frozen=True)
class CostChange:
    """``TARGET=COST``, as typed."""

    target: str
    cost: float

    @property
    def text(self) -> str:
        return f"{self.target}={self.cost:g}"


def parse_set(text: str) -> StatChange:
    """``"crows.combat=4"`` → StatChange; OptionError naming the text otherwise."""
    m = _SET.match(text)
    if not m:
        raise OptionError(f"change {text!r} is not of the form UNIT.STAT=VALUE (or UNIT.skills+=SKILL)")
    return StatChange(m["target"].strip().lower(), m["stat"].lower(), m["op"], m["value"])


def parse_cost(text: str) -> CostChange:
    """``"crows=150"`` → CostChange with a positive finite cost; OptionError otherwise."""
    m = _COST.match(text)
    if not m:
        raise OptionError(f"cost change {text!r} is not of the form UNIT=COST")
    cost = parse_number(m["value"], f"cost change {text!r}: cost")
    if not cost > 0:
        raise OptionError(f"cost change {text!r}: cost {m['value']} is not > 0")
    return CostChange(m["target"].strip().lower(), cost)


def parse_number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OptionError(f"{what} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise OptionError(f"{what} {text!r} is not a finite number")
    return value


def expand_range(text: str, what: str) -> list[str] | None:
    """``"2..6"`` → 2,3,4,5,6; ``"60..240/20"`` → 60,80,...,240 (as text); None when ``text`` is no range.

    The high end is included when the steps land on it. OptionError for a step <= 0, a range with no
    point (high < low) or more than MAX_RANGE_POINTS points.
    """
    m = _RANGE.match(text)
    if not m:
        return None
    low, high = float(m["low"]), float(m["high"])
    step = float(m["step"]) if m["step"] is not None else 1.0
    if not step > 0:
        raise OptionError(f"{what} {text!r}: step {m['step']} is not > 0")
    if high < low:
        raise OptionError(f"{what} {text!r} has no point: {m['high']} is below {m['low']}")
    count = int(math.floor((high - low) / step + 1e-9)) + 1
    if count > MAX_RANGE_POINTS:
        raise OptionError(f"{what} {text!r} has {count} points; at most {MAX_RANGE_POINTS} are accepted")
    whole = all(float(v).is_integer() for v in (low, step))
    points = [low + k * step for k in range(count)]
    return [str(int(round(p))) if whole else f"{p:g}" for p in points]


# --- where a catalog's values come from ---------------------------------------------------------------------

_LINE_RANGE = r"\d+(?:-\d+)?"
#: A source as catalogs cite it: "line N", "lines N-M", "lines N, M".
SOURCE = re.compile(rf"^(?:line \d+|lines {_LINE_RANGE}(?:, {_LINE_RANGE})*)$")


def source_lines(source: str) -> tuple[int, ...]:
    """The line numbers a source cites: ``"line 245"`` → (245,), ``"lines 539-541"`` → (539, 540, 541),
    ``"lines 559, 565"`` → (559, 565)."""
    if not SOURCE.match(source):
        raise RulesError(f"source {source!r}: expected \"line N\", \"lines N-M\" or \"lines N, M\"")
    lines: list[int] = []
    for part in source.split(" ", 1)[1].split(", "):
        low, _, high = part.partition("-")
        if high and int(high) < int(low):
            raise RulesError(f"source {source!r}: the line range {part} runs backwards")
        lines.extend(range(int(low), int(high or low) + 1))
    return tuple(lines)


def ancestry(path: str) -> tuple[str, ...]:
    """``"front.skills[0].name"`` → itself, ``front.skills[0]``, ``front.skills``, ``front``."""
    out = [path]
    while m := re.search(r"(\.[^.\[]*|\[\d+\])$", path):
        path = path[:m.start()]
        if path:
            out.append(path)
    return tuple(out)


class Provenance:
    """Where each value of a catalog entry comes from: ``sources`` (path, "line N") and the
    ``illustrative`` paths (a listed path covers the values under it)."""

    _PATHS: ClassVar[tuple[str, ...]] = ()

    def _paths(self) -> list[str]:
        return list(self._PATHS)

    @property
    def value_paths(self) -> tuple[str, ...]:
        """Every value field of the entry, by path; each is sourced or illustrative, never both."""
        return tuple(self._paths())

    @property
    def is_illustrative(self) -> bool:
        """Whether any value of the entry is illustrative (not printed in the rulebook)."""
        return bool(self.illustrative)  # type: ignore[attr-defined]

    def source_of(self, path: str) -> str | None:
        """The line printing value ``path`` (its own source or its closest listed ancestor's); None when
        the value is illustrative."""
        sources = dict(self.sources)  # type: ignore[attr-defined]
        return next((sources[a] for a in ancestry(path) if a in sources), None)
