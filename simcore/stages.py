"""Stage sampling: a whole stage of a trial (the successes of a dice roll, say) drawn from its exact
distribution with one 64-bit random word, instead of die by die.

Each stage's table is an inverse CDF held as 64-bit integers and searched from a guide table
(:mod:`simcore.sampling`): the word's top bits pick a bucket, a step or two along the CDF finds the outcome.
It reproduces every outcome's probability to within float64 rounding, and it keeps the quantile coupling:
the same word draws neighbouring outcomes from the tables of two variants (a threshold of 6 and of 7), so
what-ifs run on the same words pair as closely as their distributions allow.

Success rolls (:func:`simcore.dice.success_roll`'s vocabulary: a threshold, a top face that explodes, is a
plain success or fails, chained or not, rerolls of every failure or of up to ``L`` failures) have their
joint PMF (successes, criticals) computed here in closed form (:func:`success_pmf`: trinomial first dice,
binomial extra dice, negative-binomial chains of top faces). Explosion chains are unbounded: tables drop
the tail whose whole mass is below :data:`TAIL` (``1e-20``, under one chance in ``2**64``, finer than the
sampler resolves) and renormalize.

A **bank** caches the tables a kernel meets, one per distinct stage (dice, threshold, top mode, chain,
rerolls, and whether criticals are wanted). A table depends on its key alone, so the draws do not depend
on which tables a bank held before, on which thread owns it, or on how often it was flushed (it is emptied
when full and refilled on demand). Kernels receive a bank as an argument; :class:`BankSpec` in a runner's
``args`` is replaced by the calling thread's own bank (:func:`thread_bank`), so threads never share one.

Tables are built in Python (numpy), not in the kernels: a cold start then compiles no table code, and a
whole balance report needs a few hundred tables. A trial's code (compiled with
:data:`simcore.config.TRIAL_JIT`) that meets a stage its bank lacks notes it in the bank
(:func:`success_draw` draws nothing then); the kernel stops at that trial and returns how many chunks or
trials it completed; the runner builds the table (:func:`fill`) and calls the kernel again from that point
(see simcore.runner). The trial is run again from its start on the same stream, so the result is the same
as if the table had been there.

Stages outside a bank's range (more than ``max_n`` dice, more than ``max_limit`` limited rerolls) and banks
made with ``by_die=True`` (for the goodness-of-fit tests and benchmarks) roll die by die
(:func:`simcore.dice.success_roll`).

Walker/Vose alias tables were built and measured first: as fast, but an alias table maps the same word to
unrelated outcomes in two variants, and paired what-ifs lost most of their variance reduction (the Crows'
Combat +1: paired half-width 0.70 of the independent one, against 0.43 with inverse CDFs).
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

import numba as nb
import numpy as np

from simcore.config import INLINE_JIT, TRIAL_JIT
from simcore.dice import success_roll
from simcore.exact import reroll_kind, success_powers, success_roll_closed
from simcore.rng import next_u64
from simcore.sampling import guide_pick, guide_table, joint_table

#: Tail mass (over all dropped outcomes together) a stage table may leave out; it renormalizes.
TAIL = 1e-20

# bank params: its range, its fill, and the stage a trial asked for that it did not hold yet
_SIDES, _MAX_N, _MAX_LIMIT, _CAPACITY, _BY_DIE, _USED, _GUIDE_USED, _MISSING = range(8)
_REQUEST = 8  # n, threshold, top mode, chain, reroll failures, reroll limit, joint, key
_N_PARAMS = _REQUEST + 8


# --- exact PMFs ------------------------------------------------------------------------------------------


def success_pmf(n: int, sides: int, threshold: int, top_mode: int, chain: bool, reroll_failures: bool,
                reroll_limit: int) -> np.ndarray:
    """Joint PMF ``p[successes, criticals]`` of :func:`simcore.dice.success_roll` with these arguments
    (simcore.exact.success_roll_closed), its explosion tail trimmed below :data:`TAIL` and renormalized."""
    p = success_roll_closed(n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit, TAIL)
    return p / p.sum()


# --- the bank --------------------------------------------------------------------------------------------


#: 0: no rerolls; 1: every failure (or a limit of at least n); 1 + L: up to L (simcore.exact's, compiled for
#: trial code: part of a stage's key)
_reroll_kind = nb.njit(**TRIAL_JIT)(reroll_kind)


@dataclass(frozen=True)
class BankSpec:
    """What a bank covers: dice of ``sides`` faces, rolls of up to ``max_n`` dice, limited rerolls up to
    ``max_limit``, ``capacity`` table entries before it is flushed; ``by_die`` rolls everything die by die.

    Put a spec in a runner's kernel ``args``: each thread running the kernel gets its own bank for it.
    """

    sides: int
    max_n: int = 255
    max_limit: int = 8
    capacity: int = 1 << 20
    by_die: bool = False

    @property
    def n_keys(self) -> int:
        return 2 * 2 * 3 * (self.max_limit + 2) * (self.sides + 1) * (self.max_n + 1)

    def new(self) -> tuple:
        """A new, empty bank: (params, start, shape, cdf, values, guide), the arrays every stage function
        takes (``start[key]`` and ``shape[key]`` = (guide start, k, w) place a stage's table)."""
        params = np.zeros(_N_PARAMS, np.int64)
        params[:_USED] = [self.sides, self.max_n, self.max_limit, self.capacity, int(self.by_die)]
        return (params, np.full(self.n_keys, -1, np.int64), np.zeros((self.n_keys, 3), np.int64),
                np.zeros(self.capacity, np.uint64), np.zeros(self.capacity, np.int32),
                np.zeros(self.capacity, np.int32))


_local = threading.local()


def thread_bank(spec: BankSpec) -> tuple:
    """The calling thread's bank for ``spec`` (made on first use, kept for the thread's life)."""
    banks = getattr(_local, "banks", None)
    if banks is None:
        banks = _local.banks = {}
    bank = banks.get(spec)
    if bank is None:
        bank = banks[spec] = spec.new()
    return bank


def with_banks(args: tuple) -> tuple:
    """``args`` with every :class:`BankSpec` replaced by the calling thread's bank for it."""
    return tuple(thread_bank(a) if isinstance(a, BankSpec) else a for a in args)


def _is_bank(a: object) -> bool:
    return isinstance(a, tuple) and len(a) == 6 and isinstance(a[0], np.ndarray) and a[0].size == _N_PARAMS


@functools.lru_cache(maxsize=2048)  # a report uses a few hundred; bounded, as tables of 255 dice are large
def _stage_table(sides: int, n: int, threshold: int, mode: int, chain: bool, reroll_failures: bool,
                 reroll_limit: int, joint: bool) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray]:
    """(w, k, cdf, values, guide) of one stage: built once per process, whichever thread asks first (a
    table depends on its stage alone; the arrays are never written to)."""
    kind = reroll_kind(n, reroll_failures, reroll_limit)
    if not joint and kind <= 1:  # independent dice: every dice count of this column is computed at once
        successes = _successes_by_dice(sides, threshold, mode, chain, bool(kind), _dice_cap(n))[n]
        return (0, *guide_table(successes / successes.sum()))
    pmf = success_pmf(n, sides, threshold, mode, chain, reroll_failures, reroll_limit)
    if joint:
        w, table = joint_table(pmf)
        return (w, *table)
    return (0, *guide_table(pmf.sum(axis=1)))


def _dice_cap(n: int) -> int:
    """Dice counts are computed in columns of 64, 128, 256 ... (one column serves a whole report)."""
    return max(64, 1 << (n - 1).bit_length())


@functools.lru_cache(maxsize=256)
def _successes_by_dice(sides: int, threshold: int, mode: int, chain: bool, reroll_failures: bool,
                       n_max: int) -> list[np.ndarray]:
    """Successes PMFs of 0..n_max independent dice (simcore.exact.success_powers), tails below TAIL
    dropped."""
    return success_powers(sides, [threshold], n_max, mode, chain, reroll_failures, TAIL)[0]


def fill(args: tuple) -> bool:
    """Put in each bank among ``args`` the table it was asked for and lacked; whether there was any."""
    built = False
    for bank in filter(_is_bank, args):
        params, start, shape, cdf, values, guide = bank
        if not params[_MISSING]:
            continue
        n, threshold, mode, chain, rf, rl, joint, key = (int(v) for v in params[_REQUEST:])
        w, k, c, v, g = _stage_table(int(params[_SIDES]), n, threshold, mode, bool(chain), bool(rf), rl,
                                     bool(joint))
        if max(params[_USED] + c.size, params[_GUIDE_USED] + g.size) > params[_CAPACITY]:
            start[:] = -1
            params[_USED] = params[_GUIDE_USED] = 0
        at, gat = int(params[_USED]), int(params[_GUIDE_USED])
        cdf[at:at + c.size], values[at:at + c.size], guide[gat:gat + g.size] = c, v, g
        params[_USED], params[_GUIDE_USED] = at + c.size, gat + g.size
        start[key], shape[key] = at, (gat, k, w)
        params[_MISSING] = 0
        built = True
    return built


@nb.njit(**TRIAL_JIT)
def _key(params, n, threshold, top_mode, chain, kind, joint):
    return (((((joint * 2 + chain) * 3 + top_mode) * (params[_MAX_LIMIT] + 2) + kind)
             * (params[_SIDES] + 1) + threshold) * (params[_MAX_N] + 1) + n)


@nb.njit(**TRIAL_JIT)
def _covers(params, n, threshold, reroll_failures, reroll_limit):
    """Whether the bank draws this stage from a table (else die by die)."""
    return not (params[_BY_DIE] or n > params[_MAX_N] or threshold < 1 or threshold > params[_SIDES]
                or (not reroll_failures and params[_MAX_LIMIT] < reroll_limit < n))


@nb.njit(**INLINE_JIT)
def stage_at(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """(start, guide start, k, w) of the table of one stage (simcore.sampling.guide_pick draws from it);
    start -1 when the bank does not cover it, or lacks it (then noted in the bank: see :func:`missing`).
    Outcome ``index`` of a table is successes ``index >> w`` and criticals ``index & (2**w - 1)``."""
    params, start, shape = bank[0], bank[1], bank[2]
    if n <= 0 or not _covers(params, n, threshold, reroll_failures, reroll_limit):
        return -1, 0, 0, 0
    key = _key(params, n, threshold, top_mode, np.int64(chain != 0),
               _reroll_kind(n, reroll_failures, reroll_limit), np.int64(joint != 0))
    at = start[key]
    if at < 0:
        if params[_MISSING]:  # the trial is void already: the first stage it lacked is built first
            return -1, 0, 0, 0
        params[_MISSING] = 1
        r = params[_REQUEST:]
        r[0] = n
        r[1] = threshold
        r[2] = top_mode
        r[3] = chain
        r[4] = reroll_failures
        r[5] = reroll_limit
        r[6] = joint
        r[7] = key
        return -1, 0, 0, 0
    return at, shape[key, 0], shape[key, 1], shape[key, 2]


@nb.njit(**TRIAL_JIT)
def missing(params):
    """Whether a trial asked the bank whose ``params`` (its first array) these are for a table it lacked."""
    return params[_MISSING] != 0


@nb.njit(**INLINE_JIT)
def success_draw(bank, state, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """A success roll (:func:`simcore.dice.success_roll`'s arguments, its die count ``n``) as (successes,
    criticals): one word of ``state`` drawn from the bank's table for it, or die by die when the bank does
    not cover it. Criticals are drawn only when ``joint`` (else 0).

    When the bank lacks the table, the stage is noted in the bank and (0, 0) returned without drawing: the
    kernel must stop the trial's results there (see the module docstring).
    """
    params = bank[0]
    if n <= 0:
        return 0, 0
    if not _covers(params, n, threshold, reroll_failures, reroll_limit):
        s, c, _ = success_roll(state, n, params[_SIDES], threshold, top_mode, chain, reroll_failures,
                               reroll_limit)
        return s, (c if joint else 0)
    at, gat, k, w = stage_at(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint)
    if at < 0:
        return 0, 0
    index = guide_pick(next_u64(state), bank[3], bank[4], bank[5], at, gat, k)
    return index >> w, index & ((1 << w) - 1)
