"""The balanced points table (`balance points`): the costs at which every entry is worth its points.

Each entry's cost is moved toward its fair cost, the contests are played again at the new costs, and so on:
a damped fixed-point iteration of cost -> fair cost. A new price changes how an entry plays (what a budget
buys, how often a Warbound character acts), so every step plays the field again; the fair costs of the
next step come from those contests, never from a formula.

- **Common random numbers.** An engagement's streams depend on the two entries' keys alone
  (:func:`reports.efficiency.engagement_seed`), so every step plays on the same dice: a change between two
  steps is the change of the costs, not noise. An engagement is not played again when its two sides play
  as before: at the same costs, or (Drakerys, Dragonbond: :meth:`rulesets.base.Ruleset.cost_play`) at costs
  that buy the same whole units, when its kept feature sums are weighed at the new costs, exactly as a
  replay would score it (:func:`reports.efficiency.played_as`, :class:`reports.efficiency.Played`).
- **Whole steps.** Costs move on the game's grid (:attr:`rulesets.base.Ruleset.cost_step`: Drakerys AP
  in 5s, Dragonbond points in 5s, Order tokens, Magic and resources in 1s), since the games price in whole
  steps and some play only whole ones; a move is at least one step.
- **What moves.** An entry moves while its fair cost (its point estimate) lies outside a tenth of the
  verdicts' band (``--tolerance``; AIM), so that it stays inside the band while the others settle; under
  the ``zero`` rule (a card valued against par) while its value lies outside the band itself (a move is a
  whole step, with no estimate of how far it goes). ``--fewest`` moves only the entries
  whose whole 95% interval is outside the band (called over- or under-costed), so the table changes as few
  entries as the evidence demands. An entry held by ``--fix``, an entry whose contest leaves out a rule that
  can change its value (``not measured``: its fair cost is only a lower bound) and an entry whose cost the
  rulebook fixes stay at today's cost; an entry whose cost is tied to another's (Warbound's Formation adds
  one token to its character's) moves with it.
- **Tied costs.** A tie moves by the mean of all its members' gaps, and only when that mean is more
  than half a step: a whole step must bring the members nearer fair together, not drag those already
  fair as far the other way (Warbound's character and its Formation card, whose worths differ by more or
  less than the one token between their costs, would otherwise swing back and forth to the limit).
- **How far.** The secant step on gap(cost) = fair cost - cost through the entry's last two steps (a
  dearer entry fields fewer units, so its fair cost falls: the slope is not 1), when it goes the gap's way
  and is not too long; else ``damping x gap`` (under the zero rule one step), the damping halved whenever
  the entry's direction turns, so that an overshoot comes back by less.
- **The range.** A cost stays within :meth:`rulesets.base.Ruleset.cost_bounds` (a step up to 4x today's,
  never above the budget). An entry whose fair cost lies beyond the range at its bound cannot be made fair
  in it, and the table says so on its row instead of iterating on.
- **Anchors.** Costs set a scale that the contests hardly see (every price doubled is nearly the same game
  at twice the budget), so entries fair among themselves may still drift off an anchor's (``--fix``)
  scale. When they are fair among themselves but the anchors' mean fair / cost is off by more than AIM of
  the band, every movable cost is scaled by it, and the iteration goes on.
- **When it stops.** Every movable entry within AIM of its band (converged); no cost can move; or the
  iteration limit. Where the moves together would lead back to costs already played, the entries move one
  at a time (furthest off first), and the iteration stops when every move leads back. The proposed table
  is the step with the fewest entries outside their bands (the latest among equals), and its contests give
  the proposed costs' fair costs, verdicts and meta-game. An entry still outside its band is played step
  by step further its way, the others as proposed, over the steps that buy the same (weighed anew, not
  played) to the first that plays anew: where it turns there, its fair cost lies between two steps (the
  contest jumps, e.g. where the budget buys one unit fewer), and its row says so.

The proposed table is a fixed point of this contest under these rulings, not a playtest: what the contests
do not play (the coverage) is not priced, and an illustrative catalog gives illustrative costs.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reports import efficiency as eff
from rulesets.base import Contestant, CostChange, RulesError, Ruleset, Rulings

DEFAULT_ITERATIONS = 8
DEFAULT_DAMPING = 0.5
#: The iteration aims at this share of the verdicts' band: a cost within its band but further off than this
#: still moves, so that the table stays fair while the other costs settle (each entry's fair cost depends on
#: the others' prices), and it stops once every entry is within it.
AIM = 0.1
HELD_BY_FIX = "held by --fix"
HELD_UNSEEN = "held: not measured"
FEWEST_TEXT = "; --fewest: only entries called over- or under-costed move"
#: A share of the equilibrium mix counted as "has a share" (the solver's zeros are exact to ~1e-12).
SHARE_FLOOR = 1e-6

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Step:
    """One step of the iteration: the costs played, the field at them and its ranking."""

    number: int
    costs: dict[str, float]
    field: eff.Field
    rank: pd.DataFrame
    #: keys of the movable entries whose fair cost (or, under the zero rule, value) is outside the band
    outside: tuple[str, ...]
    #: engagements played at this step (the others were kept from earlier steps)
    played: int
    #: keys of the movable entries outside AIM of their band: those the next step moves
    aiming: tuple[str, ...] = ()

    def row(self, key: str) -> pd.Series:
        return self.rank.loc[self.rank["key"] == key].iloc[0]


@dataclass(frozen=True)
class Tie:
    """Entries whose costs move together: a change of the first one's cost (the handle) moves every one by
    as much (Warbound: a character alone and in Formation, whose Formation adds one token)."""

    handle: str
    members: tuple[str, ...]


@dataclass
class Points:
    """A points run: today's costs, every step, the proposed step and each entry's status."""

    ruleset: Ruleset
    rulings: Rulings
    contestants: list[Contestant]
    seed: int
    tolerance: float | None
    damping: float
    limit: int
    fewest: bool
    steps: list[Step]
    proposed: Step
    stop: str
    held: dict[str, str]
    bounds: dict[str, tuple[float, float]]
    ties: list[Tie] = field(default_factory=list)
    #: per tie's handle: two costs one step apart, at the lower of which it is worth more and at the upper
    #: less, every other cost as proposed (no whole step is fair for it)
    between: dict[str, tuple[float, float]] = field(default_factory=dict)
    engagements: int = 0
    #: every entry at today's costs (the entries not measured too): today's verdicts, the efficiency field
    full: Step | None = None
    status: dict[str, str] = field(default_factory=dict)

    def tie_of(self, key: str) -> Tie | None:
        """The tie ``key`` belongs to when its cost moves with others' (None: it moves alone)."""
        return next((t for t in self.ties if key in t.members and len(t.members) > 1), None)

    def name(self, key: str) -> str:
        return next(c.name for c in self.contestants if c.key == key)

    @property
    def today(self) -> Step:
        return self.steps[0]

    @property
    def engagements_played(self) -> int:
        """Engagements played in all (each once: the steps and the checks further on)."""
        return self.engagements


def _outside(ruleset: Ruleset, field_: eff.Field, row: pd.Series, share: float = 1.0) -> bool:
    """Whether an entry's estimate lies outside ``share`` of the verdicts' band (never narrower than half a
    step of cost, the nearest a cost on the grid can come)."""
    if ruleset.fair_cost_rule.kind == "zero":
        pct = ruleset.default_tolerance if field_.tolerance is None else field_.tolerance
        return abs(row["value"]) > share * pct / 100.0
    fair, cost = row["fair_cost"], row["cost"]
    half = max(share * eff.band(ruleset, cost, field_.tolerance), ruleset.cost_step / 2)
    return not (math.isfinite(fair) and abs(fair - cost) <= half)


def _on_grid(x: float, step: float) -> float:
    return float(round(x / step) * step)


def _gap(ruleset: Ruleset, row: pd.Series, bounds: tuple[float, float]) -> float:
    """How far an entry is from fair, signed (> 0: worth more than its cost): its fair cost (within its
    range; the top of it when unbounded) minus its cost, or under the zero rule its value."""
    if ruleset.fair_cost_rule.kind == "zero":
        return float(row["value"])
    fair, low, high = row["fair_cost"], *bounds
    return (high if not math.isfinite(fair) else min(max(fair, low), high)) - float(row["cost"])


#: A secant move is used when it goes the gap's way and is at most this many times the gap (in cost; under
#: the zero rule, this many steps of cost): beyond it the two points give no trustworthy slope.
SECANT_MOST = 4.0


def _secant(ruleset: Ruleset, here: float, gap: float, before: tuple[float, float] | None) -> float | None:
    """The move that the line through this step's (cost, gap) and the tie's last one puts at gap 0: the
    secant method on gap(cost) = fair cost - cost, whose slope is not 1 where a price changes how an entry
    plays (a dearer entry fields fewer units, so its fair cost falls). None when it is not usable."""
    if before is None:
        return None
    there, gap_there = before
    if there == here or gap == gap_there:
        return None
    move = -gap * (here - there) / (gap - gap_there)
    most = SECANT_MOST * (ruleset.cost_step if ruleset.fair_cost_rule.kind == "zero" else abs(gap))
    if (move > 0) != (gap > 0) or abs(move) > most:
        return None
    return move


def _tie_gap(ruleset: Ruleset, tie: Tie, moving: Sequence[str], gaps: dict[str, float]) -> float | None:
    """How far a tie moves its members' costs (before damping), or None when it stays. A tie moves every
    member by the same step: by the mean of all its members' gaps, and only when a whole step brings them
    nearer fair together (|mean| more than half a step), so that a member off one way does not drag the
    others as far the other way, and back, step after step. Under the zero rule (values, not costs) the mean
    of the ``moving`` members' gaps."""
    if ruleset.fair_cost_rule.kind == "zero":
        return float(np.mean([gaps[k] for k in moving]))
    gap = float(np.mean([gaps[k] for k in tie.members]))
    return None if abs(gap) <= ruleset.cost_step / 2 else gap


def _on_grid_up(x: float, step: float) -> float:
    return float(math.ceil(x / step - 1e-9) * step)


def _on_grid_down(x: float, step: float) -> float:
    return float(math.floor(x / step + 1e-9) * step)


def _one_step_up(ruleset: Ruleset, catalog, c: Contestant):
    """The catalog with ``c``'s cost one step higher."""
    return ruleset.variant(catalog, (), [CostChange(c.key, c.cost + ruleset.cost_step)])


def _ties(ruleset: Ruleset, catalog, contestants: Sequence[Contestant], only: Sequence[str],
          held: dict[str, str]) -> list[Tie]:
    """The free costs of the field: each entry's cost changed alone, the entries whose cost follows it."""
    out, placed = [], set()
    for c in contestants:
        if c.key in placed or c.key in held:
            continue
        keys = {x.key for x in contestants}
        moved = [m for m in ruleset.contestants(_one_step_up(ruleset, catalog, c), only) if m.key in keys]
        members = tuple(m.key for m, was in zip(moved, contestants, strict=True) if m.cost != was.cost)
        if c.key not in members:  # pragma: no cover - a game whose variant ignores a cost
            raise RulesError(f"{c.key}: a change of its cost was not applied by the catalog")
        for m, was in zip(moved, contestants, strict=True):
            if m.key in members and abs(m.cost - was.cost - ruleset.cost_step) > 1e-9:
                raise RulesError(f"{m.key}: its cost follows {c.key}'s but not one for one; the points table "
                                 "moves tied costs by the same step")
        out.append(Tie(c.key, members))
        placed.update(members)
    return out


def _priced(ruleset: Ruleset, catalog, contestants: Sequence[Contestant], handles: dict[str, float],
            today: dict[str, float], only: Sequence[str]) -> list[Contestant]:
    """The contestants with each handle's cost set (a variant of the catalog with every changed cost)."""
    changes = [CostChange(key, cost) for key, cost in handles.items() if cost != today[key]]
    if not changes:
        return list(contestants)
    keys = {c.key for c in contestants}
    priced = [c for c in ruleset.contestants(ruleset.variant(catalog, (), changes), only) if c.key in keys]
    if [c.key for c in priced] != [c.key for c in contestants]:
        raise RulesError("a cost change changed which entries exist; the points table compares the same ones")
    return priced


def _holds(ruleset: Ruleset, catalog, contestants: Sequence[Contestant], rulings: Rulings,
           fix: Sequence[str]) -> dict[str, str]:
    """Why an entry keeps today's cost: --fix, not measured, or a cost the rules fix (the game refuses a
    change of it)."""
    keys = {c.key for c in contestants}
    names = {c.name.lower(): c.key for c in contestants}
    fixed = set()
    for text in fix:
        key = text.strip().lower()
        key = names.get(key, key)
        if key in keys:
            fixed.add(key)
            continue
        group = [c.key for c in contestants if c.group == key]
        if not group:
            raise RulesError(f"--fix {text!r}: no such entry in the field; entries: "
                             f"{', '.join(sorted(keys))}")
        fixed.update(group)
    held = {}
    for c in contestants:
        if c.key in fixed:
            held[c.key] = HELD_BY_FIX
            continue
        coverage = ruleset.coverage(c, rulings)
        if not coverage.measured:
            held[c.key] = (f"{HELD_UNSEEN} (its contest leaves out " + "; ".join(coverage.decisive)
                           + "), so its fair cost is only a lower bound; it is no opponent in the contests "
                             "that set the prices")
            continue
        try:
            ruleset.variant(catalog, (), [CostChange(c.key, c.cost + ruleset.cost_step)])
        except RulesError as exc:  # OptionError too
            held[c.key] = f"held: its cost is not free ({exc})"
    return held


def _tied_holds(ruleset: Ruleset, catalog, contestants: Sequence[Contestant], only: Sequence[str],
                held: dict[str, str]) -> dict[str, str]:
    """``held`` with every entry whose cost is tied to a held one held too (it cannot move alone)."""
    held = dict(held)
    for c in contestants:
        if c.key not in held or held[c.key].startswith("held: its cost is not free"):
            continue
        moved = ruleset.contestants(_one_step_up(ruleset, catalog, c), only)
        for m, was in zip(moved, contestants, strict=True):
            if m.key != c.key and m.cost != was.cost and m.key not in held:
                held[m.key] = f"held: its cost is tied to {c.name}'s ({held[c.key]})"
    return held


def propose(ruleset: Ruleset, catalog, rulings: Rulings, *, only: Sequence[str] = (), seed: int,
            precision: float | None, trials: int | None, threads: int | None = None,
            tolerance: float | None = None, fix: Sequence[str] = (), damping: float = DEFAULT_DAMPING,
            iterations: int = DEFAULT_ITERATIONS, fewest: bool = False,
            progress: Progress | None = None, meanwhile: Callable[[], object] | None = None,
            step_precision: float | None = None) -> Points:
    """Iterate cost -> fair cost from today's costs (see the module's docstring) and propose a table.

    ``step_precision``: the precision of the steps after today's field (default ``precision``; the site
    takes coarser steps, on the same streams, and says so)."""
    if not 0 < damping <= 1:
        raise RulesError(f"damping {damping:g} is not in (0, 1]")
    if iterations < 0:
        raise RulesError(f"iterations {iterations} is not >= 0")
    contestants = ruleset.contestants(catalog, only)
    if len(contestants) < 2:
        raise RulesError("a points table needs at least two entries")
    everyone = contestants
    today = {c.key: c.cost for c in contestants}
    held = _holds(ruleset, catalog, contestants, rulings, fix)
    held = _tied_holds(ruleset, catalog, contestants, only, held)
    bounds = {c.key: ruleset.cost_bounds(c, rulings) for c in contestants}
    # an entry whose contests leave out a rule that can change its value is not an opponent of the contests
    # that set the prices: what beating it is worth is unknown (its fair cost is a lower bound only)
    unseen = {k for k, why in held.items() if why.startswith(HELD_UNSEEN)}
    contestants = [c for c in everyone if c.key not in unseen]
    if len(contestants) < 2:
        raise RulesError("a points table needs at least two entries whose contests play every rule that can "
                         "change their value")
    ties = _ties(ruleset, catalog, contestants, only, held)
    grid = ruleset.cost_step
    known: dict = {}
    gains: dict[str, float] = {}  # each tie's damping, once halved
    turned: dict[str, bool] = {}  # each tie's last direction (True: up)
    last: dict[str, tuple[float, float]] = {}  # each tie's last (cost, gap), for the secant
    steps: list[Step] = []

    # progress counts engagements over every step, against the most the iteration can play
    cap = len(everyone) * (len(everyone) - 1) + len(contestants) * (len(contestants) - 1) * iterations

    def play(number: int, handles: dict[str, float], field: Sequence[Contestant] = contestants) -> Step:
        cs = _priced(ruleset, catalog, field, handles, today, only)
        before = len(known)
        counted = None if progress is None else (lambda k, _n: progress(min(before + k, cap), cap))
        coarse = precision if number == 0 or step_precision is None or precision is None else step_precision
        f = eff.play_field(ruleset, cs, rulings, seed=seed, precision=coarse, trials=trials,
                           threads=threads, tolerance=tolerance, reuse=known, progress=counted,
                           meanwhile=meanwhile if number == 0 else None)
        rank = eff.ranking(f)
        outside = tuple(r["key"] for _, r in rank.iterrows()
                        if r["key"] not in held and _outside(ruleset, f, r))
        # under the zero rule a move is a whole step of cost, with no estimate of how far it goes: an entry
        # within its band stays (a step would likely overshoot it)
        aim = 1.0 if ruleset.fair_cost_rule.kind == "zero" else AIM
        aiming = tuple(r["key"] for _, r in rank.iterrows()
                       if r["key"] not in held and _outside(ruleset, f, r, aim))
        return Step(number, {c.key: c.cost for c in cs}, f, rank, outside, len(known) - before, aiming)

    handles = {t.handle: today[t.handle] for t in ties}
    aim_text = "the whole" if ruleset.fair_cost_rule.kind == "zero" else f"{AIM:g}"
    # today's costs, every entry: the efficiency report's field and today's verdicts (the pricing field at
    # today's costs, its first step, is then played from what this one kept)
    full = play(0, handles, everyone)
    seen: set[tuple] = set()
    anchors = [k for k, why in held.items() if why == HELD_BY_FIX]
    stop = ""
    for number in range(iterations + 1):
        step = play(number, handles)
        if number == 0:  # its engagements were played with every entry's
            step = dataclasses.replace(step, played=full.played)
        steps.append(step)
        seen.add(tuple(handles.values()))
        scale = _anchor_scale(ruleset, step, anchors)
        if not step.aiming and scale is None:
            stop = (f"converged: every entry that can move is within {aim_text} of its band (fair within the "
                    f"tolerance) after {number} step{'s' if number != 1 else ''}")
            break
        if not step.aiming and number < iterations:
            # the entries that move are fair among themselves, but the anchors (--fix) are not: the whole
            # table is priced off their scale, so every movable cost is scaled by the anchors' fair / cost
            new = {h: min(max(_on_grid(c * scale, grid), _on_grid_up(bounds[h][0], grid)),
                          _on_grid_down(bounds[h][1], grid)) for h, c in handles.items()}
            if new != handles and tuple(new.values()) not in seen:
                handles = new
                continue
        if number == iterations:
            stop = (f"the iteration limit ({iterations} steps) came before every entry that can move was "
                    f"within {aim_text} of its band")
            break
        new = dict(handles)
        for tie in ties:
            rows = {k: step.row(k) for k in tie.members}
            if fewest:
                moving = [k for k in tie.members if k in step.aiming
                          and rows[k]["verdict"] in ("over-costed", "under-costed")]
            else:
                moving = [k for k in tie.members if k in step.aiming]
            if not moving:
                continue
            here = handles[tie.handle]
            gap = _tie_gap(ruleset, tie, moving, {k: _gap(ruleset, rows[k], bounds[k]) for k in tie.members})
            if gap is None:
                continue
            move = _secant(ruleset, here, gap, last.get(tie.handle))
            if move is None:
                # no usable secant yet: the damped move (each tie's damping halved whenever its direction
                # turns, so that an overshoot comes back by less); under the zero rule one step
                if tie.handle in turned and (gap > 0) != turned[tie.handle]:
                    gains[tie.handle] = gains.get(tie.handle, damping) / 2
                move = (math.copysign(grid, gap) if ruleset.fair_cost_rule.kind == "zero"
                        else gains.get(tie.handle, damping) * gap)
            turned[tie.handle] = gap > 0
            last[tie.handle] = (here, gap)
            move = math.copysign(_on_grid(abs(move), grid) or grid, gap)
            for k in tie.members:  # within every member's range
                low, high = bounds[k]
                cost = step.costs[k]
                move = (min(move, _on_grid_down(high, grid) - cost) if move > 0
                        else max(move, _on_grid_up(low, grid) - cost))
            new[tie.handle] = handles[tie.handle] + move
        if new != handles and tuple(new.values()) in seen:
            # the same costs again: move one tie at a time instead, the furthest off first, to a set of
            # costs not met before (both moving together can swing back and forth for ever)
            new = _one_at_a_time(handles, new, step, ties, held, seen)
        if new == handles:
            stop = ("no cost can move: every entry outside its band is at the end of its range, or every "
                    "move leads back to costs already played (its fair cost lies between two steps), or "
                    "a step of tied costs would take as many of them further off as it brings nearer" +
                    (", or it is not called over- or under-costed (--fewest)" if fewest else ""))
            break
        handles = new
    best = min(steps, key=lambda s: (len(s.outside), _spread(s, held), -s.number))
    confirmed = _confirm_between(ruleset, best, ties, bounds, play_near=lambda handles: play(-1, handles))
    points = Points(ruleset, rulings, everyone, seed, tolerance, damping, iterations, fewest, steps, best,
                    stop, held, bounds, ties, confirmed, full=full)
    points.engagements = len(known)
    points.status = _statuses(points)
    return points


def _anchor_scale(ruleset: Ruleset, step: Step, anchors: Sequence[str]) -> float | None:
    """The anchors' (entries held by --fix) mean fair / cost when it is off 1 by more than AIM of the band
    (None: on scale, no anchors, or a rule without fair costs)."""
    if not anchors or ruleset.fair_cost_rule.kind == "zero":
        return None
    rows = [step.row(k) for k in anchors]
    rows = [r for r in rows if r["measured"] and math.isfinite(r["fair_cost"]) and r["cost"] > 0]
    if not rows:
        return None
    ratio = float(np.mean([r["fair_cost"] / r["cost"] for r in rows]))
    cost = float(np.mean([r["cost"] for r in rows]))
    half = max(AIM * eff.band(ruleset, cost, step.field.tolerance), ruleset.cost_step / 2)
    return None if abs(ratio - 1.0) * cost <= half else 1.0 / ratio


def _one_at_a_time(handles: dict[str, float], new: dict[str, float], step: Step, ties: list[Tie],
                   held: dict[str, str], seen: set[tuple]) -> dict[str, float]:
    """One tie's move of ``new`` alone, the tie furthest off first, leading to costs not met before;
    ``handles`` (no move) when every one leads back."""
    def how_far(tie: Tie) -> float:
        off = [abs(step.row(k)["off_by"]) if step.row(k)["off_by"] == step.row(k)["off_by"]
               else abs(step.row(k)["value"]) for k in tie.members]
        return max(off)

    for tie in sorted((t for t in ties if new[t.handle] != handles[t.handle]), key=how_far, reverse=True):
        alone = {**handles, tie.handle: new[tie.handle]}
        if tuple(alone.values()) not in seen:
            return alone
    return handles


def _spread(step: Step, held: dict[str, str]) -> float:
    """How far the movable entries are off, in sum: |off_by| (or |value| under the zero rule)."""
    rank = step.rank[~step.rank["key"].isin(list(held))]
    off = rank["off_by"].abs()
    if off.isna().all():
        return float(rank["value"].abs().sum())
    return float(off.fillna(np.inf).sum())


def _fair_word(row: pd.Series) -> str:
    if row["off_by"] != row["off_by"]:
        return f"value {100 * row['value']:+.1f} pts"
    return f"off by {100 * row['off_by']:+.0f}%"


def _pulled_apart(points: Points, tie: Tie) -> bool:
    """Tied entries, some worth more and some less than their costs (outside their bands), or some outside
    their bands while the mean of all their gaps is within half a step (no step brings them nearer
    together: the iteration does not move such a tie)."""
    best, zero = points.proposed, points.ruleset.fair_cost_rule.kind == "zero"
    signs = set()
    for k in tie.members:
        if k in best.outside:
            row = best.row(k)
            signs.add(row["value"] > 0 if zero else (not math.isfinite(row["fair_cost"])
                                                     or row["fair_cost"] > row["cost"]))
    if len(signs) == 2:
        return True
    if zero or not signs or len(tie.members) < 2:
        return False
    gaps = {k: _gap(points.ruleset, best.row(k), points.bounds[k]) for k in tie.members}
    return _tie_gap(points.ruleset, tie, tie.members, gaps) is None


def _confirm_between(ruleset: Ruleset, best: Step, ties: list[Tie], bounds, play_near) -> dict:
    """Each tie still outside its band at the proposed step, played step by step of cost further its way,
    every other cost as proposed (only its own engagements are new): where it turns from worth more to
    worth less (or back), no whole step is fair for it. A step whose contests are those of the step before
    (the same units bought: nothing played, only weighed anew) leaves its members outside the same way,
    so the walk goes on to the first step that plays anew, and no further. Returns {handle: (lower cost,
    upper cost)} of those."""
    grid, zero = ruleset.cost_step, ruleset.fair_cost_rule.kind == "zero"
    out = {}

    def up(row) -> bool:
        if zero:
            return row["value"] > 0
        return not math.isfinite(row["fair_cost"]) or row["fair_cost"] > row["cost"]

    handles = {t.handle: best.costs[t.handle] for t in ties}
    for tie in ties:
        outside = [k for k in tie.members if k in best.outside]
        wants = {up(best.row(k)) for k in outside}
        if not outside or len(wants) != 1:
            continue
        d = grid if wants.pop() else -grid
        here = handles[tie.handle]
        for steps in itertools.count(1):
            if any(not (bounds[k][0] - 1e-9 <= best.costs[k] + steps * d <= bounds[k][1] + 1e-9)
                   for k in tie.members):
                break
            near = play_near({**handles, tie.handle: here + steps * d})
            if all(k in near.outside and up(near.row(k)) != (d > 0) for k in outside):
                last = here + (steps - 1) * d
                out[tie.handle] = (min(last, last + d), max(last, last + d))
                break
            if near.played or not all(k in near.outside and up(near.row(k)) == (d > 0) for k in outside):
                break
    return out


def _between(points: Points, key: str) -> str | None:
    """The status of an entry whose fair cost lies between two whole steps (confirmed where the contest
    jumps: :func:`_confirm_between`)."""
    tie = next((t for t in points.ties if key in t.members), None)
    if tie is None or tie.handle not in points.between:
        return None
    low, high = points.between[tie.handle]
    shift = points.proposed.costs[key] - points.proposed.costs[tie.handle]
    return (f"between two steps: worth more than its cost at {low + shift:g}, less at {high + shift:g} "
            f"{points.ruleset.cost_unit}, the others as proposed (no whole step is fair: its contest jumps "
            "there)")


def _statuses(points: Points) -> dict[str, str]:
    """Each entry's status in the proposed table."""
    rs, best = points.ruleset, points.proposed
    out = {}
    for c in points.contestants:
        key = c.key
        if key in points.held:
            out[key] = points.held[key]
            continue
        if key not in best.outside:
            out[key] = "fair"
            continue
        row = best.row(key)
        low, high = points.bounds[key]
        cost = best.costs[key]
        if rs.fair_cost_rule.kind == "zero":
            up = row["value"] > 0
        else:
            up = not math.isfinite(row["fair_cost"]) or row["fair_cost"] > cost
        if up and cost >= _on_grid_down(high, rs.cost_step):
            out[key] = (f"cannot be made fair in range: still worth more at {cost:g}, the top of its range "
                        f"({low:g}..{high:g} {rs.cost_unit})")
        elif not up and cost <= _on_grid_up(low, rs.cost_step):
            out[key] = (f"cannot be made fair in range: still worth less at {cost:g}, the bottom of its "
                        f"range ({low:g}..{high:g} {rs.cost_unit})")
        elif (tie := points.tie_of(key)) is not None and _pulled_apart(points, tie):
            others = ", ".join(f"{points.name(k)} {_fair_word(best.row(k))}" for k in tie.members)
            out[key] = (f"tied: its cost moves with {len(tie.members) - 1} other entr"
                        f"{'y' if len(tie.members) == 2 else 'ies'} by the same step, and no one step makes "
                        f"them all fair ({others}): what sets them apart is priced wrong")
        elif (between := _between(points, key)) is not None:
            out[key] = between
        elif points.fewest and row["verdict"] not in ("over-costed", "under-costed"):
            out[key] = f"not moved (--fewest): {row['verdict']}"
        else:
            out[key] = "not converged"
    return out


# --- the tables ------------------------------------------------------------------------------------------


def table(points: Points) -> pd.DataFrame:
    """One row per entry: today's cost and its verdict there, the proposed cost, its fair cost with the
    95% interval and off_by at the proposed cost, its verdict there, how far it moved, and its status."""
    today, best = points.full, points.proposed
    priced = set(best.costs)
    rows = []
    for c in points.contestants:
        t = today.row(c.key)
        p = best.row(c.key) if c.key in priced else t
        cost, new = float(t["cost"]), float(p["cost"])
        rows.append({
            **eff._labels(c), "key": c.key, "name": c.name, "cost_unit": c.cost_unit,
            "cost": cost, "verdict_today": t["verdict"], "fair_cost_today": t["fair_cost"],
            "proposed_cost": new, "moved": new - cost,
            "moved_fraction": (new - cost) / cost if cost else np.nan,
            "fair_cost": p["fair_cost"], "fair_cost_low": p["fair_cost_low"],
            "fair_cost_high": p["fair_cost_high"], "off_by": p["off_by"], "off_by_low": p["off_by_low"],
            "off_by_high": p["off_by_high"], "value": p["value"], "value_stderr": p["value_stderr"],
            "verdict": p["verdict"], "measured": bool(p["measured"]),
            "converged": points.status[c.key] == "fair", "status": points.status[c.key],
            "not_played": p["not_played"],
        })
    return pd.DataFrame(rows)


def history(points: Points) -> pd.DataFrame:
    """Every step: how many entries lay outside their band, how many engagements it played, and the cost of
    every entry (columns by key)."""
    rows = []
    for s in points.steps:
        rows.append({"step": s.number, "outside_band": len(s.outside), "engagements_played": s.played,
                     "proposed": s is points.proposed, **s.costs})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Mix:
    """The meta-game at one set of costs: how many entries have a share and how spread the mix is."""

    shares: pd.DataFrame
    with_share: int
    entropy_bits: float

    @property
    def effective_entries(self) -> float:
        """2^H: the number of equally shared entries with the same entropy."""
        return float(2.0 ** self.entropy_bits)


def mix(step: Step) -> Mix:
    table_, game = eff.meta_game(step.field)
    p = np.asarray(game.shares, float)
    pos = p[p > SHARE_FLOOR]
    entropy = float(-(pos * np.log2(pos)).sum()) if len(pos) else 0.0
    return Mix(table_, int(len(pos)), entropy)


# --- the report ------------------------------------------------------------------------------------------


def _cost(x: float, digits: int) -> str:
    return f"{x:.{digits}f}"


def _moved_text(row: pd.Series, digits: int) -> str:
    if row["moved"] == 0:
        return "—"
    pct = "" if row["moved_fraction"] != row["moved_fraction"] else f" ({100 * row['moved_fraction']:+.0f}%)"
    return f"{row['moved']:+.{digits}f}{pct}"


def _fair_view(row: pd.Series, rs: Ruleset, digits: int, exact: bool = False) -> str:
    bound = "" if row["measured"] else "≥ "
    if rs.fair_cost_rule.kind == "zero":
        if exact:
            return bound + f"{100 * row['value']:+.1f} pts"
        half = 100 * eff.Z95 * row["value_stderr"]
        d = 1 if half >= 0.05 else 2
        return bound + f"{100 * row['value']:+.{d}f} ± {half:.{d}f} pts"
    f, lo, hi = row["fair_cost"], row["fair_cost_low"], row["fair_cost_high"]
    if not math.isfinite(f):
        return bound + "∞"
    if exact:  # no Monte Carlo error: the interval is the value itself
        return bound + _cost(f, max(digits, 2))
    high = "∞" if not math.isfinite(hi) else _cost(hi, digits)
    return bound + f"{_cost(f, digits)} [{_cost(lo, digits)}, {high}]"


def _short_status(status: str) -> str:
    """The status column of the terminal view: its first clause (the notes give the whole)."""
    for cut in (" (", ":"):
        if cut in status and not status.startswith("not moved"):
            status = status.split(cut)[0]
    return status


def view(points: Points, rows: pd.DataFrame) -> pd.DataFrame:
    rs = points.ruleset
    digits = eff.cost_digits(rows["cost"])
    # costs on a whole step are shown whole; fair costs keep the decimals their size calls for
    whole = 0 if all(float(c).is_integer() for c in (*rows["cost"], *rows["proposed_cost"])) else digits
    value_rule = rs.fair_cost_rule.kind == "zero"
    exact = points.proposed.field.exact and points.full.field.exact
    return pd.DataFrame({
        "entry": rows["name"],
        "today": [_cost(c, whole) for c in rows["cost"]],
        "verdict today": rows["verdict_today"],
        "proposed": [_cost(c, whole) for c in rows["proposed_cost"]],
        "moved": [_moved_text(r, whole) for _, r in rows.iterrows()],
        ("value vs par" if value_rule else "fair cost") + ("" if exact else " [95%]"):
            [_fair_view(r, rs, digits, exact) for _, r in rows.iterrows()],
        "verdict": rows["verdict"],
        "status": [_short_status(s) for s in rows["status"]],
    })


def _mix_view(today: Mix, proposed: Mix, names: dict[str, str]) -> pd.DataFrame:
    def shares(m: Mix) -> dict[str, float]:
        return dict(zip(m.shares["key"], m.shares["share"], strict=True))

    a, b = shares(today), shares(proposed)
    keys = [k for k in proposed.shares["key"] if a.get(k, 0) > SHARE_FLOOR or b.get(k, 0) > SHARE_FLOOR]
    return pd.DataFrame({"entry": [names.get(k, k) for k in keys],
                         "share today %": [f"{100 * a.get(k, 0):.1f}" for k in keys],
                         "share proposed %": [f"{100 * b.get(k, 0):.1f}" for k in keys]})


def report(points: Points, *, provenance: list[tuple[str, str]], notes: Sequence[str] = (),
           rule: bool = False):
    """The points report: the proposed table first (CSV writes it), every step, the meta-game at today's and
    at the proposed costs."""
    from reports.formats import Report, Section

    rs = points.ruleset
    rows = table(points)
    steps = history(points)
    today_mix, proposed_mix = mix(points.today), mix(points.proposed)
    movable = len(points.contestants) - len(points.held)
    fair_today = sum(1 for k in rows["key"] if k not in points.held and k not in points.today.outside)
    fair_now = sum(1 for s in points.status.values() if s == "fair")
    moved = int((rows["moved"] != 0).sum())
    low, high = points.proposed.field.trial_range()
    f = points.proposed.field
    first = points.full.field.precision
    how = (f"until the 95% half-width of each engagement's win probability is below {f.precision:g}"
           + (f" (today's field below {first:g}; the steps coarser, on the same streams)"
              if first and first != f.precision else "")
           if f.precision else f"{f.trials:,} trials per engagement")
    method = f.method(f"Monte Carlo, seed {points.seed}, the same streams at every step: {how} "
                      f"({low:,} to {high:,} trials); ± and [ ] are 95% intervals")
    headline = [
        f"Proposed: {moved} of {len(rows)} costs changed; {fair_now} of {movable} entries that can move are "
        f"fair within the tolerance (today {fair_today}); {len(points.held)} held.",
        f"Stopped: {points.stop}. Proposed table = step {points.proposed.number} of {len(points.steps) - 1}.",
        f"Meta-game: {today_mix.with_share} {'entry' if today_mix.with_share == 1 else 'entries'} with a "
        f"share today (effective "
        f"{today_mix.effective_entries:.1f}), {proposed_mix.with_share} at the proposed costs (effective "
        f"{proposed_mix.effective_entries:.1f}).",
    ]
    meta = [*provenance,
            ("method", method),
            ("iteration", f"damped fixed point of cost → fair cost: each step moves every entry outside its "
                          f"band by {points.damping:g} × (fair − cost), rounded to whole {rs.cost_step:g} "
                          f"{rs.cost_unit} and at least one step, within its range; at most {points.limit} "
                          f"steps{FEWEST_TEXT if points.fewest else ''}"),
            ("contests", f"{rs.engagement}; every entry meets every other in both roles at each step; "
                         f"{points.engagements_played:,} engagements played in all "
                         f"({len(points.proposed.field.pairs):,} a step; one whose costs a step did not "
                         "change is kept, not played again)"),
            ("fair cost", rs.fair_cost_rule.description),
            ("verdict", eff.verdict_description(rs, points.tolerance)),
            ("range", "a cost stays between one step and 4× today's cost (at least 4 steps above it), never "
                      "above the budget"),
            ("meta-game", "the maximum-entropy Nash mix at today's and at the proposed costs; 'effective' "
                          "entries = 2^entropy (bits) of the mix")]
    held_notes = [f"{points.contestants[i].name}: {points.status[c.key]}"
                  for i, c in enumerate(points.contestants) if c.key in points.held]
    range_notes = [f"{c.name}: {points.status[c.key]}" for c in points.contestants
                   if points.status[c.key].startswith("cannot")]
    report_notes = [
        "what this is: a fixed point of this contest under these rulings, not a playtest; rules the contests "
        "do not play are not priced, and illustrative data gives illustrative costs",
        *(["held at today's cost: " + "; ".join(held_notes)] if held_notes else []),
        *(["cannot be balanced in range: " + "; ".join(range_notes)] if range_notes else []),
        *notes,
    ]
    sections = [Section("points", "The proposed points table", rows),
                Section("steps", "Every step (the costs played)", steps),
                Section("metagame_today", "Meta-game at today's costs", today_mix.shares),
                Section("metagame_proposed", "Meta-game at the proposed costs", proposed_mix.shares)]
    views = [Section("points", f"The proposed points table ({rs.cost_unit})", view(points, rows)),
             Section("steps", "Every step: entries outside their band",
                     steps[["step", "outside_band", "engagements_played", "proposed"]]),
             Section("metagame", "Meta-game: the equilibrium mix's shares",
                     _mix_view(today_mix, proposed_mix, {c.key: c.name for c in points.contestants}))]
    facts = {"entries": len(rows), "moved": moved, "fair_today": fair_today, "fair_proposed": fair_now,
             "held": len(points.held), "steps": len(points.steps) - 1,
             "proposed_step": points.proposed.number, "engagements_played": points.engagements_played,
             "with_share_today": today_mix.with_share, "with_share_proposed": proposed_mix.with_share,
             "entropy_bits_today": today_mix.entropy_bits, "entropy_bits_proposed": proposed_mix.entropy_bits}
    first: list = []
    if rule:
        try:
            fit = pricing_rule(points)
        except RulesError as exc:
            report_notes.append(f"pricing rule: not fitted: {exc}")
        else:
            tidy, shown, rule_notes = rule_sections(points, fit)
            sections += tidy
            views += shown
            report_notes += rule_notes[1:]
            facts.update({"rule_r2": fit.r2, "rule_rmse": fit.rmse, "rule_entries": fit.n})
            headline.insert(0, rule_answer(rs, fit))  # asked for: the answer, above the table's
            first = [rule_prices_terminal(shown[0], fit), *shown[1:]]
    title = f"{rs.title}: the balanced points table ({rs.cost_unit})"
    fair = "value vs par" if rs.fair_cost_rule.kind == "zero" else "fair cost"
    shown_views = views[:len(views) - len(first)] if first else views
    return (Report(title, meta, sections, views, report_notes, facts, headline,
                   terminal(shown_views, fair, first)), rows)


def terminal(views: Sequence, fair: str, first: Sequence = ()):
    """The points report as a terminal shows it: ``first`` (the pricing rule, when asked for), then the
    proposed table each row one line, within the width by leaving out first today's verdict, then the fair
    cost's interval (shown as ``fair`` alone), then the status; the other views as they are."""
    from reports.formats import Section, Terminal, narrowed

    table = views[0].data
    interval = next((c for c in table.columns if c.startswith(fair)), fair)
    shown = table
    if interval != fair:  # the estimate alone beside it: "4.74" of "4.74 [4.70, 4.79]"
        shown = table.copy()
        shown.insert(list(table.columns).index(interval) + 1, fair,
                     [t.split(" [")[0].split(" ± ")[0] for t in table[interval]])
    every = [c for c in table.columns if c != fair or interval == fair]
    short = [c if c != interval else fair for c in every if c != "verdict today"]
    choices = [every, [c for c in every if c != "verdict today"], short, [c for c in short if c != "status"]]
    points = narrowed(Section(views[0].name, views[0].title, shown, views[0].notes), choices,
                      [(interval, fair)])
    return Terminal([], [*first, points, *views[1:]])


#: What `points --save` and each site page write, with what each holds.
POINTS_FILES = (("points.csv", "the proposed points table: today's cost, the proposed cost, its fair cost "
                               "and verdict, its status (CSV)"),
                ("points.json", "the whole points report with its provenance and every step (JSON)"),
                ("points.md", "the whole points report (Markdown)"),
                ("points.png", "today's and the proposed costs with the fair cost's 95% interval (PNG)"))


def draw(rows: pd.DataFrame, ruleset: Ruleset) -> Callable:
    """What writes the before/after plot to a path."""
    def writer(path) -> None:
        from reports.plots import plot_points

        plot_points(rows, path, unit=ruleset.cost_unit,
                    title=f"{ruleset.title}: today's and the proposed costs")

    return writer


def write(ruleset: Ruleset, report_, rows: pd.DataFrame, out) -> None:
    """Stage the points report into ``out`` (an OutputSet or OutputSubset)."""
    from reports.formats import render

    out.write_text("points.csv", render(report_, "csv"))
    out.write_text("points.json", render(report_, "json"))
    out.write_text("points.md", render(report_, "markdown"))
    out.write_with("points.png", draw(rows, ruleset))


# --- the pricing rule -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PricingRule:
    """cost ~ sum(price_k x feature_k), fitted by least squares over the entries' fair costs at the proposed
    costs (or, where the game estimates no fair cost, their proposed costs)."""

    prices: pd.DataFrame  # feature, price, low, high (95%), stderr
    residuals: pd.DataFrame  # key, name, fair (what was fitted), rule (the rule's cost), residual, share
    n: int
    r2: float
    rmse: float
    fitted_on: str
    left_out: tuple[str, ...]
    #: The median profile a model is priced at (Ruleset.price_models): each centred stat's median per
    #: model over the fitted entries; empty when the game's features are not centred.
    profile: tuple[tuple[str, float], ...] = ()


def pricing_rule(points: Points) -> PricingRule:
    """The linear pricing rule over the proposed table (see :class:`PricingRule`), with 95% intervals from
    the t distribution on n - p degrees of freedom. RulesError when the game offers no features or the
    entries are too few for them."""
    from scipy import stats as st

    rs, best = points.ruleset, points.proposed
    zero = rs.fair_cost_rule.kind == "zero"
    keys, xs, ys, left_out = [], [], [], []
    names: list[str] | None = None
    for c in points.contestants:
        features = rs.price_features(c)
        if not features:
            raise RulesError(f"{rs.name} offers no pricing rule (its entries name no characteristics to fit)")
        if names is None:
            names = list(features)
        if c.key not in best.costs:  # not measured: no opponent of the pricing contests
            left_out.append(c.name)
            continue
        row = best.row(c.key)
        y = float(row["cost"]) if zero else float(row["fair_cost"])
        if not row["measured"] or not math.isfinite(y):
            left_out.append(c.name)
            continue
        keys.append(c.key)
        xs.append([float(features.get(n, 0.0)) for n in names])
        ys.append(y)
    x, y = np.array(xs), np.array(ys)
    profile = _centre(rs, names, x)
    n, p = x.shape
    if n <= p + 1:
        raise RulesError(f"the pricing rule needs more entries than its {p} features plus one; {n} entries "
                         "can be fitted")
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    fitted = x @ beta
    resid = y - fitted
    dof = n - p
    sigma2 = float(resid @ resid) / dof
    cov = sigma2 * np.linalg.pinv(x.T @ x)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    t = float(st.t.ppf(0.975, dof))
    prices = pd.DataFrame({"feature": names, "price": beta, "low": beta - t * se, "high": beta + t * se,
                           "stderr": se})
    total = float(((y - y.mean()) ** 2).sum())
    r2 = 1.0 - float(resid @ resid) / total if total > 0 else float("nan")
    name_of = {c.key: c.name for c in points.contestants}
    residuals = pd.DataFrame({"key": keys, "name": [name_of[k] for k in keys], "fitted": y, "rule": fitted,
                              "residual": resid,
                              "share": np.divide(resid, fitted, out=np.full_like(resid, np.nan),
                                                 where=np.abs(fitted) > 1e-9)})
    fitted_on = "the proposed costs" if zero else "the fair costs at the proposed costs"
    return PricingRule(prices, residuals, n, r2, float(np.sqrt(sigma2)), fitted_on, tuple(left_out),
                       profile)


def _centre(rs: Ruleset, names: list[str], x: np.ndarray) -> tuple[tuple[str, float], ...]:
    """Centre the per-model stats of ``x`` (in place) on the entries' median profile (Ruleset.price_models):
    each such column less its median per model times the models column, so that the models column prices a
    model of that profile. A linear change of the features: the fit, its R² and residuals do not change, nor
    do the stats' prices. Returns the profile, (stat, median per model) each."""
    if rs.price_models not in names or len(x) == 0:
        return ()
    models = x[:, names.index(rs.price_models)]
    if (models <= 0).any():
        return ()
    profile = []
    for stat in rs.price_per_model:
        if stat in names:
            j = names.index(stat)
            median = float(np.median(x[:, j] / models))
            x[:, j] -= median * models
            profile.append((stat, median))
    return tuple(profile)


def rule_sections(points: Points, rule: PricingRule):
    """The pricing rule's sections (tidy, and for reading) and its notes."""
    from reports.formats import Section

    rs = points.ruleset
    what = "proposed cost" if rs.fair_cost_rule.kind == "zero" else "fair cost"
    d = eff.cost_digits(rule.residuals["fitted"])
    unit = rs.cost_unit
    prices_view = pd.DataFrame({
        "feature": rule.prices["feature"],
        f"worth ({unit}) [95%]": [f"{v:.{max(d, 1)}f} [{lo:.{max(d, 1)}f}, {hi:.{max(d, 1)}f}]"
                                  for v, lo, hi in zip(rule.prices["price"], rule.prices["low"],
                                                       rule.prices["high"], strict=True)]})
    off = rule.residuals.reindex(rule.residuals["residual"].abs().sort_values(ascending=False).index)
    resid_view = pd.DataFrame({
        "entry": off["name"], what.split()[0]: [f"{v:.{d}f}" for v in off["fitted"]],
        "by the rule": [f"{v:.{d}f}" for v in off["rule"]],
        "priced off the rule": [f"{v:+.{d}f}" + ("" if s != s else f" ({100 * s:+.0f}%)") for v, s in
                                zip(off["residual"], off["share"], strict=True)]})
    centred = ("" if not rule.profile else
               f"; centred: {rs.price_models} prices a model of the entries' median profile ("
               + ", ".join(f"{stat} {median:g}" for stat, median in rule.profile)
               + "), each stat the points a model has above or below it")
    notes = [f"pricing rule: least squares over {rule.fitted_on} of {rule.n} entries, no intercept; R² "
             f"{rule.r2:.2f}, typical error {rule.rmse:.{d}f} {unit}; features: {rs.price_features_text}"
             f"{centred}",
             *([f"left out of the fit (not measured: a lower bound only): {', '.join(rule.left_out)}"]
               if rule.left_out else [])]
    tidy = [Section("rule", "The pricing rule", rule.prices), Section("rule_residuals", "Priced off the rule",
                                                                       rule.residuals)]
    views = [Section("rule", f"The pricing rule: what each characteristic is worth ({unit})", prices_view,
                     [notes[0]]),
             Section("rule_residuals", f"Priced off the rule ({what} minus the rule's cost)", resid_view)]
    return tidy, views, notes


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def rule_answer(rs: Ruleset, rule: PricingRule) -> str:
    """The pricing rule in a sentence: what one point of each characteristic whose 95% interval leaves out 0
    is worth, the largest first, each rounded to the digits its interval supports; the others named; the
    fit's R² and typical error."""
    from reports.tables import estimate_cells

    told, untold = [], []
    prices = rule.prices.reindex(rule.prices["price"].abs().sort_values(ascending=False, kind="stable").index)
    for _, p in prices.iterrows():
        if p["low"] > 0 or p["high"] < 0:
            cells = estimate_cells(p["price"], p["low"], p["high"])
            told.append((str(p["feature"]), " ".join(cells).rstrip()))
        else:
            untold.append(str(p["feature"]))
    def model(feature: str) -> bool:  # the centred models feature prices a model of the median profile
        return bool(rule.profile) and feature == rs.price_models

    def what(feature: str, first: bool) -> str:
        if model(feature):
            return "a model of the median profile"
        return f"one point of {feature}" if first else f"of {feature}"

    if told:
        (feature, price), *others = told
        # after "a model ... is worth", a stat reads "one point of X" again ("of X" follows a stat)
        worth = f"{what(feature, True)} is worth {price} {rs.cost_unit}" + "".join(
            f", {what(f, model(feature))} {p}" for f, p in others)
    else:
        worth = "no characteristic's price is told apart from 0"
    rest = f"; {_listed(untold)}: not told apart from 0 (95%)" if told and untold else ""
    return (f"Pricing rule: {worth}{rest}; fit R² {rule.r2:.2f} over {rule.n} entries, typical error "
            f"{rule.rmse:.2g} {rs.cost_unit}.")


def rule_prices_terminal(section, rule: PricingRule):
    """The pricing rule's prices as a terminal shows them: each rounded to the digits its 95% interval
    supports (the view for reading keeps the rule's cost digits)."""
    from reports.formats import Section
    from reports.tables import estimate_cells

    cells = [estimate_cells(v, lo, hi) for v, lo, hi in zip(rule.prices["price"], rule.prices["low"],
                                                             rule.prices["high"], strict=True)]
    heading = section.data.columns[1]
    frame = pd.DataFrame({"feature": rule.prices["feature"],
                          heading: [f"{v} {i}".rstrip() for v, i in cells]})
    return Section(section.name, section.title, frame, section.notes)


# --- which rulings matter ---------------------------------------------------------------------------------


def ruling_flips(rulings: Rulings) -> tuple[list[tuple[str, str]], list[str]]:
    """Every other accepted value of every ruling with a list of values ("a|b|c"), as (key, value); and
    the rulings left out (a number, or a value written as a pattern), to try by hand with --ruling."""
    flips, skipped = [], []
    for spec in rulings.specs():
        parts = [p.strip() for p in spec.accepted.split("|")] if "|" in spec.accepted else []
        values = []
        for part in parts:
            try:
                value = spec.parse(part)
            except (ValueError, TypeError):
                continue
            if value != getattr(rulings, spec.field) and part not in values:
                values.append(part)
        if values:
            flips += [(spec.key, v) for v in values]
        else:
            skipped.append(spec.key)
    return flips, skipped


@dataclass(frozen=True)
class RulingsStudy:
    """Each ruling flipped alone: the entries' fair costs and verdicts at today's costs against the
    baseline's (the first step of the points iteration under each reading)."""

    moves: pd.DataFrame  # ruling, value, key, name, fair_base, fair, move (fraction), verdict_base, verdict
    skipped: tuple[str, ...]
    baseline: eff.Field


def _move(base: pd.Series, flipped: pd.Series, zero: bool) -> tuple[float, float, float]:
    """How far a reading moves an entry (its ranking rows under the baseline and the reading) and a 95%
    interval that holds whatever the two runs' correlation: the value's difference ± 1.96 times the sum in
    quadrature of the standard errors (``zero`` rule), or the fair costs' ratio - 1 between the ends of
    their intervals (lowest over highest, highest over lowest); NaN where the baseline's fair cost is not a
    positive finite number. The runs share their dice, so the true interval is narrower."""
    if zero:
        move = float(flipped["value"] - base["value"])
        half = eff.Z95 * math.hypot(float(base["value_stderr"]), float(flipped["value_stderr"]))
        return move, move - half, move + half
    fb, lo_b, hi_b = (float(base[c]) for c in ("fair_cost", "fair_cost_low", "fair_cost_high"))
    f, lo, hi = (float(flipped[c]) for c in ("fair_cost", "fair_cost_low", "fair_cost_high"))
    if not (fb > 0 and math.isfinite(fb)):
        return (math.nan,) * 3
    if not lo_b > 0:  # the baseline's fair cost may be 0: the ratio is unbounded
        return f / fb - 1.0, -math.inf, math.inf

    def ratio(a: float, b: float) -> float:  # b > 0
        if math.isinf(a):
            return a
        return 0.0 if math.isinf(b) else a / b

    ends = [ratio(a, b) for a in (lo, hi) for b in (lo_b, hi_b)]
    move, low, high = f / fb - 1.0, min(ends) - 1.0, max(ends) - 1.0
    # a fair cost's interval need not hold its estimate (Fieller's, when the trade's denominator is near
    # 0): then nothing bounds the move
    return (move, low, high) if low <= move <= high else (move, -math.inf, math.inf)


def _move_cells(move: float, low: float, high: float) -> tuple[str, str]:
    """A move and its interval rounded as :func:`reports.tables.estimate_cells` does; an interval with an
    open end (a fair cost whose interval reaches 0 or ∞) with the move to whole units."""
    from reports.tables import estimate_cells

    if math.isfinite(low) and math.isfinite(high):
        return estimate_cells(move, low, high)

    def end(x: float) -> str:
        return "∞" if x == math.inf else "-∞" if x == -math.inf else f"{x:.0f}"

    return f"{move:.0f}", f"[{end(low)}, {end(high)}]"


def rulings_study(ruleset: Ruleset, catalog_for: Callable[[Rulings], object], rulings: Rulings, *,
                  only: Sequence[str] = (), seed: int, precision: float | None, trials: int | None,
                  threads: int | None = None, tolerance: float | None = None,
                  progress: Progress | None = None) -> RulingsStudy:
    """Flip each ruling alone (:func:`ruling_flips`) and play the field at today's costs under it, on the
    same dice: which entries' verdicts change and how far their fair costs (the first step of the points
    iteration) move. ``catalog_for(rulings)``: the catalog under those rulings."""
    flips, skipped = ruling_flips(rulings)
    fields = [("", "", rulings), *((k, v, rulings.with_assignments([f"{k}={v}"])) for k, v in flips)]
    total = [0]

    def counted(done: int, n: int) -> None:
        if progress is not None:
            progress(min(total[0] + done, n * len(fields)), n * len(fields))

    played = []
    for key, value, reading in fields:
        cs = ruleset.contestants(catalog_for(reading), only)
        f = eff.play_field(ruleset, cs, reading, seed=seed, precision=precision, trials=trials,
                           threads=threads, tolerance=tolerance, progress=counted)
        total[0] += len(f.pairs)
        played.append((key, value, f, eff.ranking(f).set_index("key")))
    base = played[0][3]
    zero = ruleset.fair_cost_rule.kind == "zero"
    rows = []
    for key, value, _, rank in played[1:]:
        for k in base.index:
            if k not in rank.index:
                continue
            b, r = base.loc[k], rank.loc[k]
            move, low, high = _move(b, r, zero)
            rows.append({"ruling": key, "value": value, "key": k, "name": b["name"],
                         "fair_base": b["fair_cost"], "fair": r["fair_cost"], "value_base": b["value"],
                         "value_flipped": r["value"], "move": move, "move_low": low, "move_high": high,
                         "verdict_base": b["verdict"], "verdict": r["verdict"],
                         "measured": bool(b["measured"] and r["measured"])})
    return RulingsStudy(pd.DataFrame(rows), tuple(skipped), played[0][2])


def rulings_report(study: RulingsStudy, ruleset: Ruleset, *, provenance: list[tuple[str, str]],
                   notes: Sequence[str] = ()):
    """Which rulings decide balance: per reading, the entries whose verdict changes and the largest moves
    of fair cost; the whole table ruling x entry (tidy) for CSV and JSON. The headline: the readings that
    move a fair cost beyond the tolerance, and those that change a verdict."""
    from reports.formats import Report, Section, Terminal, narrowed

    moves = study.moves
    zero = ruleset.fair_cost_rule.kind == "zero"
    # the band the verdicts use (--tolerance, else the game's): percent of the cost, or win-rate points
    tolerance = ruleset.default_tolerance if study.baseline.tolerance is None else study.baseline.tolerance
    lines, said = [], []
    for (key, value), group in moves.groupby(["ruling", "value"], sort=False):
        changed = group[group["verdict"] != group["verdict_base"]]
        size = group["move"].abs()
        worst = group.loc[size.idxmax()] if size.notna().any() else None
        if worst is None or size.max() == 0:
            biggest = "none"
        elif zero:
            biggest = f"{worst['name']} {100 * worst['move']:+.1f} pts"
        else:
            biggest = f"{worst['name']} {100 * worst['move']:+.0f}%"
        over = int((size > tolerance / 100).sum())
        # for a terminal: the entry and its move (percent, or win-rate points) with the interval's digits
        shown = ("", "", "") if biggest == "none" else (str(worst["name"]), *_move_cells(
            100 * worst["move"], 100 * worst["move_low"], 100 * worst["move_high"]))
        sign = "+" if worst is not None and worst["move"] > 0 else ""
        unit = " pts" if zero else "%"
        lines.append({"ruling": f"{key}={value}", "verdicts changed": len(changed),
                      "moved beyond the tolerance": over, "largest move": biggest,
                      "moved most": shown[0], "by": sign + shown[1] + unit if shown[1] else "",
                      "by [95%]": f"{sign}{shown[1]}{unit} {shown[2]}".rstrip() if shown[1] else ""})
        if len(changed):
            said.append(f"{key}={value}: " + "; ".join(f"{r['name']} {r['verdict_base']} → {r['verdict']}"
                                                       for _, r in changed.iterrows()))
    ordered = pd.DataFrame(lines)
    if len(ordered):
        ordered = ordered.sort_values(["verdicts changed", "moved beyond the tolerance"], ascending=False,
                                      kind="stable")
    wide = ["ruling", "verdicts changed", "moved beyond the tolerance", "largest move"]
    view = ordered[wide] if len(ordered) else ordered
    what = ("the value's move in win-rate points" if zero else
            "the move of its fair cost at today's costs, the first step of the points iteration")
    meta = [*provenance,
            ("method", study.baseline.method(f"Monte Carlo, seed {study.baseline.seed}, the same streams for "
                                             "every reading")),
            ("study", f"each ruling flipped alone to each other value it accepts; an entry's move is {what}")]
    report_notes = [*(f"verdicts changed by {line}" for line in said),
                    *([f"not flipped (a number, or a value given as a pattern: try it with --ruling): "
                       f"{', '.join(study.skipped)}"] if study.skipped else []), *notes]
    sections = [Section("rulings", "Each ruling flipped: every entry's move (tidy)", moves)]
    views = [Section("rulings", "Which rulings decide balance (most verdicts changed first)", view)]
    decisive = [line["ruling"] for line in lines if line["verdicts changed"]]
    limit = (f"{tolerance:g} point{'s' if tolerance != 1 else ''} of win rate" if zero
             else f"{tolerance:g}%")
    beyond = [line for line in sorted(lines, key=lambda line: -line["moved beyond the tolerance"])
              if line["moved beyond the tolerance"]]
    moving = (f"{len(beyond)} of {len(lines)} readings move an entry's {'value' if zero else 'fair cost'} by "
              f"more than {limit}" + (": " + _named([f"{line['ruling']} ({line['moved beyond the tolerance']}"
                                                      + (" entries)" if not n else ")")
                                                      for n, line in enumerate(beyond)]) if beyond else ""))
    by_changes = [line["ruling"] for line in sorted(lines, key=lambda line: -line["verdicts changed"])
                  if line["verdicts changed"]]
    headline = [f"{moving}; {len(decisive)} change a verdict"
                + (f": {_named(by_changes)}" if decisive else "") + "."]
    what = "value" if zero else "fair cost"
    terminal_view = ordered.drop(columns=["largest move"], errors="ignore").rename(
        columns={"moved beyond the tolerance": f"moved > {limit}"})
    shown = narrowed(Section(
        "rulings", "Which rulings decide balance (most verdicts changed first)", terminal_view,
        [f"moved > {limit}: the entries whose {what} the reading moves by more than that; moved most: the "
         f"entry it moves furthest, by how much, with a 95% interval that holds whatever the two runs' "
         f"correlation (they share their dice: the true one is narrower)"], whole=("ruling",)),
        [[c for c in terminal_view.columns if c != "by"],
         [c for c in terminal_view.columns if c != "by [95%]"]], [("by [95%]", "by")])
    return Report(f"{ruleset.title}: which rulings decide balance", meta, sections, views, report_notes,
                  {"readings": len(lines), "decisive": len(decisive)}, headline, Terminal([], [shown]))


#: How many names a headline lists before "and N more".
HEADLINE_NAMES = 3


def _named(names: Sequence[str]) -> str:
    """The first HEADLINE_NAMES of ``names``, and how many more ("a, b, c and 4 more")."""
    if len(names) <= HEADLINE_NAMES:
        return ", ".join(names)
    return f"{', '.join(names[:HEADLINE_NAMES])} and {len(names) - HEADLINE_NAMES} more"
