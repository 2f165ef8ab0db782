"""The one place for numba flags and engine-wide defaults."""

from __future__ import annotations

import os

#: numba's on-disk cache makes the command line start fast. Tests may turn it off with
#: BALANCE_NUMBA_CACHE=0, because numba does not notice edits to helpers imported from other files.
CACHE: bool = os.environ.get("BALANCE_NUMBA_CACHE", "1") != "0"

#: Flags for every serial kernel and helper.
JIT: dict = {"cache": CACHE, "nogil": True, "error_model": "numpy"}

#: Flags for the per-trial code of kernels (a trial's steps, stage draws): functions that allocate nothing.
#: numba's ``_nrt`` option off means no reference counting of the arrays they pass around: a branchy
#: helper taking three arrays measured 70 ns a call with it and under 1 ns without (numba 0.68, 2 cores).
#: ``_nrt`` is a private numba option; such functions cannot allocate, so the kernels' drivers (with
#: :data:`JIT`) allocate and build tables, and call them.
TRIAL_JIT: dict = {**JIT, "_nrt": False}

#: Trials per chunk. Chunk c always gets the stream derived from (seed, c), so results do not depend on
#: how chunks are spread over threads or batches. Changing this constant changes every simulated figure.
CHUNK_TRIALS: int = 1 << 14

#: Bounds accepted for a Monte Carlo run.
MAX_TRIALS: int = 10**12
#: Trials run when a Monte Carlo estimate is asked for with --seed alone.
DEFAULT_TRIALS: int = 10**6
#: Upper bound on trials for a run stopped by --precision when no --trials cap is given.
PRECISION_TRIAL_CAP: int = 10**9
#: Most trials of a run that keeps one record per trial (simcore.runner.run_records): its memory grows
#: with the trials, 8 bytes per field per trial (10**7 trials of 13 fields: about 1 GB).
MAX_RECORD_TRIALS: int = 10**7
DEFAULT_SEED: int = 0
#: Most threads a run accepts. More than the cores is allowed (results never depend on the count; the run is
#: just not faster): the bound only keeps a typo from starting thousands of threads.
MAX_THREADS: int = 256

#: Memory allowed for one batch of per-chunk histograms, in bytes.
BATCH_HISTOGRAM_BYTES: int = 32 * 2**20
#: The first batch has this many chunks; each later one twice as many, up to MAX_BATCH_CHUNKS.
FIRST_BATCH_CHUNKS: int = 4
MAX_BATCH_CHUNKS: int = 256

#: Exact distributions drop tail mass below this (per die, per convolution) when truncating
#: unbounded chains such as exploding criticals.
EXACT_TAIL_TOLERANCE: float = 1e-24
