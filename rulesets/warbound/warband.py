"""Warbound Warband contests: several characters a side on one hex board, paying their activations from
their Leader's Order tokens by the game's sequence (seed 004; the rules played are
tests/naive_warbound_warband.py's docstring, the compiled kernel is rulesets/warbound/kernels_contest.py).

A :class:`Warband` is a side: its characters in warband order (the entry first), each a duel side
(rulesets.warbound.simulate.Fighter: both sides of its card, what an activation costs from its Leader's
tokens, a Formation's +1 to hit) with its miniatures, and the Leader's Orders. What a contest does not
model is listed in :data:`NOT_MODELLED`; reports print it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulesets.base import RulesError
from rulesets.warbound.exact import HitRoll, Target
from rulesets.warbound.rules import (
    BOARD_COLUMNS,
    BOARD_ROWS,
    MAX_CHARACTERS,
    START_TILE,
    TURNS,
    WarboundRulings,
)
from rulesets.warbound.simulate import Fighter, attack_table, board_arrays, side_of
from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK
from simcore.stats import RecordStats

#: The six neighbour directions in axial coordinates, side 0's order; side 1 takes direction k + 3 (mod 6),
#: the reflection, so that every tie is broken alike for both sides.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

NOT_MODELLED = (
    "skills, equipment effects and Vocations (their texts are not printed; listed by `balance units "
    "warbound`)",
    "initiative beyond WB-hourglass-policy: the Hourglass is placed, and the Hand kept or swapped, by that "
    "stated policy, not by look-ahead",
    "tactics beyond the stated policy: a side activates its first character in warband order (the entry "
    "first) with an attack it can pay for, else the first with a move, then additional activations; a "
    "shooter shoots from where it stands, a fighter walks the greedy path to its target, a shooter that "
    "cannot Fight flees an adjacent enemy; the target by WB-targeting",
    "terrain and line of sight (nothing blocks a shot; miniatures block moves); the deployment (the "
    "scenario's, line 324) is a stated line facing the enemy",
    "the exchange of two Order tokens for one of another colour except to pay a coloured cost of another "
    "faction (two tokens each)",
    "Victory Points and objectives (in a separate scenario, line 322): a contest is scored by the tokens' "
    "worth destroyed",
)


@dataclass(frozen=True)
class Warband:
    """One side of a contest: ``members`` in warband order (the entry first), each a duel side led by the
    side's Leader, with its miniatures (2 in Formation) and worth (its front's total activation cost)."""

    members: tuple[Fighter, ...]
    minis: tuple[int, ...]
    orders: tuple[int, int]

    @property
    def worths(self) -> tuple[int, ...]:
        return tuple(m.front.cost for m in self.members)


def warband_of(characters: Sequence[tuple[Any, Any]], leader) -> Warband:
    """The Warband of ``characters`` = (catalog Character, its Formation card or None), in warband order,
    all spending ``leader``'s Order tokens."""
    if not 1 <= len(characters) <= MAX_CHARACTERS:
        raise RulesError(f"a Warband fields 1 to {MAX_CHARACTERS} characters (an Exploration deck of 8 "
                         f"cards holds one Leader and at least 2 Upgrades, lines 69, 77, 79), not "
                         f"{len(characters)}")
    members = tuple(side_of(c, leader, card) for c, card in characters)
    return Warband(members, tuple(2 if card is not None else 1 for _, card in characters),
                   tuple(leader.orders))


# --- what each side fields (WB-warband) ------------------------------------------------------------------

#: The companions of WB-warband=with-companions, in the order they are taken: the first N_COMPANIONS that
#: neither side's entry is (the same three on both sides: a deck holds no two cards of one name, line 71, so
#: a side cannot field a copy of its entry beside it), the first IN_FORMATION of them in Formation. Why these:
#: the catalog's characters whose cards hold no skill a contest cannot play (Splatter's Opportunist and the
#: Orkedo Player's Ki'hai are not played, and would put an unplayed rule into every entry's contest), of both
#: sides of the examples, shooters (Oshi'goru, Analyst, COPP) and fighters (Ork'edo Drummer, Roh'na);
#: Oshi'goru first, as the rulebook shows it, in Formation with its own card (line 551). Rah'na is left out:
#: it may be Roh'na misspelt (line 569), and counts as Roh'na's name here.
COMPANIONS = ("oshi-goru", "ork-edo-drummer", "analyst", "copp", "roh-na")
N_COMPANIONS = 3
IN_FORMATION = 2
#: Names that may be one card's (catalog quirk: "Roh'na (lines 413-455) and Rah'na (line 569) may be one
#: name"): a deck holding one holds neither as a companion.
SAME_NAME = {"rah-na": "roh-na"}


def _name_of(key: str) -> str:
    return SAME_NAME.get(key, key)


def companions(catalog, *entries) -> tuple[tuple[Any, Any], ...]:
    """The companions (Character, its Formation card or None) of a contest between characters ``entries``
    (catalog keys) under WB-warband=with-companions: the first N_COMPANIONS of COMPANIONS the catalog
    holds whose name no entry has, the first IN_FORMATION of them in Formation."""
    taken = {_name_of(k) for k in entries}
    chosen = [k for k in COMPANIONS if k in catalog.characters and _name_of(k) not in taken][:N_COMPANIONS]
    if len(chosen) < N_COMPANIONS:
        raise RulesError(f"WB-warband=with-companions needs {N_COMPANIONS} companions among "
                         f"{', '.join(COMPANIONS)} that neither entry is; the catalog has {len(chosen)}")
    return tuple((catalog.character(k), catalog.formation_for(k) if i < IN_FORMATION else None)
                 for i, k in enumerate(chosen))


def deck_of(catalog, entry: tuple[Any, Any], fielded: Sequence[tuple[Any, Any]], leader):
    """The Exploration deck a side of a with-companions contest fields: its Leader, the entry (with its
    Formation card) and the companions (with theirs), and, when that leaves a card of the 8 free (an entry
    alone), the catalog's first Vocation the Leader can take, whose text is not printed (nothing played):
    (rulesets.warbound.deck.Deck, the deck-building limits it breaks)."""
    from rulesets.warbound.catalog import ANY_FACTION
    from rulesets.warbound.deck import EXPLORATION_SIZE, Deck, DeckEntry, deck_problems

    entries = tuple(DeckEntry(c.key, formation=card.key if card is not None else None)
                    for c, card in (entry, *fielded))
    deck = Deck(leader.key, None, entries)
    if deck.cards < EXPLORATION_SIZE:
        fits = [v.key for v in catalog.vocations.values()
                if v.faction is None or leader.faction in (v.faction, ANY_FACTION)]
        if fits:
            deck = Deck(leader.key, fits[0], entries)
    return deck, deck_problems(deck, catalog)


def contest_sides(entry_a, entry_b, rulings: WarboundRulings) -> tuple[Warband, Warband]:
    """Both sides of a contest of entries ``entry_a`` and ``entry_b`` (rulesets.warbound.contest.Entry):
    each its entry (in Formation or alone), then under WB-warband=with-companions the same companions,
    all spending the Leader WB-economy names for its entry."""
    fielded: tuple[tuple[Any, Any], ...] = ()
    if rulings.warband == "with-companions":
        fielded = companions(entry_a.catalog, entry_a.character.key, entry_b.character.key)
    return tuple(warband_of([(e.character, e.card), *fielded], e.leader_for(rulings))  # type: ignore
                 for e in (entry_a, entry_b))


# --- armies: Exploration decks (`balance army warbound`) ------------------------------------------------

#: Cards of an Exploration deck an army chooses: "you'll need to select 8 cards" (line 69), "exactly one
#: Leader card" (line 77) among them, which WB-economy names.
ARMY_CARDS = 7


def army_order(force: Sequence[tuple[Any, int]]) -> list[Any]:
    """The entries (rulesets.warbound.contest.Entry) of an army ((Contestant, 1) pairs) in warband order:
    the catalog's order of their characters, whatever order the army lists them in (the stated policy
    activates a side's first character in warband order first)."""
    entries = [c.subject for c, _ in force]
    keys = list(entries[0].catalog.characters) if entries and entries[0].catalog is not None else []
    place = {k: i for i, k in enumerate(keys)}
    return sorted(entries, key=lambda e: place.get(e.character.key, len(keys)))


def army_leader(force: Sequence[tuple[Any, int]], rulings: WarboundRulings):
    """The Leader of an army's deck: WB-economy's (same-leader: the Reference Leader; faction-leader: the
    Leader of its first character's faction in warband order)."""
    return army_order(force)[0].leader_for(rulings)


def army_names(force: Sequence[tuple[Any, int]]) -> list[str]:
    """The card names of an army's characters (Roh'na and Rah'na counted as one name: :data:`SAME_NAME`)."""
    return [_name_of(c.subject.character.key) for c, _ in force]


def army_deck(force: Sequence[tuple[Any, int]], rulings: WarboundRulings):
    """An army's Exploration deck: WB-economy's Leader, its characters with their Formation cards and, when
    that leaves a card of the 8 free, the catalog's first Vocation the Leader can take (its text is not
    printed: nothing played), as :func:`deck_of` builds a contest's: (rulesets.warbound.deck.Deck, the
    deck-building limits it breaks)."""
    first, *rest = _army_members(force)
    return deck_of(force[0][0].subject.catalog, first, rest, army_leader(force, rulings))


def _army_members(force: Sequence[tuple[Any, int]]) -> list[tuple[Any, Any]]:
    """(character, its Formation card or None) of an army's entries, in warband order."""
    return [(e.character, e.card if e.formation else None) for e in army_order(force)]


def army_warband(force: Sequence[tuple[Any, int]], rulings: WarboundRulings) -> Warband:
    """An army's side of a contest: its characters in warband order (:func:`army_order`), each alone or in
    Formation, all spending its Leader's Order tokens (:func:`army_leader`)."""
    return warband_of(_army_members(force), army_leader(force, rulings))


# --- the board ------------------------------------------------------------------------------------------


@functools.cache
def board_geometry(columns: int = BOARD_COLUMNS, rows: int = BOARD_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """(dist int64[T, T], nbr int64[2, T, 6]) of the parallelogram board: hex distances, and each tile's
    neighbours in side 0's and side 1's direction order (-1 off the board). Made once: never written to."""
    t = np.arange(columns * rows)
    q, r = t % columns, t // columns
    dq, dr = q[:, None] - q[None, :], r[:, None] - r[None, :]
    dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    nbr = np.full((2, t.size, 6), -1, np.int64)
    for side in (0, 1):
        for k in range(6):
            sq, sr = DIRECTIONS[(k + 3 * side) % 6]
            nq, nr = q + sq, r + sr
            inside = (nq >= 0) & (nq < columns) & (nr >= 0) & (nr < rows)
            nbr[side, inside, k] = (nq + columns * nr)[inside]
    return dist.astype(np.int64), nbr


def deployment(minis: Sequence[Sequence[int]], dist: np.ndarray, start: tuple[int, int] = START_TILE,
               columns: int = BOARD_COLUMNS) -> list[list[list[int]]]:
    """The tiles of every miniature, ``minis[s][k]`` miniatures for side s's k-th character: side 0's slots
    are the tiles at least as far from side 1's start tile as its own, ordered by (distance to side 1's
    start, distance to its own, tile): a line facing the enemy centred on its start tile, then the lines
    behind; side 1's are their reflections. A character's first miniature takes the first free slot, a
    Formation's second the first free slot next to the first."""
    tiles = dist.shape[0]
    s0 = start[0] + columns * start[1]
    s1 = tiles - 1 - s0
    gap = dist[s0, s1]
    ordered = sorted((t for t in range(tiles) if dist[t, s1] >= gap),
                     key=lambda t: (dist[t, s1], dist[t, s0], t))
    slots = (ordered, [tiles - 1 - t for t in ordered])
    taken: set[int] = set()
    out: list[list[list[int]]] = [[], []]
    for s in (0, 1):
        for n in minis[s]:
            first = next(t for t in slots[s] if t not in taken)
            taken.add(first)
            placed = [first]
            if n == 2:
                second = next(t for t in slots[s] if t not in taken and dist[t, first] == 1)
                taken.add(second)
                placed.append(second)
            out[s].append(placed)
    return out


# --- the kernel's arguments -----------------------------------------------------------------------------


def _profile_row(f: Fighter, profile) -> list[int]:
    from rulesets.warbound.kernels_warband import N_PROF, Prof

    row = [0] * N_PROF
    row[Prof.ATTACK] = profile.attack if profile.attack is not None else -1
    row[Prof.SPEED], row[Prof.RUN] = profile.speed, profile.run
    row[Prof.ACC_NEAR] = profile.accuracy_near if profile.accuracy_near is not None else -1
    row[Prof.ACC_FAR] = profile.accuracy_far if profile.accuracy_far is not None else -1
    row[Prof.HEALTH] = profile.health
    row[Prof.MORALE] = profile.morale if profile.morale is not None else -1
    row[Prof.ARMOR_POINTS] = profile.armor_points if profile.armor_value is not None else 0
    row[Prof.PRICE], row[Prof.MOVE_PRICE] = f.price(profile), f.price(profile, move=True)
    return row


def _rolls(f: Fighter, profile) -> list[HitRoll | None]:
    """The attacks of a profile by kernels_warband.Kind: Fight, Shoot and Aim at the first accuracy value,
    Shoot and Aim at the second (None: it has none)."""
    rolls = [HitRoll(profile.attack_dice, profile.attack, modifier=f.modifier) if profile.attack is not None
             else None]
    for acc in (profile.accuracy_near, profile.accuracy_far):
        for aim in (False, True):
            rolls.append(HitRoll(profile.shoot_dice, acc, aim=aim, modifier=f.modifier) if acc is not None
                         else None)
    return rolls


@functools.lru_cache(maxsize=8192)
def _attack_table(roll: HitRoll, armor_value: int | None, available: int, pool: bool,
                  rulings: WarboundRulings) -> tuple:
    """rulesets.warbound.simulate.attack_table of one attack on a target with ``available`` armor points left
    and a Morale pool or not, made once a process (contests share most of them)."""
    target = Target(available, armor_value if available else None, panicked=not pool)
    return attack_table(roll, target, rulings)


def _table_block(tables, roll: HitRoll, armor_value: int | None, points: int,
                 rulings: WarboundRulings) -> np.ndarray:
    """int64[points + 1, 2, 5]: where the tables of ``roll`` against a target of ``points`` armor points at
    ``armor_value`` sit in ``tables`` (simcore.sampling.TablePack), by armor points left and Morale pool:
    (start, guide start, k, bits of breaks, bits of stress), as kernels.draw_attack reads them."""
    block = np.zeros((points + 1, 2, 5), np.int64)
    for available in range(points + 1):
        for pool in (0, 1):
            table, bits = _attack_table(roll, armor_value, available, bool(pool), rulings)
            key = (roll, armor_value if available else None, available, pool)
            block[available, pool] = (*tables.place(key, 0, table)[:3], *bits)
    return block


def warband_args(a: Warband, b: Warband, board, rulings: WarboundRulings, *, turns: int = TURNS,
                 start: tuple[int, int] = START_TILE) -> tuple:
    """The kernel's arguments before the seed (rulesets.warbound.kernels_contest.warband_records)."""
    from rulesets.warbound import kernels as K
    from rulesets.warbound import kernels_warband as KW
    from rulesets.warbound.simulate import _orders
    from simcore.sampling import TablePack

    fighters = [*a.members, *b.members]
    side_of_char = [0] * len(a.members) + [1] * len(b.members)
    order = [*range(len(a.members)), *range(len(b.members))]
    n = len(fighters)
    prof = np.zeros((n, 2, KW.N_PROF), np.int64)
    for c, f in enumerate(fighters):
        for p, profile in enumerate(f.profiles):
            prof[c, p] = _profile_row(f, profile)
    dist, nbr = board_geometry()
    placed = deployment([a.minis, b.minis], dist, start)
    chars = np.full((n, KW.N_CHAR), -1, np.int64)
    common = math.lcm(*(f.front.health for f in fighters))
    for c, f in enumerate(fighters):
        s, k = side_of_char[c], order[c]
        tiles = placed[s][k]
        chars[c, KW.Char.SIDE], chars[c, KW.Char.ORDER] = s, k
        chars[c, KW.Char.MINIS], chars[c, KW.Char.WORTH] = len(tiles), f.front.cost
        chars[c, KW.Char.TILE_A] = tiles[0]
        chars[c, KW.Char.TILE_B] = tiles[1] if len(tiles) == 2 else -1
        chars[c, KW.Char.LOSS_WEIGHT] = f.front.cost * (common // f.front.health)
    sides = np.array([_orders(w.orders, rulings) for w in (a, b)], np.int64)
    most_armor = int(prof[:, :, KW.Prof.ARMOR_POINTS].max())
    at_index = np.zeros((n, 2, KW.N_KINDS, n, 2, most_armor + 1, 2, K.N_AT), np.int64)  # K.At
    tables = TablePack()
    made: dict = {}
    for c, f in enumerate(fighters):
        for p, profile in enumerate(f.profiles):
            for kind, roll in enumerate(_rolls(f, profile)):
                if roll is None:
                    continue
                for e, enemy in enumerate(fighters):
                    if side_of_char[e] == side_of_char[c]:
                        continue
                    for q, target in enumerate(enemy.profiles):
                        points = int(prof[e, q, KW.Prof.ARMOR_POINTS])
                        key = (roll, target.armor_value, points)
                        if key not in made:
                            made[key] = _table_block(tables, roll, target.armor_value, points, rulings)
                        at_index[c, p, kind, e, q, :points + 1] = made[key]
    cdf, values, guide = tables.arrays()
    codes, periods = board_arrays(board)
    policy = K.Hourglass[rulings.hourglass_policy.upper().replace("-", "_")]
    targeting = KW.Targeting[rulings.targeting.upper().replace("-", "_")]
    return (prof, chars, sides, codes, KW.spaces_by_action(codes), periods, dist, nbr, at_index, cdf, values,
            guide, np.int64(turns), np.int64(policy), np.int64(targeting))


@dataclass(frozen=True)
class WarbandResult(RecordStats):
    """The records of a run of contests (rulesets.warbound.kernels_warband.Record) and how it was
    obtained."""

    a: Warband
    b: Warband
    rulings: WarboundRulings
    records: np.ndarray
    seed: int
    precision: float | None
    stopped_by_precision: bool


def simulate_warband(a: Warband, b: Warband, board, rulings: WarboundRulings | None = None, *, trials: int,
                     seed: int, threads: int | None = None, precision: float | None = None, progress=None,
                     block_trials: int | None = None, max_batch_trials: int | None = None) -> WarbandResult:
    """``trials`` contests of ``a`` (side 0, starting with the Hand; WB-hourglass-policy) against ``b``, one
    record each; ``precision`` stops once the 95% half-width of P(a ends ahead) (kernels_warband.Record.AHEAD)
    is below it (``trials`` is then the cap)."""
    from rulesets.warbound import kernels_warband as KW
    from rulesets.warbound.kernels_contest import warband_records
    from simcore import config, runner
    from simcore.stats import proportion

    rulings = rulings or WarboundRulings()
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= config.MAX_RECORD_TRIALS:
        raise RulesError(f"trials {trials!r}: a contest run keeps one record per contest, so from 1 to "
                         f"{config.MAX_RECORD_TRIALS:.0e}")

    def p_win(records: np.ndarray):
        return proportion(int((records[:, KW.Record.AHEAD] == KW.Outcome.SIDE_0).sum()), records.shape[0])

    if precision is not None and block_trials is None:
        block_trials, max_batch_trials = ENGAGEMENT_BLOCK, ENGAGEMENT_BATCH
    args = warband_args(a, b, board, rulings)
    run = runner.run_records(warband_records, args, KW.N_RECORD, trials, seed, threads=threads,
                             precision=precision, statistic=p_win if precision else None, progress=progress,
                             block_trials=block_trials or config.CHUNK_TRIALS,
                             max_batch_trials=max_batch_trials)
    return WarbandResult(a, b, rulings, run.records, seed, precision, run.stopped_by_precision)
