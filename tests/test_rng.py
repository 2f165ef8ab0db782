"""simcore.rng: SplitMix64 and SFC64 against published / NumPy references, streams, seeds, uniform dice."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

from simcore import rng
from simcore.config import JIT
from simcore.stats import chisquare_gof

TWO32 = 2**32


@nb.njit(**JIT)
def _uniform_ints(state, n, count):
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = rng.uniform_int(state, n)
    return out


@nb.njit(**JIT)
def _dice(state, sides, count):
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = rng.roll_die(state, sides)
    return out


@nb.njit(**JIT)
def _uniform01s(state, count):
    out = np.empty(count, np.float64)
    for i in range(count):
        out[i] = rng.uniform01(state)
    return out


def _numpy_sfc64(state: np.ndarray) -> np.random.SFC64:
    """A NumPy SFC64 bit generator holding a copy of ``state``."""
    bg = np.random.SFC64()
    st = bg.state
    st["state"]["state"] = state.copy()
    bg.state = st
    return bg


def _lemire_reference(words: np.ndarray, n: int) -> list[int]:
    """Lemire's 32-bit multiply-shift with rejection, in plain Python integers, on the words' high halves."""
    out = []
    threshold = (TWO32 - n) % n
    for word in words:
        m = (int(word) >> 32) * n
        if (m & (TWO32 - 1)) >= threshold:
            out.append(m >> 32)
    return out


# --- SplitMix64 -------------------------------------------------------------------------------------------


def test_splitmix64_reference_vector():
    # Published reference outputs of SplitMix64 seeded with 1234567.
    expected = [6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
                16408922859458223821]
    got = rng.draw_splitmix64(np.uint64(1234567), 5)
    assert got.dtype == np.uint64
    assert [int(x) for x in got] == expected


# --- SFC64 ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "chunk"), [(0, 0), (12345, 7), (2**64 - 1, 10**6)])
def test_sfc64_matches_numpy_word_for_word(seed, chunk):
    s = rng.stream(seed, chunk)
    bg = _numpy_sfc64(s)
    ours = rng.draw_u64(s, 1000)
    np.testing.assert_array_equal(ours, bg.random_raw(1000))
    # Both generators end in the same state too.
    np.testing.assert_array_equal(s, bg.state["state"]["state"])


def test_stream_state_shape_and_counter():
    s = rng.stream(99, 3)
    assert s.dtype == np.uint64
    assert s.shape == (rng.STATE_WORDS,)
    # the counter word starts at 1 and the warm-up advanced it 12 steps
    assert int(s[3]) == 13


def test_same_seed_and_chunk_give_identical_streams():
    a = rng.draw_u64(rng.stream(2024, 5), 64)
    b = rng.draw_u64(rng.stream(2024, 5), 64)
    np.testing.assert_array_equal(a, b)


def test_different_chunks_and_seeds_give_different_streams():
    words = {
        (seed, chunk): rng.draw_u64(rng.stream(seed, chunk), 16)
        for seed in (0, 1, 2**63)
        for chunk in (0, 1, 2, 1000)
    }
    firsts = [tuple(int(x) for x in w) for w in words.values()]
    assert len(set(firsts)) == len(firsts)
    # no two streams share even their first word
    assert len({f[0] for f in firsts}) == len(firsts)


def test_draws_advance_the_state_and_stream_starts_afresh():
    s = rng.stream(7, 0)
    before = s.copy()
    rng.draw_u64(s, 3)
    assert not np.array_equal(before, s)
    np.testing.assert_array_equal(rng.stream(7, 0), before)


# --- seeds ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True, False, "3", None, np.float64(2.0)])
def test_check_seed_rejects(bad):
    with pytest.raises(ValueError, match="seed"):
        rng.check_seed(bad)


@pytest.mark.parametrize("good", [0, 1, 2**64 - 1, np.uint64(2**64 - 1), np.int64(5)])
def test_check_seed_accepts(good):
    assert rng.check_seed(good) == int(good)
    assert isinstance(rng.check_seed(good), int)


def test_stream_rejects_bad_seed():
    with pytest.raises(ValueError):
        rng.stream(-1)
    with pytest.raises(ValueError):
        rng.stream(2**64)


# --- uniform integers and dice ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 6, 7, 10, 1000, 2**31 + 1, TWO32 - 1, TWO32])
def test_uniform_int_is_lemire_on_the_raw_words(n):
    # n = 2**31 + 1 rejects almost half of the words, so the rejection path is exercised.
    count = 2000
    ints = _uniform_ints(rng.stream(31, 4), n, count)
    words = rng.draw_u64(rng.stream(31, 4), 3 * count)
    expected = _lemire_reference(words, n)[:count]
    assert len(expected) == count
    assert ints.tolist() == expected
    assert ints.min() >= 0
    assert ints.max() < n


def test_uniform_int_full_range_is_the_high_half():
    ints = _uniform_ints(rng.stream(5, 0), TWO32, 500)
    words = rng.draw_u64(rng.stream(5, 0), 500)
    np.testing.assert_array_equal(ints, (words >> np.uint64(32)).astype(np.int64))
    assert ints.max() > TWO32 // 2  # the top bit is reachable


def test_uniform_int_one_is_always_zero():
    assert _uniform_ints(rng.stream(8, 0), 1, 1000).tolist() == [0] * 1000


def test_uniform_int_two_is_a_fair_coin():
    draws = _uniform_ints(rng.stream(8, 1), 2, 200_000)
    assert set(np.unique(draws).tolist()) == {0, 1}
    assert chisquare_gof(np.bincount(draws, minlength=2), [0.5, 0.5]).pvalue > 1e-4


@pytest.mark.parametrize(("sides", "seed"), [(6, 1), (7, 2), (10, 3), (20, 4)])
def test_roll_die_uniform(sides, seed):
    faces = _dice(rng.stream(seed, 0), sides, 200_000)
    assert faces.min() == 1
    assert faces.max() == sides
    counts = np.bincount(faces, minlength=sides + 1)
    pmf = np.full(sides + 1, 1.0 / sides)
    pmf[0] = 0.0
    assert counts[0] == 0
    fit = chisquare_gof(counts, pmf)
    assert fit.dof == sides - 1
    assert fit.pvalue > 1e-4


def test_roll_die_is_uniform_int_plus_one():
    a = _dice(rng.stream(77, 2), 10, 1000)
    b = _uniform_ints(rng.stream(77, 2), 10, 1000)
    np.testing.assert_array_equal(a, b + 1)


def test_chisquare_detects_a_biased_die():
    # The check used above has power: a d10 read as a d9 (face 10 missing) is rejected.
    faces = _dice(rng.stream(3, 0), 9, 200_000)
    pmf = np.full(11, 0.1)
    pmf[0] = 0.0
    assert chisquare_gof(np.bincount(faces, minlength=11), pmf).pvalue < 1e-12


def test_uniform01_uses_53_high_bits():
    u = _uniform01s(rng.stream(11, 0), 1000)
    words = rng.draw_u64(rng.stream(11, 0), 1000)
    np.testing.assert_array_equal(u, (words >> np.uint64(11)).astype(np.float64) / 2.0**53)
    assert u.min() >= 0.0
    assert u.max() < 1.0


def test_uniform01_mean_and_variance():
    u = _uniform01s(rng.stream(12, 0), 200_000)
    # mean 1/2 with standard error sqrt(1/12 / n) ~ 6.5e-4
    assert abs(u.mean() - 0.5) < 5 * (1 / 12 / u.size) ** 0.5
    assert abs(u.var() - 1 / 12) < 2e-3


# --- trial streams ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "trial"), [(0, 0), (12345, 7), (2**64 - 1, 10**12 - 1)])
def test_trial_stream_sfc64_matches_numpy_word_for_word(seed, trial):
    s = rng.trial_state(seed, trial)
    bg = _numpy_sfc64(s)
    np.testing.assert_array_equal(rng.draw_u64(s, 1000), bg.random_raw(1000))
    np.testing.assert_array_equal(s, bg.state["state"]["state"])


@nb.njit(**JIT)
def _filled_trial_stream(seed, trial):
    """seed_trial_stream (compiled code only) filling a new state."""
    out = np.empty(rng.STATE_WORDS, np.uint64)
    rng.seed_trial_stream(seed, trial, out)
    return out


def test_trial_stream_is_reproducible_and_warmed_up():
    np.testing.assert_array_equal(rng.draw_u64(rng.trial_state(2024, 5), 64),
                                  rng.draw_u64(rng.trial_state(2024, 5), 64))
    np.testing.assert_array_equal(rng.trial_stream(np.uint64(2024), np.int64(5)), rng.trial_state(2024, 5))
    filled = _filled_trial_stream(np.uint64(2024), np.int64(5))
    np.testing.assert_array_equal(filled, rng.trial_state(2024, 5))
    assert int(rng.trial_state(99, 3)[3]) == 13  # counter 1, then 12 warm-up steps


def test_trial_t_is_keyed_as_chunk_two_to_the_63_plus_t():
    # the documented construction: the trial key constant is 2**63 * _CHUNK_KEY + _GOLDEN modulo 2**64
    assert int(rng._TRIAL_KEY) == (2**63 * int(rng._CHUNK_KEY) + int(rng._GOLDEN)) % 2**64
    for seed, trial in ((0, 0), (7, 12), (2**63 + 5, 10**9)):
        chunk = rng._chunk_state(np.uint64(seed), np.uint64(2**63 + trial))  # seed_stream's, from Python
        np.testing.assert_array_equal(rng.trial_state(seed, trial), chunk)


def test_trial_streams_are_distinct_from_each_other_and_from_chunk_streams():
    firsts = {}
    for seed in (0, 1, 2**63):
        for index in (0, 1, 2, 3, 1000, 16384, 2**40):
            firsts[("trial", seed, index)] = int(rng.draw_u64(rng.trial_state(seed, index), 1)[0])
            firsts[("chunk", seed, index)] = int(rng.draw_u64(rng.stream(seed, index), 1)[0])
    # no two streams, trial or chunk, share even their first word
    assert len(set(firsts.values())) == len(firsts)


def test_trial_stream_rejects_bad_seed():
    with pytest.raises(ValueError, match="seed"):
        rng.trial_state(-1, 0)


def test_substreams_are_reproducible_distinct_and_uniform():
    import numba as nb

    from simcore.config import JIT
    from simcore.rng import next_u64, seed_substream, trial_key

    @nb.njit(**JIT)
    def first_words(seed, trial, count):
        state = np.empty(4, np.uint64)
        key = trial_key(seed, trial)
        out = np.empty(count, np.uint64)
        for i in range(count):
            seed_substream(key, i, state)
            out[i] = next_u64(state)
        return out

    a = first_words(np.uint64(7), np.int64(3), 20_000)
    assert np.array_equal(a, first_words(np.uint64(7), np.int64(3), 20_000))
    assert len(np.unique(a)) == a.size
    other_trial = first_words(np.uint64(7), np.int64(4), 20_000)
    assert len(np.intersect1d(a, other_trial)) == 0
    # the top bits of the first word of each substream are uniform (chi-square over 64 bins)
    bins = np.bincount((a >> np.uint64(58)).astype(np.int64), minlength=64)
    expected = a.size / 64
    chi2 = float(((bins - expected) ** 2 / expected).sum())
    assert chi2 < 110  # 63 degrees of freedom: P(chi2 > 110) < 2e-4
