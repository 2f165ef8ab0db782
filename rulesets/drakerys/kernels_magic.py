"""Drakerys magic Monte Carlo kernels (private; array-in, array-out, see simcore.runner for the contract)."""

from __future__ import annotations

import numba as nb

from simcore.config import JIT
from simcore.dice import TOP_EXPLODE, face_tables
from simcore.rng import chunk_stream, roll_die

_SIDES = 10
#: The face counted for the Maelstroms' Cataclysmic Effect.
_MARKED = 1


@nb.njit(**JIT)
def _spell_roll_chunks(n, threshold, chain, mark_extra, seed, first_chunk, total_trials, chunk_trials, out):
    """Spell rolls die by die, counted by (successes, natural 1s).

    Args:
        n: d10 first rolled (int64); threshold: 2..10. Every 10 is a success that adds an extra d10; with
            ``chain`` an extra 10 does so too, without it an extra 10 is a plain success.
        mark_extra: count the 1s of extra dice too (else only those of the dice first rolled).
        out: int64[n_chunks, S + 1, n + 1]. Index S collects every trial with at least S successes (the
            wrapper sizes it so that it holds only overflow); there are never more 1s than first dice,
            each first die's chain of extra dice ending on a single face below 10.
    """
    s_last = out.shape[1] - 1
    for i in range(out.shape[0]):
        state, trials = chunk_stream(seed, first_chunk + i, total_trials, chunk_trials)
        success, explodes, _failure = face_tables(_SIDES, threshold, TOP_EXPLODE)
        for _ in range(trials):
            successes = 0
            ones = 0
            extra = 0
            for _ in range(n):
                face = roll_die(state, _SIDES)
                successes += success[face]
                extra += explodes[face]
                ones += face == _MARKED
            while extra > 0:
                extra -= 1
                face = roll_die(state, _SIDES)
                if face == _SIDES:
                    successes += 1
                    if chain:
                        extra += 1
                elif face >= threshold:
                    successes += 1
                if mark_extra and face == _MARKED:
                    ones += 1
            out[i, min(successes, s_last), ones] += 1
