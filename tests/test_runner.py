"""simcore.runner: bit-identical histograms for any thread count or batching, precision stops, validation."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import config, rng, runner
from simcore.config import JIT
from simcore.stats import chisquare_gof, histogram_mean

FACES = np.arange(1, 7)
TWO_THREADS = runner.available_threads() >= 2
needs_two_threads = pytest.mark.skipif(not TWO_THREADS, reason="only one thread available")


@nb.njit(**JIT)
def _die_face_chunks(sides, seed, first_chunk, total_trials, chunk_trials, out):
    """A d``sides`` per trial, counted by face. out: int64[n_chunks, sides] (index = face - 1)."""
    for i in range(out.shape[0]):
        chunk = first_chunk + i
        state = np.empty(rng.STATE_WORDS, np.uint64)
        rng.seed_stream(seed, chunk, state)
        start = chunk * chunk_trials
        stop = min(start + chunk_trials, total_trials)
        for _ in range(stop - start):
            out[i, rng.roll_die(state, sides) - 1] += 1


@nb.njit(**JIT)
def _faces(state, sides, count):
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = rng.roll_die(state, sides)
    return out


def _run(trials, seed=7, **kwargs):
    return runner.run(_die_face_chunks, (6,), (6,), trials, seed, **kwargs)


def _serial_reference(trials, seed, chunk_trials):
    """The contract spelled out: chunk c rolls its share of the trials from stream (seed, c)."""
    total = np.zeros(6, np.int64)
    for c in range(-(-trials // chunk_trials)):
        count = min(chunk_trials, trials - c * chunk_trials)
        total += np.bincount(_faces(rng.stream(seed, c), 6, count), minlength=7)[1:]
    return total


def _mean_of_faces(counts):
    return histogram_mean(counts, FACES)


# --- the histogram ----------------------------------------------------------------------------------------


def test_run_follows_the_chunk_contract():
    trials = 12_345  # not a multiple of the chunk size
    result = _run(trials, chunk_trials=1000, threads=1)
    assert result.trials == trials
    assert result.counts.dtype == np.int64
    assert result.counts.shape == (6,)
    assert result.counts.sum() == trials
    np.testing.assert_array_equal(result.counts, _serial_reference(trials, 7, 1000))


def test_run_result_fields():
    result = _run(5000, seed=99, threads=1)
    assert (result.trials, result.requested_trials, result.seed, result.threads) == (5000, 5000, 99, 1)
    assert result.precision is None
    assert result.stopped_by_precision is False


def test_run_default_chunk_size_matches_reference():
    trials = 3 * config.CHUNK_TRIALS + 17
    result = _run(trials, seed=3)
    assert result.trials == trials
    np.testing.assert_array_equal(result.counts, _serial_reference(trials, 3, config.CHUNK_TRIALS))


def test_run_is_a_fair_die():
    result = _run(200_000, seed=11)
    assert chisquare_gof(result.counts, np.full(6, 1 / 6)).pvalue > 1e-4


@needs_two_threads
@pytest.mark.parametrize("chunk_trials", [1000, config.CHUNK_TRIALS])
def test_thread_count_does_not_change_the_histogram(chunk_trials):
    trials = 200_003
    one = _run(trials, threads=1, chunk_trials=chunk_trials)
    two = _run(trials, threads=2, chunk_trials=chunk_trials)
    assert one.threads == 1 and two.threads == 2
    np.testing.assert_array_equal(one.counts, two.counts)
    assert one.trials == two.trials == trials


def test_batching_does_not_change_the_histogram():
    trials = 54_321
    default = _run(trials, chunk_trials=1000)
    single = _run(trials, chunk_trials=1000, max_batch_chunks=1)
    three = _run(trials, chunk_trials=1000, max_batch_chunks=3, threads=1)
    np.testing.assert_array_equal(default.counts, single.counts)
    np.testing.assert_array_equal(default.counts, three.counts)
    assert default.trials == single.trials == three.trials == trials


def test_fewer_trials_than_one_chunk():
    result = _run(37, chunk_trials=1000)
    assert result.trials == 37
    np.testing.assert_array_equal(result.counts, _serial_reference(37, 7, 1000))


def test_different_seeds_differ_same_seed_repeats():
    a = _run(100_000, seed=1)
    b = _run(100_000, seed=2)
    again = _run(100_000, seed=1)
    assert not np.array_equal(a.counts, b.counts)
    np.testing.assert_array_equal(a.counts, again.counts)


def test_map_ordered_keeps_order_reports_progress_and_raises_the_first_failure():
    done = []
    assert runner.map_ordered(lambda x: x * x, range(20), 2, done.append) == [x * x for x in range(20)]
    assert done[-1] == 20 and done == sorted(done)
    assert runner.map_ordered(lambda x: -x, [3], 2) == [-3]

    def fails(x):
        if x == 5:
            raise KeyError(x)
        return x

    with pytest.raises(KeyError):
        runner.map_ordered(fails, range(10), 2)


# --- precision stopping -----------------------------------------------------------------------------------


def _precision_run(threads, target=0.02, cap=10**6):
    half_widths = []

    def statistic(counts):
        estimate = _mean_of_faces(counts)
        half_widths.append(estimate.half_width)
        return estimate

    result = _run(cap, seed=5, threads=threads, precision=target, statistic=statistic, chunk_trials=1000)
    return result, half_widths


def test_precision_stops_early():
    target = 0.02
    result, half_widths = _precision_run(1, target)
    assert result.stopped_by_precision is True
    assert result.precision == target
    assert result.requested_trials == 10**6
    assert 0 < result.trials < 10**6
    assert result.counts.sum() == result.trials
    assert result.trials % 1000 == 0
    # the first batch whose interval is narrow enough ends the run, not a later one
    assert half_widths[-1] < target
    assert all(h >= target for h in half_widths[:-1])
    assert _mean_of_faces(result.counts).half_width < target
    # d6: sd = sqrt(35/12), so about (1.96 * 1.708 / 0.02)**2 = 28,000 trials are needed; batches end
    # after 4, 12, 28, 60 chunks of 1000
    assert result.trials in (28_000, 60_000)
    np.testing.assert_array_equal(result.counts, _serial_reference(result.trials, 5, 1000))


@needs_two_threads
def test_precision_stop_is_the_same_for_any_thread_count():
    one, _ = _precision_run(1)
    two, _ = _precision_run(2)
    assert one.trials == two.trials
    np.testing.assert_array_equal(one.counts, two.counts)


def test_precision_out_of_reach_runs_the_cap():
    result, _ = _precision_run(1, target=1e-9, cap=20_500)
    assert result.stopped_by_precision is False
    assert result.trials == 20_500
    assert result.counts.sum() == 20_500


def test_precision_needs_statistic_and_positive_target():
    with pytest.raises(ValueError):
        _run(1000, precision=0.1)
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            _run(1000, precision=bad, statistic=_mean_of_faces)


# --- progress ---------------------------------------------------------------------------------------------


def test_progress_reports_nondecreasing_done_counts_ending_at_trials():
    calls = []
    trials = 30_500
    _run(trials, chunk_trials=1000, progress=lambda done, planned: calls.append((done, planned)))
    done = [d for d, _ in calls]
    assert {p for _, p in calls} == {trials}
    assert done == sorted(done)
    assert done[-1] == trials
    # batches of 4, 8, 16 chunks, then the 3 chunks left (the last one partial)
    assert done == [4000, 12_000, 28_000, 30_500]


# --- validation -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, -5, config.MAX_TRIALS + 1, 1.5, True, "100"])
def test_bad_trials(bad):
    with pytest.raises(ValueError, match="trials"):
        _run(bad)


@pytest.mark.parametrize("bad", [0, -1, 999, 1.5, True])
def test_bad_threads(bad):
    with pytest.raises(ValueError, match="threads"):
        _run(1000, threads=bad)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True])
def test_bad_seed(bad):
    with pytest.raises(ValueError, match="seed"):
        _run(1000, seed=bad)


def test_check_helpers_accept():
    assert runner.check_trials(1) == 1
    assert runner.check_trials(config.MAX_TRIALS) == config.MAX_TRIALS
    assert runner.check_threads(None) == runner.available_threads()
    assert runner.check_threads(1) == 1
    assert runner.available_threads() >= 1


# --- batch schedule ---------------------------------------------------------------------------------------


def test_batches_doubles_from_a_small_first_batch():
    assert list(runner.batches(100, 6)) == [4, 8, 16, 32, 40]
    assert list(runner.batches(3, 6)) == [3]
    assert list(runner.batches(0, 6)) == []
    sizes = list(runner.batches(5000, 6))
    assert sizes[:7] == [4, 8, 16, 32, 64, 128, 256]
    assert max(sizes) == config.MAX_BATCH_CHUNKS
    assert sum(sizes) == 5000


def test_batches_memory_and_explicit_caps():
    # 2**20 int64 cells per chunk = 8 MiB: four chunks fit in the 32 MiB budget
    assert list(runner.batches(10, 2**20)) == [4, 4, 2]
    # more than the budget for one chunk still runs one chunk at a time
    assert list(runner.batches(3, 2**23)) == [1, 1, 1]
    assert list(runner.batches(10, 6, max_batch_chunks=3)) == [3, 3, 3, 1]
    assert list(runner.batches(5, 6, max_batch_chunks=1)) == [1] * 5


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 20_000), st.integers(1, 2**24), st.one_of(st.none(), st.integers(1, 300)))
def test_batches_property(n_chunks, cells, max_batch):
    sizes = list(runner.batches(n_chunks, cells, max_batch))
    assert sum(sizes) == n_chunks
    cap = min(config.MAX_BATCH_CHUNKS, max(1, config.BATCH_HISTOGRAM_BYTES // (8 * cells)),
              max_batch or config.MAX_BATCH_CHUNKS)
    assert all(1 <= s <= cap for s in sizes)
    if sizes:
        assert sizes[0] == min(config.FIRST_BATCH_CHUNKS, cap, n_chunks)
        # each full batch at most doubles the one before
        assert all(b <= 2 * a for a, b in zip(sizes, sizes[1:], strict=False))
        assert all(s * 8 * cells <= max(config.BATCH_HISTOGRAM_BYTES, 8 * cells) for s in sizes)


# --- records ----------------------------------------------------------------------------------------------

RECORD_FIELDS = 3


@nb.njit(**JIT)
def _die_records(sides, seed, first_trial, out):
    """Records contract: trial t rolls a d``sides`` from its own stream, then counts the rolls before the
    next top face. out: int64[n, 3]: (face, rolls before a top face, trial index)."""
    n = out.shape[0]
    for block in range((n + 63) // 64):
        state = np.empty(rng.STATE_WORDS, np.uint64)
        for k in range(block * 64, min(n, (block + 1) * 64)):
            rng.seed_trial_stream(seed, first_trial + k, state)
            out[k, 0] = rng.roll_die(state, sides)
            rolls = 0
            while rng.roll_die(state, sides) != sides:
                rolls += 1
            out[k, 1] = rolls
            out[k, 2] = first_trial + k


def _records(trials, seed=7, **kwargs):
    return runner.run_records(_die_records, (6,), RECORD_FIELDS, trials, seed, **kwargs)


def _record_reference(trial, seed):
    """The contract spelled out for one trial: its record drawn from stream (seed, trial) alone."""
    state = rng.trial_state(seed, trial)
    face = int(_faces(state, 6, 1)[0])
    rolls = 0
    while int(_faces(state, 6, 1)[0]) != 6:
        rolls += 1
    return [face, rolls, trial]


def _mean_face(records):
    return histogram_mean(np.bincount(records[:, 0], minlength=7)[1:], FACES)


def test_run_records_follows_the_records_contract():
    result = _records(1_234, block_trials=100, threads=1)
    assert result.records.dtype == np.int64
    assert result.records.shape == (1_234, RECORD_FIELDS)
    assert (result.trials, result.requested_trials, result.seed, result.threads) == (1_234, 1_234, 7, 1)
    assert result.precision is None and result.stopped_by_precision is False
    np.testing.assert_array_equal(result.records[:, 2], np.arange(1_234))
    for t in (0, 1, 99, 100, 1_233):
        assert result.records[t].tolist() == _record_reference(t, 7)


def test_run_records_is_a_fair_die():
    faces = _records(120_000, seed=11).records[:, 0]
    assert chisquare_gof(np.bincount(faces, minlength=7)[1:], np.full(6, 1 / 6)).pvalue > 1e-4


@needs_two_threads
def test_run_records_thread_count_does_not_change_the_records():
    one = _records(100_003, threads=1)
    two = _records(100_003, threads=2)
    assert one.threads == 1 and two.threads == 2
    np.testing.assert_array_equal(one.records, two.records)


def test_run_records_batching_does_not_change_the_records():
    default = _records(54_321)
    small_blocks = _records(54_321, block_trials=777, threads=1)
    small_batches = _records(54_321, block_trials=1000, max_batch_trials=3000)
    one_block = _records(54_321, block_trials=54_321)
    for other in (small_blocks, small_batches, one_block):
        np.testing.assert_array_equal(default.records, other.records)


def test_run_records_prefix_property():
    """The first n records of a longer run are a run of n trials: trial t meets the same dice whatever
    the run's size."""
    longer = _records(40_000, seed=3, block_trials=1000)
    for n in (1, 999, 1000, 12_345):
        np.testing.assert_array_equal(_records(n, seed=3).records, longer.records[:n])
    assert not np.array_equal(_records(1000, seed=4).records[:, :2], longer.records[:1000, :2])


def test_record_batches_depend_only_on_the_size():
    assert list(runner.record_batch_sizes(30_500, 1000)) == [4000, 8000, 16_000, 2500]
    assert list(runner.record_batch_sizes(3, 1000)) == [3]
    assert list(runner.record_batch_sizes(10_000, 1000, max_batch_trials=3000)) == [3000, 3000, 3000, 1000]
    assert list(runner.record_batch_sizes(10, 1, max_batch_trials=1)) == [1] * 10
    sizes = list(runner.record_batch_sizes(10**7, config.CHUNK_TRIALS))
    assert sum(sizes) == 10**7
    assert max(sizes) == config.MAX_BATCH_CHUNKS * config.CHUNK_TRIALS


def _records_precision_run(threads, target=0.05, cap=10**6):
    half_widths = []

    def statistic(records):
        estimate = _mean_face(records)
        half_widths.append(estimate.half_width)
        return estimate

    result = _records(cap, seed=5, threads=threads, precision=target, statistic=statistic, block_trials=1000)
    return result, half_widths


def test_run_records_precision_stops_at_the_first_narrow_batch():
    result, half_widths = _records_precision_run(1)
    assert result.stopped_by_precision is True
    assert (result.precision, result.requested_trials) == (0.05, 10**6)
    # d6: sd = sqrt(35/12) = 1.708, so about (1.96 * 1.708 / 0.05)**2 = 4,480 trials are needed; the
    # first batch ends after 4,000 trials (half-width about 0.053), which asks for
    # 4,000 * (0.053 / 0.05)**2 - 4,000, about 480 more: one block of 1,000
    assert result.trials == 5_000
    assert result.records.shape == (5_000, RECORD_FIELDS)
    assert len(half_widths) == 2 and half_widths[0] >= 0.05 > half_widths[1]
    np.testing.assert_array_equal(result.records, _records(5_000, seed=5).records)


@pytest.mark.parametrize(("done", "half_width", "expected"), [
    (1000, 0.04, 3000),     # 1,000 * (0.04 / 0.02)**2 = 4,000 in all: 3,000 more, six blocks of 500
    (1000, 0.0201, 500),    # 1,010.0 in all: 11 more, one whole block
    (1000, 0.08, 14_000),   # 16,000 in all, but the cap of 15,000 leaves 14,000
    (1000, float("nan"), 1000),  # no spread to speak of: as many again
])
def test_planned_batch_asks_for_what_the_interval_still_needs(done, half_width, expected):
    assert runner.planned_batch(done, 15_000, half_width, 0.02, 500) == expected


@needs_two_threads
def test_run_records_precision_stop_is_the_same_for_any_thread_count():
    one, _ = _records_precision_run(1)
    two, _ = _records_precision_run(2)
    assert one.trials == two.trials
    np.testing.assert_array_equal(one.records, two.records)


@pytest.mark.parametrize("threads", [1, 2])
def test_run_records_precision_run_grows_its_room_without_changing_a_record(threads):
    """A precision run starts with room for RECORDS_START trials and doubles it as it goes: run to a cap
    beyond several doublings (never narrow enough), it keeps exactly the records of a run of the cap."""
    cap = 5 * runner.RECORDS_START + 123
    result, _ = _records_precision_run(threads, target=1e-9, cap=cap)
    assert result.stopped_by_precision is False and result.trials == cap
    assert result.records.shape == (cap, RECORD_FIELDS) and result.records.flags.owndata
    np.testing.assert_array_equal(result.records, _records(cap, seed=5).records)


def test_run_records_progress():
    calls = []
    _records(30_500, block_trials=1000, threads=1, progress=lambda *call: calls.append(call))
    assert calls == [(4000, 30_500), (12_000, 30_500), (28_000, 30_500), (30_500, 30_500)]


def test_run_records_caps_the_trials_it_keeps():
    with pytest.raises(ValueError, match="MAX_RECORD_TRIALS"):
        _records(config.MAX_RECORD_TRIALS + 1)
    assert runner.check_record_trials(config.MAX_RECORD_TRIALS) == config.MAX_RECORD_TRIALS


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"trials": 0}, "trials"), ({"trials": 1.5}, "trials"), ({"seed": -1}, "seed"),
    ({"threads": 0}, "threads"), ({"n_fields": 0}, "n_fields"), ({"block_trials": 0}, "block_trials"),
    ({"precision": 0.1}, "precision"), ({"precision": -1.0, "statistic": _mean_face}, "precision"),
])
def test_run_records_bad_inputs(kwargs, match):
    args = {"trials": 100, "seed": 1, "n_fields": RECORD_FIELDS, **kwargs}
    positional = (args.pop("n_fields"), args.pop("trials"), args.pop("seed"))
    with pytest.raises(ValueError, match=match):
        runner.run_records(_die_records, (6,), *positional, **args)


@nb.njit(**JIT)
def _stops_at_once(seed, first_chunk, total_trials, chunk_trials, out):
    return 0


def test_a_kernel_that_stops_without_asking_for_a_table_is_an_error_not_a_loop():
    with pytest.raises(RuntimeError, match="without asking for a stage table"):
        runner.run(_stops_at_once, (), (3,), 1000, 1, threads=1)
