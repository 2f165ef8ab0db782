"""The army a sharp player brings (`balance army`): the best army at a budget against the meta-game, and the
best counter to it, by the same contests at equal points.

- **Armies.** An army is whole units of at most ``kinds`` entries (3 by default), costing no more than the
  budget, to which no unit of any entry considered can be added (within the budget, the kinds and the
  game's own limits, :meth:`rulesets.base.Ruleset.check_army`): it leaves less unspent than the cheapest
  entry costs unless a limit of the game stops it. Two armies meet by the game's own contest of forces,
  :meth:`rulesets.base.Ruleset.army_engage` (its ``army_text`` says how); a game that plays none is refused
  before any work.
- **Other budgets.** A game may spend something else than its costs (Ruleset.army_budget and army_price:
  Warbound's armies are Exploration decks, a character taking one card of the seven beside the Leader and
  its Formation card one more), require an army to be complete besides within its limits
  (Ruleset.army_incomplete: a deck's exact size) and give each entry its own army in the field
  (Ruleset.field_army: the entry's deck); such a field army also starts the search as it stands, and one
  given to several entries (the deck Dragoborne measures its cards in) is fielded once. A game may name its
  armies (Ruleset.army_name: a deck by the catalog deck it is made from and the cards it changes); they are
  then keyed by their units.
- **The field and the meta-game.** Each entry fields a one-entry army: as many of its units as the game
  allows at the budget (what its equal-points contests field). Every one meets every other in both roles,
  and the meta-game's mix is the maximum-entropy Nash equilibrium of their payoff matrix
  (:func:`reports.efficiency.meta_game`, the game's payoff metric).
- **The best army** has the highest P(win) against the mix: its P(win) against each entry of the mix, the
  mean of its two roles, weighted by the entries' shares (taken as estimated). Its P(win) against the field
  is the plain mean over every one-entry army of the field, both roles. A finalist (the best RUNNERS_UP
  + 1 against the mix) tied with the top against the mix (the difference within its 95% interval) but
  better against the field beyond the interval of that difference is preferred, the best of those against
  the field: where many armies beat a mix of one or two entries almost surely, noise does not choose.
- **The best counter** is the army, other than the best, with the highest P(win) against the best army
  (the mean of its two roles).
- **The search.** When the armies number no more than ``search``, every one is played. Otherwise a
  best-first local search: it plays the one-entry armies of the field, each filled up (a unit of the
  dearest entry that fits added while one fits, entries of the army first), then again and again the
  neighbours of the best army played whose neighbours are not played yet: every army made by taking units
  of one of its entries away until one unit of another fits, adding it and filling up; the entries swapped
  in are its own and the SWAP_ENTRIES whose filled-up armies score best. It stops when the EXPANDED_TOP
  best armies played have had their neighbours played, or when ``search`` armies have been played. The
  best army and RUNNERS_UP runners-up are then played against the whole field. The report states how many
  armies and engagements were played.
- **Common random numbers.** An engagement's streams come from the run's seed and the two armies' keys
  (:func:`reports.efficiency.engagement_seed`), never from the order in which the search plays them: an
  army meets an opponent on the same dice whenever it meets it, so the search takes the same path and
  gives the same armies for any ``threads``. A one-entry army of the field is keyed by its entry's key, so
  the field's engagements are those of `balance efficiency` at the same budget and seed wherever the game
  plays a one-entry army as its contest does.
- **Error bars.** Every P(win) is given with its 95% interval (1.96 standard errors, the engagements being
  independent runs) and the trials behind it. The best army is the best estimate among those played: an
  army whose difference from it lies within its 95% interval is called tied with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports import efficiency as eff
from rulesets.base import ArmyBudget, Contestant, OptionError, RulesError, Ruleset, Rulings, army_contestant
from simcore.parallel import check_threads, map_ordered
from simcore.stats import Z95

Progress = Callable[[int, int], None]
#: Most entries of one army (``--kinds``), and most armies the search plays (``--search``), by default.
DEFAULT_KINDS = 3
DEFAULT_SEARCH = 100
#: Armies shown after the best, each played against the whole field.
RUNNERS_UP = 4
#: Counters shown (the best counter first).
COUNTERS = 3
#: Entries a neighbour may swap in besides the army's own: those whose filled-up armies score best.
SWAP_ENTRIES = 8
#: The search stops once this many of the best armies played have had their neighbours played.
EXPANDED_TOP = 4
#: Partial armies the enumeration visits at most before it gives way to the search.
ENUMERATION_NODES = 100_000
#: A share of the equilibrium mix counted as "has a share" (the solver's zeros are exact to ~1e-12).
SHARE_FLOOR = 1e-6

#: An army's units by entry: (entry index, units), by entry index.
Counts = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Army:
    """Whole units of some entries: ``counts`` by entry index, as one side of an engagement
    (``contestant``: its key, name and cost), and what it leaves of the budget."""

    counts: Counts
    contestant: Contestant
    unspent: float

    @property
    def key(self) -> str:
        return self.contestant.key

    @property
    def name(self) -> str:
        return self.contestant.name

    @property
    def cost(self) -> float:
        return self.contestant.cost

    @property
    def units(self) -> int:
        return sum(n for _, n in self.counts)


@dataclass(frozen=True)
class Rated:
    """A P(win) over some engagements: its estimate, standard error, engagements and trials per engagement
    (0: exact)."""

    value: float
    stderr: float
    engagements: int
    trials_low: int
    trials_high: int

    @property
    def low(self) -> float:
        return self.value - Z95 * self.stderr

    @property
    def high(self) -> float:
        return self.value + Z95 * self.stderr

    def tied(self, other: Rated) -> bool:
        """Whether the difference from ``other`` lies within its 95% interval (independent estimates)."""
        return abs(self.value - other.value) <= Z95 * float(np.hypot(self.stderr, other.stderr))


@dataclass(frozen=True)
class Candidate:
    """An army with its P(win) against the mix and (once played against it) the whole field."""

    army: Army
    mix: Rated
    field: Rated | None = None


class Space:
    """The armies at a budget: made, checked, filled up, enumerated and changed into their neighbours."""

    def __init__(self, ruleset: Ruleset, rulings: Rulings, entries: Sequence[Contestant], budget: float,
                 kinds: int) -> None:
        self.ruleset, self.rulings, self.entries = ruleset, rulings, []
        self.budget, self.kinds = budget, kinds
        #: what one unit of each entry takes of the budget (Ruleset.army_price)
        self.price: list[float] = []
        for c in entries:
            self.index(c)
        self._legal: dict[Counts, bool] = {}
        self._complete: dict[Counts, bool] = {}
        #: the key of an army whose counts are a field army's: its entry's key
        self.field_keys: dict[Counts, str] = {}

    def index(self, c: Contestant) -> int:
        """The index of entry ``c`` (by key), added when it is not one yet (a field army's entry from the
        catalog besides those considered: Ruleset.field_army)."""
        for i, e in enumerate(self.entries):
            if e.key == c.key:
                return i
        self.entries.append(c)
        self.price.append(float(self.ruleset.army_price(c)))
        return len(self.entries) - 1

    def force(self, counts: Counts) -> list[tuple[Contestant, int]]:
        return [(self.entries[i], n) for i, n in counts]

    def cost(self, counts: Counts) -> float:
        """What ``counts`` spends of the budget."""
        return sum(self.price[i] * n for i, n in counts)

    def complete(self, counts: Counts) -> bool:
        """Whether a legal army is one a side may field as it stands (Ruleset.army_incomplete: a deck's
        exact size)."""
        if counts not in self._complete:
            self._complete[counts] = self.ruleset.army_incomplete(self.force(counts), self.rulings) is None
        return self._complete[counts]

    def legal(self, counts: Counts) -> bool:
        """Whether a side may field the army: no more kinds than allowed, within the budget, and the game's
        limits (Ruleset.check_army)."""
        if counts not in self._legal:
            ok = bool(counts) and len(counts) <= self.kinds and self.cost(counts) <= self.budget + 1e-9
            if ok:
                try:
                    self.ruleset.check_army(self.force(counts), self.rulings)
                except RulesError:
                    ok = False
            self._legal[counts] = ok
        return self._legal[counts]

    @staticmethod
    def added(counts: Counts, i: int, n: int = 1) -> Counts:
        """``counts`` with ``n`` units of entry ``i`` more (fewer for n < 0; an entry left with none
        dropped)."""
        units = dict(counts)
        units[i] = units.get(i, 0) + n
        return tuple(sorted((k, v) for k, v in units.items() if v > 0))

    def can_add(self, counts: Counts, i: int) -> bool:
        if self.cost(counts) + self.price[i] > self.budget + 1e-9:
            return False
        if i not in dict(counts) and len(counts) >= self.kinds:
            return False
        return self.legal(self.added(counts, i))

    def maximal(self, counts: Counts) -> bool:
        """No unit of any entry can be added."""
        return not any(self.can_add(counts, i) for i in range(len(self.entries)))

    def _dearest_first(self, indices) -> list[int]:
        return sorted(indices, key=lambda i: (-self.price[i], i))

    def fill(self, counts: Counts) -> Counts:
        """Filled up: while a unit fits, one of the dearest entry that fits is added, the army's own
        entries first."""
        while True:
            own = [i for i, _ in counts]
            others = [i for i in range(len(self.entries)) if i not in own]
            pick = next((i for i in [*self._dearest_first(own), *self._dearest_first(others)]
                         if self.can_add(counts, i)), None)
            if pick is None:
                return counts
            counts = self.added(counts, pick)

    def most_units(self, i: int) -> int:
        """The most units of entry ``i`` alone that a side may field (0: not one)."""
        n = int(self.budget // self.price[i] + 1e-9)
        while n > 0 and not self.legal(((i, n),)):
            n -= 1
        return n

    def army(self, counts: Counts) -> Army:
        key = self.field_keys.get(counts)
        force = self.force(counts)
        contestant = army_contestant(force, key, self.ruleset.army_name(force))
        return Army(counts, contestant, self.budget - self.cost(counts))

    def enumerate(self, limit: int) -> list[Counts] | None:
        """Every army (legal, complete and filled up), in a fixed order; None when there are more than
        ``limit`` or finding them all would visit more than ENUMERATION_NODES partial armies."""
        found: list[Counts] = []
        visited = [0]
        n = len(self.entries)

        def walk(i: int, counts: Counts, spent: float) -> bool:
            visited[0] += 1
            if visited[0] > ENUMERATION_NODES or len(found) > limit:
                return False
            if i == n:
                if counts and self.legal(counts) and self.maximal(counts) and self.complete(counts):
                    found.append(counts)
                return len(found) <= limit
            if not walk(i + 1, counts, spent):
                return False
            if len(counts) >= self.kinds:
                return True
            cost = self.price[i]
            units = 1
            while spent + units * cost <= self.budget + 1e-9:
                if not walk(i + 1, (*counts, (i, units)), spent + units * cost):
                    return False
                units += 1
            return True

        return found if walk(0, (), 0.0) else None

    def neighbours(self, counts: Counts, pool: Sequence[int]) -> list[Counts]:
        """Each army made by taking units of one of its entries away until one unit of an entry of
        ``pool`` fits, adding that unit and filling up (each once, in a fixed order; not the army itself)."""
        out: list[Counts] = []
        for x, _ in counts:
            for y in pool:
                if y == x:
                    continue
                trial = counts
                while x in dict(trial):
                    trial = self.added(trial, x, -1)
                    if self.can_add(trial, y):
                        break
                else:
                    continue
                made = self.fill(self.added(trial, y))
                if made != counts and self.legal(made) and self.complete(made) and made not in out:
                    out.append(made)
        return out


class Player:
    """Plays engagements of armies, each once (by the two armies' keys), spread over threads. A player
    given a ``finer`` one (the same seed and rulings, a smaller half-width) takes the engagements that one
    has played instead of playing them (screening with them loses nothing), and shares its progress."""

    def __init__(self, ruleset: Ruleset, rulings: Rulings, *, seed: int, precision: float | None,
                 trials: int | None, threads: int | None, progress: Progress | None = None,
                 planned: int = 0, finer: Player | None = None) -> None:
        self.ruleset, self.rulings, self.seed = ruleset, rulings, seed
        self.precision, self.trials = precision, trials
        try:
            self.threads = check_threads(threads)
        except ValueError as exc:
            raise RulesError(str(exc)) from None
        self.names = [m.name for m in ruleset.metrics]
        self.win = self.names.index(ruleset.win_metric)
        self.known: dict[tuple[str, str], tuple[eff.SideSummary, eff.SideSummary]] = {}
        self.finer = finer
        self.progress = progress
        #: engagements played and planned by this player and every player sharing its count (the bar's)
        self.tally = finer.tally if finer is not None else {"played": 0, "planned": planned}

    @property
    def played(self) -> int:
        return len(self.known)

    def found(self, key: tuple[str, str]) -> tuple[eff.SideSummary, eff.SideSummary] | None:
        """The engagement of two armies' keys (side 0, side 1) if this player or a finer one played it."""
        if key in self.known:
            return self.known[key]
        return None if self.finer is None else self.finer.found(key)

    def play(self, pairs: Sequence[tuple[Army, Army]]) -> None:
        """Play every pair (side 0, side 1) not played yet."""
        todo = list({(a.key, b.key): (a, b) for a, b in pairs if self.found((a.key, b.key)) is None}.values())
        if not todo:
            return
        tally = self.tally
        before = tally["played"]

        def one(pair: tuple[Army, Army]) -> tuple[eff.SideSummary, eff.SideSummary]:
            a, b = pair
            seed = eff.engagement_seed(self.seed, a.contestant, b.contestant)
            eng = self.ruleset.army_engage(a.contestant.subject, b.contestant.subject, self.rulings,
                                           seed=seed, trials=self.trials, precision=self.precision,
                                           threads=1)
            return eff.summarize_sides(eng, self.names)

        def done(k: int) -> None:
            if self.progress is not None:
                tally["planned"] = max(tally["planned"], before + k)
                self.progress(before + k, tally["planned"])

        results = map_ordered(one, todo, self.threads, done)
        for (a, b), summaries in zip(todo, results, strict=True):
            self.known[a.key, b.key] = summaries
        tally["played"] = before + len(todo)

    def sides(self, army: Army, opponent: Army) -> tuple[eff.SideSummary, eff.SideSummary]:
        """``army``'s side of its engagement as side 0 and as side 1 against ``opponent``."""
        return self.found((army.key, opponent.key))[0], self.found((opponent.key, army.key))[1]

    def rate(self, army: Army, opponents: Sequence[Army], weights: Sequence[float]) -> Rated:
        """P(``army`` wins): against each opponent the mean of its two roles, weighted by ``weights``
        (summing to 1); its standard error from the engagements' (independent runs)."""
        value, variance, trials = 0.0, 0.0, []
        for opponent, w in zip(opponents, weights, strict=True):
            first, second = self.sides(army, opponent)
            value += w * 0.5 * (first.mean[self.win] + second.mean[self.win])
            variance += w * w * 0.25 * (first.cov[self.win, self.win] + second.cov[self.win, self.win])
            trials += [first.trials, second.trials]
        return Rated(float(value), float(np.sqrt(variance)), len(trials), min(trials), max(trials))

    def rate_all(self, armies: Sequence[Army], opponents: Sequence[Army],
                 weights: Sequence[float]) -> list[Rated]:
        """Play what is needed (both roles against each opponent), then rate each army."""
        self.play([pair for a in armies for o in opponents for pair in ((a, o), (o, a))])
        return [self.rate(a, opponents, weights) for a in armies]


@dataclass(frozen=True)
class Search:
    """The armies a search played, best first, and how it went."""

    ranked: list[tuple[Army, Rated]]
    text: str

    @property
    def played(self) -> int:
        return len(self.ranked)


def search(space: Space, starts: Sequence[Army], rate: Callable[[list[Army]], list[Rated]], limit: int,
           every: list[Counts] | None, exclude: frozenset[str] = frozenset(), own: bool = False) -> Search:
    """The armies with the highest rating: every army when ``every`` lists them, else the best-first local
    search from ``starts`` (the module's docstring; ``own``: they hold the field's armies as the game's
    rules give them, besides those filled up). ``rate(armies)`` plays and rates a batch."""
    scored: dict[str, tuple[Army, Rated]] = {}

    def evaluate(armies: Sequence[Army]) -> None:
        fresh = list({a.key: a for a in armies if a.key not in scored and a.key not in exclude}.values())
        for army, rated in zip(fresh, rate(fresh) if fresh else [], strict=True):
            scored[army.key] = (army, rated)

    def ranked() -> list[tuple[Army, Rated]]:
        return sorted(scored.values(), key=lambda ar: (-ar[1].value, ar[0].key))

    if every is not None:
        evaluate([space.army(c) for c in every])
        return Search(ranked(), f"every one of the {len(scored):,} armies played (exhaustive)")
    evaluate(starts)
    by_entry = {}
    for army in starts:
        if army.key in scored:
            for i, _ in army.counts:
                by_entry[i] = max(by_entry.get(i, -np.inf), scored[army.key][1].value)
    pool = sorted(by_entry, key=lambda i: (-by_entry[i], i))[:SWAP_ENTRIES]
    expanded: set[str] = set()
    stop = f"the {EXPANDED_TOP} best armies played had had their neighbours played"
    while True:
        if len(scored) >= limit:
            stop = f"it had played --search {limit} armies"
            break
        top = next((a for a, _ in ranked()[:EXPANDED_TOP] if a.key not in expanded), None)
        if top is None:
            break
        expanded.add(top.key)
        own = [i for i, _ in top.counts]
        near = [space.army(c) for c in space.neighbours(top.counts, list(dict.fromkeys([*own, *pool])))]
        evaluate([a for a in near if a.key not in scored and a.key not in exclude][:limit - len(scored)])
    text = (f"best-first local search: {len(scored):,} armies played ({len(starts)} armies of the field "
            f"{'and ' if own else ''}filled up, then the neighbours of {len(expanded)} of the best, swapping "
            f"in their own entries and the {len(pool)} whose filled-up armies scored best); stopped when "
            f"{stop}")
    return Search(ranked(), text)


@dataclass
class ArmyResult:
    """A `balance army` run: the field and its mix, the best army, runners-up and counters."""

    ruleset: Ruleset
    rulings: Rulings
    #: what an army spends (Ruleset.army_budget)
    spend: ArmyBudget
    kinds: int
    limit: int
    seed: int
    precision: float | None
    trials: int | None
    entries: list[Contestant]
    left_out: list[str]
    field_armies: list[Army]
    field: eff.Field
    metagame: pd.DataFrame
    shares: np.ndarray
    best: Candidate
    runners_up: list[Candidate]
    counters: list[tuple[Army, Rated]]
    #: the best army's P(win) against each army of the field (its order)
    best_vs_field: list[Rated]
    best_search: Search
    counter_search: Search
    engagements: int
    trial_range: tuple[int, int]
    #: the entries each army of the field is fielded by (Ruleset.field_army: several entries may be given
    #: the same army, a deck, which the field then holds once), by the army's key
    fielded_by: dict[str, tuple[str, ...]]
    #: engagements taken from a field already played (``choose``'s ``played``), not played again
    taken: int = 0
    #: the half-width the searches screened armies at (None: ``precision``, no screening) and the
    #: engagements played at it (counted in ``engagements``)
    search_precision: float | None = None
    screened: int = 0

    @property
    def budget(self) -> float:
        return self.spend.amount

    @property
    def shared(self) -> dict[str, tuple[str, ...]]:
        """The field's armies several entries are given (a deck they are measured in), by name: their
        entries."""
        return {a.name: self.fielded_by[a.key] for a in self.field_armies if len(self.fielded_by[a.key]) > 1}

    def field_phrase(self) -> str:
        """What the field's armies are, as a report says it."""
        if self.shared:
            return "the armies the game's rules give its entries, each once"
        return ("each entry as the army the game's rules give it" if self.ruleset.gives_field_armies else
                "each entry as a one-entry army")


def _already_played(played: eff.Field, ruleset: Ruleset, rulings: Rulings, seed: int, precision: float | None,
                    trials: int | None, space: Space, armies: Sequence[Army]
                    ) -> dict[tuple[str, str], tuple[eff.SideSummary, eff.SideSummary]]:
    """The engagements of ``played`` (a field) between one-entry armies of ``armies``: those whose entries
    the field's contest fields as those very armies (same entry, cost and units), played at the same
    seed, precision, trials and rulings."""
    if (played.seed, played.precision, played.trials, played.rulings) != (seed, precision, trials, rulings):
        return {}
    wanted = {tuple((c.key, c.cost, n) for c, n in space.force(a.counts)): a.key for a in armies}
    index = {}
    for i, c in enumerate(played.contestants):
        force = ruleset.contest_army(c, rulings)
        key = None if force is None else wanted.get(tuple((f.key, f.cost, n) for f, n in force))
        if key is not None:
            index[i] = key
    return {(index[i], index[j]): sides for (i, j), sides in played.pairs.items()
            if i in index and j in index}


def choose(ruleset: Ruleset, rulings: Rulings, entries: Sequence[Contestant], *, kinds: int | None = None,
           search_limit: int = DEFAULT_SEARCH, seed: int, precision: float | None, trials: int | None,
           threads: int | None = None, progress: Progress | None = None,
           played: eff.Field | None = None, search_precision: float | None = None) -> ArmyResult:
    """The best army at the budget of ``rulings`` against the meta-game of ``entries``, runners-up and
    the best counters (the module's docstring). ``played``: a field already played at this seed,
    precision, trials and rulings (``balance report``'s efficiency field): an engagement of two one-entry
    armies found there, as the contest fields them (Ruleset.contest_army), is taken from it, not played
    again: the same records, since the streams come from the seed and the keys. ``search_precision``: the
    searches rate the armies they try with engagements played to this 95% half-width (larger than
    ``precision``); the finalists and the counters they find are then played again to ``precision``, and
    every P(win) the result shows is of those (None: the searches play to ``precision`` too)."""
    if not ruleset.plays_armies:
        raise ruleset.armies_not_played()
    spend = ruleset.army_budget(rulings)
    if spend is None:
        raise RulesError(f"{ruleset.name}: armies are bought from a budget, and its contests have none")
    if kinds is None:
        kinds = ruleset.army_kinds or DEFAULT_KINDS
    if not 1 <= kinds <= 100:
        raise RulesError(f"kinds {kinds!r} is not a whole number from 1 to 100")
    if search_limit < 1:
        raise RulesError(f"search {search_limit!r} is not a whole number >= 1")
    if search_precision is not None and precision is None:
        raise OptionError(f"search precision {search_precision:g} needs a precision to screen against: the "
                          "run has trials and no precision")
    if search_precision is not None and search_precision < precision:
        raise OptionError(f"search precision {search_precision:g} is finer than the precision {precision:g}: "
                          "the searches screen armies at the page's half-width or a larger one")
    budget = spend.amount
    space = Space(ruleset, rulings, entries, budget, kinds)
    field_armies, left_out = [], []
    fielded_by: dict[Counts, list[str]] = {}
    for c in list(entries):
        given = ruleset.field_army(c, entries, rulings)
        if given is None:
            i = space.index(c)
            n = space.most_units(i)
            counts: Counts = ((i, n),) if n else ()
        else:
            counts = tuple(sorted((space.index(e), n) for e, n in given))
        if not counts or not space.legal(counts) or not space.complete(counts):
            left_out.append(c.name)
            continue
        if counts in fielded_by:  # the army of an entry before it (a deck several entries are measured in)
            fielded_by[counts].append(c.name)
            continue
        fielded_by[counts] = [c.name]
        # keyed by its entry, so that its engagements can be the efficiency field's; an army the game names
        # (a deck) by its units, as every other army of its kind
        if ruleset.army_name(space.force(counts)) is None:
            space.field_keys[counts] = c.key
        field_armies.append(space.army(counts))
    if len(field_armies) < 2:
        fielding = sum(len(held) for held in fielded_by.values())
        armies_text = (f"{fielding} entries field {len(field_armies)} army" if fielding > len(field_armies)
                       else f"{len(field_armies)} entries field an army")
        hints = [*(["a larger --budget"] if ruleset.budget_ruling else []),
                 *(["a larger --kinds"] if kinds < (ruleset.army_kinds or DEFAULT_KINDS) else []),
                 "more --unit"]
        raise RulesError(f"{armies_text} at {spend.text}; the meta-game needs two: give "
                         + " or ".join(hints))
    n = len(field_armies)
    # a guess for the progress bar: the mix's entries are not known before the field is played (most mixes
    # hold a few), and a search may stop before its limit
    planned = n * (n - 1) + 2 * min(n, 4) * search_limit + 2 * n * (RUNNERS_UP + 1) + 2 * search_limit
    player = Player(ruleset, rulings, seed=seed, precision=precision, trials=trials, threads=threads,
                    progress=progress, planned=planned)
    taken = ({} if played is None else
             _already_played(played, ruleset, rulings, seed, precision, trials, space, field_armies))
    player.known.update(taken)
    player.tally["played"] = len(taken)
    # the searches' player: screens armies at search_precision, taking what the page's player has played
    scout = player if search_precision in (None, precision) else Player(
        ruleset, rulings, seed=seed, precision=search_precision, trials=trials, threads=threads,
        progress=progress, finer=player)
    player.play([(a, b) for a in field_armies for b in field_armies if a.key != b.key])
    pairs = {(i, j): player.known[a.key, b.key] for i, a in enumerate(field_armies)
             for j, b in enumerate(field_armies) if i != j}
    field = eff.Field(ruleset, rulings, [a.contestant for a in field_armies], seed, precision, trials, pairs)
    metagame, game = eff.meta_game(field)
    shares = np.asarray(game.shares, dtype=float)
    mix = [k for k in range(n) if shares[k] > SHARE_FLOOR]
    mix_armies = [field_armies[k] for k in mix]
    weights = shares[mix] / shares[mix].sum()

    # the field's armies filled up; an army the game's own rules give an entry (Ruleset.field_army: a
    # deck) is one a side may field as it stands, so it starts the search too
    own_field = ruleset.gives_field_armies
    filled = (space.army(space.fill(f.counts)) for f in field_armies)
    starts = list({a.key: a for a in [*(field_armies if own_field else ()), *filled]
                   if space.complete(a.counts)}.values())
    every = space.enumerate(max(search_limit, len(starts)))
    best_search = search(space, starts, lambda armies: scout.rate_all(armies, mix_armies, weights),
                         max(search_limit, len(starts)), every, own=own_field)
    finalists = _again(player, scout, best_search.ranked[:1 + RUNNERS_UP], mix_armies, weights)
    on_field = player.rate_all([a for a, _ in finalists], field_armies, [1.0 / n] * n)
    candidates = [Candidate(a, m, f) for (a, m), f in zip(finalists, on_field, strict=True)]
    # a finalist tied with the top against the mix and better against the field (beyond its interval too)
    top = candidates[0]
    better = [c for c in candidates[1:] if c.mix.tied(top.mix) and c.field.value > top.field.value
              and not c.field.tied(top.field)]
    best = max(better, key=lambda c: (c.field.value, c.mix.value), default=top)
    candidates = [best, *(c for c in candidates if c is not best)]
    best_vs_field = [player.rate(best.army, [f], [1.0]) for f in field_armies]
    counter_search = search(space, starts, lambda armies: scout.rate_all(armies, [best.army], [1.0]),
                            max(search_limit, len(starts)), every, frozenset({best.army.key}), own_field)
    counters = _again(player, scout, counter_search.ranked[:COUNTERS], [best.army], [1.0])
    players = [player] if scout is player else [player, scout]
    trial_counts = [s.trials for p in players for sides in p.known.values() for s in sides[:1]]
    return ArmyResult(ruleset, rulings, spend, kinds, search_limit, seed, precision, trials,
                      list(space.entries), left_out, field_armies, field, metagame, shares, best,
                      candidates[1:], counters, best_vs_field, best_search, counter_search,
                      sum(p.played for p in players), (min(trial_counts), max(trial_counts)),
                      {a.key: tuple(fielded_by[a.counts]) for a in field_armies}, len(taken),
                      scout.precision if scout is not player else None, sum(p.played for p in players[1:]))


def _again(player: Player, scout: Player, ranked: list[tuple[Army, Rated]], opponents: Sequence[Army],
           weights: Sequence[float]) -> list[tuple[Army, Rated]]:
    """The armies of a search's ``ranked`` (rated by ``scout``) rated by ``player`` against ``opponents``,
    best first: played again at the page's precision when the search screened them at a coarser one."""
    if scout is player:
        return ranked
    armies = [a for a, _ in ranked]
    return sorted(zip(armies, player.rate_all(armies, opponents, weights), strict=True),
                  key=lambda ar: (-ar[1].value, ar[0].key))


# --- tables and the report ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmyTables:
    """`balance army` as DataFrames (each with the provenance in ``.attrs``): ``armies`` (the best, the
    runners-up and the counters with their P(win) and 95% intervals), ``lists`` (each of those armies'
    units, entry by entry) and ``field`` (each entry's one-entry army: its share of the mix and the best
    army's P(win) against it)."""

    armies: pd.DataFrame
    lists: pd.DataFrame
    field: pd.DataFrame


def _rated(prefix: str, r: Rated | None) -> dict:
    if r is None:
        return {f"{prefix}": np.nan, f"{prefix}_stderr": np.nan, f"{prefix}_low": np.nan,
                f"{prefix}_high": np.nan}
    return {prefix: r.value, f"{prefix}_stderr": r.stderr, f"{prefix}_low": r.low, f"{prefix}_high": r.high}


def _shown(result: ArmyResult) -> list[tuple[str, Army, Rated | None, Rated | None, Rated | None]]:
    """(role, army, P(win) against the mix, against the field, against the best army) of every army the
    report shows."""
    rows = [("best", result.best.army, result.best.mix, result.best.field, None)]
    rows += [(f"runner-up {k}", c.army, c.mix, c.field, None) for k, c in enumerate(result.runners_up, 1)]
    rows += [("counter" if k == 1 else f"counter {k}", a, None, None, r)
             for k, (a, r) in enumerate(result.counters, 1)]
    return rows


def tables(result: ArmyResult) -> ArmyTables:
    """The tidy tables of a run."""
    armies, lists = [], []
    for role, army, mix, on_field, vs_best in _shown(result):
        rated = [r for r in (mix, on_field, vs_best) if r is not None]
        armies.append({"role": role, "army": army.name, "key": army.key, "cost": army.cost,
                       "unspent": army.unspent, "units": army.units, "kinds": len(army.counts),
                       **_rated("p_win_mix", mix), **_rated("p_win_field", on_field),
                       **_rated("p_win_vs_best", vs_best),
                       "tied_with_best": mix is not None and role != "best" and mix.tied(result.best.mix),
                       "engagements": sum(r.engagements for r in rated),
                       "trials_low": min(r.trials_low for r in rated),
                       "trials_high": max(r.trials_high for r in rated)})
        for i, n in army.counts:
            c = result.entries[i]
            lists.append({"role": role, "army": army.key, "entry": c.name, "key": c.key, "units": n,
                          "cost_each": c.cost, "cost": n * c.cost})
    shares = result.metagame.set_index("key")
    names = {c.key: c.name for c in result.entries}
    field = []
    for army, vs in zip(result.field_armies, result.best_vs_field, strict=True):
        row = shares.loc[army.key]
        field.append({"entry": names.get(army.key, army.name), "key": army.key,
                      "units": army.units, "cost": army.cost, "unspent": army.unspent,
                      "share": float(row["share"]), "share_low": float(row["share_low"]),
                      "share_high": float(row["share_high"]), **_rated("best_p_win", vs)})
    return ArmyTables(pd.DataFrame(armies), pd.DataFrame(lists), pd.DataFrame(field))


def _p(r: Rated | None, exact: bool) -> str:
    return "" if r is None else eff.plus_minus(r.value, r.stderr, 3, exact)


def _trials_text(r: Rated) -> str:
    if r.trials_high == 0:
        return f"{r.engagements} engagements, exact"
    span = f"{r.trials_low:,}" if r.trials_low == r.trials_high else f"{r.trials_low:,}-{r.trials_high:,}"
    return f"{r.engagements} engagements of {span} trials"


def report(result: ArmyResult, *, provenance: list[tuple[str, str]], notes: Sequence[str] = ()):
    """The army Report: the best army's list, P(win) against the mix and the field, the best counter, the
    runners-up and the field's mix (views for reading; the tidy tables for CSV and JSON)."""
    from reports.formats import Report, Section

    rs = result.ruleset
    unit = rs.cost_unit
    t = tables(result)
    exact = result.trial_range == (0, 0)
    best, counter = result.best, result.counters[0] if result.counters else None
    low, high = result.trial_range
    how = (f"until the 95% half-width of each engagement's P(side 0 wins) is below {result.precision:g}"
           if result.precision else f"{result.trials:,} trials per engagement")
    if result.search_precision is not None:
        how += (f" (the searches screen armies at {result.search_precision:g}; the best, the runners-up and "
                f"the counters are played again at {result.precision:g}, and every P(win) shown is of those)")
    method = ("exact: every engagement computed exactly" if exact else
              f"Monte Carlo, seed {result.seed}: {how} ({low:,} to {high:,} trials); ± is the 95% interval "
              "(1.96 standard errors)")
    spend = result.spend
    budget_text = spend.of(result.budget)
    # the unspent budget, named by its unit where that is not the cost's (a deck's cards)
    same = spend.unit == unit

    def unspent(x: float) -> str:
        return f"{x:g} unspent" if same else f"{spend.of(x)} unspent"

    own_field = rs.gives_field_armies
    if result.shared:  # several entries given one army (a deck they are measured in): the field holds it once
        field_text = (f"{len(result.field_armies)} armies, those the game's rules give its entries (see "
                      "armies), each once: " + "; ".join(f"{name}, the army of {', '.join(held)}"
                                                         for name, held in result.shared.items()))
    else:
        field_text = f"{len(result.field_armies)} entries, each as " + (
            "the army the game's rules give it (see armies)" if own_field else
            f"a one-entry army (as many units as the game allows at {budget_text})")
    headline = [f"Best army at {budget_text}: {best.army.name} ({best.army.cost:g} {unit}, "
                f"{unspent(best.army.unspent)}): P(win) {_p(best.mix, exact)} against the "
                f"meta-game's mix, "
                f"{_p(best.field, exact)} against the field."]
    if counter is not None:
        headline.append(f"Best counter: {counter[0].name} ({counter[0].cost:g} {unit}): P(win) "
                        f"{_p(counter[1], exact)} against it.")
    mix_text = "; ".join(f"{r['entry']} {100 * r['share']:.0f}%" for _, r in
                         t.field.sort_values("share", ascending=False).iterrows() if r["share"] > SHARE_FLOOR)
    meta = [*provenance,
            ("method", method),
            ("budget", spend.text),
            ("armies", f"whole units of at most {result.kinds} entries (--kinds), "
                       f"{'costing' if same else 'taking'} at most {budget_text}, to which no unit "
                       f"of an entry fits any more (within the budget, the kinds and the game's limits); how "
                       f"the game plays them: {rs.army_text}"),
            ("field", field_text + f", every one against every other in both roles "
                                   f"({len(result.field.pairs):,} engagements)"),
            ("meta-game", f"maximum-entropy Nash mix of the field (payoff: {rs.payoff_description}): "
                          f"{mix_text}"),
            ("best army", "the highest P(win) against the mix (each entry of the mix: the mean of both "
                          "roles, weighted by its share, the shares taken as estimated); against the field: "
                          "the plain mean over the field's armies, both roles; a finalist tied with the "
                          "top against the mix but better against the field (each difference judged by its "
                          "95% interval) is preferred"),
            ("search", f"{result.best_search.text}; the best and {len(result.runners_up)} runners-up then "
                       "played against the whole field"),
            ("counter", f"the army other than the best with the highest P(win) against it (both roles): "
                        f"{result.counter_search.text}"),
            ("engagements", f"{result.engagements:,} played in all, each once" +
                            (f" at each half-width ({result.screened:,} of them at the searches' "
                             f"{result.search_precision:g})" if result.search_precision is not None else "") +
                            " (streams from the seed and the two armies' keys: the same for any --threads)" +
                            (f"; {result.taken:,} of them the efficiency field's, played once for both"
                             if result.taken else ""))]
    invented = [c.key for c in result.entries if c.illustrative]
    if invented:
        meta.append(("illustrative data", f"{len(invented)} of {len(result.entries)} entries have values the "
                                          f"rulebook does not print: {', '.join(invented)}"))
    tied = [c.army.name for c in result.runners_up if c.mix.tied(best.mix)]
    maybe = [r["entry"] for _, r in t.field.iterrows() if r["share"] <= SHARE_FLOOR < r["share_high"]]
    # the entries of the armies shown whose contests leave out a rule that can change their worth: the
    # armies' P(win) are played without it
    shown = [a for _, a, _, _, _ in _shown(result)]
    unseen: dict[str, tuple[str, ...]] = {}
    for army in shown:
        for i, _ in army.counts:
            c = result.entries[i]
            decisive = rs.coverage(c, result.rulings).decisive
            if decisive:
                unseen[c.name] = decisive
    report_notes = [
        *([("rules not played in the armies shown, which can change what they are worth (their P(win) is "
            "played without them): " + "; ".join(f"{name}: {', '.join(rules)}" for name, rules in
                                                  unseen.items()))] if unseen else []),
        (f"tied with the best within the 95% interval of the difference: {'; '.join(tied)}: more trials "
         "(--precision) tell them apart" if tied else
         "no runner-up is tied with the best within the 95% interval of the difference"),
        "the best army is the best estimate among the armies played: a search, not a proof over every army "
        "unless the search line says exhaustive",
        *([f"left out (no army of it fits {spend.text}): {', '.join(result.left_out)}"]
          if result.left_out else []),
        *([f"the mix itself is uncertain: entries without a share whose share's 95% interval reaches "
           f"above 0: {', '.join(maybe)}; the P(win) against the mix takes the shares as estimated"]
          if maybe else []),
        *notes]
    armies_view = pd.DataFrame({
        "role": t.armies["role"], "army": t.armies["army"],
        unit: [f"{c:g}" for c in t.armies["cost"]], "unspent": [f"{u:g}" for u in t.armies["unspent"]],
        "P(win) vs mix": [_p(m, exact) for _, _, m, _, _ in _shown(result)],
        "P(win) vs field": [_p(f, exact) for _, _, _, f, _ in _shown(result)],
        "P(win) vs best": [_p(v, exact) for _, _, _, _, v in _shown(result)],
        "tied": ["yes" if x else "" for x in t.armies["tied_with_best"]]})
    best_list = t.lists[t.lists["role"] == "best"]
    list_view = pd.DataFrame({"entry": best_list["entry"], "units": best_list["units"],
                              f"{unit} each": [f"{c:g}" for c in best_list["cost_each"]],
                              unit: [f"{c:g}" for c in best_list["cost"]]})
    field_view = t.field.sort_values(["share", "best_p_win"], ascending=[False, True], kind="stable")
    field_view = pd.DataFrame({
        "entry": field_view["entry"], "units": field_view["units"],
        unit: [f"{c:g}" for c in field_view["cost"]],
        "share % [95%]": [f"{100 * v:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]" for v, lo, hi in
                          zip(field_view["share"], field_view["share_low"], field_view["share_high"],
                              strict=True)],
        "best army's P(win)": [eff.plus_minus(v, s, 3, exact) for v, s in
                               zip(field_view["best_p_win"], field_view["best_p_win_stderr"], strict=True)]})
    sections = [Section("armies", "The best army, the runners-up and the counters", t.armies),
                Section("lists", "Each army's units", t.lists),
                Section("field", f"The field: {result.field_phrase()}, their shares of the mix, the best "
                                 "army's P(win) against each", t.field),
                Section("metagame", "Meta-game of the field", result.metagame)]
    views = [Section("list", f"The army a sharp player brings: {best.army.cost:g} {unit}"
                             + (f" of {budget_text}" if same else f", in {budget_text}")
                             + f" ({unspent(best.army.unspent)})", list_view,
                     [f"P(win) {_p(best.mix, exact)} against the mix ({_trials_text(best.mix)}), "
                      f"{_p(best.field, exact)} against the field ({_trials_text(best.field)})"]),
             Section("armies", "The best army, the runners-up and the best counters (P(win), mean of both "
                               "roles)", armies_view),
             Section("field", f"The field: {result.field_phrase()}, its share of the mix and the best army's "
                              "P(win) against it", field_view)]
    facts = {"budget_amount": result.budget, "budget_unit": spend.unit, "kinds": result.kinds,
             "armies_played": result.best_search.played, "counters_played": result.counter_search.played,
             "engagements_played": result.engagements,
             "best_army": best.army.key, "best_cost": best.army.cost, "best_unspent": best.army.unspent,
             "p_win_mix": best.mix.value, "p_win_mix_stderr": best.mix.stderr,
             "p_win_field": best.field.value, "p_win_field_stderr": best.field.stderr}
    if counter is not None:
        facts.update({"counter_army": counter[0].key, "counter_p_win": counter[1].value,
                      "counter_p_win_stderr": counter[1].stderr})
    title = f"{rs.title}: the army a sharp player brings at {budget_text}"
    return Report(title, meta, sections, views, report_notes, facts, headline, terminal(views, unit))


def terminal(views: Sequence, unit: str):
    """The army report as a terminal shows it: the best army's list, then the best army and the runners-up
    (P(win) against the mix and the field) apart from the counters (P(win) against the best), an army's
    name never wrapped, each row one line (the cost and unspent columns left out when they do not fit);
    the field as it is."""
    from reports.formats import Section, Terminal, narrowed

    listed, armies, field = views
    table = armies.data
    countering = table["role"].astype(str).str.startswith("counter")
    ours = table[~countering].drop(columns=["P(win) vs best"])
    theirs = table[countering][["role", "army", unit, "P(win) vs best"]]
    lean = [c for c in ours.columns if c not in (unit, "unspent")]
    whole = ("army", "P(win) vs mix", "P(win) vs field", "P(win) vs best")  # an estimate never wrapped
    shown = [listed,
             narrowed(Section("armies", "The best army and the runners-up (P(win), mean of both roles)", ours,
                              whole=whole),
                      [list(ours.columns), [c for c in ours.columns if c != "unspent"], lean,
                       [c for c in lean if c != "P(win) vs field"]])]
    if len(theirs):
        shown.append(narrowed(Section("counters", "The best counters (P(win) against the best army, mean of "
                                                  "both roles)", theirs, whole=whole),
                              [list(theirs.columns), ["role", "army", "P(win) vs best"]]))
    return Terminal([], [*shown, field])
