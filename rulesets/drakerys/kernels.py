"""Drakerys Monte Carlo kernels (private; array-in, array-out, see simcore.runner for the contract)."""

from __future__ import annotations

import numba as nb

from simcore.config import PARALLEL_JIT
from simcore.dice import face_tables, success_roll_tabled
from simcore.rng import chunk_stream

_SIDES = 10


@nb.njit(**PARALLEL_JIT)
def _action_roll_chunks(n, threshold, top_mode, chain, reroll_failures, reroll_limit,
                        seed, first_chunk, total_trials, chunk_trials, out):
    """Action-Table rolls, counted by (successes, criticals).

    Args:
        n: d10 rolled; threshold: 2..10; top_mode, chain, reroll_failures, reroll_limit: as
            simcore.dice.success_roll.
        out: int64[n_chunks, S + 1, C + 1]. Index S (C) collects every trial with at least S
            successes (C criticals): the wrapper sizes it so that it holds only overflow.
    """
    s_last = out.shape[1] - 1
    c_last = out.shape[2] - 1
    for i in nb.prange(out.shape[0]):
        state, trials = chunk_stream(seed, first_chunk + i, total_trials, chunk_trials)
        success, explodes, failure = face_tables(_SIDES, threshold, top_mode)
        for _ in range(trials):
            s, c, _rolled = success_roll_tabled(state, n, _SIDES, threshold, chain, reroll_failures,
                                                reroll_limit, success, explodes, failure)
            out[i, min(s, s_last), min(c, c_last)] += 1
