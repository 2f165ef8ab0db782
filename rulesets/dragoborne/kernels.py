"""Compiled Dragoborne: whole games between two decks, played as rulesets/dragoborne/game.py specifies.

The plain-Python twin (tests/naive_dragoborne.py) plays the same specification card by card; this kernel
keeps every zone in small integer arrays allocated once per run. rulesets.dragoborne.simulate builds the
card tables (:data:`C_*`, :data:`X_*`, :data:`K_*` rows) and the rulings row (:data:`RL_*`).

Records contract (simcore.runner.run_records): trial t draws from the stream (seed, t) alone. An
engagement's trial plays up to three games from that same starting stream (common random numbers): the
variant (each side's deck with its replacement card), and, when asked, each side's deck without its
replacement against the other's variant, so a card's effect on its deck's win rate is a paired difference.

Speed notes: numba does not inline one compiled function into another, and it passes every array as a
struct of several words, so the per-turn functions take few arrays: the player state ``st`` (which also
carries the rulings and the scratch space) and the kernel's own card table ``ct``. Choices over a random
hand are made by comparing precomputed keys without data-dependent branches (those mispredict).
"""

from __future__ import annotations

from enum import IntEnum

import numba as nb
import numpy as np

from rulesets.dragoborne.game import (
    BARRIERS_PER_FORT,
    CROSS_ATK,
    CROSS_EDR,
    DEADLY_CROSS_GAIN,
    FORTS,
    HAND_LIMIT,
    MAX_HAND,
    MAX_TURNS,
    MULLIGAN_COST,
    PER_FORT,
    SCORE_ASSASSIN_TRADE,
    SCORE_ASSASSINATE,
    SCORE_BAD_TRADE,
    SCORE_DIES,
    SCORE_KILLS_SURVIVES,
    SCORE_SHIELD_BROKEN,
    SCORE_SHIELD_WORN,
    SCORE_SURVIVES,
    SCORE_TRADE,
    SCORE_UNBLOCKED,
    SHIELD_MIN,
    BlockCategory,
)
from rulesets.dragoborne.rules import DICE, HAND
from simcore.config import JIT, TRIAL_JIT
from simcore.rng import STATE_WORDS, seed_trial_stream, uniform_int

PLACES = FORTS * PER_FORT
#: A fort's places in a bit set of places (bit s: place s): FORT_BITS << fort * PER_FORT.
FORT_BITS = (1 << PER_FORT) - 1
OPENING = HAND
BIG = 1 << 30

# card table ``tab`` (int64[n_cards, width]), one row per card: its fields (C_*), then its DICE X-Y
# conditions (KB + k * N_COND + K_*; K_COLOUR -1: any colour), then its dragocross bonus by die colour
# (XB + colour * N_CROSS + X_*, the white bonus folded into every colour). Masks: bit j = colour index j.
# Spells (DG-spells=removal): C_SPELL (Spell) with its damage C_AMOUNT (Spell.DESTROY: the highest ATK it
# destroys), C_SPLASH (Spell.SPLASH: the damage to each other creature at the target's fort), C_BOOST (> 0:
# the damage instead when its DICE X-Y C_BOOST_COLOUR (-1: any), C_BOOST_LOW..C_BOOST_HIGH is met);
# C_IMMUNE: the colours a creature is Immune to (line 316). DG-spells=all also reads Spell.PUMP_ATK and
# Spell.PUMP_EDR (C_AMOUNT: the ATK or EDR given) and Spell.SNARE (C_AMOUNT: the ATK an ambush takes).
(C_CREATURE, C_COLOUR, C_COST, C_ATK, C_EDR, C_DEADLY, C_ASSASSIN, C_INVADE, C_NCOND, C_SPELL, C_AMOUNT,
 C_SPLASH, C_BOOST, C_BOOST_COLOUR, C_BOOST_LOW, C_BOOST_HIGH, C_IMMUNE, N_CARD) = range(18)
(K_COLOUR, K_LOW, K_HIGH, K_ATK, K_EDR, K_DEADLY, K_ASSASSIN, K_INVADE, N_COND) = range(9)
(X_ATK, X_EDR, X_DEADLY, X_ASSASSIN, X_INVADE, N_CROSS) = range(6)
MAX_CONDITIONS = 4
KB = N_CARD
XB = KB + MAX_CONDITIONS * N_COND
# The kernel's own card table ``ct`` (built by game_records from ``tab`` and the rulings): tab's fields and
# conditions in the same columns (0 .. XB - 1), then fields derived from them (G_*), then tab's dragocross
# bonuses (YB + colour * N_CROSS + X_*). G_SUMMON: the summon order key (step 5: cost, then base ATK + EDR,
# then the lower card index; higher first; -1: never summoned, a spell or a '-' cost); G_DISCARD: the
# discard order key (step 8, higher first); G_BASE: base ATK + EDR; G_MULLIGAN: 1 if the mulligan strategy
# returns the card.
G_SUMMON, G_DISCARD, G_BASE, G_MULLIGAN = range(XB, XB + 4)
N_DERIVED = 4
YB = XB + N_DERIVED
# bits of each part of the summon and discard keys (costs, ATK + EDR and card indices stay below 2**20)
KEY_BITS = 20
# rulings row (int64[N_RULINGS])
# (RL_MULLIGAN, RL_MULLIGAN_COST: the mulligan strategy, Mulligan, and its cost K for Mulligan.BACK: not
# rulings, but policies the caller chooses, carried in the same row)
(RL_DIE, RL_REROLL, RL_PERSIST, RL_ZONE_ONLY, RL_STACK, RL_CROSS_DISCARD, RL_EACH_FIRST, RL_SICKNESS,
 RL_MULLIGAN, RL_MULLIGAN_COST, RL_MOVE, RL_SPELLS, N_RULINGS) = range(13)
#: "Pay two resources of any color to place the card with the ambush ability face-down" (line 209).
AMBUSH_COST = 2


class Spells(IntEnum):
    """DG-spells (RL_SPELLS; game.py step 5): which spells are cast."""

    NONE = 0
    REMOVAL = 1  # the removal texts (Spell.DAMAGE .. Spell.SWEEP)
    ALL = 2  # the removal texts, the pumps (Spell.PUMP_ATK, PUMP_EDR); Spell.SNARE, AMBUSHER set as ambushes


class Spell(IntEnum):
    """A spell's effect as the game reads its text (C_SPELL; DG-spells=removal casts all but NONE)."""

    NONE = 0  # never cast: any other text ("Stand a creature in rest.": game.py step 6b says why)
    DAMAGE = 1  # "Deal N damage to a creature."
    SPLASH = 2  # "Deal N damage to a creature and M damage to each other creature at its fort."
    DESTROY = 3  # "Destroy a creature with ATK N or less."
    SWEEP = 4  # "Deal N damage to each creature at a fort." (DICE X-Y: "Deal N damage instead.")
    PUMP_ATK = 5  # "A creature gets +N/+0 until the end of the turn." (DG-spells=all)
    PUMP_EDR = 6  # "A creature gets +0/+N until the end of the turn." (DG-spells=all)
    SNARE = 7  # Ambush, "If this card is an ambush: when an opposing creature attacks this fort, it gets
    # -N/-0 until the end of the battle." (DG-spells=all: set as an ambush, line 209)
    AMBUSHER = 8  # a creature with Ambush, "If this card is an ambush: when an opposing creature attacks
    # this fort, summon this creature to it; it blocks that attack." (DG-spells=all: set as an ambush when it
    # is still in hand after the summons; otherwise summoned as any creature)


class Move(IntEnum):
    """DG-move (RL_MOVE; game.py steps 5 and 6c): which of the Main Phase's moves (line 226) are played."""

    NONE = 0  # no creature moves
    GUARD = 1  # step 5: off destroyed forts, onto forts with barriers and no creature
    SWITCH = 2  # GUARD, then step 6c: the creatures that stay standing switch onto exposed forts


class Mulligan(IntEnum):
    """The mulligan strategy (RL_MULLIGAN; game.py setup 2): which cards of the opening hand go back."""

    POLICY = 0  # spells, '-' cards and creatures costing MULLIGAN_COST or more
    BACK = 1  # '-' cards and cards costing RL_MULLIGAN_COST or more
    NONE = 2
    ALL = 3


#: Own turns whose early play is recorded (Record.CURVE_*).
CURVE_TURNS = 4


class Reroll(IntEnum):
    """DG-reroll-assigned (RL_REROLL; game.py step 2)."""

    UNASSIGNED = 0  # unassigned-only
    ALL_KEEP = 1  # all-keep
    ALL_RETURN = 2  # all-return


# A player's whole state is one row of ``st`` (int64[2, width]): its fields (PL_*), then its six creature
# places (CRB + place * N_PLACE + CR_*; card -1: empty), its three dice (DB + die * N_DIE + D_*), its three
# forts (FB + fort * N_FORT + F_*: colour, barriers left, the barrier cards bottom first), its hand (HB + i),
# its resources by colour (RB + colour), the rulings row (LB + RL_*, the same in both rows), scratch space
# (the unrested resources by colour while casting and summoning, FRB + colour; the attack order, OB + i,
# and its keys, AB + i) and its deck (DK + i, the top at PL_TOP). One array keeps the calls between the
# per-turn functions cheap. CR_PUMP_ATK, CR_PUMP_EDR: what pump spells give the creature until the end of
# the turn; F_AMBUSH: 1 + the card index of the ambush set at the fort (0: none; DG-spells=all).
(PL_TOP, PL_SIZE, PL_HAND, PL_RES, PL_TARGET, PL_SUMMONED, PL_DICE_LOST, PL_OWN_TURNS, PL_ORDER,
 N_PLAYER) = range(10)
(CR_CARD, CR_DMG, CR_RESTED, CR_NEW, CR_DIE, CR_PUMP_ATK, CR_PUMP_EDR, N_PLACE) = range(8)
(D_COLOUR, D_LOC, D_VALUE, D_BASE, D_FORT, D_SLOT, D_ORDER, N_DIE) = range(8)


class DieAt(IntEnum):
    """Where a die is (D_LOC)."""

    ZONE = 0  # the Dice Zone
    SHIELD = 1  # a dragoshield on fort D_FORT
    CROSS = 2  # dragocrossing the creature at place D_SLOT
    GONE = 3  # discarded


(F_COLOUR, F_BARRIERS, F_CARD0, F_CARD1, F_AMBUSH, N_FORT) = range(6)
MAX_COLOURS = 60
CRB = N_PLAYER
DB = CRB + PLACES * N_PLACE
FB = DB + DICE * N_DIE
HB = FB + FORTS * N_FORT
RB = HB + MAX_HAND
LB = RB + MAX_COLOURS
FRB = LB + N_RULINGS
OB = FRB + MAX_COLOURS
AB = OB + PLACES
DK = AB + PLACES


class Record(IntEnum):
    """Columns of a game's record (int64[n, N_RECORD], one row per trial); per-side columns: side 0's
    member, then side 1's. rulesets.dragoborne.simulate.GameRecords names their views."""

    WINNER = 0  # 0 or 1 by deck, DRAW
    FIRST = 1  # the deck that went first
    TURNS = 2  # game turns played (both players')
    END = 3  # End
    BARRIERS_0 = 4  # barriers side 0 has left
    BARRIERS_1 = 5
    SUMMONED_0 = 6  # creatures side 0 summoned
    SUMMONED_1 = 7
    DICE_LOST_0 = 8  # dice side 0 lost
    DICE_LOST_1 = 9
    CURVE_0 = 10  # bit t-1: side 0 summoned a creature on its own turn t (1..CURVE_TURNS); bit
    CURVE_1 = 11  # CURVE_TURNS + t - 1: it spent every resource that turn
    BASE_WINNER_0 = 12  # the winner with side 0's deck unchanged (no replacement card); -1: not played
    BASE_WINNER_1 = 13


N_RECORD = len(Record)
#: The fields one game fills (WINNER .. CURVE_1); the BASE_WINNER columns come from replayed games.
N_GAME = int(Record.BASE_WINNER_0)
#: Record.WINNER of a game drawn after MAX_TURNS game turns.
DRAW = 2


class End(IntEnum):
    """How a game ends (Record.END)."""

    BARRIERS = 0  # the loser has no barrier left (line 257)
    DECK_OUT = 1  # the loser must draw from an empty deck (line 8)
    DRAW = 2  # MAX_TURNS game turns played


# The names records were read by before Record and End (rulesets/dragoborne/contest.py, benchmarks/run.py).
R_WINNER, R_FIRST, R_TURNS, R_END = Record.WINNER, Record.FIRST, Record.TURNS, Record.END
R_BARRIERS_0, R_SUMMONED_0, R_DICE_LOST_0 = Record.BARRIERS_0, Record.SUMMONED_0, Record.DICE_LOST_0
R_BASE_WINNER_0 = Record.BASE_WINNER_0
END_BARRIERS, END_DECK_OUT, END_DRAW = End.BARRIERS, End.DECK_OUT, End.DRAW
# O's block categories (game.BlockCategory) as plain integers: the variable that holds the best one so far
# also holds "none yet" (CAT_NONE, worse than any)
CAT_SURVIVES_AND_KILLS, CAT_SURVIVES, CAT_KILLS_AND_DIES, CAT_DIES = (int(c) for c in BlockCategory)
CAT_NONE = len(BlockCategory)


@nb.njit(**TRIAL_JIT)
def _cond_met(st, p, colour, low, high, zone_only):
    for d in range(DICE):
        loc = st[p, DB + d * N_DIE + D_LOC]
        if loc == DieAt.GONE or (zone_only and loc != DieAt.ZONE):
            continue
        if colour >= 0 and st[p, DB + d * N_DIE + D_COLOUR] != colour:
            continue
        v = st[p, DB + d * N_DIE + D_VALUE]
        if v >= 1 and low <= v <= high:
            return True
    return False


@nb.njit(**TRIAL_JIT)
def _eff(st, p, s, ct, zone_only):
    """Effective (ATK, EDR, Deadly, Assassin mask, Invade mask) of the creature at place s of player p."""
    c = st[p, CRB + s * N_PLACE + CR_CARD]
    atk = ct[c, C_ATK] + st[p, CRB + s * N_PLACE + CR_PUMP_ATK]
    edr = ct[c, C_EDR] + st[p, CRB + s * N_PLACE + CR_PUMP_EDR]
    deadly = ct[c, C_DEADLY]
    ass = ct[c, C_ASSASSIN]
    inv = ct[c, C_INVADE]
    d = st[p, CRB + s * N_PLACE + CR_DIE]
    if d >= 0:
        q = YB + st[p, DB + d * N_DIE + D_COLOUR] * N_CROSS
        atk += CROSS_ATK + ct[c, q + X_ATK]
        edr += CROSS_EDR + ct[c, q + X_EDR]
        deadly |= ct[c, q + X_DEADLY]
        ass |= ct[c, q + X_ASSASSIN]
        inv |= ct[c, q + X_INVADE]
    for k in range(ct[c, C_NCOND]):
        q = KB + k * N_COND
        if _cond_met(st, p, ct[c, q + K_COLOUR], ct[c, q + K_LOW], ct[c, q + K_HIGH], zone_only):
            atk += ct[c, q + K_ATK]
            edr += ct[c, q + K_EDR]
            deadly |= ct[c, q + K_DEADLY]
            ass |= ct[c, q + K_ASSASSIN]
            inv |= ct[c, q + K_INVADE]
    return atk, edr, deadly, ass, inv


@nb.njit(**TRIAL_JIT)
def _kills(atk, deadly, edr_left):
    """Whether a hit of this ATK destroys a creature with this much EDR left (Deadly: any damage, line 312;
    0 ATK deals none)."""
    return atk >= 1 and (deadly != 0 or atk >= edr_left)


@nb.njit(**TRIAL_JIT)
def _leave(st, p, s):
    """The creature at place s leaves play; its dragocross die follows DG-cross-die."""
    d = st[p, CRB + s * N_PLACE + CR_DIE]
    if d >= 0:
        if st[p, LB + RL_CROSS_DISCARD]:
            st[p, DB + d * N_DIE + D_LOC] = DieAt.GONE
            st[p, PL_DICE_LOST] += 1
        else:
            st[p, DB + d * N_DIE + D_LOC] = DieAt.ZONE
    st[p, CRB + s * N_PLACE + CR_CARD] = -1
    st[p, CRB + s * N_PLACE + CR_DIE] = -1
    st[p, CRB + s * N_PLACE + CR_DMG] = 0
    st[p, CRB + s * N_PLACE + CR_RESTED] = 0
    st[p, CRB + s * N_PLACE + CR_NEW] = 0
    st[p, CRB + s * N_PLACE + CR_PUMP_ATK] = 0
    st[p, CRB + s * N_PLACE + CR_PUMP_EDR] = 0


@nb.njit(**TRIAL_JIT)
def _sweep(st, ct):
    """Destroy every creature whose damage reaches its effective EDR, in passes (all of a pass at once),
    until a pass destroys none (a die coming back or a shield worn down can change DICE X-Y gains)."""
    zone_only = st[0, LB + RL_ZONE_ONLY] != 0
    while True:
        marked = 0
        for p in range(2):
            for s in range(PLACES):
                if st[p, CRB + s * N_PLACE + CR_CARD] >= 0 and st[p, CRB + s * N_PLACE + CR_DMG] > 0:
                    if st[p, CRB + s * N_PLACE + CR_DMG] >= _eff(st, p, s, ct, zone_only)[1]:
                        marked |= 1 << (p * PLACES + s)
        if marked == 0:
            return
        for p in range(2):
            for s in range(PLACES):
                if (marked >> (p * PLACES + s)) & 1:
                    _leave(st, p, s)


@nb.njit(**TRIAL_JIT)
def _barriers(st, p):
    total = 0
    for f in range(FORTS):
        total += st[p, FB + f * N_FORT + F_BARRIERS]
    return total


@nb.njit(**TRIAL_JIT)
def _block_choice(st, o, f, atk, deadly, edr_left, ct, zone_only):
    """O's blocker at fort f against an attacker (game.py step 7), or -1, and its category (CAT_*:
    game.BlockCategory)."""
    best, best_cat, best_cost = -1, CAT_NONE, BIG
    for k in range(PER_FORT):
        s = f * PER_FORT + k
        if st[o, CRB + s * N_PLACE + CR_CARD] < 0 or st[o, CRB + s * N_PLACE + CR_RESTED]:
            continue
        batk, bedr, bdeadly, _, _ = _eff(st, o, s, ct, zone_only)
        survives = not _kills(atk, deadly, bedr - st[o, CRB + s * N_PLACE + CR_DMG])
        kills = _kills(batk, bdeadly, edr_left)
        cat = (CAT_SURVIVES_AND_KILLS if (survives and kills) else
               (CAT_SURVIVES if survives else (CAT_KILLS_AND_DIES if kills else CAT_DIES)))
        cost = ct[st[o, CRB + s * N_PLACE + CR_CARD], C_COST]
        if cat < best_cat or (cat == best_cat and cost < best_cost):
            best, best_cat, best_cost = s, cat, cost
    if best_cat == CAT_DIES:
        total = _barriers(st, o)
        if total != 1:
            return -1, best_cat
    return best, best_cat


@nb.njit(**TRIAL_JIT)
def _oldest_shield(st, o, f):
    best, order = -1, BIG
    for d in range(DICE):
        q = DB + d * N_DIE
        if st[o, q + D_LOC] == DieAt.SHIELD and st[o, q + D_FORT] == f and st[o, q + D_ORDER] < order:
            best, order = d, st[o, DB + d * N_DIE + D_ORDER]
    return best


@nb.njit(**TRIAL_JIT)
def _exchange(st, p, s, o, b, atk, deadly, ct, zone_only):
    """The attacker at (p, s) and the blocker at (o, b) deal their effective ATK to each other at once."""
    batk, _, bdeadly, _, _ = _eff(st, o, b, ct, zone_only)
    st[o, CRB + (b) * N_PLACE + CR_RESTED] = 1
    if atk >= 1:
        st[o, CRB + (b) * N_PLACE + CR_DMG] += BIG if deadly else atk
    if batk >= 1:
        st[p, CRB + s * N_PLACE + CR_DMG] += BIG if bdeadly else batk


@nb.njit(**TRIAL_JIT)
def _ambush_summon(st, o, f, card, ct):
    """Player o's ambush ``card`` (a Spell.AMBUSHER) is summoned to its fort f: to the first open slot, or,
    at a fort holding two, in place of the one of lower base ATK + EDR (G_BASE; ties: slot 1), which is
    discarded, not destroyed (line 205). Returns its place."""
    t = -1
    for k in range(PER_FORT - 1, -1, -1):
        if st[o, CRB + (f * PER_FORT + k) * N_PLACE + CR_CARD] < 0:
            t = f * PER_FORT + k
    if t < 0:
        first, second = f * PER_FORT, f * PER_FORT + 1
        base_first = ct[st[o, CRB + first * N_PLACE + CR_CARD], G_BASE]
        t = first if base_first < ct[st[o, CRB + second * N_PLACE + CR_CARD], G_BASE] else second
        _leave(st, o, t)
    _place(st, o, t, card, 0)  # summoned in the opponent's turn: not new in o's next one
    return t


@nb.njit(**TRIAL_JIT)
def _place(st, p, s, card, new):
    """Player p summons ``card`` to the empty place s: standing, undamaged, no die, no pump; ``new``: 1
    when summoned in p's own turn (DG-summoning-sickness)."""
    st[p, CRB + s * N_PLACE + CR_CARD] = card
    st[p, CRB + s * N_PLACE + CR_DMG] = 0
    st[p, CRB + s * N_PLACE + CR_RESTED] = 0
    st[p, CRB + s * N_PLACE + CR_NEW] = new
    st[p, CRB + s * N_PLACE + CR_DIE] = -1
    st[p, CRB + s * N_PLACE + CR_PUMP_ATK] = 0
    st[p, CRB + s * N_PLACE + CR_PUMP_EDR] = 0
    st[p, PL_SUMMONED] += 1


@nb.njit(**TRIAL_JIT)
def _combat(st, p, ct):
    """Player p's combat phase (game.py step 7)."""
    o = 1 - p
    zone_only = st[p, LB + RL_ZONE_ONLY] != 0
    sickness = st[p, LB + RL_SICKNESS] != 0
    # whether any creature took damage this combat: until one has, a sweep finds nothing to destroy (it
    # looks only at damaged creatures), so it is skipped
    hurt = False
    n = 0
    for s in range(PLACES):
        q = CRB + s * N_PLACE
        if st[p, q + CR_CARD] < 0 or st[p, q + CR_RESTED] or (sickness and st[p, q + CR_NEW]):
            continue
        atk = _eff(st, p, s, ct, zone_only)[0]
        if atk < 1:
            continue
        # insertion by ATK descending, place order on ties (order: st[p, OB + i], its keys st[p, AB + i])
        i = n
        while i > 0 and st[p, AB + i - 1] < atk:
            st[p, AB + i] = st[p, AB + i - 1]
            st[p, OB + i] = st[p, OB + i - 1]
            i -= 1
        st[p, AB + i] = atk
        st[p, OB + i] = s
        n += 1
    for i in range(n):
        s = st[p, OB + i]
        if st[p, CRB + s * N_PLACE + CR_CARD] < 0 or st[p, CRB + s * N_PLACE + CR_RESTED]:
            continue
        atk, edr, deadly, ass, inv = _eff(st, p, s, ct, zone_only)
        if atk < 1:
            continue
        edr_left = edr - st[p, CRB + s * N_PLACE + CR_DMG]
        my_cost = ct[st[p, CRB + s * N_PLACE + CR_CARD], C_COST]
        best_score, best_f, best_r, best_b = 0, -1, -1, -1
        for f in range(FORTS):
            barriers = st[o, FB + f * N_FORT + F_BARRIERS]
            if barriers <= 0:
                continue
            b = -1
            sh = _oldest_shield(st, o, f)
            if sh >= 0:
                score = SCORE_SHIELD_BROKEN if atk >= st[o, DB + sh * N_DIE + D_VALUE] else SCORE_SHIELD_WORN
            else:
                cat = CAT_SURVIVES_AND_KILLS
                if not (inv >> st[o, FB + f * N_FORT + F_COLOUR]) & 1:
                    b, cat = _block_choice(st, o, f, atk, deadly, edr_left, ct, zone_only)
                if b < 0:
                    score = SCORE_UNBLOCKED - barriers
                # the blocker's category says whether the attacker kills it (it does not survive) and dies
                # (it kills the attacker)
                elif cat == CAT_DIES:
                    score = SCORE_KILLS_SURVIVES
                elif cat == CAT_KILLS_AND_DIES:
                    cheaper = ct[st[o, CRB + (b) * N_PLACE + CR_CARD], C_COST] < my_cost
                    score = SCORE_BAD_TRADE if cheaper else SCORE_TRADE
                elif cat == CAT_SURVIVES:
                    score = SCORE_SURVIVES
                else:
                    score = SCORE_DIES
            if score > best_score:
                best_score, best_f, best_r, best_b = score, f, -1, b
        if ass != 0:
            for r in range(PLACES):
                c = st[o, CRB + (r) * N_PLACE + CR_CARD]
                if c < 0 or not st[o, CRB + (r) * N_PLACE + CR_RESTED] or not (ass >> ct[c, C_COLOUR]) & 1:
                    continue
                ratk, redr, rdeadly, _, _ = _eff(st, o, r, ct, zone_only)
                kills = _kills(atk, deadly, redr - st[o, CRB + (r) * N_PLACE + CR_DMG])
                dies = _kills(ratk, rdeadly, edr_left)
                if kills and not dies:
                    score = SCORE_ASSASSINATE
                elif kills:
                    score = SCORE_ASSASSIN_TRADE if ct[c, C_COST] >= my_cost else SCORE_BAD_TRADE
                else:
                    score = SCORE_DIES
                if score > best_score:
                    best_score, best_f, best_r, best_b = score, -1, r, -1
        if best_score <= 0:
            continue
        st[p, CRB + s * N_PLACE + CR_RESTED] = 1
        # DG-spells=all: an ambush at the fort attacked (not an assassination: a creature is attacked)
        # triggers as the attack is declared (line 230), before the block (line 236), unless the attacker is
        # Immune to its colour (line 316); it goes to the discard pile. The attacker chose its fort not
        # knowing the face-down card; O chooses its blocker again, against the lowered ATK.
        # A Spell.AMBUSHER is summoned to the fort (line 205: to a fort holding two, the weaker of them is
        # discarded) and blocks the attack, in place of the dragoshield too (its text names the blocker),
        # unless the attacker has Invade for the fort's colour ("cannot be blocked by creatures", line 320).
        amb = st[o, FB + best_f * N_FORT + F_AMBUSH] - 1 if best_r < 0 else -1
        sprung = -1
        if amb >= 0 and not (ct[st[p, CRB + s * N_PLACE + CR_CARD], C_IMMUNE] >> ct[amb, C_COLOUR]) & 1:
            st[o, FB + best_f * N_FORT + F_AMBUSH] = 0
            invaded = (inv >> st[o, FB + best_f * N_FORT + F_COLOUR]) & 1
            if ct[amb, C_SPELL] == Spell.AMBUSHER:
                placed = _ambush_summon(st, o, best_f, amb, ct)
                sprung = -1 if invaded else placed
            else:
                atk -= ct[amb, C_AMOUNT]
                if _oldest_shield(st, o, best_f) < 0 and not invaded:
                    best_b = _block_choice(st, o, best_f, atk, deadly, edr_left, ct, zone_only)[0]
        if best_r >= 0 or sprung >= 0:
            _exchange(st, p, s, o, best_r if best_r >= 0 else sprung, atk, deadly, ct, zone_only)
            hurt = True
        else:
            f = best_f
            sh = _oldest_shield(st, o, f)
            if sh >= 0:
                st[o, DB + sh * N_DIE + D_VALUE] -= max(atk, 0)
                if st[o, DB + sh * N_DIE + D_VALUE] <= 0:
                    st[o, DB + sh * N_DIE + D_LOC] = DieAt.GONE
                    st[o, PL_DICE_LOST] += 1
            elif best_b >= 0:
                _exchange(st, p, s, o, best_b, atk, deadly, ct, zone_only)
                hurt = True
            elif atk >= 1:  # "if the creature's ATK is one or greater" (line 246): an ambush can lower it
                k = st[o, FB + f * N_FORT + F_BARRIERS] - 1
                st[o, FB + f * N_FORT + F_BARRIERS] = k
                st[o, HB + st[o, PL_HAND]] = st[o, FB + f * N_FORT + F_CARD0 + k]
                st[o, PL_HAND] += 1
        if hurt:
            _sweep(st, ct)


@nb.njit(**TRIAL_JIT)
def _play_from_hand(st, p, i, colour, cost, ncol):
    """Player p plays the card at hand position i (line 202): rests ``cost`` unrested resources, one of the
    card's ``colour``, then each from the colour with most unrested resources; the card leaves the hand."""
    if cost >= 1:
        st[p, FRB + colour] -= 1
        for _ in range(cost - 1):
            m, mc = -1, -1
            for c in range(ncol):
                if st[p, FRB + c] > m:
                    m, mc = st[p, FRB + c], c
            st[p, FRB + mc] -= 1
    last = st[p, PL_HAND] - 1
    st[p, HB + i] = st[p, HB + last]
    st[p, PL_HAND] = last


@nb.njit(**TRIAL_JIT)
def _summon(st, p, ct, ncol):
    """Player p's summons (game.py step 5) from the unrested resources FRB: (resources left unspent,
    creatures summoned)."""
    nfree = 0
    for c in range(ncol):
        nfree += st[p, FRB + c]
    played = 0
    while True:
        # the payable creature of highest summon key (G_SUMMON), the first in hand on ties (the same card)
        # (every load is unconditional, so that the compiler can use conditional moves)
        bkey, bi = -1, -1
        for i in range(st[p, PL_HAND]):
            c = st[p, HB + i]
            cost = ct[c, C_COST]
            key = ct[c, G_SUMMON]
            ok = (cost <= nfree) & ((cost == 0) | (st[p, FRB + ct[c, C_COLOUR]] > 0))
            key = key if ok else -1
            better = key > bkey
            bkey = key if better else bkey
            bi = i if better else bi
        if bkey < 0:
            return nfree, played
        best = st[p, HB + bi]
        bcost = ct[best, C_COST]
        bbase = ct[best, G_BASE]
        # a place: the fort with barriers and an opening holding fewest creatures (ties: fewer barriers,
        # lower fort); else the lowest destroyed fort with an opening
        place, pn, pb = -1, BIG, BIG
        for f in range(FORTS):
            if st[p, FB + f * N_FORT + F_BARRIERS] <= 0:
                continue
            m = 0
            for k in range(PER_FORT):
                if st[p, CRB + (f * PER_FORT + k) * N_PLACE + CR_CARD] >= 0:
                    m += 1
            if m < PER_FORT and (m < pn or (m == pn and st[p, FB + f * N_FORT + F_BARRIERS] < pb)):
                pn, pb = m, st[p, FB + f * N_FORT + F_BARRIERS]
                place = f
        slot = -1
        if place >= 0:
            for k in range(PER_FORT):
                if st[p, CRB + (place * PER_FORT + k) * N_PLACE + CR_CARD] < 0:
                    slot = place * PER_FORT + k
                    break
        else:
            for s in range(PLACES):
                if st[p, CRB + s * N_PLACE + CR_CARD] < 0:
                    slot = s
                    break
        if slot < 0:
            weakest, wbase = -1, BIG
            for s in range(PLACES):
                wb = ct[st[p, CRB + s * N_PLACE + CR_CARD], G_BASE]
                if wb < wbase:
                    weakest, wbase = s, wb
            if bbase <= wbase:
                return nfree, played
            _leave(st, p, weakest)
            slot = weakest
        _play_from_hand(st, p, bi, ct[best, C_COLOUR], bcost, ncol)
        nfree -= bcost
        _place(st, p, slot, best, 1)
        played += 1


@nb.njit(**TRIAL_JIT)
def _worth(st, o, s, ct):
    """What destroying player o's creature at place s is worth to a spell (game.py step 5, DG-spells): its
    cost ('-': 0) times 8, plus 1 (so that, at equal cost, more creatures are worth more: at most 6)."""
    return max(ct[st[o, CRB + s * N_PLACE + CR_CARD], C_COST], 0) * 8 + 1


@nb.njit(**TRIAL_JIT)
def _sweep_damage(st, p, c, ct, zone_only):
    """A Spell.SWEEP card's damage: C_BOOST instead of C_AMOUNT when its DICE X-Y is met by p's dice."""
    if ct[c, C_BOOST] > 0 and _cond_met(st, p, ct[c, C_BOOST_COLOUR], ct[c, C_BOOST_LOW], ct[c, C_BOOST_HIGH],
                                        zone_only):
        return ct[c, C_BOOST]
    return ct[c, C_AMOUNT]


@nb.njit(**TRIAL_JIT)
def _spell_target(st, p, c, ct, zone_only):
    """(worth, target) of player p's spell card c at its best target among the opponent's creatures (a
    place) or forts (Spell.SWEEP): the worth (:func:`_worth`) of the opposing creatures it destroys, 0 if
    none; ties: the lower place or fort. Immune creatures of c's colour are neither chosen nor damaged."""
    o = 1 - p
    kind = ct[c, C_SPELL]
    col = ct[c, C_COLOUR]
    amount = ct[c, C_AMOUNT]
    best, target = 0, -1
    if kind == Spell.SWEEP:
        amount = _sweep_damage(st, p, c, ct, zone_only)
        for f in range(FORTS):
            w = 0
            for k in range(PER_FORT):
                s = f * PER_FORT + k
                cc = st[o, CRB + s * N_PLACE + CR_CARD]
                if cc < 0 or (ct[cc, C_IMMUNE] >> col) & 1:
                    continue
                if st[o, CRB + s * N_PLACE + CR_DMG] + amount >= _eff(st, o, s, ct, zone_only)[1]:
                    w += _worth(st, o, s, ct)
            if w > best:
                best, target = w, f
        return best, target
    for s in range(PLACES):
        cc = st[o, CRB + s * N_PLACE + CR_CARD]
        if cc < 0 or (ct[cc, C_IMMUNE] >> col) & 1:
            continue
        atk, edr, _, _, _ = _eff(st, o, s, ct, zone_only)
        w = 0
        if kind == Spell.DESTROY:
            if atk <= amount:
                w = _worth(st, o, s, ct)
        elif st[o, CRB + s * N_PLACE + CR_DMG] + amount >= edr:
            w = _worth(st, o, s, ct)
        if kind == Spell.SPLASH:
            f = s // PER_FORT
            for k in range(PER_FORT):
                r = f * PER_FORT + k
                cr = st[o, CRB + r * N_PLACE + CR_CARD]
                if r == s or cr < 0 or (ct[cr, C_IMMUNE] >> col) & 1:
                    continue
                if st[o, CRB + r * N_PLACE + CR_DMG] + ct[c, C_SPLASH] >= _eff(st, o, r, ct, zone_only)[1]:
                    w += _worth(st, o, r, ct)
        if w > best:
            best, target = w, s
    return best, target


@nb.njit(**TRIAL_JIT)
def _cast(st, p, ct, ncol):
    """DG-spells=removal (game.py step 5, line 207): player p casts, from the unrested resources FRB, the
    payable removal spell and target destroying most (:func:`_spell_target`; ties: the cheaper spell, then
    the lower card index), paid as a summon is, while one destroys an opposing creature."""
    o = 1 - p
    zone_only = st[0, LB + RL_ZONE_ONLY] != 0
    while True:
        nfree = 0
        for c in range(ncol):
            nfree += st[p, FRB + c]
        bw, bi, bt, bcost, bcard = 0, -1, -1, 0, 0
        for i in range(st[p, PL_HAND]):
            c = st[p, HB + i]
            cost = ct[c, C_COST]
            if ct[c, C_SPELL] == Spell.NONE or ct[c, C_SPELL] > Spell.SWEEP or cost < 0 or cost > nfree or (
                    cost > 0 and st[p, FRB + ct[c, C_COLOUR]] <= 0):
                continue
            w, t = _spell_target(st, p, c, ct, zone_only)
            if w > bw or (w == bw and w > 0 and (cost < bcost or (cost == bcost and c < bcard))):
                bw, bi, bt, bcost, bcard = w, i, t, cost, c
        if bi < 0:
            return
        _play_from_hand(st, p, bi, ct[bcard, C_COLOUR], bcost, ncol)
        kind = ct[bcard, C_SPELL]
        col = ct[bcard, C_COLOUR]
        if kind == Spell.DESTROY:
            _leave(st, o, bt)
        elif kind == Spell.SWEEP:
            amount = _sweep_damage(st, p, bcard, ct, zone_only)
            for k in range(PER_FORT):
                s = bt * PER_FORT + k
                cc = st[o, CRB + s * N_PLACE + CR_CARD]
                if cc >= 0 and not (ct[cc, C_IMMUNE] >> col) & 1:
                    st[o, CRB + s * N_PLACE + CR_DMG] += amount
        else:
            st[o, CRB + bt * N_PLACE + CR_DMG] += ct[bcard, C_AMOUNT]
            if kind == Spell.SPLASH:
                f = bt // PER_FORT
                for k in range(PER_FORT):
                    r = f * PER_FORT + k
                    cr = st[o, CRB + r * N_PLACE + CR_CARD]
                    if r != bt and cr >= 0 and not (ct[cr, C_IMMUNE] >> col) & 1:
                        st[o, CRB + r * N_PLACE + CR_DMG] += ct[bcard, C_SPLASH]
        _sweep(st, ct)


@nb.njit(**TRIAL_JIT)
def _tricks(st, p, ct, ncol, pumps):
    """DG-spells=all (game.py step 6b): player p, from the unrested resources FRB, casts its pumps on the
    creatures that may attack this turn (only when ``pumps``: p has a combat phase this turn), then sets
    its Spell.SNARE and Spell.AMBUSHER ambushes."""
    zone_only = st[0, LB + RL_ZONE_ONLY] != 0
    sickness = st[p, LB + RL_SICKNESS] != 0
    for kind in range(Spell.PUMP_ATK, Spell.PUMP_EDR + 1):  # +N/+0 first, then +0/+N
        if not pumps:
            break
        field = CR_PUMP_ATK if kind == Spell.PUMP_ATK else CR_PUMP_EDR
        while True:
            nfree = 0
            for c in range(ncol):
                nfree += st[p, FRB + c]
            # the payable card of this kind of lowest card index
            bi, bcard = -1, BIG
            for i in range(st[p, PL_HAND]):
                c = st[p, HB + i]
                cost = ct[c, C_COST]
                if ct[c, C_SPELL] != kind or cost < 0 or cost > nfree or (
                        cost > 0 and st[p, FRB + ct[c, C_COLOUR]] <= 0) or c >= bcard:
                    continue
                bi, bcard = i, c
            if bi < 0:
                break
            # its target: p's creature that may attack, with no pump of this kind yet this turn, of highest
            # effective ATK (ties: fort, slot order); +N/+0 also on an ATK-0 creature, +0/+N only on one
            # with ATK >= 1 (only those attack)
            target, tatk = -1, -BIG
            for s in range(PLACES):
                q = CRB + s * N_PLACE
                if st[p, q + CR_CARD] < 0 or st[p, q + CR_RESTED] or (sickness and st[p, q + CR_NEW]) \
                        or st[p, q + field] != 0:
                    continue
                atk = _eff(st, p, s, ct, zone_only)[0]
                if (kind == Spell.PUMP_EDR and atk < 1) or atk <= tatk:
                    continue
                target, tatk = s, atk
            if target < 0:
                break
            _play_from_hand(st, p, bi, ct[bcard, C_COLOUR], ct[bcard, C_COST], ncol)
            st[p, CRB + target * N_PLACE + field] += ct[bcard, C_AMOUNT]
    # ambushes (line 209): a Spell.SNARE or AMBUSHER card whose colour is one of p's banners (the forts'
    # colours), on p's fort with barriers and no ambush with the fewest barriers (ties: the lower fort), for
    # AMBUSH_COST resources of any colour, each from the colour with most unrested (ties: the lower index)
    while True:
        nfree = 0
        mc, m = -1, 0
        for c in range(ncol):
            nfree += st[p, FRB + c]
            if st[p, FRB + c] > m:
                m, mc = st[p, FRB + c], c
        if nfree < AMBUSH_COST:
            return
        fort, fb = -1, BIG
        for f in range(FORTS):
            b = st[p, FB + f * N_FORT + F_BARRIERS]
            if b > 0 and st[p, FB + f * N_FORT + F_AMBUSH] == 0 and b < fb:
                fort, fb = f, b
        if fort < 0:
            return
        bi, bcard = -1, BIG
        for i in range(st[p, PL_HAND]):
            c = st[p, HB + i]
            if (ct[c, C_SPELL] != Spell.SNARE and ct[c, C_SPELL] != Spell.AMBUSHER) or c >= bcard:
                continue
            banner = False
            for f in range(FORTS):
                if st[p, FB + f * N_FORT + F_COLOUR] == ct[c, C_COLOUR]:
                    banner = True
            if banner:
                bi, bcard = i, c
        if bi < 0:
            return
        _play_from_hand(st, p, bi, mc, AMBUSH_COST, ncol)
        st[p, FB + fort * N_FORT + F_AMBUSH] = 1 + bcard


@nb.njit(**TRIAL_JIT)
def _move(st, p):
    """DG-move=guard and switch (game.py step 5, line 226): each of player p's creatures at a destroyed
    fort, in fort, slot order, moves to a fort with barriers and an opening (the fewest creatures; ties:
    fewer barriers, then the lower fort); then each fort with barriers and no creature, in fort order, takes
    the creature in slot 1 of the lowest fort holding two. A creature keeps its damage, rest and dragocross
    die."""
    for s in range(PLACES):
        if st[p, CRB + s * N_PLACE + CR_CARD] < 0 or st[p, FB + (s // PER_FORT) * N_FORT + F_BARRIERS] > 0:
            continue
        to, to_n, to_b = -1, BIG, BIG
        for f in range(FORTS):
            b = st[p, FB + f * N_FORT + F_BARRIERS]
            if b <= 0:
                continue
            n = _count(st, p, f)
            if n < PER_FORT and (n < to_n or (n == to_n and b < to_b)):
                to, to_n, to_b = f, n, b
        if to < 0:
            break  # no fort with barriers has an opening, nor will one for a later creature
        t = to * PER_FORT
        while st[p, CRB + t * N_PLACE + CR_CARD] >= 0:
            t += 1
        _relocate(st, p, s, t)
    # then every fort with barriers and no creature takes the creature in slot 1 of the lowest fort holding
    # two, in fort order (after the moves above, only forts with barriers can hold two with an opening left)
    for f in range(FORTS):
        if st[p, FB + f * N_FORT + F_BARRIERS] <= 0 or _count(st, p, f) > 0:
            continue
        for g in range(FORTS):
            if _count(st, p, g) == PER_FORT:
                _relocate(st, p, g * PER_FORT + 1, f * PER_FORT)
                break


@nb.njit(**TRIAL_JIT)
def _switch(st, p, ct, attacks):
    """DG-move=switch (game.py step 6c, line 226): player p's stayers (its creatures that step 7 will not list
    as attackers: every one on a turn without combat, ``attacks`` false; else those of effective ATK below 1
    and, under DG-summoning-sickness=true, those summoned this turn) guard the exposed forts. Repeat: the
    exposed fort (barriers, no dragoshield, no stayer; the fewest barriers, ties: the lower fort) takes the
    spare stayer (at a destroyed fort, a fort with a dragoshield or a fort with another stayer) of highest
    effective EDR (ties: fort, slot order): it switches places with the creature in the fort's slot 1, else
    its slot 0 (it moves there if the fort holds none); until no fort is exposed or no stayer is spare."""
    zone_only = st[0, LB + RL_ZONE_ONLY] != 0
    sickness = st[p, LB + RL_SICKNESS] != 0
    stay = 0  # bit s: the creature at place s stays standing
    for s in range(PLACES):
        q = CRB + s * N_PLACE
        c = st[p, q + CR_CARD]
        # dragocross and DICE X-Y gains are never negative (catalog.py), so a creature whose printed ATK
        # and pump reach 1 attacks: its effective ATK is read only when they do not
        if c >= 0 and (not attacks or (sickness and st[p, q + CR_NEW]) or (
                ct[c, C_ATK] + st[p, q + CR_PUMP_ATK] < 1 and _eff(st, p, s, ct, zone_only)[0] < 1)):
            stay |= 1 << s
    if stay == 0:
        return
    while True:
        to, to_b = -1, BIG
        for f in range(FORTS):
            b = st[p, FB + f * N_FORT + F_BARRIERS]
            held = (stay >> (f * PER_FORT)) & FORT_BITS
            if b > 0 and b < to_b and _oldest_shield(st, p, f) < 0 and not held:
                to, to_b = f, b
        if to < 0:
            return
        spare, spare_edr = -1, -BIG
        for s in range(PLACES):
            f = s // PER_FORT
            both = ((stay >> (f * PER_FORT)) & FORT_BITS) == FORT_BITS
            if not (stay >> s) & 1 or not (st[p, FB + f * N_FORT + F_BARRIERS] <= 0
                                            or _oldest_shield(st, p, f) >= 0 or both):
                continue
            edr = _eff(st, p, s, ct, zone_only)[1]
            if edr > spare_edr:
                spare, spare_edr = s, edr
        if spare < 0:
            return
        t = to * PER_FORT + 1
        if st[p, CRB + t * N_PLACE + CR_CARD] < 0:
            t -= 1
        _swap_places(st, p, spare, t)
        stay = (stay & ~(1 << spare)) | (1 << t)


@nb.njit(**TRIAL_JIT)
def _swap_places(st, p, s, t):
    """Player p's creatures at places s and t switch places (t may be empty), each with its damage, rest,
    pumps and dragocross die."""
    for j in range(N_PLACE):
        st[p, CRB + s * N_PLACE + j], st[p, CRB + t * N_PLACE + j] = \
            st[p, CRB + t * N_PLACE + j], st[p, CRB + s * N_PLACE + j]
    for r in (s, t):
        d = st[p, CRB + r * N_PLACE + CR_DIE]
        if st[p, CRB + r * N_PLACE + CR_CARD] >= 0 and d >= 0:
            st[p, DB + d * N_DIE + D_SLOT] = r


@nb.njit(**TRIAL_JIT)
def _count(st, p, f):
    """Creatures of player p at fort f."""
    n = 0
    for k in range(PER_FORT):
        if st[p, CRB + (f * PER_FORT + k) * N_PLACE + CR_CARD] >= 0:
            n += 1
    return n


@nb.njit(**TRIAL_JIT)
def _relocate(st, p, s, t):
    """Player p's creature at place s moves to the empty place t with its damage, rest and dragocross die."""
    for j in range(N_PLACE):
        st[p, CRB + t * N_PLACE + j] = st[p, CRB + s * N_PLACE + j]
    st[p, CRB + s * N_PLACE + CR_CARD] = -1
    st[p, CRB + s * N_PLACE + CR_DIE] = -1
    st[p, CRB + s * N_PLACE + CR_DMG] = 0
    st[p, CRB + s * N_PLACE + CR_RESTED] = 0
    st[p, CRB + s * N_PLACE + CR_NEW] = 0
    d = st[p, CRB + t * N_PLACE + CR_DIE]
    if d >= 0:
        st[p, DB + d * N_DIE + D_SLOT] = t


@nb.njit(**TRIAL_JIT)
def _assign(st, p, ct):
    """Player p's dice in the Dice Zone, by value from highest (game.py step 6)."""
    done = 0
    for _ in range(DICE):
        d, dv = -1, -1
        for e in range(DICE):
            if st[p, DB + e * N_DIE + D_LOC] != DieAt.ZONE or (done >> e) & 1:
                continue
            if st[p, DB + e * N_DIE + D_VALUE] > dv:
                d, dv = e, st[p, DB + e * N_DIE + D_VALUE]
        if d < 0:
            return
        done |= 1 << d
        col = st[p, DB + d * N_DIE + D_COLOUR]
        shield = -1
        for stacked in range(2):
            if stacked == 1 and (shield >= 0 or not st[p, LB + RL_STACK]):
                break
            sb = BIG
            for f in range(FORTS):
                b = st[p, FB + f * N_FORT + F_BARRIERS]
                if st[p, FB + f * N_FORT + F_COLOUR] != col or b <= 0 or b >= sb:
                    continue
                has = False
                for e in range(DICE):
                    if st[p, DB + e * N_DIE + D_LOC] == DieAt.SHIELD and st[p, DB + e * N_DIE + D_FORT] == f:
                        has = True
                if has != (stacked == 1):
                    continue
                shield, sb = f, b
        target, tgain, tatk = -1, -1, -1
        q = YB + col * N_CROSS
        for s in range(PLACES):
            c = st[p, CRB + s * N_PLACE + CR_CARD]
            if c < 0 or st[p, CRB + s * N_PLACE + CR_DIE] >= 0:
                continue
            gain = (CROSS_ATK + ct[c, q + X_ATK] + CROSS_EDR + ct[c, q + X_EDR]
                    + (DEADLY_CROSS_GAIN if ct[c, q + X_DEADLY] else 0))
            if gain > tgain or (gain == tgain and ct[c, C_ATK] > tatk):
                target, tgain, tatk = s, gain, ct[c, C_ATK]
        if shield >= 0 and (dv >= SHIELD_MIN or target < 0):
            st[p, DB + d * N_DIE + D_LOC] = DieAt.SHIELD
            st[p, DB + d * N_DIE + D_FORT] = shield
            st[p, DB + d * N_DIE + D_BASE] = dv
            st[p, DB + d * N_DIE + D_ORDER] = st[p, PL_ORDER]
            st[p, PL_ORDER] += 1
        elif target >= 0:
            st[p, DB + d * N_DIE + D_LOC] = DieAt.CROSS
            st[p, DB + d * N_DIE + D_SLOT] = target
            st[p, CRB + (target) * N_PLACE + CR_DIE] = d


@nb.njit(**TRIAL_JIT)
def _dice_step(st, p, stream):
    mode = st[p, LB + RL_REROLL]
    sides = st[p, LB + RL_DIE]
    for d in range(DICE):
        loc = st[p, DB + d * N_DIE + D_LOC]
        if loc == DieAt.GONE:
            continue
        if mode == Reroll.UNASSIGNED and loc != DieAt.ZONE:
            continue
        if mode == Reroll.ALL_RETURN and loc != DieAt.ZONE:
            if loc == DieAt.CROSS:
                st[p, CRB + (st[p, DB + d * N_DIE + D_SLOT]) * N_PLACE + CR_DIE] = -1
            st[p, DB + d * N_DIE + D_LOC] = DieAt.ZONE
        v = 1 + uniform_int(stream, sides)
        st[p, DB + d * N_DIE + D_VALUE] = v
        st[p, DB + d * N_DIE + D_BASE] = v


@nb.njit(**TRIAL_JIT)
def _discard(st, p, ct):
    """Down to 7 cards (game.py step 8): the card of highest discard key (G_DISCARD) each time."""
    while st[p, PL_HAND] > HAND_LIMIT:
        bi, bkey = -1, -1
        for i in range(st[p, PL_HAND]):
            key = ct[st[p, HB + i], G_DISCARD]
            better = key > bkey
            bkey = key if better else bkey
            bi = i if better else bi
        last = st[p, PL_HAND] - 1
        st[p, HB + bi] = st[p, HB + last]
        st[p, PL_HAND] = last


@nb.njit(**TRIAL_JIT)
def _draw(st, p, stream):
    """The top card of p's deck. The deck is shuffled lazily: the card drawn is a uniform pick from the cards
    left (swapped to the top), which is a uniform shuffle's top card, one random number per card drawn."""
    top = st[p, PL_TOP]
    j = DK + top + uniform_int(stream, st[p, PL_SIZE] - top)
    c = st[p, j]
    st[p, j] = st[p, DK + top]
    st[p, DK + top] = c
    st[p, PL_TOP] = top + 1
    return c


@nb.njit(**TRIAL_JIT)
def _setup(st, p, src, size, ct, stream):
    """Player p's setup (game.py setup 1-4); the fort and die colours and the rulings are in st already."""
    for i in range(size):
        st[p, DK + i] = src[i]
    st[p, PL_SIZE] = size
    st[p, PL_TOP] = 0
    for i in range(OPENING):
        st[p, HB + i] = _draw(st, p, stream)
    # mulligan (game.py setup 2): the chosen cards (G_MULLIGAN) go back into the deck (which is shuffled:
    # the cards left, returned ones included, are drawn uniformly), then as many are drawn
    kept = 0
    back = 0
    for i in range(OPENING):
        c = st[p, HB + i]
        if ct[c, G_MULLIGAN]:
            st[p, DK + back] = c  # deck positions 0..4 held the hand: reuse them
            back += 1
        else:
            st[p, HB + kept] = c
            kept += 1
    # the returned cards sit at deck[0:back]; move them to deck[5 - back:5], into the cards left
    top = OPENING - back
    for i in range(back - 1, -1, -1):
        st[p, DK + top + i] = st[p, DK + i]
    st[p, PL_TOP] = top
    for i in range(back):
        st[p, HB + kept + i] = _draw(st, p, stream)
    st[p, PL_HAND] = OPENING
    for f in range(FORTS):
        st[p, FB + f * N_FORT + F_BARRIERS] = BARRIERS_PER_FORT
        st[p, FB + f * N_FORT + F_CARD0] = _draw(st, p, stream)
        st[p, FB + f * N_FORT + F_CARD1] = _draw(st, p, stream)
        st[p, FB + f * N_FORT + F_AMBUSH] = 0
    st[p, PL_SUMMONED] = 0
    st[p, PL_DICE_LOST] = 0
    st[p, PL_OWN_TURNS] = 0
    st[p, PL_ORDER] = 0
    for d in range(DICE):
        st[p, DB + d * N_DIE + D_LOC] = DieAt.ZONE
        st[p, DB + d * N_DIE + D_VALUE] = 0
        st[p, DB + d * N_DIE + D_BASE] = 0
        st[p, DB + d * N_DIE + D_SLOT] = -1
    for s in range(PLACES):
        st[p, CRB + s * N_PLACE + CR_CARD] = -1
        st[p, CRB + s * N_PLACE + CR_DIE] = -1
        st[p, CRB + s * N_PLACE + CR_DMG] = 0
        st[p, CRB + s * N_PLACE + CR_RESTED] = 0
        st[p, CRB + s * N_PLACE + CR_NEW] = 0
        st[p, CRB + s * N_PLACE + CR_PUMP_ATK] = 0
        st[p, CRB + s * N_PLACE + CR_PUMP_EDR] = 0


@nb.njit(**TRIAL_JIT)
def _game(st, src0, n0, src1, n1, ct, ncol, stream, out):
    """One game (game.py); ``out``: its record's first N_GAME fields (Record.WINNER .. Record.CURVE_1)."""
    first = uniform_int(stream, 2)
    _setup(st, 0, src0, n0, ct, stream)
    _setup(st, 1, src1, n1, ct, stream)
    curve0 = 0
    curve1 = 0
    for p in range(2):
        st[p, PL_RES] = DICE
        for c in range(ncol):
            st[p, RB + c] = 0
        for f in range(FORTS):
            st[p, RB + st[p, FB + f * N_FORT + F_COLOUR]] += 1
    each_first = st[0, LB + RL_EACH_FIRST] != 0
    persist = st[0, LB + RL_PERSIST] != 0
    spells = st[0, LB + RL_SPELLS] != Spells.NONE
    tricks = st[0, LB + RL_SPELLS] == Spells.ALL
    winner, end, turn = DRAW, End.DRAW, 0
    p = first
    for turn in range(1, MAX_TURNS + 1):
        o = 1 - p
        st[p, PL_OWN_TURNS] += 1
        for s in range(PLACES):
            st[p, CRB + s * N_PLACE + CR_RESTED] = 0
        _dice_step(st, p, stream)
        if st[p, PL_TOP] >= st[p, PL_SIZE]:
            winner, end = o, End.DECK_OUT
            break
        st[p, HB + st[p, PL_HAND]] = _draw(st, p, stream)
        st[p, PL_HAND] += 1
        if not (p == first and st[p, PL_OWN_TURNS] == 1) and st[p, PL_TOP] < st[p, PL_SIZE] \
                and st[p, PL_RES] < st[p, PL_TARGET]:
            st[p, RB + ct[_draw(st, p, stream), C_COLOUR]] += 1
            st[p, PL_RES] += 1
        for c in range(ncol):
            st[p, FRB + c] = st[p, RB + c]
        if spells:
            _cast(st, p, ct, ncol)
        left, played = _summon(st, p, ct, ncol)
        t = st[p, PL_OWN_TURNS]
        if t <= CURVE_TURNS:
            bits = (1 << (t - 1) if played else 0) | (1 << (CURVE_TURNS + t - 1) if left == 0 else 0)
            if p == 0:
                curve0 |= bits
            else:
                curve1 |= bits
        # DG-move is read from the moving player's own rulings row (the other rulings from row 0), so a
        # test can let one deck alone switch and measure what the policy is worth to it.
        move = st[p, LB + RL_MOVE]
        if move != Move.NONE:
            _move(st, p)
        _assign(st, p, ct)
        attacks = not (st[p, PL_OWN_TURNS] == 1 if each_first else turn == 1)
        if tricks:
            _tricks(st, p, ct, ncol, attacks)
        if move == Move.SWITCH:
            _switch(st, p, ct, attacks)
        if attacks:
            _combat(st, p, ct)
        _discard(st, p, ct)
        for q in range(2):
            for s in range(PLACES):
                st[q, CRB + s * N_PLACE + CR_DMG] = 0
                st[q, CRB + s * N_PLACE + CR_PUMP_ATK] = 0
                st[q, CRB + s * N_PLACE + CR_PUMP_EDR] = 0
        for s in range(PLACES):
            st[p, CRB + s * N_PLACE + CR_NEW] = 0
        if not persist:
            for q in range(2):
                for d in range(DICE):
                    if st[q, DB + d * N_DIE + D_LOC] == DieAt.SHIELD:
                        st[q, DB + d * N_DIE + D_VALUE] = st[q, DB + d * N_DIE + D_BASE]
        if _barriers(st, o) == 0:
            winner, end = p, End.BARRIERS
            break
        p = o
    out[Record.WINNER] = winner
    out[Record.FIRST] = first
    out[Record.TURNS] = turn
    out[Record.END] = end
    for q in range(2):
        out[Record.BARRIERS_0 + q] = _barriers(st, q)
        out[Record.SUMMONED_0 + q] = st[q, PL_SUMMONED]
        out[Record.DICE_LOST_0 + q] = st[q, PL_DICE_LOST]
    out[Record.CURVE_0] = curve0
    out[Record.CURVE_1] = curve1


@nb.njit(**TRIAL_JIT)
def _copy(source, target):
    """``target[:] = source`` for two 1-D arrays of one size, without numba's slice assignment (see
    :func:`kernel_table`)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@nb.njit(**JIT)
def kernel_table(tab, rl):
    """The kernel's card table ``ct`` (G_* fields derived, the mulligan strategy of ``rl`` applied)."""
    n = tab.shape[0]
    ncross = tab.shape[1] - XB
    ct = np.empty((n, YB + ncross), np.int64)
    # copied element by element: numba's slice assignment from an array compiles a formatted shape-mismatch
    # error (string formatting, about 1.5 s of this game's first compile) that cannot happen here
    for c in range(n):
        for j in range(XB):
            ct[c, j] = tab[c, j]
        for j in range(ncross):
            ct[c, YB + j] = tab[c, XB + j]
    low = (1 << KEY_BITS) - 1
    kind = rl[RL_MULLIGAN]
    k = rl[RL_MULLIGAN_COST]
    for c in range(n):
        cost = tab[c, C_COST]
        creature = tab[c, C_CREATURE] != 0
        base = tab[c, C_ATK] + tab[c, C_EDR]
        ct[c, G_BASE] = base
        if creature and cost >= 0:
            ct[c, G_SUMMON] = (cost << 2 * KEY_BITS) + (base << KEY_BITS) + low - c
        else:
            ct[c, G_SUMMON] = -1
        if not creature:
            ct[c, G_DISCARD] = (3 << 2 * KEY_BITS) + c
        elif cost < 0:
            ct[c, G_DISCARD] = (2 << 2 * KEY_BITS) + c
        else:
            ct[c, G_DISCARD] = (1 << 2 * KEY_BITS) + (cost << KEY_BITS) + c
        if kind == Mulligan.POLICY:
            goes = (not creature) or cost < 0 or cost >= MULLIGAN_COST
        elif kind == Mulligan.BACK:
            goes = cost < 0 or cost >= k
        else:
            goes = kind == Mulligan.ALL
        ct[c, G_MULLIGAN] = 1 if goes else 0
    return ct


@nb.njit(**JIT)
def game_records(decks, sizes, banners, targets, swaps, swap_n, replace, baselines, tab, rl, ncol, seed,
                 first_trial, out):
    """simcore.runner's records contract: ``out[k]`` is the record of trial ``first_trial + k``.

    decks int64[2, m]: each side's deck (card indices, ``sizes`` of them); ``replace[s]`` >= 0: the card that
    replaces, in each trial, one copy at a position drawn uniformly from ``swaps[s, :swap_n[s]]`` (drawn
    first, from the trial's stream); ``baselines``: also play each side's deck unchanged against the other's
    variant, from the same stream (Record.BASE_WINNER_s: the winner then; -1 when not played).
    """
    m = decks.shape[1]
    ct = kernel_table(tab, rl)
    st = np.zeros((2, DK + m), np.int64)
    # what no game changes: the rulings, the resource targets, the fort and die colours
    for p in range(2):
        for i in range(N_RULINGS):
            st[p, LB + i] = rl[i]
        st[p, PL_TARGET] = targets[p]
        for f in range(FORTS):
            st[p, FB + f * N_FORT + F_COLOUR] = banners[p, f]
        for d in range(DICE):
            st[p, DB + d * N_DIE + D_COLOUR] = banners[p, d]
    src = np.empty((2, m), np.int64)
    for s in range(2):
        for i in range(sizes[s]):
            src[s, i] = decks[s, i]
    stream = np.empty(STATE_WORDS, np.uint64)
    start = np.empty(STATE_WORDS, np.uint64)
    rec = np.empty(N_GAME, np.int64)
    pos = np.empty(2, np.int64)
    for k in range(out.shape[0]):
        seed_trial_stream(seed, first_trial + k, start)
        # src holds the decks as built between trials: the replacement card goes in for this trial
        for s in range(2):
            pos[s] = -1
            if replace[s] >= 0:
                pos[s] = swaps[s, uniform_int(start, swap_n[s])]
                src[s, pos[s]] = replace[s]
        _copy(start, stream)
        _game(st, src[0], sizes[0], src[1], sizes[1], ct, ncol, stream, rec)
        for j in range(N_GAME):
            out[k, j] = rec[j]
        out[k, Record.BASE_WINNER_0] = -1
        out[k, Record.BASE_WINNER_1] = -1
        if baselines:
            variant = rec[Record.WINNER]
            for s in range(2):
                if pos[s] < 0:
                    out[k, Record.BASE_WINNER_0 + s] = variant
                    continue
                src[s, pos[s]] = decks[s, pos[s]]
                _copy(start, stream)
                _game(st, src[0], sizes[0], src[1], sizes[1], ct, ncol, stream, rec)
                out[k, Record.BASE_WINNER_0 + s] = rec[Record.WINNER]
                src[s, pos[s]] = replace[s]
        for s in range(2):
            if pos[s] >= 0:
                src[s, pos[s]] = decks[s, pos[s]]
