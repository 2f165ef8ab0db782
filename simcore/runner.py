"""Run a chunked Monte Carlo kernel over threads, into integer histograms.

Kernel contract (every simulation kernel follows it)::

    kernel(*args, seed: uint64, first_chunk: int64, total_trials: int64, chunk_trials: int64,
           out: int64[n_chunks, *hist_shape]) -> None

The kernel runs chunks ``first_chunk .. first_chunk + n_chunks - 1`` (one ``prange`` iteration each),
seeds chunk c with :func:`simcore.rng.chunk_stream` (the stream of ``(seed, c)`` and the chunk's trial
count), runs the trials of that chunk
(``chunk_trials`` of them, fewer for the last chunk of ``total_trials``) and adds one count per trial
to ``out[c - first_chunk]``. Because each chunk's stream and trials are fixed and counts are integers, the
summed histogram is bit-identical whatever the number of threads or the way chunks are batched.

Records contract (kernels whose every trial is wanted, e.g. for paired differences on common random
numbers; :func:`run_records`)::

    kernel(*args, seed: uint64, first_trial: int64, out: int64[n, n_fields]) -> None

The kernel fills ``out[k]`` with the record of trial ``first_trial + k``, drawn from the stream
:func:`simcore.rng.trial_stream` ``(seed, first_trial + k)`` alone, spreading blocks of trials over
threads with ``prange``. Trial *t* of a run therefore meets the same dice whatever ran before it, the first
*n* records of a longer run are a run of *n* trials, and the records are bit-identical for any thread count
and any batching.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numba
import numpy as np

from simcore import config
from simcore.rng import check_seed
from simcore.stats import Estimate

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RunResult:
    """Histogram of a Monte Carlo run and how it was obtained."""

    counts: np.ndarray
    trials: int
    seed: int
    threads: int
    requested_trials: int
    precision: float | None
    stopped_by_precision: bool


def available_threads() -> int:
    """Most threads a kernel may use on this machine."""
    return int(numba.config.NUMBA_NUM_THREADS)


def check_threads(threads: int | None) -> int:
    """The thread count to use; ``ValueError`` naming the accepted range when out of it."""
    most = available_threads()
    if threads is None:
        return most
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise ValueError(f"threads {threads!r} is not an integer from 1 to {most}")
    return threads


def check_trials(trials: int) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= config.MAX_TRIALS:
        raise ValueError(f"trials {trials!r} is not an integer from 1 to {config.MAX_TRIALS:.0e}")
    return trials


def batch_schedule(n_chunks: int, hist_cells: int, max_batch_chunks: int | None = None) -> list[int]:
    """Chunks per batch: a small first batch, then doubling, capped by memory and MAX_BATCH_CHUNKS.

    Depends only on the run's size and histogram shape, never on threads, so a run stopped by
    ``precision`` stops at the same trial count on any machine.
    """
    by_memory = max(1, config.BATCH_HISTOGRAM_BYTES // (8 * max(1, hist_cells)))
    cap = max(1, min(config.MAX_BATCH_CHUNKS, by_memory, max_batch_chunks or config.MAX_BATCH_CHUNKS))
    sizes, done, size = [], 0, min(config.FIRST_BATCH_CHUNKS, cap)
    while done < n_chunks:
        take = min(size, n_chunks - done)
        sizes.append(take)
        done += take
        size = min(size * 2, cap)
    return sizes


def _checked(seed: int, threads: int | None, precision: float | None,
             statistic: Callable | None) -> tuple[int, int]:
    """(seed, threads) of a run, checked; ``ValueError`` for a bad seed, thread count or precision."""
    seed, threads = check_seed(seed), check_threads(threads)
    if precision is not None and (statistic is None or not precision > 0):
        raise ValueError("precision needs a positive target and a statistic")
    return seed, threads


@contextlib.contextmanager
def _numba_threads(threads: int):
    """numba's thread count set to ``threads`` for the run, and restored after it."""
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def run(
    kernel: Callable,
    args: Sequence,
    hist_shape: tuple[int, ...],
    trials: int,
    seed: int,
    *,
    threads: int | None = None,
    precision: float | None = None,
    statistic: Callable[[np.ndarray], Estimate] | None = None,
    progress: Progress | None = None,
    chunk_trials: int = config.CHUNK_TRIALS,
    max_batch_chunks: int | None = None,
) -> RunResult:
    """Run ``trials`` trials of ``kernel`` and return the summed histogram.

    Args:
        precision: stop after the first batch at which the 95% half-width of ``statistic(counts)``
            is below this target (``trials`` is then the cap).
        progress: called with (trials done, trials planned) after every batch.
        max_batch_chunks: split the work into smaller batches (the result does not change).
    """
    check_trials(trials)
    seed, threads = _checked(seed, threads, precision, statistic)
    n_chunks = -(-trials // chunk_trials)
    cells = int(np.prod(hist_shape))
    total = np.zeros(hist_shape, dtype=np.int64)
    done_chunks = 0
    stopped = False
    with _numba_threads(threads):
        for size in batch_schedule(n_chunks, cells, max_batch_chunks):
            out = np.zeros((size, *hist_shape), dtype=np.int64)
            kernel(*args, np.uint64(seed), np.int64(done_chunks), np.int64(trials), np.int64(chunk_trials),
                   out)
            total += out.sum(axis=0)
            done_chunks += size
            if progress is not None:
                progress(min(done_chunks * chunk_trials, trials), trials)
            if precision is not None and done_chunks < n_chunks:
                if statistic(total).half_width < precision:
                    stopped = True
                    break
    run_trials = min(done_chunks * chunk_trials, trials)
    return RunResult(total, run_trials, seed, threads, trials, precision, stopped)


@dataclass(frozen=True)
class RecordsResult:
    """One record per trial of a Monte Carlo run (``records[t]`` is trial t) and how it was obtained."""

    records: np.ndarray
    trials: int
    seed: int
    threads: int
    requested_trials: int
    precision: float | None
    stopped_by_precision: bool


def record_batches(trials: int, block_trials: int, max_batch_trials: int | None = None) -> list[int]:
    """Trials per batch of a records run: blocks of ``block_trials`` batched as :func:`batch_schedule`
    batches chunks (a small first batch, then doubling), the last batch cut at ``trials``.

    Depends only on the run's size, never on threads, so a run stopped by ``precision`` stops at the same
    trial on any machine.
    """
    n_blocks = -(-trials // block_trials)
    cap = None if max_batch_trials is None else max(1, max_batch_trials // block_trials)
    sizes, done = [], 0
    for blocks in batch_schedule(n_blocks, 1, cap):
        take = min(blocks * block_trials, trials - done)
        sizes.append(take)
        done += take
    return sizes


def check_record_trials(trials: int) -> int:
    """``trials`` if a records run may hold that many records; ``ValueError`` naming the cap otherwise."""
    check_trials(trials)
    if trials > config.MAX_RECORD_TRIALS:
        raise ValueError(f"trials {trials!r} is more than the {config.MAX_RECORD_TRIALS:.0e} trials a run "
                         f"keeping one record per trial may hold (simcore.config.MAX_RECORD_TRIALS)")
    return trials


def run_records(
    kernel: Callable,
    args: Sequence,
    n_fields: int,
    trials: int,
    seed: int,
    *,
    threads: int | None = None,
    precision: float | None = None,
    statistic: Callable[[np.ndarray], Estimate] | None = None,
    progress: Progress | None = None,
    block_trials: int = config.CHUNK_TRIALS,
    max_batch_trials: int | None = None,
) -> RecordsResult:
    """Run ``trials`` trials of a records ``kernel`` (contract in the module docstring), one int64 record
    of ``n_fields`` fields per trial.

    Args:
        precision: stop after the first batch at which the 95% half-width of ``statistic(records so far)``
            is below this target (``trials`` is then the cap).
        progress: called with (trials done, trials planned) after every batch.
        block_trials: batches are whole numbers of blocks of this many trials (the last one excepted).
        max_batch_trials: split the work into smaller batches (only where a precision run stops depends
            on it).

    Raises:
        ValueError: bad trials (more than config.MAX_RECORD_TRIALS included), seed, threads, fields,
            block size or precision.
    """
    check_record_trials(trials)
    seed, threads = _checked(seed, threads, precision, statistic)
    if isinstance(n_fields, bool) or not isinstance(n_fields, int) or n_fields < 1:
        raise ValueError(f"n_fields {n_fields!r} is not a whole number >= 1")
    if isinstance(block_trials, bool) or not isinstance(block_trials, int) or block_trials < 1:
        raise ValueError(f"block_trials {block_trials!r} is not a whole number >= 1")
    # np.empty leaves the pages of trials never run untouched, so a run stopped early costs what it ran
    records = np.empty((trials, n_fields), dtype=np.int64)
    done = 0
    stopped = False
    with _numba_threads(threads):
        for size in record_batches(trials, block_trials, max_batch_trials):
            kernel(*args, np.uint64(seed), np.int64(done), records[done:done + size])
            done += size
            if progress is not None:
                progress(done, trials)
            if precision is not None and done < trials:
                if statistic(records[:done]).half_width < precision:
                    stopped = True
                    break
    if done < trials:
        records = records[:done].copy()
    return RecordsResult(records, done, seed, threads, trials, precision, stopped)
