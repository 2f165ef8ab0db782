"""Threads for Monte Carlo work: how many a run may use, and one process-wide pool to spread calls over.

Numba-free, so reports can spread their matchups over threads without importing the engine. Kernels are
``nogil`` numba functions: calls running on different threads of the pool run at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TypeVar

from simcore.config import MAX_THREADS

T = TypeVar("T")
R = TypeVar("R")

_lock = threading.Lock()
_pools: dict[int, ThreadPoolExecutor] = {}
_worker = threading.local()
#: Calls running on the pools' threads now (see :func:`running`).
_running = 0
#: While set (:func:`simcore.distributed.installed` sets it), ``_backend(fn, items, done)`` runs the calls of
#: :func:`map_ordered` (not nested in another's) instead of the threads and returns their results in order.
_backend: Callable[[Callable, list, Callable[[int], None] | None], list] | None = None
#: The stop (Ctrl-C, SIGTERM) this process was asked for, noted by the signal's handler (:func:`note_stop`).
_stop: BaseException | None = None


def available_threads() -> int:
    """Most threads a run may use: the cores this process may run on (``BALANCE_THREADS`` caps it)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    cap = os.environ.get("BALANCE_THREADS", "")
    return max(1, min(cores, int(cap))) if cap.isdigit() and int(cap) > 0 else cores


def check_threads(threads: int | None) -> int:
    """The thread count to use (all the cores for None); ``ValueError`` naming the accepted range when out
    of it."""
    if threads is None:
        return available_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads {threads!r} is not an integer from 1 to {MAX_THREADS}")
    return threads


def _pool(threads: int) -> ThreadPoolExecutor:
    """The process-wide pool of ``threads`` worker threads (made on first use)."""
    with _lock:
        pool = _pools.get(threads)
        if pool is None:
            pool = _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix=f"balance-{threads}")
        return pool


def running() -> int:
    """How many calls are running on the pools' threads now. A stopped run (Ctrl-C, SIGTERM) need not wait
    for them: a compiled call, or the compilation of one, cannot be interrupted, and the interpreter's exit
    would otherwise wait for each to finish."""
    return _running


def note_stop(exc: BaseException) -> None:
    """Remember that the process was asked to stop with ``exc``, which the SIGINT or SIGTERM handler raises.

    The exception a handler raises goes wherever the main thread is, and some libraries swallow it there (a
    compiled module being imported, e.g. pandas', runs the handler and clears the error). The stop is then
    taken up again by :func:`check_stop`, which the runner calls before and between calls and the output
    folders before they put files in place.
    """
    global _stop
    _stop = exc


def is_noted_stop(exc: BaseException | None) -> bool:
    """Whether ``exc`` is the stop :func:`note_stop` remembers (the very exception the handler raised)."""
    return exc is not None and exc is _stop


def clear_stop() -> None:
    """Forget a noted stop (a new command starts in this process)."""
    global _stop
    _stop = None


def check_stop() -> None:
    """Raise the noted stop again (a fresh exception of its type), if there is one."""
    if _stop is not None:
        raise type(_stop)(*_stop.args)


def _in_worker(fn: Callable[[T], R], x: T) -> R:
    global _running
    _worker.busy = True
    with _lock:
        _running += 1
    try:
        return fn(x)
    finally:
        with _lock:
            _running -= 1
        _worker.busy = False


def map_ordered(fn: Callable[[T], R], items: Iterable[T], threads: int,
                done: Callable[[int], None] | None = None,
                meanwhile: Callable[[], object] | None = None) -> list[R]:
    """``[fn(x) for x in items]`` with the calls spread over ``threads`` threads.

    ``fn`` must give the same result on any thread (each Monte Carlo run on its own seeded streams), so
    the list is the same for any thread count. The calls run in this thread when ``threads`` is 1, when
    there is one item, or when this thread is itself one of the pool's workers (a nested map would wait on
    the threads it occupies). ``done(k)`` is called in this thread as the k-th call finishes. The first
    exception raised by a call (or a Ctrl-C) is raised here, the calls not yet started cancelled. While a
    backend is installed (:mod:`simcore.distributed`) it runs the calls instead, ``threads`` ignored.

    ``meanwhile()``, when given, is called in this thread once the first call has finished while the others
    run on the pool (never when the calls run here): serial work the caller needs later, such as an import,
    done while this thread would only wait. It waits for the first call so that it does not compete with
    the setup the calls share (the first calls load the compiled kernels, under the GIL). Its exception,
    like a call's, cancels the calls not yet started.
    """
    items = list(items)
    check_stop()
    if _backend is not None and not getattr(_worker, "busy", False):
        return _backend(fn, items, done)
    if threads <= 1 or len(items) <= 1 or getattr(_worker, "busy", False):
        out = []
        for k, x in enumerate(items):
            out.append(fn(x))
            check_stop()
            if done is not None:
                done(k + 1)
        return out
    futures = [_pool(threads).submit(_in_worker, fn, x) for x in items]
    try:
        # as_completed waits on every future with one waiter (a wait() per completion would cost O(n) each)
        for finished, f in enumerate(as_completed(futures), start=1):
            f.result()  # raises the call's exception
            check_stop()
            if done is not None:
                done(finished)
            if finished == 1 and meanwhile is not None:
                meanwhile()
    except BaseException:
        for f in futures:
            f.cancel()
        raise
    return [f.result() for f in futures]
