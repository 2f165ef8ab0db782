"""Drakerys Monte Carlo kernels (private; array-in, array-out, see simcore.runner for the contract)."""

from __future__ import annotations

import numba as nb
import numpy as np

from rulesets.drakerys.rules import SIDES
from simcore.config import JIT
from simcore.rng import chunk_stream, next_u64
from simcore.sampling import guide_pick, table_outcomes
from simcore.stages import BankSpec, missing, stage_at, success_roll_direct

#: The stage tables of every Drakerys roll (d10).
STAGES = BankSpec(SIDES)
#: The same rolls made die by die (goodness-of-fit checks of the tables, benchmarks).
STAGES_BY_DIE = BankSpec(SIDES, by_die=True)


@nb.njit(**JIT)
def _action_roll_chunks(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit,
                        seed, first_chunk, total_trials, chunk_trials, out):
    """Action-Table rolls, counted by (successes, criticals): each roll one draw from its exact table in
    ``bank`` (simcore.stages), die by die when the bank does not cover it. Returns the chunks run (0 when
    the bank lacks the table: the runner builds it and calls again).

    Args:
        n: d10 rolled; threshold: 2..10; top_mode, chain, reroll_failures, reroll_limit: as
            simcore.dice.success_roll.
        out: int64[n_chunks, S + 1, C + 1]. Index S (C) collects every trial with at least S
            successes (C criticals): the wrapper sizes it so that it holds only overflow.
    """
    s_last = out.shape[1] - 1
    c_last = out.shape[2] - 1
    at, gat, k, w = stage_at(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit, True)
    if missing(bank[0]):
        return 0
    cdf, values, guide = bank[3], bank[4], bank[5]
    for i in range(out.shape[0]):
        state, trials = chunk_stream(seed, first_chunk + i, total_trials, chunk_trials)
        if at < 0:
            for _ in range(trials):
                s, c = success_roll_direct(state, n, SIDES, threshold, top_mode, chain, reroll_failures,
                                           reroll_limit)
                out[i, min(s, s_last), min(c, c_last)] += 1
        else:
            counts = np.zeros(table_outcomes(cdf, values, at), np.int64)
            for _ in range(trials):
                counts[guide_pick(next_u64(state), cdf, values, guide, at, gat, k)] += 1
            for index in range(counts.shape[0]):
                if counts[index]:
                    out[i, min(index >> w, s_last), min(index & ((1 << w) - 1), c_last)] += counts[index]
    return out.shape[0]
