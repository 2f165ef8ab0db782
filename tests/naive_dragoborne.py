"""Slow, obvious twin of ONE WHOLE Dragoborne game (seed 001), played die by die and card by card with the
standard ``random`` module.

It follows the specification in the docstring of ``rulesets/dragoborne/game.py`` step by step, die by die,
card by card, and was written from that text, the rulebook it cites (../shared/seeds/
001_1c5696b006866d5d.txt, "line N" below; TURN FLOW, lines 176-257, and the keyword abilities, lines
298-321) and ../shared/RULES.md §5, without the compiled kernel's code, so that the kernel
(rulesets/dragoborne/kernels.py) can be checked against it. From the library it takes only data: the
catalog's :class:`~rulesets.dragoborne.catalog.Card` and ``Deck`` entries and the
:class:`~rulesets.dragoborne.rules.DragoborneRulings` in force. "Spec setup N" and "spec step N" below are the
numbered items of game.py's "Setup" and "A turn" sections.

Randomness: only ``rng.random()`` is used (so any object with a ``random()`` method drives it): a die of N
faces shows ``int(rng.random() * N) + 1``; a shuffle is Fisher-Yates with ``int(rng.random() * (i + 1))``;
the first player is deck ``int(rng.random() * 2)``.

Representation (none of it is a rule):

* a deck and a fort's barriers are lists whose LAST element is the top card;
* a hand and a discard pile are lists of card indices (positions in the card table, spec "Indices");
* ``player.board[fort][slot]`` is a :class:`Creature` or None; "fort, slot order" walks it fort 0 slot 0,
  fort 0 slot 1, fort 1 slot 0, ...;
* a :class:`Die` is in one of four places: the Dice Zone (``ZONE``), a dragoshield before a fort
  (``SHIELD``), a dragocross die on a creature (``CROSS``) or the discard pile (``GONE``);
* resources are a list of colours (the three banners first, then resource cards) with a parallel list of
  rested flags.

Points where game.py's text can be read more than one way are marked ``# SPEC-AMBIGUITY:`` with the
reading taken (the most literal one that gives a playable game).

Single steps (:func:`stand_step`, :func:`dice_step`, :func:`draw_step`, :func:`resource_step`,
:func:`summon_step`, :func:`move_step`, :func:`assign_dice`, :func:`trick_step`, :func:`switch_step`,
:func:`combat_phase`, :func:`end_phase`, and
inside combat :func:`attack_options`, :func:`block_choice`, :func:`spring_ambush`, :func:`resolve_attack`,
:func:`destroy_dead`) take a
:class:`Game` and can be called on a hand-built one (:func:`blank_game`, :func:`put_creature`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: Game turns after which a game is a draw (game.py MAX_TURNS).
MAX_TURNS = 200
#: Cards kept at the End Phase (line 253).
HAND_LIMIT = 7
#: A shield candidate is taken when the die shows at least this (spec step 6).
SHIELD_MIN = 3
#: The mulligan returns creatures costing at least this (spec setup 2).
MULLIGAN_COST = 4
#: The opening hand (line 172).
OPENING_HAND = 5
#: Creature places: 2 at each of 3 forts (line 122).
FORTS, PER_FORT = 3, 2
#: Barriers on each fort (line 173).
BARRIERS_PER_FORT = 2
#: "Pay two resources of any color to place the card with the ambush ability face-down" (line 209).
AMBUSH_COST = 2
#: "white" in an icon: any colour (lines 15, 19, 282).
WHITE = "white"

# Where a die is.
ZONE, SHIELD, CROSS, GONE = "zone", "shield", "cross", "discarded"


# --- the state ------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Die:
    """One of a player's three dice (lines 147-149); die i has banner i's colour (spec setup 3)."""

    index: int
    colour: str
    value: int = 0  # current value: its roll; a dragoshield's after damage; 0 before its first roll
    base: int = 0  # a dragoshield's value when assigned (or rolled, under all-keep): shield-persist=false
    where: str = ZONE
    fort: int = -1  # a dragoshield's fort
    creature: Creature | None = None  # a dragocross die's creature


@dataclass(eq=False)
class Creature:
    """A creature on the board."""

    card: int
    fort: int
    slot: int
    rested: bool = False
    damage: int = 0  # accumulated this turn (line 243), removed at the End Phase (line 255)
    deadly_hit: bool = False  # dealt damage by a Deadly creature with ATK >= 1 this attack (line 312)
    cross: Die | None = None
    summoned_turn: int = 0  # the game turn it was summoned in
    pump_atk: int = 0  # +N/+0 spells cast on it this turn (spec step 6b), gone at the End Phase
    pump_edr: int = 0  # +0/+N spells


@dataclass(eq=False)
class Player:
    index: int  # which deck: 0 or 1
    banners: list[str]  # in the deck's catalog order: fort i and die i have banner i's colour
    deck: list[int] = field(default_factory=list)  # top = last
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    barriers: list[list[int]] = field(default_factory=lambda: [[] for _ in range(FORTS)])  # top = last
    dice: list[Die] = field(default_factory=list)
    shields: list[list[Die]] = field(default_factory=lambda: [[] for _ in range(FORTS)])  # oldest first
    board: list[list[Creature | None]] = field(
        default_factory=lambda: [[None] * PER_FORT for _ in range(FORTS)])
    ambush: list[int | None] = field(default_factory=lambda: [None] * FORTS)  # a card set face-down, by fort
    resources: list[str] = field(default_factory=list)  # colours: the banners, then resource cards
    rested: list[bool] = field(default_factory=list)  # parallel to resources
    resource_target: int = 1
    turns_taken: int = 0
    summoned: int = 0
    dice_lost: int = 0

    @property
    def fort_colours(self) -> list[str]:
        return self.banners


@dataclass(eq=False)
class Game:
    cards: list[Any]  # the card table (catalog Card objects)
    colours: list[str]
    rulings: Any  # DragoborneRulings
    players: list[Player]
    first: int
    rng: Any = None
    turn: int = 0  # the game turn being played (counts both players' turns from 1)
    winner: int | None = None
    end: str | None = None


class Stats(NamedTuple):
    """A creature's effective stats on the board (spec "Cards")."""

    atk: int
    edr: int
    deadly: bool
    invade: frozenset  # colours of forts it cannot be blocked at by creatures (line 320)
    assassin: frozenset  # colours of rested creatures it may attack (line 308)


# --- indices (spec "Indices") ---------------------------------------------------------------------------


def _plain(name: str) -> str:
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


def table_for(catalog, decks, extra=()) -> tuple[list, list[str]]:
    """(cards, colours): the distinct cards of the decks (and of ``extra`` replacement cards, given as
    Card objects or names), sorted by catalog key; and the sorted colours named by the decks' banners and
    the table's cards (spec "Indices")."""
    by_key = {}
    for deck in decks:
        for name, _ in deck.cards:
            card = catalog.card(name)
            by_key[card.key] = card
    for card in extra:
        card = catalog.card(card) if isinstance(card, str) else card
        by_key[card.key] = card
    cards = [by_key[k] for k in sorted(by_key)]
    named = set()
    for deck in decks:
        named.update(str(b).strip().lower() for b in deck.banners)
    for card in cards:
        named.add(card.colour)
        # SPEC-AMBIGUITY: "every colour named by ... the table's cards": a card's own colour only, or also
        # the colours its keywords (invade:green), dragocross bonuses and DICE X-Y name? Taken: all of them
        # but "white" (which names any colour, not a colour). The order of the real colours among
        # themselves is the same either way (a sorted list), and only that order (payment ties, spec step 5)
        # affects play.
        named.update(k.colour for k in card.keywords if k.colour)
        for bonus in card.dragocross:
            named.add(bonus.colour)
            named.update(k.colour for k in bonus.keywords if k.colour)
        for cond in card.dice:
            named.add(cond.colour)
            named.update(k.colour for k in cond.keywords if k.colour)
    named.discard(WHITE)
    return cards, sorted(named)


def deck_indices(deck, cards) -> list[int]:
    """The deck as card indices, one per copy (a deck line names a card by key or printed name)."""
    out = []
    for name, copies in deck.cards:
        wanted = _plain(name)
        index = next(i for i, c in enumerate(cards) if wanted in (_plain(c.key), _plain(c.name)))
        out += [index] * copies
    return out


# --- small helpers ----------------------------------------------------------------------------------------


def roll(rng, faces: int) -> int:
    """One die of ``faces`` faces, uniform on 1..faces (DG-die)."""
    return int(rng.random() * faces) + 1


def shuffle(rng, items: list) -> None:
    """Uniform shuffle in place (Fisher-Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def creatures(player: Player) -> list[Creature]:
    """The player's creatures in fort, slot order (spec "Indices")."""
    return [c for fort in player.board for c in fort if c is not None]


def total_barriers(player: Player) -> int:
    return sum(len(b) for b in player.barriers)


def on_board(player: Player, creature: Creature) -> bool:
    return player.board[creature.fort][creature.slot] is creature


def base_sum(game: Game, creature: Creature) -> int:
    """Base ATK + EDR, as spec step 5 compares creatures."""
    card = game.cards[creature.card]
    return card.atk + card.edr


def is_playable_creature(card) -> bool:
    """A creature with a cost ("-": not playable from hand, line 33)."""
    return card.type == "creature" and card.cost is not None


def counted_dice(game: Game, player: Player) -> list[Die]:
    """The dice that meet DICE X-Y (spec "Cards", line 282): DG-condition-dice ``any``: every die not
    discarded, at its current value; ``unassigned``: only dice in the Dice Zone."""
    if game.rulings.condition_dice == "unassigned":
        return [d for d in player.dice if d.where == ZONE]
    return [d for d in player.dice if d.where != GONE]


def stats(game: Game, player: Player, creature: Creature) -> Stats:
    """Effective stats (spec "Cards"): base ATK/EDR; if dragocrossed +1/+1 (line 217) plus the bonus for
    the crossing die's colour and the white bonus (line 19); plus every DICE X-Y met (line 282). Keywords
    gained add to the printed ones; trait conditions never match (no traits in the catalog)."""
    card = game.cards[creature.card]
    atk, edr = card.atk + creature.pump_atk, card.edr + creature.pump_edr
    keywords = list(card.keywords)
    if creature.cross is not None:
        atk += 1
        edr += 1
        for bonus in card.dragocross:
            if bonus.colour == WHITE or bonus.colour == creature.cross.colour:
                atk += bonus.atk
                edr += bonus.edr
                keywords += bonus.keywords
    if card.dice:
        dice = counted_dice(game, player)
        for cond in card.dice:
            if any((cond.colour == WHITE or d.colour == cond.colour) and cond.low <= d.value <= cond.high
                   for d in dice):
                atk += cond.atk
                edr += cond.edr
                keywords += cond.keywords
    deadly = any(k.name == "deadly" for k in keywords)
    invade = frozenset(k.colour for k in keywords if k.name == "invade" and k.colour)
    assassin = frozenset(k.colour for k in keywords if k.name == "assassin" and k.colour)
    return Stats(atk, edr, deadly, invade, assassin)


def kills(hitter: Stats, victim: Stats, victim_damage: int) -> bool:
    """Spec step 7: "kills B if it deals damage >= B's EDR - B's damage (or it is Deadly)"."""
    # SPEC-AMBIGUITY: the scoring's "(or it is Deadly)" does not repeat "with ATK >= 1"; the resolution
    # does ("a creature dealt damage by a Deadly creature with ATK >= 1 is destroyed", line 312: "creatures
    # with 0 ATK do not deal damage"). Taken: a Deadly creature with ATK 0 does not kill, so that the score
    # predicts the resolution (matters for a 0-ATK Deadly blocker; attackers have ATK >= 1).
    if hitter.atk < 1:
        return False
    return hitter.deadly or hitter.atk >= victim.edr - victim_damage


def remove_creature(game: Game, player: Player, creature: Creature) -> None:
    """A creature leaves play for the discard pile (destroyed, or discarded by a summon, line 205); its
    dragocross die follows DG-cross-die: back to its owner's Dice Zone at its value, or discarded."""
    player.board[creature.fort][creature.slot] = None
    player.discard.append(creature.card)
    die = creature.cross
    if die is not None:
        creature.cross = None
        die.creature = None
        if game.rulings.cross_die == "return":
            die.where = ZONE  # at its value (its roll)
        else:
            die.where = GONE
            player.dice_lost += 1


# --- setup (spec setup 1-4, lines 166-174) --------------------------------------------------------------


def draw_cards(player: Player, n: int) -> None:
    for _ in range(n):
        player.hand.append(player.deck.pop())


def mulligan(game: Game, player: Player, rng) -> None:
    """Spec setup 2 (line 172): return every spell, every card costing "-" and every creature costing
    MULLIGAN_COST or more; put them in the deck, shuffle, draw that many."""
    keep, back = [], []
    for index in player.hand:
        card = game.cards[index]
        if card.type == "spell" or card.cost is None or card.cost >= MULLIGAN_COST:
            back.append(index)
        else:
            keep.append(index)
    if not back:
        # A shuffle of a uniformly shuffled deck changes nothing; none returned, none drawn.
        return
    player.hand = keep
    player.deck += back
    shuffle(rng, player.deck)
    draw_cards(player, len(back))


def setup_player(game: Game, index: int, deck: list[int], banners: list[str], rng) -> Player:
    """Spec setup 1-4 for one player."""
    player = Player(index, list(banners))
    # SPEC-AMBIGUITY: "Resource target: the highest cost among the deck's playable creatures" (step 4):
    # the deck as listed (all its copies), not the cards left to draw. Taken: the deck list, fixed for the
    # game (the setup and regulations call the whole list "the deck"; step 3's "P's deck" is the pile).
    costs = [game.cards[i].cost for i in deck if is_playable_creature(game.cards[i])]
    player.resource_target = max([1, *costs])
    # 1. shuffled uniformly
    player.deck = list(deck)
    shuffle(rng, player.deck)
    # 2. five cards, then the mulligan
    draw_cards(player, OPENING_HAND)
    mulligan(game, player, rng)
    # 3. six barriers, two on each fort from left to right, from the top of the deck (line 173)
    for f in range(FORTS):
        for _ in range(BARRIERS_PER_FORT):
            # SPEC-AMBIGUITY (no effect on play's distribution): which of a fort's two barriers is its "top"
            # one is not said; taken: the second card placed lies on the first.
            player.barriers[f].append(player.deck.pop())
    # the three banners are resources (spec step 4: "3 banners + resource cards"); die i = banner i's colour
    player.resources = list(player.banners)
    player.rested = [False] * len(player.resources)
    # 4. dice in the Dice Zone, not rolled yet (value 0 meets no DICE X-Y, whose low is >= 1)
    player.dice = [Die(i, colour) for i, colour in enumerate(player.banners)]
    return player


# --- a turn (spec steps 1-8, lines 176-257) -------------------------------------------------------------


def stand_step(game: Game, player: Player) -> None:
    """Spec step 1 (line 182): P's creatures stand."""
    for creature in creatures(player):
        creature.rested = False
    # SPEC-AMBIGUITY: step 1 says "P's creatures stand" only, but step 5 pays with "unrested resources"
    # and nothing else ever stands a resource; line 182 stands "all of the turn player's cards". Taken:
    # P's resources (banners and resource cards) stand too, so that every resource pays once a turn.
    player.rested = [False] * len(player.resources)


def dice_step(game: Game, player: Player, rng) -> None:
    """Spec step 2 (line 186), DG-reroll-assigned; dice rolled in die order, each uniform on 1..DG-die."""
    faces = game.rulings.die
    mode = game.rulings.reroll_assigned
    for die in player.dice:
        if die.where == GONE:
            continue
        if mode == "unassigned-only":
            if die.where == ZONE:
                die.value = roll(rng, faces)
        elif mode == "all-keep":
            die.value = roll(rng, faces)
            if die.where == SHIELD:
                die.base = die.value  # its damage gone; shield-persist=false restores this value
            # a dragocross die stays on its creature at its new value
        elif mode == "all-return":
            if die.where == SHIELD:
                player.shields[die.fort].remove(die)
                die.fort = -1
            elif die.where == CROSS:
                die.creature.cross = None
                die.creature = None
            die.where = ZONE
            die.value = roll(rng, faces)
        else:
            raise ValueError(f"DG-reroll-assigned {mode!r}")


def draw_step(game: Game, player: Player) -> bool:
    """Spec step 3 (lines 8, 190): False if P's deck is empty (P loses by deck-out), else draw the top."""
    if not player.deck:
        return False
    player.hand.append(player.deck.pop())
    return True


def resource_step(game: Game, player: Player) -> None:
    """Spec step 4 (line 194): skipped on the first player's first turn (game turn 1); else the top card
    becomes a resource of its colour while the resources are fewer than the target and the deck has one."""
    if game.turn == 1:
        return
    if player.deck and len(player.resources) < player.resource_target:
        card = game.cards[player.deck.pop()]
        player.resources.append(card.colour)
        # SPEC-AMBIGUITY: whether the new resource is unrested is not said. Taken: it is (line 194 places it
        # "in reverse orientation", which is a resource's stand position, line 292), so it pays this turn.
        player.rested.append(False)


def unrested_by_colour(player: Player) -> Counter:
    return Counter(c for c, r in zip(player.resources, player.rested, strict=True) if not r)


def can_pay(player: Player, card) -> bool:
    """Line 202: unrested resources >= cost, and if cost >= 1 one unrested resource of the card's colour."""
    if card.cost is None:
        return False
    free = unrested_by_colour(player)
    if sum(free.values()) < card.cost:
        return False
    return card.cost == 0 or free[card.colour] >= 1


def _rest_one(player: Player, colour: str) -> None:
    for i, (c, r) in enumerate(zip(player.resources, player.rested, strict=True)):
        if c == colour and not r:
            player.rested[i] = True
            return
    raise AssertionError(f"no unrested {colour} resource")


def pay(game: Game, player: Player, card) -> None:
    """Spec step 5: one resource of its colour, then each further one from the colour with the most
    unrested resources (ties: the lower colour index)."""
    if card.cost == 0:
        return
    _rest_one(player, card.colour)
    for _ in range(card.cost - 1):
        free = unrested_by_colour(player)
        colour = min((c for c in free if free[c] > 0), key=lambda c: (-free[c], game.colours.index(c)))
        _rest_one(player, colour)


def opening(player: Player) -> tuple[int, int] | None:
    """Spec step 5: (fort, lowest free slot) for a new creature: among forts with an opening (fewer than 2
    creatures, line 122) that have barriers, the fewest creatures (ties: fewer barriers, then the lower
    fort); if none, the lowest destroyed fort with an opening; None if all six places are full."""
    def count(f):
        return sum(c is not None for c in player.board[f])

    open_forts = [f for f in range(FORTS) if count(f) < PER_FORT]
    standing = [f for f in open_forts if player.barriers[f]]
    if standing:
        fort = min(standing, key=lambda f: (count(f), len(player.barriers[f]), f))
    elif open_forts:
        fort = open_forts[0]
    else:
        return None
    return fort, player.board[fort].index(None)


def choose_summon(game: Game, player: Player) -> int | None:
    """Spec step 5: the card index of the creature to summon: among payable creatures in hand, the
    costliest (ties: higher base ATK + EDR, then the lower card index); None if none is payable."""
    payable = sorted({i for i in player.hand if is_playable_creature(game.cards[i])
                      and can_pay(player, game.cards[i])})
    if not payable:
        return None
    return min(payable, key=lambda i: (-game.cards[i].cost, -(game.cards[i].atk + game.cards[i].edr), i))


def summon_step(game: Game, player: Player) -> None:
    """Spec step 5 (lines 200-205): summon the chosen creature until none can be paid for, or the board is
    full and the chosen one is not stronger than P's weakest creature."""
    while True:
        index = choose_summon(game, player)
        if index is None:
            return
        card = game.cards[index]
        place = opening(player)
        if place is None:
            # all six places full: replace the weakest (lowest base ATK + EDR; ties: first in fort, slot
            # order) if the new one's base ATK + EDR exceeds it; it goes to the discard pile, not destroyed
            # (line 205), its dragocross die following DG-cross-die
            weakest = min(creatures(player), key=lambda c: base_sum(game, c))  # min keeps the first of ties
            if card.atk + card.edr <= base_sum(game, weakest):
                # SPEC-AMBIGUITY: the text pays before it checks a full board; whether a creature that is
                # then not summoned was paid for is not said. Taken: it is not paid and stays in hand (no
                # effect on play: nothing else spends resources this turn, and they stand next turn).
                return
            remove_creature(game, player, weakest)
            place = (weakest.fort, weakest.slot)
        pay(game, player, card)
        player.hand.remove(index)
        fort, slot = place
        # SPEC-AMBIGUITY: a summoned creature's orientation is not said; taken: it enters standing (it may
        # attack this turn unless DG-summoning-sickness=true, RULES.md §5, and may block next turn).
        player.board[fort][slot] = Creature(index, fort, slot, summoned_turn=game.turn)
        player.summoned += 1


def read_spell(card) -> tuple[str, list[int]] | None:
    """Spec step 5, Spells: (effect, its numbers) of a spell text the game reads, None for any other:
    "damage" [N], "splash" [N, M], "destroy" [N] (ATK N or less), "fort" [N, N instead or 0]."""
    if card.type != "spell":
        return None
    words = " ".join(card.text.lower().split())
    forms = [("damage", r"deal (\d+) damage to a creature\."),
             ("splash", r"deal (\d+) damage to a creature and (\d+) damage to each other creature at its "
                        r"fort\."),
             ("destroy", r"destroy a creature with atk (\d+) or less\."),
             ("fort", r"deal (\d+) damage to each creature at a fort\.")]
    for effect, pattern in forms:
        m = re.fullmatch(pattern, words)
        if m:
            return effect, [int(g) for g in m.groups()]
    return None


def immune_to(game: Game, creature: Creature, colour: str) -> bool:
    """Line 316: a creature with Immune of that colour (printed; white: any) is not chosen nor damaged."""
    return any(k.name == "immune" and k.colour in (colour, WHITE) for k in game.cards[creature.card].keywords)


def fort_damage(game: Game, player: Player, card) -> int:
    """A "fort" spell's damage: N, or the first "Deal N damage instead." DICE X-Y met by the caster's
    dice (as a creature's DICE X-Y is met, counted_dice)."""
    dice = counted_dice(game, player)
    for cond in card.dice:
        m = re.fullmatch(r"deal (\d+) damage instead\.", " ".join(cond.text.lower().split()))
        if m:
            if any((cond.colour == WHITE or d.colour == cond.colour) and cond.low <= d.value <= cond.high
                   for d in dice):
                return int(m.group(1))
            break
    return read_spell(card)[1][0]


def spell_hits(game: Game, player: Player, opponent: Player, index: int,
               target) -> list[tuple[Creature, int | None]]:
    """(creature, damage) pairs a spell deals at a target (a Creature; a fort number for "fort"); damage
    None: destroyed outright."""
    card = game.cards[index]
    effect, numbers = read_spell(card)
    if effect == "fort":
        n = fort_damage(game, player, card)
        return [(c, n) for c in opponent.board[target]
                if c is not None and not immune_to(game, c, card.colour)]
    if effect == "destroy":
        return [(target, None)]
    hits = [(target, numbers[0])]
    if effect == "splash":
        hits += [(c, numbers[1]) for c in opponent.board[target.fort]
                 if c is not None and c is not target and not immune_to(game, c, card.colour)]
    return hits


def spell_worth(game: Game, opponent: Player, hits) -> int:
    """Sum over the opposing creatures the hits destroy (damage + damage taken >= effective EDR, or
    destroyed outright) of 8 x cost ('-': 0) + 1."""
    worth = 0
    for creature, n in hits:
        if n is None or creature.damage + n >= stats(game, opponent, creature).edr:
            worth += 8 * max(game.cards[creature.card].cost or 0, 0) + 1
    return worth


def cast_step(game: Game, player: Player, opponent: Player) -> None:
    """Spec step 5, Spells (line 207), DG-spells=removal: while a payable removal spell destroys an
    opposing creature, cast the one of most worth (ties: cheaper, then lower card index) at its target of
    most worth (ties: the first in fort, slot order, or the lower fort), paid as a summon is."""
    if game.rulings.spells == "none":
        return
    if game.rulings.spells not in ("removal", "all"):
        raise ValueError(f"DG-spells {game.rulings.spells!r}")
    while True:
        best = None
        for index in sorted(set(player.hand)):
            card = game.cards[index]
            read = read_spell(card)
            if read is None or not can_pay(player, card):
                continue
            if read[0] == "fort":
                targets = list(range(FORTS))
            else:
                targets = [c for c in creatures(opponent) if not immune_to(game, c, card.colour)]
                if read[0] == "destroy":
                    targets = [c for c in targets if stats(game, opponent, c).atk <= read[1][0]]
            for target in targets:
                worth = spell_worth(game, opponent, spell_hits(game, player, opponent, index, target))
                key = (worth, -card.cost, -index)
                if worth > 0 and (best is None or key > best[0]):
                    best = (key, index, target)
        if best is None:
            return
        _, index, target = best
        hits = spell_hits(game, player, opponent, index, target)
        pay(game, player, game.cards[index])
        player.hand.remove(index)
        player.discard.append(index)
        for creature, n in hits:
            if n is None:
                remove_creature(game, opponent, creature)
            else:
                creature.damage += n
        destroy_dead(game)


def read_trick(card) -> tuple[str, int] | None:
    """Spec step 6b: ("atk", N) for "A creature gets +N/+0 until the end of the turn.", ("edr", N) for
    "+0/+N", ("ambush", N) for an Ambush spell "If this card is an ambush: when an opposing creature attacks
    this fort, it gets -N/-0 until the end of the battle.", ("ambusher", 0) for an Ambush creature "If this
    card is an ambush: when an opposing creature attacks this fort, summon this creature to it; it blocks
    that attack."; None for any other card."""
    words = " ".join(card.text.lower().split())
    ambush = any(k.name == "ambush" for k in card.keywords)
    if card.type == "creature":
        m = re.fullmatch(r"if this card is an ambush: when an opposing creature attacks this fort, "
                         r"summon this creature to it; it blocks that attack\.", words)
        return ("ambusher", 0) if m and ambush else None
    if card.type != "spell":
        return None
    m = re.fullmatch(r"a creature gets \+(\d+)/\+0 until the end of the turn\.", words)
    if m:
        return "atk", int(m.group(1))
    m = re.fullmatch(r"a creature gets \+0/\+(\d+) until the end of the turn\.", words)
    if m:
        return "edr", int(m.group(1))
    m = re.fullmatch(r"if this card is an ambush: when an opposing creature attacks this fort, it gets "
                     r"-(\d+)/-0 until the end of the battle\.", words)
    if m and ambush:
        return "ambush", int(m.group(1))
    return None


def may_attack(game: Game, creature: Creature) -> bool:
    """Spec step 7's attackers, before ATK: standing, and not summoned this turn under sickness."""
    sick = game.rulings.summoning_sickness and creature.summoned_turn == game.turn
    return not creature.rested and not sick


def trick_step(game: Game, player: Player, pumps: bool) -> None:
    """Spec step 6b (DG-spells=all): the pumps (only when ``pumps``: P has a combat phase this turn), then
    the ambushes. "Stand a creature in rest." is never cast (spec step 6b says why)."""
    if game.rulings.spells != "all":
        return
    for kind in (("atk", "edr") if pumps else ()):
        while True:
            cards = sorted(i for i in set(player.hand) if (read_trick(game.cards[i]) or ("",))[0] == kind
                           and can_pay(player, game.cards[i]))
            if not cards:
                break
            targets = [c for c in creatures(player) if may_attack(game, c)
                       and (c.pump_atk if kind == "atk" else c.pump_edr) == 0
                       and (kind == "atk" or stats(game, player, c).atk >= 1)]
            if not targets:
                break
            # max keeps the first of ties: fort, slot order
            target = max(targets, key=lambda c: stats(game, player, c).atk)
            index = cards[0]
            pay(game, player, game.cards[index])
            player.hand.remove(index)
            player.discard.append(index)
            n = read_trick(game.cards[index])[1]
            if kind == "atk":
                target.pump_atk += n
            else:
                target.pump_edr += n
    while sum(unrested_by_colour(player).values()) >= AMBUSH_COST:
        forts = [f for f in range(FORTS) if player.barriers[f] and player.ambush[f] is None]
        cards = sorted(i for i in set(player.hand) if (read_trick(game.cards[i]) or ("",))[0] in ("ambush",
                                                                                                    "ambusher")
                       and game.cards[i].colour in player.banners)
        if not forts or not cards:
            return
        fort = min(forts, key=lambda f: (len(player.barriers[f]), f))
        for _ in range(AMBUSH_COST):  # any colour: each from the colour with most unrested
            free = unrested_by_colour(player)
            _rest_one(player, min((c for c in free if free[c] > 0), key=lambda c: (-free[c],
                                                                                 game.colours.index(c))))
        player.hand.remove(cards[0])
        player.ambush[fort] = cards[0]


def move_step(game: Game, player: Player) -> None:
    """Spec step 5, Moves (line 226), DG-move ``guard`` and ``switch``: each creature at a fort with no
    barriers, in fort, slot order, moves to a fort with barriers and an opening (fewest creatures; ties:
    fewer barriers, then the lower fort; its lowest free slot); then each fort with barriers and no
    creature, in fort order, takes the creature in slot 1 of the lowest fort holding two. A creature keeps
    its damage, rest and dragocross die."""
    if game.rulings.move == "none":
        return
    if game.rulings.move not in ("guard", "switch"):
        raise ValueError(f"DG-move {game.rulings.move!r}")

    def count(f):
        return sum(c is not None for c in player.board[f])

    def move(creature, to, to_slot):
        player.board[creature.fort][creature.slot] = None
        player.board[to][to_slot] = creature
        creature.fort, creature.slot = to, to_slot

    stranded = [c for f in range(FORTS) if not player.barriers[f] for c in player.board[f] if c is not None]
    for creature in stranded:
        targets = [g for g in range(FORTS) if player.barriers[g] and count(g) < PER_FORT]
        if not targets:
            break
        to = min(targets, key=lambda g: (count(g), len(player.barriers[g]), g))
        move(creature, to, player.board[to].index(None))
    for f in range(FORTS):
        if player.barriers[f] and count(f) == 0:
            full = [g for g in range(FORTS) if count(g) == PER_FORT]
            if full:
                move(player.board[full[0]][1], f, 0)


def switch_step(game: Game, player: Player, attacks: bool) -> None:
    """Spec step 6c, Switches (line 226), DG-move=switch only: the stayers (the creatures spec step 7 will
    not list as attackers, so standing through O's next turn: all of them when P has no combat phase this
    turn, else those of effective ATK below 1 and, under DG-summoning-sickness=true, those summoned this
    turn) guard P's exposed forts: while there is one (barriers, no dragoshield, no stayer; the fewest
    barriers, ties: the lower fort), the spare stayer (at a fort with no barriers, with a dragoshield or
    with another stayer) of highest effective EDR (ties: fort, slot order) switches places with the
    creature in the exposed fort's slot 1, else in its slot 0, or moves to its slot 0 when it holds none."""
    if game.rulings.move != "switch":
        return
    sick = game.rulings.summoning_sickness
    stayers = [c for c in creatures(player)
               if not attacks or (sick and c.summoned_turn == game.turn) or stats(game, player, c).atk < 1]

    def held(f):
        return [c for c in player.board[f] if c is not None and c in stayers]

    while True:
        exposed = [f for f in range(FORTS) if player.barriers[f] and not player.shields[f] and not held(f)]
        spares = [c for c in creatures(player) if c in stayers and (
            not player.barriers[c.fort] or player.shields[c.fort] or len(held(c.fort)) == PER_FORT)]
        if not exposed or not spares:
            return
        to = min(exposed, key=lambda f: (len(player.barriers[f]), f))
        edr = max(stats(game, player, c).edr for c in spares)
        spare = next(c for c in spares if stats(game, player, c).edr == edr)
        slot = 1 if player.board[to][1] is not None else 0
        other = player.board[to][slot]
        player.board[spare.fort][spare.slot] = other
        player.board[to][slot] = spare
        if other is not None:
            other.fort, other.slot = spare.fort, spare.slot
        spare.fort, spare.slot = to, slot


def cross_gain(game: Game, creature: Creature, colour: str) -> int:
    """Spec step 6: (1 + bonus ATK) + (1 + bonus EDR) + 2 if the bonus gives Deadly; the bonus is the
    card's bonus for the die's colour plus its white bonus."""
    card = game.cards[creature.card]
    atk = edr = 0
    deadly = False
    for bonus in card.dragocross:
        if bonus.colour == WHITE or bonus.colour == colour:
            atk += bonus.atk
            edr += bonus.edr
            deadly = deadly or any(k.name == "deadly" for k in bonus.keywords)
    return (1 + atk) + (1 + edr) + (2 if deadly else 0)


def shield_candidate(game: Game, player: Player, die: Die) -> int | None:
    """Spec step 6: P's forts of the die's colour with barriers and no dragoshield (under
    DG-shield-stack=stack, if none: those with one); the one with the fewest barriers (ties: lower)."""
    forts = [f for f in range(FORTS) if player.fort_colours[f] == die.colour and player.barriers[f]]
    candidates = [f for f in forts if not player.shields[f]]
    if not candidates and game.rulings.shield_stack == "stack":
        # SPEC-AMBIGUITY: "those with one" read as "those with a dragoshield" (one or more), the pronoun
        # standing for "a dragoshield"; the other reading (exactly one shield) differs only with 3 dice of
        # one colour stacking on a single fort.
        candidates = [f for f in forts if player.shields[f]]
    if not candidates:
        return None
    return min(candidates, key=lambda f: (len(player.barriers[f]), f))


def cross_candidate(game: Game, player: Player, die: Die) -> Creature | None:
    """Spec step 6: P's creatures without a dragocross die; the one gaining most from this die (ties:
    higher base ATK, then the first in fort, slot order)."""
    best, best_key = None, None
    for creature in creatures(player):
        if creature.cross is not None:
            continue
        key = (cross_gain(game, creature, die.colour), game.cards[creature.card].atk)
        if best is None or key > best_key:
            best, best_key = creature, key
    return best


def assign_dice(game: Game, player: Player) -> None:
    """Spec step 6 (lines 210-217): each die in the Dice Zone once, by value from highest (ties: the lower
    die index): a dragoshield if there is a shield candidate and (value >= SHIELD_MIN or no cross
    candidate); else dragocross the cross candidate; else it stays in the Dice Zone."""
    order = sorted((d for d in player.dice if d.where == ZONE), key=lambda d: (-d.value, d.index))
    for die in order:
        fort = shield_candidate(game, player, die)
        target = cross_candidate(game, player, die)
        if fort is not None and (die.value >= SHIELD_MIN or target is None):
            die.where, die.fort, die.base = SHIELD, fort, die.value
            player.shields[fort].append(die)
        elif target is not None:
            die.where, die.creature = CROSS, target
            target.cross = die


# --- combat (spec step 7, lines 228-249, 306-321) -------------------------------------------------------


class Option(NamedTuple):
    """One attack an attacker may make: ``kind`` "shield", "block", "open" (a fort) or "assassinate";
    ``fort``: the fort attacked (the target's fort for an assassination); ``target``: the blocking Die or
    Creature (None when unblocked)."""

    score: int
    kind: str
    fort: int
    target: Any


def block_choice(game: Game, defender: Player, fort: int, attacker: Creature, attacker_stats: Stats):
    """O's block choice (spec step 7, line 238): among O's standing creatures at ``fort``, the first
    category present: (a) survives and kills the attacker; (b) survives; (c) kills the attacker and dies;
    (d) dies without killing, only if O has exactly 1 barrier left in all. Within a category the lowest
    cost (ties: the first in slot order). None: no block."""
    best, best_key = None, None
    for slot, blocker in enumerate(defender.board[fort]):
        if blocker is None or blocker.rested:
            continue
        b = stats(game, defender, blocker)
        survives = not kills(attacker_stats, b, blocker.damage)
        killer = kills(b, attacker_stats, attacker.damage)
        if survives and killer:
            category = 0
        elif survives:
            category = 1
        elif killer:
            category = 2
        elif total_barriers(defender) == 1:
            category = 3
        else:
            continue
        key = (category, game.cards[blocker.card].cost, slot)
        if best is None or key < best_key:
            best, best_key = blocker, key
    return best


def _fight_score(game, a_card, a_stats, attacker, t_card, t_stats, target, kill_live, kill_dead, no_kill_live,
                 no_kill_dead) -> int:
    a_kills = kills(a_stats, t_stats, target.damage)
    a_dies = kills(t_stats, a_stats, attacker.damage)
    if a_kills and not a_dies:
        return kill_live
    if a_kills:
        return kill_dead if t_card.cost >= a_card.cost else -1
    return no_kill_dead if a_dies else no_kill_live


def attack_options(game: Game, attacker_player: Player, defender: Player, attacker: Creature) -> list[Option]:
    """Every option of spec step 7, in the listed order (forts 0, 1, 2, then assassinations by fort, slot),
    scored against the board as it is now."""
    a_card = game.cards[attacker.card]
    a = stats(game, attacker_player, attacker)
    options = []
    for f in range(FORTS):
        if not defender.barriers[f]:
            continue
        if defender.shields[f]:
            shield = defender.shields[f][0]  # the oldest, under stack
            options.append(Option(40 if a.atk >= shield.value else 15, "shield", f, shield))
            continue
        blocker = None
        standing = any(c is not None and not c.rested for c in defender.board[f])
        if standing and defender.fort_colours[f] not in a.invade:
            blocker = block_choice(game, defender, f, attacker, a)
        if blocker is None:
            options.append(Option(100 - len(defender.barriers[f]), "open", f, None))
        else:
            b = stats(game, defender, blocker)
            score = _fight_score(game, a_card, a, attacker, game.cards[blocker.card], b, blocker,
                                 50, 20, 10, -10)
            options.append(Option(score, "block", f, blocker))
    if a.assassin:
        for target in creatures(defender):
            t_card = game.cards[target.card]
            if target.rested and t_card.colour in a.assassin:
                t = stats(game, defender, target)
                score = _fight_score(game, a_card, a, attacker, t_card, t, target, 60, 25, -10, -10)
                options.append(Option(score, "assassinate", target.fort, target))
    return options


def best_option(options: list[Option]) -> Option | None:
    """The best option if its score is > 0 (ties: the first listed), else None."""
    best = None
    for option in options:
        if best is None or option.score > best.score:
            best = option
    return best if best is not None and best.score > 0 else None


def resolve_attack(game: Game, attacker_player: Player, defender: Player, attacker: Creature,
                   option: Option, atk_loss: int = 0) -> None:
    """Spec step 7, Resolution (lines 238-246, 312); ``atk_loss``: an ambush's -N ATK for this attack."""
    a = stats(game, attacker_player, attacker)
    a = a._replace(atk=a.atk - atk_loss)
    attacker.rested = True
    if option.kind == "shield":
        die = option.target
        die.value -= max(a.atk, 0)  # ATK below 1 deals no damage (line 312)
        if die.value <= 0:  # destroyed, its die discarded (line 215); nothing reaches fort or attacker
            defender.shields[die.fort].remove(die)
            die.where, die.fort = GONE, -1
            defender.dice_lost += 1
    elif option.kind in ("block", "assassinate"):
        blocker = option.target
        b = stats(game, defender, blocker)
        blocker.rested = True
        # both deal their effective ATK at once; Deadly with ATK >= 1 destroys (line 312)
        blocker.damage += max(a.atk, 0)
        attacker.damage += b.atk
        if a.deadly and a.atk >= 1:
            blocker.deadly_hit = True
        if b.deadly and b.atk >= 1:
            attacker.deadly_hit = True
    elif option.kind == "open":
        if a.atk >= 1:  # exactly one barrier, whatever the ATK, to O's hand (lines 246, 288)
            defender.hand.append(defender.barriers[option.fort].pop())
    else:
        raise ValueError(option.kind)


def spring_ambush(game: Game, attacker_player: Player, defender: Player, attacker: Creature,
                  option: Option) -> tuple[Option, int]:
    """Spec step 7, Ambush (DG-spells=all): (the option as it resolves, the attacker's ATK lost). O plays
    its ambush at the fort attacked (not an assassination) unless the attacker is Immune to its colour;
    then, with no dragoshield there and no Invade for the fort's colour, O chooses its blocker again."""
    f = option.fort
    index = defender.ambush[f] if option.kind != "assassinate" else None
    if index is None or immune_to(game, attacker, game.cards[index].colour):
        return option, 0
    kind, loss = read_trick(game.cards[index])
    defender.ambush[f] = None
    if kind == "ambusher":
        # summoned to the fort: its lowest free slot, else in place of the one of lower base ATK + EDR (ties:
        # slot 1), discarded, not destroyed (line 205); it blocks, in place of a dragoshield too, unless the
        # attacker has Invade for the fort's colour (line 320)
        if None not in defender.board[f]:
            first, second = defender.board[f]
            weaker = first if base_sum(game, first) < base_sum(game, second) else second
            remove_creature(game, defender, weaker)
        slot = defender.board[f].index(None)
        creature = Creature(index, f, slot, summoned_turn=game.turn)
        defender.board[f][slot] = creature
        defender.summoned += 1
        if defender.fort_colours[f] in stats(game, attacker_player, attacker).invade:
            return option, 0
        return Option(option.score, "block", f, creature), 0
    defender.discard.append(index)
    if option.kind == "shield":
        return option, loss
    a = stats(game, attacker_player, attacker)
    a = a._replace(atk=a.atk - loss)
    blocker = None
    if defender.fort_colours[f] not in a.invade:
        blocker = block_choice(game, defender, f, attacker, a)
    if blocker is None:
        return Option(option.score, "open", f, None), loss
    return Option(option.score, "block", f, blocker), loss


def destroy_dead(game: Game) -> None:
    """After each attack (spec step 7): every creature whose accumulated damage >= its effective EDR (or
    dealt damage by a Deadly creature) is destroyed, repeated until none is."""
    while True:
        # SPEC-AMBIGUITY: "every creature ... is destroyed, repeated until none is": taken as passes, each
        # destroying at once every creature that meets it under the dice as they are at the start of the
        # pass (a die a destroyed creature frees can change another's DICE X-Y only in the next pass).
        dead = [(player, c) for player in game.players for c in creatures(player)
                if c.deadly_hit or c.damage >= stats(game, player, c).edr]
        if not dead:
            return
        for player, creature in dead:
            remove_creature(game, player, creature)


def combat_allowed(game: Game, player: Player) -> bool:
    """Spec step 7 (line 233), DG-first-turn: no combat on game turn 1, or on each player's first turn."""
    if game.rulings.first_turn == "game-turn-1":
        return game.turn != 1
    if game.rulings.first_turn == "each-player-first":
        return player.turns_taken > 1
    raise ValueError(f"DG-first-turn {game.rulings.first_turn!r}")


def combat_phase(game: Game, attacker_player: Player, defender: Player) -> None:
    """Spec step 7: attackers once each, by effective ATK at the start of combat from highest (ties: fort,
    slot order); each scores its options when its turn comes and takes the best one scoring > 0."""
    sick = game.rulings.summoning_sickness
    attackers = [(stats(game, attacker_player, c).atk, c) for c in creatures(attacker_player)
                 if not c.rested and not (sick and c.summoned_turn == game.turn)]
    attackers = [c for atk, c in sorted((x for x in attackers if x[0] >= 1), key=lambda x: -x[0])]  # stable
    for attacker in attackers:
        # skipped: destroyed or rested meanwhile, or whose effective ATK is now 0
        if not on_board(attacker_player, attacker) or attacker.rested:
            continue
        if stats(game, attacker_player, attacker).atk < 1:
            continue
        option = best_option(attack_options(game, attacker_player, defender, attacker))
        if option is None:
            continue  # does not attack, stays standing
        option, loss = spring_ambush(game, attacker_player, defender, attacker, option)
        resolve_attack(game, attacker_player, defender, attacker, option, loss)
        destroy_dead(game)


# --- end phase (spec step 8, lines 251-257) -------------------------------------------------------------


def discard_choice(game: Game, hand: list[int]) -> int:
    """Spec step 8: the card to discard: a spell if the hand holds one (highest card index), else a
    creature costing "-" (highest card index), else the costliest creature (ties: higher card index)."""
    spells = [i for i in hand if game.cards[i].type == "spell"]
    if spells:
        return max(spells)
    no_cost = [i for i in hand if game.cards[i].cost is None]
    if no_cost:
        return max(no_cost)
    return max(hand, key=lambda i: (game.cards[i].cost, i))


def end_phase(game: Game, player: Player, opponent: Player) -> bool:
    """Spec step 8: discard to 7 (line 253), remove all creature damage (line 255), restore shields under
    DG-shield-persist=false; True if the opponent has no barrier left (it loses, line 257)."""
    while len(player.hand) > HAND_LIMIT:
        index = discard_choice(game, player.hand)
        player.hand.remove(index)
        player.discard.append(index)
    for p in game.players:
        for creature in creatures(p):
            creature.damage = 0
            creature.deadly_hit = False
            creature.pump_atk = creature.pump_edr = 0
        if not game.rulings.shield_persist:
            for fort in p.shields:
                for die in fort:
                    die.value = die.base
    return total_barriers(opponent) == 0


# --- the game -------------------------------------------------------------------------------------------


def play_turn(game: Game) -> bool:
    """One game turn of the active player (spec steps 1-8); True if the game ended in it."""
    game.turn += 1
    active = game.first if game.turn % 2 == 1 else 1 - game.first
    player, opponent = game.players[active], game.players[1 - active]
    player.turns_taken += 1
    stand_step(game, player)
    dice_step(game, player, game.rng)
    if not draw_step(game, player):
        game.winner, game.end = opponent.index, "deck-out"
        return True
    resource_step(game, player)
    cast_step(game, player, opponent)
    summon_step(game, player)
    move_step(game, player)
    assign_dice(game, player)
    attacks = combat_allowed(game, player)
    trick_step(game, player, attacks)
    switch_step(game, player, attacks)
    if attacks:
        combat_phase(game, player, opponent)
    if end_phase(game, player, opponent):
        game.winner, game.end = player.index, "barriers"
        return True
    return False


def record(game: Game) -> dict:
    p0, p1 = game.players
    return {"winner": 2 if game.winner is None else game.winner, "first": game.first, "turns": game.turn,
            "end": game.end or "draw",
            "barriers": (total_barriers(p0), total_barriers(p1)),
            "summoned": (p0.summoned, p1.summoned), "dice_lost": (p0.dice_lost, p1.dice_lost)}


def play_game(cards, colours, deck0: list[int], banners0: list[str], deck1: list[int], banners1: list[str],
              rulings, rng) -> dict:
    """ONE whole game between deck 0 and deck 1 (lists of card indices, one per copy; banners in catalog
    order); the record dict: winner (0, 1, 2 a draw), first, turns, end ("barriers", "deck-out", "draw"),
    barriers, summoned and dice_lost (tuples by deck)."""
    # spec setup 1: the first player with probability 1/2 each (line 170)
    first = int(rng.random() * 2)
    game = Game(list(cards), list(colours), rulings, [], first, rng)
    game.players = [setup_player(game, 0, deck0, banners0, rng), setup_player(game, 1, deck1, banners1, rng)]
    while game.turn < MAX_TURNS:
        if play_turn(game):
            break
    return record(game)


def play_games(catalog, deck_a, deck_b, rulings, n: int, seed: int) -> list[dict]:
    """``n`` games of deck_a (deck 0) against deck_b (deck 1), Deck objects or names, on one
    ``random.Random(seed)``."""
    deck_a = catalog.deck(deck_a) if isinstance(deck_a, str) else deck_a
    deck_b = catalog.deck(deck_b) if isinstance(deck_b, str) else deck_b
    cards, colours = table_for(catalog, [deck_a, deck_b])
    d0, d1 = deck_indices(deck_a, cards), deck_indices(deck_b, cards)
    b0 = [str(b).strip().lower() for b in deck_a.banners]
    b1 = [str(b).strip().lower() for b in deck_b.banners]
    rng = random.Random(seed)
    return [play_game(cards, colours, d0, b0, d1, b1, rulings, rng) for _ in range(n)]


# --- hand-built states (for the tests) ------------------------------------------------------------------


def blank_game(cards, colours, banners0, banners1, rulings, first: int = 0, barrier_card: int = 0,
               rng=None) -> Game:
    """A game with empty decks, hands and boards, two barriers (``barrier_card``) on each fort, the
    banners as unrested resources and the dice in the Dice Zone, unrolled; turn 0."""
    game = Game(list(cards), list(colours), rulings, [], first, rng or random.Random(0))
    for index, banners in enumerate((banners0, banners1)):
        player = Player(index, list(banners))
        player.barriers = [[barrier_card] * BARRIERS_PER_FORT for _ in range(FORTS)]
        player.resources = list(banners)
        player.rested = [False] * len(banners)
        player.dice = [Die(i, c) for i, c in enumerate(banners)]
        game.players.append(player)
    return game


def put_creature(game: Game, owner: int, card: int, fort: int, slot: int | None = None, *,
                 rested: bool = False, damage: int = 0, summoned_turn: int = 0) -> Creature:
    """Place a creature on a hand-built board (lowest free slot unless given)."""
    player = game.players[owner]
    slot = player.board[fort].index(None) if slot is None else slot
    creature = Creature(card, fort, slot, rested=rested, damage=damage, summoned_turn=summoned_turn)
    player.board[fort][slot] = creature
    return creature


def put_shield(game: Game, owner: int, die: int, fort: int, value: int) -> Die:
    d = game.players[owner].dice[die]
    d.where, d.fort, d.value, d.base = SHIELD, fort, value, value
    game.players[owner].shields[fort].append(d)
    return d


def put_cross(game: Game, owner: int, die: int, creature: Creature, value: int) -> Die:
    d = game.players[owner].dice[die]
    d.where, d.creature, d.value = CROSS, creature, value
    creature.cross = d
    return d
