"""Dragonbond duels: two engaged units fight up to four rounds (seed 000, "Order of Play" 357-404,
"Activations and Fatigue" 434-516, "Exhaustion and Fatigue" 545-570, "Upkeep" 612-639, "Performing an
Attack" 691-757, "Huge Creatures" 955-977).

The reading (tests/naive_dragonbond.py plays the same, die by die): both units start engaged with every model
in contact, fresh. Each round each player has 1 + 1 turns (one unit on the battlefield, 373) + X for Epic X
(871); the face-off winner takes the first turn and the players alternate (361-367) - both roll 3 grey
dice, so the winner is a fair coin. A turn Attacks (fatigue 1) or, under the ``rest`` policy when the unit
is exhausted, Rests (fatigue -1; all of it for a unit whose Rest removes all). The Attack's token is paid
before its roll under DB-fatigue-timing pay-then-act and check-after-paying (an Attack is never barred by
exhaustion: only Run, Charge and Powers are, 566), after it under act-then-pay. A unit whose only weapon is
ranged shoots while engaged and takes the enemy's opportunity attack first (522-535; DB-opportunity-fatigue
for the enemy). Attack and defense modifiers: exhaustion (2 and 1 downgrades per token beside the unit,
559-560), the Captain's typed modifiers while it lives (791), Huge injuries (1 downgrade each, 971).
Wounds fill one model, then the next, in DB-casualty-order (771-773); a Huge creature's full health slot
resets and adds an injury, the last injury slot kills (963-977). Upkeep: the card is cleared and the tokens
beside move onto it (627-629).

Not modelled (said in every duel report): powers and Sacrifice abilities (their effects are free text),
charges and movement (the units start engaged), terrain, Flying (an engaged unit never began a turn
unengaged), Dragonbond pairs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from rulesets.base import RulesError
from rulesets.dragonbond.attack import ATTACK_DOWN_PER_TOKEN, DEFENSE_DOWN_PER_TOKEN, INJURY_DOWN_PER_INJURY
from rulesets.dragonbond.catalog import Unit
from rulesets.dragonbond.dice import ACTION, DEFENSE, Pool, modified
from rulesets.dragonbond.exact import blocks_distribution, casualty_order, pool_distribution
from rulesets.dragonbond.rules import BASE_TURNS, TURNS_PER_UNIT, DragonbondRulings
from simcore.config import ENGAGEMENT_BATCH, ENGAGEMENT_BLOCK
from simcore.stats import Estimate, RecordStats

if TYPE_CHECKING:
    from simcore.sampling import TableBlock, TablePack

ROUNDS = 4
POLICIES = ("attack", "rest")
NOT_MODELLED = ("powers and Captains' Sacrifice abilities (free text)",
                "charges and movement (the units start engaged)", "terrain",
                "Flying (an engaged unit never began a turn unengaged)", "Dragonbond pairs")


@dataclass(frozen=True)
class Fighter:
    """A unit in a duel and how it plays: ``attack`` every turn, or ``rest`` when exhausted."""

    unit: Unit
    policy: str = "attack"

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise RulesError(f"policy {self.policy!r}: accepted {', '.join(POLICIES)}")

    @property
    def weapon(self):
        w = self.unit.melee or self.unit.ranged
        if w is None:
            raise RulesError(f"unit {self.unit.key} has no weapon to attack with")
        return w

    @property
    def ranged_only(self) -> bool:
        return self.unit.melee is None

    @property
    def models(self) -> int:
        return 1 if self.unit.keywords.huge is not None else self.unit.models

    def per_model(self) -> tuple[Pool, bool]:
        """The attack dice per engaged model, and whether they scale with the models left (a pool printed
        for the whole unit scales when it divides evenly among the models, else stays whole)."""
        w = self.weapon
        if w.unit_dice is None:
            return w.dice, True
        counts = w.unit_dice.counts
        if all(c % self.models == 0 for c in counts):
            return Pool(ACTION, tuple(c // self.models for c in counts)), True
        return w.unit_dice, False

    def attack_pool(self, alive: int) -> Pool:
        dice, scales = self.per_model()
        return Pool(ACTION, tuple(c * alive for c in dice.counts)) if scales else dice

    def captain_net(self, rolls: tuple[str, ...]) -> int:
        cap = self.unit.captain
        return sum(m.net for m in cap.modifiers if m.roll in rolls) if cap is not None else 0


@functools.lru_cache(maxsize=65536)
def _modified(base: Pool, up: int, down: int, rulings: DragonbondRulings) -> Pool:
    """dice.modified, remembered: a field's engagements modify the same pools again and again."""
    return modified(base, up, down, rulings)


class AttackEntry(NamedTuple):
    """An attack pool's stage table: hits and criticals packed as ``hits << w | criticals``."""

    w: int  # the bits of the criticals in a packed outcome
    table: tuple  # simcore.sampling.joint_table's guide table
    most_hits: int
    most_criticals: int


@functools.lru_cache(maxsize=8192)
def _attack_entry(counts: tuple[int, int, int], sharp: bool, rulings: DragonbondRulings) -> AttackEntry:
    """An attack pool's joint hits and criticals as a stage table (AttackEntry)."""
    from simcore.sampling import joint_table

    hc = pool_distribution(Pool(ACTION, counts), rulings, sharp).hits_and_criticals(rulings.double_hits)
    w, table = joint_table(hc)
    return AttackEntry(w, table, hc.shape[0] - 1, hc.shape[1] - 1)


@functools.lru_cache(maxsize=8192)
def _blocks_entry(counts: tuple[int, int, int], rulings: DragonbondRulings):
    """(w = 0, table) of a defense pool's blocks."""
    from simcore.sampling import guide_table

    return 0, guide_table(blocks_distribution(Pool(DEFENSE, counts), rulings))


@functools.lru_cache(maxsize=1024)  # a site's Dragonbond pages meet about 60 (a block: 100 KB or so)
def _attack_grid(f: Fighter, j_min: int, j_max: int, rulings: DragonbondRulings) -> tuple[TableBlock, int]:
    """The attack tables of ``f`` with 1..models models alive, net modifier j_min..j_max, as one block
    (``at``: int64[models + 1, J, 4]; row 0 draws nothing), and the most hits any rolls. A field's
    engagements meet the same units again and again."""
    from simcore.sampling import table_block

    sharp = f.unit.keywords.sharp
    found: dict = {}
    grid = np.full((f.models + 1, j_max - j_min + 1), -1, np.int64)
    most = 0
    for m in range(1, f.models + 1):
        base = f.attack_pool(m)
        for j in range(j_min, j_max + 1):
            counts = _modified(base, max(j, 0), max(-j, 0), rulings).counts
            if counts not in found:
                entry = _attack_entry(counts, sharp, rulings)
                found[counts] = (len(found), (("a", counts, sharp), entry.w, entry.table))
                most = max(most, entry.most_hits)
            grid[m, j - j_min] = found[counts][0]
    return table_block([t for _, t in found.values()], grid), most


def _defense_grid(unit, k_min: int, k_max: int, hits_max: int, rulings: DragonbondRulings) -> TableBlock:
    """The block tables of ``unit`` against 1..hits_max hits, net modifier k_min..k_max, as one block
    (``at``: int64[hits_max + 1, K, 4]; nothing drawn in row 0 and where the pool is empty)."""
    from simcore.sampling import table_block

    found: dict = {}
    grid = np.full((hits_max + 1, k_max - k_min + 1), -1, np.int64)
    for h in range(1, hits_max + 1):
        base = unit.defense_pool(h)
        if base.size == 0:
            continue
        for k in range(k_min, k_max + 1):
            counts = _modified(base, max(k, 0), max(-k, 0), rulings).counts
            if counts not in found:
                found[counts] = (len(found), (("d", counts), *_blocks_entry(counts, rulings)))
            grid[h, k - k_min] = found[counts][0]
    return table_block([t for _, t in found.values()], grid)


#: (unit, rulings) -> (k_min, k_max, hits_max, block): the widest defense grid built so far for a unit.
#: A field's engagements ask for ranges a few fatigue tokens or hits apart; one grid grown to cover them
#: is built a few times per unit instead of once per range. Emptied when full, as a stage bank (a site's
#: Dragonbond pages hold about 50, 200 KB each).
_DEFENSE_HELD: dict = {}
_DEFENSE_HELD_MAX = 512


def _defense_at(tables: TablePack, unit, k_min: int, k_max: int, hits_max: int,
                rulings: DragonbondRulings) -> np.ndarray:
    """int64[hits_max + 1, K, 4]: where ``unit``'s block tables against 1..hits_max hits, net modifier
    k_min..k_max, sit in ``tables``: those of :func:`_defense_grid` of that range (a table depends on its
    pool alone, wherever it sits), from the widest grid held for the unit."""
    held = _DEFENSE_HELD.get((unit, rulings))
    if held is None or not (held[0] <= k_min and k_max <= held[1] and hits_max <= held[2]):
        lo, hi, most = (k_min, k_max, hits_max) if held is None else (
            min(held[0], k_min), max(held[1], k_max), max(held[2], hits_max))
        try:
            held = (lo, hi, most, _defense_grid(unit, lo, hi, most, rulings))
        except RulesError:  # a corner of the wider grid that no engagement asked for holds too many dice
            held = (k_min, k_max, hits_max, _defense_grid(unit, k_min, k_max, hits_max, rulings))
        else:
            if len(_DEFENSE_HELD) >= _DEFENSE_HELD_MAX:
                _DEFENSE_HELD.clear()
            _DEFENSE_HELD[unit, rulings] = held
    lo, hi, most, block = held
    return tables.place_block(("d", unit, lo, hi, most), block,
                              np.s_[:hits_max + 1, k_min - lo:k_max - lo + 1])


def duel_args(a: Fighter, b: Fighter, rulings: DragonbondRulings, rounds: int = ROUNDS) -> tuple:
    """The kernel's arguments (side rows, casualty orders, table indices, tables) for ``a`` (side 0)
    against ``b``."""
    from rulesets.dragonbond import kernels as K

    fighters = (a, b)
    tokens = [_most_tokens(f, fighters[1 - s], rulings, rounds) for s, f in enumerate(fighters)]
    side, cap_def, order, att_at, def_at, cdf, values, guide = unit_arrays(
        fighters, ((1,), (0,)), tokens, ((0, 0), (0, 0)), rulings)
    for s in (0, 1):
        side[s, K.Side.CAP_DEF] = cap_def[s, 1 - s]
    return side, order, att_at, def_at, cdf, values, guide, np.int64(rounds)


def unit_arrays(fighters: Sequence[Fighter], enemies: Sequence[Sequence[int]], tokens: Sequence[int],
                defense_reach: Sequence[tuple[int, int]], rulings: DragonbondRulings) -> tuple:
    """The duel kernel's per-unit arrays for units that fight the units ``enemies[u]`` lists (a duel: two
    units, each the other's enemy; a battle: every unit of the other side).

    Args:
        tokens: the most fatigue each unit can have beside it (its tables cover every count, so no draw is
            ever clamped).
        defense_reach: (most upgrades, most downgrades) a contest adds to each unit's defense rolls beyond
            its exhaustion, injuries and captain (a battle's Flying and flanking; a duel's (0, 0)).

    Returns:
        (side int64[U, N_SIDE] (Side.CAP_DEF left 0: it depends on the attacker), cap_def int64[U, U]
        (``cap_def[u, e]``: u's captain's net defense modifier against e's weapon), order int64[U, M + 1]
        (model Health in casualty order), att_at int64[U, M + 1, J, 4], def_at int64[U, H + 1, K, 4], cdf,
        values, guide), unit u's tables in slab u (Side.TABLE).
    """
    from rulesets.dragonbond import kernels as K
    from simcore.sampling import TablePack

    n = len(fighters)
    side = np.zeros((n, K.N_SIDE), np.int64)
    cap_def = np.zeros((n, n), np.int64)
    max_models = max(f.models for f in fighters)
    order = np.zeros((n, max_models + 1), np.int64)
    for s, f in enumerate(fighters):
        u = f.unit
        huge = u.keywords.huge
        row = side[s]
        row[K.Side.MODELS] = f.models
        row[K.Side.STAMINA] = u.stamina
        row[K.Side.DEFENSE] = u.defense
        row[K.Side.EPIC] = u.keywords.epic
        row[K.Side.REST_ALL] = int(u.rest_removes_all)
        row[K.Side.POLICY] = K.Policy[f.policy.upper()]
        if huge is not None:
            row[K.Side.HUGE_HEALTH], row[K.Side.INJURY_SLOTS] = huge.health, huge.injury_slots
            row[K.Side.CAPTAIN_AT] = -1
        else:
            cap = u.captain
            target = casualty_order(u.models, u.health, cap.health if cap else None, rulings)
            order[s, :len(target.health)] = target.health
            row[K.Side.CAPTAIN_AT] = -1 if target.captain is None else target.captain
        kind = f.weapon.kind
        row[K.Side.CAP_ATT] = f.captain_net(("attack", kind))
        row[K.Side.RANGED_ONLY] = int(f.ranged_only)
        row[K.Side.CAN_OPPORTUNITY] = int(u.melee is not None)
        row[K.Side.PAY_FIRST] = int(rulings.fatigue_timing != "act-then-pay")
        row[K.Side.OPP_FATIGUE] = rulings.opportunity_fatigue
        row[K.Side.TABLE] = s
        row[K.Side.SPEED] = u.speed
        row[K.Side.FLYING] = int(u.keywords.flying)
        for e in enemies[s]:
            cap_def[s, e] = f.captain_net(("defense", f"{fighters[e].weapon.kind}-defense"))
    tables = TablePack()
    # the most fatigue beside a unit and the most injuries it can carry bound its modifiers
    injuries = [(f.unit.keywords.huge.injury_slots - 1) if f.unit.keywords.huge else 0 for f in fighters]
    att_index, hits_max = [], [0] * n
    for s, f in enumerate(fighters):
        cap = int(side[s, K.Side.CAP_ATT])
        j_min = min(0, cap) - ATTACK_DOWN_PER_TOKEN * tokens[s] - INJURY_DOWN_PER_INJURY * injuries[s]
        j_max = max(0, cap)
        side[s, K.Side.J_MIN], side[s, K.Side.J_N] = j_min, j_max - j_min + 1
        block, most = _attack_grid(f, j_min, j_max, rulings)
        for e in enemies[s]:
            hits_max[e] = max(hits_max[e], most)
        att_index.append(tables.place_block(("a", f, j_min, j_max), block))  # units alike: stored once
    def_index = []
    for s, f in enumerate(fighters):
        caps = [int(cap_def[s, e]) for e in enemies[s]] or [0]
        up, down = defense_reach[s]
        k_min = (min(0, *caps) - DEFENSE_DOWN_PER_TOKEN * tokens[s] - INJURY_DOWN_PER_INJURY * injuries[s]
                 - down)
        k_max = max(0, *caps) + up
        side[s, K.Side.K_MIN], side[s, K.Side.K_N] = k_min, k_max - k_min + 1
        side[s, K.Side.H_MAX] = hits_max[s]
        def_index.append(_defense_at(tables, f.unit, k_min, k_max, hits_max[s], rulings))
    cdf, values, guide = tables.arrays()
    return side, cap_def, order, _stack(att_index), _stack(def_index), cdf, values, guide


def _most_tokens(f: Fighter, enemy: Fighter, rulings: DragonbondRulings, rounds: int) -> int:
    """The most fatigue a side can gain in a duel: a token each of its turns, and DB-opportunity-fatigue
    each of the enemy's (the tables cover every count, so no draw is ever clamped)."""
    own, theirs = (BASE_TURNS + TURNS_PER_UNIT + x.unit.keywords.epic for x in (f, enemy))
    return rounds * (own + theirs * rulings.opportunity_fatigue)


def _stack(parts: list[np.ndarray]) -> np.ndarray:
    shape = tuple(max(p.shape[i] for p in parts) for i in range(3))
    out = np.zeros((len(parts), *shape), np.int64)
    for s, p in enumerate(parts):
        out[s, :p.shape[0], :p.shape[1], :p.shape[2]] = p
    return out


@dataclass(frozen=True)
class DuelResult(RecordStats):
    """The records of a run of duels (rulesets.dragonbond.kernels' fields) and how it was obtained."""

    a: Fighter
    b: Fighter
    rulings: DragonbondRulings
    records: np.ndarray
    seed: int
    precision: float | None
    stopped_by_precision: bool
    rounds: int = ROUNDS

    # named views of the records (columns rulesets.dragonbond.kernels.Record), each an Estimate over the duels

    def p_wins(self, side: int) -> Estimate:
        """P(``side`` destroys the other)."""
        from rulesets.dragonbond.kernels import DuelOutcome

        return self.p_outcome((DuelOutcome.SIDE_0_WINS, DuelOutcome.SIDE_1_WINS)[_side(side)])

    def p_neither(self) -> Estimate:
        """P(both stand after the last round)."""
        from rulesets.dragonbond.kernels import DuelOutcome

        return self.p_outcome(DuelOutcome.NEITHER)

    def wounds_taken(self, side: int) -> Estimate:
        """Mean wounds ``side`` took."""
        from rulesets.dragonbond.kernels import Record

        return self.mean((Record.WOUNDS_0, Record.WOUNDS_1)[_side(side)])

    def models_lost(self, side: int) -> Estimate:
        """Mean models ``side`` lost (a Huge creature: 1 when dead)."""
        from rulesets.dragonbond.kernels import Record

        return self.mean((Record.LOST_0, Record.LOST_1)[_side(side)])

    def fatigue_gained(self, side: int) -> Estimate:
        """Mean fatigue tokens ``side`` gained."""
        from rulesets.dragonbond.kernels import Record

        return self.mean((Record.FATIGUE_0, Record.FATIGUE_1)[_side(side)])

    def turns_taken(self, side: int) -> Estimate:
        """Mean turns ``side`` took."""
        from rulesets.dragonbond.kernels import Record

        return self.mean((Record.TURNS_0, Record.TURNS_1)[_side(side)])

    def rounds_played(self) -> Estimate:
        """Mean rounds played."""
        from rulesets.dragonbond.kernels import Record

        return self.mean(Record.ROUNDS)


def _side(side: int) -> int:
    if side not in (0, 1):
        raise RulesError(f"side {side!r}: 0 (A) or 1 (B)")
    return side


def simulate_duel(a: Fighter, b: Fighter, rulings: DragonbondRulings | None = None, *, trials: int, seed: int,
                  threads: int | None = None, precision: float | None = None, rounds: int = ROUNDS,
                  progress=None, block_trials: int | None = None,
                  max_batch_trials: int | None = None) -> DuelResult:
    """``trials`` duels of ``a`` (side 0) against ``b``, one record each; ``precision`` stops once the 95%
    half-width of P(a destroys b) is below it (``trials`` is then the cap)."""
    from rulesets.dragonbond import kernels as K
    from simcore import config, runner
    from simcore.stats import proportion

    rulings = rulings or DragonbondRulings()
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= config.MAX_RECORD_TRIALS:
        raise RulesError(f"trials {trials!r}: a duel run keeps one record per duel, so from 1 to "
                         f"{config.MAX_RECORD_TRIALS:.0e}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 20:
        raise RulesError(f"rounds {rounds!r}: a whole number from 1 to 20 (the game has 4)")

    def p_win(records: np.ndarray):
        wins = records[:, K.Record.OUTCOME] == K.DuelOutcome.SIDE_0_WINS
        return proportion(int(wins.sum()), records.shape[0])

    if precision is not None and block_trials is None:  # check the interval often: stop near what it needs
        block_trials, max_batch_trials = ENGAGEMENT_BLOCK, ENGAGEMENT_BATCH
    run = runner.run_records(K.duel_records, duel_args(a, b, rulings, rounds), K.N_RECORD, trials, seed,
                             threads=threads, precision=precision, statistic=p_win if precision else None,
                             progress=progress, block_trials=block_trials or config.CHUNK_TRIALS,
                             max_batch_trials=max_batch_trials)
    return DuelResult(a, b, rulings, run.records, seed, precision, run.stopped_by_precision, rounds)


@dataclass(frozen=True)
class AttackRun:
    """Simulated attacks: ``counts[0]`` wounds, ``counts[1]`` models killed (simcore.runner.RunResult)."""

    run: Any

    @property
    def trials(self) -> int:
        return self.run.trials

    def wounds(self) -> np.ndarray:
        return self.run.counts[0] / self.run.trials

    def killed(self) -> np.ndarray:
        return self.run.counts[1] / self.run.trials


def simulate_attack(attack: Pool, defense, healths: tuple[int, ...] = (),
                    rulings: DragonbondRulings | None = None, sharp: bool = False, *, trials: int, seed: int,
                    threads: int | None = None, precision: float | None = None, progress=None) -> AttackRun:
    """``trials`` attacks of ``attack`` (modifiers applied) against ``defense``
    (rulesets.dragonbond.exact.Defense), each drawn as two stages from the exact tables; ``healths``: the
    target's models in the order wounds fill them."""
    from rulesets.dragonbond import kernels as K
    from simcore import runner
    from simcore.stats import histogram_mean

    rulings = rulings or DragonbondRulings()
    from simcore.sampling import TablePack

    tables = TablePack()
    entry = _attack_entry(attack.counts, sharp, rulings)
    att = np.array(tables.place(("a", attack.counts, sharp), entry.w, entry.table), np.int64)
    h_max = entry.most_hits
    blk = np.full((h_max + 1, 3), -1, np.int64)
    for h in range(1, h_max + 1):
        pool = defense.pool(h, rulings)
        if pool.size:
            blk[h] = tables.place(("d", pool.counts), *_blocks_entry(pool.counts, rulings))[:3]
    cdf, values, guide = tables.arrays()
    width = h_max + entry.most_criticals + 1  # every number of wounds the tables can draw
    args = (att, blk, cdf, values, guide, np.array(healths, np.int64))
    hist = (2, max(width, len(healths) + 1))
    run = runner.run(K.attack_chunks, args, hist, trials, seed, threads=threads, precision=precision,
                     statistic=(lambda counts: histogram_mean(counts[0])) if precision else None,
                     progress=progress)
    return AttackRun(run)


def best_policies(a: Unit, b: Unit, policy_a: str, policy_b: str, rulings: DragonbondRulings, *, trials: int,
                  seed: int, threads: int | None = None) -> tuple[str, str, dict[tuple[str, str], float]]:
    """Resolve ``best`` policies on common random numbers: every pairing the choices allow is run on the same
    seed (trial t meets the same dice in each), and a side playing ``best`` takes the policy whose worst
    P(win) over the other side's choices is higher (maximin; attack on a tie). Returns the two policies and
    P(A wins), P(B wins) by pairing."""
    from rulesets.dragonbond import kernels as K

    choices = [POLICIES if p == "best" else (p,) for p in (policy_a, policy_b)]
    wins: dict[tuple[str, str], tuple[float, float]] = {}
    for pa in choices[0]:
        for pb in choices[1]:
            rec = simulate_duel(Fighter(a, pa), Fighter(b, pb), rulings, trials=trials, seed=seed,
                                threads=threads).records
            outcome = rec[:, K.Record.OUTCOME]
            wins[pa, pb] = tuple(float((outcome == code).mean())
                                 for code in (K.DuelOutcome.SIDE_0_WINS, K.DuelOutcome.SIDE_1_WINS))

    def pick(side: int) -> str:
        own = choices[side]
        if len(own) == 1:
            return own[0]
        other = choices[1 - side]

        def worst(p: str) -> float:
            return min(wins[(p, q) if side == 0 else (q, p)][side] for q in other)

        return max(own, key=lambda p: (worst(p), p == "attack"))

    return pick(0), pick(1), wins
