"""Run a chunked Monte Carlo kernel over threads, into integer histograms or per-trial records.

Kernel contract (every simulation kernel follows it)::

    kernel(*args, seed: uint64, first_chunk: int64, total_trials: int64, chunk_trials: int64,
           out: int64[n_chunks, *hist_shape]) -> None

The kernel runs chunks ``first_chunk .. first_chunk + n_chunks - 1`` one after the other, seeds chunk c
with :func:`simcore.rng.chunk_stream` (the stream of ``(seed, c)`` and the chunk's trial count), runs the
trials of that chunk (``chunk_trials`` of them, fewer for the last chunk of ``total_trials``) and adds one
count per trial to ``out[c - first_chunk]``. Because each chunk's stream and trials are fixed and counts
are integers, the summed histogram is bit-identical whatever the number of threads or the way chunks are
batched.

Records contract (kernels whose every trial is wanted, e.g. for paired differences on common random
numbers; :func:`run_records`)::

    kernel(*args, seed: uint64, first_trial: int64, out: int64[n, n_fields]) -> None

The kernel fills ``out[k]`` with the record of trial ``first_trial + k``, drawn from the stream
:func:`simcore.rng.trial_stream` ``(seed, first_trial + k)`` alone. Trial *t* of a run therefore meets the
same dice whatever ran before it, the first *n* records of a longer run are a run of *n* trials, and the
records are bit-identical for any thread count and any batching.

Stage tables (simcore.stages): a kernel may return how many chunks (records: trials) it completed; fewer
than it was given means it stopped at a trial that asked for a stage table its bank lacked: the runner
builds the table and calls it again from that chunk (trial), which is run again from its start. A kernel
that returns None ran everything.

Threads: kernels are serial ``nogil`` functions; the runner hands pieces of a batch (runs of chunks, or
slices of records) to a pool of Python threads, each calling the kernel on its piece with the GIL released;
a thread slowed down by other work on the machine takes fewer pieces. Python between the kernel calls still
holds the GIL, so the speed-up is that of the kernels' share of a run. A :class:`simcore.stages.BankSpec` in
``args`` becomes the calling thread's own stage bank. Runs of many small kernels (a report's matchups) are
better spread whole over the threads with :func:`simcore.parallel.map_ordered`, each run on one thread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from simcore import config
from simcore.parallel import available_threads, check_threads, map_ordered
from simcore.rng import check_seed
from simcore.sampling import fold, tabled_args, tabled_chunks
from simcore.stages import fill, with_banks
from simcore.stats import Estimate

__all__ = ["RecordsResult", "RunResult", "available_threads", "batches", "check_record_trials",
           "check_threads", "check_trials", "map_ordered", "planned_batch", "record_batch_sizes", "run",
           "run_records", "run_table"]

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


def _resumed(kernel: Callable, args: Sequence, out: np.ndarray,
             call: Callable[[tuple, int, np.ndarray], int | None]) -> None:
    """Run a piece of work (``out``: its chunks or records) to the end: ``call(args, done, out[done:])``
    runs the kernel from row ``done`` on; a kernel that returns fewer rows than it was given stopped for a
    stage table its bank lacked, which is built before it is called again from there."""
    args = with_banks(tuple(args))
    done = 0
    while done < out.shape[0]:
        got = call(args, done, out[done:])
        if got is None:
            return
        done += int(got)
        if done < out.shape[0] and not fill(args):
            raise RuntimeError(f"{getattr(kernel, '__name__', kernel)} stopped at row {done} of "
                               f"{out.shape[0]} without asking for a stage table")


def _spread(calls: list[Callable[[], None]], threads: int) -> None:
    """Run ``calls`` (pieces of one batch) over ``threads`` threads; raise the first failure."""
    map_ordered(lambda call: call(), calls, threads)


def check_trials(trials: int) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= config.MAX_TRIALS:
        raise ValueError(f"trials {trials!r} is not an integer from 1 to {config.MAX_TRIALS:.0e}")
    return trials


def batches(n_chunks: int, hist_cells: int, max_batch_chunks: int | None = None) -> Iterator[int]:
    """Chunks per batch, one batch at a time: a small first batch, then doubling, capped by memory and
    MAX_BATCH_CHUNKS. Lazy, because a run stopped by ``precision`` may be planned for 10**9 trials.

    Depends only on the run's size and histogram shape, never on threads, so a run stopped by
    ``precision`` stops at the same trial count on any machine.
    """
    by_memory = max(1, config.BATCH_HISTOGRAM_BYTES // (8 * max(1, hist_cells)))
    cap = max(1, min(config.MAX_BATCH_CHUNKS, by_memory, max_batch_chunks or config.MAX_BATCH_CHUNKS))
    done, size = 0, min(config.FIRST_BATCH_CHUNKS, cap)
    while done < n_chunks:
        take = min(size, n_chunks - done)
        yield take
        done += take
        size = min(size * 2, cap)


def _checked(seed: int, threads: int | None, precision: float | None,
             statistic: Callable | None) -> tuple[int, int]:
    """(seed, threads) of a run, checked; ``ValueError`` for a bad seed, thread count or precision."""
    seed, threads = check_seed(seed), check_threads(threads)
    if precision is not None and (statistic is None or not precision > 0):
        raise ValueError("precision needs a positive target and a statistic")
    return seed, threads


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

    def piece(span: tuple[int, int]) -> np.ndarray:
        """Chunks ``first .. first + count - 1``, summed (on the thread that ran them: integer counts add
        up the same in any grouping)."""
        first, count = span
        out = np.zeros((count, *hist_shape), dtype=np.int64)
        _resumed(kernel, args, out, lambda a, done, rest: kernel(
            *a, np.uint64(seed), np.int64(first + done), np.int64(trials), np.int64(chunk_trials), rest))
        return out.sum(axis=0)

    for size in batches(n_chunks, cells, max_batch_chunks):
        step = -(-size // (_PIECES_PER_THREAD * threads))
        end = done_chunks + size
        spans = [(c, min(step, end - c)) for c in range(done_chunks, end, step)]
        for counts in map_ordered(piece, spans, threads):
            total += counts
        done_chunks += size
        if progress is not None:
            progress(min(done_chunks * chunk_trials, trials), trials)
        if precision is not None and done_chunks < n_chunks:
            if statistic(total).half_width < precision:
                stopped = True
                break
    run_trials = min(done_chunks * chunk_trials, trials)
    return RunResult(total, run_trials, seed, threads, trials, precision, stopped)


def run_table(pmf: np.ndarray, shape: tuple[int, ...], trials: int, seed: int, *,
              threads: int | None = None, precision: float | None = None,
              statistic: Callable[[np.ndarray], Estimate] | None = None, progress: Progress | None = None,
              max_batch_chunks: int | None = None) -> RunResult:
    """Monte Carlo of a stage whose exact PMF is known: every trial one draw from ``pmf``'s table (one
    64-bit word, simcore.sampling), the counts shaped as ``pmf`` and folded into ``shape`` (counts beyond an
    axis's end in its last index). ``statistic`` sees counts shaped as ``pmf``."""
    pmf = np.asarray(pmf, dtype=np.float64)
    try:
        args = tabled_args(pmf)
    except ValueError as exc:
        raise ValueError(f"no table for this stage: {exc}") from None
    stat = None if statistic is None else (lambda counts: statistic(counts.reshape(pmf.shape)))
    result = run(tabled_chunks, args, (pmf.size,), trials, seed, threads=threads, precision=precision,
                 statistic=stat, progress=progress, max_batch_chunks=max_batch_chunks)
    return replace(result, counts=fold(result.counts.reshape(pmf.shape), shape))


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


#: Trials per piece a thread takes of a records batch (any split gives the same records).
_RECORD_PIECE = 4096
#: A histogram batch is cut in this many pieces per thread: small enough that a thread slowed by other
#: work takes fewer, few enough that handing them out costs little.
_PIECES_PER_THREAD = 4


def record_batch_sizes(trials: int, block_trials: int, max_batch_trials: int | None = None) -> Iterator[int]:
    """Trials per batch of a records run, one batch at a time: blocks of ``block_trials`` batched as
    :func:`batches` batches chunks (a small first batch, then doubling), the last batch cut at ``trials``.

    Depends only on the run's size, never on threads, so a run stopped by ``precision`` stops at the same
    trial on any machine.
    """
    n_blocks = -(-trials // block_trials)
    cap = None if max_batch_trials is None else max(1, max_batch_trials // block_trials)
    done = 0
    for blocks in batches(n_blocks, 1, cap):
        take = min(blocks * block_trials, trials - done)
        yield take
        done += take


def planned_batch(done: int, trials: int, half_width: float, precision: float, block_trials: int) -> int:
    """Trials of the next batch of a run stopped by ``precision`` whose 95% half-width after ``done`` trials
    is ``half_width``: a mean's half-width shrinks as one over the square root of the trials, so the run
    needs about ``done * (half_width / precision)**2`` in all; the rest in whole blocks, at least one, at most
    what the cap ``trials`` leaves. Depends only on the records so far, never on threads."""
    # a statistic with no spread yet to speak of (not finite) gets as many trials again
    needed = math.ceil(done * (half_width / precision) ** 2) - done if math.isfinite(half_width) else done
    blocks = max(1, -(-needed // block_trials))
    return min(blocks * block_trials, trials - done)


def check_record_trials(trials: int) -> int:
    """``trials`` if a records run may hold that many records; ``ValueError`` naming the cap otherwise."""
    check_trials(trials)
    if trials > config.MAX_RECORD_TRIALS:
        raise ValueError(f"trials {trials!r} is more than the {config.MAX_RECORD_TRIALS:.0e} trials a run "
                         f"keeping one record per trial may hold (simcore.config.MAX_RECORD_TRIALS)")
    return trials


#: Trials a records run stopped by precision has room for at first (doubled as it goes on).
RECORDS_START = 16_384


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
            is below this target (``trials`` is then the cap). The first batch is the first of
            :func:`record_batch_sizes`; each later one is what the half-width so far says is still needed
            (:func:`planned_batch`), so the run stops close to the trials its target needs.
        progress: called with (trials done, trials planned) after every batch.
        block_trials: batches are whole numbers of blocks of this many trials (the last one excepted).
        max_batch_trials: split the work into smaller batches (in a run stopped by precision, the first
            batch: where it stops depends on it).

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
    # a run stopped by precision starts with room for RECORDS_START trials and doubles it when it needs more:
    # room for the whole cap (10**6 trials, 100 MB) came fresh from the system at every run, and filling
    # it cost a page fault per 4 KB (a warm `balance efficiency drakerys --save`: 176,790 faults, 77,695 now)
    records = np.empty((trials if precision is None else min(trials, RECORDS_START), n_fields),
                       dtype=np.int64)
    done = 0
    stopped = False

    def piece(first: int, size: int) -> Callable[[], None]:
        return lambda: _resumed(kernel, args, records[first:first + size], lambda a, done, rest: kernel(
            *a, np.uint64(seed), np.int64(first + done), rest))

    sizes = record_batch_sizes(trials, block_trials, max_batch_trials)
    size = next(sizes)
    while True:
        if done + size > records.shape[0]:
            more = np.empty((min(trials, max(done + size, 2 * records.shape[0])), n_fields), dtype=np.int64)
            more[:done] = records[:done]
            records = more
        step = size if threads == 1 else max(block_trials, _RECORD_PIECE)
        _spread([piece(k, min(step, done + size - k)) for k in range(done, done + size, step)], threads)
        done += size
        if progress is not None:
            progress(done, trials)
        if done == trials:
            break
        if precision is None:
            size = next(sizes)
            continue
        half_width = statistic(records[:done]).half_width
        if half_width < precision:
            stopped = True
            break
        size = planned_batch(done, trials, half_width, precision, block_trials)
    if done < records.shape[0]:
        records = records[:done].copy()
    return RecordsResult(records, done, seed, threads, trials, precision, stopped)
