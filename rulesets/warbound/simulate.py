"""Warbound duels: two characters trade activations over the five turns of the Exploration format, paying
their activation costs with their Leaders' Order tokens (seed 004; the rules played are
tests/naive_warbound.py's docstring, the compiled kernel is rulesets/warbound/kernels.py).

What a duel does not model is listed in :data:`NOT_MODELLED`; reports print it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rulesets.base import RulesError, whole_number
from rulesets.warbound.catalog import ANY_FACTION, REFERENCE_LEADER
from rulesets.warbound.exact import HitRoll, Target, attack_pmf
from rulesets.warbound.rules import TURNS, WarboundRulings
from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK
from simcore.stats import Estimate, RecordStats

#: Tiles between the two characters when a duel starts (1 = adjacent). The scenario that places them is
#: not in the rulebook (line 324): illustrative, set with --distance.
DEFAULT_DISTANCE = 6
MAX_DISTANCE = 40

NOT_MODELLED = (
    "skills, equipment effects and Vocations (their texts are not printed; listed by `balance units "
    "warbound`)",
    "initiative beyond WB-hourglass-policy: the Hourglass is placed, and the Hand kept or swapped, by that "
    "stated policy, not by look-ahead",
    "movement other than closing in (and a shooter that cannot Fight stepping away from an adjacent enemy "
    "to shoot); terrain and line of sight never block",
    "the exchange of two Order tokens for one of another colour except to pay a coloured cost of another "
    "faction (two tokens each)",
    "Victory Points and objectives (in a separate scenario, line 322)",
)


@dataclass(frozen=True)
class Fighter:
    """One side of a duel: the front profile and the panic side, what an activation costs under each, the
    Leader's Order generation (left, right) and the hit modifier (a Formation's +1)."""

    name: str
    front: Any
    panic: Any
    orders: tuple[int, int]
    same_faction: bool = True
    modifier: int = 0
    no_panic: bool = False

    def price(self, profile, move: bool = False) -> int:
        """Order tokens one activation costs: the coloured tokens (two each when the Leader's colour is
        another faction's: the 2 -> 1 exchange, line 332), and the colourless ones unless it is the Move
        action (line 157)."""
        coloured = profile.cost_coloured * (1 if self.same_faction else 2)
        return coloured if move else coloured + profile.cost_colourless

    @property
    def profiles(self) -> tuple[Any, Any]:
        """(front, the profile after Panic): the front again when there is no panic side to flip to."""
        return self.front, (self.panic if self.panic is not None and not self.no_panic else self.front)


def fighter(character, catalog, *, leader=None, formation: bool = False, no_panic: bool = False) -> Fighter:
    """A catalog character as a duel side (:func:`side_of`): with its Formation card when ``formation``,
    led by ``leader`` (default: the catalog's first Leader of its faction, else its first Leader)."""
    card = catalog.formation_for(character.key) if formation else None
    return side_of(character, leader or default_leader(character, catalog), card, no_panic)


def side_of(character, leader, card=None, no_panic: bool = False) -> Fighter:
    """A character as a duel side, led by ``leader``, in Formation with ``card`` (None: alone):
    rulesets.warbound.catalog.with_formation on both sides of the card, and the card's +1 to hit."""
    from rulesets.warbound.catalog import with_formation

    if character.panic is None and not no_panic:
        raise RulesError(f"{character.name} has no panic side in the catalog, and a duel flips a panicking "
                         f"character's card (line 517): give its panic profile, or --no-panic to keep the "
                         f"front")
    front, panic, modifier, name = character.front, character.panic, 0, character.name
    if card is not None:
        front = with_formation(front, card)
        panic = with_formation(panic, card) if panic is not None else None
        modifier = card.hit_bonus
        name = f"{character.name} (Formation)"
    same_faction = leader.faction in (character.faction, ANY_FACTION)
    return Fighter(name, front, panic, tuple(leader.orders), same_faction, modifier, no_panic)


def default_leader(character, catalog):
    """The Leader of ``character``'s faction in the catalog (its first by key), else the first Leader of a
    faction (the reference Leader, whose tokens pay every colour, only when the catalog has no other)."""
    leaders = sorted(catalog.leaders.values(), key=lambda x: (x.faction == ANY_FACTION, x.key))
    if not leaders:
        raise RulesError("the catalog has no Leader: a duel needs one to generate Order tokens")
    own = [x for x in leaders if x.faction == character.faction]
    return (own or leaders)[0]


def reference_leader(catalog):
    """The Leader both sides spend under WB-economy=same-leader (the catalog's ``reference`` entry)."""
    found = catalog.leaders.get(REFERENCE_LEADER)
    if found is None:
        raise RulesError(f"the catalog has no Leader {REFERENCE_LEADER!r}: WB-economy=same-leader needs it "
                         f"(give one, or --ruling WB-economy=faction-leader)")
    return found


def economy_leader(character, catalog, rulings: WarboundRulings):
    """The Leader whose Order tokens ``character`` spends under WB-economy: the reference Leader
    (same-leader), or its faction's (faction-leader)."""
    if rulings.economy == "same-leader":
        return reference_leader(catalog)
    return default_leader(character, catalog)


def _accuracy(profile, range_far: bool):
    return profile.accuracy_far if range_far else profile.accuracy_near


def _profile_row(f: Fighter, profile, range_far: bool) -> list[int]:
    from rulesets.warbound import kernels as K

    row = [0] * K.N_PROFILE
    acc = _accuracy(profile, range_far)
    row[K.Profile.ATTACK] = profile.attack if profile.attack is not None else -1
    row[K.Profile.SPEED], row[K.Profile.RUN] = profile.speed, profile.run
    row[K.Profile.ACCURACY] = acc if acc is not None else -1
    row[K.Profile.HEALTH] = profile.health
    row[K.Profile.MORALE] = profile.morale if profile.morale is not None else -1
    row[K.Profile.ARMOR_POINTS] = profile.armor_points if profile.armor_value is not None else 0
    row[K.Profile.PRICE], row[K.Profile.MOVE_PRICE] = f.price(profile), f.price(profile, move=True)
    return row


def _rolls(f: Fighter, profile, range_far: bool) -> list[HitRoll | None]:
    """The attacks of a profile by kind (rulesets.warbound.kernels' K_FIGHT, K_SHOOT, K_AIM)."""
    acc = _accuracy(profile, range_far)
    fight = HitRoll(profile.attack_dice, profile.attack, modifier=f.modifier) if profile.attack is not None \
        else None
    shoot = HitRoll(profile.shoot_dice, acc, modifier=f.modifier) if acc is not None else None
    aim = HitRoll(profile.shoot_dice, acc, aim=True, modifier=f.modifier) if acc is not None else None
    return [fight, shoot, aim]


def attack_table(roll: HitRoll, target: Target, rulings: WarboundRulings,
                 add_wounds: int = 0) -> tuple[tuple, tuple[int, int]]:
    """The guide table of one attack's (wounds, breaks, stress), its outcomes packed as ``wounds << (kb +
    ks) | breaks << ks | stress`` (rulesets.warbound.kernels.draw_attack), and (kb, ks)."""
    from simcore.sampling import guide_table

    pmf = attack_pmf(roll, target, rulings, add_wounds)
    kb, ks = ((n - 1).bit_length() for n in pmf.shape[1:])
    packed = np.zeros((pmf.shape[0], 1 << kb, 1 << ks))
    packed[:, :pmf.shape[1], :pmf.shape[2]] = pmf
    return guide_table(packed.ravel()), (kb, ks)


def board_arrays(board) -> tuple[np.ndarray, np.ndarray]:
    """(action code per space, its Period 0 or 1) of a rulesets.warbound.catalog.ActionBoard."""
    from rulesets.warbound import kernels as K

    codes, periods = [], []
    for period, actions in enumerate(board.periods):
        for action in actions:
            codes.append(K.ACTION_NAMES.index(action))
            periods.append(period)
    return np.array(codes, np.int64), np.array(periods, np.int64)


def duel_args(a: Fighter, b: Fighter, board, rulings: WarboundRulings, *, distance: int = DEFAULT_DISTANCE,
              range_far: bool = False, turns: int = TURNS) -> tuple:
    """The kernel's arguments before the seed (rulesets.warbound.kernels.duel_records)."""
    from rulesets.warbound import kernels as K
    from simcore.sampling import TablePack

    whole_number("distance", distance, 1, MAX_DISTANCE)
    fighters = (a, b)
    prof = np.zeros((2, 2, K.N_PROFILE), np.int64)
    side = np.zeros((2, K.N_SIDE), np.int64)
    for s, f in enumerate(fighters):
        for p, profile in enumerate(f.profiles):
            prof[s, p] = _profile_row(f, profile, range_far)
        side[s, K.Side.ORDERS_1], side[s, K.Side.ORDERS_2] = _orders(f.orders, rulings)
    most_armor = int(prof[:, :, K.Profile.ARMOR_POINTS].max())
    at_index = np.zeros((2, 2, K.N_KINDS, 2, most_armor + 1, 2, K.N_AT), np.int64)
    tables = TablePack()
    for s, f in enumerate(fighters):
        enemy = fighters[1 - s]
        for p, profile in enumerate(f.profiles):
            for kind, roll in enumerate(_rolls(f, profile, range_far)):
                if roll is None:
                    continue
                for q, target in enumerate(enemy.profiles):
                    points = int(prof[1 - s, q, K.Profile.ARMOR_POINTS])
                    for available in range(points + 1):
                        for pool in (0, 1):
                            tgt = Target(available, target.armor_value if available else None,
                                         panicked=not pool)
                            key = (roll, tgt.armor_value, available, pool)
                            table, (kb, ks) = attack_table(roll, tgt, rulings)
                            start, guide_at, k, _ = tables.place(key, 0, table)
                            at_index[s, p, kind, q, available, pool] = (start, guide_at, k, kb, ks)  # K.At
    cdf, values, guide = tables.arrays()
    codes, periods = board_arrays(board)
    policy = K.Hourglass[rulings.hourglass_policy.upper().replace("-", "_")]
    return (prof, side, codes, periods, at_index, cdf, values, guide, np.int64(distance), np.int64(turns),
            np.int64(policy))


def _orders(orders: tuple[int, int], rulings: WarboundRulings) -> tuple[int, int]:
    """Tokens generated each turn of Period 1 and of Period 2 (WB-order-periods)."""
    if rulings.order_periods == "both-each-turn":
        return orders[0] + orders[1], orders[0] + orders[1]
    return orders[0], orders[1]


@dataclass(frozen=True)
class DuelResult(RecordStats):
    """The records of a run of duels (rulesets.warbound.kernels' fields) and how it was obtained."""

    a: Fighter
    b: Fighter
    rulings: WarboundRulings
    records: np.ndarray
    seed: int
    precision: float | None
    stopped_by_precision: bool
    distance: int
    range_far: bool

    # named views of the records (columns rulesets.warbound.kernels.Record), each an Estimate over the duels

    def p_wins(self, side: int) -> Estimate:
        """P(``side`` removes the other)."""
        from rulesets.warbound.kernels import DuelOutcome

        return self.p_outcome((DuelOutcome.SIDE_0_WINS, DuelOutcome.SIDE_1_WINS)[_side(side)])

    def p_neither(self) -> Estimate:
        """P(both stand after the last turn)."""
        from rulesets.warbound.kernels import DuelOutcome

        return self.p_outcome(DuelOutcome.NEITHER)

    def p_panics(self, side: int) -> Estimate:
        """P(``side`` panics)."""
        from rulesets.warbound.kernels import Record

        return self.mean((Record.PANIC_0, Record.PANIC_1)[_side(side)])

    def wounds_taken(self, side: int) -> Estimate:
        """Mean Wound tokens ``side`` took."""
        from rulesets.warbound.kernels import Record

        return self.mean((Record.WOUNDS_0, Record.WOUNDS_1)[_side(side)])

    def tokens_spent(self, side: int) -> Estimate:
        """Mean Order tokens ``side`` spent."""
        from rulesets.warbound.kernels import Record

        return self.mean((Record.TOKENS_0, Record.TOKENS_1)[_side(side)])

    def activations(self, side: int) -> Estimate:
        """Mean activations of ``side``."""
        from rulesets.warbound.kernels import Record

        return self.mean((Record.ACTS_0, Record.ACTS_1)[_side(side)])

    def wounds_per_token(self, side: int) -> Estimate | None:
        """Wound tokens ``side`` dealt per Order token it spent (a ratio of means; None: it spent none)."""
        from rulesets.warbound.kernels import Record

        s = _side(side)
        return self.ratio((Record.WOUNDS_0, Record.WOUNDS_1)[1 - s], (Record.TOKENS_0, Record.TOKENS_1)[s])

    def end_turn(self) -> Estimate:
        """Mean turn the duel ended."""
        from rulesets.warbound.kernels import Record

        return self.mean(Record.TURN)

    def hand_turns(self) -> Estimate:
        """Mean turns side 0 (A) held the Hand."""
        from rulesets.warbound.kernels import Record

        return self.mean(Record.HAND_0)


def _side(side: int) -> int:
    if side not in (0, 1):
        raise RulesError(f"side {side!r}: 0 (A) or 1 (B)")
    return side


def simulate_duel(a: Fighter, b: Fighter, board, rulings: WarboundRulings | None = None, *, trials: int,
                  seed: int, threads: int | None = None, precision: float | None = None,
                  distance: int = DEFAULT_DISTANCE, range_far: bool = False, progress=None,
                  block_trials: int | None = None, max_batch_trials: int | None = None) -> DuelResult:
    """``trials`` duels of ``a`` (side 0, starting with the Hand; WB-hourglass-policy) against ``b``, one
    record each; ``precision`` stops once the 95% half-width of P(a removes b) is below it (``trials`` is
    then the cap)."""
    from rulesets.warbound import kernels as K
    from simcore import config, runner
    from simcore.stats import proportion

    rulings = rulings or WarboundRulings()
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= config.MAX_RECORD_TRIALS:
        raise RulesError(f"trials {trials!r}: a duel run keeps one record per duel, so from 1 to "
                         f"{config.MAX_RECORD_TRIALS:.0e}")

    def p_win(records: np.ndarray):
        wins = records[:, K.Record.OUTCOME] == K.DuelOutcome.SIDE_0_WINS
        return proportion(int(wins.sum()), records.shape[0])

    if precision is not None and block_trials is None:
        block_trials, max_batch_trials = ENGAGEMENT_BLOCK, ENGAGEMENT_BATCH
    args = duel_args(a, b, board, rulings, distance=distance, range_far=range_far)
    run = runner.run_records(K.duel_records, args, K.N_RECORD, trials, seed, threads=threads,
                             precision=precision, statistic=p_win if precision else None, progress=progress,
                             block_trials=block_trials or config.CHUNK_TRIALS,
                             max_batch_trials=max_batch_trials)
    return DuelResult(a, b, rulings, run.records, seed, precision, run.stopped_by_precision, distance,
                      range_far)


@dataclass(frozen=True)
class AttackRun:
    """Simulated attacks: ``run.counts`` the joint histogram of the packed outcomes (wounds << (kb + ks) |
    breaks << ks | stress; simcore.runner.RunResult), decoded by :meth:`counts`."""

    run: Any
    kb: int
    ks: int

    @property
    def trials(self) -> int:
        return self.run.trials

    def counts(self, axis: str) -> np.ndarray:
        """Trials by number of new Wound, Break or Stress tokens (``axis``)."""
        joint = self.run.counts
        index = np.arange(joint.size)
        value = {"wounds": index >> (self.kb + self.ks), "breaks": (index >> self.ks) & ((1 << self.kb) - 1),
                 "stress": index & ((1 << self.ks) - 1)}[axis]
        return np.bincount(value, weights=joint, minlength=int(value.max()) + 1).astype(np.int64)

    def marginal(self, axis: str) -> np.ndarray:
        return self.counts(axis) / self.run.trials


def simulate_attack(roll: HitRoll, target: Target, rulings: WarboundRulings | None = None, *, trials: int,
                    seed: int, threads: int | None = None, precision: float | None = None,
                    add_wounds: int = 0, progress=None) -> AttackRun:
    """``trials`` attacks, each drawn whole (its Wound, Break and Stress tokens) from the exact table with
    one 64-bit word."""
    from rulesets.warbound import kernels as K
    from simcore import runner
    from simcore.stats import histogram_mean

    rulings = rulings or WarboundRulings()
    table, (kb, ks) = attack_table(roll, target, rulings, add_wounds)
    k, cdf, values, guide = table
    at = np.array([0, 0, k, kb, ks], np.int64)
    size = int(values.max()) + 1
    wounds_of = np.arange(size) >> (kb + ks)
    run = runner.run(K.attack_chunks, (at, cdf, values, guide), (size,), trials, seed, threads=threads,
                     precision=precision,
                     statistic=(lambda counts: histogram_mean(counts, wounds_of)) if precision else None,
                     progress=progress)
    return AttackRun(run, kb, ks)
