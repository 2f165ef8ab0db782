"""Seed -> per-chunk random streams, and the in-kernel generator.

The generator is SFC64 (Chris Doty-Humphrey's Small Fast Chaotic generator, 256-bit state, the same
algorithm as ``numpy.random.SFC64``); tests compare its output word for word with NumPy's. The state of
chunk *c* of a run with seed *s* is filled from SplitMix64 (Steele, Lea & Flood 2014) keyed by *(s, c)*,
then warmed up by 12 steps as NumPy does, so every chunk has its own stream whatever thread runs it.

Trial streams serve kernels whose trials must meet the same dice whatever ran before them (common random
numbers: trial *t* of a baseline and of a variant). Trial *t* of a run seeded *s* is keyed like chunk
``2**63 + t``: the key adds ``_TRIAL_KEY`` (``_GOLDEN`` with its top bit flipped, i.e. ``2**63 * _CHUNK_KEY +
_GOLDEN`` modulo 2**64) where a chunk adds ``_GOLDEN``. Multiplying by the odd ``_CHUNK_KEY`` and the
SplitMix64 mixer are bijections of 64-bit words, so for one seed no two trials share a key, and no trial
shares a key with any chunk below 2**63 (a run has at most 10**12 trials): a trial stream never starts
where a chunk stream of the same run starts.

Integers in ``[0, n)`` use Lemire's multiply-shift with rejection on the upper 32 bits of a draw, so dice
are exactly uniform.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.config import JIT, TRIAL_JIT

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_CHUNK_KEY = np.uint64(0xD1B54A32D192ED03)
_TRIAL_KEY = np.uint64(0x1E3779B97F4A7C15)  # == 2**63 * _CHUNK_KEY + _GOLDEN (mod 2**64): see the docstring
#: Added where a substream (one roll of a trial) is keyed, so substream 0 is not the trial's own stream.
_SUB_KEY = np.uint64(0x6A09E667F3BCC909)
_U1 = np.uint64(1)
_U3 = np.uint64(3)
_U11 = np.uint64(11)
_U24 = np.uint64(24)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U40 = np.uint64(40)
_U11_53 = np.uint64(11)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_INV53 = 1.0 / 9007199254740992.0
_WARMUP = 12

#: Number of uint64 words in a stream state.
STATE_WORDS = 4


@nb.njit(**TRIAL_JIT)
def splitmix64_mix(z):
    """SplitMix64's output function: a bijective 64-bit mixer."""
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@nb.njit(**TRIAL_JIT)
def splitmix64_next(key):
    """One SplitMix64 step. ``key`` is a 1-element uint64 array holding the state; returns the output."""
    key[0] += _GOLDEN
    return splitmix64_mix(key[0])


@nb.njit(**TRIAL_JIT)
def next_u64(state):
    """One SFC64 step on ``state`` (uint64[4]: a, b, c, counter); returns a uniform 64-bit word."""
    a = state[0]
    b = state[1]
    c = state[2]
    w = state[3]
    out = a + b + w
    state[3] = w + _U1
    state[0] = b ^ (b >> _U11)
    state[1] = c + (c << _U3)
    state[2] = ((c << _U24) | (c >> _U40)) + out
    return out


@nb.njit(**TRIAL_JIT)
def _fill_state(key, state):
    """SFC64 state from a 64-bit key: SplitMix64 seeded with ``key`` gives the three words, the counter
    starts at 1, then 12 warm-up steps as NumPy does."""
    key = key + _GOLDEN
    state[0] = splitmix64_mix(key)
    key = key + _GOLDEN
    state[1] = splitmix64_mix(key)
    key = key + _GOLDEN
    state[2] = splitmix64_mix(key)
    state[3] = _U1
    for _ in range(_WARMUP):
        next_u64(state)


@nb.njit(**TRIAL_JIT)
def seed_stream(seed, chunk, state):
    """Fill ``state`` (uint64[4]) with the stream of chunk ``chunk`` of a run seeded with ``seed``."""
    _fill_state(splitmix64_mix(np.uint64(seed)) ^ splitmix64_mix(np.uint64(chunk) * _CHUNK_KEY + _GOLDEN),
                state)


@nb.njit(**TRIAL_JIT)
def seed_trial_stream(seed, trial, state):
    """Fill ``state`` (uint64[4]) with the stream of trial ``trial`` of a run seeded with ``seed`` (keyed
    like chunk ``2**63 + trial``, so it is never a chunk stream of the same seed)."""
    _fill_state(splitmix64_mix(np.uint64(seed)) ^ splitmix64_mix(np.uint64(trial) * _CHUNK_KEY + _TRIAL_KEY),
                state)


@nb.njit(**TRIAL_JIT)
def trial_key(seed, trial):
    """The 64-bit key of trial ``trial`` of a run seeded with ``seed`` (the key its stream is filled from)."""
    return splitmix64_mix(np.uint64(seed)) ^ splitmix64_mix(np.uint64(trial) * _CHUNK_KEY + _TRIAL_KEY)


@nb.njit(**TRIAL_JIT)
def seed_substream(key, index, state):
    """Fill ``state`` with substream ``index`` of the stream keyed ``key`` (e.g. roll ``index`` of a trial).

    Giving every roll of a trial its own substream keeps the rolls of two variants of a simulation on the
    same dice roll by roll (common random numbers), even when an earlier roll used more or fewer dice.
    The three words are SplitMix64 outputs of a mixed key, uniform and independent-looking already, so
    there is no warm-up (the 12 steps of a stream's seeding match NumPy's; a roll that draws a handful of
    words cannot afford them: they cost a third of an engagement's time).
    """
    k = key ^ splitmix64_mix(np.uint64(index) * _CHUNK_KEY + _SUB_KEY)
    state[0] = splitmix64_mix(k + _GOLDEN)
    state[1] = splitmix64_mix(k + _GOLDEN + _GOLDEN)
    state[2] = splitmix64_mix(k + _GOLDEN + _GOLDEN + _GOLDEN)
    state[3] = _U1


@nb.njit(**JIT)
def trial_stream(seed, trial):
    """The stream (a new uint64[4]) of trial ``trial`` of a run seeded with ``seed``: what every kernel
    following simcore.runner's records contract starts a trial with."""
    state = np.empty(STATE_WORDS, np.uint64)
    seed_trial_stream(seed, trial, state)
    return state


@nb.njit(**TRIAL_JIT)
def uniform_int(state, n):
    """A uniform integer in ``[0, n)`` for 1 <= n <= 2**32, exactly (Lemire 2019, 32-bit variant)."""
    bound = np.uint64(n)
    while True:
        m = (next_u64(state) >> _U32) * bound
        low = m & _LOW32
        if low >= bound or low >= (_TWO32 - bound) % bound:
            return np.int64(m >> _U32)


@nb.njit(**TRIAL_JIT)
def uniform01(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> _U11_53) * _INV53


@nb.njit(**TRIAL_JIT)
def roll_die(state, sides):
    """A fair die with faces ``1..sides``."""
    return uniform_int(state, sides) + 1


@nb.njit(**JIT)
def chunk_stream(seed, chunk, total_trials, chunk_trials):
    """The stream of chunk ``chunk`` and its number of trials (fewer for the last chunk of a run):
    what every kernel following simcore.runner's contract starts a chunk with."""
    state = np.empty(STATE_WORDS, np.uint64)
    seed_stream(seed, chunk, state)
    start = chunk * chunk_trials
    return state, min(start + chunk_trials, total_trials) - start


@nb.njit(**JIT)
def _chunk_state(seed, chunk):
    """A new uint64[4] holding the stream of chunk ``chunk`` (Python's way to :func:`seed_stream`)."""
    state = np.empty(STATE_WORDS, np.uint64)
    seed_stream(seed, chunk, state)
    return state


def stream(seed: int, chunk: int = 0) -> np.ndarray:
    """The state of chunk ``chunk`` of a run seeded with ``seed`` (for tests and Python-side draws)."""
    check_seed(seed)
    return _chunk_state(np.uint64(seed), np.int64(chunk))


def trial_state(seed: int, trial: int) -> np.ndarray:
    """The state of trial ``trial`` of a run seeded with ``seed`` (for tests and Python-side draws)."""
    check_seed(seed)
    return trial_stream(np.uint64(seed), np.int64(trial))


@nb.njit(**JIT)
def draw_u64(state, count):
    """``count`` successive 64-bit words from ``state`` (advances it)."""
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = next_u64(state)
    return out


@nb.njit(**JIT)
def draw_splitmix64(seed, count):
    """``count`` successive SplitMix64 outputs from ``seed`` (its reference sequence)."""
    key = np.empty(1, np.uint64)
    key[0] = np.uint64(seed)
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = splitmix64_next(key)
    return out


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is an integer in ``[0, 2**64)``; raise ``ValueError`` otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed {seed!r} is not an integer from 0 to 2**64-1")
    return int(seed)
