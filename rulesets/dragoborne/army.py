"""Dragoborne armies (`balance army dragoborne`): the deck a sharp player brings.

DECK REGULATIONS (seed 001 lines 143-149): "A deck consisting of 50 or more cards. (Not including banner
cards.) A deck may have up to 4 cards with the same card name. 3 dice. 3 banner cards with the same color
combination as your dice. ... A deck may include cards that do not match the color of the banner cards."

An army is a deck, made of entries of two kinds, each copy of a card one card of the deck:

- **a frame**: a catalog deck's spells and banners (one entry, taking as many cards as the deck holds
  spells). The search does not change them: the game casts spells by one fixed policy and a spell's worth
  is not measured (spells are no contestants), and the banners are the deck's dice.
- **creature cards** (the contestants), at most 4 copies of a name (line 146).

A deck is complete with one frame at exactly DECK_CARDS cards: "50 or more" is read as 50, since a card
beyond 50 only makes every other card less likely to be drawn (a reading, stated in the report). So the
search tunes a catalog deck's creatures: a neighbour swaps one creature card for another.

The field: each entry's home deck (contest.home_deck: the catalog deck it is measured in) as it stands,
each deck once. Two decks meet in the contests' game (rulesets/dragoborne/game.py, the same policies for
both), no card replaced: ``win_gain`` (the change one replacement card made) is 0 in an army engagement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.base import Contestant, RulesError

#: Cards of a deck the search builds, banners not counted (lines 145-146: "50 or more"; read as 50).
DECK_CARDS = 50
#: Copies of one card name a deck may hold (line 146).
MAX_COPIES = 4


@dataclass(frozen=True)
class Frame:
    """A catalog deck's spells and banners: the part of a deck the army search keeps."""

    deck: Any
    catalog: Any

    @property
    def spells(self) -> tuple[tuple[str, int], ...]:
        """The deck's cards that are not creatures, (key, copies) in key order."""
        return tuple((k, n) for k, n in sorted(self.deck.copies.items())
                     if not self.catalog.card(k).is_creature)

    @property
    def cards(self) -> int:
        return sum(n for _, n in self.spells)

    @property
    def creatures(self) -> dict[str, int]:
        """The deck's own creature cards, {key: copies}."""
        return {k: n for k, n in self.deck.copies.items() if self.catalog.card(k).is_creature}


def frame_contestant(deck: Any, catalog: Any) -> Contestant:
    """A catalog deck's frame as an entry of an army: its cost is its spells' printed costs (a card of
    cost "-" counting 0), as a creature's is its own."""
    frame = Frame(deck, catalog)
    cost = sum(n * (catalog.card(k).cost or 0) for k, n in frame.spells)
    name = f"{deck.name}'s {frame.cards} spells and banners"
    return Contestant(key=f"frame:{deck.key}", name=name, cost=float(cost), cost_unit="resources",
                      group="frame", play=(deck.key, frame.spells, tuple(deck.banners)),
                      labels=(("frame", deck.name),), illustrative=deck.is_illustrative, subject=frame)


def is_frame(contestant: Contestant) -> bool:
    return isinstance(contestant.subject, Frame)


def price(contestant: Contestant) -> int:
    """Cards of the deck one unit of ``contestant`` takes: a frame its spells, a creature card 1."""
    return contestant.subject.cards if is_frame(contestant) else 1


def check(force: Sequence[tuple[Contestant, int]]) -> None:
    """RulesError unless ``force`` is within a deck's limits: creature cards and at most one frame, at most
    MAX_COPIES of a card, at most DECK_CARDS cards."""
    frames = [c for c, _ in force if is_frame(c)]
    for c, n in force:
        if is_frame(c):
            if n != 1:
                raise RulesError(f"a deck holds {c.name} once, not {n} times")
            continue
        card = c.subject[0] if isinstance(c.subject, tuple) else None
        if card is None or not getattr(card, "is_creature", False):
            raise RulesError(f"{c.name} is no Dragoborne creature card")
        if n > MAX_COPIES:
            raise RulesError(f"a deck holds {n} copies of {c.name}: at most {MAX_COPIES} of a name "
                             "(line 146)")
    if len(frames) > 1:
        held = " and ".join(f.name for f in frames)
        raise RulesError(f"a deck holds {held}: one catalog deck's spells and banners (the search keeps one "
                         "deck's)")
    cards = sum(price(c) * n for c, n in force)
    if cards > DECK_CARDS:
        raise RulesError(f"a deck of {cards} cards is more than the {DECK_CARDS} the search builds (lines "
                         "145-146: 50 or more, read as 50)")


def incomplete(force: Sequence[tuple[Contestant, int]]) -> str | None:
    """Why ``force`` (within :func:`check`'s limits) is no deck yet: no frame, or fewer than DECK_CARDS."""
    if not any(is_frame(c) for c, _ in force):
        return "not a deck: no catalog deck's spells and banners (a deck has 3 banners, line 147)"
    cards = sum(price(c) * n for c, n in force)
    if cards != DECK_CARDS:
        return f"not a deck: {cards} cards, not {DECK_CARDS} (lines 145-146)"
    return None


def field_force(home: Any, catalog: Any, contestant_of) -> tuple[tuple[Contestant, int], ...]:
    """A catalog deck as an army: its frame, then its creature cards (``contestant_of(card)``), in key
    order."""
    frame = Frame(home, catalog)
    return ((frame_contestant(home, catalog), 1),
            *((contestant_of(catalog.card(k)), n) for k, n in sorted(frame.creatures.items())))


def name(force: Sequence[tuple[Contestant, int]]) -> str | None:
    """A deck named by its catalog deck and the creature cards it changes: ``Red Blaze -1 Ash Scout +1 Pyre
    Drake`` (``Red Blaze`` as it stands); None without a frame."""
    frames = [c.subject for c, _ in force if is_frame(c)]
    if len(frames) != 1:
        return None
    frame = frames[0]
    own = frame.creatures
    held = {c.subject[0].key: n for c, n in force if not is_frame(c)}
    changes = [(k, held.get(k, 0) - own.get(k, 0)) for k in sorted({*own, *held})]
    # the cards taken out first, then those put in
    out = [f"{d:+d} {frame.catalog.card(k).name}" for k, d in sorted(changes, key=lambda kd: kd[1] > 0) if d]
    return " ".join([frame.deck.name, *out])


def deck(force: Sequence[tuple[Contestant, int]], key: str) -> Any:
    """The catalog Deck of an army: its frame's banners and spells, its creature cards (each once, with its
    copies)."""
    import dataclasses

    frame = next(c.subject for c, _ in force if is_frame(c))
    cards = [*frame.spells, *((c.subject[0].key, n) for c, n in force if not is_frame(c))]
    return dataclasses.replace(frame.deck, key=key, name=name(force) or key, cards=tuple(sorted(cards)))


def frame_coverage(frame: Frame, spells: str):
    """Which of a frame's rules the game plays: its banners (the deck's dice) and the spells the DG-spells
    choice ``spells`` casts; not a spell it never casts (a dead card: decisive, the deck plays without it),
    nor a spell's Fort Burst (never played)."""
    from rulesets.base import Coverage
    from rulesets.dragoborne.simulate import CAST, spell_effect

    cast = CAST[spells]
    played, unplayed = [f"banners {'/'.join(frame.deck.banners)} (the deck's dice)"], []
    for k, n in frame.spells:
        card = frame.catalog.card(k)
        if spell_effect(card)[0] in cast:
            played.append(f"{card.name} x{n}")
        else:
            unplayed.append(f"{card.name} x{n} (never cast under DG-spells={spells}: a dead card)")
        if card.fort_burst:
            unplayed.append(f"{card.name}: Fort Burst (never played)")
    return Coverage(tuple(played), tuple(unplayed), tuple(unplayed))
