"""Stage sampling: a whole stage of a trial (the successes of a dice roll, say) drawn from its exact
distribution with one 64-bit random word, instead of die by die.

Alias tables (Walker 1977, built by Vose's 1991 method) padded to ``2**k`` columns: the top ``k`` bits of
the word pick a column, the low ``64 - k`` bits, read as an integer, keep the column's own outcome when
they are below its integer threshold and take its alias otherwise. No rejection, no floating point at draw
time. Each column's threshold is its probability rounded to ``2**-(64 - k)``, so a table reproduces every
outcome's probability to within ``2**-64`` per column (``2**-44`` at the largest tables here, against PMFs
that are themselves good to about ``1e-15``).

Success rolls (:func:`simcore.dice.success_roll`'s vocabulary: a threshold, a top face that explodes, is a
plain success or fails, chained or not, rerolls of every failure or of up to ``L`` failures) have their
joint PMF (successes, criticals) computed here in closed form, inside njit code
(:func:`success_pmf`). Explosion chains are unbounded: tables drop the tail whose whole mass is below
:data:`TAIL` (``1e-20``, under one chance in ``2**64``, finer than the sampler resolves) and renormalize.

A **bank** caches the tables a kernel meets, one per distinct stage (dice, threshold, top mode, chain,
rerolls, and whether criticals are wanted), built the first time a stage is drawn. A table depends on its
key alone, so the draws do not depend on which tables a bank held before, on which thread owns it, or on
how often it was flushed (it is emptied when full and refilled on demand). Kernels receive a bank as an
argument; :class:`BankSpec` in a runner's ``args`` is replaced by the calling thread's own bank
(:func:`thread_bank`), so threads never share one.

A trial's code allocates nothing (it is compiled with :data:`simcore.config.TRIAL_JIT`), so it cannot build
a table: :func:`success_draw` notes the stage it lacks and draws nothing, and the kernel's driver builds it
(:func:`fill_missing`) and runs the trial again from its start on the same stream. A kernel whose trials
all draw one stage looks its table up once (:func:`stage_table`) and draws with :func:`alias_pick`.

Stages outside a bank's range (more than ``max_n`` dice, more than ``max_limit`` limited rerolls) and banks
made with ``by_die=True`` (for the goodness-of-fit tests and benchmarks) roll die by die with
:func:`simcore.dice.success_roll`.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numba as nb
import numpy as np

from simcore.config import JIT, TRIAL_JIT
from simcore.dice import TOP_EXPLODE, TOP_FAIL, TOP_SUCCESS
from simcore.rng import next_u64, roll_die

#: Tail mass (over all dropped outcomes together) a stage table may leave out; it renormalizes.
TAIL = 1e-20
#: Criticals rows of the first dice whose total mass is below this are skipped when adding explosions.
_NEGLIGIBLE = 1e-30

# bank params: its range, its fill, and the stage a trial asked for that it did not hold yet
_SIDES, _MAX_N, _MAX_LIMIT, _CAPACITY, _BY_DIE, _USED, _MISSING = range(7)
_REQUEST = 7  # n, threshold, top mode, chain, reroll failures, reroll limit, joint, key
_N_PARAMS = _REQUEST + 8
#: Reroll kinds: none, every failure, then a limit of 1..max_limit failures.
_NO_REROLL = 0
_REROLL_ALL = 1

_U1 = np.uint64(1)
_U64 = 64


# --- exact PMFs ------------------------------------------------------------------------------------------


@nb.njit(**JIT)
def _face_probabilities(sides, threshold, top_mode):
    """(failure, plain success, critical) probabilities of one die."""
    plain = max(0, sides - max(threshold, 1))
    crit = 0
    if top_mode == TOP_EXPLODE:
        crit = 1
    elif top_mode == TOP_SUCCESS:
        plain += 1
    ps = plain / sides
    pc = crit / sides
    return 1.0 - ps - pc, ps, pc


@nb.njit(**JIT)
def _log_factorials(n):
    out = np.empty(n + 1)
    for k in range(n + 1):
        out[k] = math.lgamma(k + 1.0)
    return out


@nb.njit(**JIT)
def _trinomial(n, pf, ps, pc, logf):
    """P[a, c]: a plain successes and c criticals among n independent dice (the rest failures)."""
    out = np.zeros((n + 1, n + 1))
    for a in range(n + 1):
        for c in range(n + 1 - a):
            f = n - a - c
            if (a and ps == 0.0) or (c and pc == 0.0) or (f and pf == 0.0):
                continue
            out[a, c] = math.exp(logf[n] - logf[a] - logf[c] - logf[f]) * ps ** a * pc ** c * pf ** f
    return out


@nb.njit(**JIT)
def _first_dice(n, pf, ps, pc, kind):
    """P[successes, criticals] of the n dice first rolled, rerolls included (no extra dice yet)."""
    logf = _log_factorials(n)
    out = np.zeros((n + 1, n + 1))
    if kind == _REROLL_ALL:
        # every failed die is rolled again once: each die independently fails only twice
        first = _trinomial(n, pf * pf, ps + pf * ps, pc + pf * pc, logf)
    else:
        first = _trinomial(n, pf, ps, pc, logf)
    if kind <= _REROLL_ALL:
        for a in range(n + 1):
            for c in range(n + 1 - a):
                out[a + c, c] += first[a, c]
        return out
    limit = kind - 1
    again = [_trinomial(r, pf, ps, pc, logf) for r in range(min(limit, n) + 1)]
    for a in range(n + 1):
        for c in range(n + 1 - a):
            w = first[a, c]
            if w == 0.0:
                continue
            r = min(n - a - c, limit)
            re = again[r]
            for a2 in range(r + 1):
                for c2 in range(r + 1 - a2):
                    out[a + a2 + c + c2, c + c2] += w * re[a2, c2]
    return out


@nb.njit(**JIT)
def _binomial(n, q):
    out = np.zeros(n + 1)
    logf = _log_factorials(n)
    for k in range(n + 1):
        if (k and q == 0.0) or (n - k and q == 1.0):
            continue
        out[k] = math.exp(logf[n] - logf[k] - logf[n - k]) * q ** k * (1.0 - q) ** (n - k)
    return out


@nb.njit(**JIT)
def _negative_binomial(r, t):
    """P[k]: k top faces rolled before r other faces (a top face has probability t), until the terms
    after the mode fall below TAIL * 1e-3."""
    terms = [(1.0 - t) ** r]
    k = 0
    while True:
        nxt = terms[k] * (k + r) / (k + 1) * t
        k += 1
        if k > r * t / (1.0 - t) + 1 and nxt < TAIL * 1e-3:
            break
        terms.append(nxt)
    return np.array(terms)


@nb.njit(**JIT)
def _trimmed(p):
    """``p`` without trailing rows and columns whose mass is below TAIL (together), renormalized."""
    rows = p.shape[0]
    cut = 0.0
    while rows > 1:
        mass = p[rows - 1, :].sum()
        if cut + mass >= TAIL / 2:
            break
        cut += mass
        rows -= 1
    cols = p.shape[1]
    cut = 0.0
    while cols > 1:
        mass = p[:rows, cols - 1].sum()
        if cut + mass >= TAIL / 2:
            break
        cut += mass
        cols -= 1
    out = p[:rows, :cols].copy()
    return out / out.sum()


@nb.njit(**JIT)
def success_pmf(n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit):
    """Joint PMF ``p[successes, criticals]`` of :func:`simcore.dice.success_roll` with these arguments,
    its explosion tail trimmed below :data:`TAIL` (see the module docstring)."""
    if n <= 0:
        return np.ones((1, 1))
    pf, ps, pc = _face_probabilities(sides, threshold, top_mode)
    first = _first_dice(n, pf, ps, pc, _reroll_kind(n, reroll_failures, reroll_limit))
    if pc == 0.0:
        return _trimmed(first)
    t = 1.0 / sides
    if chain:
        # each critical starts a chain: tops (successes and criticals that add a die) until another face,
        # a success when it reaches the threshold
        q = (sides - max(threshold, 1)) / (sides - 1.0) if sides > 1 else 0.0
    else:
        q = (sides - max(threshold, 1) + 1.0) / sides
    tails = [_negative_binomial(c, t) if chain else np.ones(1) for c in range(n + 1)]
    width = n + 1 + tails[n].shape[0]
    out = np.zeros((2 * n + width, width))
    for c in range(n + 1):
        column = first[:, c]
        if column.sum() < _NEGLIGIBLE:
            continue
        extra = _binomial(c, q)
        spread = np.zeros(n + 1 + c)
        for s in range(n + 1):
            w = column[s]
            if w == 0.0:
                continue
            for b in range(c + 1):
                spread[s + b] += w * extra[b]
        tops = tails[c]
        for k in range(tops.shape[0]):
            for y in range(spread.shape[0]):
                out[y + k, c + k] += spread[y] * tops[k]
    return _trimmed(out)


# --- alias tables ----------------------------------------------------------------------------------------


@nb.njit(**JIT)
def _bits_for(m):
    """Smallest k >= 1 with 2**k >= m."""
    k = 1
    while (1 << k) < m:
        k += 1
    return k


@nb.njit(**JIT)
def alias_into(pmf, thr, alias, start):
    """Vose's alias table of the 1-D ``pmf`` written into ``thr[start:]`` and ``alias[start:]`` with
    ``2**k`` columns (zero-probability padding); returns k. ``thr`` holds each column's own-outcome share
    as an integer out of ``2**(64 - k)``."""
    m = pmf.shape[0]
    k = _bits_for(m)
    size = 1 << k
    total = pmf.sum()
    scaled = np.zeros(size)
    for i in range(m):
        scaled[i] = pmf[i] * size / total
    small = np.empty(size, np.int64)
    large = np.empty(size, np.int64)
    ns = 0
    nl = 0
    for i in range(size):
        if scaled[i] < 1.0:
            small[ns] = i
            ns += 1
        else:
            large[nl] = i
            nl += 1
    prob = np.ones(size)
    own = np.arange(size)
    while ns > 0 and nl > 0:
        ns -= 1
        s = small[ns]
        nl -= 1
        g = large[nl]
        prob[s] = scaled[s]
        own[s] = g
        scaled[g] = scaled[g] + scaled[s] - 1.0
        if scaled[g] < 1.0:
            small[ns] = g
            ns += 1
        else:
            large[nl] = g
            nl += 1
    # the columns left over hold 1 up to rounding: they keep their own outcome
    scale = 2.0 ** (_U64 - k)
    whole = np.uint64(1) << np.uint64(_U64 - k)
    for i in range(size):
        if prob[i] >= 1.0 or own[i] == i:
            thr[start + i] = whole
        else:
            thr[start + i] = np.uint64(prob[i] * scale)
        alias[start + i] = own[i]
    return k


@nb.njit(inline="always", **TRIAL_JIT)
def alias_pick(word, thr, alias, start, k):
    """The outcome index one 64-bit ``word`` draws from a table made by :func:`alias_into`."""
    shift = np.uint64(_U64 - k)
    column = np.int64(word >> shift)
    low = word & ((_U1 << shift) - _U1)
    if low < thr[start + column]:
        return column
    return np.int64(alias[start + column])


@nb.njit(**JIT)
def alias_probabilities(thr, alias, start, k):
    """The exact distribution a table draws (for tests): every column's share of its own outcome and of
    its alias."""
    size = 1 << k
    whole = 2.0 ** (_U64 - k)
    out = np.zeros(size)
    for i in range(size):
        own = thr[start + i] / whole
        out[i] += own / size
        out[alias[start + i]] += (1.0 - own) / size
    return out


# --- the bank --------------------------------------------------------------------------------------------


@nb.njit(**TRIAL_JIT)
def _reroll_kind(n, reroll_failures, reroll_limit):
    """0: no rerolls; 1: every failure (or a limit of at least n, the same thing); 1 + L: up to L."""
    if reroll_failures:
        return _REROLL_ALL
    if reroll_limit <= 0:
        return _NO_REROLL
    if reroll_limit >= n:
        return _REROLL_ALL
    return 1 + reroll_limit


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
        """A new, empty bank (a tuple of arrays every njit stage function takes)."""
        params = np.zeros(_N_PARAMS, np.int64)
        params[:_USED] = [self.sides, self.max_n, self.max_limit, self.capacity, int(self.by_die)]
        return (params, np.full(self.n_keys, -1, np.int64), np.zeros((self.n_keys, 2), np.int64),
                np.zeros(self.capacity, np.uint64), np.zeros(self.capacity, np.int32))


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


@nb.njit(**TRIAL_JIT)
def _key(params, n, threshold, top_mode, chain, kind, joint):
    return (((((joint * 2 + chain) * 3 + top_mode) * (params[_MAX_LIMIT] + 2) + kind)
             * (params[_SIDES] + 1) + threshold) * (params[_MAX_N] + 1) + n)


@nb.njit(**TRIAL_JIT)
def _covers(params, n, threshold, reroll_failures, reroll_limit):
    """Whether the bank draws this stage from a table (else die by die)."""
    return not (params[_BY_DIE] or n > params[_MAX_N] or threshold < 1 or threshold > params[_SIDES]
                or (not reroll_failures and params[_MAX_LIMIT] < reroll_limit < n))


@nb.njit(**JIT)
def _build(bank, key, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """Put the table of one stage in the bank (flushing the bank first when it is full). A joint table's
    outcome ``index`` is ``successes << w | criticals`` (criticals padded to ``2**w`` columns, so decoding
    is two bit operations)."""
    params, start, shape, thr, alias = bank
    pmf = success_pmf(n, params[_SIDES], threshold, top_mode, chain, reroll_failures, reroll_limit)
    w = 0
    if not joint:
        flat = pmf.sum(axis=1)
    else:
        while (1 << w) < pmf.shape[1]:
            w += 1
        flat = np.zeros(pmf.shape[0] << w)
        for row in range(pmf.shape[0]):
            flat[row << w:(row << w) + pmf.shape[1]] = pmf[row]
    need = 1 << _bits_for(flat.shape[0])
    if params[_USED] + need > params[_CAPACITY]:
        start[:] = -1
        params[_USED] = 0
    at = params[_USED]
    k = alias_into(flat, thr, alias, at)
    params[_USED] = at + need
    start[key] = at
    shape[key, 0] = k
    shape[key, 1] = w


@nb.njit(**JIT)
def stage_table(bank, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """(start, k, w) of the table of one stage, built if need be (-1, 0, 0 when the bank does not cover it):
    a kernel whose every trial draws the same stage looks it up once and draws with :func:`alias_pick`
    (outcome ``index`` is successes ``index >> w``, criticals ``index & (2**w - 1)``)."""
    params, start, shape, _thr, _alias = bank
    if n <= 0 or not _covers(params, n, threshold, reroll_failures, reroll_limit):
        return -1, 0, 0
    key = _key(params, n, threshold, top_mode, np.int64(chain != 0), _reroll_kind(n, reroll_failures,
               reroll_limit), np.int64(joint != 0))
    if start[key] < 0:
        _build(bank, key, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint)
    return start[key], shape[key, 0], shape[key, 1]


@nb.njit(**JIT)
def fill_missing(bank):
    """Build the table a trial asked for and the bank lacked; True if there was one (the trial, which drew
    nothing for that stage, must then be run again from its start)."""
    params = bank[0]
    if not params[_MISSING]:
        return False
    r = params[_REQUEST:]
    _build(bank, r[7], r[0], r[1], r[2], r[3] != 0, r[4] != 0, r[5], r[6] != 0)
    params[_MISSING] = 0
    return True


@nb.njit(**TRIAL_JIT)
def success_roll_direct(state, n, sides, threshold, top_mode, chain, reroll_failures, reroll_limit):
    """:func:`simcore.dice.success_roll` die by die without face tables (nothing allocated): (successes,
    criticals)."""
    successes = 0
    criticals = 0
    budget = n if reroll_failures else reroll_limit
    for _ in range(n):
        face = roll_die(state, sides)
        fails = (face < threshold and face != sides) or (face == sides and top_mode == TOP_FAIL)
        if fails and budget > 0:
            budget -= 1
            face = roll_die(state, sides)
            fails = (face < threshold and face != sides) or (face == sides and top_mode == TOP_FAIL)
        if not fails:
            successes += 1
            if face == sides and top_mode == TOP_EXPLODE:
                criticals += 1
    extra = criticals
    while extra > 0:
        extra -= 1
        face = roll_die(state, sides)
        if face == sides:
            successes += 1
            if chain:
                criticals += 1
                extra += 1
        elif face >= threshold:
            successes += 1
    return successes, criticals


@nb.njit(inline="always", **TRIAL_JIT)
def success_draw(bank, state, n, threshold, top_mode, chain, reroll_failures, reroll_limit, joint):
    """A success roll (:func:`simcore.dice.success_roll`'s arguments, its die count ``n``) as (successes,
    criticals): one word of ``state`` drawn from the bank's table for it, or die by die when the bank does
    not cover it. Criticals are drawn only when ``joint`` (else 0).

    Allocates nothing, so a trial's code can call it. When the bank lacks the table, the stage is noted in
    the bank and (0, 0) returned: the kernel's driver then calls :func:`fill_missing` and runs the trial
    again from its start on the same stream.
    """
    params, start, shape, thr, alias = bank
    if n <= 0:
        return 0, 0
    if not _covers(params, n, threshold, reroll_failures, reroll_limit):
        s, c = success_roll_direct(state, n, params[_SIDES], threshold, top_mode, chain, reroll_failures,
                                   reroll_limit)
        return s, (c if joint else 0)
    key = _key(params, n, threshold, top_mode, np.int64(chain != 0),
               _reroll_kind(n, reroll_failures, reroll_limit), np.int64(joint != 0))
    at = start[key]
    if at < 0:
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
        return 0, 0
    w = shape[key, 1]
    index = alias_pick(next_u64(state), thr, alias, at, shape[key, 0])
    return index >> w, index & ((1 << w) - 1)


@nb.njit(**TRIAL_JIT)
def missing(params):
    """Whether a trial asked the bank whose ``params`` (its first array) these are for a table it lacked
    (see :func:`success_draw`)."""
    return params[_MISSING] != 0
