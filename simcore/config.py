"""The one place for numba flags and engine-wide defaults."""

from __future__ import annotations

import os

#: numba's on-disk cache makes the command line start fast. Tests may turn it off with
#: BALANCE_NUMBA_CACHE=0, because numba does not notice edits to helpers imported from other files.
CACHE: bool = os.environ.get("BALANCE_NUMBA_CACHE", "1") != "0"

#: Flags for every kernel: numba's documented options only (read through ``__getattr__`` below).
#: ``cache=True`` keeps each compiled kernel in numba's on-disk cache (``__pycache__``, or
#: ``NUMBA_CACHE_DIR``); ``nogil`` lets the runner's threads run kernels side by side;
#: ``error_model="numpy"`` drops the division-by-zero checks.
_JIT: dict = {"cache": CACHE, "nogil": True, "error_model": "numpy"}

#: Flags for the per-trial helpers a kernel calls (a trial's steps, stage draws). They are not cached on
#: their own: a kernel's cached machine code holds every helper it calls, so a helper's own cache entry
#: would be read only when a new kernel is compiled, and would be one more file several processes write.
_TRIAL_JIT: dict = {**_JIT, "cache": False}

#: Flags for the few per-trial helpers that take apart a tuple of arrays on every roll (a stage bank and
#: its dice): numba inlines them into each caller (``inline="always"``), so the reference counts it puts
#: on each unpacked array meet their releases within one function, where numba's pruning removes them
#: (17% faster Drakerys battles). Only small leaves: inlining whole call trees this way multiplies the
#: compile time.
_INLINE_JIT: dict = {**_TRIAL_JIT, "inline": "always"}

#: LLVM's inlining threshold for every numba compile of the process (LLVM's default at -O3: 250). The
#: kernels' per-trial code is a deep tree of small helpers, each a numba function of its own; inlined by
#: LLVM, the array reference counts numba puts around each call mostly cancel out. It changes which calls
#: are inlined, never a result. Set with ``llvmlite.binding.set_option`` (llvmlite's public API) because
#: numba has no option for it.
LLVM_INLINE_THRESHOLD: int = 10000

_llvm_set = False


def _set_llvm_inlining() -> None:
    """LLVM's ``-inline-threshold`` option (process-wide, before any kernel compiles)."""
    global _llvm_set
    if not _llvm_set:
        from llvmlite import binding as llvm

        llvm.set_option("", f"-inline-threshold={LLVM_INLINE_THRESHOLD}")
        _llvm_set = True


def __getattr__(name: str) -> dict:
    """``JIT``, ``TRIAL_JIT`` and ``INLINE_JIT``: every module that defines kernels reads one of them at
    import, so LLVM's inlining threshold is set before any kernel compiles, and code that compiles nothing
    (the command tree) does not load LLVM."""
    flags = {"JIT": _JIT, "TRIAL_JIT": _TRIAL_JIT, "INLINE_JIT": _INLINE_JIT}
    if name in flags:
        _set_llvm_inlining()
        return flags[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Trials per chunk. Chunk c always gets the stream derived from (seed, c), so results do not depend on
#: how chunks are spread over threads or batches. Changing this constant changes every simulated figure.
CHUNK_TRIALS: int = 1 << 14

#: Bounds accepted for a Monte Carlo run.
MAX_TRIALS: int = 10**12
#: Trials run when a Monte Carlo estimate is asked for with --seed alone.
DEFAULT_TRIALS: int = 10**6
#: Upper bound on trials for a run stopped by --precision when no --trials cap is given.
PRECISION_TRIAL_CAP: int = 10**9
#: Trials of one engagement of a game's contest (rulesets.base.Ruleset.engage) when neither trials nor a
#: precision is given, and the most trials of one stopped by precision when no trials are given: every
#: game's, unless its Ruleset says otherwise (Ruleset.default_trials, Ruleset.precision_trial_cap) and why.
ENGAGEMENT_TRIALS: int = 10_000
ENGAGEMENT_TRIAL_CAP: int = 10**6
#: A record run stopped by precision (simcore.runner.run_records) plays a first batch of ENGAGEMENT_BATCH
#: trials, then, in whole blocks of ENGAGEMENT_BLOCK, what its interval says it still needs
#: (simcore.runner.planned_batch), so an engagement stops close to the trials its target needs (about
#: 2,400 for a win probability near 1/2 at +-0.02, a few hundred for a lopsided one: 0.95 needs 457). A
#: run overshoots what it needs by up to a block: on the site's fields, blocks of 256 played 5-11% more
#: trials than the win probabilities they ended with need at +-0.02; blocks of 64, at most 4.4%.
#: Changing either changes where engagements stop, hence their figures.
ENGAGEMENT_BLOCK: int = 64
ENGAGEMENT_BATCH: int = 256
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
