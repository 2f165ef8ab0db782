"""Dragoborne's combat phase as a deterministic function of the board (seed 001, lines 228-249; the policies
of rulesets/dragoborne/game.py's docstring, step 7).

The board holds, for each of two players, three forts (colour, barriers left, dragoshields with their
current values), the creatures at the forts (at most two a fort, line 122) and the player's dice (in the
Dice Zone, on a dragoshield, on a creature as its dragocross die, or discarded). :func:`combat` plays one
combat phase of the active player ``board.p`` against ``board.o`` exactly as game.py's step 7 states it
(attack order, option scores, the defender's block choice, resolution, destruction, the dragocross die
returning per DG-cross-die) and returns the board after it with what happened. Every policy is
deterministic, so the result is a function of the board and the rulings.

Effective stats follow game.py's "Effective stats" paragraph, DICE X-Y included (catalog.DiceCondition,
DG-condition-dice). "Spec" below is game.py's docstring; "line N" a line of
shared/seeds/001_1c5696b006866d5d.txt. Not modelled here, as in game.py: spells, abilities, Ambush, Fort
Burst (a broken barrier goes to hand, which both DG-fort-burst readings do when none is played), Immune
(line 316: spells and abilities only), trait conditions (``assassin:trait=...`` never matches).

Readings where step 7 is silent (each one is marked where it is applied):

* The attackers and their order are fixed at the start of combat; one whose effective ATK rose from 0 to
  1 since (a die back in the zone meeting a DICE X-Y) does not join.
* "Its value" of a dragoshield is its current value, after damage; "B kills the attacker likewise"
  includes a Deadly B with ATK >= 1; "exactly 1 barrier left" is counted before the attack.
* A creature dealt damage by a Deadly creature is destroyed in the first pass after the attack, with the
  creatures whose damage reaches their EDR (both sides at once); their dragocross dice leave after the
  pass, and the next pass reads the effective EDRs again.
* "At any fort" for Assassin includes destroyed forts; a creature's colour is its printed one.
* Both players' dragoshields are restored at the End Phase under DG-shield-persist=false ("every
  dragoshield").

Pure Python, no numpy: rulesets.dragoborne.assign runs it thousands of times.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from rulesets.dragoborne.catalog import CrossBonus, DiceCondition, Keyword
from rulesets.dragoborne.rules import ANY_COLOUR, DragoborneRulings

#: Where a die is (lines 13-19, 131, 137): the Dice Zone, a dragoshield, a dragocross die, the discard pile.
ZONE, SHIELD, CROSS, DISCARDED = "zone", "shield", "cross", "discarded"
#: Forts a player has (one per banner, line 125) and creatures a fort holds (line 122).
FORTS, PER_FORT = 3, 2

# Option scores (spec step 7).
SHIELD_BROKEN, SHIELD_HELD = 40, 15
BLOCK_KILL_SURVIVE, BLOCK_TRADE_UP, BLOCK_TRADE_DOWN, BLOCK_SURVIVE, BLOCK_DIE = 50, 20, -1, 10, -10
UNBLOCKED_BASE = 100
ASSASSIN_KILL_SURVIVE, ASSASSIN_TRADE_UP, ASSASSIN_TRADE_DOWN, ASSASSIN_FAIL = 60, 25, -1, -10


class Stats(NamedTuple):
    """A creature's effective stats now: ATK, EDR, Deadly, and the colours of its Assassin and Invade."""

    atk: int
    edr: int
    deadly: bool
    assassin: frozenset[str]
    invade: frozenset[str]


def _keyword_gains(keywords: Iterable[Keyword]) -> tuple[bool, frozenset[str], frozenset[str]]:
    """(Deadly, Assassin colours, Invade colours) of some keywords. Spec "Cards": trait conditions
    (``assassin:trait=...``) never match, and Immune has no effect (line 316), so neither is kept."""
    keywords = tuple(keywords)
    deadly = any(k.name == "deadly" for k in keywords)
    assassin = frozenset(k.colour for k in keywords if k.name == "assassin" and k.colour)
    invade = frozenset(k.colour for k in keywords if k.name == "invade" and k.colour)
    return deadly, assassin, invade


@dataclass(eq=False)
class Creature:
    """A creature on the board. ``atk``/``edr``/``cost``/``colour``/``keywords`` are printed (a card's
    "-" cost is given as 0 here); ``dragocross`` its colour bonuses (line 19) beyond the +1/+1 every
    dragocrossed creature gets (line 217); ``dice`` its DICE X-Y (line 282). State: ``fort`` and ``slot``
    (None: the fort's lowest free slot), ``damage`` taken this turn (line 243), ``rested`` (lines 230,
    238), ``new`` (summoned this turn: no attack under DG-summoning-sickness=true) and ``cross``, the index
    of its owner's die that dragocrosses it (None: not dragocrossed); ``card``: its catalog key, if any."""

    name: str
    atk: int
    edr: int
    cost: int = 0
    colour: str = ""
    keywords: tuple[Keyword, ...] = ()
    dragocross: tuple[CrossBonus, ...] = ()
    dice: tuple[DiceCondition, ...] = ()
    fort: int = 0
    slot: int | None = None
    damage: int = 0
    rested: bool = False
    new: bool = False
    cross: int | None = None
    card: str = ""
    _printed: tuple = field(default=(), init=False, repr=False)
    _crossed: dict = field(default_factory=dict, init=False, repr=False)
    _conditions: tuple = field(default=(), init=False, repr=False)

    def __post_init__(self) -> None:
        self._printed = _keyword_gains(self.keywords)
        self._conditions = tuple((d.colour, d.low, d.high, d.atk, d.edr, *_keyword_gains(d.keywords))
                                 for d in self.dice)

    @property
    def label(self) -> str:
        """``name@fort s slot``: ``3/2@0s1`` is the creature 3/2 in fort 0's slot 1."""
        return f"{self.name}@{self.fort}s{self.slot}"

    def fixed(self, colour: str | None) -> Stats:
        """Its stats without DICE X-Y, dragocrossed by a die of ``colour`` (None: not dragocrossed): base
        ATK/EDR and printed keywords, plus +1/+1 (line 217) and every bonus of that colour or white (spec
        "Effective stats": a white bonus applies to every colour; a card with both gets both). Cached."""
        out = self._crossed.get(colour)
        if out is None:
            deadly, assassin, invade = self._printed
            atk, edr = self.atk, self.edr
            if colour is not None:
                bonuses = [b for b in self.dragocross if b.colour in (colour, ANY_COLOUR)]
                d, s, i = _keyword_gains(k for b in bonuses for k in b.keywords)
                atk += 1 + sum(b.atk for b in bonuses)
                edr += 1 + sum(b.edr for b in bonuses)
                deadly, assassin, invade = deadly or d, assassin | s, invade | i
            out = self._crossed[colour] = Stats(atk, edr, deadly, assassin, invade)
        return out

    def copy(self) -> Creature:
        c = object.__new__(Creature)
        c.__dict__.update(self.__dict__)
        return c


@dataclass(eq=False)
class Die:
    """One die: its colour, its current ``value`` (a dragoshield's after the damage it took, line 243; a
    die in the zone or on a creature: its roll), where it is, and ``assigned``: the value it had when it
    became a dragoshield (DG-shield-persist=false restores it at the End Phase)."""

    colour: str
    value: int = 0
    place: str = ZONE
    assigned: int = 0

    def copy(self) -> Die:
        return Die(self.colour, self.value, self.place, self.assigned)


@dataclass(eq=False)
class Fort:
    """A fort: its banner's colour (line 125), barriers left (line 173) and its dragoshields as indices of
    its owner's dice, the oldest first (more than one only under DG-shield-stack=stack)."""

    colour: str
    barriers: int = 2
    shields: list[int] = field(default_factory=list)

    def copy(self) -> Fort:
        return Fort(self.colour, self.barriers, list(self.shields))


@dataclass(eq=False)
class Side:
    """One player's part of the board: three forts, the creatures (kept in fort, slot order) and the
    dice (die i has fort i's colour in a game, setup 3; any colours may be given here)."""

    forts: list[Fort]
    creatures: list[Creature] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._cache: dict | None = None  # effective stats, kept only while play_combat runs
        for c in self.creatures:
            if c.slot is None:
                taken = {o.slot for o in self.creatures if o is not c and o.fort == c.fort}
                c.slot = min(s for s in range(PER_FORT + len(taken)) if s not in taken)
        self.creatures.sort(key=lambda c: (c.fort, c.slot))

    def copy(self) -> Side:
        out = object.__new__(Side)
        out.forts = [f.copy() for f in self.forts]
        out.creatures = [c.copy() for c in self.creatures]
        out.dice = [d.copy() for d in self.dice]
        out._cache = None
        return out

    @property
    def barriers(self) -> int:
        return sum(f.barriers for f in self.forts)

    def counted(self, rulings: DragoborneRulings) -> list[tuple[str, int]]:
        """(colour, value) of the dice a DICE X-Y looks at (spec "Effective stats"): under
        DG-condition-dice=any every die not discarded at its current value (a dragoshield's after damage),
        under ``unassigned`` only the dice in the Dice Zone."""
        if rulings.condition_dice == "any":
            return [(d.colour, d.value) for d in self.dice if d.place != DISCARDED]
        return [(d.colour, d.value) for d in self.dice if d.place == ZONE]

    def stats(self, c: Creature, rulings: DragoborneRulings) -> Stats:
        """``c``'s effective stats (spec "Effective stats"): base ATK/EDR; if dragocrossed, +1/+1 (line 217)
        and the bonus for its die's colour; plus every DICE X-Y met (line 282); keywords gained add to the
        printed ones."""
        fixed = c.fixed(None if c.cross is None else self.dice[c.cross].colour)
        if not c._conditions:
            return fixed
        cache = self._cache
        if cache is not None:
            known = cache.get(c)
            if known is not None:
                return known
        atk, edr, deadly, assassin, invade = fixed
        counted = self.counted(rulings)
        for colour, low, high, a, e, d, s, i in c._conditions:
            if any((colour == ANY_COLOUR or colour == have) and low <= value <= high
                   for have, value in counted):
                atk, edr = atk + a, edr + e
                deadly, assassin, invade = deadly or d, assassin | s, invade | i
        out = Stats(atk, edr, deadly, assassin, invade)
        if cache is not None:
            cache[c] = out
        return out

    def dice_changed(self) -> None:
        """A die moved or changed value: the DICE X-Y stats kept during a combat phase are read again."""
        if self._cache is not None:
            self._cache.clear()


@dataclass(eq=False)
class Board:
    """The board: ``p`` the active player (who attacks in :func:`combat`), ``o`` the other."""

    p: Side
    o: Side

    def copy(self) -> Board:
        return Board(self.p.copy(), self.o.copy())

    def swapped(self) -> Board:
        """The same board with the other player active (the same objects, not copies)."""
        return Board(self.o, self.p)


class Option(NamedTuple):
    """An attack option (spec step 7): ``kind`` is ``shield`` (the fort's dragoshield blocks), ``block``
    (a creature of O blocks), ``unblocked``, or ``assassinate``; ``target`` the blocker or assassinated
    creature (None otherwise); ``score`` as step 7 scores it."""

    kind: str
    fort: int
    target: Creature | None
    score: int


class Attack(NamedTuple):
    """One attack as it happened: the attacker's label and effective ATK, the option taken, and its
    outcome (``barrier``: a barrier broken; ``shield_destroyed``; the labels of the creatures destroyed
    after it on each side)."""

    attacker: str
    atk: int
    kind: str
    fort: int
    target: str
    score: int
    barrier: bool = False
    shield_destroyed: bool = False
    destroyed_p: tuple[str, ...] = ()
    destroyed_o: tuple[str, ...] = ()


@dataclass
class CombatResult:
    """What one combat phase did: barriers of O broken, creatures destroyed on each side, dragoshields of O
    destroyed, dice each player lost (discarded), the attacks in order, and the creatures that did not
    attack (no option scored above 0)."""

    barriers_broken: int = 0
    destroyed_p: int = 0
    destroyed_o: int = 0
    shields_destroyed: int = 0
    dice_lost_p: int = 0
    dice_lost_o: int = 0
    attacks: list[Attack] = field(default_factory=list)
    held_back: list[str] = field(default_factory=list)


def kills(a: Stats, b: Creature, bs: Stats) -> bool:
    """Whether a creature with stats ``a`` kills ``b`` by dealing it damage (spec step 7: "deals damage >=
    B's EDR - B's damage (or it is Deadly)"); a 0-ATK creature deals no damage, Deadly included (line 312:
    "creatures with 0 ATK do not deal damage")."""
    return a.atk >= 1 and (a.deadly or a.atk >= bs.edr - b.damage)


def block_choice(attacker: Creature, astats: Stats, board: Board, f: int, rulings: DragoborneRulings,
                 last: bool | None = None) -> Creature | None:
    """O's blocker against an attack on fort ``f`` (spec step 7, "O's block choice"; line 238: one standing
    creature at that fort may block): the first category present among O's standing creatures at f: (a)
    survives and kills the attacker, (b) survives, (c) kills the attacker and dies, (d) dies without
    killing, only if O has exactly 1 barrier left in all; within a category the lowest cost, then the first
    in slot order. None: no block. ``last``: whether O has exactly 1 barrier (counted when None)."""
    o = board.o
    if last is None:
        last = o.barriers == 1
    best, best_key = None, None
    for b in o.creatures:
        if b.fort != f or b.rested:
            continue
        bs = o.stats(b, rulings)
        dies, kills_attacker = kills(astats, b, bs), kills(bs, attacker, astats)
        if not dies:
            category = 0 if kills_attacker else 1
        elif kills_attacker:
            category = 2
        elif last:
            category = 3  # (d) the chump block that saves the last barrier
        else:
            continue
        key = (category, b.cost, b.slot)
        if best_key is None or key < best_key:
            best, best_key = b, key
    return best


def _fight_score(attacker: Creature, astats: Stats, b: Creature, bs: Stats, assassinate: bool) -> int:
    """Step 7's score of a fight with ``b`` (a blocker, or the assassinated creature)."""
    killed, dies = kills(astats, b, bs), kills(bs, attacker, astats)
    if assassinate:
        if not killed:
            return ASSASSIN_FAIL  # "does not kill -10"
        if not dies:
            return ASSASSIN_KILL_SURVIVE
        return ASSASSIN_TRADE_UP if b.cost >= attacker.cost else ASSASSIN_TRADE_DOWN
    if killed and not dies:
        return BLOCK_KILL_SURVIVE
    if killed:
        return BLOCK_TRADE_UP if b.cost >= attacker.cost else BLOCK_TRADE_DOWN
    return BLOCK_SURVIVE if not dies else BLOCK_DIE


def options(attacker: Creature, board: Board, rulings: DragoborneRulings) -> list[Option]:
    """Every option of ``attacker`` against the board as it is now, in step 7's order (forts 0, 1, 2,
    then assassinations by fort, slot), with its score."""
    p, o = board.p, board.o
    astats = p.stats(attacker, rulings)
    last = o.barriers == 1
    out = []
    for f, fort in enumerate(o.forts):
        if fort.barriers <= 0:
            continue  # "Attack fort f of O that has barriers"
        if fort.shields:
            # Step 7: "O has a dragoshield at f (the oldest, under stack): it blocks (line 238). Score 40 if
            # ATK >= its value, else 15." Line 238: "the dragoshield will automatically be chosen to block";
            # Invade does not pass it (lines 320-321 name creatures only).
            value = o.dice[fort.shields[0]].value
            out.append(Option("shield", f, None, SHIELD_BROKEN if astats.atk >= value else SHIELD_HELD))
            continue
        blocker = None
        if fort.colour not in astats.invade:
            # Step 7: "else if O has standing creatures at f and the attacker has no Invade for f's colour:
            # O's block choice"; line 320: Invade "cannot be blocked by creatures when attacking a fort of the
            # specified color".
            blocker = block_choice(attacker, astats, board, f, rulings, last)
        if blocker is not None:
            score = _fight_score(attacker, astats, blocker, o.stats(blocker, rulings), assassinate=False)
            out.append(Option("block", f, blocker, score))
        else:
            # Step 7: "No blocker chosen: as unblocked"; "else unblocked: 100 - f's barriers".
            out.append(Option("unblocked", f, None, UNBLOCKED_BASE - fort.barriers))
    if astats.assassin:
        # Step 7: "Assassinate (line 308, Assassin of colour C): a rested creature R of O of colour C, at any
        # fort" (destroyed forts too: creatures stay at them, line 122).
        for r in o.creatures:
            if r.rested and r.colour in astats.assassin:
                out.append(Option("assassinate", r.fort, r,
                                  _fight_score(attacker, astats, r, o.stats(r, rulings), assassinate=True)))
    return out


def choose(opts: list[Option]) -> Option | None:
    """Step 7: "takes the best one if its score is > 0 (ties: the first listed ...); else it does not
    attack and stays standing"."""
    best = None
    for opt in opts:
        if opt.score > 0 and (best is None or opt.score > best.score):
            best = opt
    return best


def attackers(board: Board, rulings: DragoborneRulings) -> list[Creature]:
    """Step 7: "P's standing creatures with effective ATK >= 1 (summoned this turn excluded under
    DG-summoning-sickness=true), each once, in order of effective ATK at the start of combat from highest
    (ties: fort, slot order)"; lines 230 (attackers rest) and 246 (ATK >= 1 to damage a fort). Reading:
    the list is fixed here (play_combat skips those step 7 says to skip; none joins later)."""
    p = board.p
    ranked = []
    for c in p.creatures:
        if c.rested or (c.new and rulings.summoning_sickness):
            continue
        atk = p.stats(c, rulings).atk
        if atk >= 1:
            ranked.append((-atk, c.fort, c.slot, c))
    ranked.sort(key=lambda t: t[:3])
    return [t[3] for t in ranked]


def _remove(side: Side, c: Creature, rulings: DragoborneRulings) -> int:
    """``c`` leaves play (discard pile, line 243); its dragocross die goes back to the Dice Zone at its value
    (DG-cross-die=return) or to the discard pile (discard, as a destroyed dragoshield's, line 215). Returns
    the dice lost (0 or 1)."""
    side.creatures.remove(c)
    if c.cross is None:
        return 0
    die = side.dice[c.cross]
    c.cross = None
    side.dice_changed()
    if rulings.cross_die == "return":
        die.place = ZONE
        return 0
    die.place = DISCARDED
    return 1


def destroy(board: Board, marked: Iterable[Creature], rulings: DragoborneRulings, result: CombatResult
            ) -> tuple[list[str], list[str]]:
    """Step 7: "After each attack, every creature whose accumulated damage >= its effective EDR is destroyed
    (discard pile), all of them at once, and again (a die coming back can change a DICE X-Y) until none
    is" (line 243), with ``marked``, the creatures a Deadly creature dealt damage to (line 312), destroyed
    in the first pass. Each pass destroys every creature that qualifies at once (both sides), then their
    dice leave and the next pass re-reads the effective EDRs. Returns the labels destroyed on each side."""
    marked = set(marked)
    gone: tuple[list[str], list[str]] = ([], [])
    while True:
        # A creature without damage survives unless its EDR is 0 (gains never lower a printed EDR).
        dead = [(i, side, c) for i, side in enumerate((board.p, board.o)) for c in side.creatures
                if c in marked or ((c.damage > 0 or c.edr <= 0) and c.damage >= side.stats(c, rulings).edr)]
        marked = set()
        if not dead:
            return gone
        for i, side, c in dead:
            gone[i].append(c.label)
            lost = _remove(side, c, rulings)
            if i == 0:
                result.destroyed_p += 1
                result.dice_lost_p += lost
            else:
                result.destroyed_o += 1
                result.dice_lost_o += lost


def resolve(attacker: Creature, opt: Option, board: Board, rulings: DragoborneRulings, result: CombatResult
            ) -> Attack:
    """One attack (step 7, "Resolution"; lines 230-249)."""
    p, o = board.p, board.o
    astats = p.stats(attacker, rulings)
    attacker.rested = True  # "the attacker rests" (line 230)
    fort = o.forts[opt.fort]
    marked = []
    barrier = shield_destroyed = False
    target = ""
    if opt.kind == "shield":
        # "A dragoshield: its value drops by the attacker's ATK; at 0 or below it is destroyed and its die
        # discarded (line 215); nothing reaches the fort or the attacker (line 246)."
        index = fort.shields[0]
        die = o.dice[index]
        target = f"dragoshield {die.value} at fort {opt.fort}"
        die.value -= max(0, astats.atk)
        o.dice_changed()
        if die.value <= 0:
            fort.shields.pop(0)
            die.place = DISCARDED
            die.value = 0
            shield_destroyed = True
            result.shields_destroyed += 1
            result.dice_lost_o += 1
    elif opt.kind in ("block", "assassinate"):
        # "A blocker (or the assassinated creature) rests; both deal their effective ATK to each other at
        # once (Deadly: a creature dealt damage by a Deadly creature with ATK >= 1 is destroyed, line 312)";
        # line 238 (the blocker rests), 243 (both deal damage, accumulated), 308 (the assassinated creature
        # "is considered to be blocking").
        b = opt.target
        bs = o.stats(b, rulings)
        target = b.label
        b.rested = True
        b.damage += max(0, astats.atk)
        attacker.damage += max(0, bs.atk)
        if astats.deadly and astats.atk >= 1:
            marked.append(b)
        if bs.deadly and bs.atk >= 1:
            marked.append(attacker)
    else:
        # "Unblocked with ATK >= 1: O's fort f loses its top barrier, which goes to O's hand (line 246)":
        # one damage whatever the ATK.
        target = f"fort {opt.fort}"
        if astats.atk >= 1 and fort.barriers > 0:
            fort.barriers -= 1
            barrier = True
            result.barriers_broken += 1
    gone_p, gone_o = destroy(board, marked, rulings, result)
    return Attack(attacker.label, astats.atk, opt.kind, opt.fort, target, opt.score, barrier,
                  shield_destroyed, tuple(gone_p), tuple(gone_o))


def play_combat(board: Board, rulings: DragoborneRulings) -> CombatResult:
    """One combat phase of ``board.p`` against ``board.o``, changing ``board`` in place (step 7)."""
    result = CombatResult()
    board.p._cache, board.o._cache = {}, {}
    try:
        _attacks(board, rulings, result)
    finally:
        board.p._cache = board.o._cache = None
    return result


def _attacks(board: Board, rulings: DragoborneRulings, result: CombatResult) -> None:
    for attacker in attackers(board, rulings):
        # "When its turn comes (a creature destroyed or rested meanwhile, or whose effective ATK is now 0,
        # is skipped)".
        if attacker.rested or attacker not in board.p.creatures or board.p.stats(attacker, rulings).atk < 1:
            continue
        opt = choose(options(attacker, board, rulings))
        if opt is None:
            result.held_back.append(attacker.label)  # "does not attack and stays standing"
            continue
        result.attacks.append(resolve(attacker, opt, board, rulings, result))


def combat(board: Board, rulings: DragoborneRulings | None = None) -> tuple[Board, CombatResult]:
    """The board after one combat phase of the active player ``board.p`` against ``board.o`` (game.py step
    7), and what happened; ``board`` itself is left as it was."""
    rulings = rulings or DragoborneRulings()
    after = board.copy()
    return after, play_combat(after, rulings)


def end_phase(board: Board, rulings: DragoborneRulings) -> None:
    """Step 8's board part, in place: "Damage on every creature is removed (line 255).
    DG-shield-persist=false: every dragoshield's value returns to its die's value when it was assigned"."""
    for side in (board.p, board.o):
        for c in side.creatures:
            c.damage = 0
        if not rulings.shield_persist:
            for fort in side.forts:
                for i in fort.shields:
                    side.dice[i].value = side.dice[i].assigned


def stand(side: Side) -> None:
    """Step 1, "Stand (line 182): P's creatures stand"; a creature of last turn is no longer new."""
    for c in side.creatures:
        c.rested = False
        c.new = False
