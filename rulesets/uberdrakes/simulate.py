"""The UberDrakes combat by Monte Carlo: the exact program's policy (rulesets.uberdrakes.combat.policy)
played move by move with rolled dice (rulesets.uberdrakes.kernels), on seeded chunked streams (the same
result for any thread count). What it is for: an independent check of the exact program, and the speed of
a whole combat; the exact numbers are what reports use."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulesets.base import RulesError
from rulesets.uberdrakes import kernels as K
from rulesets.uberdrakes.combat import FIRE, LANCE, PLATE, SHIELD, Combat, Policy, policy
from rulesets.uberdrakes.counter import N_SIDE_STATE, SideState
from rulesets.uberdrakes.exact import dice_total_pmf
from rulesets.uberdrakes.rules import UberDrakesRulings

_MOVE = {LANCE: K.Move.LANCE, SHIELD: K.Move.SHIELD, FIRE: K.Move.FIRE}
#: The most of each resource a key's field holds (kernels' key layout).
_LIMITS = ((SideState.LANCES, (1 << K.W_LANCES) - 1), (SideState.SHIELDS, (1 << K.W_SHIELDS) - 1),
           (SideState.MAGIC, (1 << K.W_MAGIC) - 1))


def _state_array(states) -> np.ndarray:
    st = np.array([[int(v) for v in s] for s in states], np.int64)
    for field, high in _LIMITS:
        if st[:, field].max() > high:
            raise RulesError(f"a combat with more than {high} of a resource cannot be simulated")
    return st


def policy_table(pol: Policy) -> tuple[np.ndarray, np.ndarray]:
    """(keys int64[k] sorted, moves int64[k]): every decision of the policy, keyed by kernels.encode."""
    n = len(pol.decisions)
    items = list(pol.decisions.items())
    ab = np.array([totals if pol.absolute else (diff, -K.KEY_OFFSET) for (diff, totals, *_), _ in items],
                  np.int64).reshape(n, 2)
    a, b = ab[:, 0].copy(), ab[:, 1].copy()
    who = np.array([k[3:] for k, _ in items], np.int64).reshape(n, 3).T.copy()
    states = np.array([k[2] for k, _ in items], np.int64).reshape(n, 2, N_SIDE_STATE)
    moves = [K.Move.NONE if move is None else K.Move.PLATE + move[1] if move[0] == PLATE else _MOVE[move[0]]
             for _, move in items]
    if n and (np.abs(a).max() >= K.KEY_OFFSET or b.max() >= K.KEY_OFFSET or b.min() < -K.KEY_OFFSET):
        raise RulesError("totals beyond +-255 cannot be simulated")
    for field, high in _LIMITS:
        if n and states[:, :, field].max() > high:
            raise RulesError(f"a combat with more than {high} of a resource cannot be simulated")
    keys = K.encode_all(a, b, states, who[0], who[1], who[2])
    keys_a, moves_a = keys, np.array(moves, np.int64)
    order = np.argsort(keys_a, kind="stable")
    keys_a, moves_a = keys_a[order], moves_a[order]
    if np.any(keys_a[1:] == keys_a[:-1]):
        raise RulesError("two states of the policy share a simulation key")
    return keys_a, moves_a


def combat_args(pol: Policy, rulings: UberDrakesRulings) -> tuple:
    """The leading arguments of kernels.combat_chunks for a policy."""
    from rulesets.uberdrakes.combat import _side_state
    from simcore.sampling import TablePack, guide_table, joint_table

    if rulings.item_die != "add-value" or rulings.counter_sequencing == "declared":
        raise RulesError("the simulated combat plays UD-item-die=add-value with adaptive or overshoot "
                         "sequencing; re-keep-highest-two and declared are solved exactly "
                         "(rulesets.uberdrakes.combat)")
    setup, combat = pol.setup, pol.combat
    keys, moves = policy_table(pol)
    init = _state_array([_side_state(k, a) for k, a in zip(setup.kits, setup.acid_against, strict=True)])
    low = min(pol.unrolled) if pol.unrolled else 0
    unrolled = np.zeros(max(pol.unrolled) - low + 1 if pol.unrolled else 0, np.int8)
    for t in pol.unrolled:
        unrolled[t - low] = 1
    params = np.zeros(K.N_PARAMS, np.int64)
    params[K.Param.BONUS_I], params[K.Param.BONUS_D] = combat.initiator.bonus, combat.defender.bonus
    params[K.Param.RANGED] = combat.ranged
    params[K.Param.BLAST_I], params[K.Param.BLAST_D] = setup.windblast
    params[K.Param.TIES_INITIATOR] = rulings.counter_ties == "initiator"
    params[K.Param.OVERSHOOT] = rulings.counter_sequencing == "overshoot"
    params[K.Param.ACID_SPELLS] = rulings.acid_scope == "items-and-spells"
    params[K.Param.BP_ROLLOFF] = rulings.bp_total == "rolloff"
    params[K.Param.CONCEDE_BONUSES] = rulings.concede_total == "bonuses"
    params[K.Param.BLAST_MULTIPLY] = rulings.windblast_stack == "multiply"
    params[K.Param.ABSOLUTE] = pol.absolute
    params[K.Param.FIRE_COST_I], params[K.Param.FIRE_COST_D] = (k.fire_breath_cost for k in setup.kits)
    params[K.Param.PRE_MAGIC_I], params[K.Param.PRE_MAGIC_D] = (int(magic) for magic, *_ in setup.pre_spent)
    params[K.Param.UNROLLED_LOW] = low
    pack = TablePack()
    ri, rd = (dice_total_pmf(r) for r in setup.rage)
    first = pack.place("initiator", 0, guide_table(ri))
    second = pack.place("defender", 0, guide_table(rd))
    w, joint = joint_table(np.outer(ri, rd))  # both totals with one word when no concession can come between
    both = pack.place("both", w, joint)
    cdf, values, guide = pack.arrays()
    at = np.zeros(K.N_AT, np.int64)
    at[K.At.I_START], at[K.At.I_GUIDE], at[K.At.I_BITS] = first[:3]
    at[K.At.D_START], at[K.At.D_GUIDE], at[K.At.D_BITS] = second[:3]
    at[K.At.BOTH_START], at[K.At.BOTH_GUIDE], at[K.At.BOTH_BITS], at[K.At.BOTH_SPLIT] = both
    bits = max(4, int(2 * keys.size - 1).bit_length())  # at most half full
    if moves.size and moves.max() >= 1 << K.MOVE_BITS:
        raise RulesError(f"Plate Armor's X above {(1 << K.MOVE_BITS) - 1 - K.Move.PLATE} cannot be simulated")
    return K.hash_table(keys, moves, bits), np.int64(bits), params, init, at, cdf, values, guide, unrolled


@dataclass(frozen=True)
class CombatRun:
    """Simulated combats: ``counts`` the summed histogram (kernels' layout), with the policy played."""

    policy: Policy
    counts: np.ndarray
    trials: int

    def _block(self, start: int, size: int) -> np.ndarray:
        return self.counts[start:start + size]

    def outcome(self) -> np.ndarray:
        """int64[winner, damage instances, conceded unrolled]: the trials of each."""
        return self._block(K.H_OUTCOME, 2 * (K.DAMAGE_MAX + 1) * 2).reshape(2, K.DAMAGE_MAX + 1, 2)

    def paid(self) -> np.ndarray:
        """int64[winner, paid + PAID_OFFSET]: the total the loser pays in blood points."""
        return self._block(K.H_PAID, 2 * K.PAID_BINS).reshape(2, K.PAID_BINS)

    def spent(self, what: str, side: int) -> np.ndarray:
        """Trials by Magic (``magic``), Dragon Lances (``lances``) or Hide Shields (``shields``) spent."""
        block = {"magic": K.Spent.MAGIC, "lances": K.Spent.LANCES, "shields": K.Spent.SHIELDS}[what] + side
        return self._block(K.H_SPENT + block * K.SPENT_BINS, K.SPENT_BINS)

    @property
    def missed(self) -> int:
        """Trials that met a state the policy table does not hold (0 unless something is wrong)."""
        return int(self.counts[K.H_MISSED])

    def samples_mean(self) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
        """Per measure, ((mean of side 0, of side 1), (their standard errors)): p_win, p_damage, damage,
        magic, items (Lances, Hide Shields and Rage Potions) and blood_points, as the exact Outcome."""
        n = self.trials
        out = self.outcome()
        paid = self.paid()
        values = np.arange(K.PAID_BINS) - K.PAID_OFFSET
        dmg = np.arange(K.DAMAGE_MAX + 1)
        spent_values = np.arange(K.SPENT_BINS)
        potions = [float(p.potions) for p in self.policy.outcome.plans]

        def mean_se(weights: np.ndarray, x: np.ndarray) -> tuple[float, float]:
            m = float(weights @ x) / n
            var = float(weights @ (x - m) ** 2) / max(n - 1, 1)
            return m, float(np.sqrt(var / n))

        result: dict[str, tuple] = {}
        wins = out.sum(axis=(1, 2))
        p0 = mean_se(np.array([wins[0], wins[1]]), np.array([1.0, 0.0]))
        result["p_win"] = ((p0[0], 1.0 - p0[0]), (p0[1], p0[1]))
        by_winner = out.sum(axis=2)
        result["p_damage"] = tuple(zip(*(mean_se(by_winner[s], (dmg > 0).astype(float)) for s in (0, 1)),
                                       strict=True))
        result["damage"] = tuple(zip(*(mean_se(by_winner[s], dmg.astype(float)) for s in (0, 1)),
                                     strict=True))
        result["magic"] = tuple(zip(*(mean_se(self.spent("magic", s), spent_values.astype(float))
                                      for s in (0, 1)), strict=True))
        items = []
        for s in (0, 1):
            m_l, se_l = mean_se(self.spent("lances", s), spent_values.astype(float))
            m_s, se_s = mean_se(self.spent("shields", s), spent_values.astype(float))
            items.append((m_l + m_s + potions[s], se_l + se_s))  # a bound: sd(X + Y) <= sd X + sd Y
        result["items"] = tuple(zip(*items, strict=True))
        # blood points: the winner gains the paid total, the loser half of it rounded down
        bp = []
        for s in (0, 1):
            gains = np.concatenate([values, values // 2])
            weights = np.concatenate([paid[s], paid[1 - s]])
            bp.append(mean_se(weights, gains.astype(float)))
        result["blood_points"] = tuple(zip(*bp, strict=True))
        if self.policy.combat.roosted:  # "does not [give] blood points to either player" (line 284)
            result["blood_points"] = ((0.0, 0.0), (0.0, 0.0))
        return result


def simulate_combat(combat: Combat, rulings: UberDrakesRulings | None = None, *, trials: int, seed: int,
                    threads: int | None = None, pol: Policy | None = None) -> CombatRun:
    """``trials`` whole combats under the rulings' policy (solved exactly first, or ``pol``)."""
    from simcore import runner

    rulings = rulings or UberDrakesRulings()
    pol = pol or policy(combat, rulings)
    run = runner.run(K.combat_chunks, combat_args(pol, rulings), (K.H_SIZE,), trials, seed, threads=threads)
    return CombatRun(pol, run.counts, run.trials)
