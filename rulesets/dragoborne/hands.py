"""Dragoborne (seed 001) opening hands, mulligans and early plays, computed exactly.

Line numbers are those of the rulebook text ``shared/seeds/001_1c5696b006866d5d.txt``.

A deck is described by its **curve**: how many cards cost 1, 2, 3, 4 and 5 or more (the five rows of the
recommended curve, lines 159-164: 10, 12, 10, 10, 8); cards with Ambush count as cost 2 (line 158). A hand
is a **profile**: how many of its cards fall in each of the five classes. Cards of one class are
interchangeable here, so a hand's profile is multivariate hypergeometric, and every quantity below is a sum
over the few hundred profiles of a five-card hand, never a simulation.

Readings of the text:

* Deck of 50 or more cards (line 145); a 5-card starting hand and one mulligan (line 172): "choose any
  number of cards from their hand, shuffle it back into their deck, then draw that many cards" - the
  returned cards are in the deck again when the replacements are drawn, so they can come back.
* Then 2 barriers from the top of the deck on each of the three forts (line 173): six random cards nobody
  sees. They, and the resource cards below, are cards of the shuffled deck that never reach the hand; the
  deck being shuffled, the cards that do reach the hand are a uniform draw without replacement from the deck
  less the hand, whatever lies between them.
* Resources. The three banners lie in the resource area (line 125: "Each of your three banners are placed
  in this area ... Resources gained during the game are also placed in this area"), stand and rest like
  other cards (line 292), and a player "may rely solely on [their] banner" for colours (line 157): the
  banners are resources. The Resource Step puts the top card of the deck into the resource area; it is
  optional, and the first player skips it on their first turn (line 194). The Stand Step stands all of the
  turn player's cards (line 182), so every resource pays again each turn. Resources on a player's turn
  ``t`` (the draw, line 190, and the Resource Step, line 194, both come before the Main Phase):
  ``banners + t - 1`` for the first player, ``banners + t`` for the second, the player always taking the
  optional resource (decided before the card is seen; more resources never hurt in turns 1-5). ``banners=0``
  gives the other reading (banners only name colours).
* Paying (line 202): rest as many resources as the cost, at least one of the card's colour. Modelled as a
  deck whose cards all match every resource (one colour). With banners as resources, one card is always
  payable colour-wise when its colour is a banner's; only two cards of one colour in a turn with a single
  banner of it (and no resource card of it) could fail, which this model ignores.
* Draw Step: one card every turn, the first player's first turn too (line 190, no exception).
* A card of the "5 or more" class is taken to cost exactly 5.
* Early play policy (a reading, stated in every report): each Main Phase the player plays the cards of
  largest total cost that the resources pay for (ties: fewer cards, then the costlier ones); creatures
  never block one another (a third creature at a fort discards one, line 205). End Phase: more than 7 cards
  in hand discard down to 7 (line 253), the costliest first. No combat: barriers reaching the hand (line
  246) are not counted.

Pure Python (``math.comb`` and ``fractions``): no scipy, so that the exact tables start fast.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rulesets.base import OptionError, RulesError
from rulesets.dragoborne.rules import (  # noqa: F401 (re-exported for the tables and tests)
    BANNERS,
    BARRIERS,
    CURVE_CLASSES,
    HAND,
    MIN_DECK,
    RECOMMENDED_CURVE,
)

Profile = tuple[int, ...]
Number = float | Fraction

#: The cost of each class; the last class is "5 or more" (line 164), taken as 5.
COSTS: Profile = (1, 2, 3, 4, 5)
CLASS_NAMES = CURVE_CLASSES
HAND_LIMIT = 7  # line 253
TURNS = 5

#: Mulligan strategies by name: what each sends back (line 172).
MULLIGANS: dict[str, str] = {
    "none": "keep the hand",
    "back2+": "send back every card of cost 2 or more",
    "back3+": "send back every card of cost 3 or more (the advice of line 172)",
    "back4+": "send back every card of cost 4 or more",
    "back5+": "send back every card of cost 5 or more",
    "curve": "keep one card of each cost 1, 2 and 3 if held; send back the rest (duplicates of costs 1-3, "
             "every card of cost 4 or 5+)",
    "all": "send back all five cards",
}


# --- validation -------------------------------------------------------------------------------------------


def validate_curve(curve: Sequence[int], deck: int | None = None, *, lenient: bool = False) -> Profile:
    """The curve as a tuple of five non-negative whole numbers summing to ``deck`` (their sum when None),
    a deck of at least 50 cards (line 145) unless ``lenient`` (then at least the 5-card hand, line 172).
    An OptionError naming the values when they are no curve (a count missing, negative or not whole, a sum
    that is not the deck's), a RulesError when the deck breaks the deck regulations."""
    values = tuple(curve)
    shown = ",".join(str(v) for v in values)
    if len(values) != len(COSTS):
        raise OptionError(f"curve {shown} has {len(values)} counts; it needs {len(COSTS)}: the cards of cost "
                          f"1, 2, 3, 4 and 5+")
    for name, v in zip(CLASS_NAMES, values, strict=True):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise OptionError(f"curve {shown}: the count of cost {name}, {v!r}, is not a whole number")
        if v < 0:
            raise OptionError(f"curve {shown}: the count of cost {name} is negative ({v})")
    values = tuple(operator.index(v) for v in values)
    total = sum(values)
    if deck is None:
        deck = total
    elif isinstance(deck, bool) or not hasattr(deck, "__index__"):
        raise OptionError(f"deck {deck!r} is not a whole number of cards")
    deck = operator.index(deck)
    if total != deck:
        raise OptionError(f"curve {shown} sums to {total} cards, not the deck's {deck}")
    if deck < MIN_DECK and not lenient:
        raise RulesError(f"deck {deck} has fewer than the {MIN_DECK} cards a deck needs (line 145); "
                         f"lenient allows it")
    if deck < HAND:
        raise RulesError(f"deck {deck} has fewer cards than the {HAND}-card hand (line 172)")
    return values


def _strategy(mulligan: str | Callable[[Profile], Profile]) -> Callable[[Profile], Profile]:
    if callable(mulligan):
        return mulligan
    if mulligan not in MULLIGANS:
        raise RulesError(f"mulligan {mulligan!r} is not one of {', '.join(MULLIGANS)}")
    return lambda hand: returned(mulligan, hand)


def returned(mulligan: str, hand: Profile) -> Profile:
    """The profile of the cards that strategy ``mulligan`` (a key of MULLIGANS) sends back from ``hand``."""
    if mulligan == "none":
        return (0,) * len(hand)
    if mulligan == "all":
        return tuple(hand)
    if mulligan == "curve":
        return tuple(h - min(h, 1) if c <= 3 else h for c, h in zip(COSTS, hand, strict=True))
    if mulligan in MULLIGANS and mulligan.startswith("back"):
        k = int(mulligan[4:-1])
        return tuple(h if c >= k else 0 for c, h in zip(COSTS, hand, strict=True))
    raise RulesError(f"mulligan {mulligan!r} is not one of {', '.join(MULLIGANS)}")


# --- multivariate hypergeometric profiles -------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _compositions(n: int, caps: Profile) -> tuple[Profile, ...]:
    """Every profile of ``n`` cards with at most ``caps[i]`` in class i."""
    if not caps:
        return ((),) if n == 0 else ()
    head, rest = caps[0], caps[1:]
    room = sum(rest)
    return tuple((k, *tail) for k in range(max(0, n - room), min(head, n) + 1)
                 for tail in _compositions(n - k, rest))


@lru_cache(maxsize=4096)
def draw_weights(deck: Profile, n: int) -> tuple[tuple[Profile, int], ...]:
    """Each profile of ``n`` cards drawn from a deck of profile ``deck``, with its number of card sets
    (prod of C(deck_i, k_i)); the weights sum to C(sum(deck), n)."""
    out = []
    for k in _compositions(n, deck):
        w = 1
        for d, x in zip(deck, k, strict=True):
            w *= math.comb(d, x)
        out.append((k, w))
    return tuple(out)


def _ratio(num: int, den: int, exact: bool) -> Number:
    return Fraction(num, den) if exact else num / den


def _plus(a: Profile, b: Profile) -> Profile:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _minus(a: Profile, b: Profile) -> Profile:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def dealt_distribution(curve: Sequence[int], *, lenient: bool = False, exact: bool = False
                       ) -> dict[Profile, Number]:
    """P(the 5-card starting hand has each profile) (line 172), before any mulligan."""
    deck = validate_curve(curve, lenient=lenient)
    total = math.comb(sum(deck), HAND)
    return {k: _ratio(w, total, exact) for k, w in draw_weights(deck, HAND)}


def opening_distribution(curve: Sequence[int], mulligan: str | Callable[[Profile], Profile] = "none", *,
                         lenient: bool = False, exact: bool = False) -> dict[Profile, Number]:
    """P(the hand after the mulligan has each profile).

    For each starting profile h, the strategy sends back a profile b <= h (line 172); those cards are
    shuffled into the deck, and |b| cards are drawn from the deck less the kept cards, h - b, returned cards
    included. ``mulligan`` is a key of MULLIGANS or a function from a hand profile to the profile sent back.
    """
    deck = validate_curve(curve, lenient=lenient)
    send = _strategy(mulligan)
    n = sum(deck)
    total = math.comb(n, HAND)
    out: dict[Profile, Number] = {}
    redraws: dict[Profile, list[tuple[Profile, int, int]]] = {}
    for hand, w in draw_weights(deck, HAND):
        back = tuple(send(hand))
        if len(back) != len(hand) or any(b < 0 or b > h for b, h in zip(back, hand, strict=True)):
            raise RulesError(f"mulligan sends back {back} from a hand of {hand}: not a part of the hand")
        m = sum(back)
        if m == 0:
            out[hand] = out.get(hand, 0) + _ratio(w, total, exact)
            continue
        kept = _minus(hand, back)
        if kept not in redraws:
            den = math.comb(n - HAND + m, m)
            redraws[kept] = [(_plus(kept, r), wr, den) for r, wr in draw_weights(_minus(deck, kept), m)]
        for final, wr, den in redraws[kept]:
            out[final] = out.get(final, 0) + _ratio(w * wr, total * den, exact)
    return out


def p_mulligan(curve: Sequence[int], mulligan: str | Callable[[Profile], Profile], *, lenient: bool = False,
               exact: bool = False) -> tuple[Number, Number]:
    """(P(the strategy sends back at least one card), the expected number of cards sent back)."""
    send = _strategy(mulligan)
    p, mean = 0, 0
    for hand, q in dealt_distribution(curve, lenient=lenient, exact=exact).items():
        m = sum(send(hand))
        p += q if m else 0
        mean += q * m
    return p, mean


# --- questions about a hand distribution --------------------------------------------------------------------


def count_distribution(dist: dict[Profile, Number], classes: Sequence[int]) -> list[Number]:
    """P(the hand holds exactly j cards of the class indices ``classes``), j = 0..5."""
    out: list[Number] = [0] * (HAND + 1)
    for k, p in dist.items():
        out[sum(k[i] for i in classes)] += p
    return out


def p_holding(dist: dict[Profile, Number], classes: Sequence[int], at_least: int = 1) -> Number:
    """P(the hand holds at least ``at_least`` cards of the class indices ``classes``)."""
    return sum(count_distribution(dist, classes)[at_least:])


def mean_holding(dist: dict[Profile, Number], classes: Sequence[int]) -> Number:
    """The expected number of cards of the class indices ``classes`` in the hand."""
    return sum(j * p for j, p in enumerate(count_distribution(dist, classes)))


def classes_up_to(cost: int) -> list[int]:
    """The class indices of the cards costing ``cost`` or less (the 5+ class counted as 5)."""
    return [i for i, c in enumerate(COSTS) if c <= cost]


# --- early plays --------------------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def best_play(hand: Profile, resources: int) -> tuple[int, Profile]:
    """(resources spent, profile played): the cards of ``hand`` with the largest total cost that
    ``resources`` pay for (line 202); among equal totals the fewest cards, then the costliest ones."""
    best_key, best = (0, 0, ()), (0, (0,) * len(hand))
    for play, spent in _plays(hand, resources, len(hand) - 1):
        if spent == 0:
            continue
        costs = tuple(COSTS[i] for i in reversed(range(len(play))) for _ in range(play[i]))
        key = (spent, -len(costs), costs)
        if key > best_key:
            best_key, best = key, (spent, play)
    return best


def _plays(hand: Profile, budget: int, last: int) -> Iterator[tuple[Profile, int]]:
    """Every (profile p <= hand in classes 0..last, zero above, its cost) costing at most ``budget``."""
    if last < 0:
        yield (0,) * len(hand), 0
        return
    c = COSTS[last]
    for x in range(min(hand[last], budget // c) + 1):
        for play, spent in _plays(hand, budget - x * c, last - 1):
            yield play[:last] + (x,) + play[last + 1:], spent + x * c


def discard_to_limit(hand: Profile, limit: int = HAND_LIMIT) -> Profile:
    """The hand after the End Phase discard down to ``limit`` cards (line 253), the costliest first."""
    extra = sum(hand) - limit
    out = list(hand)
    for i in reversed(range(len(out))):
        if extra <= 0:
            break
        gone = min(out[i], extra)
        out[i] -= gone
        extra -= gone
    return tuple(out)


@lru_cache(maxsize=65536)
def _main_and_end(hand: Profile, resources: int, limit: int = HAND_LIMIT) -> tuple[int, Profile]:
    """(resources spent by :func:`best_play`, the hand after it and the End Phase discard)."""
    spent, played = best_play(hand, resources)
    return spent, discard_to_limit(_minus(hand, played), limit)


def resources_on(turn: int, first: bool, banners: int = BANNERS) -> int:
    """Resources on the player's own turn ``turn`` (1-based): the banners (line 125) and one resource card
    a turn, the first player skipping the first (line 194)."""
    return banners + (turn - 1 if first else turn)


@dataclass(frozen=True)
class TurnPlay:
    """One of a player's early turns (its Main Phase), exact under the policy of the module docstring.

    Attributes:
        turn: the player's own turn, 1-based.
        resources: resources standing (banners and resource cards).
        mean_hand: expected cards in hand at the start of the Main Phase.
        p_play: P(the hand holds a card the resources pay for).
        p_full: P(the best play spends every resource); 1 when there are none.
        mean_spent: expected resources spent this turn.
        mean_spent_total: expected resources spent on turns 1..turn.
    """

    turn: int
    resources: int
    mean_hand: Number
    p_play: Number
    p_full: Number
    mean_spent: Number
    mean_spent_total: Number


def cards_needed(turns: int, first: bool) -> int:
    """Cards the deck must hold to play ``turns`` turns: hand, barriers, draws and resource cards."""
    return HAND + BARRIERS + turns + (turns - 1 if first else turns)


def early_play(curve: Sequence[int], mulligan: str | Callable[[Profile], Profile] = "back3+", *,
               first: bool = True, turns: int = TURNS, banners: int = BANNERS, lenient: bool = False,
               exact: bool = False) -> list[TurnPlay]:
    """The player's turns 1..``turns``, exact: a Markov chain over (profile of every card that reached the
    hand, profile of the hand), starting from the hand after the mulligan (:func:`opening_distribution`).

    Each turn one card is drawn (line 190) from the deck less the cards that reached the hand, each class
    with probability proportional to the cards of it left: the barriers (line 173) and the resource cards
    (line 194) are unseen random cards of the shuffled deck, so they change nothing in law. Then
    :func:`best_play` with :func:`resources_on` resources, then the discard to 7 (line 253).
    """
    deck = validate_curve(curve, lenient=lenient)
    n = sum(deck)
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise RulesError(f"turns {turns!r} is not a whole number >= 1")
    if isinstance(banners, bool) or not isinstance(banners, int) or banners < 0:
        raise RulesError(f"banners {banners!r} is not a whole number >= 0")
    need = cards_needed(turns, first)
    if n < need:
        raise RulesError(f"deck {n} is too small for {turns} turns: the hand, {BARRIERS} barriers, the draws "
                         f"and the resource cards take {need}")
    states: dict[tuple[Profile, Profile], Number] = {
        (k, k): p for k, p in opening_distribution(deck, mulligan, lenient=True, exact=exact).items()}
    classes = range(len(COSTS))
    out, spent_total = [], 0
    for turn in range(1, turns + 1):
        drawn: dict[tuple[Profile, Profile], Number] = {}
        for (seen, hand), p in states.items():
            left = n - sum(seen)
            for i in classes:
                r = deck[i] - seen[i]
                if r:
                    key = (seen[:i] + (seen[i] + 1,) + seen[i + 1:], hand[:i] + (hand[i] + 1,) + hand[i + 1:])
                    drawn[key] = drawn.get(key, 0) + p * _ratio(r, left, exact)
        resources = resources_on(turn, first, banners)
        states = {}
        mean_hand = p_play = p_short = mean_spent = 0
        for (seen, hand), p in drawn.items():
            spent, after = _main_and_end(hand, resources)
            mean_hand += p * sum(hand)
            mean_spent += p * spent
            if spent:
                p_play += p
            # "pay its cost by resting the same number of resources as the value stated on the card"
            # (line 202): every resource is spent when none stands unrested, so with no resources
            # (banners=0, the first player's turn 1, line 194) spending 0 of 0 is full.
            if spent < resources:
                p_short += p
            if turn < turns:
                key = (seen, after)
                states[key] = states.get(key, 0) + p
        spent_total += mean_spent
        p_full = 1 - p_short  # a complement, so that a certain full spend is exactly 1 in floats too
        if not exact:  # sums of floats may pass 1 by an ulp or two
            p_play, p_full = min(p_play, 1.0), min(max(p_full, 0.0), 1.0)
        out.append(TurnPlay(turn, resources, mean_hand, p_play, p_full, mean_spent, spent_total))
    return out
