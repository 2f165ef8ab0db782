"""The one place for numba flags and engine-wide defaults."""

from __future__ import annotations

import os

#: numba's on-disk cache makes the command line start fast. Tests may turn it off with
#: BALANCE_NUMBA_CACHE=0, because numba does not notice edits to helpers imported from other files.
CACHE: bool = os.environ.get("BALANCE_NUMBA_CACHE", "1") != "0"

#: ``JIT``: flags for every serial kernel and helper (read through ``__getattr__`` below).
_JIT: dict = {"cache": CACHE, "nogil": True, "error_model": "numpy"}

#: ``TRIAL_JIT``: flags for the per-trial code of kernels (a trial's steps, stage draws): functions that
#: allocate nothing. numba's ``_nrt`` option off means no reference counting of the arrays they pass around:
#: a branchy helper taking three arrays measured 70 ns a call with it and under 1 ns without (numba 0.68, 2
#: cores). ``_nrt`` is a private numba option; such functions cannot allocate, so the kernels' drivers (with
#: ``JIT``) allocate and build tables, and call them. Nor are they called from Python: numba builds no
#: Python or C-callable wrapper for them (``no_cpython_wrapper``, ``no_cfunc_wrapper``), which each compiled
#: helper otherwise carries (and re-optimizes with its callers): the Drakerys records kernel's compile took
#: 14.0-14.6 s without them against 16.8-17.6 s with (a fresh numba cache, interleaved runs, 2026-11-26).
_TRIAL_JIT: dict = {**_JIT, "_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}

#: LLVM's inlining threshold for every numba compile of the process (LLVM's default at numba's -O3: 250).
#: The kernels' big per-trial helpers (a Drakerys strike, an Action-Table roll, ...) are inlined by LLVM
#: with it, where numba's ``inline="always"`` (inlining numba's IR, then typing and lowering every copy)
#: made their compile slow: on the Drakerys Fight kernels, 15-20% less compile time and 11-15% more speed
#: (measured 2026-11-26, 2 cores). It changes which calls are inlined, never a result.
LLVM_INLINE_THRESHOLD: int = 10000

_llvm_set = False
_guarded = False


def _guard_python_calls() -> None:
    """A call from Python to a function compiled without a Python entry point (``TRIAL_JIT``) raises
    TypeError instead of crashing the interpreter (numba would jump to the wrapper it did not build)."""
    global _guarded
    if _guarded:
        return
    from numba.core.registry import CPUDispatcher

    call = CPUDispatcher.__call__

    def __call__(self, *args, **kwargs):
        if self.targetoptions.get("no_cpython_wrapper"):
            raise TypeError(f"{self.py_func.__qualname__} is compiled for numba code only (simcore.config."
                            "TRIAL_JIT: no Python entry point); call it from an njit function")
        return call(self, *args, **kwargs)

    CPUDispatcher.__call__ = __call__
    _guarded = True


#: Packages whose numba functions are compiled for the types of their arguments, never for their values.
_OURS = ("simcore", "rulesets")
_unliteral = False


def _type_calls_by_type() -> None:
    """A call from compiled code to one of our functions with a constant argument (``_first_open(a, b, 0,
    -1, -1)``) is compiled for the argument's type (int64), as a call from Python is, not for its value:
    numba types such a constant as a literal and compiles one copy of the callee per distinct value
    (Warbound's ``_first_open`` nine times, Dragonbond's ``_remove_fatigue`` four). LLVM still sees the
    constants once it inlines the call. None of our functions asks for a literal (``numba.literally``)."""
    global _unliteral
    if _unliteral:
        return
    from numba.core import types
    from numba.core.dispatcher import Dispatcher

    get_call_template = Dispatcher.get_call_template

    def by_type(self, args, kws):
        if (getattr(self.py_func, "__module__", None) or "").split(".")[0] in _OURS:
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return get_call_template(self, args, kws)

    Dispatcher.get_call_template = by_type
    _unliteral = True


def _set_llvm_inlining() -> None:
    """LLVM's ``-inline-threshold`` option (process-wide, before any kernel compiles). numba's pass builder
    sets no threshold, and llvmlite 0.50's ``PipelineTuningOptions.inlining_threshold`` keeps only the low
    byte of the value (5000 reads back as 136), so LLVM's command-line option is set instead."""
    global _llvm_set
    if not _llvm_set:
        from llvmlite import binding as llvm

        llvm.set_option("", f"-inline-threshold={LLVM_INLINE_THRESHOLD}")
        _llvm_set = True


_blas_deferred = False


def _defer_blas_check() -> None:
    """numba's array maths (``numba.np.arraymath``, imported with the first kernel a process loads) asks at
    import whether scipy's BLAS is there by importing ``scipy.linalg`` (0.2 s, which every run waited on
    before its first trial). It is imported here with a check that finds scipy without importing it; numba's
    linear algebra still imports ``scipy.linalg`` itself when a kernel uses it (none of ours does), and the
    reports import it with the meta-game's solver, while the engagements run."""
    global _blas_deferred
    if _blas_deferred:
        return
    import importlib.util
    import sys

    if "numba.np.arraymath" not in sys.modules:
        from numba.np import linalg

        check = linalg.ensure_blas

        def scipy_found() -> None:
            if importlib.util.find_spec("scipy") is None:
                check()  # numba's own ImportError

        linalg.ensure_blas = scipy_found
        try:
            import numba.np.arraymath  # noqa: F401
        finally:
            linalg.ensure_blas = check
    _blas_deferred = True


def __getattr__(name: str) -> dict:
    """``JIT`` and ``TRIAL_JIT``: every module that defines kernels reads one of them at import, so LLVM's
    inlining threshold is set, the code under a kernel is compiled only in it (simcore.linkonly), calls are
    typed by type, and numba's cache is locked (simcore.cachelock) before any kernel compiles,
    and code that compiles nothing (the command tree) does not load LLVM or numba to do it."""
    if name in ("JIT", "TRIAL_JIT"):
        _set_llvm_inlining()
        _guard_python_calls()
        _type_calls_by_type()
        _defer_blas_check()
        from simcore import linkonly

        linkonly.install()  # the functions under a kernel are compiled once, in it (simcore.linkonly)
        if CACHE:
            from simcore import cachelock

            cachelock.install()  # several processes may share the cache (simcore.cachelock)
        return _JIT if name == "JIT" else _TRIAL_JIT
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


#: Allocations between two collections of the cyclic garbage collector's youngest generation in a process
#: running balance's commands (Python's default is 700).
GC_YOUNG = 10_000


def fewer_collections() -> None:
    """Collect cyclic garbage less often: every :data:`GC_YOUNG` allocations, the older generations as
    Python's thresholds say after that.

    What a command allocates is mostly long-lived (modules imported, numba's types and kernels) and makes no
    cycles to free; with the default thresholds the collector walked it in 590 young and 4 full collections
    during a warm `balance efficiency drakerys` (0.44 s), 0.18 s with this. The garbage waiting for a
    collection is at most a few megabytes."""
    import gc

    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
