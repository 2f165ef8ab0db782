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
A bank is one array whose first words are a random stream (see the layout below), so a kernel may pass it
as its trial's dice: the stream is seeded again at each chunk or trial, never carried between calls.

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
from simcore.rng import STATE_WORDS, next_u64
from simcore.sampling import guide_table, joint_table

#: Tail mass (over all dropped outcomes together) a stage table may leave out; it renormalizes.
TAIL = 1e-20

# The bank is one uint64 array, and it is also the thread's dice: a kernel's helpers then pass one array
# for all their dice (numba counts references to every array a call passes). Its first STATE_WORDS words
# are a random stream (simcore.rng reads and writes only those: the bank is the stream), then KERNEL_WORDS
# words a kernel keeps per trial (per-roll substream keys, a ruling), then the header: the range, the fill,
# the stage a trial asked for that it did not hold yet, where each section starts; then one slot of _SLOT
# words per stage key (table start + 1, 0 when absent; guide start; k; w), the tables' entries (CDF word,
# value: side by side, read together) and the guide tables.
KERNEL_WORDS = 4
#: Where a bank's header starts: its stream and its kernel words come first.
DICE_WORDS = STATE_WORDS + KERNEL_WORDS
(_MAGIC, _SIDES, _MAX_N, _MAX_LIMIT, _CAPACITY, _BY_DIE, _USED, _GUIDE_USED, _MISSING, _KEYS_AT, _TABLE_AT,
 _GUIDE_AT, _REQUEST) = range(DICE_WORDS, DICE_WORDS + 13)
_N_REQUEST = 8  # n, threshold, top mode, chain, reroll failures, reroll limit, joint, key
_HEADER = _REQUEST + _N_REQUEST
_SLOT = 4
#: The header's first word: tells a bank among a kernel's arguments from its other uint64 arrays.
_BANK_MARK = 0x5354_4147_4542_4E4B  # "STAGEBNK"


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

    def new(self) -> np.ndarray:
        """A new, empty bank: the one uint64 array every stage function takes (its layout: the comment at
        the top of this module's bank section)."""
        keys_at = _HEADER
        table_at = keys_at + _SLOT * self.n_keys
        guide_at = table_at + 2 * self.capacity
        bank = np.zeros(guide_at + self.capacity, np.uint64)
        bank[_MAGIC:_GUIDE_AT + 1] = [_BANK_MARK, self.sides, self.max_n, self.max_limit, self.capacity,
                                int(self.by_die), 0, 0, 0, keys_at, table_at, guide_at]
        return bank


_local = threading.local()


def thread_bank(spec: BankSpec) -> np.ndarray:
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
    return (isinstance(a, np.ndarray) and a.dtype == np.uint64 and a.ndim == 1 and a.size > _HEADER
            and a[_MAGIC] == _BANK_MARK)


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
        if not bank[_MISSING]:
            continue
        n, threshold, mode, chain, rf, rl, joint, key = (int(v) for v in bank[_REQUEST:_HEADER])
        w, k, c, v, g = _stage_table(int(bank[_SIDES]), n, threshold, mode, bool(chain), bool(rf), rl,
                                     bool(joint))
        keys_at, table_at, guide_at = int(bank[_KEYS_AT]), int(bank[_TABLE_AT]), int(bank[_GUIDE_AT])
        if max(int(bank[_USED]) + c.size, int(bank[_GUIDE_USED]) + g.size) > int(bank[_CAPACITY]):
            bank[keys_at:table_at:_SLOT] = 0  # flushed: every stage absent
            bank[_USED] = bank[_GUIDE_USED] = 0
        at, gat = int(bank[_USED]), int(bank[_GUIDE_USED])
        entries = bank[table_at + 2 * at:table_at + 2 * (at + c.size)]
        entries[0::2], entries[1::2] = c, v
        bank[guide_at + gat:guide_at + gat + g.size] = g
        bank[_USED], bank[_GUIDE_USED] = at + c.size, gat + g.size
        slot = keys_at + _SLOT * key
        bank[slot:slot + _SLOT] = (at + 1, gat, k, w)
        bank[_MISSING] = 0
        built = True
    return built


@nb.njit(**TRIAL_JIT)
def _key(bank, n, threshold, top_mode, chain, kind, joint):
    return (((((joint * 2 + chain) * 3 + top_mode) * (np.int64(bank[_MAX_LIMIT]) + 2) + kind)
             * (np.int64(bank[_SIDES]) + 1) + threshold) * (np.int64(bank[_MAX_N]) + 1) + n)


@nb.njit(**TRIAL_JIT)
def _covers(bank, n, threshold, reroll_failures, reroll_limit):
    """Whether the bank draws this stage from a table (else die by die)."""
    return not (bank[_BY_DIE] != 0 or n > np.int64(bank[_MAX_N]) or threshold < 1
                or threshold > np.int64(bank[_SIDES])
                or (not reroll_failures and np.int64(bank[_MAX_LIMIT]) < reroll_limit < n))


@nb.njit(**INLINE_JIT)
def stage_at(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """(start, guide start, k, w) of the table of one stage (:func:`success_draw` draws from it); start -1
    when the bank does not cover it, or lacks it (then noted in the bank: see :func:`missing`). Outcome
    ``index`` of a table is successes ``index >> w`` and criticals ``index & (2**w - 1)``."""
    if n <= 0 or not _covers(bank, n, threshold, reroll_failures, reroll_limit):
        return -1, 0, 0, 0
    key = _key(bank, n, threshold, top_mode, np.int64(chain != 0),
               _reroll_kind(n, reroll_failures, reroll_limit), np.int64(joint != 0))
    slot = np.int64(bank[_KEYS_AT]) + _SLOT * key
    at = np.int64(bank[slot]) - 1
    if at < 0:
        if bank[_MISSING]:  # the trial is void already: the first stage it lacked is built first
            return -1, 0, 0, 0
        bank[_MISSING] = 1
        bank[_REQUEST] = n
        bank[_REQUEST + 1] = threshold
        bank[_REQUEST + 2] = top_mode
        bank[_REQUEST + 3] = chain
        bank[_REQUEST + 4] = reroll_failures
        bank[_REQUEST + 5] = reroll_limit
        bank[_REQUEST + 6] = joint
        bank[_REQUEST + 7] = key
        return -1, 0, 0, 0
    return at, np.int64(bank[slot + 1]), np.int64(bank[slot + 2]), np.int64(bank[slot + 3])


@nb.njit(**TRIAL_JIT)
def missing(bank):
    """Whether a trial asked ``bank`` for a table it lacked."""
    return bank[_MISSING] != 0


@nb.njit(**INLINE_JIT)
def _pick(bank, word, at, gat, k):
    """The outcome ``word`` draws from the bank's table at entry ``at``, guide ``gat``, ``2**k`` buckets
    (simcore.sampling.guide_pick on the bank's layout)."""
    entries = np.int64(bank[_TABLE_AT])
    i = at + np.int64(bank[np.int64(bank[_GUIDE_AT]) + gat + np.int64(word >> np.uint64(64 - k))])
    while word > bank[entries + 2 * i]:
        i += 1
    return np.int64(bank[entries + 2 * i + 1])


@nb.njit(**INLINE_JIT)
def success_draw(bank, state, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """A success roll (:func:`simcore.dice.success_roll`'s arguments, its die count ``n``) as (successes,
    criticals): one word of ``state`` drawn from the bank's table for it, or die by die when the bank does
    not cover it. Criticals are drawn only when ``joint`` (else 0).

    When the bank lacks the table, the stage is noted in the bank and (0, 0) returned without drawing: the
    kernel must stop the trial's results there (see the module docstring).
    """
    if n <= 0:
        return 0, 0
    if not _covers(bank, n, threshold, reroll_failures, reroll_limit):
        s, c, _ = success_roll(state, n, np.int64(bank[_SIDES]), threshold, top_mode, chain, reroll_failures,
                               reroll_limit)
        return s, (c if joint else 0)
    at, gat, k, w = stage_at(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint)
    if at < 0:
        return 0, 0
    index = _pick(bank, next_u64(state), at, gat, k)
    return index >> w, index & ((1 << w) - 1)
