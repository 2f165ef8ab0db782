"""Dragoborne's dice assignment, exact: the expected value of each way the active player P can assign its
dice for a given board, over every roll of the dice (seed 001, lines 186, 210-217, 228-257; game.py's
spec, steps 2, 6, 7 and 8).

The board is P's Main Phase after its Stand Step (line 182: P's creatures stand) and Dice Step (line 186):
the dice DG-reroll-assigned rolls are rolled, uniform on 1..DG-die each and independent, and every roll is
enumerated (216 for three six-sided dice). For each **assignment** of P's dice in the Dice Zone - each die
a dragoshield at one of P's forts of its colour that has barriers (one a fort under DG-shield-stack=one,
counting those already there), the dragocross die of one of P's creatures without one (one die a creature),
or left in the Dice Zone (lines 210-217) - and each roll, the **exchange** that follows is played out
deterministically by the policies of game.py:

1. P's combat phase (step 7, P active; rulesets.dragoborne.combat), then P's End Phase (step 8: damage on
   every creature removed, line 255; DG-shield-persist=false restores every dragoshield's value). If O has
   no barrier left, O loses (line 257) and the exchange ends there.
2. O's turn: its Stand Step stands O's creatures (line 182); P's creatures that attacked stay rested. O's
   Dice Step is not played and O assigns no new dice in this exchange: O's dice keep their places and
   values; O draws, takes no resource and summons nothing (none is modelled). O's combat phase (step 7, O
   active), then its End Phase; if P has no barrier left, P loses.

The **value** of an assignment is E[barriers P breaks] - E[barriers O breaks] over the rolls, with E[P's
creatures destroyed], E[O's creatures destroyed], E[dice P loses] (discarded: a dragoshield destroyed,
line 215, or a dragocross die under DG-cross-die=discard), P(O loses) and P(P loses) beside it; also the
value of the best assignment chosen after seeing the roll (E over the rolls of the best value), the
assignment step 6's policy takes (its expected value and how often it takes each assignment) and each
assignment's P(being the best after the roll) (an assignment tied for the best shares that roll equally
with the others tied, so these add up to 1). Everything is exact (fractions).

P's dice: die i has fort i's colour (setup 3, lines 147-149); a die may already be a dragoshield or a
dragocross die (held: DG-reroll-assigned=unassigned-only keeps it; all-keep rolls it again and it stays;
all-return sends it back to the zone to be rolled and assigned again) or lost (discarded). Under
DG-shield-stack=stack new dragoshields on one fort are stacked in step 6's order (by value from highest,
ties the lower die), after the ones already there.

Speed: an outcome depends on a roll only through the values of the dice that end as dragoshields and,
for the other dice, which of P's DICE X-Y conditions each meets; each assignment plays each distinct
such projection once.

Board grammar (:func:`parse_board`, the command line `balance roll dragoborne assign`):

* ``--fort COLOUR:BARRIERS[:SHIELD]``, three times, P's forts 0, 1, 2 (``--their-fort``: O's): the
  banner's colour, barriers left (0..2, line 173), and a dragoshield already there at that current value
  (1..DG-die; ``4+3``: two stacked, the oldest first, under DG-shield-stack=stack), taken as assigned
  at that value (DG-shield-persist=false restores it to that value) and held by a die of that colour.
* ``--mine CREATURE`` / ``--theirs CREATURE`` (repeatable, at most 2 a fort): ``ATK/EDR@FORT`` or a
  catalog card ``KEY@FORT`` (``pyre-drake@1``: its cost, colour, ATK, EDR, keywords, dragocross bonuses and
  DICE X-Y), then options separated by commas: ``deadly``, ``invade:COLOUR``, ``assassin:COLOUR``,
  ``cost=N`` (default 0 for ATK/EDR), ``colour=COLOUR`` (default: its fort's), ``cross-COLOUR=+A/+E`` or
  ``cross-COLOUR=KEYWORD`` (a dragocross bonus, white: any colour; repeatable), ``dice=COLOUR:X-Y:+A/+E``
  or ``dice=COLOUR:X-Y:KEYWORD`` (a DICE X-Y), ``cross=COLOUR:VALUE`` (already dragocrossed by its
  owner's die of that colour showing VALUE), ``damage=N``, ``rested`` (O's only: P's stood at its Stand
  Step), ``new`` (P's only: summoned this turn, for DG-summoning-sickness=true).
* ``--lost COLOUR`` (repeatable): a die of P's lost earlier (in the discard pile).
* ``--their-die COLOUR:VALUE`` (repeatable): a die of O's in its Dice Zone showing VALUE (it matters to O's
  DICE X-Y only); O's dice given nowhere (not on a shield, a creature or here) are taken as discarded.

Pure Python (itertools, fractions): no numpy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from rulesets.base import OptionError, RulesError
from rulesets.dragoborne.catalog import Card, CrossBonus, DiceCondition, Keyword
from rulesets.dragoborne.combat import (
    CROSS,
    DISCARDED,
    FORTS,
    PER_FORT,
    SHIELD,
    ZONE,
    Board,
    Creature,
    Die,
    Fort,
    Side,
    end_phase,
    play_combat,
    stand,
)
from rulesets.dragoborne.game import SHIELD_MIN
from rulesets.dragoborne.rules import ANY_COLOUR, DICE, DragoborneRulings

#: Barriers a fort starts with (line 173); none is ever added.
FORT_BARRIERS = 2
#: Most ATK, EDR, cost, damage a typed creature may have (as the catalog, catalog.MAX_STAT / MAX_COST).
MAX_STAT = 20

#: What a die of an assignment does: stays in the Dice Zone, becomes a dragoshield at fort f, dragocrosses
#: P's creature k (its index in fort, slot order); HELD: not in the zone after the Dice Step (held or lost).
KEEP, HELD = ("zone",), ("held",)


def shield_at(f: int) -> tuple[str, int]:
    return ("shield", f)


def cross_on(k: int) -> tuple[str, int]:
    return ("cross", k)


# --- the exchange -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One exchange: barriers P breaks (its combat phase) and O breaks (O's next one), creatures destroyed
    on each side and dice P loses over both, and whether O (``win``) or P (``loss``) has no barrier left at
    the end of a turn (line 257)."""

    broken: int
    lost: int
    mine_destroyed: int
    theirs_destroyed: int
    dice_lost: int
    win: bool = False
    loss: bool = False

    @property
    def value(self) -> int:
        return self.broken - self.lost


def p_turn(board: Board, rulings: DragoborneRulings) -> Outcome:
    """P's combat phase and End Phase on ``board`` (P active, its dice assigned), in place: the outcome so
    far (``win``: O has no barrier left and loses, line 257)."""
    first = play_combat(board, rulings)  # step 7, P active
    end_phase(board, rulings)  # step 8 (line 255; DG-shield-persist)
    # step 8: "Then O loses if it has no barrier left (line 257)"
    return Outcome(first.barriers_broken, 0, first.destroyed_p, first.destroyed_o, first.dice_lost_p,
                   win=board.o.barriers == 0)


def o_turn(board: Board, rulings: DragoborneRulings, first: Outcome) -> Outcome:
    """O's turn after P's, in place: its Stand Step (line 182: O's creatures stand; P's stay rested if they
    attacked), no Dice Step, draw or summon modelled, its combat phase (step 7, O active) and End Phase."""
    if first.win:
        return first
    stand(board.o)
    theirs = board.swapped()
    second = play_combat(theirs, rulings)
    end_phase(theirs, rulings)
    return Outcome(first.broken, second.barriers_broken, first.mine_destroyed + second.destroyed_o,
                   first.theirs_destroyed + second.destroyed_p, first.dice_lost + second.dice_lost_o,
                   loss=board.p.barriers == 0)


def exchange(board: Board, rulings: DragoborneRulings) -> Outcome:
    """P's combat phase and End Phase, then O's Stand Step, combat phase and End Phase, on ``board`` (P
    active, its dice assigned), changing it in place. O rolls and assigns no dice in this exchange."""
    return o_turn(board, rulings, p_turn(board, rulings))


# --- the Dice Step and the assignments ------------------------------------------------------------------


def dice_step(board: Board, rulings: DragoborneRulings) -> tuple[Board, tuple[int, ...]]:
    """A copy of ``board`` after P's Dice Step (step 2, DG-reroll-assigned) and the indices of P's dice it
    rolls: unassigned-only, the dice in the Dice Zone; all-keep, every die not discarded (a dragoshield
    takes the new value, its damage gone; a dragocross die stays); all-return, every die not discarded
    comes back to the zone (dragoshields and dragocrosses end), then is rolled."""
    after = board.copy()
    p = after.p
    if rulings.reroll_assigned == "all-return":
        for fort in p.forts:
            fort.shields.clear()
        for c in p.creatures:
            c.cross = None
        for d in p.dice:
            if d.place != DISCARDED:
                d.place = ZONE
    if rulings.reroll_assigned == "unassigned-only":
        rolled = tuple(i for i, d in enumerate(p.dice) if d.place == ZONE)
    else:
        rolled = tuple(i for i, d in enumerate(p.dice) if d.place != DISCARDED)
    return after, rolled


def set_roll(board: Board, rolled: Sequence[int], roll: Sequence[int]) -> None:
    """P's rolled dice show ``roll``; a dragoshield rolled again (all-keep) takes the value, damage gone."""
    for i, v in zip(rolled, roll, strict=True):
        die = board.p.dice[i]
        die.value = v
        if die.place == SHIELD:
            die.assigned = v


def assignments(board: Board, rulings: DragoborneRulings) -> list[tuple[tuple, ...]]:
    """Every assignment of P's dice in the Dice Zone (lines 210-217): for each die, KEEP, ``shield_at(f)``
    (a fort of its colour with barriers; under DG-shield-stack=one without a dragoshield and not taken by
    another die) or ``cross_on(k)`` (a creature without a dragocross die, one die a creature); HELD for a
    die not in the zone. In a fixed order: die 0's choices first, each die's as KEEP, forts, creatures."""
    p = board.p
    stack = rulings.shield_stack == "stack"
    per_die: list[list[tuple]] = []
    for d in p.dice:
        if d.place != ZONE:
            per_die.append([HELD])
            continue
        forts = [shield_at(f) for f, fort in enumerate(p.forts)
                 if fort.colour == d.colour and fort.barriers > 0 and (stack or not fort.shields)]
        per_die.append([KEEP, *forts, *(cross_on(k) for k, c in enumerate(p.creatures) if c.cross is None)])
    out = []
    for combo in product(*per_die):
        targets = [t for t in combo if t not in (KEEP, HELD)]
        crosses = [t for t in targets if t[0] == "cross"]
        shields = [t for t in targets if t[0] == "shield"]
        if len(set(crosses)) < len(crosses) or (not stack and len(set(shields)) < len(shields)):
            continue
        out.append(combo)
    return out


def step6_order(board: Board) -> list[int]:
    """P's dice in the Dice Zone by value from highest, ties the lower die index (step 6)."""
    return sorted((i for i, d in enumerate(board.p.dice) if d.place == ZONE),
                  key=lambda i: (-board.p.dice[i].value, i))


def apply(board: Board, assignment: Sequence[tuple]) -> None:
    """Place P's dice as ``assignment`` says, in step 6's order (which orders stacked dragoshields)."""
    p = board.p
    for i in step6_order(board):
        target = assignment[i]
        die = p.dice[i]
        if target[0] == "shield":
            die.place, die.assigned = SHIELD, die.value
            p.forts[target[1]].shields.append(i)
        elif target[0] == "cross":
            die.place = CROSS
            p.creatures[target[1]].cross = i


def cross_gain(c: Creature, colour: str) -> int:
    """Step 6's gain of dragocrossing ``c`` with a die of ``colour``: "(1 + colour bonus ATK) + (1 + colour
    bonus EDR) + 2 if the colour bonus gives Deadly (...; the colour bonus: the card's bonus for the die's
    colour plus its white bonus)"."""
    bonuses = [b for b in c.dragocross if b.colour in (colour, ANY_COLOUR)]
    deadly = any(k.name == "deadly" for b in bonuses for k in b.keywords)
    return 2 + sum(b.atk + b.edr for b in bonuses) + (2 if deadly else 0)


def policy(board: Board, rulings: DragoborneRulings) -> tuple[tuple, ...]:
    """The assignment step 6's policy takes on ``board`` (P's dice rolled): each die in the Dice Zone, by
    value from highest (ties: the lower die index), once: a dragoshield at the candidate fort (of its colour,
    with barriers, without a dragoshield - under stack, if none, with one; the fewest barriers, then the
    lower fort) if the value >= 3 or there is no cross candidate; else the dragocross of the creature
    gaining most (ties: higher base ATK, then fort, slot order); else it stays in the zone."""
    p = board.p
    shielded = [bool(f.shields) for f in p.forts]
    crossed = [c.cross is not None for c in p.creatures]
    out: list[tuple] = [HELD if d.place != ZONE else KEEP for d in p.dice]
    for i in step6_order(board):
        die = p.dice[i]
        ok = [f for f, fort in enumerate(p.forts) if fort.colour == die.colour and fort.barriers > 0]
        candidates = [f for f in ok if not shielded[f]]
        if not candidates and rulings.shield_stack == "stack":
            candidates = ok
        fort = min(candidates, key=lambda f: (p.forts[f].barriers, f)) if candidates else None
        free = [k for k in range(len(p.creatures)) if not crossed[k]]
        creature = min(free, key=lambda k: (-cross_gain(p.creatures[k], die.colour), -p.creatures[k].atk, k),
                       default=None)
        if fort is not None and (die.value >= SHIELD_MIN or creature is None):
            out[i] = shield_at(fort)
            shielded[fort] = True
        elif creature is not None:
            out[i] = cross_on(creature)
            crossed[creature] = True
    return tuple(out)


# --- the analysis -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One assignment's expectations over the rolls (``assignment`` None: the step-6 policy's choice)."""

    assignment: tuple[tuple, ...] | None
    value: Fraction
    broken: Fraction
    lost: Fraction
    mine_destroyed: Fraction
    theirs_destroyed: Fraction
    dice_lost: Fraction
    p_win: Fraction
    p_loss: Fraction
    p_best: Fraction
    p_policy: Fraction


@dataclass(frozen=True)
class Analysis:
    """Every assignment's row (enumeration order), the policy's row, E[the best value after seeing the
    roll], the board (after the Dice Step, dice unrolled), the dice rolled and the number of rolls."""

    board: Board
    rolled: tuple[int, ...]
    rolls: int
    rows: list[Row]
    policy: Row
    best_after_roll: Fraction
    exchanges: int
    rulings: DragoborneRulings

    @property
    def best_value(self) -> Fraction:
        return max(r.value for r in self.rows)


def _reroll(board: Board, base: Board, rolled: Sequence[int], roll: Sequence[int]) -> None:
    """``board`` after P's turn played on another roll with the same signature, set to ``roll``: P's dice
    change no value in P's turn, so each rolled die not discarded shows its value of ``roll`` (a
    dragoshield assigned at it), and new dragoshields stack in step 6's order for this roll."""
    p = board.p
    value = dict(zip(rolled, roll, strict=True))
    for i, v in value.items():
        die = p.dice[i]
        if die.place != DISCARDED:
            die.value = v
            if die.place == SHIELD:
                die.assigned = v
    for fort, before in zip(p.forts, base.p.forts, strict=True):
        new = [i for i in fort.shields if i not in before.shields]
        if len(new) > 1:
            fort.shields = [*before.shields, *sorted(new, key=lambda i: (-value[i], i))]


def _state(base: Board, combo: Sequence[tuple], rolled: Sequence[int], roll: Sequence[int],
           key: Sequence) -> tuple:
    """P's dice after ``combo`` on ``roll`` as the exchange sees them, without die indices: each fort's
    dragoshields in order, each creature's dragocross die, the dice in the zone (a die's value as ``key``
    gives it: exact for a dragoshield, else which DICE X-Y it meets)."""
    p = base.p
    token = {i: (p.dice[i].colour, k) for i, k in zip(rolled, key, strict=True)}
    for i, d in enumerate(p.dice):
        token.setdefault(i, (d.colour, d.value))
    value = dict(zip(rolled, roll, strict=True))
    order = sorted((i for i in token if combo[i][0] == "shield"), key=lambda i: (-value[i], i))
    forts = tuple((*(token[i] for i in fort.shields), *(token[i] for i in order if combo[i][1] == f))
                  for f, fort in enumerate(p.forts))
    crossing = {c.cross: k for k, c in enumerate(p.creatures) if c.cross is not None}
    crossing.update((i, t[1]) for i, t in enumerate(combo) if t[0] == "cross")
    creatures = tuple(sorted((k, token[i]) for i, k in crossing.items()))
    zone = tuple(sorted(token[i] for i, t in enumerate(combo) if t == KEEP))
    return forts, creatures, zone


#: The figures of an outcome as :func:`_figures` lists them, named as Row's fields.
_COLUMNS = ("value", "broken", "lost", "mine_destroyed", "theirs_destroyed", "dice_lost", "p_win", "p_loss")


def _figures(o: Outcome) -> tuple[int, ...]:
    return (o.value, o.broken, o.lost, o.mine_destroyed, o.theirs_destroyed, o.dice_lost, int(o.win),
            int(o.loss))


def _expect(column: Sequence[tuple[int, ...]], n: int) -> dict[str, Fraction]:
    """The mean of each figure over ``n`` equally likely rolls, exact."""
    sums = zip(*column, strict=True)
    return {name: Fraction(sum(values), n) for name, values in zip(_COLUMNS, sums, strict=True)}


def analyse(board: Board, rulings: DragoborneRulings | None = None) -> Analysis:
    """Every assignment of P's dice on ``board`` (P's Main Phase, before its Dice Step) against every roll,
    exactly; see the module docstring."""
    rulings = rulings or DragoborneRulings()
    base, rolled = dice_step(board, rulings)
    combos = assignments(base, rulings)
    index = {a: n for n, a in enumerate(combos)}
    rolls = list(product(range(1, rulings.die + 1), repeat=len(rolled)))
    n = len(rolls)
    conditions = [cond for c in base.p.creatures for cond in c.dice]
    dice = base.p.dice
    # What of a die's value an outcome can depend on when the die is not a dragoshield: which of P's DICE
    # X-Y it meets (a zone or dragocross die never changes value; one returned to the zone keeps its value).
    met = [{v: tuple((c.colour == ANY_COLOUR or c.colour == dice[i].colour) and c.low <= v <= c.high
                     for c in conditions) for v in range(1, rulings.die + 1)} for i in rolled]
    keys_by_mask: dict[tuple[bool, ...], list[tuple]] = {}

    def keys_for(exact: tuple[bool, ...]) -> list[tuple]:
        keys = keys_by_mask.get(exact)
        if keys is None:
            keys = keys_by_mask[exact] = [tuple(v if e else m[v] for v, e, m in zip(roll, exact, met,
                                                                                   strict=True))
                                          for roll in rolls]
        return keys

    signatures = keys_for(tuple(False for _ in rolled))
    columns: list[list[tuple[int, ...]]] = []
    shared: dict[tuple, tuple[int, ...]] = {}
    played = 0
    for combo in combos:
        keys = keys_for(tuple(dice[i].place == SHIELD or combo[i][0] == "shield" for i in rolled))
        memo: dict[tuple, tuple[int, ...]] = {}
        # P's turn does not depend on the values of its dragoshields (O attacks them in its own turn only)
        # but through the DICE X-Y they meet: played once per signature, O's turn then per exact key.
        after_p: dict[tuple, tuple[Board, Outcome]] = {}
        column = []
        for roll, key, signature in zip(rolls, keys, signatures, strict=True):
            out = memo.get(key)
            if out is None:
                # Assignments that differ only by which of two same-coloured dice goes where give the same
                # board: share their outcomes through a key without die indices.
                state = _state(base, combo, rolled, roll, key)
                out = shared.get(state)
                if out is None:
                    known = after_p.get(signature)
                    if known is None:
                        b = base.copy()
                        set_roll(b, rolled, roll)
                        apply(b, combo)
                        known = after_p[signature] = (b, p_turn(b, rulings))
                    b = known[0].copy()
                    _reroll(b, base, rolled, roll)
                    out = shared[state] = _figures(o_turn(b, rulings, known[1]))
                    played += 1
                memo[key] = out
            column.append(out)
        columns.append(column)
    values = [[o[0] for o in column] for column in columns]
    # The best after the roll: for each roll the best value; the assignments tied for it share the roll.
    shares: list[dict[int, int]] = [{} for _ in combos]
    tops = []
    for per_roll in zip(*values, strict=True):
        top = max(per_roll)
        tops.append(top)
        winners = [a for a, v in enumerate(per_roll) if v == top]
        for a in winners:
            shares[a][len(winners)] = shares[a].get(len(winners), 0) + 1
    # Step 6's policy, roll by roll.
    chosen = []
    for roll in rolls:
        b = base.copy()
        set_roll(b, rolled, roll)
        chosen.append(index[policy(b, rulings)])
    picks = [0] * len(combos)
    for a in chosen:
        picks[a] += 1
    rows = []
    for a, combo in enumerate(combos):
        p_best = sum((Fraction(count, k * n) for k, count in shares[a].items()), Fraction(0))
        rows.append(Row(combo, **_expect(columns[a], n), p_best=p_best, p_policy=Fraction(picks[a], n)))
    policy_column = [columns[a][r] for r, a in enumerate(chosen)]
    policy_best = Fraction(sum(1 for r, a in enumerate(chosen) if values[a][r] == tops[r]), n)
    policy_row = Row(None, **_expect(policy_column, n), p_best=policy_best, p_policy=Fraction(1))
    return Analysis(base, rolled, n, rows, policy_row, Fraction(sum(tops), n), played, rulings)


# --- labels ---------------------------------------------------------------------------------------------


def die_label(board: Board, i: int) -> str:
    return f"die {i} ({board.p.dice[i].colour})"


def target_label(board: Board, i: int, target: tuple) -> str:
    """What die ``i`` does in an assignment, for reading."""
    p = board.p
    die = p.dice[i]
    if target == KEEP:
        return "zone"
    if target[0] == "shield":
        return f"shield fort {target[1]}"
    if target[0] == "cross":
        return f"cross {p.creatures[target[1]].label}"
    if die.place == DISCARDED:
        return "lost"
    if die.place == SHIELD:
        f = next(f for f, fort in enumerate(p.forts) if i in fort.shields)
        return f"held: shield fort {f}"
    if die.place == CROSS:
        c = next(c for c in p.creatures if c.cross == i)
        return f"held: cross {c.label}"
    return "held"


# --- the board grammar ----------------------------------------------------------------------------------

_COLOUR = re.compile(r"^[a-z][a-z-]*$")
_FORT = re.compile(r"^\s*(?P<colour>[A-Za-z][A-Za-z-]*)\s*:\s*(?P<barriers>\d+)\s*"
                   r"(?::\s*(?P<shields>\d+(?:\s*\+\s*\d+)*)\s*)?$")
_CREATURE = re.compile(r"^\s*(?P<base>[^@,]+?)\s*@\s*(?P<fort>[^,]*?)\s*(?P<opts>,.*)?$")
_STATS = re.compile(r"^(\d+)\s*/\s*(\d+)$")
_GAIN = re.compile(r"^\+?(\d+)\s*/\s*\+?(\d+)$")
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")

FORT_FORMAT = "COLOUR:BARRIERS[:SHIELD], e.g. red:2 or green:1:4"
CREATURE_FORMAT = "ATK/EDR@FORT or CARD@FORT, then ,OPTION..., e.g. 3/2@0,deadly or pyre-drake@1"
CREATURE_OPTIONS = ("deadly, invade:COLOUR, assassin:COLOUR, cost=N, colour=COLOUR, cross-COLOUR=+A/+E or "
                    "cross-COLOUR=KEYWORD, dice=COLOUR:X-Y:+A/+E or dice=COLOUR:X-Y:KEYWORD, "
                    "cross=COLOUR:VALUE, damage=N, rested (theirs), new (mine)")


def _whole(where: str, what: str, text: str, low: int, high: int, why: str = "") -> int:
    text = str(text).strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise OptionError(f"{where}: {what} {text!r} is not a whole number from {low} to {high}{why}")
    return int(text)


class _Colours:
    """Checks colour names: those of the six forts and the catalog's cards (white where an icon allows)."""

    def __init__(self, known: Sequence[str]) -> None:
        self.known = sorted(set(known))

    def __call__(self, where: str, text: str, white: bool = False) -> str:
        colour = str(text).strip().lower()
        if colour == ANY_COLOUR and white:
            return colour
        if colour == ANY_COLOUR:
            raise OptionError(f"{where}: white is no card's or die's colour (in an icon it means any colour, "
                              "line 282)")
        if not _COLOUR.match(colour) or colour not in self.known:
            also = ", or white (any colour)" if white else ""
            raise OptionError(f"{where}: unknown colour {text!r}; accepted: {', '.join(self.known)} (the "
                              f"forts' and the catalog's colours){also}")
        return colour


def parse_fort(text: str, option: str, rulings: DragoborneRulings) -> tuple[str, int, list[int]]:
    """``COLOUR:BARRIERS[:SHIELD[+SHIELD...]]`` -> (colour, barriers, dragoshield values, oldest first)."""
    where = f"{option} {text!r}"
    m = _FORT.match(str(text))
    if not m:
        raise OptionError(f"{where}: not {FORT_FORMAT} (barriers 0-{FORT_BARRIERS}, a dragoshield's value "
                          f"1-{rulings.die})")
    colour = m["colour"].lower()
    if colour == ANY_COLOUR:
        raise OptionError(f"{where}: white is no banner's colour (in an icon it means any colour, line 282)")
    barriers = _whole(where, "barriers", m["barriers"], 0, FORT_BARRIERS,
                      f" (a fort starts with {FORT_BARRIERS}, line 173)")
    shields = [_whole(where, "dragoshield value", v, 1, rulings.die, f" (DG-die={rulings.die})")
               for v in (m["shields"] or "").replace(" ", "").split("+") if v]
    if shields and barriers == 0:
        raise OptionError(f"{where}: a fort without barriers is destroyed (line 137) and takes no "
                          "dragoshield (one there would have blocked every attack, line 238)")
    if len(shields) > 1 and rulings.shield_stack != "stack":
        raise OptionError(f"{where}: {len(shields)} dragoshields on one fort; DG-shield-stack=one allows one "
                          "(\"the dragoshield\"); give --ruling DG-shield-stack=stack")
    return colour, barriers, shields


@dataclass
class _Parsed:
    creature: Creature
    cross: tuple[str, int] | None


def _keyword(where: str, text: str, colours: _Colours) -> Keyword:
    text = text.strip().lower()
    if text == "deadly":
        return Keyword("deadly")
    name, sep, colour = text.partition(":")
    if sep and name in ("invade", "assassin"):
        return Keyword(name, colour=colours(where, colour))
    raise OptionError(f"{where}: {text!r} is not a keyword this board models; accepted: deadly, "
                      "invade:COLOUR, assassin:COLOUR (Immune and Ambush have no effect in combat here)")


def _gain(where: str, text: str, colours: _Colours) -> dict:
    """``+A/+E`` -> {atk, edr}; a keyword -> {keywords}."""
    m = _GAIN.match(text.strip())
    if m:
        return {"atk": _whole(where, "ATK gain", m[1], 0, MAX_STAT), "edr": _whole(where, "EDR gain", m[2], 0,
                                                                                   MAX_STAT)}
    return {"keywords": (_keyword(where, text, colours),)}


def parse_creature(text: str, option: str, mine: bool, forts: Sequence[str], colours: _Colours,
                   card: Callable[[str], Card], rulings: DragoborneRulings) -> _Parsed:
    """One ``--mine`` / ``--theirs`` value (see the module docstring)."""
    where = f"{option} {text!r}"
    m = _CREATURE.match(str(text))
    if not m:
        raise OptionError(f"{where}: not {CREATURE_FORMAT}")
    fort = _whole(where, "fort", m["fort"], 0, FORTS - 1, " (forts 0, 1, 2)")
    base = m["base"].strip()
    stats = _STATS.match(base)
    if stats:
        name, card_key = f"{stats[1]}/{stats[2]}", ""
        fields = {"atk": _whole(where, "ATK", stats[1], 0, MAX_STAT), "edr": _whole(where, "EDR", stats[2], 0,
                                                                                    MAX_STAT),
                  "cost": 0, "colour": forts[fort], "keywords": (), "dragocross": (), "dice": ()}
    else:
        try:
            found = card(base)
        except RulesError as exc:
            raise OptionError(f"{where}: {exc}") from None
        if not found.is_creature:
            raise OptionError(f"{where}: {found.name} is a {found.type}, not a creature; give a creature "
                              "card or ATK/EDR")
        name, card_key = found.name, found.key
        fields = {"atk": found.atk, "edr": found.edr, "cost": found.cost or 0, "colour": found.colour,
                  "keywords": found.keywords, "dragocross": found.dragocross, "dice": found.dice}
    keywords, bonuses, conditions = list(fields["keywords"]), list(fields["dragocross"]), list(fields["dice"])
    state = {"damage": 0, "rested": False, "new": False}
    cross = None
    for raw in (m["opts"] or "").split(",")[1:]:
        opt = raw.strip()
        key, sep, value = opt.partition("=")
        key = key.strip().lower()
        value = value.strip()
        if not opt:
            raise OptionError(f"{where}: an empty option (two commas); accepted: {CREATURE_OPTIONS}")
        if not sep and key in ("deadly",) or key.startswith(("invade:", "assassin:")):
            keywords.append(_keyword(where, opt, colours))
        elif key == "rested" and not sep:
            if mine:
                raise OptionError(f"{where}: rested: your creatures stood at your Stand Step (line 182); "
                                  "rested is for --theirs")
            state["rested"] = True
        elif key == "new" and not sep:
            if not mine:
                raise OptionError(f"{where}: new: only your creatures can have been summoned this turn")
            state["new"] = True
        elif key == "cost" and sep:
            fields["cost"] = _whole(where, "cost", value, 0, MAX_STAT)
        elif key in ("colour", "color") and sep:
            fields["colour"] = colours(where, value)
        elif key == "damage" and sep:
            state["damage"] = _whole(where, "damage", value, 0, MAX_STAT)
        elif key.startswith("cross-") and sep:
            bonus_colour = colours(where, key[len("cross-"):], white=True)
            bonuses.append(CrossBonus(bonus_colour, **_gain(where, value, colours)))
        elif key == "dice" and sep:
            parts = value.split(":", 2)
            span = _RANGE.match(parts[1].strip()) if len(parts) == 3 else None
            if span is None:
                raise OptionError(f"{where}: dice={value!r} is not COLOUR:X-Y:GAIN (GAIN +A/+E or a "
                                  "keyword), e.g. dice=red:5-6:+1/+0")
            low, high = int(span[1]), int(span[2] or span[1])
            if not 1 <= low <= high <= rulings.die:
                raise OptionError(f"{where}: dice={value!r}: X-Y must be within the die's faces "
                                  f"1-{rulings.die} (DG-die), X <= Y")
            conditions.append(DiceCondition(colours(where, parts[0], white=True), low, high,
                                            **_gain(where, parts[2], colours)))
        elif key == "cross" and sep:
            colour, _, shown = value.partition(":")
            cross = (colours(where, colour), _whole(where, "the dragocross die's value", shown, 1,
                                                    rulings.die, f" (DG-die={rulings.die})"))
        else:
            raise OptionError(f"{where}: unknown option {opt!r}; accepted: {CREATURE_OPTIONS}")
    creature = Creature(name, fields["atk"], fields["edr"], fields["cost"], fields["colour"], tuple(keywords),
                        tuple(bonuses), tuple(conditions), fort=fort, card=card_key, **state)
    return _Parsed(creature, cross)


def _claim(where: str, dice: list[Die], colour: str, prefer: int | None, owner: str) -> int:
    """The index of a free die of ``colour`` (``prefer`` first), marked taken; a one-line error otherwise."""
    free = [i for i, d in enumerate(dice) if d.colour == colour and d.place == ""]
    if prefer is not None and prefer in free:
        return prefer
    if not free:
        have = ", ".join(d.colour for d in dice)
        raise OptionError(f"{where}: no {colour} die of {owner} is left for it ({owner} {DICE} dice are the "
                          f"forts' colours, {have}: die i has fort i's colour, lines 147-149; each is on one "
                          "dragoshield, one creature, the zone or lost)")
    return free[0]


def _side(forts: Sequence[str], fort_option: str, creatures: Sequence[str], creature_option: str, mine: bool,
          extra: Sequence[str], colours: _Colours, card: Callable[[str], Card], rulings: DragoborneRulings
          ) -> Side:
    owner = "yours" if mine else "theirs"
    if len(forts) != FORTS:
        raise OptionError(f"{fort_option}: {len(forts)} given; a player has {FORTS} forts, one per banner "
                          f"(line 125): give {fort_option} {FORT_FORMAT} three times")
    parsed_forts = [parse_fort(text, fort_option, rulings) for text in forts]
    colours_of = [c for c, _, _ in parsed_forts]
    if sum(b for _, b, _ in parsed_forts) == 0:
        raise OptionError(f"{fort_option}: no barrier left in all: that player lost at the end of the last "
                          "turn (line 257); give at least one")
    dice = [Die(c, place="") for c in colours_of]  # place "" while free
    side_forts = []
    for f, (text, (colour, barriers, shields)) in enumerate(zip(forts, parsed_forts, strict=True)):
        fort = Fort(colour, barriers)
        for value in shields:
            i = _claim(f"{fort_option} {text!r}", dice, colour, f, owner)
            dice[i].place, dice[i].value, dice[i].assigned = SHIELD, value, value
            fort.shields.append(i)
        side_forts.append(fort)
    parsed = [parse_creature(text, creature_option, mine, colours_of, colours, card, rulings)
              for text in creatures]
    for f in range(FORTS):
        at = [t for t, p in zip(creatures, parsed, strict=True) if p.creature.fort == f]
        if len(at) > PER_FORT:
            raise OptionError(f"{creature_option}: {len(at)} creatures at fort {f} ({', '.join(at)}); a fort "
                              f"holds at most {PER_FORT} (line 122)")
    for text, p in zip(creatures, parsed, strict=True):
        if p.cross is not None:
            i = _claim(f"{creature_option} {text!r}", dice, p.cross[0], None, owner)
            dice[i].place, dice[i].value = CROSS, p.cross[1]
            p.creature.cross = i
    for text in extra:
        if mine:
            colour = colours(f"--lost {text!r}", text)
            i = _claim(f"--lost {text!r}", dice, colour, None, owner)
            dice[i].place = DISCARDED
        else:
            where = f"--their-die {text!r}"
            colour, sep, shown = str(text).partition(":")
            if not sep:
                raise OptionError(f"{where}: not COLOUR:VALUE, e.g. green:5")
            colour = colours(where, colour)
            value = _whole(where, "value", shown, 1, rulings.die, f" (DG-die={rulings.die})")
            i = _claim(where, dice, colour, None, owner)
            dice[i].place, dice[i].value = ZONE, value
    for d in dice:
        if d.place == "":  # P's other dice are in its Dice Zone, to be rolled; O's others are discarded
            d.place = ZONE if mine else DISCARDED
    side = Side(side_forts, [p.creature for p in parsed], dice)
    for text, p in zip(creatures, parsed, strict=True):
        c = p.creature
        edr = side.stats(c, rulings).edr
        if c.damage >= edr:
            raise OptionError(f"{creature_option} {text!r}: damage={c.damage} reaches its EDR {edr}: it "
                              "would have been destroyed (line 243); give less")
    return side


def parse_board(forts: Sequence[str], their_forts: Sequence[str], mine: Sequence[str] = (),
                theirs: Sequence[str] = (), lost: Sequence[str] = (), their_dice: Sequence[str] = (),
                rulings: DragoborneRulings | None = None, catalog=None) -> Board:
    """The board from the command line's grammar (see the module docstring); ``catalog``: a
    rulesets.dragoborne.catalog.Catalog for card keys (the packaged one when None and a card is named).
    Every malformed or unaccepted value raises a one-line OptionError naming it and what is accepted."""
    rulings = rulings or DragoborneRulings()
    cache = {"catalog": catalog}

    def load():
        if cache["catalog"] is None:
            from rulesets.dragoborne import catalog as catalog_io

            cache["catalog"] = catalog_io.load()
        return cache["catalog"]

    fort_colours = []
    for texts in (forts, their_forts):
        for text in texts:
            m = _FORT.match(str(text))
            if m:
                fort_colours.append(m["colour"].lower())
    colours = _Colours([*fort_colours, *load().colours])
    p = _side(forts, "--fort", mine, "--mine", True, lost, colours, lambda k: load().card(k), rulings)
    o = _side(their_forts, "--their-fort", theirs, "--theirs", False, their_dice, colours,
              lambda k: load().card(k), rulings)
    return Board(p, o)
