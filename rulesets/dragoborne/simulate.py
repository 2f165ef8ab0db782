"""Dragoborne games by Monte Carlo: the card tables the kernel reads, runs of games, and their summaries.

The game is rulesets/dragoborne/game.py's (its docstring is the specification); rulesets/dragoborne/kernels.py
plays it. A run is simcore.runner's records run: game t draws from the stream (seed, t) alone, so the
result is bit-identical for any thread count, and two runs of the same seed meet the same shuffles and
dice until their decks differ (common random numbers).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from rulesets.base import OptionError, RulesError
from rulesets.dragoborne import kernels as K
from rulesets.dragoborne.catalog import Card, Catalog, Deck
from rulesets.dragoborne.rules import ANY_COLOUR, DragoborneRulings
from simcore import runner

#: What the game does not model (game.py's "Cards"): stated in every report of a simulated game.
NOT_MODELLED = (
    "spells are never cast under DG-spells=none (they are held in hand); DG-spells=removal "
    "casts the removal spells the game reads (damage to a creature, with splash at its fort, to each "
    "creature at a fort, destroy ATK N or less) at opposing creatures, in the Main Phase before summoning, "
    "while one destroys an opposing creature (the most opposing cost first); other spells (pump, stand, "
    "Ambush) are never cast under removal; DG-spells=all (the default) also casts the pumps (+N/+0, +0/+N "
    "until the end of the turn) on the creatures that may attack, highest ATK first, one of a kind each, "
    "and sets the Ambush spell (-N/-0 to an attacker of its fort) at the fort with fewest barriers; \"Stand "
    "a creature in rest.\" is never cast: spells are cast in the Main Phase only (line 207), when every "
    "creature of the caster stands (Stand Phase, line 182), and standing an opposing creature only lets it "
    "block",
    "a creature with Ambush is set as an ambush only under DG-spells=all, when it is still in hand after the "
    "summons (its cost not paid) and its text is the one the game reads (\"If this card is an ambush: when "
    "an opposing creature attacks this fort, summon this creature to it; it blocks that attack.\"); "
    "otherwise it is summoned for its cost",
    "Fort Burst is never played (every broken barrier goes to hand: both DG-fort-burst readings agree then)",
    "Immune has no effect (it acts against spells and abilities, line 316)",
    "trait conditions (assassin:trait=...) never match: cards have no traits in the catalog",
    "other card text (abilities) does nothing",
    "creatures move and switch places by one policy only: of \"You may switch the position of creatures, "
    "or move a creature from one fort to another fort with an opening\" (line 226), DG-move=switch (the "
    "default) moves creatures off a destroyed fort and onto a fort with barriers left unguarded, then "
    "switches the creatures that will not attack this turn (so still stand to block in the opponent's turn) "
    "onto the forts with barriers and no dragoshield the opponent attacks first; DG-move=guard plays the "
    "moves, never a switch; under DG-move=none a creature stays where it was summoned",
)
POLICY = ("mulligan (unless chosen): spells, '-' cards and creatures costing 4+ go back; resource: taken "
          "while resources are fewer than the deck's costliest creature; summon: the costliest creature "
          "payable, first; dice: "
          f"a dragoshield when the die shows {K.SHIELD_MIN}+ and its fort has none, else dragocross the "
          "creature gaining most; attack: each creature scores every fort and Assassin target and attacks "
          "the best if its score is positive; block: a blocker that survives or kills, a chump only on the "
          "last barrier; discard: spells first, then the costliest creatures (rulesets/dragoborne/game.py)")
MAX_CONDITIONS = K.MAX_CONDITIONS


#: Spell texts the game reads (DG-spells=removal), as kernels.Spell effects: (pattern, effect); the numbers
#: are the damage (Spell.DESTROY: the highest ATK destroyed) and, for Spell.SPLASH, the damage to each
#: other creature at the target's fort. A Spell.SWEEP's DICE X-Y "Deal N damage instead." raises N.
SPELL_TEXTS = (
    (re.compile(r"deal (\d+) damage to a creature\."), K.Spell.DAMAGE),
    (re.compile(r"deal (\d+) damage to a creature and (\d+) damage to each other creature at its fort\."),
     K.Spell.SPLASH),
    (re.compile(r"destroy a creature with atk (\d+) or less\."), K.Spell.DESTROY),
    (re.compile(r"deal (\d+) damage to each creature at a fort\."), K.Spell.SWEEP),
    (re.compile(r"a creature gets \+(\d+)/\+0 until the end of the turn\."), K.Spell.PUMP_ATK),
    (re.compile(r"a creature gets \+0/\+(\d+) until the end of the turn\."), K.Spell.PUMP_EDR),
    (re.compile(r"if this card is an ambush: when an opposing creature attacks this fort, it gets -(\d+)/-0 "
                r"until the end of the battle\."), K.Spell.SNARE),
)
#: The spell effects each DG-spells choice casts (Spell.SNARE, Spell.AMBUSHER: set as an ambush).
CAST = {"none": frozenset(),
        "removal": frozenset({K.Spell.DAMAGE, K.Spell.SPLASH, K.Spell.DESTROY, K.Spell.SWEEP})}
CAST["all"] = CAST["removal"] | {K.Spell.PUMP_ATK, K.Spell.PUMP_EDR, K.Spell.SNARE, K.Spell.AMBUSHER}
INSTEAD = re.compile(r"deal (\d+) damage instead\.")


def spell_effect(card: Card) -> tuple[int, tuple[int, ...]]:
    """(kernels.Spell, its numbers) of a card's text; (Spell.NONE, ()) for a text the game does not read
    (the whole text must match, case and surrounding blanks aside). A creature's only text read is its
    Ambush (Spell.AMBUSHER, printed keyword ambush)."""
    text = " ".join(card.text.lower().split())
    if card.is_creature:
        return (K.Spell.AMBUSHER if card.ambusher else K.Spell.NONE), ()
    for pattern, effect in SPELL_TEXTS:
        m = pattern.fullmatch(text)
        if m and (effect != K.Spell.SNARE or card.keyword("ambush")):
            return effect, tuple(int(g) for g in m.groups())
    return K.Spell.NONE, ()


def dead_cards(catalog: Catalog, decks: Sequence[Deck], rulings: DragoborneRulings | None = None) -> str:
    """The note naming, per deck, its spell cards and their copies that the game never casts (all of them
    under DG-spells=none; under removal or all, those whose effect that choice does not cast, CAST):
    dead cards (game.py "Cards"); "" when no deck holds one. ``rulings`` None: a note that does not know
    the rulings in force names those of the default, and says so."""
    cast = CAST[(rulings or DragoborneRulings()).spells]
    parts = []
    for deck in dict.fromkeys(decks):  # a deck given twice (a mirror) is named once
        spells = sorted((catalog.card(k).name, n) for k, n in deck.copies.items()
                        if not catalog.card(k).is_creature and spell_effect(catalog.card(k))[0] not in cast)
        if spells:
            listed = ", ".join(f"{name} x{n}" for name, n in spells)
            parts.append(f"{deck.name} {sum(n for _, n in spells)} of {deck.size}: {listed}")
    if not parts:
        return ""
    which = "" if rulings is not None else (
        f" under DG-spells={DragoborneRulings().spells}, the default (under none, every spell card)")
    return (f"dead cards (spells: never cast, held in hand and discarded first){which}: " + "; ".join(parts))


@dataclass(frozen=True)
class Table:
    """The kernel's card table: ``keys[i]`` is card index i (sorted), ``colours[j]`` colour index j."""

    keys: tuple[str, ...]
    colours: tuple[str, ...]
    tab: np.ndarray
    index: dict[str, int] = field(default_factory=dict)

    # named views of ``tab``'s blocks (kernels' card table layout), each writable into ``tab``

    def fields(self) -> np.ndarray:
        """Each card's own fields: int64[card, N_CARD], columns kernels.C_*."""
        return self.tab[:, :K.N_CARD]

    def conditions(self) -> np.ndarray:
        """Each card's DICE X-Y conditions: int64[card, MAX_CONDITIONS, N_COND], columns kernels.K_*."""
        return self.tab[:, K.KB:K.XB].reshape(len(self.keys), K.MAX_CONDITIONS, K.N_COND)

    def cross(self) -> np.ndarray:
        """Each card's dragocross bonus by die colour: int64[card, colour, N_CROSS], columns kernels.X_*."""
        return self.tab[:, K.XB:].reshape(len(self.keys), len(self.colours), K.N_CROSS)


def _mask(keywords, name: str, colours: Sequence[str]) -> int:
    mask = 0
    for k in keywords:
        if k.name == name and k.colour in colours:
            mask |= 1 << colours.index(k.colour)
    return mask


def _has(keywords, name: str) -> int:
    return int(any(k.name == name for k in keywords))


def card_table(cards: Sequence[Card], banners: Sequence[str] = ()) -> Table:
    """The table of these cards (sorted by key; duplicates once) and the colours they and ``banners`` name."""
    by_key = {c.key: c for c in cards}
    keys = tuple(sorted(by_key))
    colours = tuple(sorted({*banners, *(by_key[k].colour for k in keys)}))
    if len(colours) > K.MAX_COLOURS:
        raise RulesError(f"{len(colours)} colours: the game handles at most {K.MAX_COLOURS}")
    n, m = len(keys), len(colours)
    # the kernel orders summons and discards by keys packing cost, ATK + EDR and the card index in KEY_BITS
    # bits each: the catalog bounds costs and stats (MAX_COST, MAX_STAT; tested), the number of cards is here
    if n >= 1 << K.KEY_BITS:
        raise RulesError(f"{n} distinct cards: the game handles fewer than {1 << K.KEY_BITS}")
    table = Table(keys, colours, np.zeros((n, K.XB + m * K.N_CROSS), np.int64),
                  {k: i for i, k in enumerate(keys)})
    ctab, cond, cross = table.fields(), table.conditions(), table.cross()
    for i, key in enumerate(keys):
        c = by_key[key]
        ctab[i, K.C_CREATURE] = int(c.is_creature)
        ctab[i, K.C_COLOUR] = colours.index(c.colour)
        ctab[i, K.C_COST] = -1 if c.cost is None else c.cost
        ctab[i, K.C_ATK] = c.atk or 0
        ctab[i, K.C_EDR] = c.edr or 0
        ctab[i, K.C_DEADLY] = _has(c.keywords, "deadly")
        ctab[i, K.C_ASSASSIN] = _mask(c.keywords, "assassin", colours)
        ctab[i, K.C_INVADE] = _mask(c.keywords, "invade", colours)
        for bonus in c.dragocross:
            targets = range(m) if bonus.colour == ANY_COLOUR else (
                [colours.index(bonus.colour)] if bonus.colour in colours else [])
            for j in targets:
                cross[i, j, K.X_ATK] += bonus.atk
                cross[i, j, K.X_EDR] += bonus.edr
                cross[i, j, K.X_DEADLY] |= _has(bonus.keywords, "deadly")
                cross[i, j, K.X_ASSASSIN] |= _mask(bonus.keywords, "assassin", colours)
                cross[i, j, K.X_INVADE] |= _mask(bonus.keywords, "invade", colours)
        conditions = [d for d in c.dice if d.colour == ANY_COLOUR or d.colour in colours]
        if len(conditions) > MAX_CONDITIONS:
            raise RulesError(f"{c.name}: {len(conditions)} DICE X-Y conditions; the game handles "
                             f"{MAX_CONDITIONS}")
        ctab[i, K.C_NCOND] = len(conditions)
        for k in c.keywords:  # printed Immune (line 316); one gained from a die is not read
            if k.name == "immune" and k.colour == ANY_COLOUR:
                ctab[i, K.C_IMMUNE] |= (1 << m) - 1
            elif k.name == "immune" and k.colour in colours:
                ctab[i, K.C_IMMUNE] |= 1 << colours.index(k.colour)
        effect, numbers = spell_effect(c)
        ctab[i, K.C_SPELL] = effect
        if numbers:
            ctab[i, K.C_AMOUNT] = numbers[0]
            ctab[i, K.C_SPLASH] = numbers[1] if effect == K.Spell.SPLASH else 0
        if effect == K.Spell.SWEEP:
            for d in conditions:
                m_instead = INSTEAD.fullmatch(" ".join(d.text.lower().split()))
                if m_instead:
                    ctab[i, K.C_BOOST] = int(m_instead.group(1))
                    ctab[i, K.C_BOOST_COLOUR] = -1 if d.colour == ANY_COLOUR else colours.index(d.colour)
                    ctab[i, K.C_BOOST_LOW], ctab[i, K.C_BOOST_HIGH] = d.low, d.high
                    break
        for k, d in enumerate(conditions):
            colour = -1 if d.colour == ANY_COLOUR else colours.index(d.colour)
            cond[i, k] = (colour, d.low, d.high, d.atk, d.edr, _has(d.keywords, "deadly"),
                          _mask(d.keywords, "assassin", colours), _mask(d.keywords, "invade", colours))
    return table


#: Mulligan strategies the game plays (setup 2 of game.py): "policy" is the default.
MULLIGANS = ("policy", "none", "back2+", "back3+", "back4+", "back5+", "all")


def mulligan_code(mulligan: str) -> tuple[int, int]:
    """(kernels.Mulligan, K) of a strategy name."""
    if mulligan not in MULLIGANS:
        raise OptionError(f"mulligan {mulligan!r}: accepted {', '.join(MULLIGANS)}")
    if mulligan.startswith("back"):
        return K.Mulligan.BACK, int(mulligan[4])
    return {"policy": K.Mulligan.POLICY, "none": K.Mulligan.NONE, "all": K.Mulligan.ALL}[mulligan], 0


#: DG-reroll-assigned's readings as the kernel's codes.
REROLLS = {"unassigned-only": K.Reroll.UNASSIGNED, "all-keep": K.Reroll.ALL_KEEP,
           "all-return": K.Reroll.ALL_RETURN}


def rulings_row(rulings: DragoborneRulings, mulligan: str = "policy") -> np.ndarray:
    row = np.zeros(K.N_RULINGS, np.int64)
    row[K.RL_MULLIGAN], row[K.RL_MULLIGAN_COST] = mulligan_code(mulligan)
    row[K.RL_DIE] = rulings.die
    row[K.RL_REROLL] = REROLLS[rulings.reroll_assigned]
    row[K.RL_PERSIST] = int(rulings.shield_persist)
    row[K.RL_ZONE_ONLY] = int(rulings.condition_dice == "unassigned")
    row[K.RL_STACK] = int(rulings.shield_stack == "stack")
    row[K.RL_CROSS_DISCARD] = int(rulings.cross_die == "discard")
    row[K.RL_EACH_FIRST] = int(rulings.first_turn == "each-player-first")
    row[K.RL_SICKNESS] = int(rulings.summoning_sickness)
    row[K.RL_MOVE] = K.Move[rulings.move.upper()]
    row[K.RL_SPELLS] = K.Spells[rulings.spells.upper()]
    return row


def deck_list(deck: Deck) -> list[str]:
    """The deck's cards, one key per copy, in key order (the order the kernel shuffles from)."""
    return [key for key in sorted(deck.copies) for _ in range(deck.copies[key])]


def resource_target(cards: Sequence[Card]) -> int:
    """game.py step 4: the costliest playable creature of the deck (at least 1)."""
    return max([c.cost for c in cards if c.is_creature and c.cost is not None] + [1])


@dataclass(frozen=True)
class Matchup:
    """Two decks (side 0, side 1), each with an optional replacement card, ready for the kernel."""

    decks: tuple[Deck, Deck]
    replace: tuple[Card | None, Card | None]
    table: Table
    args_head: tuple


def matchup(catalog: Catalog, deck_a: Deck | str, deck_b: Deck | str,
            replace: tuple[Card | None, Card | None] = (None, None), baselines: bool = False,
            rulings: DragoborneRulings | None = None, mulligan: str = "policy") -> Matchup:
    """The kernel's arguments for deck_a (side 0) against deck_b, a replacement card in each if given: in
    each game it takes the place of one copy of the deck's cards of the same curve class (not itself),
    drawn uniformly - "an average card of the same cost" (of any card when the deck has none of that class:
    contest.DragoborneRuleset.notes says so)."""
    rulings = rulings or DragoborneRulings()
    decks = tuple(catalog.deck(d) if isinstance(d, str) else d for d in (deck_a, deck_b))
    lists = [deck_list(d) for d in decks]
    cards = [catalog.card(k) for lst in lists for k in lst] + [c for c in replace if c is not None]
    table = card_table(cards, [b for d in decks for b in d.banners])
    for d in decks:
        if len(d.banners) != K.DICE:
            raise RulesError(f"deck {d.name}: {len(d.banners)} banners; a deck has {K.DICE} (line 148)")
    m = max(len(lst) for lst in lists)
    arr = np.zeros((2, m), np.int64)
    sizes = np.array([len(lst) for lst in lists], np.int64)
    swaps = np.zeros((2, m), np.int64)
    swap_n = np.zeros(2, np.int64)
    rep = np.full(2, -1, np.int64)
    targets = np.zeros(2, np.int64)
    for s, lst in enumerate(lists):
        arr[s, :len(lst)] = [table.index[k] for k in lst]
        deck_cards = [catalog.card(k) for k in lst]
        card = replace[s]
        targets[s] = resource_target(deck_cards + ([card] if card is not None else []))
        if card is None:
            continue
        rep[s] = table.index[card.key]
        same = [i for i, c in enumerate(deck_cards)
                if c.key != card.key and c.curve_class == card.curve_class]
        if not same:
            same = [i for i, c in enumerate(deck_cards) if c.key != card.key]
        if not same:
            raise RulesError(f"{decks[s].name} holds only {card.name}: nothing to replace")
        swaps[s, :len(same)] = same
        swap_n[s] = len(same)
    banners = np.array([[table.colours.index(b) for b in d.banners] for d in decks], np.int64)
    head = (arr, sizes, banners, targets, swaps, swap_n, rep, bool(baselines), table.tab,
            rulings_row(rulings, mulligan), len(table.colours))
    return Matchup(decks, replace, table, head)


def run(m: Matchup, trials: int, seed: int, *, threads: int | None = None, precision: float | None = None,
        progress=None, block_trials: int = 4096, max_batch_trials: int | None = None) -> runner.RecordsResult:
    """``trials`` games of the matchup (records, simcore.runner.run_records; ``block_trials`` and
    ``max_batch_trials`` as it takes them)."""
    statistic = None
    if precision is not None:
        from simcore.stats import proportion

        def statistic(records):
            return proportion(int((GameRecords(records).winner() == 0).sum()), len(records))
    return runner.run_records(K.game_records, m.args_head, K.N_RECORD, trials, seed, threads=threads,
                              precision=precision, statistic=statistic, progress=progress,
                              block_trials=block_trials, max_batch_trials=max_batch_trials)



@dataclass(frozen=True)
class GameRecords:
    """Named views of game records (``records[t]``: game t, columns kernels.Record); each view is one int64
    value per game."""

    records: np.ndarray

    def __len__(self) -> int:
        return int(self.records.shape[0])

    def _column(self, record: K.Record) -> np.ndarray:
        return self.records[:, record]

    def winner(self) -> np.ndarray:
        """The deck that won (0 or 1), or kernels.DRAW."""
        return self._column(K.Record.WINNER)

    def first(self) -> np.ndarray:
        """The deck that went first."""
        return self._column(K.Record.FIRST)

    def turns(self) -> np.ndarray:
        """Game turns played (both players')."""
        return self._column(K.Record.TURNS)

    def end(self) -> np.ndarray:
        """How the game ended (kernels.End)."""
        return self._column(K.Record.END)

    def barriers_left(self, side: int) -> np.ndarray:
        return self._column((K.Record.BARRIERS_0, K.Record.BARRIERS_1)[_side(side)])

    def summoned(self, side: int) -> np.ndarray:
        """Creatures ``side`` summoned."""
        return self._column((K.Record.SUMMONED_0, K.Record.SUMMONED_1)[_side(side)])

    def dice_lost(self, side: int) -> np.ndarray:
        return self._column((K.Record.DICE_LOST_0, K.Record.DICE_LOST_1)[_side(side)])

    def summoned_on(self, side: int, own_turn: int) -> np.ndarray:
        """Whether ``side`` summoned a creature on its own turn ``own_turn`` (1..kernels.CURVE_TURNS)."""
        return self._curve_bit(side, own_turn - 1)

    def spent_all_on(self, side: int, own_turn: int) -> np.ndarray:
        """Whether ``side`` spent every resource on its own turn ``own_turn`` (1..kernels.CURVE_TURNS)."""
        return self._curve_bit(side, K.CURVE_TURNS + own_turn - 1)

    def _curve_bit(self, side: int, bit: int) -> np.ndarray:
        curve = self._column((K.Record.CURVE_0, K.Record.CURVE_1)[_side(side)])
        return ((curve >> bit) & 1).astype(bool)

    def base_winner(self, side: int) -> np.ndarray:
        """The winner of the same game with ``side``'s deck unchanged (no replacement card); -1: not
        played."""
        return self._column((K.Record.BASE_WINNER_0, K.Record.BASE_WINNER_1)[_side(side)])


def _side(side: int) -> int:
    if side not in (0, 1):
        raise RulesError(f"side {side!r}: 0 (the first deck) or 1")
    return side
