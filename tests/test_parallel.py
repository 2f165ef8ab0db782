"""simcore.parallel.map_ordered on the thread pool: results in order for any thread count, the first
exception raised here with the calls not yet started cancelled, and ``meanwhile`` (serial work done in the
calling thread while the calls run on the pool, e.g. the meta-game's imports during an efficiency field),
and ``done`` called as each call finishes."""

from __future__ import annotations

import threading

import pytest

from simcore import parallel


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_results_keep_the_order_of_the_items(threads):
    assert parallel.map_ordered(lambda x: x * x, range(40), threads) == [x * x for x in range(40)]


def test_meanwhile_runs_once_in_the_calling_thread_after_the_first_call_while_the_others_run():
    release = threading.Event()
    finished, seen = [], []

    def call(x):
        if x > 0:  # only the first call can finish before meanwhile has run
            assert release.wait(10), "meanwhile never ran while the calls were waiting"
        finished.append(x)
        return x + 1

    def meanwhile():
        seen.append((threading.current_thread() is threading.main_thread(), list(finished)))
        release.set()

    assert parallel.map_ordered(call, range(6), 2, meanwhile=meanwhile) == [1, 2, 3, 4, 5, 6]
    assert seen == [(True, [0])]


def test_done_is_called_as_each_call_finishes_not_once_at_the_end():
    release = threading.Event()
    counts = []

    def call(x):
        if x > 0:  # the others finish only once done(1) has been called
            assert release.wait(10), "done(1) was not called when the first call finished"
        return x

    def done(k):
        counts.append(k)
        release.set()

    assert parallel.map_ordered(call, range(8), 2, done=done) == list(range(8))
    assert counts == list(range(1, 9))


@pytest.mark.parametrize("threads, items", [(1, range(5)), (4, range(1))], ids=["one thread", "one item"])
def test_meanwhile_is_not_called_when_the_calls_run_here(threads, items):
    seen = []
    assert parallel.map_ordered(lambda x: -x, items, threads, meanwhile=lambda: seen.append(1)) == \
        [-x for x in items]
    assert seen == []


def test_an_exception_in_meanwhile_is_raised_and_the_calls_not_started_are_cancelled():
    started = []
    hold = threading.Event()

    def call(x):
        started.append(x)
        if x > 0:
            hold.wait(10)
        return x

    def meanwhile():
        raise RuntimeError("no solver")

    with pytest.raises(RuntimeError, match="no solver"):
        parallel.map_ordered(call, range(50), 2, meanwhile=meanwhile)
    hold.set()
    assert len(started) < 50  # those queued behind the two running calls never started


def test_the_first_exception_of_a_call_is_raised_here():
    def call(x):
        if x == 7:
            raise ValueError("matchup 7")
        return x

    with pytest.raises(ValueError, match="matchup 7"):
        parallel.map_ordered(call, range(20), 2)
